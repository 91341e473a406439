/**
 * The engine's contract with rules that reason across tools: server and run checks see
 * each tool without its claims, and read what their collect() kept instead.
 */
import { describe, expect, it } from 'vitest';
import { lint } from '../src/engine/engine.js';
import { MAX_PER_TOOL } from '../src/engine/limit.js';
import { defineRule, type Rule } from '../src/rule.js';
import { loadText } from '../src/sources/files.js';
import { RULES } from '../rules/index.js';

const dump = (tools: unknown[]) => JSON.stringify({ tools });
const server = (name: string, tools: unknown[]) => loadText(dump(tools), { kind: 'file', path: `${name}.json`, display: `${name}.json` }, name, `${name}.json`)[0]!;
const tool = (name: string, annotations: Record<string, unknown> = {}) => ({ name, inputSchema: { type: 'object' }, annotations });
/** A warning rule of the core pack with these hooks, for testing the engine. */
const testRule = (id: string, hooks: Pick<Rule, 'check' | 'collect' | 'checkServer' | 'checkRun'>): Rule =>
  defineRule({ id, severity: 'warning', category: 'consistency', packs: ['core'], summary: 'test', precision: 'high', why: 'test', examples: { correct: [], incorrect: [] }, ...hooks });

describe('collect(), checkServer() and checkRun()', () => {
  it('keep what collect() returned per tool, and nothing of the claims', () => {
    const seen: string[] = [];
    const counting = testRule('test-collect', {
      collect(ctx) {
        // The tool's claims are there while it is collected…
        const ro = ctx.claims.all('readOnly')[0];
        return ro?.value === true ? { readOnlyAt: ro.pointer } : undefined;
      },
      checkServer(ctx) {
        for (const t of ctx.tools) {
          // …and gone in the server check, where only what collect() kept remains.
          expect(t.claims.list).toEqual([]);
          seen.push(`server ${t.tool.name}: ${JSON.stringify(t.collected ?? null)}`);
        }
      },
      checkRun(ctx) {
        for (const s of ctx.servers) for (const t of s.tools) if (t.collected) seen.push(`run ${s.server.name}/${t.tool.name}`);
        const first = ctx.servers[0]!.tools[0]!;
        ctx.report({ server: ctx.servers[0]!.server, tool: first.tool, pointer: (first.collected as { readOnlyAt: string }).readOnlyAt, message: 'collected' });
      },
    });
    const result = lint([server('a', [tool('reader', { readOnlyHint: true }), tool('writer', { readOnlyHint: false })]), server('b', [tool('other')])], [counting]);
    expect(seen).toEqual([
      'server reader: {"readOnlyAt":"/tools/0/annotations/readOnlyHint"}',
      'server writer: null',
      'server other: null',
      'run a/reader',
    ]);
    expect(result.findings.map((f) => [f.ruleId, f.tool, f.pointer, f.region?.line])).toEqual([['test-collect', 'reader', '/tools/0/annotations/readOnlyHint', 1]]);
  });

  it('toxic-flow finds the same flow across servers from what it collected, with and without openWorldIsUntrusted', () => {
    const servers = () => [
      server('web', [tool('fetch_page', { openWorldHint: true })]),
      server('crm', [
        tool('export_contacts', {
          returnMetadata: { source: 'internal', sensitivity: 'pii' },
          inputMetadata: { destination: 'public', sensitivity: 'pii', outcomes: 'irreversible' },
          approvalRecommendation: 'none',
        }),
      ]),
    ];
    const toxic = RULES.filter((r) => r.id === 'toxic-flow');
    // Without the option, an open-world tool is not a source of untrusted content: no flow.
    expect(lint(servers(), toxic).findings).toEqual([]);
    const flagged = lint(servers(), toxic, { rules: { 'toxic-flow': ['warning', { openWorldIsUntrusted: true }] } as never }).findings;
    expect(flagged.map((f) => [f.ruleId, f.server, f.tool])).toEqual([['toxic-flow', 'crm', 'export_contacts']]);
    expect(flagged[0]!.related?.map((r) => `${r.server}/${r.tool}`)).toContain('web/fetch_page');
  });

  it('every hook sees the options of its server or tool: the defaults, `rules`, then the overrides that match (any severity)', () => {
    const seen: string[] = [];
    const opt = (o: unknown) => String((o as { level?: unknown }).level);
    const withOptions = defineRule<{ level: string }>({
      ...testRule('test-options', {}),
      options: { defaults: { level: 'default' }, schema: { type: 'object' }, docs: '' },
      check(ctx) {
        seen.push(`check ${ctx.server.name}/${ctx.tool.name}: ${opt(ctx.options)}`);
      },
      collect(ctx) {
        seen.push(`collect ${ctx.server.name}/${ctx.tool.name}: ${opt(ctx.options)}`);
        return undefined;
      },
      checkServer(ctx) {
        seen.push(`server ${ctx.server.name}: ${opt(ctx.options)}; ${ctx.tools.map((t) => `${t.tool.name} ${opt(t.options)}`).join(', ')}`);
      },
      checkRun(ctx) {
        seen.push(`run: ${opt(ctx.options)}; ${ctx.servers.map((s) => `${s.server.name} ${opt(s.options)} [${s.tools.map((t) => `${t.tool.name} ${opt(t.options)}`).join(', ')}]`).join('; ')}`);
      },
    });
    const overrides = (srv: string, t: string | undefined) => {
      const out: Record<string, unknown> = {};
      if (srv === 'b') out['test-options'] = ['warning', { level: 'server-b' }];
      if (t === 'quiet') out['test-options'] = ['off', { level: 'quiet-tool' }];
      return Object.keys(out).length ? (out as never) : undefined;
    };
    lint([server('a', [tool('loud'), tool('quiet')]), server('b', [tool('other')])], [withOptions], {
      rules: { 'test-options': ['warning', { level: 'config' }] },
      overrides,
    });
    expect(seen).toEqual([
      'check a/loud: config',
      'collect a/loud: config',
      // Off for this tool: no check of its own, but it is collected with its options.
      'collect a/quiet: quiet-tool',
      'server a: config; loud config, quiet quiet-tool',
      'check b/other: server-b',
      'collect b/other: server-b',
      'server b: server-b; other server-b',
      'run: config; a config [loud config, quiet quiet-tool]; b server-b [other server-b]',
    ]);
    // Without any setting, the defaults (collect included).
    seen.length = 0;
    lint([server('a', [tool('loud')])], [withOptions]);
    expect(seen).toEqual(['check a/loud: default', 'collect a/loud: default', 'server a: default; loud default', 'run: default; a default [loud default]']);
  });

  it("names the finding's own tool on a related place inside it, and no tool on one outside every tool", () => {
    const relating = testRule('test-related', {
      check(ctx) {
        if (ctx.tool.index !== 1) return;
        ctx.report({
          pointer: ctx.at('/annotations'),
          message: 'here',
          related: [
            { pointer: ctx.at('/name'), message: 'own tool' },
            // "/tools/10" starts with "/tools/1" but is another tool.
            { pointer: '/tools/10/name', message: 'not this tool' },
            { pointer: '/tools', message: 'the list' },
          ],
        });
      },
    });
    const tools = Array.from({ length: 11 }, (_, i) => tool(`t${i}`));
    const [finding] = lint([server('a', tools)], [relating]).findings;
    expect(finding!.related!.map((r) => [r.message, r.server, r.tool ?? null])).toEqual([
      ['own tool', 'a', 't1'],
      ['not this tool', 'a', null],
      ['the list', 'a', null],
    ]);
  });
});

