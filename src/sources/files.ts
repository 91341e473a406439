/**
 * File targets: paths, globs, directories and "-" (stdin) → servers or input errors.
 */
import { closeSync, createReadStream, fstatSync, lstatSync, openSync, readdir, readFileSync, readSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, relative, resolve, sep } from 'node:path';
import type { InputError, Locator, Origin, RepeatedKey, RepeatedKeyScope, ServerInput } from '../types.js';
import { compileProblem, errorReason, globTooLong, isGlobPattern } from '../util/glob.js';
import { plural, shorten } from '../util/text.js';
import { relativeInside } from '../util/paths.js';
import { MAX_DOCUMENT_BYTES, readFailure, readFileBounded, readStreamBounded, TooLarge } from '../util/read.js';
import { createLocator } from './locate.js';
import { decode, InputProblem, parseJson, SEVERAL_VALUES_MARK } from './parse.js';
import { isTranscriptArray, jsonLinesLocator, parseJsonLines, serversFromTranscript } from './transcript.js';
import { NotATool, serversFromDocument } from './shapes.js';

export interface LoadResult {
  servers: ServerInput[];
  errors: InputError[];
  /** Said on stderr, not errors: the files a directory scan or a glob found and skipped as no dumps (see ScanSkip). */
  notes?: string[];
}

/**
 * How a file a directory scan or a glob found is read (a file named as a target is read as it is).
 * A found file that is not a dump is skipped, with a note, rather than failing the run:
 * - `knownName`: its name is one of another tool's config files (package.json, tsconfig.json, …,
 *   see isKnownNonDumpName); it is linted only when it holds a dump, and skipped otherwise —
 *   also when it is not JSON a dump can be (tsconfig.json has comments).
 * - any found file: a single object is a tool only with a member only a tool has (see
 *   NotATool in shapes.ts); {"name": …} alone is some other program's file; a JSON Schema
 *   document (a json-schema.org "$schema", no "tools": isJsonSchemaDocument) is skipped too.
 */
export interface ScanRead {
  knownName: boolean;
}

/** Why a found file was skipped: its name (a config file of another tool), its shape (an object that is no tool), or it is a JSON Schema document. */
type ScanSkip = 'name' | 'shape' | 'schema';

/**
 * The names of other tools' config files, which a directory scan or a glob (whose file-name
 * part is a pattern) skips unless the file holds a dump: each is the fixed name a widely used
 * tool gives its own file, which is never a tools/list result — npm's package.json,
 * package-lock.json and npm-shrinkwrap.json; TypeScript's and the JavaScript language
 * service's tsconfig.json and jsconfig.json (and tsconfig.<name>.json, jsconfig.<name>.json);
 * Composer's composer.json; Deno's deno.json(c); Bower's bower.json; JSR's jsr.json; the
 * monorepo tools' lerna.json, nx.json and turbo.json; the Angular CLI's angular.json;
 * TSLint's tslint.json; Biome's biome.json(c); Babel's babel.config.json and .babelrc.json;
 * ESLint's .eslintrc.json; Prettier's .prettierrc.json; Renovate's renovate.json; Vercel's
 * vercel.json. Left out on purpose: names other files share (manifest.json is also an MCP
 * bundle's manifest, app.json, project.json, settings.json, config.json).
 */
const KNOWN_NON_DUMP_NAMES: ReadonlySet<string> = new Set([
  'package.json',
  'package-lock.json',
  'npm-shrinkwrap.json',
  'tsconfig.json',
  'jsconfig.json',
  'composer.json',
  'deno.json',
  'deno.jsonc',
  'bower.json',
  'jsr.json',
  'lerna.json',
  'nx.json',
  'turbo.json',
  'angular.json',
  'tslint.json',
  'biome.json',
  'biome.jsonc',
  'babel.config.json',
  '.babelrc.json',
  '.eslintrc.json',
  '.prettierrc.json',
  'renovate.json',
  'vercel.json',
]);

/** Whether a file's name is another tool's config file (see KNOWN_NON_DUMP_NAMES). */
export function isKnownNonDumpName(path: string): boolean {
  const name = basename(path).toLowerCase();
  return KNOWN_NON_DUMP_NAMES.has(name) || /^[tj]sconfig\.[^/]+\.json$/.test(name);
}

