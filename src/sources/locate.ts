/**
 * Maps JSON pointers to positions in the source text, for the pointers a run actually
 * reports.
 *
 * The text has already been parsed (JSON.parse or jsonc-parser accepted it; syntax
 * errors and their positions come from jsonc-parser), so this only has to find where
 * values are. Comments and trailing commas (client config files are JSONC) are skipped
 * like whitespace. It walks the document once, descending only into the containers on the way to a
 * requested pointer and skipping every other value at the speed of a bracket scan —
 * several times faster than a general tokenising visitor on the large dumps registries
 * produce (see bench/). test/locate.test.ts checks it against jsonc-parser's syntax tree
 * on generated documents.
 */
import type { Located, Locator, RepeatedKey, RepeatedKeyScope } from '../types.js';
import { escapeSegment, parent, unescapeSegment } from '../util/pointer.js';

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
  Slash = 47,
  Star = 42,
}

/**
 * Where containers end, by where they start, in the order of the text: what the duplicate-key
 * scan learnt passing every tool lets the locator, which runs later over the same text, jump
 * over a tool or a large value instead of scanning it bracket by bracket. Where a container
 * starting at an offset ends is a fact of the text alone (no JSON.parse semantics): both scans
 * agree on it for any text the parser accepted, so the locator's positions do not change
 * (test/locate.test.ts compares them with and without a table on generated documents).
 * Offsets in two growing Int32Arrays (a text is at most 512 MiB), not an object per entry.
 */
export class Skips {
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  private length = 0;
  /** The next entry to look at: the locator asks in the order of the text. */
  private cursor = 0;

  /** Note a container at `start`; its end comes later (end) or is known now. Starts must come in ascending order. */
  add(start: number, end = -1): number {
    if (this.length === this.starts.length) {
      const starts = new Int32Array(this.length * 2);
      starts.set(this.starts);
      this.starts = starts;
      const ends = new Int32Array(this.length * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    return this.length++;
  }

  end(entry: number, end: number): void {
    this.ends[entry] = end;
  }

  /** The end of the container at `start` (-1: not known), for starts asked in ascending order. */
  endAt(start: number): number {
    const starts = this.starts;
    let k = this.cursor;
    while (k < this.length && starts[k]! < start) k++;
    this.cursor = k;
    return k < this.length && starts[k] === start ? this.ends[k]! : -1;
  }

  /** Start asking from the beginning of the text again. */
  rewind(): void {
    this.cursor = 0;
  }
}

/** Containers shorter than this are not worth an entry: scanning them costs about what looking them up does. */
const SKIP_WORTH = 128;

/** The requested pointers as a tree of segments; each node remembers where its value is once found. */
interface Node {
  /**
   * Object members by key, and array items by index. A segment that reads as an index ("0", "12")
   * is kept with the items only, also when it names an object member (see memberOf).
   */
  keys?: Map<string, Node>;
  items?: Map<number, Node>;
  mark?: Mark;
  /** Where the member was found before, when its object gives it more than once (the first first); `mark` is the last. */
  earlier?: Mark[];
  parent?: Node;
  /** For findRepeatedKeys: the node is a tool or a tools/list result whose keys are checked. */
  scope?: RepeatedKeyScope;
  scopePointer?: string;
  /** The position found for the pointer that ends here (null: none), once asked. */
  located?: Located | null;
}

/**
 * The node of an object member: an index-like name ("0", "12") is kept with the array items
 * (a pointer segment does not say which of the two it names), every other name by itself.
 */
function memberOf(node: Node, key: string): Node | undefined {
  return node.items && isIndex(key) ? node.items.get(Number(key)) : node.keys?.get(key);
}

/** Whether a segment is an array index: 0, or digits without a leading zero. */
function isIndex(segment: string): boolean {
  return indexAt(segment, 0, segment.length) >= 0;
}

/** The array index that text[start, end) spells (0, or digits without a leading zero), or -1. */
function indexAt(text: string, start: number, end: number): number {
  const n = end - start;
  if (n === 0 || n > 15) return -1;
  const first = text.charCodeAt(start);
  if (first === 48) return n === 1 ? 0 : -1;
  let value = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    value = value * 10 + (c - 48);
  }
  return value;
}

/**
 * The requested pointers as a tree. Pointers come grouped (a tool's findings one after
 * another), so each one starts from the deepest node it shares with the one before, found by a
 * character comparison; index segments are read in place, without a string, and only other
 * segments are cut out (and unescaped only when they hold "~").
 */
class Tree {
  readonly root: Node = {};
  private previous = '';
  /** Where each segment of the previous pointer ends, and the node it leads to (the first `depth` entries). */
  private ends: number[] = [];
  private nodes: Node[] = [];
  private depth = 0;

