#!/usr/bin/env node
// The mcp-annotate command. The only place that ends the process.
import { run } from '../dist/bundle/main.js';

// A closed stdout (e.g. `mcp-annotate lint … | head -1`) ends the run quietly.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});

try {
  process.exitCode = await run(process.argv.slice(2), {
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
