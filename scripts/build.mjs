#!/usr/bin/env node
// Build: precompile every bundled JSON Schema into standalone Ajv validators
// (generated/*.js, so start-up pays no schema compilation), then compile the
// TypeScript sources into dist/.
import { readFileSync, writeFileSync, mkdirSync, readdirSync, rmSync, existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const Ajv07 = require('ajv').default;
const Ajv2019 = require('ajv/dist/2019').default;
const Ajv2020 = require('ajv/dist/2020').default;
const AjvDraft04 = require('ajv-draft-04').default;
const standaloneCode = require('ajv/dist/standalone').default;
const { _ } = require('ajv/dist/compile/codegen');
const { fullFormats } = require('ajv-formats/dist/formats');

const json = (rel) => JSON.parse(readFileSync(join(root, rel), 'utf8'));

/** Each generated module: which Ajv dialect, which schemas to load, and the exported validators. */
function modules() {
  const list = [];
  for (const file of readdirSync(join(root, 'schemas', 'core')).sort()) {
    const version = file.replace(/\.json$/, '');
    const schema = json(`schemas/core/${file}`);
    const defs = schema.$defs ? '$defs' : 'definitions';
    list.push({
      name: `core-${version}`,
      dialect: schema.$schema.includes('2020-12') ? '2020' : '07',
      schemas: [schema],
      exports: { tool: `${schema.$id}#/${defs}/Tool`, envelope: `${schema.$id}#/${defs}/ListToolsEnvelope` },
    });
  }
  const packsDir = join(root, 'schemas', 'packs');
  const packSchemas = [json('schemas/sep-1913.json')];
  if (existsSync(packsDir)) {
    for (const file of readdirSync(packsDir).sort()) packSchemas.push(json(`schemas/packs/${file}`));
  }
  for (const schema of packSchemas) {
    const exports = {};
    for (const name of schema['x-exports'] ?? ['ToolAnnotations']) exports[name] = `${schema.$id}#/$defs/${name}`;
    list.push({ name: schema.$id.split(':').pop(), dialect: '2020', schemas: [schema], exports });
  }
  // The config file's schema (schemas/config.schema.json, built from the rules by npm run docs).
  const configSchema = json('schemas/config.schema.json');
  // Own members only (ownProperties): an object's inherited keys are none of the config's (a
  // Buffer's methods were once listed as unknown rules, one line each).
  list.push({ name: 'config', dialect: '07', schemas: [configSchema], exports: { validate: configSchema.$id }, ownProperties: true });
  // Meta-schemas, to check that a tool's inputSchema/outputSchema is itself a valid schema.
  list.push({ name: 'meta-2020-12', dialect: '2020', schemas: [], exports: { validate: 'https://json-schema.org/draft/2020-12/schema' } });
  list.push({ name: 'meta-2019-09', dialect: '2019', schemas: [], exports: { validate: 'https://json-schema.org/draft/2019-09/schema' } });
  list.push({ name: 'meta-draft-07', dialect: '07', schemas: [], exports: { validate: 'http://json-schema.org/draft-07/schema' } });
  list.push({
    name: 'meta-draft-06',
    dialect: '07',
    schemas: [require('ajv/dist/refs/json-schema-draft-06.json')],
    exports: { validate: 'http://json-schema.org/draft-06/schema' },
  });
  list.push({ name: 'meta-draft-04', dialect: '04', schemas: [], exports: { validate: 'http://json-schema.org/draft-04/schema' } });
  return list;
}

/**
 * Ajv's standalone code gathers a subschema's errors with `vErrors.concat(child.errors)`,
 * which copies every error so far at each step: an annotation array of 20,000 invalid
 * members (60,000 errors) took seconds, 200,000 took many minutes. Each is rewritten to
 * append in place, as Ajv's code already does with its own errors (`vErrors.push(err0)`),
 * in the same order. Any other use of concat fails the build, rather than staying quadratic.
 */
function appendInPlace(code, name) {
  const out = code.replace(/vErrors = vErrors === null \? ([\w.$]+)\.errors : vErrors\.concat\(\1\.errors\)/g, 'vErrors = __appendErrors(vErrors, $1.errors)');
  if (out.includes('.concat(')) throw new Error(`build: ${name}: Ajv's code gathers errors in a way appendInPlace does not know; update it`);
  return out;
}

/**
 * Ajv compares values (uniqueItems, enum, const) with fast-deep-equal, which calls a value's
 * own valueOf or toString when it has one: a tool's schema with `"enum": [{}, {"valueOf": {}}]`
 * threw "a.valueOf is not a function" and took the whole run down. The validators see JSON
 * values only, so they compare them as JSON: arrays item by item, objects by their own members
 * (none of them called), iteratively so a deep value cannot overflow the stack.
 */
export const EQUAL = [
  'function __equal(a, b) {',
  '  const todo = [a, b];',
  '  while (todo.length > 0) {',
  '    const y = todo.pop(), x = todo.pop();',
  '    if (x === y) continue;',
  '    if (typeof x !== "object" || typeof y !== "object" || x === null || y === null) { if (x !== x && y !== y) continue; return false; }',
  '    const ax = Array.isArray(x);',
  '    if (ax !== Array.isArray(y)) return false;',
  '    if (ax) { if (x.length !== y.length) return false; for (let i = 0; i < x.length; i++) todo.push(x[i], y[i]); continue; }',
  '    const keys = Object.keys(x);',
  '    if (keys.length !== Object.keys(y).length) return false;',
  '    for (const k of keys) { if (!Object.prototype.hasOwnProperty.call(y, k)) return false; todo.push(x[k], y[k]); }',
  '  }',
  '  return true;',
  '}',
].join('\n');

/**
 * Ajv checks `uniqueItems` over items of no known type by comparing every pair: a tool's
 * inputSchema whose `type` listed 40,000 strings took 17 s, 40,000 objects over a minute.
 * Each such loop is rewritten to ask __lastDuplicate, which finds the same pair (the last item
 * with an equal one before it, and the last of those) from each item's canonical JSON text in
 * one pass. And where Ajv does use a table (items of a known type), it is made without a
 * prototype: in `{}`, "__proto__" read as an object, so `"required": ["__proto__", "__proto__"]`
 * passed. Any loop left over fails the build.
 */
export const UNIQUE = [
  '/** JSON text of a JSON value with object keys sorted: equal exactly when __equal says the values are. Iterative, as __equal. */',
  'function __jsonKey(value) {',
  '  let out = "";',
  '  const todo = [value];',
  '  while (todo.length > 0) {',
  '    const x = todo.pop();',
  '    if (x === todo) { out += todo.pop(); continue; }',
  '    if (typeof x === "number") { out += x !== x ? "NaN" : x === Infinity ? "1e400" : x === -Infinity ? "-1e400" : JSON.stringify(x); continue; }',
  '    if (typeof x !== "object" || x === null) { out += JSON.stringify(x); continue; }',
  '    if (Array.isArray(x)) {',
  '      out += "[";',
  '      todo.push("]", todo);',
  '      for (let i = x.length - 1; i >= 0; i--) { todo.push(x[i]); if (i > 0) todo.push(",", todo); }',
  '      continue;',
  '    }',
  '    const keys = Object.keys(x).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));',
  '    out += "{";',
  '    todo.push("}", todo);',
  '    for (let i = keys.length - 1; i >= 0; i--) { todo.push(x[keys[i]], (i > 0 ? "," : "") + JSON.stringify(keys[i]) + ":", todo); }',
  '  }',
  '  return out;',
  '}',
  '/** [i, j]: the last item i with an item equal to it before it, and the last such j; what Ajv\'s loop over every pair finds first. */',
  'function __lastDuplicate(data) {',
  '  let found;',
  '  if (data.length <= 16) {',
  '    for (let i = data.length; i--;) for (let j = i; j--;) if (__equal(data[i], data[j])) return [i, j];',
  '    return found;',
  '  }',
  '  const last = new Map();',
  '  for (let i = 0; i < data.length; i++) {',
  '    const key = __jsonKey(data[i]);',
  '    const j = last.get(key);',
  '    if (j !== undefined) found = [i, j];',
  '    last.set(key, i);',
  '  }',
  '  return found;',
  '}',
].join('\n');

function linearUnique(code, name) {
  const equals = new Set([...code.matchAll(/const (func\d+) = __equal;/g)].map((m) => m[1]));
  const out = code
    .replace(
      /if\((i\d+) > 1\)\{(outer\d+):for\(;\1--;\)\{for\((j\d+) = \1; \3--;\)\{if\((func\d+)\((\w+)\[\1\], \5\[\3\]\)\)\{((?:(?!outer\d+:)[\s\S])*?)break \2;\}\}\}\}/g,
      (all, i, outer, j, func, data, body) => {
        if (!equals.has(func)) throw new Error(`build: ${name}: a uniqueItems loop compares with ${func}, not __equal; update linearUnique`);
        return `if(${i} > 1){const ${outer}dup = __lastDuplicate(${data});if(${outer}dup !== undefined){${i} = ${outer}dup[0];${j} = ${outer}dup[1];${outer}:{${body}break ${outer};}}}`;
      },
    )
    .replace(/const (indices\d+) = \{\};/g, 'const $1 = Object.create(null);');
  if (/outer\d+:for/.test(out)) throw new Error(`build: ${name}: Ajv's uniqueItems loop has a shape linearUnique does not know; update it`);
  return out;
}

function safeEqual(code, name) {
  const out = code.split('require("ajv/dist/runtime/equal").default').join('__equal');
  if (out.includes('runtime/equal')) throw new Error(`build: ${name}: Ajv's code reaches its equal another way; update safeEqual`);
  return out;
}

function compile(mod) {
  const Cls = { '2020': Ajv2020, '2019': Ajv2019, '07': Ajv07, '04': AjvDraft04 }[mod.dialect];
  const ajv = new Cls({
    allErrors: true,
    verbose: true,
    strict: false,
    ownProperties: mod.ownProperties === true,
    formats: fullFormats,
    code: { source: true, esm: false, optimize: true, formats: _`__formats` },
  });
  for (const schema of mod.schemas) ajv.addSchema(schema);
  const code = linearUnique(safeEqual(appendInPlace(standaloneCode(ajv, mod.exports), mod.name), mod.name), mod.name);
  // CommonJS, so that src/schema/generated.ts can load each one synchronously on first
  // use: a run pays only for the spec version and dialects its tools need.
  const header = [
    '// Generated by scripts/build.mjs from the bundled JSON Schemas. Do not edit.',
    '"use strict";',
    'const __formats = require("ajv-formats/dist/formats").fullFormats;',
    'function __appendErrors(into, more) { if (into === null) return more; for (let i = 0; i < more.length; i++) into.push(more[i]); return into; }',
    EQUAL,
    UNIQUE,
  ].join('\n');
  return `${header}\n${code.replace(/^"use strict";/, '')}\n`;
}

export function buildValidators() {
  const out = join(root, 'generated');
  mkdirSync(out, { recursive: true });
  const written = new Set();
  for (const mod of modules()) {
    writeFileSync(join(out, `${mod.name}.cjs`), compile(mod));
    written.add(`${mod.name}.cjs`);
  }
  // An index with a static require of each, so the CLI bundle can carry them all and load
  // each on first use (see bundleValidators below).
  const index = [
    '// Generated by scripts/build.mjs. Do not edit.',
    '"use strict";',
    'module.exports = {',
    ...[...written].sort().map((f) => `  ${JSON.stringify(f.replace(/\.cjs$/, ''))}: () => require(${JSON.stringify(`./${f}`)}),`),
    '};',
    '',
  ].join('\n');
  writeFileSync(join(out, 'index.cjs'), index);
  written.add('index.cjs');
  // Overwrite in place (a test run may be reading them) and drop what no schema makes any more.
  for (const f of readdirSync(out)) if (!written.has(f)) rmSync(join(out, f));
}

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Bundle the CLI (dist/src/cli/main.js and what it imports) into one CommonJS file,
 * dist/bundle/main.cjs, that bin/mcp-annotate.js compiles with a V8 code cache
 * (bin/compile-cache.js): after the first run, start-up deserialises compiled code
 * instead of parsing and compiling a hundred modules. Code that only some commands need
 * (live servers, config, other commands) sits in lazily initialised wrappers, so it costs
 * nothing until called. Packages that are heavy and only needed by some commands stay
 * outside (EXTERNAL) and are required when used (src/util/require.ts).
 */
const EXTERNAL = ['@modelcontextprotocol/sdk', 'yaml'];

/**
 * In the bundle, src/schema/generated.ts requires the validators through the static index
 * generated/index.cjs, so esbuild bundles them (each initialised on first use) and they
 * come from the code cache too, instead of being resolved and compiled file by file.
 */
function bundleValidators() {
  return {
    name: 'bundle-validators',
    setup(build) {
      build.onLoad({ filter: /[\\/]dist[\\/]src[\\/]schema[\\/]generated\.js$/ }, () => ({
        contents: [
          'const validators = require("#generated/index.cjs");',
          'export function generated(name) {',
          '  const load = validators[name];',
          '  if (!load) throw new Error(`no generated validators named ${name}`);',
          '  return load();',
          '}',
        ].join('\n'),
        loader: 'js',
        resolveDir: join(root, 'dist', 'src', 'schema'),
      }));
    },
  };
}

/**
 * The bundle does not need what only the docs and the tests read: each rule's examples
 * and notes (the doc pages in docs/rules/ carry them, and `explain` reads those). Taking
 * them out halves what start-up has to parse. TypeScript's parser finds the properties.
 */
function stripDocsOnly() {
  const ts = require('typescript');
  return {
    name: 'strip-rule-docs',
    setup(build) {
      build.onLoad({ filter: /[\\/]dist[\\/]rules[\\/][^\\/]+\.js$/ }, async (args) => {
        const text = readFileSync(args.path, 'utf8');
        const file = ts.createSourceFile(args.path, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.JS);
        const cuts = [];
        const visit = (node) => {
          if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineRule') {
            const arg = node.arguments[0];
            if (arg && ts.isObjectLiteralExpression(arg)) {
              for (const prop of arg.properties) {
                const name = prop.name && ts.isIdentifier(prop.name) ? prop.name.text : undefined;
                if (ts.isPropertyAssignment(prop) && name === 'examples') cuts.push([prop.initializer.getStart(file), prop.initializer.end, '{ correct: [], incorrect: [] }']);
                if (ts.isPropertyAssignment(prop) && name === 'notes') cuts.push([prop.initializer.getStart(file), prop.initializer.end, 'undefined']);
              }
            }
          }
          ts.forEachChild(node, visit);
        };
        visit(file);
        let out = text;
        for (const [start, end, replacement] of cuts.sort((a, b) => b[0] - a[0])) out = out.slice(0, start) + replacement + out.slice(end);
        return { contents: out, loader: 'js' };
      });
    },
  };
}

