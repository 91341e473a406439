/**
 * Session transcripts: the ordered JSON-RPC messages of one agent session, possibly with
 * several servers, as a JSON array of entries or as JSON Lines (one entry per line).
 *
 * An entry is a bare JSON-RPC message (exchanged with the one unnamed server), a JSON-RPC batch
 * (an array of messages, read in order at "/4/0", "/4/1", …), or a wrapper
 * {"server": "<name>", "url"?: "<the server's URL>", "message": {…} or [batch]} naming the
 * server. One test tells a message in both forms: a string "method" (a request or notification)
 * or "id" with "result" or "error" (a response), "jsonrpc" not needed, and no member a tool has.
 * A JSON Lines file reads as the array of its non-blank lines: pointers are the same in both
 * forms ("/4/message/params" is the fifth message), and so are findings and baselines.
 *
 * Responses pair with requests by (server, id). Client and server number their own requests,
 * so several may wait for one id: the result's shape (the MCP schemas' result of each method)
 * tells which it answers; when it does not, the latest waiting request takes it, and a call or
 * resolve among them is marked ambiguous (its result is not checked; a rule says so). An error
 * response without an id, or with id null, answers nothing and is skipped. A tools/list
 * response declares the server's tools: a request without a cursor (or with a null one) starts
 * a new listing, which replaces the earlier one from then on; a request with a string cursor
 * continues the listing whose page gave it, if that listing is still in effect and waits for
 * that cursor (any other page is part of no listing, and a note says so). The tool rules lint
 * each server's last listing, against the protocol version it was served under (its request's
 * _meta version, 2026-07-28, else initialize's in effect when it was answered); each call or
 * resolve is compared with the listing in effect when it was sent.
 *
 * Input errors (the whole transcript is not linted, exit 2): a line that is not JSON, an entry
 * that is not a JSON-RPC message, a batch or a wrapper, an empty or nested batch, a wrapper
 * without a server name or with a URL that is not http(s) (or of another origin than before),
 * a response whose id no earlier request of its server is waiting for, a tools/list result
 * without a tools array.
 */
import type { Located, Locator, Origin, RepeatedKey, RepeatedKeyScope, ServerInput, Session, SessionStep } from '../types.js';
import { isObject } from '../util/json.js';
import { quote } from '../util/text.js';
import { createLocator, locatorOf } from './locate.js';
import { firstJsonError, InputProblem, jsonErrorMessage, lineColumn } from './parse.js';
import { serverWhere } from './shapes.js';
import { printParseErrorCode } from 'jsonc-parser';

type Obj = Record<string, unknown>;
const has = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** A wrapper entry: {"server", "message"} (and no "jsonrpc" of its own). */
function isWrapper(v: unknown): v is Obj {
  return isObject(v) && has(v, 'message') && !has(v, 'jsonrpc') && !has(v, 'method');
}

/**
 * Members a JSON-RPC message never has at its top level and a tool always has one of: an object
 * with one is a tool of a dump (an OpenAPI-made tool may well have a "method"), never a message.
 */
const TOOL_KEYS = ['name', 'inputSchema', 'description', 'annotations', 'tools'] as const;

function toolLike(o: Obj): boolean {
  return TOOL_KEYS.some((k) => has(o, k));
}

/** An MCP method name: initialize, ping, or lower-case words joined by "/" (tools/call, notifications/initialized). */
const MCP_METHOD = /^(?:initialize|ping|[a-z]+(?:\/[A-Za-z_]+)+)$/;

/**
 * A JSON-RPC request or notification: a string "method", no member a tool has, and something
 * only a message has — "jsonrpc", an "id" or "params", or an MCP method name. The "jsonrpc"
 * member is not needed (captures often drop it), in a JSON array as in JSON Lines; but
 * {"method": "GET", "path": "/x"} is a broken tool of a dump, not a message.
 */
function isRequestLike(v: unknown): v is Obj {
  if (!isObject(v) || typeof v.method !== 'string' || toolLike(v)) return false;
  return has(v, 'jsonrpc') || has(v, 'id') || has(v, 'params') || MCP_METHOD.test(v.method);
}

/** A JSON-RPC response: "id" with "result" or "error", or an "error" alone (a parse error has no id). */
function isResponseLike(v: unknown): v is Obj {
  return isObject(v) && !toolLike(v) && !has(v, 'method') && (has(v, 'result') || has(v, 'error')) && (has(v, 'id') || has(v, 'error'));
}

