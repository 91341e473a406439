/**
 * Built-in presets for `extends`. Each is a function of the rule catalogue, so a new
 * rule is in every preset at the level the preset promises.
 */
import type { Rule } from '../rule.js';
import type { RuleSetting } from '../engine/engine.js';

export const PRESET_NAMES = ['mcp-annotate:recommended', 'mcp-annotate:strict', 'mcp-annotate:all'] as const;
export type PresetName = (typeof PRESET_NAMES)[number];

export const PRESET_DOCS: Record<PresetName, string> = {
  'mcp-annotate:recommended': 'every rule at its documented default severity, the same as no config',
  'mcp-annotate:strict': 'every finding one level up (warnings become errors and notes warnings, secondary cases included), except for the heuristic rules and ignored-hint, which keep their defaults',
  'mcp-annotate:all': 'every finding of every lint rule, heuristics, notes and secondary cases included, as an error',
};

/**
 * Whether `strict` leaves a rule at its default: the heuristic rules (they can be wrong), and
 * ignored-hint — real servers carry redundant but harmless hints (destructiveHint or
 * idempotentHint beside readOnlyHint true) all the time, and the catalogue gives them notes
 * at most: raised, every reference server would fail `--max-warnings 0`.
 */
function strictKeepsDefault(r: Rule): boolean {
  return r.category === 'heuristic' || r.id === 'ignored-hint';
}

/**
 * How many levels a preset raises every finding of each rule it changes: a rule's documented
 * lower-severity cases (a warning case of an error rule) move up with it, so under `strict` no
 * warning of a non-heuristic rule is left, and under `all` every finding is an error. A rule
 * the preset leaves at its default is not listed.
 */
export function presetRaise(name: PresetName, rules: readonly Rule[]): Record<string, number> {
  const out: Record<string, number> = {};
  if (name === 'mcp-annotate:recommended') return out;
  for (const r of rules) {
    if (r.category === 'policy') continue;
    if (name === 'mcp-annotate:strict' && !strictKeepsDefault(r)) out[r.id] = 1;
    if (name === 'mcp-annotate:all') out[r.id] = 2;
  }
  return out;
}

/** The severity each rule gets from a preset. */
export function presetRules(name: PresetName, rules: readonly Rule[]): Record<string, RuleSetting> {
  const out: Record<string, RuleSetting> = {};
  for (const r of rules) {
    if (r.category === 'policy') continue;
    switch (name) {
      case 'mcp-annotate:recommended':
        out[r.id] = r.severity;
        break;
      case 'mcp-annotate:strict':
        out[r.id] = strictKeepsDefault(r) ? r.severity : r.severity === 'note' ? 'warning' : 'error';
        break;
      case 'mcp-annotate:all':
        out[r.id] = 'error';
        break;
    }
  }
  return out;
}
