/**
 * Live targets end to end: real MCP servers built with the SDK (stdio child processes,
 * Streamable HTTP and SSE on 127.0.0.1), linted through the real bin.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, json, tool } from '../helpers/cli.js';
import { validateJsonReport, validateSarif } from '../helpers/schemas.js';
import { startHttpServer } from './servers/http.mjs';
import { loadFixture } from './servers/tools-lib.mjs';
import { SERVERS, VOCAB_FIXTURE, essence, serverArgv, serverCommand } from './helpers.js';

const fixture = loadFixture(VOCAB_FIXTURE);
type Http = Awaited<ReturnType<typeof startHttpServer>>;
let streamable: Http;
let sse: Http;
let dumpReport: { findings: Parameters<typeof essence>[0]['findings'] };

beforeAll(async () => {
  streamable = await startHttpServer({ mode: 'streamable', ...fixture, pageSize: 3 });
  sse = await startHttpServer({ mode: 'sse', ...fixture });
  const r = await runCli(['lint', VOCAB_FIXTURE, '-f', 'json']);
  dumpReport = JSON.parse(r.stdout);
});
afterAll(async () => {
  await streamable?.close();
  await sse?.close();
});

/** The rules that only fire when annotation keys the SDK's Tool schema does not know reach the linter. */
const NEEDS_RAW_KEYS = ['readonly-vs-outcome', 'risk-level-floor', 'unknown-classifier', 'sensitive-output-undeclared', 'idempotent-conflict', 'attribution-uri'];

