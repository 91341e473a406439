/**
 * What a snapshot keeps of what a live server said: numbers JSON.stringify cannot write
 * (1e400), and the files already in the directory it is saved to.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir, json } from '../helpers/cli.js';
import { serverCommand } from './helpers.js';
import { startHttpServer } from './servers/http.mjs';

interface Finding {
  ruleId: string;
  message: string;
  pointer: string;
  severity: string;
  tool: string | null;
  file: string | null;
  line: number | null;
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
    // Quoted as written (src/util/written.ts), not as JSON.parse read it (Infinity).
    expect(expected.join('\n')).toContain('got a number (1e400)');
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

  it('is quoted as the server wrote it: a live lint reads its raw response, a lint of its snapshot the snapshot\'s text', async () => {
    const written = '{"tools":[{"name":"big","description":"Reads a big value.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":1e999,"destructiveHint":12345678901234567890123,"idempotentHint":0.1000000000000000055511151231257827,"openWorldHint":1.0}}]}';
    const dir = tempDir({});
    const server = serverCommand('misbehave.mjs', 'raw-result', written);
    const messages = (stdout: string) => (JSON.parse(stdout).findings as Finding[]).filter((f) => f.ruleId === 'schema-valid').map((f) => f.message).sort();
    const asWritten = [
      'annotations.readOnlyHint must be a boolean, got a number (1e999)',
      'annotations.destructiveHint must be a boolean, got an integer (12345678901234567890123)',
      'annotations.idempotentHint must be a boolean, got a number (0.1000000000000000055511151231257827)',
      // 1.0 says what 1 says: quoted as before.
      'annotations.openWorldHint must be a boolean, got an integer (1)',
    ];
    for (const args of [[], ['--save-snapshots', 'snaps']]) {
      const live = await runCli(['lint', '--no-config', '--stdio', server, ...args, '-f', 'json'], { cwd: dir });
      expect(messages(live.stdout)).toEqual([...asWritten].sort());
    }
    // The snapshot holds the parsed listing, written so that it reads back as the same values: its own text is quoted.
    const relint = await runCli(['lint', '--no-config', 'snaps/misbehave-raw-result.json', '-f', 'json'], { cwd: dir });
    expect(messages(relint.stdout)).toEqual(
      [
        'annotations.readOnlyHint must be a boolean, got a number (1e400)',
        'annotations.destructiveHint must be a boolean, got an integer (1.2345678901234568e+22)',
        'annotations.idempotentHint must be a boolean, got a number (0.1)',
        'annotations.openWorldHint must be a boolean, got an integer (1)',
      ].sort(),
    );
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
  const result =
    '{"_meta":{"k":1},"_meta":{"k":1},"serverInfo":{"name":"x"},"serverInfo":{"name":"y"},"tools":[{"name":"delete_file","description":"Deletes a file.","inputSchema":{"type":"object"},' +
    '"annotations":{"readOnlyHint":false,"destructiveHint":true,"readOnlyHint":true},"_meta":{"a/b":{"n":1,"n":1.0}}}]}';

  it('is reported as in its raw response, at the places its snapshot gives them; its dump holds the parsed listing (the repeat gone)', async () => {
    const dir = tempDir({ 'raw.json': `${result}\n` });
    const server = serverCommand('misbehave.mjs', 'raw-result', result);
    const repeats = (stdout: string) =>
      (JSON.parse(stdout).findings as Finding[]).filter((f) => f.ruleId === 'duplicate-key').map((f) => ({ pointer: f.pointer, severity: f.severity, tool: f.tool, line: f.line, message: f.message }));
    const live = await runCli(['lint', '--no-config', '--stdio', server, '-f', 'json'], { cwd: dir });
    const found = repeats(live.stdout);
    expect(found.map((f) => [f.pointer, f.severity, f.tool])).toEqual([
      // The result's own _meta is kept at the snapshot's root; its serverInfo is not (initialize's is), so neither is its repeat.
      ['/_meta', 'warning', null],
      ['/tools/0/_meta/a~1b/n', 'warning', 'delete_file'],
      ['/tools/0/annotations/readOnlyHint', 'error', 'delete_file'],
    ]);
    expect(found[2]!.message).toContain('(first false, last true)');
    // With no snapshot file there is nothing to point into.
    expect(found.every((f) => f.line === null)).toBe(true);

    // Saved, the findings point into the snapshot, where each name stands once.
    const saved = await runCli(['lint', '--no-config', '--stdio', server, '--save-snapshots', 'snaps', '-f', 'json'], { cwd: dir });
    const inSnapshot = JSON.parse(saved.stdout).findings as Finding[];
    const readOnly = inSnapshot.find((f) => f.ruleId === 'duplicate-key' && f.pointer === '/tools/0/annotations/readOnlyHint')!;
    expect(readOnly.file).toMatch(/^snaps\//);
    const snapshotLines = readFileSync(join(dir, readOnly.file!), 'utf8').split('\n');
    expect(snapshotLines[readOnly.line! - 1]).toContain('"readOnlyHint": true');

    // The raw response as a file: the same repeats (and the one the snapshot leaves out).
    const file = repeats((await runCli(['lint', '--no-config', 'raw.json', '-f', 'json'], { cwd: dir })).stdout).map((f) => f.pointer);
    expect(file).toEqual(['/_meta', '/serverInfo', '/tools/0/annotations/readOnlyHint', '/tools/0/_meta/a~1b/n']);

    // A dump is the parsed listing: linting it later cannot see the repeats.
    const dumpRun = await runCli(['dump', '--stdio', server, '-o', 'dump.json'], { cwd: dir });
    expect(dumpRun.code).toBe(0);
    // …and says so.
    expect(dumpRun.stderr).toContain('its tools/list response gives a member name more than once ("_meta" in the tools/list result and 2 more); the snapshot holds the parsed listing');
    const dumped = JSON.parse((await runCli(['lint', '--no-config', 'dump.json', '-f', 'json'], { cwd: dir })).stdout).findings as Finding[];
    expect(dumped.map((f) => f.ruleId)).not.toContain('duplicate-key');
    const page = (await runCli(['explain', 'duplicate-key'], { cwd: dir })).stdout;
    expect(page).toContain('A live server');
    expect(page).toMatch(/dump\b[^.]*parsed/);
  });
});

describe('a live server whose initialize result gives a name twice', () => {
  it('is reported at the snapshot\'s member it fills (protocolVersion, serverInfo), not at what the snapshot leaves out', async () => {
    const init =
      '{"protocolVersion":"2024-11-05","protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"a","version":"1"},"serverInfo":{"name":"a","version":"1"},' +
      '"instructions":"x","instructions":"y"}';
    const dir = tempDir({});
    const server = serverCommand('misbehave.mjs', 'raw-init', init);
    const run = await runCli(['lint', '--no-config', '--stdio', server, '-f', 'json'], { cwd: dir });
    expect(run.stderr).toBe('');
    const found = (JSON.parse(run.stdout).findings as Finding[]).filter((f) => f.ruleId === 'duplicate-key');
    // The client took 2024-11-05 (a first-wins parser) or 2025-06-18 (JSON.parse): not the same to every client.
    expect(found.map((f) => [f.pointer, f.severity])).toEqual([
      ['/protocolVersion', 'error'],
      ['/serverInfo', 'warning'],
    ]);
    expect(found[0]!.message).toContain('"protocolVersion" is given twice in the initialize result, with different values');
    const dumpRun = await runCli(['dump', '--stdio', server, '-o', 'dump.json'], { cwd: dir });
    expect(dumpRun.stderr).toContain('its initialize and tools/list responses give a member name more than once ("protocolVersion" in the initialize result and 1 more)');

    // Over Streamable HTTP, from the response body the initialize result came in.
    const http = await startHttpServer({ mode: 'raw', rawInit: init, rawResult: '{"tools":[{"name":"a","inputSchema":{"type":"object"}}]}' });
    try {
      const overHttp = await runCli(['lint', '--no-config', '--url', http.url, '-f', 'json'], { cwd: dir });
      expect(overHttp.stderr).toBe('');
      expect((JSON.parse(overHttp.stdout).findings as Finding[]).filter((f) => f.ruleId === 'duplicate-key').map((f) => [f.pointer, f.severity])).toEqual([
        ['/protocolVersion', 'error'],
        ['/serverInfo', 'warning'],
      ]);
    } finally {
      await http.close();
    }
  });
});

describe('a live server over HTTP that gives a name twice', () => {
  const repeats = (stdout: string) => (JSON.parse(stdout).findings as Finding[]).filter((f) => f.ruleId === 'duplicate-key').map((f) => `${f.pointer} ${f.severity}`);

  it('is reported from a JSON body, an event and a batch alike, each tool at its place in the whole listing', async () => {
    const pages = [
      '{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"nextCursor":"1"}',
      '{"tools":[{"name":"b","inputSchema":{"type":"object"},"annotations":{"title":"T","title":"T"}},{"name":"c","inputSchema":{"type":"object"},"_meta":{"x":1,"x":2}}],"tools":[],' +
        '"tools":[{"name":"b","inputSchema":{"type":"object"},"annotations":{"title":"T","title":"T"}},{"name":"c","inputSchema":{"type":"object"},"_meta":{"x":1,"x":2}}]}',
    ];
    for (const rawAs of ['json', 'sse', 'batch']) {
      const server = await startHttpServer({ mode: 'raw', rawResult: pages, rawAs });
      try {
        const run = await runCli(['lint', '--no-config', '--url', server.url, '-f', 'json'], { cwd: tempDir({}) });
        expect(run.stderr, rawAs).toBe('');
        expect(repeats(run.stdout), rawAs).toEqual(['/tools error', '/tools/1/annotations/title warning', '/tools/2/_meta/x error']);
        const tools = (JSON.parse(run.stdout).findings as Finding[]).find((f) => f.pointer === '/tools')!;
        expect(tools.message).toContain('"tools" is given 3 times in the tools/list result of page 2, with different values');
      } finally {
        await server.close();
      }
    }
  });

  it('never shows a header value it echoes, in a name or a value given twice', async () => {
    const secret = 'tok-s3cr3t-value';
    const result = `{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"title":"${secret}","title":"other"},"_meta":{"${secret}":{"v":1,"v":2}}}]}`;
    const server = await startHttpServer({ mode: 'raw', rawResult: result, token: secret });
    try {
      const args = ['lint', '--no-config', '--url', server.url, '--header', `Authorization: Bearer ${secret}`];
      const asJson = await runCli([...args, '-f', 'json'], { cwd: tempDir({}) });
      expect(repeats(asJson.stdout)).toEqual(['/tools/0/_meta/***/v error', '/tools/0/annotations/title error']);
      const title = (JSON.parse(asJson.stdout).findings as Finding[]).find((f) => f.pointer === '/tools/0/annotations/title')!;
      expect(title.message).toContain('(first "***", last "other")');
      for (const format of ['text', 'sarif', 'markdown', 'github']) {
        const run = await runCli([...args, '-f', format], { cwd: tempDir({}) });
        expect(run.stdout + run.stderr, format).not.toContain('s3cr3t');
      }
      expect(asJson.stdout + asJson.stderr).not.toContain('s3cr3t');
    } finally {
      await server.close();
    }
  });
});
