/**
 * runCliInProcess (test/helpers/cli.ts), which most test files use to run the CLI, says what the
 * real bin in a child process says: the same exit code, stdout and stderr, byte for byte, for
 * runs of every kind those files make. And it hands to a child process what is about the process.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, needsProcess, runCli, runCliInProcess, tempDir, tool } from './helpers/cli.js';

const contradictory = json({
  serverInfo: { name: 'mail\u001b[2J' },
  tools: [tool('send_email', { readOnlyHint: true, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'irreversible' } }), tool('del', { readOnlyHint: true, destructiveHint: true })],
});

describe('runCliInProcess', () => {
  it('gives the exit code, stdout and stderr of the bin in a child process', async () => {
    const dir = tempDir({
      'bad.json': contradictory,
      'ok.json': json({ tools: [tool('list_notes', { readOnlyHint: true, openWorldHint: false })] }),
      'broken.json': '{"tools": [',
      'cfg.yaml': 'rules:\n  readonly-vs-outcome: warning\n',
      'head.json': json({ serverInfo: { name: 'mail\u001b[2J' }, tools: [tool('send_email', { readOnlyHint: false })] }),
    });
    const runs: { args: string[]; input?: string; env?: Record<string, string> }[] = [
      { args: ['lint', 'bad.json', 'ok.json'] },
      { args: ['lint', 'bad.json', '-f', 'json'] },
      { args: ['lint', 'bad.json', '-f', 'sarif', '-f', 'markdown', '-o', 'r.md'] },
      { args: ['lint', 'bad.json', '-f', 'github', '--quiet'] },
      { args: ['lint', 'bad.json', '--color'] },
      { args: ['lint', 'bad.json'], env: { FORCE_COLOR: '1' } },
      { args: ['lint', '-', '-f', 'json'], input: contradictory },
      { args: ['lint', 'broken.json', 'missing.json', 'ok.json'] },
      { args: ['lint', 'bad.json', '-c', 'cfg.yaml', '--max-warnings', '0'] },
      { args: ['lint', 'bad.json', '--baseline', 'b.json', '--update-baseline'] },
      { args: ['lint', 'bad.json', '--baseline', 'b.json', '--fail-on-stale'] },
      { args: ['diff', 'bad.json', 'head.json', '-f', 'json'] },
      { args: ['lint', '--fail-on', 'sometimes', 'x.json'] },
      { args: ['lint'] },
      { args: [] },
      { args: ['rules', '-f', 'json'] },
      { args: ['explain', 'readonly-vs-outcome'] },
      { args: ['explain', 'readonly-vs-outcomes'] },
      { args: ['lint', '--help'] },
    ];
    for (const { args, input, env } of runs) {
      const child = await runCli(args, { cwd: dir, input, env });
      const md = args.includes('r.md') ? readFileSync(join(dir, 'r.md'), 'utf8') : undefined;
      const inProcess = await runCliInProcess(args, { cwd: dir, input, env });
      expect(inProcess, args.join(' ')).toEqual(child);
      if (md !== undefined) expect(readFileSync(join(dir, 'r.md'), 'utf8')).toBe(md);
    }
  });

  it('hands runs about the process to a child: --version, another user, stdin as a path, dump, live servers, a config naming servers', () => {
    const dir = tempDir({ 'ok.json': json({ tools: [] }), 'live/mcp-annotate.config.json': json({ targets: { mcpServers: { a: { command: 'node' } } } }), 'cfg.json': json({ targets: { mcpServers: {} } }) });
    for (const args of [['--version'], ['-v'], ['lint', '/dev/stdin'], ['dump', 'http://x'], ['lint', '--stdio', 'node s.js'], ['lint', '--url=http://x'], ['lint', '--mcp-config', '.mcp.json'], ['lint', '--', 'node', 's.js'], ['diff', 'ok.json', '--stdio', 'node s.js'], ['lint', 'ok.json', '-c', 'cfg.json']]) {
      expect(needsProcess(args, { cwd: dir }), args.join(' ')).toBe(true);
    }
    expect(needsProcess(['lint', 'ok.json'], { cwd: join(dir, 'live') })).toBe(true);
    expect(needsProcess(['lint', 'ok.json'], { cwd: dir, user: { uid: 65534, gid: 65534 } })).toBe(true);
    for (const args of [['lint', 'ok.json'], ['lint', '-'], ['--version', 'x'], ['rules'], ['diff', 'a.json', 'b.json'], ['lint', 'ok.json', '-c', 'missing.json']]) {
      expect(needsProcess(args, { cwd: dir }), args.join(' ')).toBe(false);
    }
  });
});
