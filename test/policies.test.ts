/**
 * User policies: the SEP's three example policies as written, possible-set semantics,
 * facts (tool paths, claims, request/response), compile errors, and each policy as its
 * own rule in every output format.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../rules/index.js';
import { lint } from '../src/engine/engine.js';
import { loadText } from '../src/sources/files.js';
import { compilePolicy, policyRule, type Policy } from '../src/policies/rules.js';
import type { ConditionError } from '../src/policies/evaluate.js';
import { parseFact, splitPath } from '../src/policies/facts.js';
import type { Finding } from '../src/types.js';
import { json, runCliInProcess as runCli, tempDir, tool } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess

function rulesFor(policies: Policy[]) {
  return policies.map((p) => {
    const errors: ConditionError[] = [];
    const compiled = compilePolicy(p, errors);
    expect(errors.map((e) => e.message)).toEqual([]);
    return policyRule(p, compiled!);
  });
}

function run(tools: unknown[], policies: Policy[], name = 'srv'): Finding[] {
  const text = json({ serverInfo: { name }, tools });
  const servers = loadText(text, { kind: 'file', path: 'dump.json', display: 'dump.json' }, name, 'dump.json');
  const extra = rulesFor(policies);
  return lint(servers, [...RULES, ...extra], {}).findings.filter((f) => f.ruleId.startsWith('policy/'));
}

const brief = (fs: Finding[]) => fs.map((f) => ({ rule: f.ruleId, tool: f.tool ?? null, severity: f.severity, pointer: f.pointer }));

/** The example policies of SEP-1913's "Policy Layer (Non-Normative)", exactly as written there. */
const SEP_POLICIES: Policy[] = [
  {
    name: 'block-open-world-to-external',
    effect: 'block',
    conditions: {
      and: [
        { fact: 'request.annotations.openWorldHint', equals: true },
        { fact: 'tool.annotations.inputMetadata.destination', equals: 'public' },
      ],
    },
  },
  { name: 'escalate-malicious', effect: 'escalate', conditions: { fact: 'response.annotations.maliciousActivityHint', equals: true } },
  { name: 'confirm-irreversible-actions', effect: 'escalate', conditions: { fact: 'tool.annotations.inputMetadata.outcomes', equals: 'irreversible' } },
];

const SEP_TOOLS = [
  tool('send_email', { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: ['consequential', 'irreversible'] } }),
  tool('fetch_page', { readOnlyHint: true, openWorldHint: true, maliciousActivityHint: true, returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' } }),
  tool('save_note', { readOnlyHint: false, destructiveHint: false, openWorldHint: false, inputMetadata: { destination: ['internal', 'user'], sensitivity: 'user', outcomes: 'consequential' } }),
  tool(
    'wire_money',
    { readOnlyHint: false, destructiveHint: true, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'financial', outcomes: 'irreversible' } },
    { _meta: { 'mcp.dev/requiresConfirmation': true } },
  ),
  tool('list_files', { readOnlyHint: true, openWorldHint: false }),
];

