/**
 * json: a stable, versioned shape (schemas/report.schema.json describes it).
 * Version 1. Fields are only added within a version, never renamed or removed.
 */
import { TOOL_NAME, version } from '../version.js';
import { count, visible, type Report, type ReporterOptions } from './types.js';

export const JSON_REPORT_VERSION = 1;

export function jsonReport(report: Report, opts: Pick<ReporterOptions, 'quiet'>) {
  const findings = visible(report.findings, opts.quiet);
  const n = count(report.findings);
  return {
    version: JSON_REPORT_VERSION,
    tool: { name: TOOL_NAME, version: version() },
    summary: {
      errors: n.error,
      warnings: n.warning,
      notes: n.note,
      servers: report.servers.length,
      tools: report.servers.reduce((s, x) => s + x.tools, 0),
      inputErrors: report.errors.length,
    },
    servers: report.servers.map((s) => ({
      id: s.id,
      name: s.name,
      source: s.origin.display,
      kind: s.origin.kind,
      tools: s.tools,
      spec: s.spec,
    })),
    findings: findings.map((f) => ({
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
    })),
    inputErrors: report.errors.map((e) => ({
      target: e.target,
      message: e.message,
      file: e.file ?? null,
      line: e.line ?? null,
      column: e.column ?? null,
    })),
  };
}

export function formatJson(report: Report, opts: ReporterOptions): string {
  return JSON.stringify(jsonReport(report, opts), null, 2) + '\n';
}
