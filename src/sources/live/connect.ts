/**
 * One live server: connect with the MCP SDK, send `initialize`, then `tools/list` page by
 * page, and return what the server said, raw. Nothing else is ever sent (never
 * `tools/call`). Every step runs under one deadline and a byte and message budget; the
 * first problem ends the session with one LiveError worded for the user.
 *
 * The SDK is loaded here, lazily: linting files never loads it.
 */
import { setMaxListeners } from 'node:events';
import { statSync } from 'node:fs';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { TOOL_NAME, version } from '../../version.js';
import { LiveError, batchError, excerpt, idlessError, isBatch, lastLine } from './errors.js';
import { afterGrace, GroupStdioTransport } from './stdio.js';
import { formatBytes } from '../../util/read.js';
import { HEADER_NAME, displayUrl, isCredentialHeader, type LiveTarget } from './targets.js';
import { redact } from './vars.js';
import { buildSnapshot } from './snapshot.js';
import { RAW_TEXT, liveRepeatedKeys, liveWrittenNumbers, type RawText } from './raw.js';
import type { RepeatedKey } from '../../types.js';
import { requirePackage } from '../../util/require.js';
import { writeJson } from '../../util/json.js';
import { jsonEqual } from '../locate.js';
import { plural } from '../../util/text.js';

export interface Limits {
  /** The whole session: spawn or connect, initialize and every page. */
  timeoutMs: number;
  /** Where the deadline came from, for the message: --timeout (or its default), or the server's config entry. */
  timeoutFrom?: 'flag' | 'entry';
  /** Bytes a server may send in one session. */
  maxBytes: number;
  /** tools/list pages before giving up on a server that keeps returning a nextCursor. */
  maxPages: number;
  /** Notifications and requests a server may send (beyond its answers) in one session. */
  maxMessages: number;
}

export const DEFAULT_LIMITS: Omit<Limits, 'timeoutMs'> = {
  maxBytes: 16 * 1024 * 1024,
  maxPages: 100,
  maxMessages: 10_000,
};

