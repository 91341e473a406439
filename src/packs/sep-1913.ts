/**
 * sep-1913: SEP-1913 Trust and Sensitivity Annotations — maliciousActivityHint,
 * attribution, inputMetadata {destination, sensitivity, outcomes} and returnMetadata
 * {source, sensitivity} on `annotations`, validated with the SEP's own JSON Schema
 * (possible-set arrays included).
 */
import { generated } from '../schema/generated.js';
import {
  newClaim,
  DATA_CLASSES,
  DESTINATIONS,
  OUTCOMES,
  SOURCES,
  type Claim,
  type DataClass,
  type Fact,
} from '../engine/claims.js';
import { explainErrors, type Explained } from '../schema/explain.js';
import { Distinct } from '../util/array.js';
import { asSet, hasOwn, isObject } from '../util/json.js';
import { escapeSegment, fieldPath, get } from '../util/pointer.js';
import { closest, orList, quote } from '../util/text.js';
import { draftMemberName, draftMetadataKey, normaliseDraftMetadata } from './drafts.js';
import type { Pack, SchemaProblem, ToolView } from './types.js';
import { quotedBoolean } from './vocabulary.js';

const validateAnnotations = generated('sep-1913').ToolAnnotations!;

const KEYS = ['maliciousActivityHint', 'attribution', 'inputMetadata', 'returnMetadata'] as const;
const INPUT_MEMBERS = ['destination', 'sensitivity', 'outcomes'];
const RETURN_MEMBERS = ['source', 'sensitivity'];

/** Does the value at this key look like SEP-1913's, rather than a field of the server's own? */
function recognised(key: (typeof KEYS)[number], value: unknown): boolean {
  switch (key) {
    case 'maliciousActivityHint':
      return typeof value === 'boolean';
    case 'attribution':
      return Array.isArray(value);
    // A member of SEP-1913's name (or SEP-2061's capitalised draft spelling, "Destination") whose
    // value is SEP-1913's, or a near miss of it ("pubic", "PII"): a name alone is no sign, as
    // {"destination": "s3://bucket", "format": "csv"} is plainly the server's own.
    case 'inputMetadata':
    case 'returnMetadata':
      if (!isObject(value)) return false;
      for (const m of Object.keys(value)) {
        if (recognisedMember(INPUT_MEMBERS.includes(m) || RETURN_MEMBERS.includes(m) ? m : draftMemberName(key, m), value[m], key)) return true;
      }
      return false;
  }
}

/** The values each SEP-1913 metadata member takes. */
const MEMBER_VALUES: Record<string, readonly string[]> = { destination: DESTINATIONS, outcomes: OUTCOMES, source: SOURCES, sensitivity: DATA_CLASSES };

function recognisedMember(member: string | undefined, value: unknown, key: 'inputMetadata' | 'returnMetadata'): boolean {
  if (member === undefined || !(key === 'inputMetadata' ? INPUT_MEMBERS : RETURN_MEMBERS).includes(member)) return false;
  const allowed = MEMBER_VALUES[member]!;
  // An empty possible set is SEP-1913's shape, and empty-possible-set's error.
  if (Array.isArray(value) && value.length === 0) return true;
  // A known member is the common case: closest() would find it too, after measuring its
  // distance to each member listed before it.
  return asSet(value).some((v) => (typeof v === 'string' ? allowed.includes(v) || closest(v, allowed) !== undefined : member === 'sensitivity' && isObject(v) && Object.keys(v).some((k) => k.toLowerCase() === 'regulated')));
}

function expected(key: (typeof KEYS)[number]): string {
  switch (key) {
    case 'maliciousActivityHint':
      return 'a boolean';
    case 'attribution':
      return 'an array of source URIs';
    case 'inputMetadata':
      return 'an object with destination, sensitivity and outcomes';
    case 'returnMetadata':
      return 'an object with source and sensitivity';
  }
}

/**
 * The member of `allowed` a string names: itself, or the member it writes in another case
 * (SEP-2061's "Public", "PII", "Irreversible"). A case variant is draft-field's warning, and
 * nothing of a server's own looks like one, so the pack reads it as the member it names: a
 * contradiction it hides (a read-only tool whose outcomes are "Irreversible") is still reported.
 */
function memberNamed<T extends string>(v: unknown, allowed: readonly T[]): T | undefined {
  if (typeof v !== 'string') return undefined;
  if ((allowed as readonly string[]).includes(v)) return v as T;
  const lower = v.toLowerCase();
  return allowed.find((a) => a.toLowerCase() === lower);
}

