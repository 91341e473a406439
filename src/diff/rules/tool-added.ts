import { quote, QUOTED_NAME_MAX } from '../../util/text.js';
import { toolAnchor } from '../facts.js';
import { defineDriftRule } from '../types.js';
import { hasAnnotations, tool } from './shared.js';

export default defineDriftRule({
  id: 'drift/tool-added',
  severity: 'warning',
  category: 'drift',
  packs: ['core'],
  summary: 'The server has a tool it did not have before.',
  precision: 'very-high',
  security: 4.0,
  why: `Whoever approved a server approved the tools it had. A new tool is new capability the
model can call — possibly under a server-wide "always allow" — and its annotations have not
been reviewed by anyone yet. A tool that arrives with no annotations at all is the worst
case: clients must assume it may write, delete and reach the open world.`,
  notes: `- A tool that was renamed (same definition, or same description and inputSchema, matched
  one to one) is \`drift/tool-renamed\`, not a new tool.
- The tools of a server the base does not have at all are new too.
- One more tool of a name the base has (a second \`x\` beside the one the head kept) is not new:
  it is compared with the base's tool of that name (the one of the same content, else the first
  listed), so a weaker duplicate is \`drift/readonly-removed\`, \`drift/destructive-added\`,
  \`drift/open-world-added\` and the rest, with the message naming it a second tool. Reordering
  tools of one name is no drift.`,
  examples: {
    incorrect: [
      {
        title: 'A new tool',
        base: { tools: [tool('list_files', { readOnlyHint: true })] },
        tools: [tool('list_files', { readOnlyHint: true }), tool('delete_file', { readOnlyHint: false, destructiveHint: true })],
        findings: [{ pointer: '/tools/1/name' }],
      },
    ],
    correct: [
      {
        title: 'The same tools in another order',
        base: { tools: [tool('list_files', { readOnlyHint: true }), tool('read_file', { readOnlyHint: true })] },
        tools: [tool('read_file', { readOnlyHint: true }), tool('list_files', { readOnlyHint: true })],
      },
      {
        title: 'A second tool of a name the base has',
        explanation:
          'The second `list_files` is compared with the base\'s `list_files`: it is reported as no longer read-only, destructive and open-world (drift/readonly-removed, drift/destructive-added, drift/open-world-added), not as a new tool.',
        base: { tools: [tool('list_files', { readOnlyHint: true, openWorldHint: false })] },
        tools: [tool('list_files', { readOnlyHint: true, openWorldHint: false }), tool('list_files', { readOnlyHint: false, destructiveHint: true, openWorldHint: true })],
      },
    ],
  },
  compareServer({ added, base, head, report }) {
    for (const t of added) {
      const annotated = hasAnnotations(t) ? '' : ' and has no annotations, so clients must assume it may write, delete and reach the open world';
      const server = base ? '' : ` (the server ${quote(head!.name, QUOTED_NAME_MAX)} is not in the base)`;
      report({
        tool: t,
        pointer: toolAnchor(t),
        message: `tool ${quote(t.view.name, QUOTED_NAME_MAX)} is new${server}${annotated}: nobody has reviewed what it does yet`,
        suggestion: 'review the new tool and its annotations before clients trust it',
      });
    }
  },
});
