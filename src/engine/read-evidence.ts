/**
 * Does the rest of a tool's annotations say it only reads? Used by the rules that
 * weigh the core readOnlyHint against the other vocabularies (readonly-contradicted,
 * missing-readonly-hint, implicit-destructive).
 *
 * Read signals:
 * - an action claim (SEP-2793 `category`, `mcp.dev/effect`) of "read" or "observe";
 * - possible outcomes only "benign" together with possible destinations only
 *   "ephemeral" (both must be stated: benign outcomes alone allow storing the inputs);
 * - a readOnly claim of true made by a vocabulary other than core.
 *
 * Contrary signals (any one of them means the vocabularies do not all say read):
 * - an action other than read/observe (utility, write, delete, destroy, external);
 * - an outcome other than benign, or a destination other than ephemeral ("system"
 *   included: the platform stores the inputs), or a value in either set that its pack
 *   could not map (an action-metadata open string such as "external", or a SEP-1913
 *   value outside its enum): unknown is never read as "only reads";
 * - non-empty SEP-2793 `sideEffects`;
 * - a destructive claim of true (an explicit destructiveHint true included);
 * - reversibility "manual" or "none" (there is something to undo);
 * - a readOnly claim of false made by a vocabulary other than core.
 *
 * Everything else (sources, sensitivity, risk level, blast radius, approval,
 * confirmation, openWorld, idempotent, destructive false, trust-annotations) says
 * nothing about whether the tool writes: a read of sensitive data may well be
 * high-risk and need approval.
 *
 * Unreadable fields: the SEP-2793 and _meta-hints packs drop a value that fails their
 * schema (an invalid category, a sideEffects that is not an array, an effect of
 * "update") without leaving a claim, so nothing would weigh it. When the rule passes the
 * tool's schema problems, an "invalid" problem of either pack counts against "only
 * reads": a field nobody can read may say the tool does more. A wrong value the pack read
 * all the same (a case variant such as "Read", a list of actions read as its
 * furthest-reaching member: see vocabularyLike in packs/vocabulary.ts) is on a claim and
 * weighs as that claim. (SEP-1913 and
 * action-metadata keep what they cannot map on the claim, see unmappedValues() in claims.ts.)
 */
import type { SchemaProblem } from '../packs/types.js';
import type { PackId } from '../types.js';
import { sideOf } from './queries.js';
import { hasUnmapped, holdsOnly, type Claim, type ClaimSet } from './claims.js';
import { append } from '../util/array.js';

export interface ReadEvidence {
  /** Claims saying the tool only reads. */
  read: Claim[];
  /** Claims saying, or allowing, that it does more than read. */
  contrary: Claim[];
  /** Schema problems of fields a pack dropped: they may say it does more than read. */
  unreadable: SchemaProblem[];
}

/** Packs that drop a value failing their schema without keeping it on a claim. */
const DROPPING_PACKS: readonly PackId[] = ['risk-metadata', 'meta-hints'];

const READ_ACTIONS: readonly unknown[] = ['read', 'observe'];

export function readEvidence(claims: ClaimSet, problems: readonly SchemaProblem[] = []): ReadEvidence {
  const read: Claim[] = [];
  const contrary: Claim[] = [];

  for (const c of claims.all('action')) {
    if (READ_ACTIONS.includes(c.value)) read.push(c);
    else contrary.push(c);
  }

  const outcomes = claims.all('outcomes');
  const destinations = claims.all('destinations');
  const benign = outcomes.filter((c) => holdsOnly(c, ['benign']));
  const ephemeral = destinations.filter((c) => holdsOnly(c, ['ephemeral']));
  for (const c of outcomes) if (hasUnmapped(c) || c.value.some((v) => v !== 'benign')) contrary.push(c);
  for (const c of destinations) if (hasUnmapped(c) || c.value.some((v) => v !== 'ephemeral')) contrary.push(c);
  if (benign.length > 0 && ephemeral.length > 0) append(append(read, benign), ephemeral);

  for (const c of claims.all('sideEffects')) if (c.value.length > 0) contrary.push(c);
  append(contrary, claims.where('destructive', true));
  append(contrary, claims.where('reversibility', 'manual', 'none'));
  for (const c of claims.all('readOnly')) {
    if (c.pack === 'core') continue;
    (c.value ? read : contrary).push(c);
  }
  // A wrong value the pack read all the same (a case variant, a list of actions) is on a claim.
  const unreadable = problems.filter((p) => p.kind === 'invalid' && !p.read && DROPPING_PACKS.includes(p.pack));
  return { read, contrary, unreadable };
}

/**
 * The claims saying the tool only reads, when there are some and nothing says (or may
 * say) otherwise. Pass the tool's schema problems (ctx.problems) so that a field a pack
 * could not read keeps the answer undefined.
 */
export function onlyReads(claims: ClaimSet, problems: readonly SchemaProblem[] = []): Claim[] | undefined {
  const { read, contrary, unreadable } = readEvidence(claims, problems);
  return read.length > 0 && contrary.length === 0 && unreadable.length === 0 ? read : undefined;
}

/**
 * Claims that positively say the tool changes its environment, with the member that
 * says so: an action of write, delete, destroy or external; possible outcomes including
 * consequential or irreversible; possible destinations including user, internal or
 * public (the inputs are kept where people see them, or sent on). Only known values
 * count: an unmapped one says nothing either way. Used to suggest readOnlyHint false.
 */
export function writeSignals(claims: ClaimSet): { claim: Claim; member?: string }[] {
  return [
    ...claims.where('action', 'write', 'delete', 'destroy', 'external').map((claim) => ({ claim })),
    ...claims.including('outcomes', 'irreversible', 'consequential').map((claim) => ({
      claim,
      member: claim.value.includes('irreversible') ? 'irreversible' : 'consequential',
    })),
    ...claims.including('destinations', 'public', 'internal', 'user').map((claim) => ({
      claim,
      member: (['public', 'internal', 'user'] as const).find((d) => claim.value.includes(d)),
    })),
  ];
}

/** `a is "read" (/p), b is "benign" (/q) and c is "ephemeral" (/r)`. */
export function listSides(list: readonly Claim[]): string {
  const sides = list.map((c) => sideOf(c));
  if (sides.length <= 1) return sides.join('');
  return `${sides.slice(0, -1).join(', ')} and ${sides[sides.length - 1]}`;
}
