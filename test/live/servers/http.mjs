// MCP servers over HTTP on 127.0.0.1 with an ephemeral port: the SDK's Streamable HTTP and
// legacy SSE server transports serving a fixed tool list, and handlers that misbehave.
//
//   startHttpServer({ mode, tools, serverInfo, token, pageSize })
//     mode "streamable"  SDK Streamable HTTP (stateless) at /mcp
//     mode "sse"         SDK legacy SSE: GET /sse, POST /messages (a POST to /sse gets 405)
//     mode "polling"     SDK Streamable HTTP with sessions and an event store, whose tools/list
//                        closes its response stream after the priming event and answers later:
//                        the client must resume the stream (GET with Last-Event-ID, MCP 2025-11-25)
//     mode "hang"        accepts every request and never answers
//     mode "huge"        answers the initialize POST with a 20 MiB JSON body
//     mode "redirect"    answers every request with 307 to `location`
//     mode "raw"         answers by hand at /mcp (Streamable HTTP, stateless): initialize, then tools/list
//                        with `rawResult` as its result, written as it is (a name given twice: what
//                        JSON.stringify, and so the SDK's server, cannot write), or an array of them: one
//                        page each, the page a cursor "<n>" asks for being rawResult[n] (each page's text
//                        sets its own nextCursor); `rawAs` "json" (a JSON
//                        body, the default), "sse" (one event) or "batch" (a JSON body holding a batch);
//                        `rawInit`: the initialize result's text, written as it is (else a plain one)
//   moved: a path that answers 307 to the server's own endpoint (a redirect within one origin)
//   token: when set, requests need "Authorization: Bearer <token>"; others get 401 with a
//          body that echoes the Authorization header they sent (to prove it gets redacted)
import { createServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { createToolsServer } from './tools-lib.mjs';

export async function startHttpServer({ mode, tools = [], serverInfo = { name: `http-${mode}`, version: '1.0.0' }, token, pageSize = 0, location, moved, rawResult, rawAs = 'json', rawInit }) {
  const sse = new Map();
  const sessions = new Map();
  const open = new Set();
  const requests = [];
  const http = createServer(async (req, res) => {
    requests.push({ method: req.method, url: req.url, headers: req.headers });
    if (token !== undefined && req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { 'content-type': 'text/plain' }).end(`invalid credentials: ${req.headers.authorization ?? 'none'}`);
      return;
    }
    const url = new URL(req.url, 'http://127.0.0.1');
    try {
      if (mode === 'hang') {
        open.add(res);
        return;
      }
      if (mode === 'redirect') {
        res.writeHead(307, { location }).end();
        return;
      }
      if (moved !== undefined && url.pathname === moved) {
        res.writeHead(307, { location: mode === 'sse' ? '/sse' : '/mcp' }).end();
        return;
      }
      if (mode === 'huge') {
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = 'x'.repeat(1024 * 1024);
        res.write('{"jsonrpc":"2.0","id":0,"result":{"padding":"');
        for (let i = 0; i < 20 && !res.destroyed; i++) {
          if (!res.write(chunk)) {
            await new Promise((resolve) => {
              const done = () => {
                res.off('drain', done).off('close', done);
                resolve();
              };
              res.on('drain', done).on('close', done);
            });
          }
        }
        res.end('"}}');
        return;
      }
      if (mode === 'raw' && url.pathname === '/mcp') {
        if (req.method !== 'POST') return void res.writeHead(405).end();
        let body = '';
        for await (const chunk of req) body += chunk;
        const message = JSON.parse(body);
        if (message.id === undefined) return void res.writeHead(202).end();
        const result =
          message.method === 'initialize'
            ? rawInit ?? JSON.stringify({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo })
            : message.method === 'tools/list'
              ? Array.isArray(rawResult)
                ? rawResult[Number(message.params?.cursor ?? 0)]
                : rawResult
              : undefined;
        const text = result === undefined ? JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'method not found' } }) : `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":${result}}`;
        if (rawAs === 'sse' && message.method === 'tools/list') res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`event: message\ndata: ${text}\n\n`);
        else res.writeHead(200, { 'content-type': 'application/json' }).end(rawAs === 'batch' && message.method === 'tools/list' ? `[${text}]` : text);
        return;
      }
      if (mode === 'streamable' && url.pathname === '/mcp') {
        const server = createToolsServer({ tools, serverInfo, pageSize });
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
        res.on('close', () => {
          transport.close();
          server.close();
        });
        await server.connect(transport);
        await transport.handleRequest(req, res);
        return;
      }
      if (mode === 'polling' && url.pathname === '/mcp') {
        const id = req.headers['mcp-session-id'];
        let transport = id === undefined ? undefined : sessions.get(id);
        if (!transport) {
          if (id !== undefined) return void res.writeHead(404).end('no such session');
          transport = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => `s${sessions.size + 1}`,
            eventStore: new InMemoryEventStore(),
            retryInterval: 20,
            onsessioninitialized: (sid) => sessions.set(sid, transport),
          });
          const beforeAnswer = async (extra) => {
            extra.closeSSEStream?.();
            await new Promise((r) => setTimeout(r, 100));
          };
          await createToolsServer({ tools, serverInfo, pageSize, beforeAnswer }).connect(transport);
        }
        await transport.handleRequest(req, res);
        return;
      }
      if (mode === 'sse' && url.pathname === '/sse' && req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        sse.set(transport.sessionId, transport);
        res.on('close', () => sse.delete(transport.sessionId));
        await createToolsServer({ tools, serverInfo, pageSize }).connect(transport);
        return;
      }
      if (mode === 'sse' && url.pathname === '/messages' && req.method === 'POST') {
        const transport = sse.get(url.searchParams.get('sessionId'));
        if (!transport) res.writeHead(404).end('no such session');
        else await transport.handlePostMessage(req, res);
        return;
      }
      res.writeHead(mode === 'sse' && url.pathname === '/sse' ? 405 : 404).end();
    } catch (err) {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    }
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address();
  const path = mode === 'sse' ? '/sse' : '/mcp';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    requests,
    async close() {
      for (const res of open) res.destroy();
      for (const t of sessions.values()) await t.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
