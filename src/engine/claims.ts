/**
 * Claims: what a tool's annotations say, normalised across vocabularies.
 *
 * Packs turn the fields of their vocabulary into claims; rules read claims, so a rule
 * about "may be irreversible" fires whichever vocabulary said it, and its message can
 * name the exact field (claim.field) and pointer (claim.pointer) on each side.
 */
import type { PackId } from '../types.js';
import { asSet, isObject } from '../util/json.js';
import { Distinct } from '../util/array.js';

export const OUTCOMES = ['benign', 'consequential', 'irreversible'] as const;
export const DESTINATIONS = ['ephemeral', 'system', 'user', 'internal', 'public'] as const;
export const SOURCES = ['untrustedPublic', 'trustedPublic', 'internal', 'user', 'system'] as const;
export const DATA_CLASSES = ['none', 'user', 'pii', 'financial', 'credentials', 'regulated'] as const;
/** The data classes that make data sensitive (a user's own content, "user", does not). */
export const SENSITIVE_CLASSES = ['pii', 'financial', 'credentials', 'regulated'] as const;
/** What a tool does, merged from SEP-2793 `category` and `mcp.dev/effect`. */
export const ACTIONS = ['read', 'observe', 'utility', 'write', 'delete', 'destroy', 'external'] as const;
export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export const BLAST_RADII = ['item', 'namespace', 'cluster', 'organization', 'global'] as const;
export const REVERSIBILITIES = ['auto', 'manual', 'none'] as const;
export const APPROVALS = ['none', 'single', 'multi'] as const;
export const RESULT_SENSITIVITIES = ['public', 'internal', 'confidential', 'restricted'] as const;

export type Outcome = (typeof OUTCOMES)[number];
export type Destination = (typeof DESTINATIONS)[number];
export type Source = (typeof SOURCES)[number];
export type DataClass = (typeof DATA_CLASSES)[number];
export type Action = (typeof ACTIONS)[number];
export type RiskLevel = (typeof RISK_LEVELS)[number];
export type BlastRadius = (typeof BLAST_RADII)[number];
export type Reversibility = (typeof REVERSIBILITIES)[number];
export type Approval = (typeof APPROVALS)[number];
export type ResultSensitivity = (typeof RESULT_SENSITIVITIES)[number];

/** Every fact and the type of its value. Set-valued facts hold the possible set. */
export interface FactTypes {
  readOnly: boolean;
  destructive: boolean;
  idempotent: boolean;
  openWorld: boolean;
  outcomes: Outcome[];
  destinations: Destination[];
  sources: Source[];
  inputSensitivity: DataClass[];
  outputSensitivity: DataClass[];
  maliciousActivity: boolean;
  attribution: string[];
  requiresConfirmation: boolean;
  action: Action;
  reversibility: Reversibility;
  riskLevel: RiskLevel;
  blastRadius: BlastRadius;
  sideEffects: string[];
  approval: Approval;
  minTrustLevel: number;
  resultSensitivity: ResultSensitivity;
  /** The output is sensitive and must be kept out of model context (sensitiveHint, trust-annotations sensitive). */
  sensitiveOutput: boolean;
  /** Pointers of outputSchema properties marked "x-sensitive": true. */
  sensitiveFields: string[];
  /** The tool documents secret_reference results for its secrets. */
  secretReference: boolean;
  /** Results are untrusted content (trust-annotations untrusted). */
  untrusted: boolean;
}

export type Fact = keyof FactTypes;
export type SetFact = { [F in Fact]: FactTypes[F] extends unknown[] ? F : never }[Fact];

export interface Claim<F extends Fact = Fact> {
  fact: F;
  value: FactTypes[F];
  pack: PackId;
  /** The field as a person reads it: annotations.inputMetadata.outcomes, _meta["mcp.dev/effect"]. */
  field: string;
  /** Absolute JSON pointer of the field's value. */
  pointer: string;
  /** The value as written (for messages), when it differs from the normalised value. */
  raw?: unknown;
  /** Open-vocabulary values that map to nothing known (kept, never guessed). */
  unknown?: string[];
}

/**
 * A claim, always with the same seven fields in the same order. Every pack makes its
 * claims here, so every claim a rule reads has one hidden class: property reads on claims
 * stay monomorphic, and optimised rule code is not thrown away each time a pack's claim
 * with or without `raw` or `unknown` comes by.
 */
export function newClaim<F extends Fact>(fact: F, value: FactTypes[F], pack: PackId, field: string, pointer: string, raw?: unknown, unknown?: string[]): Claim<F> {
  return { fact, value, pack, field, pointer, raw, unknown };
}

/**
 * The members of a set-valued claim, as written, that its normalised value lacks (a case
 * variant of a member on it counts as that member: see knownInOtherCase): the
 * open strings a pack kept in claim.unknown (action-metadata), values outside an enum
 * (sep-1913; schema-valid reports them) and items of the wrong type. A rule that
 * reasons from "the set holds only X" must not fire when the set also holds one.
 */
