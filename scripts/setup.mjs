#!/usr/bin/env node
// Makes a fresh clone runnable: installs dependencies from the lock file when they are
// missing or older than it, then builds when a source is newer than the build.
// `npm start` and `npm test` run this first, so they are the only commands a new user needs.
import { existsSync, statSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnSync } from 'node:child_process';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const mtime = (p) => (existsSync(p) ? statSync(p).mtimeMs : 0);

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const installed = join(root, 'node_modules', '.package-lock.json');
if (!existsSync(installed) || mtime(installed) < mtime(join(root, 'package-lock.json'))) {
  console.error('mcp-annotate: installing dependencies (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts']);
}

// The bundle is the build's last step (the compiler's .tsbuildinfo is also rewritten by a
// type check, `npm run typecheck`, which builds nothing).
const built = mtime(join(root, 'dist', 'bundle', 'main.cjs'));
const sources = Math.max(newest(join(root, 'src')), newest(join(root, 'rules')), newest(join(root, 'schemas')), mtime(join(root, 'tsconfig.json')), mtime(join(root, 'scripts', 'build.mjs')));
if (!existsSync(join(root, 'generated')) || !existsSync(join(root, 'dist', 'bundle', 'main.cjs')) || built < sources) {
  console.error('mcp-annotate: building…');
  run(process.execPath, [join(root, 'scripts', 'build.mjs')]);
}
