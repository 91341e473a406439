/**
 * text: grouped by server, then tool; one line per finding with its position,
 * severity, message and rule id, the fix suggestion beneath; a summary line.
 * Every string that came from a server is escaped: nothing it holds can move the
 * cursor, recolour the terminal or reorder the line.
 */
import type { ChalkInstance } from 'chalk';
import type { Finding } from '../types.js';
import { joinWords, nameLine, oneLine, plural } from '../util/text.js';
import { count, failureClauses, groupByTool, headlineMark, visible, type Report, type ReporterOptions } from './types.js';
import { maxOf } from '../util/array.js';

function severityLabel(c: ChalkInstance, f: Finding): string {
  const label = f.severity.padEnd(7);
  return f.severity === 'error' ? c.red(label) : f.severity === 'warning' ? c.yellow(label) : c.blue(label);
}

/** Chalk's interface without colour: what text output uses when it is not coloured (chalk itself loads only for colour). */
const PLAIN = ((): ChalkInstance => {
  const style = ((text: string) => text) as unknown as Record<string, unknown>;
  for (const name of ['red', 'yellow', 'blue', 'green', 'cyan', 'bold', 'dim', 'underline']) style[name] = style;
  return style as unknown as ChalkInstance;
})();

export function formatText(report: Report, opts: ReporterOptions): string {
  const c = opts.color && opts.chalk ? opts.chalk : PLAIN;
  const findings = visible(report.findings, opts.quiet);
  const out: string[] = [];
  const byServer = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byServer.get(f.serverId) ?? [];
    list.push(f);
    byServer.set(f.serverId, list);
  }
  for (const server of report.servers) {
    const list = byServer.get(server.id);
    if (!list) continue;
    out.push(`${c.bold(nameLine(server.name))} ${c.dim(`${oneLine(server.origin.display)} · ${plural(server.tools, 'tool')}`)}`);
    // file:line:col on every line, so terminals and editors can jump to it. A finding with no
    // place in a text (a live server without a snapshot) is placed by its pointer into the listing after a
    // `#` (`#/tools/2/annotations`; `#` alone for the whole): the server's command line or URL,
    // which the heading shows, said again on each line would be no place to jump to.
    const groups = groupByTool(list);
    const positions = groups.flat().map((f) => {
      if (f.file === undefined && !f.region) return oneLine(`#${f.pointer}`);
      const where = oneLine(f.file ?? server.origin.display);
      return f.region ? `${where}:${f.region.line}:${f.region.column}` : where;
    });
    const width = maxOf(positions.map((p) => p.length));
    let i = 0;
    for (const group of groups) {
      const first = group[0]!;
      out.push(`  ${first.tool === undefined ? c.dim('(server)') : c.underline(nameLine(first.tool))}`);
      for (const f of group) {
        const pos = positions[i++]!.padEnd(width);
        out.push(`    ${c.dim(pos)}  ${severityLabel(c, f)}  ${oneLine(f.message)}  ${c.dim(f.ruleId)}`);
        if (f.suggestion) out.push(`    ${' '.repeat(width)}  ${' '.repeat(7)}  ${c.dim(`→ ${oneLine(f.suggestion)}`)}`);
      }
    }
    out.push('');
  }
  const n = count(report.findings);
  const total = n.error + n.warning + n.note;
  const tools = report.servers.reduce((sum, s) => sum + s.tools, 0);
  const scope = `${plural(report.servers.length, 'server')}, ${plural(tools, 'tool')}`;
  // The mark is the run's verdict (its exit code), not the most severe finding's.
  const verdict = headlineMark(report, n);
  const errs = (report.errors.length ? `; ${plural(report.errors.length, 'input')} could not be linted` : '') + failureClauses(report);
  if (total === 0) {
    out.push(`${verdict === 'fail' ? c.red('✖') : c.green('✔')} no problems in ${scope}${errs}`);
  } else {
    const parts = `${plural(n.error, 'error')}, ${plural(n.warning, 'warning')}, ${plural(n.note, 'note')}`;
    const mark = verdict === 'fail' ? c.red.bold('✖') : verdict === 'warn' ? c.yellow.bold('⚠') : c.blue('ℹ');
    // "1 warning", "2 notes", "1 warning and 2 notes": only the kinds there are.
    const hiddenParts = [...(n.warning ? [plural(n.warning, 'warning')] : []), ...(n.note ? [plural(n.note, 'note')] : [])];
    const hidden = opts.quiet && hiddenParts.length ? ` (${joinWords(hiddenParts)} hidden by --quiet)` : '';
    out.push(`${mark} ${plural(total, 'problem')} (${parts}) in ${scope}${errs}${hidden}`);
  }
  return out.join('\n') + '\n';
}