  nodeOf(pointer: string): Node {
    const previous = this.previous;
    const ends = this.ends;
    const nodes = this.nodes;
    const max = Math.min(previous.length, pointer.length);
    let same = 0;
    while (same < max && previous.charCodeAt(same) === pointer.charCodeAt(same)) same++;
    // The segments both pointers share whole: the same text up to a segment end of each.
    let depth = 0;
    while (depth < this.depth && ends[depth]! <= same && (ends[depth] === pointer.length || pointer.charCodeAt(ends[depth]!) === 47)) depth++;
    let node = depth > 0 ? nodes[depth - 1]! : this.root;
    for (let start = depth > 0 ? ends[depth - 1]! + 1 : 1; start <= pointer.length; ) {
      let end = pointer.indexOf('/', start);
      if (end < 0) end = pointer.length;
      const index = indexAt(pointer, start, end);
      let next: Node | undefined;
      if (index >= 0) {
        const items = (node.items ??= new Map());
        next = items.get(index);
        if (!next) items.set(index, (next = { parent: node }));
      } else {
        const segment = unescapeSegment(pointer.slice(start, end));
        const keys = (node.keys ??= new Map());
        next = keys.get(segment);
        if (!next) keys.set(segment, (next = { parent: node }));
      }
      node = next;
      ends[depth] = end;
      nodes[depth++] = node;
      start = end + 1;
    }
    this.depth = depth;
    this.previous = pointer;
    return node;
  }
}

export function createLocator(text: string): Locator {
  /** Where the duplicate-key scan, when it ran, saw containers end. */
  let skips: Skips | undefined;
  const locateAll = (pointers: readonly string[], occurrences?: readonly (number | undefined)[]): (Located | undefined)[] => {
    const tree = new Tree();
    const root = tree.root;
    const nodes = pointers.map((p) => tree.nodeOf(p));
    skips?.rewind();
    scan(text, root, skips);
    const lines = new LineIndex(text);
    return pointers.map((p, i) => {
      const node = nodes[i]!;
      // An earlier occurrence of a member its object gives more than once.
      const k = occurrences?.[i];
      if (k !== undefined && node.mark) {
        const mark = k < (node.earlier?.length ?? 0) ? node.earlier![k] : node.mark;
        return toLocated(p, mark!, lines);
      }
      // Repeats of a pointer share its node, and its position.
      if (node.located !== undefined) return node.located ?? undefined;
      // The nearest ancestor that exists when the pointer itself does not.
      let n: Node | undefined = node;
      let found = p;
      while (n && !n.mark) {
        n = n.parent;
        found = parent(found);
      }
      node.located = n?.mark ? toLocated(found, n.mark, lines) : null;
      return node.located ?? undefined;
    });
  };
  return { ...locatorOf(locateAll), text, repeatedKeys: (scopes) => findRepeatedKeys(text, scopes, (skips = new Skips())) };
}

/** A Locator from its locateAll. */
export function locatorOf(locateAll: Locator['locateAll']): Locator {
  return {
    locateAll,
    locateOne: (pointer) => locateAll([pointer])[0],
  };
}

/** The index just after a comment that starts at i, or i when none does. */
function skipComment(text: string, i: number): number {
  const next = text.charCodeAt(i + 1);
  if (next === C.Slash) {
    // A line comment ends at the line's end: LF, CR LF or a lone CR.
    const lf = text.indexOf('\n', i + 2);
    const cr = text.indexOf('\r', i + 2);
    const end = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
    return end < 0 ? text.length : end + 1;
  }
  if (next === C.Star) {
    const end = text.indexOf('*/', i + 2);
    return end < 0 ? text.length : end + 2;
  }
  return i;
}

function skipWhitespace(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === C.Space || c === C.LF || c === C.CR || c === C.Tab) i++;
    else if (c === C.Slash) {
      const j = skipComment(text, i);
      if (j === i) return i;
      i = j;
    } else return i;
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
      if (d === C.Comma || d === C.CloseBrace || d === C.CloseBracket || d === C.Space || d === C.LF || d === C.CR || d === C.Tab || d === C.Slash || Number.isNaN(d)) return j;
      j++;
    }
  }
  let depth = 0;
  for (let j = i; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === C.Quote) j = skipString(text, j) - 1;
    else if (d === C.Slash) j = Math.max(j, skipComment(text, j) - 1);
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
  node: Node;
  array: boolean;
  index: number;
}

