import { defineRule } from '../src/rule.js';

export default defineRule({
  id: 'vocabulary-key-collision',
  severity: 'warning',
  category: 'structure',
  packs: ['sep-1913', 'action-metadata', 'trust-annotations', 'risk-metadata', 'webmcp-sensitive', 'meta-hints'],
  summary: "A key that a proposed vocabulary defines holds the server's own data.",
  precision: 'high',
  why: `Proposal vocabularies add keys to \`annotations\` and \`_meta\`: \`attribution\`,
\`category\`, \`riskLevel\`, \`sensitiveHint\`. Servers used some of these names for their own
purposes long before the proposals existed — a plain-string \`attribution: "Acme Corp"\`,
a \`category: "files"\`. A client that implements the proposal reads the server's data as
the proposal's: an attribution that is not a list of sources, a category that maps to no
action. Moving the server's own field under \`_meta\` with a prefix it owns ends the
ambiguity for good.`,
  notes: `- **Why a warning and not an error.** The proposals are drafts, not the MCP spec, and
  the server broke no rule: the name was free when it chose it. What is wrong is that
  clients which implement the draft will misread the field — a gap the client pays for,
  which is what warnings are for (RULES.md, "Severity principles").
- **When it fires.** A pack reports a collision when a tool has a key of its vocabulary
  whose value does not have the vocabulary's shape *and* the tool does not otherwise speak
  that vocabulary (no other key of it with a recognisable value, and for WebMCP no
  \`"x-sensitive"\` property or \`secret_reference\` result in its output schema). When the
  tool does speak it, a wrong value is an ordinary schema error, reported by
  [schema-valid](schema-valid.md) as an error.
- **Reserved prefixes.** A \`_meta\` key under a prefix MCP reserves for itself
  (\`io.modelcontextprotocol/trust-annotations\`, \`io.modelcontextprotocol/action-metadata\`)
  can never be the server's own data, so a wrong value there — a misspelled member such as
  \`untrustd\` — is always a schema error, never a collision.
- One finding per colliding key, at its value, with the pack's own description of what
  the vocabulary expects there.`,
  examples: {
    incorrect: [
      {
        title: "A plain-string attribution of the server's own",
        tools: [{ name: 'search_docs', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, attribution: 'Acme Corp' } }],
        findings: [{ pointer: '/tools/0/annotations/attribution' }],
        explanation: 'SEP-1913 defines `attribution` as an array of source URIs; nothing else on this tool speaks SEP-1913.',
      },
    ],
    correct: [
      {
        title: "A key under MCP's reserved _meta prefix is never the server's own (a typo in it is schema-valid's error)",
        doc: false,
        tools: [
          {
            name: 'fetch',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { untrustd: true }, 'io.modelcontextprotocol/action-metadata': { requiresreview: true } },
          },
        ],
      },
      {
        title: 'A quoted sensitiveHint on a tool whose output schema speaks WebMCP is a schema error',
        doc: false,
        tools: [
          {
            name: 'generate_api_key',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } },
            annotations: { readOnlyHint: false, sensitiveHint: 'true' },
          },
        ],
      },
      {
        title: "The server's field under _meta, and SEP-1913's attribution as the SEP defines it",
        tools: [
          {
            name: 'search_docs',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, attribution: ['https://docs.example.com/'] },
            _meta: { 'com.example/attribution': 'Acme Corp' },
          },
        ],
      },
    ],
  },
  check(ctx) {
    for (const p of ctx.problems) {
      if (p.kind !== 'collision') continue;
      ctx.report({
        pointer: p.pointer,
        message: p.message,
        suggestion: p.suggestion ?? "if this is the server's own data, move it under _meta with a prefix the server owns",
      });
    }
  },
});
