import { defineRule } from '../src/rule.js';
import { destructive, readOnly, sideOf } from '../src/engine/queries.js';

export default defineRule({
  id: 'readonly-destructive',
  severity: 'error',
  category: 'core-hints',
  packs: ['core'],
  summary: 'A tool cannot be both read-only and destructive.',
  precision: 'very-high',
  security: 7.0,
  why: `\`readOnlyHint: true\` says the tool does not modify its environment;
\`destructiveHint: true\` says it may perform destructive updates to it. Both cannot be
true. The spec resolves the clash silently: \`destructiveHint\` is only read when
\`readOnlyHint\` is false, so clients treat the tool as read-only and may call it without
asking. If the server meant "destructive", that is exactly the call a user needed to
approve.`,
  notes: `Reported at \`destructiveHint\`, with \`readOnlyHint\` as the related location.

There is no mechanical fix: either side may be the wrong one, so the suggestion names
both (drop or clear \`destructiveHint\` if the tool only reads; set \`readOnlyHint\` to
false if it can delete or overwrite).

This is an error, although the spec tells clients to ignore \`destructiveHint\` on a
read-only tool, because the two hints state opposite things about the same tool and
no reading makes both true. \`destructiveHint: false\` (or \`idempotentHint\`) beside
\`readOnlyHint: true\` is redundant but harmless: that is
[ignored-hint](ignored-hint.md)'s note, not this error.

Only the two core hints are compared. A read-only tool whose SEP-2793 \`category\` is
delete or destroy, or whose \`mcp.dev/effect\` is delete, contradicts itself too, but
across vocabularies: that is [readonly-vs-category](readonly-vs-category.md)'s error,
and [readonly-vs-outcome](readonly-vs-outcome.md)'s for irreversible outcomes.`,
  examples: {
    incorrect: [
      {
        title: 'A cleanup tool marked both read-only and destructive',
        tools: [
          {
            name: 'purge_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, destructiveHint: true, openWorldHint: false },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/destructiveHint' }],
      },
    ],
    correct: [
      {
        title: 'A read-only tool',
        tools: [{ name: 'list_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }],
      },
      {
        title: 'A destructive tool that says it writes',
        tools: [
          {
            name: 'purge_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
          },
        ],
      },
      {
        title: 'Other vocabularies that say "destructive" are other rules’ business',
        doc: false,
        tools: [
          {
            name: 'purge_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, category: 'destroy', reversibility: 'none' },
            _meta: { 'mcp.dev/effect': 'delete' },
          },
        ],
      },
      {
        title: 'destructiveHint false on a read-only tool is only redundant',
        doc: false,
        tools: [{ name: 'list_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: false } }],
      },
    ],
  },
  check(ctx) {
    const ro = readOnly(ctx.claims);
    const d = destructive(ctx.claims);
    if (ro?.value !== true || d?.value !== true) return;
    ctx.report({
      pointer: d.pointer,
      message: `${sideOf(d)} but ${sideOf(ro)}: a tool cannot both leave its environment unchanged and perform destructive updates to it; clients go by readOnlyHint and treat the tool as read-only`,
      suggestion: 'if the tool only reads, remove destructiveHint (or set it to false); if it can delete or overwrite data, set readOnlyHint to false',
      related: [{ pointer: ro.pointer, message: 'readOnlyHint is true here' }],
    });
  },
});
