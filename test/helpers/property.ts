/**
 * Property tests run twice: once with a fixed seed (the same cases on every CI run, so a
 * failure there is reproducible as is) and once with a fresh random seed (new cases each
 * run; fast-check prints the seed and path of a failure, to replay with { seed, path }).
 */
import fc from 'fast-check';

export const FIXED_SEED = 20261122;

export function assertProperty<Ts>(property: fc.IRawProperty<Ts>, params: fc.Parameters<Ts> = {}): void {
  fc.assert(property, { ...params, seed: FIXED_SEED });
  fc.assert(property, params);
}

/** assertProperty for async properties: the fixed seed, then a random one. */
export async function assertAsyncProperty<Ts>(property: fc.IAsyncPropertyWithHooks<Ts>, params: fc.Parameters<Ts> = {}): Promise<void> {
  await fc.assert(property, { ...params, seed: FIXED_SEED });
  await fc.assert(property, params);
}
