/**
 * Variable references in live-target values (`${NAME}`, `${env:NAME}`, `${NAME:-default}`,
 * `${workspaceFolder}`, `${userHome}`, `${input:id}`, and opencode's `{env:NAME}`), and the
 * secrets they resolve to. Every resolved environment variable or input is a secret: it is
 * recorded so that no output can show it (see redact()).
 */
import { oneLine } from '../../util/text.js';
import type { Finding } from '../../types.js';

/** A value could not be resolved; the message names the reference and where it was used. */
export class VariableError extends Error {}

export interface ExpandContext {
  env: NodeJS.ProcessEnv;
  /** Values given with --input id=value (VS Code's `${input:id}`). */
  inputs?: ReadonlyMap<string, string>;
  /** Descriptions of the inputs a VS Code config declares, for the message when one is missing. */
  inputDescriptions?: ReadonlyMap<string, string>;
  /** The folder `${workspaceFolder}` stands for (the project a config file belongs to). */
  workspaceFolder?: string;
  userHome?: string;
  /** opencode writes `{env:NAME}` (no dollar sign). */
  opencode?: boolean;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Resolve one reference body (what is between `${` and `}`), recording secrets. `written`: the reference as the user wrote it, for messages. */
export function resolveReference(body: string, ctx: ExpandContext, secrets: Set<string>, where: string, written = `\${${body}}`): string {
  const fromEnv = (name: string, fallback?: string): string => {
    const value = ctx.env[name];
    if (value === undefined || value === '') {
      if (fallback !== undefined) return fallback;
      throw new VariableError(`environment variable ${name} is not set (referenced as ${written} in ${where})`);
    }
    secrets.add(value);
    return value;
  };
  if (body === 'workspaceFolder') {
    if (ctx.workspaceFolder === undefined) throw new VariableError(`\${workspaceFolder} has no meaning here (in ${where})`);
    return ctx.workspaceFolder;
  }
  if (body === 'userHome') {
    if (ctx.userHome === undefined) throw new VariableError(`\${userHome} is not known (in ${where})`);
    return ctx.userHome;
  }
  if (body.startsWith('env:')) {
    const name = body.slice(4);
    if (!NAME.test(name)) throw new VariableError(`\${${body}} is not a valid environment variable reference (in ${where})`);
    return fromEnv(name);
  }
  if (body.startsWith('input:')) {
    const id = body.slice(6);
    const value = ctx.inputs?.get(id);
    if (value === undefined) {
      const described = ctx.inputDescriptions?.get(id);
      throw new VariableError(
        `needs input "${id}"${described ? ` (${described})` : ''} for ${where}: inputs are prompted for by VS Code and cannot be answered here; pass it with --input ${id}=VALUE`,
      );
    }
    if (value !== '') secrets.add(value);
    return value;
  }
  const withDefault = /^([A-Za-z_][A-Za-z0-9_]*):-(.*)$/s.exec(body);
  if (withDefault) return fromEnv(withDefault[1]!, withDefault[2]!);
  if (NAME.test(body)) return fromEnv(body);
  throw new VariableError(`unsupported variable \${${body}} in ${where} (supported: \${NAME}, \${env:NAME}, \${NAME:-default}, \${workspaceFolder}, \${userHome}, \${input:id})`);
}

/** Expand every reference in a string value. */
export function expand(value: string, ctx: ExpandContext, secrets: Set<string>, where: string): string {
  let out = value.replace(/\$\{([^}]*)\}/g, (_m, body: string) => resolveReference(body, ctx, secrets, where));
  if (ctx.opencode) {
    out = out.replace(/\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (m: string, name: string) => resolveReference(`env:${name}`, ctx, secrets, where, m));
  }
  return out;
}

/**
 * Shorter values are not searched for: redacting "1" or "true" everywhere would garble
 * unrelated text, and a value that short cannot hold a meaningful secret.
 */
export const MIN_SECRET_LENGTH = 6;

