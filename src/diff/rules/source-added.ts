import { defineDriftRule } from '../types.js';
import { reportGrowth, tool } from './shared.js';

export default defineDriftRule({
  id: 'drift/source-added',
  severity: 'warning',
  category: 'drift',
  packs: ['sep-1913', 'action-metadata'],
  summary: 'A tool may return content from a source it did not before.',
  precision: 'very-high',
  security: 6.0,
  why: `A tool's possible sources (SEP-1913 \`returnMetadata.source\`, or the action-metadata
extension's) tell a client how far it can trust what the tool returns. Content from
\`untrustedPublic\` sources is where prompt injection comes from; clients that let a tool's
results steer other tools decided so from its old sources. A new source means that decision
may no longer hold.`,
  notes: `- Every new source is reported, not only \`untrustedPublic\`: a client that relied on
  "only internal" content cannot rely on it any more.
- A set that disappears is reported: an absent set means any source.
- A set the base did not state is not compared.`,
  examples: {
    incorrect: [
      {
        title: 'Results may now come from the public web',
        base: { tools: [tool('search', { readOnlyHint: true, returnMetadata: { source: 'internal' } })] },
        tools: [tool('search', { readOnlyHint: true, returnMetadata: { source: ['internal', 'untrustedPublic'] } })],
        findings: [{ pointer: '/tools/0/annotations/returnMetadata/source/1' }],
      },
    ],
    correct: [
      {
        title: 'The same sources in another order',
        base: { tools: [tool('search', { readOnlyHint: true, returnMetadata: { source: ['internal', 'user'] } })] },
        tools: [tool('search', { readOnlyHint: true, returnMetadata: { source: ['user', 'internal'] } })],
      },
    ],
  },
  compare({ pair, report }) {
    reportGrowth(pair, report, {
      facts: ['sources'],
      noun: 'source',
      nouns: 'sources',
      harmless: [],
      suggestion: (v) => `if the tool may now return content from ${v}, make sure that is intended and that clients treat its results accordingly; otherwise drop ${v}`,
    });
  },
});
