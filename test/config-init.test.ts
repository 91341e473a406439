/**
 * `mcp-annotate init`: a starter config with $schema and explanations, valid as written,
 * never overwriting an existing config without --force.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/index.js';
import { CONFIG_SCHEMA_ID } from '../src/config/schema.js';
import { json, runCliInProcess as runCli, tempDir } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess

describe('init', () => {
  it('writes a commented YAML config that loads and lints its targets', async () => {
    const dir = tempDir({ 'tools.json': readFileSync(new URL('../fixtures/example-server.json', import.meta.url), 'utf8') });
    const r = await runCli(['init', 'tools.json'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('wrote mcp-annotate.config.yaml (targets: tools.json)');
    const text = readFileSync(join(dir, 'mcp-annotate.config.yaml'), 'utf8');
    expect(text).toContain(`# yaml-language-server: $schema=${CONFIG_SCHEMA_ID}`);
    expect(text).toContain(`$schema: "${CONFIG_SCHEMA_ID}"`);
    expect(text).toMatch(/^# .*mcp-annotate:strict/m);
    const config = await loadConfig({ cwd: dir });
    expect(config?.files).toEqual(['tools.json']);
    const lint = await runCli(['lint'], { cwd: dir });
    expect(lint.stdout).toContain('acme-workspace tools.json · 8 tools');
  });

  it('refuses an empty target, and prints target names on one line', async () => {
    const dir = tempDir();
    const empty = await runCli(['init', 'a.json', ''], { cwd: dir });
    expect(empty).toMatchObject({ code: 2, stdout: '', stderr: 'mcp-annotate: init: a target is empty (""); give files, globs or directories of tools/list dumps\n' });
    expect(existsSync(join(dir, 'mcp-annotate.config.yaml'))).toBe(false);
    const odd = await runCli(['init', 'a\nb.json', 'c\u2028d.json'], { cwd: dir });
    expect(odd.code).toBe(0);
    expect(odd.stdout.split('\n')[0]).toBe('wrote mcp-annotate.config.yaml (targets: a\\nb.json, c\\u{2028}d.json)');
    expect((await loadConfig({ cwd: dir }))?.files).toEqual(['a\nb.json', 'c\u2028d.json']);
  });

  it('every commented example, uncommented, is a valid config', async () => {
    const dir = tempDir();
    await runCli(['init'], { cwd: dir });
    const text = readFileSync(join(dir, 'mcp-annotate.config.yaml'), 'utf8');
    // Uncomment each example block: "# targets:" (or rules, overrides, policies) and the indented lines under it.
    let inBlock = false;
    const uncommented = text
      .replace('rules: {}\n', '')
      .split('\n')
      .map((l) => {
        if (/^# (targets|rules|overrides|policies):/.test(l)) inBlock = true;
        else if (!/^#   /.test(l)) inBlock = false;
        return inBlock ? l.slice(2) : l;
      })
      .join('\n');
    writeFileSync(join(dir, 'mcp-annotate.config.yaml'), uncommented);
    const config = await loadConfig({ cwd: dir });
    expect(config?.files).toEqual(['tools.json']);
    expect(Object.keys(config!.mcpServers!.entries)).toEqual(['my-server']);
    expect(config?.rules['name-vs-hints']).toBe('off');
    expect(config?.policies.map((p) => p.id)).toEqual(['policy/confirm-irreversible-actions']);
    expect(config?.overrides?.('s', 'legacy_x')).toEqual({ 'missing-readonly-hint': 'off' });
  });

  it('--format json writes strict JSON with $schema and prints what each key is', async () => {
    const dir = tempDir();
    const r = await runCli(['init', '--format', 'json', 'snapshots/*.json'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('  rules     {"<rule-id>": "off" | "note" | "warning" | "error" | [severity, options]}');
    const value = JSON.parse(readFileSync(join(dir, 'mcp-annotate.config.json'), 'utf8'));
    expect(value).toEqual({ $schema: CONFIG_SCHEMA_ID, extends: 'mcp-annotate:recommended', targets: { files: ['snapshots/*.json'] }, rules: {}, failOn: 'error' });
    expect((await loadConfig({ cwd: dir }))?.files).toEqual(['snapshots/*.json']);
  });

  it('points $schema at the installed package when mcp-annotate is a dependency', async () => {
    const dir = tempDir({ 'node_modules/mcp-annotate/schemas/config.schema.json': '{}' });
    await runCli(['init', '--format', 'json'], { cwd: dir });
    expect(JSON.parse(readFileSync(join(dir, 'mcp-annotate.config.json'), 'utf8')).$schema).toBe('./node_modules/mcp-annotate/schemas/config.schema.json');
  });

  it('refuses to overwrite a config unless --force, and never writes a second config file', async () => {
    const dir = tempDir({ 'mcp-annotate.config.yaml': 'failOn: note\n' });
    const again = await runCli(['init'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toBe('mcp-annotate: mcp-annotate.config.yaml already exists; use --force to overwrite it\n');
    expect(readFileSync(join(dir, 'mcp-annotate.config.yaml'), 'utf8')).toBe('failOn: note\n');
    const other = await runCli(['init', '--format', 'json', '--force'], { cwd: dir });
    expect(other.code).toBe(2);
    expect(other.stderr).toBe('mcp-annotate: mcp-annotate.config.yaml already configures mcp-annotate here; edit it, or remove it before writing mcp-annotate.config.json\n');
    const forced = await runCli(['init', '--force'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(readFileSync(join(dir, 'mcp-annotate.config.yaml'), 'utf8')).toContain('extends: mcp-annotate:recommended');
  });

  it('a package.json config counts as another config file: refused, with --force too (no second config beside it)', async () => {
    const pkg = json({ name: 'x', 'mcp-annotate': { failOn: 'note' } });
    const dir = tempDir({ 'package.json': pkg });
    for (const args of [['init'], ['init', '--force'], ['init', '--format', 'json', '--force']]) {
      const r = await runCli(args, { cwd: dir });
      const name = args.includes('json') ? 'mcp-annotate.config.json' : 'mcp-annotate.config.yaml';
      expect(r, args.join(' ')).toMatchObject({
        code: 2,
        stdout: '',
        stderr: `mcp-annotate: package.json already configures mcp-annotate here (its "mcp-annotate" key); edit it, or remove the key before writing ${name}\n`,
      });
      expect(existsSync(join(dir, name))).toBe(false);
    }
    expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(pkg);
    expect((await loadConfig({ cwd: dir }))?.path).toBe(join(dir, 'package.json'));
    // Without the key, package.json is no config: init writes its file.
    const plain = tempDir({ 'package.json': json({ name: 'x' }) });
    expect(await runCli(['init'], { cwd: plain })).toMatchObject({ code: 0 });
    expect(existsSync(join(plain, 'mcp-annotate.config.yaml'))).toBe(true);
  });
});
