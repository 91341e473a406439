#!/usr/bin/env node
// The report phase in one process, for comparing builds: load a dump, lint it, settle its
// fixes, then write the report in a format (default json) `reps` times, each chunk consumed
// (the first writing hashed, to check that two builds write the same bytes). Prints CPU ms.
// Usage: node bench/report-phase.mjs <checkout with a build> <dump> [reps] [format]
// Compare two builds by running it for each in turn, several times (interleaved).
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [repoArg, dump, repsArg, fmt] = process.argv.slice(2);
if (!repoArg || !dump) {
  console.error('usage: node bench/report-phase.mjs <checkout> <dump> [reps] [format]');
  process.exit(2);
}
const repo = pathToFileURL(resolve(repoArg)).href;
const reps = Number(repsArg ?? 3);
const { RULES } = await import(`${repo}/dist/rules/index.js`);
const { lint } = await import(`${repo}/dist/src/engine/engine.js`);
const { loadTargets } = await import(`${repo}/dist/src/sources/files.js`);
const { settleFixesOf } = await import(`${repo}/dist/src/engine/fixes.js`);
const { formatChunks } = await import(`${repo}/dist/src/reporters/index.js`);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
let t = cpu();
const loaded = await loadTargets([dump], process.cwd());
const load = cpu() - t;
t = cpu();
const result = lint(loaded.servers, RULES, {});
const linted = cpu() - t;
t = cpu();
settleFixesOf(result.findings, loaded.servers);
const settle = cpu() - t;
const report = { findings: result.findings, servers: result.servers, errors: loaded.errors, rules: RULES, cwd: process.cwd(), fails: true, exitCode: 1 };
const times = [];
let hash;
for (let i = 0; i < reps; i++) {
  t = cpu();
  const h = createHash('sha1');
  let n = 0;
  for (const c of formatChunks(fmt ?? 'json', report, { color: false, quiet: false })) {
    n += c.length;
    if (i === 0) h.update(c);
  }
  times.push(cpu() - t);
  if (i === 0) hash = `${h.digest('hex').slice(0, 12)} ${n}`;
}
const ms = (x) => Math.round(x);
console.log(JSON.stringify({ load: ms(load), lint: ms(linted), settle: ms(settle), report: times.map(ms), findings: result.findings.length, hash }));