/** The path as the user should see it: relative to cwd with "/" separators when inside it. */
export function displayPath(path: string, cwd = process.cwd()): string {
  return relativeInside(cwd, path) ?? path.split(sep).join('/');
}

function serverNameFromFile(path: string): string {
  return basename(path).replace(/(\.tools)?\.jsonl?$/i, '') || basename(path);
}

/** Load one document's text into servers. */
export function loadText(text: string, origin: Origin, fallbackName: string, idBase: string, scan?: ScanRead): ServerInput[] {
  let value: unknown;
  let locator: Locator;
  let transcript = false;
  try {
    value = parseJson(text);
    locator = createLocator(text);
    transcript = Array.isArray(value) && isTranscriptArray(value);
    // A JSON Lines transcript of one line: a single request, or a single wrapped message.
    if (!Array.isArray(value) && value !== null && typeof value === 'object' && isTranscriptArray([value])) {
      const lines = parseJsonLines(text);
      if (lines) {
        value = lines.values;
        locator = jsonLinesLocator(lines);
        transcript = true;
      }
    }
  } catch (err) {
    // JSON Lines whose lines are JSON-RPC messages: a session transcript (read only when the
    // text is not one JSON document, so a dump pays nothing for it).
    const lines = err instanceof InputProblem && err.message.includes(SEVERAL_VALUES_MARK) ? parseJsonLines(text) : undefined;
    if (!lines) throw err;
    value = lines.values;
    locator = jsonLinesLocator(lines);
    transcript = true;
  }
  let servers: ServerInput[];
  try {
    servers = transcript ? serversFromTranscript(value as unknown[], origin, fallbackName, idBase) : serversFromDocument(value, origin, fallbackName, idBase, scan !== undefined);
  } catch (err) {
    if (err instanceof InputProblem && err.pointer !== undefined && err.line === undefined) {
      const at = locator.locateOne(err.pointer);
      const other = err.related !== undefined ? locator.locateOne(err.related) : undefined;
      const message = other ? err.message.split(`(${err.related})`).join(`(line ${other.valueLine})`) : err.message;
      throw new InputProblem(message, at?.valueLine ?? 1, at?.valueColumn ?? 1);
    }
    throw err;
  }
  for (const s of servers) s.locator = locator;
  addRepeatedKeys(servers, locator);
  return servers;
}

/**
 * The member names each server's tools and tools/list results repeat in the text (the
 * duplicate-key rule reports them): one pass for all the servers of a document, made when a
 * rule first asks (never when duplicate-key is off).
 */
function addRepeatedKeys(servers: readonly ServerInput[], locator: Locator): void {
  if (!locator.repeatedKeys) return;
  let byServer: Map<ServerInput, RepeatedKey[]> | undefined;
  const scan = (): Map<ServerInput, RepeatedKey[]> => {
    const scopes: { pointer: string; scope: RepeatedKeyScope }[] = [];
    const owner = new Map<string, ServerInput>();
    for (const s of servers) {
      for (const e of s.envelopes) {
        scopes.push({ pointer: e.pointer, scope: 'envelope' });
        owner.set(e.pointer, s);
      }
      for (const t of s.tools) {
        scopes.push({ pointer: t.pointer, scope: 'tool' });
        owner.set(t.pointer, s);
      }
    }
    const out = new Map<ServerInput, RepeatedKey[]>();
    for (const r of locator.repeatedKeys!(scopes)) {
      const s = owner.get(r.scope);
      if (!s) continue;
      const list = out.get(s);
      if (list) list.push(r);
      else out.set(s, [r]);
    }
    return out;
  };
  for (const s of servers) s.repeatedKeys = () => (byServer ??= scan()).get(s) ?? [];
}

const MIB = 1024 * 1024;

function tooLarge(size: number | undefined): InputProblem {
  const what = size === undefined ? 'more than 512 MiB' : `${Math.ceil(size / MIB)} MiB`;
  return new InputProblem(`the document is ${what}; mcp-annotate reads one JSON text of up to 512 MiB (the longest string Node.js can hold); split the tools into several files`);
}

