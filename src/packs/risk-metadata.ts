/**
 * risk-metadata: SEP-2793 Tool Risk Metadata — riskLevel, category, blastRadius,
 * reversibility, sideEffects, approvalRecommendation, minTrustLevel on `annotations`.
 */
import { generated } from '../schema/generated.js';
import {
  newClaim,
  APPROVALS,
  BLAST_RADII,
  REVERSIBILITIES,
  RISK_LEVELS,
  type Action,
  type Claim,
  type Fact,
} from '../engine/claims.js';
import type { Pack, ToolView } from './types.js';
import { checkVocabulary, lenientEnum, type Lenient } from './vocabulary.js';

const validate = generated('risk-metadata').ToolAnnotations!;

export const CATEGORIES = ['read', 'observe', 'mutate', 'delete', 'destroy', 'utility'] as const;
/** SEP-2793 category → the normalised action. */
export const CATEGORY_ACTION: Record<(typeof CATEGORIES)[number], Action> = {
  read: 'read',
  observe: 'observe',
  mutate: 'write',
  delete: 'delete',
  destroy: 'destroy',
  utility: 'utility',
};

const ENUMS: Record<string, readonly string[]> = {
  riskLevel: RISK_LEVELS,
  category: CATEGORIES,
  blastRadius: BLAST_RADII,
  reversibility: REVERSIBILITIES,
  approvalRecommendation: APPROVALS,
};
const KEYS = ['riskLevel', 'category', 'blastRadius', 'reversibility', 'sideEffects', 'approvalRecommendation', 'minTrustLevel'];

/** annotations.<key> for each key, built once. */
const FIELDS = new Map(KEYS.map((k) => [k, `annotations.${k}`]));

function recognised(key: string, value: unknown): boolean {
  if (key in ENUMS) return typeof value === 'string' && ENUMS[key]!.includes(value);
  if (key === 'sideEffects') return Array.isArray(value) && value.every((v) => typeof v === 'string');
  return typeof value === 'number' && value >= 1 && value <= 5;
}

/** Categories from the least to the furthest-reaching (a list is read as its last member here). */
const CATEGORY_REACH: readonly (typeof CATEGORIES)[number][] = ['read', 'observe', 'utility', 'mutate', 'delete', 'destroy'];

/**
 * A value of an enum field that is wrong but clearly SEP-2793's (vocabularyLike): a case
 * variant is read as the member it names ("Destroy" → destroy); a list is read only for
 * `category`, as its furthest-reaching member (CATEGORY_REACH), since every
 * rule about a category asks what the tool *may* do. A list of another field is not read:
 * its rules pull both ways (a higher riskLevel silences risk-level-floor, an
 * approvalRecommendation "single" silences the confirmation rules), so no one member
 * answers them all.
 */
function lenient(key: string, value: unknown): Lenient | undefined {
  return lenientEnum(key, value, ENUMS[key], { key: 'category', noun: 'category', order: CATEGORY_REACH });
}

function expected(key: string): string {
  if (key in ENUMS) return `one of ${ENUMS[key]!.join(', ')}`;
  if (key === 'sideEffects') return 'an array of strings';
  return 'a number from 1 to 5';
}

export const riskMetadataPack: Pack = {
  id: 'risk-metadata',
  title: 'SEP-2793 tool risk metadata',
  source: '../shared/seeds/004_14645a736b0abf15.txt (SEP-2793)',
  location: 'annotations.{riskLevel, category, blastRadius, reversibility, sideEffects, approvalRecommendation, minTrustLevel}',
  annotationKeys: KEYS,
  metaKeys: [],
  proposal: true,
  analyse(tool: ToolView) {
    const a = tool.annotations;
    if (!a) return { claims: [], problems: [] };
    const { problems, foreign, present, lenient: readings } = checkVocabulary({
      pack: 'risk-metadata',
      container: a,
      at: '/annotations',
      toolPointer: tool.pointer,
      keys: KEYS,
      recognised,
      expected,
      name: 'SEP-2793',
      validate,
      lenient,
    });
    const claims: Claim[] = [];
    const base = `${tool.pointer}/annotations`;
    const claim = <F extends Fact>(fact: F, value: Claim<F>['value'], key: string, raw?: unknown) =>
      claims.push(newClaim(fact, value, 'risk-metadata', FIELDS.get(key)!, `${base}/${key}`, raw));
    for (const key of present) {
      const raw = a[key];
      // A wrong value that is clearly SEP-2793's is read as the member it names; the claim
      // keeps the value as written, so messages quote what the author wrote.
      const v = readings.get(key) ?? raw;
      if (foreign.has(key) || !recognised(key, v)) continue;
      const asWritten = v === raw ? undefined : raw;
      switch (key) {
        case 'riskLevel':
          claim('riskLevel', v as Claim<'riskLevel'>['value'], key, asWritten);
          break;
        case 'category':
          claim('action', CATEGORY_ACTION[v as (typeof CATEGORIES)[number]], key, raw);
          break;
        case 'blastRadius':
          claim('blastRadius', v as Claim<'blastRadius'>['value'], key, asWritten);
          break;
        case 'reversibility':
          claim('reversibility', v as Claim<'reversibility'>['value'], key, asWritten);
          break;
        case 'sideEffects':
          claim('sideEffects', v as string[], key);
          break;
        case 'approvalRecommendation':
          claim('approval', v as Claim<'approval'>['value'], key, asWritten);
          claim('requiresConfirmation', v !== 'none', key, raw);
          break;
        case 'minTrustLevel':
          claim('minTrustLevel', v as number, key);
          break;
      }
    }
    return { claims, problems };
  },
};
