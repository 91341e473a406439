import { defineRule } from '../src/rule.js';
import { confirmationSignals, says, sideOf } from '../src/engine/queries.js';
import type { Claim } from '../src/engine/claims.js';

export default defineRule({
  id: 'approval-for-high-risk',
  severity: 'warning',
  category: 'consistency',
  packs: ['risk-metadata', 'meta-hints', 'action-metadata'],
  summary: 'A high-risk or irreversible tool should not recommend running without approval.',
  precision: 'high',
  security: 7.0,
  why: `SEP-2793's \`approvalRecommendation\` tells a client whether to ask the user before a
call: \`"none"\` means "run it", \`"single"\` one approval, \`"multi"\` several. Clients
that follow the SEP turn it straight into an approval policy. A tool that rates itself
\`riskLevel: "high"\` or \`"critical"\`, or says its effect cannot be undone
(\`reversibility: "none"\`), and at the same time recommends no approval, asks such a
client to run its most dangerous calls silently. The fields contradict each other in
the direction that costs the user: if the risk is right, the recommendation is wrong.`,
  notes: `- **Only an explicit \`"none"\`.** A missing \`approvalRecommendation\` is unknown, not
  "no approval": clients fall back to their own policy. Whether an irreversible tool asks
  for confirmation at all, in any vocabulary, is
  [irreversible-needs-confirmation](irreversible-needs-confirmation.md)'s question; this
  rule is about SEP-2793 recommending against it. When this rule reports a tool (a
  high or critical \`riskLevel\`, or \`reversibility\` \`none\`, with \`"none"\`), that one
  stays quiet about it: one problem, one finding, here at the recommendation that
  declines, with the fix. When this rule is turned off (for the run or, in
  \`overrides\`, for the tool), irreversible-needs-confirmation reports the tool instead.
- **The triggers are SEP-2793's own fields**: \`riskLevel\` high or critical, and
  \`reversibility\` none — as the catalogue lists. A \`destroy\` category or irreversible
  outcomes with a \`low\` risk level are [risk-level-floor](risk-level-floor.md)'s
  finding; once the level is raised, this rule takes over.
- **Confirmation asked elsewhere does not silence it.** When
  \`_meta["mcp.dev/requiresConfirmation"]\` or action-metadata \`requiresReview\` is true,
  the message says so, but a client that reads only SEP-2793 still runs the tool
  without asking, and the two vocabularies still disagree.
- **The fix is \`"single"\`.** It is the smallest recommendation that asks the user, and
  SEP-2793 leaves the choice of \`"multi"\` to the server; replacing one value is
  mechanical, so the finding carries it as a fix. The fix overrules a stated "none": if
  the level or the reversibility is the wrong side, correct that instead.`,
  examples: {
    incorrect: [
      {
        title: 'A critical tool that recommends no approval',
        tools: [
          {
            name: 'drop_database',
            inputSchema: { type: 'object', properties: { database: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              riskLevel: 'critical',
              category: 'destroy',
              reversibility: 'none',
              approvalRecommendation: 'none',
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/approvalRecommendation' }],
      },
      {
        title: 'An irreversible tool rated medium that recommends no approval',
        tools: [
          {
            name: 'send_newsletter',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, riskLevel: 'medium', reversibility: 'none', approvalRecommendation: 'none' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/approvalRecommendation' }],
      },
      {
        title: 'Confirmation asked in another vocabulary',
        doc: false,
        tools: [
          {
            name: 'force_push',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, riskLevel: 'high', approvalRecommendation: 'none' },
            _meta: { 'mcp.dev/requiresConfirmation': true },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/approvalRecommendation' }],
      },
    ],
    correct: [
      {
        title: 'A critical tool that asks for one approval',
        tools: [
          {
            name: 'drop_database',
            inputSchema: { type: 'object', properties: { database: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              riskLevel: 'critical',
              category: 'destroy',
              reversibility: 'none',
              approvalRecommendation: 'single',
            },
          },
        ],
      },
      {
        title: 'A low-risk reversible tool that runs without approval',
        tools: [
          {
            name: 'add_label',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, riskLevel: 'low', category: 'mutate', reversibility: 'auto', approvalRecommendation: 'none' },
          },
        ],
      },
      {
        title: 'No approvalRecommendation: the client decides',
        doc: false,
        tools: [
          {
            name: 'drop_database',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, riskLevel: 'critical', reversibility: 'none' },
            _meta: { 'mcp.dev/requiresConfirmation': true },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const risks: Claim[] = [...ctx.claims.where('riskLevel', 'high', 'critical'), ...ctx.claims.where('reversibility', 'none')];
    if (risks.length === 0) return;
    for (const approval of ctx.claims.where('approval', 'none')) {
      const elsewhere = confirmationSignals(ctx.claims).filter((c) => c.pack !== approval.pack);
      const level = risks.find((c) => c.fact === 'riskLevel');
      const irreversible = risks.some((c) => c.fact === 'reversibility');
      const what = `${level ? `a ${level.value}-risk call` : 'a call'}${irreversible ? ' that cannot be undone' : ''}`;
      const note = elsewhere.length
        ? `; ${elsewhere.map((c) => says(c)).join(' and ')}, but a client that reads only SEP-2793 will not ask`
        : '';
      ctx.report({
        pointer: approval.pointer,
        message: `${sideOf(approval)} but ${risks.map((c) => sideOf(c)).join(' and ')}: a client that follows the recommendation runs ${what} without asking the user${note}`,
        suggestion: 'set approvalRecommendation to "single" (or "multi" where more than one person must approve)',
        fix: { description: 'Set approvalRecommendation to "single"', replacements: [{ pointer: approval.pointer, text: '"single"' }] },
        related: [...risks, ...elsewhere].map((c) => ({ pointer: c.pointer, message: `${says(c)} here` })),
      });
    }
  },
});
