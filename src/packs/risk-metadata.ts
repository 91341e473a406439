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
import { checkVocabulary } from './vocabulary.js';

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
    const { problems, foreign, present } = checkVocabulary({
      pack: 'risk-metadata',
      container: a,
      at: '/annotations',
      toolPointer: tool.pointer,
      keys: KEYS,
      recognised,
      expected,
      name: 'SEP-2793',
      validate,
    });
    const claims: Claim[] = [];
    const base = `${tool.pointer}/annotations`;
    const claim = <F extends Fact>(fact: F, value: Claim<F>['value'], key: string, raw?: unknown) =>
      claims.push(newClaim(fact, value, 'risk-metadata', FIELDS.get(key)!, `${base}/${key}`, raw));
    for (const key of present) {
      const v = a[key];
      if (foreign.has(key) || !recognised(key, v)) continue;
      switch (key) {
        case 'riskLevel':
          claim('riskLevel', v as Claim<'riskLevel'>['value'], key);
          break;
        case 'category':
          claim('action', CATEGORY_ACTION[v as (typeof CATEGORIES)[number]], key, v);
          break;
        case 'blastRadius':
          claim('blastRadius', v as Claim<'blastRadius'>['value'], key);
          break;
        case 'reversibility':
          claim('reversibility', v as Claim<'reversibility'>['value'], key);
          break;
        case 'sideEffects':
          claim('sideEffects', v as string[], key);
          break;
        case 'approvalRecommendation':
          claim('approval', v as Claim<'approval'>['value'], key);
          claim('requiresConfirmation', v !== 'none', key, v);
          break;
        case 'minTrustLevel':
          claim('minTrustLevel', v as number, key);
          break;
      }
    }
    return { claims, problems };
  },
};