export interface Fetched {
  /** {serverInfo, protocolVersion, capabilities, tools, …page fields}, as the server sent them (see buildSnapshot). */
  snapshot: Record<string, unknown>;
  /** The tools/list result's fields the snapshot leaves out (see buildSnapshot). */
  dropped: string[];
  /** Later pages' fields of their own, which the snapshot leaves out (see buildSnapshot). */
  later: { page: number; fields: string[] }[];
  /** The member names the tools/list responses repeat, at the snapshot's pointers, secrets hidden (see raw.ts). */
  repeatedKeys: RepeatedKey[];
  /** How the responses wrote the numbers at the snapshot's pointers, when one does not read back as written (see raw.ts). */
  writtenNumbers?: (pointers: readonly string[]) => string[];
  transport: 'stdio' | 'http' | 'sse';
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

async function loadSdk() {
  const client = requirePackage('@modelcontextprotocol/sdk/client/index.js') as typeof import('@modelcontextprotocol/sdk/client/index.js');
  const http = requirePackage('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const sse = requirePackage('@modelcontextprotocol/sdk/client/sse.js') as typeof import('@modelcontextprotocol/sdk/client/sse.js');
  const stdio = requirePackage('@modelcontextprotocol/sdk/client/stdio.js') as typeof import('@modelcontextprotocol/sdk/client/stdio.js');
  const types = requirePackage('@modelcontextprotocol/sdk/types.js') as typeof import('@modelcontextprotocol/sdk/types.js');
  return {
    Client: client.Client,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    getDefaultEnvironment: stdio.getDefaultEnvironment,
    JSONRPCMessageSchema: types.JSONRPCMessageSchema,
    ResultSchema: types.ResultSchema,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    SUPPORTED_PROTOCOL_VERSIONS: types.SUPPORTED_PROTOCOL_VERSIONS,
    LATEST_PROTOCOL_VERSION: types.LATEST_PROTOCOL_VERSION,
  };
}
type Sdk = Awaited<ReturnType<typeof loadSdk>>;
let sdkPromise: Promise<Sdk> | undefined;
const sdk = () => (sdkPromise ??= loadSdk());

/** How long a stream's end waits for the SDK to read its last events before asking what was answered. */
const STREAM_END_GRACE_MS = 100;
/** HTTP requests in one session: initialize, up to maxPages tools/list, and room for the SDK's reconnects. */
const MAX_HTTP_REQUESTS = 500;

/** The deadline, budgets and first failure of one server's session. */
class Session {
  phase = 'while starting the server';
  bytes = 0;
  messages = 0;
  /** HTTP requests made (a server that keeps closing its event streams makes the SDK reconnect). */
  requests = 0;
  /** Ids of the requests the server has answered (a result or an error). */
  readonly answered = new Set<string | number>();
  /**
   * The errors the server answered with, as the SDK words them ("MCP error <code>: <message>"):
   * the SDK raises its own errors with the same codes (-32000 when the connection closes,
   * -32001 on its timeout), and only these tell a server's answer from them.
   */
  readonly serverErrors = new Set<string>();
  /** Ids of the requests whose response stream carried an event id, so the SDK can resume it (GET with Last-Event-ID). */
  readonly resumable = new Set<string | number>();
  /** Streamable HTTP event streams opened with GET that are still open. */
  standaloneStreams = 0;
  /** Why the SDK's last attempt to resume a response stream failed. */
  private resumeFailure?: string;
  error?: LiveError;
  /** A tools/list page answered twice with different results (see Capture.observe). */
  duplicate?: LiveError;
  /** Notifications and requests the server sent since its last response. */
  sinceAnswer = 0;
  /** The last of them: 'a notification "<method>"' or 'a request "<method>"' (quoted, redacted). */
  lastMessage?: string;
  /** The last redirect the server answered with, and how many came in a row (see redirectReason). */
  redirect?: { status: number; method: string; from: URL; to: URL; inARow: number };
  /** The server answered initialize: a later failure is no reason to try another transport. */
  initialized = false;
  /** The protocol version the server answered initialize with. */
  protocolVersion: string | undefined;
  /** Every tools/list page is in: what the server does while the session closes no longer matters. */
  listed = false;
  /** The text of each response with a result that came over HTTP, by its id as the SDK matches it (Number(id)); see raw.ts. */
  readonly rawById = new Map<number, RawText>();
  private disposed = false;
  readonly controller = new AbortController();
  readonly failed: Promise<never>;
  private reject!: (err: LiveError) => void;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort: () => void;

  constructor(
    readonly limits: Limits,
    private readonly external: AbortSignal,
    /** The target's secrets: hidden in what the server said before it is cut and quoted. */
    readonly needles: readonly string[] = [],
  ) {
    this.failed = new Promise<never>((_, reject) => (this.reject = reject));
    this.failed.catch(() => undefined);
    // Every request of the session listens to this signal.
    setMaxListeners(0, this.controller.signal);
    const seconds = limits.timeoutMs / 1000;
    this.timer = setTimeout(
      () => this.fail(new LiveError(`timed out after ${seconds} s ${this.phase} (${limits.timeoutFrom === 'entry' ? 'the "timeout" of its config entry; --timeout overrides it' : `--timeout ${seconds}`})${this.sentInstead()}`)),
      limits.timeoutMs,
    );
    this.onAbort = () => this.fail(new LiveError(`interrupted ${this.phase}`));
    if (external.aborted) this.onAbort();
    else external.addEventListener('abort', this.onAbort, { once: true });
  }

  /** For a timeout: what the server sent while it did not answer (notifications), if anything. */
  private sentInstead(): string {
    if (this.sinceAnswer === 0 || this.lastMessage === undefined) return '';
    return `; the server sent ${plural(this.sinceAnswer, 'message')} but no response (${this.sinceAnswer === 1 ? '' : 'the last: '}${this.lastMessage})`;
  }

  /** A short quotation of what the server said, its secrets hidden first (see excerpt). */
  quote(text: string, max?: number): string {
    return excerpt(text, max, this.needles);
  }

  fail(err: LiveError): void {
    if (this.error) return;
    this.error = err;
    this.controller.abort(err);
    this.reject(err);
  }

  /** Wait for a step, or for the first failure of the session. */
  race<T>(step: Promise<T>): Promise<T> {
    return Promise.race([step, this.failed]);
  }

  received(n: number): void {
    this.bytes += n;
    if (this.bytes > this.limits.maxBytes) {
      this.fail(new LiveError(`the server sent more than ${formatBytes(this.limits.maxBytes)} ${this.phase}; stopped (a tools/list result is never that large)`));
    }
  }

  request(): void {
    this.requests++;
    if (this.requests > MAX_HTTP_REQUESTS) {
      this.fail(new LiveError(`stopped after ${MAX_HTTP_REQUESTS} HTTP requests ${this.phase}: the server keeps closing its event stream, and the MCP SDK keeps reopening it`));
    }
  }

  /**
   * The event stream that a POST of requests `ids` was answered with has ended (`broke`:
   * with a network error). A request the stream did not answer is never answered, unless
   * the stream carried an event id for the SDK to resume it from: fail now instead of at
   * the deadline. The check waits a moment, for the SDK to read the stream's last events.
   */
  streamEnded(ids: readonly (string | number)[], broke?: unknown): void {
    this.afterGrace(() => {
      if (ids.every((id) => this.answered.has(id) || this.resumable.has(id))) return undefined;
      const why = broke === undefined ? 'the server ended the event stream of its response without sending the response' : `the connection broke before the server sent its response (${causeOf(broke)})`;
      return `${why}, ${this.phase}`;
    });
  }

  /**
   * A POST of requests `ids` was answered with a JSON body, now read: what it did not answer is
   * never answered (a JSON answer is the whole answer).
   */
  jsonEnded(ids: readonly (string | number)[]): void {
    this.afterGrace(() => {
      if (ids.every((id) => this.answered.has(id))) return undefined;
      const what = this.lastMessage === undefined ? '' : ` (it held ${this.lastMessage})`;
      return `the server answered a request with JSON that holds no response to it${what} ${this.phase}`;
    });
  }

  /**
   * A POST of requests `ids` was answered 202 Accepted, with no content: Streamable HTTP
   * answers a request with JSON or an event stream (202 is for notifications), so an
   * answer will never come.
   */
  acceptedOnly(ids: readonly (string | number)[]): void {
    this.afterGrace(() =>
      // A server may (against the spec) send the answer on its open standalone stream: then wait.
      this.standaloneStreams > 0 || ids.every((id) => this.answered.has(id))
        ? undefined
        : `the server answered a request with HTTP 202 Accepted and no content ${this.phase}; a request needs JSON or an event stream in answer (202 is for notifications)`,
    );
  }

  /**
   * The legacy SSE transport's event stream has ended: every answer comes on it, and a
   * reconnect would be a new session, so nothing sent is answered any more.
   */
  sseStreamEnded(broke?: unknown): void {
    this.afterGrace(() => {
      const why = broke === undefined ? 'the server closed the SSE stream' : `the SSE connection broke (${causeOf(broke)})`;
      return `${why} ${this.phase}; answers come only on that stream, so none can arrive`;
    });
  }

  /**
   * A moment from now (for the SDK to read a stream's last events; see afterGrace), fail with
   * what `check` says, unless the session is over by then.
   */
  private afterGrace(check: () => string | undefined): void {
    afterGrace(STREAM_END_GRACE_MS, () => {
      if (this.disposed || this.error || this.listed) return;
      const message = check();
      if (message !== undefined) this.fail(new LiveError(message));
    });
  }

  /**
   * An attempt to resume an event stream failed (`final`: the SDK will not try again). With
   * a request waiting on a resumed stream, that request is never answered.
   */
  resumeFailed(reason: string | undefined, final: boolean): void {
    if (reason !== undefined) this.resumeFailure = reason;
    if (!final || ![...this.resumable].some((id) => !this.answered.has(id))) return;
    const why = this.resumeFailure === undefined ? '' : ` (${this.resumeFailure})`;
    this.fail(new LiveError(`the server closed the event stream of its response before sending the response, and resuming the stream failed${why}, ${this.phase}`));
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    this.external.removeEventListener('abort', this.onAbort);
  }
}

/**
 * Sits between the SDK Client and a transport: remembers the raw result of every
 * `initialize` and `tools/list` request (the Client's own parsing keeps only the keys its
 * schema knows, so annotations of newer vocabularies would be lost), and counts what the
 * server sends besides answers.
 */
class Capture implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly sent = new Map<string | number, string>();
  /** Every request id sent, as a number (the SDK matches a response's id with Number(id), and so does this). */
  private readonly requested = new Set<number>();
  private readonly lastId = new Map<string, string | number>();
  private readonly results = new Map<string | number, unknown>();
  /** Which tools/list page each request asked for (1: the first). */
  private readonly pageOf = new Map<string | number, number>();
  /** The text each tools/list and initialize result came in (see raw.ts). */
  private readonly raws = new Map<string | number, RawText>();

  constructor(
    private readonly inner: Transport,
    private readonly session: Session,
  ) {}

  get sessionId() {
    return this.inner.sessionId;
  }

  setProtocolVersion(v: string): void {
    this.inner.setProtocolVersion?.(v);
  }

  start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      this.observe(message);
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (e) => this.onerror?.(e);
    this.inner.onclose = () => this.onclose?.();
    return this.inner.start().then(() => {
      this.session.phase = 'while waiting for the initialize response';
    });
  }

