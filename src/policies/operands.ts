/**
 * What a schema cannot say about a policy condition: that it can never match. Only what is
 * provably wrong is rejected, each with a "did you mean":
 *
 * - a `claims.<fact>` compared with a value of the wrong type (a string with a boolean or
 *   numeric claim), or with a value outside a closed vocabulary (`claims.riskLevel` equals
 *   "severe"), or, for the classifier sets whose open action-metadata strings a claim keeps as
 *   written, with a known value in another letter case (`claims.destinations` equals "Public":
 *   the packs read such a spelling as "public", so the claim never holds "Public");
 * - a `tool.` path into a vocabulary's known object that names no member of it: a core hint or
 *   another vocabulary key in the wrong case (`tool.annotations.readonlyHint`), a near miss of
 *   a member of SEP-1913's metadata (`inputMetadata.destinations`) or of the action-metadata
 *   and trust-annotations extensions' objects (`…trust-annotations"].untrustd`). A member
 *   that is no near miss is taken as written: the extensions may grow, and the linter accepts
 *   their other members too.
 *
 * A core hint (`tool.annotations.readOnlyHint`, `destructiveHint`, `idempotentHint`,
 * `openWorldHint`) compared with anything but a boolean ("true", YAML's `yes`, a string in
 * YAML 1.2, 1) is a warning, not an error: the fact reads the hint as declared, so `"true"`
 * matches a tool that writes the hint as a string, but true was likelier meant.
 *
 * Any other `tool.` path may be the server's own data and is taken as written; `contains`
 * (a substring test on strings) is not checked, except against a boolean (a core hint, a
 * boolean claim), where it is `equals`.
 */
import {
  ACTIONS,
  APPROVALS,
  BLAST_RADII,
  DATA_CLASSES,
  DESTINATIONS,
  OUTCOMES,
  RESULT_SENSITIVITIES,
  REVERSIBILITIES,
  RISK_LEVELS,
  SOURCES,
  type Fact,
} from '../engine/claims.js';
import { PACKS } from '../packs/index.js';
import { ACTION_KEY, ACTION_MEMBERS } from '../packs/action-metadata.js';
import { TRUST_KEY, TRUST_MEMBERS } from '../packs/trust-annotations.js';
import { CATEGORY_ACTION } from '../packs/risk-metadata.js';
import { closest, orList } from '../util/text.js';
import { hasOwn } from '../util/json.js';
import type { FactRef } from './facts.js';

type Op = 'equals' | 'in' | 'contains';

const BOOLEAN_FACTS: readonly Fact[] = ['readOnly', 'destructive', 'idempotent', 'openWorld', 'maliciousActivity', 'requiresConfirmation', 'sensitiveOutput', 'secretReference', 'untrusted'];
const NUMBER_FACTS: readonly Fact[] = ['minTrustLevel'];
/** Facts whose claims only ever hold these values. */
const CLOSED: Partial<Record<Fact, readonly string[]>> = {
  action: ACTIONS,
  reversibility: REVERSIBILITIES,
  riskLevel: RISK_LEVELS,
  blastRadius: BLAST_RADII,
  approval: APPROVALS,
  resultSensitivity: RESULT_SENSITIVITIES,
};
/** Classifier sets: SEP-1913's values, plus any open string the action-metadata extension writes. */
const CLASSIFIERS: Partial<Record<Fact, readonly string[]>> = {
  outcomes: OUTCOMES,
  destinations: DESTINATIONS,
  sources: SOURCES,
  inputSensitivity: DATA_CLASSES,
  outputSensitivity: DATA_CLASSES,
};

const METADATA_MEMBERS: Record<string, readonly string[]> = {
  inputMetadata: ['destination', 'sensitivity', 'outcomes'],
  returnMetadata: ['source', 'sensitivity'],
};
const capitalise = (s: string) => s[0]!.toUpperCase() + s.slice(1);

let ANNOTATION_KEYS: readonly string[] | undefined;
/** Every annotations key MCP or a vocabulary defines (and SEP-2061's capitalised metadata keys). */
function annotationKeys(): readonly string[] {
  return (ANNOTATION_KEYS ??= [
    'title',
    'readOnlyHint',
    'destructiveHint',
    'idempotentHint',
    'openWorldHint',
    ...PACKS.flatMap((p) => p.annotationKeys),
    'InputMetadata',
    'ReturnMetadata',
    'privateHint',
  ]);
}