/** A stream's bytes (stdin, a pipe, a device), refused once they pass MAX_DOCUMENT_BYTES. */
async function readStream(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  try {
    return await readStreamBounded(stream, MAX_DOCUMENT_BYTES);
  } catch (err) {
    throw err instanceof TooLarge ? tooLarge(undefined) : err;
  }
}

/**
 * A target's bytes. A regular file is read at once, in one call, after its size is checked; a
 * named pipe (`<(jq . dump.json)`, /dev/stdin) or a device is streamed up to the limit.
 */
function readTarget(path: string): Uint8Array | Promise<Uint8Array> {
  const info = statSync(path);
  if (info.isSocket()) throw new InputProblem('is a socket, not a file (give a file, a directory, a glob, or - for stdin)');
  if (!info.isFile()) return readStream(createReadStream(path));
  try {
    return readFileBounded(path, MAX_DOCUMENT_BYTES);
  } catch (err) {
    throw err instanceof TooLarge ? tooLarge(err.size) : err;
  }
}

const GLOB_IGNORE = ['**/node_modules/**', '**/.git/**'];

/**
 * Why a path with U+FFFD in it is not there: a name that is not valid UTF-8 reaches Node.js
 * (argv, readdir) with U+FFFD in place of its bad bytes, and no file has that name.
 */
const NAME_NOT_UTF8 = 'its name is not valid UTF-8 (shown with \uFFFD in place of the bytes that are not), and Node.js cannot open a file by such a name; rename it';

/** Paths that are the process's stdin: with "-" among the targets, read once. */
export const STDIN_PATHS: ReadonlySet<string> = new Set(['/dev/stdin', '/proc/self/fd/0', '/dev/fd/0']);

/** Whether a target is a "!pattern" that leaves out what the others find (and not a file of that name). */
async function isNegation(target: string, cwd: string): Promise<boolean> {
  return target.length > 1 && target.startsWith('!') && !(await stat(resolve(cwd, target)).catch(() => undefined));
}

/**
 * Whether targets are "!" patterns only: they leave out what other targets find, and there
 * are none, so the run would lint nothing ("nothing to lint", as for no targets at all).
 */
export async function onlyNegations(targets: readonly string[], cwd = process.cwd()): Promise<boolean> {
  if (targets.length === 0) return false;
  for (const t of targets) if (!(await isNegation(t, cwd))) return false;
  return true;
}

/** What expandTargets found. */
export interface ExpandedTargets {
  /** Every file to read, sorted, each once. */
  files: string[];
  stdin: boolean;
  errors: InputError[];
  /**
   * The files of `files` that only a directory scan or a glob whose file-name part is a pattern
   * found (none named as a target, nor matched by a glob that names the file, such as
   * 'servers/*​/tools.json'): they are read as found files (ScanRead).
   */
  found: Map<string, ScanRead>;
  /** Each directory and glob (of found files) with the files it found: one whose every file is skipped lints nothing. */
  scans: { target: string; kind: 'directory' | 'glob'; files: string[] }[];
}

/**
 * Expand targets to files (sorted, de-duplicated), keeping "-" for stdin.
 * @param own The run's own files, which a directory or a glob does not pick up (see OwnFiles).
 *   A file named as a target is still read.
 */
