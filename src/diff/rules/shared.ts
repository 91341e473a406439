/** Helpers the drift rules share: where a base field sits in the head, possible-set growth, dropped signals and lowered levels. */
import type { Claim, Fact } from '../../engine/claims.js';
import { says } from '../../engine/queries.js';
import { relative } from '../../util/pointer.js';
import { joinWords, quote } from '../../util/text.js';
import { at, expectedOf, fieldsOf, possible, unreadable, valueList } from '../facts.js';
import type { DriftReport, ToolPair, ToolSide } from '../types.js';

/** The head pointer for a field the base had at `basePointer` (the field, or its nearest ancestor in the head). */
export function inHead(pair: ToolPair, basePointer: string): string {
  return at(pair.head, relative(pair.base.view.pointer, basePointer));
}

/** A tool: two keys are enough for most examples. */
export function tool(name: string, annotations?: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return { name, inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}), ...extra };
}

export interface SetGrowth {
  facts: readonly Fact[];
  /** What the set holds, singular and plural: "destination", "destinations". */
  noun: string;
  nouns: string;
  /** Values whose addition weakens nothing ("ephemeral", "benign", "none"). */
  harmless: readonly string[];
  /** Values another rule reports ("irreversible": drift/irreversible-added). */
  skip?: readonly string[];
  /** The suggestion for a new value, given as a message shows it ("public", regulated ("GDPR"), 5). */
  suggestion: (shown: string) => string;
}

/**
 * Report each value the head's possible set has that the base's did not (merged across
 * vocabularies), and a set the base declared that the head no longer declares (absent
 * means any value). Nothing when the base did not declare the set: stating it newly
 * tells clients more than before.
 */
export function reportGrowth(pair: ToolPair, report: (r: DriftReport) => void, g: SetGrowth): void {
  const b = possible(pair.base, g.facts);
  if (!b.declared) return;
  const h = possible(pair.head, g.facts);
  const was = b.claims[0]!;
  const before = b.claims.map((c) => ({ pointer: c.pointer, message: `${c.field} in the base` }));
  if (!h.declared) {
    // A set the head still writes in a form no vocabulary reads (5, an object) is ignored: as good as absent.
    const ignored = b.claims.map((c) => unreadable(pair.head, relative(pair.base.view.pointer, c.pointer), expectedOf(pair.base, c))).find((u) => u !== undefined);
    report({
      pointer: ignored ? ignored.pointer : inHead(pair, was.pointer),
      message: `${ignored ? `${ignored.text}, and no other field declares the possible ${g.nouns}` : `the possible ${g.nouns} are no longer declared`}, so a client must assume any ${g.noun}; in the base ${fieldsOf(b)} said ${valueList(b)} (${was.pointer})`,
      suggestion: `declare the ${g.nouns} again (${fieldsOf(b)}), or confirm that the tool may now have any ${g.noun}`,
      before,
    });
    return;
  }
  const fresh = [...h.values].filter(([v]) => !b.values.has(v) && !g.harmless.includes(v) && !(g.skip ?? []).includes(v));
  // A new regulated scope also makes "regulated" new: name the scope, not both.
  const scoped = fresh.some(([v]) => v.startsWith('regulated ('));
  for (const [value, where] of fresh) {
    if (value === 'regulated' && scoped) continue;
    report({
      pointer: where.pointer,
      message: `${where.field} now includes ${where.shown} (${where.pointer})${where.string ? '' : ', which is not a string, so clients cannot read it'}; in the base the possible ${g.nouns} were ${valueList(b)} (${was.pointer})`,
      suggestion: g.suggestion(where.shown),
      before,
    });
  }
}

/** Whether the tool states any annotations at all (for messages about new tools). */
export function hasAnnotations(side: ToolSide): boolean {
  return side.view.annotations !== undefined || side.claims.list.length > 0;
}

