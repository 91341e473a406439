/**
 * Client config files → live targets. Reads the shapes MCP clients keep their servers in:
 *
 *   mcpServers        Claude Desktop, Cursor, Claude Code (.mcp.json, ~/.claude.json), Gemini CLI,
 *                     Windsurf: {command, args, env, cwd} or {url | serverUrl | httpUrl, headers, type}
 *   servers + inputs  VS Code (.vscode/mcp.json; "mcp" in settings.json): {type, command, args, env,
 *                     envFile, cwd} or {type: "http" | "sse", url, headers}; ${input:…} needs --input
 *   mcp               opencode: {type: "local", command: [...], environment, cwd} or {type: "remote", url,
 *                     headers}, by name; opencode's V2 config has them under "mcp": {"servers": …}
 *   context_servers   Zed: {command, args, env} ({command: {path, args, env}} in older settings) or {url, headers}
 *
 * A server with `"disabled": true` or `"enabled": false` is skipped with a note.
 *
 * An opencode entry's `timeout` bounds what a lint does with the server: V1's number is the
 * milliseconds opencode gives fetching its tools; V2's {startup, request} are the
 * milliseconds to start and initialize it and for each request after that, so the deadline
 * is their sum (a part left out counts as --timeout's default). Other clients' `timeout`
 * fields are left alone: Claude Code's and Gemini CLI's bound each tool call, and Cline's
 * counts seconds where the others count milliseconds.
 */
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { printParseErrorCode, type ParseError } from 'jsonc-parser';
import type { InputError, Locator } from '../../types.js';
import { displayPath } from '../files.js';
import { createLocator } from '../locate.js';
import { decode, InputProblem, jsonErrorMessage, lineColumn, parseJsonc, TOO_DEEP, tooDeepAt, type RepeatedKey } from '../parse.js';
import { escapeSegment, parent } from '../../util/pointer.js';
import { MAX_CONFIG_BYTES, readFailure, readFileBounded } from '../../util/read.js';
import { checkUrl, displayUrl, headerSecrets, isPlainHeader, pathSecrets, querySecrets, type LiveTargets, type TransportChoice } from './targets.js';
import { expand, VariableError, type ExpandContext } from './vars.js';
import { parseEnvFile } from './envfile.js';
import { MAX_TIMEOUT_SECONDS } from './options.js';
import { DEFAULT_TIMEOUT_SECONDS } from './run.js';
import { append } from '../../util/array.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
/**
 * A field of an entry, read as an own property only: what a client reading the file with
 * JSON.parse sees. An inherited value (a "__proto__" member made into a prototype by some
 * copy) never counts.
 */
