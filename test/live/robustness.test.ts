/**
 * Misbehaving servers (real processes and HTTP handlers on 127.0.0.1): each ends with one
 * clear error, exit 2, the other servers of the run still reported; no process survives
 * the command (timeout, normal end, Ctrl-C); no secret reaches any output.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, runCli, tempDir, json } from '../helpers/cli.js';
import { startHttpServer } from './servers/http.mjs';
import { loadFixture } from './servers/tools-lib.mjs';
import { VOCAB_FIXTURE, alive, serverArgv, serverCommand, waitFor } from './helpers.js';

type Http = Awaited<ReturnType<typeof startHttpServer>>;
const fixture = loadFixture(VOCAB_FIXTURE);
let good: Http;
let hang: Http;
let huge: Http;

beforeAll(async () => {
  good = await startHttpServer({ mode: 'streamable', ...fixture });
  hang = await startHttpServer({ mode: 'hang' });
  huge = await startHttpServer({ mode: 'huge' });
});
afterAll(async () => {
  await Promise.all([good?.close(), hang?.close(), huge?.close()]);
});

describe('misbehaving servers', () => {
  it('each gets one clear error line; the good servers of the same run are still reported', async () => {
    const bad = (mode: string) => serverCommand('misbehave.mjs', mode);
    const started = Date.now();
    const r = await runCli(
      [
        'lint', '--timeout', '6', '--concurrency', '6', '-f', 'json',
        '--stdio', bad('hang'), '--stdio', bad('crash'), '--stdio', bad('garbage'), '--stdio', bad('flood'),
        '--stdio', bad('loop'), '--stdio', bad('repeat'), '--stdio', bad('huge'),
        '--stdio', serverCommand('stdio-tools.mjs', VOCAB_FIXTURE),
        '--url', hang.url, '--url', huge.url, '--url', good.url,
      ],
      { timeoutMs: 30_000 },
    );
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    const line = (mode: string) => lines.find((l) => l.startsWith(`${bad(mode)}: `))!.slice(bad(mode).length + 2);
    expect(line('hang')).toBe('timed out after 6 s while waiting for the initialize response (--timeout 6)');
    expect(line('crash')).toBe('the server exited with code 3 while listing tools (page 1); its stderr ended with "fatal: lost the database connection"');
    expect(line('garbage')).toBe(
      'the server wrote a line on stdout that is not a JSON-RPC message ("Starting the amazing server v1.2.3 ..."); stdout must carry only protocol messages, logs belong on stderr',
    );
    expect(line('flood')).toBe('the server sent more than 10000 notifications and requests while listing tools (page 1); stopped');
    expect(line('loop')).toBe('stopped after 100 pages of tools/list: the server keeps returning a nextCursor');
    expect(line('repeat')).toBe('tools/list returned the cursor "again" a second time (page 2): the pages loop endlessly');
    expect(line('huge')).toBe('the server sent more than 16 MiB on stdout; stopped it (a tools/list result is never that large)');
    expect(lines).toContain(`${hang.url}: timed out after 6 s while waiting for the initialize response (--timeout 6)`);
    expect(lines).toContain(`${huge.url}: the server sent more than 16 MiB while waiting for the initialize response; stopped (a tools/list result is never that large)`);
    expect(lines).toHaveLength(9);
    // No stack traces, no progress display (stderr is not a terminal).
    expect(r.stderr).not.toMatch(/\n\s+at |\x1b/);
    const report = JSON.parse(r.stdout);
    expect(report.summary.inputErrors).toBe(9);
    expect(report.servers.map((s: { source: string }) => s.source).sort()).toEqual([good.url, serverCommand('stdio-tools.mjs', VOCAB_FIXTURE)].sort());
    expect(report.findings.length).toBeGreaterThan(0);
  });

  it('a server that answers tools/list twice with different tools is an error: clients keep the first answer (a destructive tool), and the second (a harmless one) was linted', async () => {
    const twice = serverCommand('misbehave.mjs', 'twice');
    const r = await runCli(['lint', '--no-config', '-f', 'json', '--stdio', twice, '--stdio', serverCommand('misbehave.mjs', 'ok')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `${twice}: the server answered tools/list page 1 (request id 1) twice, with different tools, while listing tools (page 1); a client keeps the first answer and drops the second, so the tools a client sees cannot be told from the ones linted\n`,
    );
    // The other server of the run is still linted.
    expect((JSON.parse(r.stdout) as { servers: { name: string }[] }).servers.map((s) => s.name)).toEqual(['misbehave-ok']);
  });

  it('the same answer twice, or a log line written with the last answer, changes nothing: whatever the chunks, the tools a client sees are linted', async () => {
    const r = await runCli(['lint', '--no-config', '-f', 'json', '--stdio', serverCommand('misbehave.mjs', 'twice-same'), '--stdio', serverCommand('misbehave.mjs', 'answer-then-log'), '--stdio', serverCommand('misbehave.mjs', 'init-twice')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    // A second initialize result changes nothing either: the client went on with the first (its name, its version).
    expect((JSON.parse(r.stdout) as { servers: { name: string; tools: number; spec: string }[] }).servers.map((s) => [s.name, s.tools, s.spec]).sort()).toEqual([
      ['first', 1, '2025-06-18'],
      ['misbehave-answer-then-log', 1, '2025-06-18'],
      ['misbehave-twice-same', 1, '2025-06-18'],
    ]);
  });

  it('an answer of JSON cut short over stdio is named as such, not as a log line on stdout', async () => {
    const cut = serverCommand('misbehave.mjs', 'cut-answer');
    const r = await runCli(['lint', '--no-config', '--stdio', cut]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `${cut}: the server wrote a JSON-RPC message on stdout that is not valid JSON ("{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":{\\"tools\\":[{\\"name\\":\\"a\\"": expected "}" at column 55); was it cut short?\n`,
    );
  });

  it('a log line that mentions "jsonrpc" is still a log line; a whole line that is not valid JSON is not asked about being cut short', async () => {
    const dir = tempDir({
      'cut.cjs': `require('readline').createInterface({ input: process.stdin }).on('line', (l) => { const m = JSON.parse(l); if (m.id !== undefined) process.stdout.write('{"id":' + m.id + ',"jsonrpc":"2.0","result":{"tools":[{"name":"a","description":"Lists the fi\\n'); });\n`,
      'log.cjs': `process.stdout.write('[2026-11-23T04:00:00Z] INFO will answer {"jsonrpc":"2.0", ...} on stdin\\n'); setInterval(() => {}, 1000);\n`,
      // A structured log line that quotes a message: "jsonrpc" is no member of its own.
      'logjson.cjs': `process.stdout.write('{"level":"info","time":"2026-11-23"} sending {"jsonrpc":"2.0","id":0} to client\\n'); setInterval(() => {}, 1000);\n`,
      // A whole answer with a raw carriage return in a string: not cut short.
      'cr.cjs': `require('readline').createInterface({ input: process.stdin }).on('line', (l) => { const m = JSON.parse(l); if (m.id !== undefined) process.stdout.write('{"jsonrpc":"2.0","id":' + m.id + ',"result":{"serverInfo":{"name":"a\\rb","version":"1"}}}\\n'); });\n`,
      'comma.cjs': `require('readline').createInterface({ input: process.stdin }).on('line', (l) => { const m = JSON.parse(l); if (m.id !== undefined) process.stdout.write('{"jsonrpc":"2.0","id":' + m.id + ',"result":{},}\\n'); });\n`,
    });
    const r = await runCli(['lint', '--no-config', '--stdio', 'node log.cjs', '--stdio', 'node comma.cjs', '--stdio', 'node cut.cjs', '--stdio', 'node logjson.cjs', '--stdio', 'node cr.cjs'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'node comma.cjs: the server wrote a JSON-RPC message on stdout that is not valid JSON ("{\\"jsonrpc\\":\\"2.0\\",\\"id\\":0,\\"result\\":{},}": expected a property name in double quotes at column 37)',
      'node cr.cjs: the server wrote a JSON-RPC message on stdout that is not valid JSON ("{\\"jsonrpc\\":\\"2.0\\",\\"id\\":0,\\"result\\":{\\"serverInfo\\":{\\"name\\":\\"a\\rb\\",\\"version\\":\\"1\\"}}}": unterminated string at column 56)',
      // Its "id" comes first, and it stops inside a string: a broken answer, cut short.
      'node cut.cjs: the server wrote a JSON-RPC message on stdout that is not valid JSON ("{\\"id\\":0,\\"jsonrpc\\":\\"2.0\\",\\"result\\":{\\"tools\\":[{\\"name\\":\\"a\\",\\"description\\":\\"Lists the…": unterminated string at column 70); was it cut short?',
      'node log.cjs: the server wrote a line on stdout that is not a JSON-RPC message ("[2026-11-23T04:00:00Z] INFO will answer {\\"jsonrpc\\":\\"2.0\\", ...} on stdin"); stdout must carry only protocol messages, logs belong on stderr',
      'node logjson.cjs: the server wrote a line on stdout that is not a JSON-RPC message ("{\\"level\\":\\"info\\",\\"time\\":\\"2026-11-23\\"} sending {\\"jsonrpc\\":\\"2.0\\",\\"id\\":0} to client"); stdout must carry only protocol messages, logs belong on stderr',
    ]);
  });

  it('a line that starts with a byte order mark is said to, and its quote shows the mark (trim() would drop it)', async () => {
    const dir = tempDir({
      // .NET and PowerShell on Windows write a BOM first when the console encoding is UTF-8 with one.
      'bom.cjs': `require('readline').createInterface({ input: process.stdin }).on('line', (l) => { const m = JSON.parse(l); if (m.id !== undefined) process.stdout.write('\\ufeff{"jsonrpc":"2.0","id":' + m.id + ',"result":{}}\\n'); });\n`,
    });
    const r = await runCli(['lint', '--no-config', '--stdio', 'node bom.cjs'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'node bom.cjs: the server wrote a line on stdout that starts with a byte order mark (U+FEFF), which JSON-RPC does not allow ("\\u{FEFF}{\\"jsonrpc\\":\\"2.0\\",\\"id\\":0,\\"result\\":{}}"); write stdout as UTF-8 without a BOM\n',
    );
  });

  it('a program that does not exist, and a refused connection', async () => {
    // A port that was just free: nothing listens on it.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise((r) => probe.close(r));
    const r = await runCli(['lint', '--stdio', 'no-such-program-anywhere --flag', '--url', `http://127.0.0.1:${port}/mcp`]);
    expect(r.code).toBe(2);
    // Input errors are sorted by target, whatever the order of the arguments.
    expect(r.stderr).toBe(
      `http://127.0.0.1:${port}/mcp: could not connect: connection refused\n` +
        'no-such-program-anywhere --flag: could not start "no-such-program-anywhere": no such program (is it installed and on PATH?)\n',
    );
  });

  it('a Node.js server that dies of an uncaught exception is said by the first line of what it threw, not by the "Node.js vX.Y.Z" footer after its stack nor the last line of its message', async () => {
    const dir = tempDir({
      'throw.mjs': 'throw new Error("cannot find config file /etc/foo.json");\n',
      // Its properties (errno, code, …) follow the stack between braces.
      'enoent.mjs': 'import { readFileSync } from "node:fs";\nreadFileSync("/no/such/dir/foo.json");\n',
      'cause.cjs': 'setTimeout(() => { throw new TypeError("bad port in config", { cause: new Error("inner") }); }, 10);\n',
      'string.mjs': 'throw "config missing";\n',
      // A message of several lines is quoted by its first, the one with the error's name.
      'zod.mjs': `const e = new Error(JSON.stringify([{ code: 'invalid_type', path: ['API_KEY'], message: 'Required' }], null, 2)); e.name = 'ZodError'; throw e;\n`,
      'multi.mjs': "throw new Error('Missing configuration:\\nGITHUB_TOKEN is not set');\n",
      'blank.mjs': "const e = new Error('bad config:\\n\\nsee docs'); e.name = 'ConfigException'; e.code = 'E_CFG'; throw e;\n",
      'causes.mjs': "throw new TypeError('bad port\\nin config', { cause: new Error('inner\\ndetail') });\n",
      'strings.mjs': 'throw "config\\nmissing";\n',
      // A first line that opens a bracket: what follows says what is wrong.
      'obj.mjs': "throw { code: 'E_CONFIG', message: 'GITHUB_TOKEN is not set' };\n",
      // No stack: printed inspected, "[Error: config file missing] {", with its properties after.
      'nostack.mjs': "const e = new Error('config file missing'); e.stack = undefined; e.code = 'E_CONFIG'; throw e;\n",
    });
    const files = ['throw.mjs', 'enoent.mjs', 'cause.cjs', 'string.mjs', 'zod.mjs', 'multi.mjs', 'blank.mjs', 'causes.mjs', 'strings.mjs', 'obj.mjs', 'nostack.mjs'];
    const r = await runCli(['lint', '--no-config', ...files.flatMap((f) => ['--stdio', `node ${f}`])], { cwd: dir });
    expect(r.code).toBe(2);
    const said = (file: string) => `node ${file}: the server exited with code 1 while waiting for the initialize response; its stderr ended with`;
    expect(r.stderr.trimEnd().split('\n').sort()).toEqual(
      [
        `${said('throw.mjs')} "Error: cannot find config file /etc/foo.json"`,
        `${said('enoent.mjs')} "Error: ENOENT: no such file or directory, open '/no/such/dir/foo.json'"`,
        `${said('cause.cjs')} "TypeError: bad port in config"`,
        `${said('string.mjs')} "config missing"`,
        `${said('zod.mjs')} "Error [ZodError]: [ { \\"code\\": \\"invalid_type\\", \\"path\\": [ \\"API_KEY\\" ], \\"message\\": \\"Required\\" } ]"`,
        `${said('obj.mjs')} "{ code: 'E_CONFIG', message: 'GITHUB_TOKEN is not set' }"`,
        `${said('nostack.mjs')} "Error: config file missing"`,
        `${said('multi.mjs')} "Error: Missing configuration:"`,
        `${said('blank.mjs')} "ConfigException: bad config:"`,
        `${said('causes.mjs')} "TypeError: bad port"`,
        `${said('strings.mjs')} "config"`,
      ].sort(),
    );
  });

  it('a working directory that does not exist or is a file is named (not "no such program"), and a --stdio line with a quote left open is refused', async () => {
    const dir = tempDir({
      'file.txt': 'not a directory\n',
      'mcp.json': json({
        mcpServers: {
          missing: { ...serverArgv('stdio-tools.mjs', VOCAB_FIXTURE), cwd: 'no/such/dir' },
          file: { ...serverArgv('stdio-tools.mjs', VOCAB_FIXTURE), cwd: 'file.txt' },
          under: { ...serverArgv('stdio-tools.mjs', VOCAB_FIXTURE), cwd: 'file.txt/sub' },
        },
      }),
    });
    const r = await runCli(['lint', '--mcp-config', 'mcp.json', '--stdio', "node 'abc"], { cwd: dir });
    expect(r.code).toBe(2);
    // Servers run side by side: their lines come in the order they end.
    expect(r.stderr.trimEnd().split('\n').sort()).toEqual([
      `mcp.json:3:5: server "missing": could not start ${JSON.stringify(process.execPath)}: its working directory "${join(dir, 'no/such/dir')}" does not exist`,
      `mcp.json:11:5: server "file": could not start ${JSON.stringify(process.execPath)}: its working directory "${join(dir, 'file.txt')}" is not a directory`,
      `mcp.json:19:5: server "under": could not start ${JSON.stringify(process.execPath)}: its working directory "${join(dir, 'file.txt/sub')}" is not a directory (a part of its path is a file)`,
      `node 'abc: --stdio has a single quote (') that is never closed; close it, or escape it with a backslash`,
    ].sort());
  });

  it('a port fetch refuses (a "bad port" such as 6000) is named, over either transport', async () => {
    // fetch refuses these before opening a connection: nothing is sent anywhere.
    const http = await runCli(['lint', '--url', 'http://127.0.0.1:6000/mcp']);
    const sse = await runCli(['lint', '--url', 'http://127.0.0.1:6666/sse', '--transport', 'sse']);
    expect(http.stderr).toBe('http://127.0.0.1:6000/mcp: could not connect: fetch refuses port 6000 (one of the Fetch standard\'s "bad ports", blocked by browsers and Node.js alike); serve MCP on another port\n');
    expect(sse.stderr).toBe('http://127.0.0.1:6666/sse: could not connect: fetch refuses port 6666 (one of the Fetch standard\'s "bad ports", blocked by browsers and Node.js alike); serve MCP on another port\n');
  });

  it('a URL that is not an MCP endpoint (a web page, other JSON, an empty answer) says so, over either transport', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const server = createHttpServer((req, res) => {
      if (req.url === '/page') res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>');
      else if (req.url === '/status') res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      else if (req.url === '/busy') res.writeHead(429, { 'content-type': 'text/plain' }).end('slow down');
      else if (req.url === '/locked') res.writeHead(401).end();
      else res.writeHead(200).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await runCli(['lint', '--url', `${base}/page`, '--url', `${base}/status`, '--url', `${base}/empty`, '--url', `${base}/busy`, '--transport', 'http']);
      const sse = await runCli(['lint', '--url', `${base}/page`, '--transport', 'sse']);
      const locked = await runCli(['lint', '--url', `${base}/locked`, '--transport', 'sse']);
      expect(locked.stderr).toBe(`${base}/locked: the SSE connection failed with HTTP 401 Unauthorized while connecting (pass credentials with --header, e.g. --header "Authorization: Bearer \${TOKEN}")\n`);
      expect(r.stderr.trimEnd().split('\n').sort()).toEqual([
        // Any status has its reason phrase.
        `${base}/busy: HTTP 429 Too Many Requests while waiting for the initialize response: "slow down"`,
        `${base}/empty: the server answered with no content type, not JSON or an event stream, while waiting for the initialize response; is this the server's MCP endpoint?`,
        `${base}/page: the server answered with content type "text/html", not JSON or an event stream, while waiting for the initialize response; is this the server's MCP endpoint?`,
        `${base}/status: the server answered with JSON that is not a JSON-RPC message while waiting for the initialize response; is this the server's MCP endpoint?`,
      ]);
      expect(sse.stderr).toBe(`${base}/page: the server answered HTTP 200 without an event stream (content type text/event-stream) while connecting; is this the server's SSE endpoint?\n`);
    } finally {
      server.close();
    }
  });

  it('a certificate the client does not trust is named, with how to trust it, over either transport', async () => {
    // A self-signed certificate for 127.0.0.1 (test/live/servers/tls, valid for a century).
    const { createServer: createHttpsServer } = await import('node:https');
    const tls = join(dirname(fileURLToPath(import.meta.url)), 'servers', 'tls');
    const server = createHttpsServer({ key: readFileSync(join(tls, 'key.pem')), cert: readFileSync(join(tls, 'cert.pem')) }, (_req, res) => {
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      const hint = ' (mcp-annotate checks certificates as any HTTPS client does; to trust a private CA, set NODE_EXTRA_CA_CERTS to its certificate file)';
      const http = await runCli(['lint', '--url', url, '--transport', 'http']);
      const sse = await runCli(['lint', '--url', url, '--transport', 'sse']);
      expect(http.stderr).toBe(`${url}: could not connect: self-signed certificate${hint}\n`);
      expect(sse.stderr).toBe(`${url}: could not connect: self-signed certificate${hint}\n`);
      // Following the hint works: the connection is made, and the server's 404 is what fails.
      const trusted = await runCli(['lint', '--url', url, '--transport', 'http'], { env: { NODE_EXTRA_CA_CERTS: join(tls, 'cert.pem') } });
      expect(trusted.stderr).toMatch(/HTTP 404 Not Found while waiting for the initialize response/);
    } finally {
      server.close();
    }
  });

  it('a server without tools, an error answered to tools/list, and a protocol version the SDK does not speak are said as such (not as the exit that follows)', async () => {
    const noTools = serverCommand('misbehave.mjs', 'no-tools');
    const listError = serverCommand('misbehave.mjs', 'list-error');
    const future = serverCommand('misbehave.mjs', 'future');
    const r = await runCli(['lint', '--stdio', noTools, '--stdio', listError, '--stdio', future]);
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines).toContain(`${noTools}: the server offers no tools: its initialize result declares no "tools" capability, and it answered tools/list with error -32601 (method not found)`);
    expect(lines).toContain(`${listError}: the server answered with error -32603 while listing tools (page 1): "database unavailable"`);
    expect(lines.find((l) => l.startsWith(`${future}: `))).toMatch(
      /: the server answered initialize with protocol version "2099-01-01", which the MCP SDK does not speak \(it speaks 2025-11-25, [0-9, -]+\), so it would not continue: a live run can negotiate only those \(it asks for 2025-11-25\); to lint this server's tools, save its tools\/list result as a file/,
    );
  });

  it('a server that answers with error -32000 or -32001 is heard: not taken for the SDK\'s own "connection closed" or "timed out"', async () => {
    const entry = (code: string, method: string) => serverArgv('misbehave.mjs', 'rpc-error', `${code}:${method}`);
    const dir = tempDir({
      'mcp.json': json({
        mcpServers: { list0: entry('-32000', 'tools/list'), list1: entry('-32001', 'tools/list'), init0: entry('-32000', 'initialize'), init1: entry('-32001', 'initialize') },
      }),
    });
    const started = Date.now();
    const r = await runCli(['lint', '--mcp-config', 'mcp.json', '--timeout', '10'], { cwd: dir });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n').map((l) => l.replace(/^mcp\.json:\d+:\d+: /, '')).sort()).toEqual([
      'server "init0": the server answered with error -32000 while waiting for the initialize response: "Unauthorized: API key expired"',
      'server "init1": the server answered with error -32001 while waiting for the initialize response: "Unauthorized: API key expired"',
      'server "list0": the server answered with error -32000 while listing tools (page 1): "Unauthorized: API key expired"',
      'server "list1": the server answered with error -32001 while listing tools (page 1): "Unauthorized: API key expired"',
    ]);
  });

  it('a server that exits while a child it left holds its stdout fails at once (not at the deadline), and the child is stopped', async () => {
    const dir = tempDir();
    const pids = join(dir, 'pids.json');
    const exitHelper = serverCommand('misbehave.mjs', 'exit-helper', pids);
    const started = Date.now();
    const r = await runCli(['lint', '--timeout', '20', '--stdio', exitHelper], { timeoutMs: 30_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${exitHelper}: the server exited with code 3 while waiting for the initialize response; its stderr ended with "fatal: no API key"\n`);
    const { server, grandchild } = JSON.parse(readFileSync(pids, 'utf8'));
    expect(alive(server)).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });

  it('a server that closes its stdout and runs on fails at once (not at the deadline)', async () => {
    const closeStdout = serverCommand('misbehave.mjs', 'close-stdout');
    const started = Date.now();
    const r = await runCli(['lint', '--timeout', '20', '--stdio', closeStdout], { timeoutMs: 30_000 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${closeStdout}: the server closed its stdout while listing tools (page 1) but kept running; stopped it (stdout carries its answers)\n`);
  });

  it('a response stream that ends without the response fails at once, not at the deadline, over either transport', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const stream = (res: import('node:http').ServerResponse, body: string) => res.writeHead(200, { 'content-type': 'text/event-stream' }).end(body);
    const initialized = (id: unknown) =>
      `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'x', version: '1' } } })}\n\n`;
    // accepted-on-stream: answers tools/list (against the spec) on its open standalone stream.
    let standalone: import('node:http').ServerResponse | undefined;
    const held: string[] = [];
    const server = createHttpServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const mode = req.url!.slice(1);
      if (mode === 'sse') return void (req.method === 'GET' ? stream(res, 'event: endpoint\ndata: /sse\n\n') : res.writeHead(202).end());
      if (req.method === 'GET' && mode === 'accepted-on-stream') {
        standalone = res.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const event of held.splice(0)) standalone.write(event);
        return;
      }
      if (req.method === 'GET') {
        // The standalone stream: reopened as fast as the server says (retry: 0), forever.
        if (mode === 'reopen') return void stream(res, 'retry: 0\n\n');
        return void res.writeHead(mode === 'resume-fails' ? 500 : 405).end();
      }
      const message = JSON.parse(body);
      if (!('id' in message)) return void res.writeHead(202).end();
      if (mode === 'accepted' || (mode === 'accepted-list' && message.method === 'tools/list')) return void res.writeHead(202).end();
      if (mode === 'accepted-on-stream' && message.method === 'tools/list') {
        const event = `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { tools: [{ name: 'held', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }] } })}\n\n`;
        if (standalone) standalone.write(event);
        else held.push(event);
        return void res.writeHead(202).end();
      }
      if (message.method === 'initialize') {
        if (mode === 'ends') return void stream(res, ': nothing to say\n\n');
        if (mode === 'breaks') return void (res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders(), setTimeout(() => res.socket?.destroy(), 20));
        // An event id: the client is to resume the stream (GET with Last-Event-ID), which then fails.
        if (mode === 'resume-refused' || mode === 'resume-fails') return void stream(res, 'id: 1\nretry: 10\ndata: \n\n');
        return void stream(res, initialized(message.id));
      }
      if (mode === 'reopen') return; // tools/list is never answered, while the standalone stream keeps closing
      stream(res, ': nothing\n\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const modes = ['ends', 'breaks', 'resume-refused', 'resume-fails', 'list-ends', 'reopen', 'accepted', 'accepted-list'];
      const r = await runCli(['lint', '--transport', 'http', '--timeout', '60', '--concurrency', '6', ...modes.flatMap((m) => ['--url', `${base}/${m}`])], { timeoutMs: 30_000 });
      const sse = await runCli(['lint', '--transport', 'sse', '--timeout', '60', '--url', `${base}/sse`], { timeoutMs: 30_000 });
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n').sort()).toEqual([
        `${base}/accepted-list: the server answered a request with HTTP 202 Accepted and no content while listing tools (page 1); a request needs JSON or an event stream in answer (202 is for notifications)`,
        `${base}/accepted: the server answered a request with HTTP 202 Accepted and no content while waiting for the initialize response; a request needs JSON or an event stream in answer (202 is for notifications)`,
        `${base}/breaks: the connection broke before the server sent its response (other side closed), while waiting for the initialize response`,
        `${base}/ends: the server ended the event stream of its response without sending the response, while waiting for the initialize response`,
        `${base}/list-ends: the server ended the event stream of its response without sending the response, while listing tools (page 1)`,
        `${base}/reopen: stopped after 500 HTTP requests while listing tools (page 1): the server keeps closing its event stream, and the MCP SDK keeps reopening it`,
        `${base}/resume-fails: the server closed the event stream of its response before sending the response, and resuming the stream failed (GET with Last-Event-ID: HTTP 500 Internal Server Error), while waiting for the initialize response`,
        `${base}/resume-refused: the server closed the event stream of its response before sending the response, and resuming the stream failed (GET with Last-Event-ID: HTTP 405 Method Not Allowed), while waiting for the initialize response`,
      ]);
      expect(sse.stderr).toBe(`${base}/sse: the server closed the SSE stream while waiting for the initialize response; answers come only on that stream, so none can arrive\n`);
      // A 202 while the standalone stream is open is waited out: the answer may come on it.
      const lenient = await runCli(['lint', '--transport', 'http', '--timeout', '60', '--url', `${base}/accepted-on-stream`, '-f', 'json'], { timeoutMs: 30_000 });
      expect(lenient.stderr).toBe('');
      expect(JSON.parse(lenient.stdout).servers).toEqual([expect.objectContaining({ tools: 1 })]);
    } finally {
      standalone?.end();
      server.closeAllConnections();
      server.close();
    }
  });

  it('a tools/list answer sent as one large event in many small chunks (CRLF split between them) is read whole', async () => {
    const count = 3000;
    const tools = Array.from({ length: count }, (_, i) => ({ name: `read_item_${i}`, description: `Reads item ${i} of the catalogue.`, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }));
    const server = createHttpServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const message = JSON.parse(body);
      if (!('id' in message)) return void res.writeHead(202).end();
      const result =
        message.method === 'initialize' ? { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'chunky', version: '1' } } : { tools };
      const event = `event: message\r\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\r\n\r\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // 1,001 bytes at a time, each its own write after a turn of the event loop.
      for (let i = 0; i < event.length; i += 1001) {
        res.write(event.slice(i, i + 1001));
        await new Promise((r) => setImmediate(r));
      }
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const r = await runCli(['lint', '--no-config', '--transport', 'http', '--url', url, '-f', 'json'], { timeoutMs: 60_000 });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout).servers).toEqual([expect.objectContaining({ tools: count })]);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('a page of 300,000 tools is read (not spread into one call), and the findings limit applies to live servers too', async () => {
    const command = serverCommand('misbehave.mjs', 'empties');
    const r = await runCli(['lint', '--stdio', command, '-f', 'json'], { env: { MCP_ANNOTATE_MAX_FINDINGS: '10' } });
    expect(r.stderr).toBe(`${command}: stopped after 10 findings, at tool 3 of 300,000; the report holds those, and the rest of this server was not linted (MCP_ANNOTATE_MAX_FINDINGS raises the limit)\n`);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).servers).toEqual([expect.objectContaining({ tools: 300_000 })]);
  });

  it('a tool nested 100,000 levels deep is linted, and its snapshot saved (one line past 256 levels) and read back', async () => {
    const command = serverCommand('misbehave.mjs', 'deep');
    const dir = tempDir();
    // With a secret given, the result is also searched for it to redact (without recursion).
    const r = await runCli(['lint', '--stdio', command, '--env', 'API_TOKEN=tok-0123456789abcdef', '--save-snapshots', join(dir, 'snaps'), '-f', 'json']);
    expect(r.stderr).toBe(`mcp-annotate: note: ${command}: its snapshot is saved as ${join(dir, 'snaps', 'misbehave-deep.json')}\n`);
    const report = JSON.parse(r.stdout);
    expect(report.findings.map((f: { ruleId: string }) => f.ruleId).sort()).toEqual(['implicit-open-world', 'input-schema-valid']);
    const snapshot = readFileSync(join(dir, 'snaps', 'misbehave-deep.json'), 'utf8');
    expect(snapshot.split('\n')).toHaveLength(2);
    const again = await runCli(['lint', join(dir, 'snaps', 'misbehave-deep.json'), '-f', 'json']);
    expect(JSON.parse(again.stdout).findings.map((f: { ruleId: string }) => f.ruleId).sort()).toEqual(['implicit-open-world', 'input-schema-valid']);
  });

  it('an initialize result that is not valid MCP is named as such', async () => {
    const command = serverCommand('misbehave.mjs', 'bad-init');
    const r = await runCli(['lint', '--stdio', command]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`${command}: the server's initialize result is not valid MCP (serverInfo.version: Invalid input: expected string, received undefined), so the MCP SDK would not continue\n`);
  });

  it('--concurrency runs servers side by side', async () => {
    const slow = Array.from({ length: 3 }, () => ['--stdio', serverCommand('misbehave.mjs', 'slow-ok')]).flat();
    const time = async (n: string) => {
      const start = Date.now();
      const r = await runCli(['lint', ...slow, '--concurrency', n, '-f', 'json'], { env: { SLOW_MS: '400' } });
      expect(JSON.parse(r.stdout).servers).toHaveLength(3);
      return Date.now() - start;
    };
    const parallel = await time('3');
    const serial = await time('1');
    expect(serial).toBeGreaterThan(3 * 400);
    expect(parallel).toBeLessThan(serial - 600);
  });
});

describe('no orphan processes', () => {
  it('on timeout, the server and the child it started (which ignores SIGTERM) are gone', async () => {
    const dir = tempDir();
    const pids = join(dir, 'pids.json');
    const r = await runCli(['lint', '--timeout', '1.5', '--stdio', serverCommand('misbehave.mjs', 'grandchild', pids)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/timed out after 1\.5 s/);
    const { server, grandchild } = JSON.parse(readFileSync(pids, 'utf8'));
    expect(alive(server)).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });

  it('after a normal run, a server\'s children are gone too', async () => {
    const dir = tempDir();
    const pids = join(dir, 'pids.json');
    const r = await runCli(['lint', '--stdio', serverCommand('misbehave.mjs', 'grandchild-ok', pids), '-f', 'json']);
    expect(r.code).toBe(0);
    const { server, grandchild } = JSON.parse(readFileSync(pids, 'utf8'));
    expect(alive(server)).toBe(false);
    expect(alive(grandchild)).toBe(false);
  });

  it('on Ctrl-C (SIGINT): every server group is stopped, nothing on stdout, exit 130', async () => {
    const dir = tempDir();
    const pidsA = join(dir, 'a.json');
    const pidsB = join(dir, 'b.json');
    const child = spawn(process.execPath, [BIN, 'lint', '--stdio', serverCommand('misbehave.mjs', 'grandchild', pidsA), '--stdio', serverCommand('misbehave.mjs', 'grandchild', pidsB)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await waitFor(() => existsSync(pidsA) && existsSync(pidsB), 10_000, 'both servers to start');
    const a = JSON.parse(readFileSync(pidsA, 'utf8'));
    const b = JSON.parse(readFileSync(pidsB, 'utf8'));
    expect([a.server, a.grandchild, b.server, b.grandchild].every(alive)).toBe(true);
    const sent = Date.now();
    child.kill('SIGINT');
    const code = await exited;
    expect(Date.now() - sent).toBeLessThan(5000);
    expect(code).toBe(130);
    expect(stdout).toBe('');
    expect(stderr).toBe('mcp-annotate: interrupted (SIGINT); every server started was stopped\n');
    for (const pid of [a.server, a.grandchild, b.server, b.grandchild]) expect(alive(pid)).toBe(false);
  });
});

describe('a process that leaves the server\'s process group (setsid) and holds its stdout', () => {
  const escaped: number[] = [];
  afterAll(() => {
    for (const pid of escaped) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
  const grandchildOf = (file: string) => {
    const { grandchild } = JSON.parse(readFileSync(file, 'utf8'));
    escaped.push(grandchild);
    return grandchild as number;
  };

  it('does not keep lint or dump running after the report', async () => {
    const dir = tempDir();
    const started = Date.now();
    const lint = await runCli(['lint', '--stdio', serverCommand('misbehave.mjs', 'escape-ok', join(dir, 'a.json')), '-f', 'json'], { timeoutMs: 15_000 });
    grandchildOf(join(dir, 'a.json'));
    expect(lint.stderr).toBe('');
    expect(lint.code).toBe(0);
    expect(JSON.parse(lint.stdout).summary.servers).toBe(1);
    const dump = await runCli(['dump', '--stdio', serverCommand('misbehave.mjs', 'escape-ok', join(dir, 'b.json'))], { timeoutMs: 15_000 });
    grandchildOf(join(dir, 'b.json'));
    expect(dump.code).toBe(0);
    expect(JSON.parse(dump.stdout).tools).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('on Ctrl-C the run ends, and does not claim that process was stopped', async () => {
    const dir = tempDir();
    const pids = join(dir, 'p.json');
    const child = spawn(process.execPath, [BIN, 'lint', '--stdio', serverCommand('misbehave.mjs', 'escape', pids)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await waitFor(() => existsSync(pids), 10_000, 'the server to start');
    const grandchild = grandchildOf(pids);
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
    const code = await exited;
    clearTimeout(timer);
    expect(code).toBe(130);
    expect(stderr).toBe(
      'mcp-annotate: interrupted (SIGINT); every server started was stopped, except what a server started outside its process group (setsid or detached), which may still be running\n',
    );
    expect(alive(grandchild)).toBe(true);
  });
});

describe('redirects', () => {
  it('a redirect to another origin is not followed, so the headers given for one server never reach another', async () => {
    const other = await startHttpServer({ mode: 'streamable', ...fixture });
    // Another port is another origin.
    const away = await startHttpServer({ mode: 'redirect', location: other.url });
    try {
      const r = await runCli(['lint', '--url', away.url, '--header', 'X-Api-Key: k-0123456789abcdef', '-f', 'json']);
      expect(r.code).toBe(2);
      // The MCP SDK's transports refuse it; one line says so, naming the other origin.
      const there = new URL(other.url);
      expect(r.stderr).toBe(
        `${away.url}: the server redirected to another origin (HTTP 307 Temporary Redirect to "${there.origin}${there.pathname}") while waiting for the initialize response, which is not followed, so the headers given for one server never reach another; if that is the server, give its URL\n`,
      );
      expect(r.stderr).not.toContain('k-0123456789abcdef');
      expect(away.requests[0]!.headers['x-api-key']).toBe('k-0123456789abcdef');
      // Nor over SSE.
      const sse = await runCli(['lint', '--url', away.url, '--transport', 'sse', '--header', 'X-Api-Key: k-0123456789abcdef']);
      expect(sse.stderr).toBe(
        `${away.url}: the server redirected to another origin (HTTP 307 Temporary Redirect to "${there.origin}${there.pathname}") while connecting, which is not followed, so the headers given for one server never reach another; if that is the server, give its URL\n`,
      );
      expect(other.requests).toEqual([]);
    } finally {
      await Promise.all([other.close(), away.close()]);
    }
  });

  it('a redirect within the same origin that is not followed says why: a 301/302 of a POST, too many in a row, a user name and password added', async () => {
    const server = await rawHttp((req, res) => {
      if (req.url === '/cred') return void res.writeHead(307, { location: `${server.base.replace('//', '//alice:p4ssw0rdXYZ@')}/status/500` }).end();
      if (req.url === '/moved') return void res.writeHead(301, { location: '/good' }).end();
      if (req.url === '/found') return void res.writeHead(302, { location: '/found' }).end();
      if (req.url === '/loop') return void res.writeHead(307, { location: '/loop' }).end();
      res.writeHead(404).end();
    });
    try {
      const r = await runCli(['lint', '--no-config', '--timeout', '60', ...['cred', 'moved', 'found', 'loop'].flatMap((p) => ['--url', `${server.base}/${p}`])], { timeoutMs: 30_000 });
      const sse = await runCli(['lint', '--no-config', '--timeout', '60', '--transport', 'sse', '--url', `${server.base}/found`], { timeoutMs: 30_000 });
      const cred = await runCli(['lint', '--no-config', '--timeout', '60', '--transport', 'sse', '--url', `${server.base}/cred`], { timeoutMs: 30_000 });
      expect(cred.stderr).toBe(
        `${server.base}/cred: the server redirected to a URL with a user name or password in it (HTTP 307 Temporary Redirect to "${server.base}/status/500", credentials not shown) while connecting, which is not followed: credentials are never taken from a redirect; give the URL it redirects to, with the credentials as an Authorization header\n`,
      );
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        `${server.base}/cred: the server redirected to a URL with a user name or password in it (HTTP 307 Temporary Redirect to "${server.base}/status/500", credentials not shown) while waiting for the initialize response, which is not followed: credentials are never taken from a redirect; give the URL it redirects to, with the credentials as an Authorization header`,
        `${server.base}/found: the server answered a POST with a redirect (HTTP 302 Found to "${server.base}/found") while waiting for the initialize response, which is not followed: a 302 turns a POST into a GET, losing the request; give the target URL, or have the server redirect with 307 or 308`,
        `${server.base}/loop: the server redirected more than 5 times in a row (HTTP 307 Temporary Redirect to "${server.base}/loop", a loop?) while waiting for the initialize response; give the URL the redirects end at`,
        `${server.base}/moved: the server answered a POST with a redirect (HTTP 301 Moved Permanently to "${server.base}/good") while waiting for the initialize response, which is not followed: a 301 turns a POST into a GET, losing the request; give the target URL, or have the server redirect with 307 or 308`,
      ]);
      expect(sse.stderr).toBe(`${server.base}/found: the server redirected more than 5 times in a row (HTTP 302 Found to "${server.base}/found", a loop?) while connecting; give the URL the redirects end at\n`);
      for (const out of [r.stderr, sse.stderr, cred.stderr]) {
        expect(out).not.toContain('redirectPolicy');
        expect(out).not.toMatch(/alice|p4ssw0rd/);
      }
    } finally {
      server.close();
    }
  });

  it('a redirect within the same origin is followed', async () => {
    const server = await startHttpServer({ mode: 'streamable', ...fixture, moved: '/old' });
    try {
      const direct = await runCli(['lint', '--url', server.url, '-f', 'json']);
      const via = await runCli(['lint', '--url', server.url.replace('/mcp', '/old'), '-f', 'json']);
      expect(via.stderr).toBe('');
      expect(JSON.parse(via.stdout).summary).toEqual(JSON.parse(direct.stdout).summary);
      expect(server.requests.some((q) => q.url === '/old')).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('secrets never appear in any output', () => {
  const SECRET = 'PLANTED-s3cr3t-9f8e7d6c5b4a';

  it('header values, env values, resolved ${VAR}s and URL query values: not in text, json, sarif, snapshots, errors', async () => {
    const authed = await startHttpServer({ mode: 'streamable', ...fixture, token: SECRET });
    try {
      const dir = tempDir({
        'mcp.json': json({
          mcpServers: {
            remote: { url: authed.url, headers: { Authorization: 'Bearer ${API_SECRET}' } },
            refused: { url: authed.url, headers: { Authorization: `Token ${SECRET}` } },
            echo: { ...serverArgv('misbehave.mjs', 'echo-secret'), env: { SECRET: '${API_SECRET}' } },
            env: { ...serverArgv('stdio-tools.mjs', VOCAB_FIXTURE), env: { TOKEN: SECRET, REQUIRE_TOKEN: SECRET } },
          },
        }),
      });
      const env = { API_SECRET: SECRET };
      const runs = [
        await runCli(
          [
            'lint', '--mcp-config', 'mcp.json',
            '--url', authed.url, '--header', 'Authorization: Bearer ${API_SECRET}',
            '--url', authed.url, '--header', `X-Other: ${SECRET}`,
            '--stdio', serverCommand('misbehave.mjs', 'echo-secret'), '--env', `SECRET=${SECRET}`,
            '--save-snapshots', 'snaps', '-f', 'json', '-o', 'out.json', '-f', 'sarif', '-o', 'out.sarif', '-f', 'text',
          ],
          { cwd: dir, env },
        ),
        await runCli(['dump', '--url', authed.url, '--header', `Authorization: Bearer ${SECRET}`], { cwd: dir }),
        await runCli(['dump', '--url', authed.url, '--header', `Authorization: Bearer wrong-${SECRET}`], { cwd: dir }),
        await runCli(['lint', '--mcp-config', 'mcp.json', '--discover'], { cwd: dir, env: { ...env, HOME: dir } }),
        // A key in the URL's query: the server is reached with it, and it is shown as ***.
        await runCli(['lint', '--url', `${authed.url}?api_key=${SECRET}&v=\${API_VERSION}`, '--header', `Authorization: Bearer ${SECRET}`, '-f', 'json'], { cwd: dir, env: { API_VERSION: '2' } }),
      ];
      expect(runs[4]!.stderr).toBe('');
      // A variable reference is no secret: it is shown as written.
      expect(JSON.parse(runs[4]!.stdout).servers.map((s: { source: string }) => s.source)).toEqual([`${authed.url}?api_key=***&v=\${API_VERSION}`]);
      // The runs did use the secret: the servers that needed it answered, and the ones that echo it were heard.
      expect(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')).servers.map((s: { name: string }) => s.name)).toEqual(
        expect.arrayContaining(['remote', 'env', 'vocab-server']),
      );
      expect(runs[0]!.stderr).toContain('its stderr ended with "connecting with key ***"');
      expect(runs[0]!.stderr).toContain('HTTP 401 Unauthorized while waiting for the initialize response: "invalid credentials: ***"');
      expect(runs[1]!.code).toBe(0);
      expect(runs[2]!.stderr).toContain('"invalid credentials: ***"');
      const outputs = [
        ...runs.flatMap((r) => [r.stdout, r.stderr]),
        readFileSync(join(dir, 'out.json'), 'utf8'),
        readFileSync(join(dir, 'out.sarif'), 'utf8'),
        ...readdirSync(join(dir, 'snaps')).map((f) => readFileSync(join(dir, 'snaps', f), 'utf8')),
      ];
      expect(readdirSync(join(dir, 'snaps')).length).toBeGreaterThanOrEqual(3);
      for (const text of outputs) {
        expect(text).not.toContain(SECRET);
        expect(text).not.toContain('s3cr3t');
      }
    } finally {
      await authed.close();
    }
  });

  it("a secret the server split with a hidden character, or spelled in tag characters, stays hidden in the rules' fixes and messages", async () => {
    const SECRET = 's3cr3tValue_xyz';
    const dir = tempDir({});
    const args = ['lint', '--no-config', '--stdio', serverCommand('misbehave.mjs', 'split-secret'), '--env', 'SECRET=${SPLIT_SECRET}'];
    const runs = await Promise.all(['json', 'sarif', 'text', 'markdown', 'github'].map((f) => runCli([...args, '-f', f], { cwd: dir, env: { SPLIT_SECRET: SECRET } })));
    const json = JSON.parse(runs[0]!.stdout) as { findings: { ruleId: string; message: string; fix?: { replacements: { text: string }[] } }[] };
    const hidden = json.findings.filter((f) => f.ruleId === 'hidden-characters');
    // Both were found, and what the server hid is named: but the secret they spell is not.
    expect(hidden.length).toBe(2);
    expect(hidden.map((f) => f.fix?.replacements[0]?.text)).toContain('"uses ***"');
    expect(hidden.some((f) => f.message.includes('spelling out "***"'))).toBe(true);
    for (const r of runs) {
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.stdout + r.stderr).not.toContain('s3cr3tV');
    }
    // Only that server's findings: a file of the same run (the user's own, whose fix must apply as written) is not
    // redacted with a value given to a server, and neither is another server's.
    writeFileSync(join(dir, 'local.json'), JSON.stringify({ tools: [{ name: 'deploy', description: 'Sets readOnly\u200bHint.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false } }] }));
    writeFileSync(
      join(dir, 'mcp.json'),
      JSON.stringify({ mcpServers: { split: { ...serverArgv('misbehave.mjs', 'split-secret'), env: { SECRET: 'readOnlyHint' } }, vocab: serverArgv('stdio-tools.mjs', VOCAB_FIXTURE) } }),
    );
    const mixed = await runCli(['lint', '--no-config', '-f', 'json', 'local.json', '--mcp-config', 'mcp.json'], { cwd: dir });
    const fixes = (JSON.parse(mixed.stdout) as { findings: { serverId: string; server: string; ruleId: string; message: string; fix?: { replacements: { text: string }[] } }[] }).findings;
    expect(fixes.find((f) => f.serverId === 'local.json' && f.ruleId === 'hidden-characters')!.fix!.replacements[0]!.text).toBe('"Sets readOnlyHint."');
    expect(fixes.find((f) => f.server === 'split' && f.ruleId === 'hidden-characters' && f.fix)!.fix!.replacements[0]!.text).toBe('"uses ***"');
    // The other server's findings say "readOnlyHint" in their own words, unredacted.
    const other = fixes.filter((f) => f.server === 'vocab');
    expect(other.some((f) => f.message.includes('readOnlyHint'))).toBe(true);
    expect(other.some((f) => f.message.includes('***'))).toBe(false);
  });

  it('a secret is hidden before what the server said is cut or escaped: cut by the quotation or the stderr tail, holding a quote or a tab, echoed in an HTTP error body', async () => {
    const echo = createHttpServer((req, res) => {
      const status = req.url === '/400' ? 400 : 500;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(`${'x'.repeat(90)} header was ${req.headers['x-api-key'] ?? ''}`);
    });
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    try {
      const dir = tempDir({
        'mcp.json': json({
          mcpServers: {
            late: { ...serverArgv('misbehave.mjs', 'echo-secret'), env: { SECRET, PAD_BEFORE: '120' } },
            tail: { ...serverArgv('misbehave.mjs', 'echo-secret'), env: { SECRET, PAD_AFTER: '4090' } },
            quote: { ...serverArgv('misbehave.mjs', 'echo-secret'), env: { SECRET: 'pa"ss-word-Secret-9876' } },
            tab: { ...serverArgv('misbehave.mjs', 'echo-secret'), env: { SECRET: 'tab\there-Secret-5555' } },
            http400: { url: `${base}/400`, headers: { 'X-Api-Key': `"quoted"-${SECRET}` } },
            http500: { url: `${base}/500`, headers: { 'X-Api-Key': `"quoted"-${SECRET}` } },
          },
        }),
      });
      const r = await runCli(['lint', '--mcp-config', 'mcp.json'], { cwd: dir });
      expect(r.code).toBe(2);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(6);
      const line = (name: string) => lines.find((l) => l.includes(`server "${name}"`))!;
      expect(line('late')).toContain(`its stderr ended with "${'y'.repeat(120)}connecting with key ***"`);
      expect(line('tail')).toMatch(/its stderr ended with "\*\*\*z{100,}…"$/);
      expect(line('quote')).toContain('its stderr ended with "connecting with key ***"');
      expect(line('tab')).toContain('its stderr ended with "connecting with key ***"');
      expect(line('http500')).toContain('HTTP 500 Internal Server Error');
      for (const text of [r.stdout, r.stderr]) {
        for (const part of ['s3cr3t', 'PLANTED', '9f8e7d6c5b4a', 'ss-word', 'here-Secret', 'quoted']) expect(text).not.toContain(part);
      }
    } finally {
      echo.close();
      echo.closeAllConnections();
    }
  });

  it('a secret the server echoes JSON-escaped or \\u-escaped is hidden too: on its stderr, in a line on stdout, in text, json and sarif', async () => {
    const dir = tempDir();
    const secrets = ['ab"cdefghij-Secret', 'tok\\en12345-Secret', 'pässwörd-Secret-77'];
    for (const value of secrets) {
      const args = ['lint', '--no-config', '--timeout', '5', '--env', 'SECRET=${K}', '--stdio', serverCommand('misbehave.mjs', 'echo-secret-json'), '--stdio', serverCommand('misbehave.mjs', 'echo-secret-stdout')];
      const text = await runCli(args, { cwd: dir, env: { K: value } });
      expect(text.code).toBe(2);
      expect(text.stderr).toContain('its stderr ended with "config {\\"config\\":{\\"k\\":\\"***\\"}}"');
      expect(text.stderr).toContain('not a JSON-RPC message ("{\\"config\\":{\\"k\\":\\"***\\"}}")');
      const reports = await Promise.all(['json', 'sarif'].map((f) => runCli([...args, '-f', f], { cwd: dir, env: { K: value } })));
      for (const out of [text.stdout, text.stderr, ...reports.flatMap((r) => [r.stdout, r.stderr])]) {
        expect(out).not.toMatch(/cdefghij|en12345|-Secret|Secret-77/);
      }
      expect(reports[0]!.stdout).toContain('***');
    }
  });

  it('a secret the server echoes partly escaped (.NET \\u002B, percent-encoded) is hidden too', async () => {
    const dir = tempDir({
      'srv.js': [
        "const s = process.env.SECRET;",
        "process.stderr.write(`fatal: GET /x?key=${encodeURIComponent(s)}: bad key in config {\"key\":\"${s.replace(/\\+/g, '\\\\u002B')}\"}\\n`);",
        'process.exit(1);',
      ].join('\n'),
    });
    const args = ['lint', '--no-config', '--timeout', '5', '--stdio', 'node srv.js', '--env', 'SECRET=${SECRET}'];
    const text = await runCli(args, { cwd: dir, env: { SECRET: 'abc+def/ghi=jk' } });
    expect(text.code).toBe(2);
    expect(text.stderr).toBe('node srv.js: the server exited with code 1 while waiting for the initialize response; its stderr ended with "fatal: GET /x?key=***: bad key in config {\\"key\\":\\"***\\"}"\n');
    const json = await runCli([...args, '-f', 'json'], { cwd: dir, env: { SECRET: 'abc+def/ghi=jk' } });
    for (const out of [text.stdout, text.stderr, json.stdout, json.stderr]) expect(out).not.toMatch(/def|ghi/);
    expect(json.stdout).toContain('***');
  });

  it('a URL whose user-info is not right after scheme:// (leading blank, tab, one or three slashes, backslashes, none) has it hidden too', async () => {
    const urls = [' https://user:hunter2pw@127.0.0.1:1/', '\thttps://user:hunter2pw@127.0.0.1:1/', 'https:/user:hunter2pw@127.0.0.1:1/', 'https:///user:hunter2pw@127.0.0.1:1/', 'https:\\\\user:hunter2pw@127.0.0.1:1/', 'https:user:hunter2pw@127.0.0.1:1/', 'https://us\ter:hunter2\npw@127.0.0.1:1/'];
    const dir = tempDir();
    for (const url of urls) {
      const text = await runCli(['lint', '--no-config', '--url', url], { cwd: dir });
      const report = await runCli(['lint', '--no-config', '--url', url, '-f', 'json'], { cwd: dir });
      expect(text.code).toBe(2);
      expect(text.stderr).toBe('https://***@127.0.0.1:1/: https://***@127.0.0.1:1/ holds a user name or password (user:password@), which HTTP clients do not send from a URL: give them as a header instead, e.g. "Authorization: Basic <base64 of user:password>"\n');
      expect((JSON.parse(report.stdout) as { inputErrors: { target: string }[] }).inputErrors.map((e) => e.target)).toEqual(['https://***@127.0.0.1:1/']);
      for (const out of [text.stdout, text.stderr, report.stdout, report.stderr]) expect(out).not.toMatch(/hunter2|pw@|user:hunter/);
    }
  });

  it("a URL's whole user-info and a bare query part are hidden: in the target, its refusal and an error body that echoes them", async () => {
    const echo = createHttpServer((req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`no such path ${req.url}`));
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    try {
      const dir = tempDir({ '.cursor/mcp.json': json({ mcpServers: { cursor: { url: 'https://ghp_tokenAsUser999@mcp.example.com/mcp' } } }) });
      const runs = [
        await runCli(['lint', '--no-config', '--url', `${base}/ok?sk-bareQuerySecret99`, '--url', 'http://ghp_secrettoken123@127.0.0.1:9/ok', '--url', 'http://user:pa@ss-Secret@127.0.0.1:9/', '-f', 'json'], { cwd: dir }),
        await runCli(['lint', '--no-config', '--url', `${base}/ok?sk-bareQuerySecret99`, '--url', 'http://ghp_secrettoken123@127.0.0.1:9/ok'], { cwd: dir }),
        await runCli(['lint', '--discover', '--no-config'], { cwd: dir, env: { HOME: dir } }),
      ];
      const report = JSON.parse(runs[0]!.stdout) as { inputErrors: { target: string; message: string }[] };
      const messages = new Map(report.inputErrors.map((e) => [e.target, e.message]));
      expect([...messages.keys()].sort()).toEqual([`${base}/ok?***`, 'http://***@127.0.0.1:9/', 'http://***@127.0.0.1:9/ok'].sort());
      expect(messages.get(`${base}/ok?***`)).toBe(`${base}/ok?***: HTTP 500 Internal Server Error while waiting for the initialize response: "no such path /ok?***"`);
      expect(messages.get('http://***@127.0.0.1:9/ok')).toContain('http://***@127.0.0.1:9/ok holds a user name or password');
      // --discover lists what it found, and why a server cannot be started as written.
      expect(runs[2]!.stdout).toContain('"url" (https://***@mcp.example.com/mcp) holds a user name or password');
      expect(runs.map((r) => r.code)).toEqual([2, 2, 0]);
      for (const r of runs) {
        for (const part of ['bareQuerySecret', 'secrettoken', 'tokenAsUser', 'pa@ss', 'ss-Secret']) expect(r.stdout + r.stderr).not.toContain(part);
      }
    } finally {
      echo.close();
      echo.closeAllConnections();
    }
  });

  it('a 401/403 to credentials that were given says they were refused (never showing them); a Basic password echoed decoded is hidden', async () => {
    const basic = `Basic ${Buffer.from('alice:hunter2pass').toString('base64')}`;
    const server = createHttpServer((req, res) => {
      const auth = req.headers.authorization ?? '';
      // Echoes the credentials decoded, as some servers' error pages do.
      const decoded = auth.startsWith('Basic ') ? Buffer.from(auth.slice(6), 'base64').toString('utf8') : auth;
      res.writeHead(req.url === '/forbidden' ? 403 : 401, { 'content-type': 'text/plain' }).end(decoded ? `refused ${decoded} (password ${decoded.split(':')[1]})` : 'no credentials');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const dir = tempDir({
        'mcp.json': json({
          mcpServers: {
            withHeaders: { url: `${base}/forbidden`, headers: { Authorization: basic, 'X-Api-Key': 'key-${API_KEY}' } },
            withoutHeaders: { url: `${base}/locked` },
            // Not credentials: the hint says how to give some.
            tenantOnly: { url: `${base}/locked`, headers: { 'X-Tenant': 'acme' } },
          },
        }),
      });
      const args = ['lint', '--url', `${base}/forbidden`, '--header', `Authorization: ${basic}`, '--header', 'Accept: application/json, text/event-stream'];
      const runs = [
        await runCli(args, { cwd: dir }),
        await runCli([...args, '-f', 'json'], { cwd: dir }),
        await runCli(['lint', '--mcp-config', 'mcp.json', '-f', 'sarif'], { cwd: dir, env: { API_KEY: 'k3y-value-Secret' } }),
      ];
      expect(runs.map((r) => r.code)).toEqual([2, 2, 2]);
      expect(runs[0]!.stderr).toBe(
        `${base}/forbidden: HTTP 403 Forbidden while waiting for the initialize response: "refused *** (password ***)" (the server refused the credentials given with --header: the Authorization header; check its value, not shown here)\n`,
      );
      expect(runs[1]!.stderr).toBe(runs[0]!.stderr);
      expect(runs[2]!.stderr.trimEnd().split('\n').sort()).toEqual([
        'mcp.json:3:5: server "withHeaders": HTTP 403 Forbidden while waiting for the initialize response: "refused *** (password ***)" (the server refused the credentials given in the "headers" of its entry in mcp.json: the Authorization and X-Api-Key headers; check their values, not shown here)',
        'mcp.json:10:5: server "withoutHeaders": HTTP 401 Unauthorized while waiting for the initialize response: "no credentials" (give credentials in the "headers" of its entry in mcp.json, e.g. "headers": {"Authorization": "Bearer ${TOKEN}"})',
        'mcp.json:13:5: server "tenantOnly": HTTP 401 Unauthorized while waiting for the initialize response: "no credentials" (give credentials in the "headers" of its entry in mcp.json, e.g. "headers": {"Authorization": "Bearer ${TOKEN}"})',
      ].sort());
      // Only credential headers count as credentials given (Authorization, Cookie, names with api-key, token, secret, auth).
      const tenant = await runCli(['lint', '--url', `${base}/locked`, '--header', 'X-Tenant: acme'], { cwd: dir });
      expect(tenant.stderr).toBe(`${base}/locked: HTTP 401 Unauthorized while waiting for the initialize response: "no credentials" (pass credentials with --header, e.g. --header "Authorization: Bearer \${TOKEN}")\n`);
      const mixed = await runCli(['lint', '--url', `${base}/locked`, '--header', 'X-Tenant: acme', '--header', 'x-auth-token: t0ken-value', '--header', 'Cookie: sid=abc'], { cwd: dir });
      expect(mixed.stderr).toBe(`${base}/locked: HTTP 401 Unauthorized while waiting for the initialize response: "no credentials" (the server refused the credentials given with --header: the x-auth-token and Cookie headers; check their values, not shown here)\n`);
      for (const r of runs) for (const part of ['hunter2', 'alice:', Buffer.from('alice:hunter2pass').toString('base64'), 'k3y-value']) expect(r.stdout + r.stderr).not.toContain(part);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });

  it("a key in a URL's path (/mcp/sk-…/sse) is hidden: in the target, the discover listing, an error body that echoes it, every format; ordinary paths stay readable", async () => {
    const echo = createHttpServer((req, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`no such path ${req.url}`));
    await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    try {
      const dir = tempDir({
        '.mcp.json': json({
          mcpServers: {
            zap: { url: 'https://actions.zapier.com/mcp/sk-ak-Zq8Rm2Xv5Kp9Tn3Wb7Yc4Hd6/sse' },
            opaque: { url: 'https://mcp.example.com/s/Xk9fP2mQ7rT4vB8nW3yZ6cD1/mcp' },
            plain: { url: 'https://mcp.example.com/v1/sse' },
            named: { url: 'https://mcp.example.com/api/tools/my-server-2024/listAllToolsForWorkspace' },
          },
        }),
      });
      const url = `${base}/mcp/sk-ak-Pt4Hs7Ec2Rx9Tq1Lm5Vb8N/sse`;
      const shown = `${base}/mcp/***/sse`;
      const formats = await Promise.all(['text', 'json', 'sarif', 'github', 'markdown'].map((f) => runCli(['lint', '--no-config', '--url', url, '-f', f], { cwd: dir })));
      const discover = await runCli(['lint', '--discover'], { cwd: dir, env: { HOME: dir } });
      const dump = await runCli(['dump', '--url', url], { cwd: dir });
      expect(formats.map((r) => r.code)).toEqual([2, 2, 2, 2, 2]);
      expect(formats[0]!.stderr).toBe(`${shown}: HTTP 500 Internal Server Error while waiting for the initialize response: "no such path /mcp/***/sse"\n`);
      expect((JSON.parse(formats[1]!.stdout) as { inputErrors: { target: string }[] }).inputErrors.map((e) => e.target)).toEqual([shown]);
      expect(dump.stderr).toBe(formats[0]!.stderr);
      expect(discover.stdout).toContain('zap     http   https://actions.zapier.com/mcp/***/sse');
      expect(discover.stdout).toContain('opaque  http   https://mcp.example.com/s/***/mcp');
      expect(discover.stdout).toContain('plain   http   https://mcp.example.com/v1/sse');
      expect(discover.stdout).toContain('named   http   https://mcp.example.com/api/tools/my-server-2024/listAllToolsForWorkspace');
      for (const r of [...formats, discover, dump]) {
        for (const part of ['Zq8Rm2Xv5Kp9', 'Pt4Hs7Ec2Rx9', 'Xk9fP2mQ']) expect(r.stdout + r.stderr).not.toContain(part);
      }
    } finally {
      echo.close();
      echo.closeAllConnections();
    }
  });

  it("words in a URL's path that are no keys (GitHubMCPServerV2, sk-learn-tutorial-server) are neither hidden nor rewritten in what the server says", async () => {
    const path = '/GitHubMCPServerV2/sk-learn-tutorial-server/mcp';
    const server = await startHttpServer({ mode: 'streamable', ...fixture, serverInfo: { name: 'GitHubMCPServerV2', version: '1.0.0' }, moved: path });
    try {
      const url = server.url.replace(/\/mcp$/, path);
      const dump = await runCli(['dump', '--url', url]);
      expect(dump.stderr).toBe('');
      const snapshot = JSON.parse(dump.stdout) as { serverInfo?: { name?: string } };
      expect(snapshot.serverInfo?.name).toBe('GitHubMCPServerV2');
      expect(dump.stdout).not.toContain('***');
      const lint = await runCli(['lint', '--no-config', '--url', url, '-f', 'json', '--fail-on', 'none']);
      expect(lint.stdout).toContain(`"${url}"`);
      expect(lint.stdout).not.toContain('***');
    } finally {
      await server.close();
    }
  });

  it('a header or env value that fetch or spawn would refuse is named, never quoted, not even the part before a line break', async () => {
    // Refused before connecting: nothing listens at this URL, and nothing needs to.
    const url = 'http://127.0.0.1:8/mcp';
    const dir = tempDir({
      'mcp.json': json({
        mcpServers: {
          crlf: { url, headers: { Authorization: `Bearer ${SECRET}\r\nX-More: 1` } },
          wide: { url, headers: { Authorization: `Bearer ${SECRET}\u{1F600}` } },
          name: { url, headers: { 'Bad Name': SECRET } },
          nul: { ...serverArgv('stdio-tools.mjs', VOCAB_FIXTURE), env: { TOKEN: `${SECRET}\u0000more` } },
        },
      }),
    });
    const r = await runCli(['lint', '--mcp-config', 'mcp.json', '--url', url, '--header', `Authorization: Bearer ${SECRET}\r\nX: 1`], { cwd: dir });
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n').sort();
    expect(lines).toEqual([
      `${url}: the value of the Authorization header holds a line break or a NUL character, which HTTP does not allow (the value is not shown; a token read from a file often ends with "\\r\\n")`,
      'mcp.json:15:5: server "name": the header name "Bad Name" is not a valid HTTP header name (letters, digits and !#$%&\'*+.^_`|~- only)',
      'mcp.json:21:5: server "nul": the environment variable TOKEN holds a NUL character, which no program can be given (the value is not shown)',
      'mcp.json:3:5: server "crlf": the value of the Authorization header holds a line break or a NUL character, which HTTP does not allow (the value is not shown; a token read from a file often ends with "\\r\\n")',
      `mcp.json:9:5: server "wide": the value of the Authorization header holds characters beyond U+00FF, which HTTP headers cannot carry (the value is not shown)`,
    ]);
    expect(r.stdout + r.stderr).not.toContain('s3cr3t');
  });
});

