/**
 * A rule's mechanical fix must clear its finding without making another rule fire: each fix is
 * applied on its own (by pointer, as the JSON output gives it) and the result linted again.
 * The cases are probe BA's (fixes that traded one finding for another).
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../src/types.js';
import { split } from '../src/util/pointer.js';
import { reportForText } from './helpers/lint.js';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { runCliInProcess as runCli, tempDir } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess
import { settleOverlappingFixes, unwritableNumberIn } from '../src/engine/fixes.js';
import fc from 'fast-check';
import { assertProperty } from './helpers/property.js';

type Json = Record<string, unknown>;

const tool = (extra: Json): Json => ({ name: 'a', description: 'A tool.', inputSchema: { type: 'object', properties: {} }, ...extra });
const dump = (...tools: Json[]) => JSON.stringify({ tools }, null, 2) + '\n';
const lint = (text: string) => reportForText(text).findings;
const key = (f: Finding) => `${f.ruleId} ${f.pointer}`;

function setAt(doc: unknown, pointer: string, value: unknown): unknown {
  const parts = split(pointer);
  if (parts.length === 0) return value;
  let o = doc as Record<string, unknown>;
  for (const p of parts.slice(0, -1)) o = o[p] as Record<string, unknown>;
  o[parts[parts.length - 1]!] = value;
  return doc;
}

/** Applies one finding's fix by pointer, as a consumer of the JSON output does. */
function applied(text: string, f: Finding): string {
  let doc: unknown = JSON.parse(text);
  for (const r of f.fix!.replacements) doc = setAt(doc, r.pointer, JSON.parse(r.text));
  return JSON.stringify(doc, null, 2) + '\n';
}

/** Every fix clears its finding, and the lint after it has no error or warning the lint before it had not. */
function expectCleanFixes(text: string, ruleId: string): Finding[] {
  const before = lint(text);
  const fixed = before.filter((f) => f.ruleId === ruleId && f.fix);
  for (const f of fixed) {
    const after = lint(applied(text, f));
    expect(after.filter((g) => key(g) === key(f)), `${ruleId}'s fix clears it`).toEqual([]);
    const had = new Set(before.map(key));
    const fresh = after.filter((g) => (g.severity === 'error' || g.severity === 'warning') && !had.has(key(g)));
    expect(fresh.map((g) => `${key(g)}: ${g.message}`), `${ruleId}'s fix (${f.fix!.description}) makes nothing new fire`).toEqual([]);
  }
  return fixed;
}