const own = (o: Obj, key: string): unknown => (Object.hasOwn(o, key) ? o[key] : undefined);
/** An object to fill from a file's keys: assigning "__proto__" to a plain object would set its prototype. */
function setOwn(o: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The shape of one server entry, by the client that wrote it. */
export type EntryStyle = 'mcpServers' | 'vscode' | 'opencode' | 'zed';

export interface EntryOptions {
  /** Absolute path of the file the entries come from. */
  file: string;
  /** The file as outputs show it; defaults to its path relative to cwd. */
  display?: string;
  /** JSON pointer of the object holding the entries, e.g. "/mcpServers". */
  pointerBase: string;
  /** Positions in the file, for messages and for findings' physical location. */
  locator?: Locator;
  /** Which client's entry shape; default "mcpServers". */
  style?: EntryStyle;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** --input values for VS Code's ${input:id}. */
  inputs?: ReadonlyMap<string, string>;
  /** Descriptions of declared VS Code inputs, for messages. */
  inputDescriptions?: ReadonlyMap<string, string>;
  /** What ${workspaceFolder} stands for and where relative paths start; default: from the file's location. */
  workspaceFolder?: string;
  userHome?: string;
  /** Only these servers (by entry name; --server); the others are passed over silently. */
  only?: ReadonlySet<string>;
  /**
   * Only say which servers would run (LiveTargets.planned: selected, not disabled or skipped),
   * resolving nothing: no variable is expanded and no entry error is reported.
   */
  plan?: boolean;
}

const PROJECT_DIRS = ['.vscode', '.cursor', '.zed', '.gemini', '.windsurf', '.claude'];
const OPENCODE_FILES = ['opencode.json', 'opencode.jsonc'];
const PROJECT_FILES = ['.mcp.json', ...OPENCODE_FILES];

/** An opencode server entry: "type" is "local" or "remote" (VS Code says "stdio", "http" or "sse"), or "command" is an array. */
function isOpencodeEntry(entry: unknown): boolean {
  return isObject(entry) && (own(entry, 'type') === 'local' || own(entry, 'type') === 'remote' || Array.isArray(own(entry, 'command')));
}

/**
 * The folder a config file belongs to (what ${workspaceFolder} means and where relative
 * paths start): the parent of a project's .vscode/, .cursor/, … folder, or the folder of a
 * project file such as .mcp.json; for a user-level file (in the home directory or a system
 * config folder), the working directory, which is the project a client would have open.
 */
export function workspaceFolderOf(file: string, cwd: string, home?: string): string {
  const dir = dirname(file);
  if (PROJECT_DIRS.includes(basename(dir)) && (home === undefined || resolve(dirname(dir)) !== resolve(home))) return dirname(dir);
  if (PROJECT_FILES.includes(basename(file)) && (home === undefined || resolve(dir) !== resolve(home))) return dir;
  return cwd;
}

function where(opts: EntryOptions, pointer: string): { display: string; line?: number; column?: number } {
  const display = opts.display ?? displayPath(opts.file, opts.cwd);
  const at = opts.locator?.locateOne(pointer);
  return at ? { display, line: at.line, column: at.column } : { display };
}

function entryError(opts: EntryOptions, pointer: string, name: string, message: string): InputError {
  const w = where(opts, pointer);
  const pos = w.line !== undefined ? `${w.display}:${w.line}:${w.column}` : w.display;
  return { target: `${w.display} › ${name}`, file: w.display, line: w.line, column: w.column, message: `${pos}: server ${JSON.stringify(name)}: ${message}` };
}

function strings(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new VariableError(`"${what}" must be an array of strings`);
  return value;
}

function stringMap(value: unknown, what: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new VariableError(`"${what}" must be an object of strings`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string') setOwn(out, k, v);
    else if (typeof v === 'number' || typeof v === 'boolean') setOwn(out, k, String(v));
    else throw new VariableError(`"${what}.${k}" must be a string`);
  }
  return out;
}

function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new VariableError(`"${what}" must be a string`);
  return value;
}

/** What one entry describes, before variables are expanded. */
interface RawEntry {
  kind: 'stdio' | 'http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** The key that held env, for messages: "env", or opencode's "environment". */
  envKey?: string;
  envFile?: string;
  cwd?: string;
  url?: string;
  /** Which key held the URL, for messages. */
  urlKey?: string;
  headers?: Record<string, string>;
  transport?: TransportChoice;
  /** The entry's own deadline for starting and listing (opencode's "timeout"). */
  timeoutMs?: number;
}

/** opencode's "timeout", in milliseconds: a number (V1) or {startup, request} (V2). */
function opencodeTimeout(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const ms = (v: unknown, what: string) => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) throw new VariableError(`"${what}" must be a positive whole number of milliseconds`);
    return v;
  };
  // A deadline longer than a day is a day (a timer cannot wait much longer).
  const capped = (total: number) => Math.min(total, MAX_TIMEOUT_SECONDS * 1000);
  if (typeof value === 'number') return capped(ms(value, 'timeout')!);
  if (!isObject(value)) throw new VariableError('"timeout" must be a number of milliseconds, or {"startup", "request"} in milliseconds');
  const startup = ms(own(value, 'startup'), 'timeout.startup');
  const request = ms(own(value, 'request'), 'timeout.request');
  if (startup === undefined && request === undefined) return undefined;
  const fallback = DEFAULT_TIMEOUT_SECONDS * 1000;
  return capped((startup ?? fallback) + (request ?? fallback));
}

