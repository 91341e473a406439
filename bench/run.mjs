#!/usr/bin/env node
// npm run bench: times the whole `mcp-annotate lint FILE --format json` process on
// synthetic dumps of 10, 1,000, 10,000 and 100,000 tools against the floor (a `node -e`
// that reads and JSON.parses the same file), plus cold start, and checks the budgets.
//
//   node bench/run.mjs [--sizes 10,1000,10000,100000] [--runs 5] [--seed 1]
//
// Prints a table, writes bench/results/latest.json, exits 1 when a budget is missed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeDump } from './generate.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const sizes = opt('sizes', '10,1000,10000,100000').split(',').map(Number);
const baseRuns = Number(opt('runs', '5'));
const seed = Number(opt('seed', '1'));
const bin = join(root, 'bin', 'mcp-annotate.js');
const TIME = '/usr/bin/time';
const haveTime = existsSync(TIME);

/** One run of a command: wall milliseconds and peak RSS (KiB, from /usr/bin/time). */
function once(cmd, cmdArgs) {
  const rssFile = join(tmpdir(), `mcp-annotate-bench-${process.pid}.rss`);
  const argv = haveTime ? ['-f', '%M', '-o', rssFile, cmd, ...cmdArgs] : cmdArgs;
  const start = process.hrtime.bigint();
  const r = spawnSync(haveTime ? TIME : cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 && r.status !== 1) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed (${r.status}): ${r.stderr}`);
  let rss;
  if (haveTime) {
    rss = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
    rmSync(rssFile, { force: true });
  }
  return { ms, rss };
}

function summarise(samples) {
  const times = samples.map((s) => s.ms).sort((a, b) => a - b);
  return {
    median: times[Math.floor(times.length / 2)],
    min: times[0],
    max: times[times.length - 1],
    rss: haveTime ? Math.max(...samples.map((s) => s.rss)) : undefined,
  };
}

/**
 * Several commands measured together: one warm-up each, then `runs` rounds that run each
 * command once in turn, so a machine that speeds up or slows down during the benchmark
 * shifts all of them alike and the ratios between them stay fair.
 */
function measureTogether(commands, runs) {
  for (const [cmd, cmdArgs] of commands) once(cmd, cmdArgs);
  const samples = commands.map(() => []);
  for (let r = 0; r < runs; r++) commands.forEach(([cmd, cmdArgs], i) => samples[i].push(once(cmd, cmdArgs)));
  return samples.map(summarise);
}

const dataDir = join(root, 'bench', 'data');
mkdirSync(dataDir, { recursive: true });
const node = process.execPath;
const results = { node: process.version, date: new Date().toISOString(), seed, sizes: [], coldStart: {}, budgets: [] };

const fmt = (x, d = 0) => (x === undefined ? '–' : x.toFixed(d));
const mb = (kib) => (kib === undefined ? '–' : (kib / 1024).toFixed(0));

console.log(`mcp-annotate benchmark on ${process.version}, ${new Date().toISOString().slice(0, 10)}\n`);

// Cold start.
if (!sizes.includes(10)) sizes.unshift(10);
const smallFile = join(dataDir, `tools-10-seed${seed}.json`);
if (!existsSync(smallFile)) await writeDump(10, smallFile, seed);
const [nodeE0, version, lint10] = measureTogether(
  [
    [node, ['-e', '0']],
    [node, [bin, '--version']],
    [node, [bin, 'lint', smallFile, '--format', 'json']],
  ],
  21,
);
results.coldStart = { nodeE0, version, lint10 };
console.log('cold start (median of 21 interleaved runs)');
console.log(`  node -e 0                     ${fmt(nodeE0.median)} ms`);
console.log(`  mcp-annotate --version        ${fmt(version.median)} ms  (${fmt(version.median / nodeE0.median, 2)}× node -e 0)`);
console.log(`  mcp-annotate lint (10 tools)  ${fmt(lint10.median)} ms  (${fmt(lint10.median / nodeE0.median, 2)}× node -e 0)\n`);

const header = '| tools | file MB | lint median ms (min–max) | floor median ms | lint/floor | tools/s | peak RSS MB (lint / floor) | RSS ratio | µs/tool |';
const rows = [header, '| ---: | ---: | --- | ---: | ---: | ---: | --- | ---: | ---: |'];
for (const n of sizes) {
  const file = join(dataDir, `tools-${n}-seed${seed}.json`);
  if (!existsSync(file)) await writeDump(n, file, seed);
  const runs = n >= 100_000 ? Math.max(3, Math.ceil(baseRuns / 2)) : baseRuns;
  const [floor, lint] = measureTogether(
    [
      [node, ['-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`]],
      [node, [bin, 'lint', file, '--format', 'json']],
    ],
    runs,
  );
  const row = {
    tools: n,
    bytes: statSync(file).size,
    lint,
    floor,
    ratio: lint.median / floor.median,
    toolsPerSecond: n / (lint.median / 1000),
    usPerTool: (lint.median * 1000) / n,
    rssRatio: lint.rss && floor.rss ? lint.rss / floor.rss : undefined,
  };
  results.sizes.push(row);
  rows.push(
    `| ${n.toLocaleString('en')} | ${(row.bytes / 1e6).toFixed(1)} | ${fmt(lint.median)} (${fmt(lint.min)}–${fmt(lint.max)}) | ${fmt(floor.median)} | ${fmt(row.ratio, 2)} | ${Math.round(row.toolsPerSecond).toLocaleString('en')} | ${mb(lint.rss)} / ${mb(floor.rss)} | ${fmt(row.rssRatio, 2)} | ${fmt(row.usPerTool, 1)} |`,
  );
}
console.log(rows.join('\n') + '\n');

const at = (n) => results.sizes.find((r) => r.tools === n);
const budget = (name, value, limit, unit = '×') => {
  const pass = value !== undefined && value <= limit;
  results.budgets.push({ name, value, limit, pass });
  console.log(`${pass ? 'PASS' : 'FAIL'}  ${name}: ${fmt(value, 2)}${unit} (budget ≤ ${limit}${unit})`);
};
budget('10-tool lint vs node -e 0', lint10.median / nodeE0.median, 2);
if (at(10_000)) budget('10,000 tools vs parse floor', at(10_000).ratio, 3);
if (at(100_000)) {
  budget('100,000 tools vs parse floor', at(100_000).ratio, 3);
  budget('100,000 tools peak RSS vs floor', at(100_000).rssRatio, 2.5);
  if (at(10_000)) budget('time per tool at 100,000 vs at 10,000', at(100_000).usPerTool / at(10_000).usPerTool, 1.5);
}

const outDir = join(root, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'latest.json'), JSON.stringify(results, null, 2) + '\n');
console.log(`\nwrote bench/results/latest.json`);
process.exitCode = results.budgets.every((b) => b.pass) ? 0 : 1;
