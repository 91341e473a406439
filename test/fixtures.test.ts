/**
 * The bundled fixtures: the "everything consistent" server that uses every vocabulary
 * at once lints clean (no errors, no warnings), and the example server shows findings
 * of several kinds.
 */
import { describe, expect, it } from 'vitest';
import { PACKS } from '../src/packs/index.js';
import { ROOT } from './helpers/cli.js';
import { reportFor } from './helpers/lint.js';

describe('fixtures/consistent-server.json', () => {
  it('uses every vocabulary and lints with zero errors and zero warnings', async () => {
    const report = await reportFor(['fixtures/consistent-server.json'], ROOT);
    expect(report.errors).toEqual([]);
    const loud = report.findings.filter((f) => f.severity !== 'note');
    expect(loud.map((f) => `${f.ruleId} ${f.tool} ${f.message}`)).toEqual([]);
    // The one note: the _meta hints proposal spells its prefix forwards (mcp.dev/).
    expect(report.findings.map((f) => f.ruleId)).toEqual(['meta-key-format']);
  });

  it('really speaks every pack', async () => {
    const { loadTargets } = await import('../src/sources/files.js');
    const { lint } = await import('../src/engine/engine.js');
    const loaded = await loadTargets(['fixtures/consistent-server.json'], ROOT);
    const used = new Set<string>();
    const spy = { id: 'pack-usage', severity: 'note', category: 'structure', packs: [], summary: '', why: '', precision: 'high', examples: { correct: [], incorrect: [] },
      check(ctx: { claims: { packs(): Set<string> } }) { for (const p of ctx.claims.packs()) used.add(p); } } as never;
    lint(loaded.servers, [spy]);
    expect([...used].sort()).toEqual(PACKS.map((p) => p.id).sort());
  });
});

describe('fixtures/example-server.json', () => {
  it('shows errors, warnings and notes from several categories of rule', async () => {
    const report = await reportFor(['fixtures/example-server.json'], ROOT);
    const severities = new Set(report.findings.map((f) => f.severity));
    expect([...severities].sort()).toEqual(['error', 'note', 'warning']);
    const rules = new Set(report.findings.map((f) => f.ruleId));
    for (const id of ['schema-valid', 'hidden-characters', 'readonly-vs-outcome', 'destructive-vs-category', 'missing-readonly-hint', 'toxic-flow', 'name-vs-hints', 'vocabulary-key-collision', 'unknown-annotation-key']) {
      expect(rules, id).toContain(id);
    }
  });
});
