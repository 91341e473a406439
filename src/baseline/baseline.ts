/**
 * Baselines: adopt mcp-annotate in a repository with existing findings and gate only new
 * ones.
 *
 * A baseline file lists the known findings, one entry per server / tool / rule /
 * tool-relative pointer with a count. Matching:
 *
 * 1. A finding's key is (server name, tool name, rule id, pointer within the tool, detail).
 *    Line numbers and the tool's position in the list play no part, so moved lines and
 *    reordered tools change nothing. The pointer is the finding's keyPointer when it has one
 *    (set members named by value, a missing member by its own pointer: see identityOf in the
 *    engine). Entries in the forms earlier versions wrote (the finding's toolPointer, no
 *    detail) cover what no entry in the current form covers; one whose pointer has an array
 *    index only while the tool's fingerprint is the entry's (the index meant what stood there).
 * 2. An entry absorbs up to `count` findings with its key, in report order; findings
 *    beyond the count are new.
 * 3. A renamed tool: per server, a tool name that no entry knows is matched to an entry's
 *    tool name that is no longer a tool of the server when both have the same content
 *    fingerprint (a hash of the tool's annotations, inputSchema, outputSchema and _meta)
 *    and no other vanished or new tool of that server has it. Its entries then absorb the
 *    new name's findings as in 2.
 * 4. What an entry did not absorb is stale: the finding is gone (or fewer remain).
 * 5. A renamed server: a server name that no entry knows is matched to an entry's server
 *    name that is not in the run when every baselined tool of the old name (every entry
 *    with a fingerprint) is in the new one — a tool with the same fingerprint whose content
 *    can tell tools apart (it may be renamed too), or a tool of the same name with the same
 *    fingerprint (a bare tool: known by its name, as content alone cannot tell it apart) —
 *    and no other vanished or new server pairs with either. Its entries then apply to the
 *    new name as in 1-4 (tools renamed along with it are followed by 3).
 *
 * Server-level findings (no tool) have a pointer within their server's part of the document
 * (ServerInput.root, for documents with several servers) or, in a session transcript, within
 * the entry of the message they point into (ServerInput.entries); else an absolute one.
 */
import { canonical } from '../engine/possible-sets.js';
import type { Finding, ServerInput } from '../types.js';
import { escapeJsonControls, isObject } from '../util/json.js';
import { hasIndexSegment } from '../util/pointer.js';

/** node:crypto, loaded when the first hash is needed (it costs start-up time otherwise). */
const sha256 = () => process.getBuiltinModule('node:crypto').createHash('sha256');

export const BASELINE_VERSION = 1;

export interface BaselineEntry {
  server: string;
  /** Absent for server-level findings. */
  tool?: string;
  rule: string;
  /** Pointer within the tool (absolute for server-level findings). */
  pointer: string;
  /** The finding's detail, for rules that give one (see ReportInput.detail). */
  detail?: string;
  count: number;
  /** Content fingerprint of the tool, to follow it through a rename. */
  fingerprint?: string;
  /** The first finding's message, for people reading the file; not used for matching. */
  message?: string;
  /** Why the finding is accepted; kept across updates. */
  justification?: string;
}

export interface Baseline {
  version: typeof BASELINE_VERSION;
  entries: BaselineEntry[];
}

/** A hash of what a tool declares, without its name: annotations, inputSchema, outputSchema and _meta. */
export function toolFingerprint(tool: unknown): string {
  const t = isObject(tool) ? tool : {};
  const content = canonical({ annotations: t.annotations ?? null, inputSchema: t.inputSchema ?? null, outputSchema: t.outputSchema ?? null, _meta: t._meta ?? null });
  return sha256().update(content).digest('hex').slice(0, 16);
}

const SEP = '\u0000';
/** In a key: no detail (an entry written before its rule gave one covers any detail). */
const NO_DETAIL = '\u0001';
const keyOf = (server: string, tool: string | undefined, rule: string, pointer: string, detail: string | undefined) =>
  [server, tool ?? SEP, rule, pointer, detail ?? NO_DETAIL].join(SEP);

