/**
 * Numbers quoted as the input wrote them, not as JSON.parse read them.
 *
 * JSON.parse reads `1e400` as Infinity, `12345678901234567890123` as 1.2345678901234568e+22 and
 * `0.1000000000000000055511151231257827` as 0.1: a message that quotes the parsed value names a
 * number the document does not have. A rule only has the parsed value, so while the engine runs
 * the rules (deferNumbers) quote() writes a number — or a value with numbers in it — as a
 * placeholder; when the engine has located the findings, it replaces each one (resolveWritten)
 * with the number as written, read from the source text of the values the finding points at
 * (its own pointer, its related locations', its fix's). A literal that says exactly what
 * String(value) says (`1.0`, `1e2`, `100`) changes nothing: the message quotes String(value),
 * as before. Without the text (a live server without its raw response, a number the finding's
 * values do not hold), a number that cannot be what was written says so
 * (spellRead: "a number too large to represent, read as Infinity").
 *
 * Placeholders carry a per-process nonce: a server's own strings, which can hold any
 * private-use character, cannot forge one. Equal values give equal placeholders, so rules that
 * compare messages (the older spec's problems against the newer's) still see equal texts.
 */
import { shorten } from './text.js';

const NONCE = Math.random().toString(36).slice(2, 10).padEnd(8, '0');
/** A number: NUM + its String() ("-0" for -0) + END. */
const NUM = `\uE000${NONCE}`;
const NUM_END = '\uE001';
/** A quote: QUOTE + max + SEP + text with NUMs + QUOTE_END, shortened to max once its numbers are written. */
const QUOTE = `\uE002${NONCE}`;
const SEP = '\uE004';
const QUOTE_END = '\uE003';
const QUOTE_RE = new RegExp(`${QUOTE}(\\d+)${SEP}([^\\uE003]*)${QUOTE_END}`, 'g');
const NUM_RE = new RegExp(`${NUM}([^\\uE001]*)${NUM_END}`, 'g');

let deferring = 0;
let issued = false;

/** Run fn with quote() writing numbers as placeholders (see the module comment); nests. */
export function deferNumbers<T>(fn: () => T): T {
  deferring++;
  try {
    return fn();
  } finally {
    deferring--;
  }
}

/** Whether quote() is writing placeholders now. */
export const deferringNumbers = (): boolean => deferring > 0;

/** Whether any placeholder was written since the process started: none, and nothing has to be resolved. */
export const placeholdersIssued = (): boolean => issued;

/** Whether a text holds a placeholder to resolve. */
export const hasPlaceholder = (text: string | undefined): boolean => text !== undefined && issued && text.includes(QUOTE);

/**
 * A number as a placeholder, inside a quote's text; `inside` a quoted object or array, where
 * spellRead's words would not read as JSON, a number not found as written is String(value).
 */
export function numberPlaceholder(v: number, inside = false): string {
  issued = true;
  return `${NUM}${inside ? '~' : ''}${Object.is(v, -0) ? '-0' : String(v)}${NUM_END}`;
}

/** A quote's text (with number placeholders in it) as a placeholder, to be shortened to max once resolved. */
export function quotePlaceholder(text: string, max: number): string {
  issued = true;
  return `${QUOTE}${Math.max(0, Math.trunc(max))}${SEP}${text}${QUOTE_END}`;
}

/** The numbers whose placeholders a text holds. */
export function placeholderNumbers(text: string): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(NUM_RE)) out.push(Number(m[1]!.replace('~', '')));
  return out;
}

/**
 * The text with each placeholder resolved: each number as `written` gives it (undefined: as
 * spellRead says it), each quote shortened to its max.
 */
export function resolveWritten(text: string, written?: (v: number) => string | undefined): string {
  if (!text.includes(QUOTE)) return text;
  return text.replace(QUOTE_RE, (_, max: string, inner: string) =>
    shorten(
      inner.replace(NUM_RE, (__, repr: string) => {
        const inside = repr.startsWith('~');
        const v = Number(inside ? repr.slice(1) : repr);
        return written?.(v) ?? (inside ? String(v) : spellRead(v));
      }),
      Number(max),
    ),
  );
}

