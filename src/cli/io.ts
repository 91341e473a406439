/** What the CLI touches of the outside world, so tests can run it in-process. */
export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Before reading stdin (`-` or /dev/stdin) from a terminal: a line saying the run is waiting
 * for the tools/list result to be typed or pasted, instead of a silent wait.
 */
export function hintStdinFromTerminal(targets: readonly string[], io: CliIO): void {
  if (io.stdin.isTTY && targets.some((t) => t === '-' || t === '/dev/stdin')) {
    io.stderr.write('mcp-annotate: reading a tools/list result from the terminal; paste it and end with Ctrl-D (on Windows Ctrl-Z, Enter), or press Ctrl-C and give a file\n');
  }
}

/** Whether a stream can take no more: a write failed (EPIPE from a pipe closed early, ENOSPC) or it was closed. */
export function streamFailed(stream: NodeJS.WritableStream): boolean {
  const s = stream as { destroyed?: boolean; errored?: unknown; writableErrored?: unknown };
  return s.destroyed === true || Boolean(s.errored) || Boolean(s.writableErrored);
}

/**
 * The stream, taking no more writes once one has failed (stderr into `2>&1 | head -1` after the
 * reader left): each write after that is dropped (its callback still called), so a run with
 * many lines to say does not keep writing to a stream that is gone. The run goes on with its own
 * exit code; the failure itself is heard by the stream's 'error' listener (bin/mcp-annotate.js).
 */
export function quietWhenFailed<T extends NodeJS.WritableStream>(stream: T): T {
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') {
        return (chunk: unknown, ...rest: unknown[]): boolean => {
          if (streamFailed(target)) {
            const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
            if (done) process.nextTick(done);
            return true;
          }
          return (target.write as (...a: unknown[]) => boolean)(chunk, ...rest);
        };
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** A usage, config or input problem: one line on stderr, exit code 2. */
export class UsageError extends Error {}

export const EXIT = { ok: 0, findings: 1, error: 2 } as const;

/** Colour for a stream: --color/--no-color, then NO_COLOR, FORCE_COLOR, then whether it is a terminal. */
export function useColor(flag: boolean | undefined, env: NodeJS.ProcessEnv, isTTY: boolean | undefined): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return !['0', 'false'].includes(env.FORCE_COLOR);
  return Boolean(isTTY) && env.TERM !== 'dumb';
}
