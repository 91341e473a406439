/**
 * meta-hints: the `_meta` advisory policy hints proposal — mcp.dev/effect,
 * mcp.dev/idempotent, mcp.dev/requiresConfirmation, mcp.dev/resultSensitivity.
 */
import { generated } from '../schema/generated.js';
import { newClaim, RESULT_SENSITIVITIES, type Action, type Claim, type Fact } from '../engine/claims.js';
import { escapeSegment } from '../util/pointer.js';
import type { Pack, ToolView } from './types.js';
import { checkVocabulary, lenientEnum, type Lenient } from './vocabulary.js';

const validate = generated('meta-hints').Meta!;

export const EFFECTS = ['read', 'write', 'delete', 'external'] as const;
export const META_HINT_KEYS = ['mcp.dev/effect', 'mcp.dev/idempotent', 'mcp.dev/requiresConfirmation', 'mcp.dev/resultSensitivity'] as const;

/** Each key's field (_meta["mcp.dev/effect"]) and tool-relative pointer, built once. */
const FIELDS = new Map<string, string>(META_HINT_KEYS.map((k) => [k, `_meta[${JSON.stringify(k)}]`]));
const RELS = new Map<string, string>(META_HINT_KEYS.map((k) => [k, `/_meta/${escapeSegment(k)}`]));

function recognised(key: string, value: unknown): boolean {
  switch (key) {
    case 'mcp.dev/effect':
      return typeof value === 'string' && (EFFECTS as readonly string[]).includes(value);
    case 'mcp.dev/resultSensitivity':
      return typeof value === 'string' && (RESULT_SENSITIVITIES as readonly string[]).includes(value);
    default:
      return typeof value === 'boolean';
  }
}

/** mcp.dev/effect values from the least to the furthest-reaching (a list is read as its last member here). */
const EFFECT_REACH: readonly (typeof EFFECTS)[number][] = ['read', 'write', 'external', 'delete'];

/**
 * A value that is wrong but clearly the proposal's (vocabularyLike): a case variant of an
 * effect or result sensitivity is read as the member it names ("Delete" → delete); a list
 * is read only for mcp.dev/effect, as its furthest-reaching member, since every rule about
 * an effect asks what the tool *may* do. A list of result sensitivities is not read (its
 * rules pull both ways: "public" and "restricted" each silence a different one).
 */
function lenient(key: string, value: unknown): Lenient | undefined {
  const allowed = key === 'mcp.dev/effect' ? EFFECTS : key === 'mcp.dev/resultSensitivity' ? RESULT_SENSITIVITIES : undefined;
  const l = lenientEnum(key, value, allowed, { key: 'mcp.dev/effect', noun: 'effect', order: EFFECT_REACH });
  if (l) return l;
  if (key === 'mcp.dev/effect' && typeof value === 'string') return effectWord(value);
  if ((key === 'mcp.dev/idempotent' || key === 'mcp.dev/requiresConfirmation') && typeof value === 'string') return booleanWord(value);
  return undefined;
}

/**
 * SEP-2793's category words, which that proposal itself maps to actions (CATEGORY_ACTION):
 * written as an effect, each is read as the effect that covers it — "destroy" may delete
 * (mcp.dev/effect has no further-reaching value), "mutate" writes, "observe" reads.
 */
const CATEGORY_WORDS: Readonly<Record<string, (typeof EFFECTS)[number]>> = { destroy: 'delete', mutate: 'write', observe: 'read' };

/** Other words for an effect: a "did you mean", never a reading (their meaning is nobody's definition). */
const EFFECT_WORDS: Readonly<Record<string, (typeof EFFECTS)[number]>> = {
  update: 'write',
  modify: 'write',
  create: 'write',
  edit: 'write',
  remove: 'delete',
  erase: 'delete',
  purge: 'delete',
};

function effectWord(value: string): Lenient | undefined {
  const word = value.toLowerCase();
  const own = ` (the _meta hints proposal's effects are ${EFFECTS.join(', ')})`;
  const read = Object.hasOwn(CATEGORY_WORDS, word) ? CATEGORY_WORDS[word] : undefined;
  if (read) return { read, suggestion: `did you mean ${JSON.stringify(read)}? ${JSON.stringify(word)} is SEP-2793's category word${own}; mcp-annotate reads it as ${JSON.stringify(read)}` };
  const guess = Object.hasOwn(EFFECT_WORDS, word) ? EFFECT_WORDS[word] : undefined;
  return guess ? { suggestion: `did you mean ${JSON.stringify(guess)}?${own}` } : undefined;
}

/**
 * A boolean written as a string ("yes", "true"): the proposal's, but never read — a client
 * that expects a boolean ignores it, so reading "yes" as a request for confirmation would
 * silence the rules that say nobody asks.
 */
function booleanWord(value: string): Lenient | undefined {
  const word = value.trim().toLowerCase();
  const b = ['true', 'yes', 'y', 'on', '1'].includes(word) ? true : ['false', 'no', 'n', 'off', '0'].includes(word) ? false : undefined;
  return b === undefined ? undefined : { suggestion: `write ${b}, a JSON boolean without quotes: clients that implement the proposal ignore the string ${JSON.stringify(value)}` };
}

function expected(key: string): string {
  if (key === 'mcp.dev/effect') return `one of ${EFFECTS.join(', ')}`;
  if (key === 'mcp.dev/resultSensitivity') return `one of ${RESULT_SENSITIVITIES.join(', ')}`;
  return 'a boolean';
}

export const metaHintsPack: Pack = {
  id: 'meta-hints',
  title: '_meta advisory policy hints',
  source: '../shared/seeds/003_17b2a6156f391820.txt',
  location: '_meta["mcp.dev/effect" | "mcp.dev/idempotent" | "mcp.dev/requiresConfirmation" | "mcp.dev/resultSensitivity"]',
  annotationKeys: [],
  metaKeys: META_HINT_KEYS,
  proposal: true,
  analyse(tool: ToolView) {
    const m = tool.meta;
    if (!m) return { claims: [], problems: [] };
    const { problems, foreign, present, lenient: readings } = checkVocabulary({
      pack: 'meta-hints',
      container: m,
      at: '/_meta',
      toolPointer: tool.pointer,
      keys: META_HINT_KEYS,
      recognised,
      expected,
      name: 'the _meta hints proposal',
      validate,
      lenient,
      ownKeys: true,
    });
    const claims: Claim[] = [];
    const claim = <F extends Fact>(fact: F, value: Claim<F>['value'], key: string, raw?: unknown) =>
      claims.push(newClaim(fact, value, 'meta-hints', FIELDS.get(key)!, tool.pointer + RELS.get(key)!, raw));
    for (const key of present) {
      const raw = m[key];
      // A wrong value that is clearly the proposal's is read as the member it names; the
      // claim keeps the value as written, so messages quote what the author wrote.
      const v = readings.get(key) ?? raw;
      if (foreign.has(key) || !recognised(key, v)) continue;
      if (key === 'mcp.dev/effect') claim('action', v as Action, key, raw);
      else if (key === 'mcp.dev/idempotent') claim('idempotent', v as boolean, key);
      else if (key === 'mcp.dev/requiresConfirmation') claim('requiresConfirmation', v as boolean, key);
      else claim('resultSensitivity', v as Claim<'resultSensitivity'>['value'], key, v === raw ? undefined : raw);
    }
    return { claims, problems };
  },
};
