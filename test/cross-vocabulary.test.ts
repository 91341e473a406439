/**
 * Across vocabularies, through the real CLI: the rule that defers to another only does so
 * while that rule runs; case variants of SEP-1913 and action-metadata values are read; the
 * _meta hints proposal's own keys never hold the server's own data; policies that can never
 * match are configuration errors.
 */
import { describe, expect, it } from 'vitest';
import { json, runCliInProcess as runCli, tempDir, tool } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess

interface Found {
  ruleId: string;
  severity: string;
  tool?: string;
  pointer: string;
  message: string;
  suggestion?: string;
  related?: { pointer: string; message: string }[];
}

/** Lints one document (with an optional mcp-annotate.config.json) and returns its findings. */
async function findings(doc: unknown, config?: unknown): Promise<Found[]> {
  const files: Record<string, string> = { 'd.json': json(doc) };
  if (config !== undefined) files['mcp-annotate.config.json'] = json(config);
  const dir = tempDir(files);
  const r = await runCli(['lint', 'd.json', '-f', 'json', '--fail-on', 'none', ...(config === undefined ? ['--no-config'] : [])], { cwd: dir });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout).findings as Found[];
}

const ids = (found: Found[]) => found.map((f) => f.ruleId);

describe('irreversible-needs-confirmation defers to approval-for-high-risk only while that rule runs', () => {
  const wire = tool('wire_transfer', {
    readOnlyHint: false,
    destructiveHint: false,
    openWorldHint: true,
    riskLevel: 'high',
    approvalRecommendation: 'none',
    inputMetadata: { destination: 'public', sensitivity: 'financial', outcomes: 'irreversible' },
  });
  const doc = { serverInfo: { name: 'bank' }, tools: [wire] };

  it('by default, one finding: approval-for-high-risk', async () => {
    const found = ids(await findings(doc, {}));
    expect(found).toContain('approval-for-high-risk');
    expect(found).not.toContain('irreversible-needs-confirmation');
  });

  it('with approval-for-high-risk off, irreversible-needs-confirmation reports the tool', async () => {
    const found = await findings(doc, { rules: { 'approval-for-high-risk': 'off' } });
    expect(ids(found)).not.toContain('approval-for-high-risk');
    const f = found.find((x) => x.ruleId === 'irreversible-needs-confirmation');
    expect(f?.pointer).toBe('/tools/0/annotations/inputMetadata/outcomes');
  });

  it('with approval-for-high-risk off for the tool by an override, likewise; another tool keeps the deferral', async () => {
    const other = { ...wire, name: 'wire_other' };
    const found = await findings(
      { serverInfo: { name: 'bank' }, tools: [wire, other] },
      { overrides: [{ tools: ['wire_transfer'], rules: { 'approval-for-high-risk': 'off' } }] },
    );
    expect(found.filter((f) => f.ruleId === 'irreversible-needs-confirmation').map((f) => f.tool)).toEqual(['wire_transfer']);
    expect(found.filter((f) => f.ruleId === 'approval-for-high-risk').map((f) => f.tool)).toEqual(['wire_other']);
  });
});