/** An entry's key: two entries with the same one are one finding written twice (a bad merge, a hand edit). */
export const entryKey = (e: BaselineEntry): string => keyOf(e.server, e.tool, e.rule, e.pointer, e.detail);

interface ServerTools {
  /** Tool name → fingerprint, for every tool of every server with this name in the run. */
  tools: Map<string, string>;
  /** The tools whose fingerprinted content can tell them apart (see distinctive). */
  distinctive: Set<string>;
}

/**
 * Whether the content a fingerprint covers says enough to recognise a tool by: annotations or
 * _meta with a member, an outputSchema, or input properties. A bare tool ({type: "object"}
 * and nothing else) has the fingerprint of every other bare tool: "ping" replaced by an
 * unannotated "drop_database" is not a rename.
 */
function distinctive(tool: unknown): boolean {
  if (!isObject(tool)) return false;
  const filled = (v: unknown) => isObject(v) && Object.keys(v).length > 0;
  const schema = tool.inputSchema;
  return filled(tool.annotations) || filled(tool._meta) || tool.outputSchema !== undefined || (isObject(schema) && filled(schema.properties));
}

function toolsByServer(servers: readonly ServerInput[]): Map<string, ServerTools> {
  const out = new Map<string, ServerTools>();
  for (const s of servers) {
    const entry = out.get(s.name) ?? { tools: new Map<string, string>(), distinctive: new Set<string>() };
    s.tools.forEach((t, i) => {
      const name = isObject(t.value) && typeof t.value.name === 'string' && t.value.name !== '' ? t.value.name : `#${i}`;
      if (entry.tools.has(name)) return;
      entry.tools.set(name, toolFingerprint(t.value));
      if (distinctive(t.value)) entry.distinctive.add(name);
    });
    out.set(s.name, entry);
  }
  return out;
}

export interface Rename {
  /** The server's name in the baseline. */
  server: string;
  from: string;
  to: string;
}

export interface ServerRename {
  /** The name in the baseline. */
  from: string;
  /** The name in this run. */
  to: string;
}

/** Servers of the run that are baselined servers under a new name (rule 5). */
export function findServerRenames(entries: readonly BaselineEntry[], servers: readonly ServerInput[]): ServerRename[] {
  const current = toolsByServer(servers);
  // Per baselined server, its baselined tools: name and fingerprint (each pair once).
  const baselined = new Map<string, Map<string, { tool: string; fp: string }>>();
  for (const e of entries) {
    const tools = baselined.get(e.server) ?? new Map<string, { tool: string; fp: string }>();
    if (e.tool !== undefined && e.fingerprint !== undefined) tools.set(e.tool + SEP + e.fingerprint, { tool: e.tool, fp: e.fingerprint });
    baselined.set(e.server, tools);
  }
  const vanished = [...baselined].filter(([name, tools]) => !current.has(name) && tools.size > 0).map(([name, tools]) => ({ name, tools: [...tools.values()] }));
  // By content, only fingerprints that can tell tools apart: a server of bare tools matched any
  // other server with a bare tool. A bare tool is recognised by its name and its content
  // together: "ping" is not "drop_database", whatever their content.
  const fresh = [...current]
    .filter(([name]) => !baselined.has(name))
    .map(([name, s]) => ({ name, tools: s.tools, fps: new Set([...s.tools].filter(([tool]) => s.distinctive.has(tool)).map(([, fp]) => fp)) }));
  type Fresh = (typeof fresh)[number];
  const holds = (n: Fresh, t: { tool: string; fp: string }) => n.fps.has(t.fp) || n.tools.get(t.tool) === t.fp;
  const pairs: ServerRename[] = [];
  for (const old of vanished) {
    const candidates = fresh.filter((n) => old.tools.every((t) => holds(n, t)));
    if (candidates.length !== 1) continue;
    const to = candidates[0]!;
    const rivals = vanished.filter((other) => other.tools.every((t) => holds(to, t)));
    if (rivals.length === 1) pairs.push({ from: old.name, to: to.name });
  }
  return pairs.sort((a, b) => cmp(a.to, b.to));
}

