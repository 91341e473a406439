import { defineRule } from '../src/rule.js';
import { says, sideOf } from '../src/engine/queries.js';
import { SENSITIVE_CLASSES, type Claim, type ResultSensitivity } from '../src/engine/claims.js';
import { fieldPath, relative } from '../src/util/pointer.js';

/** SEP-1913 data classes that declare sensitive output. */
/** mcp.dev/resultSensitivity values that declare sensitive output. */
const SENSITIVE_RESULTS: readonly ResultSensitivity[] = ['confidential', 'restricted'];
/** How many x-sensitive fields a message names before it counts the rest. */
const SHOWN = 3;

export default defineRule({
  id: 'sensitive-output-undeclared',
  severity: 'warning',
  category: 'consistency',
  packs: ['webmcp-sensitive', 'trust-annotations', 'sep-1913', 'action-metadata', 'meta-hints'],
  summary: 'A tool whose outputSchema marks fields "x-sensitive" should declare sensitive output.',
  precision: 'high',
  security: 6.5,
  why: `\`"x-sensitive": true\` on an \`outputSchema\` property (the WebMCP proposal) says
that field's value — an API key, a token, a medical record — must not reach the model.
Only a client that walks the output schema of every result sees it. Most clients decide
from the tool's annotations, and the MCP spec asks a tool that returns structured content
to repeat it as serialized JSON in a text block, which no per-field marker can redact.
Without a tool-level declaration, such a client forwards the whole result, secret
included, into model context, where a prompt injection from another tool can
exfiltrate it.

The tool-level declarations this rule accepts: \`annotations.sensitiveHint: true\`
(WebMCP), trust-annotations \`sensitive: true\`, SEP-1913 / action-metadata
\`returnMetadata.sensitivity\` including \`pii\`, \`financial\`, \`credentials\` or a
\`regulated\` scope, or \`_meta["mcp.dev/resultSensitivity"]\` \`confidential\` or
\`restricted\`.`,
  notes: `- **What counts as a declaration.** Any vocabulary that tells a client, at the tool
  level, that results may hold data to keep from the model: \`sensitiveHint: true\`, the
  trust-annotations \`sensitive: true\`, a sensitive SEP-1913 data class
  (\`pii\`, \`financial\`, \`credentials\`, \`regulated\`; possible-set semantics, so
  \`["none", "credentials"]\` counts), or \`resultSensitivity\` \`confidential\` /
  \`restricted\`.
- **What does not.** SEP-1913 \`none\` and \`user\` (user-owned data, not secret),
  \`resultSensitivity\` \`public\` and \`internal\` (internal content is routinely shown to
  the model), and a documented \`secret_reference\`: a reference is a way to return a
  secret *instead of* the value, while an \`x-sensitive\` field says the value itself is
  in the structured result. When one of these is present, or \`sensitiveHint\` is
  explicitly \`false\`, the message names it as the other side of the conflict, with its
  pointer.
- **A \`sensitiveHint\` of the wrong type.** \`"sensitiveHint": "true"\` (quoted), \`1\` or
  \`null\` beside an \`x-sensitive\` field is [schema-valid](schema-valid.md)'s error, which
  already says to write the boolean: this rule stays quiet, so the one problem gets one
  finding. So is a level from SEP-1913's early draft (\`"high"\`): beside an
  \`x-sensitive\` field the tool speaks WebMCP, whose \`sensitiveHint\` is a boolean, and
  schema-valid's suggestion says to write true ([draft-field](draft-field.md) also warns
  about the spelling while the \`sep-1913\` pack is on).
- **Spec 2025-03-26.** That version's Tool has no \`outputSchema\`, and its clients ignore
  one: an \`x-sensitive\` property there marks nothing, so the rule says nothing under it.
- **Where.** At the first \`x-sensitive\` property (in schema order), with the other
  marked properties and any contrary declaration as related locations.
- **Fix.** Only when a sensitivity flag is explicitly \`false\` (\`sensitiveHint\`, or
  trust-annotations \`sensitive\`) does the fix replace one value, with \`true\`: the
  safe side, though the marker may be the wrong one. Adding a key that is absent is not
  a one-value replacement, so the other cases carry a suggestion only.`,
  examples: {
    incorrect: [
      {
        title: 'An API key generator that marks the secret but not the tool',
        tools: [
          {
            name: 'generate_api_key',
            inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
            outputSchema: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                name: { type: 'string' },
                secret: { type: 'string', 'x-sensitive': true },
              },
            },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
          },
        ],
        findings: [{ pointer: '/tools/0/outputSchema/properties/secret' }],
      },
      {
        title: 'sensitiveHint says the opposite of the schema',
        tools: [
          {
            name: 'get_patient_record',
            inputSchema: { type: 'object' },
            outputSchema: {
              type: 'object',
              properties: {
                patientId: { type: 'string' },
                diagnosis: { type: 'string', 'x-sensitive': true },
                medications: { type: 'array', items: { type: 'string' }, 'x-sensitive': true },
              },
            },
            annotations: { readOnlyHint: true, sensitiveHint: false },
          },
        ],
        findings: [{ pointer: '/tools/0/outputSchema/properties/diagnosis' }],
      },
      {
        title: 'A non-sensitive SEP-1913 class and an internal result sensitivity do not declare it',
        doc: false,
        tools: [
          {
            name: 'create_token',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { token: { type: 'string', 'x-sensitive': true } } },
            annotations: { readOnlyHint: false, destructiveHint: false, returnMetadata: { source: 'system', sensitivity: 'user' } },
            _meta: { 'mcp.dev/resultSensitivity': 'internal' },
          },
        ],
        findings: [{ pointer: '/tools/0/outputSchema/properties/token' }],
      },
      {
        title: 'Many marked fields, nested ones included',
        doc: false,
        tools: [
          {
            name: 'list_credentials',
            inputSchema: { type: 'object' },
            outputSchema: {
              type: 'object',
              properties: {
                items: {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: {
                      user: { type: 'string', 'x-sensitive': true },
                      password: { type: 'string', 'x-sensitive': true },
                      otpSeed: { type: 'string', 'x-sensitive': true },
                      recoveryCodes: { type: 'array', 'x-sensitive': true },
                    },
                  },
                },
              },
            },
            annotations: { readOnlyHint: true },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { sensitive: false } },
          },
        ],
        findings: [{ pointer: '/tools/0/outputSchema/properties/items/items/properties/user' }],
      },
    ],
    correct: [
      {
        title: 'Under spec 2025-03-26, whose clients ignore outputSchema, an "x-sensitive" property there marks nothing',
        doc: false,
        spec: '2025-03-26',
        tools: [
          {
            name: 'create_token',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { token: { type: 'string', 'x-sensitive': true } } },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
      },
      {
        title: 'The tool declares sensitive output',
        tools: [
          {
            name: 'generate_api_key',
            inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
            outputSchema: {
              type: 'object',
              properties: {
                id: { type: 'string' },
                name: { type: 'string' },
                secret: { type: 'string', 'x-sensitive': true },
              },
            },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, sensitiveHint: true },
          },
        ],
      },
      {
        title: 'Declared through SEP-1913 returnMetadata',
        tools: [
          {
            name: 'get_payout_details',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { iban: { type: 'string', 'x-sensitive': true } } },
            annotations: { readOnlyHint: true, returnMetadata: { source: 'internal', sensitivity: 'financial' } },
          },
        ],
      },
      {
        title: 'A draft level in sensitiveHint beside an x-sensitive field is schema-valid’s error (and draft-field’s warning) alone',
        doc: false,
        tools: [
          {
            name: 'generate_api_key',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, sensitiveHint: 'high' },
          },
        ],
      },
      {
        title: 'A sensitiveHint written as a string is schema-valid’s error alone',
        doc: false,
        tools: [
          {
            name: 'generate_api_key',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, sensitiveHint: 'true' },
          },
        ],
      },
      {
        title: 'Declared through mcp.dev/resultSensitivity',
        doc: false,
        tools: [
          {
            name: 'read_secret',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { value: { type: 'string', 'x-sensitive': true } } },
            annotations: { readOnlyHint: true },
            _meta: { 'mcp.dev/resultSensitivity': 'restricted' },
          },
        ],
      },
      {
        title: 'Declared through trust-annotations',
        doc: false,
        tools: [
          {
            name: 'read_secret',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { value: { type: 'string', 'x-sensitive': true } } },
            annotations: { readOnlyHint: true },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { sensitive: true } },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const marked = ctx.claims.from('sensitiveFields', 'webmcp-sensitive');
    if (!marked || marked.value.length === 0) return;
    const declared = [
      ...ctx.claims.where('sensitiveOutput', true),
      ...ctx.claims.including('outputSensitivity', ...SENSITIVE_CLASSES),
      ...ctx.claims.where('resultSensitivity', ...SENSITIVE_RESULTS),
    ];
    if (declared.length > 0) return;
    // A sensitiveHint that is there but not a boolean ("true" in quotes, a draft level "high")
    // is schema-valid's error, which already says to write the boolean: one problem, one
    // finding. (Beside an x-sensitive field the pack always checks it: the tool speaks WebMCP.)
    const hintPointer = ctx.at('/annotations/sensitiveHint');
    if (ctx.problems.some((p) => p.kind === 'invalid' && p.pointer === hintPointer)) return;
    const contrary: Claim[] = [...ctx.claims.where('sensitiveOutput', false), ...ctx.claims.all('outputSensitivity'), ...ctx.claims.all('resultSensitivity')];
    const fields = marked.value;
    const name = (p: string) => fieldPath(relative(ctx.tool.pointer, p));
    const shown = fields.slice(0, SHOWN).map(name);
    const rest = fields.length - shown.length;
    const subject =
      fields.length === 1
        ? `${shown[0]} is marked "x-sensitive": true (${fields[0]})`
        : `${rest > 0 ? `${shown.join(', ')} and ${rest} more` : `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`} are marked "x-sensitive": true`;
    const other = contrary.length
      ? `but ${contrary.map((c) => sideOf(c)).join(' and ')}, ${contrary.length === 1 ? 'which does not mark' : 'none of which marks'} the tool's output sensitive`
      : "but nothing at the tool level marks its output sensitive (annotations.sensitiveHint is absent, and no other vocabulary says so)";
    const these = fields.length === 1 ? 'this value' : 'these values';
    const hintFalse = contrary.find((c) => c.fact === 'sensitiveOutput');
    ctx.report({
      pointer: fields[0]!,
      message: `${subject} ${other}: a client that decides from the tool's annotations passes ${these} to the model`,
      suggestion: hintFalse
        ? `set ${hintFalse.field} to true, or drop "x-sensitive" from fields that are not sensitive`
        : 'add "sensitiveHint": true to annotations (or a sensitive returnMetadata.sensitivity such as "credentials") so clients keep the results out of model context',
      ...(hintFalse
        ? { fix: { description: `Set ${hintFalse.field} to true`, replacements: [{ pointer: hintFalse.pointer, text: 'true' }] } }
        : {}),
      related: [
        ...fields.slice(1).map((p) => ({ pointer: p, message: `${name(p)} is also marked "x-sensitive": true` })),
        ...contrary.map((c) => ({ pointer: c.pointer, message: `${says(c)} here` })),
      ],
    });
  },
});
