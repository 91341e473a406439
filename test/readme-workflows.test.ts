/**
 * The README's workflow scripts, run with bash -e as a runner runs a `run:` step.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, tempDir } from './helpers/cli.js';

/** The `run: |` script of the README's step with this name. */
function stepScript(name: string): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf(`- name: ${name}`);
  expect(at, name).toBeGreaterThan(-1);
  const lines = readme.slice(at).split('\n');
  const run = lines.findIndex((l) => /^\s+run: \|$/.test(l));
  const indent = /^(\s*)/.exec(lines[run + 1]!)![1]!.length;
  const body: string[] = [];
  for (const l of lines.slice(run + 1)) {
    if (l.trim() !== '' && /^(\s*)/.exec(l)![1]!.length < indent) break;
    body.push(l.slice(indent));
  }
  return body.join('\n');
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });
const snapshot = (readOnly: boolean) => JSON.stringify({ serverInfo: { name: 's' }, tools: [{ name: 'list_items', inputSchema: { type: 'object' }, annotations: { readOnlyHint: readOnly, openWorldHint: false } }] }, null, 2) + '\n';

describe('README: Annotation drift step', () => {
  const script = stepScript('Annotation drift');

  function run(baseHasSnapshot: boolean, head: string) {
    const origin = tempDir({ 'README.md': 'x\n', ...(baseHasSnapshot ? { 'snapshots/server.json': snapshot(true) } : {}) });
    git(origin, 'init', '-q', '-b', 'main');
    git(origin, 'add', '-A');
    git(origin, 'commit', '-qm', 'base');
    const work = tempDir();
    git(work, 'clone', '-q', origin, 'repo');
    const repo = join(work, 'repo');
    const bin = tempDir();
    // npx mcp-annotate: this repository's bin.
    writeFileSync(join(bin, 'npx'), `#!/bin/sh\nshift\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(bin, 'npx'), 0o755);
    execFileSync('mkdir', ['-p', join(repo, 'snapshots')]);
    writeFileSync(join(repo, 'snapshots', 'server.json'), head);
    const temp = tempDir();
    const summary = join(temp, 'summary.md');
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd: repo,
      encoding: 'utf8',
      env: { PATH: `${bin}:${process.env.PATH}`, HOME: process.env.HOME, BASE_REF: 'main', RUNNER_TEMP: temp, GITHUB_STEP_SUMMARY: summary },
    });
    return r;
  }

  it('passes when the base branch has no snapshot yet (the pull request that adds it)', () => {
    const r = run(false, snapshot(true));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('snapshots/server.json is not on main yet');
  });

  it('fails on weakened annotations when the base has the snapshot', () => {
    const r = run(true, snapshot(false));
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain('drift/readonly-removed');
  });
});
