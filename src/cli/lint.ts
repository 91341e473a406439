/**
 * `mcp-annotate lint`: targets → servers → findings → every requested output.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { lint, specNotes, type LintResult } from '../engine/engine.js';
import { loadTargets, onlyNegations, ownFiles, readFiles, type OwnFiles } from '../sources/files.js';
import { FORMATS, formatChunks } from '../reporters/index.js';
import { colourFor, type FormatName, type Report } from '../reporters/types.js';
import { PACK_IDS, SEVERITY_RANK, type Finding, type InputError, type PackId, type Severity, type SpecVersion } from '../types.js';
import { closest, oneLine, plural, thousands } from '../util/text.js';
import { stoppedSummary } from '../sources/live/processes.js';
import { EXIT, UsageError, hintStdinFromTerminal, useColor, type CliIO } from './io.js';
import { WriteError, writeChunksToFile } from '../util/write.js';
import { tuneForLargeRun } from './tuning.js';
import type { OutputSpec } from './main.js';
import type { ServerInput } from '../types.js';
import { checkLiveFlags, hasLiveFlags, type LiveFlags } from '../sources/live/flags.js';
import { clientConfigFiles } from '../sources/live/discover.js';
import { runSettings } from '../config/settings.js';
import { gatherConfigTargets } from '../config/targets.js';
import { overrideNotes, overrideTarget } from '../config/override-notes.js';
import { applyBaseline, checkBaselineFlags } from '../baseline/apply.js';
import { settleFixesOf } from '../engine/fixes.js';
import { append } from '../util/array.js';
import { realPath } from '../util/paths.js';
import { guardGithub, inWorkflowLog, logGuard } from '../util/workflow-log.js';

export interface LintCliOptions extends LiveFlags {
  spec?: SpecVersion;
  vocab?: string[];
  disableVocab?: string[];
  outputs: OutputSpec[];
  /** Unset: the config's failOn, else error. */
  failOn?: Severity | 'none';
  maxWarnings?: number;
  /** -c <file>, or false for --no-config. */
  config?: string | false;
  baseline?: string;
  updateBaseline?: boolean;
  failOnStale?: boolean;
  quiet?: boolean;
  color?: boolean;
  /** Size budget of markdown reports in bytes (--markdown-max-bytes). */
  markdownMaxBytes?: number;
  /** Refuses file targets that an --output-file would overwrite (set by the command). */
  checkInputs?: (files: readonly string[]) => void;
}

export function exitCodeFor(findingSeverities: Iterable<Severity>, errors: readonly InputError[], failOn: Severity | 'none' = 'error', maxWarnings?: number): number {
  if (errors.length > 0) return EXIT.error;
  let warnings = 0;
  let failing = false;
  for (const s of findingSeverities) {
    if (s === 'warning') warnings++;
    if (failOn !== 'none' && SEVERITY_RANK[s] >= SEVERITY_RANK[failOn]) failing = true;
  }
  if (failing) return EXIT.findings;
  if (maxWarnings !== undefined && warnings > maxWarnings) return EXIT.findings;
  return EXIT.ok;
}

/**
 * The severities that count for --fail-on and --max-warnings: an informational note (nothing
 * to fix: a proposal's own key, what a client decides per call) never fails a run, since no
 * change could clear it.
 */
export function failingSeverities(findings: readonly Finding[]): Severity[] {
  return findings.filter((f) => !f.informational).map((f) => f.severity);
}

/**
 * When the warnings that count are more than --max-warnings (or the config's maxWarnings)
 * allows: what the reports say of it. `config`: the config file the limit came from.
 */
export function tooManyWarnings(counted: readonly Severity[], max: number | undefined, config?: string): NonNullable<Report['tooManyWarnings']> | undefined {
  if (max === undefined) return undefined;
  const warnings = counted.filter((s) => s === 'warning').length;
  return warnings > max ? { max, warnings, ...(config !== undefined ? { config } : {}) } : undefined;
}

const EMPTY_OUTPUT = '-o "" is an empty path; give a file name, or - for stdout';

