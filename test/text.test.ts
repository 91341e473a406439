import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from './helpers/property.js';
import { closest, distance, escapeTerminal, head, oneLine, quote, shorten, tail, thousands } from '../src/util/text.js';
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
  it('finds every candidate given exactly (the sep-1913 pack asks includes() before it, as a shortcut)', () => {
    assertProperty(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 8 }), fc.nat(), (candidates, i) => {
        expect(closest(candidates[i % candidates.length]!, candidates)).toBeDefined();
      }),
    );
  });

  it('finds near misses, ignoring case, hyphens, underscores and spaces first', () => {
    expect(closest('readonlyHint', ['readOnlyHint', 'destructiveHint'])).toBe('readOnlyHint');
    expect(closest('PCI DSS', ['PCI-DSS', 'HIPAA'])).toBe('PCI-DSS');
    expect(closest('GDRP', ['GDPR', 'CCPA'])).toBe('GDPR');
    expect(closest('pubic', ['public', 'user'])).toBe('public');
  });
  it('never suggests a word of the opposite meaning', () => {
    expect(closest('external', ['ephemeral', 'system', 'user', 'internal', 'public'])).toBeUndefined();
    expect(closest('reversible', ['benign', 'consequential', 'irreversible'])).toBeUndefined();
    expect(closest('irreversible', ['reversible'])).toBeUndefined();
    expect(closest('trusted', ['untrusted'])).toBeUndefined();
    expect(closest('Untrusted', ['trusted'])).toBeUndefined();
    expect(closest('non-public', ['public'])).toBeUndefined();
    expect(closest('outbound', ['inbound'])).toBeUndefined();
    expect(closest('import', ['export'])).toBeUndefined();
    expect(closest('allowed', ['disallowed'])).toBeUndefined();
    // The blocked candidate does not hide a real typo of another one.
    expect(closest('externl', ['internal', 'external'])).toBe('external');
  });
  it('still suggests real typos, including ones near the start of a word', () => {
    expect(closest('readonlyHint', ['readOnlyHint', 'destructiveHint'])).toBe('readOnlyHint');
    expect(closest('irreversable', ['benign', 'consequential', 'irreversible'])).toBe('irreversible');
    expect(closest('publc', ['public', 'internal'])).toBe('public');
    expect(closest('GDRP', ['GDPR', 'CCPA'])).toBe('GDPR');
    expect(closest('raedOnlyHint', ['readOnlyHint'])).toBe('readOnlyHint');
    expect(closest('idempotantHint', ['idempotentHint'])).toBe('idempotentHint');
    expect(closest('untrustd', ['sensitive', 'untrusted', 'evidenceRef'])).toBe('untrusted');
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
    // A lone carriage return is not shown as a line feed: "a\rb" and "a\nb" stay different.
    expect(oneLine('a\rb')).toBe('a\\rb');
  });
  it('makes every default-ignorable character visible (fillers, joiners, selectors), but an emoji presentation selector', () => {
    const invisible = [0x34f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180e, 0x3164, 0xffa0, 0xfe00, 0xe0100, 0x1d173, 0x1bca0, 0x2028, 0x2029, 0xad];
    for (const cp of invisible) expect(escapeTerminal(`x${String.fromCodePoint(cp)}y`), cp.toString(16)).toBe(`x\\u{${cp.toString(16).toUpperCase()}}y`);
    expect(escapeTerminal('❤️ ✔︎ 👍🏽 日本')).toBe('❤️ ✔︎ 👍🏽 日本');
    expect(escapeTerminal('\ud83d')).toBe('\\u{D83D}');
  });
  it('shortens text without splitting an emoji', () => {
    expect(shorten('ab😀', 3)).toBe('ab…');
    expect(shorten('a😀b', 3)).toBe('a…');
    expect(head('a😀', 2)).toBe('a');
    expect(tail('😀a', 2)).toBe('a');
    expect(quote('😀'.repeat(40), 10)).toBe('"😀😀😀😀…');
    // Outside a lint, where the text is not known: what the number was read as, and that it was out of range.
    expect(quote(JSON.parse('1e999'))).toBe('a number too large to represent, read as Infinity');
  });
  it('quotes values as JSON and shortens long ones', () => {
    expect(quote('a"b')).toBe('"a\\"b"');
    expect(quote('x'.repeat(100)).length).toBe(60);
  });
  it('quotes any JSON value exactly as JSON.stringify, shortened, without stringifying all of it', () => {
    const shortened = (v: unknown, max: number) => {
      const text = JSON.stringify(v);
      if (text.length <= max) return text;
      // Never half a surrogate pair.
      const cut = /[\ud800-\udbff]/.test(text[max - 2]!) ? max - 2 : max - 1;
      return text.slice(0, cut) + '…';
    };
    assertProperty(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.integer({ min: 2, max: 120 }), (v, s, max) => {
        // A number past 2^53 (the only numbers whose quote changed, besides ±Infinity) says it is read as that number.
        const unsafe = typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v);
        expect(quote(v, max)).toBe(unsafe ? shorten(`a number past 2^53, read as ${String(v)}`, max) : shortened(v, max));
        // A string has its own fast path in quote().
        expect(quote(s, max)).toBe(shortened(s, max));
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

describe('thousands', () => {
  it('writes whole numbers as en-US does, without Intl (whose first use loads ICU data on every run)', () => {
    assertProperty(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.constantFrom(0, 999, 1000, -1000, 1_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER)), (n) => {
        expect(thousands(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
    expect(thousands(1234.5)).toBe('1,234.5');
  });
});
