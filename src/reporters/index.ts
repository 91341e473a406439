import type { FormatName, Report, ReporterOptions } from './types.js';
import { formatText } from './text.js';
import { formatJson, jsonChunks } from './json.js';
import { formatSarif, sarifChunks } from './sarif.js';
import { formatGithub } from './github.js';
import { formatMarkdown } from './markdown.js';

export const FORMATS: readonly FormatName[] = ['text', 'json', 'sarif', 'github', 'markdown'];

/** The report in chunks (json and sarif stream one finding at a time; the others come whole). */
export function formatChunks(name: FormatName, report: Report, opts: ReporterOptions): Iterable<string> {
  if (name === 'json') return jsonChunks(report, opts);
  if (name === 'sarif') return sarifChunks(report, opts);
  return [format(name, report, opts)];
}

export function format(name: FormatName, report: Report, opts: ReporterOptions): string {
  switch (name) {
    case 'text':
      return formatText(report, opts);
    case 'json':
      return formatJson(report, opts);
    case 'sarif':
      return formatSarif(report, opts);
    case 'github':
      return formatGithub(report, opts);
    case 'markdown':
      return formatMarkdown(report, opts);
    default:
      throw new Error(`unknown format ${name}`);
  }
}
