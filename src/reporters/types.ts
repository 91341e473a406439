import type { Rule } from '../rule.js';
import type { ServerSummary } from '../engine/engine.js';
import type { Finding, InputError } from '../types.js';
import { oneLine, plural } from '../util/text.js';

import type { BaselineSummary } from '../baseline/apply.js';

/** Everything a reporter needs; reporters never decide severity and never do I/O beyond reading docs. */
export interface Report {
  findings: Finding[];
  servers: ServerSummary[];
  errors: InputError[];
  /** Rules that ran, in catalogue order (SARIF rule metadata). */
  rules: readonly Rule[];
  /** Run-level notes (e.g. a server with no tools), shown where a format has a place for them. */
  cwd: string;
  /** The command that produced the report (headings in markdown); "lint" when absent. */
  command?: 'lint' | 'diff';
  /** What --baseline did (absent without one). */
  baseline?: BaselineSummary;
  /**
   * Set when the warnings that count are more than --max-warnings (or the config's maxWarnings)
   * allows: the run fails for them. `config`: the config file whose maxWarnings set the limit.
   */
  tooManyWarnings?: { max: number; warnings: number; config?: string };
  /**
   * Whether the run fails (its exit code is not 0) under --fail-on, --max-warnings and
   * --fail-on-stale, or for an input it could not read: the headline mark of text and
   * markdown says it. Absent: as the default thresholds decide (see runFails).
   */
  fails?: boolean;
  /**
   * The run's exit code (SARIF's invocations[0].exitCode). Absent: not known.
   */
  exitCode?: number;
  /**
   * The report files (--output-file) that could not be written, each with why: the run fails
   * for them (exit 2). lint writes its files first and the reports to stdout last, and writes
   * the files it did write again with this set, so every report says the same verdict (except
   * one written to a device or pipe, which cannot be written again).
   */
  unwritten?: { file: string; reason: string }[];
}

/**
 * The run's verdict, which the headlines of text and markdown show: `report.fails` when the
 * command set it, else what the defaults decide (an error that is not informational, an
 * input error, stale baseline entries under --fail-on-stale, too many warnings). A report file
 * that could not be written always fails it.
 */
export function runFails(report: Report): boolean {
  if (report.unwritten?.length) return true;
  if (report.fails !== undefined) return report.fails;
  return report.errors.length > 0 || Boolean(report.baseline?.failStale) || Boolean(report.tooManyWarnings) || report.findings.some((f) => f.severity === 'error' && !f.informational);
}

/**
 * The headline mark: the run's verdict. A failing run is 'fail' whatever its findings'
 * severities; a passing one is 'clean' without findings, else 'warn' when an error or warning
 * is among them (it passes with findings), else 'info' (notes only).
 */
export function headlineMark(report: Report, n: Counts): 'fail' | 'clean' | 'warn' | 'info' {
  if (runFails(report)) return 'fail';
  if (n.error + n.warning + n.note === 0) return 'clean';
  return n.error + n.warning ? 'warn' : 'info';
}

/**
 * Why the run fails beyond its findings' severities, as a clause for a summary line:
 * "; 2 stale baseline entries fail the run (--fail-on-stale)".
 */
export function failureClauses(report: Report): string {
  const b = report.baseline;
  const w = report.tooManyWarnings;
  return (
    (b?.failStale ? `; ${plural(b.stale, 'stale baseline entry', 'stale baseline entries')} ${b.stale === 1 ? 'fails' : 'fail'} the run (--fail-on-stale)` : '') +
    (w ? `; ${tooManyWarningsSentence(w)}` : '') +
    (report.unwritten ?? []).map((u) => `; ${unwrittenSentence(u)}`).join('')
  );
}

/** "cannot write out.sarif (it is a directory), which fails the run (exit code 2)": a report file that could not be written. */
export function unwrittenSentence(u: { file: string; reason: string }): string {
  return `cannot write ${oneLine(u.file)} (${oneLine(u.reason)}), which fails the run (exit code 2)`;
}