export function checkOutputs(outputs: OutputSpec[], cwd: string): OutputSpec[] {
  // "-o -" is stdout (a file named "-" is "./-").
  // An empty path resolved to the working directory, and was reported as "is a directory".
  if (outputs.some((o) => o.file === '')) throw new UsageError(EMPTY_OUTPUT);
  const list = outputs.length ? outputs.map((o) => (o.file === '-' ? { format: o.format } : o)) : [{ format: 'text' }];
  for (const o of list) {
    if (!(FORMATS as readonly string[]).includes(o.format)) {
      throw new UsageError(`unknown format ${JSON.stringify(o.format)}; expected one of ${FORMATS.join(', ')}`);
    }
  }
  if (list.filter((o) => o.file === undefined).length > 1) {
    throw new UsageError('only one format can go to stdout; give the others an --output-file');
  }
  // Two reports to one file: the last would silently replace the others.
  const seen = new Map<string, string>();
  for (const o of list) {
    if (o.file === undefined || isDevice(resolve(cwd, o.file))) continue;
    const key = realPath(resolve(cwd, o.file));
    const first = seen.get(key);
    if (first !== undefined) {
      const which = first === o.file ? `-o ${first} is given twice` : `-o ${first} and -o ${o.file} are the same file`;
      throw new UsageError(`${which}: each --format needs its own --output-file (the last report would replace the others)`);
    }
    seen.set(key, o.file);
  }
  return list;
}

/**
 * An --output-file must not be a file the run reads: the report would replace it (a target,
 * the config file, the --baseline file even with --update-baseline, a client config of
 * --mcp-config or --discover). Checks the config, the baseline and the client configs now,
 * and returns the check of the target files, for when they are known. `written`: what the
 * file would hold (dump writes a snapshot).
 */
export function checkOutputsAreNotInputs(
  outputs: readonly OutputSpec[],
  cwd: string,
  inputs: { config?: string; baseline?: string; clients?: readonly string[] },
  written: 'report' | 'snapshot' = 'report',
): ((files: readonly string[]) => void) | undefined {
  const files = new Map<string, string>();
  // A device or pipe (-o /dev/stdout, while /dev/stdin is a target) is written to, not replaced.
  for (const o of outputs) if (o.file !== undefined && o.file !== '-' && !isDevice(resolve(cwd, o.file))) files.set(realPath(resolve(cwd, o.file)), o.file);
  if (files.size === 0) return undefined;
  const refuse = (path: string, what: string) => {
    const file = files.get(realPath(path));
    if (file !== undefined) throw new UsageError(`-o ${file} is ${what}; the ${written} would replace it (write the ${written} elsewhere)`);
  };
  if (inputs.config !== undefined) refuse(inputs.config, 'the config file of this run');
  if (inputs.baseline !== undefined) refuse(resolve(cwd, inputs.baseline), 'the --baseline file of this run');
  for (const c of inputs.clients ?? []) refuse(resolve(cwd, c), 'also an input of this run');
  return (targets) => {
    for (const f of targets) refuse(f, 'also an input of this run');
  };
}

/** Whether a path exists and is not a regular file or directory: a device, a pipe, a socket. */
function isDevice(path: string): boolean {
  try {
    const info = statSync(path);
    return !info.isFile() && !info.isDirectory();
  } catch {
    return false;
  }
}

/**
 * Write chunks to a stream, waiting for it to drain (a report can be larger than memory wants to
 * hold twice). A stream that closes (stdout into `| head -1`) takes no more: the rest of this
 * report is not made, and the run goes on (its other outputs, its exit code).
 */
async function writeChunks(stream: NodeJS.WritableStream, chunks: Iterable<string>): Promise<void> {
  const closed = () => (stream as { destroyed?: boolean }).destroyed === true;
  for (const chunk of chunks) {
    if (closed()) return;
    if (!stream.write(chunk) && !closed()) {
      await new Promise<void>((done) => {
        const go = () => {
          stream.off('drain', go);
          stream.off('close', go);
          done();
        };
        stream.on('drain', go);
        stream.on('close', go);
      });
    }
  }
}

function* mapChunks(chunks: Iterable<string>, f: (s: string) => string): Generator<string> {
  for (const c of chunks) yield f(c);
}

/**
 * Write the report in every requested format: to its --output-file (parent directories
 * created), then to stdout. The files come first so that a file that cannot be written is part
 * of the verdict the others show: the report gets `unwritten` (the run fails, exit 2), the files
 * already written are written again with it (replaced whole: one whose second writing fails keeps
 * its first report; not one on a device or pipe, which keeps what it said), and the reports to stdout, last, say it too. Throws the write errors (one line each).
 */
