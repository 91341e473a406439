// Stretch every list and object of the rules' example tools, and find what grows faster than
// the input.
//
//   node bench/stretch.mjs [--size N] [--only TEXT] [--limit SECONDS] [--reports]
//
// Each array of every example tool (in its annotations, _meta, inputSchema and outputSchema)
// is replaced by N members (distinct strings, distinct objects, or variants of its first
// member), and each object gets N more members (strings, or schema-like objects); every shape
// once, by its path with indexes read as #. Each stretched tool is linted by the whole CLI
// (`lint FILE -f json -o /dev/null`). A case that takes more than the limit (default 1.5 s) is
// linted again at 4N: a case whose time grows more than 6x for 4x the members is listed as
// superlinear. A run that crashes (exit code other than 0 or 1) is listed too. With --reports,
// each JSON report is written and a case whose report is over ten times the size of its input
// is listed as well. Exits 1 when any case is listed.
//
// Takes 15-25 minutes at the default N (40,000) on a two-core machine; --only narrows it to
// the cases whose description contains a text ("A str annotations/inputMetadata/destination").
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const size = Number(option('--size', '40000'));
const limit = Number(option('--limit', '1.5'));
const only = option('--only', undefined);
const reports = args.includes('--reports');

const { RULES } = await import(pathToFileURL(join(root, 'dist', 'rules', 'index.js')).href);

/** Every example tool of every rule. */
const tools = [];
for (const rule of RULES) for (const kind of ['incorrect', 'correct']) for (const example of rule.examples?.[kind] ?? []) for (const t of example.tools ?? []) tools.push(t);

/** One case per shape: a path (indexes as #) and how it is stretched. */
const cases = [];
const seen = new Set();
function walk(value, path, tool) {
  const shape = path.map((p) => (typeof p === 'number' ? '#' : p)).join('/');
  const add = (kind) => {
    const name = `${Array.isArray(value) ? 'A' : 'O'} ${kind} ${shape}`;
    if (!seen.has(name)) cases.push({ name, tool, path, kind }), seen.add(name);
  };
  if (Array.isArray(value)) {
    for (const kind of ['str', 'obj', 'same']) add(kind);
    value.forEach((v, i) => walk(v, [...path, i], tool));
  } else if (value !== null && typeof value === 'object') {
    for (const kind of ['keys', 'schemas']) add(kind);
    for (const k of Object.keys(value)) walk(value[k], [...path, k], tool);
  }
}
for (const t of tools) for (const top of ['annotations', '_meta', 'inputSchema', 'outputSchema']) if (t[top] !== undefined) walk(t[top], [top], t);

/** The case's tool with its value stretched to n members. */
function stretched(c, n) {
  const tool = structuredClone(c.tool);
  let parent = tool;
  for (const p of c.path.slice(0, -1)) parent = parent[p];
  const last = c.path.at(-1);
  const value = parent[last];
  const first = Array.isArray(value) ? value[0] : undefined;
  const many = (f) => Array.from({ length: n }, (_, i) => f(i));
  let out;
  if (c.kind === 'str') out = many((i) => `x${i}`);
  else if (c.kind === 'obj') out = many((i) => ({ [`k${i}`]: i }));
  else if (c.kind === 'same') out = many((i) => (typeof first === 'string' ? `${first}${i}` : first !== null && typeof first === 'object' ? { ...first, [`z${i}`]: 1 } : i));
  else {
    out = { ...value };
    for (let i = 0; i < n; i++) out[`k${i}`] = c.kind === 'keys' ? `v${i}` : { type: 'string', description: `d${i}` };
  }
  parent[last] = out;
  return tool;
}

const dir = mkdtempSync(join(tmpdir(), 'mcp-annotate-stretch-'));
const file = join(dir, 'tool.json');
const report = join(dir, 'report.json');
/** Seconds the whole CLI takes on the case at n members, and how it ended. */
function lintAt(c, n) {
  writeFileSync(file, JSON.stringify({ tools: [stretched(c, n)] }));
  const start = performance.now();
  const r = spawnSync(process.execPath, [join(root, 'bin', 'mcp-annotate.js'), 'lint', file, '-f', 'json', '-o', reports ? report : '/dev/null'], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 600_000 });
  const seconds = (performance.now() - start) / 1000;
  const growth = reports && existsSync(report) ? statSync(report).size / statSync(file).size : 0;
  return { seconds, growth, status: r.status, signal: r.signal, stderr: String(r.stderr).trim().split('\n')[0] ?? '' };
}

const selected = cases.filter((c) => only === undefined || c.name.includes(only));
console.log(`${selected.length} cases of ${cases.length}, ${size.toLocaleString('en-US')} members each`);
let listed = 0;
try {
  for (const c of selected) {
    const r = lintAt(c, size);
    if (r.signal || (r.status !== 0 && r.status !== 1)) {
      listed++;
      console.log(`FAILED ${c.name}: ${r.signal ?? `exit code ${r.status}`} ${r.stderr}`);
      continue;
    }
    if (r.growth > 10) {
      listed++;
      console.log(`LARGE ${c.name}: a report ${r.growth.toFixed(1)}x the size of its input`);
    }
    if (r.seconds <= limit) continue;
    const big = lintAt(c, size * 4);
    const growth = big.seconds / r.seconds;
    const verdict = growth > 6 ? 'SUPERLINEAR' : 'linear';
    if (verdict !== 'linear') listed++;
    console.log(`${verdict} ${c.name}: ${r.seconds.toFixed(2)} s at ${size}, ${big.seconds.toFixed(2)} s at ${size * 4} (${growth.toFixed(1)}x)`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(listed ? `${listed} case(s) listed` : 'no case grows faster than its input');
process.exit(listed ? 1 : 0);