  private observe(message: JSONRPCMessage): void {
    const m = message as Obj;
    if ('method' in m) {
      this.session.messages++;
      this.session.sinceAnswer++;
      this.session.lastMessage = `${'id' in m ? 'a request' : 'a notification'} ${this.session.quote(String(m.method), 60)}`;
      if (this.session.messages > this.session.limits.maxMessages) {
        this.session.fail(new LiveError(`the server sent more than ${this.session.limits.maxMessages} notifications and requests ${this.session.phase}; stopped`));
      }
      return;
    }
    const id = m.id as string | number;
    // A response to no request of ours is never what a request waits for: the SDK would only
    // report it through onerror, and the request would wait for the deadline.
    if (!this.session.listed && (id === undefined || !this.requested.has(Number(id)))) {
      const said = this.session.quote(writeJson(m, { indent: '', undefinedAs: 'omit', maxLength: 16_384 }), 160);
      if (id === undefined && isObject(m.error)) {
        this.session.fail(new LiveError(idlessError(m.error, this.session.phase, this.session.needles)));
      } else if (id === undefined) {
        this.session.fail(new LiveError(`the server sent a response without an id ${this.session.phase} (${said})`));
      } else {
        const shown = typeof id === 'number' ? String(id) : this.session.quote(String(id), 40);
        this.session.fail(new LiveError(`the server sent a response to request id ${shown}, which was never sent, ${this.session.phase} (${said})`));
      }
      return;
    }
    // The SDK matches ids by Number(id), so "0" answers request 0 for it; but a response must
    // carry the request's id as it was sent, and its result would be lost here.
    if (!this.session.listed && !this.sent.has(id)) {
      const asked = [...this.sent.keys()].find((k) => typeof k !== typeof id && Number(k) === Number(id));
      if (asked !== undefined) {
        const kind = (v: unknown) => (typeof v === 'string' ? 'a string' : 'a number');
        const shown = (v: string | number) => (typeof v === 'number' ? String(v) : this.session.quote(v, 40));
        this.session.fail(new LiveError(`the server answered ${this.sent.get(asked)} with the id ${shown(id)} (${kind(id)}), but the request's id was ${shown(asked)} (${kind(asked)}) ${this.session.phase}; a response must carry the request's id as it was sent`));
        return;
      }
    }
    // A second, different result for one tools/list page: a client keeps the first and drops this
    // one (the SDK reports it as a response to an unknown id), so linting the pair would lint tools
    // some clients never see. The same result again changes nothing; after an error answer, the
    // client acts on the error.
    if (!this.session.listed && 'result' in m && this.results.has(id)) {
      // A second initialize result: the client went on with the first (its version, its name).
      if (this.sent.get(id) !== 'tools/list') return;
      if (!jsonEqual(m.result, this.results.get(id))) {
        const shown = typeof id === 'number' ? String(id) : this.session.quote(String(id), 40);
        const err = new LiveError(
          `the server answered tools/list page ${this.pageOf.get(id)} (request id ${shown}) twice, with different tools, ${this.session.phase}; a client keeps the first answer and drops the second, so the tools a client sees cannot be told from the ones linted`,
        );
        this.session.duplicate ??= err;
        this.session.fail(err);
      }
      return;
    }
    this.session.answered.add(id);
    this.session.sinceAnswer = 0;
    if (isObject(m.error)) this.session.serverErrors.add(`MCP error ${String(m.error.code)}: ${String(m.error.message)}`);
    if ('result' in m && this.sent.has(id)) this.results.set(id, m.result);
    if ('result' in m && (this.sent.get(id) === 'tools/list' || this.sent.get(id) === 'initialize')) {
      // Over stdio the transport noted this very message's line; over HTTP the text its id came in.
      const raw = RAW_TEXT.get(message) ?? this.session.rawById.get(Number(id));
      if (raw) this.raws.set(id, raw);
    }
    if (this.sent.get(id) === 'initialize') {
      this.session.initialized = true;
      // What breaks from now until tools/list is sent breaks on the notification that follows
      // a result (an error answer ends the handshake, and is said as an answer to initialize).
      if ('result' in m) this.session.phase = 'after initialize, while sending the initialized notification';
      if (isObject(m.result) && typeof m.result.protocolVersion === 'string') this.session.protocolVersion = m.result.protocolVersion;
    }
  }

  send(message: JSONRPCMessage, options?: Parameters<Transport['send']>[1]): Promise<void> {
    const m = message as Obj;
    if (typeof m.method === 'string' && 'id' in m && (m.method === 'initialize' || m.method === 'tools/list')) {
      this.sent.set(m.id as string | number, m.method);
      if (m.method === 'tools/list') this.pageOf.set(m.id as string | number, this.pageOf.size + 1);
      this.lastId.set(m.method, m.id as string | number);
    }
    if (typeof m.method !== 'string' || !('id' in m)) return this.inner.send(message, options);
    this.requested.add(Number(m.id));
    // A response stream with an event id can be resumed: its end is then not the end of the request.
    const id = m.id as string | number;
    return this.inner.send(message, {
      ...options,
      onresumptiontoken: (token) => {
        this.session.resumable.add(id);
        options?.onresumptiontoken?.(token);
      },
    });
  }

  /** The raw result of the latest request of this method, if it was answered. */
  last(method: string): unknown {
    const id = this.lastId.get(method);
    return id === undefined ? undefined : this.results.get(id);
  }