describe('readonly-vs-category and readonly-vs-outcome: the fix settles destructiveHint too', () => {
  it('a stated destructiveHint false beside category delete is set to true with readOnlyHint', () => {
    const text = dump(tool({ annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false, category: 'delete', approvalRecommendation: 'single' } }));
    const [f] = expectCleanFixes(text, 'readonly-vs-category');
    expect(f?.fix?.replacements).toEqual([
      { pointer: '/tools/0/annotations/readOnlyHint', text: 'false' },
      { pointer: '/tools/0/annotations/destructiveHint', text: 'true' },
    ]);
  });

  it('the same with the _meta effect "delete"', () => {
    const text = dump(tool({ annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: false }, _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/requiresConfirmation': true } }));
    expect(expectCleanFixes(text, 'readonly-vs-category')).toHaveLength(1);
  });

  it('an absent destructiveHint is added: true for a delete', () => {
    const text = dump(tool({ annotations: { readOnlyHint: true, openWorldHint: false, category: 'delete', approvalRecommendation: 'single' } }));
    const [f] = expectCleanFixes(text, 'readonly-vs-category');
    expect(f?.fix?.replacements).toEqual([
      { pointer: '/tools/0/annotations', text: '{"readOnlyHint":false,"destructiveHint":true,"openWorldHint":false,"category":"delete","approvalRecommendation":"single"}' },
    ]);
    // The SARIF fix replaces the annotations object's region.
    expect(f?.fix?.regions).toHaveLength(1);
  });

  it('an absent destructiveHint is added: false when every outcome is benign', () => {
    const text = dump(
      tool({ annotations: { readOnlyHint: true, openWorldHint: false, category: 'mutate' }, _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'benign' } } }),
    );
    const [f] = expectCleanFixes(text, 'readonly-vs-category');
    expect(f?.fix?.description).toBe('Set readOnlyHint to false and add "destructiveHint": false');
  });

  it('no mechanical fix when nothing says whether the writes are destructive (mutate; consequential)', () => {
    for (const [annotations, rule] of [
      [{ readOnlyHint: true, openWorldHint: false, category: 'mutate' }, 'readonly-vs-category'],
      [{ readOnlyHint: true, openWorldHint: false, inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: ['benign', 'consequential'] } }, 'readonly-vs-outcome'],
    ] as const) {
      const found = lint(dump(tool({ annotations }))).filter((f) => f.ruleId === rule);
      expect(found).toHaveLength(1);
      expect(found[0]!.fix).toBeUndefined();
      expect(found[0]!.suggestion).toContain('add "destructiveHint" (false if the tool only adds');
    }
  });

  it('readonly-vs-category and readonly-vs-outcome on one tool make the same edit', () => {
    const text = dump(tool({ annotations: { readOnlyHint: true, openWorldHint: false, category: 'delete', inputMetadata: { destination: 'internal', sensitivity: 'none', outcomes: 'irreversible' } } }));
    const fixes = lint(text)
      .filter((f) => f.ruleId === 'readonly-vs-category' || f.ruleId === 'readonly-vs-outcome')
      .map((f) => f.fix?.replacements);
    expect(fixes).toHaveLength(2);
    expect(fixes[0]).toBeDefined();
    expect(fixes[1]).toEqual(fixes[0]);
  });
});

describe('readonly-contradicted: no readOnlyHint-true fix that name-vs-hints or risky-parameters would then contradict', () => {
  it('a name or a parameter that writes leaves the choice to the author', () => {
    const annotations = { readOnlyHint: false, destructiveHint: false, openWorldHint: false, category: 'read' };
    for (const t of [
      tool({ name: 'delete_rows', annotations }),
      tool({ inputSchema: { type: 'object', properties: { dry_run: { type: 'boolean' } } }, annotations }),
    ]) {
      const found = lint(dump(t)).filter((f) => f.ruleId === 'readonly-contradicted');
      expect(found).toHaveLength(1);
      expect(found[0]!.fix).toBeUndefined();
      expect(found[0]!.suggestion).toMatch(/^set readOnlyHint to true only if the tool really only reads: its (name "delete_rows"|input parameter "dry_run")/);
    }
  });

  it('otherwise the fix stays, and applying it makes nothing new fire', () => {
    const text = dump(tool({ name: 'get_rows', annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, category: 'read' } }));
    expect(expectCleanFixes(text, 'readonly-contradicted')).toHaveLength(1);
  });
});

