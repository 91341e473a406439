/**
 * Baselines: --update-baseline writes a sorted, stable file with counts (justifications
 * kept); --baseline reports only new findings; renamed tools, moved lines and reordered
 * tools do not resurrect baselined findings; stale entries are noted (--fail-on-stale
 * fails); broken baselines are exit 2 with a position.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical, valueKey } from '../src/engine/possible-sets.js';
import { assertProperty } from './helpers/property.js';
import { RULES } from '../rules/index.js';
import { lint } from '../src/engine/engine.js';
import { loadText } from '../src/sources/files.js';
import { buildBaseline, matchBaseline, toolFingerprint, type BaselineEntry } from '../src/baseline/baseline.js';
import { ROOT, json, runCliInProcess as runCli, tempDir, tool } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess
import { validateJsonReport, validateSarif } from './helpers/schemas.js';

const send = tool('send_email', { readOnlyHint: true, inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' } });
const del = tool('delete_file', { readOnlyHint: true, openWorldHint: false });
const get = tool('get_file', { readOnlyHint: true, openWorldHint: false });
const dump = (tools: unknown[], indent = 2) => JSON.stringify({ serverInfo: { name: 'mail' }, tools }, null, indent) + '\n';

const read = (dir: string, f = 'baseline.json') => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { version: number; entries: BaselineEntry[] };

describe('--update-baseline and --baseline', () => {
  it('writes one sorted entry per server/tool/rule/pointer with a count; the same run writes the same bytes', async () => {
    const dir = tempDir({ 'd.json': dump([send, del, get]) });
    const w = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(w.code).toBe(0);
    expect(w.stdout).toBe('✔ no problems in 1 server, 3 tools\n');
    const b = read(dir);
    expect(b.version).toBe(1);
    const keys = b.entries.map((e) => [e.server, e.tool ?? '', e.rule, e.pointer].join(' '));
    expect(keys).toEqual([...keys].sort());
    expect(b.entries.find((e) => e.tool === 'send_email' && e.rule === 'readonly-vs-outcome')).toEqual({
      server: 'mail',
      tool: 'send_email',
      rule: 'readonly-vs-outcome',
      pointer: '/annotations/inputMetadata/outcomes',
      detail: 'irreversible',
      count: 1,
      fingerprint: toolFingerprint(send),
      message: expect.stringContaining('readOnlyHint is true'),
    });
    expect(w.stderr).toBe(`mcp-annotate: wrote baseline baseline.json: ${b.entries.length} entries covering ${b.entries.reduce((n, e) => n + e.count, 0)} findings\n`);
    const first = readFileSync(join(dir, 'baseline.json'), 'utf8');
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(readFileSync(join(dir, 'baseline.json'), 'utf8')).toBe(first);

    const again = await runCli(['lint', 'd.json', '--baseline', 'baseline.json'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe('✔ no problems in 1 server, 3 tools\n');
    expect(again.stderr).toMatch(/^mcp-annotate: baseline baseline\.json: \d+ known findings not reported\n$/);
  });

  it('reports only what is new, with exit codes from the new findings', async () => {
    const dir = tempDir({ 'd.json': dump([del, get]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    writeFileSync(join(dir, 'd.json'), dump([del, get, send]));
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const tools = new Set(JSON.parse(r.stdout).findings.map((f: { tool: string }) => f.tool));
    expect([...tools]).toEqual(['send_email']);
  });

  it('fingerprints a tool once however many findings it has (was quadratic: probe BK)', () => {
    // 3,000 unknown annotation keys (a finding each) on a tool with a 4,000-property schema:
    // fingerprinting the tool per entry took ~30 s here; once per tool, well under a second.
    const annotations = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`readOnlyHnt${i}`, true]));
    const properties = Object.fromEntries(Array.from({ length: 4000 }, (_, i) => [`p${i}`, { type: 'string', description: `parameter ${i}` }]));
    const big = { name: 'big', description: 'Reads things.', inputSchema: { type: 'object', properties }, annotations };
    const servers = loadText(dump([big]), { kind: 'file', path: 'a', display: 'a' }, 'mail', 'a');
    // Every finding listed (no limit per rule and tool), as a baseline written with MCP_ANNOTATE_MAX_PER_TOOL=0.
    const findings = lint(servers, RULES, { maxPerTool: 0 }).findings;
    expect(findings.length).toBeGreaterThanOrEqual(3000);
    const entries = buildBaseline(findings, servers).entries;
    const fingerprint = toolFingerprint(big);
    expect(entries.filter((e) => e.tool === 'big').every((e) => e.fingerprint === fingerprint)).toBe(true);
    expect(matchBaseline(findings, servers, entries, true).fresh).toEqual([]);
  }, 15_000);

  it('counts: one more finding of a baselined key is new', () => {
    const two = loadText(dump([tool('t', { readOnlyHint: true, inputMetadata: { destination: ['public', 'user'], sensitivity: 'none', outcomes: 'benign' } })]), { kind: 'file', path: 'a', display: 'a' }, 'mail', 'a');
    const findings = lint(two, RULES).findings;
    const entries = buildBaseline(findings, two).entries;
    expect(matchBaseline(findings, two, entries, true).fresh).toEqual([]);
    // The same finding twice, baselined once.
    const doubled = [...findings, { ...findings[0]! }];
    const m = matchBaseline(doubled, two, entries, true);
    expect(m.fresh).toHaveLength(1);
    expect(m.fresh[0]!.ruleId).toBe(findings[0]!.ruleId);
  });
});

describe('--fail-on-stale in the reports', () => {
  it('a run that fails for stale entries says so: an annotation on each entry, no ✅ and no ✔', async () => {
    const dir = tempDir({ 'd.json': dump([send, del, get]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    writeFileSync(join(dir, 'd.json'), dump([get]));
    const args = ['lint', 'd.json', '--baseline', 'baseline.json', '--fail-on-stale'];
    const text = await runCli(args, { cwd: dir });
    expect(text.code).toBe(1);
    const stale = read(dir).entries.length;
    expect(text.stdout).toBe(`✖ no problems in 1 server, 1 tool; ${stale} stale baseline entries fail the run (--fail-on-stale)\n`);
    const github = await runCli([...args, '-f', 'github'], { cwd: dir });
    expect(github.code).toBe(1);
    const errors = github.stdout.split('\n').filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(Math.min(stale, 10));
    expect(errors[0]).toMatch(/^::error file=baseline\.json,line=\d+,col=\d+,title=mcp-annotate%3A stale baseline entry \(--fail-on-stale\)::stale baseline entry: \S+ on tool "(send_email|delete_file)" of server "mail" at "[^"]+" no longer occurs; remove it or run with --update-baseline$/);
    expect(github.stdout).toContain('fail the run (--fail-on-stale)');
    const md = await runCli([...args, '-f', 'markdown'], { cwd: dir });
    expect(md.stdout).not.toContain('✅');
    expect(md.stdout).toContain('❌ **No problems** in 1 server, 1 tool.');
    expect(md.stdout).toContain(`${stale} baseline entries no longer occur, which fail the run (--fail-on-stale)`);
    const report = await runCli([...args, '-f', 'json'], { cwd: dir });
    const parsed = JSON.parse(report.stdout);
    expect(validateJsonReport(parsed), JSON.stringify(validateJsonReport.errors)).toBe(true);
    expect(parsed.baseline.failStale).toBe(true);
    expect(parsed.baseline.staleEntries).toHaveLength(stale);
    // Without --fail-on-stale, stale entries do not fail the run, and the reports say no problems.
    const lax = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '-f', 'markdown'], { cwd: dir });
    expect(lax.code).toBe(0);
    expect(lax.stdout).toContain('✅ **No problems**');
  });
});

describe('what does not resurrect baselined findings', () => {
  it('moved lines, reformatting and reordered tools', async () => {
    const dir = tempDir({ 'd.json': dump([send, del, get]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    writeFileSync(join(dir, 'd.json'), '\n\n' + dump([get, del, send], 6));
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--fail-on-stale'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('✔ no problems in 1 server, 3 tools\n');
  });

  it('a renamed tool whose annotations and schemas are unchanged; its justification moves with it', async () => {
    const dir = tempDir({ 'd.json': dump([send, del, get]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const b = read(dir);
    for (const e of b.entries) if (e.tool === 'send_email') e.justification = 'the mail relay is read-only in staging';
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify(b, null, 2) + '\n');
    writeFileSync(join(dir, 'd.json'), dump([{ ...send, name: 'send_mail' }, del, get]));
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--fail-on-stale'], { cwd: dir });
    expect(r.stderr.split('\n')[0]).toBe('mcp-annotate: baseline baseline.json: tool "send_mail" of server "mail" has the content of baselined tool "send_email"; its entries apply to it');
    expect(r.stdout).toBe('✔ no problems in 1 server, 3 tools\n');
    expect(r.code).toBe(0);
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const updated = read(dir).entries.filter((e) => e.tool === 'send_mail');
    expect(updated.length).toBeGreaterThan(0);
    expect(updated.every((e) => e.justification === 'the mail relay is read-only in staging')).toBe(true);
    expect(read(dir).entries.some((e) => e.tool === 'send_email')).toBe(false);
  });

  it('a renamed server whose tools are all still there; a tool renamed with it is followed too; justifications move', async () => {
    const named = (name: string, tools: unknown[]) => JSON.stringify({ serverInfo: { name }, tools }, null, 2) + '\n';
    const dir = tempDir({ 'd.json': named('mail', [send, del, get]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const b = read(dir);
    for (const e of b.entries) e.justification = 'accepted for the staging relay';
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify(b, null, 2) + '\n');
    writeFileSync(join(dir, 'd.json'), named('mailer', [{ ...send, name: 'send_mail' }, del, get]));
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--fail-on-stale'], { cwd: dir });
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      'mcp-annotate: baseline baseline.json: server "mailer" has the tools of baselined server "mail"; its entries apply to it',
      'mcp-annotate: baseline baseline.json: tool "send_mail" of server "mailer" has the content of baselined tool "send_email"; its entries apply to it',
    ]);
    expect(r.stdout).toBe('✔ no problems in 1 server, 3 tools\n');
    expect(r.code).toBe(0);
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const entries = read(dir).entries;
    expect(new Set(entries.map((e) => e.server))).toEqual(new Set(['mailer']));
    expect(entries.every((e) => e.justification === 'accepted for the staging relay')).toBe(true);
  });

  it('a renamed server is not followed when a baselined tool changed, or when two vanished servers would fit', async () => {
    const named = (name: string, tools: unknown[]) => ({ serverInfo: { name }, tools });
    const dir = tempDir({ 'a.json': json(named('mail', [send, del])), 'b.json': json(named('mail-copy', [send, del])) });
    await runCli(['lint', 'a.json', 'b.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    // Two baselined servers with the same tools, one new name: which one it was cannot be told.
    writeFileSync(join(dir, 'a.json'), json(named('mailer', [send, del])));
    const { rmSync } = await import('node:fs');
    rmSync(join(dir, 'b.json'));
    const ambiguous = await runCli(['lint', 'a.json', '--baseline', 'baseline.json', '-f', 'json'], { cwd: dir });
    expect(ambiguous.stderr).not.toContain('has the tools of baselined server');
    expect(JSON.parse(ambiguous.stdout).findings.length).toBeGreaterThan(0);

    const one = tempDir({ 'a.json': json(named('mail', [send, del])) });
    await runCli(['lint', 'a.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: one });
    const changedDel = tool('delete_file', { readOnlyHint: true, openWorldHint: true });
    writeFileSync(join(one, 'a.json'), json(named('mailer', [send, changedDel])));
    const changed = await runCli(['lint', 'a.json', '--baseline', 'baseline.json', '-f', 'json'], { cwd: one });
    expect(changed.stderr).not.toContain('has the tools of baselined server');
    expect(changed.stderr).toContain('stale baseline entry');
    expect(JSON.parse(changed.stdout).findings.length).toBeGreaterThan(0);
  });

  it('but a rename it cannot tell apart (two vanished tools with the same content) is new', async () => {
    const a = tool('read_a', { readOnlyHint: true });
    const b = tool('read_b', { readOnlyHint: true });
    const dir = tempDir({ 'd.json': dump([a, b]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    writeFileSync(join(dir, 'd.json'), dump([{ ...a, name: 'read_x' }, { ...b, name: 'read_y' }]));
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '-f', 'json'], { cwd: dir });
    const tools = new Set(JSON.parse(r.stdout).findings.map((f: { tool: string }) => f.tool));
    expect([...tools].sort()).toEqual(['read_x', 'read_y']);
  });

  it('a renamed tool whose annotations changed is not followed', async () => {
    const dir = tempDir({ 'd.json': dump([send, get]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const changed = { ...send, name: 'send_mail', annotations: { ...send.annotations, title: 'Send' } };
    writeFileSync(join(dir, 'd.json'), dump([changed, get]));
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '-f', 'json'], { cwd: dir });
    expect(JSON.parse(r.stdout).findings.some((f: { tool: string; ruleId: string }) => f.tool === 'send_mail' && f.ruleId === 'readonly-vs-outcome')).toBe(true);
  });

  it('a bidi override added to a description whose zero-width space was baselined is new; the old entry is stale', async () => {
    const reader = (description: string) => tool('read_file', { readOnlyHint: true, openWorldHint: false }, { description });
    const dir = tempDir({ 'd.json': dump([reader('Reads\u200b the file.')]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(read(dir).entries).toEqual([expect.objectContaining({ rule: 'hidden-characters', pointer: '/description', detail: 'U+200B', count: 1 })]);
    writeFileSync(join(dir, 'd.json'), dump([reader('Reads\u200b the\u202e file.')]));
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '-f', 'json'], { cwd: dir });
    const found = JSON.parse(r.stdout).findings as { ruleId: string; message: string }[];
    expect(found.map((f) => [f.ruleId, f.message.includes('U+200B') && f.message.includes('U+202E')])).toEqual([['hidden-characters', true]]);
    // U+200B is still there: the entry is stale for what happened, not "no longer occurs".
    expect(r.stderr).toContain(
      'baseline.json:4:5: stale baseline entry: hidden-characters ("U+200B") on tool "read_file" of server "mail" at "/description" still occurs, but now as "U+200B U+202E", which the entry does not cover (its detail is part of its key), so it is reported as new; run with --update-baseline to accept it\n',
    );
    expect(r.stderr).not.toContain('no longer occurs');
    // A justification written for the zero-width space is not carried to the bidi override, and
    // --update-baseline says so (it dropped it without a word).
    const justified = read(dir);
    justified.entries[0]!.justification = 'the zero-width space is a harmless copy-paste artefact';
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify(justified, null, 2) + '\n');
    const noted = await runCli(['lint', 'd.json', '--baseline', 'baseline.json'], { cwd: dir });
    expect(noted.stderr).toContain('so it is reported as new; run with --update-baseline to accept it (the justification, written for what the entry covers, is not carried over to it)\n');
    const update = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(update.code).toBe(0);
    expect(update.stderr).toBe(
      'mcp-annotate: baseline baseline.json: the justification of the entry for hidden-characters ("U+200B") on tool "read_file" of server "mail" at "/description" was not carried over: its finding is now "U+200B U+202E", which it was not written for; add one to the new entry if it still holds (it was "the zero-width space is a harmless copy-paste artefact")\n' +
        'mcp-annotate: wrote baseline baseline.json: 1 entry covering 1 finding; dropped 1 stale entry\n',
    );
    expect(read(dir).entries).toEqual([expect.objectContaining({ rule: 'hidden-characters', detail: 'U+200B U+202E' })]);
    expect(read(dir).entries[0]!.justification).toBeUndefined();
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify(justified, null, 2) + '\n');
    // A baseline written before findings had a detail still covers them.
    const old = read(dir);
    for (const e of old.entries) delete e.detail;
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify(old, null, 2) + '\n');
    const legacy = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '-f', 'json'], { cwd: dir });
    expect(JSON.parse(legacy.stdout).findings).toEqual([]);
  });

  it('duplicate-key "same" that became "different" still occurs: the stale entry says what it is now', async () => {
    const twice = (a: string, b: string) =>
      `{"serverInfo": {"name": "mail"}, "tools": [{"name": "get_file", "description": "${a}", "description": "${b}", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true, "openWorldHint": false}}]}\n`;
    const dir = tempDir({ 'd.json': twice('Reads a file.', 'Reads a file.') });
    await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(read(dir).entries).toEqual([expect.objectContaining({ rule: 'duplicate-key', detail: 'same' })]);
    writeFileSync(join(dir, 'd.json'), twice('Reads a file.', 'Deletes a file.'));
    const r = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', '-f', 'json'], { cwd: dir });
    expect(JSON.parse(r.stdout).findings.map((f: { ruleId: string }) => f.ruleId)).toContain('duplicate-key');
    expect(r.stderr).toMatch(/stale baseline entry: duplicate-key \("same"\) on tool "get_file" of server "mail" at "[^"]*" still occurs, but now as "different", which the entry does not cover/);
    expect(r.stderr).not.toContain('no longer occurs');
  });

  it('reordered servers of one document: a server-level finding is keyed within its server, and an older absolute key still matches', async () => {
    const doc = (servers: unknown[]) => JSON.stringify({ servers }, null, 2) + '\n';
    const empty = { serverInfo: { name: 'empty' }, tools: [] };
    const mail = { serverInfo: { name: 'mail' }, tools: [get] };
    const dir = tempDir({ 'd.json': doc([mail, empty]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(read(dir).entries.filter((e) => e.server === 'empty')).toEqual([expect.objectContaining({ rule: 'no-tools', pointer: '/tools', count: 1 })]);
    writeFileSync(join(dir, 'd.json'), doc([empty, mail]));
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--fail-on-stale', '-f', 'json'], { cwd: dir });
    expect([r.code, r.stderr, JSON.parse(r.stdout).findings]).toEqual([0, 'mcp-annotate: baseline baseline.json: 1 known finding not reported\n', []]);
    // A baseline written when such entries held the absolute pointer still covers the finding.
    const old = read(dir);
    for (const e of old.entries) if (e.server === 'empty') e.pointer = '/servers/0/tools';
    writeFileSync(join(dir, 'baseline.json'), JSON.stringify(old, null, 2) + '\n');
    const legacy = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--fail-on-stale', '-f', 'json'], { cwd: dir });
    expect([legacy.code, JSON.parse(legacy.stdout).findings]).toEqual([0, []]);
  });

  it('--update-baseline after reordering tools rewrites nothing: entries keep the message they were written with', async () => {
    const twin = tool('send_email', { readOnlyHint: true, openWorldHint: false });
    const dir = tempDir({ 'd.json': dump([twin, del, twin]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const before = readFileSync(join(dir, 'baseline.json'), 'utf8');
    // The duplicate-name finding's message names the first tool's absolute pointer (/tools/0).
    expect(before).toContain('/tools/0');
    writeFileSync(join(dir, 'd.json'), dump([del, twin, twin]));
    const u = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(u.code).toBe(0);
    expect(readFileSync(join(dir, 'baseline.json'), 'utf8')).toBe(before);
    // A finding that now says something else is rewritten: a read-only tool that went from "mutate" to "destroy".
    const t = (category: string) => tool('tidy', { readOnlyHint: true, openWorldHint: false, category, riskLevel: 'high', approvalRecommendation: 'single' });
    writeFileSync(join(dir, 'e.json'), dump([t('mutate')]));
    await runCli(['lint', 'e.json', '--baseline', 'b2.json', '--update-baseline'], { cwd: dir });
    writeFileSync(join(dir, 'e.json'), dump([t('destroy')]));
    await runCli(['lint', 'e.json', '--baseline', 'b2.json', '--update-baseline'], { cwd: dir });
    const entry = read(dir, 'b2.json').entries.find((e) => e.rule === 'readonly-vs-category');
    expect(entry?.message).toContain('"destroy"');
  });

  it('a bare tool replaced by another bare tool is a new tool, not a rename (every bare tool has one fingerprint)', async () => {
    const bare = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' } });
    const dir = tempDir({ 'd.json': dump([bare('ping', 'Check the connection.'), get]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    writeFileSync(join(dir, 'd.json'), dump([bare('drop_database', 'Drop the whole database. Cannot be undone.'), get]));
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '-f', 'json'], { cwd: dir });
    expect(r.stderr).not.toContain('has the content of');
    expect(JSON.parse(r.stdout).findings.filter((f: { tool: string }) => f.tool === 'drop_database').length).toBeGreaterThan(0);
    // A server of bare tools is not followed under another name by bare tools of other names
    // (by content alone, every server with a bare tool matched it).
    writeFileSync(join(dir, 'e.json'), dump([bare('ping', 'Check the connection.')]).replace('"mail"', '"db"'));
    await runCli(['lint', 'e.json', '--baseline', 'b2.json', '--update-baseline'], { cwd: dir });
    writeFileSync(join(dir, 'e.json'), dump([bare('drop_database', 'Drop the whole database.')]).replace('"mail"', '"other"'));
    const s = await runCli(['lint', 'e.json', '--baseline', 'b2.json', '-f', 'json'], { cwd: dir });
    expect(s.stderr).not.toContain('has the tools of');
    expect(JSON.parse(s.stdout).findings.length).toBeGreaterThan(0);
    expect(s.stderr).toContain('stale baseline entry: implicit-destructive on tool "ping" of server "db" at "/annotations/destructiveHint" no longer occurs');
  });

  it('a renamed server whose baselined tools are bare is followed when they keep their names and content (rule 5)', async () => {
    const x = (server: string, extra = {}) =>
      json({ serverInfo: { name: server }, tools: [{ name: 'a_tool', inputSchema: { type: 'object' }, ...extra }, tool('b_tool', { readOnlyHint: true, openWorldHint: false })] });
    const dir = tempDir({ 'x.json': x('fake') });
    await runCli(['lint', 'x.json', '--no-config', '--baseline', 'b.json', '--update-baseline'], { cwd: dir });
    expect(read(dir, 'b.json').entries.map((e) => `${e.server} ${e.tool} ${e.rule}`)).toEqual([
      'fake a_tool implicit-destructive',
      'fake a_tool implicit-open-world',
      'fake a_tool missing-readonly-hint',
    ]);
    writeFileSync(join(dir, 'x.json'), x('fake-srv'));
    const r = await runCli(['lint', 'x.json', '--no-config', '--baseline', 'b.json', '--fail-on-stale'], { cwd: dir });
    expect(r.stderr.split('\n')[0]).toBe('mcp-annotate: baseline b.json: server "fake-srv" has the tools of baselined server "fake"; its entries apply to it');
    expect(r.stderr).not.toContain('stale');
    expect(r.stdout).toBe('✔ no problems in 1 server, 2 tools\n');
    expect(r.code).toBe(0);
    // A bare tool renamed within the renamed server is not followed (its content cannot tell it apart), nor is the server.
    const renamed = x('fake-srv').replace('"a_tool"', '"c_tool"');
    writeFileSync(join(dir, 'x.json'), renamed);
    const t = await runCli(['lint', 'x.json', '--no-config', '--baseline', 'b.json', '-f', 'json'], { cwd: dir });
    expect(t.stderr).not.toContain('has the tools of');
    expect(JSON.parse(t.stdout).findings.map((f: { tool: string }) => f.tool)).toEqual(['c_tool', 'c_tool', 'c_tool']);
  });

  it('an entry a renamed server could not take is stale for what happened, not "no longer occurs"', async () => {
    const x = (server: string, annotations?: Record<string, unknown>) =>
      json({ serverInfo: { name: server }, tools: [{ name: 'a_tool', inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) }] });
    const dir = tempDir({ 'x.json': x('fake') });
    await runCli(['lint', 'x.json', '--no-config', '--baseline', 'b.json', '--update-baseline'], { cwd: dir });
    // Renamed while its tool changed (a title: the three findings remain): the server cannot be followed.
    writeFileSync(join(dir, 'x.json'), x('fake-srv', { title: 'A tool' }));
    const r = await runCli(['lint', 'x.json', '--no-config', '--baseline', 'b.json', '-f', 'json'], { cwd: dir });
    expect(JSON.parse(r.stdout).findings).toHaveLength(3);
    expect(r.stderr).not.toContain('no longer occurs');
    expect(r.stderr).toContain(
      'mcp-annotate: b.json:4:5: stale baseline entry: implicit-destructive on tool "a_tool" of server "fake" at "/annotations/destructiveHint" was not applied: no server in this run is named "fake", and server "fake-srv" has the same finding, reported as new, but could not be taken for "fake" renamed (a renamed server is followed only when it has every baselined tool of the old name); if it is, rename the server in the baseline or run with --update-baseline',
    );
    // The JSON report's staleEntries say the same.
    expect(JSON.parse(r.stdout).baseline.staleEntries[0].message).toContain('was not applied: no server in this run is named "fake"');

    // A tool moved to another server, its first server still linted: said as that.
    const two = tempDir({
      'a.json': json({ serverInfo: { name: 'one' }, tools: [{ name: 'a_tool', inputSchema: { type: 'object' } }, tool('keep', { readOnlyHint: true, openWorldHint: false })] }),
      'b.json': json({ serverInfo: { name: 'two' }, tools: [tool('other', { readOnlyHint: true, openWorldHint: false })] }),
    });
    await runCli(['lint', 'a.json', 'b.json', '--no-config', '--baseline', 'base.json', '--update-baseline'], { cwd: two });
    writeFileSync(join(two, 'a.json'), json({ serverInfo: { name: 'one' }, tools: [tool('keep', { readOnlyHint: true, openWorldHint: false })] }));
    writeFileSync(join(two, 'b.json'), json({ serverInfo: { name: 'two' }, tools: [tool('other', { readOnlyHint: true, openWorldHint: false }), { name: 'a_tool', inputSchema: { type: 'object' } }] }));
    const m = await runCli(['lint', 'a.json', 'b.json', '--no-config', '--baseline', 'base.json'], { cwd: two });
    expect(m.stderr).toContain(
      'stale baseline entry: implicit-destructive on tool "a_tool" of server "one" at "/annotations/destructiveHint" no longer occurs on that server, but server "two" has the same finding, reported as new (entries are per server); remove it or run with --update-baseline',
    );
  });
});

describe('stale entries', () => {
  it('thousands of stale or invalid entries are placed in time proportional to the file (each rescanned it: 30 s for 6,000)', async () => {
    const tools = Array.from({ length: 2_000 }, (_, i) => ({ name: `t${i}`, inputSchema: { type: 'object' } }));
    const dir = tempDir({ 'tn.json': JSON.stringify({ tools }), 'empty.json': JSON.stringify({ serverInfo: { name: 'tn' }, tools: [] }) });
    await runCli(['lint', 'tn.json', '--no-config', '--baseline', 'bn.json', '--update-baseline', '-o', '/dev/null'], { cwd: dir });
    const entries = read(dir, 'bn.json').entries;
    expect(entries.length).toBeGreaterThanOrEqual(6_000);
    const stale = await runCli(['lint', 'empty.json', '--no-config', '--baseline', 'bn.json', '-o', '/dev/null'], { cwd: dir, timeoutMs: 8_000 });
    const lines = stale.stderr.split('\n').filter((l) => l.includes('stale baseline entry'));
    expect(lines).toHaveLength(entries.length);
    // Each at its own entry: the file is written one member a line, an entry every 9 lines.
    expect(lines.at(-1)).toMatch(/^mcp-annotate: bn\.json:\d+:5: stale baseline entry: /);
    expect(new Set(lines.map((l) => /bn\.json:(\d+):/.exec(l)![1])).size).toBe(entries.length);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ version: 1, entries: entries.map((e) => ({ ...e, count: 0 })) }, null, 2));
    const invalid = await runCli(['lint', 'empty.json', '--no-config', '--baseline', 'bad.json', '-o', '/dev/null'], { cwd: dir, timeoutMs: 8_000 });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr.split('\n').filter((l) => /^(mcp-annotate: )?bad\.json:\d+:\d+: entries\[\d+\]\.count must be a positive integer$/.test(l))).toHaveLength(entries.length);
  });

  it('are noted with their position; --fail-on-stale exits 1; --update-baseline drops them', async () => {
    const dir = tempDir({ 'd.json': dump([send, get]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const fixedSend = tool('send_email', { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' } }, { _meta: { 'mcp.dev/requiresConfirmation': true } });
    writeFileSync(join(dir, 'd.json'), dump([fixedSend, get]));
    const before = read(dir).entries;
    const idx = before.findIndex((e) => e.rule === 'readonly-vs-outcome');
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json'], { cwd: dir });
    expect(r.code).toBe(0);
    const text = readFileSync(join(dir, 'baseline.json'), 'utf8');
    const line = text.split('\n').findIndex((l, i, all) => l === '    {' && all.slice(i, i + 4).join('\n').includes('"rule": "readonly-vs-outcome"')) + 1;
    expect(idx).toBeGreaterThanOrEqual(0);
    expect(r.stderr).toContain(
      `mcp-annotate: baseline.json:${line}:5: stale baseline entry: readonly-vs-outcome ("irreversible") on tool "send_email" of server "mail" at "/annotations/inputMetadata/outcomes" no longer occurs; remove it or run with --update-baseline\n`,
    );
    expect((await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--fail-on-stale'], { cwd: dir })).code).toBe(1);
    const u = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(u.stderr).toMatch(/; dropped \d+ stale entries\n$/);
    expect(read(dir).entries.some((e) => e.rule === 'readonly-vs-outcome')).toBe(false);
    expect((await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--fail-on-stale'], { cwd: dir })).code).toBe(0);
  });

  it('--update-baseline says it lowered a count, not that it dropped an entry, when a finding occurs fewer times', async () => {
    const dir = tempDir({ 'd.json': dump([send, send]) });
    await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(read(dir).entries.some((e) => e.count === 2)).toBe(true);
    writeFileSync(join(dir, 'd.json'), dump([send]));
    const u = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    // The duplicate name's finding is gone (dropped); the others occur once now (lowered).
    expect(u.stderr).toMatch(/; dropped 1 stale entry, lowered the count of \d+ entr(y|ies)\n$/);
    expect(read(dir).entries.every((e) => e.count === 1)).toBe(true);
  });

  it('json, sarif and markdown say what the baseline kept out and what went stale', async () => {
    const dir = tempDir({ 'd.json': dump([send, del, get]) });
    const w = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '--update-baseline', '-f', 'json'], { cwd: dir });
    const written = JSON.parse(w.stdout);
    const total = read(dir).entries.reduce((n, e) => n + e.count, 0);
    expect(written.baseline).toEqual({ file: 'baseline.json', known: total, stale: 0, updated: true });
    expect(written.findings).toEqual([]);
    // Fix one finding: it goes stale; the rest stay known.
    const fixedSend = tool('send_email', { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' } }, { _meta: { 'mcp.dev/requiresConfirmation': true } });
    writeFileSync(join(dir, 'd.json'), dump([fixedSend, del, get]));
    const r = await runCli(['lint', 'd.json', '--baseline', 'baseline.json', '-f', 'json', '-o', 'r.json', '-f', 'sarif', '-o', 'r.sarif', '-f', 'markdown'], { cwd: dir });
    const report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
    expect(report.baseline).toMatchObject({ file: 'baseline.json', updated: false });
    expect(report.baseline.stale).toBeGreaterThan(0);
    expect(report.baseline.known).toBeGreaterThan(0);
    expect(Object.keys(report).slice(0, 4)).toEqual(['version', 'tool', 'summary', 'baseline']);
    expect(validateJsonReport(report), JSON.stringify(validateJsonReport.errors)).toBe(true);
    const sarif = JSON.parse(readFileSync(join(dir, 'r.sarif'), 'utf8'));
    expect(sarif.runs[0].properties.baseline).toEqual(report.baseline);
    expect(validateSarif(sarif), JSON.stringify(validateSarif.errors?.slice(0, 3))).toBe(true);
    expect(r.stdout).toContain(`_${report.baseline.known} known finding${report.baseline.known === 1 ? '' : 's'} in baseline baseline.json not reported; ${report.baseline.stale} baseline entr`);
    // Without --baseline none of it appears.
    const plain = await runCli(['lint', 'd.json', '-f', 'json'], { cwd: dir });
    expect(JSON.parse(plain.stdout)).not.toHaveProperty('baseline');
  });

  it('entries of a server that could not be read are not called stale, and the baseline is not updated', async () => {
    const dir = tempDir({ 'a.json': dump([send]), 'b.json': JSON.stringify({ serverInfo: { name: 'other' }, tools: [del] }) });
    await runCli(['lint', 'a.json', 'b.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const saved = readFileSync(join(dir, 'baseline.json'), 'utf8');
    writeFileSync(join(dir, 'b.json'), '{"tools": [');
    const r = await runCli(['lint', 'a.json', 'b.json', '--baseline', 'baseline.json', '--fail-on-stale'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('stale');
    const u = await runCli(['lint', 'a.json', 'b.json', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('mcp-annotate: baseline baseline.json not updated: 1 input could not be read, and their findings would be missing from it\n');
    expect(readFileSync(join(dir, 'baseline.json'), 'utf8')).toBe(saved);
  });
});

describe("globs and directories skip the run's own files", () => {
  it('init with a *.json target, then --update-baseline, then --baseline: the baseline is not linted as a dump', async () => {
    const dir = tempDir({ 'd.json': dump([send, get]) });
    expect((await runCli(['init', '*.json'], { cwd: dir })).code).toBe(0);
    const u = await runCli(['lint', '--baseline', 'mcp-annotate.baseline.json', '--update-baseline'], { cwd: dir });
    expect(u.code).toBe(0);
    const r = await runCli(['lint', '--baseline', 'mcp-annotate.baseline.json'], { cwd: dir });
    expect(r.stderr).toBe('mcp-annotate: baseline mcp-annotate.baseline.json: ' + r.stderr.split('baseline.json: ')[1]);
    expect(r.stderr.split('\n')).toHaveLength(2);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('1 server');
  });

  it('a directory or glob target skips the baseline, the config file and -o outputs; a file named as a target is still read', async () => {
    const dir = tempDir({ 'in/d.json': dump([send, get]), 'in/cfg.json': JSON.stringify({ rules: {} }) });
    const args = ['--baseline', 'in/bl.json', '-c', 'in/cfg.json', '-f', 'json', '-o', 'in/out.json'];
    expect((await runCli(['lint', 'in', ...args, '--update-baseline'], { cwd: dir })).code).toBe(0);
    for (const target of ['in', 'in/*.json']) {
      const r = await runCli(['lint', target, ...args, '-f', 'text'], { cwd: dir });
      expect(r.stderr).toBe('mcp-annotate: baseline in/bl.json: ' + r.stderr.split('in/bl.json: ')[1]);
      expect(r.code).toBe(0);
      expect(JSON.parse(readFileSync(join(dir, 'in/out.json'), 'utf8')).summary.servers).toBe(1);
    }
    const named = await runCli(['lint', 'in/d.json', 'in/bl.json', ...args], { cwd: dir });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('in/bl.json');
  });

  it('a rerun skips the JSON report and SARIF log it wrote before; an -o over a dump a glob finds is refused', async () => {
    const dir = tempDir({ 'd.json': dump([send, get]), 'other.json': dump([get]) });
    const args = ['.', '-f', 'json', '-o', 'report.json', '-f', 'sarif', '-o', 'log.json'];
    const first = await runCli(['lint', ...args], { cwd: dir });
    const again = await runCli(['lint', ...args], { cwd: dir });
    expect([first.code, again.code]).toEqual([1, 1]);
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).summary.servers).toBe(2);
    const over = await runCli(['lint', '*.json', '-f', 'json', '-o', 'other.json'], { cwd: dir });
    expect(over).toMatchObject({ code: 2, stdout: '' });
    expect(over.stderr).toContain('-o other.json is also an input of this run');
    expect(JSON.parse(readFileSync(join(dir, 'other.json'), 'utf8')).tools).toHaveLength(1);
    // A later run without -o: the reports, a baseline and the rule list are still not dumps.
    // Named on their own, they say what they are.
    writeFileSync(join(dir, 'rules.json'), (await runCli(['rules', '-f', 'json'])).stdout);
    await runCli(['lint', 'd.json', '--baseline', 'mcp-annotate.baseline.json', '--update-baseline'], { cwd: dir });
    const plain = await runCli(['lint', '.', '-f', 'json'], { cwd: dir });
    expect([plain.code, plain.stderr, JSON.parse(plain.stdout).summary.servers]).toEqual([1, '', 2]);
    const named = await runCli(['lint', 'report.json', 'log.json', 'rules.json', 'mcp-annotate.baseline.json'], { cwd: dir });
    expect(named.code).toBe(2);
    expect(named.stderr).toBe(
      'log.json: this is a SARIF log, not a tools/list result; use the dump it reports on\n' +
        'mcp-annotate.baseline.json: this is an mcp-annotate baseline, not a tools/list result; give it with --baseline\n' +
        'report.json: this is a JSON report of mcp-annotate, not a tools/list result; use the dump it reports on\n' +
        "rules.json: this is mcp-annotate's rule list (rules -f json), not a tools/list result\n",
    );
    // Dumps that only look like those files are dumps: tools carrying id/severity/category/packs,
    // and a document with "version" and "entries" that also has "tools".
    const lookalike = tempDir({
      'a.json': JSON.stringify([{ id: 't1', severity: 'error', category: 'logging', packs: [], ...tool('set_log_level', { readOnlyHint: false, destructiveHint: false, openWorldHint: false }) }]),
      'b.json': JSON.stringify({ version: 1, entries: [], tools: [tool('list_rows', { readOnlyHint: true, openWorldHint: false })] }),
      'sub/.keep': '',
    });
    // A JSON config written by init, in a directory of its own (so not the run's config).
    expect((await runCli(['init', '--format', 'json'], { cwd: join(lookalike, 'sub') })).code).toBe(0);
    const scanned = await runCli(['lint', '--no-config', '.', '-f', 'json'], { cwd: lookalike });
    expect([scanned.stderr, JSON.parse(scanned.stdout).summary.tools]).toEqual(['', 2]);
    const config = await runCli(['lint', '--no-config', 'sub/mcp-annotate.config.json'], { cwd: lookalike });
    expect(config.stderr).toBe('sub/mcp-annotate.config.json: this is an mcp-annotate config file, not a tools/list result; give it with -c\n');
    const only = tempDir({ 'r.json': readFileSync(join(dir, 'report.json'), 'utf8') });
    const none = await runCli(['lint', '.'], { cwd: only });
    expect([none.code, none.stderr]).toEqual([2, ".: the directory holds no .json files to lint (only mcp-annotate reports, or the run's own baseline or config)\n"]);
  });
});

describe('a run stopped at the findings limit', () => {
  it('does not call entries of the server it stopped in or of later servers stale, and does not update the baseline', async () => {
    const named = (name: string, tools: unknown[]) => JSON.stringify({ serverInfo: { name }, tools }, null, 2) + '\n';
    const dir = tempDir({ 'a.json': named('first', [send, get]), 'b.json': named('mail', [send, del, get]), 'c.json': named('other', [send, del]) });
    const targets = ['a.json', 'b.json', 'c.json'];
    await runCli(['lint', ...targets, '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const saved = readFileSync(join(dir, 'baseline.json'), 'utf8');
    // Fix a finding of the first server: that entry is stale. Stop two findings into the second server.
    const fixedSend = tool('send_email', { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' } }, { _meta: { 'mcp.dev/requiresConfirmation': true } });
    writeFileSync(join(dir, 'a.json'), named('first', [fixedSend, get]));
    const firstCount = JSON.parse((await runCli(['lint', 'a.json', '-f', 'json'], { cwd: dir })).stdout).findings.length as number;
    const env = { MCP_ANNOTATE_MAX_FINDINGS: String(firstCount + 2) };
    const r = await runCli(['lint', ...targets, '--baseline', 'baseline.json', '--fail-on-stale'], { cwd: dir, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('b.json: stopped after');
    const stale = r.stderr.split('\n').filter((l) => l.includes('stale baseline entry'));
    expect(stale.length).toBeGreaterThan(0);
    expect(stale.every((l) => l.includes('of server "first"'))).toBe(true);
    const u = await runCli(['lint', ...targets, '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir, env });
    expect(u.code).toBe(2);
    expect(u.stderr).toContain('mcp-annotate: baseline baseline.json not updated: the run stopped at the findings limit, and the findings not reached would be missing from it\n');
    expect(u.stderr).not.toContain('could not be read');
    expect(readFileSync(join(dir, 'baseline.json'), 'utf8')).toBe(saved);
  });

  it('stopping in the checks across servers leaves every server unchecked', async () => {
    const { uncheckedServers } = await import('../src/baseline/apply.js');
    const servers = ['a', 'b', 'c'].map((name) => ({ id: `${name}.json`, name })) as unknown as Parameters<typeof uncheckedServers>[0];
    const at = { server: 'b', display: 'b.json', limit: 1 };
    expect([...uncheckedServers(servers, undefined)]).toEqual([]);
    expect([...uncheckedServers(servers, { ...at, serverId: 'b.json', serversAfter: 1 })]).toEqual(['b', 'c']);
    expect([...uncheckedServers(servers, { ...at, serverId: 'b.json', serversAfter: 0, acrossServers: true })]).toEqual(['a', 'b', 'c']);
  });
});

describe('bad baselines and flags', () => {
  it('a missing file, a broken file and flags without --baseline are exit 2 with one clear line each', async () => {
    const dir = tempDir({ 'd.json': dump([get]), 'bad.json': '{\n  "version": 1,\n  "entries": [\n    { "server": "mail", "rule": "no-tools", "pointer": "", "cuont": 1 }\n  ]\n}\n' });
    const missing = await runCli(['lint', 'd.json', '--baseline', 'nope.json'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('mcp-annotate: nope.json: no such baseline file; create it with --update-baseline\n');
    const bad = await runCli(['lint', 'd.json', '--baseline', 'bad.json'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      'mcp-annotate: bad.json:4:60: entries[0] has an unknown member "cuont"; did you mean "count"?\nmcp-annotate: bad.json:4:5: entries[0].count must be a positive integer\n',
    );
    // A count beyond the safe integers is refused (1e300 was accepted).
    writeFileSync(join(dir, 'huge.json'), '{\n  "version": 1,\n  "entries": [\n    { "server": "mail", "rule": "no-tools", "pointer": "", "count": 1e300 }\n  ]\n}\n');
    const huge = await runCli(['lint', 'd.json', '--baseline', 'huge.json'], { cwd: dir });
    expect(huge).toMatchObject({ code: 2, stderr: 'mcp-annotate: huge.json:4:69: entries[0].count must be at most 9007199254740991\n' });
    // A member whose name holds "/" or "~" is found where it is, not at its parent.
    writeFileSync(join(dir, 'slash.json'), '{\n  "version": 1,\n  "entries": [],\n  "a/b~c": 1\n}\n');
    expect((await runCli(['lint', 'd.json', '--baseline', 'slash.json'], { cwd: dir })).stderr).toBe('mcp-annotate: slash.json:4:3: unknown member "a/b~c" (a baseline has "version" and "entries")\n');
    const syntax = await runCli(['lint', 'd.json', '--baseline', 'd.json'], { cwd: dir });
    expect(syntax.stderr).toMatch(/^mcp-annotate: d\.json:1:1: "version" must be 1, got nothing/);
    const flag = await runCli(['lint', 'd.json', '--update-baseline'], { cwd: dir });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe('mcp-annotate: --update-baseline needs --baseline <file>: the file to write\n');
    expect((await runCli(['lint', 'd.json', '--fail-on-stale'], { cwd: dir })).stderr).toBe('mcp-annotate: --fail-on-stale needs --baseline <file>\n');
  });
});

describe('entries that cannot be what the file means', () => {
  const sent = tool('send_email', { readOnlyHint: true, inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' } });
  const entry = { server: 'mail', tool: 'send_email', rule: 'readonly-vs-outcome', pointer: '/annotations/inputMetadata/outcomes', detail: 'irreversible', count: 1 };
  const file = (entries: object[]) => JSON.stringify({ version: 1, entries }, null, 2) + '\n';

  it('the same key twice (a bad merge, a hand edit) is an error at the second entry, also with --update-baseline (which dropped a justification)', async () => {
    const dir = tempDir({ 'd.json': dump([sent]), 'baseline.json': file([{ ...entry, justification: 'A' }, { ...entry, justification: 'B' }]) });
    const before = readFileSync(join(dir, 'baseline.json'), 'utf8');
    const expected = 'mcp-annotate: baseline.json:13:5: entries[1] has the same key as entries[0] (server, tool, rule, pointer and detail); merge them into one entry, adding their counts and keeping one justification\n';
    for (const extra of [[], ['--update-baseline']]) {
      const r = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', ...extra], { cwd: dir });
      expect(r, extra.join(' ')).toMatchObject({ code: 2, stdout: '', stderr: expected });
    }
    expect(readFileSync(join(dir, 'baseline.json'), 'utf8')).toBe(before);
    // Another detail, or none (an entry of an earlier version), is another key.
    writeFileSync(join(dir, 'baseline.json'), file([entry, { ...entry, detail: 'consequential' }, { ...entry, detail: undefined }]));
    expect((await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json'], { cwd: dir })).stderr).not.toContain('the same key');
  });

  it('an empty file is one error with a position (not two without); --update-baseline writes it', async () => {
    for (const text of ['', '\n  \n', '// nothing yet\n', '\uFEFF\n']) {
      const dir = tempDir({ 'd.json': dump([sent]), 'baseline.json': text });
      const r = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json'], { cwd: dir });
      expect(r, JSON.stringify(text)).toMatchObject({ code: 2, stdout: '', stderr: 'mcp-annotate: baseline.json:1:1: the baseline is empty; write one with --update-baseline\n' });
      const w = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
      expect(w.code, JSON.stringify(text)).toBe(0);
      expect(read(dir).entries.length).toBeGreaterThan(0);
    }
  });

  it('a rule that is no rule is an error with a "did you mean"; policy/<name> and drift/* are rules; --update-baseline drops it and says so', async () => {
    const dir = tempDir({ 'd.json': dump([sent]), 'baseline.json': file([{ ...entry, rule: 'readonly-vs-outcom', justification: 'queued only' }]) });
    const r = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'mcp-annotate: baseline.json:7:15: entries[0].rule "readonly-vs-outcom" is not a rule of this version; did you mean "readonly-vs-outcome"? (mcp-annotate rules lists them; a policy\'s rule is "policy/<name>"; for a rule removed since the baseline was written, --update-baseline drops its entries)\n',
    );
    const w = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(w.code).toBe(0);
    expect(w.stderr).toContain(
      'mcp-annotate: baseline baseline.json: dropped the entry for readonly-vs-outcom ("irreversible") on tool "send_email" of server "mail" at "/annotations/inputMetadata/outcomes": "readonly-vs-outcom" is not a rule of this version; did you mean "readonly-vs-outcome"? (it covered nothing) (its justification was "queued only")\n',
    );
    expect(read(dir).entries.map((e) => e.rule)).toContain('readonly-vs-outcome');
    // Ids of policies (of whichever config) and of diff's rules are rules: such an entry is only stale.
    writeFileSync(join(dir, 'baseline.json'), file([{ ...entry, rule: 'policy/not-in-this-config' }, { ...entry, rule: 'drift/tool-added' }, { ...entry, rule: 'gone-rule-xyz' }]));
    const mixed = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json'], { cwd: dir });
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toBe(
      'mcp-annotate: baseline.json:23:15: entries[2].rule "gone-rule-xyz" is not a rule of this version (mcp-annotate rules lists them; a policy\'s rule is "policy/<name>"; for a rule removed since the baseline was written, --update-baseline drops its entries)\n',
    );
    writeFileSync(join(dir, 'baseline.json'), file([{ ...entry, rule: 'policy/not-in-this-config' }, { ...entry, rule: 'drift/tool-added' }]));
    const ok = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json'], { cwd: dir });
    expect(ok.code).toBe(1);
    expect(ok.stderr.match(/stale baseline entry: (policy\/not-in-this-config|drift\/tool-added) /g)).toHaveLength(2);
  });
});

describe('invalid UTF-8 in a baseline or a config file', () => {
  it('is an error at its line and column, as in a dump (it was decoded to U+FFFD: never matched, and rewritten)', async () => {
    const dir = tempDir({ 'd.json': dump([send]) });
    await runCli(['lint', 'd.json', '--no-config', '--baseline', 'b.json', '--update-baseline'], { cwd: dir });
    const text = readFileSync(join(dir, 'b.json'), 'utf8');
    // A Latin-1 "é" in a justification, on the line of the first entry's "server".
    const line = text.split('\n').findIndex((l) => l.includes('"server"')) + 1;
    const latin1 = Buffer.from(text.replace('"server": ', '"justification": "caf\u0000", "server": '), 'latin1');
    latin1[latin1.indexOf(0)] = 0xe9;
    writeFileSync(join(dir, 'b.json'), latin1);
    for (const args of [[], ['--update-baseline']]) {
      const r = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'b.json', ...args], { cwd: dir });
      expect([r.code, r.stderr], args.join(' ')).toEqual([2, `mcp-annotate: b.json:${line}:28: invalid UTF-8: a baseline is UTF-8 encoded JSON\n`]);
    }
    expect(readFileSync(join(dir, 'b.json'))).toEqual(latin1);
    writeFileSync(join(dir, 'c.yaml'), Buffer.from('rules:\n  # caf\u00e9\n  no-tools: off\n', 'latin1'));
    const config = await runCli(['lint', 'd.json', '-c', 'c.yaml'], { cwd: dir });
    expect([config.code, config.stderr]).toEqual([2, 'mcp-annotate: c.yaml:2:8: invalid UTF-8: a config file is UTF-8 encoded\n']);
    // A dump's invalid byte is placed exactly, even after a U+FFFD of its own.
    writeFileSync(join(dir, 'e.json'), Buffer.concat([Buffer.from('{"tools":[{"name":"\ufffd '), Buffer.from([0xe9]), Buffer.from('","inputSchema":{"type":"object"}}]}')]));
    expect((await runCli(['lint', 'e.json', '--no-config'], { cwd: dir })).stderr).toBe('e.json:1:22: invalid UTF-8: the file must be UTF-8 encoded JSON\n');
  });
});

describe('a UTF-8 BOM at the start of a baseline or a config file', () => {
  it('is not counted in positions, as in a dump: line 1 has the columns an editor shows', async () => {
    const dir = tempDir({ 'd.json': dump([send]) });
    const bom = '\ufeff';
    // Each file with and without a BOM: every problem on line 1, where the BOM was counted.
    const files: Record<string, string> = {
      'b.json': '{"version": 1, "entries": [{"server": 5, "rule": "x", "pointer": "", "count": 1}]}\n',
      'c.json': '{"rules": {"nope": "error"}}\n',
      'c.yaml': 'rules: { nope: error }\n',
      's.json': '{"rules": {"a": 1},,}\n',
      's.yaml': 'rules: a: b\n',
    };
    const lines = async (args: string[]) => (await runCli(['lint', 'd.json', ...args], { cwd: dir })).stderr;
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(join(dir, name), text);
      writeFileSync(join(dir, `bom-${name}`), bom + text);
      const args = (f: string) => (name.startsWith('b') ? ['--no-config', '--baseline', f] : ['-c', f]);
      const plain = await lines(args(name));
      expect(plain, name).toMatch(new RegExp(`${name.replace('.', '\\.')}:1:\\d+: `));
      expect(await lines(args(`bom-${name}`)), name).toBe(plain.replaceAll(`${name}:`, `bom-${name}:`));
    }
    // Invalid UTF-8 on line 1 too, in a config and in a dump.
    writeFileSync(join(dir, 'u.json'), Buffer.from('{"a": "\u00e9"}', 'latin1'));
    writeFileSync(join(dir, 'bom-u.json'), Buffer.concat([Buffer.from(bom), Buffer.from('{"a": "\u00e9"}', 'latin1')]));
    expect(await lines(['-c', 'bom-u.json'])).toBe('mcp-annotate: bom-u.json:1:8: invalid UTF-8: a config file is UTF-8 encoded\n');
    expect((await runCli(['lint', 'u.json', 'bom-u.json', '--no-config'], { cwd: dir })).stderr).toBe(
      'bom-u.json:1:8: invalid UTF-8: the file must be UTF-8 encoded JSON\nu.json:1:8: invalid UTF-8: the file must be UTF-8 encoded JSON\n',
    );
  });
});

describe('fingerprints', () => {
  // canonical() as it was written first (recursive): fingerprints in committed baselines are made of its bytes.
  const recursive = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(recursive).join(',')}]`;
    if (value !== null && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      return `{${Object.keys(o)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${recursive(o[k])}`)
        .join(',')}}`;
    }
    return JSON.stringify(value) ?? 'undefined';
  };

  it('canonical JSON is byte for byte what it always was, for any JSON value (and undefined members)', () => {
    const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', '0', '10', '2', 'é', '\u{1F600}'));
    const value = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), fc.constant(undefined), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(key, tie('value'), { maxKeys: 5 })),
    })).value;
    assertProperty(
      fc.property(value, (v) => {
        expect(canonical(v)).toBe(recursive(v));
      }),
      { numRuns: 500 },
    );
  });

  it('valueKey is canonical for any value without ±Infinity, and tells ±Infinity (a server\'s 1e400) from null', () => {
    const value = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), fc.double(), fc.constant(-0), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 })),
    })).value;
    const hasInfinity = (v: unknown): boolean => v === Infinity || v === -Infinity || (v !== null && typeof v === 'object' && Object.values(v).some(hasInfinity));
    assertProperty(
      fc.property(value, (v) => {
        if (!hasInfinity(v)) expect(valueKey(v)).toBe(canonical(v));
        // Equal keys only for values that read back the same: Infinity is no null, -0 is 0.
        expect(valueKey(v) === valueKey(JSON.parse(JSON.stringify(v)))).toBe(!hasInfinity(v));
      }),
      { numRuns: 300 },
    );
    expect(valueKey([Infinity, null, -Infinity, -0])).toBe('[1e400,null,-1e400,0]');
    expect(canonical([Infinity, null])).toBe('[null,null]');
  });

  it('a tool nested 100,000 levels deep gets a fingerprint, and --update-baseline and --baseline work with it', async () => {
    const depth = 100_000;
    const deepTool = `{"name":"deep","inputSchema":{"type":"object","properties":{"x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}},"annotations":{"readOnlyHint":true}}`;
    const [server] = loadText(`{"tools":[${deepTool}]}`, { kind: 'file', path: 'deep.json', display: 'deep.json' }, 'deep', 'deep.json');
    expect(toolFingerprint(server!.tools[0]!.value as Record<string, unknown>)).toMatch(/^[0-9a-f]+$/);
    const dir = tempDir({ 'deep.json': `{"tools":[${deepTool}]}` });
    const update = await runCli(['lint', 'deep.json', '--baseline', 'b.json', '--update-baseline'], { cwd: dir });
    expect(update.stderr).toMatch(/^mcp-annotate: wrote baseline b\.json: \d+ entries/);
    const again = await runCli(['lint', 'deep.json', '--baseline', 'b.json', '-f', 'json'], { cwd: dir });
    expect(JSON.parse(again.stdout).findings).toEqual([]);
  });
});

describe('the README', () => {
  it('the baseline entry it shows is the one --update-baseline writes for the bundled example', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Baseline'), readme.indexOf('## Output formats'));
    const shown = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!) as { version: number; entries: BaselineEntry[] };
    const dir = tempDir({ 'example-server.json': readFileSync(new URL('../fixtures/example-server.json', import.meta.url), 'utf8') });
    await runCli(['lint', 'example-server.json', '--baseline', 'b.json', '--update-baseline'], { cwd: dir });
    const { justification, ...entry } = shown.entries[0]!;
    expect(justification).toBeTruthy();
    expect(read(dir, 'b.json').entries).toContainEqual(entry);
  });
});

/**
 * A finding's identity (baseline key, SARIF fingerprint) is built from content: members of a set
 * by their values, a missing member by its own pointer, a conflict by the member in conflict, a
 * schema problem by what is missing. Each case below was a way the key followed a position or
 * missed a change.
 */
