/**
 * What the consistency rules tell the user about a tool, end to end (the CLI's run() on a real
 * file): suggestions that agree with each other and with the spec, and one finding per problem.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { json, runCliInProcess as runCli, tempDir } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess

interface Finding {
  ruleId: string;
  severity: string;
  message: string;
  suggestion?: string;
  pointer: string;
}

async function lint(tools: unknown[]): Promise<Finding[]> {
  const dir = tempDir({ 'tools.json': json({ tools }) });
  const r = await runCli(['lint', join(dir, 'tools.json'), '--no-config', '--format', 'json']);
  expect(r.stderr).toBe('');
  return (JSON.parse(r.stdout) as { findings: Finding[] }).findings;
}

const only = (findings: Finding[], ruleId: string) => findings.filter((f) => f.ruleId === ruleId);

describe('implicit-destructive', () => {
  it('does not call an irreversible send destructive (SEP-1913 send_email)', async () => {
    const findings = await lint([
      {
        name: 'send_email',
        inputSchema: { type: 'object' },
        annotations: {
          readOnlyHint: false,
          openWorldHint: true,
          inputMetadata: { destination: 'public', sensitivity: ['pii', 'user'], outcomes: 'irreversible' },
          returnMetadata: { source: 'system', sensitivity: 'none' },
        },
      },
    ]);
    const [f] = only(findings, 'implicit-destructive');
    expect(f).toBeDefined();
    expect(f!.suggestion).not.toMatch(/add "destructiveHint": true/);
    expect(f!.suggestion).toMatch(/^set "destructiveHint" explicitly/);
    expect(f!.suggestion).toContain('annotations.inputMetadata.outcomes includes "irreversible"');
    expect(f!.suggestion).toContain('irreversible alone does not make a tool destructive');
  });

  it('does not call reversibility "none" destructive on its own either', async () => {
    const findings = await lint([
      { name: 'publish_post', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, reversibility: 'none', approvalRecommendation: 'single' } },
    ]);
    const [f] = only(findings, 'implicit-destructive');
    expect(f!.suggestion).toMatch(/^set "destructiveHint" explicitly/);
    expect(f!.suggestion).toContain('annotations.reversibility is "none"');
  });

  it('offers readOnlyHint true first when nothing says what the tool does (a get with no annotations), but not when readOnlyHint is false', async () => {
    const findings = await lint([
      { name: 'hget', description: 'Get the value of a field in a Redis hash.', inputSchema: { type: 'object' } },
      { name: 'hset', description: 'Set a field in a Redis hash.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } },
    ]);
    const [unannotated, writes] = only(findings, 'implicit-destructive');
    expect(unannotated!.suggestion).toBe(
      'add "readOnlyHint": true if the tool only reads (destructiveHint is then moot); otherwise add "destructiveHint": false if it only adds (creates, appends) and never deletes or overwrites, or "destructiveHint": true if it may',
    );
    expect(writes!.suggestion).toBe('add "destructiveHint": false if the tool only adds (creates, appends) and never deletes or overwrites, or "destructiveHint": true if it may');
  });

  it('still suggests destructiveHint true for a delete, even when it is irreversible too', async () => {
    const findings = await lint([
      { name: 'purge_user', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, category: 'destroy', reversibility: 'none' } },
    ]);
    const [f] = only(findings, 'implicit-destructive');
    expect(f!.suggestion).toBe('add "destructiveHint": true to say so explicitly (annotations.category is "destroy" (/tools/0/annotations/category) agrees)');
  });

  it('quotes every signal that together says the tool only reads (SEP-1913 read_drafts)', async () => {
    const findings = await lint([
      {
        name: 'read_drafts',
        description: "Read the user's email drafts.",
        inputSchema: { type: 'object', additionalProperties: false },
        annotations: {
          inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
          returnMetadata: { source: 'user', sensitivity: 'pii' },
        },
      },
    ]);
    const [f] = only(findings, 'implicit-destructive');
    expect(f!.suggestion).toBe(
      'add "readOnlyHint": true, which makes destructiveHint moot: annotations.inputMetadata.outcomes is "benign" (/tools/0/annotations/inputMetadata/outcomes) and annotations.inputMetadata.destination is "ephemeral" (/tools/0/annotations/inputMetadata/destination) together say the tool only reads',
    );
  });
});

describe('sensitivity-conflict', () => {
  it('does not call "user" sensitive when it reports "none" beside it', async () => {
    const findings = await lint([
      {
        name: 'get_note',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: ['user', 'none'] } },
      },
    ]);
    const [f] = only(findings, 'sensitivity-conflict');
    expect(f!.severity).toBe('error');
    expect(f!.message).not.toMatch(/sensitive, "user"/);
    expect(f!.message).toContain(`"user" says it may carry the user's own content: not sensitive data, but a data class all the same`);
    // The other rules agree: "user" is not sensitive.
    expect(only(findings, 'sensitive-output-undeclared')).toEqual([]);
  });

  it('names the sensitive class when the set holds one beside "user"', async () => {
    const findings = await lint([
      {
        name: 'get_contact',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: ['none', 'user', 'pii'] } },
      },
    ]);
    const [f] = only(findings, 'sensitivity-conflict');
    expect(f!.message).toContain('beside "pii" (/tools/0/annotations/returnMetadata/sensitivity/2): "none" says the output is not sensitive, "pii" says it may be');
  });
});

describe('missing-readonly-hint and destructiveHint', () => {
  it('does not report destructiveHint true without readOnlyHint: the default false already says the tool writes', async () => {
    for (const name of ['drop_branch', 'kubectl_delete', 'API-post-search', 'API-query-data-source']) {
      const findings = await lint([{ name, inputSchema: { type: 'object' }, annotations: { destructiveHint: true } }]);
      expect(only(findings, 'missing-readonly-hint'), name).toEqual([]);
    }
  });

  it('leaves a read-named tool marked destructive to name-vs-hints, with readOnlyHint absent as with it false: never a push towards false', async () => {
    const findings = await lint([
      { name: 'search_pages', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } },
      { name: 'search_pages2', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true } },
    ]);
    expect(only(findings, 'missing-readonly-hint')).toEqual([]);
    const names = only(findings, 'name-vs-hints');
    expect(names.map((f) => f.pointer)).toEqual(['/tools/0/annotations/destructiveHint', '/tools/1/annotations/destructiveHint']);
    expect(names[0]!.message).toContain('readOnlyHint is absent (it defaults to false)');
    for (const f of findings) expect(f.suggestion ?? '', f.ruleId).not.toMatch(/"readOnlyHint": false to the annotations|set readOnlyHint to false/);
    for (const f of names) expect(f.suggestion).toMatch(/^if the tool only reads, set readOnlyHint to true/);
  });

  it('leaves destructiveHint true beside a read category to destructive-vs-category, which suggests true', async () => {
    const findings = await lint([
      {
        name: 'get_report',
        inputSchema: { type: 'object' },
        annotations: { destructiveHint: true, openWorldHint: false, category: 'read', approvalRecommendation: 'single' },
      },
    ]);
    expect(only(findings, 'missing-readonly-hint')).toEqual([]);
    expect(only(findings, 'destructive-vs-category')[0]!.suggestion).toContain('set readOnlyHint to true');
  });

  it('does not push a read-named tool towards false for destructiveHint false or a write signal: the author chooses', async () => {
    const findings = await lint([
      { name: 'search_pages', inputSchema: { type: 'object' }, annotations: { destructiveHint: false } },
      { name: 'get_user', inputSchema: { type: 'object' }, annotations: { category: 'mutate' } },
    ]);
    const [a, b] = only(findings, 'missing-readonly-hint');
    expect(a!.suggestion).toBe(
      'add "readOnlyHint": true if the tool only reads, as its name "search_pages" (/tools/0/name) says (destructiveHint is then ignored), or "readOnlyHint": false if it can modify anything (destructiveHint false then says its updates are only additive)',
    );
    expect(b!.suggestion).toMatch(/^add "readOnlyHint": true if the tool only reads, as its name "get_user" \(\/tools\/1\/name\) says, or "readOnlyHint": false if it can modify anything, as annotations.category is "mutate"/);
  });

  it('still suggests readOnlyHint false for destructiveHint false when neither the name nor another vocabulary says read', async () => {
    const findings = await lint([{ name: 'create_branch', inputSchema: { type: 'object' }, annotations: { destructiveHint: false } }]);
    expect(only(findings, 'missing-readonly-hint')[0]!.suggestion).toMatch(/^add "readOnlyHint": false to the annotations: destructiveHint/);
  });

  it('suggests readOnlyHint true for destructiveHint false beside a read category, and lets the author choose when the vocabularies disagree', async () => {
    const findings = await lint([
      { name: 'fetch_report', inputSchema: { type: 'object' }, annotations: { destructiveHint: false, openWorldHint: false, category: 'read' } },
      { name: 'sync_report', inputSchema: { type: 'object' }, annotations: { destructiveHint: false, openWorldHint: false, category: 'read' }, _meta: { 'mcp.dev/effect': 'write' } },
    ]);
    const [a, b] = only(findings, 'missing-readonly-hint');
    expect(a!.suggestion).toBe('add "readOnlyHint": true to the annotations');
    expect(b!.suggestion).toBe(
      'add "readOnlyHint": true if the tool only reads, as annotations.category is "read" (/tools/1/annotations/category) says (then destructiveHint is ignored and can go), or "readOnlyHint": false if it can modify anything (then correct annotations.category)',
    );
  });
});

describe('description-vs-hints and overwriting', () => {
  const description =
    'Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning. Handles text content with proper encoding. Only works within allowed directories.';

  it("reports the filesystem server's write_file with destructiveHint false, as a note (overwriting is not an additive update)", async () => {
    const findings = await lint([
      {
        name: 'write_file',
        description,
        inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' }, overwrite: { type: 'boolean' } } },
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      },
    ]);
    const [d] = only(findings, 'description-vs-hints');
    expect(d).toMatchObject({ severity: 'note', pointer: '/tools/0/description' });
    expect(d!.message).toBe(
      'The description says the tool overwrites existing data: description (/tools/0/description) says "overwrite" at character 33, but annotations.destructiveHint is false (/tools/0/annotations/destructiveHint), which says its updates are only additive (heuristic)',
    );
    expect(d!.suggestion).toBe('if the call can overwrite data, set destructiveHint to true; otherwise reword the description so it does not say the tool overwrites');
    // The parameter named overwrite was already reported, against the same hint.
    expect(only(findings, 'risky-parameters').map((f) => f.pointer)).toEqual(['/tools/0/inputSchema/properties/overwrite']);
  });

  it('is quiet when the description says it does not overwrite, and when destructiveHint is true', async () => {
    const findings = await lint([
      { name: 'create_file', description: 'Creates a new file. Never overwrites an existing file.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false } },
      { name: 'append_file', description: 'Appends to the file; does not overwrite it.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false } },
      { name: 'write_file', description, inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false } },
    ]);
    expect(only(findings, 'description-vs-hints')).toEqual([]);
  });
});

describe('name-vs-hints on real servers’ writing verbs', () => {
  it('reports edit_file, move_file, git_commit, kubectl_apply, kubectl_patch and reply_to_thread marked read-only, and not their reading neighbours', async () => {
    const ro = { readOnlyHint: true, openWorldHint: false };
    const names = ['edit_file', 'move_file', 'git_commit', 'kubectl_apply', 'kubectl_patch', 'reply_to_thread', 'get_commit', 'list_commits', 'slack_get_thread_replies', 'apply_filter'];
    const findings = await lint(names.map((name) => ({ name, inputSchema: { type: 'object' }, annotations: ro })));
    const reported = only(findings, 'name-vs-hints');
    expect(reported.map((f) => f.pointer)).toEqual([0, 1, 2, 3, 4, 5].map((i) => `/tools/${i}/annotations/readOnlyHint`));
    expect(reported.map((f) => f.message.match(/has the verb "(\w+)"/)![1])).toEqual(['edit', 'move', 'commit', 'apply', 'patch', 'reply']);
  });
});

describe('sensitive-output-undeclared beside an invalid sensitiveHint', () => {
  const withHint = (sensitiveHint: unknown) => ({
    name: 'generate_api_key',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { token: { type: 'string', 'x-sensitive': true } } },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, sensitiveHint },
  });

  for (const value of ['true', 1, null]) {
    it(`reports sensitiveHint ${JSON.stringify(value)} once, as schema-valid's error`, async () => {
      const findings = await lint([withHint(value)]);
      expect(findings.map((f) => f.ruleId)).toEqual(['schema-valid']);
      expect(findings[0]!.pointer).toBe('/tools/0/annotations/sensitiveHint');
      expect(findings[0]!.severity).toBe('error');
    });
  }

  it('still reports an absent sensitiveHint', async () => {
    const tool = withHint(undefined);
    delete (tool.annotations as Record<string, unknown>).sensitiveHint;
    const findings = await lint([tool]);
    expect(only(findings, 'sensitive-output-undeclared')).toHaveLength(1);
  });
});

describe('values that are a vocabulary’s, only wrong, are not the server’s own data', () => {
  const ro = { readOnlyHint: true, openWorldHint: false };
  const cases: { what: string; tool: Record<string, unknown>; pointer: string; suggestion: RegExp }[] = [
    {
      what: 'a list of effects on the proposal’s own _meta key',
      tool: { annotations: ro, _meta: { 'mcp.dev/effect': ['read', 'delete'] } },
      pointer: '/tools/0/_meta/mcp.dev~1effect',
      suggestion: /^use one effect, not a list: .*reads "delete", the furthest-reaching/,
    },
    {
      what: 'a case variant of an effect',
      tool: { annotations: ro, _meta: { 'mcp.dev/effect': 'Delete' } },
      pointer: '/tools/0/_meta/mcp.dev~1effect',
      suggestion: /^did you mean "delete"\?$/,
    },
    {
      what: 'a case variant of a category',
      tool: { annotations: { ...ro, category: 'Destroy' } },
      pointer: '/tools/0/annotations/category',
      suggestion: /^did you mean "destroy"\?$/,
    },
    {
      what: 'a list of categories',
      tool: { annotations: { ...ro, category: ['read', 'destroy'] } },
      pointer: '/tools/0/annotations/category',
      suggestion: /^use one category, not a list: .*reads "destroy", the furthest-reaching/,
    },
  ];
  for (const c of cases) {
    it(`reports ${c.what} as a schema error and still sees the contradiction with readOnlyHint true`, async () => {
      const findings = await lint([{ name: 't', inputSchema: { type: 'object' }, ...c.tool }]);
      expect(only(findings, 'vocabulary-key-collision')).toEqual([]);
      const [schema] = only(findings, 'schema-valid');
      expect(schema).toMatchObject({ severity: 'error', pointer: c.pointer });
      expect(schema!.suggestion).toMatch(c.suggestion);
      const [contradiction] = only(findings, 'readonly-vs-category');
      expect(contradiction).toMatchObject({ severity: 'error', pointer: c.pointer });
    });
  }

  it('reads a case-variant read category as a read signal', async () => {
    const findings = await lint([
      { name: 'list_rows', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, category: 'Read' } },
    ]);
    expect(only(findings, 'readonly-contradicted')).toHaveLength(1);
  });

  it('does not read a list of another single-valued field, and reports it as a schema error', async () => {
    const findings = await lint([{ name: 'scan', inputSchema: { type: 'object' }, annotations: { ...ro, riskLevel: ['low', 'high'] } }]);
    expect(only(findings, 'vocabulary-key-collision')).toEqual([]);
    const [schema] = only(findings, 'schema-valid');
    expect(schema!.suggestion).toBe('use one value, not a list (riskLevel holds a single value; this one lists "low", "high")');
  });

  it('still calls a value of the server’s own a collision', async () => {
    const findings = await lint([
      { name: 'a', inputSchema: { type: 'object' }, annotations: { ...ro, category: 'files' } },
      { name: 'b', inputSchema: { type: 'object' }, annotations: { ...ro, category: ['files', 'read'] } },
    ]);
    expect(only(findings, 'vocabulary-key-collision').map((f) => f.pointer)).toEqual(['/tools/0/annotations/category', '/tools/1/annotations/category']);
    expect(only(findings, 'schema-valid')).toEqual([]);
  });
});

describe('SEP-1913 metadata recognised by its members', () => {
  it('empty lists under every member name are SEP-1913 possible sets (empty-possible-set errors), not a collision', async () => {
    const findings = await lint([
      {
        name: 'send',
        description: 'Send',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: [], sensitivity: [], outcomes: [] } },
      },
    ]);
    expect(only(findings, 'vocabulary-key-collision')).toEqual([]);
    expect(only(findings, 'empty-possible-set').map((f) => [f.pointer, f.severity])).toEqual([
      ['/tools/0/annotations/inputMetadata/destination', 'error'],
      ['/tools/0/annotations/inputMetadata/sensitivity', 'error'],
      ['/tools/0/annotations/inputMetadata/outcomes', 'error'],
    ]);
  });
});
