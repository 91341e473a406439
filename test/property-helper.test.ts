/** The property-test helper: PROPERTY_SWEEP's parsing, and a sweep that lists every failing seed. */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { assertAsyncProperty, assertProperty, randomPasses } from './helpers/property.js';

describe('PROPERTY_SWEEP', () => {
  const saved = process.env.PROPERTY_SWEEP;
  afterEach(() => {
    if (saved === undefined) delete process.env.PROPERTY_SWEEP;
    else process.env.PROPERTY_SWEEP = saved;
  });

  it('is one random pass when unset or empty, N when a positive whole number, and an error otherwise', () => {
    expect(randomPasses({})).toBe(1);
    expect(randomPasses({ PROPERTY_SWEEP: '' })).toBe(1);
    expect(randomPasses({ PROPERTY_SWEEP: '1' })).toBe(1);
    expect(randomPasses({ PROPERTY_SWEEP: '250' })).toBe(250);
    // A typo must not quietly run one pass and look like a sweep that found nothing.
    for (const bad of ['0', '-3', '2.5', 'ten', '1e3', ' 5', '05']) {
      expect(() => randomPasses({ PROPERTY_SWEEP: bad }), bad).toThrow(/PROPERTY_SWEEP must be a positive whole number/);
    }
  });

  // The property holds on its first call (the fixed seed's only run) and fails on every later one,
  // so each random pass fails: the sweep must run all of them and name each seed.
  const failingAfterFirst = () => {
    let calls = 0;
    return (n: number) => {
      calls += 1;
      return calls === 1 || n < 0;
    };
  };

  it('runs every random pass and then fails with the seed and path of each one that failed', () => {
    process.env.PROPERTY_SWEEP = '4';
    let message = '';
    try {
      assertProperty(fc.property(fc.nat(), failingAfterFirst()), { numRuns: 1 });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/^4 of 4 random seeds failed \(PROPERTY_SWEEP=4\):\n--- failure 1 of 4 ---\n/);
    expect(message.match(/\{ seed: -?\d+, path: "[\d:]+"/g)).toHaveLength(4);
  });

  it('does the same for async properties, and passes when every seed passes', async () => {
    process.env.PROPERTY_SWEEP = '3';
    const holds = failingAfterFirst();
    await expect(assertAsyncProperty(fc.asyncProperty(fc.nat(), async (n) => holds(n)), { numRuns: 1 })).rejects.toThrow(/^3 of 3 random seeds failed/);
    let runs = 0;
    assertProperty(fc.property(fc.nat(), (n) => (runs++, n >= 0)), { numRuns: 5 });
    // The fixed seed's 5 runs, then 3 passes of 5.
    expect(runs).toBe(20);
  });
});
