/**
 * Recognises every shape a tools/list dump comes in and turns it into servers.
 *
 *   {tools, nextCursor?}                     a ListToolsResult
 *   {jsonrpc, id, result: {tools}}           a JSON-RPC response (a "protocolVersion" beside "result" is its version)
 *   [tool, …]                                a bare array of tools
 *   {name, inputSchema, …}                   a single Tool (one file per tool)
 *   [{tools}, {tools}, …]                    ListToolsResult pages
 *   [{jsonrpc, id, result}, …]               a JSON-RPC batch of responses (its tools/list results are pages)
 *   {serverInfo?, protocolVersion?, tools}   a snapshot (what `mcp-annotate dump` writes)
 *   {servers: [snapshot, …]}                 several servers in one file
 */
import type { Origin, ServerInput } from '../types.js';
import { joinWords, plural, quote } from '../util/text.js';
import { InputProblem } from './parse.js';

type Json = unknown;
type Obj = Record<string, Json>;

const isObject = (v: Json): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const has = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k);

export const EXPECTED_SHAPES =
  'a tools/list result {"tools": [...]}, a JSON-RPC response {"result": {"tools": [...]}}, an array of tools, a single tool {"name", "inputSchema"}, an array of tools/list pages, a snapshot {"serverInfo", "protocolVersion", "tools"}, or {"servers": [...]}';

function describe(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (isObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return 'an empty object';
    const shown = keys.slice(0, 5).map((k) => JSON.stringify(k)).join(', ');
    return `an object with keys ${shown}${keys.length > 5 ? ', …' : ''}`;
  }
  return `a ${typeof value}`;
}

function looksLikeTool(v: Json): boolean {
  return isObject(v) && (has(v, 'name') || has(v, 'inputSchema')) && !has(v, 'tools');
}

/**
 * The members only an MCP tool has (of a Tool's name, title, description, inputSchema,
 * outputSchema, annotations, icons and _meta, the others are any program's words). A file a
 * directory scan or a glob found that is one object needs one of them to be read as a single
 * tool: {"name": "my-app", "version": "1.0.0"} is some other program's file (a package.json,
 * a bower.json, a web app manifest), not a tool with errors. A file named as a target is read
 * as a tool on "name" alone, and a tool with no inputSchema is then input-schema-object's error.
 */
const TOOL_ONLY_MEMBERS = ['inputSchema', 'outputSchema', 'annotations'] as const;

function looksLikeFoundTool(v: Json): boolean {
  return looksLikeTool(v) && TOOL_ONLY_MEMBERS.some((k) => has(v as Obj, k));
}

/**
 * Thrown for a file a directory scan or a glob found that is no dump, so it is skipped with a
 * note: one object with a "name" but no member only a tool has (see TOOL_ONLY_MEMBERS), or a
 * JSON Schema document (see isJsonSchemaDocument).
 */
export class NotATool extends Error {
  constructor(
    message: string,
    readonly kind: 'shape' | 'schema' = 'shape',
  ) {
    super(message);
  }
}

/**
 * A JSON Schema document: a top-level "$schema" naming one of json-schema.org's meta-schemas
 * ("https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#"),
 * and none of "tools", "result" or "servers" (a dump that records a "$schema" is still a dump).
 */
export function isJsonSchemaDocument(v: Json): boolean {
  return isObject(v) && typeof v.$schema === 'string' && /^https?:\/\/json-schema\.org\//i.test(v.$schema.trim()) && !has(v, 'tools') && !has(v, 'result') && !has(v, 'servers');
}

function looksLikePage(v: Json): boolean {
  return isObject(v) && has(v, 'tools');
}

interface Partial {
  name?: string;
  protocolVersion?: string;
  /** See ServerInput.protocolVersionInvalid. */
  protocolVersionInvalid?: string;
  serverInfo?: Obj;
  tools: { value: Json; pointer: string }[];
  envelopes: { value: Json; pointer: string }[];
  toolsPointer: string;
  /** See ServerInput.root. */
  root?: string;
  /** See ServerInput.entryNamed. */
  entryNamed?: boolean;
  /** What reading left out, said on stderr (see ServerInput.notes); given the server's label when it is known. */
  notes?: ((server: string) => string)[];
}

