/**
 * Reading MCP client config files (--mcp-config, dump --mcp-config, a config file's
 * targets.mcpServers) the way clients read them: own properties only ("__proto__" is a
 * server name like any other), the last of a key given twice, entries whose transport
 * clients disagree on refused, and runs that select nothing said as such.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, json } from '../helpers/cli.js';
import { VOCAB_FIXTURE, serverArgv } from './helpers.js';

const tools = serverArgv('stdio-tools.mjs', VOCAB_FIXTURE);
/** Answers 401 to everything: a server that wants credentials. */
let locked: ReturnType<typeof createHttpServer>;
let lockedUrl: string;
/** A port nothing listens on (closed again after it was found). */
let deadUrl: string;

beforeAll(async () => {
  locked = createHttpServer((_req, res) => res.writeHead(401).end());
  await new Promise<void>((r) => locked.listen(0, '127.0.0.1', r));
  lockedUrl = `http://127.0.0.1:${(locked.address() as AddressInfo).port}/mcp`;
  const probe = createHttpServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/mcp`;
  await new Promise<void>((r) => probe.close(() => r()));
});
afterAll(async () => {
  await new Promise<void>((r) => (locked ? locked.close(() => r()) : r()));
});

const names = (stdout: string) => JSON.parse(stdout).servers.map((s: { name: string; source: string }) => [s.name, s.source]);

describe('"__proto__" in a client config is a key like any other', () => {
  // Written as text: JSON.stringify of an object literal cannot hold a "__proto__" member.
  const command = JSON.stringify(tools.command);
  const args = JSON.stringify(tools.args);

  it('a server named "__proto__" is started and linted', async () => {
    const dir = tempDir({ 'mcp.json': `{"mcpServers": {"__proto__": {"command": ${command}, "args": ${args}}}}\n` });
    const r = await runCli(['lint', '--mcp-config', 'mcp.json', '-f', 'json'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(names(r.stdout)).toEqual([['__proto__', 'mcp.json › __proto__']]);
    // And picked by name.
    const picked = await runCli(['lint', '--mcp-config', 'mcp.json', '--server', '__proto__', '-f', 'json'], { cwd: dir });
    expect(names(picked.stdout)).toEqual([['__proto__', 'mcp.json › __proto__']]);
  });

  it('a "__proto__" member of an entry neither disables it nor swaps its transport', async () => {
    const dir = tempDir({
      'mcp.json': [
        '{"mcpServers": {',
        `  "hidden": {"command": ${command}, "args": ${args}, "__proto__": {"disabled": true}},`,
        `  "swapped": {"command": ${command}, "args": ${args}, "__proto__": {"type": "http", "url": ${JSON.stringify(deadUrl)}}}`,
        '}}',
      ].join('\n'),
    });
    const r = await runCli(['lint', '--mcp-config', 'mcp.json', '-f', 'json'], { cwd: dir });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout);
    expect(report.servers.map((s: { name: string; kind: string; tools: number }) => [s.name, s.kind, s.tools])).toEqual([
      ['hidden', 'live', 4],
      ['swapped', 'live', 4],
    ]);
  });

  it('the same in a config file\'s targets.mcpServers, JSON and YAML', async () => {
    const dir = tempDir({
      'json/mcp-annotate.config.json': `{"targets": {"mcpServers": {"__proto__": {"command": ${command}, "args": ${args}}, "hidden": {"command": ${command}, "args": ${args}, "__proto__": {"disabled": true}}}}}\n`,
      'yaml/mcp-annotate.config.yaml': [
        'targets:',
        '  mcpServers:',
        `    __proto__: { command: ${command}, args: ${args} }`,
        `    hidden: { command: ${command}, args: ${args}, __proto__: { disabled: true } }`,
        '',
      ].join('\n'),
    });
    for (const sub of ['json', 'yaml']) {
      const r = await runCli(['lint', '-f', 'json'], { cwd: join(dir, sub) });
      expect(r.stderr, sub).toBe('');
      expect(JSON.parse(r.stdout).servers.map((s: { name: string }) => s.name), sub).toEqual(['__proto__', 'hidden']);
    }
  });
});

describe('entries clients read differently', () => {
  it('"command" with a URL and no "type", or an HTTP "type" without a URL: an error of that server', async () => {
    const dir = tempDir({
      '.mcp.json': json({
        mcpServers: {
          both: { ...tools, url: deadUrl },
          gemini: { ...tools, httpUrl: deadUrl },
          typed: { type: 'http', ...tools },
          sse: { type: 'sse', command: 'node' },
          stdio: { type: 'stdio', ...tools, url: deadUrl },
        },
      }),
      'opencode.json': json({ mcp: { both: { command: [tools.command], url: deadUrl }, remote: { type: 'remote', command: [tools.command] } } }),
    });
    const r = await runCli(['lint', '--mcp-config', '.mcp.json', '--mcp-config', 'opencode.json', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      '.mcp.json:3:5: server "both": has both "command" and "url" and no "type": clients differ on which they start; set "type" ("stdio" to start the command, "http" or "sse" to reach the URL)',
      '.mcp.json:11:5: server "gemini": has both "command" and "httpUrl" and no "type": clients differ on which they start; set "type" ("stdio" to start the command, "http" or "sse" to reach the URL)',
      '.mcp.json:27:5: server "sse": its "type" is "sse", which needs a URL ("url", "serverUrl" or "httpUrl") to reach; its "command" is only used with "type": "stdio"',
      '.mcp.json:19:5: server "typed": its "type" is "http", which needs a URL ("url", "serverUrl" or "httpUrl") to reach; its "command" is only used with "type": "stdio"',
      'opencode.json:3:5: server "both": has both "command" and "url" and no "type": clients differ on which they start; set "type" ("local" to start the command, "remote" to reach the URL)',
      'opencode.json:9:5: server "remote": a "remote" server needs a "url" (its "command" is only used with "type": "local")',
    ]);
    // "type": "stdio" says which: the command runs.
    expect(names(r.stdout)).toEqual([['stdio', '.mcp.json › stdio']]);
  });

  it('a server given twice: the last one runs, its position is reported, and a note says so', async () => {
    const text = [
      '{',
      '  "mcpServers": {',
      '    "dup": { "command": "no-such-program-first" },',
      '    "other": { "command": "no-such-program-other", "disabled": true },',
      '    "dup": {',
      '      "command": "no-such-program-last"',
      '    }',
      '  }',
      '}',
    ].join('\n');
    const dir = tempDir({ '.mcp.json': text });
    const r = await runCli(['lint', '--mcp-config', '.mcp.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'mcp-annotate: note: server "dup" is given twice in .mcp.json (lines 3 and 5): the last one is used, as clients read the file\n' +
        'mcp-annotate: note: skipped "other" (.mcp.json): it is disabled\n' +
        '.mcp.json:5:5: server "dup": could not start "no-such-program-last": no such program (is it installed and on PATH?)\n',
    );
    // The servers object itself given twice: the last one.
    const twice = tempDir({ '.mcp.json': '{\n  "mcpServers": {"a": {"command": "no-such-program-a"}},\n  "mcpServers": {"b": {"command": "no-such-program-b"}}\n}\n' });
    const t = await runCli(['lint', '--mcp-config', '.mcp.json'], { cwd: twice });
    expect(t.stderr).toBe(
      'mcp-annotate: note: "mcpServers" is given twice in .mcp.json (lines 2 and 3): the last one is used, as clients read the file\n' +
        '.mcp.json:3:18: server "b": could not start "no-such-program-b": no such program (is it installed and on PATH?)\n',
    );
  });

  it('the findings of a server given twice point at the last entry', async () => {
    const dir = tempDir({
      '.mcp.json': ['{', '  "mcpServers": {', `    "dup": { "command": "no-such-program" },`, `    "dup": ${JSON.stringify(tools)}`, '  }', '}'].join('\n'),
    });
    const r = await runCli(['lint', '--mcp-config', '.mcp.json', '-f', 'json'], { cwd: dir });
    const lines = new Set(JSON.parse(r.stdout).findings.map((f: { file: string; line: number }) => `${f.file}:${f.line}`));
    expect(lines).toEqual(new Set(['.mcp.json:4']));
  });
});

describe('config files that select nothing', () => {
  const files = {
    'empty.json': json({ mcpServers: {} }),
    'off.json': json({ mcpServers: { a: { command: 'no-such-program', disabled: true }, b: { command: 'no-such-program', enabled: false } } }),
    'dump.json': readFileSync(VOCAB_FIXTURE, 'utf8'),
  };

  it('are "nothing to lint" (exit 2), with the notes of what was skipped', async () => {
    const dir = tempDir(files);
    const empty = await runCli(['lint', '--mcp-config', 'empty.json'], { cwd: dir });
    expect([empty.code, empty.stdout, empty.stderr]).toEqual([2, '', 'mcp-annotate: nothing to lint: empty.json holds no servers; add one, or give other targets\n']);
    const off = await runCli(['lint', '--mcp-config', 'off.json'], { cwd: dir });
    expect([off.code, off.stdout]).toEqual([2, '']);
    expect(off.stderr).toBe(
      'mcp-annotate: note: skipped "a" (off.json): it is disabled\n' +
        'mcp-annotate: note: skipped "b" (off.json): it is disabled\n' +
        'mcp-annotate: nothing to lint: every server in off.json is disabled or skipped (the notes above say why); enable one, or give other targets\n',
    );
    const picked = await runCli(['lint', '--mcp-config', 'off.json', '--mcp-config', 'empty.json', '--server', 'a'], { cwd: dir });
    expect([picked.code, picked.stdout]).toEqual([2, '']);
    expect(picked.stderr).toBe(
      'mcp-annotate: note: skipped "a" (off.json): it is disabled\n' +
        'mcp-annotate: nothing to lint: --server picks only servers of off.json and empty.json that are disabled or skipped (the notes above say why); enable one, or pick another\n',
    );
  });

  it('are fine beside other targets of the run', async () => {
    const dir = tempDir(files);
    const r = await runCli(['lint', 'dump.json', '--mcp-config', 'off.json', '--fail-on', 'none'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('mcp-annotate: note: skipped "a" (off.json): it is disabled\nmcp-annotate: note: skipped "b" (off.json): it is disabled\n');
    expect(r.stdout).toContain('in 1 server, 4 tools');
  });
});

describe('an -o that names a client config the run reads', () => {
  // A server that leaves a mark when it starts: a refused run starts none.
  const marking = { command: process.execPath, args: ['-e', "require('fs').writeFileSync('started', '')"] };
  const config = json({ mcpServers: { s: marking } });
  const refused = (file: string, written = 'report') => `mcp-annotate: -o ${file} is also an input of this run; the ${written} would replace it (write the ${written} elsewhere)\n`;

  it('is refused (exit 2) before any server starts, for lint, dump and diff, however the path is spelled', async () => {
    const dir = tempDir({ '.mcp.json': config, 'base.json': readFileSync(VOCAB_FIXTURE, 'utf8') });
    symlinkSync(join(dir, '.mcp.json'), join(dir, 'link.json'));
    const cases: [string[], string][] = [
      [['lint', '--no-config', '--mcp-config', '.mcp.json', '-f', 'sarif', '-o', '.mcp.json'], refused('.mcp.json')],
      [['lint', '--no-config', '--mcp-config', '.mcp.json', '-f', 'json', '-o', './.mcp.json'], refused('./.mcp.json')],
      [['lint', '--no-config', '--mcp-config', './.mcp.json', '-o', join(dir, '.mcp.json')], refused(join(dir, '.mcp.json'))],
      [['lint', '--no-config', '--mcp-config', '.mcp.json', '-f', 'json', '-o', 'out.json', '-f', 'sarif', '-o', 'link.json'], refused('link.json')],
      [['dump', '--mcp-config', '.mcp.json', '--server', 's', '-o', '.mcp.json'], refused('.mcp.json', 'snapshot')],
      [['dump', '--mcp-config', 'link.json', '--server', 's', '-o', 'sub/../.mcp.json'], refused('sub/../.mcp.json', 'snapshot')],
      [['diff', '--no-config', 'base.json', '--mcp-config', '.mcp.json', '-f', 'json', '-o', '.mcp.json'], refused('.mcp.json')],
    ];
    for (const [args, stderr] of cases) {
      const r = await runCli(args, { cwd: dir });
      expect({ args, code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ args, code: 2, stdout: '', stderr });
    }
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(config);
    expect(['started', 'out.json'].filter((f) => existsSync(join(dir, f)))).toEqual([]);
  });

  it('a config --discover finds is refused too', async () => {
    const dir = tempDir({ '.mcp.json': config });
    const env = { HOME: dir, XDG_CONFIG_HOME: undefined, APPDATA: undefined, USERPROFILE: undefined };
    const r = await runCli(['lint', '--no-config', '--discover', '--yes', '-f', 'json', '-o', '.mcp.json'], { cwd: dir, env });
    expect([r.code, r.stdout, r.stderr]).toEqual([2, '', refused('.mcp.json')]);
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(config);
    expect(existsSync(join(dir, 'started'))).toBe(false);
  });

  it('dump -o another file still writes the snapshot', async () => {
    const dir = tempDir({ '.mcp.json': json({ mcpServers: { s: tools } }) });
    const r = await runCli(['dump', '--mcp-config', '.mcp.json', '--server', 's', '-o', 's.json'], { cwd: dir });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(readFileSync(join(dir, 's.json'), 'utf8'))).toMatchObject({ configEntry: 's' });
  });
});

describe('--server', () => {
  it('an empty value is a usage error, not "every server"', async () => {
    const dir = tempDir({ '.mcp.json': json({ mcpServers: { a: { command: 'no-such-program' } } }) });
    for (const value of ['', ' , ']) {
      const r = await runCli(['lint', '--mcp-config', '.mcp.json', '--server', value], { cwd: dir });
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `mcp-annotate: --server needs a server name (or several, comma-separated), got ${JSON.stringify(value)}\n`]);
    }
  });

  it('a value that names a server exactly picks it, a name with a comma too; else it is a list', async () => {
    const dir = tempDir({ '.mcp.json': json({ mcpServers: { 'comma,name': { command: 'no-such-program-1' }, comma: { command: 'no-such-program-2' }, name: { command: 'no-such-program-3' }, other: { command: 'no-such-program-4' } } }) });
    const exact = await runCli(['lint', '--mcp-config', '.mcp.json', '--server', 'comma,name'], { cwd: dir });
    expect(exact.stderr).toBe('.mcp.json:3:5: server "comma,name": could not start "no-such-program-1": no such program (is it installed and on PATH?)\n');
    const list = await runCli(['lint', '--mcp-config', '.mcp.json', '--server', 'other, name'], { cwd: dir });
    expect(list.stderr.trimEnd().split('\n').map((l) => /server "([^"]+)"/.exec(l)?.[1])).toEqual(['name', 'other']);
  });
});

describe('dump --mcp-config', () => {
  it('with several servers and no --server: the usage error, not the variables of servers never chosen', async () => {
    const dir = tempDir({ '.mcp.json': json({ mcpServers: { a: { command: 'x', env: { T: '${NOT_SET_ANYWHERE_1}' } }, b: { command: 'y' }, off: { command: 'z', disabled: true } } }) });
    const r = await runCli(['dump', '--mcp-config', '.mcp.json'], { cwd: dir, env: { NOT_SET_ANYWHERE_1: undefined } });
    expect([r.code, r.stdout]).toEqual([2, '']);
    expect(r.stderr).toBe('mcp-annotate: dump writes one server\'s snapshot, and 2 were given ("a", "b"); pick one with --server, or use lint --save-snapshots <dir> for several\n');
    // The one chosen is resolved, and its error said.
    const a = await runCli(['dump', '--mcp-config', '.mcp.json', '--server', 'a'], { cwd: dir, env: { NOT_SET_ANYWHERE_1: undefined } });
    expect([a.code, a.stderr]).toEqual([2, '.mcp.json:3:5: server "a": environment variable NOT_SET_ANYWHERE_1 is not set (referenced as ${NOT_SET_ANYWHERE_1} in env.T)\n']);
  });
});

describe('what a client config is not', () => {
  it('a client config given as a dump says to lint it with --mcp-config', async () => {
    const dir = tempDir({
      '.vscode/mcp.json': json({ servers: { gh: { type: 'http', url: 'https://example.invalid/mcp' } } }),
      'claude.json': json({ mcpServers: {} }),
      'opencode.json': json({ mcp: { x: { type: 'local', command: ['x'] } } }),
      'zed.json': json({ context_servers: {} }),
    });
    const r = await runCli(['lint', '.vscode/mcp.json', 'claude.json', 'opencode.json', 'zed.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n').sort()).toEqual([
      '.vscode/mcp.json: expected a tools/list dump; this looks like an MCP client config ("servers" holds server entries): lint its servers with --mcp-config .vscode/mcp.json',
      'claude.json: expected a tools/list dump; this looks like an MCP client config ("mcpServers" holds server entries): lint its servers with --mcp-config claude.json',
      'opencode.json: expected a tools/list dump; this looks like an MCP client config ("mcp" holds server entries): lint its servers with --mcp-config opencode.json',
      'zed.json: expected a tools/list dump; this looks like an MCP client config ("context_servers" holds server entries): lint its servers with --mcp-config zed.json',
    ]);
  });

  it('a TOML config (Codex) is refused in one line', async () => {
    const dir = tempDir({ 'config.toml': '[mcp_servers.docs]\ncommand = "npx"\n' });
    for (const command of ['lint', 'dump']) {
      const r = await runCli([command, '--mcp-config', 'config.toml'], { cwd: dir });
      expect(r.code, command).toBe(2);
      expect(r.stderr.split('\n')[0], command).toBe('config.toml: TOML client configs (Codex\'s config.toml) are not supported; give its servers with --stdio "<command line>" or --url <url> instead');
    }
  });

  it('a 401 from a config server points at the headers of its entry, not at --header', async () => {
    const dir = tempDir({ '.mcp.json': json({ mcpServers: { locked: { type: 'http', url: lockedUrl } } }) });
    const r = await runCli(['lint', '--mcp-config', '.mcp.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^\.mcp\.json:3:5: server "locked": HTTP 401 Unauthorized .*\(give credentials in the "headers" of its entry in \.mcp\.json, e\.g\. "headers": \{"Authorization": "Bearer \$\{TOKEN\}"\}\)\n$/);
    expect(r.stderr).not.toContain('--header');
  });
});

describe('a VS Code envFile', () => {
  it('is read line by line as VS Code reads it: a malformed line is skipped with a note naming file:line, never its text', async () => {
    const token = 'ghp_R3alT0kenValue9x8y7z6w5';
    // Prints the variables it got from the file (names and values) on stderr, and exits 1.
    const script = `const e = Object.entries(process.env).filter(([k]) => /^(T_|GITHUB|LOG)|\\s/.test(k)).sort(); console.error(JSON.stringify(e)); process.exit(1);`;
    const dir = tempDir({
      '.vscode/mcp.json': json({ servers: { gh: { type: 'stdio', command: 'node', args: ['-e', script], envFile: '${workspaceFolder}/.vscode/.env' } } }),
      '.vscode/.env': ['# typo: missing "="', `GITHUB_TOKEN ${token}`, 'LOG_LEVEL=debug', 'export T_EXP=1', 'T_Q="a b" # a comment', 'T_C: yes', `bad name=${token}`, ''].join('\n'),
    });
    const r = await runCli(['lint', '--no-config', '--mcp-config', '.vscode/mcp.json'], { cwd: dir, env: { ...process.env, GITHUB_TOKEN: '' } });
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual([
      'mcp-annotate: note: .vscode/.env:2: server "gh": skipped a line of its envFile that is not NAME=value (a NAME of letters, digits, "_", "." or "-"); the server runs without it, and the line is not shown',
      'mcp-annotate: note: .vscode/.env:7: server "gh": skipped a line of its envFile that is not NAME=value (a NAME of letters, digits, "_", "." or "-"); the server runs without it, and the line is not shown',
    ]);
    // The server got the variables VS Code would give it, and no name made of two lines.
    expect(lines[2]).toContain('[[\\"LOG_LEVEL\\",\\"debug\\"],[\\"T_C\\",\\"yes\\"],[\\"T_EXP\\",\\"1\\"],[\\"T_Q\\",\\"a b\\"]]');
    expect(lines).toHaveLength(3);
    expect(r.stdout + r.stderr).not.toContain('R3alT0ken');
  });
});
