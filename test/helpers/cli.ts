/** Runs the real bin in a child process, as a user would. */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { Readable, Writable } from 'node:stream';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = join(ROOT, 'bin', 'mcp-annotate.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * @param opts.user Run as this user and group (only root can: a test that needs permissions to
 *   apply runs as nobody when the suite runs as root).
 */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = cliEnv(opts);
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, env: env as NodeJS.ProcessEnv, ...opts.user });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`mcp-annotate ${args.join(' ')} did not finish in time`));
    }, opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    // A run that exits before reading its input (a usage error) closes the pipe first: on a
    // loaded machine writing the input then fails with EPIPE, which is no fault of the run.
    child.stdin.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'EPIPE') reject(e);
    });
    child.stdin.end(opts.input ?? '');
  });
}

export interface CliOptions {
  cwd?: string;
  input?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  user?: { uid: number; gid: number };
}

/** The child's environment: this process's, without colour settings, with opts.env on top (undefined removes). */
function cliEnv(opts: CliOptions): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...opts.env };
  for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
  return env as Record<string, string>;
}

type Run = (argv: string[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; stdin: NodeJS.ReadableStream; cwd: string; env: NodeJS.ProcessEnv }) => Promise<number>;
let bundleRun: Run | undefined;

/**
 * What runCliInProcess hands to a child process after all: whatever is about the process
 * itself rather than the run (the bin's --version answer, running as another user, stdin read
 * as a path, a stdio or HTTP server with its process group and signals, or a config file that
 * may name one under targets.mcpServers), so that only plain runs over files and stdin are run
 * in process.
 */
export function needsProcess(args: string[], opts: CliOptions): boolean {
  if (opts.user) return true;
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) return true;
  if (args.some((a) => a === '--' || a === 'dump' || a === '/dev/stdin' || a === '/proc/self/fd/0' || a === '/dev/fd/0' || /^--(stdio|url|mcp-config|server|transport|header|env|timeout|concurrency|save-snapshots)(=|$)/.test(a))) return true;
  return configsOf(args, opts.cwd ?? ROOT).some((f) => mentionsServers(f));
}

/** The config files a run may read: -c's, and those searched for from the working directory up (src/config/load.ts). */
function configsOf(args: string[], cwd: string): string[] {
  const files: string[] = [];
  args.forEach((a, i) => {
    if ((a === '-c' || a === '--config') && args[i + 1] !== undefined) files.push(resolve(cwd, args[i + 1]!));
    else if (a.startsWith('--config=')) files.push(resolve(cwd, a.slice('--config='.length)));
  });
  for (let dir = cwd; ; dir = dirname(dir)) {
    for (const name of ['mcp-annotate.config.json', '.mcp-annotaterc.json', 'mcp-annotate.config.yaml', 'mcp-annotate.config.yml', 'package.json']) files.push(join(dir, name));
    if (dirname(dir) === dir) break;
  }
  return files;
}

function mentionsServers(file: string): boolean {
  try {
    return statSync(file).isFile() && readFileSync(file, 'utf8').includes('mcpServers');
  } catch {
    return false;
  }
}

let queue: Promise<unknown> = Promise.resolve();

/**
 * runCli without a child process: the same bundle's run() (what bin/mcp-annotate.js calls), with
 * the same argv, environment, working directory and stdin, stdout and stderr captured as the
 * child's pipes would be. Runs are one at a time (the working directory is the process's, set
 * for each run and put back after). Falls back to runCli for what is about the process
 * (needsProcess). Use it where a test is about what a run says and returns, not about the process.
 */
export function runCliInProcess(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  if (needsProcess(args, opts)) return runCli(args, opts);
  const next = queue.then(() => runOnce(args, opts));
  queue = next.catch(() => undefined);
  return next;
}

async function runOnce(args: string[], opts: CliOptions): Promise<CliResult> {
  bundleRun ??= (createRequire(import.meta.url)(join(ROOT, 'dist', 'bundle', 'main.cjs')) as { run: Run }).run;
  const sink = () => {
    const chunks: Buffer[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        chunks.push(chunk);
        done();
      },
    });
    return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
  };
  const stdout = sink();
  const stderr = sink();
  const cwd = opts.cwd ?? ROOT;
  const before = process.cwd();
  process.chdir(cwd);
  try {
    const code = await bundleRun(args, { stdout: stdout.stream, stderr: stderr.stream, stdin: Readable.from(opts.input ? [Buffer.from(opts.input)] : []), cwd, env: cliEnv(opts) });
    // What was written before the run returned, as a child's pipes would have it once it exits.
    await new Promise<void>((r) => setImmediate(r));
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    process.chdir(before);
  }
}

const made: string[] = [];

/**
 * A temporary directory with the given files (relative path → content). It is removed after
 * the test file's last test (test/helpers/cleanup.ts), so runs do not fill the disk.
 */
export function tempDir(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-annotate-test-'));
  made.push(dir);
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
  return dir;
}

/** Removes every directory tempDir made in this test file. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

export const tool = (name: string, annotations?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: 'object' },
  ...(annotations ? { annotations } : {}),
  ...extra,
});

export const json = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
