/**
 * Renders a rule's doc page (docs/rules/<id>.md) from the rule itself: metadata, the
 * why, the judgment calls, and each example with the findings the linter really
 * produces for it. `npm run docs` writes the pages; a test fails when one is stale,
 * and another lints each page's examples back from the markdown.
 */
import type { Rule, RuleExample } from '../rule.js';
import { CATEGORY_TITLES } from '../rule.js';
import { exampleText, lintExample } from './examples.js';
import type { Finding } from '../types.js';

export const DOC_EXAMPLE_MARKER = 'mcp-annotate-example';

function exampleSettings(example: RuleExample): string | undefined {
  const settings: Record<string, unknown> = {};
  if (example.options) settings.options = example.options;
  if (example.packs) settings.packs = example.packs;
  if (example.spec) settings.spec = example.spec;
  return Object.keys(settings).length ? JSON.stringify(settings) : undefined;
}

export function findingLine(f: Finding): string {
  const where = f.region ? ` (line ${f.region.line}, column ${f.region.column})` : '';
  return `- **${f.severity}** at \`${f.pointer === '' ? '""' : f.pointer}\`${where}: ${f.message}${f.suggestion ? `\n  Fix: ${f.suggestion}` : ''}`;
}

function renderExample(rule: Rule, example: RuleExample, allRules: readonly Rule[], kind: 'incorrect' | 'correct'): string {
  const text = exampleText(example);
  const findings = lintExample(rule, example, allRules, text).filter((f) => f.ruleId === rule.id);
  const settings = exampleSettings(example);
  const parts = [`### ${example.title}`, ''];
  if (example.explanation) parts.push(example.explanation, '');
  if (settings) {
    parts.push(`With ${Object.entries(JSON.parse(settings) as Record<string, unknown>).map(([k, v]) => `${k} \`${JSON.stringify(v)}\``).join(', ')}:`, '');
  }
  parts.push(`<!-- ${DOC_EXAMPLE_MARKER} ${kind}${settings ? ` ${settings}` : ''} -->`);
  parts.push('```json', text.trimEnd(), '```', '');
  if (kind === 'incorrect') {
    parts.push(`${findings.length === 1 ? 'Finding' : 'Findings'}:`, '', ...findings.map(findingLine), '');
  } else {
    parts.push(`No \`${rule.id}\` findings.`, '');
  }
  return parts.join('\n');
}

/** A doc page's title, summary and metadata table. */
export function ruleHeader(rule: Rule): string[] {
  const out = [`# ${rule.id}`, '', `> ${rule.summary}`, '', '| | |', '| --- | --- |'];
  out.push(`| Default severity | ${rule.severity} |`);
  out.push(`| Category | ${CATEGORY_TITLES[rule.category]} |`);
  out.push(`| Packs | ${rule.packs.map((p) => `\`${p}\``).join(', ')} |`);
  out.push(`| Precision | ${rule.precision}${rule.category === 'heuristic' ? ' (heuristic)' : ''} |`);
  if (rule.security !== undefined) out.push(`| Security severity | ${rule.security.toFixed(1)} |`);
  return out;
}

export function renderRuleDoc(rule: Rule, allRules: readonly Rule[]): string {
  const out = ruleHeader(rule);
  out.push('', '## Why', '', rule.why.trim(), '');
  if (rule.notes) out.push('## Judgment calls', '', rule.notes.trim(), '');
  if (rule.options) {
    out.push('## Options', '', rule.options.docs.trim(), '', 'Defaults:', '', '```json', JSON.stringify(rule.options.defaults, null, 2), '```', '');
  }
  const shown = (list: RuleExample[]) => list.filter((e) => e.doc !== false);
  out.push('## Incorrect', '', 'Each example is linted as one file with every rule at its default; a server without `serverInfo.name` is called "example".', '');
  for (const e of shown(rule.examples.incorrect)) out.push(renderExample(rule, e, allRules, 'incorrect'));
  out.push('## Correct', '');
  for (const e of shown(rule.examples.correct)) out.push(renderExample(rule, e, allRules, 'correct'));
  out.push('## Configure', '', 'In `mcp-annotate.config.json`:', '', '```json', JSON.stringify({ rules: { [rule.id]: rule.severity === 'error' ? 'warning' : 'error' } }, null, 2), '```', '');
  out.push(`Run \`mcp-annotate explain ${rule.id}\` to read this page in a terminal.`, '');
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** Examples parsed back from a doc page: kind, settings and the exact JSON text. */
export interface DocExample {
  kind: 'incorrect' | 'correct';
  settings: { options?: Record<string, unknown>; packs?: string[]; spec?: string };
  text: string;
  /** The documented findings: severity and pointer, in order. */
  findings: { severity: string; pointer: string; message: string }[];
}

export function parseDocExamples(markdown: string): DocExample[] {
  const out: DocExample[] = [];
  const re = new RegExp(`<!-- ${DOC_EXAMPLE_MARKER} (incorrect|correct)(?: (\\{.*\\}))? -->\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\`\\n([\\s\\S]*?)(?=\\n### |\\n## |$)`, 'g');
  for (const m of markdown.matchAll(re)) {
    const findings = [...m[4]!.matchAll(/^- \*\*(error|warning|note)\*\* at `([^`]*)`(?: \([^)]*\))?: (.*)$/gm)].map((f) => ({
      severity: f[1]!,
      // The document root, whose pointer is the empty string, is written "".
      pointer: f[2] === '""' ? '' : f[2]!,
      message: f[3]!,
    }));
    out.push({ kind: m[1] as DocExample['kind'], settings: m[2] ? JSON.parse(m[2]) : {}, text: m[3]! + '\n', findings });
  }
  return out;
}
