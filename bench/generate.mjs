#!/usr/bin/env node
// Writes realistic synthetic tools/list dumps, deterministic from a seed:
//   node bench/generate.mjs <tools> <file> [seed]
// A mix of core-only tools (as most real servers have), tools that use every
// vocabulary consistently, contradictory ones, long descriptions and deep inputSchemas.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/** mulberry32: a small, well-known deterministic PRNG. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const VERBS_READ = ['get', 'list', 'search', 'read', 'describe', 'fetch', 'find', 'query'];
const VERBS_WRITE = ['create', 'update', 'set', 'send', 'post', 'publish', 'add', 'merge'];
const VERBS_DELETE = ['delete', 'remove', 'purge', 'drop'];
const NOUNS = ['issue', 'file', 'message', 'user', 'repository', 'branch', 'invoice', 'ticket', 'event', 'document', 'record', 'page', 'comment', 'project', 'channel', 'order'];
const WORDS = 'the a tool returns data for given user project within workspace each item includes id name status created updated owner labels and optional metadata results are paginated use cursor to continue'.split(' ');
const AM = 'io.modelcontextprotocol/action-metadata';

export function generate(count, seed = 1) {
  const rnd = prng(seed);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const sentence = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
  const props = (depth) => {
    const out = {};
    const n = 1 + Math.floor(rnd() * 4);
    for (let i = 0; i < n; i++) {
      const name = `${pick(NOUNS)}_${pick(['id', 'name', 'limit', 'query', 'status', 'filter'])}${i}`;
      out[name] = depth > 0 && rnd() < 0.4 ? { type: 'object', description: sentence(6), properties: props(depth - 1) } : { type: pick(['string', 'integer', 'boolean']), description: sentence(5) };
    }
    return out;
  };
  const tool = (i) => {
    const kind = rnd();
    const verbClass = rnd();
    const verb = verbClass < 0.6 ? pick(VERBS_READ) : verbClass < 0.9 ? pick(VERBS_WRITE) : pick(VERBS_DELETE);
    const reads = VERBS_READ.includes(verb);
    const deletes = VERBS_DELETE.includes(verb);
    const name = `${verb}_${pick(NOUNS)}_${i}`;
    const deep = rnd() < 0.1;
    const t = {
      name,
      title: `${verb[0].toUpperCase()}${verb.slice(1)} ${pick(NOUNS)}`,
      description: rnd() < 0.1 ? sentence(400 + Math.floor(rnd() * 400)) : sentence(8 + Math.floor(rnd() * 20)),
      inputSchema: { type: 'object', properties: props(deep ? 12 : 1), required: [] },
    };
    if (kind < 0.45) {
      // Core hints only, mostly right.
      t.annotations = { readOnlyHint: reads, ...(reads ? {} : { destructiveHint: deletes }), openWorldHint: rnd() < 0.5 };
      if (rnd() < 0.2) delete t.annotations.openWorldHint;
    } else if (kind < 0.55) {
      // No annotations at all.
    } else if (kind < 0.85) {
      // Every vocabulary, consistent.
      const outcomes = reads ? 'benign' : deletes ? 'irreversible' : 'consequential';
      t.annotations = {
        readOnlyHint: reads,
        ...(reads ? {} : { destructiveHint: deletes, idempotentHint: false }),
        openWorldHint: false,
        inputMetadata: { destination: reads ? 'ephemeral' : 'internal', sensitivity: 'none', outcomes },
        returnMetadata: { source: 'internal', sensitivity: reads ? ['user'] : 'none' },
        riskLevel: reads ? 'low' : deletes ? 'high' : 'medium',
        category: reads ? 'read' : deletes ? 'delete' : 'mutate',
        reversibility: reads ? 'auto' : deletes ? 'none' : 'manual',
        approvalRecommendation: reads ? 'none' : 'single',
      };
      t._meta = {
        'mcp.dev/effect': reads ? 'read' : deletes ? 'delete' : 'write',
        'mcp.dev/requiresConfirmation': !reads,
        [AM]: { outcome: outcomes, requiresReview: !reads },
      };
    } else {
      // Contradictory: what the catalogue exists to catch.
      t.annotations = {
        readOnlyHint: true,
        destructiveHint: deletes,
        openWorldHint: false,
        inputMetadata: { destination: pick(['public', 'user', 'ephemeral']), sensitivity: pick(['pii', 'none', ['none', 'pii']]), outcomes: pick(['irreversible', ['benign', 'consequential'], 'benign']) },
        returnMetadata: { source: pick(['untrustedPublic', 'internal']), sensitivity: pick(['credentials', 'pii', 'none']) },
        category: pick(['delete', 'read', 'mutate']),
        riskLevel: 'low',
      };
    }
    return t;
  };
  return { count, tool };
}

export async function writeDump(count, file, seed = 1) {
  const { tool } = generate(count, seed);
  const out = createWriteStream(file);
  const write = async (s) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  await write(`{\n  "serverInfo": { "name": "synthetic-${count}", "version": "1.0.0" },\n  "tools": [\n`);
  for (let i = 0; i < count; i++) await write(`    ${JSON.stringify(tool(i))}${i + 1 < count ? ',' : ''}\n`);
  await write('  ]\n}\n');
  out.end();
  await once(out, 'finish');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [count, file, seed] = process.argv.slice(2);
  if (!count || !file) {
    console.error('usage: node bench/generate.mjs <tools> <file> [seed]');
    process.exit(2);
  }
  await writeDump(Number(count), file, seed ? Number(seed) : 1);
}
