/**
 * Live targets: servers to start (stdio) or reach (Streamable HTTP, SSE), resolved from
 * command-line flags or client config files. Resolving never starts anything and never
 * loads the MCP SDK.
 */
import { parse as parseShell, quote as quoteShell } from 'shell-quote';
import type { InputError, Locator } from '../../types.js';
import { expand, REDACTED, resolveReference, VariableError, type ExpandContext } from './vars.js';
import type { LiveFlags } from './flags.js';

export { hasLiveFlags, type LiveFlags } from './flags.js';

export type TransportChoice = 'auto' | 'http' | 'sse';

export interface StdioSpec {
  command: string;
  args: string[];
  /** Only what the target sets; the runner adds the SDK's safe default environment (PATH, HOME, …). */
  env: Record<string, string>;
  cwd: string;
}

export interface HttpSpec {
  url: string;
  headers: Record<string, string>;
  transport: TransportChoice;
}

/** Where a config target's entry sits in its file. */
export interface ConfigEntryLocation {
  /** Absolute path of the config file. */
  file: string;
  /** The file as outputs show it (relative to the working directory when inside it). */
  display: string;
  /** JSON pointer of the server's entry. */
  pointer: string;
  locator?: Locator;
}

export interface LiveTarget {
  /** The name reports use: a config entry's name; for command-line targets the server's serverInfo.name. */
  name?: string;
  /** How outputs refer to the target. Never holds a secret: it is built from what the user wrote, unexpanded. */
  display: string;
  /** Short label for progress and snapshot file names. */
  label: string;
  stdio?: StdioSpec;
  http?: HttpSpec;
  /** Header values, env values and resolved variables: never shown anywhere. */
  secrets: string[];
  config?: ConfigEntryLocation;
  /** The config entry's own deadline (opencode's "timeout"), used unless --timeout is given. */
  timeoutMs?: number;
}

export interface LiveTargets {
  targets: LiveTarget[];
  errors: InputError[];
  /** Things the user should know that are not errors (a disabled server was skipped). */
  notes: string[];
  /** Every server name the config files hold, selected or not (to check --server names). */
  names?: string[];
  /** With EntryOptions.plan: the selected servers that would run (not disabled or skipped), resolved or not. */
  planned?: string[];
  /** The entries skipped (disabled, or of a kind not run), each said in a note: an override naming one is no typo. */
  skipped?: string[];
}

/**
 * Standard headers that carry no credential: their values are not kept as secrets, so a
 * server's explanation that quotes them ("Accept must include application/json and
 * text/event-stream") is not garbled. A variable they use is still a secret.
 */
const PLAIN_HEADERS = new Set(['accept', 'content-type', 'user-agent']);
export const isPlainHeader = (name: string) => PLAIN_HEADERS.has(name.toLowerCase());

/**
 * Does a header carry credentials (for "the server refused the credentials given")?
 * Authorization, Proxy-Authorization, Cookie, and names with api-key, apikey, token, secret or
 * auth in them (X-Api-Key, X-Auth-Token, Private-Token), in any case. Others (X-Tenant,
 * X-Request-Id) are still secrets, but giving them is not giving credentials. Nor are the keys
 * that only name a request or a cache entry (Idempotency-Key, Sec-WebSocket-Key, X-Cache-Key).
 */
export const isCredentialHeader = (name: string) => /^cookie$|key$|api[-_]?key|token|secret|auth|password|session/i.test(name) && !NOT_CREDENTIAL_KEY.test(name);
const NOT_CREDENTIAL_KEY = /idempotency[-_]?key$|websocket[-_]?key$|cache[-_]?key$/i;