export interface OperandProblem {
  message: string;
  /** Where, relative to the condition: "fact", "equals", "in/2". */
  at: string;
  /**
   * A condition that can match, but likely not what was meant (a core hint compared with
   * "true": it matches a tool that declares the hint as a string): a config warning, not an error.
   */
  warning?: true;
}

const show = (v: unknown) => JSON.stringify(v);

/** YAML 1.1's boolean words: YAML 1.2 (and so a YAML config) reads them as strings. */
const YAML_WORDS: Record<string, boolean> = { yes: true, y: true, on: true, no: false, n: false, off: false };

/** The boolean a non-boolean was probably meant to be ("true", yes, 1), with YAML's note for yes/no/on/off. */
function booleanGuess(v: unknown): string {
  const word = typeof v === 'string' ? v.trim().toLowerCase() : undefined;
  if (word !== undefined && hasOwn(YAML_WORDS, word)) {
    return `; did you mean ${YAML_WORDS[word]}? (YAML reads ${String(v).trim()} as a string, not a boolean: write ${YAML_WORDS[word]})`;
  }
  const guess = word === 'true' || v === 1 ? 'true' : word === 'false' || v === 0 ? 'false' : undefined;
  return guess ? `; did you mean ${guess} (a boolean${typeof v === 'string' ? ', without quotes' : ''})?` : '';
}

/** Why a value is no boolean, with the boolean it was probably meant to be ("true", yes, 1). */
function booleanProblem(text: string, v: unknown): string | undefined {
  if (typeof v === 'boolean') return undefined;
  return `${text} is true or false, never ${show(v)}${booleanGuess(v)}`;
}

/**
 * A core hint compared with a non-boolean. The fact reads the hint as the tool declares it, so
 * "true" matches a tool that writes "readOnlyHint": "true" (which schema-valid reports): a
 * legitimate way to catch quoted hints, but more often a typo of true.
 */
function hintValueWarning(text: string, v: unknown): string | undefined {
  if (typeof v === 'boolean') return undefined;
  return `${text} is a boolean in MCP's schema, so ${show(v)} matches only a tool that declares it as ${v === null ? 'null' : Array.isArray(v) ? 'an array' : `a${typeof v === 'object' ? 'n' : ''} ${typeof v}`} (which schema-valid reports)${booleanGuess(v)}`;
}

/** Why an `equals`/`in` operand can never be a value of this claim, if it cannot. */
function claimValueProblem(fact: Fact, text: string, v: unknown): string | undefined {
  if (BOOLEAN_FACTS.includes(fact)) return booleanProblem(text, v);
  if (NUMBER_FACTS.includes(fact)) {
    if (typeof v === 'number') return undefined;
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    return `${text} is a number, never ${show(v)}${Number.isFinite(n) ? `; did you mean ${n} (a number, without quotes)?` : ''}`;
  }
  const closed = CLOSED[fact];
  if (closed) {
    if (typeof v === 'string' && closed.includes(v)) return undefined;
    // A SEP-2793 category word the risk-metadata pack reads as another action ("mutate" writes).
    const category = fact === 'action' && typeof v === 'string' && Object.hasOwn(CATEGORY_ACTION, v) ? CATEGORY_ACTION[v as keyof typeof CATEGORY_ACTION] : undefined;
    if (category) return `${text} is one of ${orList(closed)}, never ${show(v)}: SEP-2793's category ${show(v)} is read as the action ${show(category)}; did you mean ${show(category)}?`;
    const guess = typeof v === 'string' ? closest(v, closed) : undefined;
    return `${text} is one of ${orList(closed)}, never ${show(v)}${guess ? `; did you mean ${show(guess)}?` : ''}`;
  }
  const known = CLASSIFIERS[fact];
  if (known) {
    if (typeof v !== 'string') return `${text} holds strings (${orList(known)}, or an action-metadata value of the server's own), never ${show(v)}`;
    const lower = v.toLowerCase();
    const member = known.find((k) => k.toLowerCase() === lower);
    if (member !== undefined && member !== v) {
      return `${text} never holds ${show(v)}: a value written in another letter case is read as ${show(member)}; did you mean ${show(member)}?`;
    }
  }
  return undefined;
}