export async function writeReports(report: Report, outputs: readonly OutputSpec[], opts: Pick<LintCliOptions, 'color' | 'quiet' | 'markdownMaxBytes'>, io: CliIO): Promise<void> {
  const chunksFor = async (o: OutputSpec, r: Report) => {
    const color = o.file === undefined ? useColor(opts.color, io.env, io.stdout.isTTY) : opts.color === true;
    const chalk = o.format === 'text' ? await colourFor(color) : undefined;
    return formatChunks(o.format as FormatName, r, { color, chalk, quiet: Boolean(opts.quiet), markdownMaxBytes: opts.markdownMaxBytes });
  };
  const failed: WriteError[] = [];
  /** Write one report file; a file that cannot be written does not stop the others. */
  const toFile = async (o: OutputSpec, r: Report, again = false): Promise<boolean> => {
    try {
      await writeChunksToFile(resolve(io.cwd, o.file!), o.file!, await chunksFor(o, r), { replace: again });
      return true;
    } catch (err) {
      if (!(err instanceof WriteError)) throw err;
      failed.push(err);
      return false;
    }
  };
  const files = outputs.filter((o) => o.file !== undefined);
  const written: OutputSpec[] = [];
  for (const o of files) if (await toFile(o, report)) written.push(o);
  if (failed.length) {
    report = { ...report, fails: true, exitCode: EXIT.error, unwritten: [] };
    // Again until no more fail: a file written again can fail too (a full disk).
    for (let seen = 0; seen < failed.length; ) {
      seen = failed.length;
      report = { ...report, unwritten: failed.map((e) => ({ file: e.file, reason: e.reason })) };
      for (const o of [...written]) {
        if (isDevice(resolve(io.cwd, o.file!))) continue;
        if (!(await toFile(o, report, true))) written.splice(written.indexOf(o), 1);
      }
    }
  }
  for (const o of outputs) {
    if (o.file !== undefined) continue;
    // The github format writes workflow commands on purpose (and escapes what it quotes): only its other lines are guarded.
    const guard = !inWorkflowLog(io.env) ? undefined : o.format === 'github' ? guardGithub : logGuard(o.format === 'json' || o.format === 'sarif' ? 'json' : 'text');
    const chunks = await chunksFor(o, report);
    await writeChunks(io.stdout, guard ? mapChunks(chunks, guard) : chunks);
  }
  if (failed.length) throw new UsageError(failed.map((e) => e.message).join('\n'));
  if (outputs.some((o) => o.format === 'sarif')) {
    const warning = sarifWithoutFiles(report, Boolean(opts.quiet));
    if (warning) io.stderr.write(`mcp-annotate: warning: ${warning}\n`);
  }
}

/**
 * GitHub code scanning rejects a whole SARIF file when a result has no physical location
 * ("expected a physical location"): what to say when some findings have no file to point at
 * (a live server without --save-snapshots and not from a config file, or stdin).
 */
export function sarifWithoutFiles(report: Report, quiet: boolean): string | undefined {
  const kinds = new Map(report.servers.map((s) => [s.id, s.origin.kind]));
  let live = 0;
  let stdin = 0;
  for (const f of report.findings) {
    if ((quiet && f.severity !== 'error') || (f.file !== undefined && f.region !== undefined)) continue;
    if (kinds.get(f.serverId) === 'stdin') stdin++;
    else live++;
  }
  if (live + stdin === 0) return undefined;
  const how = [
    live ? 'lint live servers with --save-snapshots <dir> (the results then point into the saved snapshots)' : '',
    stdin ? 'save stdin to a file and lint the file' : '',
  ].filter(Boolean);
  return `${plural(live + stdin, 'SARIF result')} ${live + stdin === 1 ? 'has' : 'have'} no file to point at (${live ? 'a live server' : 'stdin'}${live && stdin ? ', stdin' : ''}), and GitHub code scanning rejects a SARIF file with such results ("expected a physical location"): ${how.join('; ')}`;
}