/** Clear what was found under a node (its own mark is replaced by the caller). */
function forget(node: Node): void {
  const stack = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    for (const children of [n.keys, n.items]) {
      for (const c of children?.values() ?? []) {
        if (c.mark === undefined) continue;
        c.mark = undefined;
        c.earlier = undefined;
        stack.push(c);
      }
    }
  }
}

/** skipValue, jumping over a container whose end the table knows. */
function skipKnown(text: string, i: number, skips: Skips | undefined): number {
  if (skips) {
    const c = text.charCodeAt(i);
    if (c === C.OpenBrace || c === C.OpenBracket) {
      const end = skips.endAt(i);
      if (end >= 0) return end;
    }
  }
  return skipValue(text, i);
}

function scan(text: string, root: Node, skips?: Skips): void {
  let i = skipWhitespace(text, 0);
  const c0 = text.charCodeAt(i);
  const rootContainer = c0 === C.OpenBrace || c0 === C.OpenBracket;
  root.mark = { keyOffset: -1, offset: i, end: rootContainer ? -1 : skipValue(text, i), container: rootContainer };
  if (!rootContainer) return;
  const stack: Frame[] = [{ node: root, array: c0 === C.OpenBracket, index: 0 }];
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
      frame.node.mark!.end = i + 1;
      stack.pop();
      i++;
      continue;
    }
    if (Number.isNaN(c)) break;
    let keyOffset = -1;
    let next: Node | undefined;
    if (frame.array) {
      next = frame.node.items?.get(frame.index++);
    } else {
      keyOffset = i;
      const keyEnd = skipString(text, i);
      next = memberOf(frame.node, readKey(text, i, keyEnd));
      i = skipWhitespace(text, keyEnd);
      i = skipWhitespace(text, i + 1); // the colon
    }
    if (!next) {
      i = skipKnown(text, i, skips);
      continue;
    }
    c = text.charCodeAt(i);
    const container = c === C.OpenBrace || c === C.OpenBracket;
    const mark: Mark = { keyOffset, offset: i, end: -1, container };
    // A member given again (in this object, or in an object given again): JSON.parse keeps
    // the last value, so what was found in an earlier one no longer counts.
    if (next.mark) {
      forget(next);
      (next.earlier ??= []).push(next.mark);
    }
    next.mark = mark;
    if (container && (next.keys || next.items)) {
      stack.push({ node: next, array: c === C.OpenBracket, index: 0 });
      i++;
    } else {
      i = mark.end = skipKnown(text, i, skips);
    }
  }
}

/** A member name given more than once in one object, as findRepeatedKeys meets it. */
interface Repeat {
  count: number;
  /** Where the first and the last value start (their ends are found when needed: repeats are rare). */
  firstStart: number;
  lastStart: number;
  /** Every copy so far is the same JSON value as the first. */
  same: boolean;
  /** The first value, parsed, once a copy is written differently (see sameJson). */
  first?: { value: unknown } | undefined;
}