/**
 * A parsed number as a message says it when what was written is not known: String(value) when
 * that can be what was written; else that the number was out of a double's range (±Infinity)
 * or past 2^53, where a double does not hold every integer, and what it was read as.
 */
export function spellRead(v: number): string {
  if (!Number.isFinite(v)) return `a number too large to represent, read as ${String(v)}`;
  if (Number.isInteger(v) && !Number.isSafeInteger(v)) return `a number past 2^53, read as ${String(v)}`;
  return String(v);
}

/** The exact decimal value of a JSON number literal (or of String() of a finite double), as sign, digits and exponent; undefined for no number. */
function decimal(text: string): string | undefined {
  const m = /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  let digits = (m[2]! + frac).replace(/^0+/, '');
  if (digits === '') return '0';
  // An exponent too long for a double's exactness is beyond any double either way: compared as text.
  const expText = m[4] ?? '0';
  let exp = BigInt(expText) - BigInt(frac.length);
  const trimmed = digits.replace(/0+$/, '');
  exp += BigInt(digits.length - trimmed.length);
  digits = trimmed;
  return `${m[1]}${digits}e${exp}`;
}

/**
 * Whether a number literal says exactly the value String(v) says, so that quoting String(v)
 * quotes what was written: `1.0` and `1e2` do (1 and 100), `1e400`, `12345678901234567890123`
 * and `0.1000000000000000055511151231257827` do not. -0 and 0 are the same number here.
 */
export function writtenAsRead(literal: string, v: number): boolean {
  if (!Number.isFinite(v)) return false;
  const a = decimal(literal);
  const b = decimal(String(v));
  return a !== undefined && a === b;
}

/** The most source text resolveWritten reads for one finding: a finding on a whole 100 MB document is not scanned for its numbers. */
export const MAX_SCANNED = 1 << 20;

/**
 * Number literals in text[start, end) (JSON; comments skipped), each given to `found`. Strings are
 * skipped, so digits in names and descriptions are not numbers.
 */
export function numberLiterals(text: string, start: number, end: number, found: (literal: string) => void): void {
  for (let i = start; i < end; ) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // A string: to its closing quote, past escapes.
      i++;
      while (i < end) {
        const d = text.charCodeAt(i);
        if (d === 92) i += 2;
        else if (d === 34) break;
        else i++;
      }
      i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? end : nl + 1;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? end : close + 2;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      let j = i + 1;
      for (; j < end; j++) {
        const d = text.charCodeAt(j);
        if (!((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45)) break;
      }
      found(text.slice(i, j));
      i = j;
    } else i++;
  }
}

/**
 * How each number a finding quotes was written, from the literals of the values it points at:
 * a number whose literals all say what String(value) says is quoted as String(value) (as
 * before); one written one way that does not (`1e400`) is quoted as written; one written two
 * different ways that do not, or one no literal gives, is left to spellRead.
 */
export function writtenFrom(literals: Iterable<string>): (v: number) => string | undefined {
  const byValue = new Map<number, { exact: boolean; other: Set<string> }>();
  for (const literal of literals) {
    const v = Number(literal);
    if (Number.isNaN(v)) continue;
    const key = v === 0 ? 0 : v;
    let e = byValue.get(key);
    if (!e) byValue.set(key, (e = { exact: false, other: new Set() }));
    if (writtenAsRead(literal, v)) e.exact = true;
    else e.other.add(literal);
  }
  return (v) => {
    const e = byValue.get(v === 0 ? 0 : v);
    if (!e) return undefined;
    if (e.other.size === 0) return Number.isFinite(v) ? String(v) : undefined;
    if (e.other.size === 1 && !e.exact) return e.other.values().next().value as string;
    // Written several ways: which one the message meant is not known.
    return e.exact ? String(v) : undefined;
  };
}
