/**
 * Notes on config overrides that match nothing in a run, to catch typos: an override meant to
 * tighten a gate for one server, whose `servers` names the file (`payments.json`), another
 * letter case (`Payments`), the serverInfo.name of a server the run names after its config
 * entry, or a near spelling (`paymnets`) of the server `payments`, applied to nothing and said
 * nothing. A pattern is noted only when there is such a near miss to suggest: a team's config
 * legitimately holds overrides for servers (and tools) a given run does not lint, and one for
 * a client config entry the run skipped (disabled) is no typo. A note never fails a run.
 */
import { basename } from 'node:path';
import type { ServerInput } from '../types.js';
import { nameMatcher } from '../util/name-glob.js';
import { isObject } from '../util/json.js';
import { closest, quote } from '../util/text.js';
import type { OverrideEntry } from './resolve.js';

/** A server as the overrides see it: the name findings carry, and the names of its tools. */
export interface OverrideTarget {
  name: string;
  tools: readonly string[];
  /** Its file's name and path as shown (for "payments.json is the file of server payments"). */
  files: readonly string[];
  /** Other names it went by in the run: diff names a server after the head's (the base's is one of these). */
  aliases?: readonly string[];
  /** Its serverInfo.name, when the run names it after its client config entry ("time" for serverInfo "mcp-time"). */
  infoName?: string;
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
  const info = server.serverInfo?.name;
  const infoName = server.entryNamed && typeof info === 'string' && info !== '' && info !== server.name ? info : undefined;
  return { name: server.name, tools: toolNames(server), files: fileNames(server), ...(infoName !== undefined ? { infoName } : {}) };
}

/**
 * One note per override whose `servers` match none of the run's servers, or whose `tools`
 * match no tool of the servers it applies to — only when a pattern is a near miss of a name in
 * the run (see serverHint, toolHint). The caller leaves them out when an input could not be
 * read (its server cannot be matched).
 * @param skipped Client config entries the run skipped (disabled, …), each already said in a
 *   note: an override naming one is not noted.
 */
export function overrideNotes(entries: readonly OverrideEntry[], servers: readonly OverrideTarget[], skipped: readonly string[] = []): string[] {
  const notes: string[] = [];
  for (const entry of entries) {
    let applies = servers;
    if (entry.servers) {
      const match = nameMatcher(entry.servers);
      applies = servers.filter((s) => match(s.name));
      if (applies.length === 0) {
        // For a server the run skipped (disabled): its note says so, and the override is no typo.
        if (skipped.some(match)) continue;
        const hint = serverHint(entry.servers, servers);
        if (hint) notes.push(`${entry.at.servers}: overrides[${entry.index}].servers matched no server in this run${hint}`);
        continue;
      }
    }
    if (entry.tools) {
      const match = nameMatcher(entry.tools);
      if (applies.some((s) => s.tools.some(match))) continue;
      const of = entry.servers ? ' of the servers it applies to' : '';
      const hint = toolHint(entry.tools, applies.flatMap((s) => s.tools));
      if (hint) notes.push(`${entry.at.tools}: overrides[${entry.index}].tools matched no tool${of} in this run${hint}`);
    }
  }
  return notes;
}

/** Each pattern as a glob of its own, leaving out "!" ones (what would they suggest?). */
function positive(patterns: readonly string[]): string[] {
  return patterns.filter((p) => !p.startsWith('!'));
}

/**
 * "; did you mean "payments"? ("payments.json" names the file of server "payments": overrides
 * match server names)", or "" when no pattern is a near miss of a server of the run: its
 * file's name, another name it went by (diff's base side), its serverInfo.name when the run
 * names it after its config entry, another letter case, or a near spelling (a small edit
 * distance, as the config's other did-you-means) of its name or serverInfo.name.
 */
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
    const info = servers.find((s) => s.infoName !== undefined && exact(s.infoName));
    if (info) {
      offer(info.name);
      why.push(`${quote(p, SHOWN)} is the serverInfo.name of server ${quote(info.name, SHOWN)}, which the run names after its config entry: overrides match that name`);
      continue;
    }
    // A namespaced server (io.github.acme/weather) named by its last part: globs match whole names.
    const tail = servers.find((s) => s.name.includes('/') && exact(s.name.slice(s.name.lastIndexOf('/') + 1)));
    if (tail) {
      offer(tail.name);
      why.push(`${quote(p, SHOWN)} matches only the last part of server ${quote(tail.name, SHOWN)}: globs match the whole name (write "**/${p}")`);
      continue;
    }
    const nocase = nameMatcher([p], { nocase: true });
    const cased = servers.filter((s) => nocase(s.name));
    if (cased.length) {
      for (const s of cased) offer(s.name);
      why.push(`${quote(p, SHOWN)} differs in letter case: globs are case-sensitive`);
      continue;
    }
    const near = closest(p, servers.map((s) => s.name));
    if (near !== undefined) {
      offer(near);
      why.push(`${quote(p, SHOWN)} is a near spelling of ${quote(near, SHOWN)}`);
      continue;
    }
    const nearInfo = closest(p, servers.flatMap((s) => (s.infoName !== undefined ? [s.infoName] : [])));
    const named = nearInfo !== undefined ? servers.find((s) => s.infoName === nearInfo) : undefined;
    if (named) {
      offer(named.name);
      why.push(`${quote(p, SHOWN)} is a near spelling of ${quote(nearInfo!, SHOWN)}, the serverInfo.name of server ${quote(named.name, SHOWN)}, which the run names after its config entry`);
    }
  }
  return didYouMean(names, why);
}

/** "; did you mean "refund"? ("Refund" differs in letter case: globs are case-sensitive)", or "" when no pattern is a near miss of a tool's name. */
function toolHint(patterns: readonly string[], tools: readonly string[]): string {
  const names: string[] = [];
  const why: string[] = [];
  const unique = [...new Set(tools)];
  for (const p of positive(patterns)) {
    const nocase = nameMatcher([p], { nocase: true });
    const cased = unique.filter(nocase);
    if (cased.length) {
      for (const t of cased) if (!names.includes(t)) names.push(t);
      why.push(`${quote(p, SHOWN)} differs in letter case: globs are case-sensitive`);
      continue;
    }
    const near = closest(p, unique);
    if (near !== undefined) {
      if (!names.includes(near)) names.push(near);
      why.push(`${quote(p, SHOWN)} is a near spelling of ${quote(near, SHOWN)}`);
    }
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
