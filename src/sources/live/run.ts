/**
 * Runs live targets: several at a time, each under its own deadline, and turns what each
 * server said into a snapshot and a ServerInput — the same one `lint` would build from the
 * snapshot file, so a live server and its snapshot get the same findings.
 *
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP stop every server of the run (their whole process
 * groups) before the command ends.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { setMaxListeners } from 'node:events';
import { basename, dirname, join, resolve } from 'node:path';
import type { InputError, Origin, RepeatedKey, ServerInput } from '../../types.js';
import { writeReason } from '../../util/write.js';
import { realPath } from '../../util/paths.js';
import { displayPath, loadText } from '../files.js';
import { DEFAULT_LIMITS, fetchTools, type Limits } from './connect.js';
import { repeatsNote } from './raw.js';
import { LiveError } from './errors.js';
import { killAllGroups } from './processes.js';
import { createProgress } from './progress.js';
import { droppedNote, laterPagesNote, pickSnapshotFile, savedNote, snapshotMayReplace, snapshotText } from './snapshot.js';
import type { LiveTarget } from './targets.js';
import { redact, redactJson, secretNeedles } from './vars.js';

export interface LiveRunOptions {
  timeoutMs: number;
  /** --timeout was given: it holds for every server, over the deadlines of their config entries. */
  timeoutGiven?: boolean;
  concurrency: number;
  /** Write each server's snapshot into this directory (absolute), and point findings into it. */
  saveDir?: string;
  /** Files the run reads, and its -o reports (absolute): a snapshot never takes one's name (it would overwrite it, or the report it). */
  reserved?: ReadonlySet<string>;
  cwd: string;
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  limits?: Partial<Omit<Limits, 'timeoutMs'>>;
}

export interface LiveSnapshot {
  target: LiveTarget;
  /** The snapshot file's text (secrets redacted). */
  text: string;
  name: string;
}

export interface LiveRunResult {
  servers: ServerInput[];
  errors: InputError[];
  snapshots: LiveSnapshot[];
  /** Said on stderr: a tools/list result's fields its snapshot leaves out (see buildSnapshot). */
  notes: string[];
  /** For `dump`, whose snapshot cannot hold them: a note per server whose responses gave a name twice (see raw.ts; lint reports each). */
  repeatNotes: string[];
  /** Set when a signal stopped the run: nothing was linted. */
  interrupted?: NodeJS.Signals;
}

export const DEFAULT_TIMEOUT_SECONDS = 30;
/** Servers are mostly waited on, but each stdio one is a process to start: 4 suits a 2-core machine. */
export const DEFAULT_CONCURRENCY = 4;

/** The command-line flags that shape a live run. */
export interface LiveRunFlags {
  timeout?: number;
  concurrency?: number;
  saveSnapshots?: string;
}

