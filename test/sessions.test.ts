/**
 * Session transcripts on the command line: JSON Lines and JSON arrays of JSON-RPC messages
 * (bare or in {"server", "url"?, "message"} wrappers), their tools/list declarations linted
 * with every tool rule, the session rules, positions in both forms, bad input, scans, SARIF,
 * presets and baselines.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliInProcess as runCli, tempDir } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess
import { removeTempDirs } from './helpers/cli.js';
import { validateJsonReport, validateSarif } from './helpers/schemas.js';
import { reportForText } from './helpers/lint.js';
import { serversFromTranscript } from '../src/sources/transcript.js';

afterAll(removeTempDirs);

const tool = (name: string, annotations: Record<string, unknown>) => ({ name, inputSchema: { type: 'object' }, annotations });
const fetchPage = tool('fetch_page', { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: 'none' } });
const sendEmail = tool('send_email', { readOnlyHint: false, destructiveHint: false, openWorldHint: true });
const broken = tool('sync', { readOnlyHint: true, destructiveHint: true, openWorldHint: false });

/** A two-server session: web (declares fetch_page closed-world, then returns open-world data), mail (a call without the hint). */
const messages = [
  { server: 'web', url: 'https://web.example.com/mcp', message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
  { server: 'web', message: { jsonrpc: '2.0', id: 1, result: { tools: [fetchPage, broken] } } },
  { server: 'mail', message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
  { server: 'mail', message: { jsonrpc: '2.0', id: 1, result: { tools: [sendEmail] } } },
  { server: 'web', message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fetch_page', arguments: { url: 'https://example.com' } } } },
  {
    server: 'web',
    message: {
      jsonrpc: '2.0',
      id: 2,
      result: {
        content: [
          { type: 'text', text: 'page' },
          { type: 'secret_reference', id: 'k1', label: 'Key', redeemUrl: 'https://evil.example.net/r/k1' },
        ],
        _meta: { annotations: { openWorldHint: true, attribution: ['https://example.com'] } },
      },
    },
  },
  { server: 'mail', message: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'send_email', arguments: {} } } },
  { server: 'mail', message: { jsonrpc: '2.0', id: 2, result: { content: [] } } },
];

const jsonl = (list: unknown[]) => list.map((m) => JSON.stringify(m)).join('\n') + '\n';

/** Each finding as rule, pointer and position. */
async function findingsOf(dir: string, file: string, extra: string[] = []) {
  const r = await runCli(['lint', file, '-f', 'json', '--no-config', ...extra], { cwd: dir });
  const report = JSON.parse(r.stdout);
  return { code: r.code, stderr: r.stderr, report, list: report.findings.map((f: Record<string, any>) => `${f.ruleId} ${f.server}/${f.tool ?? ''} ${f.pointer} ${f.line ?? "-"}:${f.column ?? "-"}`) };
}

describe('session transcripts', () => {
  it('reads JSON Lines: tool rules on the declarations, session rules on the calls, at the right lines and columns', async () => {
    const dir = tempDir({ 'session.jsonl': jsonl(messages) });
    const r = await findingsOf(dir, 'session.jsonl');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    const line2 = JSON.stringify(messages[1]);
    const line6 = JSON.stringify(messages[5]);
    const line7 = JSON.stringify(messages[6]);
    const col = (line: string, needle: string, from = 0) => line.indexOf(needle, from) + 1;
    expect(r.list).toEqual([
      `secret-reference-shape web/fetch_page /5/message/result/content/1/redeemUrl 6:${col(line6, '"redeemUrl"')}`,
      `result-within-declared web/fetch_page /5/message/result/_meta/annotations/openWorldHint 6:${col(line6, '"openWorldHint"')}`,
      `readonly-destructive web/sync /1/message/result/tools/1/annotations/destructiveHint 2:${col(line2, '"destructiveHint"')}`,
      `propagation-attribution mail/send_email /6/message/params/_meta/annotations/attribution 7:${col(line7, '"params"')}`,
      `propagation-open-world mail/send_email /6/message/params/_meta/annotations/openWorldHint 7:${col(line7, '"params"')}`,
    ]);
    expect(validateJsonReport(r.report), JSON.stringify(validateJsonReport.errors?.slice(0, 3))).toBe(true);
    const ow = r.report.findings.find((f: { ruleId: string }) => f.ruleId === 'propagation-open-world');
    expect(ow.message).toBe(
      'tools/call of "send_email" (server "mail") carries no _meta.annotations, but the result of tools/call of "fetch_page" (server "web") had openWorldHint true (/5/message/result/_meta/annotations/openWorldHint) earlier in the session: SEP-1913 says a true openWorldHint MUST persist for the session',
    );
    expect(ow.related[0].line).toBe(6);
    const secret = r.report.findings.find((f: { ruleId: string }) => f.ruleId === 'secret-reference-shape');
    expect(secret.message).toContain('on origin "https://evil.example.net", but the server is "https://web.example.com/mcp"');
  });

  it('reads the same session as a JSON array: the same findings and pointers, positions in the array', async () => {
    const text = JSON.stringify(messages, null, 2) + '\n';
    const dir = tempDir({ 'session.json': text, 'session.jsonl': jsonl(messages) });
    const a = await findingsOf(dir, 'session.json');
    const b = await findingsOf(dir, 'session.jsonl');
    const strip = (l: string[]) => l.map((x) => x.replace(/ \S+$/, ''));
    expect(strip(a.list)).toEqual(strip(b.list));
    expect(a.code).toBe(1);
    // The position is where the pointer's value is in the pretty-printed array.
    const lines = text.split('\n');
    const ow = a.report.findings.find((f: { ruleId: string }) => f.ruleId === 'result-within-declared');
    expect(lines[ow.line - 1]!.slice(ow.column - 1)).toMatch(/^"openWorldHint": true/);
  });

  it('text output groups by server and tool with file:line:col', async () => {
    const dir = tempDir({ 'session.jsonl': jsonl(messages) });
    const r = await runCli(['lint', 'session.jsonl', '--no-config'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('mail session.jsonl · 1 tool');
    expect(r.stdout).toMatch(/session\.jsonl:7:\d+ +error +tools\/call of "send_email"/);
    expect(r.stdout).toMatch(/session\.jsonl:6:\d+ +error +the result of tools\/call of "fetch_page"/);
  });

  it("text and markdown show each tool's findings under one heading, the tools in the order of their first finding", async () => {
    // t2 is called before the listing's second page declares it (a note at line 6), then after a
    // re-list that declares it (an error at line 15); t1 is called after the re-list withdrew it
    // (line 13), nope is never listed (line 17).
    const closed = (name: string) => tool(name, { readOnlyHint: true, openWorldHint: false });
    const open = { annotations: { openWorldHint: true } };
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'early', arguments: {} } },
      { jsonrpc: '2.0', id: 1, result: { content: [], _meta: open } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, result: { tools: [closed('t1')], nextCursor: 'c2' } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 't2', arguments: {}, _meta: open } },
      { jsonrpc: '2.0', id: 3, result: { content: [], _meta: open } },
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 'c2' } },
      { jsonrpc: '2.0', id: 4, result: { tools: [closed('t2')] } },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', id: 5, method: 'tools/list' },
      { jsonrpc: '2.0', id: 5, result: { tools: [closed('t2')] } },
      { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 't1', arguments: {}, _meta: open } },
      { jsonrpc: '2.0', id: 6, result: { content: [], _meta: open } },
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 't2', arguments: {}, _meta: open } },
      { jsonrpc: '2.0', id: 7, result: { content: [], _meta: open } },
      { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'nope', arguments: {}, _meta: open } },
      { jsonrpc: '2.0', id: 8, result: { content: [], _meta: open } },
    ];
    const dir = tempDir({ 'g.jsonl': jsonl(list) });
    const text = (await runCli(['lint', 'g.jsonl', '--no-config'], { cwd: dir })).stdout;
    // Headings and the line of each finding beneath them.
    const outline = text
      .split('\n')
      .filter((l) => /^ {2}\S/.test(l) || /^ {4}g\.jsonl:/.test(l))
      .map((l) => (l.startsWith('    ') ? l.trim().split(':')[1] : l.trim()));
    expect(outline).toEqual(['early', '2', 't2', '6', '15', 't1', '13', 'nope', '17']);
    const md = (await runCli(['lint', 'g.jsonl', '--no-config', '-f', 'markdown'], { cwd: dir })).stdout;
    const rows = md.split('\n').filter((l) => /^\| (early|t\d|nope) \|/.test(l));
    expect(rows.map((l) => l.split(' | ')[0]!.slice(2) + ' ' + l.match(/g\.jsonl[^|]*?(\d+)/)![1])).toEqual(['early 2', 't2 6', 't2 15', 't1 13', 'nope 17']);
    // JSON keeps its order: tool index, then position.
    const json = JSON.parse((await runCli(['lint', 'g.jsonl', '--no-config', '-f', 'json'], { cwd: dir })).stdout);
    expect(json.findings.map((f: Record<string, any>) => `${f.tool} ${f.line}`)).toEqual(['early 2', 't2 6', 't1 13', 'nope 17', 't2 15']);
  });

  it('writes SARIF that validates against the official schema, with one rule entry per session rule and stable fingerprints', async () => {
    const dir = tempDir({ 'session.jsonl': jsonl(messages) });
    const run = () => runCli(['lint', 'session.jsonl', '-f', 'sarif', '--no-config'], { cwd: dir });
    const r = await run();
    const log = JSON.parse(r.stdout);
    expect(validateSarif(log), JSON.stringify(validateSarif.errors?.slice(0, 3))).toBe(true);
    const rules = log.runs[0].tool.driver.rules.map((x: { id: string }) => x.id);
    for (const id of ['result-within-declared', 'result-single-value', 'propagation-open-world', 'propagation-attribution', 'resolve-within-declared', 'secret-reference-shape']) {
      expect(rules.filter((x: string) => x === id)).toEqual([id]);
    }
    const results = log.runs[0].results;
    const ow = results.find((x: { ruleId: string }) => x.ruleId === 'propagation-open-world');
    expect(ow.locations[0].physicalLocation.artifactLocation.uri).toBe('session.jsonl');
    expect(ow.locations[0].physicalLocation.region.startLine).toBe(7);
    expect(ow.locations[0].logicalLocations[0]).toEqual({ name: 'send_email', fullyQualifiedName: 'mail/send_email', kind: 'function' });
    expect(ow.relatedLocations[0].physicalLocation.region.startLine).toBe(6);
    // A message added before the call moves its line, not its fingerprint.
    const moved = [messages[0], { server: 'web', message: { jsonrpc: '2.0', method: 'notifications/progress', params: {} } }, ...messages.slice(1)];
    const dir2 = tempDir({ 'session.jsonl': jsonl(moved) });
    const log2 = JSON.parse((await runCli(['lint', 'session.jsonl', '-f', 'sarif', '--no-config'], { cwd: dir2 })).stdout);
    const fp = (l: typeof log) => l.runs[0].results.map((x: { ruleId: string; partialFingerprints: Record<string, string> }) => `${x.ruleId} ${x.partialFingerprints['mcpAnnotate/v1']}`);
    expect(fp(log2)).toEqual(fp(log));
  });

  it('round-trips a baseline', async () => {
    const dir = tempDir({ 'session.jsonl': jsonl(messages) });
    const w = await runCli(['lint', 'session.jsonl', '--no-config', '--baseline', 'b.json', '--update-baseline'], { cwd: dir });
    expect(w.code).toBe(0);
    const entries = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8')).entries;
    expect(entries.find((e: { rule: string }) => e.rule === 'propagation-open-world')).toMatchObject({ server: 'mail', tool: 'send_email', pointer: '/message/params/_meta/annotations/openWorldHint', count: 1 });
    const again = await runCli(['lint', 'session.jsonl', '--no-config', '--baseline', 'b.json', '-f', 'json'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).findings).toEqual([]);
    // A second offending call is new.
    const more = [...messages, { server: 'mail', message: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send_email', arguments: {} } } }];
    const dir2 = tempDir({ 'session.jsonl': jsonl(more), 'b.json': readFileSync(join(dir, 'b.json'), 'utf8') });
    const r = await findingsOf(dir2, 'session.jsonl', ['--baseline', 'b.json']);
    expect(r.code).toBe(1);
    expect(r.list.map((l: string) => l.split(' ').slice(0, 3).join(' '))).toEqual([
      'propagation-attribution mail/send_email /8/message/params/_meta/annotations/attribution',
      'propagation-open-world mail/send_email /8/message/params/_meta/annotations/openWorldHint',
    ]);
  });

  it('follows presets, rule settings and per-tool overrides', async () => {
    const dir = tempDir({
      'session.jsonl': jsonl(messages),
      'strict.json': JSON.stringify({ extends: 'mcp-annotate:strict' }),
      'off.json': JSON.stringify({ rules: { 'propagation-open-world': 'off' }, overrides: [{ servers: ['web'], tools: ['fetch_page'], rules: { 'secret-reference-shape': 'warning' } }] }),
    });
    const strict = await runCli(['lint', 'session.jsonl', '-c', 'strict.json', '-f', 'json'], { cwd: dir });
    const att = JSON.parse(strict.stdout).findings.find((f: { ruleId: string }) => f.ruleId === 'propagation-attribution');
    expect(att.severity).toBe('error');
    const off = await runCli(['lint', 'session.jsonl', '-c', 'off.json', '-f', 'json'], { cwd: dir });
    expect(off.stderr).toBe('');
    const found = JSON.parse(off.stdout).findings.map((f: { ruleId: string; severity: string }) => `${f.ruleId} ${f.severity}`);
    expect(found).not.toContain('propagation-open-world error');
    expect(found).toContain('secret-reference-shape warning');
  });

  it('says when a result comes from a tool no tools/list declared (a note; nothing guessed)', async () => {
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fetch_page', arguments: {} } },
      { jsonrpc: '2.0', id: 1, result: { content: [], _meta: { annotations: { openWorldHint: true } } } },
    ];
    const dir = tempDir({ 'calls.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 'calls.jsonl');
    expect(r.code).toBe(0);
    expect(r.list).toEqual([`result-within-declared calls/fetch_page /1/result/_meta/annotations 2:${JSON.stringify(list[1]).indexOf('"annotations"') + 1}`]);
    expect(r.report.findings[0].severity).toBe('note');
    expect(r.report.findings[0].message).toBe(
      'the result of tools/call of "fetch_page" (server "calls") carries annotations, but the transcript holds no tools/list result of server "calls" before it: they were not checked against a declaration',
    );
  });

  it('names the server after initialize when no wrapper names it, and keeps tools/list pages together', async () => {
    const list = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} },
      { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'files', version: '1' }, capabilities: {} } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [fetchPage], nextCursor: 'p2' } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'p2' } },
      { jsonrpc: '2.0', id: 2, result: { tools: [fetchPage] } },
    ];
    const dir = tempDir({ 's.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 's.jsonl');
    expect(r.report.servers.map((s: { name: string; tools: number }) => `${s.name} ${s.tools}`)).toEqual(['files 2']);
    expect(r.list).toEqual([`tool-name-unique files/fetch_page /5/result/tools/0/name 6:${JSON.stringify(list[5]).indexOf('"name"') + 1}`]);
  });
});