/** A message, a batch of them (an array; JSON-RPC batches, MCP 2025-03-26) or a wrapper of either. */
function holdsRequest(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(isRequestLike);
  if (isWrapper(v)) return isRequestLike(v.message) || (Array.isArray(v.message) && v.message.some(isRequestLike));
  return isRequestLike(v);
}

/**
 * Whether an array is a session transcript: it holds at least one JSON-RPC request or
 * notification — bare, in a batch or in a wrapper — by the same test as a JSON Lines line, and
 * no item that looks like a tool (an array of tools with one broken item is still a dump, and
 * its tools are linted). No tools/list dump shape has a request, so every dump reads as it did.
 */
export function isTranscriptArray(arr: readonly unknown[]): boolean {
  return arr.some(holdsRequest) && !arr.some((v) => isObject(v) && !isWrapper(v) && toolLike(v));
}

/** Whether a value is a transcript entry: a JSON-RPC message, a batch or a wrapper. */
function isEntry(v: unknown): boolean {
  if (isWrapper(v)) return true;
  if (Array.isArray(v)) return v.length > 0 && v.every((m) => isRequestLike(m) || isResponseLike(m));
  return isRequestLike(v) || isResponseLike(v);
}

/** A JSON Lines text as its entries, with where each line starts. */
export interface JsonLines {
  values: unknown[];
  /** 0-based line number and offset of each entry's line. */
  lines: number[];
  offsets: number[];
  text: string;
}

/**
 * Reads a JSON Lines text whose lines are JSON-RPC messages (blank lines skipped), or returns
 * undefined when its first line is not one (the caller keeps its own error). A later line that
 * is not JSON is an input error at its line and column.
 */
export function parseJsonLines(text: string): JsonLines | undefined {
  const out: JsonLines = { values: [], lines: [], offsets: [], text };
  let line = 0;
  for (let start = 0; start <= text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const raw = text.slice(start, end);
    if (raw.trim() !== '') {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        if (out.values.length === 0) return undefined;
        const first = firstJsonError(raw);
        const at = first ? lineColumn(raw, first.offset) : { line: 1, column: 1 };
        throw new InputProblem(`invalid JSON on this line of the transcript (JSON Lines: one JSON-RPC message per line): ${first ? jsonErrorMessage(printParseErrorCode(first.error), raw, first.offset) : 'cannot be read'}`, line + 1, at.column);
      }
      if (out.values.length === 0 && !isEntry(value)) return undefined;
      out.values.push(value);
      out.lines.push(line);
      out.offsets.push(start);
    }
    start = end + 1;
  }
  return out;
}

/**
 * A locator for JSON Lines read as the array of its lines: "/4/..." is found in the fifth
 * entry's line, with that line's own locator (made once per line that a pointer asks for),
 * shifted to the line's place in the file.
 */
