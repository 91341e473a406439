import { defineRule } from '../src/rule.js';
import { destructive, readOnly, sideOf } from '../src/engine/queries.js';

export default defineRule({
  id: 'ignored-hint',
  severity: 'note',
  category: 'core-hints',
  packs: ['core'],
  summary: 'destructiveHint and idempotentHint mean nothing on a read-only tool.',
  precision: 'very-high',
  why: `The spec says \`destructiveHint\` and \`idempotentHint\` are "meaningful only when
\`readOnlyHint == false\`". On a tool with \`readOnlyHint: true\` clients ignore them.
They do no harm, but a reader of the annotations may think they change something, and
a later edit that flips \`readOnlyHint\` to false silently brings them into force.`,
  notes: `A note, never more: real servers carry these hints on read-only tools all the time,
often because a client's review checklist asks for every hint on every tool, and the
hints are harmless. The \`mcp-annotate:strict\` preset leaves it a note too (as it leaves
the heuristic rules at their defaults); only \`mcp-annotate:all\`, or a severity of your own
in \`rules\`, makes it more.

\`destructiveHint: true\` on a read-only tool is not "ignored" but a contradiction:
that is [readonly-destructive](readonly-destructive.md)'s error, so this rule reports
only \`destructiveHint: false\` and \`idempotentHint\` (either value). One finding per
hint, at the hint, with \`readOnlyHint\` as the related location. No mechanical fix:
removing a key is not a one-value replacement, and keeping the hint is a valid choice.

Only the core hints are "ignored". \`_meta["mcp.dev/idempotent"]\` is another
vocabulary's hint with its own meaning ("repeated calls with the same input produce the
same result", which a retry layer uses for reads too), so it is never reported here;
whether it agrees with \`idempotentHint\` is
[idempotent-conflict](idempotent-conflict.md)'s question.`,
  examples: {
    incorrect: [
      {
        title: 'A read-only tool that also sets the write hints',
        tools: [
          {
            name: 'get_weather',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/destructiveHint' }, { pointer: '/tools/0/annotations/idempotentHint' }],
      },
    ],
    correct: [
      {
        title: 'A read-only tool with only the hints that apply',
        tools: [{ name: 'get_weather', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: true } }],
      },
      {
        title: 'The same hints on a tool that writes mean something',
        tools: [
          {
            name: 'set_thermostat',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
          },
        ],
      },
      {
        title: 'mcp.dev/idempotent on a read-only tool is not a core hint',
        doc: false,
        tools: [
          {
            name: 'get_weather',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: true },
            _meta: { 'mcp.dev/effect': 'read', 'mcp.dev/idempotent': true },
          },
        ],
      },
      {
        title: 'destructiveHint true beside readOnlyHint true is readonly-destructive’s error',
        doc: false,
        tools: [{ name: 'purge_cache', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: true } }],
      },
    ],
  },
  check(ctx) {
    const ro = readOnly(ctx.claims);
    if (ro?.value !== true) return;
    const related = [{ pointer: ro.pointer, message: 'readOnlyHint is true here' }];
    const d = destructive(ctx.claims);
    if (d?.value === false) {
      ctx.report({
        pointer: d.pointer,
        message: `${sideOf(d)} on a tool whose ${sideOf(ro)}; the spec reads destructiveHint only when readOnlyHint is false, so clients ignore it`,
        suggestion: 'nothing breaks: remove destructiveHint to keep the annotations minimal, or keep it if a client you target asks for it',
        related,
      });
    }
    const i = ctx.claims.from('idempotent', 'core');
    if (i) {
      ctx.report({
        pointer: i.pointer,
        message: `${sideOf(i)} on a tool whose ${sideOf(ro)}; the spec reads idempotentHint only when readOnlyHint is false, so clients ignore it (a read-only tool has no effect to repeat)`,
        suggestion: 'nothing breaks: remove idempotentHint to keep the annotations minimal, or keep it if a client you target asks for it',
        related,
      });
    }
  },
});
