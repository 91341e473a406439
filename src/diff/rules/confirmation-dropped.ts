import { confirmationSignals, says } from '../../engine/queries.js';
import { expectedOf, unreadable } from '../facts.js';
import { defineDriftRule } from '../types.js';
import { relative } from '../../util/pointer.js';
import { inHead, tool } from './shared.js';

export default defineDriftRule({
  id: 'drift/confirmation-dropped',
  severity: 'error',
  category: 'drift',
  packs: ['meta-hints', 'action-metadata', 'risk-metadata'],
  summary: 'A tool that asked for confirmation no longer does.',
  precision: 'very-high',
  security: 7.5,
  why: `A confirmation signal — \`_meta["mcp.dev/requiresConfirmation"]: true\`, the
action-metadata extension's \`requiresReview: true\`, SEP-2793 \`approvalRecommendation\` of
\`single\` or \`multi\` — is the server telling clients to put a human in the loop before a
call. When the last one goes, clients that follow the hints run the tool on the model's word
alone. That may be a deliberate decision, but it is one a reviewer must see.`,
  notes: `- The signals are compared as a whole: moving the confirmation from \`_meta["mcp.dev/requiresConfirmation"]\`
  to \`requiresReview\` keeps it and is not reported.
- Only a dropped signal counts; a tool that never asked is not compared.
- A signal written in a form clients cannot read (\`"true"\`, a string, for
  \`_meta["mcp.dev/requiresConfirmation"]\`) is ignored by them, so it counts as dropped.`,
  examples: {
    incorrect: [
      {
        title: 'requiresConfirmation turned false',
        base: { tools: [tool('wire_funds', { readOnlyHint: false }, { _meta: { 'mcp.dev/requiresConfirmation': true } })] },
        tools: [tool('wire_funds', { readOnlyHint: false }, { _meta: { 'mcp.dev/requiresConfirmation': false } })],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1requiresConfirmation' }],
      },
      {
        title: 'approvalRecommendation removed',
        base: { tools: [tool('drop_table', { readOnlyHint: false, approvalRecommendation: 'single', riskLevel: 'high' })] },
        tools: [tool('drop_table', { readOnlyHint: false, riskLevel: 'high' })],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
    ],
    correct: [
      {
        title: 'The confirmation moved to the action-metadata extension',
        base: { tools: [tool('wire_funds', { readOnlyHint: false }, { _meta: { 'mcp.dev/requiresConfirmation': true } })] },
        tools: [tool('wire_funds', { readOnlyHint: false }, { _meta: { 'io.modelcontextprotocol/action-metadata': { requiresReview: true } } })],
      },
    ],
  },
  compare({ pair, report }) {
    const was = confirmationSignals(pair.base.claims);
    if (!was.length || confirmationSignals(pair.head.claims).length) return;
    const first = was[0]!;
    const off = pair.head.claims.all('requiresConfirmation')[0];
    // A signal the head still writes in a form clients cannot read ("true", a string) is ignored.
    const ignored = off ? undefined : was.map((c) => unreadable(pair.head, relative(pair.base.view.pointer, c.pointer), expectedOf(pair.base, c))).find((u) => u !== undefined);
    const state = off
      ? `${says(off)} now (${off.pointer}) and nothing else asks for confirmation`
      : ignored
        ? `${ignored.text}, and nothing else asks for confirmation`
        : 'nothing asks for confirmation any more';
    report({
      pointer: off ? off.pointer : ignored ? ignored.pointer : inHead(pair, first.pointer),
      message: `${state}; in the base ${says(first)} (${first.pointer}), so clients may now run the tool without a person approving the call`,
      suggestion: `if calls no longer need a person to approve them, make sure that is intended; otherwise restore ${first.field}`,
      before: was.map((c) => ({ pointer: c.pointer, message: `${says(c)} in the base` })),
    });
  },
});
