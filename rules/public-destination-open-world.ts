import { defineRule } from '../src/rule.js';
import { joinWords } from '../src/util/text.js';
import { openWorld, sideOf } from '../src/engine/queries.js';

export default defineRule({
  id: 'public-destination-open-world',
  severity: 'warning',
  category: 'consistency',
  packs: ['core', 'sep-1913', 'action-metadata'],
  summary: 'A tool that may send inputs to a public destination reaches an open world.',
  precision: 'high',
  security: 6.0,
  why: `\`openWorldHint: false\` says the tool's "domain of interaction is closed", like a
memory store. A destination of \`public\` says inputs "may be transmitted to or stored in
publicly accessible systems": posting, emailing, publishing. That is the open world by
definition. Clients use \`openWorldHint\` to decide which tools deserve review before
data leaves the user's control (the SEP-1913 exfiltration case: "email the salary
spreadsheet to my accountant"); a tool that publishes while claiming a closed world
slips past that review.`,
  notes: `Only an explicit \`openWorldHint: false\` fires: the default (true) already agrees
with a public destination. Reported once per tool at \`openWorldHint\` (the one value a
client reads), with every claim of a public destination (SEP-1913
\`inputMetadata.destination\`, action-metadata) as related locations.

The mechanical fix sets \`openWorldHint\` to true: it is the cautious value and the
spec's default, and a public destination cannot be closed-world. If the destination is
the mistake, drop \`"public"\` instead (from every vocabulary that says it) and leave
the hint.

**Unknown destinations are not guessed at.** The action-metadata extension's
classifiers are open strings: \`"external"\` may well mean \`public\`, but the pack maps
it to nothing, and this rule fires only on a known \`public\`
([unknown-classifier](unknown-classifier.md) notes the value). Destinations of
\`internal\`, \`user\` or \`system\` are not public and do not fire.`,
  examples: {
    incorrect: [
      {
        title: 'A posting tool that claims a closed world',
        tools: [
          {
            name: 'post_to_slack',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              openWorldHint: false,
              inputMetadata: { destination: ['internal', 'public'], sensitivity: 'user', outcomes: 'irreversible' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/openWorldHint' }],
      },
      {
        title: 'SEP-1913 and the action-metadata extension both say public',
        explanation: 'One finding, at the hint a client reads; both destinations are named in the message and listed as related locations.',
        tools: [
          {
            name: 'publish_release_notes',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              openWorldHint: false,
              inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'irreversible' },
            },
            _meta: {
              'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'public', sensitivity: 'none' }, outcome: 'irreversible' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/openWorldHint' }],
      },
      {
        title: 'Only the action-metadata extension says public',
        doc: false,
        tools: [
          {
            name: 'tweet',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: ['external', 'public'] } } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/openWorldHint' }],
      },
    ],
    correct: [
      {
        title: 'A posting tool that says its world is open',
        tools: [
          {
            name: 'post_to_slack',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              openWorldHint: true,
              inputMetadata: { destination: ['internal', 'public'], sensitivity: 'user', outcomes: 'irreversible' },
            },
          },
        ],
      },
      {
        title: 'A closed-world tool that keeps inputs internal',
        tools: [
          {
            name: 'save_ticket',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              openWorldHint: false,
              inputMetadata: { destination: 'internal', sensitivity: 'user', outcomes: 'consequential' },
            },
          },
        ],
      },
      {
        title: 'An action-metadata destination nobody can map',
        explanation:
          '`"external"` is an open classifier value with no known meaning: the rule does not read it as `public`. [unknown-classifier](unknown-classifier.md) notes it; if it does mean public, say `"public"`.',
        tools: [
          {
            name: 'forward_to_partner',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'external' }, outcome: 'consequential' } },
          },
        ],
      },
      {
        title: 'openWorldHint absent (defaults to true)',
        doc: false,
        tools: [
          {
            name: 'post_to_slack',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' } },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const ow = openWorld(ctx.claims);
    if (ow?.value !== false) return;
    const publics = ctx.claims.including('destinations', 'public');
    if (publics.length === 0) return;
    const sides = publics.map((c) => sideOf(c, 'public'));
    ctx.report({
      pointer: ow.pointer,
      message: `${sideOf(ow)} but ${joinWords(sides)}: a tool that may send its inputs to publicly accessible systems does not have a closed world`,
      suggestion: `set openWorldHint to true, or drop "public" from ${publics.length > 1 ? 'every destination that lists it' : 'the destination'} if the tool never sends data outside`,
      fix: { description: 'Set openWorldHint to true', replacements: [{ pointer: ow.pointer, text: 'true' }] },
      related: publics.map((c) => ({ pointer: c.pointer, message: `${c.field} includes "public" here` })),
    });
  },
});

