/**
 * Runs a regular expression in time linear in the text: an automaton (Thompson's
 * construction) stepped over the text one character at a time, never a backtracking search.
 *
 * V8 backtracks. The expressions picomatch makes of globs are simple, but a few stars are
 * enough to make a text that does not match take polynomial time: `*_*_*_*x` against 800
 * characters of `a_` takes 20 seconds, and each doubling of the text sixteen times as long.
 * What override globs are matched against (the names of servers and tools) comes from the
 * servers, which may be hostile: those globs run here instead (see name-glob.ts). V8 still
 * answers a text too short for its backtracking to cost more than the automaton would (see
 * quickLength): it is native code, and most names are short.
 *
 * The syntax is JavaScript's without the `u` or `v` flag (Annex B included), but for back
 * references, lookbehinds, named groups and quantified lookaheads, on which linearTest throws
 * UnsupportedRegex (of these picomatch makes only back references, where a glob escapes a digit
 * after a group: `@(\1)`). The flags may be `i` (JavaScript's non-Unicode case folding), `s`,
 * `g` and `y` (which change nothing here: every test searches the whole text), and `m` in an
 * expression without `^` or `$`.
 *
 * A lookahead (`(?=…)`, `(?!…)`) is answered for every position of the text at once, when
 * first asked, by the automaton of its contents reversed, stepped from the end of the text to
 * its start.
 */

import { eachGroupToken } from './glob.js';

/** The most states an expression may make (a bounded repeat copies its operand: `a{1000}`). */
export const MAX_STATES = 100_000;

type Node =
  | { t: 'set'; ranges: number[]; neg: boolean }
  | { t: 'seq'; items: Node[] }
  | { t: 'alt'; alts: Node[] }
  | { t: 'rep'; node: Node; min: number; max: number }
  | { t: 'bol' }
  | { t: 'eol' }
  | { t: 'boundary'; neg: boolean }
  | { t: 'look'; node: Node; neg: boolean };

/** An expression linearTest cannot run (it throws this; see the module's comment). */
export class UnsupportedRegex extends Error {
  override name = 'UnsupportedRegex';
}

const LINE_TERMINATORS = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];
const DIGITS = [0x30, 0x39];
const WORD = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const SPACE = [0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff];

/** The ranges of everything outside `ranges` (sorted, merged). */
function complement(ranges: readonly number[]): number[] {
  const sorted = normalise(ranges);
  const out: number[] = [];
  let from = 0;
  for (let i = 0; i < sorted.length; i += 2) {
    if (sorted[i]! > from) out.push(from, sorted[i]! - 1);
    from = sorted[i + 1]! + 1;
  }
  if (from <= 0xffff) out.push(from, 0xffff);
  return out;
}