/** Why a tool path names no member of a vocabulary's known object, if it provably does not. */
function toolPathProblem(path: readonly string[], text: string): string | undefined {
  const [top, key, member] = path;
  if (top === 'annotations' && key !== undefined) {
    const keys = annotationKeys();
    if (!keys.includes(key)) {
      const lower = key.toLowerCase();
      const named = keys.find((k) => k.toLowerCase() === lower);
      if (named) return `${show(text)} names annotations.${key}, which no vocabulary defines; did you mean ${show(`tool.annotations.${named}${suffix(path, 2)}`)}? (keys are compared exactly)`;
      return undefined;
    }
    const metadata = key === 'InputMetadata' || key === 'ReturnMetadata' ? key[0]!.toLowerCase() + key.slice(1) : key;
    const members = METADATA_MEMBERS[metadata];
    if (members && member !== undefined) return memberProblem(member, [...members, ...members.map(capitalise)], `annotations.${key}`, text, path, 3);
    return undefined;
  }
  if (top === '_meta' && key === ACTION_KEY && member !== undefined) {
    const inner = memberProblem(member, ACTION_MEMBERS, `_meta[${show(ACTION_KEY)}]`, text, path, 3);
    if (inner) return inner;
    const members = METADATA_MEMBERS[member];
    const sub = path[3];
    if (members && sub !== undefined) return memberProblem(sub, members, `_meta[${show(ACTION_KEY)}].${member}`, text, path, 4);
  }
  if (top === '_meta' && key === TRUST_KEY && member !== undefined) return memberProblem(member, TRUST_MEMBERS, `_meta[${show(TRUST_KEY)}]`, text, path, 3);
  return undefined;
}

/** The rest of a fact's text after its first n path segments, as it is written in the fact. */
function suffix(path: readonly string[], n: number): string {
  // Rebuild the tail from the path: plain names after ".", others quoted in brackets.
  return path
    .slice(n)
    .map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? `[${s}]` : /^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(s) ? `.${s}` : `[${show(s)}]`))
    .join('');
}

/** A member that is a near miss of one of a known object's members (never any other name: it may be the server's own, or the vocabulary's newer one). */
function memberProblem(member: string, members: readonly string[], field: string, text: string, path: readonly string[], n: number): string | undefined {
  if (members.includes(member)) return undefined;
  const guess = closest(member, members);
  if (!guess) return undefined;
  const head = path.slice(0, n - 1);
  const fixed = `tool${suffix(head, 0)}${suffix([guess], 0)}${suffix(path, n)}`;
  const shown = members.filter((m) => m[0] === m[0]!.toLowerCase());
  return `${show(text)} names the member ${show(member)} of ${field}, which has no such member (its members are ${orList(shown, 'and')}); did you mean ${show(fixed)}?`;
}

/** The core hints: booleans (a tool that writes another value has no valid hint, and a policy on it would never match one). */
const CORE_HINTS: readonly string[] = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'];

/** Each operand of a condition with its place: "equals", "contains", "in/2". */
function operands(op: Op, operand: unknown): { value: unknown; at: string }[] {
  return op === 'in' ? (operand as unknown[]).map((value, i) => ({ value, at: `in/${i}` })) : [{ value: operand, at: op }];
}

/** The first reason a condition on this fact can never match, if there is one. */
export function operandProblem(ref: FactRef, op: Op, operand: unknown): OperandProblem | undefined {
  if (ref.kind === 'tool') {
    const why = toolPathProblem(ref.path, ref.text);
    if (why) return { message: why, at: 'fact' };
    // tool.annotations.readOnlyHint (and the other core hints) compared with a non-boolean: a
    // valid hint is true or false, but the fact reads the value as declared, so "true" holds for
    // a tool that writes the hint as a string. A warning (did you mean true?), not an error.
    const [top, key, ...deeper] = ref.path;
    if (top === 'annotations' && key !== undefined && CORE_HINTS.includes(key) && deeper.length === 0) {
      for (const o of operands(op, operand)) {
        const warning = hintValueWarning(ref.text, o.value);
        if (warning) return { message: warning, at: o.at, warning: true };
      }
    }
    return undefined;
  }
  // `contains` is a substring test on strings, and so not checked, except on a boolean claim (where it is `equals`).
  if (ref.kind !== 'claims' || (op === 'contains' && !BOOLEAN_FACTS.includes(ref.fact))) return undefined;
  const text = `claims.${ref.fact}`;
  for (const o of operands(op, operand)) {
    const why = claimValueProblem(ref.fact, text, o.value);
    if (why) return { message: why, at: o.at };
  }
  return undefined;
}