/** Per server: current tool name → the baselined name it was renamed from (rule 3). */
export function findRenames(entries: readonly BaselineEntry[], servers: readonly ServerInput[], serverRenames: readonly ServerRename[] = []): Rename[] {
  const current = toolsByServer(servers);
  const renamedTo = new Map(serverRenames.map((r) => [r.from, r.to]));
  const out: Rename[] = [];
  const baselined = new Map<string, Map<string, string | undefined>>();
  for (const e of entries) {
    if (e.tool === undefined) continue;
    const tools = baselined.get(e.server) ?? new Map<string, string | undefined>();
    if (!tools.has(e.tool) || tools.get(e.tool) === undefined) tools.set(e.tool, e.fingerprint);
    baselined.set(e.server, tools);
  }
  for (const [server, old] of baselined) {
    const now = current.get(renamedTo.get(server) ?? server);
    if (!now) continue;
    const vanished = [...old].filter(([name, fp]) => !now.tools.has(name) && fp !== undefined) as [string, string][];
    const fresh = [...now.tools].filter(([name]) => !old.has(name));
    for (const [from, fp] of vanished) {
      const sameOld = vanished.filter(([, f]) => f === fp);
      const sameNew = fresh.filter(([, f]) => f === fp);
      if (sameOld.length === 1 && sameNew.length === 1 && now.distinctive.has(sameNew[0]![0])) out.push({ server, from, to: sameNew[0]![0] });
    }
  }
  return out.sort((a, b) => cmp(a.server, b.server) || cmp(a.to, b.to));
}

export interface StaleEntry {
  entry: BaselineEntry;
  /** Index in the file's entries. */
  index: number;
  /** How many of its count no finding matched. */
  unmatched: number;
  /**
   * The finding still occurs, under another server name (reported as new there): those servers'
   * names, sorted. `serverGone` when no server of the entry's name is in the run (a renamed
   * server rule 5 could not follow).
   */
  elsewhere?: { servers: string[]; serverGone: boolean };
  /**
   * For an entry whose detail lists tools (a policy's "cannot be decided" note): the note still
   * occurs, but about more tools than the entry lists, so it is reported as new — these are the
   * tools it now lists.
   */
  grown?: string[];
  /**
   * For an entry with a detail (not a tool list): the same rule still reports the same place of
   * the same tool, but with this other detail (hidden-characters "U+200B" → "U+200B U+202E",
   * duplicate-key "same" → "different"); that finding is reported as new (BaselineMatch.changedFrom).
   */
  now?: string;
}

export interface BaselineMatch {
  /** Findings the baseline does not cover, in their order. */
  fresh: Finding[];
  /** How many findings the baseline covered. */
  known: number;
  stale: StaleEntry[];
  renames: Rename[];
  serverRenames: ServerRename[];
  /** For each covered finding, the entry that covered it. */
  coveredBy: Map<Finding, number>;
  /** A note reported as new because it now lists more tools, and the entry it grew from (StaleEntry.grown): --update-baseline keeps its justification. */
  grewFrom: Map<Finding, number>;
  /** A finding reported as new because its detail changed, and the entry it changed from (StaleEntry.now): --update-baseline does not carry that entry's justification to it. */
  changedFrom: Map<Finding, number>;
}

/**
 * Match findings against a baseline.
 * @param complete Whether every target of the run could be read. When some could not, entries
 *   of servers that are not in the run are not called stale (they could not be checked).
 * @param unchecked Names of servers in the run that were not fully linted (the run stopped at
 *   the findings limit in or before them): their entries are not called stale either.
 */
