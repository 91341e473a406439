/**
 * Questions rules ask of a tool's claims, answered across every vocabulary, plus the
 * phrasing rules use to name each side of a conflict.
 */
import { PACKS } from '../packs/index.js';
import type { ToolView } from '../packs/types.js';
import type { PackId, SpecVersion } from '../types.js';
import { quote } from '../util/text.js';
import type { Claim, ClaimSet, Fact } from './claims.js';

/** Packs whose vocabulary can ask for confirmation before a call. */
export const CONFIRMATION_PACKS: readonly PackId[] = ['meta-hints', 'action-metadata', 'risk-metadata'];

/** Claims that ask for confirmation (mcp.dev/requiresConfirmation, requiresReview, approvalRecommendation single/multi). */
export function confirmationSignals(claims: ClaimSet): Claim<'requiresConfirmation'>[] {
  return claims.where('requiresConfirmation', true);
}

/**
 * Requests for confirmation the tool makes in a vocabulary the run has turned off. They are
 * not counted (a disabled vocabulary stands for one the user's clients do not implement, and
 * those clients do not ask), but a message that says nothing asks must name them. Runs the
 * disabled confirmation packs on the tool: call it only on the way to a finding.
 */
export function offConfirmationSignals(ctx: { tool: ToolView; packs: ReadonlySet<PackId>; spec: SpecVersion }): Claim<'requiresConfirmation'>[] {
  const out: Claim<'requiresConfirmation'>[] = [];
  for (const pack of PACKS) {
    if (ctx.packs.has(pack.id) || !CONFIRMATION_PACKS.includes(pack.id)) continue;
    for (const c of pack.analyse(ctx.tool, { spec: ctx.spec, packs: ctx.packs }).claims) {
      if (c.fact === 'requiresConfirmation' && c.value === true) out.push(c as Claim<'requiresConfirmation'>);
    }
  }
  return out;
}

/** The disabled packs of off-signals, as a message names them: "the meta-hints vocabulary", "the meta-hints and risk-metadata vocabularies". */
/** "lint with it on" for one vocabulary, "lint with them on" for several (see offPacksText). */
export function lintWithOffPacksOn(signals: readonly Claim[]): string {
  return `lint with ${new Set(signals.map((c) => c.pack)).size === 1 ? 'it' : 'them'} on`;
}

export function offPacksText(signals: readonly Claim[]): string {
  const packs = [...new Set(signals.map((c) => c.pack))];
  return packs.length === 1 ? `the ${packs[0]} vocabulary` : `the ${packs.slice(0, -1).join(', ')} and ${packs[packs.length - 1]} vocabularies`;
}

/** `<field> is true (<pointer>) asks for it but was not counted, as the <pack> vocabulary is off in this run`, for every off-signal. */
export function offConfirmationText(signals: readonly Claim[]): string {
  const said = signals.map((c) => sideOf(c)).join(' and ');
  const one = signals.length === 1;
  return `${said} ${one ? 'asks' : 'ask'} for it but ${one ? 'was' : 'were'} not counted, as ${offPacksText(signals)} ${new Set(signals.map((c) => c.pack)).size === 1 ? 'is' : 'are'} off in this run`;
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

/** SEP-2793 category or mcp.dev/effect claims saying the tool only reads ("read", "observe"). */
export function readingActions(claims: ClaimSet): Claim<'action'>[] {
  return claims.where('action', 'read', 'observe');
}

/**
 * Claims that contradict a reading category or effect (read-action-conflict's other side):
 * an action of write, delete, destroy or external; outcomes including irreversible (the
 * member); reversibility "none".
 */
export function beyondReading(claims: ClaimSet): { claim: Claim; member?: string }[] {
  return [
    ...claims.where('action', 'write', 'delete', 'destroy', 'external').map((claim) => ({ claim: claim as Claim })),
    ...claims.including('outcomes', 'irreversible').map((claim) => ({ claim: claim as Claim, member: 'irreversible' })),
    ...claims.where('reversibility', 'none').map((claim) => ({ claim: claim as Claim })),
  ];
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

/**
 * What makes a tool a public sink, the claims that say its arguments may leave for a public
 * destination: an input destination that includes "public" (with that member), or else
 * `mcp.dev/effect` "external" — that vocabulary's only way to say the arguments leave the
 * system — unless the tool declares destinations that leave public out. Shared by
 * toxic-flow and sensitive-to-public, so both read a sink the same way.
 */
export function publicSinks(claims: ClaimSet): { claim: Claim; members?: string[] }[] {
  const out: { claim: Claim; members?: string[] }[] = claims.including('destinations', 'public').map((claim) => ({ claim, members: ['public'] }));
  if (out.length > 0) return out;
  const external = claims.where('action', 'external');
  if (external.length === 0) return out;
  if (claims.only('destinations', 'ephemeral', 'system', 'user', 'internal').length > 0) return out;
  return external.map((claim) => ({ claim }));
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
