/**
 * Glob syntax without loading fast-glob (~20 ms): whether a target is a pattern, and
 * how to make a literal path safe inside one. fast-glob itself is imported only when a
 * pattern or a directory is actually expanded.
 */
import braces, { type BraceNode } from 'braces';
import { thousands } from './text.js';

/** The longest glob picomatch (and so fast-glob) compiles: a longer one throws. */
export const MAX_GLOB_LENGTH = 65_536;

/** Why a glob cannot be compiled, or undefined: too long for picomatch. */
export function globTooLong(glob: string): string | undefined {
  return glob.length > MAX_GLOB_LENGTH ? `is too long (${thousands(glob.length)} characters; at most ${thousands(MAX_GLOB_LENGTH)})` : undefined;
}

/**
 * An error's message for one line: V8's "Invalid regular expression: /…/: why" quotes the
 * whole expression (tens of thousands of characters for a long glob), so only its why.
 */
export function errorReason(err: unknown): string {
  const message = String((err as Error)?.message ?? err);
  const regex = /^Invalid regular expression: \/[\s\S]*\/[a-z]*: ([^:]+)$/.exec(message);
  return regex ? regex[1]! : message.length > 200 ? `${message.slice(0, 199)}…` : message;
}

/**
 * The deepest nesting of groups a glob's regular expression may have. V8 compiles a regular
 * expression recursively: groups nested about 6,000 deep throw "Stack overflow", and a little
 * deeper (7,000 `{` of `{{{a,b},b},b}…`, 2,500 `!(` of `!(!(a))`, each three groups) V8 aborts the
 * whole process ("RegExpCompiler Allocation failed"), which no try/catch survives: such a glob is
 * refused before it is compiled. No glob a person writes nests a tenth as deep.
 */
export const MAX_GROUP_DEPTH = 1_000;

/**
 * Calls `at` with each "(", ")" and "|" of a regular expression's source that is syntax, not a
 * character: escapes and character classes are skipped.
 */
export function eachGroupToken(source: string, at: (c: '(' | ')' | '|', i: number) => void): void {
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(' || c === ')' || c === '|') at(c, i);
  }
}

/** How deep the groups of a regular expression's source nest (escapes and character classes skipped). */
export function groupDepth(source: string): number {
  let depth = 0;
  let max = 0;
  eachGroupToken(source, (c) => {
    if (c === '(') max = Math.max(max, ++depth);
    else if (c === ')') depth--;
  });
  return max;
}

/**
 * Why a glob under the length limit still cannot be used: the regular expression picomatch
 * makes of it is too large for V8 (about 32,750 characters of `*aaa…`), or nests too deep (see
 * MAX_GROUP_DEPTH). V8 compiles one when it first runs it, so `make` only builds it: it is run
 * once here, after its depth is checked.
 */
export function compileProblem(glob: string, make: () => RegExp): string | undefined {
  const expands = braceProblem(glob);
  if (expands) return expands;
  try {
    const re = make();
    const depth = groupDepth(re.source);
    if (depth > MAX_GROUP_DEPTH) return `cannot be compiled (its groups nest ${thousands(depth)} deep; at most ${thousands(MAX_GROUP_DEPTH)}, at ${thousands(glob.length)} characters); use a simpler pattern`;
    const ways = alternativeWays(re.source);
    if (ways > MAX_ALTERNATIVE_WAYS) return `cannot be compiled (its alternatives combine ${countOf(ways)} ways; at most ${thousands(MAX_ALTERNATIVE_WAYS)}); use a simpler pattern`;
    re.test('');
    return undefined;
  } catch (err) {
    return `cannot be compiled (${errorReason(err)}, at ${thousands(glob.length)} characters); use a shorter pattern`;
  }
}

/**
 * The most patterns a glob's braces may expand to. fast-glob expands every `{a,b}` and `{1..9}`
 * of a glob into the list of globs it stands for before it walks (`{a,b}` 24 times is 16,777,216
 * globs: it ran for minutes and then ran out of memory) and compiles each into a regular expression:
 * 10,000 take it about 2 seconds. braces allows a single range of up to 1,000 (`{1..1000}`): this
 * leaves room for ten of those, far more than any glob a person writes (`*.{json,jsonl}` is 2).
 */
export const MAX_BRACE_PATTERNS = 10_000;

/**
 * The most characters those patterns may hold together: 1,024 patterns of 5,000 characters took
 * fast-glob 2 seconds and 8,192 of them ran it out of memory. 10,000 patterns of 100 characters.
 */
export const MAX_BRACE_CHARACTERS = 1_000_000;

/**
 * The most ways the alternatives of a glob's regular expression may combine. picomatch does not
 * expand braces: `{a,b}` is the group `(a|b)` (as `@(a|b)` is), and V8 tries each combination of
 * such groups before it gives up on a name that does not match (`{a,a}` 24 times: 1.3 seconds a
 * name; 40 times, hours). 100,000 ways cost a few milliseconds; each `**` of a path glob is a
 * group of 3, so eight of them still fit.
 */
export const MAX_ALTERNATIVE_WAYS = 100_000;

/** A count for a message: exact while a double holds it exactly, "more than 9,007,199,254,740,991" past that. */
function countOf(n: number): string {
  return Number.isSafeInteger(n) ? thousands(n) : `more than ${thousands(Number.MAX_SAFE_INTEGER)}`;
}

