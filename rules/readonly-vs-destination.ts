import { defineRule } from '../src/rule.js';
import { readOnly, sideOf } from '../src/engine/queries.js';
import type { Destination } from '../src/engine/claims.js';

/** Destinations that store the inputs where someone can see them, most exposed first. */
const STORED: readonly Destination[] = ['public', 'internal', 'user'];

export default defineRule({
  id: 'readonly-vs-destination',
  severity: 'warning',
  category: 'consistency',
  packs: ['core', 'sep-1913', 'action-metadata'],
  summary: 'A read-only tool should not store or transmit its inputs.',
  precision: 'high',
  security: 6.0,
  why: `\`readOnlyHint: true\` tells a client the tool does not modify its environment, and
clients run such tools without asking. A destination of \`user\`, \`internal\` or
\`public\` says the tool may store its inputs where people can see them, or send them
on: that is a change to the environment, and for \`public\` a disclosure. If the
destination is right, the read-only hint lets a client pass private data to a tool
that keeps or publishes it without the user ever being asked.

The destination may come from SEP-1913 \`annotations.inputMetadata.destination\` or from
the action-metadata extension. In \`tools/list\` these are possible sets: the rule fires
when the set *includes* a storing destination.`,
  notes: `A warning, not an error: a reading reconciles the two in some cases (a search tool
that keeps the user's query history is arguably still "read-only" to many authors), so
the rule flags the doubt rather than calling it a contradiction.

\`system\` (stored by the platform, not visible to users or developers, such as
operational logs) does not fire: the catalogue limits the rule to destinations where
people can see the data, and logging a request does not change what the tool's
environment holds for its users. \`ephemeral\` is what a read-only tool should say.

One finding per claim (each vocabulary that says so: SEP-1913
\`annotations.inputMetadata.destination\` and the action-metadata extension's
\`inputMetadata.destination\` are reported separately, each at its own pointer), naming
the most exposed storing member (public, then internal, then user), with
\`readOnlyHint\` as the related location. No mechanical fix: either side may be the
wrong one.

**Unknown destinations are not guessed at.** The action-metadata extension's
classifiers are open strings: \`"external"\` may well mean \`public\`, but the pack maps
it to nothing and this rule does not fire on it
([unknown-classifier](unknown-classifier.md) notes the value). A set that holds an
unknown value *and* a storing one (\`["external", "user"]\`) fires on the storing one.

A baseline or a SARIF fingerprint keys the finding by the destination in conflict (its
\`detail\`, e.g. \`"internal"\`): an accepted \`"internal"\` does not cover \`"public"\` at the same
place later.`,
  examples: {
    incorrect: [
      {
        title: 'A "read-only" search that keeps every query in the user\'s history',
        tools: [
          {
            name: 'search_docs',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              openWorldHint: false,
              inputMetadata: { destination: ['ephemeral', 'user'], sensitivity: 'none', outcomes: 'benign' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/destination' }],
      },
      {
        title: 'A URL scanner whose submissions are public, per the action-metadata extension',
        explanation: 'Scanning a URL reads a verdict, but the extension says the submitted URL becomes publicly visible: a client must not send a private link without asking.',
        tools: [
          {
            name: 'scan_url',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: true },
            _meta: {
              'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'public', sensitivity: 'user' }, outcome: 'benign' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination' }],
      },
      {
        title: 'Both vocabularies: one finding each',
        doc: false,
        tools: [
          {
            name: 'search_docs',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, inputMetadata: { destination: 'user', sensitivity: 'none', outcomes: 'benign' } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: ['external', 'internal'] } } },
          },
        ],
        findings: [
          { pointer: '/tools/0/annotations/inputMetadata/destination' },
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination' },
        ],
      },
      {
        title: 'A single public destination',
        doc: false,
        tools: [
          {
            name: 'share_link',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'benign' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/destination' }],
      },
    ],
    correct: [
      {
        title: 'A read-only search that keeps nothing',
        tools: [
          {
            name: 'search_docs',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              openWorldHint: false,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
            },
          },
        ],
      },
      {
        title: 'A tool that stores its inputs and says it writes',
        tools: [
          {
            name: 'save_note',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              openWorldHint: false,
              inputMetadata: { destination: 'user', sensitivity: 'user', outcomes: 'consequential' },
            },
          },
        ],
      },
      {
        title: 'An action-metadata destination nobody can map',
        explanation:
          '`"external"` is an open classifier value with no known meaning. The rule does not read it as `public`; [unknown-classifier](unknown-classifier.md) notes it.',
        tools: [
          {
            name: 'lookup_address',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: true },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'external' }, outcome: 'benign' } },
          },
        ],
      },
      {
        title: 'Platform logs (system) do not count as storing',
        doc: false,
        tools: [
          {
            name: 'search_docs',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, inputMetadata: { destination: ['ephemeral', 'system'], sensitivity: 'none', outcomes: 'benign' } },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const ro = readOnly(ctx.claims);
    if (ro?.value !== true) return;
    for (const claim of ctx.claims.including('destinations', ...STORED)) {
      const member = STORED.find((d) => claim.value.includes(d))!;
      const exposure =
        member === 'public'
          ? 'send its inputs to a publicly accessible system'
          : member === 'internal'
            ? 'store its inputs where an internal audience can see them'
            : 'store its inputs where the user can see them';
      ctx.report({
        pointer: claim.pointer,
        // The member in conflict: "internal" accepted does not cover "public" later.
        detail: member,
        message: `${sideOf(ro)} but ${sideOf(claim, member)}: the tool may ${exposure}, which changes its environment`,
        suggestion: `set readOnlyHint to false if the tool keeps or sends its inputs; if it does not, drop ${JSON.stringify(member)} from the destination (a read-only tool's inputs are "ephemeral")`,
        related: [{ pointer: ro.pointer, message: 'readOnlyHint is true here' }],
      });
    }
  },
});