/** An HTTP header name (RFC 9110 token). */
export const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** "Name: value" → [name, value]; the message never repeats the value. */
export function parseHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon === -1 ? '' : text.slice(0, colon).trim();
  if (colon === -1 || !HEADER_NAME.test(name)) {
    throw new VariableError(`--header expects "Name: value" with a header name of letters, digits and -; got ${colon === -1 ? 'no ":"' : `the name ${JSON.stringify(name)}`} (the value is not shown)`);
  }
  return [name, text.slice(colon + 1).trim()];
}

/** "NAME=value" → [name, value]; the message never repeats the value. */
export function parseAssignment(text: string, flag: string, pattern: RegExp = ENV_NAME): [string, string] {
  const eq = text.indexOf('=');
  const name = eq === -1 ? text : text.slice(0, eq);
  if (eq === -1 || !pattern.test(name)) {
    throw new VariableError(`${flag} expects NAME=value; got ${eq === -1 ? 'no "="' : `the name ${JSON.stringify(name)}`} (the value is not shown)`);
  }
  return [name, text.slice(eq + 1)];
}

/** A variable reference (`${NAME}`, `{env:NAME}`): no secret, so shown as written. */
const REFERENCE = /^(\$\{[^}]*\}|\{env:[^}]*\})$/;

/**
 * A URL as it may be shown: its whole user-info (`user:password@`, or a token as the user
 * name, `ghp_…@host`) and its query values hidden, a bare query part (`?sk-…`) too — but for
 * variable references, which are no secrets.
 */
