#!/usr/bin/env node
// stdio MCP server (SDK) serving the tools of a dump file:
//   node stdio-tools.mjs <dump.json> [pageSize]
// With REQUIRE_TOKEN set, it refuses to start unless TOKEN equals it (to test --env).
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createToolsServer, loadFixture } from './tools-lib.mjs';

const [file, pageSize] = process.argv.slice(2);
if (process.env.REQUIRE_TOKEN !== undefined && process.env.TOKEN !== process.env.REQUIRE_TOKEN) {
  process.stderr.write('stdio-tools: TOKEN is missing or wrong\n');
  process.exit(1);
}
const server = createToolsServer({ ...loadFixture(file), pageSize: Number(pageSize ?? 0) });
await server.connect(new StdioServerTransport());
