/**
 * Builders for the session transcripts of rule examples: JSON-RPC messages as a client and a
 * server exchange them. Each returns plain JSON, shown as is on the doc pages.
 */

/** A tools/list request and its response. */
export function listed(id: number, tools: unknown[]): unknown[] {
  return [
    { jsonrpc: '2.0', id, method: 'tools/list' },
    { jsonrpc: '2.0', id, result: { tools } },
  ];
}

/**
 * A tools/call request (with `_meta.annotations` when given) and its result (with `_meta.annotations`
 * when given, and the other `_meta` keys of `resultMeta`).
 */
export function called(
  id: number,
  name: string,
  opts: { request?: Record<string, unknown>; result?: Record<string, unknown>; resultMeta?: Record<string, unknown>; content?: unknown[] } = {},
): unknown[] {
  const meta = { ...(opts.result ? { annotations: opts.result } : {}), ...opts.resultMeta };
  return [
    { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {}, ...(opts.request ? { _meta: { annotations: opts.request } } : {}) } },
    { jsonrpc: '2.0', id, result: { content: opts.content ?? [{ type: 'text', text: '…' }], ...(Object.keys(meta).length ? { _meta: meta } : {}) } },
  ];
}

/** A tools/resolve request and its response: the tool with the resolved annotations (and `_meta`, when given). */
export function resolved(id: number, name: string, annotations: Record<string, unknown>, meta?: Record<string, unknown>): unknown[] {
  return [
    { jsonrpc: '2.0', id, method: 'tools/resolve', params: { name, arguments: {} } },
    { jsonrpc: '2.0', id, result: { tool: { name, inputSchema: { type: 'object' }, annotations, ...(meta ? { _meta: meta } : {}) } } },
  ];
}

/** Each message wrapped with the name (and URL) of the server it was exchanged with. */
export function on(server: string, messages: unknown[], url?: string): unknown[] {
  return messages.map((message) => ({ server, ...(url ? { url } : {}), message }));
}

/** A tool for a tools/list result (with `_meta`, when given). */
export function declare(name: string, annotations: Record<string, unknown>, meta?: Record<string, unknown>): Record<string, unknown> {
  return { name, inputSchema: { type: 'object' }, annotations, ...(meta ? { _meta: meta } : {}) };
}
