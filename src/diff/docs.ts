/**
 * Doc pages of the drift rules (docs/rules/drift/<name>.md): like a lint rule's page, but
 * each example is two documents, the base and the head, and its findings are what
 * `mcp-annotate diff base.json head.json` reports. The pages are rendered from the rules;
 * test/diff-docs.test.ts checks they are current and diffs each page's examples back from
 * the markdown.
 */
import type { RuleExample } from '../rule.js';
import { exampleText } from '../docs/examples.js';
import { findingLine, ruleHeader } from '../docs/render.js';
import { loadText } from '../sources/files.js';
import type { Finding } from '../types.js';
import { diff } from './diff.js';
import type { DriftRule } from './types.js';

export const DRIFT_EXAMPLE_MARKER = 'mcp-annotate-example';
export const DRIFT_BASE_MARKER = 'mcp-annotate-example-base';

/** The two documents of a drift example, as JSON text. */
export function driftExampleTexts(example: RuleExample): { base: string; head: string } {
  const { base, ...head } = example;
  return { base: exampleText({ title: example.title, document: base ?? { tools: [] } }), head: exampleText(head) };
}

/** Diff two documents named base.json and head.json with every drift rule. */
export function diffTexts(baseText: string, headText: string, rules: readonly DriftRule[]): Finding[] {
  const base = loadText(baseText, { kind: 'file', path: 'base.json', display: 'base.json' }, 'base', 'base.json');
  const head = loadText(headText, { kind: 'file', path: 'head.json', display: 'head.json' }, 'head', 'head.json');
  return diff(base, head, rules).findings;
}

/** The findings of the example's own rule. */
export function driftRuleFindings(rule: DriftRule, example: RuleExample, rules: readonly DriftRule[]): Finding[] {
  const { base, head } = driftExampleTexts(example);
  return diffTexts(base, head, rules).filter((f) => f.ruleId === rule.id);
}

function renderExample(rule: DriftRule, example: RuleExample, rules: readonly DriftRule[], kind: 'incorrect' | 'correct'): string {
  const { base, head } = driftExampleTexts(example);
  const findings = diffTexts(base, head, rules).filter((f) => f.ruleId === rule.id);
  const parts = [`### ${example.title}`, ''];
  if (example.explanation) parts.push(example.explanation, '');
  parts.push('Before (`base.json`):', '', `<!-- ${DRIFT_BASE_MARKER} ${kind} -->`, '```json', base.trimEnd(), '```', '');
  parts.push('After (`head.json`):', '', `<!-- ${DRIFT_EXAMPLE_MARKER} ${kind} -->`, '```json', head.trimEnd(), '```', '');
  if (kind === 'incorrect') parts.push(`${findings.length === 1 ? 'Finding' : 'Findings'} of \`mcp-annotate diff base.json head.json\`:`, '', ...findings.map(findingLine), '');
  else parts.push(`No \`${rule.id}\` findings.`, '');
  return parts.join('\n');
}

export function renderDriftDoc(rule: DriftRule, rules: readonly DriftRule[]): string {
  const out = ruleHeader(rule);
  out.push('', `A drift rule: \`mcp-annotate diff <base> <head>\` reports it when it compares two snapshots of a server, tool by tool. The finding points into the head; its related location is where the base said otherwise.`, '');
  out.push('## Why', '', rule.why.trim(), '');
  if (rule.notes) out.push('## Judgment calls', '', rule.notes.trim(), '');
  const shown = (list: RuleExample[]) => list.filter((e) => e.doc !== false);
  out.push('## Incorrect', '');
  for (const e of shown(rule.examples.incorrect)) out.push(renderExample(rule, e, rules, 'incorrect'));
  out.push('## Correct', '');
  for (const e of shown(rule.examples.correct)) out.push(renderExample(rule, e, rules, 'correct'));
  out.push(
    '## Configure',
    '',
    `\`mcp-annotate diff\` exits 1 when a finding is at least \`--fail-on\` (default \`error\`)${rule.severity === 'error' ? '' : `: \`--fail-on ${rule.severity}\` fails on this rule too`}.`,
    '',
    `Run \`mcp-annotate explain ${rule.id}\` to read this page in a terminal.`,
    '',
  );
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** A drift example parsed back from a doc page. */
export interface DriftDocExample {
  kind: 'incorrect' | 'correct';
  base: string;
  head: string;
  findings: { severity: string; pointer: string; message: string }[];
}

export function parseDriftDocExamples(markdown: string): DriftDocExample[] {
  const re = new RegExp(
    `<!-- ${DRIFT_BASE_MARKER} (incorrect|correct) -->\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\`\\n[\\s\\S]*?<!-- ${DRIFT_EXAMPLE_MARKER} (incorrect|correct) -->\\n\`\`\`json\\n([\\s\\S]*?)\\n\`\`\`\\n([\\s\\S]*?)(?=\\n### |\\n## |$)`,
    'g',
  );
  const out: DriftDocExample[] = [];
  for (const m of markdown.matchAll(re)) {
    if (m[1] !== m[3]) throw new Error(`a drift example's base is marked ${m[1]} but its head ${m[3]}`);
    const findings = [...m[5]!.matchAll(/^- \*\*(error|warning|note)\*\* at `([^`]*)`(?: \([^)]*\))?: (.*)$/gm)].map((f) => ({
      severity: f[1]!,
      pointer: f[2] === '(root)' ? '' : f[2]!,
      message: f[3]!,
    }));
    out.push({ kind: m[1] as DriftDocExample['kind'], base: m[2]! + '\n', head: m[4]! + '\n', findings });
  }
  return out;
}
