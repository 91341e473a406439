/**
 * Turns Ajv's error list into one message per real problem, the way a person would
 * say it: "annotations.inputMetadata.destination[1] is "externl"; expected one of …".
 *
 * Ajv reports every failing branch of a oneOf/anyOf. The branch the author meant is
 * the one that got furthest: errors deeper in the value win over errors at its root;
 * at one place, the branch whose type is the value's JSON type wins over the others (a
 * string's enum error says nothing about an object), and any error of the branch that
 * matched (enum, required, minLength, …) wins over the type errors of the rest.
 */
import type { ErrorObject } from 'ajv';
import { closest, orList, plural, quote } from '../util/text.js';
import { escapeSegment, fieldPath } from '../util/pointer.js';

export interface Explained {
  /** Pointer relative to the validated value. */
  pointer: string;
  message: string;
  suggestion: string;
  /**
   * What the problem is about when other problems can share its pointer: the missing member
   * ("missing outcomes"), or the keyword that failed. Becomes the finding's detail.
   */
  detail?: string;
}

const COMBINATORS = new Set(['oneOf', 'anyOf', 'if', 'not']);
const VALUE_LEVEL = new Set(['type', 'enum', 'const', ...COMBINATORS]);
/** Errors that say the value's type was right, whatever schema they come from. */
const TYPE_MATCHED = new Set(['enum', 'const', 'required', 'additionalProperties', 'unevaluatedProperties', 'dependentRequired', 'uniqueItems', 'minItems', 'maxItems']);

/** The JSON Schema types a value has ("integer" and "number" for 3). */
function jsonTypes(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  switch (typeof value) {
    case 'number':
      return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
    case 'string':
    case 'boolean':
    case 'object':
      return [typeof value];
    default:
      return [];
  }
}

/**
 * Whether the schema an error comes from accepts the value's JSON type: by its `type`, or
 * for an enum/const without one, by the types of the values it allows. undefined when it
 * says nothing about types (a combinator, a schema without type).
 */
function branchAccepts(e: ErrorObject): boolean | undefined {
  if (COMBINATORS.has(e.keyword)) return undefined;
  const types = jsonTypes(e.data);
  const parent = e.parentSchema as { type?: unknown } | undefined;
  const declared = typeof parent?.type === 'string' ? [parent.type] : Array.isArray(parent?.type) ? (parent.type as unknown[]) : undefined;
  if (declared) return declared.some((t) => typeof t === 'string' && types.includes(t));
  if (e.keyword === 'enum' || e.keyword === 'const') {
    const allowed = e.keyword === 'enum' ? (e.params.allowedValues as unknown[]) : [e.params.allowedValue];
    if (!Array.isArray(allowed)) return undefined;
    return allowed.some((v) => jsonTypes(v).some((t) => types.includes(t)));
  }
  return undefined;
}

/** Ajv's words for a length or size bound, said plainly ("must not be empty"). */
function boundMessage(e: ErrorObject, field: string): { message: string; suggestion: string } | undefined {
  const limit = Number(e.params.limit);
  if (!Number.isInteger(limit)) return undefined;
  switch (e.keyword) {
    case 'minLength':
      if (typeof e.data !== 'string') return undefined;
      return limit === 1
        ? { message: `${field} must not be empty`, suggestion: 'write a non-empty value, or remove it' }
        : { message: `${field} must be at least ${plural(limit, 'character')} long, got ${quote(e.data)}`, suggestion: `write a value of at least ${plural(limit, 'character')}` };
    case 'maxLength':
      if (typeof e.data !== 'string') return undefined;
      return { message: `${field} must be at most ${plural(limit, 'character')} long, got ${quote(e.data)}`, suggestion: `shorten it to ${plural(limit, 'character')} or fewer` };
    case 'minItems':
      if (!Array.isArray(e.data)) return undefined;
      return limit === 1
        ? { message: `${field} must not be empty`, suggestion: 'list at least one item, or remove it' }
        : { message: `${field} must have at least ${plural(limit, 'item')}, got ${e.data.length}`, suggestion: `list at least ${plural(limit, 'item')}` };
    case 'maxItems':
      if (!Array.isArray(e.data)) return undefined;
      return { message: `${field} must have at most ${plural(limit, 'item')}, got ${e.data.length}`, suggestion: `list at most ${plural(limit, 'item')}` };
    default:
      return undefined;
  }
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'a boolean';
    case 'number':
      return Number.isInteger(value) ? 'an integer' : 'a number';
    default:
      return typeof value;
  }
}

