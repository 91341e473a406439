/**
 * Conditions of a policy, compiled once and evaluated per tool in three values: the
 * declaration may satisfy the condition (yes), cannot (no), or it depends on something
 * only a call carries (unknown).
 *
 * Possible-set semantics: a condition on a fact holds when some possible value of the
 * fact satisfies it (`equals: "public"` holds for `destination: ["internal", "public"]`),
 * and `not` asks whether some possible value fails it. Negation is pushed down to the
 * conditions, so each condition is checked against the possible values on its own:
 * two conditions on one fact joined by `and` hold when each may hold.
 * A fact the tool does not declare satisfies no condition (so `not` of one holds).
 * `and`/`or`/`not` combine the three values like Kleene's logic: `and` is no when any
 * part is no, `or` is yes when any part is yes; otherwise unknown wins over the rest.
 */
import { valueKey } from '../engine/possible-sets.js';
import { isObject } from '../util/json.js';
import { parseFact, FactSyntaxError, type FactRef, type FactState, type FactValue } from './facts.js';
import { operandProblem } from './operands.js';

export type Condition =
  | { fact: string; equals: unknown }
  | { fact: string; in: unknown[] }
  | { fact: string; contains: unknown }
  | { and: Condition[] }
  | { or: Condition[] }
  | { not: Condition };

export type Op = 'equals' | 'in' | 'contains';

export type Node =
  | { kind: 'atom'; fact: number; op: Op; operand: unknown }
  | { kind: 'and' | 'or'; children: Node[] }
  | { kind: 'not'; child: Node };

export interface Compiled {
  facts: FactRef[];
  root: Node;
}

/** A problem in a condition, at a JSON pointer relative to the conditions object. */
export class ConditionError extends Error {
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
  }
}

const FORMS = 'a condition is {"fact": …, "equals"|"in"|"contains": …}, {"and": […]}, {"or": […]} or {"not": {…}}';

export const EMPTY_IN = '"in" is an empty list, so the condition can never hold (and "not" of it always does); list at least one value';

/** Compile conditions; every problem is collected (the config reports them all). */
export function compileConditions(conditions: unknown, errors: ConditionError[], warnings: ConditionError[] = []): Compiled | undefined {
  const facts: FactRef[] = [];
  const index = new Map<string, number>();
  const walk = (c: unknown, pointer: string): Node | undefined => {
    if (!isObject(c)) {
      errors.push(new ConditionError(`${FORMS}; got ${Array.isArray(c) ? 'an array' : JSON.stringify(c)}`, pointer));
      return undefined;
    }
    const keys = Object.keys(c);
    const ops = keys.filter((k) => k === 'equals' || k === 'in' || k === 'contains');
    const combinators = keys.filter((k) => k === 'and' || k === 'or' || k === 'not');
    if ('fact' in c) {
      if (combinators.length || ops.length !== 1) {
        errors.push(
          new ConditionError(
            ops.length === 0
              ? `a condition with "fact" needs one of "equals", "in" or "contains"`
              : `a condition with "fact" takes exactly one of "equals", "in" or "contains"${combinators.length ? `, and no ${combinators.map((k) => JSON.stringify(k)).join(' or ')} beside it` : ''}`,
            pointer,
          ),
        );
        return undefined;
      }
      if (typeof c.fact !== 'string') {
        errors.push(new ConditionError(`"fact" must be a string`, `${pointer}/fact`));
        return undefined;
      }
      const op = ops[0] as Op;
      if (op === 'in' && !Array.isArray(c.in)) {
        errors.push(new ConditionError(`"in" must be an array of values`, `${pointer}/in`));
        return undefined;
      }
      // A condition that can never match is a configuration error (and `not` of it matches everything).
      if (op === 'in' && (c.in as unknown[]).length === 0) {
        errors.push(new ConditionError(EMPTY_IN, `${pointer}/in`));
        return undefined;
      }
      let ref: FactRef;
      try {
        ref = parseFact(c.fact);
      } catch (err) {
        if (err instanceof FactSyntaxError) {
          errors.push(new ConditionError(err.message, `${pointer}/fact`));
          return undefined;
        }
        throw err;
      }
      // A condition that can never match (a string against a boolean claim, "Public" against
      // claims.destinations, tool.annotations.readonlyHint) would pass silently: say so. One that
      // matches only a malformed declaration (a core hint equals "true") is a warning.
      const never = operandProblem(ref, op, c[op]);
      if (never?.warning) warnings.push(new ConditionError(never.message, `${pointer}/${never.at}`));
      else if (never) {
        errors.push(new ConditionError(never.message, `${pointer}/${never.at}`));
        return undefined;
      }
      let i = index.get(c.fact);
      if (i === undefined) {
        i = facts.length;
        facts.push(ref);
        index.set(c.fact, i);
      }
      return { kind: 'atom', fact: i, op, operand: c[op] };
    }
    if (ops.length) {
      errors.push(new ConditionError(`${JSON.stringify(ops[0])} needs a "fact" beside it`, pointer));
      return undefined;
    }
    if (combinators.length !== 1) {
      errors.push(new ConditionError(combinators.length ? `a condition takes one of ${combinators.map((k) => JSON.stringify(k)).join(', ')}, not several; nest them` : FORMS, pointer));
      return undefined;
    }
    const kind = combinators[0] as 'and' | 'or' | 'not';
    if (kind === 'not') {
      const child = walk(c.not, `${pointer}/not`);
      return child && { kind: 'not', child };
    }
    const list = c[kind];
    if (!Array.isArray(list) || list.length === 0) {
      errors.push(new ConditionError(`"${kind}" must be a non-empty array of conditions`, `${pointer}/${kind}`));
      return undefined;
    }
    const children = list.map((x, i) => walk(x, `${pointer}/${kind}/${i}`));
    if (children.some((x) => x === undefined)) return undefined;
    return { kind, children: children as Node[] };
  };
  const before = errors.length;
  const root = walk(conditions, '');
  return root && errors.length === before ? { facts, root } : undefined;
}

