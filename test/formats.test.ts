/**
 * The github and markdown formats: workflow commands parsed back the way the Actions runner
 * parses them (escaping round-trips, nothing injected, annotation limits), markdown rendered
 * with a CommonMark/GFM renderer (hostile server strings stay inert text, tables stay whole,
 * the size budget holds), and several formats written in one run.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { RULES } from '../rules/index.js';
import { escapeData, escapeProperty, formatGithub, GITHUB_ANNOTATIONS_PER_LEVEL } from '../src/reporters/github.js';
import { escapeMarkdown, formatMarkdown, MARKDOWN_MAX_BYTES, markdownListsAll } from '../src/reporters/markdown.js';
import { formatText } from '../src/reporters/text.js';
import { failureClauses, type Report } from '../src/reporters/types.js';
import type { Finding, Severity } from '../src/types.js';
import { ROOT, json, runCliInProcess as runCli, tempDir, tool } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess
import { reportForText } from './helpers/lint.js';
import { assertProperty } from './helpers/property.js';

/** A workflow command as the runner reads it (ActionCommand.TryParseV2): ::name k=v,k=v::data, unescaped. */
function parseCommand(line: string): { command: string; properties: Record<string, string>; data: string } | undefined {
  const m = /^::([A-Za-z-]+)(?: ([^:]*))?::(.*)$/.exec(line);
  if (!m) return undefined;
  const unData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const unProp = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
  const properties: Record<string, string> = {};
  for (const pair of (m[2] ?? '').split(',').filter(Boolean)) {
    const i = pair.indexOf('=');
    properties[pair.slice(0, i)] = unProp(pair.slice(i + 1));
  }
  return { command: m[1]!, properties, data: unData(m[3]!) };
}

const commands = (text: string) => text.split('\n').filter((l) => l.startsWith('::')).map((l) => parseCommand(l)!);

const mail = json({
  serverInfo: { name: 'mail' },
  tools: [tool('send_email', { readOnlyHint: true, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'irreversible' } })],
});

/** A report of synthetic findings: n of each severity, for limits and budgets. */
function synthetic(counts: Partial<Record<Severity, number>>, message = (i: number) => `finding number ${i}`): Report {
  const findings: Finding[] = [];
  let i = 0;
  for (const severity of ['error', 'warning', 'note'] as const) {
    for (let k = 0; k < (counts[severity] ?? 0); k++, i++) {
      findings.push({
        ruleId: 'readonly-vs-outcome',
        severity,
        message: message(i),
        suggestion: 'do the right thing',
        serverId: 's.json',
        server: 'srv',
        tool: `tool_${i}`,
        toolIndex: i,
        pointer: `/tools/${i}`,
        toolPointer: '',
        file: 's.json',
        region: { line: i + 1, column: 3, endLine: i + 1, endColumn: 9 },
      });
    }
  }
  return { findings, servers: [{ id: 's.json', name: 'srv', origin: { kind: 'file', path: 's.json', display: 's.json' }, tools: i, spec: '2025-11-25' }], errors: [], rules: RULES, cwd: ROOT };
}

