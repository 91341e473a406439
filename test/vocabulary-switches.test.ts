/**
 * Vocabularies turned on and off, spec versions, message wording and positions, through the
 * real CLI (probe AB): a disabled vocabulary neither explains nor is checked, booleans in
 * quotes on a proposal's hint are that proposal's, signals of a disabled vocabulary are named
 * as such, unknown protocol versions are said, and a lone CR is a line break.
 */
import { describe, expect, it } from 'vitest';
import { json, runCliInProcess as runCli, tempDir, tool } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess
import { serverCommand } from './live/helpers.js';

interface Found {
  ruleId: string;
  severity: string;
  tool?: string;
  pointer: string;
  message: string;
  suggestion?: string;
  line?: number;
  column?: number;
}

/** Lints one document with the given flags and returns its findings and stderr. */
async function run(doc: unknown, args: string[] = [], text?: string): Promise<{ found: Found[]; stderr: string }> {
  const dir = tempDir({ 'd.json': text ?? json(doc) });
  const r = await runCli(['lint', 'd.json', '-f', 'json', '--fail-on', 'none', '--no-config', ...args], { cwd: dir });
  expect(r.code).toBe(0);
  return { found: JSON.parse(r.stdout).findings as Found[], stderr: r.stderr };
}

async function findings(doc: unknown, args: string[] = []): Promise<Found[]> {
  const { found, stderr } = await run(doc, args);
  expect(stderr).toBe('');
  return found;
}

const of = (found: Found[], ruleId: string) => found.filter((f) => f.ruleId === ruleId);

describe('a SEP-1913 first-draft sensitiveHint level, with and without sep-1913', () => {
  const doc = {
    tools: [
      tool('get_key', { readOnlyHint: true, openWorldHint: false, sensitiveHint: 'high' }),
      tool('get_key2', { readOnlyHint: true, openWorldHint: false, sensitiveHint: 'true' }),
    ],
  };

  for (const args of [['--vocab', 'webmcp-sensitive'], ['--disable-vocab', 'sep-1913']]) {
    it(`${args.join(' ')}: WebMCP checks the level (a boolean is expected), and no draft exemption applies`, async () => {
      const found = await findings(doc, args);
      const level = found.filter((f) => f.tool === 'get_key');
      expect(level.map((f) => [f.ruleId, f.severity, f.pointer])).toEqual([['schema-valid', 'error', '/tools/0/annotations/sensitiveHint']]);
      expect(level[0]!.message).toContain('must be a boolean');
      expect(level[0]!.suggestion).toContain('early SEP-1913 draft');
      expect(of(found, 'draft-field')).toEqual([]);
    });
  }

  it('with both on: draft-field alone on a tool that speaks no WebMCP elsewhere', async () => {
    const found = (await findings(doc)).filter((f) => f.tool === 'get_key');
    expect(found.map((f) => f.ruleId)).toEqual(['draft-field']);
  });

  it('with both on, a tool whose output schema speaks WebMCP: draft-field and WebMCP\'s schema error', async () => {
    const speaking = {
      tools: [
        tool('get_key', { readOnlyHint: true, openWorldHint: false, sensitiveHint: 'high' }, { outputSchema: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } } }),
      ],
    };
    const found = await findings(speaking);
    expect(found.map((f) => [f.ruleId, f.pointer]).sort()).toEqual([
      ['draft-field', '/tools/0/annotations/sensitiveHint'],
      ['schema-valid', '/tools/0/annotations/sensitiveHint'],
    ]);
    expect(of(found, 'schema-valid')[0]!.suggestion).toContain('draft-field says what replaced it');
  });
});

