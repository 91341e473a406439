/**
 * What drift rules read from one side of a tool: pointers that exist, possible sets
 * merged across vocabularies (so a value moved from SEP-1913 annotations to the
 * action-metadata extension is not a change), and how to name values in messages.
 */
import { unmappedValues, type Claim, type Fact } from '../engine/claims.js';
import { valueKey, members, regulatedScopes } from '../engine/possible-sets.js';
import { isObject } from '../util/json.js';
import { escapeSegment, fieldPath, get, relative, split } from '../util/pointer.js';
import { joinWords, quote } from '../util/text.js';
import type { ToolSide } from './types.js';

/** The absolute pointer of `rel` in the tool, or of its nearest ancestor that exists. */
export function at(side: ToolSide, rel: string): string {
  let r = rel;
  while (r !== '' && get(side.view.value, r) === undefined) r = r.slice(0, r.lastIndexOf('/'));
  return side.view.pointer + r;
}

/**
 * A field the tool writes at `rel` (tool-relative) although no claim points at it: a value of
 * the wrong type or outside its vocabulary, or an object on the way that is not one. Clients
 * ignore such a value, so it means what an absent field means, and a message must say that
 * rather than "no longer set". Undefined when nothing is written there, or a claim reads it.
 *
 * @param expected what the field should hold ("a boolean"), for the message
 * @param name how the message names the field (default: its path, annotations.readOnlyHint)
 * @returns the pointer of the value clients ignore; what is wrong with it (`readOnlyHint is not a
 *   boolean ("true")`), and that with what follows (`…, so clients ignore it`)
 */
export function unreadable(side: ToolSide, rel: string, expected: string, name = fieldPath(rel)): { pointer: string; wrong: string; text: string } | undefined {
  let value: unknown = side.view.value;
  let path = '';
  for (const segment of split(rel)) {
    if (!isObject(value) && !Array.isArray(value)) {
      if (path === '') return undefined;
      const wrong = `${fieldPath(path)} is not an object (${quote(value)})`;
      return { pointer: side.view.pointer + path, wrong, text: `${wrong}, so clients ignore ${name}` };
    }
    if (!Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
    path += '/' + escapeSegment(segment);
  }
  // A value some vocabulary reads ("none" for an approval) is not ignored.
  const pointer = side.view.pointer + path;
  if (side.claims.list.some((c) => c.pointer === pointer)) return undefined;
  const wrong = `${name} is not ${expected} (${quote(value)})`;
  return { pointer, wrong, text: `${wrong}, so clients ignore it` };
}

/** What the field of a claim of `side` should hold, for unreadable(): "a boolean" where it was written as one, else a member of its vocabulary. */
export function expectedOf(side: ToolSide, claim: Claim): string {
  return typeof get(side.view.value, relative(side.view.pointer, claim.pointer)) === 'boolean' ? 'a boolean' : 'a value its vocabulary defines';
}

/** Where a finding about the tool as a whole points: its name when it has one. */
export function toolAnchor(side: ToolSide): string {
  return side.view.hasName ? `${side.view.pointer}/name` : side.view.pointer;
}

/** A possible-set member as a label: the string, or its JSON text. */
function label(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isObject(v) && 'regulated' in v) return 'regulated';
  return JSON.stringify(v) ?? String(v);
}

export interface Possible {
  /** Whether any vocabulary states the set at all (an absent set means "any value"). */
  declared: boolean;
  /**
   * Each value, normalised (open strings and unmapped values kept as written), with the member's
   * pointer, its field, and how a message shows it: "internal", regulated ("HIPAA"), or a value
   * of the wrong type as it is written (5, not "5"); `string` is false for such a value.
   */
  values: Map<string, { pointer: string; field: string; shown: string; string: boolean }>;
  claims: Claim[];
}

/**
 * The possible set of one or more facts, merged across every pack that states it.
 * Regulated data also yields one value per scope: `regulated ("HIPAA")`.
 */
