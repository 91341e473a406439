/**
 * False positives the writing verbs (edit, move, commit, apply, patch, reply), "overwrite" and
 * the state-changing operation selectors added, each checked through the real CLI: the names,
 * descriptions and parameters below were quiet before those were added and must stay quiet,
 * while the writing tools they were added for stay reported.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { json, removeTempDirs, runCliInProcess as runCli, tempDir } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess

afterAll(removeTempDirs);

const readOnlyTool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  description: 'x',
  inputSchema: { type: 'object' },
  annotations: { readOnlyHint: true, openWorldHint: false },
  ...extra,
});

/** The findings of `lint --no-config` on one dump, as "ruleId tool". */
async function findings(tools: unknown[]): Promise<string[]> {
  const dir = tempDir({ 'dump.json': json({ tools }) });
  const r = await runCli(['lint', '--no-config', '--format', 'json', join(dir, 'dump.json')]);
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout) as { findings: { ruleId: string; tool?: string; pointer: string }[] };
  return out.findings.map((f) => `${f.ruleId} ${f.pointer}`);
}

describe('name-vs-hints: edit, move, commit, apply, patch and reply', () => {
  const quiet = [
    'commit_get', 'gitlab_commit_get', 'git_commit_show', 'blame_commit', 'commit_author', 'commit_authors',
    'commit_files', 'commit_range', 'commit_summary', 'commit_search', 'commit_frequency', 'commit_check_runs',
    'os_patch_compliance', 'patch_compliance_report', 'missing_patch_report', 'patch_contents', 'patch_file_list',
    'suggest_move', 'chess_move_analysis', 'move_analysis', 'move_generator', 'move_validator', 'suggest_edit',
    'edit_suggestions', 'page_edit_metrics', 'wiki_edit_stats', 'suggest_reply', 'reply_suggestions', 'reply_sentiment',
    'code_review_reply_suggestions', 'apply_eligibility',
  ];
  it('read-only tools that read about them are not reported', async () => {
    expect(await findings(quiet.map((n) => readOnlyTool(n)))).toEqual([]);
  });
  it('the writing tools of real servers still are', async () => {
    const writes = ['edit_file', 'move_file', 'git_commit', 'kubectl_apply', 'kubectl_patch', 'reply_to_thread', 'slack_reply_to_thread', 'API-patch-page'];
    expect(await findings(writes.map((n) => readOnlyTool(n)))).toEqual(writes.map((_, i) => `name-vs-hints /tools/${i}/annotations/readOnlyHint`));
  });
  it('writing tools whose object is a file, content or details, a reading word used as a noun, or a prefix of two words are reported', async () => {
    const writes = [
      'move_files', 'edit_content', 'reply_to_review_comment', 'edit_query', 'edit_test_file', 'aws_s3_move_object',
      'git_commit_all_changes', 'edit_files', 'edit_contents', 'patch_content', 'edit_view', 'edit_saved_search',
      'google_drive_move_file', 'jira_issue_edit', 'edit_details',
    ];
    const tools = writes.map((n) => readOnlyTool(n));
    tools[0]!.description = 'Move one or more files to another folder.';
    expect(await findings(tools)).toEqual(writes.map((_, i) => `name-vs-hints /tools/${i}/annotations/readOnlyHint`));
  });
});

describe('description-vs-hints: clauses after as/because/so, lists, and passive overwrites by others', () => {
  const tools = (descriptions: string[]) =>
    descriptions.flatMap((description, i) => [
      { name: `additive_${i}`, description, inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false } },
      readOnlyTool(`reader_${i}`, { description }),
    ]);
  it('deletes and overwrites named as things, or done by someone else, are not the call’s effect', async () => {
    const quiet = [
      'Returns audit events such as deletes and updates.',
      'Returns inserts as well as deletes for the table.',
      'Counts row changes, so deletes are included in the total.',
      'Shows the change feed since deletes were last compacted.',
      'Reports table statistics because deletes slow down scans.',
      'Lists the operations on a key, such as overwrites and reads.',
      'Returns the schema, as overwriting it requires admin access.',
      'Previous versions are overwritten every night by the backup job.',
      'fields are overwritten on each deploy.',
      'notes with the same title are overwritten by the sync job.',
    ];
    expect(await findings(tools(quiet))).toEqual([]);
  });
  it('the tool as subject after "as" or "so", and a plain passive overwrite, still count', async () => {
    const loud = [
      'Use with caution as it will overwrite existing files.',
      'Saves the note, so this tool overwrites any older copy.',
      'Existing files will be overwritten.',
      'Existing files are overwritten by the new content.',
    ];
    expect(await findings(tools(loud))).toEqual(loud.flatMap((_, i) => [`description-vs-hints /tools/${2 * i}/description`, `description-vs-hints /tools/${2 * i + 1}/description`]));
  });
  it('"this", "the call" or "the tool" as the subject after as/because/since, and a verb after "as well as", still count', async () => {
    const loud = [
      'Use with care, as this will permanently delete the repository.',
      'Be careful since this deletes every row in the table.',
      'Handle with caution because the call deletes the branch.',
      'Handle with caution because this call deletes the branch.',
      'Use with care as the tool deletes the branch.',
      'Resets the cache as well as deletes the temporary files.',
    ];
    const readers = loud.map((description, i) => readOnlyTool(`reader_${i}`, { description }));
    expect(await findings(readers)).toEqual(loud.map((_, i) => `description-vs-hints /tools/${i}/description`));
  });
  it('an overwrite the call itself makes counts: "whenever you call this", "by the user-supplied values"', async () => {
    const loud = ['The existing file will be overwritten whenever you call this.', 'Existing keys are overwritten by the user-supplied values.'];
    const readers = loud.map((description, i) => readOnlyTool(`reader_${i}`, { description }));
    expect(await findings(readers)).toEqual(loud.map((_, i) => `description-vs-hints /tools/${i}/description`));
  });
});