const A: Record<string, string> = {
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  number: 'a number',
  integer: 'an integer',
  null: 'null',
};

/**
 * @param errors Ajv errors (allErrors + verbose)
 * @param prefix Tool-relative pointer of the validated value, for field names in messages
 * @param rootName What to call the validated value itself
 */
/** Pointers, by their segments: whether one was added at or below a path, in the time of reading that path once. */
class PathTree {
  private readonly root = new Map<string, Map<string, unknown>>();

  add(pointer: string): void {
    let node = this.root;
    for (const segment of pointer.split('/')) {
      let next = node.get(segment) as Map<string, Map<string, unknown>> | undefined;
      if (!next) node.set(segment, (next = new Map()));
      node = next;
    }
  }

  /** Every node of the tree lies on the way to a pointer that was added. */
  hasAtOrBelow(pointer: string): boolean {
    let node: Map<string, unknown> | undefined = this.root;
    for (const segment of pointer.split('/')) {
      node = node.get(segment) as Map<string, unknown> | undefined;
      if (!node) return false;
    }
    return true;
  }
}

/**
 * Whether some error is at a path below a given one. Sorted, the paths below "/a" follow "/a/"
 * directly: one binary search per question (comparing every pair was quadratic, and an
 * annotation array of 20,000 invalid members has about 60,000 errors).
 */
