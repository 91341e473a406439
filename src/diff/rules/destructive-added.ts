import { destructive, readOnly, says } from '../../engine/queries.js';
import { at, unreadable } from '../facts.js';
import { defineDriftRule } from '../types.js';
import { tool } from './shared.js';

const DESTROYS = ['delete', 'destroy'] as const;

export default defineDriftRule({
  id: 'drift/destructive-added',
  severity: 'error',
  category: 'drift',
  packs: ['core', 'risk-metadata', 'meta-hints'],
  summary: 'A tool that was not destructive may now delete or overwrite data.',
  precision: 'very-high',
  security: 7.5,
  why: `\`destructiveHint: false\` promises that a tool's updates are only additive; clients
use it to skip the stronger warning they show before a call that may delete or overwrite.
When the hint turns true, or is dropped (absent means true), or a read-only tool becomes a
writing one without saying it is not destructive, every client that relied on the old
promise now runs a tool that may destroy data with less care than it needs.

SEP-2793 \`category\` and \`_meta["mcp.dev/effect"]\` say the same thing in other words: a
tool whose action becomes \`delete\` or \`destroy\` is reported too.`,
  notes: `- A destructiveHint that disappears counts: absent means true (when readOnlyHint is not true).
  A hint that is not a boolean (\`"false"\`, a string) is ignored by clients, so it counts as absent.
- A read-only tool counts as not destructive: when it stops being read-only and does not say
  \`destructiveHint: false\`, clients must treat it as destructive, so this rule fires along
  with \`drift/readonly-removed\`.
- destructiveHint on a tool that is still read-only means nothing and is not compared.`,
  examples: {
    incorrect: [
      {
        title: 'destructiveHint turned true',
        base: { tools: [tool('save_note', { readOnlyHint: false, destructiveHint: false })] },
        tools: [tool('save_note', { readOnlyHint: false, destructiveHint: true })],
        findings: [{ pointer: '/tools/0/annotations/destructiveHint' }],
      },
      {
        title: 'destructiveHint dropped',
        explanation: 'An absent destructiveHint means true.',
        base: { tools: [tool('append_row', { readOnlyHint: false, destructiveHint: false })] },
        tools: [tool('append_row', { readOnlyHint: false })],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'SEP-2793 category went from mutate to delete',
        base: { tools: [tool('prune_cache', { readOnlyHint: false, destructiveHint: false, category: 'mutate' })] },
        tools: [tool('prune_cache', { readOnlyHint: false, destructiveHint: false, category: 'delete' })],
        findings: [{ pointer: '/tools/0/annotations/category' }],
      },
    ],
    correct: [
      {
        title: 'Still only additive',
        base: { tools: [tool('append_row', { readOnlyHint: false, destructiveHint: false })] },
        tools: [tool('append_row', { readOnlyHint: false, destructiveHint: false, idempotentHint: false })],
      },
      {
        title: 'A destructive tool that stays destructive',
        base: { tools: [tool('delete_file', { readOnlyHint: false })] },
        tools: [tool('delete_file', { readOnlyHint: false, destructiveHint: true })],
      },
    ],
  },
  compare({ pair, report }) {
    const { base, head } = pair;
    const ro = readOnly(base.claims);
    const was = destructive(base.claims);
    const roNow = readOnly(head.claims);
    const now = destructive(head.claims);
    const wasSafe = ro?.value === true || was?.value === false;
    const isDestructive = roNow?.value !== true && now?.value !== false;
    if (wasSafe && isDestructive) {
      const before = ro?.value === true ? ro : was!;
      const then = ro?.value === true ? `in the base the tool was read-only (${ro.pointer})` : `in the base destructiveHint was false (${was!.pointer})`;
      // Values clients cannot read ("false", a string) are ignored: they mean what absent hints mean.
      const ignored = now ? undefined : unreadable(head, '/annotations/destructiveHint', 'a boolean', 'destructiveHint');
      const roIgnored = roNow ? undefined : unreadable(head, '/annotations/readOnlyHint', 'a boolean', 'readOnlyHint');
      const roState = roNow
        ? 'readOnlyHint is false'
        : !roIgnored
          ? 'readOnlyHint is not set'
          : roIgnored.pointer === ignored?.pointer
            ? 'readOnlyHint is ignored too'
            : `${roIgnored.wrong} and clients ignore it`;
      const state =
        now?.value === true
          ? `destructiveHint is now true (${now.pointer})`
          : `${ignored ? ignored.text : 'destructiveHint is not set'}, which means true now that ${roState}`;
      report({
        pointer: now ? now.pointer : ignored ? ignored.pointer : at(head, '/annotations/destructiveHint'),
        message: `${state}; ${then}, so clients may not warn before a call that deletes or overwrites data`,
        suggestion: `if the tool may now delete or overwrite data, make sure that is intended and that its users know; if its updates are still only additive, say "destructiveHint": false${ignored || roIgnored ? ', a JSON boolean' : ''}`,
        before: [{ pointer: before.pointer, message: `${says(before)} in the base` }],
      });
    }
    const actions = base.claims.all('action');
    if (actions.length && !actions.some((c) => (DESTROYS as readonly string[]).includes(c.value))) {
      const destroys = head.claims.where('action', ...DESTROYS)[0];
      if (destroys) {
        report({
          pointer: destroys.pointer,
          message: `${says(destroys)} now (${destroys.pointer}); in the base ${says(actions[0]!)} (${actions[0]!.pointer})`,
          suggestion: 'if the tool may now delete data, make sure that is intended and that its users know; otherwise restore the previous action',
          before: actions.map((c) => ({ pointer: c.pointer, message: `${says(c)} in the base` })),
        });
      }
    }
  },
});
