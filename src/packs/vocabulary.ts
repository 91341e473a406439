/**
 * What every proposal pack does the same way: decide whether a tool speaks the
 * vocabulary, report keys that hold the server's own data as collisions (a warning
 * suggesting _meta) instead of schema errors, and validate the rest.
 *
 * A key is "recognised" when its value has the vocabulary's shape. A tool "speaks"
 * the vocabulary when any of its keys is recognised; then every problem is a real
 * schema error. A tool that does not speak it but has one of its keys is using that
 * key for something of its own — unless the key is under a _meta prefix MCP reserves
 * (io.modelcontextprotocol/), which no server may use for its own data, or is one of the
 * vocabulary's own _meta keys (ownKeys: the _meta hints proposal's mcp.dev/effect, …).
 *
 * Between the two, a value can be wrong yet clearly the vocabulary's (see vocabularyLike):
 * a case variant of an enum member ("Delete"), or a list whose members are all members of
 * a single-valued enum field (["read", "delete"]). Nothing of the server's own looks like
 * that, so such a key makes the tool speak the vocabulary (a schema error, never a
 * collision), and the pack reads what it safely can: the member a case variant names, and
 * for the action fields the furthest-reaching member of a list. A boolean key holding a quoted
 * "true" or "false" is such a value too (the vocabulary's, written wrong), but is never read.
 */
import type { GeneratedValidator } from '../schema/generated.js';
import type { PackId } from '../types.js';
import { explainErrors } from '../schema/explain.js';
import { escapeSegment, fieldPath, split } from '../util/pointer.js';
import { quote } from '../util/text.js';
import type { SchemaProblem } from './types.js';

export interface VocabularyKeys {
  pack: PackId;
  /** The object that holds the keys (annotations or _meta). */
  container: Record<string, unknown>;
  /** Its tool-relative pointer ("/annotations", "/_meta"). */
  at: string;
  toolPointer: string;
  keys: readonly string[];
  recognised(key: string, value: unknown): boolean;
  /** What the vocabulary expects at a key, for the collision message. */
  expected(key: string): string;
  /** The vocabulary's name in messages ("SEP-2793"). */
  name: string;
  validate: GeneratedValidator;
  /** The tool speaks the vocabulary elsewhere (outside these keys): every problem is an error. */
  speaks?: boolean;
  /**
   * The keys are names the vocabulary chose under a _meta prefix of its own (the _meta hints
   * proposal's mcp.dev/effect, …), not common words a server may have used first: like a key
   * under MCP's reserved prefix, a wrong value there is the vocabulary's, never the server's own
   * data (a schema error, never a collision). A server's own keys under that prefix are other
   * keys (meta-key-format notes them).
   */
  ownKeys?: boolean;
  /**
   * A value that is not the vocabulary's shape but clearly belongs to it (see
   * vocabularyLike): what the pack reads from it, if anything. Such a key is never the
   * server's own data.
   */
  lenient?(key: string, value: unknown): Lenient | undefined;
}

/** What a pack makes of a value that is wrong but clearly its vocabulary's. */
export interface Lenient {
  /** The value the pack reads (a claim is made of it), when reading it is safe. */
  read?: string;
  /** A better suggestion than the schema explanation's, for the problem at the key. */
  suggestion?: string;
}

export interface VocabularyCheck {
  problems: SchemaProblem[];
  /** Keys whose wrong value the pack can still read (a case variant, a list of actions), and what it reads. */
  lenient: ReadonlyMap<string, string>;
  /** Keys that hold the server's own data: extract no claims from them. */
  foreign: ReadonlySet<string>;
  /** Keys of the vocabulary present on the tool. */
  present: string[];
}

/** Second labels that make a _meta prefix MCP's own (io.modelcontextprotocol/, dev.mcp/). */
export const RESERVED_SECOND_LABELS: readonly string[] = ['modelcontextprotocol', 'mcp'];

/**
 * True for a _meta key under a prefix MCP reserves for itself (its second label is
 * "modelcontextprotocol" or "mcp", compared case-insensitively). No server may use such a
 * key for data of its own, so one that a vocabulary defines can only be that vocabulary.
 */
export function underReservedPrefix(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash <= 0) return false;
  const labels = key.slice(0, slash).toLowerCase().split('.');
  return labels.length >= 2 && RESERVED_SECOND_LABELS.includes(labels[1]!);
}

/** No foreign keys (shared: a VocabularyCheck's set is only read). */
const NONE: ReadonlySet<string> = new Set();

/** No lenient readings (shared: only read). */
const NO_READINGS: ReadonlyMap<string, string> = new Map();

/**
 * Whether a value clearly belongs to a single-valued enum field, though it is not one of
 * its members: a case variant of a member ("Delete"), or a non-empty list whose items are
 * all members, compared case-insensitively (["read", "Delete"]). The members it names, in
 * the enum's spelling, or undefined when the value is anything else (then it may be the
 * server's own data).
 */
export function vocabularyLike(value: unknown, allowed: readonly string[]): string[] | undefined {
  const member = (x: unknown) => (typeof x === 'string' ? allowed.find((a) => a.toLowerCase() === x.toLowerCase()) : undefined);
  if (typeof value === 'string') {
    const m = member(value);
    return m !== undefined && m !== value ? [m] : undefined;
  }
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const out: string[] = [];
  for (const x of value) {
    const m = member(x);
    if (m === undefined) return undefined;
    if (!out.includes(m)) out.push(m);
  }
  return out;
}

