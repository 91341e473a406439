/**
 * Snapshots: what a live server said, as a file `lint` reads back with positions.
 * {capabilities, protocolVersion, serverInfo, tools} (plus the tools/list result's own
 * fields such as 2026-07-28's cacheScope), keys sorted at every level, two-space indent,
 * a final newline: the same server gives the same bytes.
 */
import { jsonDepth } from '../../schema/json-schema.js';
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
 * newline; past MAX_INDENTED_DEPTH levels, JSON.stringify(value) instead (one line); C1 and bidi
 * controls and U+2028/U+2029 as \uXXXX (escapeJsonControls). Written
 * without recursion (see writeJson): a server's tools may nest 100,000 levels deep.
 */
export function snapshotText(snapshot: Record<string, unknown>): string {
  const indent = jsonDepth(snapshot, MAX_INDENTED_DEPTH) <= MAX_INDENTED_DEPTH ? '  ' : '';
  return `${escapeJsonControls(writeJson(snapshot, { indent, compareKeys: byKey, undefinedAs: 'omit' }))}\n`;
}

/** A file name for a server's snapshot: its name, with anything but letters, digits, ".", "_" and "-" replaced. */
export function snapshotFileName(name: string, taken: Set<string>): string {
  const base = name.normalize('NFKC').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 80) || 'server';
  let candidate = `${base}.json`;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base}-${n}.json`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
