/**
 * Snapshots: what a live server said, as a file `lint` reads back with positions.
 * {capabilities, protocolVersion, serverInfo, tools} (plus the tools/list result's own
 * fields such as 2026-07-28's cacheScope, but never one of those, nor one that would make the
 * file read as another kind: see buildSnapshot), keys sorted at every level, two-space indent,
 * a final newline: the same server gives the same bytes.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { CONFIG_FILES } from '../../config/load.js';
import { jsonDepth } from '../../schema/json-schema.js';
import { isKnownNonDumpName } from '../files.js';
import { escapeJsonControls, writeJson } from '../../util/json.js';

/** Whether a key is an array index, which JavaScript objects list first, in numeric order. */
const isIndex = (k: string) => /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 2 ** 32 - 1;

/** Sorted as JSON.stringify lists the keys of an object built in sorted order: array indexes first, by number, then the others. */
function byKey(a: string, b: string): number {
  const ia = isIndex(a);
  const ib = isIndex(b);
  if (ia !== ib) return ia ? -1 : 1;
  if (ia) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Nesting past which a snapshot is written without indentation: indented, 100,000 levels
 * would take 10 GB of spaces. No real tool list comes near it.
 */
export const MAX_INDENTED_DEPTH = 256;

/**
 * The snapshot as text: JSON.stringify(value, null, 2) with every object's keys in sorted
 * order (as the object with its keys inserted in sorted order lists them), and a final
 * newline; past MAX_INDENTED_DEPTH levels, JSON.stringify(value) instead (one line); a number
 * JSON.stringify writes as null or 0 (±Infinity: the server sent one past a double's range, such
 * as 1e400; -0) as text that reads back as it (1e400, -1e400, -0); C1 and bidi
 * controls and U+2028/U+2029 as \uXXXX (escapeJsonControls). Written
 * without recursion (see writeJson): a server's tools may nest 100,000 levels deep.
 */
export function snapshotText(snapshot: Record<string, unknown>): string {
  const indent = jsonDepth(snapshot, MAX_INDENTED_DEPTH) <= MAX_INDENTED_DEPTH ? '  ' : '';
  return `${escapeJsonControls(writeJson(snapshot, { indent, compareKeys: byKey, undefinedAs: 'omit', numbers: 'exact' }))}\n`;
}

/**
 * A snapshot's own fields: mcp-annotate fills them (from the initialize result, or the config
 * entry's name), never a tools/list result; a result's field of that name is left out ("tools"
 * and "nextCursor" are the listing itself).
 */
export const OWN_SNAPSHOT_KEYS: readonly string[] = ['capabilities', 'configEntry', 'protocolVersion', 'serverInfo', 'tools', 'nextCursor'];

/**
 * Fields of a tools/list result that would make its snapshot read as another kind of file: a
 * JSON-RPC message ("jsonrpc", "id", "result", "error", "method", "params"), a transcript's
 * wrapper ("message"), a config file or SARIF log ("$schema"; a directory scan skipped the
 * snapshot as one of the tool's own files), a SARIF log ("runs") or a JSON report ("tool",
 * "findings"). Left out of the snapshot, so `lint` reads back what the run linted.
 */
export const MISLEADING_RESULT_KEYS: readonly string[] = ['$schema', 'jsonrpc', 'id', 'result', 'error', 'method', 'params', 'message', 'runs', 'tool', 'findings'];

/** A tools/list result's own field (not "tools" or "nextCursor") that its snapshot keeps as the first page gave it. */
export function keptFromResult(key: string): boolean {
  return !OWN_SNAPSHOT_KEYS.includes(key) && !MISLEADING_RESULT_KEYS.includes(key);
}

/**
 * A live server's snapshot: the first tools/list page's own fields (cacheScope, _meta, …),
 * then what mcp-annotate records itself, which a result cannot set: capabilities, serverInfo
 * and protocolVersion from initialize, and all the pages' tools. The last page's nextCursor is
 * kept when it is null (it ended the listing, and a file with it gets schema-valid's finding:
 * a nextCursor is a string); a string one is the listing's own business, never kept. `dropped`:
 * the first page's fields left out (sorted); `later`: each later page's own fields that the
 * snapshot does not hold as that page sent them (not the first page's value), for notes.
 */
export function buildSnapshot(
  pages: readonly Record<string, unknown>[],
  init: Record<string, unknown>,
): { snapshot: Record<string, unknown>; dropped: string[]; later: { page: number; fields: string[] }[] } {
  const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  const firstPage = pages[0]!;
  const snapshot: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [k, v] of Object.entries(firstPage)) {
    if (k === 'tools' || k === 'nextCursor') continue;
    if (!keptFromResult(k)) dropped.push(k);
    // Defined, not assigned: a "__proto__" field is kept as a field, as JSON.parse made it.
    else Object.defineProperty(snapshot, k, { value: v, enumerable: true, writable: true, configurable: true });
  }
  const later: { page: number; fields: string[] }[] = [];
  pages.forEach((page, i) => {
    if (i === 0) return;
    const fields = Object.keys(page).filter((k) => k !== 'tools' && k !== 'nextCursor' && !(Object.prototype.hasOwnProperty.call(snapshot, k) && sameJson(snapshot[k], page[k])));
    if (fields.length) later.push({ page: i + 1, fields: fields.sort() });
  });
  snapshot.capabilities = isObject(init.capabilities) ? init.capabilities : {};
  snapshot.serverInfo = isObject(init.serverInfo) ? init.serverInfo : {};
  snapshot.tools = pages.flatMap((p) => p.tools as unknown[]);
  if (pages[pages.length - 1]!.nextCursor === null) snapshot.nextCursor = null;
  if (typeof init.protocolVersion === 'string') snapshot.protocolVersion = init.protocolVersion;
  return { snapshot, dropped: dropped.sort(), later };
}