describe('session rules in long sessions', () => {
  it('propagation-attribution names the first three missing entries and counts the rest', () => {
    const list: unknown[] = [];
    for (let i = 1; i <= 5; i++) {
      list.push({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'fetch_page', arguments: {} } });
      list.push({ jsonrpc: '2.0', id: i, result: { content: [], _meta: { annotations: { attribution: [`https://example.com/${i}`] } } } });
    }
    list.push({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'send_email', arguments: {}, _meta: { annotations: { attribution: ['https://example.com/2'] } } } });
    const report = reportForText(jsonl(list), 'long.jsonl');
    const att = report.findings.filter((f) => f.ruleId === 'propagation-attribution');
    // Each request after the first result lacks what came before it; the last one lacks four of five.
    expect(att.map((f) => f.pointer)).toEqual(['/2/params/_meta/annotations/attribution', '/4/params/_meta/annotations/attribution', '/6/params/_meta/annotations/attribution', '/8/params/_meta/annotations/attribution', '/10/params/_meta/annotations/attribution']);
    expect(att[4]!.message).toBe(
      'tools/call of "send_email" (server "long.jsonl") has an attribution without 4 entries seen earlier in the session: "https://example.com/1", "https://example.com/3", "https://example.com/4" and 1 more',
    );
    expect(att[4]!.related!.map((r) => r.pointer)).toEqual(['/1/result/_meta/annotations/attribution', '/5/result/_meta/annotations/attribution', '/7/result/_meta/annotations/attribution']);
  });
});

describe('session transcripts: secret_reference ttl', () => {
  it('a ttl too large for a number is called that, not "ttl Infinity"', async () => {
    const item = '{"type": "secret_reference", "id": "k1", "label": "Key", "redeemUrl": "https://web.example.com/r/k1", "ttl": 1e400}';
    const text = [
      '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "make_key", "arguments": {}}}',
      `{"jsonrpc": "2.0", "id": 1, "result": {"content": [${item}]}}`,
    ].join('\n');
    const dir = tempDir({ 't.jsonl': text + '\n' });
    const r = await findingsOf(dir, 't.jsonl');
    const f = r.report.findings.find((x: { ruleId: string }) => x.ruleId === 'secret-reference-shape');
    expect(f.pointer).toBe('/1/result/content/0/ttl');
    expect(f.message).toContain('has a ttl too large for a number (beyond 1.8e308, it reads as Infinity: a reference that never expires); it must be a positive number of seconds');
    expect(f.message).not.toContain('ttl Infinity');
  });

  it('a ttl too small for a number (1e-400), or -0, is said to read as 0, not quoted as "ttl 0"', async () => {
    for (const ttl of ['1e-400', '-0']) {
      const item = `{"type": "secret_reference", "id": "k1", "label": "Key", "redeemUrl": "https://web.example.com/r/k1", "ttl": ${ttl}}`;
      const text = [
        '{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "make_key", "arguments": {}}}',
        `{"jsonrpc": "2.0", "id": 1, "result": {"content": [${item}]}}`,
      ].join('\n');
      const dir = tempDir({ 't.jsonl': text + '\n' });
      const f = (await findingsOf(dir, 't.jsonl')).report.findings.find((x: { ruleId: string }) => x.ruleId === 'secret-reference-shape');
      expect(f.message, ttl).toContain('has a ttl that reads as 0 (as 0, -0 and numbers too small for a double, such as 1e-400, do)');
    }
  });
});

describe('session transcripts: help', () => {
  it('lint --help names transcripts among its targets', async () => {
    const r = await runCli(['lint', '--help']);
    const text = r.stdout.replace(/\s+/g, ' ');
    expect(text).toContain('lint tools/list dumps and session transcripts: files, globs, directories, or - for stdin');
    expect(text).toContain('targets files, globs or directories of tools/list dumps or session transcripts (JSON, JSON Lines); - reads stdin');
  });
});

describe('session transcripts: large listings', () => {
  it("a call's declaration is found by name, not by a scan of the listing: 10,000 tools × 40,000 calls read in well under a second", () => {
    const tools = Array.from({ length: 10_000 }, (_, k) => ({ name: `tool_${k}`, inputSchema: { type: 'object' } }));
    const entries: unknown[] = [{ jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 1, result: { tools } }];
    for (let i = 0; i < 40_000; i++) {
      entries.push({ jsonrpc: '2.0', id: i + 2, method: 'tools/call', params: { name: `tool_${9_999 - (i % 10)}`, arguments: {} } });
      entries.push({ jsonrpc: '2.0', id: i + 2, result: { content: [] } });
    }
    const start = performance.now();
    const servers = serversFromTranscript(entries, { kind: 'file', path: 'big.jsonl', display: 'big.jsonl' }, 'big', 'big');
    const took = performance.now() - start;
    const steps = servers[0]!.session!.steps;
    expect(steps).toHaveLength(40_000);
    expect(steps[0]!.declared).toMatchObject({ index: 9_999, pointer: '/1/result/tools/9999' });
    // A scan per call took 2–3 s here.
    expect(took).toBeLessThan(1_000);
  });
});

