/**
 * The shortcuts the hot helpers take must not change what they find. Each property runs
 * the helper once where it may take its shortcut and once where it cannot (a prefix that
 * forces the full scan, or a suffix that forces the Unicode path), and compares:
 * - tokensOf/tokenize: the ASCII-only regex against the Unicode one;
 * - scanHidden: starting at the first character that can hide text against scanning from 0,
 *   and mayHide() false meaning nothing is found;
 * - scanDescription: the trigger-word test against the full phrase matching, and mayState()
 *   false meaning no match of the kinds asked for;
 * - claimsOf and ClaimSet's queries: plain loops against the filters they replaced.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mayState, scanDescription } from '../src/heuristics/phrases.js';
import { readName } from '../src/heuristics/name-verbs.js';
import { segments, tokenize, tokensOf } from '../src/util/tokens.js';
import { mayHide, scanHidden } from '../src/util/unicode.js';
import { ClaimSet, newClaim, type Claim, type Fact } from '../src/engine/claims.js';
import { claimsOf } from '../src/engine/possible-sets.js';
import type { PackId } from '../src/types.js';
import { assertProperty } from './helpers/property.js';

describe('tokenize: ASCII fast path', () => {
  const ascii = fc.string({ unit: fc.constantFrom(...'aAbBzZsSdDeElLtT09_-./: \tHTTPURLsIDs'.split('')), maxLength: 24 });

  it('finds the same tokens as the Unicode path', () => {
    assertProperty(
      fc.property(ascii, (s) => {
        // " é" sends the same identifier down the Unicode path; the space ends the last token there too.
        expect(tokenize(`${s} é`)).toEqual([...tokenize(s), 'é']);
      }),
      { numRuns: 3000 },
    );
  });

  it('hands out copies, and remembered tokens stay as they were', () => {
    const a = tokenize('deleteBranch');
    a.push('x');
    expect(tokenize('deleteBranch')).toEqual(['delete', 'branch']);
    expect(tokensOf('deleteBranch')).toEqual(['delete', 'branch']);
  });

  it('cuts one-segment names like the general split', () => {
    assertProperty(
      fc.property(ascii, (s) => {
        expect(segments(s)).toEqual(
          s
            .split(/[./:\\]+|_{2,}/)
            .map((part) => tokenize(part))
            .filter((t) => t.length > 0),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('reads a name the same way every time (readings are remembered)', () => {
    const first = readName('list_and_delete');
    readName('get_user');
    expect(readName('list_and_delete')).toEqual(first);
    expect(readName('list_and_delete').verbs.map((v) => v.token)).toEqual(['list', 'delete']);
  });
});

describe('scanHidden: starting at the first suspicious character', () => {
  const pieces = [
    'a', 'Z', ' ', '.', '\t', '\n', '\r', '\r\n', '\u0000', '\u001b', '\u007f', '\u0085', '\u009b', '\u00a0', '\u061c',
    '\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u202a', '\u202e', '\u2060', '\u2066', '\u2069', '\ufeff',
    '\ufe00', '\ufe0f', '\u{e0100}', '\u{e01ef}', '\u{e0001}', '\u{e0041}', '\u{e007f}', '\u{1f3f4}', '\u{1f469}', '\u{1f3fd}',
    'ש', 'م', 'ی', 'é', '\ud800', '\udc00', '\udb40', '\u{e0067}',
    '\u00ad', '\u034f', '\u0301', '\u115f', '\u1160', '\u1100', '\u1161', '\u3164', '\uffa0', '파', '\u180b', '\u180e', 'ᠠ',
    '\u2061', '\u206a', '\ufff0', '\u{1d173}', '\u{1bca0}', '\u{e0080}', '\u{e0fff}', '\ud834', '\ud82f',
    // Joiners between letters of scripts that use them or not; selector bases; a flag's tag letters.
    'ж', 'क', '\u094d', 'ന', '\u0d4d', '葛', '☺', '0', '1', '+', '∩', '。', '\u{e0062}', '\u{e0065}', '\u{e006e}', '\u{e0101}',
  ];
  const text = fc.array(fc.constantFrom(...pieces), { maxLength: 16 }).map((p) => p.join(''));

  it('finds what a scan from the first character finds', () => {
    assertProperty(
      fc.property(text, (t) => {
        // A leading U+200B is itself hidden, so the prefixed scan starts at 0; it changes no
        // verdict about what follows (it is neither a letter, an emoji, a flag nor RTL).
        const full = scanHidden(`\u200b${t}`);
        const fast = scanHidden(t);
        expect(full.chars[0]).toMatchObject({ index: 0, codePoint: 0x200b });
        expect(full.chars.slice(1)).toEqual(fast.chars.map((c) => ({ ...c, index: c.index + 1 })));
        expect(full.texts).toEqual(fast.texts.map((x) => ({ ...x, start: x.start + 1, end: x.end + 1, indexes: x.indexes.map((k) => k + 1) })));
        if (!mayHide(t)) expect(fast.chars).toEqual([]);
      }),
      { numRuns: 5000 },
    );
  });

  it('mayHide is true exactly for the controls but tab and line feed and every default-ignorable code point (its quick test misses none)', () => {
    const exact = /^[\x00-\x08\x0b-\x1f\x7f-\x9f\p{Default_Ignorable_Code_Point}]$/u;
    const wrong: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      if (mayHide(`ab${ch}c`) !== exact.test(ch)) wrong.push(cp.toString(16));
    }
    expect(wrong).toEqual([]);
  });
});

describe('scanDescription: the trigger-word test', () => {
  const neutral = ['the', 'tool', 'This', 'it', 'file', 'cache', 'not', 'never', "doesn't", 'if', 'that', 'which', 'use', 'is', 'a', 'operation', 'query', 'ſ', 'K', 'and', 'then', 'nothing', 'droplet', 'deleted', 'removal', 'be', 'can'];
  // Phrases a pattern may match (whole, so that they occur at all), and near misses.
  const triggers = [
    'Delete', 'deletes', 'DELETES', 'remove', 'removes', 'drops', 'erase', 'erases', 'destroys', 'purges', 'wipes',
    'Wipe', 'permanently deletes', 'deletes the file permanently', 'drops it permanently', 'permanent deletion',
    'permanent removal', 'cannot be undone', "can't be reverted", 'can’t be reversed', 'can not be undone',
    'irreversible', 'Irreversibly', 'This tool is read-only', 'this is read only', 'a read-only operation',
    'a safe, read-only query', 'Read-only', 'readonly', 'Read-Only', 'undone', 'reversed',
  ];
  const punctuation = [' ', ' ', ' ', ', ', '. ', ': ', '; ', '\n', '\n\n', '\n- ', ' (', ') ', '! ', '—'];
  const word = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...neutral) }, { weight: 1, arbitrary: fc.constantFrom(...triggers) });
  const description = fc
    .array(fc.tuple(word, fc.constantFrom(...punctuation)), { minLength: 1, maxLength: 10 })
    .map((parts) => parts.map(([w, p]) => w + p).join(''));
  // A sentence of its own that always matches, so the full matching runs on what follows.
  const PREFIX = 'Read-only: x.\n\n';

  it('finds what the full matching finds', () => {
    assertProperty(
      fc.property(description, (d) => {
        const full = scanDescription(PREFIX + d)
          .filter((m) => m.index >= PREFIX.length)
          .map((m) => ({ ...m, index: m.index - PREFIX.length }));
        expect(scanDescription(d)).toEqual(full);
      }),
      { numRuns: 5000 },
    );
  });

  it('mayState() is false only when no match is of the kinds asked for', () => {
    assertProperty(
      fc.property(description, (d) => {
        const kinds = new Set(scanDescription(d).map((m) => m.kind));
        const changes = kinds.has('deletion') || kinds.has('overwrite') || kinds.has('irreversible');
        if (changes) expect(mayState(d, true, false)).toBe(true);
        if (kinds.has('read-only')) expect(mayState(d, false, true)).toBe(true);
        if (kinds.size > 0) expect(mayState(d, true, true)).toBe(true);
        expect(mayState(d, false, false)).toBe(false);
      }),
      { numRuns: 5000 },
    );
    expect(mayState('Returns the data. This tool is read-only.', true, false)).toBe(false);
    expect(mayState('Returns the data. This tool is read-only.', false, true)).toBe(true);
    expect(mayState('Deletes the file permanently.', false, true)).toBe(false);
    expect(mayState('Deletes the file permanently.', true, false)).toBe(true);
  });

  it('returns nothing, quickly, for text without any trigger word', () => {
    expect(scanDescription('Returns the data for the given user and project.')).toEqual([]);
    expect(scanDescription(`${PREFIX}Returns the data for the given user and project.`)).toHaveLength(1);
  });
});

describe('claim queries: plain loops against the filters they replaced', () => {
  // Claims of two set facts and one scalar fact, their pointers drawn from a small pool so that
  // two facts often read one field (claimsOf keeps it once), and sometimes more than FEW_CLAIMS.
  const claim = fc
    .tuple(
      fc.constantFrom('inputSensitivity', 'outputSensitivity', 'action') as fc.Arbitrary<Fact>,
      fc.subarray(['none', 'pii', 'user', 'financial']),
      fc.constantFrom('write', 'read', 'delete'),
      fc.constantFrom<PackId>('core', 'sep-1913', 'action-metadata'),
      fc.integer({ min: 0, max: 12 }),
    )
    .map(([fact, set, action, pack, n]) => newClaim(fact, (fact === 'action' ? action : set) as never, pack, 'field', `/tools/0/p${n}`));

  it('claimsOf keeps each field once, in order, with few claims and with many', () => {
    assertProperty(
      fc.property(fc.array(claim, { maxLength: 40 }), (list) => {
        const set = new ClaimSet(list);
        const seen = new Set<string>();
        const expected = [...set.all('inputSensitivity'), ...set.all('outputSensitivity')].filter((c) => !seen.has(c.pointer) && seen.add(c.pointer));
        expect(claimsOf(set, 'inputSensitivity', 'outputSensitivity')).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('from, where and including find what find and filter find', () => {
    assertProperty(
      fc.property(fc.array(claim, { maxLength: 20 }), (list) => {
        const set = new ClaimSet(list);
        const actions = list.filter((c) => c.fact === 'action');
        expect(set.from('action', 'sep-1913')).toBe(actions.find((c) => c.pack === 'sep-1913'));
        expect(set.where('action', 'write', 'delete')).toEqual(actions.filter((c) => c.value === 'write' || c.value === 'delete'));
        const outputs = list.filter((c) => c.fact === 'outputSensitivity') as Claim<'outputSensitivity'>[];
        expect(set.including('outputSensitivity', 'pii', 'financial')).toEqual(outputs.filter((c) => c.value.some((v) => v === 'pii' || v === 'financial')));
      }),
      { numRuns: 2000 },
    );
  });
});
