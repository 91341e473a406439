#!/usr/bin/env node
// A stdio "MCP server" that misbehaves on purpose, speaking raw JSON-RPC so each failure is
// exact:  node misbehave.mjs <mode> [pidFile]
//
//   hang          reads requests, never answers
//   crash         answers initialize, then dies in the middle of the tools/list answer
//   garbage       prints a banner on stdout before anything else
//   flood         answers initialize, then answers tools/list only with notifications, forever
//   loop          every tools/list page has a new nextCursor, forever
//   repeat        every tools/list page returns the same nextCursor
//   huge          a tools/list result of about 20 MiB
//   grandchild    starts a child that ignores SIGTERM, writes both pids to pidFile, never answers
//   grandchild-ok the same, but answers correctly
//   escape / escape-ok  like grandchild / grandchild-ok, but the child starts a session of its own
//                 (setsid: out of the server's process group) and holds the server's stdout and stderr
//   rpc-error     rpc-error <code>:<method>: answers that method (initialize or tools/list) with that error code
//   exit-helper   leaves a child (in its group) holding stdout and stderr, writes both pids to
//                 pidFile, says "fatal: no API key" on stderr and exits 3 (like `sh -c "helper & exit 3"`)
//   close-stdout  answers initialize, then closes its stdout and keeps running, ignoring SIGTERM
//   echo-secret   writes $SECRET to stderr (after $PAD_BEFORE y's, before $PAD_AFTER z's), then exits 1
//   echo-secret-json   writes {"config":{"k":$SECRET}} to stderr as JSON with every non-ASCII character
//                 \u-escaped (Python's ensure_ascii), then exits 1
//   echo-secret-stdout writes {"config":{"k":$SECRET}} as JSON on stdout (not a JSON-RPC message)
//   slow-ok       answers correctly after SLOW_MS milliseconds (default 1500)
//   error-no-id   answers initialize with an error that has no id
//   wrong-id      answers initialize with a result for id 999, never sent
//   notify-only   answers initialize with a notification, never with the response
//   null-id       answers initialize with an error whose id is null (JSON-RPC, not MCP)
//   string-result answers initialize with "result": "ok"
//   batch         answers initialize with a batch (an array) holding the response
//   started       writes pidFile when it starts, then answers correctly (to prove what was started)
//   bad-init      answers initialize with a serverInfo that has no version (invalid MCP)
//   no-tools      declares no tools capability and answers tools/list "method not found", then exits 0 when stdin closes
//   list-error    answers tools/list with an error -32603 whose message already says "MCP error -32603: "
//   future        answers initialize with protocol version 2099-01-01, then exits 0 when stdin closes
//   empties       one tools/list page of 300,000 empty tools ({}: 3 bytes each, under 1 MiB)
//   deep          one tool whose inputSchema nests 100,000 levels deep (600 KB)
//   result-fields result-fields <json>: a tools/list result with the fields of that JSON object beside
//                 its one tool (delete_all, readOnlyHint true): a server that sets "$schema", "jsonrpc",
//                 "configEntry", "serverInfo", … in its result
//   cut-answer    answers tools/list with a line of JSON cut short (and keeps running)
//   twice         answers tools/list twice in one write: a destructive tool, then a harmless one
//   twice-same    answers tools/list twice in one write with the same result (its members in another order)
//   init-twice    answers initialize twice in one write: the first names the server "first", the second "second"
//   answer-then-log answers tools/list and writes a log line on stdout in the same write (a buffered print)
//   split-secret  one tool whose description holds $SECRET split by a zero-width space, and whose title
//                 spells $SECRET in Unicode tag characters: the linter's fix and message put them together
//   pages-fields  pages-fields <json array>: one tools/list page per item, each with the fields of its item
//                 beside its one tool (t1, t2, …), and a nextCursor to the next page unless the item sets one
//   raw-init      raw-init <text>: answers initialize with that text, as written, as its result (a
//                 member given twice), then tools/list as usual
//   raw-result    raw-result <text>: answers tools/list with that text, as written, as its result (1e400,
//                 a name given twice: what JSON.stringify cannot write)
//   named         named <name>: serverInfo.name is that name (a server that calls itself "package"), one tool
import { spawn } from 'node:child_process';
import { closeSync, renameSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [mode, pidFile] = process.argv.slice(2);
/** Written whole or not at all: a test polling for the file never reads it half-written. */
const writeAtomically = (file, text) => {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
};
const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
const initResult = { protocolVersion: mode === 'future' ? '2099-01-01' : '2025-06-18', capabilities: mode === 'no-tools' ? { resources: {} } : { tools: {} }, serverInfo: { name: mode === 'named' ? pidFile : `misbehave-${mode}`, version: '0.0.1' } };
const tool = (name) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } });

if (mode === 'garbage') process.stdout.write('Starting the amazing server v1.2.3 ...\n');
if (mode === 'echo-secret') {
  const pad = (c, n) => c.repeat(Number(process.env[n] ?? 0));
  process.stderr.write(`${pad('y', 'PAD_BEFORE')}connecting with key ${process.env.SECRET}${pad('z', 'PAD_AFTER')}\n`);
  process.exit(1);
}
if (mode === 'echo-secret-json') {
  const config = JSON.stringify({ config: { k: process.env.SECRET } });
  process.stderr.write(`config ${config.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`);
  process.exit(1);
}
if (mode === 'echo-secret-stdout') process.stdout.write(`${JSON.stringify({ config: { k: process.env.SECRET } })}\n`);
if (mode === 'grandchild' || mode === 'grandchild-ok') {
  const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);"], { stdio: 'ignore' });
  writeAtomically(pidFile, JSON.stringify({ server: process.pid, grandchild: child.pid }));
}

if (mode === 'escape' || mode === 'escape-ok') {
  const child = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); process.on('SIGHUP', () => {}); setInterval(() => {}, 1000);"], { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  child.unref();
  writeAtomically(pidFile, JSON.stringify({ server: process.pid, grandchild: child.pid }));
}

if (mode === 'exit-helper') {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000);'], { stdio: ['ignore', 'inherit', 'inherit'] });
  child.unref();
  writeAtomically(pidFile, JSON.stringify({ server: process.pid, grandchild: child.pid }));
  process.stderr.write('fatal: no API key\n');
  process.exit(3);
}
if (mode === 'close-stdout') process.on('SIGTERM', () => {});

if (mode === 'started') writeAtomically(pidFile, String(process.pid));