describe("a boolean in quotes on a proposal's boolean key is that proposal's value written wrong", () => {
  it('sensitiveHint "true" and maliciousActivityHint "False": schema errors saying to drop the quotes, no collision', async () => {
    const found = await findings({
      tools: [
        tool('get_key', { readOnlyHint: true, openWorldHint: false, sensitiveHint: 'true' }),
        tool('scan_url', { readOnlyHint: true, openWorldHint: false, maliciousActivityHint: 'False' }),
      ],
    });
    expect(of(found, 'vocabulary-key-collision')).toEqual([]);
    expect(found.map((f) => [f.ruleId, f.severity, f.pointer])).toEqual([
      ['schema-valid', 'error', '/tools/0/annotations/sensitiveHint'],
      ['schema-valid', 'error', '/tools/1/annotations/maliciousActivityHint'],
    ]);
    expect(found[0]!.suggestion).toContain('write true, a JSON boolean without quotes');
    expect(found[1]!.suggestion).toContain('write false, a JSON boolean without quotes');
  });

  it("a string that is no boolean is still the server's own (a collision)", async () => {
    const found = await findings({ tools: [tool('get_key', { readOnlyHint: true, openWorldHint: false, sensitiveHint: 'secret' })] });
    expect(found.map((f) => f.ruleId)).toEqual(['vocabulary-key-collision']);
  });
});

describe('unknown-annotation-key does not check a disabled vocabulary', () => {
  const doc = {
    tools: [
      tool('delete_user', { readOnlyHint: false, destructiveHint: true, openWorldHint: false }, { _meta: { 'mcp.dev/requireConfirmation': true } }),
      tool('publish', { readOnlyHint: false, destructiveHint: false, openWorldHint: false, riskLevl: 'high' }, { _meta: { 'io.modelcontextprotocol/action-metadata': { requiresreview: true } } }),
    ],
  };

  it('with every vocabulary on, each near miss is reported', async () => {
    const found = of(await findings(doc), 'unknown-annotation-key');
    expect(found.map((f) => f.pointer)).toEqual(['/tools/0/_meta/mcp.dev~1requireConfirmation', '/tools/1/annotations/riskLevl', '/tools/1/_meta/io.modelcontextprotocol~1action-metadata/requiresreview']);
  });

  for (const args of [['--vocab', 'core'], ['--disable-vocab', 'meta-hints,action-metadata,risk-metadata']]) {
    it(`${args.join(' ')}: no near miss of the disabled vocabularies' keys`, async () => {
      expect(of(await findings(doc, args), 'unknown-annotation-key')).toEqual([]);
    });
  }

  it('only the disabled one goes quiet', async () => {
    const found = of(await findings(doc, ['--disable-vocab', 'meta-hints']), 'unknown-annotation-key');
    expect(found.map((f) => f.pointer)).toEqual(['/tools/1/annotations/riskLevl', '/tools/1/_meta/io.modelcontextprotocol~1action-metadata/requiresreview']);
  });
});