export function jsonLinesLocator(doc: JsonLines): Locator {
  const perLine = new Map<number, Locator>();
  const lineLocator = (i: number) => {
    let l = perLine.get(i);
    if (!l) {
      const start = doc.offsets[i]!;
      let end = doc.text.indexOf('\n', start);
      if (end < 0) end = doc.text.length;
      perLine.set(i, (l = createLocator(doc.text.slice(start, end))));
    }
    return l;
  };
  const locateAll = (pointers: readonly string[], occurrences?: readonly (number | undefined)[]): (Located | undefined)[] => {
    const byLine = new Map<number, { at: number; rel: string }[]>();
    const out: (Located | undefined)[] = new Array(pointers.length).fill(undefined);
    pointers.forEach((p, at) => {
      const m = /^\/(0|[1-9]\d*)(?=\/|$)/.exec(p);
      const i = m ? Number(m[1]) : -1;
      if (i < 0 || i >= doc.values.length) {
        // The document itself (or an entry that does not exist): the first line.
        out[at] = { pointer: '', line: 1, column: 1, endLine: 1, endColumn: 2, valueOffset: 0, valueLength: 1, valueLine: 1, valueColumn: 1, valueEndLine: 1, valueEndColumn: 2 };
        return;
      }
      let list = byLine.get(i);
      if (!list) byLine.set(i, (list = []));
      list.push({ at, rel: p.slice(m![0].length) });
    });
    for (const [i, wanted] of byLine) {
      const found = lineLocator(i).locateAll(wanted.map((w) => w.rel), occurrences && wanted.map((w) => occurrences[w.at]));
      const shift = doc.lines[i]!;
      const offset = doc.offsets[i]!;
      wanted.forEach((w, k) => {
        const f = found[k];
        if (!f) return;
        out[w.at] = {
          ...f,
          pointer: `/${i}${f.pointer}`,
          line: f.line + shift,
          endLine: f.endLine + shift,
          valueLine: f.valueLine + shift,
          valueEndLine: f.valueEndLine + shift,
          valueOffset: f.valueOffset + offset,
        };
      });
    }
    return out;
  };
  /** Each line's scopes checked in the line's own text, their pointers made absolute again. */
  const repeatedKeys = (scopes: readonly { pointer: string; scope: RepeatedKeyScope }[]): RepeatedKey[] => {
    const byLine = new Map<number, { pointer: string; scope: RepeatedKeyScope }[]>();
    for (const s of scopes) {
      const m = /^\/(0|[1-9]\d*)(?=\/|$)/.exec(s.pointer);
      const i = m ? Number(m[1]) : -1;
      if (i < 0 || i >= doc.values.length) continue;
      let list = byLine.get(i);
      if (!list) byLine.set(i, (list = []));
      list.push({ pointer: s.pointer.slice(m![0].length), scope: s.scope });
    }
    const out: RepeatedKey[] = [];
    for (const [i, wanted] of byLine) {
      for (const r of lineLocator(i).repeatedKeys?.(wanted) ?? []) out.push({ ...r, scope: `/${i}${r.scope}`, object: `/${i}${r.object}` });
    }
    return out;
  };
  return { ...locatorOf(locateAll), text: doc.text, repeatedKeys };
}

/** A protocol version as recorded: a version string, or (see ServerInput.protocolVersionInvalid) what was recorded instead. */
interface Recorded {
  version?: string;
  invalid?: string;
}

interface Listing {
  tools: { value: unknown; pointer: string }[];
  envelopes: { value: unknown; pointer: string }[];
  /** Each tool name's first tool in `tools` (a call names a tool: no scan of a 10,000-tool listing per call). */
  byName: Map<string, number>;
  /** The last page's nextCursor, when it has one: more pages follow (its pointer, and the cursor itself). */
  more?: string;
  cursor?: string;
  /** The version the listing was served under: its first page's request's, or the session's when that page was answered. */
  recorded: Recorded;
  /** The listing starts mid-way: the first page the transcript holds answers a cursor no earlier page gave. */
  midway?: { page: string; cursor: string };
}

interface ServerState {
  name: string;
  /** Named by a wrapper (else the one unnamed server). */
  named: boolean;
  url?: string;
  urlAt?: string;
  listing?: Listing;
  /** Every tool name a listing of the server declared so far, with where the last one did. */
  everListed: Map<string, string>;
  firstEntry: string;
  serverInfo?: Obj;
  /**
   * The version in effect so far: the last initialize result's protocolVersion, or the last
   * request's _meta["io.modelcontextprotocol/protocolVersion"] (2026-07-28 has no initialize:
   * every request carries its version).
   */
  recorded: Recorded;
  /** Each cursor a tools/list page of the server gave, with the listing that page is part of (the latest page that gave it). */
  cursors: Map<string, Listing>;
  /** tools/list pages that are part of no listing in effect (see ServerInput.notes); the server's name is known only at the end. */
  strays: ((server: string) => string)[];
  /** Each tool name only such a page declared (none of the server's listings did), with where and why that page was not counted. */
  strayListed: Map<string, { pointer: string; page: string; why: string }>;
  steps: SessionStep[];
}

interface Pending {
  method: string;
  params?: Obj;
  step?: SessionStep;
  /** Pointer of the request. */
  pointer: string;
  /** The version its _meta names (2026-07-28), if it names one. */
  recorded?: Recorded;
  /** A tools/list with a string cursor: the listing whose page gave that cursor, when one did (null: none did). */
  continues?: Listing | null;
  /** A tools/list whose cursor is neither a string nor null (2, {"page": 2}): its page is part of no listing. */
  oddCursor?: true;
}

