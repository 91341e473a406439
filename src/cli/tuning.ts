/**
 * V8 tuning for large runs.
 *
 * A lint run is short, and TurboFan compiles the hot rule code on a background thread while
 * the tools stream by. With V8's default inlining budget a 10,000-tool run queues about 2 s of
 * optimising compiles (`node --trace-opt`), longer than the run itself, so much of the rule
 * code runs unoptimised to the end. A smaller cumulative inlining budget halves that queue
 * (see "Performance" in the README for the measurements).
 *
 * Compiler flags are read when a function is compiled, so setting one at run time works, as
 * long as it happens before the rules get hot: after the inputs are read, before the engine
 * runs. Small runs skip it: loading node:v8 costs a few milliseconds of start-up, and a few
 * hundred tools never fill the compile queue.
 */
export const LARGE_RUN_TOOLS = 1_000;

let tuned = false;

export function tuneForLargeRun(tools: number): void {
  if (tuned || tools < LARGE_RUN_TOOLS) return;
  tuned = true;
  // Not import(): the bundle runs from a code cache, where import() has no loader (see util/require.ts).
  process.getBuiltinModule('node:v8').setFlagsFromString('--max-inlined-bytecode-size-cumulative=200');
}