describe('the SEP example policies, as written', () => {
  const findings = run(SEP_TOOLS, SEP_POLICIES);

  it('confirm-irreversible-actions escalates irreversible tools without a confirmation signal', () => {
    const mine = findings.filter((f) => f.ruleId === 'policy/confirm-irreversible-actions');
    // send_email may be irreversible; wire_money is, but asks for confirmation.
    expect(brief(mine)).toEqual([{ rule: 'policy/confirm-irreversible-actions', tool: 'send_email', severity: 'warning', pointer: '/tools/0/annotations/inputMetadata/outcomes/1' }]);
    expect(mine[0]!.message).toBe(
      'policy "confirm-irreversible-actions" escalates this tool, and it carries no confirmation signal: tool.annotations.inputMetadata.outcomes may be "irreversible" (/tools/0/annotations/inputMetadata/outcomes/1)',
    );
  });

  it('escalate-malicious escalates the tools whose results may carry maliciousActivityHint', () => {
    const mine = findings.filter((f) => f.ruleId === 'policy/escalate-malicious');
    expect(brief(mine)).toEqual([{ rule: 'policy/escalate-malicious', tool: 'fetch_page', severity: 'warning', pointer: '/tools/1/annotations/maliciousActivityHint' }]);
    expect(mine[0]!.message).toContain('response.annotations.maliciousActivityHint may be true (/tools/1/annotations/maliciousActivityHint)');
  });

  it('block-open-world-to-external needs the request, so it blocks nothing statically and says so once, naming the tools it applies to', () => {
    const mine = findings.filter((f) => f.ruleId === 'policy/block-open-world-to-external');
    expect(brief(mine)).toEqual([{ rule: 'policy/block-open-world-to-external', tool: null, severity: 'note', pointer: '/tools' }]);
    expect(mine[0]!.message).toBe(
      'policy "block-open-world-to-external" cannot be decided from the declarations of 2 tools "send_email", "wire_money": request.annotations.openWorldHint is only known when a call is made (a client evaluates it per request). What their declarations say does not rule it out, so a client enforcing it at call time may block them',
    );
  });

  it('block fires as an error when every condition is about the declaration', () => {
    const f = run(SEP_TOOLS, [{ name: 'no-public', effect: 'block', conditions: { fact: 'tool.annotations.inputMetadata.destination', equals: 'public' } }]);
    expect(brief(f)).toEqual([
      { rule: 'policy/no-public', tool: 'send_email', severity: 'error', pointer: '/tools/0/annotations/inputMetadata/destination' },
      { rule: 'policy/no-public', tool: 'wire_money', severity: 'error', pointer: '/tools/3/annotations/inputMetadata/destination' },
    ]);
  });
});