/** Known enum members of a single-or-array field (case variants read as the member they name), in order, without duplicates. */
export function enumSet<T extends string>(value: unknown, allowed: readonly T[]): T[] {
  const out: T[] = [];
  for (const v of asSet(value)) {
    const m = memberNamed(v, allowed);
    if (m !== undefined && !out.includes(m)) out.push(m);
  }
  return out;
}

/** SEP-1913's string data classes ("regulated" exists only as {regulated: {scopes}}). */
const STRING_CLASSES: readonly string[] = DATA_CLASSES.filter((c) => c !== 'regulated');

/** {regulated: {…}}, or SEP-2061's {Regulated: {…}} (draft-field's warning). */
function isRegulated(v: unknown): boolean {
  if (!isObject(v)) return false;
  if (isObject(v.regulated)) return true;
  const key = Object.keys(v).find((k) => k.toLowerCase() === 'regulated');
  return key !== undefined && !('regulated' in v) && isObject(v[key]);
}

/** DataClass or DataClass[] → class names, case variants read as the class they name ("regulated" for {regulated: {scopes}}). */
export function dataClasses(value: unknown): DataClass[] {
  const out: DataClass[] = [];
  for (const v of asSet(value)) {
    const c = typeof v === 'string' ? memberNamed(v, STRING_CLASSES) : isRegulated(v) ? 'regulated' : undefined;
    if (c && !out.includes(c as DataClass)) out.push(c as DataClass);
  }
  return out;
}

/** Strings of a single-or-array field that are not among `allowed` (schema-valid reports them; claims keep them so no rule reads the set as fully known). */
function unknownStrings(value: unknown, allowed: readonly string[]): string[] | undefined {
  // No list is made for the common case, a value with none.
  let out: Distinct<string> | undefined;
  for (const v of asSet(value)) if (typeof v === 'string' && memberNamed(v, allowed) === undefined) (out ??= new Distinct()).add(v);
  return out?.list;
}

/**
 * "sensitivity": "regulated" (or an item "regulated" of a list): the string plainly means
 * SEP-1913's regulated class, which exists only as an object naming the regimes, so say that
 * rather than only listing the string classes. `value` is the annotations object validated.
 */
function regulatedAsString(e: Explained, value: Record<string, unknown>): Explained {
  if (!/^\/(inputMetadata|returnMetadata)\/sensitivity(\/\d+)?$/.test(e.pointer)) return e;
  const v = get(value, e.pointer);
  if (typeof v !== 'string' || v.toLowerCase() !== 'regulated') return e;
  return {
    pointer: e.pointer,
    message: `${fieldPath(`/annotations${e.pointer}`)} is ${quote(v)}; SEP-1913 writes the regulated class as an object naming the regimes that apply, {"regulated": {"scopes": […]}}, not as a string (the string classes are ${orList(STRING_CLASSES, 'and')})`,
    suggestion: 'write {"regulated": {"scopes": ["GDPR"]}} in its place, with the regimes that apply (e.g. GDPR, HIPAA, PCI-DSS)',
  };
}

// A conservative fast path for the schema check (the generated validator's oneOf branches
// make it slow on exactly the annotations that are right).

/** A string of `allowed`, or an array of them (SEP-1913's single value or possible set). */
function enumOrSet(value: unknown, allowed: readonly string[]): boolean {
  if (typeof value === 'string') return allowed.includes(value);
  if (!Array.isArray(value)) return false;
  for (const v of value) if (typeof v !== 'string' || !allowed.includes(v)) return false;
  return true;
}

/** An object whose members (own or inherited, as the validator sees them) are all among `members`, each of them present. */
function exactly(value: unknown, members: readonly string[]): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  for (const k in value) if (!members.includes(k)) return false;
  for (const m of members) if (value[m] === undefined) return false;
  return true;
}

/**
 * Whether annotations certainly satisfy SEP-1913's schema (schemas/sep-1913.json): each of
 * its keys that is present has the plain right shape — a boolean, an array of strings, and
 * metadata objects with exactly their members, holding known values or possible sets of them
 * (a {regulated: …} class is left to the validator). false means "not sure": the generated
 * validator decides. Keep it in step with schemas/sep-1913.json: test/schema-fast-path.test.ts
 * compares it with the validator generated from it.
 */
export function obviouslyValidAnnotations(a: Record<string, unknown>): boolean {
  for (const key in a) {
    const v = a[key];
    switch (key) {
      case 'maliciousActivityHint':
        if (typeof v !== 'boolean') return false;
        break;
      case 'attribution':
        if (!Array.isArray(v)) return false;
        for (const x of v) if (typeof x !== 'string') return false;
        break;
      case 'inputMetadata':
        if (!exactly(v, INPUT_MEMBERS) || !enumOrSet(v.destination, DESTINATIONS) || !enumOrSet(v.sensitivity, STRING_CLASSES) || !enumOrSet(v.outcomes, OUTCOMES)) return false;
        break;
      case 'returnMetadata':
        if (!exactly(v, RETURN_MEMBERS) || !enumOrSet(v.source, SOURCES) || !enumOrSet(v.sensitivity, STRING_CLASSES)) return false;
        break;
    }
  }
  return true;
}

