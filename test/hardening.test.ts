/**
 * Whatever a server or a file throws at it, lint returns findings or one clear input
 * error: never throws, never hangs, never lets a server string reach the terminal raw,
 * and always writes valid SARIF. Property tests run twice: with a fixed seed (the same
 * cases every CI run) and with a random one (fast-check prints it on failure, so a
 * failure can be replayed with { seed }).
 */
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RULES } from '../rules/index.js';
import { lint } from '../src/engine/engine.js';
import { diff } from '../src/diff/diff.js';
import { DRIFT_RULES } from '../src/diff/rules/index.js';
import { format, FORMATS } from '../src/reporters/index.js';
import type { FormatName, Report } from '../src/reporters/types.js';
import { loadText } from '../src/sources/files.js';
import { parse as parseTolerant, type ParseError } from 'jsonc-parser';
import { firstJsonError, InputProblem } from '../src/sources/parse.js';
import { BIN, ROOT, runCli, tempDir } from './helpers/cli.js';
import { assertAsyncProperty, assertProperty } from './helpers/property.js';
import { validateJsonReport, validateSarif } from './helpers/schemas.js';


const RUNS = 60;

/** Lint a document text in process, through every format; returns the outputs or the input error. */
function lintAll(text: string): { outputs: Record<string, string>; error?: string } {
  let servers;
  try {
    servers = loadText(text, { kind: 'file', path: 'dump.json', display: 'dump.json' }, 'dump', 'dump.json');
  } catch (err) {
    if (err instanceof InputProblem) return { outputs: {}, error: err.message };
    throw err;
  }
  const result = lint(servers, RULES);
  const report: Report = { findings: result.findings, servers: result.servers, errors: [], rules: RULES, cwd: ROOT };
  const outputs: Record<string, string> = {};
  for (const f of FORMATS) outputs[f] = format(f as FormatName, report, { color: false, quiet: false });
  return { outputs };
}

/** Runs a property with the fixed seed, then with a random one. */
function check<T>(arb: fc.Arbitrary<T>, predicate: (v: T) => void) {
  assertProperty(fc.property(arb, predicate), { numRuns: RUNS });
}

/**
 * Any JSON value, whose object members are sometimes named as Object.prototype's are: a schema
 * `"enum": [{}, {"valueOf": {}}]` once took the whole run down (Ajv's equal called the member).
 */
const PROTOTYPE_NAMES = ['valueOf', 'toString', 'constructor', 'hasOwnProperty', 'isPrototypeOf', 'toJSON', 'prototype', '__proto__'];
const { json: anyJson } = fc.letrec<{ json: unknown }>((tie) => ({
  json: fc.oneof(
    { depthSize: 'small', maxDepth: 6 },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.string(),
    fc.array(tie('json'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom(...PROTOTYPE_NAMES)), tie('json'), { maxKeys: 4 }),
  ),
}));
const KNOWN_ANNOTATION_KEYS = [
  'title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint', 'maliciousActivityHint', 'attribution', 'inputMetadata', 'returnMetadata',
  'riskLevel', 'category', 'blastRadius', 'reversibility', 'sideEffects', 'approvalRecommendation', 'minTrustLevel', 'sensitiveHint', 'privateHint',
];
const annotations = fc.dictionary(fc.oneof(fc.constantFrom(...KNOWN_ANNOTATION_KEYS), fc.string()), anyJson, { maxKeys: 8 });
const meta = fc.dictionary(fc.oneof(fc.constantFrom('mcp.dev/effect', 'mcp.dev/idempotent', 'mcp.dev/requiresConfirmation', 'mcp.dev/resultSensitivity', 'io.modelcontextprotocol/action-metadata', 'io.modelcontextprotocol/trust-annotations'), fc.string()), anyJson, { maxKeys: 6 });
const schemaLike = fc.oneof(
  anyJson,
  fc.record(
    {
      $schema: fc.constantFrom('http://json-schema.org/draft-04/schema#', 'http://json-schema.org/draft-07/schema#', 'https://json-schema.org/draft/2020-12/schema'),
      type: fc.constantFrom('object', 'string', 42),
      properties: fc.dictionary(fc.string(), anyJson, { maxKeys: 4 }),
      required: fc.array(fc.string(), { maxLength: 3 }),
      // Values the validators compare (uniqueItems, enum, const), and a keyword no fast path knows.
      enum: fc.array(anyJson, { maxLength: 4 }),
      const: anyJson,
      $vocabulary: anyJson,
    },
    { requiredKeys: [] },
  ),
);

function assertSafe(text: string) {
  const { outputs, error } = lintAll(text);
  if (error !== undefined) {
    expect(error).not.toContain('\n');
    return;
  }
  expect(validateSarif(JSON.parse(outputs.sarif!)), JSON.stringify(validateSarif.errors?.slice(0, 2))).toBe(true);
  expect(() => JSON.parse(outputs.json!)).not.toThrow();
  // Nothing from the input may reach the terminal as a control, bidi or invisible character.
  expect(outputs.text!).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]|\udb40[\udc00-\udc7f]/);
  // The placeholders numbers are quoted with while the rules run (src/util/written.ts) are all
  // resolved: no format, SARIF fingerprints included, holds their private-use characters unless
  // the input did.
  if (!PLACEHOLDER_CHARS.test(text)) for (const [f, out] of Object.entries(outputs)) expect(out, f).not.toMatch(PLACEHOLDER_CHARS);
}
const PLACEHOLDER_CHARS = /[\uE000-\uE004]/;

describe('any JSON, anywhere', () => {
  it('as a tool', () => check(anyJson, (tool) => assertSafe(JSON.stringify({ tools: [tool] }))));
  it('as a whole document', () => check(anyJson, (doc) => assertSafe(JSON.stringify(doc))));
  it('as annotations', () => check(annotations, (a) => assertSafe(JSON.stringify({ tools: [{ name: 'x', inputSchema: { type: 'object' }, annotations: a }] }))));
  it('as _meta', () => check(meta, (m) => assertSafe(JSON.stringify({ tools: [{ name: 'x', inputSchema: { type: 'object' }, _meta: m }] }))));
  it('as inputSchema and outputSchema', () =>
    check(fc.tuple(schemaLike, schemaLike), ([i, o]) => assertSafe(JSON.stringify({ tools: [{ name: 'x', inputSchema: i, outputSchema: o }] }))));
  it('any string as name, title and description', () =>
    check(fc.tuple(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' })), ([name, title, description]) =>
      assertSafe(JSON.stringify({ serverInfo: { name: title }, tools: [{ name, title, description, inputSchema: { type: 'object' }, annotations: { title: description, readOnlyHint: true, destructiveHint: true } }] })),
    ));
});

describe('any annotations on either side of a diff', () => {
  /** A document's text with some of its numbers written as JSON.parse cannot read them back (1e400, 2^53 and past). */
  const withBigNumbers = (doc: unknown, which: number) => {
    let k = 0;
    const big = ['1e400', '-1e999', '12345678901234567890123'];
    return JSON.stringify(doc).replace(/(?<=[:,[])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=[,}\]])/g, (n) => (k++ % 3 === which ? big[k % 3]! : n));
  };
  const serverOf = (text: string, name: string) => loadText(text, { kind: 'file', path: name, display: name }, name.replace(/\.json$/, ''), name);

  it('gives findings whose texts hold no placeholder, numbers quoted as written or said as read', () => {
    // The base's hints say what clients rely on; the head's are anything, numbers often (what drift rules quote).
    const safe = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    const value = fc.oneof(anyJson, fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
    const hints = fc.record({ readOnlyHint: value, destructiveHint: value, idempotentHint: value, openWorldHint: value }, { requiredKeys: [] });
    check(fc.tuple(annotations, hints, fc.nat(2)), ([a, h, which]) => {
      const tool = (annotations: unknown) => ({ tools: [{ name: 'x', inputSchema: { type: 'object' }, annotations }] });
      const base = withBigNumbers(tool({ ...a, ...safe }), which);
      const head = withBigNumbers(tool({ ...a, ...h }), (which + 1) % 3);
      fc.pre(!PLACEHOLDER_CHARS.test(base + head));
      const result = diff(serverOf(base, 'base.json'), serverOf(head, 'head.json'), DRIFT_RULES);
      for (const f of result.findings) {
        const texts = [f.message, f.suggestion ?? '', f.detail ?? '', ...(f.related ?? []).map((r) => r.message)].join('\n');
        expect(texts, f.ruleId).not.toMatch(PLACEHOLDER_CHARS);
      }
    });
  });
});