describe('a known SEP-1913 value in another letter case is read, so contradictions are still reported', () => {
  const doc = {
    serverInfo: { name: 'draft' },
    tools: [
      tool('get_report', { readOnlyHint: true, openWorldHint: false, inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'Irreversible' } }),
      tool(
        'post_status',
        { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: 'Public', sensitivity: 'PII', outcomes: 'irreversible' } },
        { _meta: { 'mcp.dev/requiresConfirmation': false } },
      ),
      tool('get_thing', { readOnlyHint: true, openWorldHint: false }, { _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'Irreversible' } } }),
    ],
  };

  it('SEP-1913 (SEP-2061 spellings): draft-field warns, and readonly-vs-outcome and sensitive-to-public still fire', async () => {
    const found = await findings(doc);
    const of = (name: string) => found.filter((f) => f.tool === name).map((f) => f.ruleId);
    expect(of('get_report')).toEqual(expect.arrayContaining(['draft-field', 'readonly-vs-outcome']));
    expect(of('post_status')).toEqual(expect.arrayContaining(['draft-field', 'sensitive-to-public']));
    const s = found.find((f) => f.ruleId === 'sensitive-to-public')!;
    expect(s.message).toContain('annotations.inputMetadata.sensitivity includes "PII"');
  });

  it('action-metadata: readonly-vs-outcome fires, and unknown-classifier notes the spelling and says it is read', async () => {
    const found = (await findings(doc)).filter((f) => f.tool === 'get_thing');
    expect(found.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['readonly-vs-outcome', 'unknown-classifier']));
    const note = found.find((f) => f.ruleId === 'unknown-classifier')!;
    expect(note.severity).toBe('note');
    expect(note.message).toContain('mcp-annotate reads "Irreversible" as the SEP-1913 outcome it names');
    expect(note.suggestion).toBe('write it exactly as SEP-1913 does ("irreversible"): clients that compare values exactly ignore it as written');
  });

  it('a policy on claims.destinations matches a destination written "Public"', async () => {
    const found = await findings(doc, { policies: [{ name: 'no-public', effect: 'block', conditions: { fact: 'claims.destinations', equals: 'public' } }] });
    expect(found.filter((f) => f.ruleId === 'policy/no-public').map((f) => f.tool)).toEqual(['post_status']);
  });

  it('"None" beside "PII" is still sensitivity-conflict\'s', async () => {
    const found = await findings({
      tools: [tool('read_x', { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: ['None', 'PII'] } })],
    });
    expect(found.map((f) => f.ruleId)).toContain('sensitivity-conflict');
  });
});

describe("a wrong value on the _meta hints proposal's own key is the proposal's, not the server's own data", () => {
  const doc = {
    tools: [
      tool('purge_cache', { readOnlyHint: true, openWorldHint: false }, { _meta: { 'mcp.dev/effect': 'destroy' } }),
      tool(
        'send_invoice',
        { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'financial', outcomes: 'irreversible' } },
        { _meta: { 'mcp.dev/requiresConfirmation': 'yes' } },
      ),
      tool('edit_row', { readOnlyHint: false, destructiveHint: false, openWorldHint: false }, { _meta: { 'mcp.dev/effect': 'update' } }),
    ],
  };

  it('no collision: a schema-valid error with a did-you-mean, and "destroy" is read as delete', async () => {
    const found = await findings(doc);
    expect(ids(found)).not.toContain('vocabulary-key-collision');
    const schema = found.filter((f) => f.ruleId === 'schema-valid');
    expect(schema.map((f) => [f.tool, f.severity])).toEqual([
      ['purge_cache', 'error'],
      ['send_invoice', 'error'],
      ['edit_row', 'error'],
    ]);
    expect(schema[0]!.suggestion).toMatch(/^did you mean "delete"\?/);
    expect(schema[1]!.suggestion).toMatch(/^write true, a JSON boolean/);
    expect(schema[2]!.suggestion).toMatch(/^did you mean "write"\?/);
    expect(found.filter((f) => f.ruleId === 'readonly-vs-category').map((f) => f.tool)).toEqual(['purge_cache']);
    // "yes" is not read as a request for confirmation: a client expecting a boolean ignores it.
    expect(found.filter((f) => f.ruleId === 'sensitive-to-public').map((f) => f.tool)).toEqual(['send_invoice']);
  });
});

