/**
 * Every rule, in catalogue order. A test checks that each file in rules/ is listed
 * here, has a doc page in docs/rules/ and examples that produce what they claim.
 */
import type { Rule } from '../src/rule.js';
// Structure and schema
import schemaValid from './schema-valid.js';
// Core hints
// Consistency across vocabularies
import readonlyVsOutcome from './readonly-vs-outcome.js';
// Heuristics
// Across tools of one server

export const RULES: readonly Rule[] = [
  // Structure and schema
  schemaValid,
  // Core hints
  // Consistency across vocabularies
  readonlyVsOutcome,
  // Heuristics
  // Across tools of one server
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}
