/**
 * Every rule, in catalogue order. A test checks that each file in rules/ is listed
 * here, has a doc page in docs/rules/ and examples that produce what they claim.
 */
import type { Rule } from '../src/rule.js';
import schemaValid from './schema-valid.js';

export const RULES: readonly Rule[] = [schemaValid];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}
