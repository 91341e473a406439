/**
 * Globs over server and tool names (config `overrides`). A name is not a path: `*` and `?`
 * match any characters, `/` included (`*` matches `io.github.acme/weather`), while a `/`
 * written in a pattern still matches only a `/` (`io.github.acme/*`). picomatch treats `/`
 * as a path separator that no `*` crosses, and on Windows `\` too: each `/` of the pattern
 * and of the name is read as one character picomatch gives no meaning to, so the rest of
 * its syntax (`{a,b}`, `[…]`, `!(…)`, escapes) works as documented. With `/` an ordinary
 * character, `**` is just `*`: it does not match "zero or more segments", so "**" then
 * "/weather" does not match `weather`, nor "a/**" then "/c" `a/c` (the README says so).
 */
import { sep } from 'node:path';
import picomatch from 'picomatch';
import { compileProblem, isGlobPattern } from './glob.js';
import { linearTest, UnsupportedRegex, type LinearTest } from './linear-regex.js';

/** Stands for "/" in names and patterns: a noncharacter, never in a real server or tool name. */
const SLASH = '\uFFFF';

/**
 * A matcher for any of `patterns` over names (`nocase`: in any letter case, for a "did you mean").
 * The names come from the servers: see globMatcher.
 */
export function nameMatcher(patterns: readonly string[], opts: { nocase?: boolean } = {}): (name: string) => boolean {
  const match = globMatcher(
    patterns.map((p) => p.replaceAll('/', SLASH)),
    { dot: true, windows: false, nocase: opts.nocase === true },
  );
  return (name) => match(name.replaceAll('/', SLASH));
}

/**
 * picomatch's matcher for any of `globs` (an empty text matches nothing, a text equal to a glob
 * matches it, else its regular expression decides), but with the expression run by linearTest,
 * in time linear in the text. What is matched may come from elsewhere (a server's names, the
 * paths of a repository being vetted), and V8's backtracking takes polynomial time on a text
 * made to fail a glob of a few stars (`*_*_*_*x`, 800 characters: 20 seconds; sixteen times as
 * long for each doubling).
 */
export function globMatcher(globs: readonly string[], options: { dot: boolean; windows?: boolean; nocase?: boolean }): (text: string) => boolean {
  const compiled = globs.map((glob) => ({ glob, test: linearOr(picomatch.makeRe(glob, options)) }));
  return (text) => text !== '' && compiled.some((g) => text === g.glob || g.test(text));
}

/** linearTest of `re`; V8's own test for what it does not run: of what picomatch makes, only a back reference (a glob that escapes a digit after a group, `@(\1)`; a test holds it to that). */
function linearOr(re: RegExp): LinearTest {
  try {
    return linearTest(re);
  } catch (err) {
    if (err instanceof UnsupportedRegex) return (s) => re.test(s);
    throw err;
  }
}

/** Why a name glob cannot be used (a regular expression too large for V8: it threw when a name was first matched), or undefined. */
export function nameGlobProblem(pattern: string): string | undefined {
  return compileProblem(pattern, () => picomatch.makeRe(pattern.replaceAll('/', SLASH), { dot: true, windows: false }));
}

/**
 * Why a file glob cannot be used (its regular expression too large or too deep for V8; see
 * compileProblem), or undefined; a target that is no pattern is a path and is never compiled.
 * As fast-glob compiles it while it walks (`/` separates segments).
 */
export function fileGlobProblem(pattern: string): string | undefined {
  if (!isGlobPattern(pattern)) return undefined;
  const glob = pattern.split(sep).join('/');
  return compileProblem(glob, () => picomatch.makeRe(glob, { dot: true }));
}