export async function bundle() {
  const esbuild = await import('esbuild');
  const outDir = join(root, 'dist', 'bundle');
  rmSync(outDir, { recursive: true, force: true });
  const out = join(outDir, 'main.cjs');
  await esbuild.build({
    entryPoints: [join(root, 'dist', 'src', 'cli', 'main.js')],
    outfile: out,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    mainFields: ['module', 'main'],
    external: EXTERNAL.flatMap((p) => [p, `${p}/*`]),
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [stripDocsOnly(), bundleValidators()],
    // The sources are ES modules; in the CommonJS bundle import.meta.url is the bundle's own URL.
    define: { 'import.meta.url': '__mcpImportMetaUrl' },
    banner: { js: 'var __mcpImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  // bin/compile-cache.js runs the bundle as a script, where import() has no loader: external packages must be required.
  const code = readFileSync(out, 'utf8');
  const dynamic = code.match(/\bimport\(\s*["'][^"']+["']\s*\)/g);
  if (dynamic) throw new Error(`the CLI bundle must not import() at run time (use requirePackage): ${[...new Set(dynamic)].join(', ')}`);
  // The first line names the bundle's content, so a code cache made from another build is never used for this one,
  // and says when every character is ASCII: bin/compile-cache.js then reads it as latin1, which takes a
  // fifth of the time UTF-8 decoding does (~2 against ~9 ms a start). esbuild escapes non-ASCII characters in
  // strings but leaves regular expression literals as written: write them as \uXXXX (test/compile-cache.test.ts).
  const digest = createHash('sha256').update(code).digest('hex');
  const ascii = /^[\x00-\x7f]*$/.test(code);
  writeFileSync(out, `// mcp-annotate bundle ${digest}${ascii ? ' ascii' : ''}\n${code}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // The validators are remade when a schema, or this script (which writes them), is newer.
  const schemasChanged = Math.max(newestMtime(join(root, 'schemas')), statSync(fileURLToPath(import.meta.url)).mtimeMs) > newestMtime(join(root, 'generated'));
  if (schemasChanged || process.argv.includes('--force') || !existsSync(join(root, 'generated', 'index.cjs'))) buildValidators();
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], {
    stdio: 'inherit',
    cwd: root,
  });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  await bundle();
}