/**
 * Two JSON values are equal: the same type, numbers by value (1.0 and 1), strings after their
 * escapes ("\u0061" and "a"), arrays item by item, objects member by member in any order.
 * Iterative, so a deep value cannot overflow the stack.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const todo: [unknown, unknown][] = [[a, b]];
  for (let pair = todo.pop(); pair; pair = todo.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    if (Array.isArray(x)) {
      const ys = y as unknown[];
      if (x.length !== ys.length) return false;
      for (let k = 0; k < x.length; k++) todo.push([x[k], ys[k]]);
      continue;
    }
    const xo = x as Record<string, unknown>;
    const yo = y as Record<string, unknown>;
    const keys = Object.keys(xo);
    if (keys.length !== Object.keys(yo).length) return false;
    for (const k of keys) {
      if (!Object.hasOwn(yo, k)) return false;
      todo.push([xo[k], yo[k]]);
    }
  }
  return true;
}

interface RepeatFrame {
  array: boolean;
  index: number;
  /** The requested node this container is, when it is on the way to a scope (or is one). */
  node: Node | undefined;
  /**
   * Its pointer: a scope's, or made from the enclosing container's and the member when a repeat
   * needs it (pointerOf). Most containers are passed without a finding: building a pointer for
   * each cost a string per object of every tool's annotations and _meta.
   */
  pointer: string | undefined;
  /** The enclosing container. */
  outer: RepeatFrame | undefined;
  /** 0: on the way, members not checked; 1: a scope's own members checked; 2: every object inside checked (a tool's annotations or _meta). */
  track: 0 | 1 | 2;
  scope?: { pointer: string; kind: RepeatedKeyScope };
  /**
   * Where the member names of this object so far (track 1 and 2) begin in the scan's pool of
   * names (the names of the containers open, each one's after its parent's: only the innermost
   * one gains names), and past a few names, an index of them by name. Most objects have a
   * handful of members: a search costs less than a Map, and a pool less than two arrays for
   * every object.
   */
  base: number;
  byName?: Map<string, number>;
  /** Members on the way (track 0) this object gave. */
  passed?: Set<Node>;
  /** The member (name, or index in an array) of the enclosing container this one is the value of. */
  member: string | number;
  /** Its entry in the skip table (a scope's container), -1 for none. */
  skip: number;
  /** The names this object repeats (track 1 and 2), by name. */
  own?: Map<string, Found>;
  /**
   * What was found inside each member's value, by member: a member given again replaces its
   * earlier copy's findings (JSON.parse keeps the last), so forgetting them costs nothing.
   */
  inside?: Map<string | number, RepeatFrame>;
}

/** A container's pointer, made (and kept) from the nearest enclosing one that has its own; iterative, for deep nesting. */
function pointerOf(frame: RepeatFrame): string {
  const path: RepeatFrame[] = [];
  let f = frame;
  while (f.pointer === undefined) {
    path.push(f);
    f = f.outer!;
  }
  let pointer = f.pointer;
  for (let k = path.length - 1; k >= 0; k--) {
    const member = path[k]!.member;
    pointer = `${pointer}/${typeof member === 'number' ? member : escapeSegment(member)}`;
    path[k]!.pointer = pointer;
  }
  return pointer;
}

interface Found {
  /** The order it was first found in. */
  seq: number;
  scope: { pointer: string; kind: RepeatedKeyScope };
  object: string;
  key: string;
  repeat: Repeat;
}

const SHORT_VALUE = 60;
const FEW_NAMES = 12;

/**
 * The member names the tools and tools/list results at `scopes` repeat: a tool's own members,
 * every object inside its `annotations` and `_meta` (at any depth), and a tools/list result's own
 * members. One pass over the text, like the locator's: it descends only on the way to the scopes
 * and into annotations and _meta, and skips every other value (inputSchema, outputSchema, …) at
 * the speed of a bracket scan; an explicit stack, so deep nesting cannot overflow. As JSON.parse
 * keeps the last of a member given twice, what is found inside an earlier copy of a member
 * given again (a tool's "annotations" given twice, a tools array given twice) no longer counts:
 * the copy itself is the finding.
 */
