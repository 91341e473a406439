/**
 * The schema-walking and text-scanning helpers behind the structure rules, on inputs the
 * rule examples cannot carry: schemas nested 10,000 levels deep (too deep for the JSON
 * text round trip the examples go through), and small cases of each helper.
 */
import { describe, expect, it } from 'vitest';
import hiddenCharacters from '../rules/hidden-characters.js';
import inputSchemaValid from '../rules/input-schema-valid.js';
import { sanitiseToolName } from '../rules/tool-name-format.js';
import { lint } from '../src/engine/engine.js';
import fc from 'fast-check';
import { assertProperty } from './helpers/property.js';
import { DATA_CLASSES, DESTINATIONS, OUTCOMES, SOURCES } from '../src/engine/claims.js';
import { draftForms, normaliseDraftMetadata } from '../src/packs/drafts.js';
import { sep1913Pack } from '../src/packs/sep-1913.js';
import type { ToolView } from '../src/packs/types.js';
import { checkPattern, checkSchema, dialectOf, dropIdentityEscapes, jsonDepth, metaErrors, walkSubschemas } from '../src/schema/json-schema.js';
import type { ServerInput } from '../src/types.js';
import { removeHidden, scanHidden } from '../src/util/unicode.js';

/** SEP-1913's string data classes ("regulated" is only ever an object). */
const STRING_CLASSES = DATA_CLASSES.filter((c) => c !== 'regulated');

function deep(levels: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let s = leaf;
  for (let i = 0; i < levels; i++) s = { type: 'object', description: 'level', properties: { a: s } };
  return s;
}

function server(tools: unknown[]): ServerInput {
  return {
    id: 's',
    name: 's',
    origin: { kind: 'stdin', display: '<stdin>' },
    tools: tools.map((value, i) => ({ value, pointer: `/tools/${i}` })),
    envelopes: [],
    toolsPointer: '/tools',
  };
}

describe('hostile depth', () => {
  const schema = deep(10_000, { type: 'string', pattern: '(', description: 'x\u202ey' });

  it('walks 10,000 levels without recursion', () => {
    let max = 0;
    const r = walkSubschemas(schema, '2020-12', (n) => {
      if (n.depth > max) max = n.depth;
    });
    expect(r).toEqual({ visited: 10_001, truncated: false });
    expect(max).toBe(10_000);
    expect(jsonDepth(schema, 256)).toBe(257);
    expect(metaErrors(schema, '2020-12')).toBeUndefined();
  });

  it('finds the broken pattern at the bottom', () => {
    const { issues } = checkSchema(schema, '2020-12', { name: 'inputSchema', instances: 'arguments' });
    expect(issues).toHaveLength(1);
    expect(issues[0]!.pointer).toBe(`${'/properties/a'.repeat(10_000)}/pattern`);
    expect(issues[0]!.message.length).toBeLessThan(400);
  });

  it('lints a 10,000-level tool with input-schema-valid and hidden-characters', () => {
    const { findings } = lint([server([{ name: 'deep', inputSchema: schema }])], [inputSchemaValid, hiddenCharacters]);
    expect(findings.map((f) => [f.ruleId, f.severity, f.pointer.length])).toEqual([
      ['input-schema-valid', 'warning', '/tools/0/inputSchema'.length],
      ['hidden-characters', 'error', `/tools/0/inputSchema${'/properties/a'.repeat(10_000)}/description`.length],
      ['input-schema-valid', 'error', `/tools/0/inputSchema${'/properties/a'.repeat(10_000)}/pattern`.length],
    ]);
  });

  it('caps the findings of one schema and counts the rest in a note', () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`p${i}`, { type: 'string', pattern: '(' }])) };
    const { findings } = lint([server([{ name: 'wide', inputSchema: wide }])], [inputSchemaValid]);
    expect(findings).toHaveLength(51);
    expect(findings.filter((f) => f.severity === 'note').map((f) => f.message)).toEqual([
      'inputSchema has 30 more problems than mcp-annotate reports for one schema',
    ]);
  });
});

