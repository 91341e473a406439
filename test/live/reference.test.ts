/**
 * End to end against a published reference server: @modelcontextprotocol/server-filesystem
 * (a devDependency), started over stdio with node.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { quote } from 'shell-quote';
import { runCli, tempDir } from '../helpers/cli.js';
import { essence } from './helpers.js';

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json'));
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const entry = join(pkgDir, pkg.bin['mcp-server-filesystem']);

describe('@modelcontextprotocol/server-filesystem', () => {
  it('lints live over stdio, and its snapshot lints to the same findings', async () => {
    const dir = tempDir({ 'allowed/readme.txt': 'hello\n' });
    const command = quote([process.execPath, entry, join(dir, 'allowed')]);
    const live = await runCli(['lint', '--stdio', command, '-f', 'json', '--fail-on', 'none'], { cwd: dir });
    expect(live.stderr).toBe('');
    expect(live.code).toBe(0);
    const report = JSON.parse(live.stdout);
    expect(report.servers).toEqual([expect.objectContaining({ name: 'secure-filesystem-server', kind: 'live', source: command })]);
    expect(report.servers[0].tools).toBeGreaterThanOrEqual(10);

    const dump = await runCli(['dump', '--stdio', command, '-o', 'fs.json'], { cwd: dir });
    expect(dump).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const snapshot = JSON.parse(readFileSync(join(dir, 'fs.json'), 'utf8'));
    expect(snapshot.serverInfo.name).toBe('secure-filesystem-server');
    // The reference server annotates its tools: they reach the snapshot as sent.
    const read = snapshot.tools.find((t: { name: string }) => t.name === 'read_text_file');
    expect(read.annotations).toMatchObject({ readOnlyHint: true });
    const fromFile = await runCli(['lint', 'fs.json', '-f', 'json', '--fail-on', 'none'], { cwd: dir });
    expect(essence(JSON.parse(fromFile.stdout))).toEqual(essence(report));
  });
});
