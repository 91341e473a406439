/**
 * `mcp-annotate dump`: connect to one live server and write its snapshot
 * {serverInfo, protocolVersion, capabilities, tools} (sorted keys, stable formatting),
 * the file `lint` reads back with positions.
 */
import { resolve } from 'node:path';
import type { LiveFlags } from '../sources/live/flags.js';
import { oneLine } from '../util/text.js';
import { stoppedSummary } from '../sources/live/processes.js';
import { EXIT, UsageError, type CliIO } from './io.js';
import { checkOutputsAreNotInputs } from './lint.js';
import { writeText } from '../util/write.js';
import { inWorkflowLog, logGuard } from '../util/workflow-log.js';

export interface DumpCliOptions extends LiveFlags {
  outputFile?: string;
}

const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/** How to pick one server: --server picks among config servers only; a --stdio or --url is one server each. */
function pickOne(flags: LiveFlags): string {
  const direct = (flags.url?.length ?? 0) + (flags.stdio?.length ?? 0) + (flags.command?.length ? 1 : 0);
  if (!flags.mcpConfig?.length) return 'give one --stdio, --url or command after --';
  return direct ? 'give either one --stdio, --url or command, or one config server (--mcp-config with --server)' : 'pick one with --server';
}

export async function dumpCommand(target: string | undefined, opts: DumpCliOptions, io: CliIO): Promise<number> {
  const flags: DumpCliOptions = { ...opts };
  // An empty path resolved to the working directory, and was reported as "is a directory" after the server ran.
  if (flags.outputFile === '') throw new UsageError('-o "" is an empty path; give a file name, or - for stdout');
  if (target !== undefined) {
    if (!/^https?:\/\//i.test(target)) {
      throw new UsageError(`dump ${JSON.stringify(target)}: a target given by itself must be an http:// or https:// URL; for a program use --stdio "<command line>" or put it after --`);
    }
    flags.url = [...(flags.url ?? []), target];
  }
  const live = await import('../sources/live/index.js');
  if (!live.hasLiveFlags(flags)) {
    throw new UsageError('nothing to dump: give a URL, --stdio "<command line>", a command after --, or --mcp-config <file> --server <name>');
  }
  const ctx = { env: io.env, cwd: io.cwd, stderr: io.stderr };
  // The snapshot must not replace a client config it is read from (-o .mcp.json --mcp-config .mcp.json).
  if (flags.outputFile !== undefined) checkOutputsAreNotInputs([{ format: 'json', file: flags.outputFile }], io.cwd, { clients: flags.mcpConfig }, 'snapshot');
  if (flags.mcpConfig?.length) {
    // How many servers were given, before any is resolved: the variables of servers not
    // chosen are no concern of this run (and the usage error says to choose).
    const plan = await live.resolveLiveTargets(flags, ctx, { plan: true });
    const given = [...(flags.url ?? []), ...(flags.stdio ?? []), ...(flags.command?.length ? [flags.command.join(' ')] : []), ...(plan.planned ?? [])];
    if (plan.errors.length === 0 && given.length > 1) {
      throw new UsageError(`dump writes one server's snapshot, and ${given.length} were given (${given.map((n) => JSON.stringify(n)).join(', ')}); ${pickOne(flags)}, or use lint --save-snapshots <dir> for several`);
    }
  }
  const resolved = await live.resolveLiveTargets(flags, ctx);
  for (const n of resolved.notes) io.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
  for (const e of resolved.errors) io.stderr.write(`${oneLine(e.message)}\n`);
  if (resolved.errors.length) return EXIT.error;
  if (resolved.targets.length === 0) throw new UsageError('nothing to dump: no enabled server was selected');
  if (resolved.targets.length > 1) {
    const names = resolved.targets.map((t) => JSON.stringify(t.name ?? t.display)).join(', ');
    throw new UsageError(`dump writes one server's snapshot, and ${resolved.targets.length} were given (${names}); ${pickOne(flags)}, or use lint --save-snapshots <dir> for several`);
  }
  const run = await live.runLiveTargets(resolved.targets, { ...live.liveRunOptions({ timeout: flags.timeout }, io), concurrency: 1 });
  if (run.interrupted) {
    io.stderr.write(`mcp-annotate: interrupted (${run.interrupted}); ${stoppedSummary('the server was stopped')}\n`);
    return SIGNAL_EXIT[run.interrupted] ?? EXIT.error;
  }
  for (const n of run.notes) io.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
  for (const e of run.errors) io.stderr.write(`${oneLine(e.message)}\n`);
  const snapshot = run.snapshots[0];
  if (!snapshot) return EXIT.error;
  // What the snapshot cannot hold: the names the server's responses gave twice (see raw.ts).
  for (const n of run.repeatNotes) io.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
  if (flags.outputFile === undefined || flags.outputFile === '-') {
    // Equal JSON in a GitHub Actions log, with no "##[" a server put in it (see workflow-log.ts).
    io.stdout.write(inWorkflowLog(io.env) ? logGuard('json')(snapshot.text) : snapshot.text);
  } else {
    await writeText(resolve(io.cwd, flags.outputFile), flags.outputFile, snapshot.text);
  }
  return EXIT.ok;
}
