export type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

export function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** A single value or an array of values, as an array (the possible-set form). */
export function asSet(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [v];
}

export interface WriteJsonStyle {
  /** Indent per level: '' writes one line with no spaces (JSON.stringify(v)), '  ' as JSON.stringify(v, null, 2). */
  indent: string;
  /** The order of each object's keys (none: as Object.keys lists them, as JSON.stringify does). */
  compareKeys?: (a: string, b: string) => number;
  /** An undefined value: left out of objects and null in arrays as JSON.stringify does ('omit'), or written `undefined` ('text'). */
  undefinedAs: 'omit' | 'text';
  /** Stop once the text is longer than this (for a preview): the text returned is then cut somewhere past it. */
  maxLength?: number;
  /**
   * Numbers JSON.stringify cannot write: 'null' writes ±Infinity as null and -0 as 0, as it does
   * (the default); 'exact' writes ±Infinity as 1e400 and -1e400 (JSON text past a double's
   * range, which JSON.parse reads back as ±Infinity: what a server's 1e400 or 1e999 was read
   * as) and -0 as -0, so that the text reads back as the same value.
   */
  numbers?: 'null' | 'exact';
  /**
   * Writes each number instead (quote()'s placeholders, see src/util/written.ts); counted as one
   * character against maxLength, the least a number's text takes, so that the text, once the
   * numbers are written out, is never cut shorter than maxLength.
   */
  number?: (v: number) => string;
}

/**
 * JSON text of a value with each object's keys in a given order, written without recursion:
 * JSON.parse reads values nested 100,000 levels deep, where JSON.stringify and any
 * recursive walk overflow the stack a few thousand levels down.
 */
export function writeJson(value: unknown, style: WriteJsonStyle): string {
  const pretty = style.indent !== '';
  const newline = pretty ? '\n' : '';
  const colon = pretty ? ': ' : ':';
  const out: string[] = [];
  const limit = style.maxLength ?? Infinity;
  let size = 0;
  const emit = (text: string, length = text.length) => {
    out.push(text);
    size += length;
  };
  // A string longer than the room left is cut first (its end would be cut from the text anyway).
  const exact = style.numbers === 'exact';
  const scalar = (v: unknown) =>
    exact && typeof v === 'number' && (v === Infinity || v === -Infinity || Object.is(v, -0))
      ? v === Infinity ? '1e400' : v === -Infinity ? '-1e400' : '-0'
      : JSON.stringify(typeof v === 'string' && v.length > limit - size ? v.slice(0, Math.max(0, limit - size) + 1) : v) ?? (style.undefinedAs === 'text' ? 'undefined' : 'null');
  // A container being written: its entries (key undefined in an array), the next one, the indent of its members.
  type Frame = { entries: [string | undefined, unknown][]; next: number; indent: string; close: string };
  const open = (v: unknown, indent: string): Frame | undefined => {
    if (v === null || typeof v !== 'object') {
      if (style.number && typeof v === 'number') emit(style.number(v), 1);
      else emit(scalar(v));
      return undefined;
    }
    const array = Array.isArray(v);
    let entries: [string | undefined, unknown][];
    if (array) entries = Array.from(v, (x): [undefined, unknown] => [undefined, x]);
    else {
      const keys = Object.keys(v);
      if (style.compareKeys) keys.sort(style.compareKeys);
      entries = keys.map((k): [string, unknown] => [k, (v as Obj)[k]]);
      if (style.undefinedAs === 'omit') entries = entries.filter(([, x]) => x !== undefined);
    }
    if (entries.length === 0) {
      emit(array ? '[]' : '{}');
      return undefined;
    }
    emit(array ? '[' : '{');
    return { entries, next: 0, indent: indent + style.indent, close: `${newline}${indent}${array ? ']' : '}'}` };
  };
  const stack: Frame[] = [];
  const root = open(value, '');
  if (root) stack.push(root);
  while (stack.length > 0 && size <= limit) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.entries.length) {
      emit(frame.close);
      stack.pop();
      continue;
    }
    const [key, v] = frame.entries[frame.next]!;
    emit(`${frame.next === 0 ? '' : ','}${newline}${frame.indent}${key === undefined ? '' : `${JSON.stringify(key)}${colon}`}`);
    frame.next++;
    const child = open(v, frame.indent);
    if (child) stack.push(child);
  }
  return out.join('');
}

/**
 * JSON text with the characters that JSON.stringify leaves raw but that a terminal, an editor
 * or a code review page acts on written as \uXXXX escapes: DEL and the C1 controls
 * (U+007F–U+009F), the bidi controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069)
 * and the line and paragraph separators (U+2028, U+2029). They can only stand inside a
 * string in JSON text, where the escape reads back as the same character: the JSON value is
 * unchanged. Always applied (not only on a terminal), so the output is the same wherever it
 * goes; a test first keeps the usual text, with none of them, at one scan (for ASCII text, a
 * count of its UTF-8 bytes and a search for DEL).
 */
export function escapeJsonControls(text: string): string {
  // Text with as many UTF-8 bytes as characters has no character past U+007F (each takes two or
  // more bytes, a lone surrogate three): DEL is the only one it can hold, and a search for one
  // character is native and several times faster than the regular expression's scan.
  const clean = Buffer.byteLength(text, 'utf8') === text.length ? !text.includes('\u007f') : !JSON_CONTROL.test(text);
  return clean ? text : text.replace(JSON_CONTROLS, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
const JSON_CONTROL = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const JSON_CONTROLS = new RegExp(JSON_CONTROL.source, 'g');
