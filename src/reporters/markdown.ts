/**
 * markdown: a summary for $GITHUB_STEP_SUMMARY and pull-request comments (GitHub
 * flavoured markdown): counts by severity, then one table per server with a row per
 * finding (tool, severity, rule linked to its doc page, message and fix, location),
 * the servers without findings, and the inputs that could not be read.
 *
 * Everything that came from a server or a file (server and tool names, paths, messages
 * quoting descriptions, input errors) goes through escapeMarkdown: it cannot open a
 * link, an image, HTML, a code span, emphasis, math, a new table cell or line, or
 * mention a user or an issue.
 *
 * Size: GitHub rejects a step summary over 1 MiB (the runner's limit: "$GITHUB_STEP_SUMMARY
 * upload aborted, supports content up to a size of 1024k", see
 * https://docs.github.com/actions/using-workflows/workflow-commands-for-github-actions#adding-a-markdown-summary),
 * and a comment over 65,536 characters. The report stays within `markdownMaxBytes`
 * (default MARKDOWN_MAX_BYTES, under 1 MiB): when the findings do not all fit, the last
 * rows are left out and a note at the top says how many.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Finding, Severity } from '../types.js';
import { joinWords, oneLine, plural, shorten, thousands } from '../util/text.js';
import { sarifKeepsAll } from './sarif.js';
import { PACKAGE_ROOT, ruleDocUrl } from '../version.js';
import { count, groupByTool, headlineMark, tooManyWarningsSentence, unwrittenSentence, visible, type Report, type ReporterOptions } from './types.js';
import { append } from '../util/array.js';

/** Default size budget in bytes (UTF-8): under the 1 MiB a step summary may hold, with room to spare. */
export const MARKDOWN_MAX_BYTES = 1_000_000;
/** The smallest budget the reporter accepts: the header, the counts and the truncation note fit in it. */
export const MARKDOWN_MIN_BYTES = 2048;

/** Longest server string shown (names, paths); longer ones are cut with "…". */
const NAME_MAX = 200;
const MESSAGE_MAX = 2000;
/** Servers without findings and input errors listed at most; the rest are counted. */
const LIST_MAX = 50;

const MD_ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '`': '\\`',
  '*': '\\*',
  _: '\\_',
  '[': '\\[',
  ']': '\\]',
  '|': '\\|',
  '~': '\\~',
  $: '\\$',
  '!': '\\!',
  '<': '&lt;',
  '>': '&gt;',
  '&': '&amp;',
  // A zero-width space after @ and # keeps "@someone" from notifying, "a@b.example" from
  // becoming a mailto link and "#12" from cross-referencing an issue; all still read the same.
  '@': '@&#8203;',
  '#': '#&#8203;',
};

/**
 * A server-supplied string as inert markdown text on one line: control, bidi and
 * zero-width characters become visible \u{…} escapes (and newlines \n), then markdown
 * and HTML syntax is escaped. At the start of a line it cannot begin a block either: no
 * list item ("- x.json", "1. x.json"), thematic break, setext underline or indented code.
 */
