import { defineRule } from '../src/rule.js';
import type { Action } from '../src/engine/claims.js';
import { beyondReading, destructive, readingActions, readOnly, says, sideOf } from '../src/engine/queries.js';

/** Actions that cannot be additive-only, and why. */
const DESTRUCTIVE: Partial<Record<Action, string>> = {
  delete: 'deleting is not an additive update',
  destroy: 'destroying is not an additive update',
};

/** Actions that cannot perform destructive updates, and why. */
const HARMLESS: Partial<Record<Action, string>> = {
  read: 'a tool that only reads performs no destructive updates',
  observe: 'a tool that only observes performs no destructive updates',
  utility: 'a utility tool (a computation or helper) performs no destructive updates',
};

export default defineRule({
  id: 'destructive-vs-category',
  severity: 'error',
  category: 'consistency',
  packs: ['core', 'risk-metadata', 'meta-hints'],
  summary: 'destructiveHint must agree with what SEP-2793 category and mcp.dev/effect say the tool does.',
  precision: 'high',
  security: 7.0,
  why: `On a tool that writes, \`destructiveHint\` is the one bit a client has to tell "adds
things" from "may delete or overwrite things": \`false\` means "only additive updates",
\`true\` means "may perform destructive updates". SEP-2793's \`category\` and the
\`mcp.dev/effect\` hint answer the same question in words:

- \`destructiveHint: false\` beside category \`delete\` or \`destroy\`, or effect \`delete\`,
  promises additive updates from a tool that deletes. A client that trusts the hint
  treats a deletion like creating a draft, and may run it without a prompt.
- \`destructiveHint: true\` beside category \`read\`, \`observe\` or \`utility\`, or effect
  \`read\`, warns about a tool that, by its category, changes nothing. Clients prompt for
  it, and users who learn to click through prompts for harmless tools click through the
  harmful ones too.

Either way one side is wrong, and different clients will treat the same tool
differently depending on which vocabulary they read.`,
  notes: `**A read-only tool is left alone.** The spec says \`destructiveHint\` is "meaningful
only when \`readOnlyHint == false\`". When \`readOnlyHint\` is true, clients ignore
\`destructiveHint\`, so it contradicts nothing here, and the real conflict is reported
elsewhere: \`readOnlyHint: true\` with category \`delete\`/\`destroy\` or effect \`delete\` is
[readonly-vs-category](readonly-vs-category.md)'s error; \`readOnlyHint: true\` with
\`destructiveHint: true\` is [readonly-destructive](readonly-destructive.md)'s error; and
\`destructiveHint: false\` on a read-only tool is [ignored-hint](ignored-hint.md)'s note.
Reporting again here would say the same thing twice. An *absent* \`readOnlyHint\`
defaults to false, so \`destructiveHint\` counts.

**Only an explicit \`destructiveHint\` counts.** An absent one defaults to true: with a
read category, that default is [implicit-destructive](implicit-destructive.md)'s
business (and [readonly-contradicted](readonly-contradicted.md) may suggest
\`readOnlyHint: true\`); the author stated no opinion to contradict.

**A soft delete is still a delete.** The spec's \`false\` means "only additive updates";
moving something to a trash changes existing state, which is not additive. If the
deletion can be undone, SEP-2793 \`reversibility\` (\`auto\`, \`manual\`) is the field that
says so, not \`destructiveHint\`.

**Categories that agree with either value.** \`mutate\` (effect \`write\`) and effect
\`external\` say the tool changes something without saying whether it overwrites: both
values of \`destructiveHint\` fit.

**Where and what to fix.** One finding per contradicting field (category and effect
separately), at that field, with \`destructiveHint\` as the related location. When the
hint says \`false\` against a delete, the mechanical fix sets it to \`true\`, the side that
errs towards asking the user. When the hint says \`true\` against a read, there is no
mechanical fix: the better repair is often \`readOnlyHint: true\`, and lowering a
warning hint should be a person's decision.

**A read beside a write in another field** (category \`read\` and effect \`delete\`, say) is
[read-action-conflict](read-action-conflict.md)'s finding, except where this rule already
reports one side: against \`false\`, the delete's finding also lists the reading category
or effect as related; against \`true\`, the read's finding also lists what says the tool
does more than read (a writing action, an irreversible outcome, \`reversibility: "none"\`).
One problem, one finding.`,
  examples: {
    incorrect: [
      {
        title: 'A tool that drops tables, marked non-destructive',
        tools: [
          {
            name: 'drop_table',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, riskLevel: 'critical', category: 'destroy', reversibility: 'none', approvalRecommendation: 'multi' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/category' }],
      },
      {
        title: 'A metrics reader marked destructive',
        tools: [
          {
            name: 'get_metrics',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
            _meta: { 'mcp.dev/effect': 'read', 'mcp.dev/idempotent': true },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
      {
        title: 'No readOnlyHint (false by default): destructiveHint counts',
        doc: false,
        tools: [
          {
            name: 'remove_member',
            inputSchema: { type: 'object' },
            annotations: { destructiveHint: false },
            _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/requiresConfirmation': true },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
      {
        title: 'Category and effect both contradict the hint',
        doc: false,
        tools: [
          {
            name: 'format_json',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, category: 'utility' },
            _meta: { 'mcp.dev/effect': 'read' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/category' }, { pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
    ],
    correct: [
      {
        title: 'A delete tool that says it is destructive',
        tools: [
          {
            name: 'delete_branch',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, category: 'delete', reversibility: 'manual', approvalRecommendation: 'single' },
          },
        ],
      },
      {
        title: 'An additive write',
        tools: [
          {
            name: 'create_issue',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, category: 'mutate' },
            _meta: { 'mcp.dev/effect': 'write' },
          },
        ],
      },
      {
        title: 'readOnlyHint true: destructiveHint is ignored (readonly-vs-category reports the delete)',
        doc: false,
        tools: [{ name: 'delete_pod', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: false, category: 'delete' } }],
      },
      {
        title: 'readOnlyHint true: destructiveHint true is readonly-destructive’s',
        doc: false,
        tools: [{ name: 'get_pod', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: true, category: 'read' } }],
      },
      {
        title: 'An implicit destructiveHint is not a claim',
        doc: false,
        tools: [{ name: 'get_pod', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, category: 'read' } }],
      },
      {
        title: 'effect "external" fits either value',
        doc: false,
        tools: [
          { name: 'post_message', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false }, _meta: { 'mcp.dev/effect': 'external' } },
          { name: 'wipe_remote', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true }, _meta: { 'mcp.dev/effect': 'external', 'mcp.dev/requiresConfirmation': true } },
        ],
      },
    ],
  },
  check(ctx) {
    const d = destructive(ctx.claims);
    if (!d || readOnly(ctx.claims)?.value === true) return;
    const related = [{ pointer: d.pointer, message: `destructiveHint is ${d.value} here` }];
    for (const claim of ctx.claims.all('action')) {
      if (d.value === false) {
        const why = DESTRUCTIVE[claim.value];
        if (!why) continue;
        ctx.report({
          pointer: claim.pointer,
          // The action in conflict: "delete" accepted does not cover "destroy" later.
          detail: claim.value,
          message: `${sideOf(d)} but ${sideOf(claim)}: destructiveHint false promises only additive updates, and ${why}`,
          suggestion: 'set destructiveHint to true; if the deletion can be undone, say so with reversibility rather than with destructiveHint',
          fix: { description: 'Set destructiveHint to true', replacements: [{ pointer: d.pointer, text: 'true' }] },
          // A reading category or effect contradicts the deletion too (read-action-conflict leaves it to this rule).
          related: [...related, ...readingActions(ctx.claims).map((r) => ({ pointer: r.pointer, message: `${says(r)} here, which contradicts ${claim.field} too` }))],
        });
      } else {
        const why = HARMLESS[claim.value];
        if (!why) continue;
        ctx.report({
          pointer: claim.pointer,
          // The action in conflict: "delete" accepted does not cover "destroy" later.
          detail: claim.value,
          message: `${sideOf(d)} but ${sideOf(claim)}: ${why}`,
          suggestion: `if the tool changes nothing, set readOnlyHint to true (or at least destructiveHint to false); if it can delete or overwrite data, correct ${claim.field}`,
          // What else says the tool does more than read (read-action-conflict leaves the tool to this rule).
          related:
            claim.value === 'utility'
              ? related
              : [...related, ...beyondReading(ctx.claims).map((w) => ({ pointer: w.claim.pointer, message: `${says(w.claim, w.member)} here, which says the tool does more than read` }))],
        });
      }
    }
  },
});
