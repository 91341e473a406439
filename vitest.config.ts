import { availableParallelism } from 'node:os';
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
    // Vitest runs cores − 1 files at once: one at a time on a two-core machine, which used 0.97
    // of its two cores. Two at once use both (with the CLI run in process, npm test went from
    // 406 to 180 s in an interleaved pair; see docs/performance.md). The test files were written
    // to run side by side (pack.test.ts leaves dist/ alone for that reason).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    setupFiles: ['test/helpers/cleanup.ts'],
  },
});