/** Whether two JSON values are the same (objects compared member by member, in any order). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The note for a live server whose tools/list result had fields its snapshot leaves out. */
export function droppedNote(label: string, dropped: readonly string[]): string {
  const list = dropped.map((k) => JSON.stringify(k)).join(', ');
  return (
    `${label}: its tools/list result's ${list} ${dropped.length === 1 ? 'is' : 'are'} left out of its snapshot and not linted: ` +
    `a snapshot's "capabilities", "configEntry", "protocolVersion" and "serverInfo" are mcp-annotate's own (from initialize and the config entry), ` +
    `and a "$schema", "jsonrpc", "result", "message", "tool" or the like would make the file read as something other than a snapshot`
  );
}

/** The note for a live server whose later tools/list pages had fields of their own: a snapshot holds the first page's. */
export function laterPagesNote(label: string, later: readonly { page: number; fields: readonly string[] }[]): string {
  const said = later.slice(0, 3).map((l) => `page ${l.page}'s ${l.fields.slice(0, 5).map((k) => JSON.stringify(k)).join(', ')}${l.fields.length > 5 ? ', …' : ''}`);
  const more = later.length > 3 ? ` and ${later.length - 3} more page${later.length === 4 ? '' : 's'}` : '';
  return (
    `${label}: ${said.join('; ')}${more} ${later.length === 1 && later[0]!.fields.length === 1 ? 'is' : 'are'} left out of its snapshot and not linted: ` +
    `a snapshot holds every page's tools and the first page's other fields (its tools/list result)`
  );
}

/** Why a snapshot did not take its first name: another file of the run has it, a snapshot never takes it, or a file there is kept. */
export type SnapshotNameClash = 'taken' | 'reserved' | 'kept';

/**
 * A file name for a server's snapshot: its name, with anything but letters, digits, ".", "_" and
 * "-" replaced; `-2`, `-3` … when that name is taken (by another snapshot of the run or a file it
 * reads), is one a snapshot never takes (see isReservedSnapshotName), or `usable` says no (a file
 * of that name that is not a snapshot). `clash`: the first name and why it was not taken, when
 * the file got a -N one.
 */
