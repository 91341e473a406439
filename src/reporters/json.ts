/**
 * json: a stable, versioned shape (schemas/report.schema.json describes it).
 * Version 1. Fields are only added within a version, never renamed or removed.
 */
import { TOOL_NAME, version } from '../version.js';
import { escapeJsonControls } from '../util/json.js';
import type { Finding } from '../types.js';
import { count, visible, type Report, type ReporterOptions } from './types.js';

export const JSON_REPORT_VERSION = 1;

function jsonFinding(f: Finding) {
  return {
    ruleId: f.ruleId,
    severity: f.severity,
    message: f.message,
    suggestion: f.suggestion ?? null,
    server: f.server,
    serverId: f.serverId,
    tool: f.tool ?? null,
    pointer: f.pointer,
    toolPointer: f.toolPointer,
    file: f.file ?? null,
    line: f.region?.line ?? null,
    column: f.region?.column ?? null,
    endLine: f.region?.endLine ?? null,
    endColumn: f.region?.endColumn ?? null,
    related: (f.related ?? []).map((r) => ({
      message: r.message,
      server: r.server,
      tool: r.tool ?? null,
      pointer: r.pointer,
      file: r.file ?? null,
      line: r.region?.line ?? null,
      column: r.region?.column ?? null,
    })),
    fix: f.fix ? { description: f.fix.description, replacements: f.fix.replacements } : null,
    ...(f.informational ? { informational: true } : {}),
  };
}

/** Everything but the findings. */
function head(report: Report, quiet: boolean) {
  const n = count(report.findings);
  return {
    version: JSON_REPORT_VERSION,
    tool: { name: TOOL_NAME, version: version() },
    // Every finding of the run, also those --quiet leaves out of `findings`.
    summary: {
      errors: n.error,
      warnings: n.warning,
      notes: n.note,
      servers: report.servers.length,
      tools: report.servers.reduce((s, x) => s + x.tools, 0),
      inputErrors: report.errors.length,
    },
    // Only with --quiet: `findings` lists errors only; these are the findings it leaves out.
    ...(quiet ? { quiet: { warnings: n.warning, notes: n.note } } : {}),
    // Only with --baseline: the findings it kept out of this report, and its stale entries.
    ...(report.baseline ? { baseline: report.baseline } : {}),
    // Only when the warnings that count are more than --max-warnings allows (the run fails for them).
    ...(report.tooManyWarnings ? { tooManyWarnings: report.tooManyWarnings } : {}),
    // Only when report files could not be written (the run fails for them, exit 2).
    ...(report.unwritten?.length ? { unwritten: report.unwritten } : {}),
    servers: report.servers.map((s) => ({
      id: s.id,
      name: s.name,
      source: s.origin.display,
      kind: s.origin.kind,
      tools: s.tools,
      spec: s.spec,
    })),
  };
}

function inputErrors(report: Report) {
  return report.errors.map((e) => ({
    target: e.target,
    message: e.message,
    file: e.file ?? null,
    line: e.line ?? null,
    column: e.column ?? null,
  }));
}

export function jsonReport(report: Report, opts: Pick<ReporterOptions, 'quiet'>) {
  return { ...head(report, opts.quiet), findings: visible(report.findings, opts.quiet).map(jsonFinding), inputErrors: inputErrors(report) };
}

/**
 * The report as chunks of text, each finding serialised on its own: a run with a
 * hundred thousand findings never holds the whole document (or a second copy of every
 * finding) in memory. The bytes are those of JSON.stringify(jsonReport(…), null, 2), but for
 * the controls escapeJsonControls writes as \uXXXX.
 */
export function* jsonChunks(report: Report, opts: Pick<ReporterOptions, 'quiet'>): Generator<string> {
  const findings = visible(report.findings, opts.quiet);
  yield* spliceArray({ ...head(report, opts.quiet), findings: [], inputErrors: inputErrors(report) }, 'findings', 1, findings, jsonFinding);
}

/**
 * JSON.stringify(doc, null, 2) + "\n" with the (empty) array at `key` filled from
 * `items`. `depth` is how deep the key sits (1 = a member of the root). C1 and bidi
 * controls and U+2028/U+2029 are written as \uXXXX (escapeJsonControls): the same value.
 *
 * Items are serialised a batch at a time by one JSON.stringify of the batch nested `depth`
 * objects deep, where JSON.stringify itself indents them as they stand in the document:
 * no re-indenting of each item's lines.
 */
export function* spliceArray<T>(doc: unknown, key: string, depth: number, items: Iterable<T>, map: (item: T) => unknown): Generator<string> {
  const text = JSON.stringify(doc, null, 2);
  const pad = '  '.repeat(depth);
  const marker = `\n${pad}${JSON.stringify(key)}: []`;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`spliceArray: no empty ${key} array at depth ${depth}`);
  const nest = (array: unknown[]) => {
    let v: unknown = array;
    for (let d = 0; d < depth; d++) v = { k: v };
    return v;
  };
  // What JSON.stringify writes around the items of the nested batch (a lone 0 finds it), and
  // where the newline and indent before the first item start.
  const probe = JSON.stringify(nest([0]), null, 2);
  const before = probe.indexOf('0');
  const after = probe.length - before - 1;
  const lead = before - pad.length - 3;
  // Each batch is its own chunk, escaped and cut out of JSON.stringify's flat text: a sliced
  // string, never copied again before the stream encodes it (a chunk grown with += was a rope
  // that escaping and writing flattened, one more copy of every byte of the report).
  yield escapeJsonControls(text.slice(0, at + marker.length - 1));
  let first = true;
  const batch: unknown[] = [];
  const flush = (): string => {
    const s = escapeJsonControls(JSON.stringify(nest(batch), null, 2));
    batch.length = 0;
    return s.slice(lead, s.length - after);
  };
  for (const item of items) {
    batch.push(map(item));
    if (batch.length === 256) {
      if (!first) yield ',';
      first = false;
      yield flush();
    }
  }
  if (batch.length) {
    if (!first) yield ',';
    first = false;
    yield flush();
  }
  yield escapeJsonControls(`${first ? '' : `\n${pad}`}]${text.slice(at + marker.length)}\n`);
}

export function formatJson(report: Report, opts: ReporterOptions): string {
  return [...jsonChunks(report, opts)].join('');
}