/** Where 2026-07-28 puts the protocol version of a request: params._meta[this] (its RequestMetaObject requires it). */
const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
/** Where 2026-07-28 puts the server's name and version on a result: result._meta[this] (ResultMetaObject). */
const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** A recorded protocol version: a non-empty string is one; anything else (2025, "", null, {…}) is recorded as its JSON text. */
function recordedOf(v: unknown): Recorded {
  return typeof v === 'string' && v !== '' ? { version: v } : { invalid: JSON.stringify(v) ?? String(v) };
}

/** The version a request's _meta names, if it names one. */
function requestVersion(params: Obj | undefined): Recorded | undefined {
  const meta = params?._meta;
  return isObject(meta) && has(meta, META_VERSION) ? recordedOf(meta[META_VERSION]) : undefined;
}

/** The key of the requests waiting for a response of this server with this id (a string id is not the number of its digits). */
function pendingKey(server: string, id: unknown): string {
  return `${server}\u0000${typeof id === 'string' ? `s${id}` : `n${String(id)}`}`;
}

/** A listing with no page yet, served under `recorded`. */
function newListing(recorded: Recorded, midway?: Listing['midway']): Listing {
  return { tools: [], envelopes: [], byName: new Map(), recorded, ...(midway ? { midway } : {}) };
}

const UNNAMED = '\u0000';

/** The pointer a finding in a message is keyed within: its entry ("/4" for "/4" and "/4/message"), or a batch member's own. */
const entryOf = (msgPointer: string) => msgPointer.replace(/\/message$/, '');

/**
 * Who sends each request method, by the MCP schemas (ClientRequest and ServerRequest of
 * 2025-03-26 to 2026-07-28): ping and tasks/* go both ways. Client and server number their own
 * requests, so a server's request may carry the id of a client request still waiting.
 */
const CLIENT_METHODS = new Set([
  'initialize',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'resources/subscribe',
  'resources/unsubscribe',
  'prompts/list',
  'prompts/get',
  'tools/list',
  'tools/call',
  'tools/resolve',
  'logging/setLevel',
  'completion/complete',
  'server/discover',
  'subscriptions/listen',
]);
const SERVER_METHODS = new Set(['sampling/createMessage', 'elicitation/create', 'roots/list']);

function sender(method: string): 'client' | 'server' | undefined {
  return CLIENT_METHODS.has(method) ? 'client' : SERVER_METHODS.has(method) ? 'server' : undefined;
}

/**
 * What each method's result has, by the MCP schemas: members one of which it has (or "empty"
 * for an EmptyResult: nothing but _meta), and members it never has. Used only to tell apart two
 * requests waiting for the same id.
 */
const RESULT_SHAPES: Record<string, { any: readonly string[] | 'empty'; none?: readonly string[]; arrays?: readonly string[] }> = {
  initialize: { any: ['protocolVersion', 'capabilities', 'serverInfo'] },
  ping: { any: 'empty' },
  'logging/setLevel': { any: 'empty' },
  'resources/subscribe': { any: 'empty' },
  'resources/unsubscribe': { any: 'empty' },
  'tools/list': { any: ['tools'] },
  // Not a sampling result (model, role), a listing, a resolve, nor an elicitation result (action;
  // its content is an object, a CallToolResult's an array).
  'tools/call': { any: ['content', 'structuredContent', 'isError', 'task'], none: ['model', 'role', 'tools', 'tool', 'action'], arrays: ['content'] },
  'tools/resolve': { any: ['tool'] },
  'resources/list': { any: ['resources'] },
  'resources/templates/list': { any: ['resourceTemplates'] },
  'resources/read': { any: ['contents'] },
  'prompts/list': { any: ['prompts'] },
  'prompts/get': { any: ['messages'] },
  'completion/complete': { any: ['completion'] },
  'sampling/createMessage': { any: ['model', 'role'] },
  'elicitation/create': { any: ['action'] },
  'roots/list': { any: ['roots'] },
};

/** Whether a result can be the result of a method: true, false, or undefined for a method whose results are not known. */
function fits(method: string, result: unknown): boolean | undefined {
  const shape = RESULT_SHAPES[method];
  if (!shape) return undefined;
  if (!isObject(result)) return false;
  if (shape.any === 'empty') return Object.keys(result).every((k) => k === '_meta');
  if (shape.none?.some((k) => has(result, k))) return false;
  if (shape.arrays?.some((k) => has(result, k) && !Array.isArray(result[k]))) return false;
  return shape.any.some((k) => has(result, k));
}

