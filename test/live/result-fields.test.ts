/**
 * What a live server's tools/list result can make mcp-annotate do: its own fields never make
 * the snapshot read as another kind of file ("$schema", "jsonrpc", …) nor set what
 * mcp-annotate records itself ("configEntry", "serverInfo", "protocolVersion"); and runs of
 * the same inputs in another order say the same.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, json } from '../helpers/cli.js';
import { serverArgv, serverCommand } from './helpers.js';

/** A server whose tools/list result carries these fields beside its one tool (delete_all, readOnlyHint true). */
const spoof = (fields: Record<string, unknown>) => serverCommand('misbehave.mjs', 'result-fields', JSON.stringify(fields));
const ok = serverCommand('misbehave.mjs', 'ok');

describe('a tools/list result\'s "$schema" cannot hide its snapshot from a later directory lint', () => {
  it('the snapshot leaves it out, says so, and the directory lint finds both servers', async () => {
    const dir = tempDir();
    const first = await runCli(['lint', '--no-config', '--save-snapshots', 'snaps', '--stdio', ok, '--stdio', spoof({ $schema: 'https://mcp-annotate.dev/config.schema.json' }), '-f', 'json'], { cwd: dir });
    expect(JSON.parse(first.stdout).summary.servers).toBe(2);
    expect(first.stderr).toContain('its tools/list result\'s "$schema" is left out of its snapshot');
    const files = readdirSync(join(dir, 'snaps')).sort();
    expect(files).toEqual(['misbehave-ok.json', 'misbehave-result-fields.json']);
    const saved = readFileSync(join(dir, 'snaps', 'misbehave-result-fields.json'), 'utf8');
    expect(saved).not.toContain('$schema');
    const later = await runCli(['lint', '--no-config', 'snaps', '--fail-on', 'warning', '-f', 'json'], { cwd: dir });
    expect(later.code).toBe(1); // --fail-on warning: name-vs-hints
    const report = JSON.parse(later.stdout);
    expect(report.summary.servers).toBe(2);
    expect(report.findings.map((f: { ruleId: string }) => f.ruleId)).toContain('name-vs-hints');
  });

  it('a dump that starts with the config schema\'s "$schema" but has "tools" is linted, not skipped as the tool\'s own file', async () => {
    const tool = { name: 'delete_all', description: 'Deletes every record.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } };
    // As a snapshot written before the fix: sorted keys put "$schema" first.
    const dir = tempDir({ 'dumps/evil.json': json({ $schema: 'https://mcp-annotate.dev/config.schema.json', serverInfo: { name: 'evil', version: '1' }, tools: [tool] }) });
    const r = await runCli(['lint', '--no-config', 'dumps', '-f', 'json'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).servers.map((s: { name: string }) => s.name)).toEqual(['evil']);
    expect(JSON.parse(r.stdout).summary.warnings).toBe(1);
  });

  it('an mcp-annotate config file in the directory is still skipped', async () => {
    const tool = { name: 'get_x', description: 'Gets x.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } };
    const dir = tempDir({ 'dumps/a.json': json({ tools: [tool] }), 'dumps/settings.json': json({ $schema: 'https://mcp-annotate.dev/config.schema.json', failOn: 'warning' }) });
    const r = await runCli(['lint', '--no-config', 'dumps', '-f', 'json'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).summary.servers).toBe(1);
  });
});

describe('a "jsonrpc" field in a tools/list result', () => {
  it('does not make the server unlintable: its tools are linted, and its dump lints the same', async () => {
    const dir = tempDir();
    const server = spoof({ jsonrpc: '2.0' });
    const live = await runCli(['lint', '--no-config', '--stdio', server, '-f', 'json'], { cwd: dir });
    expect(live.code).toBe(0);
    expect(JSON.parse(live.stdout).summary).toMatchObject({ servers: 1, tools: 1, warnings: 1, inputErrors: 0 });
    expect(live.stderr).toContain('"jsonrpc" is left out of its snapshot');
    const dump = await runCli(['dump', '-o', 'jr.json', '--stdio', server], { cwd: dir });
    expect(dump.code).toBe(0);
    expect(readFileSync(join(dir, 'jr.json'), 'utf8')).not.toContain('jsonrpc');
    const again = await runCli(['lint', '--no-config', 'jr.json', '-f', 'json'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).summary).toMatchObject({ servers: 1, tools: 1, warnings: 1, inputErrors: 0 });
  });

  it('a dump saved with one beside "tools" (no "result", no "id") is read as the tools/list result it is', async () => {
    const dir = tempDir({ 'jr.json': json({ jsonrpc: '2.0', tools: [{ name: 'get_x', description: 'Gets x.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }] }) });
    const r = await runCli(['lint', '--no-config', 'jr.json', '-f', 'json'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).summary.tools).toBe(1);
  });

  it('a JSON-RPC response without "result" says that "result" is missing', async () => {
    const dir = tempDir({ 'resp.json': json({ jsonrpc: '2.0', id: 1 }) });
    const r = await runCli(['lint', '--no-config', 'resp.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('resp.json:1:1: a JSON-RPC response needs a "result" object with "tools"; this one has no "result" (its keys: "jsonrpc", "id")');
    expect(r.stderr).not.toContain('undefined');
  });

  it('a JSON-RPC error response is an input error at its "error" member, as other wrong-shape documents have a position', async () => {
    const dir = tempDir({ 'err.json': json({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }) });
    const r = await runCli(['lint', '--no-config', 'err.json', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('err.json:4:12: this is a JSON-RPC error response ("Method not found"), not a tools/list result\n');
    expect(JSON.parse(r.stdout).inputErrors).toEqual([
      { target: 'err.json', file: 'err.json', line: 4, column: 12, message: 'err.json:4:12: this is a JSON-RPC error response ("Method not found"), not a tools/list result' },
    ]);
  });
});

describe('a snapshot\'s own fields are mcp-annotate\'s, never the tools/list result\'s', () => {
  const fields = { configEntry: 'trusted', serverInfo: { name: 'trusted', version: '9' }, protocolVersion: '2099-01-01', capabilities: { nothing: {} }, cacheScope: 'user' };

  it('a --stdio server cannot rename itself through "configEntry" (nor set serverInfo, protocolVersion or capabilities)', async () => {
    const dir = tempDir();
    const server = spoof(fields);
    const r = await runCli(['lint', '--no-config', '--stdio', server, '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).servers.map((s: { name: string }) => s.name)).toEqual(['misbehave-result-fields']);
    expect(r.stderr).toContain('its tools/list result\'s "capabilities", "configEntry", "protocolVersion", "serverInfo" are left out of its snapshot');
    const dump = await runCli(['dump', '--stdio', server], { cwd: dir });
    expect(dump.code).toBe(0);
    const snapshot = JSON.parse(dump.stdout);
    expect(snapshot.configEntry).toBeUndefined();
    expect(snapshot.serverInfo).toEqual({ name: 'misbehave-result-fields', version: '0.0.1' });
    expect(snapshot.protocolVersion).toBe('2025-06-18');
    expect(snapshot.capabilities).toEqual({ tools: {} });
    // The result's other fields are kept.
    expect(snapshot.cacheScope).toBe('user');
  });

  it('a config server\'s snapshot records its entry\'s name, not the one its result gives', async () => {
    const dir = tempDir({ 'mcp.json': json({ mcpServers: { mine: serverArgv('misbehave.mjs', 'result-fields', JSON.stringify(fields)) } }) });
    const dump = await runCli(['dump', '--mcp-config', 'mcp.json'], { cwd: dir });
    expect(dump.code).toBe(0);
    expect(JSON.parse(dump.stdout).configEntry).toBe('mine');
  });
});

describe('the envelope of every tools/list page: a live run and its dump say the same', () => {
  const pages = (items: unknown[]) => serverCommand('misbehave.mjs', 'pages-fields', JSON.stringify(items));

  it('a last page\'s "nextCursor": null is kept in the snapshot and linted, as a file with it is', async () => {
    const dir = tempDir();
    for (const server of [pages([{ nextCursor: null }]), pages([{}, { nextCursor: null }])]) {
      const live = await runCli(['lint', '--no-config', '--stdio', server, '-f', 'json'], { cwd: dir });
      expect(live.stderr).toBe('');
      const found = JSON.parse(live.stdout).findings.map((f: { ruleId: string; pointer: string; message: string }) => `${f.ruleId} ${f.pointer} ${f.message}`);
      expect(found).toEqual(['schema-valid /nextCursor nextCursor must be a string, got null (null) (spec 2025-06-18)']);
      const dump = await runCli(['dump', '-o', 'p.json', '--stdio', server], { cwd: dir });
      expect(dump.stderr).toBe('');
      expect(JSON.parse(readFileSync(join(dir, 'p.json'), 'utf8')).nextCursor).toBeNull();
      const again = await runCli(['lint', '--no-config', 'p.json', '-f', 'json'], { cwd: dir });
      expect(JSON.parse(again.stdout).findings.map((f: { ruleId: string; pointer: string; message: string }) => `${f.ruleId} ${f.pointer} ${f.message}`)).toEqual(found);
    }
  });

  it('fields of a later page that the snapshot does not hold are noted as left out, by lint and dump alike', async () => {
    const dir = tempDir();
    const server = pages([{ _meta: { a: 1 } }, { _meta: { a: 1 } }, { _meta: { b: 2 }, extra: true }]);
    const note = `mcp-annotate: note: ${server}: page 3's "_meta", "extra" are left out of its snapshot and not linted: a snapshot holds every page's tools and the first page's other fields (its tools/list result)\n`;
    const live = await runCli(['lint', '--no-config', '--stdio', server, '-f', 'json'], { cwd: dir });
    expect(live.stderr).toBe(note);
    expect(JSON.parse(live.stdout).summary.tools).toBe(3);
    const dump = await runCli(['dump', '--stdio', server], { cwd: dir });
    expect(dump.stderr).toBe(note);
    expect(JSON.parse(dump.stdout)._meta).toEqual({ a: 1 });
  });

  it('a page the MCP SDK refuses before mcp-annotate sees it (a "_meta" that is not an object) is an error that says so, naming the page', async () => {
    const dir = tempDir();
    const r = await runCli(['lint', '--no-config', '--stdio', pages([{}, { _meta: 'x' }])], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the server sent a JSON-RPC message that is not valid MCP (it does not match any message MCP allows) while listing tools (page 2)');
  });
});

describe('input errors do not depend on the order of the targets', () => {
  const crash = serverCommand('misbehave.mjs', 'rpc-error', '-32603:initialize');
  const garbage = serverCommand('misbehave.mjs', 'list-error');

  it('two failing --stdio servers, either way round: the same report in every format, the same stderr', async () => {
    const dir = tempDir();
    for (const format of ['json', 'sarif', 'markdown', 'github', 'text']) {
      const a = await runCli(['lint', '--no-config', '--stdio', crash, '--stdio', garbage, '-f', format], { cwd: dir });
      const b = await runCli(['lint', '--no-config', '--stdio', garbage, '--stdio', crash, '-f', format], { cwd: dir });
      expect(a.code).toBe(2);
      expect(b.stdout).toBe(a.stdout);
      expect(b.stderr).toBe(a.stderr);
    }
  });

  it('two --mcp-config files, either way round: the same errors and notes', async () => {
    const dir = tempDir({
      'one.json': json({ mcpServers: { a: serverArgv('misbehave.mjs', 'list-error'), off1: { command: 'x', disabled: true } } }),
      'two.json': json({ mcpServers: { b: serverArgv('misbehave.mjs', 'rpc-error', '-32603:initialize'), off2: { command: 'x', disabled: true } } }),
    });
    const a = await runCli(['lint', '--no-config', '--mcp-config', 'one.json', '--mcp-config', 'two.json', '-f', 'json'], { cwd: dir });
    const b = await runCli(['lint', '--no-config', '--mcp-config', 'two.json', '--mcp-config', 'one.json', '-f', 'json'], { cwd: dir });
    expect(a.code).toBe(2);
    expect(JSON.parse(a.stdout).inputErrors).toHaveLength(2);
    expect(b.stdout).toBe(a.stdout);
    expect(b.stderr).toBe(a.stderr);
    expect(a.stderr.indexOf('one.json')).toBeLessThan(a.stderr.indexOf('two.json'));
  });
});

describe('Claude Code\'s ~/.claude.json: the project\'s server shadows the user\'s of the same name', () => {
  it('only the project\'s one is linted, with a note naming the shadowed one', async () => {
    const dir = tempDir();
    const config = {
      mcpServers: { github: serverArgv('misbehave.mjs', 'list-error'), other: serverArgv('misbehave.mjs', 'ok') },
      projects: { [dir]: { mcpServers: { github: serverArgv('misbehave.mjs', 'result-fields', '{}') } } },
    };
    const home = tempDir({ '.claude.json': json(config) });
    const r = await runCli(['lint', '--no-config', '--mcp-config', join(home, '.claude.json'), '-f', 'json'], { cwd: dir });
    const report = JSON.parse(r.stdout);
    expect(report.inputErrors).toEqual([]);
    expect(report.servers.map((s: { name: string }) => s.name).sort()).toEqual(['github', 'other']);
    // The project's github (delete_all), not the user's (which fails tools/list).
    expect(report.findings.some((f: { ruleId: string; tool: string }) => f.ruleId === 'name-vs-hints' && f.tool === 'delete_all')).toBe(true);
    expect(report.findings.map((f: { ruleId: string }) => f.ruleId)).not.toContain('cross-server-name-collision');
    expect(r.stderr).toContain(`mcp-annotate: note: server "github" of ${join(home, '.claude.json')}'s user scope ("mcpServers") is shadowed by the one of this project (projects[${JSON.stringify(dir)}].mcpServers): Claude Code uses the project's, and so does the lint`);
  });
});
