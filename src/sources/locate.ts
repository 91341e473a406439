/**
 * Maps JSON pointers to positions in the source text, for the pointers a run
 * actually reports. One pass over the text with jsonc-parser's scanner; containers
 * that hold none of the requested pointers are skipped, so no syntax tree is built.
 */
import { visit } from 'jsonc-parser';
import type { Located, Locator } from '../types.js';
import { escapeSegment, parent } from '../util/pointer.js';

interface KeyInfo {
  name: string;
  offset: number;
  line: number;
  character: number;
}

interface Mark {
  key?: KeyInfo;
  offset: number;
  line: number;
  character: number;
  container: boolean;
  endOffset: number;
  endLine: number;
  endCharacter: number;
}

interface Frame {
  pointer: string;
  array: boolean;
  index: number;
  key?: KeyInfo;
  mark?: Mark;
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
      const out = new Map<string, Located>();
      for (const p of requested) {
        let q = p;
        while (!marks.has(q) && q !== '') q = parent(q);
        const mark = marks.get(q);
        if (mark) out.set(p, toLocated(q, mark));
      }
      return out;
    },
  };
}

function scan(text: string, wanted: Set<string>): Map<string, Mark> {
  const marks = new Map<string, Mark>();
  const stack: Frame[] = [];

  const begin = (container: boolean, array: boolean, offset: number, length: number, line: number, character: number): boolean => {
    const top = stack[stack.length - 1];
    let pointer = '';
    let key: KeyInfo | undefined;
    if (top) {
      if (top.array) pointer = top.pointer + '/' + top.index++;
      else {
        key = top.key;
        pointer = top.pointer + '/' + escapeSegment(key?.name ?? '');
      }
    }
    let mark: Mark | undefined;
    if (wanted.has(pointer)) {
      mark = {
        key,
        offset,
        line,
        character,
        container,
        endOffset: offset + length,
        endLine: line,
        endCharacter: character + length,
      };
      marks.set(pointer, mark);
    }
    if (!container) return true;
    stack.push({ pointer, array, index: 0, mark });
    return mark !== undefined;
  };

  const end = (offset: number, _length: number, line: number, character: number) => {
    const frame = stack.pop();
    if (frame?.mark) {
      frame.mark.endOffset = offset + 1;
      frame.mark.endLine = line;
      frame.mark.endCharacter = character + 1;
    }
  };

  visit(
    text,
    {
      onObjectBegin: (o, l, line, ch) => begin(true, false, o, l, line, ch),
      onArrayBegin: (o, l, line, ch) => begin(true, true, o, l, line, ch),
      onObjectEnd: end,
      onArrayEnd: end,
      onObjectProperty: (name, offset, _l, line, character) => {
        const top = stack[stack.length - 1];
        if (top) top.key = { name, offset, line, character };
      },
      onLiteralValue: (_v, o, l, line, ch) => {
        begin(false, false, o, l, line, ch);
      },
    },
    { disallowComments: false, allowTrailingComma: true },
  );
  return marks;
}

function toLocated(pointer: string, mark: Mark): Located {
  const start = mark.key ?? mark;
  // A finding's region: from the key (when the value is a member) to the end of a
  // literal value, or to the opening bracket of an object or array.
  const regionEndLine = mark.container ? mark.line : mark.endLine;
  const regionEndCharacter = mark.container ? mark.character + 1 : mark.endCharacter;
  return {
    pointer,
    line: start.line + 1,
    column: start.character + 1,
    endLine: regionEndLine + 1,
    endColumn: regionEndCharacter + 1,
    valueOffset: mark.offset,
    valueLength: mark.endOffset - mark.offset,
    valueLine: mark.line + 1,
    valueColumn: mark.character + 1,
    valueEndLine: mark.endLine + 1,
    valueEndColumn: mark.endCharacter + 1,
  };
}
