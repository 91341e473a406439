/**
 * Maps JSON pointers to positions in the source text, for the pointers a run actually
 * reports.
 *
 * The text has already been parsed (JSON.parse accepted it; syntax errors and their
 * positions come from jsonc-parser in parse.ts), so this only has to find where values
 * are. It walks the document once, descending only into the containers on the way to a
 * requested pointer and skipping every other value at the speed of a bracket scan —
 * several times faster than a general tokenising visitor on the large dumps registries
 * produce (see bench/). test/locate.test.ts checks it against jsonc-parser's syntax tree
 * on generated documents.
 */
import type { Located, Locator } from '../types.js';
import { escapeSegment, parent } from '../util/pointer.js';

interface Mark {
  keyOffset: number;
  offset: number;
  end: number;
  container: boolean;
}

const enum C {
  Quote = 34,
  Backslash = 92,
  OpenBrace = 123,
  CloseBrace = 125,
  OpenBracket = 91,
  CloseBracket = 93,
  Comma = 44,
  Colon = 58,
  Space = 32,
  Tab = 9,
  LF = 10,
  CR = 13,
}

export function createLocator(text: string): Locator {
  return {
    locate(requested: Iterable<string>): Map<string, Located> {
      const wanted = new Set<string>();
      for (const p of requested) {
        for (let q = p; ; q = parent(q)) {
          if (wanted.has(q)) break;
          wanted.add(q);
          if (q === '') break;
        }
      }
      const marks = scan(text, wanted);
      const lines = new LineIndex(text);
      const out = new Map<string, Located>();
      for (const p of requested) {
        let q = p;
        while (!marks.has(q) && q !== '') q = parent(q);
        const mark = marks.get(q);
        if (mark) out.set(p, toLocated(q, mark, lines));
      }
      return out;
    },
  };
}

function skipWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === C.Space || c === C.LF || c === C.CR || c === C.Tab) i++;
    else return i;
  }
}

/** The index just after the string that starts at i (text[i] is a quote). */
function skipString(text: string, i: number): number {
  for (let j = i + 1; ; ) {
    const q = text.indexOf('"', j);
    if (q < 0) return text.length;
    // Count the backslashes before the quote: an odd number escapes it.
    let k = q - 1;
    while (text.charCodeAt(k) === C.Backslash) k--;
    if ((q - 1 - k) % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** The index just after the value that starts at i. */
function skipValue(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === C.Quote) return skipString(text, i);
  if (c !== C.OpenBrace && c !== C.OpenBracket) {
    // A number or a literal: up to the next delimiter.
    let j = i;
    for (;;) {
      const d = text.charCodeAt(j);
      if (d === C.Comma || d === C.CloseBrace || d === C.CloseBracket || d === C.Space || d === C.LF || d === C.CR || d === C.Tab || Number.isNaN(d)) return j;
      j++;
    }
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === C.Quote) j = skipString(text, j) - 1;
    else if (d === C.OpenBrace || d === C.OpenBracket) depth++;
    else if (d === C.CloseBrace || d === C.CloseBracket) {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return text.length;
}

function readKey(text: string, i: number, end: number): string {
  const raw = text.slice(i + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
}

interface Frame {
  pointer: string;
  array: boolean;
  index: number;
  mark?: Mark;
}

function scan(text: string, wanted: Set<string>): Map<string, Mark> {
  const marks = new Map<string, Mark>();
  let i = skipWhitespace(text, 0);
  // The root value.
  const rootContainer = text.charCodeAt(i) === C.OpenBrace || text.charCodeAt(i) === C.OpenBracket;
  const root: Mark = { keyOffset: -1, offset: i, end: rootContainer ? -1 : skipValue(text, i), container: rootContainer };
  marks.set('', root);
  if (!rootContainer) return marks;
  const stack: Frame[] = [{ pointer: '', array: text.charCodeAt(i) === C.OpenBracket, index: 0, mark: root }];
  i++;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    i = skipWhitespace(text, i);
    let c = text.charCodeAt(i);
    if (c === C.Comma) {
      i = skipWhitespace(text, i + 1);
      c = text.charCodeAt(i);
    }
    if (c === C.CloseBrace || c === C.CloseBracket) {
      if (frame.mark) frame.mark.end = i + 1;
      stack.pop();
      i++;
      continue;
    }
    if (Number.isNaN(c)) break;
    let keyOffset = -1;
    let pointer: string;
    if (frame.array) {
      pointer = frame.pointer + '/' + frame.index++;
    } else {
      keyOffset = i;
      const keyEnd = skipString(text, i);
      pointer = frame.pointer + '/' + escapeSegment(readKey(text, i, keyEnd));
      i = skipWhitespace(text, keyEnd);
      i = skipWhitespace(text, i + 1); // the colon
    }
    c = text.charCodeAt(i);
    const container = c === C.OpenBrace || c === C.OpenBracket;
    if (!wanted.has(pointer)) {
      i = skipValue(text, i);
      continue;
    }
    const mark: Mark = { keyOffset, offset: i, end: -1, container };
    marks.set(pointer, mark);
    if (container) {
      stack.push({ pointer, array: c === C.OpenBracket, index: 0, mark });
      i++;
    } else {
      i = mark.end = skipValue(text, i);
    }
  }
  return marks;
}

/** Offsets → 1-based line and UTF-16 column, with the line starts computed once. */
class LineIndex {
  private starts: number[] | undefined;
  constructor(private readonly text: string) {}

  private build(): number[] {
    const starts = [0];
    for (let i = this.text.indexOf('\n'); i !== -1; i = this.text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }

  at(offset: number): { line: number; column: number } {
    const starts = (this.starts ??= this.build());
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo]! + 1 };
  }
}

function toLocated(pointer: string, mark: Mark, lines: LineIndex): Located {
  // A finding's region: from the key (when the value is a member) to the end of a
  // literal value, or to the opening bracket of an object or array.
  const start = lines.at(mark.keyOffset >= 0 ? mark.keyOffset : mark.offset);
  const value = lines.at(mark.offset);
  const end = mark.end >= 0 ? lines.at(mark.end) : value;
  const regionEnd = mark.container ? { line: value.line, column: value.column + 1 } : end;
  return {
    pointer,
    line: start.line,
    column: start.column,
    endLine: regionEnd.line,
    endColumn: regionEnd.column,
    valueOffset: mark.offset,
    valueLength: (mark.end >= 0 ? mark.end : mark.offset + 1) - mark.offset,
    valueLine: value.line,
    valueColumn: value.column,
    valueEndLine: end.line,
    valueEndColumn: end.column,
  };
}