describe('sensitivity-conflict and empty-possible-set on one list: one fix, and it clears both', () => {
  const text = dump(
    tool({
      annotations: { readOnlyHint: true, openWorldHint: false },
      _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: 'internal', sensitivity: ['none', 'PII', 'PII'] } } },
    }),
  );
  const at = '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/sensitivity';

  it('only sensitivity-conflict carries a fix for the list, and it is the combined result', () => {
    const found = lint(text).filter((f) => f.ruleId === 'sensitivity-conflict' || f.ruleId === 'empty-possible-set');
    expect(found.map((f) => f.ruleId).sort()).toEqual(['empty-possible-set', 'sensitivity-conflict']);
    const fixes = found.filter((f) => f.fix).map((f) => [f.ruleId, f.fix!.replacements]);
    expect(fixes).toEqual([['sensitivity-conflict', [{ pointer: at, text: '["PII"]' }]]]);
    const after = lint(applied(text, found.find((f) => f.fix)!));
    expect(after.filter((f) => f.ruleId === 'sensitivity-conflict' || f.ruleId === 'empty-possible-set')).toEqual([]);
    expectCleanFixes(text, 'sensitivity-conflict');
  });

  it('every fix of the run applied by its SARIF regions at once gives valid JSON that clears both', () => {
    const findings = lint(text);
    const edits = findings.flatMap((f) => f.fix?.regions ?? []);
    const lines = text.split('\n');
    const offset = (line: number, column: number) => lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
    const spans = edits.map((e) => ({ start: offset(e.region.line, e.region.column), end: offset(e.region.endLine!, e.region.endColumn!), text: e.text }));
    spans.sort((a, b) => b.start - a.start);
    spans.forEach((s, i) => expect(i === 0 || s.end <= spans[i - 1]!.start, 'no two fixes overlap').toBe(true));
    let out = text;
    for (const s of spans) out = out.slice(0, s.start) + s.text + out.slice(s.end);
    expect(() => JSON.parse(out)).not.toThrow();
    expect(lint(out).filter((f) => f.ruleId === 'sensitivity-conflict' || f.ruleId === 'empty-possible-set')).toEqual([]);
  });

  it('with sensitivity-conflict off, empty-possible-set keeps its fix', () => {
    const found = reportForText(text, 'dump.json', process.cwd(), { rules: { 'sensitivity-conflict': 'off' } }).findings.filter((f) => f.ruleId === 'empty-possible-set');
    expect(found.map((f) => f.fix?.replacements)).toEqual([[{ pointer: at, text: '["none","PII"]' }]]);
  });
});