describe('the raw tools/list result reaches the linter', () => {
  it('the dump itself has findings from SEP-1913, SEP-2793 and _meta vocabularies', () => {
    const rules = new Set(dumpReport.findings.map((f) => f.ruleId));
    for (const id of NEEDS_RAW_KEYS) expect(rules, id).toContain(id);
  });

  it('stdio: exactly the findings of the dump', async () => {
    const r = await runCli(['lint', '--stdio', serverCommand('stdio-tools.mjs', VOCAB_FIXTURE), '-f', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const live = JSON.parse(r.stdout);
    expect(live.servers).toEqual([expect.objectContaining({ name: 'vocab-server', kind: 'live', tools: 4, spec: '2025-11-25' })]);
    expect(essence(live)).toEqual(essence(dumpReport));
  });

  it('stdio with pages (`lint -- command args`): exactly the findings of the dump', async () => {
    const { command, args } = serverArgv('stdio-tools.mjs', VOCAB_FIXTURE, '1');
    const r = await runCli(['lint', '-f', 'json', '--', command, ...args]);
    expect(r.stderr).toBe('');
    expect(essence(JSON.parse(r.stdout))).toEqual(essence(dumpReport));
  });

  it('Streamable HTTP with pages: exactly the findings of the dump', async () => {
    const r = await runCli(['lint', '--url', streamable.url, '-f', 'json']);
    expect(r.stderr).toBe('');
    expect(essence(JSON.parse(r.stdout))).toEqual(essence(dumpReport));
    // initialize, then tools/list page by page (4 tools, 3 a page); never tools/call.
    const bodies = streamable.requests.filter((q) => q.method === 'POST');
    expect(bodies.length).toBeGreaterThanOrEqual(3);
  });

  it('Streamable HTTP with SSE polling (the response stream closed after its event id, the answer on the resumed stream): exactly the findings of the dump', async () => {
    const polling = await startHttpServer({ mode: 'polling', ...fixture });
    try {
      const r = await runCli(['lint', '--url', polling.url, '-f', 'json']);
      expect(r.stderr).toBe('');
      expect(essence(JSON.parse(r.stdout))).toEqual(essence(dumpReport));
      // The tools/list answer came on a GET that resumed the closed stream from its last event.
      expect(polling.requests.some((q) => q.method === 'GET' && typeof q.headers['last-event-id'] === 'string')).toBe(true);
    } finally {
      await polling.close();
    }
  });

  it('legacy SSE, found by falling back from Streamable HTTP: exactly the findings of the dump', async () => {
    const r = await runCli(['lint', '--url', sse.url, '-f', 'json']);
    expect(r.stderr).toBe('');
    expect(essence(JSON.parse(r.stdout))).toEqual(essence(dumpReport));
  });

  it('--transport sse goes straight to SSE; --transport http does not fall back', async () => {
    const before = sse.requests.length;
    const ok = await runCli(['lint', '--url', sse.url, '--transport', 'sse', '-f', 'json']);
    expect(essence(JSON.parse(ok.stdout))).toEqual(essence(dumpReport));
    expect(sse.requests[before]).toMatchObject({ method: 'GET' });

    const no = await runCli(['lint', '--url', sse.url, '--transport', 'http']);
    expect(no.code).toBe(2);
    expect(no.stderr).toBe(`${sse.url}: HTTP 405 Method Not Allowed while waiting for the initialize response\n`);
  });
});

describe('snapshots', () => {
  it('dump writes a stable snapshot with sorted keys that lint reads back to the same findings', async () => {
    const dir = tempDir();
    const out = join(dir, 'snap', 'vocab.json');
    const a = await runCli(['dump', '--stdio', serverCommand('stdio-tools.mjs', VOCAB_FIXTURE, '2'), '-o', out]);
    expect(a).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const b = await runCli(['dump', streamable.url]);
    expect(b.code).toBe(0);
    const text = readFileSync(out, 'utf8');
    // Same server, either transport: the same bytes; "-o -" is stdout.
    expect(b.stdout).toBe(text);
    expect((await runCli(['dump', streamable.url, '-o', '-'], { cwd: dir })).stdout).toBe(text);
    expect(existsSync(join(dir, '-'))).toBe(false);
    const snap = JSON.parse(text);
    expect(Object.keys(snap)).toEqual(['capabilities', 'protocolVersion', 'serverInfo', 'tools']);
    expect(Object.keys(snap.tools[0])).toEqual([...Object.keys(snap.tools[0])].sort());
    expect(text).toBe(JSON.stringify(snap, null, 2) + '\n');
    expect(snap.serverInfo).toEqual(fixture.serverInfo);
    expect(snap.tools).toHaveLength(4);

    const back = await runCli(['lint', out, '-f', 'json']);
    const report = JSON.parse(back.stdout);
    expect(essence(report)).toEqual(essence(dumpReport));
    expect(report.findings.every((f: { file: string; line: number }) => f.file.endsWith('snap/vocab.json') && f.line > 0)).toBe(true);
  });

  it('lint --save-snapshots writes one file per server and SARIF points into them', async () => {
    const dir = tempDir();
    const r = await runCli(
      ['lint', '--stdio', serverCommand('stdio-tools.mjs', VOCAB_FIXTURE), '--url', streamable.url, '--save-snapshots', 'snaps', '-f', 'sarif', '-o', 'out.sarif', '-f', 'json'],
      { cwd: dir },
    );
    expect(r.code).toBe(1);
    // Two servers with the same serverInfo.name: two files, each announced, the second saying why it is not vocab-server.json.
    expect(readdirSync(join(dir, 'snaps')).sort()).toEqual(['vocab-server-2.json', 'vocab-server.json']);
    expect(r.stderr).toBe(
      `mcp-annotate: note: ${serverCommand('stdio-tools.mjs', VOCAB_FIXTURE)}: its snapshot is saved as snaps/vocab-server.json\n` +
        `mcp-annotate: note: ${streamable.url}: its snapshot is saved as snaps/vocab-server-2.json, not snaps/vocab-server.json (the snapshot of another server of this run)\n`,
    );
    const report = JSON.parse(r.stdout);
    expect(report.findings.every((f: { file: string }) => f.file.startsWith('snaps/vocab-server'))).toBe(true);
    const sarif = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8'));
    expect(validateSarif(sarif), JSON.stringify(validateSarif.errors)).toBe(true);
    const result = sarif.runs[0].results.find((x: { ruleId: string }) => x.ruleId === 'readonly-vs-outcome');
    const loc = result.locations[0];
    expect(loc.physicalLocation.artifactLocation.uri).toMatch(/^snaps\/vocab-server(-2)?\.json$/);
    expect(loc.logicalLocations).toEqual([
      { name: 'export_customers', fullyQualifiedName: 'vocab-server/export_customers', kind: 'function' },
      { name: 'vocab-server', fullyQualifiedName: 'vocab-server', kind: 'module' },
    ]);
    // The region is where the pointer's value sits in the snapshot file.
    const lines = readFileSync(join(dir, loc.physicalLocation.artifactLocation.uri), 'utf8').split('\n');
    expect(lines[loc.physicalLocation.region.startLine - 1]).toContain('"outcomes"');
  });

  it('a snapshot never writes over a file the run reads: a dump of the same name gets -2', async () => {
    const dump = JSON.stringify({ tools: [{ name: 'kept', inputSchema: { type: 'object' } }] });
    const dir = tempDir({ 'snaps/vocab-server.json': dump });
    const r = await runCli(['lint', 'snaps/vocab-server.json', '--stdio', serverCommand('stdio-tools.mjs', VOCAB_FIXTURE), '--save-snapshots', 'snaps', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(readFileSync(join(dir, 'snaps/vocab-server.json'), 'utf8')).toBe(dump);
    expect(readdirSync(join(dir, 'snaps')).sort()).toEqual(['vocab-server-2.json', 'vocab-server.json']);
    expect(r.stderr).toBe(
      `mcp-annotate: note: ${serverCommand('stdio-tools.mjs', VOCAB_FIXTURE)}: its snapshot is saved as snaps/vocab-server-2.json, not snaps/vocab-server.json (a file this run reads or one of its -o reports)\n`,
    );
    const files = new Set(JSON.parse(r.stdout).findings.map((f: { file: string }) => f.file));
    expect(files).toEqual(new Set(['snaps/vocab-server.json', 'snaps/vocab-server-2.json']));
  });

  it('a snapshot never writes over a client config that selected no server, nor takes the name of an -o report', async () => {
    const off = json({ mcpServers: { x: { command: 'no-such-program', disabled: true } } });
    const dir = tempDir({ 'snaps/vocab-server.json': off });
    const r = await runCli(['lint', '--mcp-config', 'snaps/vocab-server.json', '--stdio', serverCommand('stdio-tools.mjs', VOCAB_FIXTURE), '--save-snapshots', 'snaps', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(readFileSync(join(dir, 'snaps/vocab-server.json'), 'utf8')).toBe(off);
    expect(readdirSync(join(dir, 'snaps')).sort()).toEqual(['vocab-server-2.json', 'vocab-server.json']);

    const out = tempDir();
    const o = await runCli(['lint', '--stdio', serverCommand('stdio-tools.mjs', VOCAB_FIXTURE), '--save-snapshots', 'snaps', '-f', 'json', '-o', 'snaps/vocab-server.json'], { cwd: out });
    expect(o.code).toBe(1);
    expect(readdirSync(join(out, 'snaps')).sort()).toEqual(['vocab-server-2.json', 'vocab-server.json']);
    const report = JSON.parse(readFileSync(join(out, 'snaps/vocab-server.json'), 'utf8'));
    expect(new Set(report.findings.map((f: { file: string }) => f.file))).toEqual(new Set(['snaps/vocab-server-2.json']));
    expect(JSON.parse(readFileSync(join(out, 'snaps/vocab-server-2.json'), 'utf8'))).toMatchObject({ serverInfo: { name: 'vocab-server' } });
  });

  it('a snapshot or dump path that cannot be written is one line naming it; the other servers are still linted', async () => {
    const dir = tempDir({ afile: '' });
    const r = await runCli(['lint', '--stdio', serverCommand('stdio-tools.mjs', VOCAB_FIXTURE), '--save-snapshots', 'afile/snaps', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${serverCommand('stdio-tools.mjs', VOCAB_FIXTURE)}: cannot write its snapshot afile/snaps/vocab-server.json: part of its path is a file, not a directory\n`);
    expect(JSON.parse(r.stdout).summary).toMatchObject({ inputErrors: 1 });

    const d = await runCli(['dump', '--stdio', serverCommand('stdio-tools.mjs', VOCAB_FIXTURE), '-o', 'afile/vocab.json'], { cwd: dir });
    expect(d.code).toBe(2);
    expect(d.stderr).toBe('mcp-annotate: cannot write afile/vocab.json: part of its path is a file, not a directory\n');
  });

  it('without --save-snapshots, live findings carry logical locations only, and SARIF says code scanning will reject them', async () => {
    const r = await runCli(['lint', '--url', streamable.url, '-f', 'sarif']);
    const results = JSON.parse(r.stdout).runs[0].results;
    expect(results.length).toBeGreaterThan(0);
    for (const x of results) expect(x.locations[0].physicalLocation).toBeUndefined();
    expect(r.stderr).toContain(`mcp-annotate: warning: ${results.length} SARIF results have no file to point at (a live server), and GitHub code scanning rejects a SARIF file with such results ("expected a physical location"): lint live servers with --save-snapshots <dir>`);
    // Other formats, and SARIF with snapshots: no such warning.
    const json = await runCli(['lint', '--url', streamable.url, '-f', 'json']);
    expect(json.stderr).not.toContain('SARIF');
    const dir = tempDir();
    const saved = await runCli(['lint', '--url', streamable.url, '-f', 'sarif', '--save-snapshots', 'snaps'], { cwd: dir });
    expect(saved.stderr).not.toContain('SARIF');
    // stdin: the same, with what to do about it.
    const stdin = await runCli(['lint', '-', '-f', 'sarif', '-o', join(dir, 'stdin.sarif')], { input: readFileSync(VOCAB_FIXTURE, 'utf8') });
    expect(stdin.stderr).toMatch(/SARIF results? ha(s|ve) no file to point at \(stdin\).*save stdin to a file and lint the file/);
  });
});

describe('client config files', () => {
  it("snapshots of a config's servers record the entry name, so linting and diffing them later pairs with the config", async () => {
    const tools = (readOnly: boolean, info = 'fixture') => json({ serverInfo: { name: info, version: '1.0.0' }, tools: [tool('list_items', { readOnlyHint: readOnly, openWorldHint: false, ...(readOnly ? {} : { destructiveHint: true }) })] });
    const dir = tempDir({ 'good.json': tools(true), 'weak.json': tools(false), 'beta.json': tools(true, 'beta-server') });
    const config = (dump: string) => json({ mcpServers: { alpha: serverArgv('stdio-tools.mjs', join(dir, dump)), beta: serverArgv('stdio-tools.mjs', join(dir, 'beta.json')) } });
    writeFileSync(join(dir, '.mcp.json'), config('good.json'));
    const saved = await runCli(['lint', '--mcp-config', '.mcp.json', '--save-snapshots', 'snaps', '-f', 'json'], { cwd: dir });
    expect(saved.stderr).toBe('mcp-annotate: note: server "alpha": its snapshot is saved as snaps/alpha.json\nmcp-annotate: note: server "beta": its snapshot is saved as snaps/beta.json\n');
    expect(JSON.parse(readFileSync(join(dir, 'snaps', 'alpha.json'), 'utf8'))).toMatchObject({ configEntry: 'alpha', serverInfo: { name: 'fixture' } });
    const relinted = await runCli(['lint', 'snaps', '-f', 'json'], { cwd: dir });
    expect(JSON.parse(relinted.stdout).servers.map((s: { name: string }) => s.name)).toEqual(['alpha', 'beta']);
    // Snapshots saved before they recorded the entry (named by serverInfo.name) still pair with
    // the new ones by serverInfo.name: alpha's; beta's server has since changed its serverInfo.name.
    for (const [file, info] of [['alpha.json', 'fixture'], ['beta.json', 'other']] as const) {
      const old = JSON.parse(readFileSync(join(dir, 'snaps', file), 'utf8'));
      delete old.configEntry;
      old.serverInfo.name = info;
      mkdirSync(join(dir, 'old'), { recursive: true });
      writeFileSync(join(dir, 'old', file), json(old));
    }
    const migrated = await runCli(['diff', 'old', 'snaps', '-f', 'json'], { cwd: dir });
    expect((JSON.parse(migrated.stdout).findings as { ruleId: string; server: string }[]).map((f) => [f.ruleId, f.server]).sort()).toEqual([
      ['drift/tool-added', 'beta'],
      ['drift/tool-removed', 'other'],
    ]);
    // alpha's list_items is no longer read-only: diff pairs the snapshots with the config's servers by name.
    writeFileSync(join(dir, '.mcp.json'), config('weak.json'));
    const d = await runCli(['diff', 'snaps', '--mcp-config', '.mcp.json', '-f', 'json'], { cwd: dir });
    const drift = JSON.parse(d.stdout).findings as { ruleId: string; server: string }[];
    expect(drift.map((f) => [f.ruleId, f.server]).sort()).toEqual([['drift/destructive-added', 'alpha'], ['drift/readonly-removed', 'alpha']]);
    expect(d.code).toBe(1);
  });

  it('mcpServers: every enabled server, named by its entry, located at its entry; disabled ones noted', async () => {
    const dir = tempDir({
      '.cursor/mcp.json': json({
        mcpServers: {
          local: serverArgv('stdio-tools.mjs', VOCAB_FIXTURE),
          remote: { url: streamable.url },
          legacy: { type: 'sse', url: sse.url },
          gemini: { httpUrl: streamable.url },
          off: { ...serverArgv('misbehave.mjs', 'hang'), disabled: true },
        },
      }),
    });
    const r = await runCli(['lint', '--mcp-config', '.cursor/mcp.json', '-f', 'json', '-f', 'sarif', '-o', 'out.sarif'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('mcp-annotate: note: skipped "off" (.cursor/mcp.json): it is disabled\n');
    const report = JSON.parse(r.stdout);
    expect(report.servers.map((s: { name: string; source: string }) => [s.name, s.source])).toEqual([
      ['gemini', '.cursor/mcp.json › gemini'],
      ['legacy', '.cursor/mcp.json › legacy'],
      ['local', '.cursor/mcp.json › local'],
      ['remote', '.cursor/mcp.json › remote'],
    ]);
    const text = readFileSync(join(dir, '.cursor/mcp.json'), 'utf8').split('\n');
    const lineOf = (name: string) => text.findIndex((l) => l.includes(`"${name}":`)) + 1;
    for (const name of ['local', 'remote', 'legacy', 'gemini']) {
      // The four serve the same tools, so each also gets notes about the others' tool names.
      const mine = report.findings.filter((f: { server: string; ruleId: string }) => f.server === name && f.ruleId !== 'cross-server-name-collision');
      expect(essence({ findings: mine })).toEqual(essence(dumpReport));
      expect(new Set(mine.map((f: { file: string; line: number }) => `${f.file}:${f.line}`))).toEqual(new Set([`.cursor/mcp.json:${lineOf(name)}`]));
    }
    const sarif = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8'));
    expect(validateSarif(sarif), JSON.stringify(validateSarif.errors)).toBe(true);
    expect(validateJsonReport(report), JSON.stringify(validateJsonReport.errors)).toBe(true);
    const loc = sarif.runs[0].results[0].locations[0];
    expect(loc.physicalLocation.artifactLocation.uri).toBe('.cursor/mcp.json');
    expect(loc.logicalLocations.map((l: { kind: string }) => l.kind)).toEqual(['function', 'module']);

    const plain = await runCli(['lint', '--mcp-config', '.cursor/mcp.json', '--server', 'remote'], { cwd: dir });
    expect(plain.stdout).toContain(`remote .cursor/mcp.json › remote · 4 tools`);
    expect(plain.stdout).toContain(`.cursor/mcp.json:${lineOf('remote')}:`);
  });

  it('VS Code: ${input:…} needs --input; ${workspaceFolder} and ${env:…} resolve', async () => {
    const { command, args } = serverArgv('stdio-tools.mjs', '${workspaceFolder}/tools.json');
    const dir = tempDir({
      'tools.json': readFileSync(VOCAB_FIXTURE, 'utf8'),
      '.vscode/mcp.json': [
        '{',
        '  // VS Code allows comments',
        '  "inputs": [{ "type": "promptString", "id": "api-token", "description": "API token", "password": true }],',
        '  "servers": {',
        `    "files": { "type": "stdio", "command": ${JSON.stringify(command)}, "args": ${JSON.stringify(args)},`,
        '               "env": { "TOKEN": "${input:api-token}", "REQUIRE_TOKEN": "${env:EXPECTED}" } },',
        '  },',
        '}',
      ].join('\n'),
    });
    const missing = await runCli(['lint', '--mcp-config', '.vscode/mcp.json'], { cwd: dir, env: { EXPECTED: 'tok-123456789' } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      '.vscode/mcp.json:5:5: server "files": needs input "api-token" (API token) for env.TOKEN: inputs are prompted for by VS Code and cannot be answered here; pass it with --input api-token=VALUE',
    );
    const given = await runCli(['lint', '--mcp-config', '.vscode/mcp.json', '--input', 'api-token=tok-123456789', '-f', 'json'], { cwd: dir, env: { EXPECTED: 'tok-123456789' } });
    expect(given.stderr).toBe('');
    expect(essence(JSON.parse(given.stdout))).toEqual(essence(dumpReport));
    const wrong = await runCli(['lint', '--mcp-config', '.vscode/mcp.json', '--input', 'api-token=nope-nope-nope'], { cwd: dir, env: { EXPECTED: 'tok-123456789' } });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^\.vscode\/mcp\.json:5:5: server "files": the server exited with code 1 while waiting for the initialize response; its stderr ended with "stdio-tools: TOKEN is missing or wrong"\n$/);
  });

  it('opencode (command array, environment, remote) and Zed (context_servers; extensions skipped)', async () => {
    const { command, args } = serverArgv('stdio-tools.mjs', VOCAB_FIXTURE);
    const dir = tempDir({
      'opencode.json': json({
        $schema: 'https://opencode.ai/config.json',
        mcp: {
          local: { type: 'local', command: [command, ...args], environment: { REQUIRE_TOKEN: '{env:OC_TOKEN}', TOKEN: 'oc-token-1234' } },
          web: { type: 'remote', url: streamable.url },
          off: { type: 'local', command: ['nothing'], enabled: false },
        },
      }),
      '.zed/settings.json': json({
        theme: 'One Dark',
        context_servers: {
          modern: { source: 'custom', command, args },
          older: { command: { path: command, args } },
          ext: { source: 'extension', settings: {} },
        },
      }),
    });
    const oc = await runCli(['lint', '--mcp-config', 'opencode.json', '-f', 'json'], { cwd: dir, env: { OC_TOKEN: 'oc-token-1234' } });
    expect(oc.stderr).toBe('mcp-annotate: note: skipped "off" (opencode.json): it is disabled\n');
    expect(JSON.parse(oc.stdout).servers.map((s: { name: string }) => s.name)).toEqual(['local', 'web']);
    const zed = await runCli(['lint', '--mcp-config', '.zed/settings.json', '-f', 'json'], { cwd: dir });
    expect(zed.stderr).toBe('mcp-annotate: note: skipped "ext" (.zed/settings.json): it is provided by a Zed extension, which only Zed can start\n');
    expect(JSON.parse(zed.stdout).servers.map((s: { name: string }) => s.name)).toEqual(['modern', 'older']);
  });

  it("gives an opencode server the timeout of its entry, unless --timeout is given", async () => {
    const { command, args } = serverArgv('misbehave.mjs', 'hang');
    const dir = tempDir({ 'opencode.json': json({ mcp: { servers: { slow: { type: 'local', command: [command, ...args], timeout: { startup: 400, request: 300 } } } } }) });
    const own = await runCli(['lint', '--mcp-config', 'opencode.json'], { cwd: dir });
    expect(own.code).toBe(2);
    expect(own.stderr).toBe('opencode.json:4:7: server "slow": timed out after 0.7 s while waiting for the initialize response (the "timeout" of its config entry; --timeout overrides it)\n');
    const flag = await runCli(['lint', '--mcp-config', 'opencode.json', '--timeout', '1'], { cwd: dir });
    expect(flag.stderr).toBe('opencode.json:4:7: server "slow": timed out after 1 s while waiting for the initialize response (--timeout 1)\n');
  });

  it('on a real terminal (an unsized one, as under script), draws progress and clears it before the report', async () => {
    // `script` (util-linux) runs the command on a pseudo-terminal and copies what it shows.
    const { spawnSync } = await import('node:child_process');
    const { quote } = await import('shell-quote');
    const { BIN } = await import('../helpers/cli.js');
    const command = quote([process.execPath, BIN, 'lint', '--stdio', serverCommand('misbehave.mjs', 'slow-ok'), '--stdio', serverCommand('stdio-tools.mjs', VOCAB_FIXTURE), '--no-color']);
    const r = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, SLOW_MS: '300' }, timeout: 30_000 });
    expect(r.status, r.stderr).toBe(1);
    const shown = r.stdout;
    const frames = [...shown.matchAll(/\r\x1b\[2K(mcp-annotate: \d\/2 servers done[^\r\n]*)/g)].map((m) => m[1]);
    expect(frames[0]).toMatch(/^mcp-annotate: 0\/2 servers done · running: /);
    expect(frames).toContain('mcp-annotate: 2/2 servers done');
    // The last frame is wiped before anything else is written, and the report follows on a clean line.
    const wiped = shown.indexOf('\r\x1b[2K', shown.lastIndexOf('2/2 servers done'));
    expect(wiped).toBeGreaterThan(0);
    expect(shown.slice(wiped + 5)).toMatch(/^(vocab-server|misbehave-slow-ok) /);
    expect(shown).toMatch(/problems? \(\d+ errors?, \d+ warnings?, \d+ notes?\) in 2 servers/);
  });

  it('--concurrency past 10: twelve hanging servers run at once and time out together, one line each, no warning', async () => {
    // Servers that never answer, so that all twelve are running at once until the deadline.
    const entries = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`s${i}`, serverArgv('misbehave.mjs', 'hang')]));
    const dir = tempDir({ '.mcp.json': json({ mcpServers: entries }) });
    const started = Date.now();
    const r = await runCli(['lint', '--mcp-config', '.mcp.json', '--concurrency', '12', '--timeout', '2', '-f', 'json'], { cwd: dir });
    // One after another they would take 24 s.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n').filter(Boolean)).toHaveLength(12);
    expect(r.stderr).not.toContain('Warning');
  });

  it('--server names a server that does not exist: an error naming the ones that do', async () => {
    const dir = tempDir({ '.mcp.json': json({ mcpServers: { a: { url: streamable.url }, b: { url: sse.url } } }) });
    const r = await runCli(['lint', '--mcp-config', '.mcp.json', '--server', 'a,c', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('--server "c": no such server in the config files (servers: "a", "b")\n');
    expect(JSON.parse(r.stdout).servers.map((s: { name: string }) => s.name)).toEqual(['a']);
  });

  it('a config file that is not JSON, or holds no servers: one line with the position', async () => {
    const dir = tempDir({ 'bad.json': '{\n  "mcpServers": {\n    "a": { "url": }\n  }\n}\n', 'none.json': json({ theme: 'dark' }) });
    const r = await runCli(['lint', '--mcp-config', 'bad.json', '--mcp-config', 'none.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'bad.json:3:19: invalid JSON: expected a value\n' +
        'none.json: no MCP servers found: expected a "mcpServers", "servers" (VS Code), "mcp" (opencode) or "context_servers" (Zed) object\n',
    );
  });
});

describe('--discover', () => {
  it('lists the servers of known client configs with their files and starts nothing without --yes', async () => {
    const never = join(SERVERS, '..', 'never-written');
    const home = tempDir({
      '.cursor/mcp.json': json({ mcpServers: { 'user-server': serverArgv('misbehave.mjs', 'started', never) } }),
      // VS Code's user settings: JSON with comments, servers under "mcp" among other settings.
      '.config/Code/User/settings.json': `{\n  // editor\n  "editor.tabSize": 2,\n  "mcp": { "servers": ${JSON.stringify({ 'settings-server': { type: 'stdio', ...serverArgv('misbehave.mjs', 'started', never) } })} },\n}\n`,
    });
    const marker = join(home, 'started.pid');
    const project = tempDir({
      '.vscode/mcp.json': json({ servers: { 'project-server': { type: 'stdio', ...serverArgv('misbehave.mjs', 'started', marker) }, remote: { type: 'http', url: `${streamable.url}?key=abc` } } }),
      // Workspace settings without servers: read, nothing listed, no error.
      '.vscode/settings.json': json({ 'files.eol': '\n' }),
    });
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    const list = await runCli(['lint', '--discover'], { cwd: project, env });
    expect(list.code).toBe(0);
    expect(list.stderr).toBe('');
    expect(list.stdout).toBe(
      [
        `${home}/.cursor/mcp.json (Cursor, user)`,
        `  user-server  stdio  ${process.execPath}`,
        '.vscode/mcp.json (VS Code, project)',
        `  project-server  stdio  ${process.execPath}`,
        `  remote          http   ${streamable.url}`,
        `${home}/.config/Code/User/settings.json (VS Code, user)`,
        `  settings-server  stdio  ${process.execPath}`,
        '',
        '4 servers found. Nothing was started: add --yes to start them and lint their tools (--server NAME picks some).',
        '',
      ].join('\n'),
    );
    expect(existsSync(marker)).toBe(false);

    const run = await runCli(['lint', '--discover', '--yes', '--server', 'project-server', '-f', 'json'], { cwd: project, env });
    expect(run.stderr).toBe('');
    expect(existsSync(marker)).toBe(true);
    expect(JSON.parse(run.stdout).servers).toEqual([expect.objectContaining({ name: 'project-server', source: '.vscode/mcp.json › project-server' })]);
  });
});

describe('--discover, a server that cannot be started as written', () => {
  it('is listed with why (a VS Code input to give with --input), not turned into an error of the listing', async () => {
    const home = tempDir();
    const project = tempDir({
      '.vscode/mcp.json': json({ inputs: [{ id: 'tok', type: 'promptString', description: 'The token' }], servers: { tiny: { command: 'node', args: ['srv.mjs'], env: { T: '${input:tok}' } } } }),
    });
    const list = await runCli(['lint', '--discover'], { cwd: project, env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config') } });
    expect([list.code, list.stderr]).toEqual([0, '']);
    expect(list.stdout).toBe(
      [
        '.vscode/mcp.json (VS Code, project)',
        '  tiny  (cannot be started as written: needs input "tok" (The token) for env.T: inputs are prompted for by VS Code and cannot be answered here; pass it with --input tok=VALUE)',
        '',
        '1 server found (it cannot be started as written: give what it needs, as said above). Nothing was started.',
        '',
      ].join('\n'),
    );
  });
});

describe('targets and their problems', () => {
  it('file and live targets in one run, and a missing ${VAR}: an error for that target only', async () => {
    const r = await runCli(['lint', VOCAB_FIXTURE, '--url', streamable.url, '--stdio', `${serverCommand('stdio-tools.mjs', VOCAB_FIXTURE)} --token \${NOT_SET_ANYWHERE}`, '-f', 'json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/: environment variable NOT_SET_ANYWHERE is not set \(referenced as \$\{NOT_SET_ANYWHERE\} in --stdio\)\n$/);
    expect(JSON.parse(r.stdout).servers.map((s: { kind: string }) => s.kind).sort()).toEqual(['file', 'live']);
  });

  it('a # inside a --stdio word is passed to the server; a # starting a word starts a comment', async () => {
    const dir = tempDir();
    const r = await runCli(['dump', '--stdio', `${serverCommand('misbehave.mjs', 'started')} ${join(dir, 'pid#1')} #${join(dir, 'never')}`, '-o', join(dir, 'snap.json')]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readdirSync(dir).sort()).toEqual(['pid#1', 'snap.json']);
  });

  it('usage errors: options without the targets they apply to, shell operators, dump of several servers', async () => {
    expect((await runCli(['lint', 'x.json', '--header', 'A: b'])).stderr).toBe(
      'mcp-annotate: --header applies to --url servers, and there is none (headers of config servers come from their config file)\n',
    );
    const pipe = await runCli(['lint', '--stdio', 'cat x | node server.js']);
    expect(pipe).toMatchObject({ code: 2 });
    expect(pipe.stderr).toBe(`cat x | node server.js: --stdio runs one command without a shell, so "|" is not supported; to use a shell, write --stdio "sh -c '…'"\n`);
    const two = await runCli(['dump', '--url', streamable.url, '--url', sse.url]);
    expect(two.code).toBe(2);
    expect(two.stderr).toMatch(/^mcp-annotate: dump writes one server's snapshot, and 2 were given/);
    const bad = await runCli(['lint', '--url', 'ftp://example.invalid/x']);
    expect(bad.stderr).toBe('ftp://example.invalid/x: ftp://example.invalid/x is not an http:// or https:// URL (MCP over HTTP needs one)\n');
  });
});

describe('the MCP SDK loads lazily', () => {
  it('linting a file does not load it; a live server does', async () => {
    const { spawnSync } = await import('node:child_process');
    const { BIN } = await import('../helpers/cli.js');
    const trace = join(SERVERS, 'trace-sdk.mjs');
    const file = spawnSync(process.execPath, ['--import', trace, BIN, 'lint', VOCAB_FIXTURE, '--fail-on', 'none'], { encoding: 'utf8' });
    expect(file.stderr).toBe('');
    expect(file.status).toBe(0);
    const live = spawnSync(process.execPath, ['--import', trace, BIN, 'lint', '--fail-on', 'none', '--stdio', serverCommand('misbehave.mjs', 'ok')], { encoding: 'utf8' });
    expect(live.status, live.stderr).toBe(0);
    expect(live.stderr).toMatch(/loaded the MCP SDK: \/@modelcontextprotocol\/sdk\/dist\/(esm|cjs)\/client\/index.js/);
  });
});