describe('risky-parameters: state-changing selector values on reports and explainers', () => {
  const selector = (name: string, param: string, values: string[], description?: string) =>
    readOnlyTool(name, { inputSchema: { type: 'object', properties: { [param]: { type: 'string', enum: values, ...(description ? { description } : {}) } } } });
  it('tools that report on, explain or compute operations are not reported', async () => {
    const quiet = [
      selector('audit_trail', 'action', ['approve', 'reject', 'grant', 'revoke', 'transfer'], 'Which kind of events to show'),
      selector('email_stats', 'action', ['archive', 'reply', 'move']),
      selector('pr_activity_summary', 'action', ['approve', 'reject', 'comment']),
      selector('workflow_history', 'action', ['trigger', 'dispatch', 'rerun']),
      selector('kubectl_explain', 'command', ['apply', 'patch', 'rollout', 'drain', 'cordon']),
      selector('keyboard_shortcut_lookup', 'command', ['undo', 'redo', 'archive', 'move']),
      selector('lock_status', 'operation', ['lock', 'unlock'], 'Which lock operations to count'),
      selector('calculate_route', 'mode', ['transfer', 'walk', 'drive']),
      // the description alone: it picks which operations to count
      selector('key_admin', 'operation', ['lock', 'unlock'], 'Which lock operations to count'),
    ];
    expect(await findings(quiet)).toEqual([]);
  });
  it('operation selectors of tools that act, and deletes on reports, still are', async () => {
    const loud = [
      selector('kubectl_rollout', 'subCommand', ['history', 'pause', 'restart', 'resume', 'status', 'undo']),
      selector('kubectl_context', 'operation', ['list', 'get', 'set']),
      selector('key_admin', 'operation', ['lock', 'unlock']),
      selector('audit_trail', 'action', ['show', 'delete']),
    ];
    expect(await findings(loud)).toEqual([
      'risky-parameters /tools/0/inputSchema/properties/subCommand/enum/1',
      'risky-parameters /tools/1/inputSchema/properties/operation/enum/2',
      'risky-parameters /tools/2/inputSchema/properties/operation/enum/0',
      'risky-parameters /tools/3/inputSchema/properties/action/enum/1',
    ]);
  });
  it('a report noun at the end of the name does not hide selectors when the name or description says the tool writes', async () => {
    const loud = [
      { ...selector('subscription_status', 'action', ['cancel', 'pause', 'resume']), description: 'Change the status of a subscription.' },
      selector('manage_account_details', 'operation', ['lock', 'unlock', 'transfer']),
      selector('handle_events', 'action', ['approve', 'reject']),
    ];
    expect(await findings(loud)).toEqual([
      'risky-parameters /tools/0/inputSchema/properties/action/enum/1',
      'risky-parameters /tools/1/inputSchema/properties/operation/enum/0',
      'risky-parameters /tools/2/inputSchema/properties/action/enum/0',
    ]);
  });
});

describe('README: name globs', () => {
  it('says that `**` is just `*` in override globs', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const overrides = readme.split('\n').find((l) => l.startsWith('| `overrides` |'))!;
    expect(overrides).toContain('`**` is just `*`');
    expect(overrides).toContain('`**/weather` matches `io.github.acme/weather` but not `weather`');
    expect(overrides).toContain('`a/**/c` matches `a/b/c` but not `a/c`');
  });
});

describe('a directory whose only dump a "!" pattern leaves out', () => {
  it('says that the "!" pattern left it out, as for a glob', async () => {
    const dir = tempDir({ 'dumps/a.json': json({ tools: [readOnlyTool('get_thing')] }) });
    const dirRun = await runCli(['lint', '--no-config', 'dumps', '!dumps/a.json'], { cwd: dir });
    expect(dirRun.code).toBe(2);
    expect(dirRun.stderr).toContain(
      'dumps: the directory holds no .json files to lint (the 1 file it holds is left out by a "!" pattern or is the run\'s own baseline, config or an mcp-annotate report)',
    );
    const globRun = await runCli(['lint', '--no-config', 'dumps/*.json', '!dumps/a.json'], { cwd: dir });
    expect(globRun.stderr).toContain('is left out by a "!" pattern');
  });
});

