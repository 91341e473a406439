/**
 * Numbers quoted as the input wrote them (src/util/written.ts): the placeholders quote() writes
 * while the engine runs the rules, resolved from the source text once findings are located.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from './helpers/property.js';
import { runCli, tempDir } from './helpers/cli.js';
import { reportForText } from './helpers/lint.js';
import { quote } from '../src/util/text.js';
import { lint } from '../src/engine/engine.js';
import { defineRule } from '../src/rule.js';
import { loadText } from '../src/sources/files.js';
import { deferNumbers, hasPlaceholder, numberLiterals, placeholderNumbers, resolveWritten, spellRead, writtenAsRead, writtenFrom } from '../src/util/written.js';

/** Whether a text holds any of the placeholders' private-use characters. */
const PRIVATE = /[\uE000-\uE004]/;

/** The exact value of a JSON number literal as a fraction of BigInts (numerator, power of ten below it): the plain reference reading. */
function exactDecimal(text: string): { n: bigint; p: bigint } {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(text)!;
  const frac = m[3] ?? '';
  const n = BigInt(`${m[1]}${m[2]}${frac}`);
  const p = BigInt(frac.length) - BigInt(m[4] ?? '0');
  return { n, p };
}
/** Two literals name the same number (exactly, as decimals). */
function sameDecimal(a: string, b: string): boolean {
  const x = exactDecimal(a);
  const y = exactDecimal(b);
  // x.n / 10^x.p === y.n / 10^y.p, multiplied out without negative powers.
  const lo = x.p < y.p ? x.p : y.p;
  return x.n * 10n ** (y.p - lo) === y.n * 10n ** (x.p - lo);
}

/** JSON number literals: any sign, integer part, fraction and exponent, including ones past a double's range and precision. */
const literal = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.tuple(fc.integer({ min: 1, max: 9 }), fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 30 })).map(([a, b]) => `${a}${b}`)),
    fc.option(fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 30 }), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), fc.integer({ min: 0, max: 420 })), { nil: undefined }),
  )
  .map(([neg, int, frac, exp]) => `${neg ? '-' : ''}${int}${frac === undefined ? '' : `.${frac}`}${exp === undefined ? '' : `${exp[0]}${exp[1]}${exp[2]}`}`);