describe('a confirmation signal of a disabled vocabulary is named, not silently ignored', () => {
  const wipe = tool(
    'wipe',
    { readOnlyHint: false, destructiveHint: true, openWorldHint: false, riskLevel: 'high', inputMetadata: { destination: 'internal', sensitivity: 'none', outcomes: 'irreversible' } },
    { _meta: { 'mcp.dev/requiresConfirmation': true } },
  );

  it('with every vocabulary on, the tool asks: no finding', async () => {
    expect(of(await findings({ tools: [wipe] }), 'irreversible-needs-confirmation')).toEqual([]);
  });

  it('irreversible-needs-confirmation, meta-hints off: the finding stays, and says the signal exists and why it was not counted', async () => {
    const [f, ...more] = of(await findings({ tools: [wipe] }, ['--disable-vocab', 'meta-hints']), 'irreversible-needs-confirmation');
    expect(more).toEqual([]);
    expect(f!.message).not.toContain('no annotation asks for confirmation');
    expect(f!.message).toContain('no annotation of a vocabulary this run checks asks for confirmation');
    expect(f!.message).toContain('_meta["mcp.dev/requiresConfirmation"] is true (/tools/0/_meta/mcp.dev~1requiresConfirmation) asks for it but was not counted, as the meta-hints vocabulary is off in this run');
    expect(f!.suggestion).toContain('if the clients you lint for implement the meta-hints vocabulary, lint with it on');
  });

  it('with two vocabularies off, the suggestion says to lint with them on', async () => {
    const both = tool('wipe', wipe.annotations as Record<string, unknown>, {
      _meta: { 'mcp.dev/requiresConfirmation': true, 'io.modelcontextprotocol/action-metadata': { requiresReview: true } },
    });
    const [f] = of(await findings({ tools: [both] }, ['--disable-vocab', 'meta-hints,action-metadata']), 'irreversible-needs-confirmation');
    expect(f!.suggestion).toContain('if the clients you lint for implement the action-metadata and meta-hints vocabularies, lint with them on');
    expect(f!.suggestion).not.toContain('lint with it on');
    const dir = tempDir({
      'd.json': json({ tools: [both] }),
      'mcp-annotate.config.json': json({
        vocabularies: { 'meta-hints': false, 'action-metadata': false },
        policies: [{ name: 'confirm-irreversible', effect: 'escalate', conditions: { fact: 'claims.outcomes', equals: 'irreversible' } }],
      }),
    });
    const r = await runCli(['lint', 'd.json', '-f', 'json', '--fail-on', 'none'], { cwd: dir });
    const [p] = (JSON.parse(r.stdout).findings as Found[]).filter((x) => x.ruleId === 'policy/confirm-irreversible');
    expect(p!.suggestion).toContain('implement the action-metadata and meta-hints vocabularies, lint with them on');
  });

  it('an escalate policy, meta-hints off: "no confirmation signal in the vocabularies this run checks", naming the signal', async () => {
    const dir = tempDir({
      'd.json': json({ tools: [wipe] }),
      'mcp-annotate.config.json': json({
        vocabularies: { 'meta-hints': false },
        policies: [{ name: 'confirm-irreversible', effect: 'escalate', conditions: { fact: 'claims.outcomes', equals: 'irreversible' } }],
      }),
    });
    const r = await runCli(['lint', 'd.json', '-f', 'json', '--fail-on', 'none'], { cwd: dir });
    expect(r.stderr).toBe('');
    const [f, ...more] = (JSON.parse(r.stdout).findings as Found[]).filter((x) => x.ruleId === 'policy/confirm-irreversible');
    expect(more).toEqual([]);
    expect(f!.message).toContain('carries no confirmation signal in the vocabularies this run checks');
    expect(f!.message).toContain('asks for it but was not counted, as the meta-hints vocabulary is off in this run');
  });

  it('sensitive-to-public and toxic-flow, action-metadata off: requiresReview is named', async () => {
    const review = { 'io.modelcontextprotocol/action-metadata': { requiresReview: true } };
    const doc = {
      tools: [
        tool('list_inbox', { readOnlyHint: true, returnMetadata: { source: 'untrustedPublic', sensitivity: ['pii', 'user'] } }),
        tool('send_email', { readOnlyHint: false, destructiveHint: false, inputMetadata: { destination: 'public', sensitivity: 'pii', outcomes: 'consequential' } }, { _meta: review }),
      ],
    };
    expect((await findings(doc)).filter((f) => f.ruleId === 'sensitive-to-public' || f.ruleId === 'toxic-flow')).toEqual([]);
    const found = await findings(doc, ['--disable-vocab', 'action-metadata']);
    for (const id of ['sensitive-to-public', 'toxic-flow']) {
      const [f] = of(found, id);
      expect(f?.message).toContain('nothing in a vocabulary this run checks asks for confirmation');
      expect(f?.message).toContain('requiresReview is true (/tools/1/_meta/io.modelcontextprotocol~1action-metadata/requiresReview) asks for it but was not counted, as the action-metadata vocabulary is off in this run');
    }
  });
});

