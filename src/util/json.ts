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
  /** The order of each object's keys. */
  compareKeys: (a: string, b: string) => number;
  /** An undefined value: left out of objects and null in arrays as JSON.stringify does ('omit'), or written `undefined` ('text'). */
  undefinedAs: 'omit' | 'text';
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
  const scalar = (v: unknown) => JSON.stringify(v) ?? (style.undefinedAs === 'text' ? 'undefined' : 'null');
  // A container being written: its entries (key undefined in an array), the next one, the indent of its members.
  type Frame = { entries: [string | undefined, unknown][]; next: number; indent: string; close: string };
  const open = (v: unknown, indent: string): Frame | undefined => {
    if (v === null || typeof v !== 'object') {
      out.push(scalar(v));
      return undefined;
    }
    const array = Array.isArray(v);
    let entries: [string | undefined, unknown][];
    if (array) entries = Array.from(v, (x): [undefined, unknown] => [undefined, x]);
    else {
      entries = Object.keys(v)
        .sort(style.compareKeys)
        .map((k): [string, unknown] => [k, (v as Obj)[k]]);
      if (style.undefinedAs === 'omit') entries = entries.filter(([, x]) => x !== undefined);
    }
    if (entries.length === 0) {
      out.push(array ? '[]' : '{}');
      return undefined;
    }
    out.push(array ? '[' : '{');
    return { entries, next: 0, indent: indent + style.indent, close: `${newline}${indent}${array ? ']' : '}'}` };
  };
  const stack: Frame[] = [];
  const root = open(value, '');
  if (root) stack.push(root);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.next === frame.entries.length) {
      out.push(frame.close);
      stack.pop();
      continue;
    }
    const [key, v] = frame.entries[frame.next]!;
    out.push(`${frame.next === 0 ? '' : ','}${newline}${frame.indent}${key === undefined ? '' : `${JSON.stringify(key)}${colon}`}`);
    frame.next++;
    const child = open(v, frame.indent);
    if (child) stack.push(child);
  }
  return out.join('');
}
