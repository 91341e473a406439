/**
 * schemas/config.schema.json is built from the rules (ids, option schemas); it must be
 * what buildConfigSchema() makes (npm run docs rewrites it), be a valid draft-07 schema,
 * and accept the configs the README and `init` show.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { RULES } from '../rules/index.js';
import { DRIFT_RULES } from '../src/diff/rules/index.js';

const ALL = [...RULES, ...DRIFT_RULES];
import { buildConfigSchema } from '../src/config/schema.js';

const FILE = new URL('../schemas/config.schema.json', import.meta.url);
const write = process.env.MCP_ANNOTATE_WRITE_DOCS === '1';

describe('config schema', () => {
  it('schemas/config.schema.json is current (npm run docs rewrites it)', () => {
    const text = JSON.stringify(buildConfigSchema(ALL), null, 2) + '\n';
    if (write) writeFileSync(FILE, text);
    expect(readFileSync(FILE, 'utf8'), 'schemas/config.schema.json is stale; run npm run docs').toBe(text);
  });

  it('is a valid draft-07 schema that names every rule', () => {
    const schema = JSON.parse(readFileSync(FILE, 'utf8'));
    const ajv = new Ajv({ strict: false });
    const validate = ajv.compile(schema);
    expect(Object.keys(schema.definitions.rules.properties)).toEqual(ALL.map((r) => r.id));
    expect(validate({ rules: { 'drift/readonly-removed': 'warning' } })).toBe(true);
    expect(validate({ extends: 'mcp-annotate:strict', rules: { 'toxic-flow': ['error', { openWorldIsUntrusted: true }], 'policy/x': 'off' } })).toBe(true);
    expect(validate({ rules: { 'toxic-flow': ['error', { nope: 1 }] } })).toBe(false);
    expect(validate({ rules: { 'no-such-rule': 'error' } })).toBe(false);
  });
});
