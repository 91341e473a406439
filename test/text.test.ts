import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from './helpers/property.js';
import { closest, distance, escapeTerminal, oneLine, quote } from '../src/util/text.js';
import { fieldPath, get, join, relative, split, within } from '../src/util/pointer.js';

describe('distance', () => {
  it('counts insertions, deletions, substitutions and adjacent swaps as one edit each', () => {
    expect(distance('readOnlyHint', 'readOnlyHint')).toBe(0);
    expect(distance('readonlyHint', 'readOnlyHint')).toBe(1);
    expect(distance('GDRP', 'GDPR')).toBe(1);
    expect(distance('pubic', 'public')).toBe(1);
    expect(distance('kitten', 'sitting')).toBe(3);
  });
  it('stops early past the bound', () => {
    expect(distance('abcdefgh', 'zyxwvuts', 2)).toBe(3);
  });
});

describe('closest', () => {
  it('finds near misses, ignoring case, hyphens, underscores and spaces first', () => {
    expect(closest('readonlyHint', ['readOnlyHint', 'destructiveHint'])).toBe('readOnlyHint');
    expect(closest('PCI DSS', ['PCI-DSS', 'HIPAA'])).toBe('PCI-DSS');
    expect(closest('GDRP', ['GDPR', 'CCPA'])).toBe('GDPR');
    expect(closest('pubic', ['public', 'user'])).toBe('public');
  });
  it('does not guess for unrelated or short words', () => {
    expect(closest('banana', ['readOnlyHint', 'openWorldHint'])).toBeUndefined();
    expect(closest('SOC', ['SOX'])).toBeUndefined();
  });
});

describe('escaping', () => {
  it('makes control, bidi, zero-width and tag characters visible', () => {
    expect(escapeTerminal('a\u001b[31mb\u202ec\u200bd\u{E0041}e')).toBe('a\\u{1B}[31mb\\u{202E}c\\u{200B}d\\u{E0041}e');
    expect(oneLine('line1\nline2\r\n\tx')).toBe('line1\\nline2\\n x');
  });
  it('quotes values as JSON and shortens long ones', () => {
    expect(quote('a"b')).toBe('"a\\"b"');
    expect(quote('x'.repeat(100)).length).toBe(60);
  });
  it('quotes any JSON value exactly as JSON.stringify, shortened, without stringifying all of it', () => {
    const shortened = (v: unknown, max: number) => {
      const text = JSON.stringify(v);
      return text.length > max ? text.slice(0, max - 1) + '…' : text;
    };
    assertProperty(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.integer({ min: 2, max: 120 }), (v, s, max) => {
        expect(quote(v, max)).toBe(shortened(v, max));
        expect(quote([s, v], max)).toBe(shortened([s, v], max));
      }),
      { numRuns: 500 },
    );
    // 100,000 levels deep, and 50 MB: only the start is written.
    const depth = 100_000;
    expect(quote(JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`), 10)).toBe('[[[[[[[[[…');
    expect(quote({ big: 'x'.repeat(50_000_000) }, 12)).toBe('{"big":"xxx…');
  });
});

describe('pointers', () => {
  it('escapes and splits segments per RFC 6901', () => {
    expect(join('/tools/0/_meta', 'mcp.dev/effect', 'a~b')).toBe('/tools/0/_meta/mcp.dev~1effect/a~0b');
    expect(split('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
  });
  it('reads values without walking prototypes', () => {
    expect(get({ a: [1, { b: 2 }] }, '/a/1/b')).toBe(2);
    expect(get({}, '/__proto__/polluted')).toBeUndefined();
    expect(get({}, '/constructor')).toBeUndefined();
  });
  it('prints tool-relative pointers as field paths', () => {
    expect(fieldPath('/annotations/inputMetadata/outcomes/1')).toBe('annotations.inputMetadata.outcomes[1]');
    expect(fieldPath('/_meta/mcp.dev~1effect')).toBe('_meta["mcp.dev/effect"]');
  });
  it('knows which pointers are inside another: whole segments only', () => {
    expect([within('/tools/1', '/tools/1'), within('/tools/1', '/tools/1/name'), within('', '/tools/1'), within('', '')]).toEqual([true, true, true, true]);
    expect([within('/tools/1', '/tools/10'), within('/tools/1', '/tools/10/name'), within('/tools/1/name', '/tools/1')]).toEqual([false, false, false]);
    expect(relative('/tools/1', '/tools/1/annotations/readOnlyHint')).toBe('/annotations/readOnlyHint');
    expect(relative('/tools/1', '/tools/10/name')).toBe('/tools/10/name');
  });
});
