/** The live-target options of `lint` and `dump`, as commander hands them over (tiny: the CLI reads this for every run). */
import { UsageError } from '../../cli/io.js';

/** The live options of `lint` and `dump`, as commander hands them over. */
export interface LiveFlags {
  stdio?: string[];
  /** The command after `--`. */
  command?: string[];
  url?: string[];
  transport?: 'auto' | 'http' | 'sse';
  header?: string[];
  env?: string[];
  mcpConfig?: string[];
  server?: string[];
  input?: string[];
  discover?: boolean;
  yes?: boolean;
  timeout?: number;
  concurrency?: number;
  saveSnapshots?: string;
}

export function hasLiveFlags(f: LiveFlags): boolean {
  return Boolean(f.stdio?.length || f.command?.length || f.url?.length || f.mcpConfig?.length || f.discover);
}

/** Flags that only make sense with some target: a usage error names the missing one. */
export function checkLiveFlags(f: LiveFlags): void {
  const urls = Boolean(f.url?.length);
  const commands = Boolean(f.stdio?.length || f.command?.length);
  const configs = Boolean(f.mcpConfig?.length || f.discover);
  if (f.header?.length && !urls) throw new UsageError('--header applies to --url servers, and there is none (headers of config servers come from their config file)');
  if (f.transport && !urls) throw new UsageError('--transport applies to --url servers, and there is none');
  if (f.env?.length && !commands) throw new UsageError('--env applies to --stdio servers (or a command after --), and there is none');
  if (f.server?.length && !configs) throw new UsageError('--server picks servers from --mcp-config files or --discover; give one of them');
  if (f.input?.length && !configs) throw new UsageError('--input gives VS Code ${input:…} values for --mcp-config files or --discover; give one of them');
  if (f.saveSnapshots !== undefined && !(urls || commands || configs)) throw new UsageError('--save-snapshots saves the snapshots of live servers, and there is none');
  if (f.yes && !f.discover) throw new UsageError('--yes confirms starting the servers --discover finds; it does nothing without --discover');
}
