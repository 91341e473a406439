export type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** A single value or an array of values, as an array (the possible-set form). */
export function asSet(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v];
}
