/** Errors of a live server, worded for the user (the runner prefixes the server). */
import { oneLine, shorten } from '../../util/text.js';
import { redact } from './vars.js';

/** A problem with one live server: its message is shown as it is, after the server's name. */
export class LiveError extends Error {}

/**
 * A short, escaped quotation of something a server sent. The secrets (`needles`) are hidden
 * first, in the text as it came: a secret the cut would split, or the escaping would change
 * (a quote, a tab, a control character), is then hidden all the same.
 */
export function excerpt(text: string, max = 80, needles: readonly string[] = []): string {
  const t = trimVisible(redact(text, needles));
  return `"${oneLine(shorten(t, max)).replace(/"/g, '\\"')}"`;
}

/**
 * Blanks cut from both ends, but not a byte order mark (U+FEFF), which String.prototype.trim
 * also drops: a line that starts with one must show it (as \u{FEFF}), or its quote looks like
 * valid JSON. A loop, not /\s+$/, which is quadratic on a long line full of blank runs.
 */
function trimVisible(text: string): string {
  const blank = (c: string) => c !== '\uFEFF' && /\s/.test(c);
  let start = 0;
  let end = text.length;
  while (start < end && blank(text[start]!)) start++;
  while (end > start && blank(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/** The footer Node.js writes after an uncaught exception: "Node.js v20.20.2". */
const NODE_FOOTER = /^Node\.js v\d+\.\d+\.\d+\S*$/;
/** Node's note after a thrown value that is not an Error. */
const TRACE_UNCAUGHT = /^\(Use `node --trace-uncaught \.\.\.` to show where the exception was thrown\)$/;

/** A stack frame, indented: "    at main (file:///srv/index.js:3:9)". */
const FRAME = /^\s+at \S/;
/** The caret under the throw site, before what was thrown. */
const CARET = /^\s*\^+\s*$/;
/** The first line of an Error as Node prints it: "Error: …", "TypeError: …", "Error [ZodError]: …", "[Error: …] {". */
const NAMED = /^\[?[\w$.]*(?:Error|Exception)\b[^:]*:/;

/**
 * The last non-empty line of a server's stderr, for "it exited" messages. When Node.js died
 * of an uncaught exception (stderr ends with its "Node.js vX.Y.Z" footer), the first line of
 * what was thrown ("Error: cannot find …"), whose message may span several lines (a ZodError's
 * JSON, "Missing configuration:\nGITHUB_TOKEN is not set"). Node writes the throw site, a
 * caret line and a blank line, then the error's `name: message` lines, then its stack frames
 * (indented, "    at …"), its properties and cause between " {" and "}", and the footer; a
 * thrown value that is not an Error is followed by a "(Use `node --trace-uncaught …`)" note.
 */
export function lastLine(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  const filled = lines.filter((l) => l.trim() !== '');
  const last = filled[filled.length - 1]?.trim();
  if (last === undefined || !NODE_FOOTER.test(last)) return last;
  const footer = lines.map((l) => l.trim()).lastIndexOf(last);
  // What was thrown ends at the first stack frame, or at the note after a thrown non-Error, or at the footer.
  let end = lines.findIndex((l, i) => i < footer && (FRAME.test(l) || TRACE_UNCAUGHT.test(l)));
  if (end === -1) end = footer;
  // It starts after the caret line under the throw site; without one (a server that printed
  // the error itself), at the last "Name: …" line, or after the last blank line.
  let start = -1;
  for (let i = end - 1; i >= 0 && start === -1; i--) if (CARET.test(lines[i]!)) start = i + 1;
  if (start === -1) for (let i = end - 1; i >= 0 && start === -1; i--) if (NAMED.test(lines[i]!)) start = i;
  if (start === -1) {
    start = end;
    while (start > 0 && lines[start - 1]!.trim() !== '') start--;
  }
  const block = lines.slice(start, end).map((l) => l.trim()).filter((l) => l !== '');
  const first = block[0];
  if (first === undefined) return last;
  // An Error without stack frames is printed inspected: "[Error: message] {" when it has properties.
  // ("[Error: message] { code: 'E_X' }" on one line when they are short): the error's own line.
  if (first.startsWith('[') && NAMED.test(first)) return /^\[(.*?)\](?: \{.*)?$/.exec(first)?.[1] ?? first;
  // A message that opens a bracket on its first line ("ZodError: [", a thrown object's "{") says
  // what is wrong on the lines after: the block as one line (the caller cuts it to length).
  return /[[{]$/.test(first) ? block.join(' ') : first;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Does a parsed value look like JSON-RPC (rather than, say, a JSON log line)? */
function looksLikeJsonRpc(v: unknown): v is Obj {
  return isObject(v) && ('jsonrpc' in v || ('id' in v && ('result' in v || 'error' in v)));
}

/** An error response naming no request (its id missing or not a string or number): the server's answer to a request it could not read. */
export function idlessError(error: Obj, phase: string, needles: readonly string[]): string {
  const said = typeof error.message === 'string' ? `: ${excerpt(error.message, 160, needles)}` : '';
  return `the server answered with error ${excerpt(String(error.code), 20, needles).slice(1, -1)} ${phase}, without the id of the request it answers${said}`;
}

/**
 * Why a value a server sent, which the SDK's schema refused, is not an MCP message, worded for
 * the user; undefined when it does not look like JSON-RPC at all (then it is just not a
 * protocol message: a log line on stdout).
 */
export function notMcp(value: unknown, phase: string, needles: readonly string[], line: string, version?: string): string | undefined {
  if (isBatch(value)) return batchError(value.length, phase, version, 'line', excerpt(line, 80, needles));
  if (!looksLikeJsonRpc(value)) return undefined;
  const validId = typeof value.id === 'string' || (typeof value.id === 'number' && Number.isInteger(value.id));
  if (isObject(value.error) && !('result' in value) && !('method' in value) && !validId) return idlessError(value.error, phase, needles);
  const why = invalidPart(value, validId);
  return `the server sent a JSON-RPC message that is not valid MCP (${why}) ${phase}: ${excerpt(line, 120, needles)}`;
}

/** Is a value a JSON-RPC batch (a non-empty array of JSON-RPC-like messages)? */
export function isBatch(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0 && value.every(looksLikeJsonRpc);
}

/**
 * A batch the MCP SDK cannot read, said by the protocol version the server negotiated
 * (`version`, once known): 2025-03-26 allows batches (its implementations must accept them),
 * the other versions do not.
 */
export function batchError(count: number, phase: string, version: string | undefined, per: 'line' | 'event', quoted: string): string {
  const what = `the server sent a JSON-RPC batch (an array of ${count} message${count === 1 ? '' : 's'}) ${phase}`;
  const why =
    version === '2025-03-26'
      ? '; protocol version 2025-03-26, which it negotiated, allows batches, but the MCP SDK does not read them'
      : `, which MCP allows only in protocol version 2025-03-26${version === undefined ? '' : ` (the server negotiated ${version})`} and the MCP SDK does not read`;
  return `${what}${why}; send one message per ${per} (${quoted})`;
}

/** The part of a JSON-RPC-like object that MCP does not allow. */
function invalidPart(value: Obj, validId: boolean): string {
  if (value.jsonrpc !== '2.0') return `its "jsonrpc" is ${'jsonrpc' in value ? 'not "2.0"' : 'missing'}`;
  if ('method' in value) {
    if (typeof value.method !== 'string') return 'its "method" is not a string';
    if ('params' in value && !isObject(value.params)) return 'its "params" is not an object';
    if ('id' in value && !validId) return 'its "id" is not a string or an integer';
    return 'it does not match any message MCP allows';
  }
  if (!validId) return `its "id" is ${value.id === null ? 'null' : 'id' in value ? 'not a string or an integer' : 'missing'}`;
  if ('result' in value && 'error' in value) return 'it holds both a "result" and an "error"';
  if ('result' in value) return isObject(value.result) ? 'it does not match any message MCP allows' : 'its "result" is not an object';
  if (!isObject(value.error) || !Number.isInteger(value.error.code) || typeof value.error.message !== 'string') return 'its "error" is not an object with an integer "code" and a string "message"';
  return 'it does not match any message MCP allows';
}
