import { defineRule, type SessionCall } from '../src/rule.js';
import { callName, resultName } from '../src/engine/session.js';
import { called, declare, listed, on } from '../src/docs/transcripts.js';
import { isObject } from '../src/util/json.js';
import { quote } from '../src/util/text.js';

/** `a string`, `an array`, `null` for a message. */
function typeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

const fetchPage = declare('fetch_page', { readOnlyHint: true, openWorldHint: true });
const sendEmail = declare('send_email', { readOnlyHint: false, destructiveHint: false, openWorldHint: true });

export default defineRule({
  id: 'propagation-open-world',
  severity: 'error',
  category: 'session',
  packs: ['core'],
  summary: 'Once a result or a request was open-world, every later tools/call request of the session must say openWorldHint: true.',
  precision: 'very-high',
  security: 7.5,
  why: `SEP-1913 (../shared/seeds/000_f48d420c65c867ff.txt), *Propagation Rules*: "**Boolean
union**: If \`openWorldHint\` is ever true, it **MUST** persist for the session", and *Client
Responsibilities*: "Clients **MUST** propagate annotations according to propagation rules". The
session is the *agent* session, which "may span multiple MCP sessions or interact with multiple
MCP servers". The request field exists so the next server can apply its policy ("Whether prior
context includes open-world (untrusted) data", *Result Annotations*): the SEP's own example is a
web page fetched with \`openWorldHint: true\` and then an email sent with
\`annotations: {openWorldHint: true}\`, which the email server may block or escalate. A request
that drops the hint tells that server the context is clean while it holds untrusted content —
the prompt-injection path the SEP exists to close.`,
  notes: `- The session is the transcript: every server in it. A result counts from its position in
  the transcript: a request sent before the open-world result arrived is not later than it.
- A \`tools/call\` request that itself says \`openWorldHint: true\` makes the session open-world
  too, from that request on: the client declared its context open-world (a result before the
  transcript began, or its own policy), and "If \`openWorldHint\` is ever true, it **MUST**
  persist" does not ask who set it.
- One finding per offending \`tools/call\` request, at its
  \`params._meta.annotations.openWorldHint\` (or the nearest part of it the request has), with
  the first result or request that made the session open-world as related location. A request
  whose \`openWorldHint\` is not a boolean (\`"true"\`) is told so; where the request says
  \`openWorldHint: false\` or a non-boolean, the fix sets it to true.
- \`tools/resolve\` requests are not checked: the SEP's request annotations extend
  \`CallToolRequest\`.
- **A result of a call the client cancelled does not count.** MCP's cancellation: after a
  \`notifications/cancelled\` the sender "SHOULD ignore any response to the request that arrives
  afterward", so a result that arrives after the client cancelled the call never reaches the
  model. A transcript does not say who sent a notification: a cancellation is read as the
  client's when the one request waiting for its \`requestId\` (same server, same id and type) is
  the client's \`tools/call\`. When a request of the server's own waits with that id too (a
  \`sampling/createMessage\` during the call), whose request it cancels cannot be told, and the
  result counts; so does a result that arrived before the cancellation.
  [result-within-declared](result-within-declared.md) still checks such a result: it is what
  the server sent.`,
  examples: {
    incorrect: [
      {
        title: 'An email sent after reading a web page, without the hint',
        explanation: 'The session spans two servers; the hint must reach the second.',
        transcript: [
          ...on('web', listed(1, [fetchPage])),
          ...on('mail', listed(1, [sendEmail])),
          ...on('web', called(2, 'fetch_page', { result: { openWorldHint: true, attribution: ['https://example.com/page'] } })),
          ...on('mail', called(2, 'send_email', { request: { attribution: ['https://example.com/page'] } })),
        ],
        findings: [{ pointer: '/6/message/params/_meta/annotations/openWorldHint', server: 'mail' }],
      },
      {
        title: 'A request that says openWorldHint false',
        doc: false,
        transcript: [...listed(1, [fetchPage, sendEmail]), ...called(2, 'fetch_page', { result: { openWorldHint: true } }), ...called(3, 'send_email', { request: { openWorldHint: false } })],
        findings: [{ pointer: '/4/params/_meta/annotations/openWorldHint' }],
      },
      {
        title: 'A request that carried the hint, then one that dropped it',
        explanation: 'The client said its context was open-world; the hint persists from there.',
        transcript: [
          ...listed(1, [fetchPage, sendEmail]),
          ...called(2, 'fetch_page', { request: { openWorldHint: true } }),
          ...called(3, 'send_email'),
        ],
        findings: [{ pointer: '/4/params/_meta/annotations/openWorldHint' }],
      },
      {
        title: 'A request that says openWorldHint as a string',
        doc: false,
        transcript: [...listed(1, [fetchPage, sendEmail]), ...called(2, 'fetch_page', { result: { openWorldHint: true } }), ...called(3, 'send_email', { request: { openWorldHint: 'true' } })],
        findings: [{ pointer: '/4/params/_meta/annotations/openWorldHint' }],
      },
    ],
    correct: [
      {
        title: 'The hint propagated to the next server',
        transcript: [
          ...on('web', listed(1, [fetchPage])),
          ...on('mail', listed(1, [sendEmail])),
          ...on('web', called(2, 'fetch_page', { result: { openWorldHint: true } })),
          ...on('mail', called(2, 'send_email', { request: { openWorldHint: true } })),
        ],
      },
      {
        title: 'A late result of a call the client cancelled',
        explanation: 'The client cancelled the fetch before its result arrived, and ignores the result: the session did not become open-world.',
        transcript: [
          ...listed(1, [fetchPage, sendEmail]),
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'fetch_page', arguments: {} } },
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'User requested cancellation' } },
          { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '…' }], _meta: { annotations: { openWorldHint: true } } } },
          ...called(3, 'send_email'),
        ],
      },
      {
        title: 'A request sent before the open-world result arrived',
        doc: false,
        transcript: [
          { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fetch_page', arguments: {} } },
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'send_email', arguments: {} } },
          { jsonrpc: '2.0', id: 1, result: { content: [], _meta: { annotations: { openWorldHint: true } } } },
          { jsonrpc: '2.0', id: 2, result: { content: [] } },
        ],
      },
    ],
  },
  checkSession(ctx) {
    // The first open-world message, by its place in the transcript: a result with openWorldHint
    // true, or a request that carried it (the client said the context was open-world; a true
    // openWorldHint persists, whoever set it).
    let opened: { call: SessionCall; pointer: string; at: number; in: 'result' | 'request' } | undefined;
    for (const call of ctx.calls) {
      if (call.kind !== 'call') continue;
      if (call.requestClaims.from('openWorld', 'core')?.value === true && (!opened || call.requestAt < opened.at)) {
        opened = { call, pointer: call.requestClaims.from('openWorld', 'core')!.pointer, at: call.requestAt, in: 'request' };
      }
      // A response to a request the client had cancelled is one it ignores (MCP cancellation).
      if (call.responseAt === undefined || call.cancelled) continue;
      const hint = call.resultClaims.from('openWorld', 'core');
      if (hint?.value !== true) continue;
      if (!opened || call.responseAt < opened.at) opened = { call, pointer: hint.pointer, at: call.responseAt, in: 'result' };
    }
    if (!opened) return;
    const by = opened;
    const byName = by.in === 'result' ? resultName(by.call) : `the request of ${callName(by.call)}`;
    for (const call of ctx.calls) {
      if (call.kind !== 'call' || call.requestAt <= by.at) continue;
      const said = call.requestClaims.from('openWorld', 'core');
      if (said?.value === true) continue;
      const meta = call.params?._meta;
      const annotations = isObject(meta) && isObject(meta.annotations) ? meta.annotations : undefined;
      const written = annotations && Object.prototype.hasOwnProperty.call(annotations, 'openWorldHint') ? annotations.openWorldHint : undefined;
      const how = said
        ? 'says openWorldHint false'
        : written !== undefined
          ? `has openWorldHint ${quote(written, 40)}, ${typeOf(written)} where SEP-1913 has a boolean`
          : annotations
            ? 'has _meta.annotations without openWorldHint'
            : 'carries no _meta.annotations';
      const pointer = `${call.request}/params/_meta/annotations/openWorldHint`;
      ctx.report({
        call,
        pointer,
        message: `${callName(call)} ${how}, but ${byName} had openWorldHint true (${by.pointer}) earlier in the session: SEP-1913 says a true openWorldHint MUST persist for the session`,
        suggestion: `send params._meta.annotations.openWorldHint: true on every tools/call after an open-world result or request, to every server of the session (the client propagates it)`,
        related: [{ pointer: by.pointer, message: `${byName} made the session open-world here`, serverId: by.call.server.id, tool: { name: by.call.tool } }],
        ...(said || written !== undefined ? { fix: { description: "Set the request's openWorldHint to true", replacements: [{ pointer: said?.pointer ?? pointer, text: 'true' }] } } : {}),
      });
    }
  },
});
