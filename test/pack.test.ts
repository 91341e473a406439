/**
 * The published package works on its own: `npm pack`, install the tarball into an
 * empty directory, run the installed bin.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, tempDir } from './helpers/cli.js';

const npm = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

describe('npm pack', () => {
  it('produces a package whose mcp-annotate bin works when installed elsewhere', { timeout: 240_000 }, () => {
    const out = tempDir();
    // --ignore-scripts: npm test has built already, and a rebuild here would pull dist/ from under the other test files running in parallel.
    npm(['pack', '--ignore-scripts', '--pack-destination', out, '--silent'], ROOT);
    const tarball = readdirSync(out).find((f) => f.endsWith('.tgz'));
    expect(tarball).toBeDefined();

    const listing = execFileSync('tar', ['-tzf', join(out, tarball!)], { encoding: 'utf8' });
    expect(listing).toContain('package/bin/mcp-annotate.js');
    expect(listing).toContain('package/dist/bundle/main.cjs');
    expect(listing).not.toContain('package/dist/src/');
    // The validators are inside the bundle; the generated/ sources stay behind.
    expect(listing).not.toContain('package/generated/');
    expect(listing).toContain('package/docs/rules/schema-valid.md');
    expect(listing).not.toContain('package/test/');
    expect(listing).not.toContain('package/src/');

    const app = tempDir({ 'package.json': JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }) });
    npm(['install', '--no-audit', '--no-fund', '--omit=dev', join(out, tarball!)], app);
    const bin = join(app, 'node_modules', '.bin', 'mcp-annotate');

    const version = spawnSync(bin, ['--version'], { cwd: app, encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);

    copyFileSync(join(ROOT, 'fixtures', 'example-server.json'), join(app, 'example.json'));
    const lint = spawnSync(bin, ['lint', 'example.json', '--format', 'json'], { cwd: app, encoding: 'utf8' });
    expect(lint.stderr).toBe('');
    expect(lint.status).toBe(1);
    const report = JSON.parse(lint.stdout);
    expect(report.summary.errors).toBeGreaterThan(0);
    expect(report.findings.every((f: { file: string }) => f.file === 'example.json')).toBe(true);

    const explain = spawnSync(bin, ['explain', 'readonly-vs-outcome'], { cwd: app, encoding: 'utf8' });
    expect(explain.status).toBe(0);
    expect(explain.stdout).toContain('readOnlyHint');
  });
});
