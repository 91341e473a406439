import { RESULT_SENSITIVITIES } from '../../engine/claims.js';
import { says } from '../../engine/queries.js';
import { unreadable } from '../facts.js';
import { joinWords } from '../../util/text.js';
import { defineDriftRule } from '../types.js';
import { relative } from '../../util/pointer.js';
import { inHead, reportGrowth, tool } from './shared.js';

export default defineDriftRule({
  id: 'drift/sensitivity-added',
  severity: 'warning',
  category: 'drift',
  packs: ['sep-1913', 'action-metadata', 'meta-hints'],
  summary: 'A tool may take or return data more sensitive than before.',
  precision: 'very-high',
  security: 6.5,
  why: `Sensitivity classes (SEP-1913 \`inputMetadata.sensitivity\` and
\`returnMetadata.sensitivity\`, the action-metadata extension's, and
\`_meta["mcp.dev/resultSensitivity"]\`) are what data-loss policies match: "no personal data
to this tool", "keep credentials out of the model's context". A new class — \`pii\`,
\`credentials\`, a regulated scope such as \`"HIPAA"\` — or a higher result sensitivity means
data of that kind may now flow where the policy let the tool through before.`,
  notes: `- Inputs and outputs are compared separately; adding \`none\` weakens nothing and is not
  reported.
- A new regulatory scope is reported by its name (\`regulated ("GDPR")\`).
- \`mcp.dev/resultSensitivity\` is ordered: public < internal < confidential < restricted; a
  step up is reported.
- A set that disappears is reported: an absent set means any class. A set the base did not
  state is not compared.`,
  examples: {
    incorrect: [
      {
        title: 'Inputs may now carry personal data',
        base: { tools: [tool('log_event', { readOnlyHint: false, inputMetadata: { destination: 'internal', sensitivity: 'none' } })] },
        tools: [tool('log_event', { readOnlyHint: false, inputMetadata: { destination: 'internal', sensitivity: ['none', 'pii'] } })],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/sensitivity/1' }],
      },
      {
        title: 'A new regulatory scope on the output',
        base: { tools: [tool('get_record', { readOnlyHint: true, returnMetadata: { sensitivity: [{ regulated: { scopes: ['HIPAA'] } }] } })] },
        tools: [tool('get_record', { readOnlyHint: true, returnMetadata: { sensitivity: [{ regulated: { scopes: ['HIPAA', 'GDPR'] } }] } })],
        findings: [{ pointer: '/tools/0/annotations/returnMetadata/sensitivity/0/regulated/scopes/1' }],
      },
      {
        title: 'Result sensitivity went up',
        base: { tools: [tool('get_invoice', { readOnlyHint: true }, { _meta: { 'mcp.dev/resultSensitivity': 'internal' } })] },
        tools: [tool('get_invoice', { readOnlyHint: true }, { _meta: { 'mcp.dev/resultSensitivity': 'confidential' } })],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1resultSensitivity' }],
      },
    ],
    correct: [
      {
        title: 'Less sensitive than before',
        base: { tools: [tool('log_event', { readOnlyHint: false, inputMetadata: { destination: 'internal', sensitivity: ['none', 'pii'] } })] },
        tools: [tool('log_event', { readOnlyHint: false, inputMetadata: { destination: 'internal', sensitivity: 'none' } })],
      },
    ],
  },
  compare({ pair, report }) {
    for (const [fact, noun] of [
      ['inputSensitivity', 'input sensitivity class'],
      ['outputSensitivity', 'output sensitivity class'],
    ] as const) {
      reportGrowth(pair, report, {
        facts: [fact],
        noun,
        nouns: `${noun}es`,
        harmless: ['none'],
        suggestion: (v) => `if the tool may now handle ${v} data, make sure that is intended and that data policies still allow it; otherwise drop it`,
      });
    }
    const was = pair.base.claims.first('resultSensitivity');
    if (!was) return;
    const now = pair.head.claims.first('resultSensitivity');
    const rank = (v: string) => RESULT_SENSITIVITIES.indexOf(v as (typeof RESULT_SENSITIVITIES)[number]);
    if (now && rank(now.value) <= rank(was.value)) return;
    // A value clients cannot read (3, "secret") is ignored, which is as good as absent.
    const ignored = now ? undefined : unreadable(pair.head, relative(pair.base.view.pointer, was.pointer), `one of ${joinWords(RESULT_SENSITIVITIES.map((v) => JSON.stringify(v)), 'or')}`);
    report({
      pointer: now ? now.pointer : ignored ? ignored.pointer : inHead(pair, was.pointer),
      message: now
        ? `${says(now)} now (${now.pointer}), above ${JSON.stringify(was.value)} in the base (${was.pointer})`
        : `${ignored ? `${ignored.text}, and` : `${was.field} is no longer set, so`} a client must assume any sensitivity; in the base it was ${JSON.stringify(was.value)} (${was.pointer})`,
      suggestion: now
        ? `if the results may now be ${JSON.stringify(now.value)}, make sure that is intended and that clients handle them accordingly; otherwise restore ${JSON.stringify(was.value)}`
        : `declare ${was.field} again${ignored ? ', as one of its values' : ''}`,
      before: [{ pointer: was.pointer, message: `${says(was)} in the base` }],
    });
  },
});
