/**
 * Finding and loading the config file.
 *
 * Discovery (lilconfig's order, without lilconfig: it read a directory or a pipe it came
 * across) looks in the working directory, then each parent up to the home
 * directory (or the filesystem root when the working directory is outside it), for the
 * first of CONFIG_FILES, then for an "mcp-annotate" key in package.json. `-c <file>`
 * loads that file instead; `--no-config` loads none.
 */
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { parseTree, type Node as JsonNode } from 'jsonc-parser';
import { displayPath } from '../sources/files.js';
import { decode, InputProblem } from '../sources/parse.js';
import { ConfigError, parseJsonConfig, parseYamlConfig, type ConfigProblem, type ParsedConfig } from './source.js';
import { MAX_CONFIG_BYTES, readFailure, readFileBounded } from '../util/read.js';

export const CONFIG_FILES = ['mcp-annotate.config.json', '.mcp-annotaterc.json', 'mcp-annotate.config.yaml', 'mcp-annotate.config.yml'] as const;
export const PACKAGE_KEY = 'mcp-annotate';

export interface ConfigText {
  /** Absolute path of the file. */
  path: string;
  /** As messages show it (relative to the working directory when inside it). */
  display: string;
  /** JSON pointer of the config inside the file ("/mcp-annotate" in package.json, else ""). */
  base: string;
  parsed: ParsedConfig;
  /** The file's text (for locating live-server entries). */
  text: string;
  format: 'json' | 'yaml';
}

/** The config file that applies in `cwd`, or undefined. Other config files next to it are returned too, to warn about. */
export async function findConfigFile(cwd: string): Promise<{ path: string; ignored: string[] } | undefined> {
  // lilconfig's search order (the first of CONFIG_FILES, then package.json with the key, in
  // each directory from `cwd` up to the home directory or the root), but a candidate that is
  // not a regular file (a directory named package.json, a named pipe) is skipped, as ESLint
  // skips one: lilconfig read it and failed with EISDIR, or waited forever on the pipe.
  const stopDir = resolve(homedir());
  let dir = resolve(cwd);
  for (;;) {
    for (const name of [...CONFIG_FILES, 'package.json']) {
      const path = join(dir, name);
      if (!isRegularFile(path)) continue;
      if (name === 'package.json' && !hasPackageKey(path)) continue;
      const ignored = CONFIG_FILES.map((f) => join(dir, f)).filter((p) => p !== path && isRegularFile(p));
      // A package.json "mcp-annotate" key comes last: a config file beside it wins, and says so.
      const pkg = join(dir, 'package.json');
      if (name !== 'package.json' && isRegularFile(pkg) && hasPackageKey(pkg)) ignored.push(pkg);
      return { path, ignored };
    }
    const parent = dirname(dir);
    if (dir === stopDir || parent === dir) return undefined;
    dir = parent;
  }
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Whether a package.json has the "mcp-annotate" key (not null); one that cannot be read counts,
 * and so does one that gives the key twice, so that reading it again reports why.
 */
function hasPackageKey(path: string): boolean {
  let content: string;
  try {
    content = readFileBounded(path, MAX_CONFIG_BYTES).toString('utf8');
  } catch {
    return true;
  }
  let root: JsonNode | undefined;
  try {
    root = parseTree(content, [], { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  } catch (err) {
    // Too deeply nested to parse: read again, with the error, by readConfigFile.
    if (err instanceof RangeError) return true;
    throw err;
  }
  if (root?.type !== 'object') return false;
  const members = (root.children ?? []).filter((p) => p.children?.[0]?.value === PACKAGE_KEY);
  return members.length > 1 || (members.length === 1 && members[0]!.children?.[1]?.type !== 'null');
}

function isPipe(path: string): boolean {
  try {
    const info = statSync(path);
    return info.isFIFO() || info.isCharacterDevice();
  } catch {
    return false;
  }
}

/** Read and parse a config file, with positions. */
export async function readConfigFile(path: string, cwd: string): Promise<ConfigText> {
  const display = displayPath(path, cwd);
  let bytes: Buffer;
  try {
    bytes = readFileBounded(path, MAX_CONFIG_BYTES);
  } catch (err) {
    throw new ConfigError([{ file: display, message: `cannot read the config file: ${readFailure(err)}` }]);
  }
  let text: string;
  try {
    text = decode(bytes, 'a config file is UTF-8 encoded');
  } catch (err) {
    if (!(err instanceof InputProblem)) throw err;
    throw new ConfigError([{ file: display, line: err.line, column: err.column, message: err.message }]);
  }
  let ext = extname(path).toLowerCase();
  // A pipe (`-c <(…)`) has no extension to go by: JSON when it starts like JSON, else YAML.
  if (!['.json', '.yaml', '.yml'].includes(ext) && isPipe(path)) ext = /^\uFEFF?\s*[{[]/.test(text) ? '.json' : '.yaml';
  if (ext === '.yaml' || ext === '.yml') {
    return { path, display, base: '', parsed: await parseYamlConfig(text, display), text, format: 'yaml' };
  }
  if (basename(path) === 'package.json') {
    const parsed = parseJsonConfig(text, display, `/${PACKAGE_KEY}`);
    if (parsed.value === undefined) throw new ConfigError([{ file: display, message: `package.json has no "${PACKAGE_KEY}" key` }]);
    return { path, display, base: `/${PACKAGE_KEY}`, parsed, text, format: 'json' };
  }
  if (ext !== '.json') {
    throw new ConfigError([{ file: display, message: 'a config file must be .json, .yaml or .yml (or package.json with an "mcp-annotate" key, or a pipe)' }]);
  }
  return { path, display, base: '', parsed: parseJsonConfig(text, display), text, format: 'json' };
}

export function problemAt(file: ConfigText, pointer: string, message: string, key = false): ConfigProblem {
  const pos = file.parsed.position(pointer, key);
  return { file: file.display, line: pos?.line, column: pos?.column, message };
}