/**
 * What a pack reads from a wrong but clearly-its-own value of an enum field (vocabularyLike):
 * a case variant, or a list of one member, as that member; a list of several only for the
 * field whose members are actions (`reach`, ordered from the least to the furthest-reaching),
 * as its furthest-reaching member, since every rule about an action asks what the tool *may*
 * do. A list of several values of another field is not read: its rules pull both ways.
 */
export function lenientEnum(key: string, value: unknown, allowed: readonly string[] | undefined, reach?: { key: string; noun: string; order: readonly string[] }): Lenient | undefined {
  if (!allowed) return undefined;
  const members = vocabularyLike(value, allowed);
  if (!members) return undefined;
  if (!Array.isArray(value)) return { read: members[0]! };
  if (members.length === 1) return { read: members[0]!, suggestion: `write it as the one value ${JSON.stringify(members[0])}, not as a list` };
  const list = members.map((m) => JSON.stringify(m)).join(', ');
  if (reach && key === reach.key) {
    const furthest = reach.order.filter((m) => members.includes(m)).pop()!;
    return {
      read: furthest,
      suggestion: `use one ${reach.noun}, not a list: the one that covers everything the tool may do (of ${list}, mcp-annotate reads ${JSON.stringify(furthest)}, the furthest-reaching)`,
    };
  }
  return { suggestion: `use one value, not a list (${key} holds a single value; this one lists ${list})` };
}

/**
 * The boolean a string spells as JSON's own literal, quoted ("true", "False"), or undefined.
 * On a vocabulary's boolean key such a string is that vocabulary's value written wrong, as it
 * is on a core hint: nothing of a server's own is a quoted true.
 */
export function quotedBoolean(value: unknown): boolean | undefined {
  if (typeof value !== 'string') return undefined;
  const word = value.trim().toLowerCase();
  return word === 'true' ? true : word === 'false' ? false : undefined;
}

/** A quoted true or false on a key whose values are booleans: the vocabulary's, written wrong (never read: clients ignore the string). */
function quotedBooleanOf(v: VocabularyKeys, key: string, value: unknown): Lenient | undefined {
  const b = quotedBoolean(value);
  if (b === undefined || !v.recognised(key, true) || !v.recognised(key, false)) return undefined;
  return { suggestion: `write ${b}, a JSON boolean without quotes: clients that implement ${v.name} ignore the string ${JSON.stringify(value)}` };
}

export function checkVocabulary(v: VocabularyKeys): VocabularyCheck {
  const present = v.keys.filter((k) => Object.prototype.hasOwnProperty.call(v.container, k));
  const problems: SchemaProblem[] = [];
  if (present.length === 0) return { problems, foreign: NONE, present, lenient: NO_READINGS };
  // The map, the set and the readings below are made only when there is something to put in
  // them: a tool that writes the vocabulary right (the common case) needs none of them.
  let lenient: Map<string, Lenient> | undefined;
  let recognisedSome = false;
  for (const k of present) {
    const value = v.container[k];
    if (v.recognised(k, value)) {
      recognisedSome = true;
      continue;
    }
    const l = v.lenient?.(k, value) ?? quotedBooleanOf(v, k, value);
    if (l) (lenient ??= new Map()).set(k, l);
  }
  // A value that is clearly the vocabulary's, though wrong, says the tool speaks it.
  const speaks = v.speaks === true || lenient !== undefined || recognisedSome;
  // A key under MCP's reserved prefix is never the server's own: a wrong value there is an error.
  const foreignKeys = speaks || v.ownKeys ? [] : present.filter((k) => !(v.at === '/_meta' && underReservedPrefix(k)));
  const foreign: ReadonlySet<string> = foreignKeys.length === 0 ? NONE : new Set(foreignKeys);
  const base = v.toolPointer + v.at;
  for (const k of foreign) {
    const field = fieldPath(`${v.at}/${escapeSegment(k)}`);
    problems.push({
      pack: v.pack,
      pointer: `${base}/${escapeSegment(k)}`,
      kind: 'collision',
      message: `${field} holds ${quote(v.container[k])}, which is not ${v.name}'s ${k} (${v.expected(k)}); clients that implement ${v.name} will misread it`,
      suggestion: `if this is the server's own data, move it under _meta with a prefix of your own (e.g. _meta["com.example/${k.replace(/^.*\//, '')}"])`,
    });
  }
  if (!v.validate(v.container)) {
    for (const e of explainErrors(v.validate.errors ?? [], v.at)) {
      const key = split(e.pointer)[0] ?? '';
      if (foreign.has(key)) continue;
      if (key !== '' && !v.keys.includes(key)) continue;
      const l = lenient !== undefined && e.pointer === `/${escapeSegment(key)}` ? lenient.get(key) : undefined;
      const problem: SchemaProblem = { pack: v.pack, pointer: base + e.pointer, message: e.message, suggestion: l?.suggestion ?? e.suggestion, kind: 'invalid' };
      if (l?.read !== undefined) problem.read = true;
      if (e.detail !== undefined) problem.detail = e.detail;
      problems.push(problem);
    }
  }
  if (lenient === undefined) return { problems, foreign, present, lenient: NO_READINGS };
  const readings = new Map<string, string>();
  for (const [k, l] of lenient) if (l.read !== undefined) readings.set(k, l.read);
  return { problems, foreign, present, lenient: readings };
}