/** How many patterns, of how many characters in all. */
interface Expansion {
  count: number;
  chars: number;
}
const ONE: Expansion = { count: 1, chars: 0 };
const times = (a: Expansion, b: Expansion): Expansion => ({ count: a.count * b.count, chars: a.chars * b.count + b.chars * a.count });
const plus = (a: Expansion, b: Expansion): Expansion => ({ count: a.count + b.count, chars: a.chars + b.chars });

/** The characters a node stands for as it is written (a brace braces leaves as it is). */
function written(node: BraceNode): number {
  return node.nodes ? node.nodes.reduce((n, c) => n + written(c), 0) : (node.value?.length ?? 0);
}

/** How many values braces' range `{start..end..step}` makes (fill-range's rules; none: the range is kept as written, one). */
function rangeCount(args: string[]): number {
  const [start, end, stepText] = args;
  const isNumber = (v: string | undefined) => v !== undefined && Number.isInteger(+v);
  const valid = (v: string | undefined) => isNumber(v) || v?.length === 1;
  if (!valid(start) || !valid(end)) return 1;
  const step = stepText === undefined || stepText === '' ? 1 : isNumber(stepText) ? Math.max(Math.abs(+stepText), 1) : undefined;
  if (step === undefined) return 1;
  const span = isNumber(start) && isNumber(end) ? Math.abs(+end! - +start!) : Math.abs(end!.charCodeAt(0) - start!.charCodeAt(0));
  return Math.floor(span / step) + 1;
}

/** What a node of braces' tree expands to, as braces' expand walks it (see node_modules/braces/lib/expand.js). */
function expansion(node: BraceNode): Expansion {
  if (!node.nodes) return { count: 1, chars: node.value?.length ?? 0 };
  if (node.invalid || node.dollar) return { count: 1, chars: written(node) };
  if (node.type === 'brace' && node.nodes.length === 2) return { count: 1, chars: 2 };
  if ((node.ranges ?? 0) > 0) {
    const args = node.nodes.filter((c) => c.type === 'text').map((c) => c.value ?? '');
    const count = rangeCount(args);
    return { count, chars: count * written(node) };
  }
  if (node.type !== 'brace') return node.nodes.reduce((e, c) => times(e, expansion(c)), ONE);
  // A brace: the sum of its alternatives (between commas), each the product of what it holds;
  // one with no comma is kept with its braces around each of its expansions.
  let done: Expansion | undefined;
  let current = ONE;
  for (const child of node.nodes) {
    if (child.type === 'open' || child.type === 'close') continue;
    if (child.type === 'comma') {
      done = done ? plus(done, current) : current;
      current = ONE;
    } else current = times(current, expansion(child));
  }
  return done ? plus(done, current) : times(current, { count: 1, chars: 2 });
}

/**
 * How many patterns fast-glob would expand a glob's braces to, and their characters in all,
 * counted on braces' own parse of it without expanding it; undefined for a glob braces does not
 * parse (over 10,000 characters: fast-glob fails on it at once, and picomatch does not expand).
 */
export function braceExpansion(glob: string): Expansion | undefined {
  const open = glob.indexOf('{');
  if (open < 0 || glob.indexOf('}', open) < 0) return { count: 1, chars: glob.length };
  try {
    return expansion(braces.parse(glob, { keepEscaping: true }));
  } catch {
    return undefined;
  }
}

/** Why a glob's braces expand too far (see MAX_BRACE_PATTERNS, MAX_BRACE_CHARACTERS), or undefined. */
export function braceProblem(glob: string): string | undefined {
  const e = braceExpansion(glob);
  if (!e) return undefined;
  if (e.count > MAX_BRACE_PATTERNS) return `cannot be expanded (its braces make ${countOf(e.count)} patterns; at most ${thousands(MAX_BRACE_PATTERNS)}); use a simpler pattern`;
  if (e.chars > MAX_BRACE_CHARACTERS) {
    return `cannot be expanded (its braces make ${thousands(e.count)} patterns of ${countOf(e.chars)} characters in all; at most ${thousands(MAX_BRACE_CHARACTERS)}); use a simpler pattern`;
  }
  return undefined;
}

/**
 * How many ways the alternatives of a regular expression's source combine: a group is the sum of
 * its alternatives, a sequence the product of its groups (quantifiers, and lookarounds, which
 * picomatch adds for its own checks, count once).
 */
export function alternativeWays(source: string): number {
  const stack: { done: number; current: number; look: boolean }[] = [{ done: 0, current: 1, look: false }];
  eachGroupToken(source, (c, i) => {
    const top = stack[stack.length - 1]!;
    if (c === '(') stack.push({ done: 0, current: 1, look: /^\?<?[=!]/.test(source.slice(i + 1, i + 4)) });
    else if (c === '|') {
      top.done += top.current;
      top.current = 1;
    } else if (stack.length > 1) {
      stack.pop();
      const parent = stack[stack.length - 1]!;
      parent.current *= top.look ? 1 : top.done + top.current;
    }
  });
  const root = stack[0]!;
  return root.done + root.current;
}

const SPECIAL = /[*?[\]{}()!+@]/;

export function isGlobPattern(target: string): boolean {
  return SPECIAL.test(target);
}

export function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}()!+@]/g, '\\$&');
}
