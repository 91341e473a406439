#!/usr/bin/env node
// Derives the JSON Schemas that mcp-annotate bundles from the source documents in
// ../shared (the official MCP schema.json per spec version, and the SEP-1913 text).
// The derived files are committed under schemas/; test/schemas.test.ts re-derives
// them and fails when they drift from the sources.
//
//   node scripts/derive-schemas.mjs            write schemas/core/*.json, schemas/meta-keys.json and schemas/sep-1913.json
//   node scripts/derive-schemas.mjs --check    exit 1 when a committed file differs
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const SPEC_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

export function sharedDir() {
  const dir = process.env.MCP_ANNOTATE_SHARED ?? resolve(root, '..', 'shared');
  if (!existsSync(join(dir, 'spec', 'mcp'))) {
    throw new Error(`cannot find the shared source documents at ${dir} (set MCP_ANNOTATE_SHARED)`);
  }
  return dir;
}

/** Every definition reachable from `names` through local $refs. */
function closure(defs, names, refPrefix) {
  const seen = new Set();
  const queue = [...names];
  while (queue.length) {
    const name = queue.pop();
    if (seen.has(name)) continue;
    if (!(name in defs)) throw new Error(`definition ${name} not found`);
    seen.add(name);
    JSON.stringify(defs[name], (key, value) => {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(refPrefix)) {
        queue.push(value.slice(refPrefix.length));
      }
      return value;
    });
  }
  return [...seen].sort();
}

export function deriveCore(version, shared = sharedDir()) {
  const file = join(shared, 'spec', 'mcp', `schema-${version}.json`);
  const source = JSON.parse(readFileSync(file, 'utf8'));
  const defsKey = source.$defs ? '$defs' : 'definitions';
  const defs = source[defsKey];
  const refPrefix = `#/${defsKey}/`;
  const envelope = structuredClone(defs.ListToolsResult);
  // Tools are validated one by one against Tool; the envelope check only looks at the
  // members around them (nextCursor, _meta, and the 2026-07-28 cache fields).
  envelope.properties.tools = { type: 'array' };
  const picked = {};
  for (const name of closure(defs, ['Tool'], refPrefix)) picked[name] = defs[name];
  for (const name of closure({ ...defs, ListToolsEnvelope: envelope }, ['ListToolsEnvelope'], refPrefix)) {
    picked[name] = name === 'ListToolsEnvelope' ? envelope : defs[name];
  }
  const sorted = Object.fromEntries(Object.keys(picked).sort().map((k) => [k, picked[k]]));
  return {
    $schema: source.$schema,
    $id: `urn:mcp-annotate:core:${version}`,
    $comment: `Derived by scripts/derive-schemas.mjs from the official MCP schema.json of ${version} (../shared/spec/mcp/schema-${version}.json): the Tool definition and what it references, plus ListToolsResult as ListToolsEnvelope with its tools reduced to an array. Do not edit by hand; run npm run schemas.`,
    [defsKey]: sorted,
  };
}

export function deriveSep1913(shared = sharedDir()) {
  const file = join(shared, 'seeds', '000_f48d420c65c867ff.txt');
  const text = readFileSync(file, 'utf8');
  const heading = text.indexOf('#### JSON Schema Additions');
  if (heading < 0) throw new Error(`${file}: no "JSON Schema Additions" section`);
  const open = text.indexOf('```json', heading);
  const close = text.indexOf('```', open + 7);
  const fragment = JSON.parse(text.slice(open + 7, close));
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'urn:mcp-annotate:sep-1913',
    $comment: 'Derived by scripts/derive-schemas.mjs from the "JSON Schema Additions" of SEP-1913 (../shared/seeds/000_f48d420c65c867ff.txt), byte-for-byte as JSON. Do not edit by hand; run npm run schemas.',
    $defs: fragment,
  };
}

/** A _meta key under a prefix MCP reserves in every version since 2025-11-25 (its second label is modelcontextprotocol or mcp). */
const RESERVED_KEY = /^[A-Za-z][A-Za-z0-9-]*\.(?:modelcontextprotocol|mcp)(?:\.[A-Za-z0-9-]+)*\/[A-Za-z0-9._-]+$/i;

/**
 * The _meta keys the schema.json of a version defines under MCP's reserved prefix: the
 * members of its *MetaObject definitions (2026-07-28's ResultMetaObject, RequestMetaObject, …;
 * no other member name of MCP's holds a "/"), and the keys a description names for a `_meta`
 * ("Include this in the `_meta` field under the key `io.modelcontextprotocol/related-task`",
 * 2025-11-25). Extension identifiers named only as examples of capability keys
 * ("io.modelcontextprotocol/tasks") are no _meta keys.
 */
export function deriveMetaKeys(version, shared = sharedDir()) {
  const source = JSON.parse(readFileSync(join(shared, 'spec', 'mcp', `schema-${version}.json`), 'utf8'));
  const keys = new Set();
  const walk = (node) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== 'object') return;
    if (node.properties && typeof node.properties === 'object') {
      for (const k of Object.keys(node.properties)) if (RESERVED_KEY.test(k)) keys.add(k);
    }
    if (typeof node.description === 'string' && node.description.includes('`_meta`')) {
      for (const m of node.description.matchAll(/`"?([^`"\s]+)"?`/g)) if (RESERVED_KEY.test(m[1])) keys.add(m[1]);
    }
    for (const v of Object.values(node)) walk(v);
  };
  walk(source.$defs ?? source.definitions);
  return [...keys].sort();
}

export function derivedFiles(shared = sharedDir()) {
  const files = {};
  for (const v of SPEC_VERSIONS) files[`schemas/core/${v}.json`] = deriveCore(v, shared);
  files['schemas/meta-keys.json'] = {
    $comment:
      "Derived by scripts/derive-schemas.mjs from the official MCP schema.json of each version (../shared/spec/mcp/schema-<version>.json): the _meta keys each defines under MCP's reserved prefix (members of its *MetaObject definitions, and keys a description names for a _meta). Do not edit by hand; run npm run schemas.",
    ...Object.fromEntries(SPEC_VERSIONS.map((v) => [v, deriveMetaKeys(v, shared)])),
  };
  files['schemas/sep-1913.json'] = deriveSep1913(shared);
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [k, JSON.stringify(v, null, 2) + '\n']));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [rel, text] of Object.entries(derivedFiles())) {
    const path = join(root, rel);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (current === text) continue;
    if (check) {
      console.error(`${rel} is out of date; run npm run schemas`);
      stale++;
    } else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      console.log(`wrote ${rel}`);
    }
  }
  process.exitCode = stale ? 1 : 0;
}