function fromListResult(obj: Obj, pointer: string): Partial {
  const tools = obj.tools;
  if (!Array.isArray(tools)) {
    throw new InputProblem(`"tools" must be an array of tools, got ${describe(tools)}`, undefined, undefined, `${pointer}/tools`);
  }
  const serverInfo = isObject(obj.serverInfo) ? obj.serverInfo : undefined;
  // A snapshot of a client config's server records the entry's name ("configEntry"), which wins.
  const own = has(obj, 'configEntry') && typeof obj.configEntry === 'string' && obj.configEntry !== '' ? obj.configEntry : undefined;
  return {
    ...(own !== undefined ? { entryNamed: true } : {}),
    name: own ?? (typeof serverInfo?.name === 'string' && serverInfo.name !== '' ? serverInfo.name : undefined),
    protocolVersion: typeof obj.protocolVersion === 'string' && obj.protocolVersion !== '' ? obj.protocolVersion : undefined,
    ...(has(obj, 'protocolVersion') && (typeof obj.protocolVersion !== 'string' || obj.protocolVersion === '')
      ? { protocolVersionInvalid: JSON.stringify(obj.protocolVersion) ?? String(obj.protocolVersion) }
      : {}),
    serverInfo,
    tools: tools.map((value, i) => ({ value, pointer: `${pointer}/tools/${i}` })),
    envelopes: [{ value: obj, pointer }],
    toolsPointer: `${pointer}/tools`,
  };
}

/**
 * A "protocolVersion" recorded beside a JSON-RPC response's "result" (a capture that notes the
 * negotiated version next to the message) is the version of the result's tools, as beside
 * "tools" in a snapshot, unless the result records its own.
 */
function withOuterVersion(outer: Obj, parts: Partial[]): Partial[] {
  if (!has(outer, 'protocolVersion')) return parts;
  const v = outer.protocolVersion;
  return parts.map((p) =>
    p.protocolVersion !== undefined || p.protocolVersionInvalid !== undefined
      ? p
      : typeof v === 'string' && v !== ''
        ? { ...p, protocolVersion: v }
        : { ...p, protocolVersionInvalid: JSON.stringify(v) ?? String(v) },
  );
}

