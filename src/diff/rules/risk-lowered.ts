import { BLAST_RADII, OUTCOMES, REVERSIBILITIES, RISK_LEVELS } from '../../engine/claims.js';
import { confirmationSignals, says, sideOf } from '../../engine/queries.js';
import { relative } from '../../util/pointer.js';
import { possible, unreadable, valueList } from '../facts.js';
import { defineDriftRule, type DriftReport, type ToolPair } from '../types.js';
import { inHead, reportLowered, saidBefore, tool, type Scale } from './shared.js';

/** SEP-2793's ordered scales other than approvalRecommendation, each from the lowest. */
const SCALES: readonly Scale[] = [
  { fact: 'riskLevel', order: RISK_LEVELS, removal: true, consequence: 'clients and policies that go by the risk level may now ask less before a call' },
  { fact: 'blastRadius', order: BLAST_RADII, removal: true, consequence: 'clients and policies that go by how far a call reaches may now ask less before a call' },
  { fact: 'reversibility', order: REVERSIBILITIES, removal: true, consequence: 'clients may now treat a call as easier to undo than the base said it was' },
  { fact: 'minTrustLevel', removal: true, consequence: 'clients may now let callers they trust less than before run the tool' },
];

/** What clients may now do once a tool's worst possible outcome is no longer this one. */
const OUTCOME_LOST: Record<string, string> = {
  irreversible: 'clients may now let a call that cannot be undone run, or retry it, without asking',
  consequential: 'clients may now run the tool without asking, as one whose calls leave nothing that lasts',
};

/**
 * The possible outcomes (SEP-1913 `inputMetadata.outcomes`, the action-metadata extension's
 * `outcome`, merged) as a scale: benign < consequential < irreversible, a set standing at its
 * worst member. A set whose worst member the head no longer holds is reported; a set the head no
 * longer declares is `drift/outcome-added`'s (absent means any outcome, which lowers nothing).
 */
function reportOutcomesLowered(pair: ToolPair, report: (r: DriftReport) => void): void {
  const b = possible(pair.base, ['outcomes']);
  const h = possible(pair.head, ['outcomes']);
  if (!b.declared || !h.declared) return;
  const rank = (v: string) => (OUTCOMES as readonly string[]).indexOf(v);
  const worst = (p: typeof b) => [...p.values.keys()].reduce((w, v) => (rank(v) > rank(w) ? v : w), 'benign');
  const was = worst(b);
  const consequence = OUTCOME_LOST[was];
  if (!consequence || rank(worst(h)) >= rank(was)) return;
  const member = b.values.get(was)!;
  const now = h.claims.find((c) => c.field === member.field) ?? h.claims[0]!;
  report({
    pointer: now.pointer,
    message: `the possible outcomes are now ${valueList(h)} (${now.pointer}), no longer ${member.shown}; in the base ${member.field} included it (${member.pointer}), so ${consequence}`,
    suggestion: `if no call can be ${was} any more, make sure that is intended and that its users know; otherwise declare ${member.shown} again (${member.field})`,
    before: [{ pointer: member.pointer, message: `${member.field} includes ${member.shown} in the base` }],
  });
}

