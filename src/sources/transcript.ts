/**
 * Session transcripts: the ordered JSON-RPC messages of one agent session, possibly with
 * several servers, as a JSON array of entries or as JSON Lines (one entry per line).
 *
 * An entry is a bare JSON-RPC message (exchanged with the one unnamed server), or a wrapper
 * {"server": "<name>", "url"?: "<the server's URL>", "message": {…}} naming the server. A
 * JSON Lines file reads as the array of its non-blank lines: pointers are the same in both
 * forms ("/4/message/params" is the fifth message), and so are findings and baselines.
 *
 * Responses pair with requests by (server, id), the latest request still waiting with that id
 * first (a server's own requests to the client may reuse a pending id; they nest). A tools/list
 * response declares the server's tools: a request with a cursor continues the listing (its
 * page is appended), one without starts a new listing, which replaces the earlier one from
 * then on. The tool rules lint each server's last listing; each call or resolve is compared
 * with the listing in effect when it was sent.
 *
 * Input errors (the whole transcript is not linted, exit 2): a line that is not JSON, an entry
 * that is not a JSON-RPC message or a wrapper, a wrapper without a server name or with a URL
 * that is not http(s), a response whose id no earlier request of its server is waiting for,
 * a tools/list result without a tools array.
 */
import type { Located, Locator, Origin, ServerInput, Session, SessionStep } from '../types.js';
import { isObject } from '../util/json.js';
import { quote } from '../util/text.js';
import { createLocator, locatorOf } from './locate.js';
import { InputProblem, jsonErrorMessage, lineColumn } from './parse.js';
import { parse as parseTolerant, printParseErrorCode, type ParseError } from 'jsonc-parser';

type Obj = Record<string, unknown>;
const has = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** A wrapper entry: {"server", "message"} (and no "jsonrpc" of its own). */
function isWrapper(v: unknown): v is Obj {
  return isObject(v) && has(v, 'message') && !has(v, 'jsonrpc') && !has(v, 'method');
}

/** A JSON-RPC request or notification: a string "method" and a "jsonrpc" member. */
function isRequestLike(v: unknown): boolean {
  return isObject(v) && typeof v.method === 'string' && has(v, 'jsonrpc');
}

/**
 * Whether an array is a session transcript: it holds at least one JSON-RPC request or
 * notification, bare ("jsonrpc" and "method") or in a wrapper. No tools/list dump shape has
 * one, so every dump reads as it did.
 */
export function isTranscriptArray(arr: readonly unknown[]): boolean {
  for (const v of arr) {
    if (isRequestLike(v)) return true;
    if (isWrapper(v) && isObject(v.message) && typeof v.message.method === 'string') return true;
  }
  return false;
}

