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
  return lenientEnum(key, value, allowed, { key: 'mcp.dev/effect', noun: 'effect', order: EFFECT_REACH });
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