export type Tri = 'yes' | 'no' | 'unknown';

/** A fact that decided the result, and the value that did (none for an undeclared fact). */
export interface Witness {
  fact: number;
  op: Op;
  operand: unknown;
  /** Whether the condition held (true) or failed (false, under a `not`). */
  held: boolean;
  value?: FactValue;
  /** The fact's pointer when it is not declared. */
  pointer?: string;
}

export interface Outcome {
  result: Tri;
  /** For yes: the facts and values that make it so. */
  witnesses: Witness[];
  /** For unknown: why each unknown fact is unknown. */
  unknown: string[];
}

function same(a: unknown, b: unknown): boolean {
  return a === b || valueKey(a) === valueKey(b);
}

function test(op: Op, value: unknown, operand: unknown): boolean {
  switch (op) {
    case 'equals':
      return same(value, operand);
    case 'in':
      return (operand as unknown[]).some((x) => same(value, x));
    case 'contains':
      if (same(value, operand)) return true;
      if (typeof value === 'string' && typeof operand === 'string') return value.includes(operand);
      return Array.isArray(value) && value.some((x) => same(x, operand));
  }
}

const NO: Outcome = { result: 'no', witnesses: [], unknown: [] };

/** May the node be `want` (true: hold, false: fail) for a tool whose facts are in `states`? */
function may(node: Node, want: boolean, states: readonly FactState[]): Outcome {
  switch (node.kind) {
    case 'atom': {
      const s = states[node.fact]!;
      if (s.kind === 'unknown') return { result: 'unknown', witnesses: [], unknown: [s.reason] };
      if (s.kind === 'absent') {
        // Nothing declared satisfies a condition; so it may fail, and cannot hold.
        return want ? NO : { result: 'yes', witnesses: [{ fact: node.fact, op: node.op, operand: node.operand, held: false, pointer: s.pointer }], unknown: [] };
      }
      const value = s.values.find((v) => test(node.op, v.value, node.operand) === want);
      return value ? { result: 'yes', witnesses: [{ fact: node.fact, op: node.op, operand: node.operand, held: want, value }], unknown: [] } : NO;
    }
    case 'not':
      return may(node.child, !want, states);
    case 'and':
    case 'or': {
      // "and" that must hold, or "or" that must fail: every part must; otherwise any part may.
      const all = (node.kind === 'and') === want;
      const parts = node.children.map((c) => may(c, want, states));
      const unknown = [...new Set(parts.flatMap((p) => p.unknown))];
      if (all) {
        if (parts.some((p) => p.result === 'no')) return NO;
        if (parts.some((p) => p.result === 'unknown')) return { result: 'unknown', witnesses: [], unknown };
        return { result: 'yes', witnesses: parts.flatMap((p) => p.witnesses), unknown: [] };
      }
      const yes = parts.find((p) => p.result === 'yes');
      if (yes) return yes;
      if (parts.some((p) => p.result === 'unknown')) return { result: 'unknown', witnesses: [], unknown };
      return NO;
    }
  }
}

export function evaluate(compiled: Compiled, states: readonly FactState[]): Outcome {
  return may(compiled.root, true, states);
}
