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
 * form a message may show that in (see displayedForms).
 */
export function secretNeedles(secrets: Iterable<string>): Needles {
  const needles = new Set<string>();
  const add = (v: string) => {
    for (const form of encodedForms(v)) for (const shown of displayedForms(form)) needles.add(shown);
  };
  for (const s of secrets) {
    if (s.length >= MIN_SECRET_LENGTH) add(s);
    for (const part of s.split(/[\s,;]+/)) if (part.length >= 8) add(part);
  }
  // Longest first, so a value is hidden whole before any part of it.
  const sorted: Needles = [...needles].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const values = new Set<string>();
  for (const s of secrets) {
    if (s.length >= MIN_SECRET_LENGTH) values.add(s);
    for (const part of s.split(/[\s,;]+/)) if (part.length >= 8) values.add(part);
  }
  // Longest first, as the needles: a value is hidden whole before any part of it. A pattern V8
  // cannot compile is left out (the needles above still hide the value's usual forms): making
  // the pattern must never stop the run, and its error would quote the secret.
  const patterns: RegExp[] = [];
  for (const v of [...values].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))) {
    try {
      const re = new RegExp(secretPattern(v), 'g');
      // V8 compiles a pattern when it first runs: run it once here, where its error is caught.
      re.test('');
      re.lastIndex = 0;
      patterns.push(re);
    } catch {
      // too large to compile
    }
  }
  if (patterns.length > 0) sorted.patterns = patterns;
  return sorted;
}

/** The needles of secretNeedles, with the patterns that also find a secret in mixed or partial escapes (see secretPattern). */
export type Needles = string[] & { patterns?: RegExp[] };

/**
 * The longest value whose letters and digits are matched in their escaped forms too: past it,
 * one group of alternatives per character makes a pattern V8 cannot compile (about 6,000
 * characters), and slow on long runs of one character. A longer value (a cookie jar, a
 * certificate) is matched with its letters and digits as they are, its other characters in any
 * escape.
 */
export const ESCAPED_LETTERS_MAX = 1024;

const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const hexCases = (h: string) => [h.toLowerCase(), h.toUpperCase()];

/**
 * A regular expression for a secret, each character as it is or in any escape a server may
 * echo it in, independently of the others (encoders escape some characters and not others:
 * .NET writes `+` as \u002B but leaves `/` alone, Python quote() leaves `/` alone): a JSON
 * \uXXXX escape in either case (every UTF-16 unit), `\/`, `\"`, `\\`, \n…; the same
 * JSON-encoded once more (a JSON document logged inside a JSON string, PHP's `\\\/`); or
 * percent-encoded (each UTF-8 byte, hex in either case, a space as `+`). Letters and digits
 * have these forms as well (`a`, `\u0061`, `\\u0061`, `%61`) in a value up to ESCAPED_LETTERS_MAX
 * long: their first two characters tell them apart, so at most one of them matches at a place.
 */
function secretPattern(value: string): string {
  const letters = value.length <= ESCAPED_LETTERS_MAX;
  return [...value]
    .map((c) => {
      // Letters and digits too (a server may escape every character of a string: \u0061…), up to ESCAPED_LETTERS_MAX.
      if (!letters && /[A-Za-z0-9]/.test(c)) return c;
      const once = new Set<string>([c, JSON.stringify(c).slice(1, -1)]);
      if (c === '/') once.add('\\/');
      for (let i = 0; i < c.length; i++) for (const h of hexCases(c.charCodeAt(i).toString(16).padStart(4, '0'))) once.add(`\\u${h}`);
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
      return `(?:${[...forms].sort((a, b) => b.length - a.length).map(reEscape).join('|')})`;
    })
    .join('');
}

export const REDACTED = '***';

/** Replace every occurrence of a secret in a text. */
export function redact(text: string, needles: readonly string[]): string {
  let out = text;
  for (const n of needles) if (out.includes(n)) out = out.split(n).join(REDACTED);
  for (const pattern of (needles as Needles).patterns ?? []) out = out.replace(pattern, REDACTED);
  return out;
}

/**
 * Redact a window cut from a longer text (`cutStart`: text came before it; `cutEnd`: text
 * came after it). Besides whole secrets, a secret the cut split in two is hidden too: the
 * longest end of a secret that the window starts with, and the longest start of one it ends
 * with.
 */
export function redactWindow(text: string, needles: readonly string[], cut: { start?: boolean; end?: boolean }): string {
  let out = redact(text, needles);
  if (cut.start) {
    let k = 0;
    for (const n of needles) for (let i = Math.min(n.length - 1, out.length); i > k; i--) if (out.startsWith(n.slice(n.length - i))) k = i;
    if (k > 0) out = REDACTED + out.slice(k);
  }
  if (cut.end) {
    let k = 0;
    for (const n of needles) for (let i = Math.min(n.length - 1, out.length); i > k; i--) if (out.endsWith(n.slice(0, i))) k = i;
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
