/**
 * Notes on config overrides that match nothing in a run: an override meant to tighten a gate
 * for one server, whose `servers` names the file (`payments.json`) or another letter case
 * (`Payments`) of the server `payments`, applied to nothing and said nothing. A note never
 * fails a run, and says "in this run": a team's config may hold overrides for servers a given
 * run does not lint.
 */
import { basename } from 'node:path';
import type { ServerInput } from '../types.js';
import { nameMatcher } from '../util/name-glob.js';
import { isObject } from '../util/json.js';
import { quote } from '../util/text.js';
import type { OverrideEntry } from './resolve.js';

/** A server as the overrides see it: the name findings carry, and the names of its tools. */
export interface OverrideTarget {
  name: string;
  tools: readonly string[];
  /** Its file's name and path as shown (for "payments.json is the file of server payments"). */
  files: readonly string[];
  /** Other names it went by in the run: diff names a server after the head's (the base's is one of these). */
  aliases?: readonly string[];
}

/** How many names a "did you mean" offers. */
const SUGGESTIONS = 3;
/** How much of a name or pattern a note shows. */
const SHOWN = 60;

/** The tool names a finding about a tool of this server can carry: as the engine names them (`#3` for one without a name), and a transcript's calls. */
export function toolNames(server: ServerInput): string[] {
  const names = server.tools.map((t, i) => (isObject(t.value) && typeof t.value.name === 'string' && t.value.name !== '' ? t.value.name : `#${i}`));
  for (const step of server.session?.steps ?? []) {
    const name = step.params?.name;
    if (step.serverId === server.id && typeof name === 'string' && name !== '') names.push(name);
  }
  return names;
}

/** The file names of a server's source: its path as shown and its base name. */
export function fileNames(server: ServerInput): string[] {
  const o = server.origin;
  const path = o.kind === 'file' ? o.path : o.kind === 'live' ? o.snapshot : undefined;
  if (path === undefined) return [];
  // The stem too ("payments" of payments.json): the name the server would have without serverInfo.name.
  const base = basename(path);
  return [...new Set([o.display, base, base.replace(/(\.tools)?\.jsonl?$/i, '')])];
}

/** A server of a lint run as the overrides see it. */
export function overrideTarget(server: ServerInput): OverrideTarget {
  return { name: server.name, tools: toolNames(server), files: fileNames(server) };
}

/**
 * One note per override whose `servers` match none of the run's servers, or whose `tools`
 * match no tool of the servers it applies to, with a "did you mean" when a pattern matches a
 * name in another letter case or names a server's file. The caller leaves them out when an
 * input could not be read (its server cannot be matched).
 */
export function overrideNotes(entries: readonly OverrideEntry[], servers: readonly OverrideTarget[]): string[] {
  const notes: string[] = [];
  for (const entry of entries) {
    let applies = servers;
    if (entry.servers) {
      const match = nameMatcher(entry.servers);
      applies = servers.filter((s) => match(s.name));
      if (applies.length === 0) {
        notes.push(`${entry.at.servers}: overrides[${entry.index}].servers matched no server in this run${serverHint(entry.servers, servers)}`);
        continue;
      }
    }
    if (entry.tools) {
      const match = nameMatcher(entry.tools);
      if (applies.some((s) => s.tools.some(match))) continue;
      const of = entry.servers ? ' of the servers it applies to' : '';
      notes.push(`${entry.at.tools}: overrides[${entry.index}].tools matched no tool${of} in this run${caseHint(entry.tools, applies.flatMap((s) => s.tools))}`);
    }
  }
  return notes;
}

/** Each pattern as a glob of its own, leaving out "!" ones (what would they suggest?). */
function positive(patterns: readonly string[]): string[] {
  return patterns.filter((p) => !p.startsWith('!'));
}

/** "; did you mean "payments"? ("payments.json" names the file of server "payments": overrides match server names)", or "". */
function serverHint(patterns: readonly string[], servers: readonly OverrideTarget[]): string {
  const names: string[] = [];
  const why: string[] = [];
  const offer = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  for (const p of positive(patterns)) {
    const exact = nameMatcher([p]);
    const file = servers.find((s) => s.files.some(exact));
    if (file) {
      offer(file.name);
      why.push(`${quote(p, SHOWN)} names the file of server ${quote(file.name, SHOWN)}: overrides match server names`);
      continue;
    }
    const alias = servers.find((s) => s.aliases?.some(exact));
    if (alias) {
      offer(alias.name);
      why.push(`${quote(p, SHOWN)} names the base side of server ${quote(alias.name, SHOWN)}: diff names the servers it compares after the head`);
      continue;
    }
    const nocase = nameMatcher([p], { nocase: true });
    const cased = servers.filter((s) => nocase(s.name));
    if (cased.length) {
      for (const s of cased) offer(s.name);
      why.push(`${quote(p, SHOWN)} differs in letter case: globs are case-sensitive`);
    }
  }
  return didYouMean(names, why);
}

/** "; did you mean "refund"? ("Refund" differs in letter case: globs are case-sensitive)", or "". */
function caseHint(patterns: readonly string[], tools: readonly string[]): string {
  const names: string[] = [];
  const why: string[] = [];
  for (const p of positive(patterns)) {
    const nocase = nameMatcher([p], { nocase: true });
    const cased = [...new Set(tools.filter(nocase))];
    if (cased.length === 0) continue;
    for (const t of cased) if (!names.includes(t)) names.push(t);
    why.push(`${quote(p, SHOWN)} differs in letter case: globs are case-sensitive`);
  }
  return didYouMean(names, why);
}

function didYouMean(names: readonly string[], why: readonly string[]): string {
  if (names.length === 0) return '';
  const shown = names.slice(0, SUGGESTIONS).map((n) => quote(n, SHOWN));
  const more = names.length > SUGGESTIONS ? ` (or ${names.length - SUGGESTIONS} more)` : '';
  const list = shown.length === 1 ? shown[0]! : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
  return `; did you mean ${list}${more}? (${why.join('; ')})`;
}