describe('github format', () => {
  it('escapes data and properties as the runner expects', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
    expect(escapeProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
    // A file name's terminal escapes and bidi controls are not written raw into the log.
    expect(escapeProperty('esc\u001b[2J\u001b]0;t\u0007\u202e.json')).toBe('esc\\u{1B}[2J\\u{1B}]0;t\\u{7}\\u{202E}.json');
  });

  it('writes one command per finding with a repo-relative file, region and the rule as title', () => {
    const out = formatGithub(reportForText(mail, 'dumps/mail.json', ROOT), { color: false, quiet: false });
    const parsed = commands(out);
    const error = parsed.find((c) => c.properties.title === 'readonly-vs-outcome')!;
    expect(error.command).toBe('error');
    expect(error.properties.file).toBe('dumps/mail.json');
    expect(Number(error.properties.line)).toBeGreaterThan(1);
    expect(Number(error.properties.col)).toBeGreaterThan(0);
    expect(error.properties.endLine).toBe(error.properties.line);
    expect(Number(error.properties.endColumn)).toBeGreaterThan(Number(error.properties.col));
    expect(error.data).toMatch(/^mail › send_email: readOnlyHint is true .* includes "irreversible"/);
    expect(error.data).toContain('\nFix: set readOnlyHint to false');
    expect(parsed.map((c) => c.command)).toEqual([...parsed.map((c) => c.command)].sort((a, b) => ['error', 'warning', 'notice'].indexOf(a) - ['error', 'warning', 'notice'].indexOf(b)));
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/^mcp-annotate: \d+ problems \(1 error, \d+ warnings, \d+ notes?\) in 1 server, 1 tool$/);
  });

  it('gives no file= for a name the runner cannot carry (control, bidi characters): the location starts the message instead', () => {
    // The runner decodes only %25 %0D %0A %3A %2C in a property: shown as \u{1B}, the name was of a file that does not exist.
    const odd = formatGithub(reportForText(mail, 'fn/a\u001b[31mred\u202e.json', ROOT), { color: false, quiet: false });
    const error = commands(odd).find((c) => c.properties.title === 'readonly-vs-outcome')!;
    expect(error.properties.file).toBeUndefined();
    expect(error.properties.line).toBeUndefined();
    expect(error.data).toMatch(/^fn\/a\\u\{1B\}\[31mred\\u\{202E\}\.json:\d+:\d+: mail › send_email: readOnlyHint is true/);
    expect(odd).not.toMatch(/[\u001b\u202e]/);
    // A name that is not valid UTF-8 is shown with U+FFFD, which no file's name has.
    const lossy = formatGithub(reportForText(mail, 'fn/h\uFFFDi.json', ROOT), { color: false, quiet: false });
    expect(commands(lossy).find((c) => c.properties.title === 'readonly-vs-outcome')!.properties.file).toBeUndefined();
    // What the runner decodes is still a property: ":" and "," are escaped, not a reason to leave the file out.
    const colon = formatGithub(reportForText(mail, 'fn/b,c:d.json', ROOT), { color: false, quiet: false });
    expect(commands(colon).find((c) => c.properties.title === 'readonly-vs-outcome')!.properties.file).toBe('fn/b,c:d.json');
  });

  it('makes file paths relative to the repository root, not the working directory', () => {
    const dir = tempDir({ 'pkg/dumps/mail.json': mail });
    mkdirSync(join(dir, '.git'));
    const out = formatGithub(reportForText(mail, 'dumps/mail.json', join(dir, 'pkg')), { color: false, quiet: false });
    expect(commands(out)[0]!.properties.file).toBe('pkg/dumps/mail.json');
  });

  it('gives findings without a file no file property, and multi-line ranges no columns', () => {
    const r = synthetic({ error: 2 });
    delete r.findings[0]!.file;
    r.findings[1]!.region = { line: 3, column: 5, endLine: 7, endColumn: 2 };
    const [a, b] = commands(formatGithub(r, { color: false, quiet: false }));
    expect(a!.properties).toEqual({ title: 'readonly-vs-outcome' });
    expect(b!.properties).toEqual({ file: 's.json', line: '3', endLine: '7', title: 'readonly-vs-outcome' });
  });

  it('keeps hostile server strings inside one command: no new line, no injected command', () => {
    const hostile = 'x\n::error file=evil.js::pwned\r\n::add-mask::secret%0A,title=y:z';
    const r = synthetic({ warning: 1 });
    r.findings[0]!.tool = hostile;
    r.findings[0]!.server = `srv,${hostile}`;
    r.findings[0]!.ruleId = 'policy/a,b:c';
    const out = formatGithub(r, { color: false, quiet: false });
    const lines = out.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.filter((l) => l.startsWith('::'))).toHaveLength(1);
    const c = parseCommand(lines[0]!)!;
    expect(c.command).toBe('warning');
    expect(c.properties.title).toBe('policy/a,b:c');
    expect(c.properties.file).toBe('s.json');
    // Newlines from the server are shown as \n; only the reporter's own "Fix:" line break remains.
    expect(c.data).toContain('x\\n::error file=evil.js::pwned\\n::add-mask::secret%0A,title=y:z');
    expect(c.data.split('\n')).toHaveLength(2);
  });

  it(`annotates at most ${GITHUB_ANNOTATIONS_PER_LEVEL} of each level, most severe first, and says how many were left out`, () => {
    const r = synthetic({ error: 14, warning: 11, note: 12 });
    r.errors = [{ target: 'bad.json', file: 'bad.json', line: 2, column: 7, message: 'bad.json:2:7: invalid JSON: expected a comma' }];
    const parsed = commands(formatGithub(r, { color: false, quiet: false }));
    const of = (c: string) => parsed.filter((p) => p.command === c);
    expect(of('error')).toHaveLength(10);
    expect(of('warning')).toHaveLength(10);
    expect(of('notice')).toHaveLength(10);
    // The input error comes first, then the findings in report order.
    expect(of('error')[0]).toEqual({ command: 'error', properties: { file: 'bad.json', line: '2', col: '7', title: 'mcp-annotate: input error' }, data: 'bad.json:2:7: invalid JSON: expected a comma' });
    expect(of('error')[1]!.data).toContain('tool_0');
    const last = parsed.at(-1)!;
    expect(last.command).toBe('notice');
    expect(last.data).toBe(
      '9 of 38 annotations were left out (5 errors, 1 warning, 3 notes' +
        '): GitHub shows at most 10 error, 10 warning and 10 notice annotations per step, so the most severe were kept. The text, JSON, markdown and SARIF reports list every finding.',
    );
  });

  it('says "fails" of one stale baseline entry and of one warning too many', () => {
    const r = synthetic({ warning: 1 });
    r.baseline = { file: 'b.json', known: 0, stale: 1, updated: false, failStale: true, staleEntries: [{ line: 2, column: 5, message: 'stale' }] };
    r.tooManyWarnings = { max: 0, warnings: 1 };
    expect(failureClauses(r)).toBe('; 1 stale baseline entry fails the run (--fail-on-stale); 1 warning is more than --max-warnings 0 allows, which fails the run');
  });

  it('counts stale baseline entries apart from findings when some are left out, and says where they are listed', () => {
    const r = synthetic({ error: 3, warning: 1 });
    r.baseline = {
      file: 'baseline.json',
      known: 0,
      stale: 12,
      updated: false,
      failStale: true,
      staleEntries: Array.from({ length: 12 }, (_, i) => ({ line: i + 2, column: 5, message: `stale baseline entry ${i}` })),
    };
    const parsed = commands(formatGithub(r, { color: false, quiet: false }));
    // Stale entries come before error findings: 10 stale annotations, then none of the 3 errors.
    expect(parsed.filter((p) => p.command === 'error')).toHaveLength(10);
    expect(parsed.at(-1)!.data).toBe(
      '5 of 16 annotations were left out (3 errors, 2 stale baseline entries): GitHub shows at most 10 error, 10 warning and 10 notice annotations per step, so the most severe were kept. ' +
        'The text, JSON, markdown and SARIF reports list every finding; stderr and the JSON report (baseline.staleEntries) list every stale baseline entry.',
    );
  });

  it('writes no left-out notice when everything fits, and honours --quiet', () => {
    const all = commands(formatGithub(synthetic({ error: 10, warning: 10, note: 10 }), { color: false, quiet: false }));
    expect(all).toHaveLength(30);
    expect(all.some((c) => c.data.includes('left out'))).toBe(false);
    const quiet = commands(formatGithub(synthetic({ error: 2, warning: 5 }), { color: false, quiet: true }));
    expect(quiet.map((c) => c.command)).toEqual(['error', 'error']);
  });
});