  /** The text the latest result of this method (tools/list or initialize) came in, when the transport noted it. */
  lastRaw(method: 'tools/list' | 'initialize' = 'tools/list'): RawText | undefined {
    const id = this.lastId.get(method);
    return id === undefined ? undefined : this.raws.get(id);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** The ids of the JSON-RPC requests in a POST body (the SDK sends one message per POST). */
function requestIds(body: unknown): (string | number)[] {
  if (typeof body !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(body);
    return (Array.isArray(parsed) ? parsed : [parsed]).filter((m): m is Obj => isObject(m) && typeof m.method === 'string' && (typeof m.id === 'string' || typeof m.id === 'number')).map((m) => m.id as string | number);
  } catch {
    return [];
  }
}

/**
 * fetch for the HTTP transports: bound to the session's deadline, counting every request
 * and byte against its budgets, and telling the session when the event stream of a POST's
 * response ends (see Session.streamEnded).
 */
function sessionFetch(session: Session, transport: 'http' | 'sse'): typeof fetch {
  return async (input, init) => {
    session.request();
    if (session.error) throw session.error;
    const signal = init?.signal ? AbortSignal.any([init.signal, session.controller.signal]) : session.controller.signal;
    // A GET with Last-Event-ID resumes an event stream. The SDK gives up at once when that is
    // refused with 405, and tries again (a few times) after any other failure.
    const resuming = init?.method === 'GET' && new Headers(init.headers).has('last-event-id');
    const response = await fetch(input, { ...init, signal }).catch((err: unknown) => {
      if (resuming && !session.error) session.resumeFailed(`GET with Last-Event-ID: ${causeOf(err)}`, false);
      throw err;
    });
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location !== null) {
      try {
        const from = new URL(input instanceof Request ? input.url : String(input));
        const to = new URL(location, from);
        session.redirect = { status: response.status, method: (init?.method ?? 'GET').toUpperCase(), from, to, inARow: (session.redirect?.inARow ?? 0) + 1 };
      } catch {
        // A Location that is not a URL: the SDK does not follow it either, and says so.
      }
    } else if (!REDIRECT_STATUSES.has(response.status)) session.redirect = undefined;
    if (resuming && !response.ok) {
      session.resumeFailed(`GET with Last-Event-ID: HTTP ${response.status}${httpStatusText(response.status) ? ` ${httpStatusText(response.status)}` : ''}`, response.status === 405);
    }
    if (transport === 'http' && init?.method === 'POST' && response.status === 202) {
      const asked = requestIds(init.body);
      if (asked.length > 0) session.acceptedOnly(asked);
    }
    if (!response.body) return response;
    const stream = /^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
    const json = response.ok && /^application\/json\b/i.test(response.headers.get('content-type') ?? '');
    const ids = (stream || json) && transport === 'http' && init?.method === 'POST' ? requestIds(init.body) : [];
    const standalone = stream && transport === 'http' && (init?.method ?? 'GET') === 'GET';
    if (standalone) session.standaloneStreams++;
    let open = true;
    const ended = (broke?: unknown) => {
      if (!open) return;
      open = false;
      if (standalone) session.standaloneStreams--;
      if (json && broke !== undefined && !session.listed) {
        // Before the SDK hears of it (its error is fetch's "terminated", as if it could not connect).
        session.fail(new LiveError(`the connection broke while the server was sending its response (${causeOf(broke)}), ${session.phase}`));
      } else if (ids.length > 0 && json) session.jsonEnded(ids);
      else if (ids.length > 0) session.streamEnded(ids, broke);
      else if (stream && transport === 'sse' && (init?.method ?? 'GET') === 'GET') session.sseStreamEnded(broke);
    };
    const reader = response.body.getReader();
    const watch = json ? watchJson(session) : stream ? watchEvents(session) : undefined;
    const counted = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch (err) {
          ended(err);
          controller.error(err);
          return;
        }
        if (chunk.done) {
          watch?.(undefined);
          if (session.error) {
            controller.error(session.error);
            return;
          }
          controller.close();
          ended();
          return;
        }
        session.received(chunk.value.byteLength);
        if (!session.error) watch?.(chunk.value);
        if (session.error) {
          controller.error(session.error);
          reader.cancel(session.error).catch(() => undefined);
        } else controller.enqueue(chunk.value);
      },
      cancel(reason) {
        if (standalone && open) session.standaloneStreams--;
        open = false;
        return reader.cancel(reason);
      },
    });
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/**
 * An error response without a usable id (`"id": null`) names no request, so the MCP SDK
 * cannot read it (its schema refuses it) and nothing it waits for is ever answered: fail at
 * once with what the server said, as over stdio. So does a batch in an event (`inEvent`).
 */
function checkIdless(session: Session, text: string, inEvent: boolean): void {
  if (session.listed || session.error) return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return;
  }
  noteRaw(session, text, value);
  // The SDK reads a batch in a JSON body, but not in an event: it would wait for the deadline.
  if (inEvent && isBatch(value)) {
    session.fail(new LiveError(batchError(value.length, session.phase, session.protocolVersion, 'event', session.quote(text, 80))));
    return;
  }
  for (const m of Array.isArray(value) ? value : [value]) {
    if (m === null || typeof m !== 'object' || Array.isArray(m)) continue;
    const o = m as Obj;
    const validId = typeof o.id === 'string' || (typeof o.id === 'number' && Number.isInteger(o.id));
    if (o.error !== null && typeof o.error === 'object' && !Array.isArray(o.error) && !('result' in o) && !('method' in o) && !validId) {
      session.fail(new LiveError(idlessError(o.error as Obj, session.phase, session.needles)));
      return;
    }
  }
}

/** Notes the text of each response with a result in a message (each of a batch's too), for the duplicate-key scan (see raw.ts). */
function noteRaw(session: Session, text: string, value: unknown): void {
  const batch = Array.isArray(value);
  (batch ? value : [value]).forEach((m: unknown, k) => {
    if (isObject(m) && 'result' in m && (typeof m.id === 'number' || typeof m.id === 'string')) session.rawById.set(Number(m.id), { text, at: batch ? `/${k}` : '' });
  });
}

/** Watches a JSON response body (see checkIdless); called with each chunk, then undefined at its end. */
function watchJson(session: Session): (chunk: Uint8Array | undefined) => void {
  const decoder = new TextDecoder();
  let text = '';
  return (chunk) => {
    if (chunk) text += decoder.decode(chunk, { stream: true });
    else checkIdless(session, text + decoder.decode(), false);
  };
}