export function displayUrl(text: string): string {
  const shown = displayWritten(text);
  // User-info right after scheme:// (hidden, or kept when it is variable references) is found as written.
  if (/^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*@/is.test(text)) return shown;
  // new URL() finds user-info where the pattern above does not: after leading blanks or
  // controls (trimmed), tabs and line breaks (dropped), `https:/`, `https:///`, `https:\\`,
  // `https:user:pw@host`. Show what it parsed, the user-info hidden.
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    // Not a URL for new URL() either: hide everything up to the last @ before the host (before any ? or #).
    const at = text.replace(/[?#].*$/s, '').lastIndexOf('@');
    if (at === -1) return shown;
    const scheme = /^[\s\0-\x1f]*[a-z][a-z0-9+.-]*:[/\\]*/i.exec(text)?.[0].trimStart() ?? '';
    return displayWritten(`${scheme}${REDACTED}${text.slice(at)}`);
  }
  if (!parsed.username && !parsed.password) return shown;
  return displayWritten(`${parsed.protocol}//${REDACTED}@${parsed.host}${parsed.pathname}${parsed.search}${parsed.hash}`);
}

/** displayUrl for a URL as written, its user-info right after scheme://. */
function displayWritten(text: string): string {
  // The authority ends at the first / ? # (or \, which http URLs read as /); the user-info is
  // all of it before its last @ (a password may hold an @ of its own).
  const m = /^([a-z][a-z0-9+.-]*:\/\/)?([^/?#\\]*)([^#]*)(#.*)?$/is.exec(text);
  if (!m) return text;
  const [, scheme = '', authority = '', rest = '', fragment = ''] = m;
  const at = authority.lastIndexOf('@');
  const userInfo = authority.slice(0, Math.max(at, 0));
  const shownAuthority = at === -1 ? authority : `${userInfo.split(':').every((part) => REFERENCE.test(part)) ? userInfo : REDACTED}${authority.slice(at)}`;
  const q = rest.indexOf('?');
  // A path segment may be a key too (/mcp/sk-…/sse): one that looks like one is hidden.
  const path = (q === -1 ? rest : rest.slice(0, q)).replace(/[^/\\]+/g, (segment) => (isSecretSegment(segment) ? REDACTED : segment));
  // Query values are often keys (?api_key=…), and a bare query part can be one (?sk-…).
  const query =
    q === -1
      ? ''
      : `?${rest
          .slice(q + 1)
          .split('&')
          .map((part) => {
            const eq = part.indexOf('=');
            const value = eq === -1 ? part : part.slice(eq + 1);
            return value === '' || REFERENCE.test(value) ? part : eq === -1 ? REDACTED : `${part.slice(0, eq + 1)}${REDACTED}`;
          })
          .join('&')}`;
  return `${scheme}${shownAuthority}${path}${query}${fragment}`;
}

/**
 * The secrets hidden in a header value besides the value itself: for HTTP Basic credentials
 * (`Basic <base64 of user:password>`), the decoded `user:password` and the password, which a
 * server may echo decoded ("bad credentials for alice:hunter2").
 */
export function headerSecrets(value: string): string[] {
  const m = /^\s*Basic\s+([A-Za-z0-9+/_-]+={0,2})\s*$/i.exec(value);
  if (!m) return [];
  const bytes = Buffer.from(m[1]!, m[1]!.includes('-') || m[1]!.includes('_') ? 'base64url' : 'base64');
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // RFC 7617: without a charset, the encoding is unspecified; Latin-1 is the old default.
    decoded = bytes.toString('latin1');
  }
  const colon = decoded.indexOf(':');
  if (colon === -1) return [];
  const password = decoded.slice(colon + 1);
  return password === '' ? [decoded] : [decoded, password];
}

/** Prefixes of API keys and tokens (OpenAI/Anthropic/Zapier `sk-`, GitHub, GitLab, Slack, AWS, Google, Shopify, npm). */
const TOKEN_PREFIX = /^(?:sk|rk)[-_]|^(?:ghp|gho|ghu|ghs|ghr)_|^github_pat_|^glpat-|^xox[abposr]-|^AKIA|^AIza|^ya29\.|^shp(?:at|ss|ca|pa)_|^npm_/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A run of letters and digits as random text, not words: see isSecretSegment. `words` is the share of it that may be word pieces. */
function opaqueRun(run: string, words: number): boolean {
  if (!/[0-9]/.test(run) || !/[A-Za-z]/.test(run)) return false;
  // Hex (a digest, a key as hex) of 32 or more; a shorter one may be an id (a 24-digit MongoDB ObjectId).
  if (/^[0-9a-f]+$/i.test(run)) return run.length >= 32;
  // Pieces where case or digits change: words (camelCase, a number) make long ones, random text short ones.
  const pieces = run.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g) ?? [];
  if (run.length / pieces.length >= 3) return false;
  // Random text uses many different characters; MCPv1MCPv2MCPv3MCPv4 a few.
  if (new Set(run).size < Math.min(0.6 * run.length, 20)) return false;
  // Word pieces in K8sClusterManagerV1Beta2.
  return wordShare(run) < words;
}

/**
 * A word piece: 3 to 14 lower-case letters (after an optional capital), a vowel (a, e, i, o, u)
 * in every four letters or more, no run of four consonants — get, Users, Cluster, Beta, tutorial
 * — where random lower-case text makes long pieces, few vowels and consonant runs
 * (`l8hbxah3z7pxcul8hpem`, `yrqvtkzqwhmpxa`).
 */
const wordPiece = (p: string) => /^[A-Z]?[a-z]{3,14}$/.test(p) && (p.match(/[aeiou]/gi) ?? []).length >= p.length / 4 && !/[b-df-hj-np-tv-z]{4}/i.test(p);

/** How much of `run` (its letters and digits) word pieces make. */
function wordShare(run: string): number {
  // Numbers between separators (dates, versions: sk-mcp-server-2024-11-05) are neither words nor random.
  const letters = run.split(/[^A-Za-z0-9]+/).filter((part) => !/^[0-9]+$/.test(part)).join('').length;
  // Pieces where separators, case or digits change.
  const pieces = run.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+/g) ?? [];
  return pieces.filter(wordPiece).join('').length / (letters || 1);
}

