/**
 * End to end: the real bin, real files, real exit codes and streams.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, json, runCliInProcess as runCli, tempDir, tool } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess
import { validateJsonReport } from './helpers/schemas.js';
import { shorten } from '../src/util/text.js';

const consistent = json({ tools: [tool('list_notes', { readOnlyHint: true, openWorldHint: false })] });
const contradictory = json({
  tools: [tool('send_email', { readOnlyHint: true, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'irreversible' } })],
});

describe('mcp-annotate', () => {
  it('the README documents every option --help lists, of the program and of each command', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const missing: string[] = [];
    for (const command of [[], ['lint'], ['dump'], ['diff'], ['rules'], ['explain'], ['init']]) {
      const help = await runCli([...command, '--help']);
      expect(help.code).toBe(0);
      // "  -o, --output-file <file>  …" or "  --no-config  …": the short and long names.
      for (const m of help.stdout.matchAll(/^ {2}((?:-\w, )?--[\w-]+)/gm)) {
        const option = m[1]!;
        const long = option.replace(/^-\w, /, '');
        if (!readme.includes(`\`${option}`) && !readme.includes(`\`${long}`)) missing.push(`${command.join(' ') || 'mcp-annotate'} ${option}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('prints its version', async () => {
    const r = await runCli(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
  });

  it('explains usage errors in one line with exit code 2', async () => {
    const r = await runCli(['lint', '--fail-on', 'sometimes', 'x.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcp-annotate: .*--fail-on.*sometimes/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('refuses an empty target (it would lint the current directory) with a usage error', async () => {
    const dir = tempDir({ 'tools.json': '{"tools": []}' });
    for (const args of [['lint', 'tools.json', ''], ['lint', '--stdio', 'node s.js', '']]) {
      const r = await runCli(args, { cwd: dir });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe('mcp-annotate: lint: a target is empty (""); give files, globs or directories (. for the current directory)\n');
      expect(r.stdout).toBe('');
    }
  });

  it('refuses an empty diff side (it diffed the current directory, exit 0) as lint refuses an empty target', async () => {
    const dir = tempDir({ 'tools.json': '{"tools": []}' });
    for (const args of [['diff', '', 'tools.json'], ['diff', 'tools.json', ''], ['diff', ''], ['diff', '', '--stdio', 'node s.js']]) {
      const r = await runCli(args, { cwd: dir });
      expect(r, args.join(' ')).toMatchObject({
        code: 2,
        stdout: '',
        stderr: 'mcp-annotate: diff: a target is empty (""); give files, globs or directories (. for the current directory)\n',
      });
    }
  });

  it('asks for targets when given none', async () => {
    const r = await runCli(['lint']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('nothing to lint');
  });

  it('says it is not built, in one line with exit code 2, when its bundle is missing (a clone or git install before the build)', () => {
    const dir = tempDir({ 'package.json': readFileSync(join(ROOT, 'package.json'), 'utf8') });
    cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
    const r = spawnSync(process.execPath, [join(dir, 'bin', 'mcp-annotate.js'), 'lint', 'x.json'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^mcp-annotate: not built \(.*dist\/bundle\/main\.cjs is missing\): run `npm run build` in .*\n$/);
  });

  it('shows the help on stderr with exit code 2 when given no command; asked for, the help is exit code 0', async () => {
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/^Usage: mcp-annotate /);
    for (const asked of [['--help'], ['help'], ['help', 'lint'], ['lint', '--help']]) {
      const r = await runCli(asked);
      expect(r.code, asked.join(' ')).toBe(0);
      expect(r.stdout, asked.join(' ')).toMatch(/^Usage: mcp-annotate /);
    }
  });

  it('says "unknown command" for `help <name>` of no command, as for `mcp-annotate <name>` (not the general help)', async () => {
    const direct = await runCli(['nope']);
    const help = await runCli(['help', 'nope']);
    expect(help.code).toBe(2);
    expect(help.stdout).toBe('');
    expect(help.stderr).toBe("mcp-annotate: unknown command 'nope'\n");
    expect(help.stderr).toBe(direct.stderr);
    const near = await runCli(['help', 'lnt']);
    expect(near.code).toBe(2);
    expect(near.stderr).toContain("unknown command 'lnt'");
    expect(near.stderr).toContain('Did you mean lint?');
  });
});

describe('mcp-annotate lint: exit codes', () => {
  it('exits 0 on a clean dump and says so', async () => {
    const dir = tempDir({ 'ok.json': consistent });
    const r = await runCli(['lint', 'ok.json'], { cwd: dir });
    expect(r.stdout).toContain('no problems in 1 server, 1 tool');
    expect(r.code).toBe(0);
  });

  it('exits 1 on an error finding, 0 with --fail-on none', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    expect((await runCli(['lint', 'bad.json'], { cwd: dir })).code).toBe(1);
    expect((await runCli(['lint', 'bad.json', '--fail-on', 'none'], { cwd: dir })).code).toBe(0);
  });

  it('exits 1 when warnings exceed --max-warnings', async () => {
    const dir = tempDir({ 'w.json': json({ tools: [tool('list_notes', { readOnlyHint: true, readonlyHint: true, openWorldHint: false })] }) });
    const base = await runCli(['lint', 'w.json', '--format', 'json'], { cwd: dir });
    const warnings = JSON.parse(base.stdout).summary.warnings as number;
    expect(warnings).toBeGreaterThan(0);
    expect(base.code).toBe(0);
    expect((await runCli(['lint', 'w.json', '--max-warnings', String(warnings)], { cwd: dir })).code).toBe(0);
    expect((await runCli(['lint', 'w.json', '--max-warnings', String(warnings - 1)], { cwd: dir })).code).toBe(1);
    expect((await runCli(['lint', 'w.json', '--fail-on', 'warning'], { cwd: dir })).code).toBe(1);
  });

  it('dump of two --stdio servers says to give one (--server picks only config servers), and its help does not call them repeatable', async () => {
    const r = await runCli(['dump', '--stdio', 'node a.js', '--stdio', 'node b.js']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('mcp-annotate: dump writes one server\'s snapshot, and 2 were given ("node a.js", "node b.js"); give one --stdio, --url or command after --, or use lint --save-snapshots <dir> for several\n');
    const flat = async (cmd: string) => (await runCli([cmd, '--help'])).stdout.replace(/\s+/g, ' ');
    expect(await flat('dump')).toContain('start this command line as a stdio MCP server; or give the command after --');
    expect(await flat('dump')).toContain('falling back to legacy SSE --transport');
    expect(await flat('lint')).toContain('start this command line as a stdio MCP server (repeatable); or give the command after --');
  });

  it('says in every format why --max-warnings fails the run', async () => {
    const dir = tempDir({ 'w.json': json({ tools: [tool('a', { readOnlyHint: false, openWorldHint: false })] }) });
    const why = '1 warning is more than --max-warnings 0 allows, which fails the run';
    const run = (...f: string[]) => runCli(['lint', 'w.json', '--no-config', '--max-warnings', '0', ...f], { cwd: dir });
    const text = await run();
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`✖ 1 problem (0 errors, 1 warning, 0 notes) in 1 server, 1 tool; ${why}\n`);
    const github = await run('-f', 'github');
    expect(github.stdout.split('\n')[0]).toBe(`::error title=mcp-annotate%3A too many warnings (--max-warnings)::${why}`);
    const md = await run('-f', 'markdown');
    expect(md.stdout).toContain('❌ **1 finding**');
    expect(md.stdout).toContain(`_${why}._`);
    const report = JSON.parse((await run('-f', 'json')).stdout);
    expect(report.tooManyWarnings).toEqual({ max: 0, warnings: 1 });
    expect(validateJsonReport(report), JSON.stringify(validateJsonReport.errors)).toBe(true);
    // Within the limit: none of it.
    const ok = await runCli(['lint', 'w.json', '--no-config', '--max-warnings', '1', '-f', 'json'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).tooManyWarnings).toBeUndefined();
  });

  it("names the config's maxWarnings, not --max-warnings, when the limit came from the config, in every format (lint and diff)", async () => {
    const warned = tool('a', { readOnlyHint: false, openWorldHint: false });
    const dir = tempDir({
      'w.json': json({ tools: [warned, tool('b', { readOnlyHint: false, openWorldHint: false })] }),
      'mw.yaml': 'maxWarnings: 1\n',
      'base.json': json({ tools: [tool('a', { readOnlyHint: true, openWorldHint: false })] }),
      // openWorldHint false → true: drift/open-world-added, a warning.
      'head.json': json({ tools: [tool('a', { readOnlyHint: true, openWorldHint: true })] }),
    });
    const why = '2 warnings are more than maxWarnings 1 of mw.yaml allows, which fails the run';
    const run = (...f: string[]) => runCli(['lint', 'w.json', '-c', 'mw.yaml', ...f], { cwd: dir });
    const text = await run();
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`in 1 server, 2 tools; ${why}\n`);
    expect(text.stdout).not.toContain('--max-warnings');
    const github = await run('-f', 'github');
    expect(github.stdout.split('\n')[0]).toBe(`::error title=mcp-annotate%3A too many warnings (maxWarnings of mw.yaml)::${why}`);
    expect((await run('-f', 'markdown')).stdout).toContain(`_${why}._`);
    const report = JSON.parse((await run('-f', 'json')).stdout);
    expect(report.tooManyWarnings).toEqual({ max: 1, warnings: 2, config: 'mw.yaml' });
    expect(validateJsonReport(report), JSON.stringify(validateJsonReport.errors)).toBe(true);
    // The flag over the config: the flag is named.
    const flag = await run('--max-warnings', '0');
    expect(flag.stdout).toContain('2 warnings are more than --max-warnings 0 allows, which fails the run\n');
    // diff reads the same config.
    writeFileSync(join(dir, 'mw.yaml'), 'maxWarnings: 0\n');
    const d = await runCli(['diff', 'base.json', 'head.json', '-c', 'mw.yaml'], { cwd: dir });
    expect(d.code).toBe(1);
    expect(d.stdout).toContain('drift/open-world-added');
    expect(d.stdout).toContain('; 1 warning is more than maxWarnings 0 of mw.yaml allows, which fails the run\n');
  });
});

describe('MCP_ANNOTATE_MAX_PER_TOOL', () => {
  // 150 misspelt annotation keys: an unknown-annotation-key warning each.
  const wide = () => tempDir({ 'wide.json': json({ tools: [tool('wide', Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`readOnlyHnt${i}`, true])))] }) });
  const ofRule = (stdout: string) => (JSON.parse(stdout) as { findings: { ruleId: string; severity: string }[] }).findings.filter((f) => f.ruleId === 'unknown-annotation-key');

  it('lists 100 findings of a rule for one tool by default, another number when set, every one with 0', async () => {
    const dir = wide();
    const counts = async (env: Record<string, string>) => {
      const r = await runCli(['lint', 'wide.json', '-f', 'json'], { cwd: dir, env });
      expect(r.stderr).toBe('');
      const found = ofRule(r.stdout);
      return [found.filter((f) => f.severity === 'warning').length, found.filter((f) => f.severity === 'note').length];
    };
    expect(await counts({})).toEqual([100, 1]);
    expect(await counts({ MCP_ANNOTATE_MAX_PER_TOOL: '10' })).toEqual([10, 1]);
    expect(await counts({ MCP_ANNOTATE_MAX_PER_TOOL: '0' })).toEqual([150, 0]);
  });

  it('is a whole number, or one line and exit code 2', async () => {
    const r = await runCli(['lint', 'wide.json'], { cwd: wide(), env: { MCP_ANNOTATE_MAX_PER_TOOL: '-1' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('mcp-annotate: MCP_ANNOTATE_MAX_PER_TOOL must be a whole number (0 for no limit), not "-1"\n');
  });
});

describe('the headline mark of text and markdown is the run\'s verdict (its exit code), not the most severe finding', () => {
  const getX = (annotations: Record<string, unknown>) => ({ name: 'get_x', description: 'Gets x', inputSchema: { type: 'object' }, annotations });
  const files = {
    // Two warnings, no error.
    'w.json': json({ tools: [getX({ openWorldHint: false })] }),
    'before.json': json({ tools: [getX({ readOnlyHint: true, destructiveHint: false, openWorldHint: false })] }),
    'after.json': json({ tools: [getX({ readOnlyHint: false, destructiveHint: true, openWorldHint: false })] }),
  };
  const headline = async (args: string[], cwd: string) => {
    const md = await runCli([...args, '-f', 'markdown'], { cwd });
    const text = await runCli(args, { cwd });
    expect(text.code).toBe(md.code);
    return { code: md.code, markdown: md.stdout.split('\n')[2], text: text.stdout.trimEnd().split('\n').at(-1) };
  };

  it('❌/✖ when --fail-on, --max-warnings or the default fail it; ⚠️/⚠ when it passes with errors or warnings', async () => {
    const dir = tempDir(files);
    const lint = ['lint', '--no-config', 'w.json'];
    const warnings = '2 problems (0 errors, 2 warnings, 0 notes) in 1 server, 1 tool';
    expect(await headline([...lint, '--fail-on', 'warning'], dir)).toEqual({ code: 1, markdown: '❌ **2 findings** in 1 server, 1 tool.', text: `✖ ${warnings}` });
    expect(await headline([...lint, '--fail-on', 'note'], dir)).toEqual({ code: 1, markdown: '❌ **2 findings** in 1 server, 1 tool.', text: `✖ ${warnings}` });
    expect(await headline([...lint, '--max-warnings', '0'], dir)).toMatchObject({ code: 1, markdown: '❌ **2 findings** in 1 server, 1 tool.' });
    expect(await headline(lint, dir)).toEqual({ code: 0, markdown: '⚠️ **2 findings** in 1 server, 1 tool.', text: `⚠ ${warnings}` });
    const example = await headline(['lint', '--no-config', join(ROOT, 'fixtures/example-server.json')], dir);
    expect(example).toEqual({ code: 1, markdown: '❌ **21 findings** in 1 server, 8 tools.', text: '✖ 21 problems (4 errors, 15 warnings, 2 notes) in 1 server, 8 tools' });
    const passing = await headline(['lint', '--no-config', join(ROOT, 'fixtures/example-server.json'), '--fail-on', 'none'], dir);
    expect(passing).toEqual({ code: 0, markdown: '⚠️ **21 findings** in 1 server, 8 tools.', text: '⚠ 21 problems (4 errors, 15 warnings, 2 notes) in 1 server, 8 tools' });
  });

  it('the same for diff', async () => {
    const dir = tempDir(files);
    const diff = ['diff', '--no-config', 'before.json', 'after.json'];
    const errors = '2 problems (2 errors, 0 warnings, 0 notes) in 1 server, 1 tool';
    expect(await headline(diff, dir)).toEqual({ code: 1, markdown: '❌ **2 findings** in 1 server, 1 tool.', text: `✖ ${errors}` });
    expect(await headline([...diff, '--fail-on', 'none'], dir)).toEqual({ code: 0, markdown: '⚠️ **2 findings** in 1 server, 1 tool.', text: `⚠ ${errors}` });
  });
});

describe('mcp-annotate lint: bad input', () => {
  it('says when a file holds several JSON values, one per line, that are not a session transcript', async () => {
    const dumps = [{ tools: [tool('get_x')] }, { tools: [tool('get_y')] }];
    // A captured stdio transcript of the server's side only: its responses, without the requests.
    const lines = [{ jsonrpc: '2.0', id: 0, result: { serverInfo: { name: 's', version: '1' } } }, { jsonrpc: '2.0', id: 1, result: { tools: [tool('get_x')] } }];
    const dir = tempDir({
      'dumps.jsonl': dumps.map((l) => JSON.stringify(l)).join('\n') + '\n',
      'traffic.jsonl': lines.map((l) => JSON.stringify(l)).join('\n') + '\n',
      'two.json': '{"tools": []} {"tools": []}',
    });
    const r = await runCli(['lint', 'dumps.jsonl', 'traffic.jsonl', 'two.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'dumps.jsonl:2:1: invalid JSON: unexpected content after the JSON value: the file holds several JSON values, as JSON Lines does, and mcp-annotate reads one document per file (or a session transcript: JSON Lines of JSON-RPC messages); save the tools/list result on its own (or run mcp-annotate dump against the server)\n' +
        'traffic.jsonl:1:23: entry 0 is a response with id 0, but no earlier request to the server with that id is waiting for one; a transcript holds each request before its response (the transcript has no request before it: a capture of one side of the exchange? It needs the requests too, or save the tools/list result on its own)\n' +
        // Two values on one line is not JSON Lines: the plain message.
        'two.json:1:15: invalid JSON: unexpected content after the JSON value\n',
    );
  });

  it('reports invalid JSON as file:line:col, exit 2, no stack trace, and still lints the other files', async () => {
    const dir = tempDir({ 'broken.json': '{\n  "tools": [\n    {"name": "x",, }\n  ]\n}\n', 'bad.json': contradictory });
    const r = await runCli(['lint', 'broken.json', 'bad.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('broken.json:3:18: invalid JSON: expected a property name in double quotes');
    expect(r.stdout).toContain('send_email');
    expect(r.stdout).toContain('readonly-vs-outcome');
    expect(r.stdout).toContain('1 input could not be linted');
  });

  it('names what was expected for a file of the wrong shape', async () => {
    const dir = tempDir({ 'shape.json': json({ server: 'x', items: [] }) });
    const r = await runCli(['lint', 'shape.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^shape\.json:1:1: expected a tools\/list result .* got an object with keys "server", "items"\n$/);
  });

  it('names the bad part of a {"servers": [...]} file or a bare "result", with its position; a whole document of the wrong type has one too', async () => {
    const dir = tempDir({
      'empty.json': '{"servers": []}',
      'item.json': '{"servers": [\n  {"serverInfo": {"name": "a"}, "tools": []},\n  1\n]}',
      'result.json': '{"result": {"tools": 5}}',
      'bare.json': '{"result": {"tools": [{"name": "get_a", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true, "openWorldHint": false}}]}}',
      'string.json': '\n  "x"',
      'null.json': 'null',
    });
    const lines = async (file: string) => (await runCli(['lint', file, '--no-config'], { cwd: dir })).stderr.trim();
    // Each was "expected … or {"servers": [...]}; got an object with keys …" (the servers one contradicting itself), with no position.
    expect(await lines('empty.json')).toBe('empty.json:1:13: "servers" is empty: a {"servers": [...]} file lists one snapshot {"serverInfo", "tools": [...]} per server');
    expect(await lines('item.json')).toBe('item.json:3:3: "servers" item 1 must be a server snapshot {"serverInfo", "tools": [...]}, got a number');
    expect(await lines('result.json')).toBe('result.json:1:22: "tools" must be an array of tools, got a number');
    expect(await lines('string.json')).toMatch(/^string\.json:2:3: expected a tools\/list result .*; got a string$/);
    expect(await lines('null.json')).toMatch(/^null\.json:1:1: expected a tools\/list result .*; got null$/);
    // A JSON-RPC result without its envelope, as the message describes it, is read.
    const bare = await runCli(['lint', 'bare.json', '--no-config'], { cwd: dir });
    expect([bare.code, bare.stderr]).toEqual([0, '']);
  });

  it('points at a "tools" member that is not an array', async () => {
    const dir = tempDir({ 'tools.json': '{\n  "tools": {"name": "x"}\n}\n' });
    const r = await runCli(['lint', 'tools.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('tools.json:2:12: "tools" must be an array of tools, got an object with keys "name"');
  });

  it('reports a glob that matches nothing, a missing file, an empty file and invalid UTF-8', async () => {
    const dir = tempDir({ 'empty.json': '' });
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'latin1.json'), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    const r = await runCli(['lint', 'dumps/*.json', 'missing.json', 'empty.json', 'latin1.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean).sort()).toEqual([
      'dumps/*.json: no files match this pattern',
      'empty.json:1:1: the file is empty; expected JSON (a tools/list result)',
      'latin1.json:1:3: invalid UTF-8: the file must be UTF-8 encoded JSON',
      'missing.json: no such file or directory',
    ]);
  });

  it('reads a UTF-8 BOM and reports positions without it', async () => {
    const dir = tempDir({ 'bom.json': '\ufeff' + contradictory });
    const r = await runCli(['lint', 'bom.json', '--format', 'json'], { cwd: dir });
    const f = JSON.parse(r.stdout).findings.find((x: { ruleId: string }) => x.ruleId === 'readonly-vs-outcome');
    expect(f.line).toBe(contradictory.split('\n').findIndex((l) => l.includes('"outcomes"')) + 1);
  });
});

describe('mcp-annotate lint: shapes and targets', () => {
  const t = tool('list_notes', { readOnlyHint: true, openWorldHint: false });
  const shapes: Record<string, unknown> = {
    'list-result.json': { tools: [t], nextCursor: 'abc' },
    'jsonrpc.json': { jsonrpc: '2.0', id: 1, result: { tools: [t] } },
    'bare-array.json': [t],
    'single-tool.json': t,
    'pages.json': [{ tools: [t], nextCursor: 'p2' }, { tools: [{ ...t, name: 'get_note' }] }],
    'snapshot.json': { serverInfo: { name: 'notes', version: '1.0.0' }, protocolVersion: '2025-06-18', tools: [t] },
  };

  it('accepts every shape a tools/list dump comes in', async () => {
    const dir = tempDir(Object.fromEntries(Object.entries(shapes).map(([k, v]) => [k, json(v)])));
    const r = await runCli(['lint', '.', '--format', 'json'], { cwd: dir });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout);
    const servers = Object.fromEntries(report.servers.map((s: { source: string; name: string; tools: number; spec: string }) => [s.source, [s.name, s.tools, s.spec]]));
    expect(servers).toEqual({
      'bare-array.json': ['bare-array', 1, '2026-07-28'],
      'jsonrpc.json': ['jsonrpc', 1, '2026-07-28'],
      'list-result.json': ['list-result', 1, '2026-07-28'],
      'pages.json': ['pages', 2, '2026-07-28'],
      'single-tool.json': ['single-tool', 1, '2026-07-28'],
      'snapshot.json': ['notes', 1, '2025-06-18'],
    });
  });

  it('maps findings to the line and column of the offending value in each shape', async () => {
    const bad = tool('list_notes', { readOnlyHint: 'yes' });
    const dir = tempDir({ 'rpc.json': json({ jsonrpc: '2.0', id: 7, result: { tools: [bad] } }), 'arr.json': json([bad]) });
    const r = await runCli(['lint', 'rpc.json', 'arr.json', '--format', 'json'], { cwd: dir });
    const found = JSON.parse(r.stdout).findings.filter((f: { ruleId: string }) => f.ruleId === 'schema-valid');
    expect(found.map((f: { file: string; pointer: string; line: number; column: number }) => [f.file, f.pointer, f.line, f.column])).toEqual([
      ['arr.json', '/0/annotations/readOnlyHint', 8, 7],
      ['rpc.json', '/result/tools/0/annotations/readOnlyHint', 12, 11],
    ]);
  });

  it('of a key given twice, lints and points into the last one, as JSON.parse keeps it', async () => {
    const text = [
      '{',
      '  "tools": [',
      '    {"name": "list_notes", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": "first", "title": 5}},',
      '    {"name": "other", "inputSchema": {"type": "object"}}',
      '  ],',
      '  "tools": [',
      '    {"name": "list_notes", "inputSchema": {"type": "object"},',
      '     "annotations": {"readOnlyHint": "last"}}',
      '  ]',
      '}',
    ].join('\n');
    const dir = tempDir({ 'twice.json': text });
    const r = await runCli(['lint', 'twice.json', '--format', 'json'], { cwd: dir });
    const report = JSON.parse(r.stdout);
    expect(report.servers[0].tools).toBe(1);
    const found = report.findings.filter((f: { ruleId: string }) => f.ruleId === 'schema-valid');
    expect(found.map((f: { pointer: string; line: number; column: number }) => [f.pointer, f.line, f.column])).toEqual([['/tools/0/annotations/readOnlyHint', 8, 22]]);
    expect(report.findings.every((f: { line: number }) => f.line >= 6)).toBe(true);
  });

  it('reads stdin with -', async () => {
    const r = await runCli(['lint', '-', '--format', 'json'], { input: contradictory });
    const report = JSON.parse(r.stdout);
    expect(report.servers[0]).toMatchObject({ name: 'stdin', source: '<stdin>', kind: 'stdin' });
    expect(report.findings.some((f: { ruleId: string; line: number }) => f.ruleId === 'readonly-vs-outcome' && f.line > 0)).toBe(true);
    // "-" and /dev/stdin together read stdin once (the second read found it empty).
    const twice = await runCli(['lint', '-', '/dev/stdin', '--format', 'json'], { input: contradictory });
    expect(twice.stderr).toBe('');
    expect(JSON.parse(twice.stdout).servers).toHaveLength(1);
  });

  it('gives the same output whatever the order of the targets', async () => {
    const dir = tempDir({ 'a.json': contradictory, 'b.json': consistent, 'c.json': contradictory });
    const one = await runCli(['lint', 'a.json', 'b.json', 'c.json', '--format', 'json'], { cwd: dir });
    const two = await runCli(['lint', 'c.json', 'a.json', 'b.json', '--format', 'json'], { cwd: dir });
    expect(two.stdout).toBe(one.stdout);
  });
});

describe('mcp-annotate lint: a JSON-RPC batch of responses (MCP 2025-03-26) is read as what it holds', () => {
  const t = tool('list_notes', { readOnlyHint: true, openWorldHint: false });
  const initialize = { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-03-26', capabilities: { tools: {} }, serverInfo: { name: 'notes', version: '1.0.0' } } };
  const lines = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

  it('a tools/list result and an error response: the result\'s tools, not two broken tools', async () => {
    // probe BE item 3: two responses were linted as tools (schema-valid "missing the required member name", …).
    const dir = tempDir({ 'rpc-batch.json': '[{"jsonrpc":"2.0","id":1,"result":{"tools":[]}},\n {"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"x"}}]\n' });
    const r = await runCli(['lint', '--no-config', 'rpc-batch.json', '-f', 'json'], { cwd: dir });
    // The error response may have answered a tools/list page: a note says the listing may be short.
    expect(r.stderr).toBe(
      'mcp-annotate: note: server "rpc-batch" (rpc-batch.json): the JSON-RPC batch also holds an error response (item 1: "x"), which has no tools; if it answered a tools/list page, the tools of that page are missing from what was linted\n',
    );
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.servers).toMatchObject([{ name: 'rpc-batch', tools: 0 }]);
    expect(report.findings.map((f: { ruleId: string; pointer: string }) => [f.ruleId, f.pointer])).toEqual([['no-tools', '/0/result/tools']]);
  });

  it('its tools/list results are pages of one listing; an initialize result names the server and gives its version; other results are not read', async () => {
    const bad = tool('get_note', { readOnlyHint: 'yes' });
    const text = json([
      initialize,
      { jsonrpc: '2.0', id: 1, result: { tools: [t], nextCursor: 'p2' } },
      { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'hi' }] } },
      { jsonrpc: '2.0', id: 3, result: { tools: [bad] } },
    ]);
    const dir = tempDir({ 'batch.json': text });
    const r = await runCli(['lint', '--no-config', 'batch.json', '-f', 'json'], { cwd: dir });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout);
    expect(report.servers).toMatchObject([{ name: 'notes', source: 'batch.json', tools: 2, spec: '2025-03-26' }]);
    const found = report.findings.filter((f: { ruleId: string }) => f.ruleId === 'schema-valid');
    expect(found.map((f: { tool: string; pointer: string; line: number }) => [f.tool, f.pointer, f.line])).toEqual([
      ['get_note', '/3/result/tools/0/annotations/readOnlyHint', lines(text, '"readOnlyHint": "yes"')],
    ]);
    expect(report.findings.every((f: { tool: string | null }) => f.tool === 'get_note' || f.tool === 'list_notes')).toBe(true);
  });

  it('with no tools/list result, is one input error at its first error response\'s "error" member, saying what it holds', async () => {
    const text = json([
      initialize,
      { jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'Internal error' } },
    ]);
    const dir = tempDir({ 'errs.json': text });
    const r = await runCli(['lint', '--no-config', 'errs.json', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    const at = `errs.json:${lines(text, '"error"')}:14`;
    const message = `${at}: this is a JSON-RPC batch of 3 responses with no tools/list result: an initialize result and 2 error responses (the first: "Method not found")`;
    expect(r.stderr).toBe(`${message}\n`);
    expect(JSON.parse(r.stdout).inputErrors).toEqual([{ target: 'errs.json', file: 'errs.json', line: lines(text, '"error"'), column: 14, message }]);
  });

  it('with no tools/list result and no error response, is one input error at its first item', async () => {
    const dir = tempDir({ 'calls.json': '[{"id": 1, "result": {"content": []}}, {"id": 2, "result": {"content": []}}]' });
    const r = await runCli(['lint', '--no-config', 'calls.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('calls.json:1:2: this is a JSON-RPC batch of 2 responses with no tools/list result: 2 responses with other results\n');
  });

  it('an array with a request is still a transcript, and an item with a tool\'s member keeps the array one of tools', async () => {
    const dir = tempDir({
      // A response no request waits for is a transcript's input error; a batch does not read it.
      'session.json': json([{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 1, result: { tools: [t] } }, { jsonrpc: '2.0', id: 9, result: {} }]),
      'tools.json': json([{ ...t, id: 1, result: {} }]),
    });
    const session = await runCli(['lint', '--no-config', 'session.json'], { cwd: dir });
    expect(session.code).toBe(2);
    expect(session.stderr).toContain('entry 2 is a response with id 9, but no earlier request to the server with that id is waiting for one');
    const tools = await runCli(['lint', '--no-config', 'tools.json', '-f', 'json'], { cwd: dir });
    expect(tools.stderr).toBe('');
    expect(JSON.parse(tools.stdout).servers).toMatchObject([{ name: 'tools', tools: 1 }]);
  });
});

describe('mcp-annotate lint: a glob too long to compile', () => {
  it('is that target\'s input error; the other targets are still linted', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    const long = 'x'.repeat(70_000) + '*';
    const r = await runCli(['lint', 'bad.json', long, '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${'x'.repeat(79)}…: this pattern is too long (70,001 characters; at most 65,536)\n`);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ servers: 1, inputErrors: 1 });
  });

  // Under 65,536 characters, but V8 cannot compile the regular expression picomatch makes of it:
  // thrown inside fast-glob's walk, it was an uncaught exception (a stack trace, exit 1, no report).
  const big = '*' + 'a'.repeat(40_000) + '.json';
  const compileError = `${shorten(big, 80)}: this pattern cannot be compiled (Regular expression too large, at 40,006 characters); use a shorter pattern\n`;

  it('a glob whose regular expression is too large for V8 is an input error, in lint, diff and the config\'s targets', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    const lint = await runCli(['lint', '--no-config', big, 'bad.json', '-f', 'json'], { cwd: dir });
    expect(lint.stderr).toBe(compileError);
    expect(lint.code).toBe(2);
    expect(JSON.parse(lint.stdout).summary).toMatchObject({ servers: 1, inputErrors: 1 });
    for (const args of [[big, 'bad.json'], ['bad.json', big]]) {
      const diff = await runCli(['diff', '--no-config', ...args], { cwd: dir });
      expect(diff.stderr).toContain(compileError);
      expect(diff.stderr).not.toContain('    at ');
      expect(diff.code).toBe(2);
    }
    // In the config's targets: a config error at the glob, as one too long is.
    writeFileSync(join(dir, 'mcp-annotate.config.json'), JSON.stringify({ targets: ['bad.json', big] }));
    const config = await runCli(['lint', '-f', 'json'], { cwd: dir });
    expect(config).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'mcp-annotate: mcp-annotate.config.json:1:24: targets[1] cannot be compiled (Regular expression too large, at 40,006 characters); use a shorter pattern\n',
    });
  });

  it('a glob whose groups nest too deep for V8 is refused before it is compiled (it aborted the process), on the command line and in the config', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    // V8 aborted the whole process compiling it ("RegExpCompiler Allocation failed"): no report, no message but a native stack.
    const deep = `${'@(a|'.repeat(7000)}${')'.repeat(7000)}`;
    const lint = await runCli(['lint', '--no-config', 'bad.json', deep, '-f', 'json'], { cwd: dir });
    expect(lint.stderr).toBe(`${shorten(deep, 80)}: this pattern cannot be compiled (its groups nest 7,001 deep; at most 1,000, at 35,000 characters); use a simpler pattern\n`);
    expect(lint.code).toBe(2);
    expect(JSON.parse(lint.stdout).summary).toMatchObject({ servers: 1, inputErrors: 1 });
    const nested = `${'{'.repeat(7000)}a${',b}'.repeat(7000)}`;
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ targets: { files: ['bad.json', `!(${'!('.repeat(2500)}a${')'.repeat(2501)}`] }, overrides: [{ servers: [nested], rules: {} }] }));
    const config = await runCli(['lint', '-c', 'c.json'], { cwd: dir });
    expect(config).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'mcp-annotate: c.json:1:33: targets.files[1] cannot be compiled (its groups nest 7,504 deep; at most 1,000, at 7,504 characters); use a simpler pattern\n' +
        `mcp-annotate: c.json:1:${33 + 7504 + 30}: overrides[0].servers[0] cannot be compiled (its groups nest 7,001 deep; at most 1,000, at 28,001 characters); use a simpler pattern\n`,
    });
    // 1,000 deep still compiles.
    const ok = await runCli(['lint', '--no-config', 'bad.json', `${'@(a|'.repeat(999)}bad.json${')'.repeat(999)}`, '-f', 'json'], { cwd: dir });
    expect(ok.stderr).toBe('');
  });

  it('a "!" pattern too large or too long to compile is that target\'s input error and leaves nothing out', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    const r = await runCli(['lint', '--no-config', '*.json', `!${big}`, `!${'x'.repeat(70_000)}*`, '-f', 'json'], { cwd: dir });
    expect(r.stderr).toBe(
      `${shorten(`!${big}`, 80)}: this pattern cannot be compiled (Regular expression too large, at 40,006 characters); use a shorter pattern\n` +
        `!${'x'.repeat(78)}…: this pattern is too long (70,001 characters; at most 65,536)\n`,
    );
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ servers: 1, inputErrors: 2 });
  });
});

describe('mcp-annotate lint: a glob whose braces expand too far', () => {
  // fast-glob expands a glob's braces into the list of globs they stand for before it walks:
  // `{a,b}` 24 times (130 characters) is 16,777,216 globs, and the run never finished (minutes of
  // CPU, then out of memory). picomatch does not expand them, but V8 tries each combination of
  // their groups on a name that does not match: an override `{a,a}` 30 times hung too.
  const pairs = `${'{a,b}'.repeat(24)}.json`;
  const refused = (pattern: string, why: string) => `${shorten(pattern, 80)}: this pattern cannot be expanded (${why}); use a simpler pattern\n`;

  it('is that target\'s input error, counted without expanding it; the other targets are still linted', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    const ranges = '{1..100}{1..100}{1..10}.json';
    const long = `${'{a,b}'.repeat(13)}${'x'.repeat(5000)}.json`;
    const started = Date.now();
    const r = await runCli(['lint', '--no-config', pairs, 'bad.json', ranges, 'f{1..1000000}.json', long, `!${'{a,a}'.repeat(30)}.json`, '-f', 'json'], { cwd: dir });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.stderr).toBe(
      refused(`!${'{a,a}'.repeat(30)}.json`, 'its braces make 1,073,741,824 patterns; at most 10,000') +
        refused('f{1..1000000}.json', 'its braces make 1,000,000 patterns; at most 10,000') +
        refused(ranges, 'its braces make 100,000 patterns; at most 10,000') +
        // 8,192 globs of 5,000 characters ran Node.js out of memory.
        refused(long, 'its braces make 8,192 patterns of 41,107,456 characters in all; at most 1,000,000') +
        refused(pairs, 'its braces make 16,777,216 patterns; at most 10,000'),
    );
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ servers: 1, inputErrors: 5 });
    // Alternatives picomatch compiles into groups (extglobs) are bounded too.
    const ext = `${'@(a|a)'.repeat(24)}*.json`;
    const extglob = await runCli(['lint', '--no-config', ext, 'bad.json', '-f', 'json'], { cwd: dir });
    expect(extglob.stderr).toBe(`${shorten(ext, 80)}: this pattern cannot be compiled (its alternatives combine 16,777,216 ways; at most 100,000); use a simpler pattern\n`);
    expect(extglob.code).toBe(2);
  });

  it('in the config, a targets or overrides glob is a config error at its place', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    const names = '{a,a}'.repeat(30);
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ targets: { files: ['bad.json', pairs] }, overrides: [{ tools: [names], rules: {} }] }));
    const config = await runCli(['lint', '-c', 'c.json'], { cwd: dir });
    expect(config).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'mcp-annotate: c.json:1:33: targets.files[1] cannot be expanded (its braces make 16,777,216 patterns; at most 10,000); use a simpler pattern\n' +
        `mcp-annotate: c.json:1:${33 + pairs.length + 28}: overrides[0].tools[0] cannot be expanded (its braces make 1,073,741,824 patterns; at most 10,000); use a simpler pattern\n`,
    });
  });

  it('ordinary brace globs still work, up to 10,000 patterns', async () => {
    const dir = tempDir({ 'a.json': contradictory, 'b.jsonl': `${JSON.stringify(JSON.parse(contradictory))}\n`, 'x/sub/c.json': contradictory, 'y/d.json': contradictory });
    const r = await runCli(['lint', '--no-config', '*.{json,jsonl}', '{x,y}/**/*.json', `{1..1000}{a..j}.json`, '-f', 'json'], { cwd: dir });
    expect(r.stderr).toBe('{1..1000}{a..j}.json: no files match this pattern\n');
    expect(JSON.parse(r.stdout).summary).toMatchObject({ servers: 4, inputErrors: 1 });
    writeFileSync(join(dir, 'c.json'), JSON.stringify({ targets: ['{a,x/sub/c}.json'], overrides: [{ tools: ['{delete,remove}_*', '@(a|b)*'], rules: {} }] }));
    const config = await runCli(['lint', '-c', 'c.json', '-f', 'json'], { cwd: dir });
    expect(config.stderr).toBe('');
    expect(JSON.parse(config.stdout).summary).toMatchObject({ servers: 2, inputErrors: 0 });
  });
});