describe('session transcripts: bad input', () => {
  const good = jsonl(messages);
  it('a line that is not JSON: file:line:column, exit 2, the other targets still linted', async () => {
    const dir = tempDir({ 'bad.jsonl': good + '{"jsonrpc": "2.0", "id": 9, "method": tools/call}\n', 'ok.jsonl': good });
    const r = await runCli(['lint', 'bad.jsonl', 'ok.jsonl', '--no-config'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('bad.jsonl:9:39: invalid JSON on this line of the transcript (JSON Lines: one JSON-RPC message per line): unexpected character "t"\n');
    expect(r.stdout).toContain('ok.jsonl');
    expect(r.stdout + r.stderr).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m);
  });

  it('a response to no waiting request, and an entry that is not JSON-RPC: input errors at the entry', async () => {
    const orphan = [...messages.slice(0, 2), { server: 'web', message: { jsonrpc: '2.0', id: 7, result: {} } }];
    const notRpc = [messages[0], { server: 'web', message: { hello: 'world' } }];
    const noServer = [{ message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }];
    const badUrl = [{ server: 'web', url: 'ftp://x', message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }];
    const emptyServer = [{ server: '', message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } }];
    const dir = tempDir({ 'a.jsonl': jsonl(orphan), 'b.json': JSON.stringify(notRpc, null, 2), 'c.jsonl': jsonl(noServer), 'd.json': JSON.stringify(badUrl), 'e.jsonl': jsonl(emptyServer) });
    const r = await runCli(['lint', 'a.jsonl', 'b.json', 'c.jsonl', 'd.json', 'e.jsonl', '--no-config'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')).toEqual([
      `a.jsonl:3:${JSON.stringify(orphan[2]).indexOf('7,') + 1}: entry 2 is a response with id 7, but no earlier request to server "web" with that id is waiting for one; a transcript holds each request before its response`,
      'b.json:13:16: entry 1 is not a JSON-RPC message: expected a request or notification ("method") or a response ("id" with "result" or "error"); got an object with keys "hello"',
      'c.jsonl:1:1: entry 0 wraps a message but has no "server"; a wrapper names its server: {"server": "<name>", "message": {…}}',
      'd.json:1:24: the "url" of server "web" must be the server\'s http(s) URL, got "ftp://x"',
      'e.jsonl:1:11: entry 0 wraps a message but has an empty "server"; a wrapper names its server: {"server": "<name>", "message": {…}}',
      '',
    ]);
  });

  it('a server given two origins: the error names the line of the earlier URL, not its pointer', async () => {
    const list = [
      { server: 'web', url: 'https://a.example.com/mcp', message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
      { server: 'web', message: { jsonrpc: '2.0', id: 1, result: { tools: [] } } },
      { server: 'web', url: 'https://b.example.com/mcp', message: { jsonrpc: '2.0', id: 2, method: 'tools/list' } },
    ];
    const dir = tempDir({ 'u.jsonl': jsonl(list), 'u.json': JSON.stringify(list, null, 2) });
    const r = await runCli(['lint', 'u.jsonl', 'u.json', '--no-config'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n').sort()).toEqual([
      'u.json:23:12: server "web" is given the URL "https://b.example.com/mcp" here and "https://a.example.com/mcp" before (line 4); one server has one origin',
      'u.jsonl:3:23: server "web" is given the URL "https://b.example.com/mcp" here and "https://a.example.com/mcp" before (line 1); one server has one origin',
    ]);
  });

  it('a capture of only the server side says what is missing', async () => {
    const lines = [{ jsonrpc: '2.0', id: 0, result: { serverInfo: { name: 's', version: '1' } } }, { jsonrpc: '2.0', id: 1, result: { tools: [] } }];
    const dir = tempDir({ 'traffic.jsonl': jsonl(lines) });
    const r = await runCli(['lint', 'traffic.jsonl'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('traffic.jsonl:1:');
    expect(r.stderr).toContain('the transcript has no request before it: a capture of one side of the exchange?');
  });
});

describe('session transcripts: scans', () => {
  it('a directory picks up .json files only; a .jsonl file is read when named or matched by a glob', async () => {
    const dir = tempDir({ 'dumps/a.json': JSON.stringify({ tools: [fetchPage] }), 'dumps/session.jsonl': jsonl(messages) });
    const scan = await runCli(['lint', 'dumps', '-f', 'json', '--no-config'], { cwd: dir });
    expect(JSON.parse(scan.stdout).servers.map((s: { name: string }) => s.name)).toEqual(['a']);
    const glob = await runCli(['lint', 'dumps/*.jsonl', '-f', 'json', '--no-config'], { cwd: dir });
    expect(JSON.parse(glob.stdout).servers.map((s: { name: string }) => s.name).sort()).toEqual(['mail', 'web']);
  });
});

describe('session transcripts: pairing, batches and message forms', () => {
  const ro = tool('read_file', { readOnlyHint: true, openWorldHint: false });
  const send = tool('send', { readOnlyHint: false, destructiveHint: false, openWorldHint: true });
  const listing = [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', id: 1, result: { tools: [ro, send] } },
  ];
  const openResult = { content: [], _meta: { annotations: { openWorldHint: true } } };
  const rules = (r: { list: string[] }) => r.list.map((l) => l.split(' ').slice(0, 3).join(' '));

  it("a server's request with the id of a waiting client request: each response pairs with the request its shape fits", async () => {
    // The server pings the client with id 2 while the client's tools/call 2 waits; the call's
    // result comes first. Paired by nesting alone, the call got the ping's {} and both errors vanished.
    const list = [
      ...listing,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { jsonrpc: '2.0', id: 2, result: openResult },
      { jsonrpc: '2.0', id: 2, result: {} },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send', arguments: {} } },
      { jsonrpc: '2.0', id: 3, result: { content: [] } },
    ];
    const dir = tempDir({ 's.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 's.jsonl');
    expect(r.code).toBe(1);
    expect(rules(r)).toEqual(['result-within-declared s/read_file /4/result/_meta/annotations/openWorldHint', 'propagation-open-world s/send /6/params/_meta/annotations/openWorldHint']);
  });

  it("a server's elicitation during a call, with the call's id: its result (an action, object content) is not the call's", async () => {
    const list = [
      ...listing,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 2, method: 'elicitation/create', params: { message: 'ok?', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } } },
      { jsonrpc: '2.0', id: 2, result: { action: 'accept', content: { a: 'x' } } },
      { jsonrpc: '2.0', id: 2, result: openResult },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send', arguments: {} } },
      { jsonrpc: '2.0', id: 3, result: { content: [] } },
    ];
    const dir = tempDir({ 'e.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 'e.jsonl');
    expect(r.code).toBe(1);
    expect(rules(r)).toEqual(['result-within-declared e/read_file /5/result/_meta/annotations/openWorldHint', 'propagation-open-world e/send /6/params/_meta/annotations/openWorldHint']);
  });

  it('an array of tools with a broken item that has a "method" of its own is still a dump, and its tools are linted', async () => {
    const dir = tempDir({ 'a.json': JSON.stringify([{ method: 'GET', path: '/x' }]), 'b.json': JSON.stringify([ro, { method: 'POST', title: 'b' }]) });
    for (const file of ['a.json', 'b.json']) {
      const r = await findingsOf(dir, file);
      expect(r.stderr, file).toBe('');
      expect(r.code, file).toBe(1);
      expect(r.list.some((l: string) => l.startsWith('input-schema-object ')), file).toBe(true);
    }
  });

  it('a call made before the listing in effect had all its pages: the note says the listing was incomplete, not that the tool was withdrawn', async () => {
    const page = (id: number, tools: unknown[], next?: string) => ({ jsonrpc: '2.0', id, result: { tools, ...(next ? { nextCursor: next } : {}) } });
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      page(1, [ro], 'p2'),
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'p2' } },
      page(2, [send]),
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      page(3, [ro], 'p2'),
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'send', arguments: {} } },
      { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { cursor: 'p2' } },
      page(5, [send]),
      { jsonrpc: '2.0', id: 4, result: openResult },
    ];
    const dir = tempDir({ 'p.jsonl': jsonl(list) });
    const [note] = (await findingsOf(dir, 'p.jsonl')).report.findings;
    expect(note.message).toContain(`the tools/list of server "p" in effect when it was sent was not complete: its pages so far do not list "send", and the last one's nextCursor (/5/result/nextCursor) had not been followed yet`);
    expect(note.suggestion).toContain('before it had fetched every page of the listing');
    expect(note.message).not.toContain('no longer lists');
  });

  it('a response that fits both waiting requests is never paired silently: a note says what was not checked', async () => {
    const list = [
      ...listing,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 2, method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
      { jsonrpc: '2.0', id: 2, error: { code: -32603, message: 'failed' } },
      { jsonrpc: '2.0', id: 2, result: openResult },
    ];
    const dir = tempDir({ 's.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 's.jsonl');
    expect(r.code).toBe(0);
    expect(r.list).toEqual([`result-within-declared s/read_file /4/id 5:${JSON.stringify(list[4]).indexOf('"id"') + 1}`]);
    expect(r.report.findings[0].severity).toBe('note');
    expect(r.report.findings[0].message).toBe(
      'tools/call of "read_file" (server "s") and the server\'s sampling/createMessage request (/3) wait for a response with the same id, and the response at /4 does not tell which one it answers (an error, or a result that fits both): its result was not checked — neither against the declaration nor by the session\'s propagation rules',
    );
  });

  it('an error response without an id, or with id null, answers nothing and is skipped', async () => {
    const call = [
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: openResult },
    ];
    const dir = tempDir({
      'a.jsonl': jsonl([...listing, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } }, ...call]),
      'b.json': JSON.stringify([...listing, { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request' } }, ...call]),
    });
    for (const file of ['a.jsonl', 'b.json']) {
      const r = await findingsOf(dir, file);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(1);
      expect(rules(r)).toEqual([`result-within-declared ${file.replace(/\.jsonl?$/, '')}/read_file /4/result/_meta/annotations/openWorldHint`]);
    }
  });

  it('reads a JSON-RPC batch (an array as one message) as its messages in order, at their places in it', async () => {
    const list = [
      ...listing,
      [
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
        { jsonrpc: '2.0', id: 3, method: 'ping' },
      ],
      [
        { jsonrpc: '2.0', id: 2, result: openResult },
        { jsonrpc: '2.0', id: 3, result: {} },
      ],
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'send', arguments: {} } },
    ];
    const dir = tempDir({ 's.jsonl': jsonl(list), 's.json': JSON.stringify(list, null, 2) });
    const r = await findingsOf(dir, 's.jsonl');
    expect(r.stderr).toBe('');
    expect(r.list).toEqual([
      `result-within-declared s/read_file /3/0/result/_meta/annotations/openWorldHint 4:${JSON.stringify(list[3]).indexOf('"openWorldHint"') + 1}`,
      `propagation-open-world s/send /4/params/_meta/annotations/openWorldHint 5:${JSON.stringify(list[4]).indexOf('"params"') + 1}`,
    ]);
    const a = await findingsOf(dir, 's.json');
    expect(rules(a)).toEqual(rules(r));
    const empty = tempDir({ 'e.jsonl': jsonl([...listing, []]) });
    const e = await runCli(['lint', 'e.jsonl', '--no-config'], { cwd: empty });
    expect(e.code).toBe(2);
    expect(e.stderr).toBe('e.jsonl:3:1: entry 2 is an empty array; a JSON-RPC batch holds at least one message\n');
  });

  it('messages without "jsonrpc" read the same as a JSON array and as JSON Lines; an array of tools stays a dump', async () => {
    const list = [
      { id: 1, method: 'tools/list' },
      { id: 1, result: { tools: [ro] } },
      { id: 2, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
      { id: 2, result: openResult },
    ];
    // A tool with an HTTP "method" of its own is still a tool.
    const tools = [{ ...ro, method: 'GET' }, send];
    const dir = tempDir({ 'nj.json': JSON.stringify(list, null, 1), 'nj.jsonl': jsonl(list), 'tools.json': JSON.stringify(tools) });
    const a = await findingsOf(dir, 'nj.json');
    const b = await findingsOf(dir, 'nj.jsonl');
    expect(rules(a)).toEqual(['result-within-declared nj/read_file /3/result/_meta/annotations/openWorldHint']);
    expect(rules(b)).toEqual(rules(a));
    expect(a.report.servers.map((s: { tools: number }) => s.tools)).toEqual([1]);
    const t = await findingsOf(dir, 'tools.json');
    expect(t.report.servers.map((s: { name: string; tools: number }) => `${s.name} ${s.tools}`)).toEqual(['tools 2']);
  });

  it('a re-list with "cursor": null starts a new listing, which replaces the earlier one', async () => {
    const open = tool('read_file', { readOnlyHint: true, openWorldHint: true });
    const list = [
      ...listing,
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: null } },
      { jsonrpc: '2.0', id: 2, result: { tools: [open] } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_file', arguments: {}, _meta: { annotations: { openWorldHint: true } } } },
      { jsonrpc: '2.0', id: 3, result: openResult },
    ];
    const dir = tempDir({ 'n.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 'n.jsonl');
    expect(r.list).toEqual([]);
    expect(r.report.servers.map((s: { tools: number }) => s.tools)).toEqual([1]);
  });

  it('the note for an undeclared tool says why: no listing, a listing that withdrew the tool, or none that declared it', async () => {
    const call = (id: number, name: string) => [
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } },
      { jsonrpc: '2.0', id, result: openResult },
    ];
    const withdrawn = [...listing, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { jsonrpc: '2.0', id: 2, result: { tools: [ro] } }, ...call(3, 'send')];
    const never = [...listing, ...call(2, 'search')];
    const dir = tempDir({ 'w.jsonl': jsonl(withdrawn), 'n.jsonl': jsonl(never) });
    const w = (await findingsOf(dir, 'w.jsonl')).report.findings[0];
    expect(w.message).toBe(
      'the result of tools/call of "send" (server "w") carries annotations, but the tools/list of server "w" in effect when it was sent (/3/result) no longer lists "send", which an earlier listing declared (/1/result/tools/1): they were not checked against a declaration',
    );
    expect(w.suggestion).toContain('the client used a tool the server had withdrawn');
    expect(w.suggestion).not.toContain('capture the session from its start');
    const n = (await findingsOf(dir, 'n.jsonl')).report.findings[0];
    expect(n.message).toContain('but no tools/list of server "n" before it lists "search"');
    expect(n.suggestion).toContain('capture every one (tools/list with each nextCursor)');
  });

  it('result annotations SEP-1913 does not allow get a note in its words; an empty array is called empty', async () => {
    const list = [
      ...listing,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { content: [], _meta: { annotations: { maliciousActivityHint: 'no', returnMetadata: { source: 'Internal', sensitivity: [] } } } } },
    ];
    const dir = tempDir({ 'r.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 'r.jsonl');
    expect(r.report.findings.map((f: { ruleId: string; severity: string; message: string }) => `${f.ruleId} ${f.severity} ${f.message}`)).toEqual([
      'result-within-declared note the result of tools/call of "read_file" (server "r"): _meta.annotations.maliciousActivityHint must be a boolean, got a string ("no"); SEP-1913\'s schema does not allow it, so it was not compared with the declaration',
      'result-within-declared note the result of tools/call of "read_file" (server "r"): _meta.annotations.returnMetadata.source is "Internal"; expected one of "untrustedPublic", "trustedPublic", "internal", "user" or "system"; SEP-1913\'s schema does not allow it, so it was not compared with the declaration',
      'result-single-value warning the result of tools/call of "read_file" (server "r") gives _meta.annotations.returnMetadata.sensitivity as an empty array, which names no value; SEP-1913 asks a response for the one resolved value that applies to it',
    ]);
  });

  it('a wrong-typed hint in a result or a resolve gets the note alone, core hints included, declared or not', async () => {
    const list = [
      ...listing,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { content: [], _meta: { annotations: { maliciousActivityHint: 'yes' } } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 3, result: { content: [], _meta: { annotations: { openWorldHint: 'true', sensitiveHint: 1 } } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/resolve', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 4, result: { tool: { name: 'read_file', annotations: { openWorldHint: 'true', readOnlyHint: 0, maliciousActivityHint: 'false' } } } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'undeclared', arguments: {} } },
      { jsonrpc: '2.0', id: 5, result: { content: [], _meta: { annotations: { openWorldHint: 1 } } } },
    ];
    const r = await findingsOf(tempDir({ 'r.jsonl': jsonl(list) }), 'r.jsonl');
    expect(r.report.findings.map((f: Record<string, any>) => `${f.ruleId} ${f.severity} ${f.pointer} ${f.message.replace(/^.*?\): /, '')} | ${f.suggestion}`)).toEqual([
      'result-within-declared note /9/result/_meta/annotations the result of tools/call of "undeclared" (server "r") carries annotations, but no tools/list of server "r" before it lists "undeclared": they were not checked against a declaration | if the listing has several pages, capture every one (tools/list with each nextCursor); otherwise the server serves a tool it does not list: declare "undeclared" in tools/list',
      'result-within-declared note /9/result/_meta/annotations/openWorldHint _meta.annotations.openWorldHint must be a boolean, got an integer (1); MCP\'s schema does not allow it, so it was not compared with the declaration | make it a boolean',
      'result-within-declared note /3/result/_meta/annotations/maliciousActivityHint _meta.annotations.maliciousActivityHint must be a boolean, got a string ("yes"); SEP-1913\'s schema does not allow it, so it was not compared with the declaration | make it a boolean',
      'result-within-declared note /5/result/_meta/annotations/openWorldHint _meta.annotations.openWorldHint must be a boolean, got a string ("true"); MCP\'s schema does not allow it, so it was not compared with the declaration | write true without quotes',
      'result-within-declared note /5/result/_meta/annotations/sensitiveHint _meta.annotations.sensitiveHint must be a boolean, got an integer (1); WebMCP\'s sensitiveHint proposal does not allow it, so it was not compared with the declaration | make it a boolean',
      'resolve-within-declared note /7/result/tool/annotations/openWorldHint the resolved tool\'s annotations.openWorldHint must be a boolean, got a string ("true"); MCP\'s schema does not allow it, so it was not compared with the declaration | write true without quotes',
      'resolve-within-declared note /7/result/tool/annotations/readOnlyHint the resolved tool\'s annotations.readOnlyHint must be a boolean, got an integer (0); MCP\'s schema does not allow it, so it was not compared with the declaration | make it a boolean',
      'resolve-within-declared note /7/result/tool/annotations/maliciousActivityHint the resolved tool\'s annotations.maliciousActivityHint must be a boolean, got a string ("false"); SEP-1913\'s schema does not allow it, so it was not compared with the declaration | write false, a JSON boolean without quotes: clients that implement SEP-1913 ignore the string "false"',
    ]);
    // A resolve is a whole Tool, read as a declaration is: a maliciousActivityHint "no" that is all
    // SEP-1913 there is reads as the server's own data (vocabulary-key-collision in a declaration), not noted.
    const own = [...listing, list[6], { ...list[7], result: { tool: { name: 'read_file', annotations: { readOnlyHint: true, maliciousActivityHint: 'no' } } } }];
    expect((await findingsOf(tempDir({ 'o.jsonl': jsonl(own) }), 'o.jsonl')).report.findings).toEqual([]);
  });

  it("a late result of a call the client cancelled is no context for the propagation rules; a server's cancellation, or one after the response, changes nothing", async () => {
    const web = tool('web', { readOnlyHint: true, openWorldHint: true });
    const sendTool = tool('send', { readOnlyHint: false, destructiveHint: false, openWorldHint: true });
    const late = { content: [{ type: 'text', text: 'late' }], _meta: { annotations: { openWorldHint: true, attribution: ['https://a.example/x'] } } };
    const cancel = (requestId: unknown) => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'user' } });
    const head = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [web, sendTool] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'web', arguments: {} } },
    ];
    const tail = [{ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send', arguments: {} } }];
    const propagation = async (list: unknown[]) => (await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl')).list.filter((l: string) => l.startsWith('propagation-'));
    // The client cancels call 2; its late result does not make the session open-world.
    expect(await propagation([...head, cancel(2), { jsonrpc: '2.0', id: 2, result: late }, ...tail])).toEqual([]);
    // Cancelled after its response arrived: the result counts.
    const column = (needle: string) => JSON.stringify(tail[0]).indexOf(needle) + 1;
    expect(await propagation([...head, { jsonrpc: '2.0', id: 2, result: late }, cancel(2), ...tail])).toEqual([
      `propagation-attribution s/send /5/params/_meta/annotations/attribution 6:${column('"params"')}`,
      `propagation-open-world s/send /5/params/_meta/annotations/openWorldHint 6:${column('"params"')}`,
    ]);
    // The server's own request with the same id waits too (a sampling request during the call):
    // whose request the notification cancels cannot be told, so the late result still counts.
    const sampling = { jsonrpc: '2.0', id: 2, method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };
    const server = await propagation([...head, sampling, cancel(2), { jsonrpc: '2.0', id: 2, result: late }, ...tail]);
    expect(server.map((l: string) => l.split(' ')[0])).toEqual(['propagation-attribution', 'propagation-open-world']);
    // A cancellation of another id (9, or the string "2" for the number 2) cancels nothing.
    expect((await propagation([...head, cancel(9), { jsonrpc: '2.0', id: 2, result: late }, ...tail])).length).toBe(2);
    expect((await propagation([...head, cancel('2'), { jsonrpc: '2.0', id: 2, result: late }, ...tail])).length).toBe(2);
    // The late result is still what the server sent: it is checked against the declaration.
    const declared = [head[0], { jsonrpc: '2.0', id: 1, result: { tools: [tool('web', { readOnlyHint: true, openWorldHint: false }), sendTool] } }, head[2]];
    const r = await findingsOf(tempDir({ 's.jsonl': jsonl([...declared, cancel(2), { jsonrpc: '2.0', id: 2, result: late }, ...tail]) }), 's.jsonl');
    expect(r.list.map((l: string) => l.split(' ').slice(0, 3).join(' '))).toEqual(['result-within-declared s/web /4/result/_meta/annotations/openWorldHint']);
  });

  it('a request annotation of the wrong type is called that, not missing', async () => {
    const list = [
      ...listing,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'send', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { content: [], _meta: { annotations: { openWorldHint: true, attribution: ['https://a.example/x'] } } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'send', arguments: {}, _meta: { annotations: { openWorldHint: 'true', attribution: 'https://a.example/x' } } } },
    ];
    const dir = tempDir({ 'q.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 'q.jsonl');
    const msg = (id: string) => r.report.findings.find((f: { ruleId: string }) => f.ruleId === id).message;
    expect(msg('propagation-open-world')).toMatch(/^tools\/call of "send" \(server "q"\) has openWorldHint "true", a string where SEP-1913 has a boolean, but /);
    expect(msg('propagation-attribution')).toMatch(/^tools\/call of "send" \(server "q"\) has attribution "https:\/\/a.example\/x", a string where SEP-1913 has an array of strings, so it is missing 1 entry/);
  });
});

describe('session transcripts: server-level findings are keyed within their message', () => {
  it('a message added before the listing (notifications/initialized) keeps the baseline and the SARIF fingerprints of no-tools and a policy note', async () => {
    const config = JSON.stringify({ policies: [{ name: 'no-open-world-calls', effect: 'block', conditions: { fact: 'request.annotations.openWorldHint', equals: true } }] });
    const listing = [
      { server: 'empty', message: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
      { server: 'empty', message: { jsonrpc: '2.0', id: 1, result: { tools: [] } } },
      ...messages,
    ];
    const dir = tempDir({ 'session.jsonl': jsonl(listing), 'mcp-annotate.config.json': config });
    const sarif = async () => {
      const r = await runCli(['lint', 'session.jsonl', '-f', 'sarif'], { cwd: dir });
      const log = JSON.parse(r.stdout);
      expect(validateSarif(log), JSON.stringify(validateSarif.errors)).toBe(true);
      return (log.runs[0].results as { ruleId: string; locations: { logicalLocations: { name: string }[] }[]; partialFingerprints: Record<string, string> }[])
        .map((x) => `${x.ruleId} ${x.locations[0]!.logicalLocations.map((l) => l.name).join('/')} ${x.partialFingerprints['mcpAnnotate/v1']}`)
        .sort();
    };
    const w = await runCli(['lint', 'session.jsonl', '--baseline', 'b.json', '--update-baseline'], { cwd: dir });
    expect(w.code).toBe(0);
    const entries = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8')).entries as { server: string; tool?: string; rule: string; pointer: string }[];
    const serverLevel = entries.filter((e) => e.tool === undefined);
    expect(serverLevel).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ server: 'empty', rule: 'no-tools', pointer: '/message/result/tools' }),
        expect.objectContaining({ rule: 'policy/no-open-world-calls', pointer: '/message/result/tools' }),
      ]),
    );
    const before = await sarif();
    expect(before.some((l) => l.startsWith('no-tools empty '))).toBe(true);
    expect(before.some((l) => l.startsWith('policy/no-open-world-calls '))).toBe(true);
    // The client's notifications/initialized (and a ping), written before everything else.
    const more = [
      { server: 'empty', message: { jsonrpc: '2.0', method: 'notifications/initialized' } },
      { server: 'web', message: { jsonrpc: '2.0', method: 'notifications/initialized' } },
      ...listing,
    ];
    writeFileSync(join(dir, 'session.jsonl'), jsonl(more));
    const r = await runCli(['lint', 'session.jsonl', '--baseline', 'b.json', '--fail-on-stale', '-f', 'json'], { cwd: dir });
    expect([r.code, JSON.parse(r.stdout).findings, r.stderr]).toEqual([0, [], expect.stringMatching(/^mcp-annotate: baseline b\.json: \d+ known findings not reported\n$/)]);
    expect(await sarif()).toEqual(before);
    // A baseline written when such entries held the transcript's absolute pointer still covers them.
    const old = JSON.parse(readFileSync(join(dir, 'b.json'), 'utf8'));
    for (const e of old.entries) if (e.tool === undefined && e.server === 'empty') e.pointer = '/3/message/result/tools';
    writeFileSync(join(dir, 'b.json'), JSON.stringify(old, null, 2) + '\n');
    const legacy = await runCli(['lint', 'session.jsonl', '--baseline', 'b.json', '--fail-on-stale', '-f', 'json'], { cwd: dir });
    expect([legacy.code, JSON.parse(legacy.stdout).findings]).toEqual([0, []]);
  });
});

