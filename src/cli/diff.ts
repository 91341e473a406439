/**
 * `mcp-annotate diff <base> [head]`: two snapshots of the same servers → drift findings
 * (annotation changes that weaken what clients rely on) → every requested output.
 *
 * The base is a file, glob, directory or - (stdin). The head is another one, or live
 * servers given with the same flags as lint (--stdio, --url, --mcp-config, …), loaded by the
 * same code lint uses. When a side cannot be read completely, only the servers both sides
 * have are compared (a server missing from one side might only be unreadable), the input
 * errors are reported, and the exit code is 2.
 */
import { resolve } from 'node:path';
import { DRIFT_RULES } from '../diff/rules/index.js';
import { comparedServers, diff, MAX_DIFF_TOOLS } from '../diff/diff.js';
import { fileNames, overrideNotes, overrideTarget, toolNames, type OverrideTarget } from '../config/override-notes.js';
import type { Report } from '../reporters/types.js';
import { loadTargets, onlyNegations, ownFiles, readFiles, STDIN_PATHS } from '../sources/files.js';
import { hasLiveFlags } from '../sources/live/flags.js';
import { oneLine, thousands } from '../util/text.js';
import { stoppedSummary } from '../sources/live/processes.js';
import { EXIT, UsageError, hintStdinFromTerminal, type CliIO } from './io.js';
import { SIGNAL_EXIT, checkOutputs, checkOutputsAreNotInputs, exitCodeFor, failingSeverities, gatherServers, sortInputErrors, tooManyWarnings, maxFindingsFrom, maxPerToolFrom, selectPacks, writeReports, type LintCliOptions } from './lint.js';
import { runSettings } from '../config/settings.js';
import type { RuleSetting } from '../engine/engine.js';

export type DiffCliOptions = LintCliOptions;

/** Names of the process's standard input besides -. */

/** The config's settings of the drift rules (drift/*): lint's rules are not diff's. */
function driftSettings(rules: Record<string, RuleSetting> | undefined): Record<string, RuleSetting> {
  return Object.fromEntries(Object.entries(rules ?? {}).filter(([id]) => id.startsWith('drift/')));
}

