/** Runs the real bin in a child process, as a user would. */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
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
export function runCli(args: string[], opts: { cwd?: string; input?: string; env?: Record<string, string | undefined>; timeoutMs?: number; user?: { uid: number; gid: number } } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: undefined, FORCE_COLOR: undefined, ...opts.env };
    for (const k of Object.keys(env)) if (env[k] === undefined) delete env[k];
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