/**
 * Splits a stream of text into lines at \r\n, \r or \n (as the SSE standard does), a line end
 * split between two pieces included. Each piece is scanned once, from where the last line ended:
 * re-splitting all the text not yet ended on every piece was quadratic in a long line (an
 * event of megabytes, in chunks of kilobytes). `scanned` counts the characters looked at.
 */
export function lineSplitter(onLine: (line: string) => void): { push(text: string): void; end(): void; scanned: number } {
  const ends = /\r\n|\r|\n/g;
  // The start of the line not yet ended, in pieces (joined once, when it ends).
  let pending: string[] = [];
  // The last piece ended with \r: a \n first in the next is the same line end.
  let afterCr = false;
  const splitter = {
    scanned: 0,
    push(text: string): void {
      let from = afterCr && text.startsWith('\n') ? 1 : 0;
      afterCr = false;
      ends.lastIndex = from;
      for (let m = ends.exec(text); m !== null; m = ends.exec(text)) {
        pending.push(text.slice(from, m.index));
        const line = pending.join('');
        pending = [];
        from = ends.lastIndex;
        if (m[0] === '\r' && from === text.length) afterCr = true;
        onLine(line);
      }
      if (from < text.length) pending.push(text.slice(from));
      // The search for line ends ran over this piece only, never over the text before it.
      splitter.scanned += text.length;
    },
    /** The end of the stream ends the line not yet ended (an empty one when there is none). */
    end(): void {
      const line = pending.join('');
      pending = [];
      afterCr = false;
      onLine(line);
    },
  };
  return splitter;
}

/** Watches the events of an event stream (their data lines, as the SSE standard joins them; see checkIdless). */
function watchEvents(session: Session): (chunk: Uint8Array | undefined) => void {
  const decoder = new TextDecoder();
  let data: string[] = [];
  const lines = lineSplitter((line) => {
    if (line === '') {
      if (data.length > 0) checkIdless(session, data.join('\n'), true);
      data = [];
    } else if (line.startsWith('data:')) data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
  });
  return (chunk) => {
    if (chunk) lines.push(decoder.decode(chunk, { stream: true }));
    else {
      lines.push(decoder.decode());
      lines.end();
    }
  };
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The MCP SDK follows at most this many redirects in a row (within the origin). */
const MAX_REDIRECTS = 5;

/**
 * Why the MCP SDK did not follow the redirect the server answered with, if it was one (the
 * SDK's own message blames its redirectPolicy option, which mcp-annotate does not offer): to
 * another origin, to a URL that adds user info, more than 5 in a row, a 301-303 of a POST.
 */
function redirectReason(session: Session, code: number | undefined): string | undefined {
  const r = session.redirect;
  if (r === undefined || code === undefined || !REDIRECT_STATUSES.has(code)) return undefined;
  const status = `HTTP ${r.status} ${httpStatusText(r.status)}`.trim();
  // A key in its path is hidden as in the target's own URL (see displayUrl).
  const target = session.quote(displayUrl(`${r.to.origin}${r.to.pathname}`), 120);
  if (r.to.origin !== r.from.origin) {
    return `the server redirected to another origin (${status} to ${target}) ${session.phase}, which is not followed, so the headers given for one server never reach another; if that is the server, give its URL`;
  }
  // The SDK does not follow a redirect that adds a user name or password either (credentials are never taken from a server's Location).
  if ((r.to.username || r.to.password) && (r.to.username !== r.from.username || r.to.password !== r.from.password)) {
    return `the server redirected to a URL with a user name or password in it (${status} to ${target}, credentials not shown) ${session.phase}, which is not followed: credentials are never taken from a redirect; give the URL it redirects to, with the credentials as an Authorization header`;
  }
  if (r.inARow > MAX_REDIRECTS) return `the server redirected more than ${MAX_REDIRECTS} times in a row (${status} to ${target}, a loop?) ${session.phase}; give the URL the redirects end at`;
  if (r.method !== 'GET' && r.status !== 307 && r.status !== 308) {
    return `the server answered a ${r.method} with a redirect (${status} to ${target}) ${session.phase}, which is not followed: a ${r.status} turns a ${r.method} into a GET, losing the request; give the target URL, or have the server redirect with 307 or 308`;
  }
  return undefined;
}

/** The innermost message of an error and its causes (fetch wraps socket errors in "terminated"). */
function causeOf(err: unknown): string {
  let e = err as { message?: unknown; cause?: unknown } | undefined;
  while (e?.cause instanceof Error) e = e.cause as typeof e;
  return typeof e?.message === 'string' && e.message !== '' ? e.message : String(err);
}

const ROUND_TRIP_SLACK_MS = 1000;

/** MCP 2026-07-28's UnsupportedProtocolVersionError code; its data lists the versions the server supports. */
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** initialize + every tools/list page over a connected transport. */
async function listOver(s: Sdk, transport: Transport, session: Session): Promise<Omit<Fetched, 'transport'>> {
  const capture = new Capture(transport, session);
  const client = new s.Client({ name: TOOL_NAME, version: version() }, { capabilities: {} });
  // Transport noise (a server without a standalone SSE stream, a reconnect) is not fatal;
  // what is fatal ends the session through session.fail or a rejected request. Except when
  // the SDK gives up resuming a stream: a request waiting on it is never answered.
  client.onerror = (err) => {
    if (err?.message?.startsWith('Maximum reconnection attempts')) session.resumeFailed(undefined, true);
  };
  const requestOptions = { signal: session.controller.signal, timeout: session.limits.timeoutMs + ROUND_TRIP_SLACK_MS };
  try {
    session.phase = transport instanceof GroupStdioTransport ? 'while starting the server' : 'while connecting';
    await session.race(client.connect(capture, requestOptions)).catch((err: unknown) => {
      // The SDK checks the initialize result with its own schema and hangs up when it does
      // not match (e.g. serverInfo without a version): say that, not how the server exited.
      const issues = (err as { issues?: { path?: (string | number)[]; message?: string }[] })?.issues;
      if (!(err instanceof LiveError) && isObject(capture.last('initialize')) && Array.isArray(issues) && issues.length > 0) {
        const said = issues.slice(0, 3).map((i) => `${(i.path ?? []).join('.') || '(result)'}: ${i.message ?? 'invalid'}`);
        throw new LiveError(`the server's initialize result is not valid MCP (${said.join('; ')}), so the MCP SDK would not continue`);
      }
      // The SDK hangs up too on a protocol version it does not speak. A live run can negotiate
      // only the SDK's versions (the client has no option to accept others, and 2026-07-28 has
      // no initialize at all: its clients negotiate with server/discover and per-request _meta).
      const answered = capture.last('initialize');
      const onlyThese = `a live run can negotiate only those (it asks for ${s.LATEST_PROTOCOL_VERSION}); to lint this server's tools, save its tools/list result as a file (with "protocolVersion" beside "tools") and lint that`;
      if (!(err instanceof LiveError) && isObject(answered) && typeof answered.protocolVersion === 'string' && !s.SUPPORTED_PROTOCOL_VERSIONS.includes(answered.protocolVersion)) {
        throw new LiveError(
          `the server answered initialize with protocol version ${session.quote(answered.protocolVersion, 40)}, which the MCP SDK does not speak (it speaks ${s.SUPPORTED_PROTOCOL_VERSIONS.join(', ')}), so it would not continue: ${onlyThese}`,
        );
      }
      // 2026-07-28's answer to a version it does not support: the versions it does.
      const supported = err instanceof s.McpError && err.code === UNSUPPORTED_PROTOCOL_VERSION && isObject(err.data) && Array.isArray(err.data.supported) ? err.data.supported : undefined;
      if (supported && session.serverErrors.has((err as Error).message)) {
        const theirs = supported.slice(0, 10).map((v) => session.quote(v, 40));
        throw new LiveError(
          `the server answered initialize with error ${UNSUPPORTED_PROTOCOL_VERSION} (unsupported protocol version): it supports ${theirs.length ? theirs.join(', ') : 'no version it names'}, and the MCP SDK speaks ${s.SUPPORTED_PROTOCOL_VERSIONS.join(', ')}: ${onlyThese}`,
        );
      }
      throw err;
    });
    const init = capture.last('initialize');
    if (!isObject(init)) throw new LiveError('the server answered initialize without a result object');

    const pages: Obj[] = [];
    const raws: (RawText | undefined)[] = [];
    const seen = new Set<string>();
    let cursor: string | undefined;
    for (let page = 1; ; page++) {
      if (page > session.limits.maxPages) {
        throw new LiveError(`stopped after ${session.limits.maxPages} pages of tools/list: the server keeps returning a nextCursor`);
      }
      session.phase = `while listing tools (page ${page})`;
      const request = session.race(client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, s.ResultSchema, requestOptions));
      let parseError: unknown;
      await request.catch((err: unknown) => {
        // A server without the tools capability may answer tools/list with "method not found".
        const declaresTools = isObject(init.capabilities) && 'tools' in init.capabilities;
        if (err instanceof s.McpError && err.code === s.ErrorCode.MethodNotFound && !declaresTools) {
          throw new LiveError(`the server offers no tools: its initialize result declares no "tools" capability, and it answered tools/list with error ${err.code} (method not found)`);
        }
        // The Client's own check of the result envelope (e.g. a non-object _meta) is not
        // ours to enforce: the raw result, when there is one, is what gets linted.
        if (err instanceof s.McpError || err instanceof LiveError || capture.last('tools/list') === undefined) throw err;
        parseError = err;
      });
      void parseError;
      // A second answer read with the first comes after the request was settled: said here. (Other
      // failures after the last answer, such as a log line on stdout, are not the listing's.)
      if (session.duplicate) throw session.duplicate;
      const result = capture.last('tools/list');
      if (!isObject(result)) throw new LiveError(`the tools/list result (page ${page}) is not an object`);
      if (!Array.isArray(result.tools)) throw new LiveError(`the tools/list result (page ${page}) has no "tools" array`);
      pages.push(result);
      raws.push(capture.lastRaw());
      const next = result.nextCursor;
      if (next === undefined || next === null || next === '') break;
      if (typeof next !== 'string') throw new LiveError(`the tools/list result (page ${page}) has a nextCursor that is not a string`);
      if (seen.has(next)) throw new LiveError(`tools/list returned the cursor ${session.quote(next, 40)} a second time (page ${page}): the pages loop endlessly`);
      seen.add(next);
      cursor = next;
    }
    session.listed = true;
    const rawPages = pages.map((result, i) => ({ raw: raws[i], result: result as { tools: unknown[] } }));
    const repeatedKeys = liveRepeatedKeys(rawPages, session.needles, capture.lastRaw('initialize'));
    const writtenNumbers = liveWrittenNumbers(rawPages);
    return { ...buildSnapshot(pages, init), repeatedKeys, ...(writtenNumbers ? { writtenNumbers } : {}) };
  } finally {
    await closeQuietly(client, transport);
  }
}