export async function expandTargets(targets: string[], cwd = process.cwd(), own: OwnFiles = NO_OWN_FILES): Promise<ExpandedTargets> {
  // fast-glob costs ~20 ms to load: only when a target is a directory or a pattern.
  let glob: typeof import('fast-glob') | undefined;
  const fastGlob = async () => (glob ??= (await import('fast-glob')).default);
  const files = new Set<string>();
  // Files named as targets (or by a glob that names the file), and files only scans found (see ExpandedTargets.found).
  const named = new Set<string>();
  const scanned = new Map<string, ScanRead>();
  const scans: ExpandedTargets['scans'] = [];
  const errors: InputError[] = [];
  // Directories a scan could not read, and files it found but cannot open (absolute path → why), each said once.
  const unreadable = new Map<string, string>();
  const unopenable = new Map<string, string>();
  let stdin = false;
  // fast-glob's negation: "!pattern" (not a file of that name) leaves out what directories and
  // globs found that it matches, relative to cwd (or absolute).
  const negated: string[] = [];
  for (const target of targets) if (await isNegation(target, cwd)) negated.push(target.slice(1).split(sep).join('/'));
  let left: ((abs: string) => boolean) | undefined;
  // A "!" pattern too long or too large to compile is that target's input error, and leaves nothing out.
  const compiled: string[] = [];
  for (const pattern of negated) {
    const unfit = await uncompilable(pattern);
    if (unfit) errors.push({ target: `!${pattern}`, message: `${shorten(`!${pattern}`, 80)}: this pattern ${unfit}` });
    else compiled.push(pattern);
  }
  if (compiled.length) {
    const match = (await import('../util/name-glob.js')).globMatcher(compiled, { dot: true });
    left = (f) => match(f.split(sep).join('/')) || match(relative(cwd, f).split(sep).join('/'));
  }
  // A JSON report or SARIF log of this tool is never a dump: a directory or glob leaves it out,
  // whichever run wrote it (`lint . -f json -o report.json`, then `lint .`).
  const keep = (f: string) => !own.inputs.has(f) && !left?.(f) && !isOwnFile(f);
  for (const target of targets) {
    if (target === '-') {
      stdin = true;
      continue;
    }
    if (target.length > 1 && target.startsWith('!') && negated.includes(target.slice(1).split(sep).join('/'))) continue;
    const abs = resolve(cwd, target);
    const info = await stat(abs).catch(() => undefined);
    // A file, or a named pipe or device (`<(jq . dump.json)`, /dev/stdin): read as it is.
    if (info && !info.isDirectory()) {
      files.add(abs);
      named.add(abs);
      continue;
    }
    if (info?.isDirectory()) {
      const scan = await scanFiles(await fastGlob(), '**/*.json', abs, unreadable, unopenable);
      const found = scan.files.filter(keep);
      if (found.length === 0 && !scan.unreadable) {
        const n = scan.files.length;
        // As for a glob: a "!" pattern that left files out is named, so the user knows why.
        const why = n === 0 ? '' : scan.files.some((f) => left?.(f))
          ? ` to lint (the ${plural(n, 'file')} it holds ${n === 1 ? 'is' : 'are'} left out by a "!" pattern or ${n === 1 ? 'is' : 'are'} the run's own baseline, config or an mcp-annotate report)`
          : ' to lint (only mcp-annotate reports, or the run\'s own baseline or config)';
        errors.push({ target, message: `${target}: the directory holds no .json files${why}` });
      }
      for (const f of found) {
        files.add(f);
        scanned.set(f, { knownName: isKnownNonDumpName(f) });
      }
      scans.push({ target, kind: 'directory', files: found });
      continue;
    }
    const tooLong = isGlobPattern(target) ? globTooLong(target) : undefined;
    if (tooLong) {
      // picomatch throws on it, which stopped the whole run: only this target fails.
      errors.push({ target, message: `${shorten(target, 80)}: this pattern ${tooLong}` });
      continue;
    }
    const fg = isGlobPattern(target) ? await fastGlob() : undefined;
    if (fg?.isDynamicPattern(target)) {
      // A pattern under the length limit can still make a regular expression V8 cannot compile
      // (about 32,750 characters of `*aaa….json`): fast-glob compiled it inside its walk, where
      // the error escaped as an uncaught exception and ended the run. Compiled here first.
      const unfit = await uncompilable(target.split(sep).join('/'));
      if (unfit) {
        errors.push({ target, message: `${shorten(target, 80)}: this pattern ${unfit}` });
        continue;
      }
      let matched: string[];
      let unread: boolean;
      try {
        ({ files: matched, unreadable: unread } = await scanFiles(fg, target.split(sep).join('/'), cwd, unreadable, unopenable));
      } catch (err) {
        errors.push({ target, message: `${shorten(target, 80)}: cannot expand this pattern: ${errorReason(err)}` });
        continue;
      }
      const found = matched.filter(keep);
      if (found.length === 0 && !unread) {
        const why = matched.length ? ` (the ${plural(matched.length, 'file')} it matches ${matched.length === 1 ? 'is' : 'are'} left out by a "!" pattern or ${matched.length === 1 ? 'is' : 'are'} the run's own baseline, config or an mcp-annotate report)` : '';
        errors.push({ target, message: `${target}: no files match this pattern${why}` });
      }
      // A glob that names the file ('servers/*/tools.json', 'pkgs/*/package.json') picks its files as named ones.
      const namesFile = !fg.isDynamicPattern(target.split(sep).join('/').split('/').pop()!);
      for (const f of found) {
        files.add(f);
        if (namesFile) named.add(f);
        else scanned.set(f, { knownName: isKnownNonDumpName(f) });
      }
      if (!namesFile) scans.push({ target, kind: 'glob', files: found });
      continue;
    }
    errors.push({ target, message: `${target}: ${target.includes('\uFFFD') ? NAME_NOT_UTF8 : 'no such file or directory'}` });
  }
  // "-" and /dev/stdin together would read stdin twice (the second read finds it empty).
  if (stdin) for (const p of STDIN_PATHS) files.delete(p);
  for (const [dir, why] of unreadable) {
    const display = displayPath(dir, cwd);
    errors.push({ target: display, message: `${display}: cannot read this directory (its files are not linted): ${why}` });
  }
  for (const [file, why] of unopenable) {
    const display = displayPath(file, cwd);
    errors.push({ target: display, file: display, message: `${display}: ${why}` });
  }
  const kept = onePathPerFile([...files].sort());
  // A file named (through any path: a link, a glob that names it) is read as named.
  const real = (p: string) => {
    try {
      return realpathSync.native(p);
    } catch {
      return p;
    }
  };
  const namedReal = named.size ? new Set([...named].map(real)) : undefined;
  const found = new Map<string, ScanRead>();
  for (const f of kept) {
    const read = scanned.get(f);
    if (read && !named.has(f) && !namedReal?.has(real(f))) found.set(f, read);
  }
  return { files: kept, stdin, errors, found, scans };
}

