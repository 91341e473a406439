/**
 * Reading MCP client config files (--mcp-config, dump --mcp-config, a config file's
 * targets.mcpServers) the way clients read them: own properties only ("__proto__" is a
 * server name like any other), the last of a key given twice, entries whose transport
 * clients disagree on refused, and runs that select nothing said as such.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, json } from '../helpers/cli.js';
import { VOCAB_FIXTURE, serverArgv } from './helpers.js';

const tools = serverArgv('stdio-tools.mjs', VOCAB_FIXTURE);
/** Answers 401 to everything: a server that wants credentials. */
let locked: ReturnType<typeof createHttpServer>;
let lockedUrl: string;
/** A port nothing listens on (closed again after it was found). */
let deadUrl: string;

beforeAll(async () => {
  locked = createHttpServer((_req, res) => res.writeHead(401).end());
  await new Promise<void>((r) => locked.listen(0, '127.0.0.1', r));
  lockedUrl = `http://127.0.0.1:${(locked.address() as AddressInfo).port}/mcp`;
  const probe = createHttpServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/mcp`;
  await new Promise<void>((r) => probe.close(() => r()));
});
afterAll(async () => {
  await new Promise<void>((r) => (locked ? locked.close(() => r()) : r()));
});

const names = (stdout: string) => JSON.parse(stdout).servers.map((s: { name: string; source: string }) => [s.name, s.source]);

describe('what a client config is not', () => {
  it('a client config given as a dump says to lint it with --mcp-config', async () => {
    const dir = tempDir({
      '.vscode/mcp.json': json({ servers: { gh: { type: 'http', url: 'https://example.invalid/mcp' } } }),
      'claude.json': json({ mcpServers: {} }),
      'opencode.json': json({ mcp: { x: { type: 'local', command: ['x'] } } }),
      'zed.json': json({ context_servers: {} }),
    });
    const r = await runCli(['lint', '.vscode/mcp.json', 'claude.json', 'opencode.json', 'zed.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n').sort()).toEqual([
      '.vscode/mcp.json: expected a tools/list dump; this looks like an MCP client config ("servers" holds server entries): lint its servers with --mcp-config .vscode/mcp.json',
      'claude.json: expected a tools/list dump; this looks like an MCP client config ("mcpServers" holds server entries): lint its servers with --mcp-config claude.json',
      'opencode.json: expected a tools/list dump; this looks like an MCP client config ("mcp" holds server entries): lint its servers with --mcp-config opencode.json',
      'zed.json: expected a tools/list dump; this looks like an MCP client config ("context_servers" holds server entries): lint its servers with --mcp-config zed.json',
    ]);
  });

  it('a 401 from a config server points at the headers of its entry, not at --header', async () => {
    const dir = tempDir({ '.mcp.json': json({ mcpServers: { locked: { type: 'http', url: lockedUrl } } }) });
    const r = await runCli(['lint', '--mcp-config', '.mcp.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^\.mcp\.json:3:5: server "locked": HTTP 401 Unauthorized .*\(give credentials in the "headers" of its entry in \.mcp\.json, e\.g\. "headers": \{"Authorization": "Bearer \$\{TOKEN\}"\}\)\n$/);
    expect(r.stderr).not.toContain('--header');
  });
});
