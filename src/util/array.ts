/**
 * Array helpers for input-sized lists. `a.push(...items)` and `Math.max(...values)` pass each
 * element as an argument, and a list of a few hundred thousand (tools in a page, findings in
 * a server, members of an annotation array) overflows the call stack.
 */

/** Appends every item to `target`, one at a time; returns `target`. */
export function append<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values`, or `empty` when there are none. */
export function maxOf(values: Iterable<number>, empty = -Infinity): number {
  let max = empty;
  for (const v of values) if (v > max) max = v;
  return max;
}