/** A raw HTTP handler on 127.0.0.1 (an ephemeral port): its base URL, and how to stop it. */
async function rawHttp(handler: (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, message: { id?: unknown; method?: string } | undefined) => void) {
  const server = createHttpServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    let message: { id?: unknown; method?: string } | undefined;
    try {
      message = body ? JSON.parse(body) : undefined;
    } catch {
      message = undefined;
    }
    handler(req, res, message);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const initResponse = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } });

describe('a Streamable HTTP server that answered initialize', () => {
  it('is not taken for a legacy SSE server when a later request fails with a 4xx: the failure is said as it is', async () => {
    const requests: string[] = [];
    const server = await rawHttp((req, res, message) => {
      requests.push(message?.method ?? req.method!);
      if (req.method === 'GET') return void res.writeHead(405).end();
      if (req.method === 'DELETE') return void res.writeHead(200).end();
      if (message?.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json' }).end(initResponse(message.id));
      if (message?.method === 'tools/list') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Session not found');
      res.writeHead(202).end();
    });
    try {
      const r = await runCli(['lint', '--no-config', '--timeout', '10', '--url', `${server.base}/mcp`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`${server.base}/mcp: HTTP 404 Not Found while listing tools (page 1): "Session not found"\n`);
      // No GET after the failure: the legacy SSE transport was not tried.
      expect(requests.slice(requests.indexOf('tools/list'))).not.toContain('GET');
    } finally {
      server.close();
    }
  });
});

describe('a server that answers wrongly', () => {
  it('fails at once, saying what it sent: an error without an id, a response to an id never sent, JSON holding only a notification; one that sends only notifications says so at the deadline', async () => {
    const server = await rawHttp((req, res, message) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const json = (body: unknown) => void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (message?.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json' }).end(initResponse(message.id));
      if (message?.method !== 'tools/list') return void res.writeHead(202).end();
      if (req.url === '/wrong-id') return json({ jsonrpc: '2.0', id: 4242, result: { tools: [] } });
      json({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'listing' } });
    });
    try {
      const bad = (mode: string) => serverCommand('misbehave.mjs', mode);
      const started = Date.now();
      const r = await runCli(['lint', '--no-config', '--timeout', '60', '--concurrency', '6', ...['error-no-id', 'wrong-id'].flatMap((m) => ['--stdio', bad(m)]), '--url', `${server.base}/wrong-id`, '--url', `${server.base}/notification`], { timeoutMs: 30_000 });
      // Not at the deadline.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(r.code).toBe(2);
      const notifying = await runCli(['lint', '--no-config', '--timeout', '2', '--stdio', bad('notify-only')]);
      const lines = [...r.stderr.trimEnd().split('\n'), ...notifying.stderr.trimEnd().split('\n')];
      expect(lines).toEqual([
        `${bad('error-no-id')}: the server answered with error -32600 while waiting for the initialize response, without the id of the request it answers: "unsupported protocol version xyz"`,
        expect.stringMatching(/^.* wrong-id: the server sent a response to request id 999, which was never sent, while waiting for the initialize response \("\{\\"jsonrpc\\":\\"2.0\\",\\"id\\":999,/),
        `${server.base}/notification: the server answered a request with JSON that holds no response to it (it held a notification "notifications/message") while listing tools (page 1)`,
        `${server.base}/wrong-id: the server sent a response to request id 4242, which was never sent, while listing tools (page 1) ("{\\"jsonrpc\\":\\"2.0\\",\\"id\\":4242,\\"result\\":{\\"tools\\":[]}}")`,
        `${bad('notify-only')}: timed out after 2 s while waiting for the initialize response (--timeout 2); the server sent 1 message but no response (a notification "notifications/message")`,
      ]);
    } finally {
      server.close();
    }
  });
});

describe('an HTTP server that answers with an error whose id is null', () => {
  it('fails at once with what it said, as over stdio: a JSON body, an event stream closed or left open, a legacy SSE event', async () => {
    const idless = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'bad' } });
    const server = await rawHttp((req, res, message) => {
      if (req.url === '/sse' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: endpoint\ndata: /sse-messages\n\n');
        server.sse = res;
        return;
      }
      if (req.url === '/sse-messages') {
        res.writeHead(202).end();
        if (message?.method === 'initialize') server.sse?.write(`event: message\r\ndata: ${idless}\r\n\r\n`);
        return;
      }
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (req.url === '/json') return void res.writeHead(200, { 'content-type': 'application/json' }).end(idless);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      // Split across writes, in the middle of the data line.
      res.write(`event: message\ndata: ${idless.slice(0, 20)}`);
      setTimeout(() => {
        res.write(`${idless.slice(20)}\n\n`);
        if (req.url === '/closed') res.end();
      }, 50);
    }) as Awaited<ReturnType<typeof rawHttp>> & { sse?: import('node:http').ServerResponse };
    try {
      const started = Date.now();
      const r = await runCli(['lint', '--no-config', '--timeout', '30', '--concurrency', '4', ...['/json', '/closed', '/open'].flatMap((p) => ['--url', `${server.base}${p}`])], { timeoutMs: 40_000 });
      const sse = await runCli(['lint', '--no-config', '--timeout', '30', '--transport', 'sse', '--url', `${server.base}/sse`], { timeoutMs: 40_000 });
      expect(Date.now() - started).toBeLessThan(15_000);
      expect([r.code, sse.code]).toEqual([2, 2]);
      const said = 'the server answered with error -32600 while waiting for the initialize response, without the id of the request it answers: "bad"';
      expect([...r.stderr.trimEnd().split('\n'), sse.stderr.trimEnd()].sort()).toEqual(['/closed', '/json', '/open', '/sse'].map((p) => `${server.base}${p}: ${said}`).sort());
    } finally {
      server.sse?.end();
      server.close();
    }
  });
});