async function closeQuietly(client: { close(): Promise<void> }, transport: Transport): Promise<void> {
  const bounded = (p: Promise<unknown>, ms: number) => Promise.race([p.catch(() => undefined), new Promise((r) => setTimeout(r, ms).unref())]);
  const http = transport as Transport & { terminateSession?: () => Promise<void> };
  if (typeof http.terminateSession === 'function' && http.sessionId !== undefined) await bounded(http.terminateSession(), 1000);
  await bounded(client.close(), 5000);
  await bounded(transport.close(), 5000);
}

/**
 * For a 401 or 403: how to give the server credentials (a config server's come from its entry:
 * --header is for --url); or, when some were given (a credential header: Authorization,
 * Cookie, X-Api-Key, …, see isCredentialHeader), that the server refused them, naming the
 * headers (never their values).
 */
function authHint(code: number | undefined, target: LiveTarget): string {
  if (code !== 401 && code !== 403) return '';
  const given = Object.keys(target.http?.headers ?? {}).filter(isCredentialHeader);
  if (given.length > 0) {
    const names = given.length === 1 ? `the ${given[0]} header` : `the ${given.slice(0, -1).join(', ')} and ${given[given.length - 1]} headers`;
    const where = target.config ? `in the "headers" of its entry in ${target.config.display}` : 'with --header';
    return ` (the server refused the credentials given ${where}: ${names}; check ${given.length === 1 ? 'its value' : 'their values'}, not shown here)`;
  }
  if (target.config) return ` (give credentials in the "headers" of its entry in ${target.config.display}, e.g. "headers": {"Authorization": "Bearer \${TOKEN}"})`;
  return ' (pass credentials with --header, e.g. --header "Authorization: Bearer ${TOKEN}")';
}

/** The reason phrase of an HTTP status code (Node's table: every registered code). */
function httpStatusText(code: number): string {
  return process.getBuiltinModule('node:http').STATUS_CODES[code] ?? '';
}

