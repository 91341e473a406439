import { defineRule } from '../src/rule.js';
import { joinWords } from '../src/util/text.js';
import type { Claim } from '../src/engine/claims.js';
import { openWorld, sideOf } from '../src/engine/queries.js';

export default defineRule({
  id: 'untrusted-source-open-world',
  severity: 'warning',
  category: 'consistency',
  packs: ['core', 'sep-1913', 'action-metadata', 'trust-annotations'],
  summary: 'A tool that may return untrusted content must not claim a closed world.',
  precision: 'high',
  security: 7.0,
  why: `SEP-1913 gives \`openWorldHint\` a trust meaning: a tool that may return data from
untrusted sources must say \`openWorldHint: true\`, and clients carry that flag through
the session so that later calls (sending an email, pushing code) know the context may
hold injected instructions. The SEP's examples of untrusted sources that require
\`openWorldHint: true\`:

- web page content (potential invisible prompt injection);
- email bodies (user-controlled content);
- GitHub issues, PR descriptions, comments (attacker-controlled);
- user-generated content from any platform;
- search results from Bing, Google, or other web searches;
- database query results with user-supplied data.

A tool whose return source includes \`untrustedPublic\`, or whose results are marked
\`untrusted\` (trust-annotations), while saying \`openWorldHint: false\` tells the client
its output is safe to mix with private data and tools that act on it: the prompt
injection path the SEP exists to close.`,
  notes: `Only an explicit \`openWorldHint: false\` fires; the default (true) is what the SEP
asks for. The untrusted side is SEP-1913 \`returnMetadata.source\` (or
action-metadata's) including \`untrustedPublic\`, or a trust-annotations
\`untrusted: true\`. \`trustedPublic\` does not fire: the SEP describes it as curated or verified.
Reported once per tool at \`openWorldHint\`, with every untrusted claim as a related
location.

The mechanical fix sets \`openWorldHint\` to true, the value the SEP requires for such
sources. A warning rather than an error because the SEP is a proposal and the core
spec's own definition of \`openWorldHint\` is about the tool's reach, not its data.

The trust-annotations extension is mostly seen on results; on a tool definition,
\`untrusted: true\` says what the tool's results may be, and counts the same as an
\`untrustedPublic\` source. \`untrusted: false\` does not fire, nor does it silence a
source that includes \`untrustedPublic\`.

**Unknown sources are not guessed at.** The action-metadata extension's classifiers are
open strings: \`"third-party"\` may or may not be untrusted, and the pack maps it to
nothing; this rule fires only on a known \`untrustedPublic\`
([unknown-classifier](unknown-classifier.md) notes the value).`,
  examples: {
    incorrect: [
      {
        title: 'An issue reader that returns attacker-controlled text but claims a closed world',
        tools: [
          {
            name: 'read_issue_comments',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              openWorldHint: false,
              returnMetadata: { source: ['internal', 'untrustedPublic'], sensitivity: 'none' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/openWorldHint' }],
      },
      {
        title: 'An inbox reader whose trust annotations mark its results untrusted',
        explanation: 'Email bodies are attacker-controlled; the trust-annotations extension says so, and the closed-world hint contradicts it.',
        tools: [
          {
            name: 'read_inbox',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { untrusted: true, sensitive: true } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/openWorldHint' }],
      },
      {
        title: 'An action-metadata source of untrustedPublic',
        doc: false,
        tools: [
          {
            name: 'search_web',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: ['untrustedPublic', 'third-party'] } } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/openWorldHint' }],
      },
      {
        title: 'untrusted false does not silence an untrustedPublic source',
        doc: false,
        tools: [
          {
            name: 'read_issue_comments',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' } },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { untrusted: false } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/openWorldHint' }],
      },
    ],
    correct: [
      {
        title: 'The same tool with openWorldHint true',
        tools: [
          {
            name: 'read_issue_comments',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              openWorldHint: true,
              returnMetadata: { source: ['internal', 'untrustedPublic'], sensitivity: 'none' },
            },
          },
        ],
      },
      {
        title: 'A closed-world tool that returns curated public data',
        tools: [
          {
            name: 'get_exchange_rate',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              openWorldHint: false,
              returnMetadata: { source: 'trustedPublic', sensitivity: 'none' },
            },
          },
        ],
      },
      {
        title: 'An action-metadata source nobody can map',
        explanation:
          '`"third-party"` is an open classifier value: it may or may not be untrusted, and the rule does not guess. [unknown-classifier](unknown-classifier.md) notes it; if the content is unverified, say `"untrustedPublic"`.',
        tools: [
          {
            name: 'get_partner_feed',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: 'third-party', sensitivity: 'none' } } },
          },
        ],
      },
      {
        title: 'Trust annotations that say the results are trusted',
        doc: false,
        tools: [
          {
            name: 'get_exchange_rate',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { untrusted: false } },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const ow = openWorld(ctx.claims);
    if (ow?.value !== false) return;
    const sides: { claim: Claim; member?: string }[] = [
      ...ctx.claims.including('sources', 'untrustedPublic').map((claim) => ({ claim, member: 'untrustedPublic' })),
      ...ctx.claims.where('untrusted', true).map((claim) => ({ claim })),
    ];
    if (sides.length === 0) return;
    const named = sides.map((s) => sideOf(s.claim, s.member));
    const joined = joinWords(named);
    ctx.report({
      pointer: ow.pointer,
      message: `${sideOf(ow)} but ${joined}: SEP-1913 requires openWorldHint true for tools that may return untrusted content (web pages, email bodies, issues and comments, user-generated content, web search results, database rows with user-supplied data)`,
      suggestion: `set openWorldHint to true so clients treat what the tool returns as untrusted, or, if the tool never returns such content, ${joinWords([
        ...(sides.some((x) => x.member) ? ['drop "untrustedPublic" from the source'] : []),
        ...(sides.some((x) => !x.member) ? ['set untrusted to false'] : []),
      ])}`,
      fix: { description: 'Set openWorldHint to true', replacements: [{ pointer: ow.pointer, text: 'true' }] },
      related: sides.map((s) => ({
        pointer: s.claim.pointer,
        message: s.member ? `${s.claim.field} includes ${JSON.stringify(s.member)} here` : `${s.claim.field} is true here`,
      })),
    });
  },
});

