import { defineRule } from '../src/rule.js';
import { memberOf, readingActions, readOnly, says, sideOf } from '../src/engine/queries.js';
import { READONLY_FALSE_FIX_DOC, readOnlyFalseFix } from '../src/engine/readonly-fix.js';

export default defineRule({
  id: 'readonly-vs-outcome',
  severity: 'error',
  category: 'consistency',
  packs: ['core', 'sep-1913', 'action-metadata'],
  summary: 'A read-only tool cannot have consequential or irreversible outcomes.',
  precision: 'high',
  notes: `The message names the most serious outcome in conflict ("irreversible" before
"consequential"). A baseline or a SARIF fingerprint keys the finding by it (its \`detail\`): an
accepted \`"consequential"\` does not cover \`"irreversible"\` at the same place later.

A SEP-2793 \`category\` or \`mcp.dev/effect\` of \`read\` or \`observe\` on the same tool
agrees with the hint but not with the outcome, and setting the hint to false leaves that
standing, so it is listed as a related location
([read-action-conflict](read-action-conflict.md), which reports such a pair when no
\`readOnlyHint: true\` is stated, leaves it to this finding).

The mechanical fix sets \`readOnlyHint\` to false, the side that errs towards asking the user.

${READONLY_FALSE_FIX_DOC}`,
  security: 8.0,
  why: `\`readOnlyHint: true\` tells a client the tool does not modify its environment, and
clients skip approval prompts for such tools. An outcome of \`consequential\` (persistent,
visible state changes) or \`irreversible\` (sending, deleting, publishing) says the
opposite. One of the two is wrong, and if it is the hint, a client auto-approves a call
that sends an email or deletes data.

The outcome may come from SEP-1913 \`annotations.inputMetadata.outcomes\` or from the
action-metadata extension's \`outcome\`. In \`tools/list\` these are possible sets: the
rule fires when the set *includes* a consequential or irreversible outcome.`,
  examples: {
    incorrect: [
      {
        title: 'A "read-only" tool that may send a message',
        tools: [
          {
            name: 'notify_team',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              inputMetadata: { destination: 'internal', sensitivity: 'none', outcomes: ['benign', 'irreversible'] },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes' }],
      },
      {
        title: 'An outcome in another letter case is still read',
        explanation:
          'SEP-2061\'s spelling "Irreversible" (a draft-field warning) and an action-metadata outcome "Irreversible" (an unknown-classifier note) are read as irreversible, so the contradiction is not hidden behind the spelling.',
        tools: [
          {
            name: 'get_report',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false, inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'Irreversible' } },
          },
          {
            name: 'get_thing',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'Irreversible' } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes' }, { pointer: '/tools/1/_meta/io.modelcontextprotocol~1action-metadata/outcome' }],
      },
    ],
    correct: [
      {
        title: 'A read-only tool whose only outcome is benign',
        tools: [
          {
            name: 'read_drafts',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
            },
          },
        ],
      },
      {
        title: 'A tool that sends email and says it writes',
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'public', sensitivity: 'pii', outcomes: 'irreversible' },
            },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const ro = readOnly(ctx.claims);
    if (ro?.value !== true) return;
    const outcomes = ctx.claims.including('outcomes', 'consequential', 'irreversible');
    if (outcomes.length === 0) return;
    // A reading category or effect agrees with the hint, not with the outcome (read-action-conflict leaves the outcome to this rule).
    const reads = readingActions(ctx.claims);
    const { fix, also } = readOnlyFalseFix(ctx, ro);
    for (const claim of outcomes) {
      const member = memberOf(claim, ['irreversible', 'consequential'])!;
      ctx.report({
        pointer: claim.pointer,
        // The member in conflict: "consequential" accepted does not cover "irreversible" later.
        detail: member,
        message: `readOnlyHint is true (${ro.pointer}) but ${sideOf(claim, member)}`,
        suggestion: `set readOnlyHint to false${also}, or drop ${JSON.stringify(member)} if the tool cannot cause it`,
        fix,
        related: [
          { pointer: ro.pointer, message: 'readOnlyHint is true here' },
          ...reads.map((r) => ({ pointer: r.pointer, message: `${says(r)} here, which agrees with readOnlyHint but not with ${claim.field}` })),
        ],
      });
    }
  },
});
