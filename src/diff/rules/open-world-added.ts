import { openWorld } from '../../engine/queries.js';
import { at, unreadable } from '../facts.js';
import { defineDriftRule } from '../types.js';
import { tool } from './shared.js';

export default defineDriftRule({
  id: 'drift/open-world-added',
  severity: 'warning',
  category: 'drift',
  packs: ['core'],
  summary: 'A tool that worked in a closed world may now reach external entities.',
  precision: 'very-high',
  security: 6.0,
  why: `\`openWorldHint: false\` says a tool works only within a closed domain (its own database,
local files); clients treat what it returns as trusted and let it run where the network is
off limits. When the hint turns true, or is dropped (absent means true), the tool may now
reach the web or other systems and bring back content an attacker wrote, and clients that
relied on the old hint have not adjusted how they handle its results.`,
  notes: '- An openWorldHint that disappears counts: absent means true. So does one that is not a boolean (`"false"`, a string): clients ignore it.',
  examples: {
    incorrect: [
      {
        title: 'openWorldHint turned true',
        base: { tools: [tool('search_notes', { readOnlyHint: true, openWorldHint: false })] },
        tools: [tool('search_notes', { readOnlyHint: true, openWorldHint: true })],
        findings: [{ pointer: '/tools/0/annotations/openWorldHint' }],
      },
      {
        title: 'openWorldHint dropped',
        base: { tools: [tool('search_notes', { readOnlyHint: true, openWorldHint: false })] },
        tools: [tool('search_notes', { readOnlyHint: true })],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
    ],
    correct: [
      {
        title: 'Still a closed world',
        base: { tools: [tool('search_notes', { readOnlyHint: true, openWorldHint: false })] },
        tools: [tool('search_notes', { readOnlyHint: true, openWorldHint: false, title: 'Search notes' })],
      },
    ],
  },
  compare({ pair, report }) {
    const was = openWorld(pair.base.claims);
    const now = openWorld(pair.head.claims);
    if (was?.value !== false || now?.value === false) return;
    // A value clients cannot read ("false", a string) is ignored, which is as good as absent.
    const ignored = now ? undefined : unreadable(pair.head, '/annotations/openWorldHint', 'a boolean', 'openWorldHint');
    const state = now ? `openWorldHint is now true (${now.pointer})` : `${ignored ? ignored.text : 'openWorldHint is no longer set'}, which means true`;
    report({
      pointer: now ? now.pointer : ignored ? ignored.pointer : at(pair.head, '/annotations/openWorldHint'),
      message: `${state}; in the base it was false (${was.pointer}), so clients may treat what the tool returns as trusted`,
      suggestion: `if the tool now reaches external systems, make sure that is intended and that its users know; if it still works in a closed domain, ${ignored ? 'write "openWorldHint": false, a JSON boolean' : 'restore "openWorldHint": false'}`,
      before: [{ pointer: was.pointer, message: 'openWorldHint was false here' }],
    });
  },
});
