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
  [schema-valid](schema-valid.md) as an error. SEP-1913's \`inputMetadata\` and
  \`returnMetadata\` are recognised by a member with SEP-1913's name *and* one of its
  values, or a near miss of one (\`"pubic"\`, \`"PII"\`): a name alone is no sign, and
  \`{"destination": "s3://exports", "format": "csv"}\` is a collision, not four schema errors.
- **Values that are the vocabulary's, only wrong, are not collisions.** A collision is
  for values that suggest the server uses the key for something of its own
  (RULES.md). Two kinds of wrong value suggest the opposite — nothing of a server's own
  looks like them — so they make the tool speak the vocabulary, and
  [schema-valid](schema-valid.md) reports them as errors, with a "did you mean" for a
  case variant and, for a list, which one value to keep:
  - a case variant of a member of an enum field: \`category: "Destroy"\`,
    \`_meta["mcp.dev/effect"]: "Delete"\`;
  - a list whose items are all members (compared case-insensitively) of a field that
    holds one value: \`category: ["read", "destroy"]\`,
    \`_meta["mcp.dev/effect"]: ["read", "delete"]\`;
  - a boolean written in quotes on a key whose values are booleans:
    \`sensitiveHint: "true"\`, \`maliciousActivityHint: "false"\` (any letter case). It is the
    vocabulary's flag written wrong, as \`readOnlyHint: "true"\` is the core hint's, and gets
    the same "write true without quotes"; it is never read (a client that expects a
    boolean ignores the string).
  - for WebMCP's \`sensitiveHint\`, a level of SEP-1913's first draft (\`"low"\`,
    \`"medium"\`, \`"high"\`) when the \`sep-1913\` pack is off, or when the tool speaks WebMCP
    in its output schema. With \`sep-1913\` on (and no WebMCP in the output schema),
    [draft-field](draft-field.md) reports the level instead.

  A value of the proposal's own \`_meta\` key (\`mcp.dev/effect\`) is the likeliest case:
  telling its author to "move it under \`_meta\` with a prefix of your own" when it
  already is the proposal's key would be wrong twice, and it would hide what the value
  says.
- **What the pack reads from such a value.** Reporting the schema error alone would
  hide a contradiction (\`readOnlyHint: true\` beside an effect of \`["read", "delete"]\`),
  so the pack reads what it safely can, and the other rules weigh it as usual:
  - a case variant is read as the member it names (\`"Destroy"\` is destroy), for every
    enum field of SEP-2793 and the \`_meta\` hints; the message quotes the value as
    written. A client that matches values exactly ignores \`"Destroy"\`, which the
    schema error says; one that matches them loosely reads a destroy, which is what
    [readonly-vs-category](readonly-vs-category.md) and the others then check.
  - a list of one distinct member (\`["high"]\`) is read as that member.
  - a list of several categories or effects is read as its furthest-reaching member
    (category: read < observe < utility < mutate < delete < destroy; effect: read <
    write < external < delete). In \`tools/list\` a list says what the tool *may* do, and
    every rule about an action asks whether the tool may write, delete or destroy, or
    whether it does nothing but read: the furthest-reaching member answers both
    without a false alarm (\`["read", "delete"]\` may delete, and is never "only reads").
    What is lost is only a weaker member's own signal (\`["external", "delete"]\` is read
    as delete, so the \`external\` sink is not seen until the list is fixed).
  - a list of several values of any other single-valued field (\`riskLevel: ["low",
    "high"]\`, \`approvalRecommendation\`, \`mcp.dev/resultSensitivity\`, …) is **not**
    read: those fields' rules pull both ways (a higher \`riskLevel\` silences
    [risk-level-floor](risk-level-floor.md), an approval of \`"single"\` silences the
    confirmation rules, \`"public"\` and \`"restricted"\` each silence a different
    sensitivity rule), so no single member is safe to assume. Only the schema error is
    reported, and while it stands the field counts as unreadable (no "only reads"
    suggestion rests on it).

  Anything else that does not fit — \`category: "files"\`, \`["files", "read"]\`, an empty
  list, a plain-string \`attribution\` — may be the server's own, and is a collision
  when nothing else on the tool speaks the vocabulary. A server whose own grouping
  happens to be spelled like a member (\`category: "Utility"\`) is read as SEP-2793's
  utility: a client implementing the proposal that matches values loosely reads it so
  too, and the schema error asks for the exact spelling (or, if the value is the
  server's own after all, another key).
- **Reserved prefixes, and the _meta hints proposal's own keys.** A \`_meta\` key under a
  prefix MCP reserves for itself (\`io.modelcontextprotocol/trust-annotations\`,
  \`io.modelcontextprotocol/action-metadata\`) can never be the server's own data, so a
  wrong value there — a misspelled member such as \`untrustd\` — is always a schema error,
  never a collision. The same holds for the four keys the \`_meta\` hints proposal names under
  its own prefix (\`mcp.dev/effect\`, \`mcp.dev/idempotent\`, \`mcp.dev/requiresConfirmation\`,
  \`mcp.dev/resultSensitivity\`): they are not common words a server used first, but that
  proposal's names, so \`"mcp.dev/effect": "destroy"\` or \`"mcp.dev/requiresConfirmation":
  "yes"\` is a [schema-valid](schema-valid.md) error with a "did you mean", not advice to move
  the key. SEP-2793's category words written as an effect are read as the effect that covers
  them, as SEP-2793 maps them (\`"destroy"\` as delete, \`"mutate"\` as write, \`"observe"\` as
  read); other words (\`"update"\`) and booleans written as strings (\`"yes"\`) get a "did you
  mean" only and are not read: a client that expects a boolean ignores \`"yes"\`. A server's
  own keys under \`mcp.dev/\` are other keys, which [meta-key-format](meta-key-format.md) notes.
- One finding per colliding key, at its value, with the pack's own description of what
  the vocabulary expects there.`,
  examples: {
    incorrect: [
      {
        title: "A category of the server's own, even in a list with a SEP-2793 value",
        doc: false,
        tools: [
          { name: 'list_tables', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, category: ['database', 'read'] } },
          { name: 'list_views', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, category: [] } },
        ],
        findings: [{ pointer: '/tools/0/annotations/category' }, { pointer: '/tools/1/annotations/category' }],
      },
      {
        title: "A plain-string attribution of the server's own",
        tools: [{ name: 'search_docs', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, attribution: 'Acme Corp' } }],
        findings: [{ pointer: '/tools/0/annotations/attribution' }],
        explanation: 'SEP-1913 defines `attribution` as an array of source URIs; nothing else on this tool speaks SEP-1913.',
      },
      {
        title: "An inputMetadata of the server's own, though one member has SEP-1913's name",
        tools: [
          { name: 'export_rows', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: 's3://exports', format: 'csv' } } },
          { name: 'read_rows', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'database', sensitivity: 'high' } } },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata' }, { pointer: '/tools/1/annotations/returnMetadata' }],
        explanation:
          'A member name alone does not make a tool speak SEP-1913: its value must be one of SEP-1913\'s, or a near miss of one ("pubic", "PII"). `"s3://exports"`, `"database"` and `"high"` are none, so these are the server\'s own objects.',
      },
    ],
    correct: [
      {
        title: "A wrong value of the _meta hints proposal's own key is the proposal's (schema-valid reports it; a SEP-2793 category word is read)",
        explanation:
          '`"destroy"` is SEP-2793\'s category word, not an effect: [schema-valid](schema-valid.md) asks for `"delete"`, and the pack reads it so, so [readonly-vs-category](readonly-vs-category.md) reports the contradiction with `readOnlyHint: true`. `"yes"` is a boolean written as a string: schema-valid asks for `true`.',
        tools: [
          {
            name: 'purge_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'mcp.dev/effect': 'destroy', 'mcp.dev/requiresConfirmation': 'yes' },
          },
        ],
      },
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
        title: 'A boolean in quotes on a proposal’s hint is that proposal’s value written wrong (schema-valid reports it)',
        doc: false,
        tools: [
          { name: 'get_key', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, sensitiveHint: 'true' } },
          { name: 'scan_url', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, maliciousActivityHint: 'False' } },
        ],
      },
      {
        title: 'A case variant of the proposal’s own value is not the server’s data (schema-valid reports it, and readonly-vs-category reads it)',
        explanation:
          '`"Delete"` is the `_meta` hints proposal\'s `delete` in the wrong case: [schema-valid](schema-valid.md) reports it with "did you mean \\"delete\\"?", and the pack reads it as delete, so [readonly-vs-category](readonly-vs-category.md) reports the contradiction with `readOnlyHint: true`.',
        tools: [
          {
            name: 'purge_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'mcp.dev/effect': 'Delete' },
          },
        ],
      },
      {
        title: 'A list of categories is SEP-2793’s, not the server’s (schema-valid reports it)',
        tools: [
          {
            name: 'sync_folder',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false, category: ['read', 'destroy'], approvalRecommendation: 'single' },
          },
        ],
      },
      {
        title: 'A list of effects on the proposal’s own key',
        doc: false,
        tools: [
          {
            name: 'sync_folder',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'mcp.dev/effect': ['read', 'delete'] },
          },
        ],
      },
      {
        title: 'A case-variant category',
        doc: false,
        tools: [{ name: 'drop_table', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, category: 'Destroy' } }],
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
