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
import { ConfigError, loadConfig } from '../src/config/index.js';
import { tempDir } from './helpers/cli.js';

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

  it('accepts what the CLI accepts and refuses what it refuses, but for what a schema cannot say', async () => {
    const validate = new Ajv({ strict: false }).compile(JSON.parse(readFileSync(FILE, 'utf8')));
    const long = 'x'.repeat(65_537);
    const edge = 'x'.repeat(65_536);
    const cases: [unknown, boolean][] = [
      [{}, true],
      [{ vocabularies: { core: true, 'sep-1913': false } }, true],
      [{ vocabularies: { core: false } }, false],
      [{ vocabularies: ['core', 'sep-1913'] }, true],
      [null, false],
      [[], false],
      ['x', false],
      [{ overrides: [{ servers: ['x'.repeat(20_000)], tools: ['x'.repeat(20_000)], rules: {} }], targets: [edge] }, true],
      [{ overrides: [{ servers: [long], rules: {} }] }, false],
      [{ overrides: [{ tools: ['ok', long], rules: {} }] }, false],
      [{ targets: [long] }, false],
      [{ targets: { files: [long] } }, false],
      [{ rules: { 'toxic-flow': ['warning', { openWorldIsUntrusted: true }] }, overrides: [{ servers: ['*'], rules: { 'toxic-flow': ['off', { openWorldIsUntrusted: false }] } }] }, true],
      [{ policies: [{ name: 'p', effect: 'warn', conditions: { fact: 'tool.name', in: ['a'] } }] }, true],
    ];
    for (const [value, ok] of cases) {
      const dir = tempDir({ 'c.json': JSON.stringify(value) });
      const cli = await loadConfig({ cwd: dir, file: 'c.json' }).then(
        () => true,
        (err: unknown) => {
          if (err instanceof ConfigError) return false;
          throw err;
        },
      );
      const shown = JSON.stringify(value).slice(0, 120);
      expect(validate(value), `schema: ${shown}`).toBe(ok);
      expect(cli, `CLI: ${shown}`).toBe(ok);
    }
    // What the schema leaves to the CLI, which checks it on its own (each a config error with its place):
    // unique policy names, a policy/<name> setting naming a policy, facts and their operands, and the
    // form of a condition, which the schema checks too ({"fact", one operator}, or one of "and",
    // "or", "not") but the CLI says more clearly (compileConditions' messages, not the anyOf's).
    const forms: [unknown, RegExp][] = [
      [{}, /conditions: a condition with|conditions: a condition is/],
      [{ fact: 'tool.name', equals: 'a', in: ['b'] }, /takes exactly one of "equals", "in" or "contains"/],
      [{ fact: 'tool.name', equals: 'a', and: [{ fact: 'tool.name', equals: 'b' }] }, /and no "and" beside it/],
      [{ fact: 'tool.name' }, /needs one of "equals", "in" or "contains"/],
      [{ and: [{ fact: 'tool.name', equals: 'a' }], or: [{ fact: 'tool.name', equals: 'b' }] }, /conditions/],
      [{ not: { fact: 'tool.name', contains: 'x', equals: 'y' } }, /conditions\.not: a condition with "fact" takes exactly one/],
    ];
    for (const [conditions, said] of forms) {
      const value = { policies: [{ name: 'p', effect: 'warn', conditions }] };
      expect(validate(value), `schema: ${JSON.stringify(conditions)}`).toBe(false);
      const err = await loadConfig({ cwd: tempDir({ 'c.json': JSON.stringify(value) }), file: 'c.json' }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err, JSON.stringify(conditions)).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      expect(message, JSON.stringify(conditions)).toMatch(said);
      expect(message, `no schema wording: ${message}`).not.toMatch(/anyOf|must match|maxProperties|minProperties|must NOT/);
    }
    for (const conditions of [{ and: [{ fact: 'tool.name', equals: 'a' }, { not: { fact: 'tool.name', in: ['b'] } }] }, { or: [{ fact: 'tool.name', contains: 'a' }] }]) {
      expect(validate({ policies: [{ name: 'p', effect: 'warn', conditions }] }), JSON.stringify(conditions)).toBe(true);
    }
    for (const value of [
      { policies: [{ name: 'p', effect: 'warn', conditions: { fact: 'tool.name', equals: 'a' } }, { name: 'p', effect: 'warn', conditions: { fact: 'tool.name', equals: 'b' } }] },
      { rules: { 'policy/nope': 'off' } },
      { policies: [{ name: 'p', effect: 'warn', conditions: { fact: 'claims.destinations', equals: 'Public' } }] },
    ]) {
      expect(validate(value), JSON.stringify(value)).toBe(true);
      await expect(loadConfig({ cwd: tempDir({ 'c.json': JSON.stringify(value) }), file: 'c.json' }), JSON.stringify(value)).rejects.toBeInstanceOf(ConfigError);
    }
  });

  it('a YAML config with no content is an empty config, as an empty JSON file is; one that says null is refused, as JSON null is', async () => {
    const load = (name: string, text: string) => loadConfig({ cwd: tempDir({ [name]: text }), file: name });
    for (const text of ['', '\n', '# only a comment\n', '---\n', '--- # a comment\n']) {
      expect((await load('c.yaml', text))?.rules, JSON.stringify(text)).toEqual({});
    }
    for (const text of ['', '  \n', '// only a comment\n']) expect((await load('c.json', text))?.rules, JSON.stringify(text)).toEqual({});
    for (const [name, text] of [['c.yaml', '~\n'], ['c.yaml', 'null\n'], ['c.yaml', '!!null\n'], ['c.json', 'null\n']] as const) {
      await expect(load(name, text), `${name}: ${text}`).rejects.toThrow(/^c\.(yaml|json):1:\d+: the configuration must be an object, got null/);
    }
  });
});
