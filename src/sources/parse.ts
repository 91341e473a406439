/**
 * Turns bytes into a JSON value, or into one clear error with a position.
 */
import { thousands } from '../util/text.js';
import { createScanner, ParseErrorCode, printParseErrorCode, ScanError, SyntaxKind, visit, type ParseError, type ParseOptions } from 'jsonc-parser';
import { escapeSegment } from '../util/pointer.js';

export class InputProblem extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
    /** For shape errors: where in the document the problem is. */
    readonly pointer?: string,
    /**
     * Another place the message names as "(<pointer>)": once the document's positions are
     * known, it reads "(line N)" instead.
     */
    readonly related?: string,
  ) {
    super(message);
  }
}

import { isAscii } from 'node:buffer';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * UTF-8 bytes to text; strips a BOM (positions are counted without it, as an editor shows the
 * file); invalid UTF-8 is an error at its position. Dumps, transcripts, config files and
 * baselines alike: a baseline entry with a byte that is not UTF-8 was decoded to U+FFFD, so it
 * never matched and --update-baseline rewrote it.
 *
 * Most dumps are pure ASCII, where UTF-8 and Latin-1 agree: those are copied as Latin-1,
 * which skips UTF-8 validation and, for a large file, makes Node keep the text outside the
 * JavaScript heap, so the garbage collector neither walks it nor sizes the heap by it.
 */
export function decode(bytes: Uint8Array, what = 'the file must be UTF-8 encoded JSON'): string {
  if (isAscii(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  try {
    return decoder.decode(bytes);
  } catch {
    throw invalidUtf8(bytes, what);
  }
}

/** The error for bytes that are not UTF-8, at the line and column (UTF-16 units) of the first bad byte. */
function invalidUtf8(bytes: Uint8Array, what: string): InputProblem {
  const at = firstInvalidUtf8(bytes);
  // Without a BOM, as every position is counted (an editor does not show it).
  const before = Buffer.from(bytes.buffer, bytes.byteOffset, at).toString('utf8').replace(/^\uFEFF/, '');
  const { line, column } = lineColumn(before, before.length);
  return new InputProblem(`invalid UTF-8: ${what}`, line, column);
}

/** The offset of the first byte that does not start a well-formed UTF-8 sequence (the length when all do). */
export function firstInvalidUtf8(b: Uint8Array): number {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    // The continuation bytes a lead byte takes, and the range its first one must fall in
    // (no overlong forms, no surrogates, nothing past U+10FFFF).
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return b.length;
}

/**
 * The 1-based line and UTF-16 column of an offset. A line ends at LF, CR LF or a lone CR (as
 * the locator counts them, and SARIF and editors do); an offset inside a CR LF is on the line
 * it ends.
 */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  let lf = text.indexOf('\n');
  let cr = text.indexOf('\r');
  for (;;) {
    let at: number;
    let length = 1;
    if (cr !== -1 && (lf === -1 || cr < lf)) {
      at = cr;
      if (lf === cr + 1) length = 2;
    } else if (lf !== -1) at = lf;
    else break;
    if (at + length > offset) break;
    line++;
    lineStart = at + length;
    if (lf !== -1 && lf < lineStart) lf = text.indexOf('\n', lineStart);
    if (cr !== -1 && cr < lineStart) cr = text.indexOf('\r', lineStart);
  }
  return { line, column: offset - lineStart + 1 };
}

const MESSAGES: Record<string, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected "," or a closing bracket',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected content after the JSON value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character in string',
  InvalidCharacter: 'invalid character in string (control characters must be escaped)',
};

/**
 * A jsonc-parser error code (printParseErrorCode) in words. Given the text and the error's
 * offset, an unexpected character is named: `unexpected character U+202E`, or quoted when it
 * is printable ASCII; a NUL in a text that is mostly NULs says the file looks UTF-16.
 */
export function jsonErrorMessage(code: string, text?: string, offset?: number): string {
  const words = MESSAGES[code] ?? code;
  if (code !== 'InvalidSymbol' || text === undefined || offset === undefined) return words;
  const cp = text.codePointAt(offset);
  if (cp === undefined) return words;
  return `${words} ${describeCharacter(cp)}${cp === 0 ? nulNote(text) : ''}`;
}

/** A character as an error message names it: printable ASCII quoted, anything else as U+XXXX. */
export function describeCharacter(cp: number): string {
  if (cp >= 0x21 && cp <= 0x7e) return cp === 0x22 ? `'"'` : `"${String.fromCodePoint(cp)}"`;
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What a NUL in JSON text most likely means: UTF-16 text (every other byte NUL for ASCII) read as UTF-8. */
function nulNote(text: string): string {
  const head = text.slice(0, 1000);
  let nuls = 0;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 0) nuls++;
  return nuls * 3 >= head.length
    ? ' (a NUL byte: the file looks UTF-16 encoded; it must be UTF-8)'
    : ' (a NUL byte)';
}

