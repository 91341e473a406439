/**
 * The config file, end to end: find it (or take -c), parse it with positions, validate
 * it against schemas/config.schema.json and the checks a schema cannot make, and resolve
 * it into what a run uses. Any problem is a ConfigError: one line per problem with
 * file:line:col, and the CLI exits 2.
 */
import { basename, dirname, resolve } from 'node:path';
import { RULES } from '../../rules/index.js';
import { ConfigError, formatProblem, type ParsedConfig } from './source.js';
import { createLocator, locatorOf } from '../sources/locate.js';
import { displayPath } from '../sources/files.js';
import type { Located, Locator } from '../types.js';
import { findConfigFile, problemAt, readConfigFile, type ConfigText } from './load.js';
import type { PointedProblem } from './validate.js';
import { resolveConfig, type ConfigFileValue, type OverrideEntry, type ResolvedConfig } from './resolve.js';

export { ConfigError } from './source.js';
export type { ResolvedConfig } from './resolve.js';

export interface LoadConfigOptions {
  cwd: string;
  /** -c/--config: this file, instead of discovery. */
  file?: string;
  /** --no-config. */
  noConfig?: boolean;
  /** Where to say that other config files next to the one used were ignored. */
  warn?: (line: string) => void;
}

export async function loadConfig(opts: LoadConfigOptions): Promise<ResolvedConfig | undefined> {
  if (opts.noConfig) return undefined;
  let path: string;
  if (opts.file !== undefined) {
    path = resolve(opts.cwd, opts.file);
  } else {
    const found = await findConfigFile(opts.cwd);
    if (!found) return undefined;
    path = found.path;
    if (found.ignored.length && opts.warn) {
      const shown = (p: string) => (basename(p) === 'package.json' ? `the "mcp-annotate" key of ${displayPath(p, opts.cwd)}` : displayPath(p, opts.cwd));
      opts.warn(`using ${shown(found.path)}; ignoring ${found.ignored.map(shown).join(', ')} in the same directory (keep one config file)`);
    }
  }
  const file = await readConfigFile(path, opts.cwd);
  const problems: PointedProblem[] = [];
  const warnings: PointedProblem[] = [];
  // The validator (precompiled from the schema) loads only when there is a config.
  const { checkConfig } = await import('./validate.js');
  const checked = checkConfig(file.parsed.value, problems, warnings);
  // In file order, so the first line is the first thing to fix.
  const located = (list: readonly PointedProblem[]) =>
    list
      .map((p) => problemAt(file, p.pointer, p.message, p.key))
      .sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  if (problems.length) throw new ConfigError(located(problems));
  // What loads but is likely a mistake (a core hint compared with "true"): said, and the run goes on.
  if (opts.warn) for (const w of located(warnings)) opts.warn(`warning: ${formatProblem(w)}`);
  const locator = file.format === 'json' ? createLocator(file.text) : positionLocator(file.parsed);
  const value = file.parsed.value as ConfigFileValue;
  const resolved = resolveConfig(value, checked, { path, display: file.display, dir: dirname(path), pointerBase: file.base, locator }, RULES, opts.cwd);
  if (value.overrides?.length) resolved.overrideEntries = overrideEntries(file, value.overrides);
  return resolved;
}

/** The overrides with where their `servers` and `tools` members are ("cfg.yaml:2:5"), in one pass over the file. */
function overrideEntries(file: ConfigText, overrides: NonNullable<ConfigFileValue['overrides']>): OverrideEntry[] {
  const requests = overrides.flatMap((_, i) => [
    { pointer: `/overrides/${i}/servers`, key: true },
    { pointer: `/overrides/${i}/tools`, key: true },
  ]);
  const found = file.parsed.positions(requests);
  const at = (k: number) => formatProblem({ file: file.display, line: found[k]?.line, column: found[k]?.column, message: '' }).replace(/: $/, '');
  return overrides.map((o, i) => ({
    index: i,
    ...(o.servers ? { servers: o.servers } : {}),
    ...(o.tools ? { tools: o.tools } : {}),
    at: { ...(o.servers ? { servers: at(2 * i) } : {}), ...(o.tools ? { tools: at(2 * i + 1) } : {}) },
  }));
}

/** A Locator over a YAML config's positions (start of each value; YAML has no JSON offsets to replace). */
function positionLocator(parsed: ParsedConfig): Locator {
  return locatorOf((pointers) =>
    pointers.map((p): Located | undefined => {
      const key = parsed.position(p, true);
      const value = parsed.position(p) ?? key;
      if (!key || !value) return undefined;
      return {
        pointer: p,
        line: key.line,
        column: key.column,
        endLine: value.line,
        endColumn: value.column,
        valueOffset: -1,
        valueLength: 0,
        valueLine: value.line,
        valueColumn: value.column,
        valueEndLine: value.line,
        valueEndColumn: value.column,
      };
    }),
  );
}