describe('hostile required lists', () => {
  it('checks 1,500 unknown required names in time linear in the list, with the same findings', () => {
    // It took seconds (probe BK: 12 s at 2,000): the "did you mean" candidates were rebuilt for
    // every name, with required.includes, even past the report cap. The bound is 1 s; it now takes 10-70 ms.
    const n = 1500;
    const properties = Object.fromEntries(Array.from({ length: n }, (_, i) => [`prop_${i}`, { type: 'string' }]));
    const schema = { type: 'object', properties, required: Array.from({ length: n }, (_, i) => `req_${i}`) };
    const t = performance.now();
    const { issues, more } = checkSchema(schema, '2020-12', { name: 'inputSchema', instances: 'arguments' });
    expect(performance.now() - t).toBeLessThan(1000);
    expect(issues).toHaveLength(50);
    expect(more).toBe(n - 50);
    expect(issues[49]!.pointer).toBe('/required/49');
  });

  it('still suggests the closest property that is not required itself, once per name', () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, nmae: { type: 'string' }, path: { type: 'string' } },
      required: ['nme', 'name', 'pth', 'nme', 'pat'],
    };
    const { issues, more } = checkSchema(schema, '2020-12', { name: 'inputSchema', instances: 'arguments', maxIssues: 2 });
    expect(issues.map((i) => [i.pointer, i.suggestion])).toEqual([
      ['/required/0', 'did you mean "nmae"? Otherwise add "nme" to properties'],
      ['/required/2', 'did you mean "path"? Otherwise add "pth" to properties'],
    ]);
    expect(more).toBe(1);
  });
});

describe('dialects and patterns', () => {
  it('normalises $schema URIs', () => {
    expect(dialectOf({ $schema: 'https://json-schema.org/draft-07/schema' })).toEqual({ dialect: 'draft-07', declared: true });
    expect(dialectOf({ $schema: 'http://json-schema.org/draft/2020-12/schema#' })).toEqual({ dialect: '2020-12', declared: true });
    expect(dialectOf({})).toEqual({ dialect: '2020-12', declared: false });
    expect(dialectOf({ $schema: 'http://json-schema.org/schema#' })).toEqual({ unknown: 'http://json-schema.org/schema#' });
  });

  it('tells patterns that need the u flag off from broken ones', () => {
    expect(checkPattern('^[a-z]+$')).toEqual({ ok: true });
    expect(checkPattern('^[A-Z0-9\\-\\_]+$')).toMatchObject({ ok: false, unicodeOnly: true, fixed: '^[A-Z0-9\\-_]+$' });
    expect(checkPattern('a\\Z')).toMatchObject({ ok: false, unicodeOnly: true });
    expect(checkPattern('a{')).toMatchObject({ ok: false, unicodeOnly: true });
    expect(checkPattern('(')).toMatchObject({ ok: false, unicodeOnly: false });
    expect(dropIdentityEscapes('\\-x\\:[\\-\\_]\\d\\/')).toBe('-x:[\\-_]\\d\\/');
  });
});

