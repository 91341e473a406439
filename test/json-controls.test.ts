import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { escapeJsonControls } from '../src/util/json.js';
import { assertProperty } from './helpers/property.js';

/** The plain reading: every DEL, C1 control, bidi control and U+2028/U+2029 written as \uXXXX. */
function reference(text: string): string {
  return text.replace(/[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

describe('escapeJsonControls', () => {
  it('escapes exactly what the plain reading does, in ASCII, Latin-1 and any UTF-16 text (lone surrogates too)', () => {
    // Characters near every edge the fast test for ASCII text relies on (U+007F, U+0080, U+00FF), and the controls.
    const edge = fc.constantFrom(...'a"\\\n\u007e\u007f\u0080\u009f\u00a0\u00ff\u0100\u061c\u200e\u200f\u2028\u2029\u202a\u202e\u2066\u2069\ud800\udfff\u{1f600}'.split(''));
    const text = fc.oneof(
      fc.string({ unit: fc.oneof(fc.constantFrom(...'ab {}:,"'.split('')), edge), maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.string({ maxLength: 60 }),
    );
    assertProperty(
      fc.property(fc.array(text, { maxLength: 4 }), (parts) => {
        // Joined as a rope and flat: the test reads either.
        const rope = parts.reduce((s, p) => s + p, '');
        expect(escapeJsonControls(rope)).toBe(reference(rope));
        expect(escapeJsonControls(JSON.stringify(parts))).toBe(reference(JSON.stringify(parts)));
      }),
      { numRuns: 300 },
    );
  });

  it('returns ASCII text without DEL as it is, and escapes DEL in it', () => {
    expect(escapeJsonControls('{"a": "b"}')).toBe('{"a": "b"}');
    expect(escapeJsonControls('a\u007fb')).toBe('a\\u007fb');
    expect(escapeJsonControls('')).toBe('');
  });
});
