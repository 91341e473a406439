/** What the CLI touches of the outside world, so tests can run it in-process. */
export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
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