/** Whether a value is a transcript entry: a JSON-RPC message or a wrapper of one. */
function isEntry(v: unknown): boolean {
  if (isWrapper(v)) return true;
  return isObject(v) && (typeof v.method === 'string' || (has(v, 'id') && (has(v, 'result') || has(v, 'error'))));
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
        const errors: ParseError[] = [];
        parseTolerant(raw, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
        const first = errors[0];
        const at = first ? lineColumn(raw, first.offset) : { line: 1, column: 1 };
        throw new InputProblem(`invalid JSON on this line of the transcript (JSON Lines: one JSON-RPC message per line): ${first ? jsonErrorMessage(printParseErrorCode(first.error)) : 'cannot be read'}`, line + 1, at.column);
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
  return locatorOf((pointers) => {
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
      const found = lineLocator(i).locateAll(wanted.map((w) => w.rel));
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
  });
}

interface Listing {
  tools: { value: unknown; pointer: string }[];
  envelopes: { value: unknown; pointer: string }[];
}

interface ServerState {
  name: string;
  /** Named by a wrapper (else the one unnamed server). */
  named: boolean;
  url?: string;
  urlAt?: string;
  listing?: Listing;
  firstEntry: string;
  serverInfo?: Obj;
  protocolVersion?: string;
  steps: SessionStep[];
}

interface Pending {
  method: string;
  params?: Obj;
  step?: SessionStep;
}

const UNNAMED = '\u0000';

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
  const stateOf = (key: string, entry: string): ServerState => {
    let s = states.get(key);
    if (!s) states.set(key, (s = { name: key, named: key !== UNNAMED, firstEntry: entry, steps: [] }));
    return s;
  };
  // Server ids are given once every server is known: steps hold the key until then.
  entries.forEach((entry, i) => {
    const entryPointer = `/${i}`;
    let key = UNNAMED;
    let msg: unknown = entry;
    let msgPointer = entryPointer;
    if (isWrapper(entry)) {
      if (typeof entry.server !== 'string' || entry.server === '') {
        throw new InputProblem(`entry ${i} wraps a message but its "server" is ${describe(entry.server)}; a wrapper names its server: {"server": "<name>", "message": {…}}`, undefined, undefined, `${entryPointer}${has(entry, 'server') ? '/server' : ''}`);
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
        throw new InputProblem(`server ${quote(key)} is given the URL ${quote(url)} here and ${quote(state.url)} before (${state.urlAt}); one server has one origin`, undefined, undefined, `${entryPointer}/url`);
      }
      if (state.url === undefined) {
        state.url = url as string;
        state.urlAt = `${entryPointer}/url`;
      }
    }
    if (!isObject(msg)) {
      throw new InputProblem(`entry ${i} is ${describe(msg)}, not a JSON-RPC message`, undefined, undefined, msgPointer);
    }
    const id = msg.id;
    const idKey = `${key}\u0000${typeof id === 'string' ? `s${id}` : `n${String(id)}`}`;
    if (typeof msg.method === 'string') {
      requests++;
      if (!has(msg, 'id')) return; // a notification
      const params = isObject(msg.params) ? msg.params : undefined;
      const p: Pending = { method: msg.method, params };
      if (msg.method === 'tools/call' || msg.method === 'tools/resolve') {
        const name = typeof params?.name === 'string' ? params.name : undefined;
        const list = state.listing?.tools;
        const index = name === undefined || !list ? -1 : list.findIndex((t) => isObject(t.value) && t.value.name === name);
        const step: SessionStep = {
          kind: msg.method === 'tools/call' ? 'call' : 'resolve',
          serverId: key,
          requestAt: i,
          requestEntry: entryPointer,
          request: msgPointer,
          params,
          listed: list !== undefined,
          ...(index >= 0 ? { declared: { value: list![index]!.value, pointer: list![index]!.pointer, index } } : {}),
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
    if (!has(msg, 'id') || !(has(msg, 'result') || has(msg, 'error'))) {
      throw new InputProblem(`entry ${i} is not a JSON-RPC message: expected a request or notification ("method") or a response ("id" with "result" or "error"); got ${describe(msg)}`, undefined, undefined, msgPointer);
    }
    const req = pending.get(idKey)?.pop();
    if (!req) {
      const who = key === UNNAMED ? 'the server' : `server ${quote(key)}`;
      const oneSide = requests === 0 ? ' (the transcript has no request before it: a capture of one side of the exchange? It needs the requests too, or save the tools/list result on its own)' : '';
      throw new InputProblem(`entry ${i} is a response with id ${quote(id)}, but no earlier request to ${who} with that id is waiting for one; a transcript holds each request before its response${oneSide}`, undefined, undefined, `${msgPointer}/id`);
    }
    const result = isObject(msg.result) ? msg.result : undefined;
    if (req.step) {
      req.step.responseAt = i;
      req.step.responseEntry = entryPointer;
      req.step.response = msgPointer;
      if (result) req.step.result = result;
      return;
    }
    if (!result) return;
    if (req.method === 'initialize') {
      if (isObject(result.serverInfo)) state.serverInfo = result.serverInfo;
      if (typeof result.protocolVersion === 'string') state.protocolVersion = result.protocolVersion;
    } else if (req.method === 'tools/list') {
      if (!Array.isArray(result.tools)) {
        throw new InputProblem(`the tools/list result of entry ${i} needs a "tools" array, got ${describe(result.tools)}`, undefined, undefined, `${msgPointer}/result${has(result, 'tools') ? '/tools' : ''}`);
      }
      const page = { tools: result.tools.map((value, t) => ({ value, pointer: `${msgPointer}/result/tools/${t}` })), envelopes: [{ value: result, pointer: `${msgPointer}/result` }] };
      const continues = req.params !== undefined && req.params.cursor !== undefined && state.listing !== undefined;
      state.listing = continues ? { tools: [...state.listing!.tools, ...page.tools], envelopes: [...state.listing!.envelopes, ...page.envelopes] } : page;
    }
  });

  const list = [...states.values()];
  const ids = new Map<string, string>();
  const session: Session = { steps, urls: new Map() };
  const servers: ServerInput[] = list.map((s, k) => {
    const id = list.length === 1 ? idBase : `${idBase}#${k}`;
    ids.set(s.name, id);
    const own = s.named ? s.name : typeof s.serverInfo?.name === 'string' && s.serverInfo.name !== '' ? s.serverInfo.name : fallbackName;
    if (s.url !== undefined) session.urls.set(id, s.url);
    return {
      id,
      name: own,
      origin,
      protocolVersion: s.protocolVersion,
      serverInfo: s.serverInfo,
      tools: s.listing?.tools ?? [],
      envelopes: s.listing?.envelopes ?? [],
      toolsPointer: s.listing ? `${s.listing.envelopes[0]!.pointer}/tools` : s.firstEntry,
      ...(s.listing ? {} : { unlisted: true as const }),
      session,
    };
  });
  for (const step of steps) step.serverId = ids.get(step.serverId)!;
  return servers;
}