/** Where a warning limit came from: "--max-warnings 1", or "maxWarnings 1 of mw.yaml" (the config's). */
export function warningLimit(w: NonNullable<Report['tooManyWarnings']>): string {
  return w.config !== undefined ? `maxWarnings ${w.max} of ${oneLine(w.config)}` : `--max-warnings ${w.max}`;
}

/** "2 warnings are more than --max-warnings 1 allows, which fails the run" (or "… than maxWarnings 1 of mw.yaml allows …"). */
export function tooManyWarningsSentence(w: NonNullable<Report['tooManyWarnings']>): string {
  return `${plural(w.warnings, 'warning')} ${w.warnings === 1 ? 'is' : 'are'} more than ${warningLimit(w)} allows, which fails the run`;
}

export interface ReporterOptions {
  color: boolean;
  /** Only errors. */
  quiet: boolean;
  /** Size budget of the markdown report in bytes (default: under the 1 MiB of a step summary). */
  markdownMaxBytes?: number;
  /** Colours for text output when `color` is on (chalk is loaded only then; see colourFor()). */
  chalk?: import('chalk').ChalkInstance;
}

/** A chalk instance when output is coloured; loaded on demand so plain runs never pay for it. */
export async function colourFor(color: boolean): Promise<import('chalk').ChalkInstance | undefined> {
  if (!color) return undefined;
  const { Chalk } = await import('chalk');
  return new Chalk({ level: 1 });
}

export type FormatName = 'text' | 'json' | 'sarif' | 'github' | 'markdown';

export interface Counts {
  error: number;
  warning: number;
  note: number;
}

export function count(findings: readonly Finding[]): Counts {
  const c: Counts = { error: 0, warning: 0, note: 0 };
  for (const f of findings) c[f.severity]++;
  return c;
}

export function visible(findings: readonly Finding[], quiet: boolean): Finding[] {
  return quiet ? findings.filter((f) => f.severity === 'error') : [...findings];
}


/**
 * One server's findings (in report order) grouped by tool, for the formats that show them by
 * tool (text, markdown): each tool one group, server-level findings (no tool) one more. A tool
 * is its place in the server's tools when the finding has one (two tools of one name stay
 * apart); a session call's finding without one (its tool was not declared when it was sent)
 * joins the first listed tool of that name, or else the other findings of that name. The
 * groups come in the order of their first finding's position (a finding without one counts as
 * the start of the file, then report order), each group's findings in the order of their
 * positions: a session reports a tool's findings wherever its calls are, so report order
 * (tool index, then position) would split one tool's findings around another's.
 */
export function groupByTool(list: readonly Finding[]): Finding[][] {
  const firstIndex = new Map<string, number>();
  for (const f of list) {
    if (f.tool !== undefined && f.toolIndex !== undefined) {
      const known = firstIndex.get(f.tool);
      if (known === undefined || f.toolIndex < known) firstIndex.set(f.tool, f.toolIndex);
    }
  }
  const keyOf = (f: Finding): string => {
    if (f.tool === undefined) return 's';
    const index = f.toolIndex ?? firstIndex.get(f.tool);
    return index === undefined ? `n${f.tool}` : `i${index}`;
  };
  const at = (f: Finding, i: number): [number, number, number] => [f.region?.line ?? 0, f.region?.column ?? 0, i];
  const before = (a: [number, number, number], b: [number, number, number]) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  const groups = new Map<string, { findings: { f: Finding; at: [number, number, number] }[] }>();
  list.forEach((f, i) => {
    const key = keyOf(f);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { findings: [] }));
    g.findings.push({ f, at: at(f, i) });
  });
  const sorted = [...groups.values()].map((g) => g.findings.sort((a, b) => before(a.at, b.at)));
  sorted.sort((a, b) => before(a[0]!.at, b[0]!.at));
  return sorted.map((g) => g.map((x) => x.f));
}