/** The capitalised draft spelling of each SEP-1913 key that has one (SEP-2061's "InputMetadata"), found once. */
const DRAFT_KEYS: Partial<Record<(typeof KEYS)[number], string>> = {};
for (const k of KEYS) {
  const draft = draftMetadataKey(k);
  if (draft !== undefined) DRAFT_KEYS[k] = draft;
}

/** The key a SEP-1913 field is written under in `a`: its own name, or else SEP-2061's capitalised one; undefined when neither is there. */
function keyIn(a: Record<string, unknown>, k: (typeof KEYS)[number]): string | undefined {
  if (k in a) return k;
  const draft = DRAFT_KEYS[k];
  return draft !== undefined && hasOwn(a, draft) ? draft : undefined;
}

/** The value of a SEP-1913 field under whichever spelling keyIn finds. */
const valueIn = (a: Record<string, unknown>, k: (typeof KEYS)[number]): unknown => a[keyIn(a, k) ?? k];

/** No foreign keys (shared: only read). */
const NONE: ReadonlySet<string> = new Set();
/** No schema errors (shared: only read). */
const NO_ERRORS: readonly Explained[] = [];

/** What the SEP's schema says is wrong with annotations, explained. */
function errorsOf(value: Record<string, unknown>): Explained[] {
  return validateAnnotations(value) ? [] : explainErrors(validateAnnotations.errors ?? [], '/annotations').map((e) => regulatedAsString(e, value));
}

/** The capitalised spelling of each metadata member name (SEP-2061's "Destination"), made once. */
const CAPITALISED_MEMBERS: Record<string, string> = {};
for (const m of new Set([...INPUT_MEMBERS, ...RETURN_MEMBERS])) CAPITALISED_MEMBERS[m] = m[0]!.toUpperCase() + m.slice(1);

/**
 * The claim of one metadata member, under its name or else under SEP-2061's capitalised
 * spelling ("Destination", draft-field's warning): either way the pack reads it, so what it
 * says is weighed. `written` is the object's key as written ("inputMetadata", or
 * "InputMetadata"), `base` the pointer of the annotations.
 */
function member(claims: Claim[], base: string, obj: Record<string, unknown>, name: string, metadata: 'inputMetadata' | 'returnMetadata', written: string, fact: Fact, allowed: readonly string[]): void {
  // The one key that draftMemberName maps to `name` is its capitalised spelling.
  const key = name in obj ? name : hasOwn(obj, CAPITALISED_MEMBERS[name]!) && draftMemberName(metadata, CAPITALISED_MEMBERS[name]!) === name ? CAPITALISED_MEMBERS[name]! : undefined;
  if (key === undefined) return;
  const raw = obj[key];
  const value = fact === 'inputSensitivity' || fact === 'outputSensitivity' ? dataClasses(raw) : enumSet(raw, allowed);
  claims.push(newClaim(fact, value as Claim['value'], 'sep-1913', `annotations.${written}.${key}`, `${base}/${escapeSegment(written)}/${escapeSegment(key)}`, raw, unknownStrings(raw, allowed)));
}