function transportFromType(type: unknown): TransportChoice | 'stdio' | undefined {
  if (type === undefined || type === null) return undefined;
  if (typeof type !== 'string') throw new VariableError('"type" must be a string');
  const t = type.toLowerCase();
  if (t === 'stdio' || t === 'local') return 'stdio';
  if (t === 'sse') return 'sse';
  if (t === 'http' || t === 'streamable-http' || t === 'streamablehttp' || t === 'streamable_http') return 'http';
  if (t === 'remote') return 'auto';
  throw new VariableError(`transport type ${JSON.stringify(type)} is not supported (expected stdio, http or sse)`);
}

/** Whether an entry holds a value at a key (null counts as none, as clients read it). */
const given = (entry: Obj, key: string): boolean => own(entry, key) !== undefined && own(entry, key) !== null;

/**
 * An entry with a command and a URL and no "type": Claude Desktop starts only command
 * servers, other clients take the URL, or the command; which one runs depends on the client.
 */
function ambiguous(urlKey: string, style: EntryStyle): VariableError {
  const types = style === 'opencode' ? '"local" to start the command, "remote" to reach the URL' : '"stdio" to start the command, "http" or "sse" to reach the URL';
  return new VariableError(`has both "command" and ${JSON.stringify(urlKey)} and no "type": clients differ on which they start; set "type" (${types})`);
}

function readEntry(entry: Obj, style: EntryStyle): RawEntry | { skip: string } {
  const get = (key: string) => own(entry, key);
  if (style === 'zed' && get('source') === 'extension') {
    return { skip: 'it is provided by a Zed extension, which only Zed can start' };
  }
  if (style === 'opencode') {
    const type = transportFromType(get('type'));
    if (type === undefined && given(entry, 'command') && given(entry, 'url')) throw ambiguous('url', style);
    if (type === 'stdio' || (type === undefined && get('command') !== undefined)) {
      const command = strings(get('command'), 'command');
      if (command.length === 0) throw new VariableError('"command" must be a non-empty array: the program and its arguments');
      const envKey = get('environment') !== undefined ? 'environment' : 'env';
      return {
        kind: 'stdio',
        command: command[0],
        args: command.slice(1),
        env: stringMap(get('environment') ?? get('env'), envKey),
        envKey,
        cwd: optionalString(get('cwd'), 'cwd'),
        timeoutMs: opencodeTimeout(get('timeout')),
      };
    }
    const url = optionalString(get('url'), 'url');
    if (url === undefined) throw new VariableError(`a "remote" server needs a "url"${given(entry, 'command') ? ' (its "command" is only used with "type": "local")' : ''}`);
    return { kind: 'http', url, urlKey: 'url', headers: stringMap(get('headers'), 'headers'), transport: type ?? 'auto', timeoutMs: opencodeTimeout(get('timeout')) };
  }
  const type = transportFromType(get('type'));
  // Gemini CLI: httpUrl is Streamable HTTP; Windsurf: serverUrl; everyone: url.
  const urlKey = ['httpUrl', 'serverUrl', 'url'].find((k) => given(entry, k));
  if (type === undefined && urlKey !== undefined && given(entry, 'command')) throw ambiguous(urlKey, style);
  if (type !== undefined && type !== 'stdio' && urlKey === undefined) {
    throw new VariableError(
      `its "type" is ${JSON.stringify(get('type'))}, which needs a URL ("url"${style === 'mcpServers' ? ', "serverUrl" or "httpUrl"' : ''}) to reach${given(entry, 'command') ? '; its "command" is only used with "type": "stdio"' : ''}`,
    );
  }
  if (type !== 'stdio' && urlKey !== undefined) {
    const url = optionalString(get(urlKey), urlKey)!;
    const transport: TransportChoice = type !== undefined ? type : urlKey === 'httpUrl' ? 'http' : 'auto';
    return { kind: 'http', url, urlKey, headers: stringMap(get('headers'), 'headers'), transport };
  }
  let command: unknown = get('command');
  let args: unknown = get('args');
  let env: unknown = get('env');
  // Zed's older settings: "command": {"path", "args", "env"}.
  if (style === 'zed' && isObject(command)) {
    args = own(command, 'args');
    env = own(command, 'env');
    command = own(command, 'path');
  }
  if (command === undefined && type === 'stdio') {
    throw new VariableError(`has no "command", and its "type" is stdio: a stdio server needs a program to start${urlKey !== undefined ? ` (its ${JSON.stringify(urlKey)} is only used with another "type")` : ''}`);
  }
  if (command === undefined) {
    throw new VariableError(`has neither "command" nor a URL ("url"${style === 'mcpServers' ? ', "serverUrl" or "httpUrl"' : ''}), so there is nothing to start or reach`);
  }
  if (typeof command !== 'string' || command === '') throw new VariableError('"command" must be a non-empty string');
  return {
    kind: 'stdio',
    command,
    args: strings(args, 'args'),
    env: stringMap(env, 'env'),
    envFile: style === 'vscode' ? optionalString(get('envFile'), 'envFile') : undefined,
    cwd: optionalString(get('cwd'), 'cwd'),
  };
}