/**
 * How the head stopped saying what the base's signals said (`was`: the base's claims of a
 * boolean signal, true where it counts, compared across vocabularies as a whole), for the
 * first clause of a message: a head claim saying the opposite (`off`), else a field the head
 * still writes where a base signal was but in a form clients ignore ("true", a string), else
 * nothing. `what` ends the clause: "says the tool is idempotent".
 */
export function dropped(pair: ToolPair, was: readonly Claim[], off: Claim | undefined, what: string): { pointer: string; state: string; ignored: boolean } {
  if (off) return { pointer: off.pointer, state: `${says(off)} now (${off.pointer}) and nothing else ${what}`, ignored: false };
  // A signal the head still writes in a form clients cannot read ("true", a string) is ignored.
  const ignored = was.map((c) => unreadable(pair.head, relative(pair.base.view.pointer, c.pointer), expectedOf(pair.base, c))).find((u) => u !== undefined);
  if (ignored) return { pointer: ignored.pointer, state: `${ignored.text}, and nothing else ${what}`, ignored: true };
  const fields = [...new Set(was.map((c) => c.field))];
  return { pointer: inHead(pair, was[0]!.pointer), state: `${joinWords(fields)} ${fields.length === 1 ? 'is' : 'are'} no longer set and nothing else ${what}`, ignored: false };
}

/** The base's claims as related locations: "annotations.sensitiveHint is true in the base". */
export function saidBefore(claims: readonly Claim[]): { pointer: string; message: string }[] {
  return claims.map((c) => ({ pointer: c.pointer, message: `${says(c)} in the base` }));
}

/** A claim's value as written, for a message: "High" where the author wrote that for high. */
export function shownValue(c: Claim): string {
  return quote(c.raw !== undefined ? c.raw : c.value);
}

export interface Scale {
  fact: Fact;
  /** The values from the lowest to the highest (a number is its own rank: minTrustLevel). */
  order?: readonly string[];
  /** Whether a level the head no longer states counts as lowered (unless the base's was the lowest). */
  removal: boolean;
  /** What follows "so" in the message: what clients may now do with the lower level. */
  consequence: string;
}

/**
 * Report a declared level (riskLevel, blastRadius, mcp.dev/resultSensitivity, …) that the head
 * states lower than the base did, and, for a scale with `removal`, one it no longer states (or
 * writes in a form no vocabulary reads): clients and policies that act on the level no longer
 * see it. A level the base did not state is not compared: stating it newly tells clients more.
 */
export function reportLowered(pair: ToolPair, report: (r: DriftReport) => void, s: Scale): void {
  const was = pair.base.claims.first(s.fact);
  if (!was) return;
  const rank = (v: unknown) => (typeof v === 'number' ? v : (s.order ?? []).indexOf(v as string));
  const now = pair.head.claims.first(s.fact);
  const before = saidBefore([was]);
  if (now) {
    if (rank(now.value) >= rank(was.value)) return;
    report({
      pointer: now.pointer,
      message: `${says(now)} now (${now.pointer}), below ${shownValue(was)} in the base (${was.pointer}), so ${s.consequence}`,
      suggestion: `if the lower ${now.field} is right, make sure that is intended and that its users know; otherwise restore ${shownValue(was)}`,
      before,
    });
    return;
  }
  // Nothing lower than the lowest: dropping it loses no level.
  if (!s.removal || rank(was.value) <= (typeof was.value === 'number' ? 1 : 0)) return;
  const ignored = unreadable(pair.head, relative(pair.base.view.pointer, was.pointer), s.order ? `one of ${joinWords(s.order.map((v) => JSON.stringify(v)), 'or')}` : expectedOf(pair.base, was));
  report({
    pointer: ignored ? ignored.pointer : inHead(pair, was.pointer),
    message: `${ignored ? ignored.text : `${was.field} is no longer set`}; in the base it was ${shownValue(was)} (${was.pointer}), so ${s.consequence}`,
    suggestion: `declare ${was.field} again${ignored ? ', as one of its values' : ''}, or make sure that leaving it out is intended`,
    before,
  });
}