export function pickSnapshotFile(name: string, taken: Set<string>, usable: (file: string) => boolean = () => true): { file: string; clash?: { file: string; why: SnapshotNameClash } } {
  let base = name.normalize('NFKC').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 80) || 'server';
  // A name reserved whatever its -N (tsconfig.build: every tsconfig.*.json is) has its dots made dashes.
  if (isReservedSnapshotName(`${base}-2.json`)) base = base.replace(/\./g, '-');
  const first = `${base}.json`;
  const why = (file: string): SnapshotNameClash | undefined =>
    taken.has(file.toLowerCase()) ? 'taken' : isReservedSnapshotName(file) ? 'reserved' : !usable(file) ? 'kept' : undefined;
  const clash = why(first);
  let candidate = first;
  for (let n = 2; why(candidate); n++) candidate = `${base}-${n}.json`;
  taken.add(candidate.toLowerCase());
  return clash ? { file: candidate, clash: { file: first, why: clash } } : { file: candidate };
}

/** pickSnapshotFile's file name alone. */
export function snapshotFileName(name: string, taken: Set<string>, usable: (file: string) => boolean = () => true): string {
  return pickSnapshotFile(name, taken, usable).file;
}

/**
 * The note for a snapshot --save-snapshots wrote: where it is, and, when it got a -N name, why
 * not the first one (`ownRun`: the first name is another snapshot of this run rather than a file
 * the run reads or an -o report), so nobody takes an older file of that name for it.
 */
export function savedNote(label: string, path: string, clash?: { path: string; why: SnapshotNameClash; ownRun: boolean }): string {
  if (!clash) return `${label}: its snapshot is saved as ${path}`;
  const because =
    clash.why === 'reserved'
      ? 'a config file\'s name, which a snapshot never takes'
      : clash.why === 'kept'
        ? 'a file there that is not a snapshot, which is kept'
        : clash.ownRun
          ? 'the snapshot of another server of this run'
          : 'a file this run reads or one of its -o reports';
  return `${label}: its snapshot is saved as ${path}, not ${clash.path} (${because})`;
}

/**
 * A name a snapshot never takes, whatever the directory holds: the server picks its name, and a
 * file of one of these names is read by another program or by mcp-annotate itself — its config
 * file names (a snapshot there would become the config of later runs), the MCP client configs
 * --discover reads (mcp.json, settings.json, …) and other tools' config files (package.json,
 * tsconfig.json, … : isKnownNonDumpName). Compared without case, as a
 * case-insensitive file system finds them.
 */
export function isReservedSnapshotName(file: string): boolean {
  const lower = file.toLowerCase();
  return (CONFIG_FILES as readonly string[]).includes(lower) || CLIENT_CONFIG_NAMES.includes(lower) || isKnownNonDumpName(lower);
}

/** The names of the MCP client configs --discover looks for (see discover.ts) that a snapshot's name could be. */
const CLIENT_CONFIG_NAMES: readonly string[] = ['claude_desktop_config.json', 'mcp.json', 'mcp_config.json', 'opencode.json', 'settings.json'];

/**
 * Whether a snapshot may be written at this path: nothing is there (or what is there cannot be
 * seen: the write then says why), or a snapshot mcp-annotate wrote is (a file of one JSON object
 * with a "tools" array and "capabilities" and "serverInfo" objects, and none of the fields a
 * snapshot never has, such as "$schema"), which the new one replaces. Any other file — a dump
 * of the user's, a report, a directory — is kept, and the snapshot takes another name.
 */
export function snapshotMayReplace(path: string): boolean {
  // The name itself, not what a link points to: a symbolic link (even one to nowhere) is never
  // written through, since its target may lie outside the directory or be a file the run reads.
  try {
    lstatSync(path);
  } catch {
    return true;
  }
  try {
    if (!lstatSync(path).isFile()) return false;
    const value: unknown = JSON.parse(readFileSync(path, 'utf8').replace(/^\uFEFF/, ''));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const o = value as Record<string, unknown>;
    const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
    return Array.isArray(o.tools) && isObject(o.capabilities) && isObject(o.serverInfo) && !MISLEADING_RESULT_KEYS.some((k) => Object.prototype.hasOwnProperty.call(o, k));
  } catch {
    return false;
  }
}
