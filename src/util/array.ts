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

/**
 * Values in the order first added, each once. A list kept distinct with `includes` costs a
 * scan of the list per value, quadratic over an annotation array of many distinct members
 * (40,000 unknown destinations took seconds); this asks a Set.
 */
export class Distinct<T> {
  readonly list: T[] = [];
  private readonly seen = new Set<T>();

  constructor(initial: readonly T[] = []) {
    for (const v of initial) this.add(v);
  }

  add(v: T): void {
    if (this.seen.has(v)) return;
    this.seen.add(v);
    this.list.push(v);
  }
}