describe('a batch after initialize', () => {
  it('is said by the protocol version the server negotiated: over stdio, and in an event of a Streamable HTTP response (not a timeout)', async () => {
    const init = (id: unknown, version: string) => ({ jsonrpc: '2.0', id, result: { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } });
    const dir = tempDir({
      'srv.js': [
        "const rl = require('node:readline').createInterface({ input: process.stdin });",
        'rl.on(\'line\', (l) => { const m = JSON.parse(l);',
        "  if (m.method === 'initialize') process.stdout.write(JSON.stringify(" + JSON.stringify(init('ID', '2025-03-26')).replace('"ID"', 'm.id') + ") + '\\n');",
        "  else if (m.method === 'tools/list') process.stdout.write(JSON.stringify([{ jsonrpc: '2.0', id: m.id, result: { tools: [] } }]) + '\\n'); });",
      ].join('\n'),
    });
    const server = await rawHttp((req, res, message) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (message?.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(init(message.id, '2025-06-18')));
      if (message?.method !== 'tools/list') return void res.writeHead(202).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(`event: message\ndata: ${JSON.stringify([{ jsonrpc: '2.0', id: message.id, result: { tools: [] } }])}\n\n`);
    });
    try {
      const started = Date.now();
      const stdio = await runCli(['lint', '--no-config', '--timeout', '30', '--stdio', 'node srv.js'], { cwd: dir, timeoutMs: 40_000 });
      const http = await runCli(['lint', '--no-config', '--timeout', '30', '--url', `${server.base}/mcp`], { timeoutMs: 40_000 });
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(stdio.stderr).toMatch(/^node srv\.js: the server sent a JSON-RPC batch \(an array of 1 message\) while listing tools \(page 1\); protocol version 2025-03-26, which it negotiated, allows batches, but the MCP SDK does not read them; send one message per line \("\[\{/);
      expect(http.stderr).toMatch(/: the server sent a JSON-RPC batch \(an array of 1 message\) while listing tools \(page 1\), which MCP allows only in protocol version 2025-03-26 \(the server negotiated 2025-06-18\) and the MCP SDK does not read; send one message per event \("\[\{/);
      expect([stdio.code, http.code]).toEqual([2, 2]);
    } finally {
      server.close();
    }
  });
});

describe('a response whose id is the request id in another type', () => {
  it('says the id type does not match (not "without a result object")', async () => {
    const dir = tempDir({
      'srv.js': [
        "const rl = require('node:readline').createInterface({ input: process.stdin });",
        "rl.on('line', (l) => { const m = JSON.parse(l);",
        "  if (m.method === 'initialize') process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: String(m.id), result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1' } } }) + '\\n'); });",
      ].join('\n'),
    });
    const r = await runCli(['lint', '--no-config', '--timeout', '30', '--stdio', 'node srv.js'], { cwd: dir, timeoutMs: 40_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('node srv.js: the server answered initialize with the id "0" (a string), but the request\'s id was 0 (a number) while waiting for the initialize response; a response must carry the request\'s id as it was sent\n');
  });
});

describe('standard headers that hold no credential', () => {
  it('are not hidden in what the server said: Accept, Content-Type, User-Agent (a variable in them still is)', async () => {
    const server = await rawHttp((req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`Accept must include application/json and text/event-stream; agent ${req.headers['user-agent']}`);
    });
    try {
      const r = await runCli(['lint', '--no-config', '--transport', 'http', '--url', `${server.base}/mcp`, '--header', 'Accept: application/json, text/event-stream', '--header', 'User-Agent: probe-${AGENT}'], {
        env: { AGENT: 'agent-secret-77' },
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(`${server.base}/mcp: HTTP 400 Bad Request while waiting for the initialize response: "Accept must include application/json and text/event-stream; agent probe-***"\n`);
    } finally {
      server.close();
    }
  });
});

describe('a line on stdout that is JSON-RPC but not MCP', () => {
  it('is said to be that (an error without an id quoted, a batch named), not taken for a log line', async () => {
    const bad = (mode: string) => serverCommand('misbehave.mjs', mode);
    const modes = ['null-id', 'string-result', 'batch', 'garbage'];
    const r = await runCli(['lint', '--no-config', '--timeout', '60', ...modes.flatMap((m) => ['--stdio', bad(m)])], { timeoutMs: 30_000 });
    expect(r.code).toBe(2);
    const line = (mode: string) => r.stderr.split('\n').find((l) => l.startsWith(`${bad(mode)}: `))!.slice(bad(mode).length + 2);
    expect(line('null-id')).toBe('the server answered with error -32600 while waiting for the initialize response, without the id of the request it answers: "Invalid Request: unsupported protocol version"');
    expect(line('string-result')).toBe('the server sent a JSON-RPC message that is not valid MCP (its "result" is not an object) while waiting for the initialize response: "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":0,\\"result\\":\\"ok\\"}"');
    expect(line('batch')).toMatch(/^the server sent a JSON-RPC batch \(an array of 1 message\) while waiting for the initialize response, which MCP allows only in protocol version 2025-03-26 and the MCP SDK does not read; send one message per line \("\[\{/);
    // A line that is not JSON-RPC at all is still a log line on stdout.
    expect(line('garbage')).toMatch(/logs belong on stderr$/);
  });
});

describe('a connection that fails after initialize', () => {
  it('is not "could not connect": it says the connection broke, or could not be made again, and when (on the initialized notification, or tools/list)', async () => {
    const drop = await rawHttp((req, res, message) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (message?.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json' }).end(initResponse(message.id));
      // Hung up on before any answer.
      if (message?.method === 'tools/list') return void res.socket?.destroy();
      res.writeHead(202).end();
    });
    let gone: Awaited<ReturnType<typeof rawHttp>> | undefined;
    gone = await rawHttp((req, res, message) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (message?.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json' }).end(initResponse(message.id));
      // Stops listening once it has taken the initialized notification: the next request is refused.
      res.writeHead(202, { connection: 'close' }).end(() => gone?.close());
    });
    // Hangs up on the notifications/initialized POST.
    const notified = await rawHttp((req, res, message) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      if (message?.method === 'initialize') return void res.writeHead(200, { 'content-type': 'application/json' }).end(initResponse(message.id));
      if (message?.method === 'notifications/initialized') return void res.socket?.destroy();
      res.writeHead(202).end();
    });
    try {
      const early = await runCli(['lint', '--no-config', '--timeout', '20', '--url', `${notified.base}/mcp`], { timeoutMs: 30_000 });
      expect(early.stderr).toBe(`${notified.base}/mcp: the connection broke before the server sent its response (other side closed), after initialize, while sending the initialized notification\n`);
      const r = await runCli(['lint', '--no-config', '--timeout', '20', '--url', `${drop.base}/mcp`, '--url', `${gone.base}/mcp`], { timeoutMs: 30_000 });
      const forced = await runCli(['lint', '--no-config', '--timeout', '20', '--transport', 'http', '--url', `${drop.base}/mcp`], { timeoutMs: 30_000 });
      expect([r.code, forced.code]).toEqual([2, 2]);
      const broke = `${drop.base}/mcp: the connection broke before the server sent its response (other side closed), while listing tools (page 1)`;
      expect(r.stderr.trimEnd().split('\n').sort()).toEqual([broke, `${gone.base}/mcp: could not connect while listing tools (page 1): connection refused`].sort());
      expect(forced.stderr).toBe(`${broke}\n`);
    } finally {
      drop.close();
      gone.close();
      notified.close();
    }
  });
});

describe('a connection made, then failed before initialize is answered', () => {
  it('is not "could not connect": a server that closes it without replying, or answers with headers larger than fetch reads, is said so, with the phase', async () => {
    const server = await rawHttp((req, res) => {
      if (req.url?.startsWith('/cut')) return void req.socket.destroy();
      if (req.url?.startsWith('/bighead')) return void res.writeHead(200, { 'content-type': 'application/json', 'x-big': 'a'.repeat(200_000) }).end('{}');
      res.writeHead(404).end();
    });
    try {
      const http = await runCli(['lint', '--no-config', '--timeout', '20', '--transport', 'http', '--url', `${server.base}/cut`, '--url', `${server.base}/bighead`], { timeoutMs: 30_000 });
      const sse = await runCli(['lint', '--no-config', '--timeout', '20', '--transport', 'sse', '--url', `${server.base}/cut/sse`, '--url', `${server.base}/bighead/sse`], { timeoutMs: 30_000 });
      expect([http.code, sse.code]).toEqual([2, 2]);
      expect(http.stderr.trimEnd().split('\n').sort()).toEqual([
        `${server.base}/bighead: the server answered with response headers larger than fetch accepts (16 KiB in all) while waiting for the initialize response; check what adds them (a proxy, cookies)`,
        `${server.base}/cut: the connection broke before the server sent its response (other side closed), while waiting for the initialize response`,
      ]);
      expect(sse.stderr.trimEnd().split('\n').sort()).toEqual([
        `${server.base}/bighead/sse: the server answered with response headers larger than fetch accepts (16 KiB in all) while connecting; check what adds them (a proxy, cookies)`,
        `${server.base}/cut/sse: the connection broke before the server sent its response (other side closed), while connecting`,
      ]);
      expect(http.stderr + sse.stderr).not.toMatch(/could not connect|Headers Overflow Error/);
    } finally {
      server.close();
    }
  });
});

describe('a JSON response cut short', () => {
  it('a connection broken in the middle of the body is not "could not connect"; a body cut short is named as invalid JSON', async () => {
    const server = await rawHttp((req, res, message) => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const partial = (text: string) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
        res.write(text);
        setTimeout(() => res.destroy(), 50);
      };
      if (message?.method === 'initialize') {
        if (req.url === '/truncated-init') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":0,"res');
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(initResponse(message.id));
      }
      if (message?.method === 'tools/list' && req.url === '/broken-list') return partial('{"jsonrpc":"2.0","id":1,"result":{"tools":[');
      res.writeHead(202).end();
    });
    try {
      const r = await runCli(['lint', '--no-config', '--timeout', '60', '--url', `${server.base}/broken-list`, '--url', `${server.base}/truncated-init`], { timeoutMs: 30_000 });
      expect(r.code).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        `${server.base}/broken-list: the connection broke while the server was sending its response (other side closed), while listing tools (page 1)`,
        // V8 words the parse error (it differs between Node versions).
        expect.stringMatching(/\/truncated-init: the server answered with invalid JSON while waiting for the initialize response \(.*JSON.*; was the response cut short\?\)$/),
      ]);
    } finally {
      server.close();
    }
  });
});
