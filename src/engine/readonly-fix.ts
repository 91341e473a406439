/**
 * The mechanical fix of a read-only tool that another vocabulary says writes
 * (readonly-vs-category, readonly-vs-outcome): readOnlyHint false, with destructiveHint made
 * to agree, so that applying the fix never makes destructive-vs-category or
 * implicit-destructive fire in its place. Both rules build it here, from every claim of the
 * tool, so the two fixes of one tool are the same edit.
 */
import type { ToolContext } from '../rule.js';
import type { Fix } from '../types.js';
import { hasOwn } from '../util/json.js';
import type { Claim } from './claims.js';
import { holdsOnly } from './claims.js';
import { destructive } from './queries.js';

/** What the two rules' pages say about their fix (the same edit: see readOnlyFalseFix). */
export const READONLY_FALSE_FIX_DOC = `**What the fix does to \`destructiveHint\`.** Once \`readOnlyHint\` is false, clients read
\`destructiveHint\`, so the fix makes it agree with the rest of the tool rather than trade
this error for another rule's finding: a stated \`destructiveHint: false\` beside a category
\`delete\` or \`destroy\` or an effect \`delete\` is set to true as well (else
[destructive-vs-category](destructive-vs-category.md) reports it). An absent one is added,
in [implicit-destructive](implicit-destructive.md)'s terms: true for a delete or destroy,
false when every vocabulary's outcomes are only "benign"; the fix then replaces the whole
\`annotations\` object, since adding a member is not a one-value replacement. Otherwise
(a mutate, a write, an irreversible send: creating is not overwriting) nothing says which,
so there is no mechanical fix and the suggestion asks the author to choose.
When both rules fire on one tool, their fixes are the same edit: the report gives it to one of
them (see the README on fixes).`;

/**
 * The fix, when one follows from the annotations, and what the suggestion says besides
 * "set readOnlyHint to false" (" and destructiveHint to true", or how to choose it).
 */
export interface ReadOnlyFalse {
  fix?: Fix;
  also: string;
}

export function readOnlyFalseFix(ctx: Pick<ToolContext<never>, 'claims' | 'tool' | 'at'>, ro: Claim<'readOnly'>): ReadOnlyFalse {
  const plain: Fix = { description: 'Set readOnlyHint to false', replacements: [{ pointer: ro.pointer, text: 'false' }] };
  // Only deleting or destroying is destructive (an irreversible send only adds: see implicit-destructive).
  const destroys = ctx.claims.where('action', 'delete', 'destroy');
  const d = destructive(ctx.claims);
  if (d) {
    // destructiveHint false beside a delete or destroy is destructive-vs-category's error once readOnlyHint is false.
    if (d.value === false && destroys.length > 0) {
      return {
        fix: { description: 'Set readOnlyHint to false and destructiveHint to true', replacements: [plain.replacements[0]!, { pointer: d.pointer, text: 'true' }] },
        also: ` and destructiveHint (${d.pointer}) to true, as ${destroys[0]!.field} says`,
      };
    }
    return { fix: plain, also: '' };
  }
  const a = ctx.tool.annotations;
  const at = ctx.at('/annotations');
  // A destructiveHint of the wrong type is schema-valid's; a readOnlyHint found elsewhere is left as it is.
  if (!a || hasOwn(a, 'destructiveHint') || ro.pointer !== `${at}/readOnlyHint`) return { fix: plain, also: '' };
  // destructiveHint absent: once readOnlyHint is false, implicit-destructive asks for it. State
  // what the other vocabularies say, in implicit-destructive's order: true for a delete or
  // destroy, false when every vocabulary's outcomes are only benign; otherwise nothing says
  // which (an irreversible send or a mutate may only add), so there is no mechanical fix.
  const outcomes = ctx.claims.all('outcomes');
  const value = destroys.length > 0 ? true : outcomes.length > 0 && outcomes.every((c) => holdsOnly(c, ['benign'])) ? false : undefined;
  if (value === undefined) {
    return { also: ' and add "destructiveHint" (false if the tool only adds, as a create or a send does; true if it may delete or overwrite)' };
  }
  // Adding a member replaces the annotations object: destructiveHint goes right after readOnlyHint.
  const next = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(a)) {
    next[k] = k === 'readOnlyHint' ? false : v;
    if (k === 'readOnlyHint') next.destructiveHint = value;
  }
  return {
    fix: { description: `Set readOnlyHint to false and add "destructiveHint": ${value}`, replacements: [{ pointer: at, text: JSON.stringify(next) }] },
    also: ` and add "destructiveHint": ${value}${value ? `, as ${destroys[0]!.field} says` : ''}`,
  };
}
