/** Small text helpers shared by rules and reporters. */
import { writeJson } from './json.js';
import { deferringNumbers, numberPlaceholder, quotePlaceholder, spellRead } from './written.js';

/** The typeof of the values JSON can hold (null aside); others (undefined, a bigint) are quoted with String(). */
const JSON_TYPES = new Set(['string', 'number', 'boolean', 'object']);

/**
 * A value from a server, quoted for a message: JSON-encoded (so control characters are
 * escaped) and shortened when long.
 */
export function quote(value: unknown, max = 60): string {
  // A string (most quoted values: names, enum values, words) is what writeJson below would
  // write, without its frames and closures: JSON-encoded, no more of it than is shown.
  if (typeof value === 'string') return shorten(JSON.stringify(value.length > max ? value.slice(0, Math.max(0, max) + 1) : value), max);
  // A number is quoted as the input wrote it (src/util/written.ts): while the engine runs the
  // rules, as a placeholder it resolves from the source text once findings are located; else
  // as read, saying so when that cannot be what was written (1e999 parses as Infinity).
  if (typeof value === 'number') return deferringNumbers() ? quotePlaceholder(numberPlaceholder(value), max) : shorten(spellRead(value), max);
  // Only as much of the value as is shown: no stringify of a whole 100 MB value, nor a
  // recursive one of a value nested 100,000 levels deep.
  const json = value === null || JSON_TYPES.has(typeof value);
  if (!json) return shorten(String(value), max);
  if (typeof value === 'object' && value !== null && deferringNumbers()) {
    // The numbers in it as placeholders, when it has any in the part shown.
    let numbers = false;
    const text = writeJson(value, {
      indent: '',
      undefinedAs: 'omit',
      maxLength: max,
      number: (v) => {
        numbers = true;
        return numberPlaceholder(v, true);
      },
    });
    return numbers ? quotePlaceholder(text, max) : shorten(text, max);
  }
  return shorten(writeJson(value, { indent: '', undefinedAs: 'omit', maxLength: max }), max);
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** At most the first n UTF-16 units of text, without splitting a surrogate pair (an emoji). */
export function head(text: string, n: number): string {
  return text.slice(0, n > 0 && n < text.length && isHighSurrogate(text.charCodeAt(n - 1)) ? n - 1 : n);
}

/** At most the last n UTF-16 units of text, without splitting a surrogate pair. */
export function tail(text: string, n: number): string {
  if (n <= 0) return '';
  const start = text.length - n;
  return start <= 0 ? text : text.slice(isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start);
}

/** Text of at most max UTF-16 units: when longer, its start and "…", never half an emoji. */
export function shorten(text: string, max: number): string {
  return text.length <= max ? text : head(text, max - 1) + '…';
}

/** Room for any tool name MCP allows (128 characters) in quotes: quote(name, QUOTED_NAME_MAX). */
export const QUOTED_NAME_MAX = 130;

/** "a", "a or b", "a, b or c" with each item quoted. */
export function orList(values: readonly unknown[], conj = 'or'): string {
  const items = values.map((v) => (typeof v === 'string' ? JSON.stringify(v) : quote(v)));
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conj} ${items[items.length - 1]}`;
}

/** Phrases joined as "a", "a and b", "a, b and c" (no quoting). */
export function joinWords(parts: readonly string[], conj = 'and'): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} ${conj} ${parts[parts.length - 1]}`;
}

/**
 * The first phrases of a list of `total`, joined as joinWords does; when the list is longer,
 * followed by how many more: "a, b, c and 12 more". (Callers pass only the phrases they show.)
 */
export function someWords(first: readonly string[], total: number): string {
  return total <= first.length ? joinWords(first) : `${first.join(', ')} and ${thousands(total - first.length)} more`;
}

export function plural(n: number, singular: string, pluralForm = singular + 's'): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}

/**
 * Edit distance counting an adjacent swap as one edit (optimal string alignment:
 * "GDRP" is one edit from "GDPR"), bounded: returns max+1 as soon as it is exceeded.
 */