const hex4 = (c: string, upper: boolean) => {
  const h = c.charCodeAt(0).toString(16).padStart(4, '0');
  return `\\u${upper ? h.toUpperCase() : h}`;
};

/**
 * The ways a server may write a value back: as it is, inside a JSON string (a quote or a
 * backslash escaped, `"ab\"cd"`), with every non-ASCII character as \uXXXX (Python's
 * ensure_ascii, lower-case hex; upper case too), with `<`, `>`, `&` as \u003c… (Go) or `/` as
 * `\/` (PHP), and JSON-encoded twice (a JSON document logged inside a JSON string).
 */
function encodedForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const forms = new Set([value, json, JSON.stringify(json).slice(1, -1)]);
  for (const upper of [false, true]) {
    const ascii = json.replace(/[^\0-\x7f]/g, (c) => hex4(c, upper));
    forms.add(ascii);
    forms.add(ascii.replace(/\//g, '\\/'));
    forms.add(json.replace(/[<>&\u2028\u2029]/g, (c) => hex4(c, upper)));
  }
  forms.add(json.replace(/\//g, '\\/'));
  return [...forms];
}

/**
 * Each form, also as messages show what a server said once it is escaped for a line of
 * output (excerpt, oneLine: a quote as \", a line break as \n, a tab as a space, an
 * invisible character as \u{…}): a message redacted after it was built still hides it.
 */
function displayedForms(form: string): string[] {
  const line = oneLine(form);
  return [form, form.replace(/"/g, '\\"'), line, line.replace(/"/g, '\\"')];
}

/**
 * The strings to hide for a set of secret values: each value, and each long word of it
 * ("Bearer <token>"), in every form a server may echo it in (see encodedForms) and every
 * form a message may show that in (see displayedForms); and for each, the pattern that also
 * finds it in mixed or partial escapes (see secretGroups).
 */
export function secretNeedles(secrets: Iterable<string>): Needles {
  const values = new Set<string>();
  for (const s of secrets) {
    if (s.length >= MIN_SECRET_LENGTH) values.add(s);
    for (const part of s.split(/[\s,;]+/)) if (part.length >= 8) values.add(part);
  }
  const needles = new Set<string>();
  const steps: SecretStep[] = [];
  // Each value with its needles and its pattern; redact searches all of them in the text as it is
  // and hides every character any matched, so a word of a value ("correcthorse" of "hunter2
  // correcthorse", echoed as "hunter2+correcthorse") never keeps the whole value's pattern from
  // matching ("hunter2+***").
  // A pattern V8 cannot compile is left out (the needles still hide the value's usual forms):
  // making the pattern must never stop the run, and its error would quote the secret.
  for (const v of [...values].sort(longestFirst)) {
    const own = new Set<string>();
    for (const form of encodedForms(v)) for (const shown of displayedForms(form)) own.add(shown);
    for (const n of own) needles.add(n);
    const step: SecretStep = { needles: [...own].sort(longestFirst) };
    try {
      const groups = secretGroups(v);
      const source = groups.map((forms) => `(?:${forms.map(reEscape).join('|')})`).join('');
      const global = new RegExp(source, 'g');
      // V8 compiles a pattern when it first runs: run it once here, where its error is caught.
      global.test('');
      global.lastIndex = 0;
      step.pattern = patternOf(groups, global);
    } catch {
      // too large to compile
    }
    steps.push(step);
  }
  const sorted: Needles = [...needles].sort(longestFirst);
  sorted.steps = steps;
  return sorted;
}

const longestFirst = (a: string, b: string) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0);

/** The needles of secretNeedles (all of them, longest first), with each value's own needles and pattern (what redact searches for), longest value first. */
export type Needles = string[] & { steps?: SecretStep[] };

interface SecretStep {
  needles: string[];
  pattern?: SecretPattern;
}

/**
 * The longest value whose letters and digits are matched in their escaped forms too: past it,
 * one group of alternatives per character makes a pattern V8 cannot compile (about 6,000
 * characters). A longer value (a cookie jar, a
 * certificate) is matched with its letters and digits as they are, its other characters in any
 * escape.
 */
export const ESCAPED_LETTERS_MAX = 1024;

const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const hexCases = (h: string) => [h.toLowerCase(), h.toUpperCase()];

/**
 * The groups of a secret's regular expression (one a character, each the forms it may take, as
 * alternatives): each character as it is or in any escape a server may
 * echo it in, independently of the others (encoders escape some characters and not others:
 * .NET writes `+` as \u002B but leaves `/` alone, Python quote() leaves `/` alone): a JSON
 * \uXXXX escape in either case (a character outside the BMP as its pair, `\uD83D\uDE00`), `\/`,
 * `\"`, `\\`, \n…; the same
 * JSON-encoded once more (a JSON document logged inside a JSON string, PHP's `\\\/`); or
 * percent-encoded (each UTF-8 byte, hex in either case, a space as `+`). Letters and digits
 * have these forms as well (`a`, `\u0061`, `\\u0061`, `%61`) in a value up to ESCAPED_LETTERS_MAX
 * long: their first two characters tell them apart, so at most one of them matches at a place.
 */
function secretGroups(value: string): string[][] {
  const letters = value.length <= ESCAPED_LETTERS_MAX;
  const cache = new Map<string, string[]>();
  return [...value].map((c) => {
    let forms = cache.get(c);
    if (!forms) cache.set(c, (forms = charForms(c, letters)));
    return forms;
  });
}

/** The forms of one character of a secret (see secretGroups), longest first, as the pattern tries them. */
function charForms(c: string, letters: boolean): string[] {
  // Letters and digits too (a server may escape every character of a string: \u0061…), up to ESCAPED_LETTERS_MAX.
  if (!letters && /[A-Za-z0-9]/.test(c)) return [c];
  const once = new Set<string>([c, JSON.stringify(c).slice(1, -1)]);
  if (c === '/') once.add('\\/');
  const units = [...Array(c.length).keys()].map((i) => hexCases(c.charCodeAt(i).toString(16).padStart(4, '0')));
  if (units.length === 1) for (const h of units[0]!) once.add(`\\u${h}`);
  // A character outside the BMP is escaped as its surrogate pair (each half in either case);
  // each half alone is not the character (the pair was missing: ".NET" echoes stayed visible).
  else for (const hi of units[0]!) for (const lo of units[1]!) once.add(`\\u${hi}\\u${lo}`);
  const forms = new Set(once);
  for (const f of once) {
    const twice = JSON.stringify(f).slice(1, -1);
    forms.add(twice);
    forms.add(twice.replace(/\//g, '\\/'));
  }
  const percent = encodeURIComponent(c) === c ? [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('') : encodeURIComponent(c);
  forms.add(percent.toUpperCase()).add(percent.toLowerCase());
  if (c === ' ') forms.add('+');
  for (const f of [...forms]) forms.add(oneLine(f));
  // As a message shows what a server said (see displayedForms): each quote escaped once more.
  for (const f of [...forms]) forms.add(f.replace(/"/g, '\\"'));
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * A secret's pattern (its groups of forms, one a character) as regular expressions, and what finds,
 * in one pass over a text, the places where it matches whatever the text (see matchStarts).
 *
 * The global regular expression is what hides a secret on ordinary text (V8 skips most places at
 * their first character), but V8 tries it at every place, backtracking: on a hostile text its time
 * grows with the text's length times the secret's (1,000 "x" and a "y" in 1 MB of "x": about 15
 * minutes), or exponentially when a character has a form that starts another of its forms and the
 * rest can go on (`\` as `\`, `\\` or `\\\\`: 40 "\" and a "Q" in 300 characters took 16 s). So it
 * is used only when it cannot take long: `deterministic` (at most one form of a group can lead on,
 * so each place costs at most the groups it matches), and few places where the first LEAD groups
 * match (counted with `lead`; see replacePattern). Otherwise the linear pass is used.
 */
interface SecretPattern {
  global: RegExp;
  /** The same, sticky: tried where the linear pass found a match (made when first needed). */
  sticky?: RegExp;
  /** The first LEAD groups, global (made when first needed). */
  lead?: RegExp;
  source: string[];
  deterministic: boolean;
  groups: string[][];
  /** Groups (characters of the secret). */
  size: number;
  /** 32-bit words of a set of groups (size + 1 bits: the end too). */
  words: number;
  trie: TrieNode;
  /** The longest form. */
  longest: number;
  /** For each distinct character (by its id in the trie's ends), the groups that are it: pairs of (word, bits), only the words that are not 0. */
  masks: Uint32Array[];
  /** The same as BigInt bits, and each distinct character's forms (for redactWindow). */
  bigMasks: bigint[];
  formsOf: string[][];
  /** The most characters a match can take. */
  widest: number;
}

interface TrieNode {
  next: Map<string, TrieNode>;
  /** Ids of the distinct characters a form ending here stands for. */
  ends: number[];
}

const LEAD = 12;

function patternOf(groups: string[][], global: RegExp): SecretPattern {
  const ids = new Map<string[], number>();
  const bigMasks: bigint[] = [];
  const formsOf: string[][] = [];
  const trie: TrieNode = { next: new Map(), ends: [] };
  let longest = 0;
  let widest = 0;
  groups.forEach((forms, k) => {
    let id = ids.get(forms);
    if (id === undefined) {
      ids.set(forms, (id = bigMasks.length));
      bigMasks.push(0n);
      formsOf.push(forms);
      for (const f of forms) {
        let node = trie;
        for (let i = 0; i < f.length; i++) {
          const ch = f[i]!;
          let n = node.next.get(ch);
          if (!n) node.next.set(ch, (n = { next: new Map(), ends: [] }));
          node = n;
        }
        if (!node.ends.includes(id)) node.ends.push(id);
        longest = Math.max(longest, f.length);
      }
    }
    bigMasks[id]! |= 1n << BigInt(k);
    widest += forms[0]!.length;
  });
  const words = (groups.length >>> 5) + 1;
  const masks = bigMasks.map((m) => {
    const pairs: number[] = [];
    for (let w = 0; m > 0n; w++, m >>= 32n) if (m & 0xffffffffn) pairs.push(w, Number(m & 0xffffffffn));
    return Uint32Array.from(pairs);
  });
  return {
    global,
    source: groups.map((forms) => `(?:${forms.map(reEscape).join('|')})`),
    deterministic: isDeterministic(groups),
    groups,
    size: groups.length,
    words,
    trie,
    longest,
    masks,
    bigMasks,
    formsOf,
    widest,
  };
}

/**
 * Whether the global regular expression reads each group at most once from a place: when two
 * forms of a group match at a place (one starts the other), the shorter leaves the rest of the
 * longer for the next group, and that must start none of the next group's forms. (The last group
 * ends the match whatever form matched.)
 */
function isDeterministic(groups: string[][]): boolean {
  const checked = new Set<string[]>();
  for (let k = 0; k + 1 < groups.length; k++) {
    const forms = groups[k]!;
    const next = groups[k + 1]!;
    if (checked.has(forms) && next === forms) continue;
    const firsts = new Set(next.map((f) => f[0]));
    for (const f of forms) for (const g of forms) if (g.length > f.length && g.startsWith(f) && firsts.has(g[f.length])) return false;
    if (next === forms) checked.add(forms);
  }
  return true;
}

/**
 * The places of a text where a secret's pattern matches (some choice of forms, one a group, spells
 * it from there), in order: from the end of the text to its start, the groups k such that groups
 * k… match at a place are a set of bits (32 a word; the bit past the last group is the end, set at
 * every place), made from the sets a form further on (one step of the trie per character of the
 * longest form). Time in the text's length times the longest form, and, where a form matches, the
 * times its character occurs in the secret / 32.
 */
function matchStarts(text: string, p: SecretPattern): number[] {
  const n = text.length;
  const W = p.words;
  const R = p.longest + 1;
  const ring = new Uint32Array(R * W);
  const endWord = p.size >>> 5;
  const endBit = (1 << (p.size & 31)) >>> 0;
  for (let r = 0; r < R; r++) ring[r * W + endWord] = endBit;
  const starts: number[] = [];
  for (let i = n - 1; i >= 0; i--) {
    // Place i's row is the one of place i + R, which no form from here reaches.
    const row = (i % R) * W;
    ring.fill(0, row, row + W);
    ring[row + endWord] = endBit;
    let node: TrieNode | undefined = p.trie;
    for (let j = i; j < n && j - i < p.longest; j++) {
      node = node.next.get(text[j]!);
      if (!node) break;
      if (node.ends.length === 0) continue;
      const after = ((j + 1) % R) * W;
      for (const id of node.ends) {
        const m = p.masks[id]!;
        for (let t = 0; t < m.length; t += 2) {
          const w = m[t]!;
          const shifted = (ring[after + w]! >>> 1) | (w + 1 < W ? ring[after + w + 1]! << 31 : 0);
          ring[row + w]! |= m[t + 1]! & shifted;
        }
      }
    }
    if (ring[row]! & 1) starts.push(i);
  }
  return starts.reverse();
}

/**
 * The places [start, end) where a secret's pattern matches (plus `offset`), pushed in pairs: the leftmost match,
 * the longest there, then the next from where it ends. For a deterministic pattern the match at a
 * place is the only one, which is what the global pattern finds: that pattern itself is used when
 * it is sure to be quick (the places where the first LEAD groups match, times the secret's length,
 * within a budget of the text's length: V8's time is then at most the text times LEAD, plus those
 * places times the secret). Else the linear pass (matchStarts), then the sticky pattern
 * (deterministic) or longestEnd where a match starts.
 */
function patternSpans(text: string, p: SecretPattern, offset: number, spans: number[]): void {
  if (!masking.linearOnly && p.deterministic && fewLongStarts(text, p)) {
    const g = p.global;
    g.lastIndex = 0;
    for (let m = g.exec(text); m !== null; m = g.exec(text)) spans.push(offset + m.index, offset + m.index + m[0].length);
    return;
  }
  const starts = matchStarts(text, p);
  if (starts.length === 0) return;
  let last = 0;
  const sticky = (p.sticky ??= new RegExp(p.global.source, 'y'));
  for (const at of starts) {
    if (at < last) continue;
    let end: number;
    if (p.deterministic) {
      sticky.lastIndex = at;
      const m = sticky.exec(text);
      if (!m) continue;
      end = at + m[0].length;
    } else {
      end = longestEnd(text, at, p);
      if (end < 0) continue;
    }
    spans.push(offset + at, offset + end);
    last = end;
  }
}

/** The places [start, end) of a needle in a text (plus `offset`), pushed in pairs: each occurrence, the next from where one ends. */
function needleSpans(text: string, needle: string, offset: number, spans: number[]): void {
  if (needle.length === 0) return;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) spans.push(offset + i, offset + i + needle.length);
}

/** For tests: always use the linear pass, never the global pattern alone. */
export const masking = { linearOnly: false };

/**
 * Where the longest match at a place ends (-1: none there), without backtracking (which can take
 * exponential time on a pattern that is not deterministic). From the place on, the sets of groups
 * k such that the text from the place to here is groups … k-1 (32 a word, bit k), each made from
 * the sets before it by one step of the trie per character of the longest form. The longest, not
 * the one V8 would choose: when a group's longer form can lead on, V8 takes it even where the
 * shorter one makes a longer match (`\` then `u` in "\\u0075" ends before "0075", which is the
 * secret's `u` escaped). A match that stops short leaves the rest of the secret visible.
 */
function longestEnd(text: string, at: number, p: SecretPattern): number {
  const to = Math.min(text.length, at + p.widest);
  const W = p.words;
  const sets = new Uint32Array((to - at + 1) * W);
  const endWord = p.size >>> 5;
  const endBit = (1 << (p.size & 31)) >>> 0;
  sets[0] = 1;
  let end = -1;
  for (let i = at; i <= to; i++) {
    const row = (i - at) * W;
    if (sets[row + endWord]! & endBit) end = i;
    let any = 0;
    for (let w = 0; w < W; w++) any |= sets[row + w]!;
    if (any === 0) continue;
    let node: TrieNode | undefined = p.trie;
    for (let j = i; j < to && j - i < p.longest; j++) {
      node = node.next.get(text[j]!);
      if (!node) break;
      const after = (j + 1 - at) * W;
      for (const id of node.ends) {
        const m = p.masks[id]!;
        for (let t = 0; t < m.length; t += 2) {
          // Groups k of this character reached here lead to group k + 1 after the form.
          const w = m[t]!;
          const reached = sets[row + w]! & m[t + 1]!;
          if (reached === 0) continue;
          sets[after + w]! |= reached << 1;
          if (reached >>> 31 && w + 1 < W) sets[after + w + 1]! |= 1;
        }
      }
    }
  }
  return end;
}

function fewLongStarts(text: string, p: SecretPattern): boolean {
  if (p.size <= LEAD) return true;
  const lead = (p.lead ??= new RegExp(p.source.slice(0, LEAD).join(''), 'g'));
  const budget = 4 * text.length + 65_536;
  let cost = 0;
  lead.lastIndex = 0;
  for (let m = lead.exec(text); m !== null; m = lead.exec(text)) {
    cost += p.size;
    if (cost > budget) return false;
    lead.lastIndex = m.index + 1;
  }
  return true;
}

export const REDACTED = '***';

/**
 * Replace every occurrence of a secret in a text. Every value's needles and pattern are searched
 * in the text as it is, and every character any of them matched is hidden: masking one match
 * before searching the next could hide the end of a longer match and leave its start visible (a
 * needle "1aaaaaa" inside "\u0031aaaaaa" showed "\u003***"; a secret "xyzabc" written before a
 * second secret "abcdefgh" showed "xyz***").
 *
 * Longest value first, its needles (indexOf) before its pattern; each search after the first
 * only where it can show something: around what is not hidden yet (see windowsAround). A cookie
 * jar echoed a thousand times is then searched for its pattern and for each of its cookies only
 * around the jar's copies, not through the whole text each time.
 */
export function redact(text: string, needles: readonly string[]): string {
  return hideRuns(text, hiddenRuns(text, needles));
}

/** What redact hides: runs of places, sorted [start, end) pairs (exported for tests). */
export function hiddenRuns(text: string, needles: readonly string[]): number[] {
  const steps = (needles as Needles).steps;
  let runs: number[] = [];
  const add = (found: number[]) => {
    if (found.length > 0) runs = mergeRuns(runs, found);
  };
  if (!steps) {
    const found: number[] = [];
    for (const n of needles) needleSpans(text, n, 0, found);
    add(found);
    return runs;
  }
  const found: number[] = [];
  for (const step of steps) {
    const widest = Math.max(step.pattern?.widest ?? 0, step.needles[0]?.length ?? 0);
    // Nothing hidden yet (the common case: most texts hold no secret) is the whole text, with no windows made.
    if (runs.length === 0) for (const n of step.needles) needleSpans(text, n, 0, found);
    else {
      for (const [from, to] of windowsAround(runs, widest, text.length)) {
        const part = text.slice(from, to);
        for (const n of step.needles) needleSpans(part, n, from, found);
      }
    }
    add(found);
    found.length = 0;
    const pattern = step.pattern;
    if (!pattern) continue;
    if (runs.length === 0) patternSpans(text, pattern, 0, found);
    else for (const [from, to] of windowsAround(runs, widest, text.length)) patternSpans(text.slice(from, to), pattern, from, found);
    add(found);
    found.length = 0;
  }
  return runs;
}

/**
 * The parts of a text to search for a value whose matches are at most `widest` long, given the
 * runs already hidden: all of it when nothing is, else around each gap between runs. A match not
 * inside one run holds a character of a gap (or crosses where two runs touch), so it lies within
 * `widest` of that gap; one inside a run would show nothing. Windows that overlap are merged, so
 * no part of the text is searched twice.
 */
function windowsAround(runs: readonly number[], widest: number, length: number): [number, number][] {
  const windows: [number, number][] = [];
  let from = 0;
  for (let k = 0; k < runs.length; k += 2) {
    const to = Math.min(length, runs[k]! + widest);
    const last = windows[windows.length - 1];
    if (last && from <= last[1]) last[1] = to;
    else if (to > from) windows.push([from, to]);
    from = Math.max(0, runs[k + 1]! - widest);
  }
  const last = windows[windows.length - 1];
  if (last && from <= last[1]) last[1] = length;
  else if (length > from) windows.push([from, length]);
  return windows;
}

/**
 * Runs (sorted [start, end) pairs) with more places added: places that overlap a run or each other
 * join it; places that only touch stay apart (two secrets side by side show as two).
 */
function mergeRuns(runs: readonly number[], found: readonly number[]): number[] {
  const order = Array.from({ length: found.length / 2 }, (_, k) => 2 * k).sort((x, y) => found[x]! - found[y]!);
  const out: number[] = [];
  const push = (start: number, end: number) => {
    if (out.length > 0 && start < out[out.length - 1]!) out[out.length - 1] = Math.max(out[out.length - 1]!, end);
    else out.push(start, end);
  };
  let i = 0;
  for (const k of order) {
    for (; i < runs.length && runs[i]! <= found[k]!; i += 2) push(runs[i]!, runs[i + 1]!);
    push(found[k]!, found[k + 1]!);
  }
  for (; i < runs.length; i += 2) push(runs[i]!, runs[i + 1]!);
  return out;
}

/** A text with each run hidden as one REDACTED. */
function hideRuns(text: string, runs: readonly number[]): string {
  if (runs.length === 0) return text;
  let out = '';
  let last = 0;
  for (let k = 0; k < runs.length; k += 2) {
    out += text.slice(last, runs[k]) + REDACTED;
    last = runs[k + 1]!;
  }
  return out + text.slice(last);
}

/**
 * How far a text starts with the end of a match of a pattern (cut anywhere, inside a form too),
 * or 0: the longest such start. Sets of groups as in matchStarts, from the start of the text: the
 * groups k such that the text so far is the end of groups … k-1.
 */
function cutMatchAtStart(text: string, p: SecretPattern): number {
  const n = Math.min(text.length, p.widest);
  const all = (1n << BigInt(p.size)) - 1n;
  const done = 1n << BigInt(p.size);
  const sets: bigint[] = [all];
  let best = 0;
  // Past the longest form, a place can only continue a set of the last `longest` places.
  let lastSet = 0;
  for (let j = 1; j <= n && j - lastSet <= p.longest; j++) {
    const head = j < p.longest ? text.slice(0, j) : '';
    let s = 0n;
    p.formsOf.forEach((forms, id) => {
      for (const f of forms) {
        if (f.length <= j) {
          if (text.startsWith(f, j - f.length)) s |= (sets[j - f.length]! & p.bigMasks[id]!) << 1n;
        } else if (f.endsWith(head)) s |= p.bigMasks[id]! << 1n;
      }
    });
    sets.push(s);
    if (s !== 0n) lastSet = j;
    if (s & done) best = j;
  }
  return best;
}

/** How far a text ends with the start of a match of a pattern (cut anywhere), or 0: the longest such end. */
function cutMatchAtEnd(text: string, p: SecretPattern): number {
  const len = text.length;
  const from = Math.max(0, len - p.widest);
  const sets = new Map<number, bigint>([[len, (1n << BigInt(p.size)) - 1n]]);
  let best = 0;
  let lastSet = len;
  for (let j = len - 1; j >= from && lastSet - j <= p.longest; j--) {
    const tail = len - j < p.longest ? text.slice(j) : '';
    let s = 0n;
    p.formsOf.forEach((forms, id) => {
      for (const f of forms) {
        if (j + f.length <= len) {
          if (text.startsWith(f, j)) s |= (sets.get(j + f.length)! >> 1n) & p.bigMasks[id]!;
        } else if (f.startsWith(tail)) s |= p.bigMasks[id]!;
      }
    });
    sets.set(j, s);
    if (s !== 0n) lastSet = j;
    if (s & 1n) best = len - j;
  }
  return best;
}

/**
 * Redact a window cut from a longer text (`cutStart`: text came before it; `cutEnd`: text
 * came after it). Besides whole secrets, a secret the cut split in two is hidden too: the
 * longest end of a secret that the window starts with, and the longest start of one it ends
 * with, in any form a pattern matches (a percent-encoded secret cut after its first word too).
 */
export function redactWindow(text: string, needles: readonly string[], cut: { start?: boolean; end?: boolean }): string {
  let out = redact(text, needles);
  const patterns = ((needles as Needles).steps ?? []).flatMap((s) => (s.pattern ? [s.pattern] : []));
  if (cut.start) {
    let k = 0;
    for (const n of needles) for (let i = Math.min(n.length - 1, out.length); i > k; i--) if (out.startsWith(n.slice(n.length - i))) k = i;
    for (const p of patterns) k = Math.max(k, cutMatchAtStart(out, p));
    if (k > 0) out = REDACTED + out.slice(k);
  }
  if (cut.end) {
    let k = 0;
    for (const n of needles) for (let i = Math.min(n.length - 1, out.length); i > k; i--) if (out.endsWith(n.slice(0, i))) k = i;
    for (const p of patterns) k = Math.max(k, cutMatchAtEnd(out, p));
    if (k > 0) out = out.slice(0, out.length - k) + REDACTED;
  }
  return out;
}

/** Redact every string (keys included) of a JSON value. */
/**
 * Redact the texts of each live server's findings with that server's secrets (its needles: see
 * ServerInput.secretNeedles), in place. What a server sent was redacted before linting, but a
 * rule's own work can put a secret back together: a hidden-characters fix that removes the
 * zero-width space a server put inside one, a message that decodes what tag characters spell.
 * Only the server's own findings: another server's, or a file's, hold nothing it sent (a fix for
 * a file must never be changed by a value given to a server).
 */
export function redactFindings(findings: Finding[], needlesOf: ReadonlyMap<string, readonly string[]>): void {
  for (const f of findings) {
    const needles = needlesOf.get(f.serverId);
    if (!needles) continue;
    const clean = (text: string) => redact(text, needles);
    f.message = clean(f.message);
    if (f.suggestion !== undefined) f.suggestion = clean(f.suggestion);
    if (f.detail !== undefined) f.detail = clean(f.detail);
    if (f.related) for (const r of f.related) r.message = clean(r.message);
    if (f.fix) {
      f.fix.description = clean(f.fix.description);
      for (const r of f.fix.replacements) r.text = clean(r.text);
      if (f.fix.regions) for (const r of f.fix.regions) r.text = clean(r.text);
    }
  }
}

export function redactJson(value: unknown, needles: readonly string[]): unknown {
  if (needles.length === 0) return value;
  // Without recursion (a server's tools may nest 100,000 levels deep); each container is
  // copied empty first and filled when its turn comes.
  const stack: [from: unknown[] | Record<string, unknown>, to: unknown[] | Record<string, unknown>][] = [];
  const copy = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v, needles);
    if (v === null || typeof v !== 'object') return v;
    const to = Array.isArray(v) ? new Array<unknown>(v.length) : {};
    stack.push([v as unknown[] | Record<string, unknown>, to]);
    return to;
  };
  const out = copy(value);
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) from.forEach((v, i) => ((to as unknown[])[i] = copy(v)));
    // Defined, not assigned: a "__proto__" key stays a key.
    else for (const [k, v] of Object.entries(from)) Object.defineProperty(to, redact(k, needles), { value: copy(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