export function possible(side: ToolSide, facts: readonly Fact[]): Possible {
  const values = new Map<string, { pointer: string; field: string; shown: string; string: boolean }>();
  const claims: Claim[] = [];
  for (const fact of facts) {
    for (const c of side.claims.all(fact)) {
      if (!Array.isArray(c.value)) continue;
      claims.push(c);
      // Where a value is first written, else a string that writes it in another case: found in
      // maps made once per claim (a search of the members per value was quadratic over a list of
      // 40,000 open strings: 7 s).
      let byLabel: Map<string, string> | undefined;
      let byLower: Map<string, string> | undefined;
      const pointerOf = (value: string): string => {
        if (byLabel === undefined || byLower === undefined) {
          byLabel = new Map();
          byLower = new Map();
          for (const m of members(c)) {
            const l = label(m.value);
            if (!byLabel.has(l)) byLabel.set(l, m.pointer);
            if (typeof m.value === 'string' && !byLower.has(m.value.toLowerCase())) byLower.set(m.value.toLowerCase(), m.pointer);
          }
        }
        return byLabel.get(value) ?? byLower.get(value.toLowerCase()) ?? c.pointer;
      };
      for (const v of [...(c.value as unknown[]), ...unmappedValues(c)]) {
        const l = label(v);
        if (values.has(l)) continue;
        const string = typeof v === 'string' || l === 'regulated';
        values.set(l, { pointer: pointerOf(l), field: c.field, shown: string ? JSON.stringify(l) : quote(v), string });
      }
      for (const s of regulatedScopes(c)) {
        const l = `regulated (${JSON.stringify(s.scope)})`;
        if (!values.has(l)) values.set(l, { pointer: s.pointer, field: c.field, shown: l, string: true });
      }
    }
  }
  return { declared: claims.length > 0, values, claims };
}

/** The values of a possible set for a message: "internal" / "internal" and "user" / nothing. */
export function valueList(p: Possible): string {
  // A regulated class with scopes is listed by its scopes (regulated ("HIPAA")), not also as "regulated".
  const scoped = [...p.values.keys()].some((l) => l.startsWith('regulated ('));
  const list = [...p.values].filter(([l]) => !(scoped && l === 'regulated')).map(([, v]) => v.shown);
  return list.length ? joinWords(list) : 'nothing';
}

/** The fields a possible set was stated in: annotations.inputMetadata.destination. */
export function fieldsOf(p: Possible): string {
  return joinWords([...new Set(p.claims.map((c) => c.field))]);
}

/** JSON text with sorted keys: equal for deep-equal values. */
export { valueKey } from '../engine/possible-sets.js';

/** JSON Schema keywords whose value is a schema, an array of schemas, or a map of names to schemas. */
const SCHEMA_KEYWORDS = new Set(['items', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else']);
const SCHEMA_ARRAYS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

/**
 * An input schema with its sets in one order: \`required\` (a set of names; servers that build
 * it from a hash set list it in another order run to run) and \`enum\` (a set of allowed
 * values, JSON Schema gives their order no meaning) sorted, in the schema and every subschema.
 * Values that are data (const, default, examples, an enum's members) are left as written.
 */
export function unorderedSchema(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > 10_000) return schema;
  const sorted = (v: unknown[]) => [...v].sort((a, b) => (valueKey(a) < valueKey(b) ? -1 : valueKey(a) > valueKey(b) ? 1 : 0));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if ((k === 'required' || k === 'enum') && Array.isArray(v)) out[k] = sorted(v);
    else if (SCHEMA_ARRAYS.has(k) && Array.isArray(v)) out[k] = v.map((s) => unorderedSchema(s, depth + 1));
    else if (SCHEMA_KEYWORDS.has(k)) out[k] = unorderedSchema(v, depth + 1);
    else if (SCHEMA_MAPS.has(k) && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([n, s]) => [n, Array.isArray(s) && k === 'dependencies' ? sorted(s) : unorderedSchema(s, depth + 1)]));
    else out[k] = v;
  }
  return out;
}

