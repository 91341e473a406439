/** Helpers the drift rules share: where a base field sits in the head, possible-set growth and dropped signals. */
import type { Claim, Fact } from '../../engine/claims.js';
import { says } from '../../engine/queries.js';
import { relative } from '../../util/pointer.js';
import { joinWords } from '../../util/text.js';
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