describe('the findings limit', () => {
  it('stops at maxFindings: the findings so far are kept, and where it stopped is said', () => {
    const everyTool = testRule('test-every-tool', {
      check(ctx) {
        ctx.report({ pointer: ctx.at('/name'), message: 'one' });
        ctx.report({ pointer: ctx.at('/inputSchema'), message: 'two' });
      },
      checkServer(ctx) {
        ctx.report({ pointer: ctx.toolsPointer, message: 'server' });
      },
    });
    const tools = (n: number) => Array.from({ length: n }, (_, i) => tool(`t${i}`));
    const both = [server('a', tools(10)), server('b', tools(10))];
    const all = lint(both, [everyTool]);
    expect(all.findings).toHaveLength(42);
    expect(all.stopped).toBeUndefined();
    // Five findings are two tools and a half: the third tool's second finding is left out, and
    // the run stops there; server b is not linted.
    const cut = lint(both, [everyTool], { maxFindings: 5 });
    expect(cut.findings.map((f) => `${f.server}/${f.tool}: ${f.message}`)).toEqual(['a/t0: one', 'a/t0: two', 'a/t1: one', 'a/t1: two', 'a/t2: one']);
    expect(cut.stopped).toEqual({ serverId: 'a.json', server: 'a', display: 'a.json', limit: 5, at: { toolIndex: 2, tools: 10 }, serversAfter: 1 });
    expect(cut.servers.map((s) => s.name)).toEqual(['a']);
    // Exactly the limit: nothing was left out.
    expect(lint(both, [everyTool], { maxFindings: 42 }).stopped).toBeUndefined();
    // Past it in a server's own checks: that finding is left out, and said so.
    const checks = lint(both, [everyTool], { maxFindings: 41 });
    expect(checks.findings).toHaveLength(41);
    expect(checks.stopped).toEqual({ serverId: 'b.json', server: 'b', display: 'b.json', limit: 41, at: undefined, serversAfter: 0 });
    expect(lint(both, [everyTool], { maxFindings: 20 }).stopped).toEqual({ serverId: 'a.json', server: 'a', display: 'a.json', limit: 20, at: undefined, serversAfter: 1 });
  });
});