describe('draft-field calls only capitalised values SEP-2061\'s spelling', () => {
  it('"Public", "PII" and "Regulated" are SEP-2061\'s; "pIi", "bEnign" and "REGULATED" are the wrong letter case', async () => {
    const found = of(
      await findings({
        tools: [
          tool('x', {
            readOnlyHint: false,
            destructiveHint: false,
            openWorldHint: false,
            inputMetadata: { destination: 'Public', sensitivity: ['pIi', 'PII', { REGULATED: { scopes: ['GDPR'] } }, { Regulated: { scopes: ['GDPR'] } }], outcomes: 'bEnign' },
          }),
        ],
      }),
      'draft-field',
    );
    const by = (pointer: string) => found.find((f) => f.pointer === pointer)!.message;
    const at = '/tools/0/annotations/inputMetadata';
    expect(by(`${at}/destination`)).toContain('is "Public", SEP-2061\'s spelling');
    expect(by(`${at}/sensitivity/1`)).toContain('is "PII", SEP-2061\'s spelling');
    expect(by(`${at}/sensitivity/3/Regulated`)).toContain("SEP-2061's capitalised spelling");
    expect(by(`${at}/sensitivity/0`)).toBe('annotations.inputMetadata.sensitivity[0] is "pIi", the value "pii" in the wrong letter case; clients compare values exactly');
    expect(by(`${at}/outcomes`)).toBe('annotations.inputMetadata.outcomes is "bEnign", the value "benign" in the wrong letter case; clients compare values exactly');
    expect(by(`${at}/sensitivity/2/REGULATED`)).toBe('annotations.inputMetadata.sensitivity[2].REGULATED is the key "regulated" in the wrong letter case; clients compare keys exactly');
  });
});

describe('a recorded protocol version mcp-annotate does not know is said, once per server', () => {
  const snapshot = (protocolVersion: string, name = 's') => ({
    protocolVersion,
    serverInfo: { name, version: '1' },
    tools: [tool('list_x', { readOnlyHint: true, openWorldHint: false })],
  });
  const specOf = async (doc: unknown, args: string[] = []) => {
    const dir = tempDir({ 'd.json': json(doc) });
    const r = await runCli(['lint', 'd.json', '-f', 'json', '--no-config', ...args], { cwd: dir });
    expect(r.code).toBe(0);
    return { specs: (JSON.parse(r.stdout).servers as { spec: string }[]).map((s) => s.spec), stderr: r.stderr };
  };

  it('only dates are compared: anything else is the latest, with a note', async () => {
    const { specs, stderr } = await specOf(snapshot('garbage'));
    expect(specs).toEqual(['2026-07-28']);
    expect(stderr).toBe(
      'mcp-annotate: note: server "s" (d.json) records protocol version "garbage", which is not a date (YYYY-MM-DD) as MCP\'s versions are, so it was linted against spec 2026-07-28, the latest; the tools/list envelope around its tools was not checked (--spec <version> chooses the version and checks the envelope against it)\n',
    );
  });

  it('an unknown date: the newest known version before it (or the oldest), said with the envelope not checked', async () => {
    const later = await specOf(snapshot('2027-01-01'));
    expect(later.specs).toEqual(['2026-07-28']);
    expect(later.stderr).toContain('records protocol version "2027-01-01", newer than every spec version mcp-annotate knows, so it was linted against spec 2026-07-28, the newest before it; the tools/list envelope around its tools was not checked');
    const between = await specOf(snapshot('2025-09-01'));
    expect(between.specs).toEqual(['2025-06-18']);
    expect(between.stderr).toContain('"2025-09-01", not a spec version mcp-annotate knows, so it was linted against spec 2025-06-18, the newest before it');
    const older = await specOf(snapshot('2024-11-05'));
    expect(older.specs).toEqual(['2025-03-26']);
    expect(older.stderr).toContain('"2024-11-05", older than every spec version mcp-annotate knows, so it was linted against spec 2025-03-26, the oldest');
  });

  it('a protocolVersion beside a JSON-RPC response\'s "result" is the recorded one, with its fallbacks and notes', async () => {
    const result = { tools: snapshot('x').tools };
    for (const doc of [{ protocolVersion: '2025-06-18', jsonrpc: '2.0', id: 1, result }, { protocolVersion: '2025-06-18', result }]) {
      expect(await specOf(doc)).toEqual({ specs: ['2025-06-18'], stderr: '' });
    }
    const between = await specOf({ protocolVersion: '2025-09-01', jsonrpc: '2.0', id: 1, result });
    expect(between.specs).toEqual(['2025-06-18']);
    expect(between.stderr).toContain('records protocol version "2025-09-01", not a spec version mcp-annotate knows, so it was linted against spec 2025-06-18, the newest before it');
    const invalid = await specOf({ protocolVersion: null, result });
    expect(invalid.stderr).toContain('records protocol version null, which is not a string');
    // The result's own version, when it records one, is the one.
    expect((await specOf({ protocolVersion: '2025-06-18', jsonrpc: '2.0', id: 1, result: { ...result, protocolVersion: '2025-03-26' } })).specs).toEqual(['2025-03-26']);
  });

  it('once per server of a document; nothing for a known version, none recorded, or --spec', async () => {
    const many = await specOf({ servers: [snapshot('v2', 'a'), snapshot('2025-06-18', 'b'), snapshot('v3', 'c')] });
    expect(many.stderr.trimEnd().split('\n').map((l) => l.slice(0, 'mcp-annotate: note: server "a"'.length))).toEqual(['mcp-annotate: note: server "a"', 'mcp-annotate: note: server "c"']);
    expect((await specOf(snapshot('2025-06-18'))).stderr).toBe('');
    expect((await specOf({ tools: snapshot('x').tools })).stderr).toBe('');
    const chosen = await specOf(snapshot('garbage'), ['--spec', '2025-06-18']);
    expect(chosen).toEqual({ specs: ['2025-06-18'], stderr: '' });
  });
});