export async function diffCommand(base: string, head: string | undefined, opts: DiffCliOptions, io: CliIO): Promise<number> {
  const outputs = checkOutputs(opts.outputs, io.cwd);
  // The same config lint reads, with the flags over it: its drift/* severities (in `rules` and
  // `overrides`), spec, vocabularies and failure thresholds (policies are lint's).
  // (The base stands in for targets: diff never lints the config's targets.)
  const settings = await runSettings([base], opts, { cwd: io.cwd, warn: (line) => io.stderr.write(`mcp-annotate: ${line}\n`) });
  const packs = selectPacks(settings.vocab, settings.disableVocab);
  const checkInputs = checkOutputsAreNotInputs(outputs, io.cwd, { config: settings.config?.path, clients: opts.mcpConfig });
  opts = { ...opts, checkInputs };
  const live = hasLiveFlags(opts);
  if (head === undefined && !live) {
    throw new UsageError('diff needs a head to compare with the base: a second file, glob or directory, or a live server (--stdio, --url, --mcp-config)');
  }
  if (head !== undefined && live) {
    throw new UsageError('give the head either as a second file or as a live server (--stdio, --url, --mcp-config), not both');
  }
  // /dev/stdin and /proc/self/fd/0 are stdin too: read twice, the second side was "empty".
  const readsStdin = (t: string) => t === '-' || STDIN_PATHS.has(resolve(io.cwd, t));
  if (head !== undefined && readsStdin(base) && readsStdin(head)) {
    throw new UsageError(base === '-' && head === '-' ? 'only one of <base> and <head> can be - (stdin)' : `only one of <base> and <head> can read stdin (${base} and ${head} both do)`);
  }

  // A "!" pattern leaves out what other targets find: alone it is an empty side, not a base.
  for (const [side, target] of [['base', base], ['head', head]] as const) {
    if (target !== undefined && (await onlyNegations([target], io.cwd))) {
      throw new UsageError(`the ${side} ${JSON.stringify(target)} is a "!" pattern, which leaves out what other targets find; give the ${side}'s files, glob or directory`);
    }
  }
  const maxFindings = maxFindingsFrom(io.env);
  const maxPerTool = maxPerToolFrom(io.env);
  hintStdinFromTerminal([base], io);
  // Directories and globs do not pick up the run's own config file, nor reports it wrote before.
  const own = ownFiles(io.cwd, { inputs: [settings.config?.path], outputs: outputs.map((o) => o.file) });
  const before = await loadTargets([base], io.cwd, io.stdin, { exclude: own, check: checkInputs });
  // The base's files are the run's too: --save-snapshots must not write over them.
  const after = await gatherServers(head === undefined ? [] : [head], opts, io, { ...own, inputs: readFiles(before.servers, own) });
  for (const n of [...before.notes.sort(), ...after.notes.sort()]) io.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
  if (after.interrupted) {
    io.stderr.write(`mcp-annotate: interrupted (${after.interrupted}); ${stoppedSummary('every server started was stopped')}\n`);
    return SIGNAL_EXIT[after.interrupted] ?? EXIT.error;
  }
  // The base's errors, then the head's, each side's in a stable order (see sortInputErrors).
  const errors = [...sortInputErrors(before.errors), ...sortInputErrors(after.errors)];
  // A server too large to compare is an input error: its side counts as not read completely.
  for (const side of [before, after]) {
    side.servers = side.servers.filter((s) => {
      if (s.tools.length <= MAX_DIFF_TOOLS) return true;
      errors.push({ target: s.origin.display, message: `${s.origin.display}: ${thousands(s.tools.length)} tools in one server; diff compares servers of up to ${thousands(MAX_DIFF_TOOLS)} tools` });
      return false;
    });
  }
  for (const e of errors) io.stderr.write(`${oneLine(e.message)}\n`);
  if (errors.length) io.stderr.write('mcp-annotate: only servers that both sides have were compared, since not every input could be read\n');

  // Overrides that match no server or tool the diff compares (as it names them: after the head).
  if (settings.config?.overrideEntries && errors.length === 0) {
    const targets = comparedServers(before.servers, after.servers).map(({ server, base }): OverrideTarget => {
      const own = overrideTarget(server);
      if (!base) return own;
      const renamed = base.name !== server.name;
      return {
        name: server.name,
        tools: [...own.tools, ...toolNames(base)],
        files: renamed ? own.files : [...own.files, ...fileNames(base)],
        ...(renamed ? { aliases: [base.name, ...fileNames(base)] } : {}),
      };
    });
    for (const n of overrideNotes(settings.config.overrideEntries, targets, after.skipped)) io.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
  }
  const result = diff(before.servers, after.servers, DRIFT_RULES, {
    spec: settings.engine.spec,
    packs,
    rules: driftSettings(settings.config?.rules),
    overrides: settings.config?.overrides,
    pairedOnly: errors.length > 0,
    maxFindings,
    maxPerTool,
  });
  if (result.stopped) {
    const { display, limit } = result.stopped;
    const error = { target: display, message: `${display}: stopped after ${thousands(limit)} findings in this server; the report holds those, and the servers after it were not compared (MCP_ANNOTATE_MAX_FINDINGS raises the limit)` };
    io.stderr.write(`${error.message}\n`);
    errors.push(error);
  }
  const counted = failingSeverities(result.findings);
  const over = tooManyWarnings(counted, settings.maxWarnings, settings.maxWarningsFrom);
  const code = exitCodeFor(counted, errors, settings.failOn, settings.maxWarnings);
  // The reports' headlines say the verdict the exit code gives.
  const report: Report = { findings: result.findings, servers: result.servers, errors, rules: DRIFT_RULES, cwd: io.cwd, command: 'diff', ...(over ? { tooManyWarnings: over } : {}), fails: code !== EXIT.ok, exitCode: code };
  await writeReports(report, outputs, opts, io);
  return code;
}