/**
 * Why fast-glob could not use a glob, or undefined: longer than picomatch parses, or a regular
 * expression too large for V8 to compile (V8 compiles one when it first runs it, so it is run
 * once here). Either, thrown inside fast-glob's walk, escaped as an uncaught exception.
 */
async function uncompilable(pattern: string): Promise<string | undefined> {
  const tooLong = globTooLong(pattern);
  if (tooLong) return tooLong;
  const picomatch = (await import('picomatch')).default;
  return compileProblem(pattern, () => picomatch.makeRe(pattern, { dot: true }));
}

/**
 * What a directory scan or a glob finds: regular files, and symbolic links to files. It does not
 * descend into a symbolic link to a directory (as find, git, ripgrep and Prettier do not): a link
 * to an ancestor made the scan endless, or read each file once per turn of the loop. A directory
 * that cannot be read (permissions) is recorded in `unreadable` (by absolute path) and the scan
 * goes on without it.
 */
async function scanFiles(
  fg: typeof import('fast-glob'),
  pattern: string,
  cwd: string,
  unreadable: Map<string, string>,
  unopenable: Map<string, string>,
): Promise<{ files: string[]; unreadable: boolean }> {
  let failed = false;
  type ReaddirCallback = (err: NodeJS.ErrnoException | null, entries: Dirent[]) => void;
  // fast-glob stops the whole walk at the first error other than ENOENT (an unreadable
  // subdirectory ended the run): such a directory reads as empty, and is said once.
  // fast-glob matches what a readdir found inside the readdir's callback: anything that throws
  // there (a pattern's regular expression V8 cannot compile) escaped as an uncaught exception
  // and ended the run with a stack trace. It is caught here and fails this scan instead (the walk
  // is abandoned: its promise never settles once its callback threw).
  let threw!: (err: unknown) => void;
  const thrown = new Promise<never>((_, reject) => (threw = reject));
  const readdirOrNothing = (path: string, options: unknown, callback: ReaddirCallback) => {
    readdir(path, options as { withFileTypes: true }, (err, entries) => {
      try {
        if (err && (err.code !== 'ENOENT' || path.includes('\uFFFD'))) {
          failed = true;
          if (!unreadable.has(path)) unreadable.set(path, err.code === 'ENOENT' ? NAME_NOT_UTF8 : readFailure(err));
          callback(null, []);
        } else callback(err, entries);
      } catch (thrownInWalk) {
        threw(thrownInWalk);
      }
    });
  };
  // As found (relative to cwd, or absolute for an absolute pattern), joined here: fast-glob's
  // absolute: true turns a "\" in a file name into a "/" (a\b.json read as a/b.json on Linux and macOS).
  const entries = await Promise.race([
    fg(pattern, {
      cwd,
      ignore: GLOB_IGNORE,
      dot: false,
      onlyFiles: false,
      followSymbolicLinks: false,
      objectMode: true,
      fs: { readdir: readdirOrNothing as unknown as typeof readdir },
    }),
    thrown,
  ]);
  const files: string[] = [];
  for (const entry of entries) {
    const abs = resolve(cwd, entry.path);
    if (entry.path.includes('\uFFFD') && (entry.dirent.isFile() || entry.dirent.isSymbolicLink()) && !lstatSync(abs, { throwIfNoEntry: false })) {
      failed = true;
      unopenable.set(abs, NAME_NOT_UTF8);
      continue;
    }
    if (entry.dirent.isFile() || (entry.dirent.isSymbolicLink() && statSync(abs, { throwIfNoEntry: false })?.isFile())) files.push(abs);
  }
  return { files, unreadable: failed };
}