describe('locating findings', () => {
  it('the servers of one document are located in one pass, each finding where its server is', () => {
    const n = 5_000;
    const doc = { servers: Array.from({ length: n }, (_, i) => ({ serverInfo: { name: `s${i}` }, tools: [tool('search', { readOnlyHint: true, openWorldHint: true })] })) };
    const text = JSON.stringify(doc, null, 2);
    const servers = loadText(text, { kind: 'file', path: 'many.json', display: 'many.json' }, 'many', 'many.json');
    expect(servers).toHaveLength(n);
    const found = lint(servers, RULES).findings.filter((f) => f.ruleId === 'cross-server-name-collision');
    expect(found).toHaveLength(n - 1);
    // The last server's tool name is where the text says it is.
    const last = found.find((f) => f.server === `s${n - 1}`)!;
    const lines = text.split('\n');
    expect(lines[last.region!.line - 1]!.slice(last.region!.column - 1)).toMatch(/^"name": "search"/);
    expect(last.pointer).toBe(`/servers/${n - 1}/tools/0/name`);
  });
});

describe('findings of one rule for one tool', () => {
  /** A rule that reports `n` findings for every tool from its tool check, and as many per tool and about the server from its server check. */
  const flood = (n: number) =>
    testRule('test-flood', {
      check(ctx) {
        for (let i = 0; i < n; i++) ctx.report({ pointer: ctx.at(`/annotations/k${i}`), message: `tool ${i}` });
      },
      checkServer(ctx) {
        for (const t of ctx.tools) for (let i = 0; i < n; i++) ctx.report({ tool: t.tool, pointer: `${t.tool.pointer}/name`, message: `server ${i}` });
        for (let i = 0; i < n; i++) ctx.report({ pointer: '/tools', message: `about the server ${i}` });
      },
    });
  const a = () => [server('a', [tool('one'), tool('two')])];

  it('are listed up to the limit, and one note of the rule, at the tool, counts the rest in each check', () => {
    const { findings } = lint(a(), [flood(7)], { maxPerTool: 5 });
    const notes = findings.filter((f) => f.severity === 'note');
    expect(findings.filter((f) => f.severity === 'warning')).toHaveLength(2 * 2 * 5 + 5);
    expect(notes.map((f) => [f.ruleId, f.tool ?? null, f.pointer, f.message])).toEqual([
      ['test-flood', null, '/tools', 'there are 2 more test-flood findings here than mcp-annotate lists for one server (the first 5 are listed)'],
      ['test-flood', 'one', '/tools/0', 'the tool has 2 more test-flood findings than mcp-annotate lists for one tool (the first 5 are listed)'],
      ['test-flood', 'one', '/tools/0', 'the tool has 2 more test-flood findings than mcp-annotate lists for one tool (the first 5 are listed)'],
      ['test-flood', 'two', '/tools/1', 'the tool has 2 more test-flood findings than mcp-annotate lists for one tool (the first 5 are listed)'],
      ['test-flood', 'two', '/tools/1', 'the tool has 2 more test-flood findings than mcp-annotate lists for one tool (the first 5 are listed)'],
    ]);
    expect(notes[1]!.suggestion).toBe('fix the findings listed and run again (MCP_ANNOTATE_MAX_PER_TOOL=0 lists them all)');
    // The first findings are the ones listed.
    expect(findings.filter((f) => f.tool === 'one' && f.message.startsWith('tool ')).map((f) => f.message)).toEqual(['tool 0', 'tool 1', 'tool 2', 'tool 3', 'tool 4']);
  });

  it('are all listed up to the limit, with no note, and all of them with no limit (0)', () => {
    expect(lint(a(), [flood(5)], { maxPerTool: 5 }).findings.filter((f) => f.severity === 'note')).toEqual([]);
    expect(lint(a(), [flood(7)], { maxPerTool: 0 }).findings).toHaveLength(5 * 7);
    // One more than the limit: "1 more … finding".
    expect(lint(a(), [flood(6)], { maxPerTool: 5 }).findings.find((f) => f.severity === 'note')!.message).toBe('there is 1 more test-flood finding here than mcp-annotate lists for one server (the first 5 are listed)');
  });

  it('are limited by default to MAX_PER_TOOL: 300,000 bad attribution entries are 100 findings and a note', () => {
    const attribution = Array.from({ length: 300_000 }, (_, i) => `C:\\data\\${i}`);
    const { findings } = lint([server('a', [{ name: 'wide', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, attribution } }])], RULES);
    const mine = findings.filter((f) => f.ruleId === 'attribution-uri');
    expect(mine).toHaveLength(MAX_PER_TOOL + 1);
    expect(mine.filter((f) => f.severity === 'note').map((f) => f.message)).toEqual([`the tool has 299,900 more attribution-uri findings than mcp-annotate lists for one tool (the first ${MAX_PER_TOOL} are listed)`]);
  }, 30_000);
});