describe('writtenAsRead', () => {
  it('says whether a literal is exactly the number String() writes for its value', () => {
    expect(writtenAsRead('1', 1)).toBe(true);
    expect(writtenAsRead('1.0', 1)).toBe(true);
    expect(writtenAsRead('1e2', 100)).toBe(true);
    expect(writtenAsRead('1E+22', 1e22)).toBe(true);
    expect(writtenAsRead('-0', -0)).toBe(true);
    expect(writtenAsRead('-0.0e5', -0)).toBe(true);
    expect(writtenAsRead('0.1', 0.1)).toBe(true);
    expect(writtenAsRead('9007199254740993', 9007199254740992)).toBe(false);
    expect(writtenAsRead('1e400', Infinity)).toBe(false);
    expect(writtenAsRead('1e-400', 0)).toBe(false);
    expect(writtenAsRead('12345678901234567890123', 1.2345678901234568e22)).toBe(false);
    expect(writtenAsRead('0.1000000000000000055511151231257827', 0.1)).toBe(false);
  });
  it('agrees with an exact decimal comparison of the literal and String(value)', () => {
    assertProperty(
      fc.property(literal, (text) => {
        const v = Number(text);
        expect(writtenAsRead(text, v)).toBe(Number.isFinite(v) && sameDecimal(text, String(v)));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('numberLiterals', () => {
  it('lists the numbers of a span, not digits in strings, names or comments', () => {
    const text = '{"a1": [1e400, "2e400", -0.5], "b\\"3": 12345678901234567890123 /* 4 */, "c": {"d": 5}} // 6';
    const out: string[] = [];
    numberLiterals(text, 0, text.length, (l) => out.push(l));
    expect(out).toEqual(['1e400', '-0.5', '12345678901234567890123', '5']);
    const inner: string[] = [];
    numberLiterals(text, text.indexOf('{"d"'), text.indexOf('}}') + 1, (l) => inner.push(l));
    expect(inner).toEqual(['5']);
  });
});

describe('writtenFrom', () => {
  it('quotes a number as written only when the literal does not read back as String(value), and only one literal says it', () => {
    const written = writtenFrom(['1e400', '-1e999', '1.0', '0.1000000000000000055511151231257827', '12345678901234567890123', '2e400', '3e400']);
    expect(written(-Infinity)).toBe('-1e999');
    expect(written(1)).toBe('1');
    expect(written(0.1)).toBe('0.1000000000000000055511151231257827');
    expect(written(1.2345678901234568e22)).toBe('12345678901234567890123');
    // Written three ways: which one was meant is not known.
    expect(written(Infinity)).toBeUndefined();
    expect(written(7)).toBeUndefined();
    // An exact literal beside a lossy one with the same value: the value as read, which the exact one says.
    expect(writtenFrom(['0.1', '0.1000000000000000055511151231257827'])(0.1)).toBe('0.1');
  });
});

describe('placeholders', () => {
  it('are written only while the engine defers numbers, equal for equal values, and resolved with each quote shortened to its max', () => {
    expect(quote(1e400 * 10)).toBe('a number too large to represent, read as Infinity');
    expect(quote(12)).toBe('12');
    const [a, b, c, d] = deferNumbers(() => [quote(Infinity), quote(Infinity), quote({ x: [1, -Infinity] }), quote('12')]);
    expect(a).toBe(b);
    expect(hasPlaceholder(a)).toBe(true);
    expect(d).toBe('"12"');
    expect(hasPlaceholder(d)).toBe(false);
    expect(placeholderNumbers(c!)).toEqual([1, -Infinity]);
    // Without the text: words for the one quoted alone, the value as read inside a quoted object.
    expect(resolveWritten(`got ${a}`)).toBe('got a number too large to represent, read as Infinity');
    expect(resolveWritten(`got ${c}`)).toBe('got {"x":[1,-Infinity]}');
    expect(resolveWritten(`got ${c}`, writtenFrom(['-1e999']))).toBe('got {"x":[1,-1e999]}');
    const long = deferNumbers(() => quote(Infinity, 10));
    expect(resolveWritten(long, writtenFrom([`1${'0'.repeat(400)}`]))).toBe('100000000…');
  });
  it('quote any finite number in a safe range exactly as before, with or without its literal', () => {
    assertProperty(
      fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), fc.maxSafeInteger()), fc.integer({ min: 2, max: 80 }), (v, max) => {
        fc.pre(!Number.isInteger(v) || Number.isSafeInteger(v));
        const before = JSON.stringify(v).length <= max ? JSON.stringify(v) : `${JSON.stringify(v).slice(0, max - 1)}…`;
        expect(quote(v, max)).toBe(before);
        const placeholder = deferNumbers(() => quote(v, max));
        expect(resolveWritten(placeholder)).toBe(before);
        expect(resolveWritten(placeholder, writtenFrom([JSON.stringify(v)]))).toBe(before);
        const inObject = deferNumbers(() => quote({ v }, max));
        expect(resolveWritten(inObject, writtenFrom([JSON.stringify(v)]))).toBe(quote({ v }, max));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the engine quotes numbers as written', () => {
  const doc = (annotations: string) => `{"tools":[{"name":"get_x","description":"Gets x","inputSchema":{"type":"object"},"annotations":${annotations}}]}`;
  const schemaMessages = (text: string) =>
    reportForText(text)
      .findings.filter((f) => f.ruleId === 'schema-valid')
      .map((f) => f.message);

  it('any number literal in the source: as written when it does not read back as written, else as before', () => {
    assertProperty(
      fc.property(literal, (text) => {
        const [message] = schemaMessages(doc(`{"readOnlyHint": ${text}}`));
        const v = Number(text);
        const shown = writtenAsRead(text, v) ? String(v) : text.length > 60 ? `${text.slice(0, 59)}…` : text;
        expect(message).toBe(`annotations.readOnlyHint must be a boolean, got ${Number.isInteger(v) ? 'an integer' : 'a number'} (${shown})`);
      }),
      { numRuns: 200 },
    );
  });

  it('keys a finding on an item past a double\'s range by its value as read, not as null (baseline and SARIF identity)', () => {
    const report = reportForText(doc('{"inputMetadata": {"destination": [1e999, null, 0.1000000000000000055511151231257827], "outcomes": "consequential"}}'));
    const keys = report.findings.filter((f) => f.ruleId === 'schema-valid' && f.pointer.includes('/destination/')).map((f) => f.keyPointer);
    // The same keys as for a snapshot of it, which writes 1e400 and 0.1: stable across live, snapshot and file.
    const snapshot = reportForText(doc('{"inputMetadata": {"destination": [1e400, null, 0.1], "outcomes": "consequential"}}'));
    expect(keys).toEqual(['/annotations/inputMetadata/destination/~=1e400', '/annotations/inputMetadata/destination/~=null', '/annotations/inputMetadata/destination/~=0.1']);
    expect(snapshot.findings.filter((f) => f.ruleId === 'schema-valid' && f.pointer.includes('/destination/')).map((f) => f.keyPointer)).toEqual(keys);
  });

  it('resolves a finding\'s detail too: part of its identity, it must be the same on every run', () => {
    const rule = defineRule({
      id: 'test-detail', severity: 'warning', category: 'consistency', packs: ['core'], summary: 'test', precision: 'high', why: 'test', examples: { correct: [], incorrect: [] },
      check(ctx) {
        const v = ctx.tool.annotations?.readOnlyHint;
        if (typeof v === 'number') ctx.report({ pointer: ctx.at('/annotations/readOnlyHint'), message: `is ${quote(v)}`, detail: `value ${quote(v)}` });
      },
    });
    const [f] = lint(loadText(doc('{"readOnlyHint": 1e400}'), { kind: 'file', path: 'd.json', display: 'd.json' }, 'd', 'd.json'), [rule]).findings;
    expect([f?.message, f?.detail]).toEqual(['is 1e400', 'value 1e400']);
  });

  it('leaves no placeholder in any text of any finding', () => {
    const report = reportForText(doc('{"readOnlyHint": 1e400, "riskLevel": -1e999, "destructiveHint": 12345678901234567890123, "category": [1e400, 0.1000000000000000055511151231257827]}'));
    for (const f of report.findings) {
      for (const t of [f.message, f.suggestion ?? '', f.fix?.description ?? '', ...(f.related ?? []).map((r) => r.message)]) expect(t).not.toMatch(PRIVATE);
    }
    expect(report.findings.map((f) => f.message).join('\n')).not.toContain('Infinity');
  });
});

describe('the CLI quotes numbers as written, in every format', () => {
  const input = '{"tools":[{"name":"get_x","description":"Gets x","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":1e400,"riskLevel":-1e999,"destructiveHint":12345678901234567890123}}]}';
  const expected = [
    'annotations.readOnlyHint must be a boolean, got a number (1e400)',
    'annotations.riskLevel holds -1e999, which is not SEP-2793\'s riskLevel (one of low, medium, high, critical); clients that implement SEP-2793 will misread it',
    'annotations.destructiveHint must be a boolean, got an integer (12345678901234567890123)',
  ];

  it('text and JSON, from a file and from stdin', async () => {
    const dir = tempDir({ 'inf.json': input });
    const text = await runCli(['lint', '--no-config', 'inf.json'], { cwd: dir });
    for (const m of expected) expect(text.stdout).toContain(m);
    const json = await runCli(['lint', '--no-config', 'inf.json', '-f', 'json'], { cwd: dir });
    const stdin = await runCli(['lint', '--no-config', '-', '-f', 'json'], { cwd: dir, input });
    for (const r of [json, stdin]) {
      const messages = (JSON.parse(r.stdout).findings as { message: string }[]).map((f) => f.message);
      for (const m of expected) expect(messages).toContain(m);
    }
    for (const r of [text, json, stdin]) {
      expect(r.stdout).not.toContain('Infinity');
      expect(r.stdout).not.toContain('e+22');
      expect(r.stdout).not.toMatch(PRIVATE);
    }
  });

  it('a session transcript (JSON Lines), read line by line', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      '{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"get_x","description":"Gets x","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":1e999,"openWorldHint":false}}]}}',
    ].map((l) => (typeof l === 'string' ? l : JSON.stringify(l)));
    const dir = tempDir({ 'session.jsonl': `${lines.join('\n')}\n` });
    const r = await runCli(['lint', '--no-config', 'session.jsonl', '-f', 'json'], { cwd: dir });
    expect((JSON.parse(r.stdout).findings as { message: string }[]).map((f) => f.message)).toContain('annotations.readOnlyHint must be a boolean, got a number (1e999)');
  });

  it('SARIF, markdown and GitHub annotations', async () => {
    const dir = tempDir({ 'inf.json': input });
    for (const format of ['sarif', 'markdown', 'github']) {
      const r = await runCli(['lint', '--no-config', 'inf.json', '-f', format], { cwd: dir });
      // SARIF's rule pages may say Infinity; its results are what is checked.
      const out = format === 'sarif' ? JSON.stringify(JSON.parse(r.stdout).runs[0].results) : r.stdout;
      expect(out, format).toContain('got a number (1e400)');
      expect(out, format).toContain('-1e999');
      expect(out, format).toContain('12345678901234567890123');
      expect(out, format).not.toContain('Infinity');
      expect(out, format).not.toMatch(PRIVATE);
    }
  });
});

describe('diff quotes numbers as written, as lint does', () => {
  const snapshot = (readOnly: string, risk: string) =>
    `{"tools":[{"name":"get_x","description":"Gets x","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":${readOnly},"riskLevel":${risk},"inputMetadata":{"destination":"internal","sensitivity":"none","outcomes":"benign"}}}]}`;

  it('in the head and in the base, in every format, and from stdin', async () => {
    const dir = tempDir({ 'base.json': snapshot('true', '"low"'), 'head.json': snapshot('1e400', '12345678901234567890123'), 'back.json': snapshot('true', '"low"') });
    for (const format of ['text', 'json', 'sarif', 'markdown', 'github']) {
      const r = await runCli(['diff', '--no-config', 'base.json', 'head.json', '-f', format], { cwd: dir });
      const out = format === 'sarif' ? JSON.stringify(JSON.parse(r.stdout).runs[0].results) : r.stdout;
      expect(out, format).toContain('readOnlyHint is not a boolean (1e400)');
      expect(out, format).not.toContain('Infinity');
      expect(out, format).not.toContain('read as');
      expect(out, format).not.toMatch(PRIVATE);
    }
    // The other way round (the numbers in the base): no placeholder and no Infinity in any finding.
    const back = await runCli(['diff', '--no-config', 'head.json', 'back.json', '-f', 'json'], { cwd: dir });
    const texts = JSON.stringify(JSON.parse(back.stdout).findings);
    expect(texts).not.toMatch(PRIVATE);
    expect(texts).not.toContain('Infinity');
    const stdin = await runCli(['diff', '--no-config', 'base.json', '-', '-f', 'json'], { cwd: dir, input: snapshot('1e400', '"low"') });
    expect(stdin.stdout).toContain('readOnlyHint is not a boolean (1e400)');
  });
});

describe('spellRead', () => {
  it('says what a number was read as when that cannot be what was written', () => {
    expect(spellRead(Infinity)).toBe('a number too large to represent, read as Infinity');
    expect(spellRead(-Infinity)).toBe('a number too large to represent, read as -Infinity');
    expect(spellRead(2 ** 60)).toBe('a number past 2^53, read as 1152921504606847000');
    expect(spellRead(2 ** 53 - 1)).toBe('9007199254740991');
    expect(spellRead(0.5)).toBe('0.5');
  });
});