/** Which of the requests waiting for one id a result answers, by its shape; -1 when that does not tell. */
function byShape(waiting: readonly Pending[], result: unknown): number {
  const scores = waiting.map((p) => fits(p.method, result));
  const yes = scores.flatMap((s, i) => (s === true ? [i] : []));
  if (yes.length === 1) return yes[0]!;
  if (yes.length > 1) return -1;
  const maybe = scores.flatMap((s, i) => (s === undefined ? [i] : []));
  return maybe.length === 1 ? maybe[0]! : -1;
}

/** `the server's ping request (/3)`. */
function describeRequest(p: Pending): string {
  const who = sender(p.method);
  return `${who === 'server' ? "the server's " : who === 'client' ? "the client's " : p.method === 'ping' || p.method.startsWith('tasks/') ? 'a ' : 'the '}${p.method} request (${p.pointer})`;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (isObject(v)) {
    const keys = Object.keys(v);
    return keys.length ? `an object with keys ${keys.slice(0, 5).map((k) => JSON.stringify(k)).join(', ')}${keys.length > 5 ? ', …' : ''}` : 'an empty object';
  }
  return `a ${typeof v}`;
}

/** The server names of a transcript: wrappers' names in order of first appearance. */
export function serversFromTranscript(entries: readonly unknown[], origin: Origin, fallbackName: string, idBase: string): ServerInput[] {
  const states = new Map<string, ServerState>();
  const pending = new Map<string, Pending[]>();
  const steps: SessionStep[] = [];
  let requests = 0;
  /** Each message's place in the transcript (the members of a batch count one by one). */
  let seq = 0;
  const stateOf = (key: string, entry: string): ServerState => {
    let s = states.get(key);
    if (!s) states.set(key, (s = { name: key, named: key !== UNNAMED, firstEntry: entry, everListed: new Map(), recorded: {}, cursors: new Map(), strays: [], strayListed: new Map(), steps: [] }));
    return s;
  };

  const message = (key: string, state: ServerState, msg: unknown, msgPointer: string, label: string): void => {
    const at = seq++;
    if (!isObject(msg)) {
      throw new InputProblem(`${label} is ${describe(msg)}, not a JSON-RPC message`, undefined, undefined, msgPointer);
    }
    const id = msg.id;
    const idKey = pendingKey(key, id);
    if (typeof msg.method === 'string') {
      requests++;
      if (!has(msg, 'id')) {
        // A notification. notifications/cancelled goes either way; when the one request waiting
        // for its requestId is the client's call or resolve, the client sent it (the server
        // cancels only its own requests), and MCP has the client ignore a later response.
        if (msg.method === 'notifications/cancelled' && isObject(msg.params)) {
          const rid = msg.params.requestId;
          const waiting = pending.get(pendingKey(key, rid));
          const step = waiting?.length === 1 ? waiting[0]!.step : undefined;
          if (step && (typeof rid === 'string' || typeof rid === 'number')) step.cancelled ??= msgPointer;
        }
        return;
      }
      const params = isObject(msg.params) ? msg.params : undefined;
      const p: Pending = { method: msg.method, params, pointer: msgPointer };
      // 2026-07-28: each request says the version it is made under, which is the session's from then on.
      const recorded = requestVersion(params);
      if (recorded) {
        p.recorded = recorded;
        state.recorded = recorded;
      }
      // A page request continues the listing whose page gave its cursor (looked up when it is
      // sent: a list_changed and a new listing may come before its answer).
      if (msg.method === 'tools/list' && typeof params?.cursor === 'string') p.continues = state.cursors.get(params.cursor) ?? null;
      // Any other cursor (a number, an object) is none a page gave: not a new listing either.
      else if (msg.method === 'tools/list' && params?.cursor !== undefined && params.cursor !== null) p.oddCursor = true;
      if (msg.method === 'tools/call' || msg.method === 'tools/resolve') {
        const name = typeof params?.name === 'string' ? params.name : undefined;
        const listing = state.listing;
        const index = name === undefined || !listing ? undefined : listing.byName.get(name);
        const earlier = name === undefined || index !== undefined ? undefined : state.everListed.get(name);
        const strayed = name === undefined || index !== undefined || earlier !== undefined ? undefined : state.strayListed.get(name);
        const step: SessionStep = {
          kind: msg.method === 'tools/call' ? 'call' : 'resolve',
          serverId: key,
          requestAt: at,
          requestEntry: entryOf(msgPointer),
          request: msgPointer,
          params,
          listed: listing !== undefined,
          ...(index !== undefined ? { declared: { value: listing!.tools[index]!.value, pointer: listing!.tools[index]!.pointer, index } } : {}),
          ...(index === undefined && listing?.more ? { incomplete: listing.more } : {}),
          ...(index === undefined && listing?.midway ? { midway: listing.midway } : {}),
          ...(earlier !== undefined && listing ? { withdrawn: { declared: earlier, listing: listing.envelopes[0]!.pointer } } : {}),
          ...(strayed ? { stray: strayed } : {}),
        };
        p.step = step;
        steps.push(step);
        state.steps.push(step);
      }
      let stack = pending.get(idKey);
      if (!stack) pending.set(idKey, (stack = []));
      stack.push(p);
      return;
    }
    if (!isResponseLike(msg)) {
      throw new InputProblem(`${label} is not a JSON-RPC message: expected a request or notification ("method") or a response ("id" with "result" or "error"); got ${describe(msg)}`, undefined, undefined, msgPointer);
    }
    // An error response without an id (or with id null: JSON-RPC's parse and invalid-request
    // errors; MCP 2025-11-25 makes the id optional) answers no request and carries no annotations.
    if (has(msg, 'error') && !has(msg, 'result') && (id === undefined || id === null)) return;
    const stack = pending.get(idKey);
    if (!stack || stack.length === 0) {
      const who = key === UNNAMED ? 'the server' : `server ${quote(key)}`;
      const oneSide = requests === 0 ? ' (the transcript has no request before it: a capture of one side of the exchange? It needs the requests too, or save the tools/list result on its own)' : '';
      throw new InputProblem(`${label} is a response with id ${quote(id)}, but no earlier request to ${who} with that id is waiting for one; a transcript holds each request before its response${oneSide}`, undefined, undefined, `${msgPointer}/id`);
    }
    // Several requests waiting for this id (the client's and the server's own): the result's
    // shape tells which one it answers. When it does not (an error response; two results alike),
    // the latest request is taken (they nest), and a call or resolve among them is not checked.
    let pick = stack.length - 1;
    if (stack.length > 1) {
      const chosen = has(msg, 'result') ? byShape(stack, msg.result) : -1;
      if (chosen >= 0) pick = chosen;
      else {
        for (const p of stack) {
          if (!p.step || p.step.ambiguous) continue;
          p.step.ambiguous = { response: msgPointer, with: stack.filter((o) => o !== p).map(describeRequest) };
          p.step.responseEntry ??= entryOf(msgPointer);
        }
      }
    }
    const req = stack.splice(pick, 1)[0]!;
    const result = isObject(msg.result) ? msg.result : undefined;
    if (req.step) {
      if (req.step.ambiguous) return;
      req.step.responseAt = at;
      req.step.responseEntry = entryOf(msgPointer);
      req.step.response = msgPointer;
      if (result) req.step.result = result;
      return;
    }
    if (!result) return;
    // 2026-07-28: a result names its server in _meta (initialize's serverInfo before it).
    if (isObject(result._meta) && isObject(result._meta[META_SERVER_INFO])) state.serverInfo = result._meta[META_SERVER_INFO];
    if (req.method === 'initialize') {
      if (isObject(result.serverInfo)) state.serverInfo = result.serverInfo;
      // 2025, "", null, {…}: no version, so the latest applies, and the run says so (specNotes), as for a dump.
      if (has(result, 'protocolVersion')) state.recorded = recordedOf(result.protocolVersion);
    } else if (req.method === 'tools/list') {
      if (!Array.isArray(result.tools)) {
        throw new InputProblem(`the tools/list result of ${label} needs a "tools" array, got ${describe(result.tools)}`, undefined, undefined, `${msgPointer}/result${has(result, 'tools') ? '/tools' : ''}`);
      }
      const page = `${msgPointer}/result`;
      const tools = result.tools;
      let listing: Listing;
      if (req.oddCursor) {
        // A cursor that is not a string is none any page gave (a nextCursor is a string): the page
        // continues no listing and starts none; the listing in effect stays.
        const cursor = req.params!.cursor;
        const n = `${tools.length} tool${tools.length === 1 ? '' : 's'}`;
        const why = `for the page after cursor ${quote(cursor, 40)}, which is ${describe(cursor)}, not a string as a cursor is`;
        state.strays.push((server) => `${server}: the tools/list result at ${page} answers the request at ${req.pointer} ${why}: it is part of no listing, and its ${n} ${tools.length === 1 ? 'was' : 'were'} not linted`);
        tools.forEach((value, t) => {
          if (isObject(value) && typeof value.name === 'string' && !state.everListed.has(value.name)) state.strayListed.set(value.name, { pointer: `${page}/tools/${t}`, page, why: `it answers the request at ${req.pointer} ${why}` });
        });
        return;
      }
      if (req.continues === undefined) {
        // No cursor (or "cursor": null): a new listing, which replaces the earlier one from then
        // on, served under the version its request names, else the session's at its answer.
        listing = newListing(req.recorded ?? state.recorded);
      } else {
        // A string cursor continues the listing whose page gave it, if that listing is still the
        // one in effect and still waits for that cursor; any other page is part of no listing.
        const cursor = req.params!.cursor as string;
        const owner = req.continues;
        const n = `${tools.length} tool${tools.length === 1 ? '' : 's'}`;
        const head = `the tools/list result at ${page} answers the request at ${req.pointer} for the page after cursor ${quote(cursor, 40)}`;
        const stray = (why: string, declared = false) => {
          state.strays.push((server) => `${server}: ${head}, ${why}: it is part of no listing, and its ${n} ${tools.length === 1 ? 'was' : 'were'} not linted`);
          // A call of a tool only this page declares is told where it is and why it did not count
          // (the tools of a replaced listing's page were declared: a call of one is a withdrawn tool's).
          if (!declared) tools.forEach((value, t) => {
            if (isObject(value) && typeof value.name === 'string' && !state.everListed.has(value.name)) state.strayListed.set(value.name, { pointer: `${page}/tools/${t}`, page, why: `it answers the request at ${req.pointer} for the page after cursor ${quote(cursor, 40)}, ${why}` });
          });
        };
        if (owner === null && state.listing === undefined) {
          // The first page the transcript holds: the capture started mid-listing (the pages before
          // it, and the request that gave its cursor, are missing). It starts the listing.
          state.strays.push((server) => `${server}: ${head}, which no earlier tools/list page of the server gave, and no listing of the server comes before it: the capture seems to start mid-listing (the earlier pages are missing), so this page starts the listing, and tools on the missing pages are not linted`);
          listing = newListing(req.recorded ?? state.recorded, { page, cursor });
        } else if (owner === null) {
          stray('which no earlier tools/list page of the server gave');
          return;
        } else if (owner !== state.listing) {
          // The listing that page continues was replaced: its tools were declared, and withdrawn since.
          stray(`which continues the listing at ${owner.envelopes[0]!.pointer}, replaced by the listing at ${state.listing!.envelopes[0]!.pointer} before this page came`, true);
          tools.forEach((value, t) => {
            if (isObject(value) && typeof value.name === 'string') state.everListed.set(value.name, `${page}/tools/${t}`);
          });
          return;
        } else if (owner.cursor !== cursor) {
          stray(`whose page the listing at ${owner.envelopes[0]!.pointer} already has`);
          return;
        } else listing = owner;
      }
      listing.envelopes.push({ value: result, pointer: page });
      listing.more = typeof result.nextCursor === 'string' ? `${page}/nextCursor` : undefined;
      listing.cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
      if (listing.cursor !== undefined) state.cursors.set(listing.cursor, listing);
      tools.forEach((value, t) => {
        const pointer = `${page}/tools/${t}`;
        if (isObject(value) && typeof value.name === 'string') {
          if (!listing.byName.has(value.name)) listing.byName.set(value.name, listing.tools.length);
          state.everListed.set(value.name, pointer);
        }
        listing.tools.push({ value, pointer });
      });
      state.listing = listing;
    }
  };

  // Server ids are given once every server is known: steps hold the key until then.
  entries.forEach((entry, i) => {
    const entryPointer = `/${i}`;
    let key = UNNAMED;
    let msg: unknown = entry;
    let msgPointer = entryPointer;
    if (isWrapper(entry)) {
      if (typeof entry.server !== 'string' || entry.server === '') {
        const what = !has(entry, 'server') ? 'has no "server"' : entry.server === '' ? 'has an empty "server"' : `has a "server" that is ${describe(entry.server)}, not a name`;
        throw new InputProblem(`entry ${i} wraps a message but ${what}; a wrapper names its server: {"server": "<name>", "message": {…}}`, undefined, undefined, `${entryPointer}${has(entry, 'server') ? '/server' : ''}`);
      }
      key = entry.server;
      msg = entry.message;
      msgPointer = `${entryPointer}/message`;
    }
    const state = stateOf(key, entryPointer);
    if (isWrapper(entry) && has(entry, 'url')) {
      const url = entry.url;
      let parsed: URL | undefined;
      try {
        parsed = typeof url === 'string' ? new URL(url) : undefined;
      } catch {
        parsed = undefined;
      }
      if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
        throw new InputProblem(`the "url" of server ${quote(key)} must be the server's http(s) URL, got ${quote(url)}`, undefined, undefined, `${entryPointer}/url`);
      }
      if (state.url !== undefined && new URL(state.url).origin !== parsed.origin) {
        throw new InputProblem(`server ${quote(key)} is given the URL ${quote(url)} here and ${quote(state.url)} before (${state.urlAt}); one server has one origin`, undefined, undefined, `${entryPointer}/url`, state.urlAt);
      }
      if (state.url === undefined) {
        state.url = url as string;
        state.urlAt = `${entryPointer}/url`;
      }
    }
    // A JSON-RPC batch (MCP 2025-03-26): its messages in order, each at its place in the array.
    if (Array.isArray(msg)) {
      if (msg.length === 0) throw new InputProblem(`entry ${i} is an empty array; a JSON-RPC batch holds at least one message`, undefined, undefined, msgPointer);
      msg.forEach((m, k) => {
        if (Array.isArray(m)) throw new InputProblem(`entry ${i} is a batch whose item ${k} is an array; a batch holds JSON-RPC messages, not batches`, undefined, undefined, `${msgPointer}/${k}`);
        message(key, state, m, `${msgPointer}/${k}`, `entry ${i} (item ${k} of its batch)`);
      });
      return;
    }
    message(key, state, msg, msgPointer, `entry ${i}`);
  });

  const list = [...states.values()];
  const ids = new Map<string, string>();
  const session: Session = { steps, urls: new Map() };
  const servers: ServerInput[] = list.map((s, k) => {
    const id = list.length === 1 ? idBase : `${idBase}#${k}`;
    ids.set(s.name, id);
    const own = s.named ? s.name : typeof s.serverInfo?.name === 'string' && s.serverInfo.name !== '' ? s.serverInfo.name : fallbackName;
    if (s.url !== undefined) session.urls.set(id, s.url);
    // The version of the listing linted (the last one), whatever the session moved to after it;
    // a server without one: the session's last.
    const recorded = s.listing ? s.listing.recorded : s.recorded;
    const where = serverWhere(own, origin);
    return {
      id,
      name: own,
      origin,
      protocolVersion: recorded.version,
      ...(recorded.invalid !== undefined ? { protocolVersionInvalid: recorded.invalid } : {}),
      ...(s.strays.length ? { notes: s.strays.map((f) => f(`server ${where}`)) } : {}),
      serverInfo: s.serverInfo,
      tools: s.listing?.tools ?? [],
      envelopes: s.listing?.envelopes ?? [],
      toolsPointer: s.listing ? `${s.listing.envelopes[0]!.pointer}/tools` : s.firstEntry,
      // Server-level findings are keyed within their message's entry (see ServerInput.entries).
      entries: s.listing ? [...new Set(s.listing.envelopes.map((e) => entryOf(e.pointer.slice(0, -'/result'.length))))] : [s.firstEntry],
      ...(s.listing ? {} : { unlisted: true as const }),
      session,
    };
  });
  for (const step of steps) step.serverId = ids.get(step.serverId)!;
  return servers;
}
