/**
 * File targets: paths, globs, directories and "-" (stdin) → servers or input errors.
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, relative, resolve, sep } from 'node:path';
import type { InputError, Origin, ServerInput } from '../types.js';
import { isGlobPattern } from '../util/glob.js';
import { createLocator } from './locate.js';
import { decode, InputProblem, parseJson } from './parse.js';
import { serversFromDocument } from './shapes.js';

export interface LoadResult {
  servers: ServerInput[];
  errors: InputError[];
}

/** The path as the user should see it: relative to cwd with "/" separators when inside it. */
export function displayPath(path: string, cwd = process.cwd()): string {
  const rel = relative(cwd, path);
  if (rel === '' || rel.startsWith('..') || resolve(cwd, rel) !== path) return path.split(sep).join('/');
  return rel.split(sep).join('/');
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
      const at = locator.locate([err.pointer]).get(err.pointer);
      throw new InputProblem(err.message, at?.valueLine ?? 1, at?.valueColumn ?? 1);
    }
    throw err;
  }
  for (const s of servers) s.locator = locator;
  return servers;
}

async function readStdin(stream: NodeJS.ReadableStream): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

const GLOB_IGNORE = ['**/node_modules/**', '**/.git/**'];

/** Expand targets to files (sorted, de-duplicated), keeping "-" for stdin. */
export async function expandTargets(targets: string[], cwd = process.cwd()): Promise<{ files: string[]; stdin: boolean; errors: InputError[] }> {
  // fast-glob costs ~20 ms to load: only when a target is a directory or a pattern.
  let glob: typeof import('fast-glob') | undefined;
  const fastGlob = async () => (glob ??= (await import('fast-glob')).default);
  const files = new Set<string>();
  const errors: InputError[] = [];
  let stdin = false;
  for (const target of targets) {
    if (target === '-') {
      stdin = true;
      continue;
    }
    const abs = resolve(cwd, target);
    const info = await stat(abs).catch(() => undefined);
    if (info?.isFile()) {
      files.add(abs);
      continue;
    }
    if (info?.isDirectory()) {
      const fg = await fastGlob();
      const found = await fg('**/*.json', { cwd: abs, absolute: true, ignore: GLOB_IGNORE, dot: false });
      if (found.length === 0) errors.push({ target, message: `${target}: the directory holds no .json files` });
      for (const f of found) files.add(resolve(f));
      continue;
    }
    const fg = isGlobPattern(target) ? await fastGlob() : undefined;
    if (fg?.isDynamicPattern(target)) {
      const found = await fg(target.split(sep).join('/'), { cwd, absolute: true, ignore: GLOB_IGNORE, onlyFiles: true });
      if (found.length === 0) errors.push({ target, message: `${target}: no files match this pattern` });
      for (const f of found) files.add(resolve(f));
      continue;
    }
    errors.push({ target, message: `${target}: no such file or directory` });
  }
  return { files: [...files].sort(), stdin, errors };
}

export async function loadFile(path: string, cwd = process.cwd()): Promise<LoadResult> {
  const display = displayPath(path, cwd);
  try {
    // Read and decoded in one step, so the bytes die young: a buffer that lives across other
    // work is promoted to the old generation and held until a full collection.
    const text = decode(readFileSync(path));
    const servers = loadText(text, { kind: 'file', path, display }, serverNameFromFile(path), display);
    return { servers, errors: [] };
  } catch (err) {
    return { servers: [], errors: [toInputError(err, display, display)] };
  }
}

export async function loadStdin(stream: NodeJS.ReadableStream = process.stdin): Promise<LoadResult> {
  const display = '<stdin>';
  try {
    const text = decode(await readStdin(stream));
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
  const e = err as NodeJS.ErrnoException;
  if (e?.code === 'EISDIR') return { target: display, file, message: `${display}: is a directory` };
  if (e?.code === 'EACCES') return { target: display, file, message: `${display}: permission denied` };
  if (e?.code === 'ENOENT') return { target: display, file, message: `${display}: no such file or directory` };
  return { target: display, file, message: `${display}: ${e?.message ?? String(err)}` };
}

/** Load every target; errors for one target never stop the others. */
export async function loadTargets(targets: string[], cwd = process.cwd(), stdin?: NodeJS.ReadableStream): Promise<LoadResult> {
  const expanded = await expandTargets(targets, cwd);
  const results = await Promise.all(expanded.files.map((f) => loadFile(f, cwd)));
  if (expanded.stdin) results.unshift(await loadStdin(stdin));
  return {
    servers: results.flatMap((r) => r.servers),
    errors: [...expanded.errors, ...results.flatMap((r) => r.errors)],
  };
}