/**
 * Each file once, however many paths reach it (a symbolic link next to its file, or a file named
 * both directly and through a linked directory): by its real path. The path kept is one that is
 * not itself a link when there is one, else the first in order. Devices and /proc entries (a pipe
 * as /dev/fd/63) are kept as they are.
 */
function onePathPerFile(sorted: readonly string[]): string[] {
  const byReal = new Map<string, string>();
  const isLink = (p: string) => lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
  for (const f of sorted) {
    let real = f;
    if (!f.startsWith('/dev/') && !f.startsWith('/proc/')) {
      try {
        real = realpathSync.native(f);
      } catch {
        // Not there (any more): it is read, and says so, as it is.
      }
    }
    const seen = byReal.get(real);
    if (seen === undefined) byReal.set(real, f);
    else if (isLink(seen) && !isLink(f)) byReal.set(real, f);
  }
  return [...byReal.values()].sort();
}

/**
 * @param scan How a file a directory scan or a glob found is read (see ScanRead); none for a file
 *   named as a target, which is read as it is.
 */
export async function loadFile(path: string, cwd = process.cwd(), scan?: ScanRead): Promise<LoadResult & { skipped?: ScanSkip }> {
  const display = displayPath(path, cwd);
  try {
    // Decoded as soon as it is read, so the bytes die young: a buffer that lives across other
    // work is promoted to the old generation and held until a full collection. A regular
    // file is read synchronously, so each file is parsed before the next one is read.
    const bytes = readTarget(path);
    const text = decode(bytes instanceof Uint8Array ? bytes : await bytes);
    const servers = loadText(text, { kind: 'file', path, display }, serverNameFromFile(path), display, scan);
    return { servers, errors: [] };
  } catch (err) {
    // Another tool's config file that holds no dump (not JSON a dump can be, or not of a dump's shape).
    if (scan?.knownName && (err instanceof InputProblem || err instanceof NotATool)) return { servers: [], errors: [], skipped: 'name' };
    if (err instanceof NotATool) return { servers: [], errors: [], skipped: err.kind };
    return { servers: [], errors: [toInputError(err, display, display)] };
  }
}

export async function loadStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<LoadResult> {
  const display = '<stdin>';
  try {
    const text = decode(await readStream(stream));
    return { servers: loadText(text, { kind: 'stdin', display }, 'stdin', display), errors: [] };
  } catch (err) {
    return { servers: [], errors: [toInputError(err, display)] };
  }
}

