import { defineRule } from '../src/rule.js';
import { quote } from '../src/util/text.js';

export default defineRule({
  id: 'title-mismatch',
  severity: 'note',
  category: 'core-hints',
  packs: ['core'],
  summary: 'The tool title and annotations.title should agree.',
  precision: 'very-high',
  why: `A tool can carry two display names: \`title\` on the tool (since spec 2025-06-18) and
the older \`annotations.title\`. The spec's precedence for display is \`title\`, then
\`annotations.title\`, then \`name\`. When the two differ, users of newer and older
clients see the same tool under different names, and the approval dialog one user
sees does not match the documentation another wrote. A reviewer who reads only one of
the two misses what the other says.`,
  notes: `Compared exactly, as clients display them: a difference in case or spacing counts.
Both must be strings (anything else is [schema-valid](schema-valid.md)'s). Reported at
\`annotations.title\` (the one the spec ranks lower), with the tool's \`title\` as the
related location. No mechanical fix: which text the author wants users to see is theirs
to choose; the suggestion is to make the two the same.`,
  examples: {
    incorrect: [
      {
        title: 'Two different titles',
        tools: [
          {
            name: 'create_pr',
            title: 'Open pull request',
            inputSchema: { type: 'object' },
            annotations: { title: 'Create PR', readOnlyHint: false, destructiveHint: false },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/title' }],
      },
    ],
    correct: [
      {
        title: 'The same title in both places',
        tools: [
          {
            name: 'create_pr',
            title: 'Open pull request',
            inputSchema: { type: 'object' },
            annotations: { title: 'Open pull request', readOnlyHint: false, destructiveHint: false },
          },
        ],
      },
      {
        title: 'Only one title',
        tools: [{ name: 'create_pr', title: 'Open pull request', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } }],
      },
    ],
  },
  check(ctx) {
    const title = ctx.tool.obj?.title;
    const annotated = ctx.tool.annotations?.title;
    if (typeof title !== 'string' || typeof annotated !== 'string' || title === annotated) return;
    const at = ctx.at('/annotations/title');
    const top = ctx.at('/title');
    ctx.report({
      pointer: at,
      message: `annotations.title is ${quote(annotated)} (${at}) but the tool's title is ${quote(title)} (${top}): clients that know Tool.title show ${quote(title)}, older ones show ${quote(annotated)}`,
      suggestion: `make annotations.title the same as title (${quote(title)}), or the other way round, so every client shows one name`,
      related: [{ pointer: top, message: "the tool's title, which clients show first" }],
    });
  },
});