/** A live run's options from its flags, with the defaults for what they leave out. */
export function liveRunOptions(f: LiveRunFlags, io: Pick<LiveRunOptions, 'cwd' | 'stderr' | 'reserved'>): LiveRunOptions {
  return {
    ...(io.reserved ? { reserved: io.reserved } : {}),
    timeoutMs: (f.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    timeoutGiven: f.timeout !== undefined,
    concurrency: f.concurrency ?? DEFAULT_CONCURRENCY,
    saveDir: f.saveSnapshots !== undefined ? resolve(io.cwd, f.saveSnapshots) : undefined,
    cwd: io.cwd,
    stderr: io.stderr,
  };
}

type Outcome = { ok: true; snapshot: Record<string, unknown>; dropped: string[]; later: { page: number; fields: string[] }[]; repeatedKeys: RepeatedKey[]; writtenNumbers?: (pointers: readonly string[]) => string[]; transport: string } | { ok: false; message: string };

const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** The error line of a live target: the config entry's position when it came from a file. */
export function liveError(target: LiveTarget, message: string): InputError {
  const c = target.config;
  if (c) {
    const at = c.locator?.locateOne(c.pointer);
    const pos = at ? `${c.display}:${at.line}:${at.column}` : c.display;
    return { target: target.display, file: c.display, line: at?.line, column: at?.column, message: `${pos}: server ${JSON.stringify(target.name ?? target.label)}: ${message}` };
  }
  return { target: target.display, message: `${target.display}: ${message}` };
}

/** Connect to every target (at most `concurrency` at once) and collect their tools. */
export async function fetchAll(targets: LiveTarget[], opts: LiveRunOptions): Promise<{ outcomes: Outcome[]; interrupted?: NodeJS.Signals }> {
  const limits: Limits = { ...DEFAULT_LIMITS, ...opts.limits, timeoutMs: opts.timeoutMs };
  const stop = new AbortController();
  // Every server running at once listens for it: past 10 (--concurrency 11) Node warned of a leak.
  setMaxListeners(0, stop.signal);
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) {
      // A second Ctrl-C: no more waiting for anyone.
      killAllGroups();
      return;
    }
    interrupted = signal;
    stop.abort();
  };
  for (const sig of STOP_SIGNALS) process.on(sig, onSignal);
  const progress = createProgress(opts.stderr, targets.length);
  const outcomes: Outcome[] = new Array(targets.length);
  let next = 0;
  const worker = async () => {
    while (next < targets.length && !stop.signal.aborted) {
      const i = next++;
      const target = targets[i]!;
      const needles = secretNeedles(target.secrets);
      progress.start(target.label);
      try {
        const own = target.timeoutMs !== undefined && !opts.timeoutGiven;
        const fetched = await fetchTools(target, own ? { ...limits, timeoutMs: target.timeoutMs!, timeoutFrom: 'entry' } : limits, stop.signal, needles);
        outcomes[i] = { ok: true, snapshot: redactJson(fetched.snapshot, needles) as Record<string, unknown>, dropped: fetched.dropped, later: fetched.later, repeatedKeys: fetched.repeatedKeys, ...(fetched.writtenNumbers ? { writtenNumbers: fetched.writtenNumbers } : {}), transport: fetched.transport };
      } catch (err) {
        const message = err instanceof LiveError ? err.message : `internal error: ${(err as Error)?.message ?? err}`;
        outcomes[i] = { ok: false, message: redact(message, needles) };
      }
      progress.finish(target.label);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, targets.length)) }, worker));
  } finally {
    progress.end();
    for (const sig of STOP_SIGNALS) process.removeListener(sig, onSignal);
  }
  return { outcomes, interrupted };
}