describe('finding identity from content', () => {
  const server = (tools: unknown[], extra: Record<string, unknown> = {}) => JSON.stringify({ ...extra, serverInfo: { name: 's' }, tools }) + '\n';
  const exportRows = (destination: unknown) =>
    tool('export_rows', { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination } });
  const fingerprints = async (dir: string, file = 'd.json', args: string[] = []) => {
    const r = await runCli(['lint', file, '--no-config', '-f', 'sarif', ...args], { cwd: dir });
    expect(validateSarif(JSON.parse(r.stdout)), JSON.stringify(validateSarif.errors)).toBe(true);
    return (JSON.parse(r.stdout).runs[0].results as { ruleId: string; message: { text: string }; partialFingerprints: Record<string, string> }[]).map((x) => ({
      rule: x.ruleId,
      text: x.message.text,
      fp: x.partialFingerprints['mcpAnnotate/v1']!,
    }));
  };
  const accept = async (dir: string, justify: (e: BaselineEntry) => string | undefined = () => undefined) => {
    const w = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(w.code).toBe(0);
    const b = read(dir);
    for (const e of b.entries) {
      const j = justify(e);
      if (j !== undefined) e.justification = j;
    }
    writeFileSync(join(dir, 'baseline.json'), json(b));
    return b;
  };
  const check = (dir: string, extra: string[] = []) => runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', '--fail-on-stale', ...extra], { cwd: dir });

  it('reordering a possible set changes no key: the baseline still covers, justifications stay, fingerprints stay', async () => {
    const dir = tempDir({ 'd.json': server([exportRows(['internal', 'partner'])]) });
    const before = await fingerprints(dir);
    const b = await accept(dir, (e) => (e.pointer.includes('destination') ? 'partner is our own tier' : undefined));
    expect(b.entries.map((e) => e.pointer)).toContain('/annotations/inputMetadata/destination/~="partner"');
    writeFileSync(join(dir, 'd.json'), server([exportRows(['partner', 'internal'])]));
    const r = await check(dir);
    expect(r.stdout).toBe('✔ no problems in 1 server, 1 tool\n');
    expect(r.stderr).not.toContain('stale');
    expect(r.code).toBe(0);
    // The alert for "partner" keeps its fingerprint though "partner" moved to [0].
    const after = await fingerprints(dir);
    expect(after.map((x) => x.fp).sort()).toEqual(before.map((x) => x.fp).sort());
    await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    const kept = read(dir).entries.find((e) => e.pointer.includes('destination'))!;
    expect(kept.justification).toBe('partner is our own tier');
    // Only the position the message quotes moved: the message line stays as it was.
    expect(kept.message).toContain('destination[1]');
  });

  it('reordering a draft spelling in a set changes no key (draft-field)', async () => {
    const dir = tempDir({ 'd.json': server([exportRows(['internal', 'Public'])]) });
    const b = await accept(dir);
    expect(b.entries.some((e) => e.rule === 'draft-field' && e.pointer.endsWith('/~="Public"'))).toBe(true);
    writeFileSync(join(dir, 'd.json'), server([exportRows(['Public', 'internal'])]));
    const r = await check(dir);
    expect(r.stdout).toBe('✔ no problems in 1 server, 1 tool\n');
    expect(r.code).toBe(0);
  });

  it('a reordered `required` keeps each entry on its own name: fixing "b" makes b\'s entry stale, not zz\'s', async () => {
    const lookup = (required: string[], properties: Record<string, unknown>) =>
      tool('lookup', { readOnlyHint: true, openWorldHint: false }, { inputSchema: { type: 'object', properties, required } });
    const dir = tempDir({ 'd.json': server([lookup(['a', 'zz', 'b'], { a: { type: 'string' } })]) });
    await accept(dir, (e) => (e.pointer.endsWith('"zz"') ? 'zz is documented elsewhere' : undefined));
    writeFileSync(join(dir, 'd.json'), server([lookup(['b', 'a', 'zz'], { a: { type: 'string' }, b: { type: 'string' } })]));
    const r = await check(dir);
    expect(r.stdout).toBe('✖ no problems in 1 server, 1 tool; 1 stale baseline entry fails the run (--fail-on-stale)\n');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/stale baseline entry: input-schema-valid on tool "lookup" of server "s" at "\/inputSchema\/required\/~=\\"b\\"" no longer occurs/);
    expect(r.stderr).not.toContain('zz');
    await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', '--update-baseline'], { cwd: dir });
    expect(read(dir).entries).toEqual([expect.objectContaining({ pointer: '/inputSchema/required/~="zz"', justification: 'zz is documented elsewhere' })]);
  });

  it('adding an unrelated annotations member does not move the missing-hint findings', async () => {
    const sendReport = (extra: Record<string, unknown>) => ({ name: 'send_report', description: 'Emails a report.', inputSchema: { type: 'object' }, ...extra });
    const dir = tempDir({ 'd.json': server([sendReport({})]) });
    const before = await fingerprints(dir);
    const b = await accept(dir);
    expect(b.entries.map((e) => [e.rule, e.pointer])).toEqual([
      ['implicit-destructive', '/annotations/destructiveHint'],
      ['implicit-open-world', '/annotations/openWorldHint'],
      ['missing-readonly-hint', '/annotations/readOnlyHint'],
    ]);
    writeFileSync(join(dir, 'd.json'), server([sendReport({ annotations: { title: 'Send report' } })]));
    const r = await check(dir);
    expect(r.stdout).toBe('✔ no problems in 1 server, 1 tool\n');
    expect(r.stderr).not.toContain('stale');
    expect(r.code).toBe(0);
    const after = await fingerprints(dir);
    expect(after.map((x) => x.rule)).toEqual(before.map((x) => x.rule));
    expect(after.map((x) => x.fp)).toEqual(before.map((x) => x.fp));
  });

  it('a conflict about another member at the same place is a new finding (readonly-vs-outcome, readonly-vs-destination)', async () => {
    const audit = (destination: string, outcomes: string[]) =>
      tool('read_audit', { readOnlyHint: true, openWorldHint: false, inputMetadata: { destination, sensitivity: 'none', outcomes } });
    const dir = tempDir({ 'd.json': server([audit('internal', ['benign', 'consequential'])]) });
    const before = await fingerprints(dir);
    const b = await accept(dir);
    expect(b.entries.map((e) => [e.rule, e.detail])).toEqual([
      ['readonly-vs-destination', 'internal'],
      ['readonly-vs-outcome', 'consequential'],
    ]);
    writeFileSync(join(dir, 'd.json'), server([audit('internal', ['benign', 'irreversible'])]));
    const worse = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', '-f', 'json'], { cwd: dir });
    expect(worse.code).toBe(1);
    expect(JSON.parse(worse.stdout).findings.map((f: { ruleId: string; message: string }) => [f.ruleId, f.message.includes('"irreversible"')])).toEqual([['readonly-vs-outcome', true]]);
    expect(worse.stderr).toContain('stale baseline entry: readonly-vs-outcome ("consequential") on tool "read_audit"');
    const outcomeFp = (list: { rule: string; fp: string }[]) => list.find((x) => x.rule === 'readonly-vs-outcome')!.fp;
    expect(outcomeFp(await fingerprints(dir))).not.toBe(outcomeFp(before));

    writeFileSync(join(dir, 'd.json'), server([audit('public', ['benign', 'consequential'])]));
    const pub = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'baseline.json', '-f', 'json', '--fail-on', 'warning'], { cwd: dir });
    expect(pub.code).toBe(1);
    const rules = JSON.parse(pub.stdout).findings.map((f: { ruleId: string }) => f.ruleId);
    expect(rules).toContain('readonly-vs-destination');
    expect(rules).not.toContain('readonly-vs-outcome');
  });

  it('SARIF: fixing one of several problems at one place closes its own alert (schema-valid, envelope and inputMetadata)', async () => {
    const list = { name: 'list_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } };
    const dir = tempDir({ 'd.json': server([list], { protocolVersion: '2026-07-28' }) });
    const before = await fingerprints(dir);
    expect(before).toHaveLength(3);
    writeFileSync(join(dir, 'd.json'), server([list], { protocolVersion: '2026-07-28', cacheScope: 'public' }));
    const after = await fingerprints(dir);
    expect(after).toHaveLength(2);
    const byMember = (xs: { text: string; fp: string }[]) => new Map(xs.map((x) => [/"(\w+)"/.exec(x.text)![1], x.fp]));
    const b = byMember(before);
    const a = byMember(after);
    expect([...a.keys()]).toEqual(['resultType', 'ttlMs']);
    expect(a.get('resultType')).toBe(b.get('resultType'));
    expect(a.get('ttlMs')).toBe(b.get('ttlMs'));

    const rows = (inputMetadata: Record<string, unknown>) => tool('export_rows', { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata });
    writeFileSync(join(dir, 'd.json'), server([rows({ destination: 'internal' })]));
    const two = byMember(await fingerprints(dir));
    writeFileSync(join(dir, 'd.json'), server([rows({ destination: 'internal', sensitivity: 'none' })]));
    const one = byMember(await fingerprints(dir));
    expect([...one.keys()]).toEqual(['outcomes']);
    expect(one.get('outcomes')).toBe(two.get('outcomes'));
  });

  it('a policy note that now lists more tools is reported as new, and its entry says so rather than "no longer occurs"', async () => {
    const post = (name: string) => tool(name, { readOnlyHint: false, destructiveHint: false, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'consequential' } });
    const config = json({
      policies: [
        {
          name: 'block-open-world-to-external',
          effect: 'block',
          conditions: { and: [{ fact: 'request.annotations.openWorldHint', equals: true }, { fact: 'tool.annotations.inputMetadata.destination', equals: 'public' }] },
        },
      ],
    });
    const dir = tempDir({ 'd.json': server([post('post')]), 'mcp-annotate.config.json': config });
    const args = ['lint', 'd.json', '-c', 'mcp-annotate.config.json', '--baseline', 'baseline.json'];
    expect((await runCli([...args, '--update-baseline'], { cwd: dir })).code).toBe(0);
    const b = read(dir);
    b.entries[0]!.justification = 'posting is the point';
    writeFileSync(join(dir, 'baseline.json'), json(b));
    writeFileSync(join(dir, 'd.json'), server([post('post'), post('tweet')]));
    const r = await runCli([...args, '--fail-on-stale'], { cwd: dir });
    expect(r.stdout).toContain('cannot be decided from the declarations of 2 tools "post", "tweet"');
    expect(r.stderr).not.toContain('no longer occurs');
    expect(r.stderr).toMatch(/stale baseline entry: policy\/block-open-world-to-external \(tool "post"\) on server "s" at "\/tools" still occurs, but now about 2 tools "post", "tweet", so it is reported as new; run with --update-baseline to accept it/);
    expect(r.code).toBe(1);
    await runCli([...args, '--update-baseline'], { cwd: dir });
    expect(read(dir).entries).toEqual([expect.objectContaining({ detail: '["post","tweet"]', justification: 'posting is the point' })]);
    // Fewer tools than the entry lists are still covered, as before.
    writeFileSync(join(dir, 'd.json'), server([post('tweet')]));
    const fewer = await runCli([...args], { cwd: dir });
    expect(fewer.stdout).toBe('✔ no problems in 1 server, 1 tool\n');
  });

  it('a baseline written by 0.1.0 (positions, no details) still covers every finding, and --update-baseline rewrites it keeping justifications', async () => {
    const fixture = join(ROOT, 'test', 'fixtures', 'baseline-0.1.0');
    const old = readFileSync(join(fixture, 'baseline.json'), 'utf8');
    const dir = tempDir({ 'server.json': readFileSync(join(fixture, 'server.json'), 'utf8'), 'baseline.json': old });
    const args = ['lint', 'server.json', '--no-config', '--baseline', 'baseline.json'];
    const r = await runCli([...args, '--fail-on-stale'], { cwd: dir });
    expect(r.stdout).toBe('✔ no problems in 1 server, 5 tools\n');
    expect(r.stderr).toBe('mcp-annotate: baseline baseline.json: 16 known findings not reported\n');
    expect(r.code).toBe(0);
    expect((await runCli([...args, '--update-baseline'], { cwd: dir })).code).toBe(0);
    const now = read(dir).entries;
    const justified = Object.fromEntries(now.filter((e) => e.justification !== undefined).map((e) => [`${e.tool ?? ''} ${e.rule} ${e.pointer} ${e.detail ?? ''}`, e.justification]));
    expect(justified).toEqual({
      ' schema-valid  missing cacheScope': 'the cache fields come with the 2026 upgrade',
      ' schema-valid  missing resultType': 'the cache fields come with the 2026 upgrade',
      ' schema-valid  missing ttlMs': 'the cache fields come with the 2026 upgrade',
      'export_rows schema-valid /annotations/inputMetadata/destination/~="partner" ': 'partner is our own tier',
      'lookup input-schema-valid /inputSchema/required/~="b" ': 'b is documented elsewhere',
      'read_audit readonly-vs-outcome /annotations/inputMetadata/outcomes consequential': 'the audit log write is accepted',
      'send_report implicit-destructive /annotations/destructiveHint ': 'annotated next quarter',
    });
    expect(now.some((e) => /\/\d+$/.test(e.pointer) || e.pointer === '/annotations')).toBe(false);
    const again = await runCli([...args, '--fail-on-stale'], { cwd: dir });
    expect(again.stderr).toBe('mcp-annotate: baseline baseline.json: 16 known findings not reported\n');
    expect(again.code).toBe(0);
  });

  it('reordering the servers of one file, or the files of a run, moves no cross-server-name-collision: same baseline entry, same SARIF fingerprint', async () => {
    const search = { name: 'search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } };
    const one = { serverInfo: { name: 'one' }, tools: [search] };
    const two = { serverInfo: { name: 'two' }, tools: [search] };
    const dir = tempDir({ 'd.json': JSON.stringify({ servers: [one, two] }) + '\n' });
    const b = await accept(dir);
    expect(b.entries.filter((e) => e.rule === 'cross-server-name-collision')).toEqual([expect.objectContaining({ server: 'two', tool: 'search', pointer: '/name', count: 1 })]);
    const fp = (await fingerprints(dir)).filter((x) => x.rule === 'cross-server-name-collision');
    expect(fp).toHaveLength(1);
    writeFileSync(join(dir, 'd.json'), JSON.stringify({ servers: [two, one] }) + '\n');
    const r = await check(dir);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '✔ no problems in 2 servers, 2 tools\n', 'mcp-annotate: baseline baseline.json: 1 known finding not reported\n']);
    expect((await fingerprints(dir)).filter((x) => x.rule === 'cross-server-name-collision').map((x) => x.fp)).toEqual(fp.map((x) => x.fp));
    // Two files on the command line, in either order (and whichever file sorts first).
    const files = tempDir({ 'a.json': JSON.stringify(two) + '\n', 'b.json': JSON.stringify(one) + '\n' });
    const sarifOf = async (args: string[]) => {
      const s = await runCli(['lint', ...args, '--no-config', '-f', 'sarif'], { cwd: files });
      return (JSON.parse(s.stdout).runs[0].results as { ruleId: string; partialFingerprints: Record<string, string>; locations: { logicalLocations: { name: string }[] }[] }[])
        .filter((x) => x.ruleId === 'cross-server-name-collision')
        .map((x) => [x.locations[0]!.logicalLocations[1]!.name, x.partialFingerprints['mcpAnnotate/v1']]);
    };
    const ab = await sarifOf(['a.json', 'b.json']);
    expect(ab).toEqual([['two', fp[0]!.fp]]);
    expect(await sarifOf(['b.json', 'a.json'])).toEqual(ab);
  });

  it('reordering tools (or the keys of a _meta) moves no meta-key-format forward-prefix note: same entry, same fingerprint', async () => {
    const t = (name: string, meta: Record<string, unknown>) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false }, _meta: meta });
    const alpha = t('alpha', { 'mcp.dev/foo': 1 });
    const beta = t('beta', { 'mcp.dev/foo': 2, 'mcp.dev/bar': 3 });
    const dir = tempDir({ 'd.json': server([alpha, beta]) });
    const b = await accept(dir);
    expect(b.entries.filter((e) => e.rule === 'meta-key-format')).toEqual([expect.objectContaining({ tool: 'alpha', pointer: '/_meta/mcp.dev~1foo', count: 1 })]);
    const fp = (await fingerprints(dir)).filter((x) => x.rule === 'meta-key-format');
    expect(fp).toHaveLength(1);
    const betaFirst = t('beta', { 'mcp.dev/bar': 3, 'mcp.dev/foo': 2 });
    writeFileSync(join(dir, 'd.json'), server([betaFirst, alpha]));
    const r = await check(dir);
    expect([r.code, r.stdout, r.stderr]).toEqual([0, '✔ no problems in 1 server, 2 tools\n', 'mcp-annotate: baseline baseline.json: 1 known finding not reported\n']);
    expect((await fingerprints(dir)).filter((x) => x.rule === 'meta-key-format')).toEqual(fp);
    // Without alpha, the note is on beta's key that sorts first (mcp.dev/bar), whatever the order of its _meta.
    writeFileSync(join(dir, 'd.json'), server([beta]));
    const on = (await fingerprints(dir)).filter((x) => x.rule === 'meta-key-format');
    writeFileSync(join(dir, 'd.json'), server([betaFirst]));
    expect((await fingerprints(dir)).filter((x) => x.rule === 'meta-key-format')).toEqual(on);
    expect(on.map((x) => x.text)).toEqual([expect.stringContaining('"mcp.dev/bar"')]);
  });

  it('the shuffled consistent-server fixture keeps every key', async () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'fixtures', 'consistent-server.json'), 'utf8')) as { tools: unknown[] };
    const dir = tempDir({ 'd.json': JSON.stringify(doc) + '\n' });
    await accept(dir);
    const before = await fingerprints(dir);
    writeFileSync(join(dir, 'd.json'), JSON.stringify({ ...doc, tools: [...doc.tools].reverse() }) + '\n');
    const r = await check(dir);
    expect([r.code, r.stdout]).toEqual([0, `✔ no problems in 1 server, ${doc.tools.length} tools\n`]);
    expect((await fingerprints(dir)).map((x) => x.fp).sort()).toEqual(before.map((x) => x.fp).sort());
  });

  it('a 0.1.0 entry keyed by an index covers nothing once its tool changed: another value now at that index is new, not silenced', async () => {
    const fixture = join(ROOT, 'test', 'fixtures', 'baseline-0.1.0');
    const changed = readFileSync(join(fixture, 'server.json'), 'utf8').replace('"destination": ["internal", "partner"]', '"destination": ["partner", "evil", "internal", "user"]');
    expect(changed).toContain('"evil"');
    const dir = tempDir({ 'server.json': changed, 'baseline.json': readFileSync(join(fixture, 'baseline.json'), 'utf8') });
    const args = ['lint', 'server.json', '--no-config', '--baseline', 'baseline.json'];
    const r = await runCli([...args, '--fail-on-stale', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const findings = JSON.parse(r.stdout).findings as { ruleId: string; tool: string; pointer: string; message: string }[];
    expect(findings.map((f) => `${f.ruleId} ${f.tool} ${f.pointer}`)).toEqual([
      'schema-valid export_rows /tools/0/annotations/inputMetadata/destination/0',
      'schema-valid export_rows /tools/0/annotations/inputMetadata/destination/1',
    ]);
    expect(findings[1]!.message).toContain('"evil"');
    expect(r.stderr).toContain('stale baseline entry: schema-valid on tool "export_rows" of server "legacy" at "/annotations/inputMetadata/destination/1" no longer occurs');
    // SARIF: both are results (an alert each), not suppressed by the baseline.
    const sarif = JSON.parse((await runCli([...args, '-f', 'sarif'], { cwd: dir })).stdout);
    expect(validateSarif(sarif), JSON.stringify(validateSarif.errors)).toBe(true);
    expect((sarif.runs[0].results as { ruleId: string; message: { text: string } }[]).filter((x) => x.ruleId === 'schema-valid').map((x) => /is "(\w+)"/.exec(x.message.text)![1])).toEqual(['partner', 'evil']);
    // --update-baseline gives neither value the old entry's justification (it was about the tool as it was).
    expect((await runCli([...args, '--update-baseline'], { cwd: dir })).code).toBe(0);
    const rows = read(dir).entries.filter((e) => e.tool === 'export_rows' && e.pointer.startsWith('/annotations/inputMetadata/destination/'));
    expect(rows.map((e) => [e.pointer, e.justification])).toEqual([
      ['/annotations/inputMetadata/destination/~="evil"', undefined],
      ['/annotations/inputMetadata/destination/~="partner"', undefined],
    ]);
  });

  it('property: reordering any possible set or `required` changes no finding key', () => {
    const keysOf = (doc: unknown) => {
      const inputs = loadText(JSON.stringify(doc), { kind: 'file', path: 'a', display: 'a' }, 's', 'a');
      return lint(inputs, RULES)
        .findings.map((f) => [f.tool, f.ruleId, f.keyPointer ?? f.toolPointer, f.detail ?? ''].join(' '))
        .sort();
    };
    const subset = <T>(values: readonly T[]) => fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: values.length });
    const destination = subset(['ephemeral', 'system', 'user', 'internal', 'public', 'partner', 'Public']);
    const outcomes = subset(['benign', 'consequential', 'irreversible', 'fatal']);
    const sensitivity = subset(['none', 'user', 'pii', 'financial', 'credentials', 'PII']);
    const required = subset(['a', 'b', 'zz', 'q']);
    const permute = <T>(xs: T[]) => fc.shuffledSubarray(xs, { minLength: xs.length, maxLength: xs.length });
    assertProperty(
      fc.property(
        fc.record({ destination, outcomes, sensitivity, required, readOnly: fc.boolean(), openWorld: fc.boolean() }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (t, seed) => {
          const doc = (d: string[], o: string[], s: string[], r: string[]) => ({
            serverInfo: { name: 's' },
            tools: [
              {
                name: 't',
                inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: r },
                annotations: { readOnlyHint: t.readOnly, openWorldHint: t.openWorld, inputMetadata: { destination: d, outcomes: o, sensitivity: s } },
              },
            ],
          });
          const shuffle = (xs: string[]) => fc.sample(permute(xs), { numRuns: 1, seed })[0]!;
          expect(keysOf(doc(shuffle(t.destination), shuffle(t.outcomes), shuffle(t.sensitivity), shuffle(t.required)))).toEqual(
            keysOf(doc(t.destination, t.outcomes, t.sensitivity, t.required)),
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