// GitHub's renderer allows HTML and autolinks URLs (GFM's extended autolinks: scheme://, www., e-mail).
const md = new MarkdownIt({ html: true, linkify: true });
md.linkify.set({ fuzzyLink: false });

describe('markdown format', () => {
  it('summarises counts, a table per server with rule links, clean servers and unreadable inputs', () => {
    const text = json({
      servers: [
        { serverInfo: { name: 'mail' }, tools: [tool('send_email', { readOnlyHint: true, inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'irreversible' } })] },
        { serverInfo: { name: 'notes' }, tools: [tool('list_notes', { readOnlyHint: true, openWorldHint: false })] },
      ],
    });
    const report = reportForText(text, 'servers.json', ROOT);
    report.errors = [{ target: 'x.json', message: 'x.json:1:1: invalid JSON' }];
    const out = formatMarkdown(report, { color: false, quiet: false });
    expect(out.startsWith('## mcp-annotate\n')).toBe(true);
    expect(out).toContain('| ❌ Errors | ⚠️ Warnings | ℹ️ Notes |');
    expect(out).toContain('### mail');
    expect(out).toContain('| Tool | Severity | Rule | Finding | Location |');
    expect(out).toContain('[readonly-vs-outcome](https://github.com/mcp-annotate/mcp-annotate/blob/main/docs/rules/readonly-vs-outcome.md)');
    expect(out).toMatch(/\| send\\_email \| ❌ error \| \[readonly-vs-outcome\]/);
    expect(out).toContain('No problems in 1 server: **notes** (servers.json, 1 tool).');
    expect(out).toContain('### Inputs that could not be read\n\n- x.json:1:1: invalid JSON');
    const html = md.render(out);
    const rows = (html.match(/<tr>/g) ?? []).length;
    // counts table: header + 1 row; the mail table: header + one row per finding of mail.
    expect(rows).toBe(2 + 1 + report.findings.filter((f) => f.server === 'mail').length);
    expect(formatMarkdown(report, { color: false, quiet: false })).toBe(out);
  });

  it('says so when there is nothing to report', () => {
    const out = formatMarkdown(reportForText(json({ tools: [tool('list_notes', { readOnlyHint: true, openWorldHint: false })] }), 'notes.json', ROOT), { color: false, quiet: false });
    expect(out).toBe('## mcp-annotate\n\n✅ **No problems** in 1 server, 1 tool.\n\nNo problems in 1 server: **notes** (notes.json, 1 tool).\n');
  });

  it('escapes every server-supplied string: no HTML, links, images, code, emphasis, mentions or new cells', () => {
    const hostile =
      '</td></table><script>alert(1)</script> | x | [click](javascript:alert(1)) ![i](http://e/i.png) www.evil.example a@b.example `code` **b** _i_ ~~s~~ $x^2$ @octocat #12 &amp; <!-- c -->\n## Heading\\';
    const text = json({
      serverInfo: { name: `srv ${hostile}` },
      tools: [tool(`t ${hostile}`, { readOnlyHint: true, inputMetadata: { outcomes: 'irreversible' } }, { description: hostile })],
    });
    const report = reportForText(text, 'evil.json', ROOT);
    const out = formatMarkdown(report, { color: false, quiet: false });
    const html = md.render(out);
    expect(html).not.toMatch(/<script|<img|<code|<del|<s>|<em>|<h2>Heading|<!--|<\/table><script/);
    const links = [...html.matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    for (const href of links) expect(href).toMatch(/^https:\/\/github\.com\/mcp-annotate\/mcp-annotate\/blob\/main\/docs\/rules\//);
    // Our own bold ("**Fix:**", the count) only.
    expect((html.match(/<strong>/g) ?? []).length).toBe(1 + report.findings.filter((f) => f.suggestion).length);
    // Tables stay whole: every row of the server's table has exactly five cells.
    const table = html.slice(html.indexOf('<th>Tool</th>'));
    for (const row of table.split('<tr>').slice(2)) expect((row.match(/<td>/g) ?? []).length).toBe(5);
    // The text is still readable as it was written (entities decoded), mentions and issue refs broken by a zero-width space.
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('[click](javascript:alert(1))');
    expect(out).toContain('@&#8203;octocat');
    expect(out).toContain('#&#8203;12');
    expect(escapeMarkdown('see GH-12 and gh-7')).toBe('see GH&#8203;-12 and gh&#8203;-7');
    expect(out).toContain('\\$x^2\\$');
    expect(escapeMarkdown('a\nb\u202ec')).toBe('a\\\\nb\\\\u{202E}c');
  });

  it('keeps every way GFM starts an autolink text: www. after _, *, ~, ( or a blank, scheme://, mailto: and emails', () => {
    // Found by probe AZ: "_www.evil.example" passes tool-name-format, and GitHub linked it ("\\_" then "www.").
    expect(escapeMarkdown('_www.evil.example')).toBe('\\_www&#8203;.evil.example');
    for (const lead of ['', ' ', '*', '_', '~', '(', '__', 'x_', '1']) expect(escapeMarkdown(`${lead}www.evil.example`)).toContain('www&#8203;.evil.example');
    expect(escapeMarkdown('WWW.evil.example')).toBe('WWW&#8203;.evil.example');
    expect(escapeMarkdown('_GH-12')).toBe('\\_GH&#8203;-12');
    expect(escapeMarkdown('https://x.example http://y mailto:a@b.example xmpp:c@d.example')).toBe('https:&#8203;//x.example http:&#8203;//y mailto:a@&#8203;b.example xmpp:c@&#8203;d.example');
    // Rendered with linkify (markdown-it's bare-URL links): no link at all.
    const linkify = new MarkdownIt({ linkify: true });
    for (const name of ['_www.evil.example', '(www.evil.example)', '~www.evil.example', '*www.evil.example*', 'a_www.b.example', 'mailto:x@evil.example', 'x@evil.example', '_http://evil.example']) {
      expect(linkify.render(`| ${escapeMarkdown(name)} |`), name).not.toContain('<a');
    }
  });

  it('escapes to a shape with no autolink left in it, for any mix of link-making pieces (property)', () => {
    // The text as a renderer sees it after escapes and character references: what GFM's autolink
    // extension scans. No "www." and no "://" survive, and every "@" is followed by a zero-width space.
    const seen = (out: string) =>
      out
        .replace(/\\(.)/g, '$1')
        .replace(/&#8203;/g, '\u200b')
        .replace(/&#32;/g, ' ')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    const piece = fc.constantFrom('www.', 'WwW.', '_', '*', '~', '(', ')', ' ', 'http', 'https', ':', '//', 'mailto:', 'xmpp:', '@', 'a', 'b.c', '.', '-', 'GH-', '1', '\\', '&', '#', '`', '[', ']', '<', '\n');
    assertProperty(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const text = seen(escapeMarkdown(pieces.join(''), 10_000));
        expect(text).not.toMatch(/www\./i);
        expect(text).not.toContain('://');
        expect(text).not.toMatch(/@(?!\u200b)/);
        expect(text).not.toMatch(/GH-\d/i);
      }),
    );
  });

  it('cuts a megabyte server or tool name in text, github and markdown lines', async () => {
    const { formatText } = await import('../src/reporters/text.js');
    const report = reportForText(json({ serverInfo: { name: 'S'.repeat(1_000_000) }, tools: [tool('t'.repeat(2_000_000))] }), 'big.json', ROOT);
    for (const out of [formatText(report, { color: false, quiet: false }), formatGithub(report, { color: false, quiet: false }), formatMarkdown(report, { color: false, quiet: false })]) {
      expect(Math.max(...out.split('\n').map((l) => l.length))).toBeLessThan(2000);
    }
  });

  it('keeps file names and messages that start a line from starting a block: no list, rule, underline or code', () => {
    const names = ['- list.json', '+ plus.json', '1. one.json', '2) two.json', '    indent.json', '---', '===', '* star.json'];
    // Half the servers have a finding (a heading, then the file name starting a line), half are clean.
    const findings: Finding[] = names.slice(0, 4).map((display, i) => ({ ruleId: 'readonly-vs-outcome', severity: 'error', message: 'm', serverId: `s${i}`, server: `srv${i}`, tool: 't', toolIndex: 0, pointer: '/tools/0', toolPointer: '', file: display }));
    const report: Report = {
      findings,
      servers: names.map((display, i) => ({ id: `s${i}`, name: `srv${i}`, origin: { kind: 'file' as const, path: display, display }, tools: 1, spec: '2025-11-25' as const })),
      errors: names.map((n) => ({ target: n, message: `${n}: no such file or directory` })),
      rules: RULES,
      cwd: ROOT,
    };
    const html = md.render(formatMarkdown(report, { color: false, quiet: false }));
    expect(html).not.toMatch(/<ol|<pre|<hr|<h1|<h2>(?!mcp-annotate)/);
    expect(html.match(/<h3>srv\d<\/h3>/g)).toHaveLength(4);
    // One list only: the unreadable inputs, one item each, none nested.
    expect((html.match(/<ul>/g) ?? []).length).toBe(1);
    expect((html.match(/<li>/g) ?? []).length).toBe(names.length);
    for (const n of ['- list.json', '1. one.json', '    indent.json', '---']) expect(html).toContain(n.trim());
  });

  it(`stays within the size budget (default ${MARKDOWN_MAX_BYTES} bytes, under a step summary's 1 MiB) and says what it left out`, () => {
    const big = synthetic({ error: 3000, warning: 3000 }, (i) => `finding ${i} ${'é'.repeat(200)}`);
    const out = formatMarkdown(big, { color: false, quiet: false });
    const bytes = Buffer.byteLength(out);
    expect(bytes).toBeLessThanOrEqual(MARKDOWN_MAX_BYTES);
    expect(bytes).toBeGreaterThan(MARKDOWN_MAX_BYTES * 0.95);
    const listed = out.split('\n').filter((l) => l.startsWith('| tool\\_')).length;
    expect(out).toContain(`> [!WARNING]\n> ${6000 - listed} of 6000 findings are not listed below: this summary is limited to 1,000,000 bytes.`);

    const comment = formatMarkdown(big, { color: false, quiet: false, markdownMaxBytes: 65_000 });
    expect(Buffer.byteLength(comment)).toBeLessThanOrEqual(65_000);
    expect(comment).toMatch(/> \d+ of 6000 findings are not listed below: this summary is limited to 65,000 bytes/);
    // Cut at a row boundary: every table line is a whole row.
    for (const line of comment.split('\n').filter((l) => l.startsWith('| '))) expect(line.endsWith(' |')).toBe(true);
    // Counts always cover every finding.
    expect(comment).toContain('| 3000 | 3000 | 0 |');
  });

  it('names, in its "left out" notices and in github\'s, only the reports that list every finding of that run', () => {
    // Found by probe AZ: with 28,000 findings the github notice sent readers to markdown (which listed
    // 1,995) and SARIF (which kept 25,000), and markdown's note to SARIF.
    const notice = (report: Report, opts = {}) => commands(formatGithub(report, { color: false, quiet: false, ...opts })).find((c) => c.properties.title === 'mcp-annotate: more findings than annotations')!.data;
    const note = (report: Report, opts = {}) => formatMarkdown(report, { color: false, quiet: false, ...opts }).split('\n').find((l) => l.includes('not listed'))!;

    // Over SARIF's 25,000 results and over markdown's budget: text and JSON only.
    const huge = synthetic({ warning: 25_001 });
    expect(notice(huge)).toMatch(/so the most severe were kept\. The text and JSON reports list every finding\.$/);
    expect(note(huge)).toMatch(/bytes\. The text and JSON reports list every finding\.$/);
    expect(markdownListsAll(huge, { quiet: false })).toBe(false);

    // Over markdown's budget only: SARIF keeps every result.
    const big = synthetic({ error: 3000, warning: 3000 }, (i) => `finding ${i} ${'é'.repeat(200)}`);
    expect(notice(big)).toMatch(/The text, JSON and SARIF reports list every finding\.$/);
    expect(note(big)).toMatch(/The text, JSON and SARIF reports list every finding\.$/);
    // The same run with a budget that holds every row: markdown is named too.
    expect(notice(big, { markdownMaxBytes: 5_000_000 })).toMatch(/The text, JSON, markdown and SARIF reports list every finding\.$/);

    // A budget too small for the rows that still fits the counts and notes (the run's own budget counts).
    const small = synthetic({ warning: 30 });
    expect(markdownListsAll(small, { quiet: false })).toBe(true);
    expect(markdownListsAll(small, { quiet: false, markdownMaxBytes: 2048 })).toBe(false);
    expect(notice(small, { markdownMaxBytes: 2048 })).toMatch(/The text, JSON and SARIF reports list every finding\.$/);
    // Right at the budget: the check agrees with the report itself, a byte either side.
    const exact = Buffer.byteLength(formatMarkdown(small, { color: false, quiet: false }));
    expect(markdownListsAll(small, { quiet: false, markdownMaxBytes: exact })).toBe(true);
    expect(markdownListsAll(small, { quiet: false, markdownMaxBytes: exact - 1 })).toBe(false);

    // --quiet: errors are what the reports list.
    const quiet = synthetic({ error: 25_001, warning: 5 });
    expect(notice(quiet, { quiet: true })).toMatch(/The text and JSON reports list every error\.$/);
  });

  it('lists only errors with --quiet and says the rest were not listed', () => {
    const out = formatMarkdown(synthetic({ error: 1, warning: 2, note: 1 }), { color: false, quiet: true });
    expect(out.split('\n').filter((l) => l.startsWith('| tool\\_'))).toHaveLength(1);
    expect(out).toContain('_3 warnings and notes not listed (--quiet)._');
  });
});

describe('several formats in one run', () => {
  it('writes sarif, github, markdown and json to files and text to stdout, from lint and from diff', async () => {
    const dir = tempDir({
      'mail.json': mail,
      'base.json': json({ serverInfo: { name: 'mail' }, tools: [tool('send_email', { readOnlyHint: true })] }),
      'head.json': json({ serverInfo: { name: 'mail' }, tools: [tool('send_email', { readOnlyHint: false })] }),
    });
    const args = ['-f', 'sarif', '-o', 'out/r.sarif', '-f', 'github', '-o', 'out/r.github', '-f', 'markdown', '-o', 'out/r.md', '-f', 'json', '-o', 'out/r.json', '-f', 'text'];
    const lint = await runCli(['lint', 'mail.json', ...args], { cwd: dir });
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain('readonly-vs-outcome');
    expect(JSON.parse(readFileSync(join(dir, 'out/r.sarif'), 'utf8')).runs[0].results.length).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'out/r.github'), 'utf8')).toMatch(/^::error file=mail\.json,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=readonly-vs-outcome::mail › send_email: /m);
    expect(readFileSync(join(dir, 'out/r.md'), 'utf8')).toContain('### mail');
    expect(JSON.parse(readFileSync(join(dir, 'out/r.json'), 'utf8')).summary.errors).toBe(1);

    const diff = await runCli(['diff', 'base.json', 'head.json', ...args], { cwd: dir });
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('drift/readonly-removed');
    const sarif = JSON.parse(readFileSync(join(dir, 'out/r.sarif'), 'utf8'));
    expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toContain('drift/readonly-removed');
    expect(readFileSync(join(dir, 'out/r.github'), 'utf8')).toMatch(/^::error file=head\.json,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=drift\/readonly-removed::mail › send_email: readOnlyHint is now false/m);
    const summary = readFileSync(join(dir, 'out/r.md'), 'utf8');
    expect(summary.startsWith('## mcp-annotate diff\n')).toBe(true);
    expect(summary).toContain('[drift/readonly-removed](https://github.com/mcp-annotate/mcp-annotate/blob/main/docs/rules/drift/readonly-removed.md)');
  });

  it('keeps a file whose name starts with two dots ("..notes.json", "..old/x.json") relative: it is inside the repository', async () => {
    const dir = tempDir({ '..notes.json': mail, '..old/x.json': mail });
    mkdirSync(join(dir, '.git'));
    const args = ['-f', 'sarif', '-o', 'r.sarif', '-f', 'github', '-o', 'r.github', '-f', 'json', '-o', 'r.json'];
    expect((await runCli(['lint', '..notes.json', '..old/x.json', ...args], { cwd: dir })).code).toBe(1);
    const uris = JSON.parse(readFileSync(join(dir, 'r.sarif'), 'utf8')).runs[0].results.map((r: any) => r.locations[0].physicalLocation.artifactLocation);
    expect(new Set(uris.map((u: unknown) => JSON.stringify(u)))).toEqual(new Set([{ uri: '..notes.json', uriBaseId: 'SRCROOT' }, { uri: '..old/x.json', uriBaseId: 'SRCROOT' }].map((u) => JSON.stringify(u))));
    const files = readFileSync(join(dir, 'r.github'), 'utf8').match(/file=[^,]*/g);
    expect(new Set(files)).toEqual(new Set(['file=..notes.json', 'file=..old/x.json']));
    expect(new Set(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')).findings.map((f: { file: string }) => f.file))).toEqual(new Set(['..notes.json', '..old/x.json']));
  });

  it('rejects a second format on stdout and an unknown format with exit 2', async () => {
    const dir = tempDir({ 'mail.json': mail });
    const two = await runCli(['lint', 'mail.json', '-f', 'github', '-f', 'markdown'], { cwd: dir });
    expect(two.code).toBe(2);
    expect(two.stderr).toBe('mcp-annotate: only one format can go to stdout; give the others an --output-file\n');
    const unknown = await runCli(['lint', 'mail.json', '-f', 'gitlab'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('mcp-annotate: unknown format "gitlab"; expected one of text, json, sarif, github, markdown\n');
    const budget = await runCli(['lint', 'mail.json', '-f', 'markdown', '--markdown-max-bytes', 'lots'], { cwd: dir });
    expect(budget.code).toBe(2);
    expect(budget.stderr).toBe('mcp-annotate: --markdown-max-bytes must be a whole number of bytes, got "lots"\n');
    // Too small to hold the report's frame: said, not silently raised.
    const tiny = await runCli(['lint', 'mail.json', '-f', 'markdown', '--markdown-max-bytes', '600'], { cwd: dir });
    expect(tiny).toMatchObject({ code: 2, stderr: 'mcp-annotate: --markdown-max-bytes must be at least 2048 (the heading, the counts and the note about left-out findings need that much), got 600\n' });
  });
});

describe('text format places', () => {
  const dump = json({ tools: [tool('drop_table', { readOnlyHint: true, destructiveHint: true })] });

  it('are file:line:col for a file and for stdin (named by its display)', async () => {
    const dir = tempDir({ 'dump.json': dump });
    const file = await runCli(['lint', '--no-config', 'dump.json'], { cwd: dir });
    expect(file.stdout).toMatch(/^ {4}dump\.json:\d+:\d+ +error +annotations\.destructiveHint is true/m);
    const stdin = await runCli(['lint', '--no-config', '-'], { cwd: dir, input: dump });
    expect(stdin.stdout).toMatch(/^ {4}<stdin>:\d+:\d+ +error +annotations\.destructiveHint is true/m);
  });

  it('are the pointer after a # for a finding with no place in a text, not the server said again on each line', () => {
    const report: Report = {
      findings: [
        { ruleId: 'readonly-destructive', severity: 'error', message: 'm1', serverId: 's', server: 'live', tool: 'drop_table', toolIndex: 0, pointer: '/tools/0/annotations/destructiveHint', toolPointer: '/annotations/destructiveHint' },
        { ruleId: 'no-tools', severity: 'warning', message: 'm2', serverId: 's', server: 'live', pointer: '', toolPointer: '' },
      ] as Finding[],
      servers: [{ id: 's', name: 'live', origin: { kind: 'live', display: 'node server.mjs --port 3000', transport: 'stdio' }, tools: 1, spec: '2025-06-18' }],
      errors: [],
      cwd: '/',
    } as unknown as Report;
    const text = formatText(report, { color: false });
    expect(text.split('\n').filter((l) => l.includes('node server.mjs'))).toEqual(['live node server.mjs --port 3000 · 1 tool']);
    expect(text).toMatch(/^ {4}#\/tools\/0\/annotations\/destructiveHint +error +m1/m);
    expect(text).toMatch(/^ {4}# +warning +m2/m);
  });
});