describe('positions in a file with CR-only line ends', () => {
  it('count a lone CR as a line break, in JSON and SARIF reports alike', async () => {
    const doc = { tools: [tool('list_files', { readOnlyHint: true, openWorldHint: false }), tool('delete_file', { readOnlyHint: true, openWorldHint: false, destructiveHint: true })] };
    const lf = json(doc);
    const cr = lf.replace(/\n/g, '\r');
    const regions = async (text: string) => (await run(undefined, [], text)).found.map((f) => [f.ruleId, f.line, f.column]);
    const expected = await regions(lf);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.every(([, line]) => (line as number) > 1)).toBe(true);
    expect(await regions(cr)).toEqual(expected);
    expect(await regions(lf.replace(/\n/g, '\r\n'))).toEqual(expected);
    const dir = tempDir({ 'd.json': cr });
    const sarif = await runCli(['lint', 'd.json', '-f', 'sarif', '--fail-on', 'none', '--no-config'], { cwd: dir });
    const lines = JSON.parse(sarif.stdout).runs[0].results.map((r: { locations: { physicalLocation?: { region?: { startLine: number } } }[] }) => r.locations[0]?.physicalLocation?.region?.startLine);
    expect(lines).toEqual(expected.map(([, line]) => line));
  });
});

describe('input-schema-valid says what each spec version says of dialects and outputSchema', () => {
  const doc = {
    tools: [
      tool('stats', { readOnlyHint: true, openWorldHint: false }, { inputSchema: { type: 'object', properties: { b: { type: 'strin' } } }, outputSchema: { type: 'object', properties: { n: { type: 'numbr' } } } }),
    ],
  };

  it('2025-11-25 and later: "MCP\'s default dialect"; both schemas are checked', async () => {
    const found = of(await findings(doc, ['--spec', '2025-11-25']), 'input-schema-valid');
    expect(found.map((f) => f.pointer)).toEqual(['/tools/0/inputSchema/properties/b/type', '/tools/0/outputSchema/properties/n/type']);
    for (const f of found) expect(f.message).toMatch(/\(JSON Schema 2020-12, MCP's default dialect\)$/);
  });

  it('2025-06-18 named no default: the message says 2020-12 is assumed, not MCP\'s default', async () => {
    const found = of(await findings(doc, ['--spec', '2025-06-18']), 'input-schema-valid');
    expect(found.map((f) => f.pointer)).toEqual(['/tools/0/inputSchema/properties/b/type', '/tools/0/outputSchema/properties/n/type']);
    for (const f of found) {
      expect(f.message).not.toContain("MCP's default");
      expect(f.message).toMatch(/\(JSON Schema 2020-12, which mcp-annotate assumes without "\$schema": spec 2025-06-18 names no default dialect\)$/);
    }
  });

  it('2025-03-26 has no outputSchema: not checked, one informational note says so (it never fails a run)', async () => {
    const found = of(await findings(doc, ['--spec', '2025-03-26']), 'input-schema-valid');
    expect(found.map((f) => [f.pointer, f.severity])).toEqual([
      ['/tools/0/inputSchema/properties/b/type', 'error'],
      ['/tools/0/outputSchema', 'note'],
    ]);
    expect(found[0]!.message).toContain('spec 2025-03-26 names no default dialect');
    expect(found[1]!.message).toBe('outputSchema is no field of a Tool in spec 2025-03-26 (spec 2025-06-18 added it): clients of that version ignore it, so it was not checked');
    const dir = tempDir({ 'd.json': json({ tools: [tool('stats', { readOnlyHint: true, openWorldHint: false }, { outputSchema: { type: 'object', properties: [] } })] }) });
    const r = await runCli(['lint', 'd.json', '--spec', '2025-03-26', '--fail-on', 'note', '--no-config'], { cwd: dir });
    expect(r.code).toBe(0);
  });
});

describe('a live run and a server that speaks only MCP 2026-07-28', () => {
  const onlyThese = 'a live run can negotiate only those (it asks for 2025-11-25); to lint this server\'s tools, save its tools/list result as a file (with "protocolVersion" beside "tools") and lint that';

  it('an answer of 2026-07-28 to initialize: the SDK\'s versions are named, and what to do instead', async () => {
    const server = serverCommand('v2026.mjs', 'answers');
    for (const command of ['lint', 'dump']) {
      const r = await runCli([command, '--stdio', server]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `${server}: the server answered initialize with protocol version "2026-07-28", which the MCP SDK does not speak (it speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07), so it would not continue: ${onlyThese}`,
      );
    }
  });

  it("2026-07-28's UnsupportedProtocolVersionError (-32022): the versions the server supports are named", async () => {
    const server = serverCommand('v2026.mjs', 'refuses');
    const r = await runCli(['lint', '--stdio', server]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd()).toBe(
      `${server}: the server answered initialize with error -32022 (unsupported protocol version): it supports "2026-07-28", and the MCP SDK speaks 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07: ${onlyThese}`,
    );
  });

  it('its tools/list result, saved with "protocolVersion", lints as 2026-07-28, envelope and all', async () => {
    const result = { resultType: 'complete', cacheScope: 'public', ttlMs: 0, tools: [tool('list_x', { readOnlyHint: true, openWorldHint: false })] };
    const ok = await specOfFile({ protocolVersion: '2026-07-28', ...result });
    expect(ok).toEqual({ spec: '2026-07-28', findings: [] });
    const { ttlMs: _ttl, ...withoutTtl } = result;
    const bad = await specOfFile({ protocolVersion: '2026-07-28', ...withoutTtl });
    expect(bad.findings.map((f) => [f.ruleId, f.pointer])).toEqual([['schema-valid', '']]);
    expect(bad.findings[0]!.message).toContain('ttlMs');
  });

  async function specOfFile(doc: unknown): Promise<{ spec: string; findings: Found[] }> {
    const dir = tempDir({ 'tools.json': json(doc) });
    const r = await runCli(['lint', 'tools.json', '-f', 'json', '--fail-on', 'none', '--no-config'], { cwd: dir });
    expect(r.stderr).toBe('');
    const report = JSON.parse(r.stdout);
    return { spec: report.servers[0].spec, findings: report.findings };
  }
});
