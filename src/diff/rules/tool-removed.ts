import { quote, QUOTED_NAME_MAX } from '../../util/text.js';
import { toolAnchor } from '../facts.js';
import { defineDriftRule } from '../types.js';
import { tool } from './shared.js';

export default defineDriftRule({
  id: 'drift/tool-removed',
  severity: 'note',
  category: 'drift',
  packs: ['core'],
  summary: 'A tool the server had is gone.',
  precision: 'very-high',
  why: `A removed tool weakens nothing a client relies on for safety, but agents, prompts and
policies that call it by name will fail or silently stop doing their job. The note makes the
removal visible in review, and tells apart a tool that was removed from one that was renamed
(\`drift/tool-renamed\`).`,
  notes: `- The finding points at the head's list of tools (the tool has no place in the head); its
  related location is where the tool was in the base.
- When a whole server is gone, each of its tools is reported against the base.
- Of several tools with one name, the one reported is the one the head no longer has:
  duplicates pair by content first (an identical definition, then the same description and
  inputSchema), and only the ones left over pair in the order they are listed.`,
  examples: {
    incorrect: [
      {
        title: 'A tool disappears',
        base: { tools: [tool('list_files', { readOnlyHint: true }), tool('legacy_sync', { readOnlyHint: false })] },
        tools: [tool('list_files', { readOnlyHint: true })],
        findings: [{ pointer: '/tools' }],
      },
    ],
    correct: [
      {
        title: 'Every tool is still there',
        base: { tools: [tool('list_files', { readOnlyHint: true })] },
        tools: [tool('list_files', { readOnlyHint: true, openWorldHint: false })],
      },
    ],
  },
  compareServer({ removed, head, report }) {
    for (const t of removed) {
      report({
        tool: t,
        pointer: head ? head.toolsPointer : toolAnchor(t),
        message: head
          ? `tool ${quote(t.view.name, QUOTED_NAME_MAX)} is no longer listed; in the base it was at ${t.view.pointer}`
          : `tool ${quote(t.view.name, QUOTED_NAME_MAX)} is gone with its server ${quote(t.server.name, QUOTED_NAME_MAX)}, which the head does not have`,
        suggestion: 'make sure nothing still calls the tool by name (agents, prompts, policies)',
        before: head ? [{ pointer: toolAnchor(t), message: 'the tool was here in the base' }] : undefined,
      });
    }
  },
});
