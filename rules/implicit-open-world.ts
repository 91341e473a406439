import { defineRule } from '../src/rule.js';
import { sideOf } from '../src/engine/queries.js';
import { hasOwn } from '../src/util/json.js';

export default defineRule({
  id: 'implicit-open-world',
  severity: 'note',
  category: 'core-hints',
  packs: ['core', 'sep-1913', 'action-metadata', 'trust-annotations', 'meta-hints'],
  summary: 'A tool should say whether it reaches an open world of external entities.',
  precision: 'very-high',
  why: `\`openWorldHint\` defaults to **true**: a tool that does not set it may, as far as
clients know, talk to the web or other systems outside anyone's control, and what it
returns may carry untrusted content (prompt injection). Clients that track untrusted
data through a session (SEP-1913) mark everything after such a call as tainted. A tool
whose world is closed (its own database, a memory store, local files) should say
\`openWorldHint: false\`; a tool that does reach out should say \`true\` so the
choice is visibly deliberate.`,
  notes: `A note, not a warning: the default is the cautious reading, so an absent hint costs
friction, not safety. Fires when the tool has no \`annotations\` or \`annotations\`
without an \`openWorldHint\` key; a hint of the wrong type is
[schema-valid](schema-valid.md)'s. Reported at \`annotations\` when it exists, else at
the tool.

The rule fires whatever the other vocabularies say; they only shape the suggestion.
When one of them says the tool reaches outside a closed domain, the suggestion is
\`openWorldHint: true\`, quoting it:
- a destination including \`public\` (SEP-1913 \`inputMetadata.destination\` or the
  action-metadata extension's);
- a return source including \`untrustedPublic\` (either vocabulary);
- trust-annotations \`untrusted: true\` (the results are untrusted content);
- \`mcp.dev/effect: "external"\` (the tool's primary effect is on an external system).

Otherwise the author chooses. Only known values count: the action-metadata
extension's classifiers are open strings, and a destination of \`"external"\` or a
source of \`"third-party"\` may well mean an open world, but the pack maps them to
nothing and this rule does not guess ([unknown-classifier](unknown-classifier.md)
notes them). \`trustedPublic\` does not count either: curated public data is not what
the hint warns about. No mechanical fix (the key is absent).

The finding is shown at \`annotations\` (or at the tool, when it has none), but a baseline or a
SARIF fingerprint keys it by the missing member, \`/annotations/openWorldHint\`: adding an unrelated
annotation such as a \`title\` does not make it a new finding.`,
  examples: {
    incorrect: [
      {
        title: 'A memory tool that leaves the world open by default',
        tools: [
          {
            name: 'recall_memory',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'A web fetcher whose SEP-1913 metadata says its results are untrusted',
        doc: false,
        tools: [
          {
            name: 'fetch_page',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'A fetcher whose trust annotations mark its results untrusted',
        explanation: 'The trust-annotations extension already says what the hint should: the suggestion is `openWorldHint: true`, quoting it.',
        tools: [
          {
            name: 'fetch_url',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { untrusted: true } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'No annotations at all',
        doc: false,
        tools: [{ name: 'recall_memory', inputSchema: { type: 'object' } }],
        findings: [{ pointer: '/tools/0' }],
      },
      {
        title: 'The _meta effect hint says external',
        doc: false,
        tools: [{ name: 'send_webhook', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false }, _meta: { 'mcp.dev/effect': 'external' } }],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'An action-metadata public destination',
        doc: false,
        tools: [
          {
            name: 'publish_post',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'public' }, outcome: 'irreversible' } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'An unknown destination ("external") still fires, with the neutral suggestion',
        doc: false,
        tools: [
          {
            name: 'forward_message',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'external' } } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
    ],
    correct: [
      {
        title: 'A closed-world memory tool',
        tools: [{ name: 'recall_memory', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }],
      },
      {
        title: 'A web search tool that says its world is open',
        tools: [{ name: 'web_search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: true } }],
      },
    ],
  },
  check(ctx) {
    const obj = ctx.tool.obj;
    if (!obj) return;
    const hasAnnotations = hasOwn(obj, 'annotations');
    const a = ctx.tool.annotations;
    if (hasAnnotations && !a) return;
    if (a && hasOwn(a, 'openWorldHint')) return;

    const pointer = hasAnnotations ? ctx.at('/annotations') : ctx.tool.pointer;
    // Keyed by the member that is missing, wherever the finding is shown: adding an unrelated
    // annotation (a title) does not make it a new finding.
    const keyPointer = ctx.at('/annotations/openWorldHint');
    const what = hasAnnotations ? 'annotations has no openWorldHint' : 'the tool has no annotations, hence no openWorldHint';
    const open = [
      ...ctx.claims.including('destinations', 'public').map((c) => sideOf(c, 'public')),
      ...ctx.claims.including('sources', 'untrustedPublic').map((c) => sideOf(c, 'untrustedPublic')),
      ...ctx.claims.where('untrusted', true).map((c) => sideOf(c)),
      ...ctx.claims.where('action', 'external').map((c) => sideOf(c)),
    ];
    ctx.report({
      pointer,
      keyPointer,
      message: `${what}: clients must assume the tool may interact with external entities and return untrusted content (openWorldHint defaults to true)`,
      suggestion:
        open.length > 0
          ? `add "openWorldHint": true to say so explicitly (${open[0]} agrees)`
          : 'add "openWorldHint": false if the tool only works within a closed domain (its own database, a memory store, local files), or "openWorldHint": true if it reaches the web or other external systems',
    });
  },
});
