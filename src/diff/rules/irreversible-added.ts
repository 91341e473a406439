import { says } from '../../engine/queries.js';
import type { ToolSide } from '../types.js';
import { possible, valueList } from '../facts.js';
import { defineDriftRule } from '../types.js';
import { tool } from './shared.js';

/** Claims saying a call may be irreversible: outcomes including "irreversible", reversibility "none". */
function irreversible(side: ToolSide): { pointer: string; text: string }[] {
  const out: { pointer: string; text: string }[] = [];
  const member = possible(side, ['outcomes']).values.get('irreversible');
  if (member) out.push({ pointer: member.pointer, text: `${member.field} now includes "irreversible"` });
  for (const c of side.claims.where('reversibility', 'none')) out.push({ pointer: c.pointer, text: `${says(c)} now` });
  return out;
}

export default defineDriftRule({
  id: 'drift/irreversible-added',
  severity: 'error',
  category: 'drift',
  packs: ['sep-1913', 'action-metadata', 'risk-metadata'],
  summary: 'A call to the tool may now be irreversible.',
  precision: 'very-high',
  security: 8.0,
  why: `An irreversible outcome — sending a message, a payment, a deletion with no undo — is the
one a user most needs to see before it happens. When a tool that declared only reversible
outcomes (SEP-1913 \`outcomes\`, the action-metadata extension's \`outcome\`, SEP-2793
\`reversibility\`) now may be irreversible, clients that let it run without a confirmation
step, or that retry it on failure, can do harm nobody can take back.`,
  notes: `- The base must have declared its outcomes or reversibility without an irreversible one;
  a tool that declares its outcomes for the first time tells clients more, not less.
- \`reversibility: "none"\` counts as an irreversible outcome.
- The opposite change, an \`irreversible\` outcome or \`reversibility: "none"\` dropped, is
  \`drift/risk-lowered\`'s.`,
  examples: {
    incorrect: [
      {
        title: 'Outcomes now include irreversible',
        base: { tools: [tool('post_update', { readOnlyHint: false, inputMetadata: { outcomes: 'consequential' } })] },
        tools: [tool('post_update', { readOnlyHint: false, inputMetadata: { outcomes: ['consequential', 'irreversible'] } })],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes/1' }],
      },
      {
        title: 'SEP-2793 reversibility went from manual to none',
        base: { tools: [tool('purge_logs', { readOnlyHint: false, reversibility: 'manual', riskLevel: 'high' })] },
        tools: [tool('purge_logs', { readOnlyHint: false, reversibility: 'none', riskLevel: 'high' })],
        findings: [{ pointer: '/tools/0/annotations/reversibility' }],
      },
    ],
    correct: [
      {
        title: 'Outcomes declared for the first time',
        base: { tools: [tool('post_update', { readOnlyHint: false })] },
        tools: [tool('post_update', { readOnlyHint: false, inputMetadata: { outcomes: 'irreversible' } })],
      },
      {
        title: 'Irreversible before and after',
        base: { tools: [tool('send_payment', { readOnlyHint: false, inputMetadata: { outcomes: 'irreversible' } })] },
        tools: [tool('send_payment', { readOnlyHint: false, inputMetadata: { outcomes: ['irreversible'] } })],
      },
    ],
  },
  compare({ pair, report }) {
    const declared = [...pair.base.claims.all('outcomes'), ...pair.base.claims.all('reversibility')];
    if (!declared.length || irreversible(pair.base).length) return;
    const now = irreversible(pair.head)[0];
    if (!now) return;
    const outcomes = possible(pair.base, ['outcomes']);
    const was = outcomes.declared ? `the possible outcomes were ${valueList(outcomes)}` : says(declared[0]!);
    report({
      pointer: now.pointer,
      message: `${now.text} (${now.pointer}); in the base ${was} (${declared[0]!.pointer}), so clients may let a call that cannot be undone run without asking`,
      suggestion: 'if a call may now be irreversible, make sure that is intended and that the tool asks for confirmation; otherwise restore the previous outcomes',
      before: declared.map((c) => ({ pointer: c.pointer, message: `${c.field} in the base` })),
    });
  },
});