/**
 * The first error jsonc-parser's parse() reports for strict JSON (no comments, no trailing
 * commas, no empty content), found without recursion: parse() descends one call per level, so
 * an unclosed "[[[[…" thousands deep overflowed the stack and the error had no position. Its
 * rules, followed up to the first error: a scanner error or an unknown token is reported at its
 * token; a missing value, property name, colon, comma or closing bracket at the token found
 * instead; content after the value at that content.
 */
/**
 * The most levels of nesting a config, baseline or client config file may have: jsonc-parser,
 * which keeps their positions, reads by recursion, and a few thousand levels overflow the stack.
 * No such file needs more than a few.
 */
export const MAX_CONFIG_DEPTH = 1000;

/**
 * Where `text` (JSON with comments) first opens an object or array MAX_CONFIG_DEPTH levels deep
 * (its offset), or undefined. A token scan without recursion, strings and comments skipped.
 */
export function tooDeepAt(text: string, limit = MAX_CONFIG_DEPTH): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  for (let token = scanner.scan(); token !== SyntaxKind.EOF; token = scanner.scan()) {
    if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) {
      if (++depth > limit) return scanner.getTokenOffset();
    } else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) depth--;
  }
  return undefined;
}

/** The message for tooDeepAt's finding. */
export const TOO_DEEP = `the JSON nests deeper than ${thousands(MAX_CONFIG_DEPTH)} levels here, more than mcp-annotate reads in a config, baseline or client config file`;

export function firstJsonError(text: string): ParseError | undefined {
  const scanner = createScanner(text, false);
  const error = (code: ParseErrorCode): ParseError => ({ error: code, offset: scanner.getTokenOffset(), length: scanner.getTokenLength() });
  const SCAN_ERRORS: Partial<Record<ScanError, ParseErrorCode>> = {
    [ScanError.InvalidUnicode]: ParseErrorCode.InvalidUnicode,
    [ScanError.InvalidEscapeCharacter]: ParseErrorCode.InvalidEscapeCharacter,
    [ScanError.UnexpectedEndOfNumber]: ParseErrorCode.UnexpectedEndOfNumber,
    [ScanError.UnexpectedEndOfString]: ParseErrorCode.UnexpectedEndOfString,
    [ScanError.InvalidCharacter]: ParseErrorCode.InvalidCharacter,
  };
  /** The next token that is not whitespace, or the error it is. */
  const next = (): SyntaxKind | ParseError => {
    for (;;) {
      const token = scanner.scan();
      const scanError = SCAN_ERRORS[scanner.getTokenError()];
      if (scanError !== undefined) return error(scanError);
      if (token === SyntaxKind.LineCommentTrivia || token === SyntaxKind.BlockCommentTrivia) return error(ParseErrorCode.InvalidCommentToken);
      if (token === SyntaxKind.Unknown) return error(ParseErrorCode.InvalidSymbol);
      if (token !== SyntaxKind.Trivia && token !== SyntaxKind.LineBreakTrivia) return token;
    }
  };
  // Open containers, innermost last: true for an array. needsComma: whether the innermost has a member.
  const open: boolean[] = [];
  let needsComma = false;
  let token = next();
  if (typeof token !== 'number') return token;
  let expectValue = true;
  for (;;) {
    if (expectValue) {
      if (token === SyntaxKind.NumericLiteral && Number.isNaN(Number(scanner.getTokenValue()))) return error(ParseErrorCode.InvalidNumberFormat);
      switch (token) {
        case SyntaxKind.OpenBracketToken:
        case SyntaxKind.OpenBraceToken:
          open.push(token === SyntaxKind.OpenBracketToken);
          needsComma = false;
          expectValue = false;
          break;
        case SyntaxKind.NumericLiteral:
        case SyntaxKind.StringLiteral:
        case SyntaxKind.NullKeyword:
        case SyntaxKind.TrueKeyword:
        case SyntaxKind.FalseKeyword:
          if (open.length === 0) {
            token = next();
            if (typeof token !== 'number') return token;
            return token === SyntaxKind.EOF ? undefined : error(ParseErrorCode.EndOfFileExpected);
          }
          needsComma = true;
          expectValue = false;
          break;
        default:
          return error(ParseErrorCode.ValueExpected);
      }
      token = next();
      if (typeof token !== 'number') return token;
      continue;
    }
    // Inside the innermost open container, after its opening bracket or a member.
    const array = open[open.length - 1]!;
    if (token === (array ? SyntaxKind.CloseBracketToken : SyntaxKind.CloseBraceToken)) {
      open.pop();
      token = next();
      if (typeof token !== 'number') return token;
      if (open.length === 0) return token === SyntaxKind.EOF ? undefined : error(ParseErrorCode.EndOfFileExpected);
      needsComma = true;
      continue;
    }
    if (token === SyntaxKind.EOF) return error(array ? ParseErrorCode.CloseBracketExpected : ParseErrorCode.CloseBraceExpected);
    if (token === SyntaxKind.CommaToken) {
      if (!needsComma) return error(ParseErrorCode.ValueExpected);
      token = next();
      if (typeof token !== 'number') return token;
    } else if (needsComma) return error(ParseErrorCode.CommaExpected);
    if (!array) {
      if (token !== SyntaxKind.StringLiteral) return error(ParseErrorCode.PropertyNameExpected);
      token = next();
      if (typeof token !== 'number') return token;
      if (token !== SyntaxKind.ColonToken) return error(ParseErrorCode.ColonExpected);
      token = next();
      if (typeof token !== 'number') return token;
    }
    expectValue = true;
  }
}

