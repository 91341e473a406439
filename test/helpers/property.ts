/**
 * Property tests run twice: once with a fixed seed (the same cases on every CI run, so a
 * failure there is reproducible as is) and once with a fresh random seed (new cases each
 * run; fast-check prints the seed and path of a failure, to replay with { seed, path }).
 *
 * PROPERTY_SWEEP=N runs the random-seed pass N times, each with a fresh seed, to find what a
 * single random seed in CI would only find now and then (vitest.config.ts lifts the test
 * timeout while it is set). A sweep does not stop at the first failing seed: it runs them all
 * and then fails with every seed and path that failed, so one sweep shows every distinct bug.
 */
import fc from 'fast-check';

export const FIXED_SEED = 20261122;

/** How many random-seed passes each property gets: PROPERTY_SWEEP when set to a positive whole number, else 1. */
export function randomPasses(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PROPERTY_SWEEP;
  if (raw === undefined || raw === '') return 1;
  if (!/^[1-9]\d{0,5}$/.test(raw)) throw new Error(`PROPERTY_SWEEP must be a positive whole number of random seeds (at most 999999), not ${JSON.stringify(raw)}`);
  return Number(raw);
}

function sweepFailure(failures: unknown[], passes: number): Error {
  // Each fast-check message starts with the seed and path to replay, so they are kept whole.
  const messages = failures.map((e, i) => `--- failure ${i + 1} of ${failures.length} ---\n${e instanceof Error ? e.message : String(e)}`);
  return new Error(`${failures.length} of ${passes} random seeds failed (PROPERTY_SWEEP=${passes}):\n${messages.join('\n')}`);
}

export function assertProperty<Ts>(property: fc.IRawProperty<Ts>, params: fc.Parameters<Ts> = {}): void {
  fc.assert(property, { ...params, seed: FIXED_SEED });
  const passes = randomPasses();
  if (passes === 1) {
    fc.assert(property, params);
    return;
  }
  const failures: unknown[] = [];
  for (let i = 0; i < passes; i++) {
    try {
      fc.assert(property, params);
    } catch (e) {
      failures.push(e);
    }
  }
  if (failures.length > 0) throw sweepFailure(failures, passes);
}

/** assertProperty for async properties: the fixed seed, then a random one (or PROPERTY_SWEEP of them). */
export async function assertAsyncProperty<Ts>(property: fc.IAsyncPropertyWithHooks<Ts>, params: fc.Parameters<Ts> = {}): Promise<void> {
  await fc.assert(property, { ...params, seed: FIXED_SEED });
  const passes = randomPasses();
  if (passes === 1) {
    await fc.assert(property, params);
    return;
  }
  const failures: unknown[] = [];
  for (let i = 0; i < passes; i++) {
    try {
      await fc.assert(property, params);
    } catch (e) {
      failures.push(e);
    }
  }
  if (failures.length > 0) throw sweepFailure(failures, passes);
}
