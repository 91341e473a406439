/**
 * Questions rules ask of a tool's claims, answered across every vocabulary, plus the
 * phrasing rules use to name each side of a conflict.
 */
import type { PackId } from '../types.js';
import { quote } from '../util/text.js';
import type { Claim, ClaimSet, Fact } from './claims.js';

/** Packs whose vocabulary can ask for confirmation before a call. */
export const CONFIRMATION_PACKS: readonly PackId[] = ['meta-hints', 'action-metadata', 'risk-metadata'];

/** Claims that ask for confirmation (mcp.dev/requiresConfirmation, requiresReview, approvalRecommendation single/multi). */
export function confirmationSignals(claims: ClaimSet): Claim<'requiresConfirmation'>[] {
  return claims.where('requiresConfirmation', true);
}

/** Whether the tool uses a vocabulary that can express confirmation at all. */
export function canExpressConfirmation(claims: ClaimSet): boolean {
  if (claims.has('requiresConfirmation') || claims.has('approval')) return true;
  const packs = claims.packs();
  return CONFIRMATION_PACKS.some((p) => packs.has(p));
}

/** The core readOnlyHint claim, when the tool states one. */
export function readOnly(claims: ClaimSet): Claim<'readOnly'> | undefined {
  return claims.from('readOnly', 'core');
}

/** The core destructiveHint claim, when the tool states one. */
export function destructive(claims: ClaimSet): Claim<'destructive'> | undefined {
  return claims.from('destructive', 'core');
}

/** The core openWorldHint claim, when the tool states one. */
export function openWorld(claims: ClaimSet): Claim<'openWorld'> | undefined {
  return claims.from('openWorld', 'core');
}

/**
 * Claims saying the tool may be irreversible or destructive: outcomes include
 * irreversible, reversibility none, action delete/destroy, destructiveHint true (only
 * meaningful when readOnlyHint is not true).
 */
export function irreversibleSignals(claims: ClaimSet): Claim[] {
  const ro = readOnly(claims);
  return [
    ...claims.including('outcomes', 'irreversible'),
    ...claims.where('reversibility', 'none'),
    ...claims.where('action', 'delete', 'destroy'),
    ...(ro?.value === true ? [] : claims.where('destructive', true)),
  ];
}

/** `field is value` or `field includes "x"` for one claim, as a message names it. */
export function says(claim: Claim, member?: string): string {
  if (member !== undefined) return `${claim.field} includes ${JSON.stringify(member)}`;
  const shown = claim.raw !== undefined ? claim.raw : claim.value;
  return `${claim.field} is ${quote(shown)}`;
}

/** `field is value (/pointer)`: one side of a conflict with where it is. */
export function sideOf(claim: Claim, member?: string): string {
  return `${says(claim, member)} (${claim.pointer})`;
}

/**
 * The first of `values` (most important first) that a claim's possible set holds: by that order,
 * not the order the set is written in, so reordering a set changes neither message nor detail.
 */
export function memberOf<F extends Fact>(claim: Claim<F>, values: readonly unknown[]): string | undefined {
  const v = claim.value;
  if (Array.isArray(v)) return values.find((x) => (v as unknown[]).includes(x)) as string | undefined;
  return values.includes(v) ? String(v) : undefined;
}
