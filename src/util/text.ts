/** Small text helpers shared by rules and reporters. */
import { writeJson } from './json.js';

/** The typeof of the values JSON can hold (null aside); others (undefined, a bigint) are quoted with String(). */
const JSON_TYPES = new Set(['string', 'number', 'boolean', 'object']);

/**
 * A value from a server, quoted for a message: JSON-encoded (so control characters are
 * escaped) and shortened when long.
 */
export function quote(value: unknown, max = 60): string {
  // Only as much of the value as is shown: no stringify of a whole 100 MB value, nor a
  // recursive one of a value nested 100,000 levels deep.
  const json = value === null || JSON_TYPES.has(typeof value);
  let text = json ? writeJson(value, { indent: '', undefinedAs: 'omit', maxLength: max }) : String(value);
  if (text.length > max) text = text.slice(0, max - 1) + '…';
  return text;
}

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

/**
 * The candidate closest to `input` (case-insensitive, ignoring "-", "_" and spaces first),
 * or undefined when nothing is close enough to be a plausible typo.
 */
export function closest(input: string, candidates: Iterable<string>): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');
  const n = norm(input);
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of candidates) {
    if (candidate === input) return candidate;
    if (norm(candidate) === n) return candidate;
    // Short words only match up to case and punctuation ("SOC" is not a typo of "SOX").
    const longest = Math.max(candidate.length, input.length);
    const limit = longest <= 3 ? 0 : Math.max(1, Math.min(3, Math.floor(longest / 4)));
    const d = distance(n, norm(candidate), limit);
    if (d <= limit && d < bestScore) {
      best = candidate;
      bestScore = d;
    }
  }
  return best;
}

const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/**
 * Text safe for a terminal: control characters, bidi controls, zero-width and tag
 * characters from servers become visible escapes (\u{202E}); nothing can move the
 * cursor, change colours or reorder the line.
 */
export function escapeTerminal(text: string): string {
  return text.replace(INVISIBLE, (ch) => {
    if (ch === '\n') return '\\n';
    const cp = ch.codePointAt(0)!;
    return `\\u{${cp.toString(16).toUpperCase()}}`;
  }).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (ch) => `\\u{${ch.charCodeAt(0).toString(16).toUpperCase()}}`);
}

/** Like escapeTerminal, but also for newlines and tabs: one line of output. */
export function oneLine(text: string): string {
  return escapeTerminal(text.replace(/\r\n|\r|\n/g, '\\n').replace(/\t/g, ' '));
}

/** A count with thousands separators, as the messages write them: 1,000,000. */
export function thousands(n: number): string {
  return n.toLocaleString('en-US');
}
