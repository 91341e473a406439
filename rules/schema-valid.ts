import { defineRule } from '../src/rule.js';
import { olderSpecProblems } from '../src/packs/core.js';

export default defineRule({
  id: 'schema-valid',
  severity: 'error',
  category: 'structure',
  packs: ['core', 'sep-1913', 'action-metadata', 'trust-annotations', 'risk-metadata', 'webmcp-sensitive', 'meta-hints'],
  summary: 'A tool or its annotations must match the JSON Schema of every vocabulary they use.',
  precision: 'very-high',
  security: 5.0,
  why: `Clients parse annotations with the same schemas. A hint of the wrong type
(\`"readOnlyHint": "true"\`), an unknown enum value (\`"destination": "externl"\`), or an
\`inputMetadata\` without its required \`outcomes\` is either rejected or silently
ignored, and the tool falls back to the most permissive defaults.

The core schema is the official MCP \`schema.json\` of the spec version in use
(\`--spec\`, the version a snapshot recorded, or the latest); each proposal vocabulary
is checked against its own schema. Each problem is reported once, at the offending
value, in words rather than as a raw validator dump.

A value that may take several forms (a string or a list of strings; a data class name or a
\`{"regulated": …}\` object) is judged by the form of its own JSON type: an object that is
not a valid regulated class hears what its members lack, not that it is none of the class
names, and an empty string hears "must not be empty", not "must be an array". The string
\`"regulated"\` (in any case, alone or in a list) hears that the regulated class is written
as an object, \`{"regulated": {"scopes": ["GDPR"]}}\`.`,
  notes: `The tools/list result around the tools (\`nextCursor\`, \`_meta\`, and the
cache fields 2026-07-28 requires) is only held to a spec version when the input says
which version produced it (a snapshot's \`protocolVersion\`) or \`--spec\` asks for one:
most dumps do not say, and most servers speak an older version.

**A dump that records no version** (no \`protocolVersion\`, or one that is not a date, and
no \`--spec\`) is linted against the latest version — but its tools are also checked
against the core Tool schema of the version before the latest (2025-11-25 today), the one
clients speak: whatever that version rejects and the latest does not (an \`outputSchema\`
whose \`type\` is not \`"object"\`, an unknown \`execution.taskSupport\`) is a **warning**
that names the older version, since such clients reject the whole tools/list. A problem the
latest already reports is not reported twice, and the envelope is not checked this way.
Recording the \`protocolVersion\` (a snapshot) or passing \`--spec\` lints against that
version alone.

A key that a *proposal* defines but that holds a value of the server's own (for
example a plain-string \`attribution\`) is reported by
[vocabulary-key-collision](vocabulary-key-collision.md) as a warning instead, unless
the tool otherwise speaks that vocabulary. A value that is the proposal's own but
wrong — a case variant of an enum member (\`"Delete"\`), or a list of members where the
field holds one value (\`["read", "destroy"]\`) — is no one else's data, so it is an error
here, with a "did you mean"; the pack still reads what it safely can (see
[vocabulary-key-collision](vocabulary-key-collision.md)). \`inputSchema\` problems at the root are
[input-schema-object](input-schema-object.md)'s.

**A member that is not allowed** is suggested the known member it is close to, else its
removal; in \`annotations\` the suggestion adds "or move it under _meta", but not for an
object already inside \`_meta\` (an extension's object takes only its own members).`,
  examples: {
    incorrect: [
      {
        title: 'Proposal values in the wrong case, or listed where the field holds one value, are errors, not collisions',
        doc: false,
        tools: [
          { name: 'purge_cache', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false }, _meta: { 'mcp.dev/effect': 'Delete' } },
          { name: 'prune', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, category: ['read', 'destroy'] } },
          { name: 'scan', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, riskLevel: ['low', 'High'] } },
        ],
        findings: [
          { pointer: '/tools/0/_meta/mcp.dev~1effect' },
          { pointer: '/tools/1/annotations/category' },
          { pointer: '/tools/2/annotations/riskLevel' },
        ],
      },
      {
        title: 'A hint written as a string',
        tools: [{ name: 'list_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'true' } }],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
      {
        title: 'A misspelled SEP-1913 destination and a missing member',
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: ['user', 'pubic'], sensitivity: 'pii' } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata' }, { pointer: '/tools/0/annotations/inputMetadata/destination/1' }],
      },
      {
        title: 'A data class object with a stray member, and an empty outcome string',
        tools: [
          {
            name: 'store_record',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, inputMetadata: { destination: 'internal', sensitivity: { regulated: { scopes: ['GDPR'] }, region: 'EU' }, outcomes: 'consequential' } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: '' } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/sensitivity/region' }, { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/outcome' }],
      },
      {
        title: 'A misspelled member of a vocabulary under MCP\'s reserved _meta prefix, even with no valid sibling',
        doc: false,
        tools: [
          {
            name: 'fetch',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { untrustd: true } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1trust-annotations/untrustd' }],
      },
      {
        title: "A wrong value on the _meta hints proposal's own keys, even with no valid sibling",
        doc: false,
        tools: [
          {
            name: 'purge_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
            _meta: { 'mcp.dev/effect': 'update', 'mcp.dev/requiresConfirmation': 'yes' },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1effect' }, { pointer: '/tools/0/_meta/mcp.dev~1requiresConfirmation' }],
      },
      {
        title: 'A quoted WebMCP sensitiveHint on a tool whose output schema speaks WebMCP',
        doc: false,
        tools: [
          {
            name: 'generate_api_key',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, sensitiveHint: 'true' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/sensitiveHint' }],
      },
      {
        title: 'A dump that records no version: what clients of the version before the latest reject, as warnings',
        tools: [
          {
            name: 'list_rows',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'array', items: { type: 'string' } },
            execution: { taskSupport: 'always' },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
        ],
        findings: [
          { pointer: '/tools/0/outputSchema/type', severity: 'warning' },
          { pointer: '/tools/0/execution/taskSupport', severity: 'warning' },
        ],
        explanation:
          'Without a recorded protocolVersion or --spec the tool is linted against the latest version, 2026-07-28, whose Tool takes any outputSchema. Clients of 2025-11-25 (the MCP SDKs today) require an object-typed outputSchema and a known taskSupport, and reject the whole tools/list.',
      },
      {
        title: 'A snapshot recorded from a 2026-07-28 server, without the cache fields that version requires',
        document: {
          protocolVersion: '2026-07-28',
          serverInfo: { name: 'files', version: '1.0.0' },
          tools: [{ name: 'list_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
        },
        findings: [{ pointer: '' }, { pointer: '' }, { pointer: '' }],
      },
    ],
    correct: [
      {
        title: 'The same tool in a snapshot that records 2026-07-28: its clients accept it',
        doc: false,
        document: {
          protocolVersion: '2026-07-28',
          serverInfo: { name: 'rows', version: '1.0.0' },
          resultType: 'complete',
          cacheScope: 'private',
          ttlMs: 0,
          tools: [
            {
              name: 'list_rows',
              inputSchema: { type: 'object' },
              outputSchema: { type: 'array', items: { type: 'string' } },
              execution: { taskSupport: 'always' },
              annotations: { readOnlyHint: true, openWorldHint: false },
            },
          ],
        },
      },
      {
        title: 'Core hints and SEP-1913 metadata of the right shape',
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object', properties: { to: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'public', sensitivity: ['pii', 'user'], outcomes: 'irreversible' },
            },
          },
        ],
      },
    ],
  },
  check(ctx) {
    for (const p of ctx.problems) {
      if (p.kind !== 'invalid') continue;
      ctx.report({ pointer: p.pointer, message: p.message, suggestion: p.suggestion, detail: p.detail });
    }
    // Linted against the latest version only for want of a recorded one: what the version
    // before it (the one clients speak today) rejects, as warnings.
    if (ctx.specSource !== 'default') return;
    const older = olderSpecProblems(ctx.tool, ctx.spec);
    if (!older) return;
    for (const p of older.problems) {
      ctx.report({
        pointer: p.pointer,
        severity: 'warning',
        message:
          `${p.message} under spec ${older.spec}, whose clients (the MCP SDKs today) reject the tools/list — ` +
          `no usable protocol version was recorded, so the tool was linted against ${ctx.spec} (record protocolVersion or pass --spec)`,
        suggestion: `${p.suggestion ?? 'change the value'}, so that clients of spec ${older.spec} accept the tool; or record the protocol version the server speaks (protocolVersion) or pass --spec`,
        detail: `spec ${older.spec}${p.detail !== undefined ? `: ${p.detail}` : ''}`,
      });
    }
  },
  checkServer(ctx) {
    for (const p of ctx.envelopeProblems) ctx.report({ pointer: p.pointer, message: p.message, suggestion: p.suggestion, detail: p.detail });
  },
});
