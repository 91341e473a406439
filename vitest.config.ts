import { defineConfig } from 'vitest/config';

// A property sweep (PROPERTY_SWEEP=N, see test/helpers/property.ts) runs each random-seed pass N
// times, which no fixed per-test timeout can foresee: while it is set, tests have no timeout.
const sweep = process.env.PROPERTY_SWEEP !== undefined && process.env.PROPERTY_SWEEP !== '';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: sweep ? 0 : 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    setupFiles: ['test/helpers/cleanup.ts'],
  },
});