describe('possible-set semantics and facts', () => {
  const multi = [
    tool('a', { readOnlyHint: false, inputMetadata: { destination: ['internal', 'public'], outcomes: ['benign', 'irreversible'] } }),
    tool('b', { readOnlyHint: false, inputMetadata: { destination: 'internal', outcomes: 'benign' } }),
    tool('c', { readOnlyHint: true }),
  ];
  const fired = (conditions: Policy['conditions'], tools = multi) => run(tools, [{ name: 'p', effect: 'warn', conditions }]).map((f) => f.tool ?? '(server)');

  it('equals holds when the set may hold the value; in, when it may hold one of them', () => {
    expect(fired({ fact: 'tool.annotations.inputMetadata.destination', equals: 'public' })).toEqual(['a']);
    expect(fired({ fact: 'tool.annotations.inputMetadata.destination', in: ['public', 'user'] })).toEqual(['a']);
    expect(fired({ fact: 'tool.annotations.inputMetadata.destination', in: ['internal'] })).toEqual(['a', 'b']);
  });

  it('not asks whether a possible value fails it; an undeclared fact satisfies nothing', () => {
    // a may be other than benign; b is only benign; c declares no outcomes at all.
    expect(fired({ not: { fact: 'tool.annotations.inputMetadata.outcomes', equals: 'benign' } })).toEqual(['a', 'c']);
    expect(fired({ fact: 'tool.annotations.inputMetadata.outcomes', equals: 'benign' })).toEqual(['a', 'b']);
  });

  it('and, or and nesting', () => {
    expect(fired({ and: [{ fact: 'tool.annotations.inputMetadata.outcomes', equals: 'irreversible' }, { fact: 'tool.name', equals: 'b' }] })).toEqual([]);
    expect(fired({ or: [{ fact: 'tool.name', equals: 'b' }, { fact: 'tool.name', equals: 'c' }] })).toEqual(['b', 'c']);
    expect(fired({ and: [{ not: { fact: 'tool.name', in: ['a'] } }, { or: [{ fact: 'tool.annotations.readOnlyHint', equals: true }, { fact: 'tool.name', equals: 'b' }] }] })).toEqual(['b', 'c']);
  });

  it('contains matches a member or a substring of a string', () => {
    const tools = [tool('x', { readOnlyHint: true }, { description: 'Deletes every row' }), tool('y', { readOnlyHint: true }, { description: 'Lists rows' })];
    expect(fired({ fact: 'tool.description', contains: 'Deletes' }, tools)).toEqual(['x']);
  });

  it('the core hints take MCP defaults when absent (destructiveHint only off read-only tools)', () => {
    const tools = [tool('w', { readOnlyHint: false }), tool('r', { readOnlyHint: true }), tool('n')];
    expect(fired({ fact: 'tool.annotations.destructiveHint', equals: true }, tools)).toEqual(['w', 'n']);
    expect(fired({ fact: 'tool.annotations.openWorldHint', equals: true }, tools)).toEqual(['w', 'r', 'n']);
    const f = run(tools, [{ name: 'd', effect: 'warn', conditions: { fact: 'tool.annotations.destructiveHint', equals: true } }]);
    expect(f[0]!.message).toBe('policy "d" warns about this tool: tool.annotations.destructiveHint is true (not declared, so the default) (/tools/0/annotations/destructiveHint)');
  });

  it('claims are the union of what every vocabulary says, with the pointer of the member', () => {
    const tools = [
      tool('m', { readOnlyHint: false }, { _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'public', sensitivity: ['pii'] } } } }),
      tool('s', { readOnlyHint: false, inputMetadata: { destination: 'public', sensitivity: 'user' } }),
    ];
    const f = run(tools, [
      { name: 'pii-out', effect: 'block', conditions: { and: [{ fact: 'claims.destinations', equals: 'public' }, { fact: 'claims.inputSensitivity', in: ['pii', 'financial'] }] } },
    ]);
    expect(brief(f)).toEqual([{ rule: 'policy/pii-out', tool: 'm', severity: 'error', pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination' }]);
    expect(f[0]!.related?.map((r) => r.pointer)).toEqual(['/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/sensitivity/0']);
  });

  it('claims.sensitiveFields holds field names (dotted paths), each found at its own field', () => {
    const tools = [
      tool('creds', { readOnlyHint: true, sensitiveHint: true }, {
        outputSchema: {
          type: 'object',
          properties: {
            token: { type: 'string', 'x-sensitive': true },
            keys: { type: 'array', items: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } } },
            password: { type: 'string', 'x-sensitive': true },
          },
        },
      }),
    ];
    const f = run(tools, [
      { name: 'pw', effect: 'block', conditions: { fact: 'claims.sensitiveFields', equals: 'password' } },
      { name: 'nested', effect: 'warn', conditions: { fact: 'claims.sensitiveFields', equals: 'keys.secret' } },
      { name: 'pointer', effect: 'warn', conditions: { fact: 'claims.sensitiveFields', contains: '/tools/0' } },
    ]);
    expect(brief(f)).toEqual([
      { rule: 'policy/nested', tool: 'creds', severity: 'warning', pointer: '/tools/0/outputSchema/properties/keys/items/properties/secret' },
      { rule: 'policy/pw', tool: 'creds', severity: 'error', pointer: '/tools/0/outputSchema/properties/password' },
    ]);
    expect(f[1]!.message).toBe('policy "pw" blocks this tool: claims.sensitiveFields may be "password" (/tools/0/outputSchema/properties/password)');
  });

  it('claims.sensitiveFields: a definition\'s name adds none, also when the definition is named "properties"', () => {
    const tools = [
      tool('defs', { readOnlyHint: true, sensitiveHint: true }, {
        outputSchema: {
          type: 'object',
          properties: { user: { $ref: '#/$defs/properties' } },
          $defs: { properties: { type: 'object', properties: { ssn: { type: 'string', 'x-sensitive': true } } } },
        },
      }),
    ];
    const f = run(tools, [
      { name: 'ssn', effect: 'warn', conditions: { fact: 'claims.sensitiveFields', equals: 'ssn' } },
      { name: 'keyword', effect: 'warn', conditions: { fact: 'claims.sensitiveFields', equals: 'properties' } },
    ]);
    expect(brief(f)).toEqual([{ rule: 'policy/ssn', tool: 'defs', severity: 'warning', pointer: '/tools/0/outputSchema/$defs/properties/properties/ssn' }]);
  });

  it('a member read from a case variant is found where it is written', () => {
    const tools = [tool('v', { readOnlyHint: false, inputMetadata: { destination: ['user', 'Public'] } })];
    expect(brief(run(tools, [{ name: 'pub', effect: 'warn', conditions: { fact: 'claims.destinations', equals: 'public' } }]))).toEqual([
      { rule: 'policy/pub', tool: 'v', severity: 'warning', pointer: '/tools/0/annotations/inputMetadata/destination/1' },
    ]);
  });

  it('bracketed keys reach _meta keys with dots and slashes', () => {
    const tools = [tool('e', { readOnlyHint: false }, { _meta: { 'mcp.dev/effect': 'delete' } }), tool('f', { readOnlyHint: true })];
    expect(fired({ fact: 'tool._meta["mcp.dev/effect"]', equals: 'delete' }, tools)).toEqual(['e']);
    expect(splitPath('tool._meta["io.modelcontextprotocol/action-metadata"].outcome')).toEqual(['tool', '_meta', 'io.modelcontextprotocol/action-metadata', 'outcome']);
    expect(splitPath('tool.annotations.inputMetadata.outcomes[1]')).toEqual(['tool', 'annotations', 'inputMetadata', 'outcomes', '1']);
  });

  it('escalate is silenced by a confirmation signal of any vocabulary', () => {
    const tools = [
      tool('t1', { readOnlyHint: false, inputMetadata: { outcomes: 'irreversible' } }, { _meta: { 'io.modelcontextprotocol/action-metadata': { requiresReview: true } } }),
      tool('t2', { readOnlyHint: false, inputMetadata: { outcomes: 'irreversible' }, approvalRecommendation: 'single' }),
      tool('t3', { readOnlyHint: false, inputMetadata: { outcomes: 'irreversible' } }),
    ];
    expect(run(tools, [SEP_POLICIES[2]!]).map((f) => f.tool)).toEqual(['t3']);
  });

  it('response facts a tool declares are bounded by it; others are unknown', () => {
    const tools = [tool('o', { readOnlyHint: true, openWorldHint: false }), tool('p', { readOnlyHint: true })];
    const f = run(tools, [
      { name: 'ow', effect: 'warn', conditions: { fact: 'response.annotations.openWorldHint', equals: true } },
      { name: 'attr', effect: 'warn', conditions: { fact: 'response.annotations.attribution', contains: 'https://' } },
    ]);
    // p leaves openWorldHint to its default (true); no tool declares attribution.
    expect(brief(f)).toEqual([
      { rule: 'policy/attr', tool: null, severity: 'note', pointer: '/tools' },
      { rule: 'policy/ow', tool: 'p', severity: 'warning', pointer: '/tools/1/annotations/openWorldHint' },
    ]);
    expect(f[0]!.message).toContain('the tool does not declare tool.annotations.attribution in tools/list');
  });

  it('server.name', () => {
    expect(run([tool('z', { readOnlyHint: true })], [{ name: 's', effect: 'warn', conditions: { fact: 'server.name', equals: 'srv' } }]).length).toBe(1);
    expect(run([tool('z', { readOnlyHint: true })], [{ name: 's', effect: 'warn', conditions: { fact: 'server.name', equals: 'other' } }]).length).toBe(0);
  });
});

