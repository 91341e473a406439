import { defineRule } from '../src/rule.js';
import type { Claim } from '../src/engine/claims.js';
import { sideOf } from '../src/engine/queries.js';
import { readsOutputSchema } from '../src/packs/core.js';

export default defineRule({
  id: 'credentials-in-output',
  severity: 'warning',
  category: 'consistency',
  packs: ['sep-1913', 'action-metadata', 'meta-hints', 'webmcp-sensitive', 'trust-annotations'],
  summary: 'A tool whose output may carry credentials should keep them out of model context.',
  precision: 'high',
  security: 7.0,
  why: `A tool that returns an API key, a token or a password puts the secret into the
model's context unless something says not to. From there any later tool call — one a
prompt injection in a web page or an email asked for — can carry it off.

SEP-1913 lets a tool declare that its output may carry credentials
(\`returnMetadata.sensitivity\` includes \`"credentials"\`), and the \`_meta\` policy hints
let it say its results are \`"restricted"\`. Saying so is half the job: the WebMCP
proposal defines how to keep the secret away from the model —
\`annotations.sensitiveHint: true\` (the client must redact or hand out a reference),
\`"x-sensitive": true\` on the output fields that hold secrets, or a \`secret_reference\`
content item the user redeems outside the conversation. The trust-annotations extension's
\`sensitive: true\` serves the same purpose. A tool with none of these tells clients the
output is secret and gives them nothing to act on.`,
  notes: `- **What counts as "may carry credentials".** Output sensitivity (SEP-1913
  \`returnMetadata.sensitivity\` or the action-metadata extension's) that includes
  \`"credentials"\`, or \`_meta["mcp.dev/resultSensitivity"]\` \`"restricted"\`, the top of
  that scale, where secrets live. \`pii\`, \`financial\` and \`"confidential"\` results are
  sensitive too, but redacting them would hide what the user asked for; those are
  [sensitive-output-undeclared](sensitive-output-undeclared.md)'s and policy's business.
- **What keeps it out.** Any one of: \`sensitiveHint: true\`, trust-annotations
  \`sensitive: true\`, at least one \`"x-sensitive": true\` property in \`outputSchema\`, or an
  \`outputSchema\` that documents \`secret_reference\` results. The rule does not try to
  decide *which* field holds the secret: any \`x-sensitive\` field shows the author thought
  about it. Under spec 2025-03-26, whose Tool has no \`outputSchema\` (its clients ignore
  one), \`x-sensitive\` and \`secret_reference\` there count for nothing, and the message says so.
- **Disabled packs.** Packs are the vocabularies your clients implement. With
  \`webmcp-sensitive\` disabled, a \`sensitiveHint\` is not seen and the rule fires: a
  client that does not implement the hint will not honour it either.
- An explicit \`sensitiveHint: false\` (or \`sensitive: false\`) is named in the message.
  No mechanical fix: the declared sensitivity may be the wrong side.`,
  examples: {
    incorrect: [
      {
        title: 'A tool that returns a new API key into the conversation',
        tools: [
          {
            name: 'create_api_key',
            description: 'Create an API key for the current user.',
            inputSchema: { type: 'object', properties: { label: { type: 'string' } } },
            outputSchema: { type: 'object', properties: { id: { type: 'string' }, secret: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              returnMetadata: { source: 'system', sensitivity: 'credentials' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/returnMetadata/sensitivity' }],
      },
      {
        title: 'Credentials among other possible classes',
        doc: false,
        tools: [
          {
            name: 'read_config',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, returnMetadata: { source: ['internal', 'system'], sensitivity: ['none', 'credentials'] } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/returnMetadata/sensitivity' }],
      },
      {
        title: 'Restricted results, and a sensitiveHint that says false',
        doc: false,
        tools: [
          { name: 'dump_vault', inputSchema: { type: 'object' }, _meta: { 'mcp.dev/resultSensitivity': 'restricted' } },
          {
            name: 'rotate_token',
            inputSchema: { type: 'object' },
            annotations: { sensitiveHint: false, returnMetadata: { source: 'system', sensitivity: 'credentials' } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1resultSensitivity' }, { pointer: '/tools/1/annotations/returnMetadata/sensitivity' }],
      },
      {
        title: 'Under spec 2025-03-26 an "x-sensitive" outputSchema property keeps nothing out: that version\'s clients ignore outputSchema',
        doc: false,
        spec: '2025-03-26',
        tools: [
          {
            name: 'get_api_key',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { key: { type: 'string', 'x-sensitive': true } } },
            annotations: { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: 'credentials' } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/returnMetadata/sensitivity' }],
      },
    ],
    correct: [
      {
        title: 'The secret field is marked "x-sensitive"',
        tools: [
          {
            name: 'create_api_key',
            description: 'Create an API key for the current user.',
            inputSchema: { type: 'object', properties: { label: { type: 'string' } } },
            outputSchema: { type: 'object', properties: { id: { type: 'string' }, secret: { type: 'string', 'x-sensitive': true } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              returnMetadata: { source: 'system', sensitivity: 'credentials' },
            },
          },
        ],
        explanation: 'The client strips `secret` before the result reaches the model and shows it to the user instead.',
      },
      {
        title: 'sensitiveHint, trust-annotations sensitive, or a documented secret_reference',
        doc: false,
        tools: [
          {
            name: 'create_token',
            inputSchema: { type: 'object' },
            annotations: { sensitiveHint: true, returnMetadata: { source: 'system', sensitivity: 'credentials' } },
          },
          {
            name: 'read_secret',
            inputSchema: { type: 'object' },
            annotations: { returnMetadata: { source: 'internal', sensitivity: 'credentials' } },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { sensitive: true }, 'mcp.dev/resultSensitivity': 'restricted' },
          },
          {
            name: 'issue_password',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { type: { const: 'secret_reference' }, id: { type: 'string' } } },
            annotations: { returnMetadata: { source: 'system', sensitivity: 'credentials' } },
          },
        ],
      },
      {
        title: 'Output that is personal but not secret',
        tools: [
          {
            name: 'read_drafts',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
              returnMetadata: { source: 'user', sensitivity: 'pii' },
            },
          },
        ],
      },
      {
        title: 'Credentials accepted as input, never returned',
        tools: [
          {
            name: 'connect_database',
            inputSchema: { type: 'object', properties: { password: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'system', sensitivity: 'credentials', outcomes: 'benign' },
              returnMetadata: { source: 'system', sensitivity: 'none' },
            },
          },
        ],
        explanation: 'Only output sensitivity counts: a secret the tool receives is already in the conversation.',
      },
    ],
  },
  check(ctx) {
    const secret: Claim[] = [...ctx.claims.including('outputSensitivity', 'credentials'), ...ctx.claims.where('resultSensitivity', 'restricted')];
    if (secret.length === 0) return;
    const kept =
      ctx.claims.where('sensitiveOutput', true).length > 0 ||
      ctx.claims.all('sensitiveFields').some((c) => c.value.length > 0) ||
      ctx.claims.where('secretReference', true).length > 0;
    if (kept) return;

    const first = secret[0]!;
    const side = first.fact === 'outputSensitivity' ? sideOf(first, 'credentials') : sideOf(first);
    const off = ctx.claims.where('sensitiveOutput', false);
    // Under a version whose Tool has no outputSchema (2025-03-26) its clients ignore one, and
    // an "x-sensitive" property or secret_reference result documented there counts for nothing.
    const output = readsOutputSchema(ctx.spec);
    const missing = [
      ...(off.length ? off.map((c) => sideOf(c)) : ['no sensitiveHint: true']),
      ...(output
        ? ['no "x-sensitive" outputSchema property', 'no secret_reference result']
        : [`no outputSchema its clients read (spec ${ctx.spec}'s Tool has none, so "x-sensitive" and secret_reference there count for nothing)`]),
    ];
    ctx.report({
      pointer: first.pointer,
      message: `${side}, but nothing keeps the secret out of model context: ${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`,
      suggestion: output
        ? 'set annotations.sensitiveHint to true, mark the output property that holds the secret "x-sensitive": true, or return it as a secret_reference content item'
        : `set annotations.sensitiveHint to true (clients of spec ${ctx.spec} ignore outputSchema, so "x-sensitive" there keeps nothing out of context)`,
      related: [
        ...secret.slice(1).map((c) => ({ pointer: c.pointer, message: c.fact === 'outputSensitivity' ? `${c.field} also includes "credentials"` : `${c.field} is "restricted"` })),
        ...off.map((c) => ({ pointer: c.pointer, message: `${c.field} says the output is not sensitive` })),
      ],
    });
  },
});