/** Causes of a fetch failure that mean no connection was made (the others mean one broke). */
const NOT_CONNECTED = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'];

/** Causes of a fetch failure that mean a connection was made and then closed or answered with what is not HTTP (undici's codes; over SSE, only the message is left). */
const CONNECTED_THEN = (code: string | undefined, message: string) => code === 'UND_ERR_SOCKET' || code?.startsWith('HPE_') === true || message === 'other side closed' || /does not match the HTTP\/1\.1 protocol/.test(message);

/**
 * Why fetch failed for `url`, from the code and message of its cause, `phase` being what the
 * session was doing. Before the server has answered initialize (`initialized` false), it
 * could not connect, unless the cause shows the connection was made: the server closed it
 * without answering ("other side closed"), or answered with headers larger than fetch reads.
 * After, a failure that is not one to connect (refused, host not found, …: the server may have
 * gone since) is a connection that broke. Either is said with the phase it came in.
 */
function connectFailure(url: string, code: string | undefined, message: string, phase: string, initialized: boolean): LiveError {
  const is = (c: string) => code === c || message.includes(c);
  const during = initialized ? ` ${phase}` : '';
  // fetch refuses some ports outright (the Fetch standard's "bad ports": 6000, 6665–6669, …).
  if (message === 'bad port') {
    return new LiveError(`could not connect${during}: fetch refuses port ${new URL(url).port} (one of the Fetch standard's "bad ports", blocked by browsers and Node.js alike); serve MCP on another port`);
  }
  // undici's HeadersOverflowError: the server answered, with more header bytes than fetch reads.
  if (is('UND_ERR_HEADERS_OVERFLOW') || message === 'Headers Overflow Error') {
    const limit = formatBytes(process.getBuiltinModule('node:http').maxHeaderSize);
    return new LiveError(`the server answered with response headers larger than fetch accepts (${limit} in all) ${phase}; check what adds them (a proxy, cookies)`);
  }
  const certificate = /certificate|CERT/.test(`${code ?? ''} ${message}`);
  // Node 24 appends its own advice after a ";" to a certificate error: the hint below is ours.
  const said = certificate ? message.split(';')[0]! : message;
  const why = is('ECONNREFUSED') ? 'connection refused' : is('ENOTFOUND') ? 'host not found' : is('ECONNRESET') ? 'connection reset' : said;
  const reached = initialized || CONNECTED_THEN(code, message);
  if (reached && !certificate && !NOT_CONNECTED.some(is)) return new LiveError(`the connection broke before the server sent its response (${why}), ${phase}`);
  return new LiveError(
    `could not connect${during}: ${why}${certificate ? ' (mcp-annotate checks certificates as any HTTPS client does; to trust a private CA, set NODE_EXTRA_CA_CERTS to its certificate file)' : ''}`,
  );
}

/** Why a server's working directory cannot be used, if it cannot. */
function directoryProblem(dir: string): string | undefined {
  try {
    return statSync(dir).isDirectory() ? undefined : 'is not a directory';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? 'does not exist' : code === 'ENOTDIR' ? 'is not a directory (a part of its path is a file)' : undefined;
  }
}

/** Any error of a session → one sentence for the user. */
function explain(s: Sdk, err: unknown, session: Session, target: LiveTarget, stdio?: GroupStdioTransport): LiveError {
  if (session.error) return session.error;
  if (err instanceof LiveError) return err;
  const e = err as NodeJS.ErrnoException & { cause?: NodeJS.ErrnoException; code?: unknown };
  // An error the server answered with is what went wrong, even if the server has exited since
  // (the session closes the transport before explaining).
  const local = err instanceof s.McpError && (err.code === s.ErrorCode.ConnectionClosed || err.code === s.ErrorCode.RequestTimeout) && !session.serverErrors.has(err.message);
  if (err instanceof s.McpError && !local) {
    return new LiveError(`the server answered with error ${err.code} ${session.phase}: ${session.quote(err.message.replace(/^(MCP error -?\d+: )+/, ''), 160)}`);
  }
  if (stdio) {
    // spawn fails with ENOENT for a missing working directory too: check it before blaming the program.
    if (e?.code === 'ENOENT' || e?.code === 'ENOTDIR') {
      const cwd = target.stdio!.cwd;
      const problem = directoryProblem(cwd);
      if (problem) return new LiveError(`could not start ${JSON.stringify(target.stdio!.command)}: its working directory ${session.quote(cwd, 200)} ${problem}`);
    }
    if (e?.code === 'ENOENT') return new LiveError(`could not start ${JSON.stringify(target.stdio!.command)}: no such program (is it installed and on PATH?)`);
    if (e?.code === 'EACCES') return new LiveError(`could not start ${JSON.stringify(target.stdio!.command)}: permission denied`);
    const exit = stdio.exit;
    if (exit) {
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      const last = lastLine(stdio.stderr);
      return new LiveError(`the server ${how} ${session.phase}${last ? `; its stderr ended with ${session.quote(last, 160)}` : ''}`);
    }
  }
  // fetch could not connect: its cause, or over SSE the cause's message inside the transport's.
  const failed = e instanceof TypeError && e.cause ? e.cause : err instanceof s.SseError ? /fetch failed: (.+)$/.exec(err.message)?.[1] : undefined;
  if (failed !== undefined && target.http) {
    // Once the server has answered initialize (or the cause shows it was reached), say when the failure came.
    return typeof failed === 'string'
      ? connectFailure(target.http.url, undefined, failed, session.phase, session.initialized)
      : connectFailure(target.http.url, failed.code, failed.message ?? String(failed), session.phase, session.initialized);
  }
  const redirected = redirectReason(session, err instanceof s.StreamableHTTPError || err instanceof s.SseError ? err.code : undefined);
  if (redirected !== undefined) return new LiveError(redirected);
  if (err instanceof s.StreamableHTTPError) {
    const code = err.code ?? -1;
    if (code === -1) {
      const detail = err.message.replace(/^Streamable HTTP error: /, '');
      const type = /^Unexpected content type: (.*)$/.exec(detail)?.[1];
      if (type !== undefined) {
        const what = type === 'null' || type === '' ? 'no content type' : `content type ${session.quote(type, 60)}`;
        return new LiveError(`the server answered with ${what}, not JSON or an event stream, ${session.phase}; is this the server's MCP endpoint?`);
      }
      return new LiveError(`${detail} ${session.phase}`);
    }
    const body = err.message.replace(/^Streamable HTTP error: /, '').replace(/^Error POSTing to endpoint: ?/, '');
    return new LiveError(`HTTP ${code} ${httpStatusText(code)} ${session.phase}${body && body !== 'null' ? `: ${session.quote(body, 120)}` : ''}${authHint(code, target)}`.replace(/ {2,}/g, ' '));
  }
  if (err instanceof s.SseError) {
    const code = typeof err.code === 'number' ? err.code : undefined;
    if (code !== undefined && code >= 200 && code < 300 && /content type/i.test(err.message)) {
      return new LiveError(`the server answered HTTP ${code} without an event stream (content type text/event-stream) ${session.phase}; is this the server's SSE endpoint?`);
    }
    return new LiveError(
      `the SSE connection failed${code ? ` with HTTP ${`${code} ${httpStatusText(code)}`.trim()}` : ''} ${session.phase}${!code && err.message ? `: ${session.quote(err.message.replace(/^SSE error: /, ''), 120)}` : ''}${authHint(code, target)}`,
    );
  }
  if (err instanceof s.McpError) {
    // The SDK's own: the server's answers were explained above.
    if (err.code === s.ErrorCode.ConnectionClosed) return new LiveError(`the connection closed ${session.phase}`);
    return new LiveError(`timed out ${session.phase}`);
  }
  // A JSON body that does not parse (response.json()): often one cut short.
  if (err instanceof SyntaxError && target.http) {
    return new LiveError(`the server answered with invalid JSON ${session.phase} (${session.quote(err.message, 120).slice(1, -1)}; was the response cut short?)`);
  }
  // The MCP SDK validates what it receives with zod; the error's message is its issues as JSON.
  if (Array.isArray((err as { issues?: unknown })?.issues)) {
    return new LiveError(`the server answered with JSON that is not a JSON-RPC message ${session.phase}; is this the server's MCP endpoint?`);
  }
  const message = redact(e?.message ?? String(err), session.needles).split('\n')[0]!;
  return new LiveError(`${message} ${session.phase}`);
}