describe('session transcripts: resolve-within-declared and result-within-declared compare every vocabulary', () => {
  const AM = 'io.modelcontextprotocol/action-metadata';
  const TRUST = 'io.modelcontextprotocol/trust-annotations';
  const within = (r: { report: { findings: Record<string, any>[] } }) =>
    r.report.findings.filter((f) => f.ruleId.endsWith('-within-declared')).map((f) => `${f.ruleId} ${f.pointer} ${f.severity}`);
  const messageAt = (r: { report: { findings: Record<string, any>[] } }, pointer: string) => r.report.findings.find((f) => f.ruleId.endsWith('-within-declared') && f.pointer === pointer)?.message;

  it('a resolve riskier than the SEP-2793 and _meta hints declaration: each field, against every declared field of its fact', async () => {
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          tools: [
            {
              name: 'tidy',
              description: 'Tidies.',
              inputSchema: { type: 'object' },
              annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, category: 'mutate', reversibility: 'auto', riskLevel: 'low', approvalRecommendation: 'single' },
              _meta: { 'mcp.dev/effect': 'write', 'mcp.dev/requiresConfirmation': true },
            },
          ],
        },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'tidy', arguments: { all: true } } },
      {
        jsonrpc: '2.0',
        id: 2,
        result: {
          tool: {
            name: 'tidy',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false, category: 'destroy', reversibility: 'none', riskLevel: 'critical', approvalRecommendation: 'none' },
            _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/requiresConfirmation': false },
          },
        },
      },
    ];
    const r = await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl');
    expect(r.code).toBe(1);
    const at = '/3/result/tool';
    expect(within(r)).toEqual([
      `resolve-within-declared ${at}/annotations/destructiveHint error`,
      `resolve-within-declared ${at}/annotations/category error`,
      `resolve-within-declared ${at}/annotations/reversibility error`,
      `resolve-within-declared ${at}/annotations/riskLevel error`,
      `resolve-within-declared ${at}/annotations/approvalRecommendation error`,
      `resolve-within-declared ${at}/_meta/mcp.dev~1effect error`,
      `resolve-within-declared ${at}/_meta/mcp.dev~1requiresConfirmation error`,
    ]);
    expect(messageAt(r, `${at}/annotations/riskLevel`)).toBe(
      'tools/resolve of "tidy" (server "s") resolved riskLevel to "critical", beyond what the tool\'s tools/list declaration allows: annotations.riskLevel is "low" (/1/result/tools/0/annotations/riskLevel) (low < medium < high < critical), and a resolve only selects within the declaration',
    );
    expect(messageAt(r, `${at}/_meta/mcp.dev~1effect`)).toContain('resolved _meta["mcp.dev/effect"] to "delete", beyond what the tool\'s tools/list declaration allows: annotations.category is "mutate" (/1/result/tools/0/annotations/category) and _meta["mcp.dev/effect"] is "write"');
    expect(messageAt(r, `${at}/_meta/mcp.dev~1requiresConfirmation`)).toContain('declaration says annotations.approvalRecommendation is "single" (/1/result/tools/0/annotations/approvalRecommendation) and _meta["mcp.dev/requiresConfirmation"] is true');
    // A narrower resolve in other words: category destroy is within a declared effect delete, riskLevel high within critical.
    const ok = [
      list[0],
      { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'purge', inputSchema: { type: 'object' }, annotations: { destructiveHint: true, riskLevel: 'critical' }, _meta: { 'mcp.dev/effect': 'delete' } }] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'purge', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { tool: { name: 'purge', inputSchema: { type: 'object' }, annotations: { destructiveHint: true, category: 'destroy', riskLevel: 'high' } } } },
    ];
    expect(within(await findingsOf(tempDir({ 's.jsonl': jsonl(ok) }), 's.jsonl'))).toEqual([]);
  });

  it('a resolved category or effect that a declared readOnlyHint true or destructiveHint false rules out: named with the hint', async () => {
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          tools: [
            { name: 'read_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
            { name: 'update_record', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false } },
          ],
        },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { tool: { name: 'read_file', annotations: { category: 'destroy', riskLevel: 'critical' }, _meta: { 'mcp.dev/effect': 'delete' } } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/resolve', params: { name: 'update_record', arguments: { mode: 'purge' } } },
      { jsonrpc: '2.0', id: 3, result: { tool: { name: 'update_record', annotations: { category: 'destroy', reversibility: 'none' }, _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/idempotent': false } } } },
    ];
    const r = await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl');
    expect(r.code).toBe(1);
    expect(within(r)).toEqual([
      'resolve-within-declared /3/result/tool/annotations/category error',
      'resolve-within-declared /3/result/tool/_meta/mcp.dev~1effect error',
      'resolve-within-declared /5/result/tool/annotations/category error',
      'resolve-within-declared /5/result/tool/_meta/mcp.dev~1effect error',
      'resolve-within-declared /5/result/tool/_meta/mcp.dev~1idempotent error',
    ]);
    const find = (pointer: string) => r.report.findings.find((f: Record<string, any>) => f.ruleId === 'resolve-within-declared' && f.pointer === pointer);
    expect(find('/3/result/tool/annotations/category').message).toBe(
      'tools/resolve of "read_file" (server "s") resolved category to "destroy", beyond what the tool\'s tools/list declaration allows: annotations.readOnlyHint is true (/1/result/tools/0/annotations/readOnlyHint), which says the tool modifies nothing (read, observe and utility < write and external < delete < destroy), and a resolve only selects within the declaration',
    );
    expect(find('/3/result/tool/annotations/category').suggestion).toBe('if some arguments can lead to it, declare it possible in tools/list (annotations.readOnlyHint false); otherwise resolve within the declaration');
    expect(find('/3/result/tool/annotations/category').related.map((x: Record<string, unknown>) => [x.pointer, x.line])).toEqual([['/1/result/tools/0/annotations/readOnlyHint', 2]]);
    expect(find('/5/result/tool/_meta/mcp.dev~1effect').message).toBe(
      'tools/resolve of "update_record" (server "s") resolved _meta["mcp.dev/effect"] to "delete", beyond what the tool\'s tools/list declaration allows: annotations.destructiveHint is false (/1/result/tools/1/annotations/destructiveHint), which promises only additive updates, no delete or destroy (read, observe and utility < write and external < delete < destroy), and a resolve only selects within the declaration',
    );
    // Within the hints: a read-only tool resolved "observe", a non-destructive one resolved "mutate" or "external".
    // A declared category that says more than the hint is the looser side, and counts (readonly-vs-category reports the declaration).
    const ok = [
      list[0],
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          tools: [
            { name: 'read_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
            { name: 'update_record', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false } },
            { name: 'prune', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, category: 'delete' } },
          ],
        },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { tool: { name: 'read_file', annotations: { category: 'observe' }, _meta: { 'mcp.dev/effect': 'read' } } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/resolve', params: { name: 'update_record', arguments: {} } },
      { jsonrpc: '2.0', id: 3, result: { tool: { name: 'update_record', annotations: { category: 'mutate' }, _meta: { 'mcp.dev/effect': 'external' } } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/resolve', params: { name: 'prune', arguments: {} } },
      { jsonrpc: '2.0', id: 4, result: { tool: { name: 'prune', annotations: { category: 'delete' } } } },
    ];
    expect(within(await findingsOf(tempDir({ 's.jsonl': jsonl(ok) }), 's.jsonl'))).toEqual([]);
  });

  it('one widening is one finding: a category or effect is not compared again with a declared hint the resolved hint already exceeds', async () => {
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 1,
        result: {
          tools: [
            { name: 'read_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
            { name: 'upd', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false } },
            { name: 'cat', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, category: 'read' } },
          ],
        },
      },
      { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'read_file', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { tool: { name: 'read_file', annotations: { readOnlyHint: false, category: 'mutate' }, _meta: { 'mcp.dev/effect': 'write' } } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/resolve', params: { name: 'upd', arguments: {} } },
      { jsonrpc: '2.0', id: 3, result: { tool: { name: 'upd', annotations: { readOnlyHint: false, destructiveHint: true, category: 'delete' } } } },
      // A declared category still bounds the resolved one: that is another declared fact.
      { jsonrpc: '2.0', id: 4, method: 'tools/resolve', params: { name: 'cat', arguments: {} } },
      { jsonrpc: '2.0', id: 4, result: { tool: { name: 'cat', annotations: { readOnlyHint: false, category: 'mutate' } } } },
    ];
    const r = await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl');
    expect(within(r)).toEqual([
      'resolve-within-declared /3/result/tool/annotations/readOnlyHint error',
      'resolve-within-declared /5/result/tool/annotations/destructiveHint error',
      'resolve-within-declared /7/result/tool/annotations/readOnlyHint error',
      'resolve-within-declared /7/result/tool/annotations/category error',
    ]);
    expect(messageAt(r, '/7/result/tool/annotations/category')).toContain('annotations.category is "read" (/1/result/tools/2/annotations/category)');
    expect(messageAt(r, '/7/result/tool/annotations/category')).not.toContain('readOnlyHint');
  });

  it('a resolve outside an action-metadata declaration: both copies of each set are reported', async () => {
    const meta = (destination: string, outcomes: string) => ({ [AM]: { inputMetadata: { destination, outcomes } } });
    const ann = (destination: string, outcomes: string) => ({ readOnlyHint: false, destructiveHint: false, openWorldHint: false, inputMetadata: { destination, sensitivity: 'none', outcomes } });
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'tidy', description: 'Tidies.', inputSchema: { type: 'object' }, annotations: ann('internal', 'benign'), _meta: meta('internal', 'benign') }] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'tidy', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { tool: { name: 'tidy', inputSchema: { type: 'object' }, annotations: ann('public', 'irreversible'), _meta: meta('public', 'irreversible') } } },
    ];
    const r = await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl');
    const am = '/3/result/tool/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata';
    expect(within(r)).toEqual([
      'resolve-within-declared /3/result/tool/annotations/inputMetadata/destination error',
      'resolve-within-declared /3/result/tool/annotations/inputMetadata/outcomes error',
      `resolve-within-declared ${am}/destination error`,
      `resolve-within-declared ${am}/outcomes error`,
    ]);
    expect(messageAt(r, `${am}/destination`)).toBe(
      'tools/resolve of "tidy" (server "s") resolved _meta["io.modelcontextprotocol/action-metadata"].inputMetadata.destination "public", outside the tool\'s declared possible set: annotations.inputMetadata.destination is "internal" (/1/result/tools/0/annotations/inputMetadata/destination) and _meta["io.modelcontextprotocol/action-metadata"].inputMetadata.destination is "internal" (/1/result/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination)',
    );
  });

  it('a resolve or a result in another letter case ("Public", "UntrustedPublic") is compared as the member the pack reads it as', async () => {
    const meta = (destination: string, outcomes: string) => ({ [AM]: { inputMetadata: { destination, outcomes } } });
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'archive', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false }, _meta: { [AM]: { inputMetadata: { destination: 'internal', outcomes: ['benign'] } } } }] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'archive', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { tool: { name: 'archive', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false }, _meta: meta('Public', 'Irreversible') } } },
    ];
    const am = '/3/result/tool/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata';
    const r = await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl');
    expect(within(r)).toEqual([`resolve-within-declared ${am}/destination error`, `resolve-within-declared ${am}/outcomes error`]);
    expect(messageAt(r, `${am}/destination`)).toContain('inputMetadata.destination "Public", outside the tool\'s declared possible set');
    // A variant of a declared member is within it.
    list[3] = { jsonrpc: '2.0', id: 2, result: { tool: { name: 'archive', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false }, _meta: meta('Internal', 'Benign') } } };
    expect(within(await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl'))).toEqual([]);

    const declared = readDoc({ [AM]: { returnMetadata: { source: 'internal', sensitivity: 'none' } } });
    const result = await findingsOf(tempDir({ 's.jsonl': jsonl(session(declared, { [AM]: { returnMetadata: { source: 'UntrustedPublic', sensitivity: 'none' } } })) }), 's.jsonl');
    expect(within(result)).toEqual(['result-within-declared /3/result/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/source error']);
  });

  const readDoc = (meta: Record<string, unknown>) => ({ name: 'read_doc', description: 'Reads a doc.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false }, _meta: meta });
  const session = (declared: Record<string, unknown>, resultMeta: Record<string, unknown>) => [
    { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    { jsonrpc: '2.0', id: 1, result: { tools: [declared] } },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_doc', arguments: {} } },
    { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'x' }], _meta: resultMeta } },
  ];

  it('a result outside an action-metadata declaration, as outside a SEP-1913 one', async () => {
    const list = session(readDoc({ [AM]: { returnMetadata: { source: 'internal', sensitivity: 'none' } } }), { annotations: { returnMetadata: { source: 'untrustedPublic', sensitivity: 'credentials' } } });
    const r = await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl');
    expect(r.code).toBe(1);
    expect(within(r)).toEqual(['result-within-declared /3/result/_meta/annotations/returnMetadata/source error', 'result-within-declared /3/result/_meta/annotations/returnMetadata/sensitivity error']);
    expect(messageAt(r, '/3/result/_meta/annotations/returnMetadata/source')).toBe(
      'the result of tools/call of "read_doc" (server "s") has returnMetadata.source "untrustedPublic", outside the tool\'s declared possible set: _meta["io.modelcontextprotocol/action-metadata"].returnMetadata.source is "internal" (/1/result/tools/0/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/source)',
    );
    // A declared set holding an open value excludes nothing.
    const open = session(readDoc({ [AM]: { returnMetadata: { source: ['internal', 'partner-feed'], sensitivity: 'none' } } }), { annotations: { returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' } } });
    expect(within(await findingsOf(tempDir({ 's.jsonl': jsonl(open) }), 's.jsonl'))).toEqual([]);
  });

  it('a resolve or a result of sensitivity "none" is within any non-empty declared sensitivity set, input and return', async () => {
    const customer = { name: 'lookup_customer', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: ['internal'], sensitivity: ['pii'] } } };
    const send = { name: 'send', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: ['public'], sensitivity: [{ regulated: { scopes: ['HIPAA'] } }], outcomes: ['consequential'] } } };
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [customer, send] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'lookup_customer', arguments: { id: 'unknown' } } },
      { jsonrpc: '2.0', id: 2, result: { tool: { name: 'lookup_customer', annotations: { returnMetadata: { sensitivity: 'none' } } } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'lookup_customer', arguments: { id: 'unknown' } } },
      { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'no such customer' }], _meta: { annotations: { returnMetadata: { sensitivity: 'none' } } } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/resolve', params: { name: 'send', arguments: {} } },
      { jsonrpc: '2.0', id: 4, result: { tool: { name: 'send', annotations: { inputMetadata: { destination: 'public', sensitivity: ['none'], outcomes: 'consequential' } }, _meta: { [AM]: { inputMetadata: { sensitivity: 'none' } } } } } },
      { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'send', arguments: {}, _meta: { annotations: { openWorldHint: true } } } },
      { jsonrpc: '2.0', id: 5, result: { content: [], _meta: { annotations: { openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'consequential' } } } } },
    ];
    expect(within(await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl'))).toEqual([]);
    // A class the declaration does not list still exceeds it.
    list[5] = { jsonrpc: '2.0', id: 3, result: { content: [], _meta: { annotations: { returnMetadata: { sensitivity: ['none', 'financial'] } } } } };
    expect(within(await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl'))).toEqual(['result-within-declared /5/result/_meta/annotations/returnMetadata/sensitivity/1 error']);
  });

  it("a result's trust-annotations against the declared ones", async () => {
    const list = session(readDoc({ [TRUST]: { untrusted: false, sensitive: false } }), { [TRUST]: { untrusted: true } });
    const r = await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl');
    expect(r.code).toBe(1);
    const at = '/3/result/_meta/io.modelcontextprotocol~1trust-annotations/untrusted';
    expect(within(r)).toEqual([`result-within-declared ${at} error`]);
    expect(messageAt(r, at)).toBe(
      'the result of tools/call of "read_doc" (server "s") has _meta["io.modelcontextprotocol/trust-annotations"].untrusted true, but the tool\'s tools/list declaration says _meta["io.modelcontextprotocol/trust-annotations"].untrusted is false (/1/result/tools/0/_meta/io.modelcontextprotocol~1trust-annotations/untrusted): the tool\'s results were declared trusted',
    );
    // Declared possible: nothing. Not declared at all: a note that nothing was compared.
    const allowed = session(readDoc({ [TRUST]: { untrusted: true, sensitive: false } }), { [TRUST]: { untrusted: true } });
    expect(within(await findingsOf(tempDir({ 's.jsonl': jsonl(allowed) }), 's.jsonl'))).toEqual([]);
    const undeclared = session(readDoc({}), { [TRUST]: { untrusted: true } }).slice(2);
    expect(within(await findingsOf(tempDir({ 's.jsonl': jsonl(undeclared) }), 's.jsonl'))).toEqual(['result-within-declared /1/result/_meta note']);
  });

  it("a resolved tool is read as its declaration is: the server's own attribution string is the declaration's collision, not a note on the identical resolve; wrong-typed hints still get theirs", async () => {
    const quote = { name: 'get_quote', title: 'Quote', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, attribution: 'Data by Acme Corp' } };
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [quote] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'get_quote', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { tool: quote } },
      { jsonrpc: '2.0', id: 3, method: 'tools/resolve', params: { name: 'get_quote', arguments: {} } },
      { jsonrpc: '2.0', id: 3, result: { tool: { ...quote, annotations: { readOnlyHint: true, openWorldHint: 'true', maliciousActivityHint: 'true' } } } },
    ];
    const r = await findingsOf(tempDir({ 's.jsonl': jsonl(list) }), 's.jsonl');
    expect(r.report.findings.map((f: Record<string, any>) => `${f.ruleId} ${f.pointer} ${f.severity}`)).toEqual([
      'vocabulary-key-collision /1/result/tools/0/annotations/attribution warning',
      'resolve-within-declared /5/result/tool/annotations/openWorldHint note',
      'resolve-within-declared /5/result/tool/annotations/maliciousActivityHint note',
    ]);
    expect(messageAt(r, '/5/result/tool/annotations/openWorldHint')).toContain("MCP's schema does not allow it");
    expect(messageAt(r, '/5/result/tool/annotations/maliciousActivityHint')).toContain("SEP-1913's schema does not allow it");
    // A tools/call result's _meta.annotations is SEP-1913's own place: a string attribution there gets the note.
    const called = [
      ...list.slice(0, 2),
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_quote', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { content: [], _meta: { annotations: { attribution: 'Data by Acme Corp' } } } },
    ];
    expect(within(await findingsOf(tempDir({ 'c.jsonl': jsonl(called) }), 'c.jsonl'))).toEqual(['result-within-declared /3/result/_meta/annotations/attribution note']);
    // A resolve of a tool whose declaration speaks SEP-1913 is read in its terms: "yes" is the hint gone wrong, not data of the server's own.
    const scan = { name: 'scan', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, maliciousActivityHint: false } };
    const widened = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [scan] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'scan', arguments: {} } },
      { jsonrpc: '2.0', id: 2, result: { tool: { ...scan, annotations: { ...scan.annotations, maliciousActivityHint: 'yes' } } } },
    ];
    expect(within(await findingsOf(tempDir({ 'w.jsonl': jsonl(widened) }), 'w.jsonl'))).toEqual(['resolve-within-declared /3/result/tool/annotations/maliciousActivityHint note']);
  });
});