function hasErrorBelow(errors: readonly ErrorObject[]): (path: string) => boolean {
  const paths = [...new Set(errors.map((e) => e.instancePath))].sort();
  return (path) => {
    const prefix = `${path}/`;
    let lo = 0;
    let hi = paths.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (paths[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo < paths.length && paths[lo]!.startsWith(prefix);
  };
}

export function explainErrors(errors: readonly ErrorObject[], prefix = '', rootName = 'the tool'): Explained[] {
  // 1. Drop value-level errors (type/enum/oneOf…) at a path when a branch went deeper.
  const deeper = hasErrorBelow(errors);
  const kept = errors.filter((e) => !(VALUE_LEVEL.has(e.keyword) && deeper(e.instancePath)));
  // 2. At one path, member-level or enum/const errors mean the type matched: drop type/combinator errors.
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of kept) {
    const list = byPath.get(e.instancePath) ?? [];
    list.push(e);
    byPath.set(e.instancePath, list);
  }
  const out: Explained[] = [];
  const explained = new PathTree();
  const emit = (e: Explained) => {
    out.push(e);
    explained.add(e.pointer);
  };
  for (const [path, all] of byPath) {
    // The branch whose type is the value's: when one failed for a reason other than its
    // type, the errors of branches written for other types are noise.
    const matched = all.some((e) => e.keyword !== 'type' && branchAccepts(e) === true);
    const list = matched ? all.filter((e) => branchAccepts(e) !== false) : all;
    // An enum, member or item error, or any other error of a branch that takes the value's
    // type, means the value's type was right: drop the type and combinator errors. (An
    // error of a branch for another type does not: -1.5 against {type: integer, minimum: 0}
    // is both not an integer and too small.)
    const informative = list.some(
      (e) => TYPE_MATCHED.has(e.keyword) || (e.keyword !== 'type' && !COMBINATORS.has(e.keyword) && branchAccepts(e) !== false),
    );
    const chosen = list.filter((e) => !(informative && (e.keyword === 'type' || COMBINATORS.has(e.keyword))));
    const field = prefix + path === '' ? rootName : fieldPath(prefix + path);
    const types = new Set<string>();
    const allowed = new Set<unknown>();
    let value: unknown;
    let sawCombinator = false;
    const seen = new Set<string>();
    for (const e of chosen) {
      value = e.data;
      switch (e.keyword) {
        case 'type':
          for (const t of String(e.params.type).split(',')) types.add(t);
          break;
        case 'enum':
          for (const v of e.params.allowedValues as unknown[]) allowed.add(v);
          break;
        case 'const':
          allowed.add(e.params.allowedValue);
          break;
        case 'oneOf':
        case 'anyOf':
        case 'if':
        case 'not':
          sawCombinator = true;
          break;
        case 'required': {
          const missing = String(e.params.missingProperty);
          const key = `required:${missing}`;
          if (seen.has(key)) break;
          seen.add(key);
          emit({ pointer: path, message: `${field} is missing the required member ${JSON.stringify(missing)}`, suggestion: `add ${JSON.stringify(missing)}`, detail: `missing ${missing}` });
          break;
        }
        case 'additionalProperties':
        case 'unevaluatedProperties': {
          const extra = String(e.params.additionalProperty ?? e.params.unevaluatedProperty);
          const key = `extra:${extra}`;
          if (seen.has(key)) break;
          seen.add(key);
          const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
          const guess = closest(extra, known);
          emit({
            pointer: `${path}/${escapeSegment(extra)}`,
            message: `${field} has a member ${quote(extra, 80)} that is not allowed there${known.length ? ` (allowed: ${orList(known, 'and')})` : ''}`,
            suggestion: guess
              ? `did you mean ${JSON.stringify(guess)}?`
              : // Already inside _meta (an extension's object): "move it under _meta" cannot be followed.
                /(^|\/)_meta(\/|$)/.test(prefix + path)
                ? `remove ${quote(extra, 80)}: the object takes only its own members (data of the server's own goes in a _meta key of its own, under a prefix the server owns)`
                : `remove ${quote(extra, 80)}, or move it under _meta`,
          });
          break;
        }
        case 'format':
          emit({ pointer: path, message: `${field} must be a valid ${e.params.format}, got ${quote(e.data)}`, suggestion: `use a valid ${e.params.format}`, detail: 'format' });
          break;
        case 'uniqueItems': {
          // Ajv names the two equal items i and j, in either order (its loop for scalar
          // items finds the earlier one second): the later one is the one to remove.
          const first = Math.min(Number(e.params.i), Number(e.params.j));
          const second = Math.max(Number(e.params.i), Number(e.params.j));
          const item = Array.isArray(e.data) ? (e.data as unknown[])[second] : undefined;
          emit({ pointer: `${path}/${second}`, message: `${field} lists ${quote(item)} twice (items ${first} and ${second})`, suggestion: `remove the second ${quote(item)}` });
          break;
        }
        default: {
          const bound = boundMessage(e, field);
          if (bound) {
            const key = `bound:${e.keyword}`;
            if (seen.has(key)) break;
            seen.add(key);
            emit({ pointer: path, ...bound, detail: e.keyword });
            break;
          }
          emit({
            pointer: path,
            message: `${field} ${e.message ?? 'is invalid'}${e.keyword === 'minItems' || e.keyword === 'maxItems' ? '' : `, got ${quote(e.data)}`}`,
            suggestion: 'change the value so that it matches the schema',
            detail: e.keyword,
          });
        }
      }
    }
    if (allowed.size > 0) {
      const values = [...allowed];
      const guess = typeof value === 'string' ? closest(value, values.filter((v): v is string => typeof v === 'string')) : undefined;
      emit({
        pointer: path,
        message: `${field} is ${quote(value)}; expected ${values.length === 1 ? quote(values[0]) : `one of ${orList(values)}`}`,
        suggestion: guess ? `did you mean ${JSON.stringify(guess)}?` : 'use one of the listed values',
      });
    } else if (types.size > 0) {
      const expected = [...types].map((t) => A[t] ?? t);
      let suggestion = `make it ${expected.join(' or ')}`;
      if (types.has('boolean') && (value === 'true' || value === 'false')) suggestion = `write ${value} without quotes`;
      else if ((types.has('number') || types.has('integer')) && typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))) suggestion = `write ${value} without quotes`;
      else if (types.has('array') && typeof value === 'string') suggestion = `wrap it in an array: [${quote(value)}]`;
      emit({
        pointer: path,
        message: `${field} must be ${expected.length > 1 ? `${expected.slice(0, -1).join(', ')} or ${expected[expected.length - 1]}` : expected[0]}, got ${typeName(value)}${typeof value === 'object' && value !== null ? '' : ` (${quote(value)})`}`,
        suggestion,
      });
    } else if (sawCombinator && !explained.hasAtOrBelow(path)) {
      emit({ pointer: path, message: `${field} does not match any of the allowed forms, got ${quote(value)}`, suggestion: 'change the value to one of the forms the schema allows' });
    }
  }
  return out;
}