/** The words of the error for a text of several JSON values (loadText then tries it as a JSON Lines transcript). */
export const SEVERAL_VALUES_MARK = 'the file holds several JSON values';
const SEVERAL_VALUES =
  `: ${SEVERAL_VALUES_MARK}, as JSON Lines does, and mcp-annotate reads one document per file (or a session transcript: JSON Lines of JSON-RPC messages); save the tools/list result on its own (or run mcp-annotate dump against the server)`;

/** Whether what follows the first value starts another object or array on a new line (JSON Lines). */
function severalValues(text: string, offset: number): boolean {
  const before = text.lastIndexOf('\n', offset - 1);
  return before !== -1 && text.slice(before + 1, offset).trim() === '' && (text[offset] === '{' || text[offset] === '[');
}

/** Parse JSON text; on a syntax error, throw an InputProblem with line and column. */
export function parseJson(text: string): unknown {
  if (text.trim() === '') throw new InputProblem('the file is empty; expected JSON (a tools/list result)', 1, 1);
  try {
    return JSON.parse(text);
  } catch (err) {
    if (err instanceof RangeError) {
      throw new InputProblem('the JSON is nested too deeply to process', 1, 1);
    }
    const first = firstJsonError(text);
    if (first) {
      const { line, column } = lineColumn(text, first.offset);
      const code = printParseErrorCode(first.error);
      throw new InputProblem(`invalid JSON: ${jsonErrorMessage(code, text, first.offset)}${code === 'EndOfFileExpected' && severalValues(text, first.offset) ? SEVERAL_VALUES : ''}`, line, column);
    }
    // The tolerant parser accepts a few things JSON.parse rejects (e.g. trailing commas
    // are off above, but lone surrogates pass); fall back to the engine's own message.
    throw new InputProblem(`invalid JSON: ${(err as Error).message}`, 1, 1);
  }
}

/** A member name an object of a JSONC document gives more than once. */
export interface RepeatedKey {
  /** JSON pointer of the object that repeats it. */
  object: string;
  key: string;
  /** Offsets of the first and the last occurrence of the key. */
  first: number;
  last: number;
}

/**
 * Parse JSONC (comments, trailing commas) as JSON.parse reads JSON: every member is an own
 * property, a "__proto__" member included (jsonc-parser's own parse() assigns members, so a
 * "__proto__" member became the object's prototype: invisible to Object.keys, and read
 * through by every lookup of a missing key), and of a member given twice the last value
 * counts. The members an object repeats are listed, with where they are.
 */
export function parseJsonc(text: string, errors: ParseError[], options: ParseOptions): { value: unknown; repeated: RepeatedKey[] } {
  type Container = { value: Record<string, unknown> | unknown[]; pointer: string; seen?: Map<string, number>; key?: string };
  const root: unknown[] = [];
  const stack: Container[] = [{ value: root, pointer: '' }];
  const repeated = new Map<string, RepeatedKey>();
  const add = (value: unknown) => {
    const top = stack[stack.length - 1]!;
    if (Array.isArray(top.value)) top.value.push(value);
    else if (top.key !== undefined) Object.defineProperty(top.value, top.key, { value, enumerable: true, writable: true, configurable: true });
  };
  const childPointer = () => {
    const top = stack[stack.length - 1]!;
    if (stack.length === 1) return '';
    return `${top.pointer}/${Array.isArray(top.value) ? top.value.length : escapeSegment(top.key ?? '')}`;
  };
  visit(
    text,
    {
      onObjectBegin: () => {
        const value: Record<string, unknown> = {};
        const pointer = childPointer();
        add(value);
        stack.push({ value, pointer, seen: new Map() });
      },
      onObjectProperty: (name, offset) => {
        const top = stack[stack.length - 1]!;
        top.key = name;
        const first = top.seen!.get(name);
        if (first === undefined) top.seen!.set(name, offset);
        else repeated.set(`${top.pointer}\u0000${name}`, { object: top.pointer, key: name, first, last: offset });
      },
      onObjectEnd: () => void stack.pop(),
      onArrayBegin: () => {
        const value: unknown[] = [];
        const pointer = childPointer();
        add(value);
        stack.push({ value, pointer });
      },
      onArrayEnd: () => void stack.pop(),
      onLiteralValue: add,
      onError: (error, offset, length) => void errors.push({ error, offset, length }),
    },
    options,
  );
  return { value: root[0], repeated: [...repeated.values()] };
}