/** Ranges sorted by their start and merged where they touch. */
function normalise(ranges: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

const single = (c: number): Node => ({ t: 'set', ranges: [c, c], neg: false });

/** How many capturing groups a pattern has (what decides whether "\\1" is a back reference). */
function capturingGroups(source: string): number {
  let n = 0;
  eachGroupToken(source, (c, k) => {
    if (c === '(' && (source[k + 1] !== '?' || (source[k + 2] === '<' && source[k + 3] !== '=' && source[k + 3] !== '!'))) n++;
  });
  return n;
}

/** The syntax tree of a pattern (JavaScript's grammar without the u flag). */
function parse(source: string, flags: { dotAll: boolean; multiline: boolean }): Node {
  let i = 0;
  const groups = capturingGroups(source);
  const fail = (what: string): never => {
    throw new UnsupportedRegex(`${what} at ${i} of /${source}/`);
  };
  const hex = (len: number): number | undefined => {
    const digits = source.slice(i, i + len);
    return digits.length === len && /^[0-9a-fA-F]+$/.test(digits) ? parseInt(digits, 16) : undefined;
  };

  /** After a backslash: a character, or a class's ranges for \d \w \s and their negations. */
  const escape = (inClass: boolean): number | number[] => {
    const c = source[i++];
    if (c === undefined) return fail('a trailing backslash');
    switch (c) {
      case 'd':
        return DIGITS;
      case 'D':
        return complement(DIGITS);
      case 'w':
        return WORD;
      case 'W':
        return complement(WORD);
      case 's':
        return SPACE;
      case 'S':
        return complement(SPACE);
      case 't':
        return 0x09;
      case 'n':
        return 0x0a;
      case 'v':
        return 0x0b;
      case 'f':
        return 0x0c;
      case 'r':
        return 0x0d;
      case 'b':
        return 0x08; // in a class (outside one, alternative() reads a word boundary first)
      case 'c': {
        // \cJ is U+000A; in a class a digit or "_" may follow too. Else (Annex B) the backslash is itself.
        const x = source[i];
        if (x !== undefined && (/[a-zA-Z]/.test(x) || (inClass && /[0-9_]/.test(x)))) {
          i++;
          return x.charCodeAt(0) % 32;
        }
        i--;
        return 0x5c;
      }
      case 'x': {
        const v = hex(2);
        if (v === undefined) return 0x78;
        i += 2;
        return v;
      }
      case 'u': {
        const v = hex(4);
        if (v === undefined) return 0x75;
        i += 4;
        return v;
      }
      default:
        if (c >= '1' && c <= '9' && !inClass) {
          // A back reference, when the pattern has that many capturing groups (Annex B: else an octal escape).
          const digits = /^\d*/.exec(source.slice(i))![0];
          if (Number(c + digits) <= groups) return fail('a back reference');
        }
        if (c >= '0' && c <= '7') {
          // \0 alone is NUL; else a legacy octal escape of up to three digits, at most \377.
          let v = c.charCodeAt(0) - 48;
          for (let k = 0; k < (c <= '3' ? 2 : 1) && source[i]! >= '0' && source[i]! <= '7'; k++) v = v * 8 + source.charCodeAt(i++) - 48;
          return v;
        }
        return c.charCodeAt(0);
    }
  };

  const charClass = (): Node => {
    // At the character after "[".
    let neg = false;
    if (source[i] === '^') {
      neg = true;
      i++;
    }
    const ranges: number[] = [];
    const atom = (): number | number[] => {
      const c = source[i++];
      if (c === undefined) return fail('an unterminated character class');
      return c === '\\' ? escape(true) : c.charCodeAt(0);
    };
    while (source[i] !== ']') {
      const from = atom();
      if (source[i] === '-' && source[i + 1] !== ']' && source[i + 1] !== undefined) {
        i++;
        const to = atom();
        // Annex B: a range with a class escape at either end is the two and a "-".
        if (typeof from !== 'number' || typeof to !== 'number') {
          for (const x of [from, 0x2d, to]) typeof x === 'number' ? ranges.push(x, x) : ranges.push(...x);
          continue;
        }
        if (from > to) return fail('a range out of order');
        ranges.push(from, to);
        continue;
      }
      if (typeof from === 'number') ranges.push(from, from);
      else ranges.push(...from);
    }
    i++;
    return { t: 'set', ranges: normalise(ranges), neg };
  };

  /** A quantifier's bounds at `i` ({n}, {n,}, {n,m}), or undefined when the brace is a literal (Annex B). */
  const braces = (): { min: number; max: number; end: number } | undefined => {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
    if (!m) return undefined;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
    if (max < min) fail('a quantifier out of order');
    return { min, max, end: i + m[0].length };
  };

  const disjunction = (): Node => {
    const alts: Node[] = [alternative()];
    while (source[i] === '|') {
      i++;
      alts.push(alternative());
    }
    return alts.length === 1 ? alts[0]! : { t: 'alt', alts };
  };

  const alternative = (): Node => {
    const items: Node[] = [];
    while (i < source.length && source[i] !== '|' && source[i] !== ')') {
      let atom: Node;
      let assertion = false;
      const c = source[i]!;
      if (c === '^') {
        i++;
        atom = flags.multiline ? fail('a multiline anchor') : { t: 'bol' };
        assertion = true;
      } else if (c === '$') {
        i++;
        atom = flags.multiline ? fail('a multiline anchor') : { t: 'eol' };
        assertion = true;
      } else if (c === '(') {
        if (source.startsWith('(?=', i) || source.startsWith('(?!', i)) {
          const neg = source[i + 2] === '!';
          i += 3;
          atom = { t: 'look', node: disjunction(), neg };
          assertion = true;
        } else if (source.startsWith('(?:', i)) {
          i += 3;
          atom = disjunction();
        } else if (source.startsWith('(?', i)) {
          return fail('a lookbehind or a named group');
        } else {
          i++;
          atom = disjunction();
        }
        if (source[i] !== ')') return fail('an unterminated group');
        i++;
      } else if (c === ')') {
        return fail('an unmatched ")"');
      } else if (c === '[') {
        i++;
        atom = charClass();
      } else if (c === '.') {
        i++;
        atom = flags.dotAll ? { t: 'set', ranges: [], neg: true } : { t: 'set', ranges: LINE_TERMINATORS, neg: true };
      } else if (c === '\\' && (source[i + 1] === 'b' || source[i + 1] === 'B')) {
        i += 2;
        atom = { t: 'boundary', neg: source[i - 1] === 'B' };
        assertion = true;
      } else if (c === '\\') {
        i++;
        const e = escape(false);
        atom = typeof e === 'number' ? single(e) : { t: 'set', ranges: normalise(e), neg: false };
      } else if (c === '*' || c === '+' || c === '?') {
        return fail('nothing to repeat');
      } else if (c === '{' && braces() !== undefined) {
        return fail('nothing to repeat');
      } else {
        i++;
        atom = single(c.charCodeAt(0));
      }
      // A quantifier, and its lazy "?" (which changes what a match captures, not whether there is one).
      let min = 1;
      let max = 1;
      let quantified = false;
      const q = source[i];
      if (q === '*' || q === '+' || q === '?') {
        i++;
        quantified = true;
        [min, max] = q === '*' ? [0, Infinity] : q === '+' ? [1, Infinity] : [0, 1];
      } else if (q === '{') {
        const b = braces();
        if (b) {
          i = b.end;
          quantified = true;
          ({ min, max } = b);
        }
      }
      if (quantified) {
        if (assertion) return fail('a quantified assertion');
        if (source[i] === '?') i++;
        if (min !== 1 || max !== 1) atom = { t: 'rep', node: atom, min, max };
      }
      items.push(atom);
    }
    return items.length === 1 ? items[0]! : { t: 'seq', items };
  };

  const tree = disjunction();
  if (i < source.length) fail('an unmatched ")"');
  return tree;
}

// The automaton: parallel arrays, one entry a state.
const CONSUME = 0; // a character of `set` (index into sets), then `out`
const SPLIT = 1; // both `out` and `alt`
const BOL = 2;
const EOL = 3;
const LOOK = 4; // `arg`: the lookahead's index; `neg` in `alt` (1: negative)
const MATCH = 5;
const BOUNDARY = 6; // \b, or \B when `alt` is 1

interface Automaton {
  kind: number[];
  out: number[];
  alt: number[];
  arg: number[];
}

interface Lookahead {
  /** Its contents compiled backwards: the start is where they end, MATCH where they begin. */
  start: number;
  neg: boolean;
}

interface Program {
  fsm: Automaton;
  sets: { ranges: number[]; neg: boolean }[];
  start: number;
  /** Inner lookaheads before the ones that hold them. */
  looks: Lookahead[];
  ignoreCase: boolean;
}

function compile(tree: Node, ignoreCase: boolean): Program {
  const fsm: Automaton = { kind: [], out: [], alt: [], arg: [] };
  const sets: Program['sets'] = [];
  const looks: Lookahead[] = [];
  const state = (kind: number, out: number, alt = -1, arg = -1): number => {
    if (fsm.kind.length >= MAX_STATES) throw new UnsupportedRegex(`more than ${MAX_STATES} states`);
    fsm.kind.push(kind);
    fsm.out.push(out);
    fsm.alt.push(alt);
    fsm.arg.push(arg);
    return fsm.kind.length - 1;
  };
  /** The states of `node`, leading on to `next`; `back`: the text is read from its end. */
  const build = (node: Node, next: number, back: boolean): number => {
    switch (node.t) {
      case 'set':
        sets.push({ ranges: node.ranges, neg: node.neg });
        return state(CONSUME, next, -1, sets.length - 1);
      case 'seq': {
        let s = next;
        const items = back ? node.items : [...node.items].reverse();
        for (const item of items) s = build(item, s, back);
        return s;
      }
      case 'alt': {
        let s = build(node.alts[node.alts.length - 1]!, next, back);
        for (let k = node.alts.length - 2; k >= 0; k--) s = state(SPLIT, build(node.alts[k]!, next, back), s);
        return s;
      }
      case 'rep': {
        let tail = next;
        if (node.max === Infinity) {
          const loop = state(SPLIT, -1, next);
          fsm.out[loop] = build(node.node, loop, back);
          tail = loop;
        } else {
          for (let k = node.min; k < node.max; k++) tail = state(SPLIT, build(node.node, tail, back), next);
        }
        for (let k = 0; k < node.min; k++) tail = build(node.node, tail, back);
        return tail;
      }
      case 'bol':
        return state(BOL, next);
      case 'eol':
        return state(EOL, next);
      case 'boundary':
        return state(BOUNDARY, next, node.neg ? 1 : 0);
      case 'look': {
        // Its contents run backwards, from where they end to a MATCH where they begin.
        const start = build(node.node, state(MATCH, -1), true);
        looks.push({ start, neg: node.neg });
        return state(LOOK, next, node.neg ? 1 : 0, looks.length - 1);
      }
    }
  };
  const start = build(tree, state(MATCH, -1), false);
  return { fsm, sets, start, looks, ignoreCase };
}

/** JavaScript's Canonicalize for a case-insensitive expression without the u flag (ECMA-262, 22.2.2.7.3). */
function canonicalize(ch: number): number {
  const upper = String.fromCharCode(ch).toUpperCase();
  if (upper.length !== 1) return ch;
  const cu = upper.charCodeAt(0);
  return ch >= 128 && cu < 128 ? ch : cu;
}

/**
 * For each canonical character, every character that canonicalizes to it: for an ASCII one only
 * ASCII characters do (a character past ASCII that would fold into it stays itself), the rest
 * are found once, the first time a case-insensitive test meets a character past ASCII.
 */
let folds: Map<number, number[]> | undefined;
let asciiFolds: number[][] | undefined;
function foldsOf(canonical: number): readonly number[] {
  if (canonical < 128) {
    if (!asciiFolds) {
      asciiFolds = Array.from({ length: 128 }, () => []);
      for (let ch = 0; ch < 128; ch++) asciiFolds[canonicalize(ch)]!.push(ch);
    }
    return asciiFolds[canonical]!;
  }
  if (!folds) {
    folds = new Map();
    for (let ch = 0; ch <= 0xffff; ch++) {
      const c = canonicalize(ch);
      const list = folds.get(c);
      if (list) list.push(ch);
      else folds.set(c, [ch]);
    }
  }
  return folds.get(canonical) ?? [canonical];
}

/** A character of \w (without the u flag, case-insensitive or not); NaN, outside the text, is none. */
function isWord(ch: number): boolean {
  return (ch >= 0x30 && ch <= 0x39) || (ch >= 0x41 && ch <= 0x5a) || ch === 0x5f || (ch >= 0x61 && ch <= 0x7a);
}

function inRanges(ranges: readonly number[], ch: number): boolean {
  for (let k = 0; k < ranges.length; k += 2) if (ch >= ranges[k]! && ch <= ranges[k + 1]!) return true;
  return false;
}

function setHas(set: { ranges: number[]; neg: boolean }, ch: number, ignoreCase: boolean): boolean {
  // Case-insensitive: some member of the set canonicalizes to what `ch` does (CharacterSetMatcher).
  let found = false;
  if (!ignoreCase) found = inRanges(set.ranges, ch);
  else for (const a of foldsOf(canonicalize(ch))) if (inRanges(set.ranges, a)) found = true;
  return found !== set.neg;
}

/** A compiled expression's test: whether it matches anywhere in a text. */
export type LinearTest = (text: string) => boolean;

/**
 * `re.test(text)`'s answer, in time linear in the text's length (times the expression's size),
 * whatever the expression and the text. Throws UnsupportedRegex for syntax it does not run.
 * `quick: false`: never V8's own test, not even on a text too short to backtrack far (for tests).
 */
export function linearTest(re: RegExp, opts: { quick?: boolean } = {}): LinearTest {
  const { program, quick } = prepare(re);
  const runner = new Runner(program);
  // V8 answers texts too short to backtrack far (faster: native code), the automaton the rest.
  const shortest = opts.quick === false ? -1 : quick;
  const v8 = new RegExp(re.source, re.flags.replace(/[gy]/g, ''));
  return (text) => (text.length <= shortest ? v8.test(text) : runner.test(text));
}

/** The longest text linearTest lets V8 answer for `re` (-1: none; see quickLength). */
export function quickLengthOf(re: RegExp): number {
  return prepare(re).quick;
}

/** An expression's automaton, and the longest text V8 may answer for it (quickLength). */
function prepare(re: RegExp): { program: Program; quick: number } {
  if (re.unicode || re.flags.includes('v')) throw new UnsupportedRegex(`the ${re.unicode ? 'u' : 'v'} flag of /${re.source}/`);
  const tree = parse(re.source, { dotAll: re.dotAll, multiline: re.multiline });
  const program = compile(tree, re.ignoreCase);
  return { program, quick: quickLength(tree, program.fsm.kind[program.start] === BOL, program.fsm.kind.length) };
}

/**
 * How many times the automaton's work on a text V8 may take at the most for linearTest to let
 * it answer (V8's steps are native code, several times as fast as the automaton's).
 */
export const QUICK_FACTOR = 32;

/**
 * The longest text on which V8's backtracking search takes at most QUICK_FACTOR times the steps
 * the automaton takes (its states, for each character), by a bound on the ways V8 can read a
 * text of length n: each unbounded repeat a count from 0 to n, each alternation or bounded repeat
 * one of its choices, one path after another, each at most n steps of reading: ways ×
 * (n + 1)^repeats × n (and n + 1 starting places when the expression is not anchored with "^").
 * The bound holds only where no repeat holds a choice of its own (an alternation, another
 * repeat, also in a lookahead): each of its rounds then reads the text one way, and a repeat is
 * its count alone. Otherwise V8 may take exponential time, and the answer is -1 (the automaton
 * reads every text). With no repeat at all, V8 takes linear time: Infinity.
 */
function quickLength(tree: Node, anchored: boolean, states: number): number {
  let repeats = anchored ? 0 : 1;
  let ways = 1;
  let nested = false;
  const walk = (node: Node, inRepeat: boolean): void => {
    switch (node.t) {
      case 'seq':
        for (const item of node.items) walk(item, inRepeat);
        return;
      case 'alt':
        if (inRepeat) nested = true;
        ways *= node.alts.length;
        for (const a of node.alts) walk(a, inRepeat);
        return;
      case 'rep':
        if (inRepeat) nested = true;
        if (node.max === Infinity) repeats++;
        else ways *= node.max - node.min + 1;
        walk(node.node, true);
        return;
      case 'look':
        walk(node.node, inRepeat);
        return;
      default:
        return;
    }
  };
  walk(tree, false);
  const budget = QUICK_FACTOR * states;
  if (nested || ways > budget) return -1;
  if (repeats === 0) return Infinity;
  // The largest n with ways × (n + 1)^repeats ≤ budget.
  return Math.max(-1, Math.floor((budget / ways) ** (1 / repeats)) - 1);
}

/** Where one pass over the text keeps its states (a pass per lookahead, and one for the expression). */
interface Pass {
  /** The generation in which each state was last added (a new one at each position). */
  seen: Int32Array;
  generation: number;
  /** The states that read the next character, this position's and the next one's. */
  lists: [Int32Array, Int32Array];
  /** The states still to visit at this position (a state is pushed at most twice: a split's two edges lead to two states). */
  stack: Int32Array;
  matched: boolean;
}

/** Runs one compiled expression (not re-entrant: a test runs to its end before the next). */
class Runner {
  private readonly kind: Int8Array;
  private readonly out: Int32Array;
  private readonly alt: Int32Array;
  private readonly arg: Int32Array;
  /** Whether set k holds character c < 128: ascii[k * 128 + c]. */
  private readonly ascii: Uint8Array;
  private readonly passes: Pass[];
  /** Every path from the start meets "^" first: a match can only start at position 0. */
  private readonly anchored: boolean;
  private text = '';
  /** Each lookahead's answer at every position of the text, made when first asked. */
  private answers: (Uint8Array | undefined)[] = [];

  constructor(private readonly p: Program) {
    const { kind, out, alt, arg } = p.fsm;
    this.kind = Int8Array.from(kind);
    this.out = Int32Array.from(out);
    this.alt = Int32Array.from(alt);
    this.arg = Int32Array.from(arg);
    this.ascii = new Uint8Array(p.sets.length * 128);
    p.sets.forEach((set, k) => {
      for (let c = 0; c < 128; c++) this.ascii[k * 128 + c] = setHas(set, c, p.ignoreCase) ? 1 : 0;
    });
    const states = kind.length;
    const pass = (): Pass => ({ seen: new Int32Array(states), generation: 0, lists: [new Int32Array(states), new Int32Array(states)], stack: new Int32Array(2 * states + 2), matched: false });
    this.passes = [pass(), ...p.looks.map(pass)];
    this.anchored = kind[p.start] === BOL;
  }

  test(text: string): boolean {
    this.text = text;
    this.answers = [];
    const pass = this.passes[0]!;
    const n = text.length;
    let [list, next] = pass.lists;
    pass.matched = false;
    this.open(pass);
    let len = this.close(pass, list, 0, this.p.start, 0);
    for (let pos = 0; !pass.matched && pos < n; pos++) {
      // Anchored, and no state left: nothing can match from here on.
      if (len === 0 && this.anchored) break;
      let nextLen = this.step(pass, list, len, next, text.charCodeAt(pos), pos + 1);
      // A search: a match may start at any position.
      if (!this.anchored) nextLen = this.close(pass, next, nextLen, this.p.start, pos + 1);
      [list, next] = [next, list];
      len = nextLen;
    }
    // Nothing of the text kept past the test (a name may be megabytes).
    this.text = '';
    this.answers = [];
    return pass.matched;
  }

  private has(set: number, ch: number): boolean {
    return ch < 128 ? this.ascii[set * 128 + ch] === 1 : setHas(this.p.sets[set]!, ch, this.p.ignoreCase);
  }

  /** A lookahead's answer at `pos`: its contents run backwards from the end of the text, a new start at every position. */
  private answer(look: number, pos: number): number {
    let answer = this.answers[look];
    if (answer === undefined) {
      const text = this.text;
      const n = text.length;
      const start = this.p.looks[look]!.start;
      const pass = this.passes[look + 1]!;
      answer = new Uint8Array(n + 1);
      let [list, next] = pass.lists;
      pass.matched = false;
      this.open(pass);
      let len = this.close(pass, list, 0, start, n);
      answer[n] = pass.matched ? 1 : 0;
      for (let at = n - 1; at >= 0; at--) {
        pass.matched = false;
        const nextLen = this.close(pass, next, this.step(pass, list, len, next, text.charCodeAt(at), at), start, at);
        answer[at] = pass.matched ? 1 : 0;
        [list, next] = [next, list];
        len = nextLen;
      }
      this.answers[look] = answer;
    }
    return answer[pos]!;
  }

  /** A new position for the pass: every state may be added again. */
  private open(pass: Pass): void {
    if (++pass.generation === 0x3fffffff) {
      pass.seen.fill(0);
      pass.generation = 1;
    }
  }

  /**
   * Reads `ch` with the `len` states of `list`: opens position `to` and fills `next` with what
   * they lead to (see close). The length of `next`.
   */
  private step(pass: Pass, list: Int32Array, len: number, next: Int32Array, ch: number, to: number): number {
    this.open(pass);
    let nextLen = 0;
    for (let k = 0; k < len; k++) {
      const s = list[k]!;
      if (this.has(this.arg[s]!, ch)) nextLen = this.close(pass, next, nextLen, this.out[s]!, to);
    }
    return nextLen;
  }

  /**
   * Adds to `list` (from index `len`) the states that read a character and are reached from `s`
   * at position `pos` without reading one (each once a position: see open). The new length.
   */
  private close(pass: Pass, list: Int32Array, len: number, s: number, pos: number): number {
    const { seen, generation, stack } = pass;
    const { kind, out, alt, arg, text } = this;
    let sp = 0;
    stack[sp++] = s;
    while (sp > 0) {
      const x = stack[--sp]!;
      if (x < 0 || seen[x] === generation) continue;
      seen[x] = generation;
      switch (kind[x]) {
        case CONSUME:
          list[len++] = x;
          break;
        case SPLIT:
          stack[sp++] = alt[x]!;
          stack[sp++] = out[x]!;
          break;
        case BOL:
          if (pos === 0) stack[sp++] = out[x]!;
          break;
        case EOL:
          if (pos === text.length) stack[sp++] = out[x]!;
          break;
        case LOOK:
          // The lookahead's own pass (never this one: it cannot hold itself).
          if (this.answer(arg[x]!, pos) === (alt[x] === 1 ? 0 : 1)) stack[sp++] = out[x]!;
          break;
        case BOUNDARY:
          if ((isWord(text.charCodeAt(pos - 1)) !== isWord(text.charCodeAt(pos))) === (alt[x] !== 1)) stack[sp++] = out[x]!;
          break;
        case MATCH:
          pass.matched = true;
          break;
      }
    }
    return len;
  }
}