export function unmappedValues(c: Claim): unknown[] {
  if (!Array.isArray(c.value)) return [];
  const known = c.value as unknown[];
  if (c.raw === undefined) return [...(c.unknown ?? [])];
  const out = new Distinct<unknown>(c.unknown);
  for (const v of asSet(c.raw)) {
    const name = unmappedName(known, v);
    if (name !== undefined) out.add(name);
  }
  return out.list;
}

/** What a member as written stands for ("regulated" for {regulated: {…}}) when the normalised set lacks it; undefined when the set has it. */
function unmappedName(known: readonly unknown[], v: unknown): unknown {
  const name = isObject(v) && Object.keys(v).some((k) => k.toLowerCase() === 'regulated' && isObject(v[k])) ? 'regulated' : v;
  return known.includes(name) || knownInOtherCase(known, name) ? undefined : name;
}

/**
 * A string the pack read as a known member written in another case ("Public" → public): a
 * pack only puts such a member on the claim when it read the variant, so it is mapped.
 */
function knownInOtherCase(known: readonly unknown[], v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const lower = v.toLowerCase();
  return known.some((k) => typeof k === 'string' && k.toLowerCase() === lower);
}

/** Whether unmappedValues(c) has any: asked of many claims, so it stops at the first and makes no list. */
export function hasUnmapped(c: Claim): boolean {
  if (!Array.isArray(c.value)) return false;
  if (c.unknown !== undefined && c.unknown.length > 0) return true;
  if (c.raw === undefined) return false;
  const known = c.value as unknown[];
  for (const v of asSet(c.raw)) if (unmappedName(known, v) !== undefined) return true;
  return false;
}

/** Whether a set-valued claim is non-empty, holds only `values`, and nothing unmapped. */
export function holdsOnly(c: Claim, values: readonly unknown[]): boolean {
  const v = c.value as unknown[];
  return Array.isArray(v) && v.length > 0 && !hasUnmapped(c) && v.every((x) => values.includes(x));
}

/** Shared by every query that finds nothing (never mutated: rules only read claim lists). */
const NONE: Claim[] = [];

export class ClaimSet {
  private readonly byFact = new Map<Fact, Claim[]>();
  private packSet: Set<PackId> | undefined;
  readonly list: readonly Claim[];

  constructor(claims: Claim[]) {
    this.list = claims;
    for (const c of claims) {
      const l = this.byFact.get(c.fact);
      if (l) l.push(c);
      else this.byFact.set(c.fact, [c]);
    }
  }

  all<F extends Fact>(fact: F): Claim<F>[] {
    return (this.byFact.get(fact) ?? NONE) as Claim<F>[];
  }

  first<F extends Fact>(fact: F): Claim<F> | undefined {
    return this.all(fact)[0];
  }

  has(fact: Fact): boolean {
    return this.byFact.has(fact);
  }

  /*
   * The queries below are asked by every rule of every tool (readOnlyHint alone a dozen times
   * a tool): plain loops, without a callback made for each call.
   */

  /** The claim of a fact made by one pack. */
  from<F extends Fact>(fact: F, pack: PackId): Claim<F> | undefined {
    const list = this.all(fact);
    for (let i = 0; i < list.length; i++) if (list[i]!.pack === pack) return list[i];
    return undefined;
  }

  /** Claims of a boolean or scalar fact whose value is one of `values`. */
  where<F extends Fact>(fact: F, ...values: FactTypes[F][]): Claim<F>[] {
    const list = this.all(fact);
    if (list.length === 0) return list;
    const out: Claim<F>[] = [];
    for (let i = 0; i < list.length; i++) if (values.includes(list[i]!.value)) out.push(list[i]!);
    return out;
  }

  /** Claims of a set-valued fact whose possible set includes any of `values`. */
  including<F extends SetFact>(fact: F, ...values: FactTypes[F][number][]): Claim<F>[] {
    const list = this.all(fact);
    if (list.length === 0) return list;
    const out: Claim<F>[] = [];
    for (let i = 0; i < list.length; i++) {
      const set = list[i]!.value as unknown[];
      for (let j = 0; j < set.length; j++) {
        if (values.includes(set[j] as never)) {
          out.push(list[i]!);
          break;
        }
      }
    }
    return out;
  }

  /** Claims of a set-valued fact whose possible set is non-empty, holds only `values` and nothing unmapped. */
  only<F extends SetFact>(fact: F, ...values: FactTypes[F][number][]): Claim<F>[] {
    const list = this.all(fact);
    return list.length === 0 ? list : list.filter((c) => holdsOnly(c, values));
  }

  /** The packs that made at least one claim (do not modify). */
  packs(): Set<PackId> {
    if (!this.packSet) {
      this.packSet = new Set();
      for (const c of this.list) this.packSet.add(c.pack);
    }
    return this.packSet;
  }
}