describe('compiling conditions', () => {
  const problems = (conditions: unknown) => {
    const errors: ConditionError[] = [];
    compilePolicy({ name: 'x', effect: 'warn', conditions: conditions as Policy['conditions'] }, errors);
    return errors.map((e) => `${e.pointer}: ${e.message}`);
  };

  it('names the problem and its place, with the closest fact', () => {
    expect(problems({ fact: 'claims.outcome', equals: 'irreversible' })).toEqual([
      expect.stringMatching(/^\/fact: "claims\.outcome" is not a claim fact; did you mean "claims\.outcomes"\?/),
    ]);
    expect(problems({ fact: 'tol.annotations.readOnlyHint', equals: true })).toEqual([
      '/fact: "tol.annotations.readOnlyHint" does not start with "tool.", "claims.", "server.", "request.", "response."; did you mean "tool.annotations.readOnlyHint"?',
    ]);
    expect(problems({ fact: 'tool.name', equals: 1, in: [1] })).toEqual([': a condition with "fact" takes exactly one of "equals", "in" or "contains"']);
    expect(problems({ fact: 'tool.name' })).toEqual([': a condition with "fact" needs one of "equals", "in" or "contains"']);
    expect(problems({ and: [{ fact: 'tool.name', equals: 'a' }, { equals: 1 }] })).toEqual(['/and/1: "equals" needs a "fact" beside it']);
    expect(problems({ and: [], or: [] })).toEqual([': a condition takes one of "and", "or", not several; nest them']);
    expect(problems({ fact: 'tool._meta["x"', equals: 1 })).toEqual(['/fact: expected "]" after a quoted key at character 15 of "tool._meta[\\"x\\""']);
    expect(problems({ fact: 'tool._meta[x', equals: 1 })).toEqual(['/fact: an unclosed "[" at character 11 of "tool._meta[x"']);
    // An empty "in" can never hold, and "not" of it always does.
    expect(problems({ not: { fact: 'claims.destinations', in: [] } })).toEqual(['/not/in: "in" is an empty list, so the condition can never hold (and "not" of it always does); list at least one value']);
  });

  it('suggests ["…"] for a key that is not a plain name, written with dots', () => {
    expect(problems({ fact: 'tool._meta.mcp.dev/effect', equals: 'delete' })).toEqual([
      '/fact: an unexpected "/" at character 19 of "tool._meta.mcp.dev/effect"; did you mean tool._meta["mcp.dev/effect"]? (a key that is not a plain name goes in ["…"])',
    ]);
    expect(problems({ fact: 'tool._meta.io.modelcontextprotocol/action-metadata.outcome', equals: 'benign' })[0]).toContain(
      'did you mean tool._meta["io.modelcontextprotocol/action-metadata"].outcome?',
    );
    expect(problems({ fact: 'tool.annotations.my key', equals: 1 })[0]).toContain('did you mean tool.annotations["my key"]?');
    // No repair parses: no suggestion.
    expect(problems({ fact: 'tool.a."b"', equals: 1 })).toEqual(['/fact: an unexpected "\\"" at character 8 of "tool.a.\\"b\\""']);
  });

  it('parses each kind of fact', () => {
    expect(parseFact('request.annotations.openWorldHint').kind).toBe('runtime');
    expect(parseFact('response.annotations.maliciousActivityHint').kind).toBe('response');
    expect(parseFact('response.content').kind).toBe('runtime');
    expect(parseFact('claims.outcomes').kind).toBe('claims');
  });
});

