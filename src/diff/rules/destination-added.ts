import { defineDriftRule } from '../types.js';
import { reportGrowth, tool } from './shared.js';

export default defineDriftRule({
  id: 'drift/destination-added',
  severity: 'warning',
  category: 'drift',
  packs: ['sep-1913', 'action-metadata'],
  summary: 'A tool may send its inputs somewhere it could not before.',
  precision: 'very-high',
  security: 6.5,
  why: `A tool's possible destinations (SEP-1913 \`inputMetadata.destination\`, or the
action-metadata extension's) tell a client where the data it passes may end up. Data-flow
policies are written against them: "personal data may go to internal systems only". When
the set gains a destination — \`public\` most of all — a policy that allowed the tool before
may have to block it now, and a client that cached its decision will not notice.

The set is compared across vocabularies: a destination moved from \`annotations\` to the
action-metadata extension is not new.`,
  notes: `- Adding \`ephemeral\` (the inputs are not kept) weakens nothing and is not reported.
- A set that disappears is reported: an absent set means any destination.
- A set the base did not state is not compared: declaring it newly tells clients more, not
  less.
- Open strings of the action-metadata extension (\`"external"\`) count as destinations of their
  own.`,
  examples: {
    incorrect: [
      {
        title: 'A new public destination',
        base: { tools: [tool('share_doc', { readOnlyHint: false, inputMetadata: { destination: 'internal' } })] },
        tools: [tool('share_doc', { readOnlyHint: false, inputMetadata: { destination: ['internal', 'public'] } })],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/destination/1' }],
      },
      {
        title: 'The destination is no longer declared',
        base: { tools: [tool('share_doc', { readOnlyHint: false, inputMetadata: { destination: 'internal', outcomes: 'consequential' } })] },
        tools: [tool('share_doc', { readOnlyHint: false, inputMetadata: { outcomes: 'consequential' } })],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata' }],
      },
    ],
    correct: [
      {
        title: 'The same destination, declared in the action-metadata extension',
        base: { tools: [tool('share_doc', { readOnlyHint: false, inputMetadata: { destination: 'internal' } })] },
        tools: [tool('share_doc', { readOnlyHint: false }, { _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'internal' } } } })],
      },
      {
        title: 'A narrower set',
        base: { tools: [tool('share_doc', { readOnlyHint: false, inputMetadata: { destination: ['internal', 'public'] } })] },
        tools: [tool('share_doc', { readOnlyHint: false, inputMetadata: { destination: 'internal' } })],
      },
    ],
  },
  compare({ pair, report }) {
    reportGrowth(pair, report, {
      facts: ['destinations'],
      noun: 'destination',
      nouns: 'destinations',
      harmless: ['ephemeral'],
      suggestion: (v) => `if the tool may now send its inputs to ${v}, make sure that is intended and that policies written for the old destinations still hold; otherwise drop ${v}`,
    });
  },
});
