import { readOnly, says } from '../../engine/queries.js';
import { at, expectedOf, unreadable } from '../facts.js';
import { relative } from '../../util/pointer.js';
import { defineDriftRule } from '../types.js';
import { inHead, tool } from './shared.js';

const READ = ['read', 'observe'] as const;

export default defineDriftRule({
  id: 'drift/readonly-removed',
  severity: 'error',
  category: 'drift',
  packs: ['core', 'risk-metadata', 'meta-hints'],
  summary: 'A tool that was read-only is no longer read-only.',
  precision: 'very-high',
  security: 7.5,
  why: `Clients run read-only tools without asking: \`readOnlyHint: true\` is the one hint that
lets a call through with no approval prompt, and users grant "always allow" to such tools.
When the hint turns false — or disappears, which means false — every client that trusted it
now lets the model change things the user never agreed to be changed, until someone notices.

A server may have good reasons (the tool learned to write), but such a change must be a
decision someone reviewed, not a line lost in a refactor. The same holds for the other
vocabularies that say a tool only reads: SEP-2793 \`category\` and \`_meta["mcp.dev/effect"]\`
of \`read\` or \`observe\`.`,
  notes: `- A read-only hint that disappears counts: absent \`readOnlyHint\` means false. So does one
  that is not a boolean (\`"true"\`, a string): clients ignore it, and the message says so. The
  same holds for a \`category\` or \`_meta["mcp.dev/effect"]\` that no vocabulary can read.
- The other vocabularies are compared as a whole: moving \`"read"\` from \`category\` to
  \`_meta["mcp.dev/effect"]\` keeps the tool read-only and is not reported.
- A tool that also becomes destructive is reported by \`drift/destructive-added\` as well.`,
  examples: {
    incorrect: [
      {
        title: 'readOnlyHint turned false',
        base: { tools: [tool('export_report', { readOnlyHint: true, openWorldHint: false })] },
        tools: [tool('export_report', { readOnlyHint: false, destructiveHint: false, openWorldHint: false })],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
      {
        title: 'readOnlyHint dropped',
        explanation: 'An absent readOnlyHint means false.',
        base: { tools: [tool('list_files', { readOnlyHint: true })] },
        tools: [tool('list_files', { title: 'List files' })],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'readOnlyHint written as a string',
        explanation: 'Clients ignore a hint that is not a boolean, so "true" in quotes means false.',
        base: { tools: [tool('list_files', { readOnlyHint: true, openWorldHint: false })] },
        tools: [tool('list_files', { readOnlyHint: 'true', destructiveHint: false, openWorldHint: false })],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
      {
        title: 'SEP-2793 category went from read to mutate',
        base: { tools: [tool('tag_issue', { category: 'read', riskLevel: 'low' })] },
        tools: [tool('tag_issue', { category: 'mutate', riskLevel: 'low' })],
        findings: [{ pointer: '/tools/0/annotations/category' }],
      },
    ],
    correct: [
      {
        title: 'Still read-only, with more detail',
        base: { tools: [tool('list_files', { readOnlyHint: true })] },
        tools: [tool('list_files', { readOnlyHint: true, openWorldHint: false })],
      },
      {
        title: 'The read effect moved to another vocabulary',
        base: { tools: [tool('get_status', { readOnlyHint: true, category: 'read' })] },
        tools: [tool('get_status', { readOnlyHint: true }, { _meta: { 'mcp.dev/effect': 'read' } })],
      },
    ],
  },
  compare({ pair, report }) {
    const { base, head } = pair;
    const was = readOnly(base.claims);
    const now = readOnly(head.claims);
    if (was?.value === true && now?.value !== true) {
      // A value clients cannot read ("true", a string) is ignored, which is as good as absent.
      const ignored = now ? undefined : unreadable(head, '/annotations/readOnlyHint', 'a boolean', 'readOnlyHint');
      const state = now ? `readOnlyHint is now false (${now.pointer})` : `${ignored ? ignored.text : 'readOnlyHint is no longer set'}, which means false`;
      report({
        pointer: now ? now.pointer : ignored ? ignored.pointer : at(head, '/annotations/readOnlyHint'),
        message: `${state}; in the base it was true (${was.pointer}), so clients may have run the tool without asking`,
        suggestion: `if the tool now changes its environment, make sure that is intended and that its users know; if it still only reads, ${ignored ? 'write "readOnlyHint": true, a JSON boolean' : 'restore "readOnlyHint": true'}`,
        before: [{ pointer: was.pointer, message: 'readOnlyHint was true here' }],
      });
    }
    const readBefore = base.claims.where('action', ...READ);
    if (readBefore.length && head.claims.where('action', ...READ).length === 0) {
      const first = readBefore[0]!;
      const action = head.claims.all('action')[0];
      const ignored = action ? undefined : unreadable(head, relative(base.view.pointer, first.pointer), expectedOf(base, first));
      report({
        pointer: action ? action.pointer : ignored ? ignored.pointer : inHead(pair, first.pointer),
        message: action
          ? `${says(action)} now (${action.pointer}), not a read; in the base ${says(first)} (${first.pointer})`
          : ignored
            ? `${ignored.text}, and no vocabulary says the tool only reads any more; in the base ${says(first)} (${first.pointer})`
            : `no vocabulary says the tool only reads any more; in the base ${says(first)} (${first.pointer})`,
        suggestion: `if the tool now changes its environment, make sure that is intended and that its users know; if it still only reads, restore ${first.field}`,
        before: readBefore.map((c) => ({ pointer: c.pointer, message: `${says(c)} in the base` })),
      });
    }
  },
});
