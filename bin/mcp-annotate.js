#!/usr/bin/env node
// The mcp-annotate command. The only place that ends the process.
import { readFileSync } from 'node:fs';
import module from 'node:module';

const argv = process.argv.slice(2);

// `--version` alone needs none of the linter: answer it before loading the bundle.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  // Node 22.1+ can cache compiled code between runs; start-up then skips most parsing.
  module.enableCompileCache?.();

  // A closed stdout (e.g. `mcp-annotate lint … | head -1`) ends the run quietly.
  process.stdout.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });

  try {
    const { run } = await import('../dist/bundle/main.js');
    process.exitCode = await run(argv, {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      cwd: process.cwd(),
      env: process.env,
    });
  } catch (err) {
    const detail = process.env.MCP_ANNOTATE_DEBUG ? `\n${err?.stack ?? err}` : '';
    process.stderr.write(`mcp-annotate: internal error: ${err?.message ?? err}${detail}\n(please report it with the command you ran; set MCP_ANNOTATE_DEBUG=1 for a stack trace)\n`);
    process.exitCode = 2;
  }
}