/**
 * What follows a known token prefix, as a key's random part: 16 letters and digits or more
 * (separators aside: Slack's `xoxb-<digits>-<digits>-<random>`), unless most of it is words
 * (`sk-learn-tutorial-server`, `npm_package_name_is_long`, `AKIAAuthenticationDocs`). Nothing
 * more is asked of it — a real key's tail may have no digit or long upper-case runs
 * (`AKIAIOSFODNN7EXAMPLE`) — since after a known prefix a miss would print a key.
 */
function keyTail(tail: string): boolean {
  if (!/^[A-Za-z0-9_\-.~+=]+$/.test(tail) || tail.replace(/[^A-Za-z0-9]/g, '').length < 16) return false;
  return wordShare(tail) < 0.6;
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment; // Not percent-encoding: read as written.
  }
}

/**
 * Is a URL path segment confidently a key (hosted MCP servers often take theirs in the path,
 * `https://actions.zapier.com/mcp/sk-ak-…/sse`)? A known token prefix (`sk-`, `ghp_`, `xoxb-`,
 * `AKIA`, …) followed by a key's tail (16 letters and digits or more, mostly not words:
 * `sk-learn-tutorial-server` and `npm_package_name_is_long` are no keys; see keyTail),
 * a UUID, or 32 hex digits or more. Such segments are secrets: hidden wherever they are echoed
 * (see pathSecrets), and masked by the GitHub Action.
 */
export function isKeySegment(segment: string): boolean {
  const text = decodedSegment(segment);
  if (REFERENCE.test(text) || text.length < 16) return false;
  if (UUID.test(text)) return true;
  const prefix = TOKEN_PREFIX.exec(text);
  if (prefix) return keyTail(text.slice(prefix[0].length));
  return (text.match(/[0-9a-f]{32,}/gi) ?? []).some((run) => opaqueRun(run, 1));
}

/**
 * Is a URL path segment hidden (as ***) where the URL is shown? A key (isKeySegment), or a
 * long opaque run: 24 letters and digits or more, with both, that reads as random text — short
 * pieces where case or digits change, many different characters, few word pieces. Identifiers
 * made of words and versions (`GitHubMCPServerV2`, `getUserByIDAndOrgID`, `i18nL10nA11yToolsV3`,
 * `K8sClusterManagerV1Beta2`, `/listAllToolsForWorkspace`) stay readable. Only keys are added to
 * the secrets that are replaced in what a server says: a server's own name or tool descriptions
 * are never rewritten because a word in its URL looked random.
 */
export function isSecretSegment(segment: string): boolean {
  if (isKeySegment(segment)) return true;
  const text = decodedSegment(segment);
  if (REFERENCE.test(text)) return false;
  return (text.match(/[A-Za-z0-9]{24,}/g) ?? []).some((run) => opaqueRun(run, 0.35));
}

/** A URL's path segments that are keys (see isKeySegment), as written and decoded. */
export function pathSecrets(url: URL): string[] {
  const segments = url.pathname.split('/').filter(isKeySegment);
  return [...segments, ...segments.map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  })];
}

/** A URL's query values and bare query parts (?sk-…), as written and decoded: keys travel there too (?api_key=…). */
export function querySecrets(url: URL): string[] {
  const values = url.search
    .slice(1)
    .split('&')
    .map((part) => part.slice(part.indexOf('=') + 1))
    .filter((value) => value !== '');
  return [...values, ...values.map((value) => new URLSearchParams(`v=${value}`).get('v')!)];
}

/** Check an expanded URL is http(s). */
export function checkUrl(url: string, shown: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new VariableError(`${shown} is not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new VariableError(`${shown} is not an http:// or https:// URL (MCP over HTTP needs one)`);
  }
  // fetch refuses such a URL (and its error would quote it, password and all).
  if (parsed.username || parsed.password) {
    throw new VariableError(`${shown} holds a user name or password (user:password@), which HTTP clients do not send from a URL: give them as a header instead, e.g. "Authorization: Basic <base64 of user:password>"`);
  }
  return url;
}