/** MCP_ANNOTATE_MAX_FINDINGS: the limit on findings of lint and diff, when set. */
export function maxFindingsFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.MCP_ANNOTATE_MAX_FINDINGS;
  if (raw === undefined || raw === '') return undefined;
  if (!/^[1-9]\d*$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new UsageError(`MCP_ANNOTATE_MAX_FINDINGS must be a positive whole number, not ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** MCP_ANNOTATE_MAX_PER_TOOL: how many findings of one rule lint lists for one tool (0: all), when set. */
export function maxPerToolFrom(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.MCP_ANNOTATE_MAX_PER_TOOL;
  if (raw === undefined || raw === '') return undefined;
  if (!/^(0|[1-9]\d*)$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new UsageError(`MCP_ANNOTATE_MAX_PER_TOOL must be a whole number (0 for no limit), not ${JSON.stringify(raw)}`);
  return Number(raw);
}

/** The input error of a run that stopped at the findings limit: on the server it stopped in. */
function stoppedError(stopped: NonNullable<LintResult['stopped']>): InputError {
  const { display, limit, at, serversAfter } = stopped;
  const after = serversAfter === 0 ? '' : serversAfter === 1 ? 'the server after it' : `the ${thousands(serversAfter)} servers after it`;
  const rest = at
    ? `at tool ${thousands(at.toolIndex + 1)} of ${thousands(at.tools)}; the report holds those, and the rest of this server${after ? ` and ${after} were` : ' was'} not linted`
    : `in the checks across its tools; the report holds those, findings past them were left out${after ? `, and ${after} ${serversAfter === 1 ? 'was' : 'were'} not linted` : ''}`;
  return { target: display, message: `${display}: stopped after ${thousands(limit)} findings, ${rest} (MCP_ANNOTATE_MAX_FINDINGS raises the limit)` };
}

/** Where a run's time went, phase by phase, from the process's start (MCP_ANNOTATE_TIMING=1; stderr). */
export function phaseLine(phases: [string, number][]): string {
  const total = phases.reduce((sum, [, ms]) => sum + ms, 0);
  return `phases (ms): ${phases.map(([name, ms]) => `${name} ${ms.toFixed(0)}`).join(' · ')} · total ${total.toFixed(0)}\n`;
}

/** The slowest packs and rules, like ESLint's TIMING=1 (MCP_ANNOTATE_TIMING=1; stderr). */
export function timingTable(timing: Map<string, number>, rows = 20): string {
  const total = [...timing.values()].reduce((a, b) => a + b, 0);
  const list = [...timing].sort((a, b) => b[1] - a[1]).slice(0, rows);
  const width = Math.max(12, ...list.map(([k]) => k.length));
  const lines = [`${'pack or rule'.padEnd(width)}  time (ms)  relative`];
  for (const [k, ms] of list) lines.push(`${k.padEnd(width)}  ${ms.toFixed(1).padStart(9)}  ${((100 * ms) / (total || 1)).toFixed(1).padStart(7)}%`);
  return lines.join('\n') + '\n';
}

/** The packs a run uses: all by default, only --vocab ones (and core) when given — core alone for an empty list (`vocabularies: []`) — minus --disable-vocab. */
export function selectPacks(only: string[] | undefined, disabled: string[] | undefined): PackId[] {
  for (const id of [...(only ?? []), ...(disabled ?? [])]) {
    if (!(PACK_IDS as readonly string[]).includes(id)) {
      const guess = closest(id, PACK_IDS);
      throw new UsageError(`unknown vocabulary ${JSON.stringify(id)}${guess ? `; did you mean ${JSON.stringify(guess)}?` : ''} (known: ${PACK_IDS.join(', ')})`);
    }
  }
  if (disabled?.includes('core')) throw new UsageError('the core vocabulary cannot be disabled: it is the MCP spec itself');
  const base = only ? PACK_IDS.filter((p) => p === 'core' || only.includes(p)) : [...PACK_IDS];
  return base.filter((p) => !disabled?.includes(p));
}

export interface GatheredServers {
  servers: ServerInput[];
  errors: InputError[];
  /** Said on stderr, not errors (e.g. a disabled server in a client config was skipped). */
  notes: string[];
  /** Client config entries skipped (disabled, …), by name: an override naming one is no typo. */
  skipped?: string[];
  /** A signal (Ctrl-C) stopped the live servers: report nothing, exit 128 + its number. */
  interrupted?: NodeJS.Signals;
}

/**
 * Every target of a lint run → servers: files, globs and stdin, then live servers (--stdio,
 * --url, --mcp-config, --discover --yes). The MCP SDK is loaded only when there are live ones.
 */
export async function gatherServers(targets: string[], opts: LintCliOptions, io: CliIO, exclude?: OwnFiles): Promise<GatheredServers> {
  checkLiveFlags(opts);
  const live = hasLiveFlags(opts);
  if (targets.length === 0 && !live) {
    throw new UsageError('nothing to lint: give files, globs or directories of tools/list dumps or session transcripts, - to read stdin, or a live server (--stdio, --url, --mcp-config, --discover)');
  }
  if (!live && (await onlyNegations(targets, io.cwd))) {
    throw new UsageError(`nothing to lint: ${targets.length === 1 ? 'the only target is a "!" pattern' : 'every target is a "!" pattern'}, which leaves out what other targets find; give the files, globs or directories to lint as well (e.g. 'dumps/*.json' '!dumps/old-*.json')`);
  }
  const gathered: GatheredServers = { servers: [], errors: [], notes: [] };
  if (targets.length) {
    hintStdinFromTerminal(targets, io);
    const loaded = await loadTargets(targets, io.cwd, io.stdin, { exclude, check: opts.checkInputs });
    append(gathered.servers, loaded.servers);
    append(gathered.errors, loaded.errors);
    append(gathered.notes, loaded.notes);
  }
  if (live) {
    const { gatherLive } = await import('../sources/live/index.js');
    // --save-snapshots names no snapshot like a file the run reads or an -o report.
    const reserved = new Set([...readFiles(gathered.servers, exclude), ...(exclude?.outputs ?? [])]);
    const r = await gatherLive(opts, { env: io.env, cwd: io.cwd, stderr: io.stderr, reserved }, { alone: targets.length === 0 });
    append(gathered.servers, r.servers);
    append(gathered.errors, r.errors);
    append(gathered.notes, r.notes);
    gathered.skipped = r.skipped;
    gathered.interrupted = r.interrupted;
  }
  return gathered;
}

/**
 * Input errors in a stable order whatever the order of the targets (as findings and servers
 * are): by target, then file, position and message; errors alike keep their order.
 */
export function sortInputErrors(errors: InputError[]): InputError[] {
  const cmp = (a: string | number | undefined, b: string | number | undefined) => (a === b ? 0 : a === undefined ? -1 : b === undefined ? 1 : a < b ? -1 : 1);
  return errors.sort((a, b) => cmp(a.target, b.target) || cmp(a.file, b.file) || cmp(a.line, b.line) || cmp(a.column, b.column) || cmp(a.message, b.message));
}

export const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

export async function lintCommand(targets: string[], opts: LintCliOptions, io: CliIO): Promise<number> {
  const outputs = checkOutputs(opts.outputs, io.cwd);
  checkBaselineFlags(opts);
  // The config file, with the flags over it; its targets when the command line names none.
  const settings = await runSettings(targets, opts, { cwd: io.cwd, warn: (line) => io.stderr.write(`mcp-annotate: ${line}\n`) });
  const packs = selectPacks(settings.vocab, settings.disableVocab);
  // The client configs the run reads (--mcp-config, --discover's), refused as -o before any server starts.
  const clients = outputs.some((o) => o.file !== undefined) ? clientConfigFiles(opts, { cwd: io.cwd, env: io.env }) : [];
  opts = { ...opts, checkInputs: checkOutputsAreNotInputs(outputs, io.cwd, { config: settings.config?.path, baseline: opts.baseline, clients }) };
  if (opts.discover && !opts.yes) {
    if (targets.length) throw new UsageError('--discover without --yes only lists servers; add --yes to lint them, or lint the other targets in another run');
    const { listDiscovered } = await import('../sources/live/index.js');
    const listed = await listDiscovered(opts, { env: io.env, cwd: io.cwd, stderr: io.stderr });
    for (const e of listed.errors) io.stderr.write(`${oneLine(e.message)}\n`);
    io.stdout.write(inWorkflowLog(io.env) ? logGuard('text')(listed.text) : listed.text);
    return listed.errors.length ? EXIT.error : EXIT.ok;
  }
  const timing = Boolean(io.env.MCP_ANNOTATE_TIMING);
  const maxFindings = maxFindingsFrom(io.env);
  const maxPerTool = maxPerToolFrom(io.env);
  const started = performance.now();
  // Directories and globs do not pick up the run's own baseline and config file, nor reports it wrote before.
  const own = ownFiles(io.cwd, { inputs: [opts.baseline, settings.config?.path], outputs: outputs.map((o) => o.file) });
  let loaded: GatheredServers | undefined = settings.targetsFromConfig ? await gatherConfigTargets(settings.config!, opts, io, own) : await gatherServers(targets, opts, io, own);
  const gathered = performance.now();
  sortInputErrors(loaded.errors);
  // Notes too: two --mcp-config files given the other way round say the same.
  loaded.notes.sort();
  for (const n of loaded.notes) io.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
  if (loaded.interrupted) {
    io.stderr.write(`mcp-annotate: interrupted (${loaded.interrupted}); ${stoppedSummary('every server started was stopped')}\n`);
    return SIGNAL_EXIT[loaded.interrupted] ?? EXIT.error;
  }
  // A recorded protocol version mcp-annotate does not know: which spec version was used instead.
  for (const n of specNotes(loaded.servers, settings.engine.spec)) io.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
  // What reading an input left out (a transcript's page that is part of no listing).
  for (const s of loaded.servers) for (const n of s.notes ?? []) io.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
  // Overrides that match no server or tool of the run (a typo fails open); not when an input
  // could not be read, since its server cannot be matched.
  if (settings.config?.overrideEntries && loaded.errors.length === 0) {
    for (const n of overrideNotes(settings.config.overrideEntries, loaded.servers.map(overrideTarget), loaded.skipped)) io.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
  }
  tuneForLargeRun(loaded.servers.reduce((n, s) => n + s.tools.length, 0));
  const result = lint(loaded.servers, settings.rules, { ...settings.engine, packs, timing, maxFindings, maxPerTool });
  // A live server's secrets, hidden in what it sent, stay hidden in what the rules made of it.
  const needlesOf = new Map(loaded.servers.flatMap((s) => (s.secretNeedles ? [[s.id, s.secretNeedles] as const] : [])));
  if (needlesOf.size) (await import('../sources/live/vars.js')).redactFindings(result.findings, needlesOf);
  const linted = performance.now();
  const baselined = await applyBaseline(result.findings, loaded.servers, loaded.errors.length, opts, io.cwd, result.stopped);
  if (result.stopped) loaded.errors.push(stoppedError(result.stopped));
  // What the report lists can be fixed all at once: no two of its fixes edit one place. (In a
  // function of its own: a map kept here would keep every source text alive while the report is written.)
  settleFixesOf(baselined.findings, loaded.servers);
  const inputErrors = loaded.errors;
  // The parsed tools and source texts are not needed for writing the report: let them go.
  loaded = undefined;
  const counted = failingSeverities(baselined.findings);
  const over = tooManyWarnings(counted, settings.maxWarnings, settings.maxWarningsFrom);
  const code = exitCodeFor(counted, inputErrors, settings.failOn, settings.maxWarnings);
  const exit = baselined.error ? EXIT.error : code === EXIT.ok && baselined.failStale ? EXIT.findings : code;
  // The reports' headlines say the verdict the exit code gives.
  const report: Report = { findings: baselined.findings, servers: result.servers, errors: inputErrors, rules: settings.rules, cwd: io.cwd, baseline: baselined.summary, ...(over ? { tooManyWarnings: over } : {}), fails: exit !== EXIT.ok, exitCode: exit };
  for (const line of baselined.lines) io.stderr.write(`mcp-annotate: ${line}\n`);

  for (const e of inputErrors) io.stderr.write(`${oneLine(e.message)}\n`);
  await writeReports(report, outputs, opts, io);
  if (result.timing) {
    const located = (result.timing.get('(locate findings)') ?? 0) + (result.timing.get('(sort findings)') ?? 0);
    io.stderr.write(timingTable(result.timing));
    io.stderr.write(
      phaseLine([
        ['start', started],
        ['read and parse', gathered - started],
        ['packs and rules', linted - gathered - located],
        ['locate and sort', located],
        ['baseline and report', performance.now() - linted],
      ]),
    );
  }
  return exit;
}
