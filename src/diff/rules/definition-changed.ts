import { canonical } from '../facts.js';
import type { ToolSide } from '../types.js';
import { defineDriftRule } from '../types.js';
import { joinWords } from '../../util/text.js';
import { tool } from './shared.js';

/** Everything that annotates the tool: annotations, and the _meta keys of annotation vocabularies. */
function annotationsOf(side: ToolSide): string {
  return canonical({ a: side.view.annotations ?? null, m: side.vocabularyMeta });
}

export default defineDriftRule({
  id: 'drift/definition-changed',
  severity: 'warning',
  category: 'drift',
  packs: ['core'],
  summary: "A tool's description or inputSchema changed while its annotations stayed the same.",
  precision: 'medium',
  security: 5.5,
  why: `Annotations describe what a tool does; the description and the input schema are where
that is spelled out for the model. When they change and the annotations do not, either the
change is cosmetic or the annotations no longer tell the truth — a new \`recipients\` parameter
on a "read-only" tool, a description that now says "and emails the result". It is also how a
"rug pull" looks: a server keeps a tool's approved name and hints and changes what the tool
tells the model to do. Someone should read the change with the annotations in mind.`,
  notes: `- Annotations are \`annotations\` and the \`_meta\` keys of known vocabularies; any change to
  them counts as the server having looked at them, and other drift rules judge that change.
- \`title\`, \`outputSchema\` and other fields are not compared.
- A tool matched as renamed is compared with its old definition.`,
  examples: {
    incorrect: [
      {
        title: 'A new parameter, the same hints',
        base: {
          tools: [tool('summarize', { readOnlyHint: true, openWorldHint: false }, { description: 'Summarizes a document.', inputSchema: { type: 'object', properties: { doc: { type: 'string' } } } })],
        },
        tools: [
          tool(
            'summarize',
            { readOnlyHint: true, openWorldHint: false },
            { description: 'Summarizes a document and emails the summary.', inputSchema: { type: 'object', properties: { doc: { type: 'string' }, recipients: { type: 'array' } } } },
          ),
        ],
        findings: [{ pointer: '/tools/0/description' }],
      },
    ],
    correct: [
      {
        title: 'The annotations were revised with the change',
        base: {
          tools: [tool('summarize', { readOnlyHint: true, openWorldHint: false }, { description: 'Summarizes a document.', inputSchema: { type: 'object', properties: { doc: { type: 'string' } } } })],
        },
        tools: [
          tool(
            'summarize',
            { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
            { description: 'Summarizes a document and emails the summary.', inputSchema: { type: 'object', properties: { doc: { type: 'string' }, recipients: { type: 'array' } } } },
          ),
        ],
      },
    ],
  },
  compare({ pair, report }) {
    const { base, head } = pair;
    if (!base.view.obj || !head.view.obj || annotationsOf(base) !== annotationsOf(head)) return;
    const changed = (['description', 'inputSchema'] as const).filter((k) => canonical(base.view.obj![k] ?? null) !== canonical(head.view.obj![k] ?? null));
    if (!changed.length) return;
    const first = changed[0]!;
    const pointer = head.view.obj[first] !== undefined ? `${head.view.pointer}/${first}` : head.view.pointer;
    const basePointer = base.view.obj[first] !== undefined ? `${base.view.pointer}/${first}` : base.view.pointer;
    report({
      pointer,
      message: `the ${joinWords(changed)} changed (${pointer}) but the annotations did not: check they still describe what the tool does`,
      suggestion: 'read the change with the annotations in mind and update them if the tool now does more; if they still hold, the change is fine',
      before: [{ pointer: basePointer, message: `the ${first} in the base` }],
    });
  },
});