export const sep1913Pack: Pack = {
  id: 'sep-1913',
  title: 'SEP-1913 trust and sensitivity annotations',
  source: '../shared/seeds/000_f48d420c65c867ff.txt (SEP-1913, with its JSON Schema additions)',
  location: 'annotations.{maliciousActivityHint, attribution, inputMetadata, returnMetadata}',
  annotationKeys: KEYS,
  metaKeys: [],
  proposal: true,
  analyse(tool: ToolView, env) {
    const a = tool.annotations;
    const claims: Claim[] = [];
    const problems: SchemaProblem[] = [];
    if (!a) return { claims, problems };
    // inputMetadata/returnMetadata under SEP-2061's capitalised key ("InputMetadata",
    // draft-field's warning) are read as the object they name, as a capitalised member or value
    // is. When both spellings are there the current one wins and the capitalised one is only
    // draft-field's "remove it", as with a duplicate member ("destination" beside "Destination").
    let present: (typeof KEYS)[number][] | undefined;
    for (const k of KEYS) if (keyIn(a, k) !== undefined) (present ??= []).push(k);
    if (present === undefined) return { claims, problems };

    const base = `${tool.pointer}/annotations`;
    // A quoted "true" or "false" on maliciousActivityHint is SEP-1913's boolean written wrong
    // (as it is on a core hint), not the server's own data: a schema error, never a collision.
    // In a tools/call result's _meta.annotations every key is SEP-1913's (env.result).
    const speaks = env?.result === true || present.some((k) => recognised(k, valueIn(a, k)) || (k === 'maliciousActivityHint' && quotedBoolean(a[k]) !== undefined));
    const foreign: ReadonlySet<string> = speaks ? NONE : new Set(present);
    for (const k of foreign) {
      // The server's own data under a capitalised key is left to draft-field, as before.
      if (keyIn(a, k as (typeof KEYS)[number]) !== k) continue;
      problems.push({
        pack: 'sep-1913',
        pointer: `${base}/${k}`,
        kind: 'collision',
        message: `annotations.${k} holds ${quote(a[k])}, which is not SEP-1913's ${k} (${expected(k as (typeof KEYS)[number])}); clients that implement SEP-1913 will misread it`,
        suggestion: `if this is the server's own data, move it under _meta with a prefix of your own (e.g. _meta["com.example/${k}"])`,
      });
    }
    const errors = obviouslyValidAnnotations(a) ? NO_ERRORS : errorsOf(a);
    // The original never validates an object under a capitalised key (the schema leaves other
    // keys alone): the copy, which spells it "inputMetadata", does.
    const capitalisedKey = present.some((k) => keyIn(a, k) !== k);
    if (errors.length > 0 || capitalisedKey) {
      // Problems that only SEP-2061's spellings cause ("Destination", "PII") are draft-field's:
      // validate a copy with the current spellings, and what remains is really invalid.
      const normalised = normaliseDraftMetadata(a);
      const normalisedErrors = normalised ? errorsOf(normalised.value) : [];
      const real = normalised && new Set(normalisedErrors.map((e) => `${normalised.back(e.pointer)}\n${e.message}`));
      for (const e of errors) {
        const key = e.pointer.split('/')[1] ?? '';
        if (foreign.has(key)) continue;
        const kind = real && !real.has(`${e.pointer}\n${e.message}`) ? 'draft' : 'invalid';
        const quoted = e.pointer === '/maliciousActivityHint' ? quotedBoolean(a.maliciousActivityHint) : undefined;
        const suggestion = quoted === undefined ? e.suggestion : `write ${quoted}, a JSON boolean without quotes: clients that implement SEP-1913 ignore the string ${JSON.stringify(a.maliciousActivityHint)}`;
        problems.push({ pack: 'sep-1913', pointer: base + e.pointer, message: e.message, suggestion, kind, ...(e.detail !== undefined ? { detail: e.detail } : {}) });
      }
      // What is wrong with a value under a draft key ("Destination": "Pubic"): the original
      // never validates it (the key is only "not allowed"), the copy does.
      for (const e of normalisedErrors) {
        const from = normalised!.back(e.pointer);
        const key = e.pointer.split('/')[1] ?? '';
        if (from === e.pointer || foreign.has(key)) continue;
        problems.push({ pack: 'sep-1913', pointer: base + from, message: normalised!.backText(e.message, e.pointer), suggestion: e.suggestion, kind: 'invalid', ...(e.detail !== undefined ? { detail: e.detail } : {}) });
      }
    }

    if (!foreign.has('maliciousActivityHint') && typeof a.maliciousActivityHint === 'boolean') {
      claims.push(newClaim('maliciousActivity', a.maliciousActivityHint, 'sep-1913', 'annotations.maliciousActivityHint', `${base}/maliciousActivityHint`, a.maliciousActivityHint));
    }
    if (!foreign.has('attribution') && Array.isArray(a.attribution)) {
      claims.push(newClaim('attribution', a.attribution.filter((x): x is string => typeof x === 'string'), 'sep-1913', 'annotations.attribution', `${base}/attribution`, a.attribution));
    }
    const input = valueIn(a, 'inputMetadata');
    if (!foreign.has('inputMetadata') && isObject(input)) {
      const key = keyIn(a, 'inputMetadata')!;
      member(claims, base, input, 'destination', 'inputMetadata', key, 'destinations', DESTINATIONS);
      member(claims, base, input, 'sensitivity', 'inputMetadata', key, 'inputSensitivity', STRING_CLASSES);
      member(claims, base, input, 'outcomes', 'inputMetadata', key, 'outcomes', OUTCOMES);
    }
    const ret = valueIn(a, 'returnMetadata');
    if (!foreign.has('returnMetadata') && isObject(ret)) {
      const key = keyIn(a, 'returnMetadata')!;
      member(claims, base, ret, 'source', 'returnMetadata', key, 'sources', SOURCES);
      member(claims, base, ret, 'sensitivity', 'returnMetadata', key, 'outputSensitivity', STRING_CLASSES);
    }
    return { claims, problems };
  },
};
