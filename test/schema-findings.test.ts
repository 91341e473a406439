/**
 * Schema findings as a user sees them (the real CLI, JSON output): one finding per real
 * problem, at the right place, under the rules of the linted spec version and dialect.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCliInProcess as runCli, tempDir } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess

interface Finding {
  ruleId: string;
  severity: string;
  pointer: string;
  message: string;
  suggestion?: string;
}

async function lintDoc(doc: unknown, ...args: string[]): Promise<Finding[]> {
  const dir = tempDir({ 'dump.json': JSON.stringify(doc) });
  const r = await runCli(['lint', join(dir, 'dump.json'), '--no-config', '-f', 'json', ...args]);
  expect(r.stderr).toBe('');
  return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
}

const quiet = { readOnlyHint: true, openWorldHint: false };
const only = (findings: Finding[], ruleId: string) => findings.filter((f) => f.ruleId === ruleId);

describe('meta-key-format follows the spec version', () => {
  const meta = { 'mcp.dev/owner': 'team', 'mcp.example.com/x': 1, 'modelcontextprotocol.io/y': 2, 'io.modelcontextprotocol/z': 3, 'mcp.dev/effect': 'read' };
  const doc = (protocolVersion?: string) => ({
    ...(protocolVersion ? { protocolVersion, serverInfo: { name: 's', version: '1' } } : {}),
    tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: quiet, _meta: meta }],
  });

  it('2025-06-18: a reserved label followed by any label is reserved; io.modelcontextprotocol/ is not', async () => {
    const found = only(await lintDoc(doc('2025-06-18')), 'meta-key-format');
    expect(found.map((f) => [f.pointer, f.severity])).toEqual([
      ['/tools/0/_meta/mcp.dev~1owner', 'warning'],
      ['/tools/0/_meta/mcp.example.com~1x', 'warning'],
      ['/tools/0/_meta/modelcontextprotocol.io~1y', 'warning'],
    ]);
    expect(found[0]!.message).toContain('which spec 2025-06-18 reserves for MCP');
    for (const f of found) expect(f.message).not.toMatch(/not reserved and is valid/);
  });

  it('the latest spec: the second label decides, and forward-written prefixes get one note (a proposal\'s own keys one of their own)', async () => {
    const found = only(await lintDoc(doc()), 'meta-key-format');
    expect(found.map((f) => [f.pointer, f.severity])).toEqual([
      ['/tools/0/_meta/mcp.dev~1owner', 'note'],
      ['/tools/0/_meta/modelcontextprotocol.io~1y', 'note'],
      ['/tools/0/_meta/io.modelcontextprotocol~1z', 'warning'],
      ['/tools/0/_meta/mcp.dev~1effect', 'note'],
    ]);
  });

  it('--spec 2025-06-18 applies its rule to a dump that records no version; 2025-03-26 gives notes only', async () => {
    expect(only(await lintDoc(doc(), '--spec', '2025-06-18'), 'meta-key-format').map((f) => f.severity)).toEqual(['warning', 'warning', 'warning']);
    const old = only(await lintDoc(doc('2025-03-26')), 'meta-key-format');
    expect(old.map((f) => [f.pointer, f.severity])).toEqual([['/tools/0/_meta/io.modelcontextprotocol~1z', 'note']]);
    expect(old[0]!.message).toContain('spec 2025-03-26 reserved no prefixes');
  });
});

describe('schema-valid: one finding per real problem in oneOf values', () => {
  const action = (value: unknown) => ({
    tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: quiet, _meta: { 'io.modelcontextprotocol/action-metadata': value } }],
  });
  const sep = (inputMetadata: unknown) => ({ tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: { ...quiet, inputMetadata } }] });
  const brief = (f: Finding) => [f.pointer.replace(/^\/tools\/0/, ''), f.message];

  it('an empty string where a string or a list is allowed: "must not be empty", not "must be an array"', async () => {
    const found = only(await lintDoc(action({ outcome: '' })), 'schema-valid');
    expect(found.map(brief)).toEqual([['/_meta/io.modelcontextprotocol~1action-metadata/outcome', '_meta["io.modelcontextprotocol/action-metadata"].outcome must not be empty']]);
    expect(found[0]!.suggestion).not.toMatch(/array/);
  });

  it('an empty string in a list of classes or objects: the string branch speaks', async () => {
    const found = only(await lintDoc(action({ returnMetadata: { sensitivity: [''] } })), 'schema-valid');
    expect(found.map(brief)).toEqual([
      ['/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/sensitivity/0', '_meta["io.modelcontextprotocol/action-metadata"].returnMetadata.sensitivity[0] must not be empty'],
    ]);
  });

  it('an object where a data class is expected: the object branch speaks, the string enum does not', async () => {
    const found = only(await lintDoc(sep({ destination: 'ephemeral', outcomes: 'benign', sensitivity: { foo: 1 } })), 'schema-valid');
    expect(found.map(brief)).toEqual([
      ['/annotations/inputMetadata/sensitivity', 'annotations.inputMetadata.sensitivity is missing the required member "regulated"'],
      ['/annotations/inputMetadata/sensitivity/foo', 'annotations.inputMetadata.sensitivity has a member "foo" that is not allowed there (allowed: "regulated")'],
    ]);
    const extra = only(await lintDoc(sep({ destination: 'ephemeral', outcomes: 'benign', sensitivity: { regulated: { scopes: ['GDPR'] }, extra: 1 } })), 'schema-valid');
    expect(extra.map(brief)).toEqual([
      ['/annotations/inputMetadata/sensitivity/extra', 'annotations.inputMetadata.sensitivity has a member "extra" that is not allowed there (allowed: "regulated")'],
    ]);
  });

  it('a string that is not a class still gets the enum message, with a guess', async () => {
    const found = only(await lintDoc(sep({ destination: 'ephemeral', outcomes: 'benign', sensitivity: 'pi' })), 'schema-valid');
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(/sensitivity is "pi"; expected one of "none"/);
  });
});

describe('schema-valid: where a member that is not allowed can go', () => {
  it('a member of an object already inside _meta is not told to move under _meta', async () => {
    const evidenceRef = { type: 'x', digest: 'sha256:00', canonicalization: 'jcs', extra: 1 };
    const doc = { tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: quiet, _meta: { 'io.modelcontextprotocol/trust-annotations': { untrusted: false, evidenceRef } } }] };
    const found = only(await lintDoc(doc), 'schema-valid').filter((f) => f.pointer.endsWith('/evidenceRef/extra'));
    expect(found).toHaveLength(1);
    expect(found[0]!.suggestion).toMatch(/^remove "extra": the object takes only its own members/);
    expect(found[0]!.suggestion).not.toContain('move it under _meta');
  });

  it('one in annotations still is', async () => {
    const doc = { tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: { ...quiet, inputMetadata: { destination: 'ephemeral', outcomes: 'benign', sensitivity: { regulated: { scopes: ['GDPR'] }, extra: 1 } } } }] };
    const found = only(await lintDoc(doc), 'schema-valid');
    expect(found.map((f) => f.suggestion)).toEqual(['remove "extra", or move it under _meta']);
  });
});

describe('input-schema-valid: required names nothing describes', () => {
  const tool = (inputSchema: unknown) => ({ tools: [{ name: 'a', inputSchema, annotations: quiet }] });
  const required = async (inputSchema: unknown) => only(await lintDoc(tool(inputSchema)), 'input-schema-valid');

  it('warns when the schema has no properties at all', async () => {
    const found = await required({ type: 'object', required: ['b'] });
    expect(found.map((f) => [f.pointer, f.severity])).toEqual([['/tools/0/inputSchema/required/0', 'warning']]);
    expect(found[0]!.message).toBe('inputSchema.required names "b", but inputSchema has no "properties"; a client or model reading the schema never learns what "b" is');
  });

  it('says no value can pass when additionalProperties is false', async () => {
    const [f] = await required({ type: 'object', additionalProperties: false, required: ['b'] });
    expect(f!.message).toMatch(/with additionalProperties false, no arguments can satisfy this schema$/);
  });

  it('looks into branches, and says it did', async () => {
    const [f, ...rest] = await required({ type: 'object', allOf: [{ properties: { a: {} } }], required: ['b'] });
    expect(rest).toEqual([]);
    expect(f!.message).toContain('no "properties" of inputSchema or of the subschemas combined with it');
    expect(await required({ type: 'object', allOf: [{ properties: { b: {} } }], required: ['b'] })).toEqual([]);
  });

  it('looks up a branch\'s required in the schema it is a branch of', async () => {
    expect(await required({ type: 'object', properties: { a: {}, b: {} }, anyOf: [{ required: ['a'] }, { required: ['b'] }] })).toEqual([]);
    expect(await required({ type: 'object', properties: { a: {}, b: {} }, allOf: [{ properties: { a: {} }, required: ['a', 'b'] }] })).toEqual([]);
    const found = await required({ type: 'object', properties: { a: {} }, oneOf: [{ required: ['a'] }, { required: ['c'] }] });
    expect(found.map((f) => f.pointer)).toEqual(['/tools/0/inputSchema/oneOf/1/required/0']);
  });

  it('leaves conditions and definitions alone', async () => {
    expect(await required({ type: 'object', properties: { a: {} }, not: { required: ['z'] }, if: { required: ['y'] }, then: { required: ['a'] }, $defs: { R: { required: ['q'] } } })).toEqual([]);
  });
});

describe('a value under a capitalised SEP-2061 key is still checked', () => {
  it('"Destination": "Pubic" gets draft-field\'s rename and schema-valid\'s value error', async () => {
    const found = await lintDoc({
      tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: { ...quiet, inputMetadata: { Destination: 'Pubic', sensitivity: 'none', outcomes: 'benign' } } }],
    });
    expect(found.map((f) => [f.ruleId, f.pointer])).toEqual([
      ['draft-field', '/tools/0/annotations/inputMetadata/Destination'],
      ['schema-valid', '/tools/0/annotations/inputMetadata/Destination'],
    ]);
    expect(found[1]!.message).toBe('annotations.inputMetadata.Destination is "Pubic"; expected one of "ephemeral", "system", "user", "internal" or "public"');
    expect(found[1]!.suggestion).toBe('did you mean "public"?');
  });

  it('a draft spelling of a valid value stays draft-field\'s alone', async () => {
    const found = await lintDoc({
      tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: { ...quiet, inputMetadata: { Destination: ['ephemeral', 'User'], Sensitivity: { foo: 1 }, outcomes: 'benign' } } }],
    });
    expect(found.map((f) => [f.ruleId, f.pointer])).toEqual([
      ['draft-field', '/tools/0/annotations/inputMetadata/Destination'],
      // The pack reads the draft spellings ("User" is user), so what they say is weighed.
      ['readonly-vs-destination', '/tools/0/annotations/inputMetadata/Destination'],
      ['draft-field', '/tools/0/annotations/inputMetadata/Destination/1'],
      ['draft-field', '/tools/0/annotations/inputMetadata/Sensitivity'],
      ['schema-valid', '/tools/0/annotations/inputMetadata/Sensitivity'],
      ['schema-valid', '/tools/0/annotations/inputMetadata/Sensitivity/foo'],
    ]);
    expect(found[4]!.message).toBe('annotations.inputMetadata.Sensitivity is missing the required member "regulated"');
  });

  it("the server's own capitalised members are a collision, not a draft spelling", async () => {
    const found = await lintDoc({
      tools: [
        {
          name: 'a',
          inputSchema: { type: 'object' },
          annotations: {
            readOnlyHint: false,
            destructiveHint: false,
            openWorldHint: true,
            inputMetadata: { Destination: 's3://exports', Format: 'csv' },
            returnMetadata: { Source: 'github', Sensitivity: 'internal' },
          },
        },
      ],
    });
    expect(found.map((f) => [f.ruleId, f.pointer])).toEqual([
      ['vocabulary-key-collision', '/tools/0/annotations/inputMetadata'],
      ['vocabulary-key-collision', '/tools/0/annotations/returnMetadata'],
    ]);
  });
});

describe('input-schema-valid: $dynamicRef only where the dialect has it', () => {
  const schema = ($schema?: string) => ({
    tools: [{ name: 'a', inputSchema: { ...($schema ? { $schema } : {}), type: 'object', properties: { p: { $dynamicRef: '#x' } } }, annotations: quiet }],
  });
  it('is not a reference in draft-07 or 2019-09', async () => {
    expect(only(await lintDoc(schema('http://json-schema.org/draft-07/schema#')), 'input-schema-valid')).toEqual([]);
    expect(only(await lintDoc(schema('https://json-schema.org/draft/2019-09/schema')), 'input-schema-valid')).toEqual([]);
  });
  it('dangles in 2020-12', async () => {
    const found = only(await lintDoc(schema()), 'input-schema-valid');
    expect(found.map((f) => [f.pointer, f.severity])).toEqual([['/tools/0/inputSchema/properties/p/$dynamicRef', 'error']]);
  });
  it('only warns without $schema under specs that named no default dialect', async () => {
    for (const protocolVersion of ['2025-03-26', '2025-06-18']) {
      const doc = { protocolVersion, serverInfo: { name: 's', version: '1' }, ...schema() };
      const found = only(await lintDoc(doc), 'input-schema-valid');
      expect(found.map((f) => [f.pointer, f.severity])).toEqual([['/tools/0/inputSchema/properties/p/$dynamicRef', 'warning']]);
      expect(found[0]!.message).toContain(`(JSON Schema 2020-12, which mcp-annotate assumes without "$schema": spec ${protocolVersion} names no default dialect); in draft-07 $dynamicRef is an unknown keyword that validators ignore`);
    }
    // Declared 2020-12, it is an error whatever the spec version.
    const declared = { protocolVersion: '2025-06-18', serverInfo: { name: 's', version: '1' }, ...schema('https://json-schema.org/draft/2020-12/schema') };
    expect(only(await lintDoc(declared), 'input-schema-valid').map((f) => f.severity)).toEqual(['error']);
  });
});

describe('input-schema-valid: a duplicate is reported where it repeats', () => {
  it('points at the later "p" of required ["p", "q", "p"]', async () => {
    const found = only(await lintDoc({ tools: [{ name: 'a', inputSchema: { type: 'object', properties: { p: {}, q: {} }, required: ['p', 'q', 'p'] }, annotations: quiet }] }), 'input-schema-valid');
    expect(found.map((f) => [f.pointer, f.suggestion])).toEqual([['/tools/0/inputSchema/required/2', 'remove the second "p"']]);
    expect(found[0]!.message).toContain('lists "p" twice (items 0 and 2)');
  });
});

describe('input-schema-valid: one finding for one mistake', () => {
  const props = (p: unknown, $schema?: string) => ({
    tools: [{ name: 'a', inputSchema: { ...($schema ? { $schema } : {}), type: 'object', properties: { p } }, annotations: quiet }],
  });
  it('an empty type list: one finding that says how to write it', async () => {
    const found = only(await lintDoc(props({ type: [] })), 'input-schema-valid');
    expect(found.map((f) => [f.pointer, f.message])).toEqual([
      ['/tools/0/inputSchema/properties/p/type', "inputSchema.properties.p.type must not be empty (JSON Schema 2020-12, MCP's default dialect)"],
    ]);
    expect(found[0]!.suggestion).toBe('list at least one type, e.g. ["string"], or remove "type" to allow values of any type');
  });

  it('draft-04 exclusiveMaximum written as a number: one finding with the draft-04 spelling', async () => {
    const found = only(await lintDoc(props({ type: 'number', exclusiveMaximum: 5 }, 'http://json-schema.org/draft-04/schema#')), 'input-schema-valid');
    expect(found.map((f) => f.pointer)).toEqual(['/tools/0/inputSchema/properties/p/exclusiveMaximum']);
    expect(found[0]!.message).toContain('is 5, but in this dialect exclusiveMaximum is a boolean that makes "maximum" exclusive');
    expect(found[0]!.suggestion).toMatch(/^write "maximum": 5, "exclusiveMaximum": true/);
  });

  it('a boolean exclusiveMaximum in 2020-12: the bound itself, said once', async () => {
    const found = only(await lintDoc(props({ type: 'number', maximum: 5, exclusiveMaximum: true })), 'input-schema-valid');
    expect(found.map((f) => [f.pointer, f.suggestion])).toEqual([
      ['/tools/0/inputSchema/properties/p/exclusiveMaximum', 'write "exclusiveMaximum": 5 in place of "maximum": 5 and "exclusiveMaximum": true'],
    ]);
  });
});

describe('input-schema-valid: an empty enum', () => {
  const props = (p: unknown, $schema?: string) => ({
    tools: [{ name: 'a', inputSchema: { ...($schema ? { $schema } : {}), type: 'object', properties: { p } }, annotations: quiet }],
  });
  it('is a warning in 2020-12 and 2019-09, where only Ajv refuses it', async () => {
    for (const $schema of [undefined, 'https://json-schema.org/draft/2019-09/schema']) {
      const found = only(await lintDoc(props({ enum: [] }, $schema)), 'input-schema-valid');
      expect(found.map((f) => [f.pointer, f.severity])).toEqual([['/tools/0/inputSchema/properties/p/enum', 'warning']]);
      expect(found[0]!.message).toContain('is empty, so no value can match it; Ajv');
    }
  });
  it('is one error in draft-07, whose meta-schema forbids it', async () => {
    const found = only(await lintDoc(props({ enum: [] }, 'http://json-schema.org/draft-07/schema#')), 'input-schema-valid');
    expect(found.map((f) => [f.pointer, f.severity, f.suggestion])).toEqual([['/tools/0/inputSchema/properties/p/enum', 'error', 'list the values it allows, or remove "enum"']]);
  });
});

describe('explainErrors keeps both problems of a value of the wrong type that also breaks a bound', () => {
  it('-1.5 against {type: integer, minimum: 0}: not an integer, and too small', async () => {
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const { explainErrors } = await import('../src/schema/explain.js');
    const validate = new Ajv2020({ allErrors: true, verbose: true }).compile({ type: 'object', properties: { n: { type: 'integer', minimum: 0 } } });
    expect(validate({ n: -1.5 })).toBe(false);
    const messages = explainErrors(validate.errors ?? [], '', 'the value').map((e) => e.message);
    expect(messages.sort()).toEqual(['n must be >= 0, got -1.5', 'n must be an integer, got a number (-1.5)']);
  });
});

describe('explainErrors says a length or size bound with its count in words', () => {
  it('"1 item" and "3 characters": one and many', async () => {
    const { default: Ajv2020 } = await import('ajv/dist/2020.js');
    const { explainErrors } = await import('../src/schema/explain.js');
    const validate = new Ajv2020({ allErrors: true, verbose: true }).compile({
      type: 'object',
      properties: { s: { type: 'string', minLength: 3 }, t: { type: 'string', maxLength: 2 }, a: { type: 'array', minItems: 2 }, b: { type: 'array', maxItems: 1 } },
    });
    expect(validate({ s: '', t: 'abc', a: [1], b: [1, 2] })).toBe(false);
    expect(explainErrors(validate.errors ?? [], '', 'the value').map((e) => `${e.message} / ${e.suggestion}`)).toEqual([
      's must be at least 3 characters long, got "" / write a value of at least 3 characters',
      't must be at most 2 characters long, got "abc" / shorten it to 2 characters or fewer',
      'a must have at least 2 items, got 1 / list at least 2 items',
      'b must have at most 1 item, got 2 / list at most 1 item',
    ]);
  });
});

describe('sep-1913: "regulated" written as a string', () => {
  const regulated = 'SEP-1913 writes the regulated class as an object naming the regimes that apply, {"regulated": {"scopes": […]}}, not as a string';
  it('says the regulated class is an object, alone or in a list, in either metadata', async () => {
    const found = await lintDoc({
      tools: [
        {
          name: 'a',
          inputSchema: { type: 'object' },
          annotations: {
            ...quiet,
            returnMetadata: { source: 'internal', sensitivity: 'regulated' },
            inputMetadata: { destination: 'ephemeral', sensitivity: ['pii', 'regulated'], outcomes: 'benign' },
          },
        },
      ],
    });
    expect(found.map((f) => [f.ruleId, f.pointer])).toEqual([
      ['schema-valid', '/tools/0/annotations/returnMetadata/sensitivity'],
      ['schema-valid', '/tools/0/annotations/inputMetadata/sensitivity/1'],
    ]);
    expect(found[0]!.message).toBe(`annotations.returnMetadata.sensitivity is "regulated"; ${regulated} (the string classes are "none", "user", "pii", "financial" and "credentials")`);
    expect(found[1]!.message).toContain(`annotations.inputMetadata.sensitivity[1] is "regulated"; ${regulated}`);
    for (const f of found) expect(f.suggestion).toBe('write {"regulated": {"scopes": ["GDPR"]}} in its place, with the regimes that apply (e.g. GDPR, HIPAA, PCI-DSS)');
  });

  it('"Regulated" is the same mistake, not a draft spelling to lower-case', async () => {
    const found = await lintDoc({
      tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: { ...quiet, returnMetadata: { source: 'internal', sensitivity: 'Regulated' } } }],
    });
    expect(found.map((f) => [f.ruleId, f.pointer])).toEqual([['schema-valid', '/tools/0/annotations/returnMetadata/sensitivity']]);
    expect(found[0]!.message).toContain(`is "Regulated"; ${regulated}`);
  });
});

describe('schema-valid: a dump that records no version is also checked against the version before the latest', () => {
  const tool = {
    name: 'list_rows',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'array', items: { type: 'string' } },
    execution: { taskSupport: 'always' },
    annotations: quiet,
  };

  it('warns, naming that version, about what its clients reject and the latest does not', async () => {
    const found = only(await lintDoc({ tools: [tool] }), 'schema-valid');
    expect(found.map((f) => [f.pointer, f.severity])).toEqual([
      ['/tools/0/outputSchema/type', 'warning'],
      ['/tools/0/execution/taskSupport', 'warning'],
    ]);
    expect(found[0]!.message).toBe(
      'outputSchema.type is "array"; expected "object" under spec 2025-11-25, whose clients (the MCP SDKs today) reject the tools/list — ' +
        'no usable protocol version was recorded, so the tool was linted against 2026-07-28 (record protocolVersion or pass --spec)',
    );
    expect(found[0]!.suggestion).toContain('clients of spec 2025-11-25 accept the tool');
  });

  it('a version that is no date counts as none', async () => {
    const dir = tempDir({ 'dump.json': JSON.stringify({ protocolVersion: 'v2', serverInfo: { name: 's', version: '1' }, tools: [tool] }) });
    const r = await runCli(['lint', join(dir, 'dump.json'), '--no-config', '-f', 'json']);
    expect(r.stderr).toContain('which is not a date');
    const found = only((JSON.parse(r.stdout) as { findings: Finding[] }).findings, 'schema-valid');
    expect(found.map((f) => [f.pointer, f.severity])).toEqual([
      ['/tools/0/outputSchema/type', 'warning'],
      ['/tools/0/execution/taskSupport', 'warning'],
    ]);
  });

  it('says nothing more when the version is given with --spec or recorded', async () => {
    expect(only(await lintDoc({ tools: [tool] }, '--spec', '2026-07-28'), 'schema-valid').filter((f) => f.pointer.startsWith('/tools/'))).toEqual([]);
    const recorded = { protocolVersion: '2026-07-28', serverInfo: { name: 's', version: '1' }, resultType: 'complete', cacheScope: 'private', ttlMs: 0, tools: [tool] };
    expect(only(await lintDoc(recorded), 'schema-valid')).toEqual([]);
    // Given 2025-11-25, the same problems are errors of that version, not warnings about it.
    expect(only(await lintDoc({ tools: [tool] }, '--spec', '2025-11-25'), 'schema-valid').map((f) => f.severity)).toEqual(['error', 'error']);
  });

  it('does not report twice what the latest already reports', async () => {
    const found = only(await lintDoc({ tools: [{ ...tool, name: 7, outputSchema: { type: 'object' }, execution: undefined }] }), 'schema-valid');
    expect(found.map((f) => [f.pointer, f.severity])).toEqual([['/tools/0/name', 'error']]);
  });

  it('a valid tool gets nothing', async () => {
    expect(only(await lintDoc({ tools: [{ ...tool, outputSchema: { type: 'object' }, execution: { taskSupport: 'optional' } }] }), 'schema-valid')).toEqual([]);
  });
});

describe('under spec 2025-03-26, whose Tool has no outputSchema, "x-sensitive" there counts for nothing', () => {
  const tool = {
    name: 'get_api_key',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { key: { type: 'string', 'x-sensitive': true } } },
    annotations: { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: 'credentials' } },
  };

  it('credentials-in-output warns, and says why the x-sensitive property does not keep the secret out', async () => {
    const found = only(await lintDoc({ tools: [tool] }, '--spec', '2025-03-26'), 'credentials-in-output');
    expect(found.map((f) => [f.pointer, f.severity])).toEqual([['/tools/0/annotations/returnMetadata/sensitivity', 'warning']]);
    expect(found[0]!.message).toContain("spec 2025-03-26's Tool has none");
    expect(found[0]!.suggestion).toContain('set annotations.sensitiveHint to true');
    // From 2025-06-18 on clients read outputSchema, and the property keeps the secret out.
    expect(only(await lintDoc({ tools: [tool] }, '--spec', '2025-06-18'), 'credentials-in-output')).toEqual([]);
  });

  it('sensitive-output-undeclared says nothing of the property', async () => {
    const marked = { ...tool, annotations: { readOnlyHint: true, openWorldHint: false } };
    expect(only(await lintDoc({ tools: [marked] }, '--spec', '2025-06-18'), 'sensitive-output-undeclared')).toHaveLength(1);
    expect(only(await lintDoc({ tools: [marked] }, '--spec', '2025-03-26'), 'sensitive-output-undeclared')).toEqual([]);
  });
});

describe("meta-key-format: the _meta keys MCP defines are each version's own", () => {
  const tool = {
    name: 'a',
    inputSchema: { type: 'object' },
    annotations: quiet,
    _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1' }, 'io.modelcontextprotocol/related-task': { taskId: '1' } },
  };

  it('under 2025-11-25 a key only 2026-07-28 defines is reserved and undefined; under 2026-07-28 one only 2025-11-25 defines', async () => {
    const at11 = only(await lintDoc({ tools: [tool] }, '--spec', '2025-11-25'), 'meta-key-format');
    expect(at11.map((f) => [f.pointer, f.severity])).toEqual([['/tools/0/_meta/io.modelcontextprotocol~1serverInfo', 'warning']]);
    expect(at11[0]!.message).toContain('MCP defines it in spec 2026-07-28 only');
    const at07 = only(await lintDoc({ tools: [tool] }, '--spec', '2026-07-28'), 'meta-key-format');
    expect(at07.map((f) => f.pointer)).toEqual(['/tools/0/_meta/io.modelcontextprotocol~1related-task']);
  });

  it('a dump that records no version (linted against the latest for want of one): the keys of the version before the latest count as defined too', async () => {
    // Neither related-task (2025-11-25's) nor serverInfo (2026-07-28's) is reported.
    expect(only(await lintDoc({ tools: [tool] }), 'meta-key-format')).toEqual([]);
    // A reserved key no version defines still is.
    const owner = { ...tool, _meta: { ...tool._meta, 'io.modelcontextprotocol/owner': 1 } };
    expect(only(await lintDoc({ tools: [owner] }), 'meta-key-format').map((f) => f.pointer)).toEqual(['/tools/0/_meta/io.modelcontextprotocol~1owner']);
    // A recorded (or given) latest version has its own keys only.
    const recorded = only(await lintDoc({ protocolVersion: '2026-07-28', serverInfo: { name: 's', version: '1' }, tools: [tool] }), 'meta-key-format');
    expect(recorded.map((f) => f.pointer)).toEqual(['/tools/0/_meta/io.modelcontextprotocol~1related-task']);
  });

  it("checks the tools/list result's own _meta when the version is recorded or given, not otherwise", async () => {
    const envelope = { _meta: { 'io.modelcontextprotocol/owner': 1, 'io.modelcontextprotocol/serverInfo': { name: 'x', version: '1' } }, tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: quiet }] };
    const given = only(await lintDoc(envelope, '--spec', '2025-11-25'), 'meta-key-format');
    expect(given.map((f) => f.pointer)).toEqual(['/_meta/io.modelcontextprotocol~1owner', '/_meta/io.modelcontextprotocol~1serverInfo']);
    const recorded = only(await lintDoc({ protocolVersion: '2026-07-28', serverInfo: { name: 's', version: '1' }, ...envelope }), 'meta-key-format');
    expect(recorded.map((f) => f.pointer)).toEqual(['/_meta/io.modelcontextprotocol~1owner']);
    expect(only(await lintDoc(envelope), 'meta-key-format')).toEqual([]);
  });
});
