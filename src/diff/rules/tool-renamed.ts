import { quote, QUOTED_NAME_MAX } from '../../util/text.js';
import { toolAnchor } from '../facts.js';
import { defineDriftRule } from '../types.js';
import { tool } from './shared.js';

const description = 'Creates a calendar event and invites the attendees.';
const schema = { type: 'object', properties: { title: { type: 'string' }, attendees: { type: 'array', items: { type: 'string' } } } };

export default defineDriftRule({
  id: 'drift/tool-renamed',
  severity: 'note',
  category: 'drift',
  packs: ['core'],
  summary: 'A tool was renamed.',
  precision: 'high',
  why: `Approvals, allowlists and policies name tools. A renamed tool escapes every rule written
for its old name and may fall under rules written for other tools. The rename is matched by
content, so the tool's annotations are still compared with what it said under its old name:
a rename does not hide a weakened hint.`,
  notes: `- A removed and an added tool are a rename when exactly one of each shares an identical
  definition apart from the name, or else the same (non-empty) description and inputSchema.
  Anything less certain is reported as a removed and a new tool.`,
  examples: {
    incorrect: [
      {
        title: 'Same definition, new name',
        base: { tools: [tool('create_event', { readOnlyHint: false, destructiveHint: false }, { description, inputSchema: schema })] },
        tools: [tool('calendar_create_event', { readOnlyHint: false, destructiveHint: false }, { description, inputSchema: schema })],
        findings: [{ pointer: '/tools/0/name' }],
      },
    ],
    correct: [
      {
        title: 'The name is unchanged',
        base: { tools: [tool('create_event', { readOnlyHint: false, destructiveHint: false }, { description, inputSchema: schema })] },
        tools: [tool('create_event', { readOnlyHint: false, destructiveHint: false }, { description, inputSchema: schema })],
      },
    ],
  },
  compareServer({ renamed, report }) {
    for (const pair of renamed) {
      report({
        tool: pair.head,
        pointer: toolAnchor(pair.head),
        message: `tool ${quote(pair.base.view.name, QUOTED_NAME_MAX)} is now named ${quote(pair.head.view.name, QUOTED_NAME_MAX)} (matched by ${pair.renamedBy}): approvals and policies that name the old tool no longer apply to it`,
        suggestion: `update approvals, allowlists and policies that name ${quote(pair.base.view.name, QUOTED_NAME_MAX)}`,
        before: [{ pointer: toolAnchor(pair.base), message: 'the old name in the base' }],
      });
    }
  },
});
