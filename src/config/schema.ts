/**
 * The JSON Schema of the config file, built from the rules themselves (their ids and
 * option schemas), so it can never list a rule that does not exist. It is published as
 * schemas/config.schema.json (a test keeps the file equal to what this builds;
 * `npm run docs` rewrites it) and precompiled into generated/config.cjs by the build.
 */
import type { Rule } from '../rule.js';
import { PACK_IDS, SPEC_VERSIONS } from '../types.js';
import { CLAIM_FACTS } from '../policies/facts.js';
import { POLICY_EFFECTS } from '../policies/rules.js';
import { PRESET_NAMES, PRESET_DOCS } from './presets.js';
import { MAX_GLOB_LENGTH } from '../util/glob.js';

export const CONFIG_SCHEMA_ID = 'https://raw.githubusercontent.com/mcp-annotate/mcp-annotate/main/schemas/config.schema.json';

export const SEVERITY_SETTINGS = ['off', 'note', 'warning', 'error'] as const;
export const FAIL_ON = ['error', 'warning', 'note', 'none'] as const;

/** Keys a `mcpServers` entry may have that mcp-annotate reads; other keys (clients add many) are allowed. */
const SERVER_ENTRY = {
  type: 'object',
  description:
    'A server to start or connect to, in the shape of an MCP client config\'s "mcpServers" entry: "command" (+ "args", "env", "cwd") for stdio, or "url" (+ "headers", "type") for Streamable HTTP / SSE. Values may reference environment variables as ${NAME}; resolved values are never printed.',
  properties: {
    command: { type: 'string', description: 'The program to start (stdio).' },
    args: { type: 'array', items: { type: 'string' }, description: 'Its arguments.' },
    env: { type: 'object', additionalProperties: { type: 'string' }, description: 'Environment variables for the program (never printed).' },
    cwd: { type: 'string', description: 'Working directory of the program.' },
    url: { type: 'string', description: 'The server URL (Streamable HTTP, falling back to SSE).' },
    serverUrl: { type: 'string', description: 'The server URL (Windsurf spelling).' },
    httpUrl: { type: 'string', description: 'The server URL (Gemini CLI spelling).' },
    type: { enum: ['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse'], description: 'Force a transport.' },
    headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'HTTP headers (never printed).' },
    disabled: { type: 'boolean', description: 'Skip this server.' },
  },
  anyOf: [{ required: ['command'] }, { required: ['url'] }, { required: ['serverUrl'] }, { required: ['httpUrl'] }],
};

function ruleSetting(rule: Rule | undefined) {
  const options = rule?.options?.schema ?? { type: 'object', additionalProperties: false, description: 'This rule has no options.' };
  return {
    anyOf: [
      { $ref: '#/definitions/severity' },
      {
        type: 'array',
        minItems: 1,
        maxItems: 2,
        items: [{ $ref: '#/definitions/severity' }, options],
        description: '[severity] or [severity, options]',
      },
    ],
    ...(rule ? { description: `${rule.summary} Default: ${rule.severity}.` } : {}),
  };
}

