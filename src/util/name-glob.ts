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
 * It answers as picomatch's matcher does (an empty name matches nothing, a name equal to the
 * pattern matches), but runs picomatch's regular expression with linearTest, in time linear in
 * the name: the names come from the servers, and V8's backtracking takes polynomial time on a
 * name made to fail a glob of a few stars (`*_*_*_*x`, 800 characters: 20 seconds; sixteen
 * times as long for each doubling).
 */
export function nameMatcher(patterns: readonly string[], opts: { nocase?: boolean } = {}): (name: string) => boolean {
  const globs = patterns.map((p) => {
    const glob = p.replaceAll('/', SLASH);
    const re = picomatch.makeRe(glob, { dot: true, windows: false, nocase: opts.nocase === true });
    return { glob, test: linearOr(re) };
  });
  return (name) => {
    if (name === '') return false;
    const s = name.replaceAll('/', SLASH);
    return globs.some((g) => s === g.glob || g.test(s));
  };
}

/** linearTest of `re`; V8's own test for what it does not run (picomatch makes nothing of the kind: a test holds it to that). */
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
