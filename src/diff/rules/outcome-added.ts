import { defineDriftRule } from '../types.js';
import { reportGrowth, tool } from './shared.js';

export default defineDriftRule({
  id: 'drift/outcome-added',
  severity: 'warning',
  category: 'drift',
  packs: ['sep-1913', 'action-metadata'],
  summary: 'A tool may have an outcome it could not have before.',
  precision: 'very-high',
  security: 5.0,
  why: `A tool's possible outcomes (SEP-1913 \`inputMetadata.outcomes\`, the action-metadata
extension's \`outcome\`) tell a client what a call may leave behind. A tool whose outcomes were
only \`benign\` could run without a prompt; once it may be \`consequential\` (persistent,
visible changes), clients that decided from the old set may let it change things without
asking.`,
  notes: `- A new \`irreversible\` outcome is \`drift/irreversible-added\`'s (an error); adding \`benign\`
  weakens nothing. This rule reports the rest: \`consequential\`, and open strings of the
  action-metadata extension.
- A set that disappears is reported: an absent set means any outcome. A set the base did not
  state is not compared.
- A set that loses its worst member (\`irreversible\` dropped) declares less than before:
  \`drift/risk-lowered\` reports it.`,
  examples: {
    incorrect: [
      {
        title: 'A benign tool may now have consequences',
        base: { tools: [tool('draft_reply', { readOnlyHint: false, destructiveHint: false, inputMetadata: { outcomes: 'benign' } })] },
        tools: [tool('draft_reply', { readOnlyHint: false, destructiveHint: false, inputMetadata: { outcomes: ['benign', 'consequential'] } })],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes/1' }],
      },
    ],
    correct: [
      {
        title: 'The same outcome in the action-metadata extension',
        base: { tools: [tool('draft_reply', { readOnlyHint: false, destructiveHint: false, inputMetadata: { outcomes: 'consequential' } })] },
        tools: [tool('draft_reply', { readOnlyHint: false, destructiveHint: false }, { _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'consequential' } } })],
      },
    ],
  },
  compare({ pair, report }) {
    reportGrowth(pair, report, {
      facts: ['outcomes'],
      noun: 'outcome',
      nouns: 'outcomes',
      harmless: ['benign'],
      skip: ['irreversible'],
      suggestion: (v) => `if a call may now be ${v}, make sure that is intended and that clients ask before such calls; otherwise drop ${v}`,
    });
  },
});