describe('mcp-annotate lint: output', () => {
  it('writes several formats in one run', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    const r = await runCli(['lint', 'bad.json', '-f', 'sarif', '-o', 'out/results.sarif', '-f', 'json', '-o', 'out/r.json', '-f', 'text'], { cwd: dir });
    expect(r.stdout).toContain('readonly-vs-outcome');
    expect(JSON.parse(readFileSync(join(dir, 'out/results.sarif'), 'utf8')).version).toBe('2.1.0');
    expect(JSON.parse(readFileSync(join(dir, 'out/r.json'), 'utf8')).version).toBe(1);
  });

  it('-o - is stdout; a file named "-" is ./-', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    const r = await runCli(['lint', 'bad.json', '-f', 'sarif', '-o', '-', '-f', 'text', '-o', 'lint.txt'], { cwd: dir });
    expect(JSON.parse(r.stdout).version).toBe('2.1.0');
    expect(existsSync(join(dir, '-'))).toBe(false);
    expect(readFileSync(join(dir, 'lint.txt'), 'utf8')).toContain('readonly-vs-outcome');
    const two = await runCli(['lint', 'bad.json', '-f', 'sarif', '-o', '-', '-f', 'json'], { cwd: dir });
    expect(two).toMatchObject({ code: 2, stderr: 'mcp-annotate: only one format can go to stdout; give the others an --output-file\n' });
    await runCli(['lint', 'bad.json', '-f', 'json', '-o', './-'], { cwd: dir });
    expect(JSON.parse(readFileSync(join(dir, '-'), 'utf8')).version).toBe(1);
  });

  it('pairs each -o with its own --format: a spare -o, or two reports to one file, is a usage error', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    // The documented forms: -f x -o file, -o file -f x, and a lone -o (text).
    const before = await runCli(['lint', 'bad.json', '-o', 'a.json', '-f', 'json', '-f', 'sarif', '-o', 'b.sarif'], { cwd: dir });
    expect(before.code).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'a.json'), 'utf8')).version).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'b.sarif'), 'utf8')).version).toBe('2.1.0');
    await runCli(['lint', 'bad.json', '-o', 'plain.txt'], { cwd: dir });
    expect(readFileSync(join(dir, 'plain.txt'), 'utf8')).toContain('readonly-vs-outcome');
    for (const args of [
      ['-f', 'json', '-o', 'x1', '-o', 'x2', '-o', 'x3'],
      ['-f', 'json', '-o', 'x1', '-o', 'x2'],
      ['-o', 'x2', '-o', 'x3', '-f', 'json'],
    ]) {
      const r = await runCli(['lint', 'bad.json', ...args], { cwd: dir });
      expect(r).toMatchObject({ code: 2, stdout: '', stderr: 'mcp-annotate: -o x2 has no --format before it; give each --output-file its own: -f json -o x2\n' });
    }
    for (const [args, message] of [
      [['-f', 'json', '-o', 'r.json', '-f', 'sarif', '-o', 'r.json'], '-o r.json is given twice'],
      [['-f', 'json', '-o', 'r.json', '-f', 'sarif', '-o', 'sub/../r.json'], '-o r.json and -o sub/../r.json are the same file'],
    ] as const) {
      const r = await runCli(['lint', 'bad.json', ...args], { cwd: dir });
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toBe(`mcp-annotate: ${message}: each --format needs its own --output-file (the last report would replace the others)\n`);
    }
    expect(['x1', 'x2', 'x3', 'r.json'].filter((f) => existsSync(join(dir, f)))).toEqual([]);
    const diff = await runCli(['diff', 'bad.json', 'bad.json', '-f', 'json', '-o', 'd1', '-o', 'd2'], { cwd: dir });
    expect(diff).toMatchObject({ code: 2, stderr: 'mcp-annotate: -o d2 has no --format before it; give each --output-file its own: -f json -o d2\n' });
  });

  it('refuses an -o that names an input of the run (a target, the baseline, the config), before writing anything', async () => {
    const dir = tempDir({ 'o/in.json': contradictory, 'cfg/mcp-annotate.config.json': json({ failOn: 'note' }), 'cfg/d.json': contradictory });
    const tail = '; the report would replace it (write the report elsewhere)\n';
    const cases: [string[], string, string][] = [
      [['lint', 'o/in.json', '-f', 'json', '-o', 'o/in.json'], '.', '-o o/in.json is also an input of this run'],
      [['lint', 'o/*.json', '-f', 'json', '-o', 'o/../o/in.json'], '.', '-o o/../o/in.json is also an input of this run'],
      [['lint', 'o', '-o', 'o/in.json'], '.', '-o o/in.json is also an input of this run'],
      [['diff', 'o/in.json', 'o/in.json', '-f', 'json', '-o', 'o/in.json'], '.', '-o o/in.json is also an input of this run'],
      [['lint', 'o/in.json', '--baseline', 'bl.json', '--update-baseline', '-f', 'json', '-o', 'bl.json'], '.', '-o bl.json is the --baseline file of this run'],
      [['lint', 'd.json', '-f', 'json', '-o', 'mcp-annotate.config.json'], 'cfg', '-o mcp-annotate.config.json is the config file of this run'],
    ];
    for (const [args, cwd, message] of cases) {
      const r = await runCli(args, { cwd: join(dir, cwd) });
      expect(r).toMatchObject({ code: 2, stdout: '', stderr: `mcp-annotate: ${message}${tail}` });
    }
    expect(readFileSync(join(dir, 'o/in.json'), 'utf8')).toBe(contradictory);
    expect(JSON.parse(readFileSync(join(dir, 'cfg/mcp-annotate.config.json'), 'utf8'))).toEqual({ failOn: 'note' });
    expect(existsSync(join(dir, 'bl.json'))).toBe(false);
  });

  it('an -o that is a device is written to, not replaced: it may also be read (/dev/stdin and /dev/stdout on one terminal)', async () => {
    const { checkOutputsAreNotInputs } = await import('../src/cli/lint.js');
    const check = checkOutputsAreNotInputs([{ format: 'json', file: '/dev/null' }], ROOT, { baseline: '/dev/null' });
    expect(() => check?.(['/dev/null'])).not.toThrow();
  });

  it('an empty -o or --baseline path is a usage error, not "is a directory"', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    for (const [args, message] of [
      [['-f', 'json', '-o', ''], '-o "" is an empty path; give a file name, or - for stdout'],
      [['-o', ''], '-o "" is an empty path; give a file name, or - for stdout'],
      [['--baseline', ''], '--baseline "" is an empty path; give the baseline file\'s name'],
      [['--baseline', '', '--update-baseline'], '--baseline "" is an empty path; give the baseline file\'s name'],
    ] as const) {
      const r = await runCli(['lint', 'bad.json', ...args], { cwd: dir });
      expect(r, args.join(' ')).toMatchObject({ code: 2, stdout: '', stderr: `mcp-annotate: ${message}\n` });
    }
    const dump = await runCli(['dump', '--stdio', 'node x.js', '-o', ''], { cwd: dir });
    expect(dump).toMatchObject({ code: 2, stderr: 'mcp-annotate: -o "" is an empty path; give a file name, or - for stdout\n' });
  });

  it('an empty --save-snapshots, --mcp-config or -c path is a usage error, said before any server starts', async () => {
    // --save-snapshots '' wrote into the working directory, over a file of the server's name.
    const dir = tempDir({ 'bad.json': contradictory, 'mini.json': 'my own file\n', 'server.js': 'require("fs").writeFileSync("started", "")' });
    const saves = '--save-snapshots "" is an empty path; give the directory to write the snapshots into (. for the current directory)';
    const mcpConfig = '--mcp-config "" is an empty path; give the client config file\'s name (.mcp.json, .cursor/mcp.json, …)';
    const config = '-c "" is an empty path; give the config file\'s name, or --no-config for none';
    for (const [args, message] of [
      [['lint', '--no-config', '--save-snapshots', '', '--stdio', 'node server.js'], saves],
      [['lint', '--no-config', '--save-snapshots=', '--stdio', 'node server.js'], saves],
      [['diff', '--no-config', 'bad.json', '--save-snapshots', '', '--stdio', 'node server.js'], saves],
      [['lint', '--mcp-config', ''], mcpConfig],
      [['dump', '--mcp-config', ''], mcpConfig],
      [['diff', 'bad.json', '--mcp-config', ''], mcpConfig],
      [['lint', 'bad.json', '-c', ''], config],
      [['lint', 'bad.json', '--config='], config],
      [['diff', 'bad.json', 'bad.json', '-c', ''], config],
      [['rules', '-c', ''], config],
      [['explain', 'readonly-vs-outcome', '-c', ''], config],
    ] as const) {
      const r = await runCli([...args], { cwd: dir });
      expect(r, args.join(' ')).toMatchObject({ code: 2, stdout: '', stderr: `mcp-annotate: ${message}\n` });
    }
    expect(readFileSync(join(dir, 'mini.json'), 'utf8')).toBe('my own file\n');
    expect(existsSync(join(dir, 'started'))).toBe(false);
  });

  it('an empty --stdio or --url is a usage error naming the flag, not a line starting with an empty server name', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    const stdio = (v: string) => `mcp-annotate: --stdio ${JSON.stringify(v)} names no command; give the command line of a stdio MCP server, e.g. --stdio "node build/index.js"\n`;
    const url = (v: string) => `mcp-annotate: --url ${JSON.stringify(v)} names no server; give its http:// or https:// endpoint, e.g. --url https://example.com/mcp\n`;
    for (const [args, stderr] of [
      [['lint', '--stdio='], stdio('')],
      [['lint', '--stdio', ' '], stdio(' ')],
      [['lint', '--stdio', 'node s.js', '--stdio', ''], stdio('')],
      [['dump', '--stdio', ''], stdio('')],
      [['diff', 'bad.json', '--stdio='], stdio('')],
      [['lint', '--url='], url('')],
      [['dump', '--url', ''], url('')],
      [['diff', 'bad.json', '--url', ''], url('')],
      [['lint', '--', ''], 'mcp-annotate: -- "" names no command: give the command of a stdio MCP server, e.g. -- node server.js\n'],
    ] as const) {
      const r = await runCli([...args], { cwd: dir });
      expect(r, args.join(' ')).toMatchObject({ code: 2, stdout: '', stderr });
    }
  });

  it('shows only errors with --quiet, and says what it hid', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    const r = await runCli(['lint', 'bad.json', '--quiet'], { cwd: dir });
    expect(r.stdout).toContain('error');
    expect(r.stdout).not.toMatch(/ warning {2}/);
    expect(r.stdout).toMatch(/hidden by --quiet/);
  });

  it('--quiet names only the kinds it hid: warnings, notes, or both, singular or plural', async () => {
    const { formatText } = await import('../src/reporters/text.js');
    const finding = (severity: string, i: number) => ({ ruleId: 'x', severity, message: 'm', serverId: 's', server: 's', tool: 't', toolIndex: 0, pointer: '', toolPointer: '', line: 1, column: 1 + i });
    const summary = (sev: string[]) => {
      const report = { findings: sev.map(finding), servers: [{ id: 's', name: 's', origin: { kind: 'stdin', display: '<stdin>' }, tools: 1, spec: '2025-06-18' }], errors: [], rules: [], cwd: '/' };
      const text = formatText(report as never, { color: false, quiet: true } as never).trimEnd().split('\n');
      return /\(([^)]*) hidden by --quiet\)/.exec(text[text.length - 1]!)?.[1];
    };
    expect(summary(['error'])).toBeUndefined();
    expect(summary(['note'])).toBe('1 note');
    expect(summary(['note', 'note'])).toBe('2 notes');
    expect(summary(['warning'])).toBe('1 warning');
    expect(summary(['warning', 'warning', 'error'])).toBe('2 warnings');
    expect(summary(['warning', 'note'])).toBe('1 warning and 1 note');
    expect(summary(['warning', 'warning', 'note', 'note', 'note'])).toBe('2 warnings and 3 notes');
  });

  it('colours text only when asked or on a terminal, and honours NO_COLOR', async () => {
    const dir = tempDir({ 'bad.json': contradictory });
    const ESC = '\u001b[';
    expect((await runCli(['lint', 'bad.json'], { cwd: dir })).stdout).not.toContain(ESC);
    expect((await runCli(['lint', 'bad.json'], { cwd: dir, env: { FORCE_COLOR: '1' } })).stdout).toContain(ESC);
    expect((await runCli(['lint', 'bad.json', '--color'], { cwd: dir })).stdout).toContain(ESC);
    expect((await runCli(['lint', 'bad.json', '--no-color'], { cwd: dir, env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await runCli(['lint', 'bad.json'], { cwd: dir, env: { NO_COLOR: '1' } })).stdout).not.toContain(ESC);
  });

  it('never lets a server-supplied string reach the terminal raw', async () => {
    const evil = tool('x\u001b[2Jwipe\u202e', { readOnlyHint: true, destructiveHint: true });
    const dir = tempDir({ 'evil.json': json({ serverInfo: { name: 'srv\u0007\u001b]0;owned\u0007' }, tools: [evil] }) });
    const r = await runCli(['lint', 'evil.json', '--color'], { cwd: dir });
    const withoutOurColours = r.stdout.replace(/\u001b\[[0-9;]*m/g, '');
    expect(withoutOurColours).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/);
    expect(withoutOurColours).toContain('\\u{1B}[2Jwipe\\u{202E}');
  });
});

