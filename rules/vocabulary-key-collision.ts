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
  that vocabulary (no other key of it with a recognisable value). When the tool does speak
  it, a wrong value is an ordinary schema error, reported by
  [schema-valid](schema-valid.md) as an error.
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
