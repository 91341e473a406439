/**
 * A glob's brace expansion is counted on braces' own parse without expanding it (fast-glob
 * expands `{a,b}` 24 times into 16,777,216 globs before it walks: the run never finished). The
 * count is the number of globs fast-glob would make, so a limit on it refuses no more than it says.
 */
import braces from 'braces';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { alternativeWays, braceExpansion, braceProblem, MAX_ALTERNATIVE_WAYS } from '../src/util/glob.js';

/** What fast-glob expands a glob to (node_modules/fast-glob/out/utils/pattern.js, without its de-duplication). */
const expanded = (glob: string) => (braces as unknown as (p: string, o: object) => string[])(glob, { expand: true, keepEscaping: true });

describe('braceExpansion', () => {
  it('counts what braces expands, without expanding it: alternatives, nesting, ranges with steps, escapes and literal braces', () => {
    const globs = [
      '*.{json,jsonl}', '{a,b}/**/*.json', 'plain.json', '{a,{b,{c,d}}}{x,y}', '{,a}{a,}{a,,b}', 'f{1..20}.json', 'f{20..1}',
      'f{1..100..7}', 'f{a..z..2}', '{01..10}', '{-5..5}', '{0x0..0x1f}', '{1..z}', '{1..5,a}', '{a}{b,c}', '{}{a,b}', '\\{a,b}{c,d}',
      '[{,]}{a,b}', '{a,(b,c)}', '{a(}b),c}', '${a,b}{c,d}', '"{a,b}"{c,d}', '{a,b', 'a,b}{c,d}', '{1.5..3}', '{a..}', '{1..5..}',
      '{[a]..b}', '{"0"..\'9\'}', '{a,b}{1..3}{x,{y,z}}.json',
    ];
    for (const glob of globs) {
      const all = expanded(glob);
      expect(braceExpansion(glob), glob).toEqual({ count: all.length, chars: expect.any(Number) });
      expect(braceExpansion(glob)!.chars, glob).toBeGreaterThanOrEqual(all.reduce((n, g) => n + g.length, 0) - all.length);
    }
  });

  it('counts past what could be expanded, fast', () => {
    const started = Date.now();
    expect(braceExpansion('{a,b}'.repeat(24))!.count).toBe(2 ** 24);
    expect(braceExpansion('{a,b}'.repeat(1_999))!.count).toBe(Infinity);
    expect(braceExpansion('x{1..1000000}')!.count).toBe(1_000_000);
    expect(braceExpansion('{1..100}{1..100}{1..10}')!.count).toBe(100_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(braceProblem('{a,b}'.repeat(1_999))).toBe(`cannot be expanded (its braces make more than 9,007,199,254,740,991 patterns; at most 10,000); use a simpler pattern`);
    expect(braceProblem('{1..1000}{a..j}')).toBeUndefined();
    expect(braceProblem('{1..1000}{a..k}')).toBe('cannot be expanded (its braces make 11,000 patterns; at most 10,000); use a simpler pattern');
  });

  it('leaves a glob braces does not parse (over 10,000 characters) to the other checks', () => {
    expect(braceExpansion(`{a,b}${'x'.repeat(10_000)}`)).toBeUndefined();
  });
});

describe('alternativeWays', () => {
  const ways = (glob: string) => alternativeWays(picomatch.makeRe(glob, { dot: true }).source);
  it('multiplies the groups of a regular expression and adds their alternatives; lookarounds count once', () => {
    expect(ways('*.json')).toBe(1);
    expect(ways('*.{json,jsonl}')).toBe(2);
    expect(ways('**/*.{json,jsonl}')).toBe(6); // a leading ** is a group of 3
    expect(ways('{a,b}/**/*.json')).toBe(6);
    expect(ways('@(a|b|c)-{x,y}')).toBe(6);
    expect(ways('a/**/b/**/c/**/d/**/e/**/f/**/g/**/h/**/x.json')).toBe(3 ** 8);
    expect(3 ** 8).toBeLessThan(MAX_ALTERNATIVE_WAYS);
    expect(ways('@(a|a)'.repeat(24))).toBe(2 ** 24);
    expect(alternativeWays('(?:a|b)[(|)]\\(|c')).toBe(3);
  });
});