export function toInputError(err: unknown, display: string, file?: string): InputError {
  if (err instanceof InputProblem) {
    const where = err.line !== undefined ? `${display}:${err.line}:${err.column ?? 1}` : display;
    return { target: display, file, line: err.line, column: err.column, message: `${where}: ${err.message}` };
  }
  return { target: display, file, message: `${display}: ${readFailure(err)}` };
}

/** The files a run reads or writes besides its targets, as absolute paths (see expandTargets). */
export interface OwnFiles {
  /** Its baseline and config file: a directory or a glob never picks them up. */
  inputs: ReadonlySet<string>;
  /**
   * Its -o outputs: a directory or a glob skips one while it holds a report of this tool (the
   * run before wrote it); anything else there is a dump the report would replace, and is
   * refused (checkOutputsAreNotInputs).
   */
  outputs: ReadonlySet<string>;
}

const NO_OWN_FILES: OwnFiles = { inputs: new Set(), outputs: new Set() };

export function ownFiles(cwd: string, files: { inputs: readonly (string | undefined)[]; outputs: readonly (string | undefined)[] }): OwnFiles {
  const absolute = (list: readonly (string | undefined)[]) => new Set(list.filter((f): f is string => f !== undefined && f !== '' && f !== '-').map((f) => resolve(cwd, f)));
  return { inputs: absolute(files.inputs), outputs: absolute(files.outputs) };
}

/**
 * The start of a file this tool wrote that is not a dump (a tools/list dump never starts so):
 * a JSON report, a SARIF log, a JSON config file (its $schema is ours), or the rule list of
 * `rules -f json`.
 */