describe('a policy condition that can never match is a configuration error, with a did-you-mean', () => {
  const lintWith = async (policies: unknown[]) => {
    const dir = tempDir({ 'mcp-annotate.config.json': json({ policies }), 'd.json': json({ tools: [tool('x', { readOnlyHint: true })] }) });
    return runCli(['lint', 'd.json'], { cwd: dir });
  };
  const cases: [string, unknown, string][] = [
    ['an unknown member of SEP-1913 inputMetadata', { fact: 'tool.annotations.inputMetadata.destinations', equals: 'public' }, 'did you mean "tool.annotations.inputMetadata.destination"?'],
    ['a case variant against claims.destinations', { fact: 'claims.destinations', equals: 'Public' }, 'did you mean "public"?'],
    ['a string against a boolean claim', { fact: 'claims.readOnly', equals: 'true' }, 'did you mean true (a boolean, without quotes)?'],
    ['a core hint in the wrong case', { fact: 'tool.annotations.readonlyHint', equals: false }, 'did you mean "tool.annotations.readOnlyHint"?'],
    ['a value outside a closed vocabulary, in a list', { fact: 'claims.riskLevel', in: ['high', 'Critical'] }, 'did you mean "critical"?'],
    ['a near miss of an action-metadata member', { fact: 'tool._meta["io.modelcontextprotocol/action-metadata"].outcomes', equals: 'irreversible' }, 'did you mean "tool._meta[\\"io.modelcontextprotocol/action-metadata\\"].outcome"?'],
    ['a near miss of a trust-annotations member', { fact: 'tool._meta["io.modelcontextprotocol/trust-annotations"].untrustd', equals: true }, 'did you mean "tool._meta[\\"io.modelcontextprotocol/trust-annotations\\"].untrusted"?'],
    ["SEP-2793's category word for an action", { fact: 'claims.action', equals: 'mutate' }, `SEP-2793's category "mutate" is read as the action "write"; did you mean "write"?`],
    ['contains of a string against a boolean claim', { fact: 'claims.readOnly', contains: 'true' }, 'claims.readOnly is true or false, never "true"'],
  ];
  for (const [what, conditions, hint] of cases) {
    it(what, async () => {
      const r = await lintWith([{ name: 'p', effect: 'block', conditions }]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('policies[0].conditions');
      expect(r.stderr).toContain(hint);
    });
  }

  it("a core hint compared with a non-boolean (\"true\", YAML's yes, 1): a config warning at the value, and the policy loads (it matches a tool that declares the hint so)", async () => {
    const dir = tempDir({
      'p.yaml': [
        'policies:',
        '  - {name: ro, effect: warn, conditions: {fact: tool.annotations.readOnlyHint, equals: "true"}}',
        '  - {name: ro3, effect: warn, conditions: {fact: tool.annotations.readOnlyHint, equals: yes}}',
        '  - {name: ow, effect: warn, conditions: {fact: tool.annotations.openWorldHint, equals: 1}}',
        '  - {name: ok, effect: warn, conditions: {fact: tool.annotations.openWorldHint, equals: false}}',
        '  - {name: ds, effect: warn, conditions: {fact: tool.annotations.destructiveHint, in: [true, "false"]}}',
        '  - {name: id, effect: warn, conditions: {not: {fact: tool.annotations.idempotentHint, contains: "no"}}}',
        '',
      ].join('\n'),
      'd.json': json({ tools: [tool('x', { readOnlyHint: true }), tool('y', { readOnlyHint: 'true' as unknown as boolean, openWorldHint: false })] }),
    });
    const r = await runCli(['lint', 'd.json', '-c', 'p.yaml', '-f', 'json'], { cwd: dir });
    // Exit 1 for schema-valid's error on y's "true", not 2: the config loads.
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')).toEqual([
      `mcp-annotate: warning: p.yaml:2:88: policies[0].conditions.equals: tool.annotations.readOnlyHint is a boolean in MCP's schema, so "true" matches only a tool that declares it as a string (which schema-valid reports); did you mean true (a boolean, without quotes)?`,
      `mcp-annotate: warning: p.yaml:3:89: policies[1].conditions.equals: tool.annotations.readOnlyHint is a boolean in MCP's schema, so "yes" matches only a tool that declares it as a string (which schema-valid reports); did you mean true? (YAML reads yes as a string, not a boolean: write true)`,
      `mcp-annotate: warning: p.yaml:4:89: policies[2].conditions.equals: tool.annotations.openWorldHint is a boolean in MCP's schema, so 1 matches only a tool that declares it as a number (which schema-valid reports); did you mean true (a boolean)?`,
      `mcp-annotate: warning: p.yaml:6:94: policies[4].conditions.in[1]: tool.annotations.destructiveHint is a boolean in MCP's schema, so "false" matches only a tool that declares it as a string (which schema-valid reports); did you mean false (a boolean, without quotes)?`,
      `mcp-annotate: warning: p.yaml:7:98: policies[5].conditions.not.contains: tool.annotations.idempotentHint is a boolean in MCP's schema, so "no" matches only a tool that declares it as a string (which schema-valid reports); did you mean false? (YAML reads no as a string, not a boolean: write false)`,
      '',
    ]);
    const fired = (JSON.parse(r.stdout) as { findings: { ruleId: string; tool?: string }[] }).findings.filter((f) => f.ruleId === 'policy/ro').map((f) => f.tool);
    // "true" catches the tool that quotes its hint, and only it.
    expect(fired).toEqual(['y']);
  });

  it("paths into the server's own data, open action-metadata strings and contains are taken as written", async () => {
    const r = await lintWith([
      { name: 'a', effect: 'warn', conditions: { fact: 'tool.annotations.inputMetadata.format', equals: 'csv' } },
      { name: 'b', effect: 'warn', conditions: { fact: 'claims.destinations', equals: 'external' } },
      { name: 'c', effect: 'warn', conditions: { fact: 'tool._meta["com.example/x"].anything', equals: 1 } },
      { name: 'd', effect: 'warn', conditions: { fact: 'tool.description', contains: 'Delete' } },
      { name: 'e', effect: 'warn', conditions: { fact: 'tool.annotations.inputMetadata.Destination', equals: 'Public' } },
      { name: 'f', effect: 'warn', conditions: { fact: 'claims.riskLevel', contains: 'hi' } },
      // Members the extensions do not define, but no near miss of one: they may grow, and the linter accepts them.
      { name: 'g', effect: 'warn', conditions: { fact: 'tool._meta["io.modelcontextprotocol/action-metadata"].justification', equals: 'sends mail' } },
      { name: 'h', effect: 'warn', conditions: { fact: 'tool._meta["io.modelcontextprotocol/action-metadata"].inputMetadata.retention', equals: '30d' } },
      // A core hint against a boolean, and a path below one (no valid hint has members): as written.
      { name: 'i', effect: 'warn', conditions: { fact: 'tool.annotations.readOnlyHint', in: [true, false] } },
      { name: 'j', effect: 'warn', conditions: { fact: 'tool.annotations.destructiveHint', contains: true } },
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('destructive-vs-outcome points at the outcomes when a delete category agrees with the hint', () => {
  it('suggests correcting the outcomes, not setting destructiveHint to false', async () => {
    const found = await findings({
      tools: [
        tool('trash_item', {
          readOnlyHint: false,
          destructiveHint: true,
          openWorldHint: false,
          category: 'delete',
          approvalRecommendation: 'single',
          riskLevel: 'medium',
          inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
        }),
        tool('wipe', { readOnlyHint: false, destructiveHint: true, openWorldHint: false, inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' } }),
      ],
    });
    const [withCategory, without] = found.filter((f) => f.ruleId === 'destructive-vs-outcome');
    expect(withCategory!.suggestion).toBe('add "consequential" (or "irreversible" if it cannot be undone) to the outcomes: annotations.category is "delete" (/tools/0/annotations/category) agrees with destructiveHint that the tool deletes');
    expect(withCategory!.suggestion).not.toContain('set destructiveHint to false');
    expect(without!.suggestion).toContain('set destructiveHint to false');
  });
});

describe("a policy's cannot-be-decided note does not claim the rest of its conditions may hold", () => {
  it('for an or whose static part cannot hold', async () => {
    const found = await findings(
      { tools: [tool('send', { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'benign' } })] },
      {
        policies: [
          {
            name: 'x',
            effect: 'block',
            conditions: { or: [{ fact: 'request.annotations.openWorldHint', equals: true }, { fact: 'claims.destinations', equals: 'system' }] },
          },
        ],
      },
    );
    const note = found.find((f) => f.ruleId === 'policy/x')!;
    expect(note.severity).toBe('note');
    expect(note.message).not.toContain('rest of its conditions');
    expect(note.message).toContain('What its declaration says does not rule it out, so a client enforcing it at call time may block it');
  });
});

describe('sensitive-to-public reads a public destination as toxic-flow reads a sink', () => {
  const send = (extraMeta: Record<string, unknown> = {}, annotations: Record<string, unknown> = {}) =>
    tool(
      'send',
      { readOnlyHint: false, destructiveHint: false, openWorldHint: true, ...annotations },
      { _meta: { 'mcp.dev/effect': 'external', 'io.modelcontextprotocol/action-metadata': { inputMetadata: { sensitivity: 'pii' } }, ...extraMeta } },
    );

  it('mcp.dev/effect "external" with pii inputs and no confirmation is reported at the effect', async () => {
    const found = (await findings({ tools: [send()] })).filter((f) => f.ruleId === 'sensitive-to-public');
    expect(found.map((f) => f.pointer)).toEqual(['/tools/0/_meta/mcp.dev~1effect']);
    expect(found[0]!.message).toContain('_meta["mcp.dev/effect"] is "external"');
    expect(found[0]!.message).toContain('includes "pii"');
  });

  it('not when the tool asks for confirmation, nor when its declared destinations leave public out', async () => {
    const found = await findings({
      tools: [
        send({ 'mcp.dev/requiresConfirmation': true }),
        send({}, { inputMetadata: { destination: 'internal', sensitivity: 'none', outcomes: 'consequential' } }),
      ],
    });
    expect(ids(found)).not.toContain('sensitive-to-public');
  });
});

describe('read-action-conflict: a reading category or effect against another vocabulary, with no core hint to compare', () => {
  const doc = {
    tools: [
      tool('purge_cache', { openWorldHint: false, category: 'read' }, { _meta: { 'mcp.dev/effect': 'delete' } }),
      tool('lookup_order', { inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'irreversible' } }, { _meta: { 'mcp.dev/effect': 'read' } }),
      tool('get_invoice', { category: 'read' }, { _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'irreversible' } } }),
    ],
  };

  it('one error per contradicting field, naming both fields', async () => {
    const found = (await findings(doc)).filter((f) => f.ruleId === 'read-action-conflict');
    expect(found.map((f) => [f.tool, f.severity, f.pointer])).toEqual([
      ['purge_cache', 'error', '/tools/0/_meta/mcp.dev~1effect'],
      ['lookup_order', 'error', '/tools/1/annotations/inputMetadata/outcomes'],
      ['get_invoice', 'error', '/tools/2/_meta/io.modelcontextprotocol~1action-metadata/outcome'],
    ]);
    expect(found[0]!.message).toContain('annotations.category is "read" (/tools/0/annotations/category) but _meta["mcp.dev/effect"] is "delete"');
    expect(found[1]!.message).toContain('_meta["mcp.dev/effect"] is "read" (/tools/1/_meta/mcp.dev~1effect) but annotations.inputMetadata.outcomes includes "irreversible"');
    expect(found[2]!.related?.map((r) => r.pointer)).toEqual(['/tools/2/annotations/category']);
  });

  const stated = {
    tools: [
      tool('purge_cache', { readOnlyHint: true, category: 'read' }, { _meta: { 'mcp.dev/effect': 'delete' } }),
      tool('wipe_cache', { readOnlyHint: false, destructiveHint: true, category: 'read' }, { _meta: { 'mcp.dev/effect': 'delete' } }),
    ],
  };

  it('with a core hint stated, the rule that compares it reports the field and lists the other side as related', async () => {
    const found = await findings(stated);
    expect(ids(found)).not.toContain('read-action-conflict');
    const ro = found.find((f) => f.ruleId === 'readonly-vs-category')!;
    expect(ro.pointer).toBe('/tools/0/_meta/mcp.dev~1effect');
    expect(ro.related?.map((r) => r.pointer)).toContain('/tools/0/annotations/category');
    const d = found.find((f) => f.ruleId === 'destructive-vs-category')!;
    expect(d.pointer).toBe('/tools/1/annotations/category');
    expect(d.related?.map((r) => r.pointer)).toContain('/tools/1/_meta/mcp.dev~1effect');
  });

  it('only while that rule runs: with it off, read-action-conflict reports the pair', async () => {
    const found = await findings(stated, { rules: { 'readonly-vs-category': 'off', 'destructive-vs-category': 'off' } });
    expect(found.filter((f) => f.ruleId === 'read-action-conflict').map((f) => [f.tool, f.pointer])).toEqual([
      ['purge_cache', '/tools/0/_meta/mcp.dev~1effect'],
      ['wipe_cache', '/tools/1/_meta/mcp.dev~1effect'],
    ]);
  });
});
