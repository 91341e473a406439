/**
 * In a GitHub Actions log (GITHUB_ACTIONS=true), nothing a server says may act as a workflow
 * command: a line that starts with "::" (whitespace trimmed) or holds "##[".
 */
import { describe, expect, it } from 'vitest';
import { logGuard } from '../src/util/workflow-log.js';
import { json, runCliInProcess as runCli, tempDir } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess

const evil = {
  serverInfo: { name: '::stop-commands::pwned' },
  tools: [
    { name: 'delete_all', description: 'Permanently deletes everything', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
    { name: 'x##[error]Fake failure', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
  ],
};

/** Lines the runner would take for a command. */
const commandLines = (text: string) => text.split('\n').filter((l) => /^[\s\u0085\u180e]*::/.test(l) || l.includes('##['));

describe('output in a GitHub Actions log', () => {
  const dir = tempDir({ 's.json': json(evil) });

  it('text, markdown, json and sarif on stdout, and messages on stderr, carry no workflow command of a server', async () => {
    for (const format of ['text', 'markdown', 'json', 'sarif']) {
      const plain = await runCli(['lint', 's.json', '-f', format, '--no-color'], { cwd: dir, env: { GITHUB_ACTIONS: undefined } });
      // Without the runner: as written (the problem this guards against; markdown escapes [ of its own).
      if (format !== 'markdown') expect(commandLines(plain.stdout).length, format).toBeGreaterThan(0);
      const r = await runCli(['lint', 's.json', '-f', format, '--no-color'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
      expect(r.code, format).toBe(1);
      expect(commandLines(r.stdout), format).toEqual([]);
      expect(commandLines(r.stderr), format).toEqual([]);
      if (format === 'json' || format === 'sarif') {
        // The same JSON.
        expect(JSON.parse(r.stdout), format).toEqual(JSON.parse(plain.stdout));
      }
    }
    const text = await runCli(['lint', 's.json', '--no-color'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(text.stdout).toMatch(/^\\u\{3a\}:stop-commands::pwned s\.json · 2 tools$/m);
    expect(text.stdout).toContain('x##\\u{5b}error]Fake failure');
  });

  it('messages on stderr too', async () => {
    const bad = tempDir({ '::error::x.json': '{' });
    const plain = await runCli(['lint', '.', '--no-color'], { cwd: bad, env: { GITHUB_ACTIONS: undefined } });
    expect(commandLines(plain.stderr)).toHaveLength(1);
    const r = await runCli(['lint', '.', '--no-color'], { cwd: bad, env: { GITHUB_ACTIONS: 'true' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('x.json');
    expect(commandLines(r.stderr)).toEqual([]);
    expect(commandLines(r.stdout)).toEqual([]);
  });

  it('the github format still writes its annotations as commands, escaped', async () => {
    const r = await runCli(['lint', 's.json', '-f', 'github'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    const lines = r.stdout.trim().split('\n');
    expect(lines.slice(0, -1).every((l) => /^::(error|warning|notice) /.test(l))).toBe(true);
    expect(lines.some((l) => l.includes('\\:\\:stop-commands') || l.includes('::stop-commands::pwned › delete_all'))).toBe(true);
  });

  it("the github format's summary line is defused too: a config file's path with ##[ in it", async () => {
    // Found by probe AZ: the summary quotes the config whose maxWarnings failed the run, raw.
    const cfg = tempDir({ '##[group]cfg/c.yaml': 'maxWarnings: 0\n', 's.json': json(evil) });
    const plain = await runCli(['lint', 's.json', '-c', '##[group]cfg/c.yaml', '-f', 'github'], { cwd: cfg, env: { GITHUB_ACTIONS: undefined } });
    expect(plain.stdout.trim().split('\n').at(-1)).toContain('##[group]cfg');
    const r = await runCli(['lint', 's.json', '-c', '##[group]cfg/c.yaml', '-f', 'github'], { cwd: cfg, env: { GITHUB_ACTIONS: 'true' } });
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    const summary = lines.at(-1)!;
    expect(summary).toMatch(/^mcp-annotate: .* of ##\\u\{5b\}group\]cfg\/c\.yaml allows, which fails the run$/);
    // Every line the runner reads as a command is one of the format's own annotations.
    expect(commandLines(r.stdout).every((l) => /^::(error|warning|notice) /.test(l))).toBe(true);
    expect(lines.filter((l) => !l.startsWith('::'))).toEqual([summary]);
    // Its annotations are as they were.
    expect(lines.slice(0, -1)).toEqual(plain.stdout.trim().split('\n').slice(0, -1));
  });
});

describe('logGuard', () => {
  it('sees a line written in pieces from its start', () => {
    const g = logGuard('text');
    expect([g('a\n  '), g(':'), g(':x::y\n'), g('##'), g('[z]\n')].join('')).toBe('a\n  :\\u{3a}x::y\n##\\u{5b}z]\n');
    const h = logGuard('text');
    expect([h('ok\n'), h('::'), h('warning::w\n')].join('')).toBe('ok\n\\u{3a}:warning::w\n');
    const j = logGuard('json');
    expect(JSON.parse([j('"a#'), j('#'), j('[b]"')].join(''))).toBe('a##[b]');
    expect([j('"a#'), j('#'), j('[b]"')].join('')).not.toContain('##[');
  });

  it('leaves other text as it is', () => {
    const g = logGuard('text');
    expect(g('a: b :: c\n# [x] ## [y]\n')).toBe('a: b :: c\n# [x] ## [y]\n');
  });
});