describe('the fixes of one report never edit the same place twice', () => {
  // readonly-vs-category adds destructiveHint by replacing annotations; risk-level-floor's fix is inside it.
  const overlapping = dump({
    name: 'remove_item',
    description: 'Removes an item.',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: true, openWorldHint: false, category: 'delete', riskLevel: 'low', approvalRecommendation: 'single' },
  });
  const report = async (dir: string, ...files: string[]) => {
    const r = await runCli(['lint', '--no-config', '-f', 'json', ...files.map((f) => join(dir, f))]);
    return (JSON.parse(r.stdout) as { findings: (Finding & { file: string })[] }).findings;
  };

  it('keeps the more severe finding\'s fix, and the other says why it has none until the next run', async () => {
    const dir = tempDir({ 'a.json': overlapping });
    const findings = await report(dir, 'a.json');
    const outer = findings.find((f) => f.ruleId === 'readonly-vs-category')!;
    const inner = findings.find((f) => f.ruleId === 'risk-level-floor')!;
    expect(outer.fix?.replacements.map((r) => r.pointer)).toEqual(['/tools/0/annotations']);
    expect(inner.fix ?? null).toBeNull();
    expect(inner.suggestion).toContain("(no mechanical fix in this report: it would edit the same place as readonly-vs-category's fix at /tools/0/annotations; apply that one and lint again)");
    // Every fix of the report applied at once: no pointer is replaced inside another replaced value.
    const pointers = findings.flatMap((f) => f.fix?.replacements.map((r) => r.pointer) ?? []);
    for (const p of pointers) for (const q of pointers) if (p !== q) expect(q.startsWith(`${p}/`), `${q} inside ${p}`).toBe(false);
    // Once the kept fix is applied, the other finding gets its fix.
    writeFileSync(join(dir, 'a.json'), applied(overlapping, outer));
    const next = await report(dir, 'a.json');
    expect(next.find((f) => f.ruleId === 'risk-level-floor')?.fix?.replacements).toEqual([{ pointer: '/tools/0/annotations/riskLevel', text: '"medium"' }]);
  });

  it('two findings that make the same edit: only the first keeps it (SARIF regions applied at once would apply it twice)', async () => {
    const dir = tempDir({
      'a.json': dump(tool({ annotations: {
          readOnlyHint: true,
          destructiveHint: false,
          openWorldHint: false,
          category: 'delete',
          approvalRecommendation: 'single',
          inputMetadata: { outcomes: ['irreversible'], destination: 'ephemeral', sensitivity: 'none' },
        } })),
    });
    const findings = await report(dir, 'a.json');
    const category = findings.find((f) => f.ruleId === 'readonly-vs-category')!;
    const outcome = findings.find((f) => f.ruleId === 'readonly-vs-outcome')!;
    expect(category.fix?.replacements).toEqual([
      { pointer: '/tools/0/annotations/readOnlyHint', text: 'false' },
      { pointer: '/tools/0/annotations/destructiveHint', text: 'true' },
    ]);
    expect(outcome.fix ?? null).toBeNull();
    expect(outcome.suggestion).toMatch(/\(no mechanical fix in this report: it would edit the same place as readonly-vs-category's fix at \/tools\/0\/annotations\/readOnlyHint; apply that one and lint again\)$/);
    const pointers = findings.flatMap((f) => f.fix?.replacements.map((r) => r.pointer) ?? []);
    expect(new Set(pointers).size).toBe(pointers.length);
  });

  it('fixes in two files at the same pointers are not in each other\'s way', async () => {
    const dir = tempDir({ 'a.json': overlapping, 'b.json': overlapping });
    const findings = await report(dir, 'a.json', 'b.json');
    expect(findings.filter((f) => f.ruleId === 'readonly-vs-category' && f.fix)).toHaveLength(2);
    expect(findings.filter((f) => f.ruleId === 'risk-level-floor' && !f.fix)).toHaveLength(2);
  });
});

describe('settleOverlappingFixes', () => {
  const finding = (ruleId: string, severity: Finding['severity'], tool: number | undefined, pointer: string, ...replacements: [string, string][]): Finding =>
    ({
      ruleId,
      severity,
      message: 'm',
      serverId: 's',
      server: 's',
      tool: tool === undefined ? undefined : `t${tool}`,
      pointer,
      toolPointer: tool === undefined ? pointer : pointer.slice(`/tools/${tool}`.length),
      fix: { description: 'd', replacements: replacements.map(([p, text]) => ({ pointer: p, text })) },
    }) as Finding;
  const kept = (fs: Finding[]) => fs.map((f) => `${f.ruleId}:${f.fix ? 'fix' : 'none'}`);

  it('tool by tool: fixes in different tools never clash, overlapping ones in one tool do', () => {
    const fs = [
      finding('a', 'warning', 0, '/tools/0/annotations/riskLevel', ['/tools/0/annotations/riskLevel', '"high"']),
      finding('b', 'error', 0, '/tools/0/annotations/category', ['/tools/0/annotations', '{}']),
      finding('c', 'warning', 1, '/tools/1/annotations/riskLevel', ['/tools/1/annotations/riskLevel', '"high"']),
    ];
    settleOverlappingFixes(fs, () => 'doc');
    expect(kept(fs)).toEqual(['a:none', 'b:fix', 'c:fix']);
  });

  it('a fix that reaches outside its tool, or one with no tool, is settled against every fix of its document', () => {
    const fs = [
      finding('inner', 'warning', 0, '/tools/0/annotations/riskLevel', ['/tools/0/annotations/riskLevel', '"high"']),
      finding('server', 'error', undefined, '/tools', ['/tools', '[]']),
    ];
    settleOverlappingFixes(fs, () => 'doc');
    expect(kept(fs)).toEqual(['inner:none', 'server:fix']);
    // The same pointers in another document are no clash.
    const other = [
      finding('inner', 'warning', 0, '/tools/0/annotations/riskLevel', ['/tools/0/annotations/riskLevel', '"high"']),
      { ...finding('server', 'error', undefined, '/tools', ['/tools', '[]']), serverId: 'other' },
    ];
    settleOverlappingFixes(other, (id) => id);
    expect(kept(other)).toEqual(['inner:fix', 'server:fix']);
  });
});

describe('no fix rewrites a value holding a number its JSON cannot write back', () => {
  // JSON.stringify writes 1e400 (read as Infinity) as null, and 12345678901234567890123 as
  // 1.2345678901234568e+22: a fix that rewrites the list or object around one would change it.
  const raw = (annotations: string) => `{"tools":[{"name":"a","description":"Lists things.","inputSchema":{"type":"object"},"annotations":${annotations}}]}`;
  const destination = (extra: string) =>
    raw(`{"readOnlyHint":false,"destructiveHint":false,"openWorldHint":false,"inputMetadata":{"destination":["internal","internal"${extra}],"sensitivity":"none","outcomes":"consequential"},"returnMetadata":{"source":"internal","sensitivity":"none"}}`);

  it('the list without its repeated values: fixed when its numbers write back, not when one does not', () => {
    const repeat = (text: string) => lint(text).find((f) => f.ruleId === 'empty-possible-set')!;
    expect(repeat(destination('')).fix?.replacements).toEqual([{ pointer: '/tools/0/annotations/inputMetadata/destination', text: '["internal"]' }]);
    expect(repeat(destination(',3')).fix?.replacements).toEqual([{ pointer: '/tools/0/annotations/inputMetadata/destination', text: '["internal",3]' }]);
    for (const [extra, read] of [[',1e400', 'a number too large to represent, read as Infinity'], [',-12345678901234567890123', 'a number past 2^53, read as -1.2345678901234568e+22']] as const) {
      const f = repeat(destination(extra));
      expect(f.fix, extra).toBeUndefined();
      expect(f.suggestion).toContain(`(no mechanical fix: annotations.inputMetadata.destination holds ${read}, which the fix's JSON would not write back as it is; edit it by hand)`);
    }
  });

  it('1e999 is no repeat of null (JSON writes both as null), and 1e400 beside 1e999 is one', () => {
    const repeats = (extra: string) => lint(destination(extra)).filter((f) => f.ruleId === 'empty-possible-set').map((f) => f.message);
    expect(repeats(',1e999,null')).toEqual([expect.stringContaining('lists "internal" twice')]);
    expect(repeats(',1e400,1e999')).toEqual([expect.stringContaining('lists "internal" twice'), expect.stringContaining('lists a number too large to represent, read as Infinity twice')]);
  });

  it('annotations with destructiveHint added: not when another member holds 1e400', () => {
    const f = (extra: string) => lint(raw(`{"readOnlyHint":true,"openWorldHint":false,"category":"delete","approvalRecommendation":"single"${extra}}`)).find((g) => g.ruleId === 'readonly-vs-category')!;
    expect(f('').fix?.replacements).toEqual([{ pointer: '/tools/0/annotations', text: expect.stringContaining('"destructiveHint":true') }]);
    expect(f(',"x-limit":1e400').fix).toBeUndefined();
    expect(f(',"x-limit":1e400').suggestion).toContain('(no mechanical fix: annotations holds a number too large to represent');
  });

  it('a number replaced on its own is what the fix changes: only containers are searched', () => {
    expect(unwritableNumberIn(Infinity)).toBeUndefined();
    expect(unwritableNumberIn([1, [2, { a: [-Infinity] }]])).toBe(-Infinity);
    expect(unwritableNumberIn({ a: 2 ** 53 })).toBe(2 ** 53);
    expect(unwritableNumberIn({ a: 2 ** 53 - 1, b: 0.1, c: -0 })).toBeUndefined();
  });

  it('finds exactly the values JSON.stringify does not write back as read, at any depth', () => {
    const json = fc.letrec<{ v: unknown }>((tie) => ({
      v: fc.oneof({ depthSize: 'small', maxDepth: 5 }, fc.constant(null), fc.boolean(), fc.string(), fc.double(), fc.integer(), fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(fc.string(), tie('v'), { maxKeys: 4 })),
    })).v;
    assertProperty(
      fc.property(fc.array(json, { maxLength: 4 }), (value) => {
        // The plain reading: every number, by a replacer that sees them all.
        let lost = false;
        JSON.stringify(value, (_k, v: unknown) => {
          if (typeof v === 'number' && !Number.isNaN(v) && (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v)))) lost = true;
          return v;
        });
        expect(unwritableNumberIn(value) !== undefined).toBe(lost);
      }),
    );
  });
});
