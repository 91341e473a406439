/**
 * Snapshots: what a live server said, as a file `lint` reads back with positions.
 * {capabilities, protocolVersion, serverInfo, tools} (plus the tools/list result's own
 * fields such as 2026-07-28's cacheScope), keys sorted at every level, two-space indent,
 * a final newline: the same server gives the same bytes.
 */

/** A copy with every object's keys in sorted order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
    return out;
  }
  return value;
}

export function snapshotText(snapshot: Record<string, unknown>): string {
  return JSON.stringify(sortKeys(snapshot), null, 2) + '\n';
}

/** A file name for a server's snapshot: its name, with anything but letters, digits, ".", "_" and "-" replaced. */
export function snapshotFileName(name: string, taken: Set<string>): string {
  const base = name.normalize('NFKC').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '').slice(0, 80) || 'server';
  let candidate = `${base}.json`;
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${base}-${n}.json`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
