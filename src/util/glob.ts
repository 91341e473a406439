/**
 * Glob syntax without loading fast-glob (~20 ms): whether a target is a pattern, and
 * how to make a literal path safe inside one. fast-glob itself is imported only when a
 * pattern or a directory is actually expanded.
 */
import { thousands } from './text.js';

/** The longest glob picomatch (and so fast-glob) compiles: a longer one throws. */
export const MAX_GLOB_LENGTH = 65_536;

/** Why a glob cannot be compiled, or undefined: too long for picomatch. */
export function globTooLong(glob: string): string | undefined {
  return glob.length > MAX_GLOB_LENGTH ? `is too long (${thousands(glob.length)} characters; at most ${thousands(MAX_GLOB_LENGTH)})` : undefined;
}

/**
 * An error's message for one line: V8's "Invalid regular expression: /…/: why" quotes the
 * whole expression (tens of thousands of characters for a long glob), so only its why.
 */
export function errorReason(err: unknown): string {
  const message = String((err as Error)?.message ?? err);
  const regex = /^Invalid regular expression: \/[\s\S]*\/[a-z]*: ([^:]+)$/.exec(message);
  return regex ? regex[1]! : message.length > 200 ? `${message.slice(0, 199)}…` : message;
}

/**
 * Why a glob under the length limit still cannot be used: the regular expression picomatch
 * makes of it is too large for V8 (about 32,750 characters of `*aaa…`). V8 compiles one when
 * it first runs it, so `compile` should build it and run it once.
 */
export function compileProblem(glob: string, compile: () => void): string | undefined {
  try {
    compile();
    return undefined;
  } catch (err) {
    return `cannot be compiled (${errorReason(err)}, at ${thousands(glob.length)} characters); use a shorter pattern`;
  }
}

const SPECIAL = /[*?[\]{}()!+@]/;

export function isGlobPattern(target: string): boolean {
  return SPECIAL.test(target);
}

export function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}()!+@]/g, '\\$&');
}