const OWN_FILE_START = new RegExp(
  [
    String.raw`^\s*\{\s*"version":\s*1,\s*"tool":\s*\{\s*"name":\s*"mcp-annotate"`,
    String.raw`^\s*\{\s*"\$schema":\s*"[^"]*sarif[^"]*",\s*"version":\s*"2\.1\.0",\s*"runs":\s*\[\s*\{\s*"tool":\s*\{\s*"driver":\s*\{\s*"name":\s*"mcp-annotate"`,
    String.raw`^\s*\{\s*"\$schema":\s*"[^"]*mcp-annotate[^"]*config\.schema\.json"`,
    String.raw`^\s*\[\s*\{\s*"id":\s*"[^"]*",\s*"severity":\s*"(?:error|warning|note)",\s*"category":\s*"[^"]*",\s*"packs":\s*\[[^\]]*\],\s*"precision":`,
  ].join('|'),
);
/** The start of a baseline; a dump could start so too, so the whole file is checked (see isOwnFile). */
const BASELINE_START = /^\s*\{\s*"version":\s*1,\s*"entries":\s*\[/;
/** Past this size a file is not taken for a baseline (they hold one line per finding, never this many), and one that starts as a report is taken for one without reading it whole. */
const MAX_BASELINE_CHECK = 32 * 1024 * 1024;

/** Whether a file is one this tool wrote that is not a dump: by its first bytes, and then by its having no top-level "tools" (a baseline: by its keys). */
function isOwnFile(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(512);
    const n = readSync(fd, head, 0, head.length, 0);
    const text = head.toString('utf8', 0, n);
    const ownStart = OWN_FILE_START.test(text);
    if (!ownStart && !BASELINE_START.test(text)) return false;
    // A file with "tools" is a dump whatever its start (a tools/list result can carry a
    // "$schema" of ours, and a snapshot once kept it first): it is linted. None of the tool's
    // own files has "tools" at its top level.
    if (fstatSync(fd).size > MAX_BASELINE_CHECK) return ownStart;
    let value: unknown;
    try {
      value = JSON.parse(readFileSync(fd, 'utf8').replace(/^\uFEFF/, ''));
    } catch {
      return ownStart;
    }
    return !(typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, 'tools'));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The files a run reads (absolute): the dumps it loaded, and its own baseline and config file. */
export function readFiles(servers: readonly ServerInput[], own: OwnFiles | undefined): Set<string> {
  const files = new Set(own?.inputs ?? []);
  for (const s of servers) if (s.origin.kind === 'file') files.add(resolve(s.origin.path));
  return files;
}

export interface TargetOptions {
  /** The run's own files, which directories and globs do not pick up (see OwnFiles). */
  exclude?: OwnFiles;
  /** Sees the files the targets expand to before any is read (and may throw to refuse the run). */
  check?: (files: readonly string[]) => void;
}

/** Load every target; errors for one target never stop the others. */
export async function loadTargets(targets: string[], cwd = process.cwd(), stdin?: NodeJS.ReadableStream, options: TargetOptions = {}): Promise<LoadResult & { notes: string[] }> {
  const expanded = await expandTargets(targets, cwd, options.exclude);
  options.check?.(expanded.files);
  const results = await Promise.all(
    expanded.files.map((f) => loadFile(f, cwd, expanded.found.get(f))),
  );
  const skipped = new Map<string, ScanSkip>();
  expanded.files.forEach((f, i) => {
    const why = results[i]!.skipped;
    if (why) skipped.set(f, why);
  });
  const errors = [...expanded.errors];
  const said = new Set<string>();
  // A directory or a glob whose every file was skipped lints nothing: said as for one that holds no .json files.
  for (const scan of expanded.scans) {
    if (scan.files.length === 0 || !scan.files.every((f) => skipped.has(f))) continue;
    const n = scan.files.length;
    const what = `${n === 1 ? 'is not a tools/list dump' : 'are not tools/list dumps'}: ${listed(scan.files.map((f) => displayPath(f, cwd)))}; name ${n === 1 ? 'it' : 'a file'} as a target to read it anyway`;
    errors.push({
      target: scan.target,
      message: scan.kind === 'directory'
        ? `${scan.target}: the directory holds no .json files to lint (the ${plural(n, 'file')} it holds ${what})`
        : `${scan.target}: no files to lint match this pattern (the ${plural(n, 'file')} it matches ${what})`,
    });
    // The error names them: no note besides.
    for (const f of scan.files) said.add(f);
  }
  if (expanded.stdin) results.unshift(await loadStdin(stdin));
  return {
    servers: results.flatMap((r) => r.servers),
    errors: [...errors, ...results.flatMap((r) => r.errors)],
    notes: skipNotes(new Map([...skipped].filter(([f]) => !said.has(f))), cwd),
  };
}

/** Paths for a message: the first few, then how many more. */
function listed(paths: readonly string[], most = 10): string {
  const shown = paths.slice(0, most).join(', ');
  return paths.length > most ? `${shown} and ${paths.length - most} more` : shown;
}

/** One note per reason, listing the files a directory scan or a glob skipped for it. */
function skipNotes(skipped: ReadonlyMap<string, ScanSkip>, cwd: string): string[] {
  const notes: string[] = [];
  const of = (why: ScanSkip) => [...skipped].filter(([, w]) => w === why).map(([f]) => displayPath(f, cwd));
  const byName = of('name');
  if (byName.length) {
    const one = byName.length === 1;
    notes.push(
      `skipped ${listed(byName)} (found by a directory or a glob): by ${one ? 'its name' : 'their names'}, ${one ? 'a config file of another tool' : 'config files of other tools'} (npm's, TypeScript's, …), and ${one ? 'it holds' : 'they hold'} no tools/list dump; name a file as a target to read it anyway`,
    );
  }
  const byShape = of('shape');
  if (byShape.length) {
    const one = byShape.length === 1;
    notes.push(
      `skipped ${listed(byShape)} (found by a directory or a glob): ${one ? 'one object' : 'each one object'} with "name" but no "inputSchema", "outputSchema" or "annotations", which is not an MCP tool; name a file as a target to read it as a single tool anyway`,
    );
  }
  const bySchema = of('schema');
  if (bySchema.length) {
    const one = bySchema.length === 1;
    notes.push(
      `skipped ${listed(bySchema)} (found by a directory or a glob): ${one ? 'a JSON Schema document' : 'JSON Schema documents'} ("$schema" names a json-schema.org meta-schema, and no "tools"), not ${one ? 'a tools/list dump' : 'tools/list dumps'}; name a file as a target to read it anyway`,
    );
  }
  return notes;
}
