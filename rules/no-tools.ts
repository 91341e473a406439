import { defineRule } from '../src/rule.js';
import { quote } from '../src/util/text.js';

export default defineRule({
  id: 'no-tools',
  severity: 'note',
  category: 'structure',
  packs: ['core'],
  summary: 'A server whose tools list is empty was not checked at all.',
  precision: 'very-high',
  why: `A lint run that finds nothing should mean the tools are fine, not that there were
none to look at. An empty \`tools\` array usually means the dump was taken before the
server finished starting, without the credentials or flags that enable its tools, or
from the wrong server; the run passes, and nothing was checked. This note makes that
visible without failing the build.`,
  notes: `- One note per server, at its \`tools\` array (the first page's, for a paginated listing).
- A server of a session transcript that no \`tools/list\` response declared is not an empty
  list: it gets no note (the session rules say when a call's tool was never declared).
- A note never fails a build at the default \`--fail-on\`; raise the rule to \`error\` in a
  configuration that lints servers which must expose tools.`,
  examples: {
    incorrect: [
      {
        title: 'An empty tools/list result',
        tools: [],
        findings: [{ pointer: '/tools' }],
      },
    ],
    correct: [
      {
        title: 'A server with one tool',
        tools: [{ name: 'list_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
      },
    ],
  },
  checkServer(ctx) {
    // A server of a session transcript without a tools/list: nothing was listed, not an empty list.
    if (ctx.tools.length > 0 || ctx.unlisted) return;
    ctx.report({
      pointer: ctx.toolsPointer,
      message: `server ${quote(ctx.server.name)} lists no tools, so there was nothing to lint`,
      suggestion:
        'if the server should have tools, take the dump after it has started, with the configuration (credentials, feature flags) that enables them; otherwise leave the server out of the run',
    });
  },
});