export function matchBaseline(
  findings: readonly Finding[],
  servers: readonly ServerInput[],
  entries: readonly BaselineEntry[],
  complete: boolean,
  unchecked: ReadonlySet<string> = new Set(),
): BaselineMatch {
  const serverRenames = findServerRenames(entries, servers);
  const serverAlias = new Map(serverRenames.map((r) => [r.to, r.from]));
  const renames = findRenames(entries, servers, serverRenames);
  const alias = new Map(renames.map((r) => [r.server + SEP + r.to, r.from]));
  const slots = new Map<string, { index: number; remaining: number }[]>();
  // Entries whose detail is a list of tool names (a policy's "cannot be decided" note), by their
  // key without it: a finding about some of those tools is covered by it (see toolList).
  const lists = new Map<string, { slot: { index: number; remaining: number }; tools: Set<string> }[]>();
  entries.forEach((e, index) => {
    const k = keyOf(e.server, e.tool, e.rule, e.pointer, e.detail);
    const slot = { index, remaining: e.count };
    slots.set(k, [...(slots.get(k) ?? []), slot]);
    const tools = toolList(e.detail);
    if (tools) {
      const lk = keyOf(e.server, e.tool, e.rule, e.pointer, undefined);
      lists.set(lk, [...(lists.get(lk) ?? []), { slot, tools: new Set(tools) }]);
    }
  });
  /** An entry listing every tool the finding lists (under their baselined names): fewer tools, or renamed ones, are no news. */
  const coveringList = (f: Finding, server: string, tool: string | undefined) => {
    const named = toolList(f.detail);
    if (!named) return undefined;
    const now = named.map((t) => alias.get(server + SEP + t) ?? t);
    return lists.get(keyOf(server, tool, f.ruleId, f.keyPointer ?? f.toolPointer, undefined))?.find((l) => l.slot.remaining > 0 && now.every((t) => l.tools.has(t)))?.slot;
  };
  const coveredBy = new Map<Finding, number>();
  const names = (f: Finding) => {
    const server = serverAlias.get(f.server) ?? f.server;
    return { server, tool: f.tool === undefined ? undefined : (alias.get(server + SEP + f.tool) ?? f.tool) };
  };
  // First every finding whose key is in the file as it is written now; then, for the rest, the
  // forms earlier versions wrote, so an entry in an old form never takes a finding from the
  // entry written for it.
  const left: Finding[] = [];
  for (const f of findings) {
    const { server, tool } = names(f);
    const slot = slots.get(keyOf(server, tool, f.ruleId, f.keyPointer ?? f.toolPointer, f.detail))?.find((s) => s.remaining > 0);
    if (slot) {
      slot.remaining--;
      coveredBy.set(f, slot.index);
    } else left.push(f);
  }
  const byId = new Map(servers.map((s) => [s.id, s]));
  const fingerprints = new Map<string, string | undefined>();
  /** The fingerprint of the tool a finding is about, as it is now (none for a tool the server does not list). */
  const fingerprintOf = (f: Finding): string | undefined => {
    if (f.toolIndex === undefined) return undefined;
    const k = f.serverId + SEP + f.toolIndex;
    if (!fingerprints.has(k)) {
      const t = byId.get(f.serverId)?.tools[f.toolIndex];
      fingerprints.set(k, t === undefined ? undefined : toolFingerprint(t.value));
    }
    return fingerprints.get(k);
  };
  const fresh: Finding[] = [];
  for (const f of left) {
    const { server, tool } = names(f);
    const open = (detail: string | undefined, pointer: string, ok?: (e: BaselineEntry) => boolean) =>
      slots.get(keyOf(server, tool, f.ruleId, pointer, detail))?.find((s) => s.remaining > 0 && (!ok || ok(entries[s.index]!)));
    const key = f.keyPointer ?? f.toolPointer;
    // An entry keyed by an index (/destination/1) means the member that stood there when it was
    // written: only while the tool is as it was then (its fingerprint) is that this finding's member.
    // A tool that changed may hold another value at that index ("evil" where "partner" was).
    const indexed = f.keyPointer !== undefined && hasIndexSegment(f.toolPointer);
    const unchanged = indexed ? (e: BaselineEntry) => e.fingerprint !== undefined && e.fingerprint === fingerprintOf(f) : undefined;
    // An entry without a detail (written before the rule gave one); an entry keyed by the
    // finding's place (written before set members were keyed by value and missing members by
    // their own pointer); for a server-level finding, an entry keyed by its absolute pointer
    // (written before such findings were keyed within their server's part of the document).
    const slot =
      (f.detail !== undefined ? open(undefined, key) : undefined) ??
      (f.keyPointer !== undefined ? (open(f.detail, f.toolPointer, unchanged) ?? (f.detail !== undefined ? open(undefined, f.toolPointer, unchanged) : undefined)) : undefined) ??
      (f.tool === undefined && f.pointer !== f.toolPointer ? (open(f.detail, f.pointer) ?? (f.detail !== undefined ? open(undefined, f.pointer) : undefined)) : undefined) ??
      coveringList(f, server, tool);
    if (slot) {
      slot.remaining--;
      coveredBy.set(f, slot.index);
    } else fresh.push(f);
  }
  const renamedFrom = new Set(serverRenames.map((r) => r.from));
  const linted = new Set([...servers.map((s) => s.name), ...renamedFrom]);
  // Unchecked servers under their baselined names too (a renamed server's entries keep the old one).
  const partial = new Set([...unchecked, ...[...unchecked].map((name) => serverAlias.get(name)).filter((n) => n !== undefined)]);
  const stale: StaleEntry[] = [];
  for (const list of slots.values()) {
    for (const s of list) {
      const entry = entries[s.index]!;
      if (s.remaining > 0 && (complete || linted.has(entry.server)) && !partial.has(entry.server)) stale.push({ entry, index: s.index, unmatched: s.remaining });
    }
  }
  stale.sort((a, b) => a.index - b.index);
  // A list entry not matched because its note now lists more tools is not a note that "no longer
  // occurs": say what it lists now (the note itself is reported as new, for the tools it added).
  const grewFrom = new Map<Finding, number>();
  for (const s of stale) {
    const listed = s.unmatched === s.entry.count ? toolList(s.entry.detail) : undefined;
    if (!listed) continue;
    const grown = fresh.find((f) => {
      if (grewFrom.has(f) || f.ruleId !== s.entry.rule || (f.keyPointer ?? f.toolPointer) !== s.entry.pointer) return false;
      const { server, tool } = names(f);
      if (server !== s.entry.server || tool !== s.entry.tool) return false;
      const now = toolList(f.detail)?.map((t) => alias.get(server + SEP + t) ?? t);
      return now !== undefined && listed.every((t) => now.includes(t));
    });
    if (!grown) continue;
    grewFrom.set(grown, s.index);
    s.grown = toolList(grown.detail);
  }
  // An entry with a detail whose finding is still there with another one (the detail is in the
  // key, so it is reported as new) did not "no longer occur" either: say what it is now.
  const changedFrom = new Map<Finding, number>();
  for (const s of stale) {
    const e = s.entry;
    if (s.grown || s.unmatched !== e.count || e.detail === undefined || toolList(e.detail)) continue;
    const changed = fresh.find((f) => {
      if (changedFrom.has(f) || grewFrom.has(f) || f.detail === undefined || f.detail === e.detail || toolList(f.detail)) return false;
      if (f.ruleId !== e.rule || (f.keyPointer ?? f.toolPointer) !== e.pointer) return false;
      const { server, tool } = names(f);
      return server === e.server && tool === e.tool;
    });
    if (!changed) continue;
    changedFrom.set(changed, s.index);
    s.now = changed.detail;
  }
  // An entry none of whose findings occur on its server, while the same finding (rule, tool,
  // place, detail) is reported as new on another server: it did not "no longer occur".
  const inRun = new Set(servers.map((s) => s.name));
  for (const s of stale) {
    if (s.grown || s.now !== undefined || s.unmatched !== s.entry.count) continue;
    const e = s.entry;
    const others = new Set<string>();
    for (const f of fresh) {
      if (f.ruleId !== e.rule || (f.keyPointer ?? f.toolPointer) !== e.pointer || (e.detail !== undefined && f.detail !== e.detail)) continue;
      const { server, tool } = names(f);
      if (server !== e.server && tool === e.tool) others.add(f.server);
    }
    if (others.size) s.elsewhere = { servers: [...others].sort(cmp), serverGone: !inRun.has(e.server) && !renamedFrom.has(e.server) };
  }
  return { fresh, known: coveredBy.size, stale, renames, serverRenames, coveredBy, grewFrom, changedFrom };
}