describe('session transcripts: the protocol version each listing was served under', () => {
  const weather = { name: 'get weather', inputSchema: { type: 'object' }, outputSchema: { type: 'array' }, annotations: { readOnlyHint: true, openWorldHint: false } };
  const meta = (v: unknown) => ({ _meta: { 'io.modelcontextprotocol/protocolVersion': v, 'io.modelcontextprotocol/clientCapabilities': {} } });

  it("a 2026-07-28 session (no initialize): the tools/list request's _meta protocolVersion is the listing's, and a result's _meta serverInfo names the server", async () => {
    const list = [
      { jsonrpc: '2.0', id: 0, method: 'server/discover', params: meta('2026-07-28') },
      { jsonrpc: '2.0', id: 0, result: { resultType: 'complete', cacheScope: 'public', ttlMs: 0, supportedVersions: ['2026-07-28'], capabilities: { tools: {} }, _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'srv', version: '1' } } } },
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta('2026-07-28') },
      { jsonrpc: '2.0', id: 1, result: { tools: [tool('a', { readOnlyHint: true, openWorldHint: false })] } },
    ];
    const dir = tempDir({ 'tr.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 'tr.jsonl');
    expect(r.report.servers.map((s: { name: string }) => s.name)).toEqual(['srv']);
    expect(r.list).toEqual(['schema-valid srv/ /3/result 4:25', 'schema-valid srv/ /3/result 4:25', 'schema-valid srv/ /3/result 4:25']);
    expect(r.report.findings.map((f: { message: string }) => f.message)).toEqual(
      ['cacheScope', 'resultType', 'ttlMs'].map((k) => `the tools/list result is missing the required member "${k}" (spec 2026-07-28)`),
    );
    expect(r.stderr).toBe('');
  });

  it('a _meta protocolVersion that is not a string gets the latest spec, and the note says so', async () => {
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: meta(2026) },
      { jsonrpc: '2.0', id: 1, result: { tools: [tool('a', { readOnlyHint: true, openWorldHint: false })] } },
    ];
    const dir = tempDir({ 'tr.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 'tr.jsonl');
    expect(r.stderr).toContain('records protocol version 2026, which is not a string');
  });

  it('a re-initialize after a listing does not change the version that listing was served under', async () => {
    const init = (id: number, v: string) => [
      { jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
      { jsonrpc: '2.0', id, result: { protocolVersion: v, capabilities: { tools: {} }, serverInfo: { name: 'srv', version: '1' } } },
    ];
    const list = [...init(0, '2025-11-25'), { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { jsonrpc: '2.0', id: 1, result: { tools: [weather] } }, ...init(2, '2025-03-26')];
    const dir = tempDir({ 'tr.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 'tr.jsonl');
    expect(r.report.findings.map((f: { ruleId: string; severity: string; message: string }) => `${f.ruleId} ${f.severity}`)).toEqual(['tool-name-format error', 'schema-valid error']);
    expect(r.report.findings.every((f: { message: string }) => !f.message.includes('2025-03-26'))).toBe(true);
    // A listing after the second initialize is served under 2025-03-26: that one is linted.
    const relisted = [...list, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { jsonrpc: '2.0', id: 3, result: { tools: [weather] } }];
    writeFileSync(join(dir, 'tr.jsonl'), jsonl(relisted));
    const again = await findingsOf(dir, 'tr.jsonl');
    expect(again.report.findings.map((f: { ruleId: string; severity: string }) => `${f.ruleId} ${f.severity}`)).toEqual(['tool-name-format warning', 'input-schema-valid note']);
  });
});

describe('session transcripts: a page belongs to the listing whose page gave its cursor', () => {
  const a = tool('a', { readOnlyHint: true, openWorldHint: false });
  const b = tool('b', { readOnlyHint: true, openWorldHint: true });

  it('a page of a listing that list_changed and a fresh listing replaced is not added to the fresh one: a call of its tool is a call of a withdrawn tool', async () => {
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [a], nextCursor: 'c2' } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'c2' } },
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, result: { tools: [a] } },
      { jsonrpc: '2.0', id: 2, result: { tools: [b] } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'b', arguments: {} } },
      { jsonrpc: '2.0', id: 4, result: { content: [], _meta: { annotations: { openWorldHint: true } } } },
    ];
    const dir = tempDir({ 't.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 't.jsonl');
    expect(r.report.servers.map((s: { tools: number }) => s.tools)).toEqual([1]);
    expect(r.list).toEqual([`result-within-declared t/b /8/result/_meta/annotations 9:${JSON.stringify(list[8]).indexOf('"annotations"') + 1}`]);
    expect(r.report.findings[0].message).toContain('the tools/list of server "t" in effect when it was sent (/5/result) no longer lists "b", which an earlier listing declared (/6/result/tools/0)');
    expect(r.stderr).toBe(
      'mcp-annotate: note: server "t" (t.jsonl): the tools/list result at /6/result answers the request at /2 for the page after cursor "c2", which continues the listing at /1/result, replaced by the listing at /5/result before this page came: it is part of no listing, and its 1 tool was not linted\n',
    );
  });

  it('a page for a cursor no page gave, or for one the listing already followed, is part of no listing', async () => {
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [a], nextCursor: 'p2' } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'p2' } },
      { jsonrpc: '2.0', id: 2, result: { tools: [b] } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { cursor: 'bogus' } },
      { jsonrpc: '2.0', id: 3, result: { tools: [a] } },
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: { cursor: 'p2' } },
      { jsonrpc: '2.0', id: 4, result: { tools: [b] } },
    ];
    const dir = tempDir({ 't.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 't.jsonl');
    // No tool-name-unique: the listing is the first two pages.
    expect(r.list).toEqual([]);
    expect(r.report.servers.map((s: { tools: number }) => s.tools)).toEqual([2]);
    expect(r.stderr.split('\n').filter(Boolean)).toEqual([
      'mcp-annotate: note: server "t" (t.jsonl): the tools/list result at /5/result answers the request at /4 for the page after cursor "bogus", which no earlier tools/list page of the server gave: it is part of no listing, and its 1 tool was not linted',
      'mcp-annotate: note: server "t" (t.jsonl): the tools/list result at /7/result answers the request at /6 for the page after cursor "p2", whose page the listing at /1/result already has: it is part of no listing, and its 1 tool was not linted',
    ]);
  });

  it('a page for a cursor that is a number or an object is part of no listing: the listing in effect stays, with its nextCursor finding', async () => {
    for (const cursor of [2, { page: 2 }]) {
      const list = [
        { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } },
        { jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 't', version: '1' } } },
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', id: 1, result: { tools: [a], nextCursor: 2 } },
        { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor } },
        { jsonrpc: '2.0', id: 2, result: { tools: [broken] } },
      ];
      const dir = tempDir({ 't.jsonl': jsonl(list) });
      const r = await findingsOf(dir, 't.jsonl');
      // Before: the page started a listing of its own (sync linted, a and its nextCursor not).
      expect(r.list).toEqual([`schema-valid t/ /3/result/nextCursor 4:${JSON.stringify(list[3]).indexOf('"nextCursor"') + 1}`]);
      expect(r.report.servers.map((s: { tools: number }) => s.tools)).toEqual([1]);
      expect(r.stderr.split('\n').filter(Boolean)).toEqual([
        `mcp-annotate: note: server "t" (t.jsonl): the tools/list result at /5/result answers the request at /4 for the page after cursor ${JSON.stringify(cursor)}, which is ${typeof cursor === 'number' ? 'a number' : 'an object with keys "page"'}, not a string as a cursor is: it is part of no listing, and its 1 tool was not linted`,
      ]);
    }
  });

  it('a capture that starts mid-listing: the first page, for a cursor no page gave, starts the listing (its tools linted, a call of one checked), with a note', async () => {
    const c = tool('delete_repo', { readOnlyHint: false, destructiveHint: true, openWorldHint: false });
    const list = [
      { jsonrpc: '2.0', id: 7, method: 'tools/list', params: { cursor: 'eyJvZmZzZXQiOjUwfQ==' } },
      { jsonrpc: '2.0', id: 7, result: { tools: [c], nextCursor: 'p3' } },
      { jsonrpc: '2.0', id: 8, method: 'tools/list', params: { cursor: 'p3' } },
      { jsonrpc: '2.0', id: 8, result: { tools: [a] } },
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'delete_repo', arguments: {} } },
      { jsonrpc: '2.0', id: 9, result: { content: [], _meta: { annotations: { openWorldHint: true } } } },
    ];
    const dir = tempDir({ 't.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 't.jsonl');
    // Both pages are the listing: the call is compared with delete_repo's declaration (openWorldHint false).
    expect(r.report.servers.map((s: { tools: number }) => s.tools)).toEqual([2]);
    expect(r.list).toEqual([`result-within-declared t/delete_repo /5/result/_meta/annotations/openWorldHint 6:${JSON.stringify(list[5]).indexOf('"openWorldHint"') + 1}`]);
    expect(r.report.findings[0].message).toContain("the tool's tools/list declaration says annotations.openWorldHint is false (/1/result/tools/0/annotations/openWorldHint)");
    expect(r.report.findings[0].message).not.toContain('capture the session from its start');
    expect(r.stderr).toBe(
      'mcp-annotate: note: server "t" (t.jsonl): the tools/list result at /1/result answers the request at /0 for the page after cursor "eyJvZmZzZXQiOjUwfQ==", which no earlier tools/list page of the server gave, and no listing of the server comes before it: the capture seems to start mid-listing (the earlier pages are missing), so this page starts the listing, and tools on the missing pages are not linted\n',
    );
    // A call of a tool the pages held do not list: it may well be on the missing pages, and the note says so.
    const missing = [...list.slice(0, 4), { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'b', arguments: {} } }, { jsonrpc: '2.0', id: 9, result: { content: [], _meta: { annotations: { openWorldHint: true } } } }];
    const m = await findingsOf(tempDir({ 'm.jsonl': jsonl(missing) }), 'm.jsonl');
    expect(m.report.findings.map((f: { message: string }) => f.message)).toEqual([
      'the result of tools/call of "b" (server "m") carries annotations, but the tools/list of server "m" in effect when it was sent starts mid-way: the transcript holds its pages from the one at /1/result (the page after cursor "eyJvZmZzZXQiOjUwfQ==") on, which do not list "b", and the pages before it are missing: they were not checked against a declaration',
    ]);
    expect(m.report.findings[0].suggestion).toBe('capture the session from its start, with every page of the tools/list exchange, so "b" can be checked against the page that declares it');
  });

  it('a call of a tool only a stray page declared: the note names that page and why it did not count, not that nothing lists the tool', async () => {
    const z = tool('z', { readOnlyHint: true, openWorldHint: false });
    const list = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1, result: { tools: [a] } },
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: '2' } },
      { jsonrpc: '2.0', id: 2, result: { tools: [z] } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'z', arguments: {} } },
      { jsonrpc: '2.0', id: 3, result: { content: [], _meta: { annotations: { openWorldHint: true } } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/resolve', params: { name: 'z', arguments: {} } },
      { jsonrpc: '2.0', id: 4, result: { tool: { ...z, annotations: { readOnlyHint: false } } } },
    ];
    const dir = tempDir({ 't.jsonl': jsonl(list) });
    const r = await findingsOf(dir, 't.jsonl');
    expect(r.report.servers.map((s: { tools: number }) => s.tools)).toEqual([1]);
    expect(r.list).toEqual([
      `result-within-declared t/z /5/result/_meta/annotations 6:${JSON.stringify(list[5]).indexOf('"annotations"') + 1}`,
      `resolve-within-declared t/z /7/result/tool 8:${JSON.stringify(list[7]).indexOf('"tool"') + 1}`,
    ]);
    const why = '"z" is declared only on the tools/list page at /3/result (/3/result/tools/0), which counts for no listing of server "t" (it answers the request at /2 for the page after cursor "2", which no earlier tools/list page of the server gave)';
    for (const f of r.report.findings) {
      expect(f.severity).toBe('note');
      expect(f.message).toContain(why);
      expect(f.message).not.toMatch(/no tools\/list of server "t" before it lists|holds no tools\/list/);
      expect(f.suggestion).toContain('check "z" by hand against /3/result/tools/0');
      expect(f.suggestion).not.toContain('declare');
    }
  });
});