/**
 * A Streamable HTTP failure after which the legacy SSE transport is worth a try (spec:
 * backwards compatibility): a 4xx (other than 401/403) to the POST of the InitializeRequest.
 * Once the server has answered initialize, it speaks Streamable HTTP, and a later 4xx is its
 * answer to that request.
 */
function fallsBack(s: Sdk, err: unknown, session: Session): boolean {
  if (session.initialized) return false;
  return err instanceof s.StreamableHTTPError && typeof err.code === 'number' && err.code >= 400 && err.code < 500 && err.code !== 401 && err.code !== 403;
}

/**
 * Header and environment values are secrets, and fetch or spawn would reject some of them
 * with a message that quotes the value (or the part of it before a line break, which no
 * redaction of the whole value finds). Such a value is refused here, by its name only.
 */
function checkSecretValues(target: Pick<LiveTarget, 'http' | 'stdio'>): void {
  for (const [name, value] of Object.entries(target.http?.headers ?? {})) {
    if (!HEADER_NAME.test(name)) throw new LiveError(`the header name ${JSON.stringify(name)} is not a valid HTTP header name (letters, digits and !#$%&'*+.^_\`|~- only)`);
    if (/[\r\n\0]/.test(value)) {
      throw new LiveError(`the value of the ${name} header holds a line break or a NUL character, which HTTP does not allow (the value is not shown; a token read from a file often ends with "\\r\\n")`);
    }
    if (/[^\0-\xff]/.test(value)) throw new LiveError(`the value of the ${name} header holds characters beyond U+00FF, which HTTP headers cannot carry (the value is not shown)`);
  }
  for (const [name, value] of Object.entries(target.stdio?.env ?? {})) {
    if (value.includes('\0')) throw new LiveError(`the environment variable ${name} holds a NUL character, which no program can be given (the value is not shown)`);
  }
}

/** Connect to one live target and read its tools. Throws LiveError (message already redacted of the target's secrets). */
export async function fetchTools(target: LiveTarget, limits: Limits, signal: AbortSignal, needles: readonly string[]): Promise<Fetched> {
  const session = new Session(limits, signal, needles);
  try {
    checkSecretValues(target);
    const s = await session.race(sdk());
    if (target.stdio) {
      const spec = target.stdio;
      const transport = new GroupStdioTransport(
        { command: spec.command, args: spec.args, env: { ...s.getDefaultEnvironment(), ...spec.env }, cwd: spec.cwd },
        { maxBytes: limits.maxBytes, isMessage: (v) => s.JSONRPCMessageSchema.safeParse(v).success, fail: (e) => session.fail(e), needles, phase: () => session.phase, protocolVersion: () => session.protocolVersion },
      );
      try {
        return { ...(await listOver(s, transport, session)), transport: 'stdio' };
      } catch (err) {
        throw explain(s, err, session, target, transport);
      }
    }
    const http = target.http!;
    const url = new URL(http.url);
    const requestInit = { headers: http.headers };
    const viaHttp = () => listOver(s, new s.StreamableHTTPClientTransport(url, { requestInit, fetch: sessionFetch(session, 'http'), reconnectionOptions: { maxRetries: 2, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 } }), session);
    const viaSse = () => listOver(s, new s.SSEClientTransport(url, { requestInit, fetch: sessionFetch(session, 'sse') }), session);
    if (http.transport === 'sse') {
      try {
        return { ...(await viaSse()), transport: 'sse' };
      } catch (err) {
        throw explain(s, err, session, target);
      }
    }
    try {
      return { ...(await viaHttp()), transport: 'http' };
    } catch (err) {
      if (http.transport === 'http' || !fallsBack(s, err, session) || session.error) throw explain(s, err, session, target);
      const first = explain(s, err, session, target);
      try {
        return { ...(await viaSse()), transport: 'sse' };
      } catch (err2) {
        const second = explain(s, err2, session, target);
        if (session.error === second) throw second;
        throw new LiveError(`not a Streamable HTTP endpoint (${first.message}), and the legacy SSE transport failed too: ${second.message}`);
      }
    }
  } catch (err) {
    const e = err instanceof LiveError ? err : new LiveError((err as Error)?.message ?? String(err));
    throw new LiveError(redact(e.message, needles));
  } finally {
    session.dispose();
  }
}
