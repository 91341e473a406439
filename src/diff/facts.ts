/**
 * What drift rules read from one side of a tool: pointers that exist, possible sets
 * merged across vocabularies (so a value moved from SEP-1913 annotations to the
 * action-metadata extension is not a change), and how to name values in messages.
 */
import { unmappedValues, type Claim, type Fact } from '../engine/claims.js';
import { members, regulatedScopes } from '../engine/possible-sets.js';
import { isObject } from '../util/json.js';
import { get } from '../util/pointer.js';
import { joinWords } from '../util/text.js';
import type { ToolSide } from './types.js';

/** The absolute pointer of `rel` in the tool, or of its nearest ancestor that exists. */
export function at(side: ToolSide, rel: string): string {
  let r = rel;
  while (r !== '' && get(side.view.value, r) === undefined) r = r.slice(0, r.lastIndexOf('/'));
  return side.view.pointer + r;
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
  /** Each value, normalised (open strings and unmapped values kept as written), with the member's pointer and its field. */
  values: Map<string, { pointer: string; field: string }>;
  claims: Claim[];
}

/**
 * The possible set of one or more facts, merged across every pack that states it.
 * Regulated data also yields one value per scope: `regulated ("HIPAA")`.
 */
export function possible(side: ToolSide, facts: readonly Fact[]): Possible {
  const values = new Map<string, { pointer: string; field: string }>();
  const claims: Claim[] = [];
  for (const fact of facts) {
    for (const c of side.claims.all(fact)) {
      if (!Array.isArray(c.value)) continue;
      claims.push(c);
      const written = members(c);
      const pointerOf = (value: string) =>
        written.find((m) => label(m.value) === value)?.pointer ??
        written.find((m) => typeof m.value === 'string' && m.value.toLowerCase() === value.toLowerCase())?.pointer ??
        c.pointer;
      for (const v of [...(c.value as unknown[]), ...unmappedValues(c)]) {
        const l = label(v);
        if (!values.has(l)) values.set(l, { pointer: pointerOf(l), field: c.field });
      }
      for (const s of regulatedScopes(c)) {
        const l = `regulated (${JSON.stringify(s.scope)})`;
        if (!values.has(l)) values.set(l, { pointer: s.pointer, field: c.field });
      }
    }
  }
  return { declared: claims.length > 0, values, claims };
}

/** "internal" / "internal" and "user" / nothing. */
export function valueList(values: Iterable<string>): string {
  const list = [...values].map((v) => (v.startsWith('regulated (') ? v : JSON.stringify(v)));
  return list.length ? joinWords(list) : 'nothing';
}

/** The fields a possible set was stated in: annotations.inputMetadata.destination. */
export function fieldsOf(p: Possible): string {
  return joinWords([...new Set(p.claims.map((c) => c.field))]);
}

/** JSON text with sorted keys: equal for deep-equal values. */
export { canonical } from '../engine/possible-sets.js';