describe('a policy is its own rule in every output', () => {
  const config = {
    policies: [
      { name: 'confirm-irreversible-actions', effect: 'escalate', description: 'Irreversible actions need a confirmation step.', conditions: { fact: 'tool.annotations.inputMetadata.outcomes', equals: 'irreversible' } },
    ],
    overrides: [{ tools: ['legacy_*'], rules: { 'policy/confirm-irreversible-actions': 'off' } }],
  };
  const tools = [
    tool('drop_table', { readOnlyHint: false, destructiveHint: true, openWorldHint: false, inputMetadata: { destination: 'internal', sensitivity: 'none', outcomes: 'irreversible' } }),
    tool('legacy_purge', { readOnlyHint: false, destructiveHint: true, openWorldHint: false, inputMetadata: { destination: 'internal', sensitivity: 'none', outcomes: 'irreversible' } }),
  ];

  it('text, json and sarif carry policy/<name>; sarif describes it with its helpUri; overrides apply', async () => {
    const dir = tempDir({ 'mcp-annotate.config.json': json(config), 'dump.json': json({ serverInfo: { name: 'db' }, tools }) });
    const r = await runCli(['lint', 'dump.json', '-f', 'sarif', '-o', 'out.sarif', '-f', 'json', '-o', 'out.json', '-f', 'text'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/warning +policy "confirm-irreversible-actions" escalates this tool.*policy\/confirm-irreversible-actions/);
    const report = JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'));
    const mine = report.findings.filter((f: { ruleId: string }) => f.ruleId === 'policy/confirm-irreversible-actions');
    expect(mine.map((f: { tool: string }) => f.tool)).toEqual(['drop_table']);
    const sarif = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8'));
    const rules = sarif.runs[0].tool.driver.rules;
    const idx = rules.findIndex((x: { id: string }) => x.id === 'policy/confirm-irreversible-actions');
    expect(idx).toBeGreaterThanOrEqual(0);
    expect(rules[idx]).toMatchObject({
      shortDescription: { text: 'Irreversible actions need a confirmation step.' },
      defaultConfiguration: { level: 'warning' },
      helpUri: expect.stringMatching(/#policies$/),
      properties: { tags: expect.arrayContaining(['policy', 'escalate']) },
    });
    const results = sarif.runs[0].results.filter((x: { ruleId: string }) => x.ruleId === 'policy/confirm-irreversible-actions');
    expect(results).toHaveLength(1);
    expect(results[0].ruleIndex).toBe(idx);
    expect(results[0].locations[0].physicalLocation.region.startLine).toBeGreaterThan(1);
  });

  it('a baselined "cannot be decided" note does not cover a tool that became undecided later', async () => {
    const open = { policies: [{ name: 'no-open-world-calls', effect: 'block', conditions: { fact: 'request.annotations.openWorldHint', equals: true } }] };
    const fetcher = (name: string) => tool(name, { readOnlyHint: true, openWorldHint: true });
    const dir = tempDir({ 'mcp-annotate.config.json': json(open), 'dump.json': json({ serverInfo: { name: 'web' }, tools: [fetcher('fetch_page')] }) });
    await runCli(['lint', 'dump.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const entries = JSON.parse(readFileSync(join(dir, 'baseline.json'), 'utf8')).entries;
    expect(entries).toEqual([expect.objectContaining({ rule: 'policy/no-open-world-calls', pointer: '/tools', detail: '["fetch_page"]' })]);
    writeFileSync(join(dir, 'dump.json'), json({ serverInfo: { name: 'web' }, tools: [fetcher('fetch_page'), fetcher('search_web')] }));
    const r = await runCli(['lint', 'dump.json', '--baseline', 'baseline.json', '-f', 'json'], { cwd: dir });
    const found = JSON.parse(r.stdout).findings as { ruleId: string; message: string }[];
    expect(found.map((f) => f.ruleId)).toEqual(['policy/no-open-world-calls']);
    expect(found[0]!.message).toContain('2 tools "fetch_page", "search_web"');
    // The note still occurs (about one more tool): its entry says so, not that it "no longer occurs".
    expect(r.stderr).toContain(
      'stale baseline entry: policy/no-open-world-calls (tool "fetch_page") on server "web" at "/tools" still occurs, but now about 2 tools "fetch_page", "search_web", so it is reported as new; run with --update-baseline to accept it',
    );
    expect(r.stderr).not.toContain('no longer occurs');
    // Fewer undecided tools, or a renamed one (followed as tool entries are: the tool has an entry
    // of its own, here ignored-hint's note on destructiveHint beside readOnlyHint true), are no news.
    const search = (name: string) => tool(name, { readOnlyHint: true, destructiveHint: false, openWorldHint: true, title: 'Search the web' }, { inputSchema: { type: 'object', properties: { q: { type: 'string' } } } });
    writeFileSync(join(dir, 'dump.json'), json({ serverInfo: { name: 'web' }, tools: [fetcher('fetch_page'), search('search_web')] }));
    await runCli(['lint', 'dump.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    for (const tools of [[fetcher('fetch_page')], [fetcher('fetch_page'), search('web_search')]]) {
      writeFileSync(join(dir, 'dump.json'), json({ serverInfo: { name: 'web' }, tools }));
      const again = await runCli(['lint', 'dump.json', '--baseline', 'baseline.json', '-f', 'json', '--fail-on', 'note'], { cwd: dir });
      expect([again.code, JSON.parse(again.stdout).findings], JSON.stringify(tools.map((t) => t.name))).toEqual([0, []]);
    }
  });

  it('the "cannot be decided" note names the tools the policy is on for, when only a tool-scoped override turns it on', async () => {
    const policy = { name: 'bo', effect: 'block', conditions: { and: [{ fact: 'request.annotations.openWorldHint', equals: true }, { fact: 'claims.destinations', equals: 'public' }] } };
    const sender = (name: string) => tool(name, { readOnlyHint: false, inputMetadata: { destination: 'public' } });
    const dump = json({ serverInfo: { name: 'acme' }, tools: [sender('send_email'), sender('send_sms'), sender('post_note')] });
    const notes = async (config: unknown) => {
      const dir = tempDir({ 'c.json': json({ policies: [policy], ...(config as object) }), 'one.json': dump });
      const r = await runCli(['lint', '-c', 'c.json', '-f', 'json', 'one.json'], { cwd: dir });
      expect(r.stderr).toBe('');
      return (JSON.parse(r.stdout).findings as { ruleId: string; severity: string; tool?: string; message: string }[])
        .filter((f) => f.ruleId === 'policy/bo')
        .map((f) => `${f.severity} ${f.tool ?? '-'} ${/declarations of (.*?): /.exec(f.message)?.[1]}`);
    };
    expect(await notes({})).toEqual(['note - 3 tools "send_email", "send_sms", "post_note"']);
    // Off globally, on for send_*: the note, naming those tools only.
    expect(await notes({ rules: { 'policy/bo': 'off' }, overrides: [{ tools: ['send_*'], rules: { 'policy/bo': 'warning' } }] })).toEqual(['note - 2 tools "send_email", "send_sms"']);
    // Off for the server, on again for one tool.
    expect(await notes({ overrides: [{ servers: ['acme'], rules: { 'policy/bo': 'off' } }, { tools: ['post_*'], rules: { 'policy/bo': 'error' } }] })).toEqual(['note - tool "post_note"']);
    // A tool-scoped off still leaves tools out; off for every tool, no note.
    expect(await notes({ overrides: [{ tools: ['send_*'], rules: { 'policy/bo': 'off' } }] })).toEqual(['note - tool "post_note"']);
    expect(await notes({ overrides: [{ tools: ['*'], rules: { 'policy/bo': 'off' } }] })).toEqual([]);
    expect(await notes({ rules: { 'policy/bo': 'off' } })).toEqual([]);
  });

  it('markdown links policy/<name> to the Policies section (built-in rules link to their pages)', async () => {
    const dir = tempDir({ 'mcp-annotate.config.json': json(config), 'dump.json': json({ serverInfo: { name: 'db' }, tools }) });
    const r = await runCli(['lint', 'dump.json', '-f', 'markdown'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('| [policy/confirm-irreversible-actions](https://github.com/mcp-annotate/mcp-annotate#policies) |');
    // The override turns the policy off for legacy_purge: one row.
    expect(r.stdout.match(/\[policy\/confirm-irreversible-actions\]/g)).toHaveLength(1);
  });

  it('`rules` lists it and `explain` shows it', async () => {
    const dir = tempDir({ 'mcp-annotate.config.json': json(config) });
    const list = await runCli(['rules', '-f', 'json'], { cwd: dir });
    expect(list.code).toBe(0);
    const ids = JSON.parse(list.stdout).map((r: { id: string }) => r.id);
    expect(ids[ids.length - 1]).toBe('policy/confirm-irreversible-actions');
    const explain = await runCli(['explain', 'policy/confirm-irreversible-actions'], { cwd: dir });
    expect(explain.code).toBe(0);
    expect(explain.stdout).toContain('Irreversible actions need a confirmation step.');
    expect(explain.stdout).toContain('tool.annotations.inputMetadata.outcomes equals "irreversible"');
    const none = await runCli(['rules', '-f', 'json', '--no-config'], { cwd: dir });
    expect(JSON.parse(none.stdout).some((r: { id: string }) => r.id.startsWith('policy/'))).toBe(false);
  });

  it("shows the conditions indented, and on one line when they nest deep (the page stays linear in the config's size)", () => {
    const compiled = (p: Policy) => {
      const errors: ConditionError[] = [];
      const c = compilePolicy(p, errors);
      expect(errors).toEqual([]);
      return c!;
    };
    const shallow = policyRule(config.policies[0] as Policy, compiled(config.policies[0] as Policy));
    expect(shallow.why).toContain('{\n  "fact": "tool.annotations.inputMetadata.outcomes",');
    let deep: unknown = { fact: 'tool.name', equals: 'x' };
    for (let i = 0; i < 1000; i++) deep = i % 2 ? { not: deep } : { and: [deep] };
    const policy = { name: 'deep', effect: 'warn', conditions: deep } as Policy;
    const rule = policyRule(policy, compiled(policy));
    expect(rule.why).toContain(JSON.stringify(deep));
    expect(rule.why.length).toBeLessThan(3 * JSON.stringify(deep).length); // indented, it was 5 MB
  });

  it('an empty "in" is a config error with its position, in the schema too (minItems)', async () => {
    const dir = tempDir({
      'c.yaml': 'policies:\n  - name: p\n    effect: warn\n    conditions:\n      not: {fact: claims.destinations, in: []}\n  - name: q\n    effect: warn\n    conditions: {or: [{fact: tool.name, equals: x}, {fact: tool.name, in: []}]}\n',
      'dump.json': json({ tools }),
    });
    const r = await runCli(['lint', '-c', 'c.yaml', 'dump.json'], { cwd: dir });
    expect(r).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'mcp-annotate: c.yaml:5:44: policies[0].conditions.not.in: "in" is an empty list, so the condition can never hold (and "not" of it always does); list at least one value\n' +
        'mcp-annotate: c.yaml:8:75: policies[1].conditions.or[1].in: "in" is an empty list, so the condition can never hold (and "not" of it always does); list at least one value\n',
    });
    const schema = JSON.parse(readFileSync(new URL('../schemas/config.schema.json', import.meta.url), 'utf8'));
    expect(schema.definitions.condition.properties.in.minItems).toBe(1);
  });

  it('a bad policy is a config error with its position', async () => {
    const bad = { policies: [{ name: 'p', effect: 'warn', conditions: { and: [{ fact: 'claims.outcome', equals: 'irreversible' }] } }] };
    const dir = tempDir({ 'mcp-annotate.config.json': json(bad), 'dump.json': json({ tools }) });
    const r = await runCli(['lint', 'dump.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'mcp-annotate: mcp-annotate.config.json:9:21: policies[0].conditions.and[0].fact: "claims.outcome" is not a claim fact; did you mean "claims.outcomes"? (claim facts: readOnly, destructive, idempotent, openWorld, outcomes, destinations, sources, inputSensitivity, outputSensitivity, maliciousActivity, attribution, requiresConfirmation, action, reversibility, riskLevel, blastRadius, sideEffects, approval, minTrustLevel, resultSensitivity, sensitiveOutput, sensitiveFields, secretReference, untrusted)\n',
    );
  });
});

describe('the README', () => {
  it('the SEP policies print on the bundled example what the Policies section shows', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Policies'), readme.indexOf('## Baseline'));
    const config = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const shown = /call-time enforcement[\s\S]*?```\n([\s\S]*?)```/.exec(section)![1]!.trimEnd().split('\n');
    const dir = tempDir({ 'mcp-annotate.config.yaml': config, 'example-server.json': readFileSync(new URL('../fixtures/example-server.json', import.meta.url), 'utf8') });
    const r = await runCli(['lint', 'example-server.json'], { cwd: dir });
    expect(r.stderr).toBe('');
    for (const line of shown) expect(r.stdout.split('\n')).toContain(line);
    expect(r.stdout).not.toContain('policy/escalate-malicious');
  });
});