describe('values the schema validators compare', () => {
  it('objects with members named as Object.prototype\'s (valueOf, toString) in enum and const are data, not methods', async () => {
    const tool = (inputSchema: unknown) => ({ name: 't', inputSchema });
    const dir = tempDir({
      'a.json': JSON.stringify({ tools: [tool({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', enum: [{}, { valueOf: {} }] })] }),
      'b.json': JSON.stringify({ tools: [tool({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', enum: [{}, { toString: 1 }] })] }),
      'c.json': JSON.stringify({ tools: [tool({ type: 'object', properties: { a: { enum: [{}, { valueOf: {} }] }, b: { $vocabulary: [] } } })] }),
      // Equal members are still equal: draft-04 asks enum's items to be unique.
      'd.json': JSON.stringify({ tools: [tool({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', enum: [{ valueOf: 1, a: [1, { b: null }] }, { a: [1, { b: null }], valueOf: 1 }] })] }),
    });
    const r = await runCli(['lint', '--no-config', '-f', 'json', 'a.json', 'b.json', 'c.json', 'd.json'], { cwd: dir });
    expect(r.stderr).not.toContain('internal error');
    const report = JSON.parse(r.stdout) as { servers: unknown[]; findings: { ruleId: string; pointer: string; message: string }[] };
    expect(report.servers).toHaveLength(4);
    const schemaErrors = report.findings.filter((f) => f.ruleId === 'input-schema-valid' && /enum/.test(f.pointer)).map((f) => f.message);
    expect(schemaErrors).toEqual([expect.stringMatching(/^inputSchema.enum lists .* twice \(items 0 and 1\)/)]);
  });
});

describe('uniqueItems over many items', () => {
  /** The build's helpers for the generated validators (scripts/build.mjs), as the generated modules define them. */
  async function helpers(): Promise<{ lastDuplicate: (data: unknown[]) => [number, number] | undefined; equal: (a: unknown, b: unknown) => boolean; jsonKey: (v: unknown) => string }> {
    const build = (await import(pathToFileURL(join(ROOT, 'scripts', 'build.mjs')).href)) as { EQUAL: string; UNIQUE: string };
    return new Function(`${build.EQUAL}\n${build.UNIQUE}\nreturn { lastDuplicate: __lastDuplicate, equal: __equal, jsonKey: __jsonKey };`)();
  }

  /** Few distinct values, so that lists repeat some: numbers that print alike (0 and -0, 1e400 read as Infinity beside null), strings that read as other values, prototype names. */
  const { item } = fc.letrec<{ item: unknown }>((tie) => ({
    item: fc.oneof(
      { depthSize: 'small', maxDepth: 3 },
      { arbitrary: fc.constantFrom(null, 0, -0, 1, Infinity, -Infinity, '', '0', 'null', '1e400', 'true', '"a"', 'a', 'a,b', '[]', '{}', true, false), weight: 3 },
      fc.array(tie('item'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('a', 'b', 'a,b', 'a:1,b', ...PROTOTYPE_NAMES), tie('item'), { maxKeys: 3 }),
    ),
  }));

  /** The same JSON value with every object's members in another order. */
  function reordered(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(reordered);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).reverse()) Object.defineProperty(out, k, { value: reordered((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
    return out;
  }

  it('keys two JSON values alike exactly when they are equal', async () => {
    const { equal, jsonKey } = await helpers();
    // Values whose text could run together if it were written carelessly.
    const pairs: [unknown, unknown, boolean][] = [
      [null, 'null', false],
      [Infinity, null, false],
      [-Infinity, '-1e400', false],
      [0, -0, true],
      [['a,b'], ['a', 'b'], false],
      [['a', ''], ['a'], false],
      [[1, 2], [12], false],
      [{ 'a:1,b': 1 }, { a: 1, b: 1 }, false],
      [{ a: 1, b: [2] }, { b: [2], a: 1 }, true],
    ];
    for (const [a, b, same] of pairs) {
      expect(equal(a, b)).toBe(same);
      expect(jsonKey(a) === jsonKey(b)).toBe(same);
    }
    assertProperty(
      fc.property(item, item, fc.boolean(), (a, b, same) => {
        const other = same ? reordered(a) : b;
        expect(jsonKey(a) === jsonKey(other)).toBe(equal(a, other));
      }),
      { numRuns: 2_000 },
    );
  });

  /** Ajv's own loop over every pair: the last item with an equal one before it, and the last of those. */
  function everyPair(data: unknown[], equal: (a: unknown, b: unknown) => boolean): [number, number] | undefined {
    for (let i = data.length; i--; ) for (let j = i; j--; ) if (equal(data[i], data[j])) return [i, j];
    return undefined;
  }

  it('finds the pair that comparing every pair finds, over any JSON items, short lists and long', async () => {
    const { lastDuplicate, equal } = await helpers();
    assertProperty(
      // Up to 16 items are compared pair by pair, as Ajv did; longer lists by their JSON text.
      fc.property(fc.oneof(fc.array(item, { maxLength: 16 }), fc.array(item, { minLength: 17, maxLength: 60, size: 'max' })), (data) => {
        expect(lastDuplicate(data)).toEqual(everyPair(data, equal));
      }),
      { numRuns: 300 },
    );
  });

  it('lints a schema whose type, enum and required list tens of thousands of items at once, and still finds their repeats', { timeout: 60_000 }, async () => {
    // Ajv compared every pair: 40,000 strings in a type took 17 s, 40,000 objects over a minute.
    const n = 40_000;
    const tool = (name: string, inputSchema: unknown) => ({ name, inputSchema });
    const dir = tempDir({
      'wide.json': JSON.stringify({
        tools: [
          tool('types', { type: 'object', properties: { a: { type: [...Array.from({ length: n }, (_, i) => ({ k: i })), { k: 7 }] } } }),
          tool('enum', { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { a: { enum: [...Array.from({ length: n }, (_, i) => ({ k: [i, { z: i }] })), { k: [5, { z: 5 }] }] } } }),
          // In Ajv's table "__proto__" was never a repeat.
          tool('proto', { type: 'object', properties: { __proto__: { type: 'string' } }, required: ['__proto__', 'a', '__proto__'] }),
        ],
      }),
    });
    const r = await runCli(['lint', '--no-config', '-f', 'json', 'wide.json'], { cwd: dir });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout) as { findings: { ruleId: string; tool: string; message: string }[] };
    const repeats = report.findings.filter((f) => f.ruleId === 'input-schema-valid' && / twice /.test(f.message)).map((f) => `${f.tool}: ${f.message}`);
    // 40,001 items that are not types: the first 50 problems, and a note that counts the rest.
    const types = report.findings.filter((f) => f.tool === 'types' && f.ruleId === 'input-schema-valid').map((f) => f.message);
    expect(types).toHaveLength(51);
    expect(types).toContain('inputSchema has 39952 more problems than mcp-annotate reports for one schema');
    expect(repeats).toEqual([
      `enum: inputSchema.properties.a.enum lists {"k":[5,{"z":5}]} twice (items 5 and ${n}) (JSON Schema draft-04)`,
      `proto: inputSchema.required lists "__proto__" twice (items 0 and 2) (JSON Schema 2020-12, MCP's default dialect)`,
    ]);
  });
});

describe('any JSON in a client config file', () => {
  // Entries in every client's shape, with any JSON in any field (and some fields of the right type).
  const field = (name: string, good: fc.Arbitrary<unknown>) => fc.tuple(fc.constant(name), fc.oneof({ arbitrary: good, weight: 5 }, { arbitrary: anyJson, weight: 1 }));
  const command = field('command', fc.oneof(fc.constant('node'), fc.constant(['node', 'server.js']), fc.array(fc.string(), { maxLength: 3 })));
  const url = field('url', fc.constantFrom('https://mcp.example.com/mcp', 'https://mcp.example.com/mcp', 'ftp://x', '${env:MISSING}', '{env:MISSING}', 'http://u:%zz@h.example/m', 'https://h.example/m?key=%E0%A4%A'));
  const extra = fc.oneof(
    field('args', fc.array(fc.string(), { maxLength: 3 })),
    field('env', fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 })),
    field('environment', fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 })),
    field('type', fc.constantFrom('local', 'remote', 'stdio', 'http', 'sse', 'ws')),
    field('timeout', fc.oneof(fc.integer(), fc.integer({ min: 1 }), fc.record({ startup: fc.integer({ min: 1 }), request: fc.oneof(fc.nat(), anyJson) }, { requiredKeys: [] }))),
    field('cwd', fc.string()),
    field('headers', fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 })),
    field('disabled', fc.boolean()),
    field('source', fc.constantFrom('custom', 'extension')),
  );
  // Mostly entries with a command or a URL and some other fields; some any JSON at all.
  const entry = fc.oneof(
    { arbitrary: anyJson, weight: 1 },
    { arbitrary: fc.tuple(fc.oneof(command, url), fc.array(extra, { maxLength: 5 })).map(([first, rest]) => Object.fromEntries([first, ...rest])), weight: 6 },
  );
  const servers = fc.oneof({ arbitrary: anyJson, weight: 1 }, { arbitrary: fc.dictionary(fc.string(), entry, { maxKeys: 4 }), weight: 4 });
  const document = fc.oneof(
    anyJson,
    fc.record({ mcpServers: servers }),
    fc.record({ servers, inputs: anyJson }, { requiredKeys: ['servers'] }),
    fc.record({ mcp: fc.oneof(servers, fc.record({ servers, inputs: anyJson }, { requiredKeys: ['servers'] })) }),
    fc.record({ context_servers: servers }),
    fc.record({ projects: fc.dictionary(fc.constantFrom('/p', '/q'), fc.record({ mcpServers: servers })) }),
  );

  it('gives targets, notes, or errors of one line naming the file: it never throws', async () => {
    const { targetsFromConfigText } = await import('../src/sources/live/config.js');
    assertProperty(
      fc.property(document, fc.constantFrom('/p/opencode.json', '/p/.vscode/settings.json', '/p/.mcp.json'), (doc, file) => {
        const r = targetsFromConfigText(JSON.stringify(doc, null, 2), { file, cwd: '/p', env: { HOME: '/home/u' } });
        for (const e of r.errors) {
          expect(e.message).not.toContain('\n');
          expect(e.message.startsWith(file.slice(3))).toBe(true);
        }
        for (const t of r.targets) {
          expect(t.stdio !== undefined || t.http !== undefined).toBe(true);
          if (t.timeoutMs !== undefined) expect(Number.isInteger(t.timeoutMs) && t.timeoutMs > 0).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('any JSON or YAML as the config file', () => {
  const ruleIds = RULES.map((r) => r.id);
  const severity = fc.constantFrom('off', 'note', 'warning', 'error', 'warn', 2);
  const setting = fc.oneof(severity, fc.tuple(severity, fc.oneof(anyJson, fc.dictionary(fc.string(), anyJson, { maxKeys: 2 }))), anyJson);
  const rules = fc.dictionary(fc.oneof(fc.constantFrom(...ruleIds, 'drift/tool-added', 'policy/p', 'policy/none'), fc.string()), setting, { maxKeys: 4 });
  const fact = fc.constantFrom('claims.readOnly', 'claims.destinations', 'claims.riskLevel', 'tool.annotations.readOnlyHint', 'tool._meta["mcp.dev/effect"]', 'server.name', 'request.x', 'claims.nope', 'tool.', '');
  const condition: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    c: fc.oneof(
      { depthSize: 'small' },
      fc.record({ fact, equals: anyJson }),
      fc.record({ fact, in: fc.array(anyJson, { maxLength: 3 }) }),
      fc.record({ fact, contains: anyJson }),
      fc.record({ and: fc.array(tie('c'), { maxLength: 3 }) }),
      fc.record({ or: fc.array(tie('c'), { maxLength: 3 }) }),
      fc.record({ not: tie('c') }),
      anyJson,
    ),
  })).c;
  const policy = fc.record({ name: fc.oneof(fc.constant('p'), fc.string()), effect: fc.oneof(fc.constantFrom('block', 'escalate', 'warn'), anyJson), conditions: condition }, { requiredKeys: ['name'] });
  const config = fc.record(
    {
      extends: fc.oneof(fc.constantFrom('mcp-annotate:recommended', 'mcp-annotate:strict', 'mcp-annotate:all', 'nope'), fc.array(fc.constantFrom('mcp-annotate:recommended', 'mcp-annotate:strict'), { maxLength: 2 }), anyJson),
      rules: fc.oneof(rules, anyJson),
      overrides: fc.oneof(fc.array(fc.record({ servers: fc.array(fc.string(), { maxLength: 2 }), tools: fc.array(fc.constantFrom('*', 'a*', '{x,y}', '[', ''), { maxLength: 2 }), rules }, { requiredKeys: [] }), { maxLength: 2 }), anyJson),
      policies: fc.oneof(fc.array(policy, { maxLength: 2 }), anyJson),
      vocabularies: fc.oneof(fc.array(fc.constantFrom('core', 'sep-1913', 'nope'), { maxLength: 2 }), fc.dictionary(fc.constantFrom('core', 'sep-1913', 'webmcp-sensitive', 'x'), anyJson), anyJson),
      spec: fc.oneof(fc.constantFrom('2025-06-18', '2025-11-25', '1999-01-01'), anyJson),
      failOn: fc.oneof(fc.constantFrom('none', 'note', 'warning', 'error'), anyJson),
      maxWarnings: fc.oneof(fc.nat(), anyJson),
      targets: fc.oneof(fc.array(fc.string(), { maxLength: 2 }), fc.record({ files: fc.array(fc.string(), { maxLength: 2 }), mcpServers: fc.dictionary(fc.string(), anyJson, { maxKeys: 2 }) }, { requiredKeys: [] }), anyJson),
    },
    { requiredKeys: [] },
  );
  // The same shape with valid values nearly everywhere, so that most configs resolve and run.
  const okSeverity = fc.constantFrom('off', 'note', 'warning', 'error');
  const okRules = fc.dictionary(fc.constantFrom(...ruleIds, 'drift/tool-added', 'policy/p'), fc.oneof(okSeverity, fc.tuple(okSeverity)), { maxKeys: 4 });
  const okFact = fc.constantFrom('claims.readOnly', 'claims.destinations', 'claims.riskLevel', 'claims.outcomes', 'tool.annotations.readOnlyHint', 'tool.name', 'tool._meta["mcp.dev/effect"]', 'server.name');
  const okCondition: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    c: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ fact: okFact, equals: fc.oneof(fc.boolean(), fc.constantFrom('public', 'high', 'a', 'irreversible')) }),
      fc.record({ fact: okFact, in: fc.array(fc.oneof(fc.boolean(), fc.constantFrom('public', 'high', 'a')), { minLength: 1, maxLength: 3 }) }),
      fc.record({ fact: okFact, contains: fc.constantFrom('public', 'pii', 'irreversible') }),
      fc.record({ and: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ or: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ not: tie('c') }),
    ),
  })).c;
  const okConfig = fc.record(
    {
      extends: fc.constantFrom('mcp-annotate:recommended', 'mcp-annotate:strict', 'mcp-annotate:all'),
      rules: okRules,
      overrides: fc.array(fc.record({ tools: fc.array(fc.constantFrom('*', 'a*', '{x,y}'), { minLength: 1, maxLength: 2 }), rules: okRules }), { maxLength: 2 }),
      policies: fc.array(fc.record({ name: fc.constant('p'), effect: fc.constantFrom('block', 'escalate', 'warn'), conditions: okCondition }), { maxLength: 1 }),
      vocabularies: fc.array(fc.constantFrom('core', 'sep-1913', 'risk-metadata'), { maxLength: 2 }),
      failOn: fc.constantFrom('none', 'note', 'warning', 'error'),
      maxWarnings: fc.nat(),
    },
    { requiredKeys: [] },
  );
  const sample = JSON.stringify({ tools: [{ name: 'a', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: false } }, { name: 'x', inputSchema: { type: 'object' } }] });

  it('loads and lints, or says what is wrong in lines naming the file: it never throws anything else', async () => {
    const { loadConfig, ConfigError } = await import('../src/config/index.js');
    const { stringify } = await import('yaml');
    const dir = tempDir({});
    let n = 0;
    await assertAsyncProperty(
      fc.asyncProperty(fc.oneof({ arbitrary: okConfig, weight: 4 }, { arbitrary: config, weight: 3 }, { arbitrary: anyJson, weight: 1 }), fc.constantFrom('json', 'yaml'), async (doc, kind) => {
        const file = `c${n++}.${kind === 'json' ? 'json' : 'yaml'}`;
        writeFileSync(join(dir, file), kind === 'json' ? JSON.stringify(doc, null, 2) : stringify(doc));
        let resolved;
        try {
          resolved = await loadConfig({ cwd: dir, file });
        } catch (err) {
          if (!(err instanceof ConfigError)) throw err;
          for (const line of err.message.split('\n')) expect(line.startsWith(file), line).toBe(true);
          return;
        }
        if (resolved === undefined) return;
        // What it resolved to runs: rules, overrides and policies over a small dump.
        const servers = loadText(sample, { kind: 'file', path: 'dump.json', display: 'dump.json' }, 'dump', 'dump.json');
        lint(servers, [...RULES, ...resolved.policies], { rules: resolved.rules, overrides: resolved.overrides });
      }),
      { numRuns: 200 },
    );
  });
});

describe('any JSON as a baseline, and any tools on either side of a diff', () => {
  const dump = readFileSync(join(ROOT, 'fixtures', 'example-server.json'), 'utf8');
  const servers = loadText(dump, { kind: 'file', path: 'example.json', display: 'example.json' }, 'example', 'example.json');
  const findings = lint(servers, RULES).findings;

  it('a baseline file of any JSON filters the findings or fails with lines naming the file', async () => {
    const { applyBaseline } = await import('../src/baseline/apply.js');
    const { buildBaseline } = await import('../src/baseline/baseline.js');
    const { ConfigError } = await import('../src/config/index.js');
    const real = buildBaseline(findings, servers).entries as unknown as Record<string, unknown>[];
    // Real entries with any field replaced by any JSON, or dropped.
    const entry = fc.oneof(
      { arbitrary: anyJson, weight: 1 },
      { arbitrary: fc.tuple(fc.constantFrom(...real), fc.constantFrom('server', 'tool', 'rule', 'pointer', 'count', 'fingerprint', 'message', 'justification', 'extra', 'a/b~c'), fc.option(anyJson)).map(([e, k, v]) => {
        const copy: Record<string, unknown> = { ...e };
        if (v === null) delete copy[k];
        else copy[k] = v;
        return copy;
      }), weight: 2 },
      { arbitrary: fc.constantFrom(...real), weight: 12 },
    );
    const baseline = fc.oneof(
      { arbitrary: anyJson, weight: 1 },
      { arbitrary: fc.record({ version: fc.oneof(fc.constant(1), anyJson), entries: fc.oneof(fc.array(entry, { maxLength: 8 }), anyJson) }, { requiredKeys: [] }), weight: 2 },
      { arbitrary: fc.record({ version: fc.constant(1), entries: fc.array(entry, { maxLength: 8 }) }), weight: 6 },
    );
    const dir = tempDir({});
    let n = 0;
    await assertAsyncProperty(
      fc.asyncProperty(baseline, fc.boolean(), async (doc, update) => {
        const file = `b${n++}.json`;
        writeFileSync(join(dir, file), JSON.stringify(doc, null, 2));
        try {
          const r = await applyBaseline([...findings], servers, 0, { baseline: file, updateBaseline: update }, dir);
          expect(r.findings.length).toBeLessThanOrEqual(findings.length);
          for (const line of r.lines) expect(line).not.toContain('\n');
          if (update) expect(JSON.parse(readFileSync(join(dir, file), 'utf8')).version).toBe(1);
        } catch (err) {
          if (!(err instanceof ConfigError)) throw err;
          for (const line of err.message.split('\n')) expect(line.startsWith(file), line).toBe(true);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('diff of any two tool lists: findings that validate as SARIF, never a throw', async () => {
    const { diff } = await import('../src/diff/diff.js');
    const { DRIFT_RULES } = await import('../src/diff/rules/index.js');
    const { sarifLog } = await import('../src/reporters/sarif.js');
    const named = fc.record({ name: fc.constantFrom('a', 'b', 'c'), inputSchema: fc.oneof(fc.constant({ type: 'object' }), schemaLike), annotations, _meta: meta, description: fc.string() }, { requiredKeys: ['name'] });
    const side = fc.record({ serverInfo: fc.oneof(fc.record({ name: fc.constantFrom('s', 't') }), anyJson), tools: fc.array(fc.oneof({ arbitrary: named, weight: 4 }, { arbitrary: anyJson, weight: 1 }), { maxLength: 4 }) }, { requiredKeys: ['tools'] });
    const load = (doc: unknown, name: string) => {
      try {
        return loadText(JSON.stringify(doc), { kind: 'file', path: name, display: name }, name, name);
      } catch (err) {
        if (err instanceof InputProblem) return [];
        throw err;
      }
    };
    assertProperty(
      fc.property(side, side, (base, head) => {
        const r = diff(load(base, 'base.json'), load(head, 'head.json'), DRIFT_RULES);
        const log = sarifLog({ findings: r.findings, servers: r.servers, errors: [], rules: DRIFT_RULES, cwd: ROOT, command: 'diff' }, { quiet: false });
        expect(validateSarif(log), JSON.stringify(validateSarif.errors?.slice(0, 2))).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

describe('policies over any tools', () => {
  const fact = fc.oneof(
    fc.constantFrom('claims.readOnly', 'claims.destinations', 'claims.outputSensitivity', 'claims.riskLevel', 'claims.minTrustLevel', 'claims.sensitiveFields', 'server.name', 'tool.name'),
    fc.constantFrom('tool.annotations', 'tool._meta', 'response.annotations', 'request.arguments', 'tool.inputSchema.properties').chain((root) =>
      fc.array(fc.oneof(fc.constantFrom('readOnlyHint', 'inputMetadata', 'destination', 'mcp.dev/effect', '0', '__proto__', 'constructor', 'length'), fc.string()), { minLength: 1, maxLength: 3 }).map((path) =>
        `${root}${path.map((k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`)).join('')}`,
      ),
    ),
  );
  const condition: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    c: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.record({ fact, equals: anyJson }),
      fc.record({ fact, in: fc.array(anyJson, { minLength: 1, maxLength: 3 }) }),
      fc.record({ fact, contains: anyJson }),
      fc.record({ and: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ or: fc.array(tie('c'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ not: tie('c') }),
    ),
  })).c;

  // The slowest property pass in the suite: each of its 150 runs lints with every rule and validates
  // a SARIF log that lists every rule. A random pass took 3.7-12.5 s (median 5.8 s, 40 seeds) on two
  // cores under a load of 8, so the fixed and the random pass together took up to 60% of the default
  // 30 s timeout, and a busier CI runner could time it out though nothing is wrong: it gets its own.
  it('evaluate any condition over any tool: findings or nothing, never a throw, and SARIF that validates', { timeout: 120_000 }, async () => {
    const { compilePolicy, policyRules } = await import('../src/policies/rules.js');
    const tools = fc.array(fc.oneof(fc.record({ name: fc.string(), inputSchema: schemaLike, annotations, _meta: meta }, { requiredKeys: ['name'] }), anyJson), { maxLength: 3 });
    let compiled = 0;
    assertProperty(
      fc.property(fc.array(fc.tuple(condition, fc.constantFrom('block', 'escalate', 'warn')), { minLength: 1, maxLength: 3 }), tools, (policies, list) => {
        const ok = policies.flatMap(([conditions, effect], i) => {
          const policy = { name: `p${i}`, effect, conditions } as Parameters<typeof compilePolicy>[0];
          const c = compilePolicy(policy, []);
          return c ? [{ policy, compiled: c }] : [];
        });
        compiled += ok.length;
        const servers = loadText(JSON.stringify({ serverInfo: { name: 's' }, tools: list }), { kind: 'file', path: 'd.json', display: 'd.json' }, 'd', 'd.json');
        const rules = [...RULES, ...policyRules(ok)];
        const result = lint(servers, rules);
        const report: Report = { findings: result.findings, servers: result.servers, errors: [], rules, cwd: ROOT };
        expect(validateSarif(JSON.parse(format('sarif', report, { color: false, quiet: false })))).toBe(true);
      }),
      { numRuns: 150 },
    );
    // Most generated policies are well-formed: the property is about evaluating them.
    expect(compiled).toBeGreaterThan(150);
  });
});

describe('any string in a live-server flag', () => {
  it('--stdio, --, --url, --header and --env give targets or errors of one line that never show a header or env value', async () => {
    const { targetsFromFlags } = await import('../src/sources/live/targets.js');
    const secretish = fc.string({ minLength: 8 }).map((v) => `S3cr3t-${v}`);
    const line = fc.oneof(fc.string(), fc.constantFrom('node server.js', 'node "a b" \\x', 'a | b', 'a && b', '$(x)', '${HOME}/x', '${NOPE}', '`x`', '# only', "'unterminated", 'x > y', '*.js'));
    assertProperty(
      fc.property(
        fc.array(line, { maxLength: 2 }),
        fc.array(fc.string(), { maxLength: 3 }),
        fc.array(fc.oneof(fc.constantFrom('https://mcp.example.com/mcp', 'http://127.0.0.1:1/x', 'https://u:pw-123456@h.example/m', 'https://h.example/m?key=qk-1234567&v=2'), fc.string()), { maxLength: 2 }),
        fc.array(fc.tuple(fc.oneof(fc.constantFrom('Authorization', 'X-Key'), fc.string()), secretish), { maxLength: 2 }),
        fc.array(fc.tuple(fc.oneof(fc.constantFrom('TOKEN', 'A_B'), fc.string()), secretish), { maxLength: 2 }),
        (stdio, command, url, headers, envs) => {
          const header = headers.map(([k, v]) => `${k}: ${v}`);
          const env = envs.map(([k, v]) => `${k}=${v}`);
          const r = targetsFromFlags({ stdio, command: command.length ? command : undefined, url, header, env }, { HOME: '/home/u' }, '/p');
          // Header and env values, and a URL's password and query values, are secrets.
          const values = [...headers.map(([, v]) => v), ...envs.map(([, v]) => v), 'pw-123456', 'qk-1234567'];
          for (const e of r.errors) {
            expect(e.message).not.toContain('\n');
            for (const v of values) expect(e.message).not.toContain(v);
          }
          for (const t of r.targets) {
            for (const v of values) expect(t.display).not.toContain(v);
            expect(t.stdio !== undefined || t.http !== undefined).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('targeted inputs', () => {
  it('reads 100,000 levels of nesting without overflowing the stack', () => {
    const deep = (open: string, leaf: string, close: string) => open.repeat(100_000) + leaf + close.repeat(100_000);
    for (const text of [
      deep('[', '1', ']'),
      `{"tools":[{"name":"x","inputSchema":{"type":"object"},"annotations":${deep('{"a":', '1', '}')}}]}`,
      `{"tools":[{"name":"x","inputSchema":${deep('{"type":"object","properties":{"a":', '{}', '}}')}}]}`,
      `{"tools":[{"name":"x","inputSchema":{"type":"object"},"_meta":${deep('{"mcp.dev/effect":', '"read"', '}')}}]}`,
      // Where a value is quoted in a message: a deep array among SEP-1913's destinations.
      `{"tools":[{"name":"x","inputSchema":{"type":"object"},"annotations":{"inputMetadata":{"destination":${deep('[', '', ']')}}}}]}`,
      `{"tools":[{"name":"x","inputSchema":{"type":"object"},"outputSchema":${deep('{"items":', '{}', '}')}}]}`,
      `{"tools":[{"name":"x","inputSchema":{"type":"object","properties":{"p":{"default":${deep('{"a":', '1', '}')},"examples":[${deep('[', '', ']')}]}}}}]}`,
      `{"tools":[{"name":"x","inputSchema":{"type":"object","$defs":{"a":${deep('{"items":', '{}', '}')}},"properties":{"p":{"$ref":"#/$defs/a"}}}}]}`,
    ]) {
      expect(() => lintAll(text)).not.toThrow();
    }
  });

  it('an annotation list of 20,000 invalid, repeated members: findings in proportion, one per repeated value, one fix for the list', () => {
    // Quadratic three times over before: Ajv's error gathering (concat), explaining the errors
    // (every pair of paths compared), and the whole-list fix repeated on every repeat (620 MB of report).
    // And a finding per repeat: 1,000 values listed 20 times each were 19,000 findings.
    const n = 20_000;
    const values = Array.from({ length: n }, (_, i) => `v${i % 1_000}`);
    const text = JSON.stringify({ tools: [{ name: 'wide', inputSchema: { type: 'object' }, annotations: { inputMetadata: { destination: values, sensitivity: ['none'], outcomes: ['benign'] } } }] });
    const servers = loadText(text, { kind: 'file', path: 'wide.json', display: 'wide.json' }, 'wide', 'wide.json');
    // Every finding listed, to see them in proportion (MCP_ANNOTATE_MAX_PER_TOOL=0).
    const findings = lint(servers, RULES, { maxPerTool: 0 }).findings;
    const of = (id: string) => findings.filter((f) => f.ruleId === id && f.pointer.startsWith('/tools/0/annotations/inputMetadata/destination/'));
    expect(of('schema-valid')).toHaveLength(n);
    expect(of('empty-possible-set')).toHaveLength(1_000);
    expect(of('empty-possible-set')[0]!.message).toMatch(/lists "v0" 20 times \(.*\/0, .*\/1000, .*\/2000, .*\/3000, .*\/4000 and 15 more\)$/);
    expect(of('empty-possible-set').filter((f) => f.fix).map((f) => f.pointer)).toEqual(['/tools/0/annotations/inputMetadata/destination/1000']);
  });

  it('treats __proto__, constructor and prototype as data, with no prototype pollution', () => {
    const text =
      '{"__proto__": {"polluted": 1}, "tools": [{"name": "constructor", "inputSchema": {"type": "object", "properties": {"__proto__": {"type": "string"}, "prototype": {}}, "required": ["__proto__"]},' +
      ' "annotations": {"__proto__": {"readOnlyHint": true}, "constructor": true, "inputMetadata": {"__proto__": "x", "destination": "public", "sensitivity": "none", "outcomes": "benign"}}, "_meta": {"__proto__": {"polluted": 2}}}]}';
    const { outputs } = lintAll(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
    const report = JSON.parse(outputs.json!);
    expect(report.findings.some((f: { ruleId: string; pointer: string }) => f.ruleId === 'unknown-annotation-key' && f.pointer === '/tools/0/annotations/__proto__')).toBe(true);
    expect(report.findings.some((f: { pointer: string }) => f.pointer.startsWith('/tools/0/annotations/readOnlyHint'))).toBe(false);
  });

  it('reports thousands of tools with the same name without slowing to a crawl', () => {
    const tools = Array.from({ length: 5_000 }, () => ({ name: 'same', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }));
    const report = JSON.parse(lintAll(JSON.stringify({ tools })).outputs.json!);
    expect(report.findings.filter((f: { ruleId: string }) => f.ruleId === 'tool-name-unique').length).toBe(4_999);
  });

  it('gives byte-identical output in every format, run to run', () => {
    const text = readFileSync(join(ROOT, 'fixtures', 'example-server.json'), 'utf8');
    expect(lintAll(text).outputs).toEqual(lintAll(text).outputs);
  });

  it('gives byte-identical output in every format whatever the order of the servers', () => {
    const example = readFileSync(join(ROOT, 'fixtures', 'example-server.json'), 'utf8');
    // Three servers: two share tool names (cross-server rules fire) and flows run across them.
    const files: [string, string][] = [
      ['example.json', example],
      ['consistent.json', readFileSync(join(ROOT, 'fixtures', 'consistent-server.json'), 'utf8')],
      ['twin.json', example.replace('"acme-workspace"', '"acme-twin"')],
    ];
    const outputsFor = (order: [string, string][]) => {
      const servers = order.flatMap(([name, text]) => loadText(text, { kind: 'file', path: name, display: name }, name.replace('.json', ''), name));
      const result = lint(servers, RULES);
      const report: Report = { findings: result.findings, servers: result.servers, errors: [], rules: RULES, cwd: ROOT };
      return Object.fromEntries(FORMATS.map((f) => [f, format(f as FormatName, report, { color: false, quiet: false })]));
    };
    const first = outputsFor(files);
    expect(first.json).toContain('cross-server-name-collision');
    assertProperty(
      fc.property(fc.shuffledSubarray(files, { minLength: 3, maxLength: 3 }), (order) => {
        expect(outputsFor(order)).toEqual(first);
      }),
      { numRuns: 12 },
    );
  });
});

function sh(command: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', command], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A file of `size` bytes that takes no disk (a hole): reading it would cost that much memory. */
function sparseFile(path: string, size: number): void {
  writeFileSync(path, '');
  truncateSync(path, size);
}

/** A Unix socket listening at `path` (close it when done). */
async function listeningSocket(path: string): Promise<Server> {
  const server = createServer().listen(path);
  await new Promise((done) => server.once('listening', done));
  return server;
}

describe('the process', () => {
  it('is quiet when stdout closes early (| head -1), exits with the lint\'s own code and still writes its -o files', async () => {
    const dir = tempDir();
    // Names with spaces: errors, so the lint's own exit code is 1 (a closed stdout exited 0).
    const tools = Array.from({ length: 3_000 }, (_, i) => ({ name: `bad name ${i}`, inputSchema: { type: 'object' } }));
    writeFileSync(join(dir, 'many.json'), JSON.stringify({ tools }));
    const bin = JSON.stringify(BIN);
    const r = await sh(`node ${bin} lint many.json --no-config | head -1; echo "status=\${PIPESTATUS[0]}" >&2`, dir);
    expect(r.stdout.split('\n').filter(Boolean)).toHaveLength(1);
    expect(r.stderr).not.toMatch(/EPIPE|Error|at /);
    expect(r.stderr).toMatch(/^status=1$/m);
    // The files after the stdout format were never written.
    const o = await sh(`node ${bin} lint many.json --no-config -f text -f sarif -o r.sarif -f json -o r.json | head -1; echo "status=\${PIPESTATUS[0]}" >&2`, dir);
    expect(o.stderr).toMatch(/^status=1$/m);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).summary.errors).toBeGreaterThan(0);
    expect(JSON.parse(readFileSync(join(dir, 'r.sarif'), 'utf8')).runs[0].results.length).toBeGreaterThan(0);
  });

  it('keeps its own exit code when stderr closes early (2>&1 | head -1) or cannot be written (a full disk), and says nothing about it', async () => {
    const dir = tempDir({
      'a.json': JSON.stringify({ tools: [{ name: 'get_a', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }] }),
      'bad.json': JSON.stringify({ tools: [{ name: 'bad name', inputSchema: { type: 'object' } }] }),
      'cfg.yaml': 'rules: { nope: error, nope2: error }\n',
    });
    // The readers of stdout and stderr are gone before the run writes anything, so every write
    // fails with EPIPE (an unhandled one on stderr ended the run with 1, "findings", or, with
    // `| head -1`, 1 or 2 depending on timing).
    const closedEarly = (args: string[]) =>
      new Promise<number | null>((done) => {
        const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout.destroy();
        child.stderr.destroy();
        child.on('close', (code) => done(code));
      });
    for (let i = 0; i < 4; i++) {
      expect(await closedEarly(['lint', '--no-config', 'a.json', 'missing1.json', 'missing2.json'])).toBe(2);
      expect(await closedEarly(['lint', 'a.json', '-c', 'cfg.yaml'])).toBe(2);
      expect(await closedEarly(['lint', '--no-config', 'bad.json'])).toBe(1);
      expect(await closedEarly(['lint', '--no-config', 'a.json'])).toBe(0);
    }
    const bin = JSON.stringify(BIN);
    // stdout and stderr the same pipe, its reader leaving after the first line.
    const piped = await sh(`for i in 1 2 3; do node ${bin} lint --no-config a.json missing1.json missing2.json 2>&1 | head -1 >/dev/null; echo "status=\${PIPESTATUS[0]}"; done`, dir);
    expect(piped.stdout).toBe('status=2\nstatus=2\nstatus=2\n');
    // A stderr that cannot be written (ENOSPC) cannot say so: the run keeps its exit code.
    const full = await sh(`node ${bin} lint --no-config a.json missing.json >/dev/null 2>/dev/full; echo "status=$?"; node ${bin} lint --no-config a.json missing.json >/dev/full 2>/dev/full; echo "status=$?"`, dir);
    expect(full).toMatchObject({ stdout: 'status=2\nstatus=2\n', stderr: '' });
  });

  it('the CLI\'s streams take no more writes once one failed (quietWhenFailed), and say nothing of it', async () => {
    const { quietWhenFailed } = await import('../src/cli/io.js');
    let tried = 0;
    const raw = new Writable({
      write(_chunk, _enc, done) {
        tried++;
        done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const errors: string[] = [];
    raw.on('error', (e: NodeJS.ErrnoException) => errors.push(String(e.code)));
    const stream = quietWhenFailed(raw);
    stream.write('first\n');
    await new Promise((r) => setImmediate(r));
    const called = await new Promise<boolean>((done) => {
      expect(stream.write('second\n', () => done(true))).toBe(true);
    });
    stream.write('third\n');
    expect({ tried, errors, called }).toEqual({ tried: 1, errors: ['EPIPE'], called: true });
  });

  it('reads a pipe, /dev/stdin and process substitution as a file, next to other targets', async () => {
    const dir = tempDir({ 'a.json': JSON.stringify({ serverInfo: { name: 'a' }, tools: [{ name: 'get_a', inputSchema: { type: 'object' } }] }) });
    const bin = JSON.stringify(BIN);
    const r = await sh(`cat a.json | node ${bin} lint a.json /dev/stdin <(sed 's/"a"/"b"/' a.json) -f json --fail-on none`, dir);
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout);
    expect(report.servers.map((s: { name: string }) => s.name).sort()).toEqual(['a', 'a', 'b']);
    expect(report.inputErrors).toEqual([]);
  });

  it('says it is waiting for input when stdin is a terminal (under script), and nothing when it is a pipe', async () => {
    const dir = tempDir();
    // `script` (util-linux) runs the command on a pseudo-terminal; its stdin at end of file ends the input.
    const r = await sh(`script -qec ${JSON.stringify(`node ${JSON.stringify(BIN)} lint - --no-color`)} /dev/null < /dev/null`, dir);
    expect(r.stdout).toContain('mcp-annotate: reading a tools/list result from the terminal; paste it and end with Ctrl-D');
    expect(r.stdout).toContain('<stdin>:1:1: the file is empty; expected JSON (a tools/list result)');
    const piped = await sh(`printf '' | node ${JSON.stringify(BIN)} lint -`, dir);
    expect(piped.stderr).toBe('<stdin>:1:1: the file is empty; expected JSON (a tools/list result)\n');
  });

  it('says what is wrong with /dev/null, a socket and a file too large to be one JSON text, and lints the other targets', async () => {
    const dir = tempDir({ 'a.json': JSON.stringify({ tools: [{ name: 'get_a', inputSchema: { type: 'object' } }] }) });
    // A sparse file: its size is past the limit, but it takes no disk and must not be read.
    sparseFile(join(dir, 'huge.json'), 600 * 1024 * 1024);
    const server = await listeningSocket(join(dir, 'sock'));
    try {
      const r = await sh(`/usr/bin/time -q -f 'rss=%M' node ${JSON.stringify(BIN)} lint a.json /dev/null sock huge.json -f json`, dir);
      expect(r.code).toBe(2);
      const lines = r.stderr.split('\n').filter((l) => l && !l.startsWith('rss='));
      expect(lines).toEqual([
        '/dev/null:1:1: the file is empty; expected JSON (a tools/list result)',
        'huge.json: the document is 600 MiB; mcp-annotate reads one JSON text of up to 512 MiB (the longest string Node.js can hold); split the tools into several files',
        'sock: is a socket, not a file (give a file, a directory, a glob, or - for stdin)',
      ]);
      // The large file was refused before it was read.
      expect(Number(/rss=(\d+)/.exec(r.stderr)![1])).toBeLessThan(300 * 1024);
      expect(JSON.parse(r.stdout).summary).toMatchObject({ servers: 1, inputErrors: 3 });
    } finally {
      server.close();
    }
  });

  it('stops reading an endless stream at the 512 MiB limit', { timeout: 60_000 }, async () => {
    const r = await sh(`node ${JSON.stringify(BIN)} lint /dev/zero`, tempDir());
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/dev/zero: the document is more than 512 MiB;');
  });

  it('a config file, client config, envFile or baseline that is endless, too large or a socket is refused with one line, without reading it all', async () => {
    const dir = tempDir({
      'a.json': JSON.stringify({ tools: [{ name: 'get_a', inputSchema: { type: 'object' } }] }),
      'vscode.json': JSON.stringify({ servers: { s: { command: 'node', args: ['-e', '0'], envFile: '/dev/zero' } } }),
    });
    sparseFile(join(dir, 'big.json'), 100 * 1024 * 1024);
    const server = await listeningSocket(join(dir, 'sock'));
    const bin = JSON.stringify(BIN);
    const run = (args: string) => sh(`/usr/bin/time -q -f 'rss=%M' node ${bin} lint ${args} -f json`, dir);
    const said = (r: { stderr: string }) => r.stderr.split('\n').filter((l) => l && !l.startsWith('rss='));
    const rss = (r: { stderr: string }) => Number(/rss=(\d+)/.exec(r.stderr)![1]);
    try {
      const config = await run('a.json -c /dev/zero');
      expect(said(config)).toEqual(['mcp-annotate: /dev/zero: cannot read the config file: larger than 16 MiB']);
      expect(config.code).toBe(2);
      const big = await run('a.json -c big.json');
      expect(said(big)).toEqual(['mcp-annotate: big.json: cannot read the config file: 100 MiB, larger than 16 MiB']);
      const socket = await run('a.json -c sock');
      expect(said(socket)).toEqual(['mcp-annotate: sock: cannot read the config file: is a socket or a device without a reader, not a file']);
      // Client configs: the file itself, and an envFile it names. The other targets are still linted.
      const clients = await run('a.json --mcp-config /dev/zero --mcp-config vscode.json');
      expect(clients.code).toBe(2);
      expect(said(clients)).toEqual(['/dev/zero: larger than 16 MiB', 'vscode.json:1:13: server "s": cannot read its envFile "/dev/zero": larger than 16 MiB']);
      expect(JSON.parse(clients.stdout).summary).toMatchObject({ servers: 1, inputErrors: 2 });
      for (const r of [config, big, socket, clients]) expect(rss(r)).toBeLessThan(200 * 1024);
      const baseline = await run('a.json --baseline sock');
      expect(said(baseline)).toEqual(['mcp-annotate: sock: cannot read the baseline: is a socket or a device without a reader, not a file']);
      // A process substitution is a file like any other; a config from one is JSON or YAML by its first character.
      for (const config of [`'{"rules": {"implicit-open-world": "off"}}'`, `'rules: {implicit-open-world: "off"}'`]) {
        const piped = await sh(`node ${bin} lint a.json -c <(echo ${config}) -f json`, dir);
        expect(piped.stderr).toBe('');
        expect(JSON.parse(piped.stdout).findings.map((f: { ruleId: string }) => f.ruleId)).not.toContain('implicit-open-world');
      }
      const plain = await sh(`node ${bin} lint a.json -f json`, dir);
      expect(JSON.parse(plain.stdout).findings.map((f: { ruleId: string }) => f.ruleId)).toContain('implicit-open-world');
      const client = await sh(`node ${bin} lint a.json --mcp-config <(echo '{"mcpServers": {}}') -f json`, dir);
      expect(client.stderr).toBe('');
      expect(JSON.parse(client.stdout).summary).toMatchObject({ servers: 1, inputErrors: 0 });
    } finally {
      server.close();
    }
  });

  it('a server with 150,000 findings is reported in text and markdown (no argument list as long as the findings)', { timeout: 60_000 }, async () => {
    // 30,000 empty tools, five findings each: `Math.max(...widths)` over them overflowed the stack.
    const dir = tempDir({ 'empties.json': `{"tools":[${Array(30_000).fill('{}').join(',')}]}` });
    const r = await sh(`node ${JSON.stringify(BIN)} lint empties.json -f text -o report.txt -f markdown -o report.md`, dir);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(readFileSync(join(dir, 'report.txt'), 'utf8')).toContain('✖ 150000 problems (60000 errors, 60000 warnings, 30000 notes) in 1 server, 30000 tools');
  });

  it('stops at the findings limit and says where: a few megabytes of empty tools no longer fill the heap', { timeout: 120_000 }, async () => {
    const dir = tempDir({
      'a.json': JSON.stringify({ tools: Array.from({ length: 10 }, (_, i) => ({ name: `t${i}` })) }),
      'b.json': JSON.stringify({ tools: [{ name: 'b' }] }),
      // Two million empty tools in 6 MB: ten million findings, which crashed the process out of memory.
      'empties.json': `{"tools":[${Array(2_000_000).fill('{}').join(',')}]}`,
    });
    const bin = JSON.stringify(BIN);
    const small = await sh(`MCP_ANNOTATE_MAX_FINDINGS=12 node ${bin} lint a.json b.json -f json`, dir);
    expect(small.code).toBe(2);
    expect(small.stderr).toMatch(/^a\.json: stopped after 12 findings, at tool \d+ of 10; the report holds those, and the rest of this server and the server after it were not linted \(MCP_ANNOTATE_MAX_FINDINGS raises the limit\)\n$/);
    const report = JSON.parse(small.stdout);
    expect(report.findings).toHaveLength(12);
    expect(report.servers.map((s: { name: string }) => s.name)).toEqual(['a']);
    expect(report.summary.inputErrors).toBe(1);
    const bad = await sh(`MCP_ANNOTATE_MAX_FINDINGS=lots node ${bin} lint a.json`, dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('mcp-annotate: MCP_ANNOTATE_MAX_FINDINGS must be a positive whole number, not "lots"\n');
    // The default limit: a million findings, in about 1 GB.
    const flood = await sh(`/usr/bin/time -q -f 'rss=%M' node ${bin} lint empties.json -f sarif -o report.sarif`, dir);
    expect(flood.code).toBe(2);
    expect(flood.stderr).toContain('empties.json: stopped after 1,000,000 findings, at tool 200,001 of 2,000,000; the report holds those, and the rest of this server was not linted');
    expect(Number(/rss=(\d+)/.exec(flood.stderr)![1])).toBeLessThan(2 * 1024 * 1024);
    expect(JSON.parse(readFileSync(join(dir, 'report.sarif'), 'utf8')).runs[0].results.length).toBeGreaterThan(0);
  });

  it('a config file, package.json, baseline or client config nested 100,000 levels deep is one line at the place it goes too deep, not a stack overflow', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const dir = tempDir({
      'a.json': JSON.stringify({ tools: [{ name: 'get_a', inputSchema: { type: 'object' } }] }),
      'deep.json': `{"rules": {"x": ${deep}}}`,
      'deep.yaml': `rules: {x: ${deep}}`,
      'client.json': `{"mcpServers": {"s": {"command": "x", "args": ${deep}}}}`,
      'pkg/package.json': `{"name": "x", "mcp-annotate": {"rules": {"x": ${deep}}}}`,
      'baseline.json': `{"version": 1,\n"x": ${deep}}`,
    });
    const bin = JSON.stringify(BIN);
    // Where the 1,001st level opens: the objects around the arrays count.
    const at = (before: string, objects: number) => before.length + (1000 - objects) + 1;
    const TOO_DEEP = 'the JSON nests deeper than 1,000 levels here, more than mcp-annotate reads in a config, baseline or client config file';
    expect((await sh(`node ${bin} lint a.json -c deep.json`, dir)).stderr).toBe(`mcp-annotate: deep.json:1:${at('{"rules": {"x": ', 2)}: ${TOO_DEEP}\n`);
    expect((await sh(`node ${bin} lint a.json -c deep.yaml`, dir)).stderr).toBe('mcp-annotate: deep.yaml: the YAML is nested too deeply to process\n');
    expect((await sh(`node ${bin} lint ../a.json`, join(dir, 'pkg'))).stderr).toBe(`mcp-annotate: package.json:1:${at('{"name": "x", "mcp-annotate": {"rules": {"x": ', 3)}: ${TOO_DEEP}\n`);
    expect((await sh(`node ${bin} lint a.json --no-config --baseline baseline.json`, dir)).stderr).toBe(`mcp-annotate: baseline.json:2:${at('"x": ', 1)}: ${TOO_DEEP}\n`);
    const client = await sh(`node ${bin} lint a.json --mcp-config client.json -f json`, dir);
    expect(client.code).toBe(2);
    expect(client.stderr).toBe(`client.json:1:${at('{"mcpServers": {"s": {"command": "x", "args": ', 3)}: ${TOO_DEEP}\n`);
    expect(JSON.parse(client.stdout).summary).toMatchObject({ servers: 1, inputErrors: 1 });
  });

  it('a dump, transcript line or diff side that is invalid JSON 100,000 levels deep: the usual file:line:column error, not a stack overflow', async () => {
    const a = JSON.stringify({ tools: [{ name: 'get_a', inputSchema: { type: 'object' } }] });
    const dir = tempDir({
      'a.json': a,
      'deep.json': '['.repeat(10_000),
      'deep-comma.json': `${'['.repeat(100_000)}1,]${']'.repeat(99_999)}\n`,
      'deep.jsonl': `{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n${'{"a":'.repeat(100_000)}\n`,
    });
    const lint = await runCli(['lint', 'a.json', 'deep.json', '-f', 'json', '--no-config'], { cwd: dir });
    expect(lint.code).toBe(2);
    expect(lint.stderr).toBe('deep.json:1:10001: invalid JSON: expected "]"\n');
    expect(JSON.parse(lint.stdout).inputErrors).toEqual([{ target: 'deep.json', file: 'deep.json', line: 1, column: 10001, message: 'deep.json:1:10001: invalid JSON: expected "]"' }]);
    expect((await runCli(['lint', 'deep-comma.json', '--no-config'], { cwd: dir })).stderr).toBe('deep-comma.json:1:100003: invalid JSON: expected a value\n');
    expect((await runCli(['lint', '-', '--no-config'], { cwd: dir, input: '['.repeat(10_000) })).stderr).toBe('<stdin>:1:10001: invalid JSON: expected "]"\n');
    expect((await runCli(['lint', 'deep.jsonl', '--no-config'], { cwd: dir })).stderr).toBe(
      'deep.jsonl:3:500001: invalid JSON on this line of the transcript (JSON Lines: one JSON-RPC message per line): expected a value\n',
    );
    const diff = await runCli(['diff', 'deep-comma.json', 'a.json', '--no-config'], { cwd: dir });
    expect(diff.code).toBe(2);
    expect(diff.stderr).toContain('deep-comma.json:1:100003: invalid JSON: expected a value\n');
    expect(diff.stdout + diff.stderr).not.toContain('Maximum call stack');
  });

  it('the non-recursive JSON error finder reports the first error jsonc-parser would, at the same offset', () => {
    const pieces = ['[', ']', '{', '}', ',', ':', '"a"', '1', '-', 'true', 'nul', ' ', '\n', '/', '*', '"\\x"', '"\\u12"', '"', '1e', '01', '\u202e', '\u0000', '"\t"', '0.', 'null', '//c\n', '/*c*/'];
    assertProperty(
      fc.property(fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 14 }), (parts) => {
        const text = parts.join('');
        const errors: ParseError[] = [];
        parseTolerant(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
        const mine = firstJsonError(text);
        expect(mine && { error: mine.error, offset: mine.offset }).toEqual(errors[0] && { error: errors[0].error, offset: errors[0].offset });
      }),
      { numRuns: 5_000 },
    );
  });

  it('an unexpected character in a dump, transcript line or config is named; NUL bytes say the file looks UTF-16', async () => {
    const dir = tempDir({
      'u.json': '{"tools": \u202e}',
      'q.json': '{"tools": [x]}',
      'c.json': '{"rules": \u200b}',
      'a.json': JSON.stringify({ tools: [{ name: 'get_a', inputSchema: { type: 'object' } }] }),
    });
    writeFileSync(join(dir, 'u16.json'), Buffer.from(readFileSync(join(ROOT, 'fixtures', 'example-server.json'), 'utf8'), 'utf16le'));
    writeFileSync(join(dir, 'nul.json'), '{"tools": [\u0000]}');
    const stderr = async (...args: string[]) => (await runCli(args, { cwd: dir })).stderr;
    expect(await stderr('lint', 'u.json', '--no-config')).toBe('u.json:1:11: invalid JSON: unexpected character U+202E\n');
    expect(await stderr('lint', 'q.json', '--no-config')).toBe('q.json:1:12: invalid JSON: unexpected character "x"\n');
    expect(await stderr('lint', 'u16.json', '--no-config')).toBe('u16.json:1:2: invalid JSON: unexpected character U+0000 (a NUL byte: the file looks UTF-16 encoded; it must be UTF-8)\n');
    expect(await stderr('lint', 'nul.json', '--no-config')).toBe('nul.json:1:12: invalid JSON: unexpected character U+0000 (a NUL byte)\n');
    expect(await stderr('lint', 'a.json', '-c', 'c.json')).toBe('mcp-annotate: c.json:1:11: invalid JSON: unexpected character U+200B\n');
  });

  it('says which output cannot be written and why, still writes the others, and exits 2 without a stack trace', async () => {
    const dir = tempDir({ 'a.json': JSON.stringify({ tools: [{ name: 'get_a', inputSchema: { type: 'object' } }] }), afile: '' });
    const bin = JSON.stringify(BIN);
    const r = await sh(`mkdir d && node ${bin} lint a.json -f json -o d -f sarif -o ok.sarif -f markdown -o afile/x.md -f text -o /dev/full`, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      [
        'mcp-annotate: cannot write d: it is a directory',
        'mcp-annotate: cannot write afile/x.md: part of its path is a file, not a directory',
        'mcp-annotate: cannot write /dev/full: no space left on the device',
        '',
      ].join('\n'),
    );
    expect(validateSarif(JSON.parse(readFileSync(join(dir, 'ok.sarif'), 'utf8')))).toBe(true);

    const full = await sh(`node ${bin} lint a.json > /dev/full; echo "status=$?" >&2`, dir);
    expect(full.stderr).toBe('mcp-annotate: cannot write to stdout: no space left on the device\nstatus=2\n');

    const baseline = await sh(`node ${bin} lint a.json --baseline afile/b.json --update-baseline`, dir);
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toBe('mcp-annotate: cannot write afile/b.json: part of its path is a file, not a directory\n');
  });

  it('a report file that cannot be written is part of the verdict: the stdout report, and the files written, say the run fails and why', async () => {
    const dir = tempDir({ 'a.json': readFileSync(join(ROOT, 'fixtures', 'example-server.json'), 'utf8') });
    const bin = JSON.stringify(BIN);
    // --fail-on none: without the file that fails, the run would pass (⚠).
    const r = await sh(`mkdir dir.sarif && node ${bin} lint a.json --no-config --fail-on none -f json -o r.json -f sarif -o dir.sarif -f sarif -o ok.sarif -f markdown -o s.md -f github -o g.txt -f text`, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('mcp-annotate: cannot write dir.sarif: it is a directory\n');
    const sentence = 'cannot write dir.sarif (it is a directory), which fails the run (exit code 2)';
    // The text report, written last: ✖ and the reason on its summary line.
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(`✖ 21 problems (4 errors, 15 warnings, 2 notes) in 1 server, 8 tools; ${sentence}`);
    // The files written before the failure were written again with it.
    const json = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(json.unwritten).toEqual([{ file: 'dir.sarif', reason: 'it is a directory' }]);
    expect(validateJsonReport(json), JSON.stringify(validateJsonReport.errors?.slice(0, 2))).toBe(true);
    const sarif = JSON.parse(readFileSync(join(dir, 'ok.sarif'), 'utf8'));
    expect(validateSarif(sarif)).toBe(true);
    expect(sarif.runs[0].invocations[0]).toMatchObject({ exitCode: 2, executionSuccessful: false, toolExecutionNotifications: [{ level: 'error', message: { text: sentence } }] });
    expect(readFileSync(join(dir, 's.md'), 'utf8')).toMatch(/^## mcp-annotate\n\n❌ \*\*21 findings\*\*[^]*\n_cannot write dir\.sarif \(it is a directory\), which fails the run \(exit code 2\)\._\n/);
    const github = readFileSync(join(dir, 'g.txt'), 'utf8');
    expect(github.split('\n')[0]).toBe(`::error title=mcp-annotate%3A report not written::${sentence}`);
    expect(github.trimEnd().split('\n').at(-1)).toBe(`mcp-annotate: 21 problems (4 errors, 15 warnings, 2 notes) in 1 server, 8 tools; ${sentence}`);
    // Without the failing file: the same run passes, and says so.
    const ok = await runCli(['lint', 'a.json', '--no-config', '--fail-on', 'none', '-f', 'json', '-o', 'r.json', '-f', 'text'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/\n⚠ 21 problems \(4 errors, 15 warnings, 2 notes\) in 1 server, 8 tools\n$/);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).unwritten).toBeUndefined();
  });

  it.skipIf(process.platform === 'win32')('a report file written again with the final verdict is replaced whole or kept as it was, never left half written', async () => {
    const dir = tempDir({ 'a.json': readFileSync(join(ROOT, 'fixtures', 'example-server.json'), 'utf8') });
    const bin = JSON.stringify(BIN);
    // A directory with a long path fails the run; its name in "unwritten" makes the report written
    // again 1,700 bytes longer than the first, which a file size limit (ulimit -f, in KiB) lets
    // through and stops half way through the second (EFBIG: Node ignores SIGXFSZ).
    const long = Array.from({ length: 8 }, () => 'd'.repeat(200)).join('/');
    mkdirSync(join(dir, `${long}.sarif`), { recursive: true });
    const first = await runCli(['lint', 'a.json', '--no-config', '-f', 'json', '-o', 'r.json'], { cwd: dir });
    expect(first.code).toBe(1);
    const before = readFileSync(join(dir, 'r.json'), 'utf8');
    const limit = Math.ceil((before.length + 1) / 1024);
    expect(before.length + 1700).toBeGreaterThan(limit * 1024);
    const r = await sh(`ulimit -f ${limit} && node ${bin} lint a.json --no-config -f json -o r.json -f sarif -o ${long}.sarif`, dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`mcp-annotate: cannot write ${long}.sarif: it is a directory\nmcp-annotate: cannot write r.json: the file is too large for the file system\n`);
    // It was left with its first report, whole (it was cut at the limit, half a JSON document), and no temporary file beside it.
    expect(readFileSync(join(dir, 'r.json'), 'utf8')).toBe(before);
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'd'.repeat(200), 'r.json']);

    // Written again through a symbolic link: the file it points to is replaced (the link stays), with the mode it had.
    mkdirSync(join(dir, 'out'));
    writeFileSync(join(dir, 'out', 'real.json'), '');
    chmodSync(join(dir, 'out', 'real.json'), 0o640);
    symlinkSync(join('out', 'real.json'), join(dir, 'link.json'));
    const again = await runCli(['lint', 'a.json', '--no-config', '-f', 'json', '-o', 'link.json', '-f', 'sarif', '-o', `${long}.sarif`], { cwd: dir });
    expect(again.code).toBe(2);
    expect(lstatSync(join(dir, 'link.json')).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'out', 'real.json'), 'utf8')).unwritten).toEqual([{ file: `${long}.sarif`, reason: 'it is a directory' }]);
    expect(statSync(join(dir, 'out', 'real.json')).mode & 0o777).toBe(0o640);
    expect(readdirSync(join(dir, 'out'))).toEqual(['real.json']);
  });

  it('lints a 200 MB file', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const big = 'x'.repeat(200 * 1024 * 1024);
    writeFileSync(join(dir, 'big.json'), `{"tools":[{"name":"big","description":"${big}","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false}}]}`);
    let r;
    try {
      r = await sh(`node ${JSON.stringify(BIN)} lint big.json --format json`, dir);
    } finally {
      rmSync(join(dir, 'big.json'), { force: true }); // at once: 200 MB of disk
    }
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ errors: 0, tools: 1 });
  });
});