describe('hidden characters', () => {
  it('decodes tag characters and keeps emoji flags', () => {
    const tags = [...'hi'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
    const scan = scanHidden(`a${tags}b`);
    expect(scan.texts).toEqual([{ kind: 'tag', start: 1, end: 5, text: 'hi', indexes: [1, 3] }]);
    expect(removeHidden(`a${tags}b`, scan.chars)).toBe('ab');
    expect(scanHidden('🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}').chars).toEqual([]);
  });

  it('treats CR before LF as a line break and a lone CR as hidden', () => {
    expect(scanHidden('a\r\nb\tc\n').chars).toEqual([]);
    const lone = scanHidden('safe\rdanger');
    expect(lone.chars.map((c) => c.index)).toEqual([4]);
    expect(removeHidden('safe\rdanger', lone.chars)).toBe('safe\ndanger');
  });

  it('allows marks in right-to-left text only', () => {
    expect(scanHidden('שלום\u200f!').chars).toEqual([]);
    expect(scanHidden('hello\u200f!').chars.map((c) => c.codePoint)).toEqual([0x200f]);
  });
});

describe('draft spellings', () => {
  const view = (annotations: Record<string, unknown>): ToolView => ({
    value: { name: 't', inputSchema: { type: 'object' }, annotations },
    obj: { name: 't', inputSchema: { type: 'object' }, annotations },
    pointer: '/tools/0',
    index: 0,
    name: 't',
    hasName: true,
    annotations,
  });

  it('lists draft keys and values', () => {
    expect(draftForms({ InputMetadata: { Outcomes: 'Irreversible' } }).map((d) => [d.kind, d.pointer, d.current])).toEqual([
      ['capitalised-key', '/annotations/InputMetadata', 'inputMetadata'],
      ['capitalised-key', '/annotations/InputMetadata/Outcomes', 'outcomes'],
      ['capitalised-value', '/annotations/InputMetadata/Outcomes', 'irreversible'],
    ]);
    expect(normaliseDraftMetadata({ inputMetadata: { destination: 'user' } })).toBeUndefined();
  });

  it('finds what a plain reading of every member and value finds (a current member with current values is skipped unread)', () => {
    const MEMBERS: Record<string, Record<string, readonly string[]>> = {
      inputMetadata: { destination: DESTINATIONS, sensitivity: STRING_CLASSES, outcomes: OUTCOMES },
      returnMetadata: { source: SOURCES, sensitivity: STRING_CLASSES },
    };
    const cap = (w: string) => w[0]!.toUpperCase() + w.slice(1);
    const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
    // The reading draftForms made before it skipped anything, for inputMetadata/returnMetadata.
    const reference = (a: Record<string, unknown>) => {
      const out: Record<string, unknown>[] = [];
      for (const key of Object.keys(a)) {
        const metadata = Object.keys(MEMBERS).find((m) => key === m || key === cap(m));
        if (!metadata) continue;
        const at = `/annotations/${key}`;
        if (key !== metadata) out.push({ kind: 'capitalised-key', pointer: at, field: `annotations.${key}`, written: key, current: metadata, duplicate: metadata in a });
        const value = a[key];
        if (!isObj(value)) continue;
        for (const [member, v] of Object.entries(value)) {
          const current = Object.keys(MEMBERS[metadata]!).find((m) => member === m || member === cap(m));
          if (!current) continue;
          const mAt = `${at}/${member}`;
          const mField = `annotations.${key}.${member}`;
          if (member !== current) out.push({ kind: 'capitalised-key', pointer: mAt, field: mField, written: member, current, duplicate: current in value });
          const allowed = MEMBERS[metadata]![current]!;
          const one = (x: unknown, p: string, f: string) => {
            const named = typeof x === 'string' && !allowed.includes(x) ? allowed.find((m) => m.toLowerCase() === x.toLowerCase()) : undefined;
            if (named) out.push({ kind: 'capitalised-value', pointer: p, field: f, written: x, current: named, sep2061: x === (named === 'pii' ? 'PII' : cap(named)) });
            else if (current === 'sensitivity' && isObj(x)) {
              for (const k of Object.keys(x)) {
                if (k !== 'regulated' && k.toLowerCase() === 'regulated' && !('regulated' in x)) out.push({ kind: 'capitalised-key', pointer: `${p}/${k}`, field: `${f}.${k}`, written: k, current: 'regulated', sep2061: k === 'Regulated' });
              }
            }
          };
          if (Array.isArray(v)) v.forEach((x, i) => one(x, `${mAt}/${i}`, `${mField}[${i}]`));
          else one(v, mAt, mField);
        }
      }
      return out;
    };
    const word = fc.oneof(
      fc.constantFrom(...DESTINATIONS, ...STRING_CLASSES, ...OUTCOMES, ...SOURCES, 'regulated', 'sometimes').chain((w) => fc.constantFrom(w, cap(w), w.toUpperCase())),
      fc.string({ maxLength: 6 }),
    );
    const value = fc.oneof(word, fc.array(word, { maxLength: 4 }), fc.constantFrom({ regulated: { scopes: ['GDPR'] } }, { Regulated: {} }, { REGULATED: 1, regulated: 2 }), fc.integer());
    const memberName = fc.constantFrom('destination', 'Destination', 'sensitivity', 'Sensitivity', 'outcomes', 'Outcomes', 'source', 'Source', 'other');
    const metadata = fc.dictionary(memberName, value, { maxKeys: 4 });
    const annotations = fc.dictionary(fc.constantFrom('inputMetadata', 'InputMetadata', 'returnMetadata', 'ReturnMetadata', 'readOnlyHint'), fc.oneof(metadata, fc.boolean()), { maxKeys: 3 });
    assertProperty(
      fc.property(annotations, (a) => {
        expect(draftForms(a)).toEqual(reference(a));
      }),
      { numRuns: 500 },
    );
  });

  it('makes the sep-1913 pack leave draft-only problems to draft-field, and keep real ones', () => {
    const r = sep1913Pack.analyse(view({ inputMetadata: { Destination: 'Public', Sensitivity: 'PII', outcomes: 'sometimes' } }), { spec: '2026-07-28' });
    expect(r.problems.map((p) => [p.kind, p.pointer])).toEqual([
      ['draft', '/tools/0/annotations/inputMetadata'],
      ['draft', '/tools/0/annotations/inputMetadata'],
      ['draft', '/tools/0/annotations/inputMetadata/Destination'],
      ['draft', '/tools/0/annotations/inputMetadata/Sensitivity'],
      ['invalid', '/tools/0/annotations/inputMetadata/outcomes'],
    ]);
  });
});

describe('tool names', () => {
  it('suggests a sanitised name', () => {
    expect(sanitiseToolName('get user/profile')).toBe('get_user_profile');
    expect(sanitiseToolName('café:search ')).toBe('cafe_search');
    expect(sanitiseToolName('list\u200bfiles')).toBe('listfiles');
    expect(sanitiseToolName('日本')).toBe('tool');
  });
});