function isDisabled(entry: Obj): boolean {
  return own(entry, 'disabled') === true || own(entry, 'enabled') === false;
}

/**
 * Turn the server entries of a client config (an object: name → entry) into live targets.
 * This is the function for any config file that holds an `mcpServers`-shaped object:
 * pass the entries, the file and the pointer of the object that holds them. Nothing is
 * started; entries whose variables cannot be resolved become errors that name the file,
 * position and server; disabled entries become notes.
 */
export function targetsFromServerEntries(entries: Record<string, unknown>, opts: EntryOptions): LiveTargets {
  const out: LiveTargets = { targets: [], errors: [], notes: [], names: Object.keys(entries), planned: [], skipped: [] };
  const style = opts.style ?? 'mcpServers';
  const fileDisplay = opts.display ?? displayPath(opts.file, opts.cwd);
  const home = opts.userHome ?? opts.env.HOME ?? opts.env.USERPROFILE;
  const workspace = opts.workspaceFolder ?? workspaceFolderOf(opts.file, opts.cwd, home);
  const ctx: ExpandContext = {
    env: opts.env,
    inputs: opts.inputs,
    inputDescriptions: opts.inputDescriptions,
    workspaceFolder: workspace,
    userHome: home,
    opencode: style === 'opencode',
  };
  for (const name of Object.keys(entries).sort()) {
    if (opts.only && !opts.only.has(name)) continue;
    const entry = own(entries, name);
    const pointer = `${opts.pointerBase}/${escapeSegment(name)}`;
    const display = `${fileDisplay} › ${name}`;
    if (!isObject(entry)) {
      if (opts.plan) out.planned!.push(name);
      else out.errors.push(entryError(opts, pointer, name, 'the entry must be an object'));
      continue;
    }
    if (isDisabled(entry)) {
      out.notes.push(`skipped ${JSON.stringify(name)} (${fileDisplay}): it is disabled`);
      out.skipped!.push(name);
      continue;
    }
    try {
      const raw = readEntry(entry, style);
      if ('skip' in raw) {
        out.notes.push(`skipped ${JSON.stringify(name)} (${fileDisplay}): ${raw.skip}`);
        out.skipped!.push(name);
        continue;
      }
      if (opts.plan) {
        out.planned!.push(name);
        continue;
      }
      const secrets = new Set<string>();
      const config = { file: opts.file, display: fileDisplay, pointer, locator: opts.locator };
      if (raw.kind === 'http') {
        const url = checkUrl(expand(raw.url!, ctx, secrets, raw.urlKey!), `"${raw.urlKey}" (${displayUrl(raw.url!)})`);
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(raw.headers ?? {})) {
          if (!isPlainHeader(k)) secrets.add(v);
          const value = expand(v, ctx, secrets, `headers.${k}`);
          setOwn(headers, k, value);
          if (!isPlainHeader(k)) for (const secret of [value, ...headerSecrets(value)]) secrets.add(secret);
        }
        for (const secret of [...querySecrets(new URL(url)), ...pathSecrets(new URL(url))]) secrets.add(secret);
        out.targets.push({ name, display, label: name, http: { url, headers, transport: raw.transport ?? 'auto' }, secrets: [...secrets], config, timeoutMs: raw.timeoutMs });
      } else {
        const env: Record<string, string> = {};
        if (raw.envFile) {
          const path = resolve(workspace, expand(raw.envFile, ctx, new Set(), 'envFile'));
          let text: string;
          try {
            text = readFileBounded(path, MAX_CONFIG_BYTES).toString('utf8');
          } catch (err) {
            throw new VariableError(`cannot read its envFile ${JSON.stringify(displayPath(path, opts.cwd))}: ${readFailure(err)}`);
          }
          const parsed = parseEnvFile(text);
          for (const [k, v] of parsed.vars) {
            setOwn(env, k, v);
            secrets.add(v);
          }
          const lines = parsed.skipped.length > 0 ? text.split(/\r\n|\r|\n/) : [];
          for (const n of parsed.skipped) {
            // Never the line's text: a "NAME value" typo holds a secret. What may be one is hidden
            // too, should the server read the file itself: the line past its first word, and past a separator.
            const line = lines[n - 1]!.trim().replace(/^export\s+/, '');
            const words = /\s/.exec(line);
            secrets.add(words ? line.slice(words.index).trim() : line);
            const sep = line.search(/[=:]/);
            if (sep !== -1) secrets.add(line.slice(sep + 1).trim());
            out.notes.push(
              `${displayPath(path, opts.cwd)}:${n}: server ${JSON.stringify(name)}: skipped a line of its envFile that is not NAME=value (a NAME of letters, digits, "_", "." or "-"); the server runs without it, and the line is not shown`,
            );
          }
        }
        for (const [k, v] of Object.entries(raw.env ?? {})) {
          secrets.add(v);
          const value = expand(v, ctx, secrets, `${raw.envKey ?? 'env'}.${k}`);
          setOwn(env, k, value);
          secrets.add(value);
        }
        const command = expand(raw.command!, ctx, secrets, 'command');
        const args = (raw.args ?? []).map((a, i) => expand(a, ctx, secrets, `args[${i}]`));
        const cwdValue = raw.cwd !== undefined ? expand(raw.cwd, ctx, secrets, 'cwd') : undefined;
        const cwd = cwdValue === undefined ? workspace : isAbsolute(cwdValue) ? cwdValue : resolve(workspace, cwdValue);
        out.targets.push({ name, display, label: name, stdio: { command, args, env, cwd }, secrets: [...secrets], config, timeoutMs: raw.timeoutMs });
      }
    } catch (err) {
      if (!(err instanceof VariableError)) throw err;
      if (opts.plan) out.planned!.push(name);
      else out.errors.push(entryError(opts, pointer, name, err.message));
    }
  }
  return out;
}