export function escapeMarkdown(text: string, max = NAME_MAX): string {
  return shorten(oneLine(text), max)
    .replace(/[\\`*_[\]|~$!<>&@#]/g, (ch) => MD_ESCAPES[ch]!)
    // GitHub links bare URLs (GFM's autolink extension: scheme://…, and www.… at a line's
    // start, after a blank or after *, _, ~ or "("): a zero-width space keeps them text. Every
    // "www." gets it, with no word boundary asked for: "_" is escaped to "\_" already, and "_" is
    // a word character to a regex but opens a www link to GFM. Emails (and mailto:/xmpp:
    // links, which need one) are kept text by the zero-width space after "@".
    .replace(/:\/\//g, ':&#8203;//')
    .replace(/(www)\./gi, '$1&#8203;.')
    // "GH-12" references an issue as "#12" does.
    .replace(/(GH)-(?=\d)/gi, '$1&#8203;-')
    // Leading blanks as character references (text, never indentation), and a leading
    // list, rule or underline marker escaped.
    .replace(/^[ \t]+/, (blanks) => '&#32;'.repeat(blanks.length))
    .replace(/^([-+=])|^(\d+)([.)])/, (_m, marker?: string, digits?: string, delim?: string) => (marker ? `\\${marker}` : `${digits}\\${delim}`));
}

const HEADLINE_MARK: Record<ReturnType<typeof headlineMark>, string> = { fail: '❌', clean: '✅', warn: '⚠️', info: 'ℹ️' };
const SEVERITY_CELL: Record<Severity, string> = { error: '❌ error', warning: '⚠️ warning', note: 'ℹ️ note' };

const docPages = new Map<string, boolean>();
/** Whether the rule has a published doc page (policy rules from a config have none). */
function hasDocPage(id: string): boolean {
  let known = docPages.get(id);
  if (known === undefined) {
    known = /^[a-z0-9]+(?:[-/][a-z0-9]+)*$/.test(id) && existsSync(join(fileURLToPath(PACKAGE_ROOT), 'docs', 'rules', `${id}.md`));
    docPages.set(id, known);
  }
  return known;
}

/**
 * Where a rule of the run is documented: its own helpUri (a policy rule points at the
 * README's Policies), else its doc page. Looked up only for the rules that have findings.
 */
function ruleLinks(report: Report): (id: string) => string | undefined {
  const byId = new Map(report.rules.map((r) => [r.id, r]));
  return (id) => {
    const rule = byId.get(id);
    return rule?.helpUri ?? (rule && hasDocPage(id) ? ruleDocUrl(id) : undefined);
  };
}

function ruleCell(id: string, linkOf: (id: string) => string | undefined): string {
  const text = escapeMarkdown(id);
  const url = linkOf(id);
  return url ? `[${text}](${url})` : text;
}

function locationCell(f: Finding): string {
  if (!f.file) return '';
  return escapeMarkdown(f.region ? `${f.file}:${f.region.line}:${f.region.column}` : f.file);
}

interface ServerBlock {
  heading: string;
  /** The block's findings in row order (grouped by tool). */
  findings: Finding[];
}

/**
 * Whether the markdown report of this run lists every finding it would show (the rows all fit
 * its size budget): what the other formats' "left out" notices may say of it. Rows are sized
 * one by one and the count stops once they pass the budget, so a large run is not rendered whole.
 */
export function markdownListsAll(report: Report, opts: Pick<ReporterOptions, 'quiet' | 'markdownMaxBytes'>): boolean {
  const l = layout(report, opts);
  // A lower bound of the report's size: every line and its line break, less the trailing blank lines trimmed.
  let bytes = [...l.head, ...l.tail].reduce((n, line) => n + Buffer.byteLength(line, 'utf8') + 1, 0) - 2;
  const over = () => bytes > l.max;
  for (const b of l.blocks) {
    bytes += Buffer.byteLength(b.heading, 'utf8') + 1 + 1 + TABLE_HEAD.reduce((n, line) => n + Buffer.byteLength(line, 'utf8') + 1, 0) + 1;
    if (over()) return false;
    for (const f of b.findings) {
      bytes += Buffer.byteLength(row(f, l.links), 'utf8') + 1;
      if (over()) return false;
    }
  }
  // Within the budget or near it: the report itself says (it is about a megabyte at most here).
  return render(report, { color: false, ...opts }).all;
}

/** Where every finding a format leaves out is listed: the text and JSON reports, and SARIF when it kept every result. */
export function listedInFull(report: Report, quiet: boolean, markdown: boolean): string {
  const reports = ['text', 'JSON', ...(markdown ? ['markdown'] : []), ...(sarifKeepsAll(report, quiet) ? ['SARIF'] : [])];
  return `the ${joinWords(reports)} reports list every ${quiet ? 'error' : 'finding'}`;
}

/** The parts of the report: head, server blocks, tail, and the budget. */
function layout(report: Report, opts: Pick<ReporterOptions, 'quiet' | 'markdownMaxBytes'>) {
  const max = Math.max(MARKDOWN_MIN_BYTES, opts.markdownMaxBytes ?? MARKDOWN_MAX_BYTES);
  const findings = visible(report.findings, opts.quiet);
  const links = ruleLinks(report);
  const n = count(report.findings);
  const tools = report.servers.reduce((s, x) => s + x.tools, 0);
  const scope = `${plural(report.servers.length, 'server')}, ${plural(tools, 'tool')}`;
  const title = report.command === 'diff' ? 'mcp-annotate diff' : 'mcp-annotate';

  const head: string[] = [`## ${title}`, ''];
  const problems = n.error + n.warning + n.note;
  const unreadable = report.errors.length ? `; ${plural(report.errors.length, 'input')} could not be read` : '';
  // The mark is the run's verdict (its exit code), not the most severe finding's.
  const mark = HEADLINE_MARK[headlineMark(report, n)];
  if (problems === 0) {
    head.push(`${mark} **No ${report.command === 'diff' ? 'changes that weaken the annotations' : 'problems'}** in ${scope}${unreadable}.`, '');
  } else {
    head.push(`${mark} **${plural(problems, 'finding')}** in ${scope}${unreadable}.`, '');
    head.push('| ❌ Errors | ⚠️ Warnings | ℹ️ Notes |', '| ---: | ---: | ---: |', `| ${n.error} | ${n.warning} | ${n.note} |`, '');
  }
  const b = report.baseline;
  if (b) {
    const file = escapeMarkdown(b.file);
    const stale = b.stale
      ? `; ${plural(b.stale, 'baseline entry', 'baseline entries')} no longer ${b.stale === 1 ? 'occurs' : 'occur'}${b.failStale ? `, which ${b.stale === 1 ? 'fails' : 'fail'} the run (--fail-on-stale)` : ''}`
      : '';
    head.push(b.updated ? `_Baseline ${file} updated with ${plural(b.known, 'finding')}; none reported._` : `_${plural(b.known, 'known finding')} in baseline ${file} not reported${stale}._`, '');
  }
  const w = report.tooManyWarnings;
  if (w) head.push(`_${tooManyWarningsSentence(w.config !== undefined ? { ...w, config: escapeMarkdown(w.config) } : w)}._`, '');
  for (const u of report.unwritten ?? []) head.push(`_${escapeMarkdown(unwrittenSentence(u))}._`, '');
  if (opts.quiet && n.warning + n.note) head.push(`_${plural(n.warning + n.note, 'warning and note', 'warnings and notes')} not listed (--quiet)._`, '');

  // One block per server that has findings, in report order.
  const byServer = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byServer.get(f.serverId) ?? [];
    list.push(f);
    byServer.set(f.serverId, list);
  }
  const blocks: ServerBlock[] = [];
  const clean: string[] = [];
  const withFindings = new Set(report.findings.map((f) => f.serverId));
  for (const s of report.servers) {
    const list = byServer.get(s.id);
    const label = `**${escapeMarkdown(s.name)}** (${escapeMarkdown(s.origin.display)}, ${plural(s.tools, 'tool')})`;
    if (!list) {
      // A server whose findings --quiet hides is not clean.
      if (!withFindings.has(s.id)) clean.push(label);
      continue;
    }
    blocks.push({ heading: `### ${escapeMarkdown(s.name)}\n\n${escapeMarkdown(s.origin.display)} · ${plural(s.tools, 'tool')} · ${plural(list.length, 'finding')}`, findings: groupByTool(list).flat() });
  }

  const tail: string[] = [];
  if (clean.length) {
    const shown = clean.slice(0, LIST_MAX).join(', ');
    const more = clean.length > LIST_MAX ? ` and ${clean.length - LIST_MAX} more` : '';
    tail.push(`No ${report.command === 'diff' ? 'findings' : 'problems'} in ${plural(clean.length, 'server')}: ${shown}${more}.`, '');
  }
  if (report.errors.length) {
    tail.push('### Inputs that could not be read', '');
    for (const e of report.errors.slice(0, LIST_MAX)) tail.push(`- ${escapeMarkdown(e.message, MESSAGE_MAX)}`);
    if (report.errors.length > LIST_MAX) tail.push(`- … and ${report.errors.length - LIST_MAX} more`);
    tail.push('');
  }

  return { max, head, blocks, tail, links };
}

const TABLE_HEAD = ['| Tool | Severity | Rule | Finding | Location |', '| --- | --- | --- | --- | --- |'];

export function formatMarkdown(report: Report, opts: ReporterOptions): string {
  return render(report, opts).text;
}

/** The report, and whether it lists every finding it shows (all rows fit the budget). */
function render(report: Report, opts: ReporterOptions): { text: string; all: boolean } {
  const { max, head, blocks: parts, tail, links } = layout(report, opts);
  const blocks = parts.map((b) => ({ heading: b.heading, rows: b.findings.map((f) => row(f, links)) }));
  // Where the rows left out are listed: text and JSON, and SARIF when it kept every result.
  const where = listedInFull(report, opts.quiet, false).replace(/^./, (c) => c.toUpperCase());
  const total = blocks.reduce((s, b) => s + b.rows.length, 0);
  const build = (keep: number): string => {
    const out = [...head];
    if (keep < total) {
      out.push('> [!WARNING]', `> ${total - keep} of ${plural(total, 'finding')} are not listed below: this summary is limited to ${thousands(max)} bytes. ${where}.`, '');
    }
    let left = keep;
    for (const b of blocks) {
      if (left <= 0) break;
      const rows = b.rows.slice(0, left);
      left -= rows.length;
      out.push(b.heading, '', ...TABLE_HEAD);
      append(out, rows).push('');
    }
    append(out, tail);
    return out.join('\n').replace(/\n+$/, '') + '\n';
  };
  const fits = (text: string) => Buffer.byteLength(text, 'utf8') <= max;

  let text = build(total);
  if (fits(text)) return { text, all: true };
  // The most rows that fit: binary search over how many to keep.
  let lo = 0;
  let hi = total - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(build(mid))) lo = mid;
    else hi = mid - 1;
  }
  text = build(lo);
  if (fits(text)) return { text, all: false };
  // Not even the lists fit a very small budget: the counts and the note alone.
  return { text: [...head, '> [!WARNING]', `> The findings are not listed: this summary is limited to ${thousands(max)} bytes. ${where}.`, ''].join('\n'), all: false };
}

function row(f: Finding, links: (id: string) => string | undefined): string {
  const tool = f.tool === undefined ? '_(server)_' : escapeMarkdown(f.tool);
  const message = escapeMarkdown(f.message, MESSAGE_MAX) + (f.suggestion ? `<br>**Fix:** ${escapeMarkdown(f.suggestion, MESSAGE_MAX)}` : '');
  return `| ${tool} | ${SEVERITY_CELL[f.severity]} | ${ruleCell(f.ruleId, links)} | ${message} | ${locationCell(f)} |`;
}