export function distance(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        v = Math.min(v, prev2[j - 2]! + 1);
      }
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** Lower case without "-", "_" and spaces: the form closest() compares. */
export const normWord = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');

/**
 * English prefixes that negate or reverse a word (untrusted, irreversible, nonpublic,
 * disallow, deactivate). Only prefixes of two letters or more: one letter more or less at
 * the start of a word is as likely a typo as a prefix.
 */
const NEGATIONS = ['non', 'dis', 'un', 'in', 'im', 'il', 'ir', 'de'];

/**
 * True when a and b (already normalised) are different words rather than one a typo of the
 * other: one is the other with a negation prefix ("reversible" / "irreversible"), or they
 * share an ending of four or more letters and differ only before it, in two or more letters
 * each that are not one edit apart ("internal" / "external", "inbound" / "outbound",
 * "import" / "export"). A typo does not rewrite the start of a word while keeping its end.
 */
export function opposites(a: string, b: string): boolean {
  if (a === b) return false;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (long.endsWith(short) && NEGATIONS.includes(long.slice(0, long.length - short.length))) return true;
  let s = 0;
  while (s < short.length && a[a.length - 1 - s] === b[b.length - 1 - s]) s++;
  if (s < 4) return false;
  const pa = a.slice(0, a.length - s);
  const pb = b.slice(0, b.length - s);
  return pa.length >= 2 && pb.length >= 2 && distance(pa, pb, 1) > 1;
}

/**
 * The candidate closest to `input` (case-insensitive, ignoring "-", "_" and spaces first),
 * or undefined when nothing is close enough to be a plausible typo. A candidate of the
 * opposite meaning is never suggested, however close ("external" is not "internal",
 * "reversible" not "irreversible"): see opposites().
 */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const n = normWord(input);
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    if (candidate === input) return candidate;
    const c = normWord(candidate);
    if (c === n) return candidate;
    if (opposites(n, c)) continue;
    // Short words only match up to case and punctuation ("SOC" is not a typo of "SOX").
    const longest = Math.max(candidate.length, input.length);
    const limit = longest <= 3 ? 0 : Math.max(1, Math.min(3, Math.floor(longest / 4)));
    const d = distance(n, c, limit);
    if (d <= limit && d < bestScore) {
      best = candidate;
      bestScore = d;
    }
  }
  return best;
}

/**
 * What a terminal would not show as itself: control characters (C0 but tab and line feed,
 * DEL, C1), line and paragraph separators, interlinear annotation marks, lone surrogates,
 * and every default-ignorable code point (zero-width characters, bidi controls, fillers
 * such as U+3164, tag characters, variation selectors) but the two presentation selectors
 * U+FE0E/U+FE0F, which only pick an emoji's look ("❤️").
 */
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\ufff9-\ufffb\p{Default_Ignorable_Code_Point}\p{Surrogate}]/gu;

/**
 * Text safe for a terminal: control characters, bidi controls, zero-width, filler and tag
 * characters from servers become visible escapes (\u{202E}); nothing can move the cursor,
 * change colours, reorder the line or make two different names look the same.
 */
export function escapeTerminal(text: string): string {
  return text.replace(INVISIBLE, (ch) => {
    const cp = ch.codePointAt(0)!;
    if (cp === 0xfe0e || cp === 0xfe0f) return ch;
    return `\\u{${cp.toString(16).toUpperCase()}}`;
  });
}

/** Like escapeTerminal, but also for line breaks (\n; a lone carriage return is \r) and tabs: one line of output. */
export function oneLine(text: string): string {
  return escapeTerminal(text.replace(/\r?\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, ' '));
}

/**
 * A server or tool name as a line of output shows it: on one line, escaped, and cut past 200
 * characters (MCP allows 128 for a tool name; a server can send megabytes).
 */
export function nameLine(name: string): string {
  return oneLine(shorten(name, 200));
}

/** A count with thousands separators, as the messages write them: 1,000,000. */
export function thousands(n: number): string {
  // Whole numbers without Intl: its first use loads ICU's locale data (~15 ms), and rule pages
  // format their limits when the rules load, on every run.
  if (Number.isSafeInteger(n)) return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
  return n.toLocaleString('en-US');
}
