/**
 * Every rule's examples, run through the real pipeline: incorrect examples produce
 * exactly the findings they list (rule id, pointer, severity), correct ones none.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../rules/index.js';
import { ruleFindings } from '../src/docs/examples.js';

describe('rule registry', () => {
  it('lists every file in rules/ exactly once, under its file name', () => {
    const files = readdirSync(new URL('../rules/', import.meta.url))
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    const ids = RULES.map((r) => r.id).sort();
    const unregistered = files.filter((f) => !ids.includes(f)).map((f) => `rules/${f}.ts`);
    expect(unregistered, `not registered in rules/index.ts (import it and add it to RULES): ${unregistered.join(', ')}`).toEqual([]);
    expect(ids, 'every rule in rules/index.ts has its own file, rules/<id>.ts, and appears once').toEqual(files);
  });

  it('gives each rule an id in kebab-case, a summary, a why and both kinds of example', () => {
    for (const rule of RULES) {
      expect(rule.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(rule.summary.length, rule.id).toBeGreaterThan(20);
      expect(rule.why.length, rule.id).toBeGreaterThan(80);
      expect(rule.examples.incorrect.length, `${rule.id} incorrect examples`).toBeGreaterThan(0);
      expect(rule.examples.correct.length, `${rule.id} correct examples`).toBeGreaterThan(0);
      for (const e of rule.examples.incorrect) expect(e.findings?.length, `${rule.id}: ${e.title}`).toBeGreaterThan(0);
      if (rule.category === 'heuristic') expect(['medium', 'low']).toContain(rule.precision);
    }
  });
});

for (const rule of RULES) {
  describe(rule.id, () => {
    for (const example of rule.examples.incorrect) {
      it(`reports: ${example.title}`, () => {
        const found = ruleFindings(rule, example, RULES);
        expect(found.map((f) => ({ pointer: f.pointer, severity: f.severity }))).toEqual(
          example.findings!.map((f) => ({ pointer: f.pointer, severity: f.severity ?? rule.severity })),
        );
        for (const f of found) {
          expect(f.message.length).toBeGreaterThan(10);
          expect(f.suggestion ?? '', `${rule.id} findings carry a fix suggestion`).not.toBe('');
        }
      });
    }
    for (const example of rule.examples.correct) {
      it(`accepts: ${example.title}`, () => {
        expect(ruleFindings(rule, example, RULES).map((f) => `${f.pointer}: ${f.message}`)).toEqual([]);
      });
    }
  });
}