describe('mcp-annotate rules and explain', () => {
  it('lists every rule as text, json and markdown (lint rules, then the drift rules of diff)', async () => {
    const { RULES: LINT_RULES } = await import('../rules/index.js');
    const { DRIFT_RULES } = await import('../src/diff/rules/index.js');
    const RULES = [...LINT_RULES, ...DRIFT_RULES];
    const text = await runCli(['rules']);
    expect(text.code).toBe(0);
    for (const r of RULES) expect(text.stdout).toContain(r.id);
    const list = JSON.parse((await runCli(['rules', '--format', 'json'])).stdout);
    expect(list.map((r: { id: string }) => r.id)).toEqual(RULES.map((r) => r.id));
    expect(list[0]).toMatchObject({ id: 'schema-valid', severity: 'error', category: 'structure' });
    const md = (await runCli(['rules', '-f', 'markdown'])).stdout;
    expect(md.split('\n')[0]).toBe('| Rule | Severity | Category | Packs | Summary |');
    expect(md.split('\n').filter((l) => l.startsWith('| [`')).length).toBe(RULES.length);
  });

  it("escapes a config policy's description and condition values (terminal escapes, bidi controls, C1) in rules and explain", async () => {
    const hostile = 'x\u001b[31mRED\u001b]0;title\u0007 \u202e rev \u009b2J';
    const config = { policies: [{ name: 'p', effect: 'warn', description: `${hostile}\nsecond line`, conditions: { fact: 'tool.name', equals: `n\u202e\u001b[2J` } }] };
    const dir = tempDir({ 'hp.json': JSON.stringify(config) });
    const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    for (const args of [['rules'], ['rules', '-f', 'markdown'], ['explain', 'policy/p']]) {
      const r = await runCli([...args, '-c', 'hp.json'], { cwd: dir, env: { NO_COLOR: '1' } });
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(raw);
      expect(r.stdout, args.join(' ')).toContain('x\\u{1B}[31mRED\\u{1B}]0;title\\u{7} \\u{202E} rev \\u{9B}2J\\nsecond line');
    }
    // A policy is in no pack: its line ends with its summary, not with an empty pack list "[]".
    const text = await runCli(['rules', '-c', 'hp.json'], { cwd: dir, env: { NO_COLOR: '1' } });
    const line = text.stdout.split('\n').find((l) => l.trimStart().startsWith('policy/p '));
    expect(line).toBeDefined();
    expect(line).not.toMatch(/\[\]\s*$/);
    expect(line).toMatch(/second line$/);
    expect(text.stdout).toMatch(/^ {2}tool-name-format .*\[core\]$/m);
    const explained = await runCli(['explain', 'policy/p', '-c', 'hp.json'], { cwd: dir, env: { NO_COLOR: '1' } });
    expect(explained.stdout).toContain('tool.name equals "n\\u{202E}\\u001b[2J"');
  });

  it('explains a rule in the terminal, without markdown markers', async () => {
    const r = await runCli(['explain', 'readonly-vs-outcome']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Why');
    expect(r.stdout).toContain('Incorrect');
    expect(r.stdout).toContain('"readOnlyHint": true');
    expect(r.stdout).not.toContain('```');
    expect(r.stdout).not.toContain('<!--');
    // Tables as aligned columns, not as markdown.
    expect(r.stdout).toContain('\nDefault severity   error\nCategory           ');
    expect(r.stdout).not.toMatch(/^\|/m);
  });

  it('draws markdown tables as columns: a header unless it is empty, escaped pipes kept', async () => {
    const { terminalMarkdown } = await import('../src/cli/rules.js');
    expect(terminalMarkdown('| name | what |\n| --- | :---: |\n| `x` | y\\|z |\n| **longer** | w |\nafter', false)).toBe('name    what\nx       y|z\nlonger  w\nafter');
    expect(terminalMarkdown('| | |\n| --- | --- |\n| Packs | `core` |', false)).toBe('Packs  core');
  });

  it('renders bold and code spans that run across lines, bold around code and italics, and no bold inside code', async () => {
    const { terminalMarkdown } = await import('../src/cli/rules.js');
    const md = 'says "**Boolean\nunion: it MUST** persist", with `credentials:\n"same-origin"`.\n\n- **What makes a tool *private*.** Output\n- **`openWorldHint` alone** does not: `captures/**/*.jsonl`';
    expect(terminalMarkdown(md, false)).toBe('says "Boolean\nunion: it MUST persist", with credentials:\n"same-origin".\n\n- What makes a tool *private*. Output\n- openWorldHint alone does not: captures/**/*.jsonl');
    const colored = terminalMarkdown(md, true);
    expect(colored).toContain('\u001b[1mBoolean\u001b[22m\n\u001b[1munion: it MUST\u001b[22m');
    // A span never reaches past its list item.
    expect(terminalMarkdown('- a **b\n- c** d', false)).toBe('- a **b\n- c** d');
    // Every rule's page, as explain shows it, keeps no markdown markers.
    const { RULES } = await import('../rules/index.js');
    for (const r of RULES) {
      const page = readFileSync(join(ROOT, 'docs', 'rules', `${r.id}.md`), 'utf8');
      expect(terminalMarkdown(page, false), r.id).not.toMatch(/\*\*|`/);
    }
  });

  it('MCP_ANNOTATE_TIMING=1 adds the rules table and the phases on stderr, and changes nothing on stdout', async () => {
    const plain = await runCli(['lint', 'fixtures/example-server.json', '-f', 'json']);
    const timed = await runCli(['lint', 'fixtures/example-server.json', '-f', 'json'], { env: { MCP_ANNOTATE_TIMING: '1' } });
    expect(timed.stdout).toBe(plain.stdout);
    expect(timed.stderr).toMatch(/^pack or rule +time \(ms\) +relative\n/);
    expect(timed.stderr).toMatch(/\nphases \(ms\): start \d+ · read and parse \d+ · packs and rules \d+ · locate and sort \d+ · baseline and report \d+ · total \d+\n$/);
  });

  it('suggests the closest rule for a typo', async () => {
    const r = await runCli(['explain', 'readonly-vs-outcomes']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('mcp-annotate: unknown rule "readonly-vs-outcomes"; did you mean "readonly-vs-outcome"? (mcp-annotate rules lists them)');
  });

  it('lints with only the vocabularies asked for', async () => {
    const all = JSON.parse((await runCli(['lint', 'fixtures/consistent-server.json', '-f', 'json'])).stdout);
    const some = JSON.parse((await runCli(['lint', 'fixtures/consistent-server.json', '-f', 'json', '--vocab', 'sep-1913'])).stdout);
    expect(all.summary.warnings).toBe(0);
    expect(some.findings.map((f: { ruleId: string }) => f.ruleId)).toContain('sensitive-to-public');
    const bad = await runCli(['lint', 'fixtures/consistent-server.json', '--vocab', 'sep1913']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('did you mean "sep-1913"?');
  });
});

describe('V8 tuning for large runs', () => {
  it('lowers the inlining budget once, and only for runs of at least LARGE_RUN_TOOLS tools', async () => {
    const { vi } = await import('vitest');
    const { tuneForLargeRun, LARGE_RUN_TOOLS } = await import('../src/cli/tuning.js');
    const v8 = process.getBuiltinModule('node:v8');
    const set = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => undefined);
    try {
      tuneForLargeRun(LARGE_RUN_TOOLS - 1);
      expect(set).not.toHaveBeenCalled();
      tuneForLargeRun(LARGE_RUN_TOOLS);
      tuneForLargeRun(LARGE_RUN_TOOLS * 100);
      expect(set.mock.calls).toEqual([['--max-inlined-bytecode-size-cumulative=200']]);
    } finally {
      set.mockRestore();
    }
  });
});

describe('--timeout and --concurrency', () => {
  it('take positive numbers, and --timeout at most a day (a longer timer would fire at once)', async () => {
    const cases: [string[], string][] = [
      [['--timeout', '0'], '--timeout must be a positive number of seconds, got "0"'],
      [['--timeout', '1e3'], '--timeout must be a positive number of seconds, got "1e3"'],
      [['--timeout', '3000000'], '--timeout must be at most 86400 seconds (a day), got "3000000"'],
      [['--concurrency', '0'], '--concurrency must be a positive integer, got "0"'],
    ];
    for (const [flags, message] of cases) {
      const r = await runCli(['lint', '--stdio', 'true', ...flags]);
      expect(r.code, flags.join(' ')).toBe(2);
      expect(r.stderr).toBe(`mcp-annotate: ${message}\n`);
    }
  });
});

describe('file names with a backslash (Linux and macOS: an ordinary character)', () => {
  it('a directory scan and a glob read the file they found', async () => {
    const consistent = readFileSync(join(ROOT, 'fixtures', 'consistent-server.json'), 'utf8');
    const dir = tempDir({ 'd/a\\b.json': consistent });
    for (const target of ['d', 'd/*.json', join(dir, 'd', '*.json')]) {
      const r = await runCli(['lint', target, '--no-color', '-f', 'json'], { cwd: dir });
      expect(r.stderr, target).toBe('');
      const report = JSON.parse(r.stdout);
      expect(report.summary.inputErrors, target).toBe(0);
      expect(report.servers.map((s: { source: string }) => s.source), target).toEqual(['d/a\\b.json']);
    }
  });
});

describe('symbolic links and unreadable directories in a scan', () => {
  const dump = json({ tools: [tool('get_a', { readOnlyHint: true, openWorldHint: false })] });
  const sources = (stdout: string) => (JSON.parse(stdout) as { servers: { source: string }[] }).servers.map((s) => s.source);

  it('a link to an ancestor directory or to itself is not followed; a link to a file is linted once, as its file', async () => {
    const dir = tempDir({ 'sl/snap/x.json': dump });
    symlinkSync('..', join(dir, 'sl/snap/parent'));
    symlinkSync('.', join(dir, 'sl/snap/self'));
    symlinkSync('x.json', join(dir, 'sl/snap/y.json'));
    // Before: 41 servers with one link (and 40 collision notes); with two, the scan never ended.
    for (const target of ['sl', 'sl/**/*.json', 'sl/snap/self']) {
      const r = await runCli(['lint', target, '--no-config', '-f', 'json'], { cwd: dir, timeoutMs: 15_000 });
      expect([r.code, r.stderr], target).toEqual([0, '']);
      // A linked directory named as a target is scanned, through the name given.
      expect(sources(r.stdout), target).toEqual([target === 'sl/snap/self' ? 'sl/snap/self/x.json' : 'sl/snap/x.json']);
    }
    // Named on its own, a link to a file is read (as the link).
    const link = await runCli(['lint', 'sl/snap/y.json', '--no-config', '-f', 'json'], { cwd: dir });
    expect(sources(link.stdout)).toEqual(['sl/snap/y.json']);
    // A file named both directly and through a link: once.
    const both = await runCli(['lint', 'sl/snap/y.json', 'sl/snap/x.json', '--no-config', '-f', 'json'], { cwd: dir });
    expect(sources(both.stdout)).toEqual(['sl/snap/x.json']);
  });

  it('an unreadable directory is one line; the rest of the scan and the other targets are linted', async (ctx) => {
    const dir = tempDir({ 'd/x.json': dump, 'd/a/locked/y.json': dump, 'ok.json': dump });
    // Root reads any directory: as root, the run is nobody's.
    const user = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
    chmodSync(dir, 0o755);
    if (user) {
      // Nobody must be able to run the linter from this checkout (not so under a root-only home).
      const runs = await runCli(['lint', 'ok.json', '--no-config', '-f', 'json'], { cwd: dir, user }).catch(() => undefined);
      if (runs?.code !== 0) return ctx.skip();
    }
    chmodSync(join(dir, 'd/a/locked'), 0o000);
    try {
      const line = 'd/a/locked: cannot read this directory (its files are not linted): permission denied\n';
      for (const targets of [['d'], ['d/**/*.json'], ['ok.json', 'd/a/locked']]) {
        const r = await runCli(['lint', ...targets, '--no-config', '-f', 'json'], { cwd: dir, user });
        expect([r.code, r.stderr], targets.join(' ')).toEqual([2, line]);
        expect(sources(r.stdout), targets.join(' ')).toEqual(targets[0] === 'ok.json' ? ['ok.json'] : ['d/x.json']);
      }
    } finally {
      chmodSync(join(dir, 'd/a/locked'), 0o755);
    }
  });
});

describe('file names that are not valid UTF-8', () => {
  it('say so, in a scan, a glob and as a target (each was "no such file or directory")', async (ctx) => {
    const dir = tempDir({ 'ok.json': json({ tools: [] }) });
    try {
      writeFileSync(Buffer.from(`${dir}/caf\xe9.json`, 'latin1'), json({ tools: [] }));
      mkdirSync(Buffer.from(`${dir}/d\xe9`, 'latin1'));
    } catch {
      // A file system that takes only UTF-8 names (APFS) cannot hold one.
      return ctx.skip();
    }
    const why = 'its name is not valid UTF-8 (shown with \uFFFD in place of the bytes that are not), and Node.js cannot open a file by such a name; rename it';
    const file = `caf\uFFFD.json: ${why}`;
    const folder = `d\uFFFD: cannot read this directory (its files are not linted): ${why}`;
    for (const [target, lines] of [['.', [folder, file]], ['*.json', [file]], ['caf\uFFFD.json', [file]]] as const) {
      const r = await runCli(['lint', target, '--no-config', '-f', 'json'], { cwd: dir });
      expect(r.code, target).toBe(2);
      expect(r.stderr.trim().split('\n').sort(), target).toEqual([...lines].sort());
    }
  });
});

describe('--fail-on note and informational notes', () => {
  it('a note with nothing to fix (a proposal\'s own mcp.dev/ keys) does not fail the run; another note does', async () => {
    const info = await runCli(['lint', 'fixtures/consistent-server.json', '--fail-on', 'note', '--no-config', '-f', 'json']);
    const findings = JSON.parse(info.stdout).findings as { ruleId: string; severity: string; informational?: boolean }[];
    expect(findings.map((f) => `${f.ruleId} ${f.severity}`)).toEqual(['meta-key-format note']);
    expect(findings[0]!.informational).toBe(true);
    expect(info.code).toBe(0);
    // The same through the config's failOn.
    const dir = tempDir({ 'mcp-annotate.config.json': json({ failOn: 'note' }) });
    const viaConfig = await runCli(['lint', join(ROOT, 'fixtures', 'consistent-server.json')], { cwd: dir });
    expect(viaConfig.code).toBe(0);
    const other = tempDir({ 'n.json': json({ serverInfo: { name: 'a' }, tools: [tool('list_notes', { readOnlyHint: true, openWorldHint: false }, { description: 'Lists notes. Permanently deletes nothing, but it deletes the cache' })] }) });
    const note = await runCli(['lint', 'n.json', '--fail-on', 'note', '--no-config', '-f', 'json'], { cwd: other });
    expect((JSON.parse(note.stdout).findings as { severity: string; informational?: boolean }[]).map((f) => [f.severity, f.informational])).toEqual([['note', undefined]]);
    expect(note.code).toBe(1);
  });
});