let page = 0;
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id === undefined) return;
  if (mode === 'hang' || mode === 'grandchild' || mode === 'escape') return;
  if (mode === 'rpc-error' && msg.method === pidFile.slice(pidFile.indexOf(':') + 1)) {
    send({ id: msg.id, error: { code: Number(pidFile.slice(0, pidFile.indexOf(':'))), message: 'Unauthorized: API key expired' } });
    return;
  }
  if (mode === 'close-stdout' && msg.method !== 'initialize') return;
  if (mode === 'close-stdout') {
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: initResult }) + '\n', () => {
      process.stdout.destroy();
      closeSync(1);
    });
    setInterval(() => {}, 1000);
    return;
  }
  if (msg.method === 'initialize') {
    if (mode === 'error-no-id') send({ error: { code: -32600, message: 'unsupported protocol version xyz' } });
    else if (mode === 'wrong-id') send({ id: 999, result: initResult });
    else if (mode === 'null-id') send({ id: null, error: { code: -32600, message: 'Invalid Request: unsupported protocol version' } });
    else if (mode === 'string-result') send({ id: msg.id, result: 'ok' });
    else if (mode === 'batch') process.stdout.write(JSON.stringify([{ jsonrpc: '2.0', id: msg.id, result: initResult }]) + '\n');
    else if (mode === 'notify-only') send({ method: 'notifications/message', params: { level: 'info', data: 'starting' } });
    else if (mode === 'raw-init') process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":${pidFile.replace(/\n/g, ' ')}}\n`);
    else if (mode === 'bad-init') send({ id: msg.id, result: { ...initResult, serverInfo: { name: 'no-version' } } });
    else if (mode === 'init-twice')
      process.stdout.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { ...initResult, serverInfo: { name: 'first', version: '1' } } })}\n` +
          `${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { ...initResult, protocolVersion: '2024-11-05', serverInfo: { name: 'second', version: '1' } } })}\n`,
      );
    else if (mode === 'slow-ok') setTimeout(() => send({ id: msg.id, result: initResult }), Number(process.env.SLOW_MS ?? 1500));
    else send({ id: msg.id, result: initResult });
    return;
  }
  if (msg.method !== 'tools/list' || mode === 'no-tools') {
    send({ id: msg.id, error: { code: -32601, message: 'Method not found' } });
    return;
  }
  page++;
  switch (mode) {
    case 'crash':
      process.stdout.write(`{"jsonrpc":"2.0","id":${msg.id},"result":{"tools":[{"name":"half`);
      process.stderr.write('fatal: lost the database connection\n');
      process.exit(3);
      break;
    case 'flood': {
      const burst = () => {
        for (let i = 0; i < 100; i++) send({ method: 'notifications/message', params: { level: 'info', data: `log line ${i}` } });
        setImmediate(burst);
      };
      burst();
      break;
    }
    case 'loop':
      send({ id: msg.id, result: { tools: [tool(`t${page}`)], nextCursor: `page-${page + 1}` } });
      break;
    case 'repeat':
      send({ id: msg.id, result: { tools: [tool(`t${page}`)], nextCursor: 'again' } });
      break;
    case 'list-error':
      send({ id: msg.id, error: { code: -32603, message: 'MCP error -32603: database unavailable' } });
      break;
    case 'huge': {
      const description = 'x'.repeat(1024 * 1024);
      send({ id: msg.id, result: { tools: Array.from({ length: 20 }, (_, i) => ({ ...tool(`t${i}`), description })) } });
      break;
    }
    case 'deep': {
      const nested = '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000);
      process.stdout.write(`{"jsonrpc":"2.0","id":${msg.id},"result":{"tools":[{"name":"deep_tool","inputSchema":{"type":"object","properties":{"x":${nested}}},"annotations":{"readOnlyHint":true}}]}}\n`);
      break;
    }
    case 'empties':
      process.stdout.write(`{"jsonrpc":"2.0","id":${msg.id},"result":{"tools":[${Array(300_000).fill('{}').join(',')}]}}\n`);
      break;
    case 'twice-same':
      process.stdout.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { tools: [tool('get_time')] } })}\n` +
          `${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ annotations: { openWorldHint: false, readOnlyHint: true }, inputSchema: { type: 'object' }, name: 'get_time' }] } })}\n`,
      );
      break;
    case 'answer-then-log':
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { tools: [tool('get_time')] } })}\nlisted tools\n`);
      break;
    case 'cut-answer':
      process.stdout.write(`{"jsonrpc":"2.0","id":${msg.id},"result":{"tools":[{"name":"a"\n`);
      break;
    case 'twice':
      process.stdout.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ ...tool('delete_everything'), annotations: { readOnlyHint: true, destructiveHint: true } }] } })}\n` +
          `${JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { tools: [tool('get_time')] } })}\n`,
      );
      break;
    case 'split-secret': {
      const secret = process.env.SECRET ?? '';
      const tags = [...secret].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
      send({ id: msg.id, result: { tools: [{ ...tool('split_secret'), title: `Lookup${tags}`, description: `uses ${secret.slice(0, 6)}\u200b${secret.slice(6)}` }] } });
      break;
    }
    case 'pages-fields': {
      const pages = JSON.parse(pidFile);
      const next = page < pages.length ? { nextCursor: `p${page + 1}` } : {};
      send({ id: msg.id, result: { ...next, ...pages[page - 1], tools: [tool(`t${page}`)] } });
      break;
    }
    case 'raw-result':
      process.stdout.write(`{"jsonrpc":"2.0","id":${JSON.stringify(msg.id)},"result":${pidFile.replace(/\n/g, ' ')}}\n`);
      break;
    case 'result-fields':
      send({ id: msg.id, result: { ...JSON.parse(pidFile), tools: [{ name: 'delete_all', description: 'Deletes every record.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } });
      break;
    default:
      send({ id: msg.id, result: { tools: [tool('ok_tool')] } });
  }
});