function fromObject(obj: Obj, pointer: string, found = false): Partial[] {
  if (has(obj, 'jsonrpc') || (has(obj, 'result') && has(obj, 'id'))) {
    if (isObject(obj.error)) {
      const message = typeof obj.error.message === 'string' ? obj.error.message : 'no message';
      // At the "error" member, as other wrong-shape documents are placed (it had no position).
      throw new InputProblem(`this is a JSON-RPC error response (${JSON.stringify(message)}), not a tools/list result`, undefined, undefined, `${pointer}/error`);
    }
    // A tools/list result with a stray "jsonrpc" field (a snapshot written before mcp-annotate
    // left a result's "jsonrpc" out): its tools are read as they are.
    if (!has(obj, 'result') && !has(obj, 'id') && Array.isArray(obj.tools)) return [fromListResult(obj, pointer)];
    if (!has(obj, 'result')) {
      throw new InputProblem(`a JSON-RPC response needs a "result" object with "tools"; this one has no "result" (its keys: ${describe(obj).replace(/^an object with keys /, '')})`, undefined, undefined, pointer);
    }
    if (!isObject(obj.result)) {
      throw new InputProblem(`a JSON-RPC response needs a "result" object with "tools"; its "result" is ${describe(obj.result)}`, undefined, undefined, `${pointer}/result`);
    }
    return withOuterVersion(obj, fromObject(obj.result, `${pointer}/result`));
  }
  if (pointer === '' && isObject(obj.tool) && obj.tool.name === 'mcp-annotate' && has(obj, 'findings')) {
    throw new InputProblem('this is a JSON report of mcp-annotate, not a tools/list result; use the dump it reports on');
  }
  if (pointer === '' && Array.isArray(obj.runs) && typeof obj.$schema === 'string' && obj.$schema.includes('sarif')) {
    throw new InputProblem('this is a SARIF log, not a tools/list result; use the dump it reports on');
  }
  if (pointer === '' && typeof obj.$schema === 'string' && /mcp-annotate.*config\.schema\.json/.test(obj.$schema) && !has(obj, 'tools')) {
    throw new InputProblem('this is an mcp-annotate config file, not a tools/list result; give it with -c');
  }
  if (found && pointer === '' && isJsonSchemaDocument(obj)) throw new NotATool('a JSON Schema document', 'schema');
  if (pointer === '' && obj.version === 1 && Array.isArray(obj.entries) && !has(obj, 'tools')) {
    throw new InputProblem('this is an mcp-annotate baseline, not a tools/list result; give it with --baseline');
  }
  if (has(obj, 'tools')) return [fromListResult(obj, pointer)];
  if (pointer === '' && Array.isArray(obj.servers) && !looksLikeTool(obj)) {
    // {"servers": [snapshot, …]}: an empty list, or an item that is not a snapshot, is said as
    // itself (it was "expected … or {"servers": [...]}; got an object with keys "servers"").
    if (obj.servers.length === 0) throw new InputProblem('"servers" is empty: a {"servers": [...]} file lists one snapshot {"serverInfo", "tools": [...]} per server', undefined, undefined, '/servers');
    const bad = obj.servers.findIndex((s) => !looksLikePage(s));
    if (bad >= 0) throw new InputProblem(`"servers" item ${bad} must be a server snapshot {"serverInfo", "tools": [...]}, got ${describe(obj.servers[bad])}`, undefined, undefined, `/servers/${bad}`);
    return obj.servers.map((s, i) => ({ ...fromListResult(s as Obj, `${pointer}/servers/${i}`), root: `${pointer}/servers/${i}` }));
  }
  // A JSON-RPC result saved without its envelope's "id" and "jsonrpc": read as one.
  if (!looksLikeTool(obj) && isObject(obj.result) && has(obj.result, 'tools')) return withOuterVersion(obj, fromObject(obj.result, `${pointer}/result`));
  if (looksLikeTool(obj)) {
    if (found && pointer === '' && !looksLikeFoundTool(obj)) throw new NotATool('one object with "name" but no "inputSchema", "outputSchema" or "annotations"');
    return [{ tools: [{ value: obj, pointer }], envelopes: [], toolsPointer: pointer }];
  }
  throw new InputProblem(`expected ${EXPECTED_SHAPES}; got ${describe(obj)}`, undefined, undefined, pointer);
}

/** The rule list `mcp-annotate rules -f json` prints: objects with id, severity, category and packs. */
const isRuleList = (arr: Json[]) =>
  arr.length > 0 && arr.every((r) => isObject(r) && typeof r.id === 'string' && typeof r.severity === 'string' && has(r, 'category') && Array.isArray(r.packs) && has(r, 'precision') && !has(r, 'inputSchema'));

/** Pages of one listing as one server: the first name and version a page records, all the tools. */
function mergePages(pages: Partial[]): Partial {
  return {
    name: pages.find((p) => p.name)?.name,
    protocolVersion: pages.find((p) => p.protocolVersion)?.protocolVersion,
    ...(pages.some((p) => p.protocolVersion) || !pages.some((p) => p.protocolVersionInvalid !== undefined)
      ? {}
      : { protocolVersionInvalid: pages.find((p) => p.protocolVersionInvalid !== undefined)!.protocolVersionInvalid! }),
    serverInfo: pages.find((p) => p.serverInfo)?.serverInfo,
    tools: pages.flatMap((p) => p.tools),
    envelopes: pages.flatMap((p) => p.envelopes),
    toolsPointer: pages[0]!.toolsPointer,
  };
}

/** Members a tool has and a JSON-RPC response never has at its top level ("method" makes it a request). */
const NOT_RESPONSE_MEMBERS = ['name', 'title', 'description', 'inputSchema', 'outputSchema', 'annotations', 'method'] as const;

