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
  'mcp-annotate:strict': 'warnings become errors and notes become warnings, except for the heuristic rules, which keep their defaults',
  'mcp-annotate:all': 'every rule, heuristics and notes included, as an error',
};

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
        out[r.id] = r.category === 'heuristic' ? r.severity : r.severity === 'note' ? 'warning' : 'error';
        break;
      case 'mcp-annotate:all':
        out[r.id] = 'error';
        break;
    }
  }
  return out;
}