/** Live targets → servers to lint (or errors), in target order. */
export async function runLiveTargets(targets: LiveTarget[], opts: LiveRunOptions): Promise<LiveRunResult> {
  const { outcomes, interrupted } = await fetchAll(targets, opts);
  if (interrupted) return { servers: [], errors: [], snapshots: [], notes: [], repeatNotes: [], interrupted };
  const result: LiveRunResult = { servers: [], errors: [], snapshots: [], notes: [], repeatNotes: [] };
  const takenFiles = new Set<string>();
  if (opts.saveDir) {
    // The run's own inputs in that directory (a dump linted in the same run, a client config,
    // the config file) keep their content, and its -o reports are not replaced by a snapshot
    // (nor a snapshot by them): a snapshot named like one gets another name.
    const inputs = [...(opts.reserved ?? []), ...targets.flatMap((t) => (t.config ? [t.config.file] : []))];
    const saveDir = realPath(opts.saveDir);
    for (const path of inputs) if (realPath(dirname(resolve(path))) === saveDir) takenFiles.add(basename(path).toLowerCase());
  }
  const takenIds = new Set<string>();
  /** The names the run's own files hold (lower case): a name taken otherwise is another snapshot's. */
  const inputNames = new Set(takenFiles);
  // A directory that cannot be made fails each snapshot's write below, which says why for its server.
  if (opts.saveDir && outcomes.some((o) => o.ok)) await mkdir(opts.saveDir, { recursive: true }).catch(() => undefined);
  for (const [i, target] of targets.entries()) {
    const outcome = outcomes[i]!;
    const needles = secretNeedles(target.secrets);
    if (!outcome.ok) {
      result.errors.push(liveError(target, outcome.message));
      continue;
    }
    const info = outcome.snapshot.serverInfo as Record<string, unknown> | undefined;
    const name = target.name ?? (typeof info?.name === 'string' && info.name !== '' ? info.name : target.label);
    const label = target.name !== undefined ? `server ${JSON.stringify(target.name)}` : target.display;
    if (outcome.dropped.length) result.notes.push(droppedNote(label, outcome.dropped));
    if (outcome.later.length) result.notes.push(laterPagesNote(label, outcome.later));
    if (outcome.repeatedKeys.length) result.repeatNotes.push(repeatsNote(label, outcome.repeatedKeys));
    // A config entry's name goes into the snapshot, so that linting or diffing the file later
    // names the server as this run does (overrides, baselines and diff pair by name). Only
    // mcp-annotate sets it: a server's own "configEntry" was left out (see buildSnapshot).
    const text = snapshotText(target.name !== undefined ? { ...outcome.snapshot, configEntry: target.name } : outcome.snapshot);
    let id = target.display;
    for (let n = 2; takenIds.has(id); n++) id = `${target.display} (${n})`;
    takenIds.add(id);
    const origin: Origin = { kind: 'live', display: target.display, transport: outcome.transport };
    if (target.config) {
      origin.configFile = target.config.display;
      origin.configPointer = target.config.pointer;
    }
    // Never over a file that is not a snapshot, nor as a config file of this tool or another.
    const saveDir = opts.saveDir;
    const picked = saveDir ? pickSnapshotFile(name, takenFiles, (file) => snapshotMayReplace(join(saveDir, file))) : undefined;
    const path = saveDir && picked ? join(saveDir, picked.file) : undefined;
    if (path) origin.snapshot = displayPath(path, opts.cwd);
    // Read back as `lint` reads the file, before it is written: a snapshot lint would refuse is
    // neither saved nor dumped.
    let servers: ServerInput[];
    try {
      servers = loadText(text, origin, name, id);
    } catch (err) {
      result.errors.push(liveError(target, (err as Error).message));
      continue;
    }
    if (path) {
      try {
        await writeFile(path, text);
      } catch (err) {
        result.errors.push(liveError(target, `cannot write its snapshot ${displayPath(path, opts.cwd)}: ${writeReason(err)}`));
        continue;
      }
      // Said for every snapshot: one saved as x-2.json is not where a user looks first.
      const clash = picked!.clash;
      result.notes.push(
        savedNote(label, displayPath(path, opts.cwd), clash && { path: displayPath(join(saveDir!, clash.file), opts.cwd), why: clash.why, ownRun: !inputNames.has(clash.file.toLowerCase()) }),
      );
    }
    result.snapshots.push({ target, text, name });
    for (const s of servers) {
      if (target.name !== undefined) {
        s.name = target.name;
        s.entryNamed = true;
      }
      // The members the server's responses gave twice: the snapshot's text, written from the
      // parsed listing, gives each once (see raw.ts).
      const repeated = outcome.repeatedKeys;
      s.repeatedKeys = () => repeated;
      // How the server wrote numbers the snapshot's text writes otherwise (1e999 there is 1e400).
      if (outcome.writtenNumbers) s.writtenNumbers = outcome.writtenNumbers;
      // Positions exist only in a snapshot file; without one, findings carry logical locations.
      if (!opts.saveDir) s.locator = undefined;
      if (target.config) s.fallbackLocation = { file: target.config.file, display: target.config.display, locator: target.config.locator, pointer: target.config.pointer };
      if (needles.length) Object.defineProperty(s, 'secretNeedles', { value: needles, enumerable: false });
      result.servers.push(s);
    }
  }
  return result;
}