export default defineDriftRule({
  id: 'drift/risk-lowered',
  severity: 'error',
  category: 'drift',
  packs: ['risk-metadata', 'meta-hints', 'action-metadata', 'sep-1913'],
  summary: 'A tool declares a lower risk, reach or approval level, or milder outcomes, than before.',
  precision: 'very-high',
  security: 7.0,
  why: `SEP-2793's graded fields — \`riskLevel\` (low < medium < high < critical), \`blastRadius\`
(item < namespace < cluster < organization < global), \`reversibility\` (auto < manual < none),
\`minTrustLevel\` (1 to 5) and \`approvalRecommendation\` (none < single < multi) — are what
clients and gateways build their allowlists and approval prompts on: "ask before anything
high or critical", "two approvers for multi". A server that lowers one gets fewer prompts for
the same tool, and a level that disappears is one no policy can match any more. A tool's
possible outcomes (SEP-1913 \`inputMetadata.outcomes\`, the action-metadata extension's
\`outcome\`) are read the same way: a tool that may no longer be \`irreversible\` is one
clients stop asking about before a call. The tool may really have become safer, but the
server saying so is exactly what a reviewer must check.`,
  notes: `- Each scale is compared on its own: \`riskLevel\` going from \`high\` to \`low\` is reported
  whatever \`blastRadius\` does. A level stated newly, or raised, is not reported.
- A level the head no longer states counts (no policy can match it), as does one written in
  a form SEP-2793 does not define (\`"severe"\`): clients ignore it. Dropping the lowest value
  (\`low\`, \`item\`, \`auto\`, 1) lowers nothing and is not reported.
- \`approvalRecommendation\` is compared as the approval the tool asks for, across
  vocabularies: \`multi\` going to \`single\`, or to \`none\` or nothing while another signal
  (\`requiresReview\`, \`_meta["mcp.dev/requiresConfirmation"]\`) still asks for one approval,
  is reported here. When nothing asks for confirmation any more, \`drift/confirmation-dropped\`
  reports it and this rule does not.
- The possible outcomes are a scale too (benign < consequential < irreversible), standing at
  their worst member and merged across SEP-1913 and the action-metadata extension:
  \`["consequential", "irreversible"]\` going to \`["consequential"]\` or to \`"benign"\` is
  reported, as is \`consequential\` going to only \`benign\`; a member moved from one vocabulary
  to the other is no change. A set the head no longer declares means any outcome, which
  \`drift/outcome-added\` reports. \`reversibility\` and the outcomes are compared each on its
  own, like the other scales.
- Values are read as the vocabulary reads them: \`"High"\` for \`high\` is no change.
- When the description or \`inputSchema\` changed too, \`drift/definition-changed\` counts the
  change as the hints having been reviewed; this rule still reports the lowered level.`,
  examples: {
    incorrect: [
      {
        title: 'riskLevel lowered from high to low',
        base: { tools: [tool('drop_index', { readOnlyHint: false, riskLevel: 'high', category: 'delete' })] },
        tools: [tool('drop_index', { readOnlyHint: false, riskLevel: 'low', category: 'delete' })],
        findings: [{ pointer: '/tools/0/annotations/riskLevel' }],
      },
      {
        title: 'Two approvers became one',
        base: { tools: [tool('rotate_keys', { readOnlyHint: false, riskLevel: 'critical', approvalRecommendation: 'multi' })] },
        tools: [tool('rotate_keys', { readOnlyHint: false, riskLevel: 'critical', approvalRecommendation: 'single' })],
        findings: [{ pointer: '/tools/0/annotations/approvalRecommendation' }],
      },
      {
        title: 'blastRadius dropped with a new description',
        explanation: 'No policy can match a blast radius the tool no longer states. The description changed too, which drift/definition-changed takes as the hints having been reviewed: the dropped level is still reported.',
        base: { tools: [tool('scale_down', { readOnlyHint: false, blastRadius: 'cluster' }, { description: 'Scales one deployment down.' })] },
        tools: [tool('scale_down', { readOnlyHint: false }, { description: 'Scales deployments down.' })],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'Outcomes no longer include irreversible',
        explanation: 'The worst outcome went from irreversible to consequential: clients that confirm irreversible calls stop asking.',
        base: { tools: [tool('send_invoice', { readOnlyHint: false, destructiveHint: false, inputMetadata: { outcomes: ['consequential', 'irreversible'] } })] },
        tools: [tool('send_invoice', { readOnlyHint: false, destructiveHint: false, inputMetadata: { outcomes: ['consequential'] } })],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes' }],
      },
    ],
    correct: [
      {
        title: 'A higher risk level',
        base: { tools: [tool('drop_index', { readOnlyHint: false, riskLevel: 'medium' })] },
        tools: [tool('drop_index', { readOnlyHint: false, riskLevel: 'high', blastRadius: 'namespace' })],
      },
      {
        title: 'The same level, written differently',
        explanation: 'SEP-2793 reads "High" as high (schema-valid reports the capital).',
        base: { tools: [tool('drop_index', { readOnlyHint: false, riskLevel: 'High' })] },
        tools: [tool('drop_index', { readOnlyHint: false, riskLevel: 'high' })],
      },
      {
        title: 'The irreversible outcome moved to the action-metadata extension',
        base: { tools: [tool('send_invoice', { readOnlyHint: false, destructiveHint: false, inputMetadata: { outcomes: ['consequential', 'irreversible'] } })] },
        tools: [tool('send_invoice', { readOnlyHint: false, destructiveHint: false }, { _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'irreversible' } } })],
      },
    ],
  },
  compare({ pair, report }) {
    for (const scale of SCALES) reportLowered(pair, report, scale);
    reportOutcomesLowered(pair, report);
    // approvalRecommendation: multi to one approval; to none is drift/confirmation-dropped's.
    const was = pair.base.claims.where('approval', 'multi')[0];
    if (!was) return;
    const now = pair.head.claims.first('approval');
    if (now?.value === 'multi') return;
    const still = confirmationSignals(pair.head.claims);
    if (!still.length) return;
    const consequence = 'so clients may let one person approve a call that needed more than one';
    if (now?.value === 'single') {
      report({
        pointer: now.pointer,
        message: `${says(now)} now (${now.pointer}), below ${JSON.stringify('multi')} in the base (${was.pointer}), ${consequence}`,
        suggestion: `if one approval is now enough, make sure that is intended and that its users know; otherwise restore "multi"`,
        before: saidBefore([was]),
      });
      return;
    }
    const ignored = now ? undefined : unreadable(pair.head, relative(pair.base.view.pointer, was.pointer), 'one of "none", "single" or "multi"');
    const state = now ? `${says(now)} now (${now.pointer})` : ignored ? ignored.text : `${was.field} is no longer set`;
    report({
      pointer: now ? now.pointer : ignored ? ignored.pointer : inHead(pair, was.pointer),
      message: `${state} and only ${sideOf(still[0]!)} asks for confirmation, a single approval; in the base ${says(was)} (${was.pointer}), ${consequence}`,
      suggestion: `if one approval is now enough, make sure that is intended and that its users know; otherwise restore "approvalRecommendation": "multi"`,
      before: saidBefore([was]),
    });
  },
});
