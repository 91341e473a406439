/**
 * Runs a rule's examples through the real pipeline (document text → shapes →
 * engine with every rule → findings), for the rule tests and the doc pages.
 */
import type { Rule, RuleExample } from '../rule.js';
import type { Finding, PackId } from '../types.js';
import { PACK_IDS } from '../types.js';
import { loadText } from '../sources/files.js';
import { lint } from '../engine/engine.js';

export function exampleDocument(example: RuleExample): unknown {
  if (example.document !== undefined) return example.document;
  if (example.transcript) return example.transcript;
  if (example.servers) return { servers: example.servers };
  return { tools: example.tools ?? [] };
}

/**
 * Characters a doc page must not hold raw (they hide or reorder text): written as JSON
 * escapes. As escapeTerminal: DEL and C1 controls, line and paragraph separators,
 * interlinear annotation marks and every default-ignorable code point (zero-width, bidi,
 * Hangul fillers, tag characters, variation selectors…). JSON.stringify already escapes
 * C0 controls and lone surrogates.
 */
const INVISIBLE_IN_JSON = /[\u007f-\u009f\u2028\u2029\ufff9-\ufffb\p{Default_Ignorable_Code_Point}]/gu;

export function exampleText(example: RuleExample): string {
  if (example.text !== undefined) return example.text.endsWith('\n') ? example.text : `${example.text}\n`;
  const text = JSON.stringify(exampleDocument(example), null, 2);
  return text.replace(INVISIBLE_IN_JSON, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}${ch.length > 1 ? `\\u${ch.charCodeAt(1).toString(16).padStart(4, '0')}` : ''}`) + '\n';
}

/** Lint an example's document; returns every finding (all rules at their defaults). */
export function lintExample(rule: Rule, example: RuleExample, allRules: readonly Rule[], text = exampleText(example)): Finding[] {
  const display = `${rule.id}.json`;
  const servers = loadText(text, { kind: 'file', path: display, display }, 'example', display);
  const packs: PackId[] = example.packs ?? [...PACK_IDS];
  return lint(servers, allRules, {
    spec: example.spec,
    packs,
    rules: example.options ? { [rule.id]: [rule.severity, example.options] } : undefined,
  }).findings;
}

/** The findings of the example's own rule. */
export function ruleFindings(rule: Rule, example: RuleExample, allRules: readonly Rule[], text?: string): Finding[] {
  return lintExample(rule, example, allRules, text).filter((f) => f.ruleId === rule.id);
}