describe('a recorded protocolVersion that is not a string, or is empty', () => {
  it.each([
    ['2025', '2025, which is not a string'],
    ['""', '"", which is empty'],
    ['null', 'null, which is not a string'],
    ['{"a":1}', '{"a":1}, which is not a string'],
  ])('%s falls back to the latest spec with a note, as "v2" does', async (raw, said) => {
    const dir = tempDir({ 'pv.json': `{"serverInfo":{"name":"s"},"protocolVersion":${raw},"tools":[]}` });
    const r = await runCli(['lint', '--no-config', 'pv.json'], { cwd: dir });
    expect(r.stderr).toMatch(new RegExp(`^mcp-annotate: note: server "s" \\(pv\\.json\\) records protocol version ${said.replace(/[{}()"]/g, '\\$&')} \\(MCP's versions are YYYY-MM-DD dates\\), so it was linted against spec \\d{4}-\\d\\d-\\d\\d, the latest; the tools/list envelope around its tools was not checked`));
  });
  it.each([
    ['2025', '2025, which is not a string'],
    ['""', '"", which is empty'],
    ['null', 'null, which is not a string'],
  ])('in a session transcript, initialize recording %s gets the same note (the server is named after serverInfo)', async (raw, said) => {
    const lines = [
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}',
      `{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":${raw},"serverInfo":{"name":"files","version":"1"},"capabilities":{}}}`,
      '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}',
    ];
    const dir = tempDir({ 's.jsonl': lines.join('\n') + '\n' });
    const r = await runCli(['lint', '--no-config', 's.jsonl'], { cwd: dir });
    expect(r.stderr).toMatch(new RegExp(`^mcp-annotate: note: server "files" \\(s\\.jsonl\\) records protocol version ${said.replace(/[{}()"]/g, '\\$&')} \\(MCP's versions are YYYY-MM-DD dates\\), so it was linted against spec \\d{4}-\\d\\d-\\d\\d, the latest`));
    expect((await runCli(['lint', '--no-config', '--spec', '2025-11-25', 's.jsonl'], { cwd: dir })).stderr).not.toContain('records protocol version');
  });
  it('"v2" still gets its note, and --spec silences them all', async () => {
    const dir = tempDir({ 'a.json': '{"serverInfo":{"name":"a"},"protocolVersion":"v2","tools":[]}', 'b.json': '{"serverInfo":{"name":"b"},"protocolVersion":2025,"tools":[]}' });
    expect((await runCli(['lint', '--no-config', 'a.json'], { cwd: dir })).stderr).toContain('records protocol version "v2", which is not a date');
    expect((await runCli(['lint', '--no-config', '--spec', '2025-11-25', 'a.json', 'b.json'], { cwd: dir })).stderr).not.toContain('records protocol version');
  });
});

describe('risky-parameters: a schema too large to walk to its end', () => {
  it('says so in a note on the inputSchema, which no setting raises, and only for a tool whose hints the check reads', async () => {
    let deep: Record<string, unknown> = { type: 'object', properties: { purge: { type: 'boolean' } } };
    for (let i = 0; i < 9; i++) deep = { type: 'object', properties: { [`level${i}`]: deep } };
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`f${i}`, { type: 'object', properties: { x: { type: 'string' } } }])) };
    const inputSchema = { type: 'object', properties: { deep, wide } };
    const dir = tempDir({
      'strict.json': json({ rules: { 'risky-parameters': 'error' } }),
      'dump.json': json({
        tools: [
          readOnlyTool('get_report', { inputSchema }),
          { name: 'sync_report', description: 'x', inputSchema, annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false } },
        ],
      }),
    });
    for (const config of [['--no-config'], ['-c', join(dir, 'strict.json')]]) {
      const r = await runCli(['lint', ...config, '--format', 'json', join(dir, 'dump.json')]);
      const out = JSON.parse(r.stdout) as { findings: { ruleId: string; severity: string; pointer: string; message: string; related?: { pointer: string }[] }[] };
      const notes = out.findings.filter((f) => f.ruleId === 'risky-parameters');
      expect(notes).toEqual([
        expect.objectContaining({
          severity: 'note',
          pointer: '/tools/0/inputSchema',
          message: 'inputSchema was not walked to its end: the check for parameters that contradict readOnlyHint true stopped after 5,000 subschemas, so parameters past them were not checked',
          related: [expect.objectContaining({ pointer: '/tools/0/annotations/readOnlyHint' })],
        }),
      ]);
    }
  });
});
