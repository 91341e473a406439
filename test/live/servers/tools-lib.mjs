// A real MCP server built with the SDK that serves a fixed list of tools exactly as given
// (every annotation key and _meta included), optionally in pages.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** Tools and server info from a dump file (a ListToolsResult or a snapshot). */
export function loadFixture(path) {
  const doc = JSON.parse(readFileSync(path, 'utf8'));
  return {
    tools: Array.isArray(doc) ? doc : doc.tools,
    serverInfo: doc.serverInfo ?? { name: 'fixture-server', version: '1.0.0' },
  };
}

/** An SDK Server answering tools/list from `tools`, `pageSize` at a time (0: one page). */
export function createToolsServer({ tools, serverInfo, pageSize = 0, beforeAnswer }) {
  const server = new Server(serverInfo, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    // beforeAnswer(extra): e.g. close the response stream first (SSE polling) and wait.
    if (beforeAnswer) await beforeAnswer(extra);
    if (!pageSize) return { tools };
    const start = Number(request.params?.cursor ?? 0);
    const end = start + pageSize;
    return end < tools.length ? { tools: tools.slice(start, end), nextCursor: String(end) } : { tools: tools.slice(start) };
  });
  return server;
}