export function buildConfigSchema(rules: readonly Rule[]): Record<string, unknown> {
  const ruleProps: Record<string, unknown> = {};
  for (const r of rules) ruleProps[r.id] = ruleSetting(r);
  // picomatch compiles globs of up to MAX_GLOB_LENGTH characters (a target that is not a glob is held to it too).
  const glob = { type: 'string', minLength: 1, maxLength: MAX_GLOB_LENGTH };
  const globs = { type: 'array', items: glob, minItems: 1 };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: CONFIG_SCHEMA_ID,
    title: 'mcp-annotate configuration',
    description: 'Configuration of mcp-annotate, the linter for MCP tool annotations. See the "Configuration" section of the README. An empty file (or a YAML file of only comments) is an empty configuration.',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string', description: 'This schema, for editors.' },
      extends: {
        description: `Built-in presets to start from, applied in order before "rules": ${PRESET_NAMES.map((n) => `${n} (${PRESET_DOCS[n]})`).join('; ')}.`,
        anyOf: [{ $ref: '#/definitions/preset' }, { type: 'array', items: { $ref: '#/definitions/preset' } }],
      },
      spec: { enum: [...SPEC_VERSIONS], description: 'MCP spec version to validate against (default: what a snapshot recorded, else the latest). --spec overrides it.' },
      vocabularies: {
        description: 'Vocabularies to lint with: an array of pack ids (only these; core is always on), or an object turning packs on (true) or off (false). --vocab and --disable-vocab override it.',
        anyOf: [
          { type: 'array', items: { enum: [...PACK_IDS] }, uniqueItems: true },
          {
            type: 'object',
            // core is the MCP spec itself: always on, so only true may be written.
            properties: Object.fromEntries(PACK_IDS.map((p) => [p, p === 'core' ? { const: true, description: 'The core vocabulary (the MCP spec itself) is always on: true, or leave it out.' } : { type: 'boolean' }])),
            additionalProperties: false,
          },
        ],
      },
      rules: { $ref: '#/definitions/rules' },
      overrides: {
        type: 'array',
        description: 'Rule settings for some servers and tools, applied in order after "rules". An override matches a finding when its server name matches one of "servers" and its tool name one of "tools" (globs; either may be left out). Server-level findings only match overrides without "tools".',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['rules'],
          anyOf: [{ required: ['servers'] }, { required: ['tools'] }],
          properties: {
            servers: { ...globs, description: 'Server names (serverInfo.name, or the file name) as globs: "github", "acme-*". "*" matches "/" too (names are not paths): "*" matches "io.github.acme/weather", and "io.github.acme/*" the servers under that prefix.' },
            tools: { ...globs, description: 'Tool names as globs: "legacy_*", "{create,delete}_*". "*" matches "/" too (names are not paths).' },
            rules: { $ref: '#/definitions/rules' },
          },
        },
      },
      policies: { type: 'array', items: { $ref: '#/definitions/policy' }, description: 'User policies (the SEP-1913 policy layer); each is the rule policy/<name>.' },
      targets: {
        description: 'What `mcp-annotate lint` lints when no targets are given on the command line: files, globs and directories (relative to this file), and live servers under "mcpServers".',
        anyOf: [
          { type: 'array', items: glob },
          {
            type: 'object',
            additionalProperties: false,
            properties: {
              files: { type: 'array', items: glob, description: 'Files, globs and directories of tools/list dumps, relative to this file.' },
              mcpServers: { type: 'object', additionalProperties: SERVER_ENTRY, description: 'Live servers, by name, as in an MCP client config.' },
            },
          },
        ],
      },
      failOn: { enum: [...FAIL_ON], description: 'Exit 1 when a finding has this severity or higher (default error). --fail-on overrides it.' },
      maxWarnings: { type: 'integer', minimum: 0, description: 'Also exit 1 when there are more warnings than this. --max-warnings overrides it.' },
    },
    definitions: {
      severity: { enum: [...SEVERITY_SETTINGS], description: 'off, note, warning or error. Setting only a severity keeps the rule\'s options.' },
      preset: { enum: [...PRESET_NAMES] },
      rules: {
        type: 'object',
        description: 'Rule severities: "off" | "note" | "warning" | "error", or [severity, options]. Options are merged over the defaults. The drift/* rules are those of `mcp-annotate diff`.',
        properties: ruleProps,
        patternProperties: { '^policy/': ruleSetting(undefined) },
        additionalProperties: false,
      },
      policy: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'effect', 'conditions'],
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', description: 'The policy\'s name; its findings carry the rule id policy/<name>.' },
          effect: { enum: [...POLICY_EFFECTS], description: 'block: an error; escalate: a warning unless the tool carries a confirmation signal; warn: a warning.' },
          description: { type: 'string', description: 'What the policy is for, in a sentence.' },
          conditions: { $ref: '#/definitions/condition' },
        },
      },
      condition: {
        type: 'object',
        description: 'A condition: {"fact", "equals"|"in"|"contains"}, {"and": [...]}, {"or": [...]} or {"not": {...}}.',
        additionalProperties: false,
        properties: {
          fact: {
            type: 'string',
            description: `tool.<path> (a path into the tool: tool.annotations.inputMetadata.destination, tool._meta["mcp.dev/effect"]), claims.<fact> (${Object.keys(CLAIM_FACTS).join(', ')}), server.name, response.annotations.<path>, or request.<path>.`,
          },
          equals: { description: 'Holds when the fact may be this value.' },
          in: { type: 'array', minItems: 1, description: 'Holds when the fact may be one of these values (at least one: an empty list never holds).' },
          contains: { description: 'Holds when the fact may be this value, or a string containing it.' },
          and: { type: 'array', minItems: 1, items: { $ref: '#/definitions/condition' } },
          or: { type: 'array', minItems: 1, items: { $ref: '#/definitions/condition' } },
          not: { $ref: '#/definitions/condition' },
        },
        // Exactly one form: "fact" with one operator beside it, or one combinator alone. (The
        // CLI says which form is wrong more clearly: see schemaProblems' CONDITION_FORM.)
        anyOf: [
          { required: ['fact'], minProperties: 2, maxProperties: 2, not: { anyOf: [{ required: ['and'] }, { required: ['or'] }, { required: ['not'] }] } },
          { required: ['and'], maxProperties: 1 },
          { required: ['or'], maxProperties: 1 },
          { required: ['not'], maxProperties: 1 },
        ],
      },
    },
  };
}