/** A JSON-RPC response: a "jsonrpc" member, or "id" with "result" or "error", and no member of a tool. */
function looksLikeResponse(v: Json): v is Obj {
  return isObject(v) && (has(v, 'jsonrpc') || (has(v, 'id') && (has(v, 'result') || has(v, 'error')))) && !NOT_RESPONSE_MEMBERS.some((k) => has(v, k));
}

/** An initialize result (the MCP schema's InitializeResult): any of its members, and no "tools". */
const isInitializeResult = (r: Json): r is Obj => isObject(r) && !has(r, 'tools') && (has(r, 'protocolVersion') || has(r, 'capabilities') || has(r, 'serverInfo'));


/**
 * A JSON-RPC batch of responses (an array of them, as MCP 2025-03-26 allows a batch reply): the
 * responses whose result has "tools" are the pages of one listing, an initialize result names
 * the server and gives its protocol version (as a snapshot's serverInfo and protocolVersion,
 * unless a page records its own), and other results and error responses are not read. A batch
 * with no tools/list result is an input error at its first error response's "error" member, or
 * at its first item, saying what it holds.
 */
function fromBatch(arr: Obj[]): Partial[] {
  const pages: Partial[] = [];
  let init: Obj | undefined;
  let firstError: number | undefined;
  let errors = 0;
  let others = 0;
  arr.forEach((item, i) => {
    if (isObject(item.error)) {
      errors++;
      firstError ??= i;
    } else if (!has(item, 'result') && !has(item, 'id') && Array.isArray(item.tools)) {
      // A tools/list result with a stray "jsonrpc", as fromObject reads one.
      pages.push(fromListResult(item, `/${i}`));
    } else if (isObject(item.result) && has(item.result, 'tools')) {
      pages.push(...withOuterVersion(item, [fromListResult(item.result, `/${i}/result`)]));
    } else if (isInitializeResult(item.result)) {
      init ??= item.result;
    } else {
      others++;
    }
  });
  if (pages.length === 0) {
    const held = [
      ...(init ? ['an initialize result'] : []),
      ...(others ? [others === 1 ? 'a response with another result' : `${others} responses with other results`] : []),
    ];
    if (firstError !== undefined) {
      const error = arr[firstError]!.error as Obj;
      const message = JSON.stringify(typeof error.message === 'string' ? error.message : 'no message');
      held.push(errors === 1 ? `an error response (${message})` : `${plural(errors, 'error response')} (the first: ${message})`);
    }
    throw new InputProblem(
      `this is a JSON-RPC batch of ${plural(arr.length, 'response')} with no tools/list result: ${joinWords(held)}`,
      undefined,
      undefined,
      firstError !== undefined ? `/${firstError}/error` : '/0',
    );
  }
  const listing = mergePages(pages);
  if (firstError !== undefined) {
    // An error answers some request of the batch: if it was a tools/list page, the listing read is not all of it.
    const error = arr[firstError]!.error as Obj;
    const message = JSON.stringify(typeof error.message === 'string' ? error.message : 'no message');
    const what = errors === 1 ? `an error response (item ${firstError}: ${message})` : `${plural(errors, 'error response')} (the first, item ${firstError}: ${message})`;
    listing.notes = [(server) => `${server}: the JSON-RPC batch also holds ${what}, which has no tools; if it answered a tools/list page, the tools of that page are missing from what was linted`];
  }
  if (init) {
    const serverInfo = isObject(init.serverInfo) ? init.serverInfo : undefined;
    const name = typeof serverInfo?.name === 'string' && serverInfo.name !== '' ? serverInfo.name : undefined;
    if (listing.name === undefined && name !== undefined) listing.name = name;
    if (listing.serverInfo === undefined && serverInfo !== undefined) listing.serverInfo = serverInfo;
    if (listing.protocolVersion === undefined && listing.protocolVersionInvalid === undefined && has(init, 'protocolVersion')) {
      const v = init.protocolVersion;
      if (typeof v === 'string' && v !== '') listing.protocolVersion = v;
      else listing.protocolVersionInvalid = JSON.stringify(v) ?? String(v);
    }
  }
  return [listing];
}

