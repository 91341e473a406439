#!/usr/bin/env node
// A stdio server that speaks only MCP 2026-07-28, raw JSON-RPC:  node v2026.mjs <mode>
//
//   answers   answers initialize with protocol version 2026-07-28 (as the probe's server did)
//   refuses   answers initialize with 2026-07-28's UnsupportedProtocolVersionError (-32022),
//             data {requested, supported: ["2026-07-28"]}: that version has no initialize
//
// Either way it answers tools/list with a 2026-07-28 result (resultType, cacheScope, ttlMs),
// and exits 0 when stdin closes.
import { createInterface } from 'node:readline';

const [mode] = process.argv.slice(2);
const send = (msg) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', ...msg }) + '\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    return;
  }
  if (msg.id === undefined) return;
  if (msg.method === 'initialize') {
    if (mode === 'refuses') {
      send({ id: msg.id, error: { code: -32022, message: 'Unsupported protocol version', data: { requested: msg.params?.protocolVersion, supported: ['2026-07-28'] } } });
    } else {
      send({ id: msg.id, result: { protocolVersion: '2026-07-28', capabilities: { tools: {} }, serverInfo: { name: 'v2026', version: '1.0.0' } } });
    }
    return;
  }
  if (msg.method === 'tools/list') {
    send({ id: msg.id, result: { resultType: 'complete', cacheScope: 'public', ttlMs: 0, tools: [{ name: 'list_x', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }] } });
    return;
  }
  send({ id: msg.id, error: { code: -32601, message: 'Method not found' } });
});
