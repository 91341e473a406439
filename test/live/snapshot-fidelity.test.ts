/**
 * What a snapshot keeps of what a live server said: numbers JSON.stringify cannot write
 * (1e400), and the files already in the directory it is saved to.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, json } from '../helpers/cli.js';
import { serverCommand } from './helpers.js';

interface Finding {
  ruleId: string;
  message: string;
  pointer: string;
}
const findings = (stdout: string) => (JSON.parse(stdout).findings as Finding[]).map((f) => `${f.ruleId} ${f.pointer} ${f.message}`).sort();

describe('a number past a double\'s range (1e400) from a live server', () => {
  const result = '{"tools":[{"name":"get_reading","description":"Reads a sensor.","inputSchema":{"type":"object","properties":{"v":{"type":"number","maximum":1e400,"minimum":-1e400}}},"annotations":{"readOnlyHint":true,"openWorldHint":false}},{"name":"big","description":"Reads a big value.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":1e400}}]}';

  it('stays a number: the live run, its saved snapshot and dump get the findings of a lint of the result itself', async () => {
    const dir = tempDir({ 'result.json': `${result}\n` });
    const server = serverCommand('misbehave.mjs', 'raw-result', result);
    const file = await runCli(['lint', '--no-config', '--spec', '2025-06-18', 'result.json', '-f', 'json'], { cwd: dir });
    const live = await runCli(['lint', '--no-config', '--stdio', server, '-f', 'json'], { cwd: dir });
    const saved = await runCli(['lint', '--no-config', '--stdio', server, '--save-snapshots', 'snaps', '-f', 'json'], { cwd: dir });
    const dump = await runCli(['dump', '--stdio', server, '-o', 'dump.json'], { cwd: dir });
    expect(dump.code).toBe(0);
    const relint = await runCli(['lint', '--no-config', 'dump.json', '-f', 'json'], { cwd: dir });
    const expected = findings(file.stdout);
    expect(expected.join('\n')).toContain('got a number (Infinity)');
    expect(expected.join('\n')).not.toContain('null');
    expect(saved.stderr).toBe(`mcp-annotate: note: ${server}: its snapshot is saved as snaps/misbehave-raw-result.json\n`);
    for (const r of [live, saved, relint]) {
      if (r !== saved) expect(r.stderr).toBe('');
      expect(findings(r.stdout)).toEqual(expected);
      expect(r.code).toBe(file.code);
    }
    const text = readFileSync(join(dir, 'dump.json'), 'utf8');
    expect(text).toContain('"maximum": 1e400');
    expect(text).toContain('"minimum": -1e400');
    expect(text).toContain('"readOnlyHint": 1e400');
    expect(readFileSync(join(dir, 'snaps', 'misbehave-raw-result.json'), 'utf8')).toBe(text);
  });
});

describe('--save-snapshots <dir> and the files already there', () => {
  const named = (name: string) => serverCommand('misbehave.mjs', 'named', name);

  it('never writes over a file that is not a snapshot: a server named "package" gets package-2.json', async () => {
    const pkg = json({ name: 'my-app', version: '1.0.0', scripts: { test: 'vitest' } });
    const dir = tempDir({ 'package.json': pkg, 'mine.json': json({ tools: [] }) });
    const r = await runCli(['lint', '--no-config', '--save-snapshots', '.', '--stdio', named('package'), '--stdio', named('mine'), '-f', 'json'], { cwd: dir });
    // Each snapshot is announced, and one saved under another name says why: package.json is not where it is.
    expect(r.stderr).toBe(
      `mcp-annotate: note: ${named('mine')}: its snapshot is saved as mine-2.json, not mine.json (a file there that is not a snapshot, which is kept)\n` +
        `mcp-annotate: note: ${named('package')}: its snapshot is saved as package-2.json, not package.json (a config file's name, which a snapshot never takes)\n`,
    );
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(pkg);
    // A file that is not a snapshot (no serverInfo, no capabilities) is the user's: kept too.
    expect(readFileSync(join(dir, 'mine.json'), 'utf8')).toBe(json({ tools: [] }));
    expect(readdirSync(dir).sort()).toEqual(['mine-2.json', 'mine.json', 'package-2.json', 'package.json']);
    expect(JSON.parse(readFileSync(join(dir, 'package-2.json'), 'utf8')).serverInfo.name).toBe('package');
    expect(JSON.parse(r.stdout).servers.map((s: { name: string }) => s.name).sort()).toEqual(['mine', 'package']);
  });

  it('replaces its own snapshot on the next run, and never takes a config file name, even when no such file exists', async () => {
    const dir = tempDir({ 'mcp-annotate.config.yaml': 'rules:\n  implicit-open-world: "off"\n' });
    const server = named('mcp-annotate.config');
    const args = ['lint', '--stdio', server, '--stdio', named('tsconfig'), '--stdio', named('MCP'), '--save-snapshots', '.', '-f', 'json'];
    const first = await runCli(args, { cwd: dir });
    const notes = [
      `mcp-annotate: note: ${named('MCP')}: its snapshot is saved as MCP-2.json, not MCP.json (a config file's name, which a snapshot never takes)`,
      `mcp-annotate: note: ${server}: its snapshot is saved as mcp-annotate.config-2.json, not mcp-annotate.config.json (a config file's name, which a snapshot never takes)`,
      `mcp-annotate: note: ${named('tsconfig')}: its snapshot is saved as tsconfig-2.json, not tsconfig.json (a config file's name, which a snapshot never takes)`,
    ];
    expect(first.stderr.split('\n').filter(Boolean).sort()).toEqual(notes.sort());
    const files = ['MCP-2.json', 'mcp-annotate.config-2.json', 'mcp-annotate.config.yaml', 'tsconfig-2.json'];
    expect(readdirSync(dir).sort()).toEqual(files);
    // The same command again: the config in use is still the YAML one, and the snapshots are replaced.
    const second = await runCli(args, { cwd: dir });
    expect(second.stderr).toBe(first.stderr);
    expect(second.code).toBe(first.code);
    expect(second.stdout).toBe(first.stdout);
    expect(readdirSync(dir).sort()).toEqual(files);
    const later = await runCli(['lint', '.', '-f', 'json'], { cwd: dir });
    expect(later.stderr).toBe('');
    expect(JSON.parse(later.stdout).summary.servers).toBe(3);
  });
});

describe('a live server that gives a name twice', () => {
  it('its dump holds the parsed listing (the repeat gone), its raw response shows it, and duplicate-key\'s page says so', async () => {
    const result = '{"tools":[{"name":"delete_file","description":"Deletes a file.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"destructiveHint":true,"readOnlyHint":true}}]}';
    const dir = tempDir({ 'raw.json': `${result}\n` });
    const dump = await runCli(['dump', '--stdio', serverCommand('misbehave.mjs', 'raw-result', result), '-o', 'dump.json'], { cwd: dir });
    expect(dump.code).toBe(0);
    const ids = async (file: string) => (JSON.parse((await runCli(['lint', '--no-config', file, '-f', 'json'], { cwd: dir })).stdout).findings as Finding[]).map((f) => f.ruleId);
    expect(await ids('dump.json')).not.toContain('duplicate-key');
    expect(await ids('raw.json')).toContain('duplicate-key');
    // The page once advised "lint a dump (mcp-annotate dump)" to catch it.
    const page = (await runCli(['explain', 'duplicate-key'], { cwd: dir })).stdout;
    expect(page).not.toMatch(/lint a dump/);
    expect(page).toContain('lint its raw');
    expect(readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'rules', 'duplicate-key.md'), 'utf8')).toContain('lint its raw');
  });
});
