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

const SPECIAL = /[*?[\]{}()!+@]/;

export function isGlobPattern(target: string): boolean {
  return SPECIAL.test(target);
}

export function escapeGlob(path: string): string {
  return path.replace(/[*?[\]{}()!+@]/g, '\\$&');
}