const SENTINEL = '\u0000';

/**
 * Read a command line as a POSIX shell reads its quotes, escapes and comments: the quote it
 * leaves open (shell-quote would close it at the end, silently), if any, and the line with
 * every unquoted `#` inside a word escaped (`--channel=#general`, `a"b"#c`, `a\\ #b`). A shell
 * starts a comment only with a `#` at the start of a word; shell-quote starts one at any
 * unquoted `#`, and would cut the rest of the line off silently. A backslash-newline (a line
 * continuation) is removed, as the shell does: `a\<newline>#b` is the one word a#b.
 */
function scanShell(line: string): { open: '"' | "'" | undefined; escaped: string } {
  let open: '"' | "'" | undefined;
  let out = '';
  let wordStart = true;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (open === "'") {
      if (c === "'") open = undefined;
    } else if (c === '\\' && (line[i + 1] === '\n' || (line[i + 1] === '\r' && line[i + 2] === '\n'))) {
      // A backslash-newline is a line continuation: the shell removes both (in double quotes too).
      i += line[i + 1] === '\n' ? 1 : 2;
      continue;
    } else if (c === '\\') {
      out += c + (line[i + 1] ?? '');
      i++;
      wordStart = false;
      continue;
    } else if (c === '$' && (line[i + 1] === '{' || line[i + 1] === '#')) {
      // shell-quote reads ${…} to its brace, and $# as a variable, # and all.
      const end = line[i + 1] === '{' ? line.indexOf('}', i) : i + 1;
      const stop = end === -1 ? line.length : end + 1;
      out += line.slice(i, stop);
      i = stop - 1;
      wordStart = false;
      continue;
    } else if (open === '"') {
      if (c === '"') open = undefined;
    } else if (c === '"' || c === "'") open = c;
    else if (c === '#') {
      if (wordStart) return { open, escaped: out + line.slice(i) };
      out += '\\#';
      continue;
    } else if (/\s/.test(c)) {
      out += c;
      wordStart = true;
      continue;
    }
    out += c;
    wordStart = false;
  }
  return { open, escaped: out };
}

/** The quote a command line leaves open (shell-quote would close it at the end, silently), if any. The Action checks its args with it too. */
export function unclosedQuote(line: string): '"' | "'" | undefined {
  return scanShell(line).open;
}

/** The line with every unquoted `#` inside a word escaped, for shell-quote (see scanShell). The Action splits its args with it too. */
export function escapeInnerHashes(line: string): string {
  return scanShell(line).escaped;
}

/**
 * Split a --stdio command line into argv like a POSIX shell would (quotes, escapes), with
 * `$NAME` / `${NAME}` references resolved from the environment. No shell runs: pipes,
 * redirections and `&&` are refused.
 */
export function splitCommandLine(line: string, ctx: ExpandContext, secrets: Set<string>): string[] {
  const unclosed = unclosedQuote(line);
  if (unclosed !== undefined) {
    throw new VariableError(`--stdio has a ${unclosed === '"' ? 'double' : 'single'} quote (${unclosed}) that is never closed; close it, or escape it with a backslash`);
  }
  const parts = parseShell(escapeInnerHashes(line), (key: string) => `${SENTINEL}${key}${SENTINEL}`);
  const argv: string[] = [];
  for (const p of parts) {
    if (typeof p === 'string') {
      argv.push(p.replace(new RegExp(`${SENTINEL}([^${SENTINEL}]*)${SENTINEL}`, 'g'), (_m, key: string) => resolveReference(key, ctx, secrets, '--stdio')));
    } else if ('pattern' in p) {
      argv.push(p.pattern);
    } else if ('comment' in p) {
      break;
    } else {
      throw new VariableError(
        `--stdio runs one command without a shell, so ${JSON.stringify((p as { op: string }).op)} is not supported; to use a shell, write --stdio "sh -c '…'"`,
      );
    }
  }
  if (argv.length === 0 || argv[0] === '') throw new VariableError('--stdio needs a command to run');
  return argv;
}

