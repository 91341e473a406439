/**
 * github: GitHub Actions workflow commands, one annotation per finding:
 *
 *   ::error file=tools.json,line=104,col=11,endLine=104,endColumn=37,title=readonly-vs-outcome::acme › send_email: …
 *
 * error → ::error, warning → ::warning, note → ::notice. File paths are relative to the
 * repository root (the nearest directory with .git, as in SARIF), which is what GitHub
 * resolves them against; findings without a file (stdin) get no file property.
 *
 * Escaping follows the runner and @actions/core (command.ts escapeData/escapeProperty):
 * the message escapes %, \r and \n; properties also : and ,. Server strings are first made
 * one visible line (control, bidi and zero-width characters shown as \u{…}), so nothing a
 * server says can start a new workflow command or reorder the log line.
 *
 * GitHub shows only so many annotations per step; past that it drops them silently. So
 * this format keeps the most severe (input errors, then errors, warnings, notes), writes
 * at most the per-level limit of each, and ends with a notice saying how many were left
 * out.
 */
import { resolve, sep } from 'node:path';
import { relativeInside } from '../util/paths.js';
import type { Finding, InputError, Severity } from '../types.js';
import { escapeTerminal, nameLine, oneLine, plural } from '../util/text.js';
import { sourceRoot } from './sarif.js';
import { listedInFull, markdownListsAll } from './markdown.js';
import { count, failureClauses, tooManyWarningsSentence, unwrittenSentence, visible, type Report, type ReporterOptions } from './types.js';

/**
 * Annotations GitHub Actions shows per step, for each level (error, warning, notice);
 * a job shows at most 50 in all. Source: actions/toolkit, docs/problem-matchers.md,
 * "Limitations" — "10 warning annotations, 10 error annotations, and 10 notice
 * annotations per step; 50 annotations per job (sum of annotations from all the steps)"
 * (https://github.com/actions/toolkit/blob/main/docs/problem-matchers.md#limitations).
 */
export const GITHUB_ANNOTATIONS_PER_LEVEL = 10;

type Command = 'error' | 'warning' | 'notice';
const COMMAND: Record<Severity, Command> = { error: 'error', warning: 'warning', note: 'notice' };

/** Workflow-command data (the message): %, CR and LF. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * Workflow-command property values: as data, plus : and ,. A file name's escape sequences
 * and other invisible characters are shown as \u{…} (the runner decodes nothing else, and
 * the log renders ANSI escapes).
 */
export function escapeProperty(s: string): string {
  return escapeTerminal(escapeData(s)).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * Whether the runner can be given a path in a file= property: it decodes only %25, %0D, %0A,
 * %3A and %2C there (its UnescapeProperty), so a control, bidi or zero-width character could
 * only go raw — into a line of the log — and shown as \u{…} it names a file that does not
 * exist (GitHub could not attach the annotation to it either way).
 */
function carried(path: string): boolean {
  const data = escapeData(path);
  // U+FFFD: a name that is not valid UTF-8, shown with the replacement character; no file has it.
  return escapeTerminal(data) === data && !data.includes('\uFFFD');
}

interface Annotation {
  command: Command;
  properties: [string, string | number][];
  message: string;
}

export function workflowCommand(a: Annotation): string {
  const props = a.properties.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',');
  return `::${a.command}${props ? ` ${props}` : ''}::${escapeData(a.message)}`;
}

