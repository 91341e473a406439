/**
 * What every proposal pack does the same way: decide whether a tool speaks the
 * vocabulary, report keys that hold the server's own data as collisions (a warning
 * suggesting _meta) instead of schema errors, and validate the rest.
 *
 * A key is "recognised" when its value has the vocabulary's shape. A tool "speaks"
 * the vocabulary when any of its keys is recognised; then every problem is a real
 * schema error. A tool that does not speak it but has one of its keys is using that
 * key for something of its own — unless the key is under a _meta prefix MCP reserves
 * (io.modelcontextprotocol/), which no server may use for its own data.
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
}

export interface VocabularyCheck {
  problems: SchemaProblem[];
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

export function checkVocabulary(v: VocabularyKeys): VocabularyCheck {
  const present = v.keys.filter((k) => Object.prototype.hasOwnProperty.call(v.container, k));
  const problems: SchemaProblem[] = [];
  if (present.length === 0) return { problems, foreign: NONE, present };
  const speaks = v.speaks === true || present.some((k) => v.recognised(k, v.container[k]));
  // A key under MCP's reserved prefix is never the server's own: a wrong value there is an error.
  const foreign = new Set(speaks ? [] : present.filter((k) => !(v.at === '/_meta' && underReservedPrefix(k))));
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
      problems.push({ pack: v.pack, pointer: base + e.pointer, message: e.message, suggestion: e.suggestion, kind: 'invalid' });
    }
  }
  return { problems, foreign, present };
}
