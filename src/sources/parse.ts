/**
 * Turns bytes into a JSON value, or into one clear error with a position.
 */
import { parse as parseTolerant, printParseErrorCode, type ParseError } from 'jsonc-parser';

export class InputProblem extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: number,
    /** For shape errors: where in the document the problem is. */
    readonly pointer?: string,
  ) {
    super(message);
  }
}

import { isAscii } from 'node:buffer';

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * UTF-8 bytes to text; strips a BOM; invalid UTF-8 is an error at its position.
 *
 * Most dumps are pure ASCII, where UTF-8 and Latin-1 agree: those are copied as Latin-1,
 * which skips UTF-8 validation and, for a large file, makes Node keep the text outside the
 * JavaScript heap, so the garbage collector neither walks it nor sizes the heap by it.
 */
export function decode(bytes: Uint8Array): string {
  if (isAscii(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  try {
    return decoder.decode(bytes);
  } catch {
    const lossy = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    const at = lossy.indexOf('\ufffd');
    const { line, column } = lineColumn(lossy, Math.max(0, at));
    throw new InputProblem('invalid UTF-8: the file must be UTF-8 encoded JSON', line, column);
  }
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
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

/** A jsonc-parser error code (printParseErrorCode) in words. */
export function jsonErrorMessage(code: string): string {
  return MESSAGES[code] ?? code;
}

const SEVERAL_VALUES =
  ': the file holds several JSON values, as JSON Lines (a captured stdio transcript) does, and mcp-annotate reads one document per file; save the tools/list result on its own (or run mcp-annotate dump against the server)';

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
    const errors: ParseError[] = [];
    parseTolerant(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
    const first = errors[0];
    if (first) {
      const { line, column } = lineColumn(text, first.offset);
      const code = printParseErrorCode(first.error);
      throw new InputProblem(`invalid JSON: ${jsonErrorMessage(code)}${code === 'EndOfFileExpected' && severalValues(text, first.offset) ? SEVERAL_VALUES : ''}`, line, column);
    }
    // The tolerant parser accepts a few things JSON.parse rejects (e.g. trailing commas
    // are off above, but lone surrogates pass); fall back to the engine's own message.
    throw new InputProblem(`invalid JSON: ${(err as Error).message}`, 1, 1);
  }
}
