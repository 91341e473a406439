/**
 * Possible sets as the server wrote them. Claims hold normalised sets (known values,
 * deduplicated, `{regulated}` objects collapsed to "regulated"); rules about how a set
 * is written — empty, duplicated, "none" beside a class, regulatory scopes — read the
 * value as written (claim.raw) and point at its members.
 */
import { isObject, writeJson } from '../util/json.js';
import { escapeSegment } from '../util/pointer.js';
import { quote } from '../util/text.js';
import { DATA_CLASSES, type Claim, type DataClass, type Fact } from './claims.js';

/** The claim's value as written: claim.raw when the pack kept it, else the normalised value. */
export function written(claim: Claim): unknown {
  return claim.raw !== undefined ? claim.raw : claim.value;
}

/** One member of a single-or-array field as written, with its absolute pointer. */
export interface Member {
  value: unknown;
  pointer: string;
  /** Index in the array, or undefined for a single value. */
  index?: number;
}

/** The members of a single-or-array field: each array item, or the single value itself. */
export function members(claim: Claim): Member[] {
  const w = written(claim);
  if (Array.isArray(w)) return w.map((value, index) => ({ value, pointer: `${claim.pointer}/${index}`, index }));
  return [{ value: w, pointer: claim.pointer }];
}

/** How many claims claimsOf compares one by one before it keeps their pointers in a Set. */
const FEW_CLAIMS = 8;

/** Claims of these facts, once per field (two facts read from one field count once). */
export function claimsOf(claims: { all<F extends Fact>(fact: F): Claim<F>[] }, ...facts: Fact[]): Claim[] {
  const out: Claim[] = [];
  // A tool has a few claims of a fact (one per pack and field that reads it): a look through
  // those kept is cheaper than a Set made for every call. Past a few, a Set keeps it linear.
  let seen: Set<string> | undefined;
  for (const fact of facts) {
    for (const c of claims.all(fact)) {
      if (seen === undefined && out.length >= FEW_CLAIMS) seen = new Set(out.map((o) => o.pointer));
      if (seen !== undefined) {
        if (seen.has(c.pointer)) continue;
        seen.add(c.pointer);
      } else {
        let kept = false;
        for (let i = 0; i < out.length && !kept; i++) kept = out[i]!.pointer === c.pointer;
        if (kept) continue;
      }
      out.push(c);
    }
  }
  return out;
}

/**
 * The {scopes} object of a regulated member: {regulated: {…}}, or SEP-2061's {Regulated: {…}}
 * (a case variant the sep-1913 pack reads as regulated; draft-field reports the spelling).
 */
export function regulatedOf(value: unknown): Record<string, unknown> | undefined {
  if (!isObject(value)) return undefined;
  if (isObject(value.regulated)) return value.regulated;
  if ('regulated' in value) return undefined;
  const key = Object.keys(value).find((k) => k.toLowerCase() === 'regulated');
  const inner = key === undefined ? undefined : value[key];
  return isObject(inner) ? inner : undefined;
}

/**
 * The DataClass a written sensitivity member stands for ("regulated" for {regulated: …}),
 * a case variant ("PII") as the class it names, as the packs read it; any other string as it is.
 */
export function dataClassOf(value: unknown): DataClass | string | undefined {
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    return (DATA_CLASSES as readonly string[]).find((c) => c === lower) ?? value;
  }
  if (isObject(value) && ('regulated' in value || regulatedOf(value))) return 'regulated';
  return undefined;
}

/** A regulatory scope as written, with its pointer. */
export interface Scope {
  scope: unknown;
  pointer: string;
}

/** Every scope of every `{regulated: {scopes: [...]}}` member of a sensitivity claim. */
export function regulatedScopes(claim: Claim): Scope[] {
  const out: Scope[] = [];
  for (const m of members(claim)) {
    const regulated = regulatedOf(m.value);
    if (!regulated) continue;
    const scopes = regulated.scopes;
    if (!Array.isArray(scopes)) continue;
    const key = Object.keys(m.value as object).find((k) => (m.value as Record<string, unknown>)[k] === regulated)!;
    scopes.forEach((scope, j) => out.push({ scope, pointer: `${m.pointer}/${escapeSegment(key)}/scopes/${j}` }));
  }
  return out;
}

/** A sensitivity member for a message: "pii", or regulated ("HIPAA", "GDPR"). */
export function describeClass(value: unknown): string {
  const regulated = regulatedOf(value);
  if (regulated) {
    const scopes = Array.isArray(regulated.scopes) ? regulated.scopes : [];
    return scopes.length ? `regulated (${scopes.map((s) => quote(s, 30)).join(', ')})` : 'regulated';
  }
  return quote(value);
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * JSON text with object keys sorted: equal for deep-equal values. (Baseline fingerprints
 * are made of it: its bytes must not change.) Written without recursion, for tools nested
 * 100,000 levels deep.
 */
export function canonical(value: unknown): string {
  return writeJson(value, { indent: '', compareKeys: byCodeUnits, undefinedAs: 'text' });
}

/** A number as valueKey writes it: ±Infinity (a server's 1e400) apart from null, -0 as 0 (the same number), the rest as JSON.stringify does. */
const keyNumber = (v: number): string => (v === Infinity ? '1e400' : v === -Infinity ? '-1e400' : JSON.stringify(v));

/**
 * A key equal for equal JSON values, as canonical() is, but one that tells ±Infinity (what
 * JSON.parse reads 1e400 as) from null, where canonical(), whose bytes baseline fingerprints
 * keep, writes both as null: for comparing values (repeated members of a set, a policy's
 * operand, a tool's definition across a diff), never stored.
 */
export function valueKey(value: unknown): string {
  return writeJson(value, { indent: '', compareKeys: byCodeUnits, undefinedAs: 'text', number: keyNumber });
}

const isClass = (v: unknown): boolean => (DATA_CLASSES as readonly unknown[]).includes(dataClassOf(v));

/**
 * A sensitivity set that lists "none" beside a data class (sensitivity-conflict's finding):
 * the "none" members, and the class to name (a sensitive one when there is one: "user" is a
 * class, but not a sensitive one). Undefined when the set has no such pair.
 */
export function noneBesideClass(claim: Claim): { none: Member[]; other: Member } | undefined {
  if (claim.fact !== 'inputSensitivity' && claim.fact !== 'outputSensitivity') return undefined;
  // Only a list of two or more with a "none" in it can have the pair: most sets are looked at
  // here without making their members.
  const w = written(claim);
  if (!Array.isArray(w) || w.length < 2 || !w.some((v) => dataClassOf(v) === 'none')) return undefined;
  const items = members(claim);
  const none = items.filter((m) => dataClassOf(m.value) === 'none');
  const classes = items.filter((m) => dataClassOf(m.value) !== 'none' && isClass(m.value));
  const other = classes.find((m) => dataClassOf(m.value) !== 'user') ?? classes[0];
  return none.length > 0 && other ? { none, other } : undefined;
}

/**
 * The list sensitivity-conflict's fix writes: without "none", and without repeats, so that it is
 * also what empty-possible-set's fix for the same list would write (one list is never rewritten
 * two ways: empty-possible-set leaves such a list's fix to sensitivity-conflict).
 */
export function withoutNone(claim: Claim): unknown[] | undefined {
  const w = written(claim);
  if (!Array.isArray(w)) return undefined;
  const seen = new Set<string>();
  return w.filter((v) => {
    if (dataClassOf(v) === 'none') return false;
    const key = valueKey(v);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
