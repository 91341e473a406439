#!/usr/bin/env node
// The mcp-annotate command. The only place that ends the process.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);

// A closed stdout (e.g. `mcp-annotate lint … | head -1`) is quiet: the run stops writing to it
// but finishes — its other outputs (-o files) are written and its exit code is its own (it
// used to exit 0 here, before the lint had set one). Any other failure to write stdout (a full
// disk) is one line and exit code 2.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') return;
  process.stderr.write(`mcp-annotate: cannot write to stdout: ${err.code === 'ENOSPC' ? 'no space left on the device' : err.message}\n`);
  process.exit(2);
});
// A closed stderr (`mcp-annotate lint … 2>&1 | head -1`, where both are the same pipe) is just
// as quiet: an unhandled EPIPE there ended the run with exit code 1, which says "findings", in
// place of its own (2 for an unreadable input or a broken config). A stderr that fails another
// way (a full disk) cannot say so anywhere: the run goes on with its own exit code too. The
// CLI's writers stop writing to it once it has failed (see quietWhenFailed in src/cli/io.ts).
process.stderr.on('error', () => {});

// `--version` alone needs none of the linter: answer it before loading the bundle.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  const main = fileURLToPath(new URL('../dist/bundle/main.cjs', import.meta.url));
  if (!existsSync(main)) {
    // A clone or a git install whose build has not run.
    process.stderr.write(`mcp-annotate: not built (${main} is missing): run \`npm run build\` in ${fileURLToPath(new URL('..', import.meta.url))}\n`);
    process.exit(2);
  }
  try {
    // The linter, from a code cache when there is one (see compile-cache.js).
    const { loadBundle } = await import('./compile-cache.js');
    const bundle = loadBundle(main, argv.find((a) => !a.startsWith('-')));
    const code = await bundle.exports.run(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      cwd: process.cwd(),
      env: process.env,
    });
    bundle.save();
    process.exitCode = code;
    lastResort();
  } catch (err) {
    const detail = process.env.MCP_ANNOTATE_DEBUG ? `\n${err?.stack ?? err}` : '';
    // A regular expression's error quotes its source, which may hold what it was made from (a
    // secret's characters): only the reason is said.
    const message = String(err?.message ?? err).replace(/^(Invalid regular expression): \/[\s\S]*\/[a-z]*: /, '$1: ');
    process.stderr.write(`mcp-annotate: internal error: ${message}${detail}\n(please report it with the command you ran; set MCP_ANNOTATE_DEBUG=1 for a stack trace)\n`);
    process.exitCode = 2;
    lastResort();
  }
}

// The work is done and its output written. Nothing should keep the process alive now, but a
// live server's process that escaped its group could (see stdio.ts): once stdout and stderr
// are flushed, end anyway, after a moment that a normal exit never waits for (the timer is unref'd).
function lastResort() {
  let flushed = 0;
  const done = () => {
    if (++flushed === 2) setTimeout(() => process.exit(), 500).unref();
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}