function flagError(target: string, err: unknown): InputError {
  const message = err instanceof VariableError ? err.message : String((err as Error)?.message ?? err);
  return { target, message: `${target}: ${message}` };
}

/** Targets from --stdio, `-- command…`, --url, with --header, --env and --transport. */
export function targetsFromFlags(flags: LiveFlags, env: NodeJS.ProcessEnv, cwd: string): LiveTargets {
  const out: LiveTargets = { targets: [], errors: [], notes: [] };
  const ctx: ExpandContext = { env };
  const stdioLines = [...(flags.stdio ?? []).map((line) => ({ line, argv: undefined as string[] | undefined }))];
  if (flags.command?.length) stdioLines.push({ line: quoteShell(flags.command), argv: flags.command });

  // --env and --header are shared by every target of their kind; a bad one fails those targets.
  const envVars = sharedValues(flags.env ?? [], (item) => parseAssignment(item, '--env'), '--env', ctx);
  const headers = sharedValues(flags.header ?? [], parseHeader, '--header', ctx, isPlainHeader);

  for (const { line, argv: given } of stdioLines) {
    const display = line;
    if (envVars.error) {
      out.errors.push(flagError(display, envVars.error));
      continue;
    }
    try {
      const secrets = new Set(envVars.secrets);
      const argv = given ? given.map((a) => expand(a, ctx, secrets, '--')) : splitCommandLine(line, ctx, secrets);
      out.targets.push({
        display,
        label: basenameOf(argv[0]!),
        stdio: { command: argv[0]!, args: argv.slice(1), env: { ...envVars.values }, cwd },
        secrets: [...secrets],
      });
    } catch (err) {
      out.errors.push(flagError(display, err));
    }
  }
  for (const raw of flags.url ?? []) {
    const display = displayUrl(raw);
    if (headers.error) {
      out.errors.push(flagError(display, headers.error));
      continue;
    }
    try {
      const secrets = new Set(headers.secrets);
      for (const [name, value] of Object.entries(headers.values)) if (!isPlainHeader(name)) for (const secret of headerSecrets(value)) secrets.add(secret);
      const url = checkUrl(expand(raw, ctx, secrets, '--url'), display);
      // A query value in the URL is a secret too, and so is a path segment that looks like a key (checkUrl refused a password).
      const parsed = new URL(url);
      for (const secret of [...querySecrets(parsed), ...pathSecrets(parsed)]) secrets.add(secret);
      out.targets.push({
        display,
        label: parsed.host,
        http: { url, headers: { ...headers.values }, transport: flags.transport ?? 'auto' },
        secrets: [...secrets],
      });
    } catch (err) {
      out.errors.push(flagError(display, err));
    }
  }
  return out;
}

/**
 * The values of --env or --header, variables expanded, with each as written and as expanded
 * kept as a secret (but for `plain` names: see PLAIN_HEADERS); the first bad one is the error (and then there are no values).
 */
function sharedValues(
  items: readonly string[],
  parse: (item: string) => [string, string],
  flag: string,
  ctx: ExpandContext,
  plain: (name: string) => boolean = () => false,
): { values: Record<string, string>; secrets: Set<string>; error?: unknown } {
  const secrets = new Set<string>();
  const values: Record<string, string> = {};
  try {
    for (const item of items) {
      const [name, raw] = parse(item);
      if (!plain(name)) secrets.add(raw);
      const value = expand(raw, ctx, secrets, `${flag} ${name}`);
      if (!plain(name)) secrets.add(value);
      values[name] = value;
    }
    return { values, secrets };
  } catch (error) {
    return { values: {}, secrets, error };
  }
}

export function basenameOf(command: string): string {
  const parts = command.split(/[\\/]/);
  return parts[parts.length - 1] || command;
}