export function findRepeatedKeys(text: string, scopes: readonly { pointer: string; scope: RepeatedKeyScope }[], skips?: Skips): RepeatedKey[] {
  if (scopes.length === 0) return [];
  const tree = new Tree();
  const root = tree.root;
  for (const s of scopes) {
    const n = tree.nodeOf(s.pointer);
    n.scope = s.scope;
    n.scopePointer = s.pointer;
  }
  let seq = 0;
  /** The member names of the open objects, and where each one's first value starts; `named` is the end of the innermost object's. */
  const names: string[] = [];
  const starts: number[] = [];
  let named = 0;
  /** Forget what was found inside the earlier copy of a member given again (its value no longer counts). */
  const drop = (frame: RepeatFrame, member: string) => frame.inside?.delete(member);
  /** A container ends: what was found in it is kept by its parent, under its member. */
  const close = (end = -1) => {
    const done = stack.pop()!;
    named = done.base;
    if (skips && done.skip >= 0 && end >= 0) skips.end(done.skip, end);
    const parent = stack[stack.length - 1];
    if (parent && (done.own || done.inside?.size)) (parent.inside ??= new Map()).set(done.member, done);
  };
  const valueText = (start: number) => text.slice(start, skipValue(text, start));
  /**
   * The value at `start` is the same JSON value as the repeat's first: the same text, or (a copy
   * written differently: rare) the same once both are parsed, as a client that keeps the first
   * would read it.
   */
  const sameValue = (repeat: Repeat, start: number): boolean => {
    const last = valueText(start);
    const firstText = valueText(repeat.firstStart);
    if (last === firstText) return true;
    try {
      repeat.first ??= { value: JSON.parse(firstText) };
      return jsonEqual(repeat.first.value, JSON.parse(last));
    } catch {
      return false;
    }
  };
  /**
   * Whether a container, as far as it was scanned, gives a name twice with different values in
   * one of its objects. Walks only what its copy holds, which drop() then forgets: each finding
   * is walked once, so the scan stays linear.
   */
  const differsInside = (copy: RepeatFrame | undefined): boolean => {
    const todo = copy ? [copy] : [];
    for (let f = todo.pop(); f; f = todo.pop()) {
      if (f.own) for (const e of f.own.values()) if (!e.repeat.same) return true;
      if (f.inside) for (const inner of f.inside.values()) todo.push(inner);
    }
    return false;
  };
  // Every frame is made with the same fields in the same order: one hidden class for the scan's loop.
  const frameOf = (node: Node | undefined, array: boolean, outer: RepeatFrame | undefined, deep: boolean, member: string | number): RepeatFrame => {
    const scope = !deep && node?.scope && !array;
    return {
      array,
      index: 0,
      node: deep ? undefined : node,
      pointer: scope ? node.scopePointer! : outer ? undefined : '',
      outer,
      track: deep ? 2 : scope ? 1 : 0,
      scope: deep ? outer!.scope : scope ? { pointer: node.scopePointer!, kind: node.scope! } : undefined,
      base: named,
      byName: undefined,
      passed: undefined,
      member,
      skip: -1,
      own: undefined,
      inside: undefined,
    };
  };

  let i = skipWhitespace(text, 0);
  const c0 = text.charCodeAt(i);
  if (c0 !== C.OpenBrace && c0 !== C.OpenBracket) return [];
  const top = frameOf(root, c0 === C.OpenBracket, undefined, false, '');
  const stack: RepeatFrame[] = [top];
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
      close(i + 1);
      i++;
      continue;
    }
    if (Number.isNaN(c)) break;
    let key = '';
    let index = -1;
    let next: Node | undefined;
    if (frame.array) {
      index = frame.index++;
      next = frame.node?.items?.get(index);
    } else {
      const keyEnd = skipString(text, i);
      if (frame.track !== 0 || frame.node?.keys || frame.node?.items) key = readKey(text, i, keyEnd);
      next = frame.node && memberOf(frame.node, key);
      i = skipWhitespace(text, keyEnd);
      i = skipWhitespace(text, i + 1); // the colon
      if (frame.track !== 0) {
        let at = -1;
        if (frame.byName) at = frame.byName.get(key) ?? -1;
        else {
          for (let k = frame.base; k < named; k++) {
            if (names[k] === key) {
              at = k;
              break;
            }
          }
        }
        if (at < 0) {
          if (!frame.byName && named - frame.base === FEW_NAMES) {
            frame.byName = new Map();
            for (let k = frame.base; k < named; k++) frame.byName.set(names[k]!, k);
          }
          frame.byName?.set(key, named);
          names[named] = key;
          starts[named++] = i;
        } else {
          const own = (frame.own ??= new Map());
          let entry = own.get(key);
          if (!entry) {
            entry = { seq: seq++, scope: frame.scope!, object: pointerOf(frame), key, repeat: { count: 1, firstStart: starts[at]!, lastStart: starts[at]!, same: true } };
            own.set(key, entry);
          }
          const repeat = entry.repeat;
          // An earlier copy that gives a name twice with different values inside reads otherwise to a
          // parser that keeps the first (JSON.parse keeps the last): not the same to every client.
          if (repeat.same) repeat.same = !differsInside(frame.inside?.get(key)) && sameValue(repeat, i);
          repeat.count++;
          repeat.lastStart = i;
          drop(frame, key);
        }
      } else if (next) {
        const passed = (frame.passed ??= new Set());
        if (passed.has(next)) drop(frame, key);
        else passed.add(next);
      }
    }
    c = text.charCodeAt(i);
    if (c === C.OpenBrace || c === C.OpenBracket) {
      const array = c === C.OpenBracket;
      let child: RepeatFrame | undefined;
      const member = frame.array ? index : key;
      if (next && (next.keys || next.items || next.scope)) child = frameOf(next, array, frame, false, member);
      else if (frame.track === 2 || (frame.track === 1 && frame.scope!.kind === 'tool' && (key === 'annotations' || key === '_meta'))) {
        child = frameOf(undefined, array, frame, true, member);
      }
      if (child) {
        // A scope's container (a tool): the locator can jump over it when it wants nothing in it.
        if (skips && child.track === 1) child.skip = skips.add(i);
        stack.push(child);
        i++;
        continue;
      }
      const end = skipValue(text, i);
      if (skips && end - i >= SKIP_WORTH) skips.add(i, end);
      i = end;
      continue;
    }
    i = skipValue(text, i);
  }
  // A truncated text: the containers still open keep what was found in them.
  while (stack.length > 0) close();
  const found: Found[] = [];
  const walk: RepeatFrame[] = [top];
  for (let f = walk.pop(); f; f = walk.pop()) {
    if (f.own) for (const e of f.own.values()) found.push(e);
    if (f.inside) for (const inner of f.inside.values()) walk.push(inner);
  }
  found.sort((a, b) => a.seq - b.seq);
  const out: RepeatedKey[] = [];
  for (const { scope, object, key, repeat } of found) {
    const first = valueText(repeat.firstStart);
    const last = valueText(repeat.lastStart);
    out.push({
      scope: scope.pointer,
      kind: scope.kind,
      object,
      key,
      count: repeat.count,
      same: repeat.same,
      ...(first.length <= SHORT_VALUE && last.length <= SHORT_VALUE ? { values: [first, last] as [string, string] } : {}),
    });
  }
  return out;
}