/** A config file's text → targets. Which clients' shapes it holds is recognised from its keys. */
export interface ConfigFileOptions extends Omit<EntryOptions, 'file' | 'pointerBase' | 'style' | 'locator' | 'inputDescriptions'> {
  /** A file without any server object is fine (a client settings file found by --discover). */
  allowNoServers?: boolean;
}

export function targetsFromConfigText(text: string, opts: ConfigFileOptions & { file: string }): LiveTargets {
  const display = opts.display ?? displayPath(opts.file, opts.cwd);
  if (/\.toml$/i.test(opts.file)) {
    // Codex keeps its servers in ~/.codex/config.toml ([mcp_servers.<name>]): read as JSON, it only said "unexpected character".
    const message = `${display}: TOML client configs (Codex's config.toml) are not supported; give its servers with --stdio "<command line>" or --url <url> instead`;
    return { targets: [], notes: [], errors: [{ target: display, file: display, message }] };
  }
  const deep = tooDeepAt(text);
  if (deep !== undefined) {
    const { line, column } = lineColumn(text, deep);
    return { targets: [], notes: [], errors: [{ target: display, file: display, line, column, message: `${display}:${line}:${column}: ${TOO_DEEP}` }] };
  }
  const errors: ParseError[] = [];
  let value: unknown;
  let repeated: RepeatedKey[];
  try {
    ({ value, repeated } = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: false }));
  } catch (err) {
    // jsonc-parser reads by recursion: thousands of levels overflow the stack.
    if (!(err instanceof RangeError)) throw err;
    return { targets: [], notes: [], errors: [{ target: display, file: display, message: `${display}: the JSON is nested too deeply to process` }] };
  }
  const first = errors[0];
  if (first) {
    const { line, column } = lineColumn(text, first.offset);
    const message = `${display}:${line}:${column}: invalid JSON: ${jsonErrorMessage(printParseErrorCode(first.error), text, first.offset)}`;
    return { targets: [], notes: [], errors: [{ target: display, file: display, line, column, message }] };
  }
  if (!isObject(value)) {
    return { targets: [], notes: [], errors: [{ target: display, file: display, message: `${display}: expected an object with "mcpServers", "servers", "mcp" or "context_servers"` }] };
  }
  const locator = createLocator(text);
  const out: LiveTargets = { targets: [], errors: [], notes: [], names: [], planned: [] };
  const add = (entries: unknown, pointerBase: string, style: EntryStyle, inputs?: unknown) => {
    if (!isObject(entries)) {
      const at = locator.locateOne(pointerBase);
      out.errors.push({
        target: display,
        file: display,
        line: at?.line,
        column: at?.column,
        message: `${display}${at ? `:${at.line}:${at.column}` : ''}: "${pointerBase.slice(1).replace(/\//g, '.')}" must be an object of servers (name → settings)`,
      });
      return;
    }
    const descriptions = new Map<string, string>();
    if (Array.isArray(inputs)) {
      for (const i of inputs) {
        const id = isObject(i) ? own(i, 'id') : undefined;
        const description = isObject(i) ? own(i, 'description') : undefined;
        if (typeof id === 'string') descriptions.set(id, typeof description === 'string' ? description : '');
      }
    }
    // JSON.parse, and so the clients, keep the last of a server given twice: so does the lint.
    const twice = (r: RepeatedKey) => `(lines ${lineColumn(text, r.first).line} and ${lineColumn(text, r.last).line})`;
    for (const r of repeated) {
      if (r.object === parent(pointerBase) && `${r.object}/${escapeSegment(r.key)}` === pointerBase) {
        out.notes.push(`${JSON.stringify(r.key)} is given twice in ${display} ${twice(r)}: the last one is used, as clients read the file`);
      } else if (r.object === pointerBase && (!opts.only || opts.only.has(r.key))) {
        out.notes.push(`server ${JSON.stringify(r.key)} is given twice in ${display} ${twice(r)}: the last one is used, as clients read the file`);
      }
    }
    const r = targetsFromServerEntries(entries, { ...opts, display, pointerBase, style, locator, inputDescriptions: descriptions });
    append(out.targets, r.targets);
    append(out.errors, r.errors);
    append(out.notes, r.notes);
    append(out.names!, r.names ?? []);
    append(out.planned!, r.planned ?? []);
  };
  let found = false;
  // Claude Code's ~/.claude.json: the servers of the project in the working directory (its
  // "local" scope) take precedence over the user's of the same name, as Claude Code starts them.
  const projects = own(value, 'projects');
  const project = isObject(projects) ? own(projects, opts.cwd) : undefined;
  const projectServers = isObject(project) ? own(project, 'mcpServers') : undefined;
  const projectPointer = `/projects/${escapeSegment(opts.cwd)}/mcpServers`;
  if (Object.hasOwn(value, 'mcpServers')) {
    found = true;
    let userServers = value.mcpServers;
    if (isObject(userServers) && isObject(projectServers)) {
      const kept: Obj = {};
      for (const name of Object.keys(userServers)) {
        if (!Object.hasOwn(projectServers, name)) {
          Object.defineProperty(kept, name, { value: userServers[name], enumerable: true, writable: true, configurable: true });
        } else if (!opts.only || opts.only.has(name)) {
          out.notes.push(
            `server ${JSON.stringify(name)} of ${display}'s user scope ("mcpServers") is shadowed by the one of this project (projects[${JSON.stringify(opts.cwd)}].mcpServers): Claude Code uses the project's, and so does the lint`,
          );
        }
      }
      userServers = kept;
    }
    add(userServers, '/mcpServers', 'mcpServers');
  }
  if (Object.hasOwn(value, 'servers')) {
    found = true;
    add(value.servers, '/servers', 'vscode', own(value, 'inputs'));
  }
  if (Object.hasOwn(value, 'mcp')) {
    found = true;
    const mcp = value.mcp;
    const servers = isObject(mcp) ? own(mcp, 'servers') : undefined;
    // VS Code settings.json keeps {"mcp": {"servers", "inputs"}}; opencode keeps {"mcp": {name: {type: "local" | "remote"}}},
    // and in its V2 config {"mcp": {"servers": {name: …}}}, told from VS Code's by the file's name or the entries' shape.
    if (isObject(mcp) && isObject(servers) && !isOpencodeEntry(servers)) {
      const v2 = OPENCODE_FILES.includes(basename(opts.file)) || Object.values(servers).some(isOpencodeEntry);
      if (v2) add(servers, '/mcp/servers', 'opencode');
      else add(servers, '/mcp/servers', 'vscode', own(mcp, 'inputs'));
    } else add(mcp, '/mcp', 'opencode');
  }
  if (Object.hasOwn(value, 'context_servers')) {
    found = true;
    add(value.context_servers, '/context_servers', 'zed');
  }
  // Claude Code's ~/.claude.json: servers of the project in the working directory.
  if (isObject(projectServers) && Object.keys(projectServers).length > 0) {
    found = true;
    add(projectServers, projectPointer, 'mcpServers');
  }
  if (!found && !opts.allowNoServers) {
    out.errors.push({ target: display, file: display, message: `${display}: no MCP servers found: expected a "mcpServers", "servers" (VS Code), "mcp" (opencode) or "context_servers" (Zed) object` });
  }
  return out;
}

/** Read a config file (given with --mcp-config or found by --discover). */
export async function targetsFromConfigFile(path: string, opts: ConfigFileOptions): Promise<LiveTargets> {
  const display = opts.display ?? displayPath(path, opts.cwd);
  let text: string;
  try {
    text = decode(readFileBounded(path, MAX_CONFIG_BYTES));
  } catch (err) {
    if (err instanceof InputProblem) return { targets: [], notes: [], errors: [{ target: display, file: display, line: err.line, column: err.column, message: `${display}:${err.line}:${err.column}: ${err.message}` }] };
    return { targets: [], notes: [], errors: [{ target: display, file: display, message: `${display}: ${readFailure(err)}` }] };
  }
  return targetsFromConfigText(text, { ...opts, file: path, display });
}