export function formatGithub(report: Report, opts: ReporterOptions): string {
  const root = sourceRoot(report.cwd);
  const repoPath = (display: string) => {
    const abs = resolve(report.cwd, display);
    return relativeInside(root, abs) ?? abs.split(sep).join('/');
  };
  type Region = { line: number; column: number; endLine?: number; endColumn?: number } | undefined;
  const location = (file: string | undefined, region: Region): [string, string | number][] => {
    if (file === undefined) return [];
    const props: [string, string | number][] = [['file', repoPath(file)]];
    if (!region) return props;
    props.push(['line', region.line]);
    // GitHub takes columns only for a range within one line.
    const oneLineRange = region.endLine === undefined || region.endLine === region.line;
    if (oneLineRange) props.push(['col', region.column]);
    if (region.endLine !== undefined) props.push(['endLine', region.endLine]);
    if (oneLineRange && region.endColumn !== undefined) props.push(['endColumn', region.endColumn]);
    return props;
  };

  /** A location's properties, and what starts the message when the runner cannot be given the file (see carried). */
  const placed = (file: string | undefined, region: Region): { props: [string, string | number][]; prefix: string } => {
    const path = file === undefined ? undefined : repoPath(file);
    // No file= the runner cannot carry: the location starts the message, as text.
    if (path !== undefined && !carried(path)) return { props: [], prefix: `${oneLine(path)}${region ? `:${region.line}:${region.column}` : ''}: ` };
    return { props: location(file, region), prefix: '' };
  };
  const fromError = (e: InputError): Annotation => {
    const at = placed(e.file, e.line !== undefined ? { line: e.line, column: e.column ?? 1 } : undefined);
    // An input error's message already starts with its file.
    return { command: 'error', properties: [...at.props, ['title', 'mcp-annotate: input error']], message: oneLine(e.message) };
  };
  const fromFinding = (f: Finding): Annotation => {
    const where = f.tool === undefined ? nameLine(f.server) : `${nameLine(f.server)} › ${nameLine(f.tool)}`;
    const at = placed(f.file, f.region);
    return {
      command: COMMAND[f.severity],
      properties: [...at.props, ['title', f.ruleId]],
      message: `${at.prefix}${where}: ${oneLine(f.message)}${f.suggestion ? `\nFix: ${oneLine(f.suggestion)}` : ''}`,
    };
  };

  // --fail-on-stale: each stale entry fails the run, on its line of the baseline file.
  const b = report.baseline;
  const stale: Annotation[] = b?.failStale
    ? (b.staleEntries ?? []).map((e): Annotation => {
        const at = placed(b.file, e.line !== undefined ? { line: e.line, column: e.column ?? 1 } : undefined);
        return { command: 'error', properties: [...at.props, ['title', 'mcp-annotate: stale baseline entry (--fail-on-stale)']], message: `${at.prefix}${oneLine(e.message)}` };
      })
    : [];
  // --max-warnings (or the config's maxWarnings): the run fails for the number of warnings, which no one annotation says.
  const w = report.tooManyWarnings;
  const run: Annotation[] = w
    ? [{ command: 'error', properties: [['title', `mcp-annotate: too many warnings (${w.config !== undefined ? `maxWarnings of ${oneLine(w.config)}` : '--max-warnings'})`]], message: tooManyWarningsSentence(w) }]
    : [];
  // A report file that could not be written fails the run (exit 2), which no finding says.
  for (const u of report.unwritten ?? []) {
    run.push({ command: 'error', properties: [['title', 'mcp-annotate: report not written']], message: unwrittenSentence(u) });
  }
  const findings = visible(report.findings, opts.quiet);
  // Most severe first: why the run fails (--max-warnings, a report not written), input errors, stale baseline entries, then errors, warnings, notes (each in report order).
  const byLevel: Record<Command, Annotation[]> = {
    error: [...run, ...report.errors.map(fromError), ...stale, ...findings.filter((f) => f.severity === 'error').map(fromFinding)],
    warning: findings.filter((f) => f.severity === 'warning').map(fromFinding),
    notice: findings.filter((f) => f.severity === 'note').map(fromFinding),
  };
  const total = byLevel.error.length + byLevel.warning.length + byLevel.notice.length;
  const fits = (['error', 'warning', 'notice'] as const).every((c) => byLevel[c].length <= GITHUB_ANNOTATIONS_PER_LEVEL);
  // When some are left out, one notice slot says so.
  const limit: Record<Command, number> = {
    error: GITHUB_ANNOTATIONS_PER_LEVEL,
    warning: GITHUB_ANNOTATIONS_PER_LEVEL,
    notice: fits ? GITHUB_ANNOTATIONS_PER_LEVEL : GITHUB_ANNOTATIONS_PER_LEVEL - 1,
  };
  const lines: string[] = [];
  const left: Record<Command, number> = { error: 0, warning: 0, notice: 0 };
  for (const c of ['error', 'warning', 'notice'] as const) {
    const list = byLevel[c];
    for (const a of list.slice(0, limit[c])) lines.push(workflowCommand(a));
    left[c] = Math.max(0, list.length - limit[c]);
  }
  const leftOut = left.error + left.warning + left.notice;
  if (leftOut > 0) {
    // The error level holds why the run fails (--max-warnings), input errors, stale baseline
    // entries, then error findings: each kind keeps what room the ones before it leave.
    const room = Math.max(0, limit.error - run.length);
    const leftInputs = Math.max(0, report.errors.length - room);
    const leftStale = Math.max(0, stale.length - Math.max(0, room - report.errors.length));
    const leftErrors = left.error - leftInputs - leftStale;
    const parts = [
      leftErrors ? plural(leftErrors, 'error') : '',
      left.warning ? plural(left.warning, 'warning') : '',
      left.notice ? plural(left.notice, 'note') : '',
      leftInputs ? plural(leftInputs, 'input error') : '',
      leftStale ? plural(leftStale, 'stale baseline entry', 'stale baseline entries') : '',
    ].filter(Boolean);
    const where = [
      // Only the reports that do: markdown when its size budget held every row, SARIF when it kept every result.
      ...(leftErrors + left.warning + left.notice ? [listedInFull(report, opts.quiet, markdownListsAll(report, opts))] : []),
      ...(leftInputs ? ['stderr lists every input error'] : []),
      ...(leftStale ? ['stderr and the JSON report (baseline.staleEntries) list every stale baseline entry'] : []),
    ];
    lines.push(
      workflowCommand({
        command: 'notice',
        properties: [['title', 'mcp-annotate: more findings than annotations']],
        message: `${leftOut} of ${total} annotations were left out (${parts.join(', ')}): GitHub shows at most ${GITHUB_ANNOTATIONS_PER_LEVEL} error, ${GITHUB_ANNOTATIONS_PER_LEVEL} warning and ${GITHUB_ANNOTATIONS_PER_LEVEL} notice annotations per step, so the most severe were kept. ${where.join('; ').replace(/^./, (c) => c.toUpperCase())}.`,
      }),
    );
  }

  const n = count(report.findings);
  const tools = report.servers.reduce((s, x) => s + x.tools, 0);
  const scope = `${plural(report.servers.length, 'server')}, ${plural(tools, 'tool')}`;
  const errs = (report.errors.length ? `; ${plural(report.errors.length, 'input')} could not be read` : '') + failureClauses(report);
  const problems = n.error + n.warning + n.note;
  lines.push(
    problems === 0
      ? `mcp-annotate: no problems in ${scope}${errs}`
      : `mcp-annotate: ${plural(problems, 'problem')} (${plural(n.error, 'error')}, ${plural(n.warning, 'warning')}, ${plural(n.note, 'note')}) in ${scope}${errs}`,
  );
  return lines.join('\n') + '\n';
}
