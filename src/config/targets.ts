/**
 * The config's `targets`, for a run that names none on the command line: files, globs and
 * directories (relative to the config file), and live servers under `mcpServers` (started
 * or reached like --mcp-config's, with the same --timeout, --concurrency and
 * --save-snapshots). The MCP SDK is loaded only when there are live servers.
 */
import { dirname } from 'node:path';
import { loadTargets, onlyNegations, readFiles, type OwnFiles } from '../sources/files.js';
import type { InputError, ServerInput } from '../types.js';
import type { ResolvedConfig } from './resolve.js';
import type { LiveRunFlags } from '../sources/live/run.js';
import { append } from '../util/array.js';
import { oneLine } from '../util/text.js';
import { UsageError } from '../cli/io.js';

/** The config's live servers run with the flags of any live run (--timeout, --concurrency, --save-snapshots). */
export type ConfigTargetFlags = LiveRunFlags & { checkInputs?: (files: readonly string[]) => void };

export interface ConfigServers {
  servers: ServerInput[];
  errors: InputError[];
  notes: string[];
  /** The targets.mcpServers entries skipped (disabled, …): see GatheredServers.skipped. */
  skipped?: string[];
  interrupted?: NodeJS.Signals;
}

export async function gatherConfigTargets(
  config: ResolvedConfig,
  flags: ConfigTargetFlags,
  io: { cwd: string; env: NodeJS.ProcessEnv; stdin: NodeJS.ReadableStream; stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number } },
  /** The run's own files, which directories and globs skip (see expandTargets). */
  exclude?: OwnFiles,
): Promise<ConfigServers> {
  const out: ConfigServers = { servers: [], errors: [], notes: [] };
  const servers = Object.keys(config.mcpServers?.entries ?? {}).length;
  if (config.files.length === 0 && servers === 0) {
    throw new UsageError(`nothing to lint: the targets of ${config.display} list no files and no servers; add some, or give targets on the command line`);
  }
  // "!" patterns alone leave out what other targets find, and there are none.
  const negationsOnly = await onlyNegations(config.files, io.cwd);
  if (servers === 0 && negationsOnly) {
    throw new UsageError(`nothing to lint: the targets of ${config.display} are only "!" patterns, which leave out what other targets find; add the files, globs or directories to lint, or give targets on the command line`);
  }
  if (config.files.length) {
    const loaded = await loadTargets(config.files, io.cwd, io.stdin, { exclude, check: flags.checkInputs });
    append(out.servers, loaded.servers);
    append(out.errors, loaded.errors);
    append(out.notes, loaded.notes);
  }
  if (config.mcpServers && Object.keys(config.mcpServers.entries).length) {
    const live = await import('../sources/live/index.js');
    const { liveRunOptions } = await import('../sources/live/run.js');
    const resolved = live.targetsFromServerEntries(config.mcpServers.entries, {
      file: config.path,
      display: config.display,
      pointerBase: config.mcpServers.pointer,
      locator: config.locator,
      env: io.env,
      cwd: io.cwd,
      // Relative commands, args and cwds start at the config file, like its file targets.
      workspaceFolder: dirname(config.path),
    });
    append(out.errors, resolved.errors);
    append(out.notes, resolved.notes);
    out.skipped = resolved.skipped ?? [];
    if ((config.files.length === 0 || negationsOnly) && resolved.targets.length === 0 && resolved.errors.length === 0) {
      // Said like an empty list (exit 2), not "no problems in 0 servers".
      for (const n of resolved.notes) io.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
      throw new UsageError(`nothing to lint: every server under targets.mcpServers of ${config.display} is disabled; enable one, or give targets on the command line`);
    }
    // --save-snapshots names no snapshot like a file the run reads or an -o report.
    const reserved = new Set([...readFiles(out.servers, exclude), ...(exclude?.outputs ?? [])]);
    const run = await live.runLiveTargets(resolved.targets, liveRunOptions(flags, { ...io, reserved }));
    append(out.servers, run.servers);
    append(out.errors, run.errors);
    append(out.notes, run.notes);
    out.interrupted = run.interrupted;
  }
  return out;
}