/**
 * Offsets → 1-based line and UTF-16 column, with the line starts computed once. A line ends
 * at LF, CRLF or a lone CR, as SARIF 2.1.0 text regions (§3.30) and editors count
 * lines: all three are JSON whitespace, and a file written with old Mac line ends (CR only)
 * would otherwise be one line.
 */
class LineIndex {
  private starts: number[] | undefined;
  constructor(private readonly text: string) {}

  private build(): number[] {
    const text = this.text;
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    // Lone CRs (not followed by LF): a second indexOf pass, nothing more for a file without CR,
    // one comparison per line for a CRLF file, a merge only when there are any.
    let lone: number[] | undefined;
    for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1)) {
      if (text.charCodeAt(i + 1) !== C.LF) (lone ??= []).push(i + 1);
    }
    return lone ? mergeSorted(starts, lone) : starts;
  }

  /** The 0-based index of the line holding `offset`. */
  lineOf(offset: number): number {
    const starts = (this.starts ??= this.build());
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The line of `offset`, starting the search at `line` when it is that line or a later one (no search when on the same line). */
  lineFrom(line: number, offset: number): number {
    const starts = (this.starts ??= this.build());
    const next = starts[line + 1];
    return next === undefined || offset < next ? line : this.lineOf(offset);
  }

  startOf(line: number): number {
    return (this.starts ??= this.build())[line]!;
  }
}

/** Two ascending lists of distinct numbers as one ascending list. */
function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i]! < b[j]! ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}

function toLocated(pointer: string, mark: Mark, lines: LineIndex): Located {
  // A finding's region: from the key (when the value is a member) to the end of a
  // literal value, or to the opening bracket of an object or array. A key and its value,
  // and a literal's end, are nearly always on one line: one search finds them all.
  const startOffset = mark.keyOffset >= 0 ? mark.keyOffset : mark.offset;
  const startLine = lines.lineOf(startOffset);
  const valueLine = lines.lineFrom(startLine, mark.offset);
  const endOffset = mark.end >= 0 ? mark.end : mark.offset;
  const endLine = lines.lineFrom(valueLine, endOffset);
  const valueColumn = mark.offset - lines.startOf(valueLine) + 1;
  const endColumn = endOffset - lines.startOf(endLine) + 1;
  return {
    pointer,
    line: startLine + 1,
    column: startOffset - lines.startOf(startLine) + 1,
    endLine: mark.container ? valueLine + 1 : endLine + 1,
    endColumn: mark.container ? valueColumn + 1 : endColumn,
    valueOffset: mark.offset,
    valueLength: (mark.end >= 0 ? mark.end : mark.offset + 1) - mark.offset,
    valueLine: valueLine + 1,
    valueColumn,
    valueEndLine: endLine + 1,
    valueEndColumn: endColumn,
  };
}