function fromArray(arr: Json[]): Partial[] {
  if (isRuleList(arr)) throw new InputProblem("this is mcp-annotate's rule list (rules -f json), not a tools/list result");
  // Pages of one listing: one server.
  if (arr.length > 0 && arr.every(looksLikePage)) return [mergePages(arr.map((page, i) => fromListResult(page as Obj, `/${i}`)))];
  // A batch of JSON-RPC responses is read as what it holds, not as broken tools.
  if (arr.length > 0 && arr.every(looksLikeResponse)) return fromBatch(arr as Obj[]);
  if (arr.every((v) => isObject(v))) {
    return [{ tools: arr.map((value, i) => ({ value, pointer: `/${i}` })), envelopes: [], toolsPointer: '' }];
  }
  const bad = arr.findIndex((v) => !isObject(v));
  throw new InputProblem(`expected an array of tools (objects); item ${bad} is ${describe(arr[bad])}`, undefined, undefined, `/${bad}`);
}

/** The key of an MCP client config's servers that a document has, if it looks like one (and like no dump). */
function clientConfigKey(obj: Obj, found: boolean): string | undefined {
  if (has(obj, 'tools') || has(obj, 'jsonrpc') || has(obj, 'result') || (found ? looksLikeFoundTool(obj) : looksLikeTool(obj))) return undefined;
  // Claude Desktop, Cursor, …: mcpServers; VS Code: servers (an object; a dump's "servers" is an array); opencode: mcp; Zed: context_servers.
  return ['mcpServers', 'servers', 'mcp', 'context_servers'].find((k) => has(obj, k) && isObject(obj[k]));
}

/** A server as notes about reading it name it: "name" (file), or "name" alone when the file is called so. */
export function serverWhere(name: string, origin: Pick<Origin, 'display'>): string {
  return origin.display === name ? quote(name) : `${quote(name)} (${origin.display})`;
}

/**
 * Servers in a parsed document; throws InputProblem for a document of the wrong shape.
 * @param found The file was found by a directory scan or a glob, not named: one object is a
 *   single tool only with a member only a tool has, else NotATool is thrown (see looksLikeFoundTool).
 */
export function serversFromDocument(value: Json, origin: Origin, fallbackName: string, idBase: string, found = false): ServerInput[] {
  let parts: Partial[];
  const configKey = isObject(value) ? clientConfigKey(value, found) : undefined;
  if (configKey !== undefined) {
    const file = origin.kind === 'file' ? origin.display : 'FILE';
    throw new InputProblem(
      `expected a tools/list dump; this looks like an MCP client config (${JSON.stringify(configKey)} holds server entries): lint its servers with --mcp-config ${/^[\w@%+=:,./-]+$/.test(file) ? file : JSON.stringify(file)}`,
    );
  }
  if (Array.isArray(value)) parts = fromArray(value);
  else if (isObject(value)) parts = fromObject(value, '', found);
  else throw new InputProblem(`expected ${EXPECTED_SHAPES}; got ${describe(value)}`, undefined, undefined, '');
  return parts.map((p, i) => {
    const name = p.name ?? (parts.length === 1 ? fallbackName : `${fallbackName}#${i + 1}`);
    const label = `server ${serverWhere(name, origin)}`;
    return {
      id: parts.length === 1 ? idBase : `${idBase}#${i}`,
      name,
      origin,
      protocolVersion: p.protocolVersion,
      ...(p.protocolVersionInvalid !== undefined ? { protocolVersionInvalid: p.protocolVersionInvalid } : {}),
      serverInfo: p.serverInfo,
      tools: p.tools,
      envelopes: p.envelopes,
      toolsPointer: p.toolsPointer,
      ...(p.root !== undefined ? { root: p.root } : {}),
      ...(p.entryNamed ? { entryNamed: true } : {}),
      ...(p.notes ? { notes: p.notes.map((f) => f(label)) } : {}),
    };
  });
}
