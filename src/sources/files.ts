/**
 * File targets: paths, globs, directories and "-" (stdin) → servers or input errors.
 */
import { createReadStream, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, relative, resolve, sep } from 'node:path';
import type { InputError, Origin, ServerInput } from '../types.js';
import { globTooLong, isGlobPattern } from '../util/glob.js';
import { plural, shorten } from '../util/text.js';
import { relativeInside } from '../util/paths.js';
import { MAX_DOCUMENT_BYTES, readFailure, readFileBounded, readStreamBounded, TooLarge } from '../util/read.js';
import { createLocator } from './locate.js';
import { decode, InputProblem, parseJson } from './parse.js';
import { serversFromDocument } from './shapes.js';

export interface LoadResult {
  servers: ServerInput[];
  errors: InputError[];
}

/** The path as the user should see it: relative to cwd with "/" separators when inside it. */
export function displayPath(path: string, cwd = process.cwd()): string {
  return relativeInside(cwd, path) ?? path.split(sep).join('/');
}

function serverNameFromFile(path: string): string {
  return basename(path).replace(/(\.tools)?\.json$/i, '') || basename(path);
}

/** Load one document's text into servers. */
export function loadText(text: string, origin: Origin, fallbackName: string, idBase: string): ServerInput[] {
  const value = parseJson(text);
  const locator = createLocator(text);
  let servers: ServerInput[];
  try {
    servers = serversFromDocument(value, origin, fallbackName, idBase);
  } catch (err) {
    if (err instanceof InputProblem && err.pointer !== undefined && err.line === undefined) {
      const at = locator.locateOne(err.pointer);
      throw new InputProblem(err.message, at?.valueLine ?? 1, at?.valueColumn ?? 1);
    }
    throw err;
  }
  for (const s of servers) s.locator = locator;
  return servers;
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
 * Expand targets to files (sorted, de-duplicated), keeping "-" for stdin.
 * @param exclude Absolute paths that a directory or a glob never picks up: the run's own files
 *   (its baseline, config file and -o outputs). A file named as a target is still read.
 */
export async function expandTargets(targets: string[], cwd = process.cwd(), exclude: ReadonlySet<string> = new Set()): Promise<{ files: string[]; stdin: boolean; errors: InputError[] }> {
  // fast-glob costs ~20 ms to load: only when a target is a directory or a pattern.
  let glob: typeof import('fast-glob') | undefined;
  const fastGlob = async () => (glob ??= (await import('fast-glob')).default);
  const files = new Set<string>();
  const errors: InputError[] = [];
  let stdin = false;
  // fast-glob's negation: "!pattern" (not a file of that name) leaves out what directories and
  // globs found that it matches, relative to cwd (or absolute).
  const negated: string[] = [];
  for (const target of targets) {
    if (target.length > 1 && target.startsWith('!') && !(await stat(resolve(cwd, target)).catch(() => undefined))) negated.push(target.slice(1).split(sep).join('/'));
  }
  let left: ((abs: string) => boolean) | undefined;
  if (negated.length) {
    const picomatch = (await import('picomatch')).default;
    const match = picomatch(negated, { dot: true });
    left = (f) => match(f.split(sep).join('/')) || match(relative(cwd, f).split(sep).join('/'));
  }
  const keep = (f: string) => !exclude.has(f) && !left?.(f);
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
      continue;
    }
    if (info?.isDirectory()) {
      const fg = await fastGlob();
      const found = (await fg('**/*.json', { cwd: abs, absolute: true, ignore: GLOB_IGNORE, dot: false })).map((f) => resolve(f)).filter(keep);
      if (found.length === 0) errors.push({ target, message: `${target}: the directory holds no .json files` });
      for (const f of found) files.add(f);
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
      let matched: string[];
      try {
        matched = (await fg(target.split(sep).join('/'), { cwd, absolute: true, ignore: GLOB_IGNORE, onlyFiles: true })).map((f) => resolve(f));
      } catch (err) {
        errors.push({ target, message: `${shorten(target, 80)}: cannot expand this pattern: ${(err as Error)?.message ?? String(err)}` });
        continue;
      }
      const found = matched.filter(keep);
      if (found.length === 0) {
        const why = matched.length ? ` (the ${plural(matched.length, 'file')} it matches ${matched.length === 1 ? 'is' : 'are'} left out by a "!" pattern or ${matched.length === 1 ? 'is' : 'are'} the run's own baseline, config or output)` : '';
        errors.push({ target, message: `${target}: no files match this pattern${why}` });
      }
      for (const f of found) files.add(f);
      continue;
    }
    errors.push({ target, message: `${target}: no such file or directory` });
  }
  return { files: [...files].sort(), stdin, errors };
}

export async function loadFile(path: string, cwd = process.cwd()): Promise<LoadResult> {
  const display = displayPath(path, cwd);
  try {
    // Decoded as soon as it is read, so the bytes die young: a buffer that lives across other
    // work is promoted to the old generation and held until a full collection. A regular
    // file is read synchronously, so each file is parsed before the next one is read.
    const bytes = readTarget(path);
    const text = decode(bytes instanceof Uint8Array ? bytes : await bytes);
    const servers = loadText(text, { kind: 'file', path, display }, serverNameFromFile(path), display);
    return { servers, errors: [] };
  } catch (err) {
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

/**
 * The files a run writes or reads besides its targets (baseline, config file, -o outputs), as
 * absolute paths: directories and globs among the targets skip them (see expandTargets).
 */
export function ownFiles(cwd: string, files: readonly (string | undefined)[]): Set<string> {
  return new Set(files.filter((f): f is string => f !== undefined && f !== '-').map((f) => resolve(cwd, f)));
}

export interface TargetOptions {
  /** The run's own files, which directories and globs skip (see expandTargets). */
  exclude?: ReadonlySet<string>;
  /** Sees the files the targets expand to before any is read (and may throw to refuse the run). */
  check?: (files: readonly string[]) => void;
}

/** Load every target; errors for one target never stop the others. */
export async function loadTargets(targets: string[], cwd = process.cwd(), stdin?: NodeJS.ReadableStream, options: TargetOptions = {}): Promise<LoadResult> {
  const expanded = await expandTargets(targets, cwd, options.exclude);
  options.check?.(expanded.files);
  const results = await Promise.all(expanded.files.map((f) => loadFile(f, cwd)));
  if (expanded.stdin) results.unshift(await loadStdin(stdin));
  return {
    servers: results.flatMap((r) => r.servers),
    errors: [...expanded.errors, ...results.flatMap((r) => r.errors)],
  };
}