/** The tool names of a detail that lists tools (a JSON array of strings), else undefined. */
export function toolList(detail: string | undefined): string[] | undefined {
  if (detail === undefined || !detail.startsWith('[')) return undefined;
  try {
    const v: unknown = JSON.parse(detail);
    return Array.isArray(v) && v.every((t) => typeof t === 'string') ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A message with the array indexes of the pointers and field paths it quotes taken out (/tools/2/…, destination[1]). */
const withoutPositions = (message: string) => message.replace(/\/\d+(?=[/)\s,;]|$)/g, '/#').replace(/\[\d+\]/g, '[#]');

function cmp(a: string | undefined, b: string | undefined): number {
  return a === b ? 0 : a === undefined ? -1 : b === undefined ? 1 : a < b ? -1 : 1;
}

/**
 * A baseline of every finding: one entry per key with its count, sorted, with the
 * justification of the entry each finding matched before (so renames keep it too).
 */
export function buildBaseline(findings: readonly Finding[], servers: readonly ServerInput[], previous?: { entries: readonly BaselineEntry[]; match: BaselineMatch }): Baseline {
  const byId = new Map(servers.map((s) => [s.id, s]));
  const entries = new Map<string, BaselineEntry>();
  // One fingerprint per tool, not per entry: a tool with thousands of findings would otherwise
  // be serialised and hashed once for each of them (quadratic in the tool's size).
  const fingerprints = new Map<unknown, string>();
  const fingerprintOf = (tool: unknown): string => {
    let fp = fingerprints.get(tool);
    if (fp === undefined) fingerprints.set(tool, (fp = toolFingerprint(tool)));
    return fp;
  };
  for (const f of findings) {
    const pointer = f.keyPointer ?? f.toolPointer;
    const k = keyOf(f.server, f.tool, f.ruleId, pointer, f.detail);
    const was = previous?.match.coveredBy.get(f) ?? previous?.match.grewFrom.get(f);
    const before = was !== undefined ? previous!.entries[was] : undefined;
    let e = entries.get(k);
    if (!e) {
      const tool = f.toolIndex !== undefined ? byId.get(f.serverId)?.tools[f.toolIndex]?.value : undefined;
      // An entry that stays as it was keeps its message when only the positions it quotes moved
      // (/tools/2/… → /tools/5/…): reordering tools should not rewrite every line of the file,
      // but a finding that now says something else (category "mutate" → "destroy") is rewritten.
      const same =
        before !== undefined &&
        before.message !== undefined &&
        keyOf(before.server, before.tool, before.rule, before.pointer, before.detail) === k &&
        withoutPositions(before.message) === withoutPositions(f.message);
      e = {
        server: f.server,
        ...(f.tool !== undefined ? { tool: f.tool } : {}),
        rule: f.ruleId,
        pointer,
        ...(f.detail !== undefined ? { detail: f.detail } : {}),
        count: 0,
        ...(f.tool !== undefined && tool !== undefined ? { fingerprint: fingerprintOf(tool) } : {}),
        message: same ? before.message : f.message,
      };
      entries.set(k, e);
    }
    e.count++;
    const justification = before?.justification;
    if (justification !== undefined && e.justification === undefined) e.justification = justification;
  }
  const list = [...entries.values()].sort((a, b) => cmp(a.server, b.server) || cmp(a.tool, b.tool) || cmp(a.rule, b.rule) || cmp(a.pointer, b.pointer) || cmp(a.detail, b.detail));
  return { version: BASELINE_VERSION, entries: list };
}

/** The baseline file's text; C1 and bidi controls in a server's names written as \uXXXX (escapeJsonControls), as in reports. */
export function baselineText(baseline: Baseline): string {
  return escapeJsonControls(JSON.stringify(baseline, null, 2)) + '\n';
}
