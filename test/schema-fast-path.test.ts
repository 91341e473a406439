/**
 * The schema-check fast paths must be sound: whenever one says a value is valid, the
 * generated validator must say so too. Property tests generate values with right and wrong
 * parts and compare:
 * - obviouslyValid (src/schema/json-schema.ts) with the meta-schema validator of each
 *   dialect, on schemas from the keywords it knows and keywords it leaves to the validator;
 * - the schema walk's answer to the same question (SchemaNodes.obviouslyValid, found in the
 *   walk's one pass and used by metaErrors with an owner) with obviouslyValid's plain
 *   recursive reading;
 * - obviouslyValidAnnotations (src/packs/sep-1913.ts) with SEP-1913's validator.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generated } from '../src/schema/generated.js';

const validateSep1913 = generated('sep-1913').ToolAnnotations!;
import { obviouslyValidAnnotations } from '../src/packs/sep-1913.js';
import { olderAlsoAccepts } from '../src/packs/core.js';
import { DIALECTS, MAX_META_DEPTH, metaErrors, obviouslyValid, resourceBase, schemaNodes, type Dialect } from '../src/schema/json-schema.js';
import { assertProperty } from './helpers/property.js';

const DIALECT_NAMES = Object.keys(DIALECTS) as Dialect[];

const junk = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.string({ maxLength: 4 }), fc.boolean(), fc.constant(null), fc.constant([]), fc.constant({}));
const typeName = fc.constantFrom('array', 'boolean', 'integer', 'null', 'number', 'object', 'string', 'strin', 'Object', '');
const number = fc.oneof(
  fc.integer({ min: -3, max: 10 }),
  fc.double(),
  fc.constantFrom(0, -0, 1.5, -1, 2 ** 53, Number.MAX_VALUE, Number.POSITIVE_INFINITY, Number.NaN),
);
const patterns = fc.oneof(
  fc.constantFrom('^[a-z]+$', '(', 'a\\Z', '\\Z', '\\p{L}', '[', '^[A-Z0-9\\-\\_]+$', '(?<n>a)\\k<n>', 'a{2,1}', '\\', '[\\w-]', '\\u{1F600}', ''),
  fc.string({ maxLength: 6 }),
);
const uris = fc.oneof(
  fc.constantFrom(
    ...Object.values(DIALECTS).map((d) => d.uri),
    'http://json-schema.org/draft-07/schema',
    'https://json-schema.org/draft/2020-12/schema#',
    'not a uri',
    '',
    'http://x y',
    '#/$defs/a',
    '#',
    '#a',
    'other.json#/x',
    '#%zz',
    '\\x',
    'urn:x',
    'http://ex.com/a#b#c',
  ),
  fc.string({ maxLength: 6 }),
);
const value = fc.jsonValue({ maxDepth: 3 });

/** Keywords the fast path checks, each with values that are right in some dialect and wrong in others. */
function keywordValues(sub: fc.Arbitrary<unknown>): Record<string, fc.Arbitrary<unknown>> {
  const subOrJunk = fc.oneof({ weight: 4, arbitrary: sub }, { weight: 1, arbitrary: junk });
  const map = fc.oneof({ weight: 4, arbitrary: fc.dictionary(fc.constantFrom('a', 'b', '__proto__', 'c d', ''), subOrJunk, { maxKeys: 3 }) }, { weight: 1, arbitrary: junk });
  const list = fc.oneof({ weight: 4, arbitrary: fc.array(subOrJunk, { maxLength: 3 }) }, { weight: 1, arbitrary: junk });
  const strings = fc.oneof(fc.string({ maxLength: 5 }), junk);
  const bool = fc.oneof(fc.boolean(), junk);
  return {
    type: fc.oneof(typeName, fc.array(typeName, { maxLength: 3 }), junk),
    properties: map,
    definitions: map,
    $defs: map,
    items: fc.oneof(subOrJunk, fc.array(sub, { maxLength: 2 })),
    not: subOrJunk,
    additionalProperties: fc.oneof(subOrJunk, fc.boolean()),
    allOf: list,
    anyOf: list,
    oneOf: list,
    required: fc.oneof(fc.array(fc.oneof(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 2 })), { maxLength: 4 }), junk),
    enum: fc.oneof(
      fc.array(fc.oneof(fc.constantFrom('a', 'b', 0, -0, 1, 1.0, true, null, Number.NaN), fc.constant({ a: 1 }), fc.constant([1]), value), { maxLength: 4 }),
      junk,
    ),
    title: strings,
    description: strings,
    $comment: strings,
    format: strings,
    pattern: fc.oneof(patterns, junk),
    $schema: fc.oneof(uris, junk),
    $ref: fc.oneof(uris, junk),
    minLength: fc.oneof(number, junk),
    maxLength: fc.oneof(number, junk),
    minItems: fc.oneof(number, junk),
    maxItems: fc.oneof(number, junk),
    minProperties: fc.oneof(number, junk),
    maxProperties: fc.oneof(number, junk),
    minimum: fc.oneof(number, junk),
    maximum: fc.oneof(number, junk),
    multipleOf: fc.oneof(number, junk),
    uniqueItems: bool,
    deprecated: bool,
    readOnly: bool,
    writeOnly: bool,
    examples: fc.oneof(fc.array(value, { maxLength: 3 }), junk),
    default: value,
    const: value,
    // Keywords the fast path leaves to the validator, and keywords no dialect constrains.
    exclusiveMinimum: fc.oneof(number, fc.boolean()),
    exclusiveMaximum: fc.oneof(number, fc.boolean()),
    patternProperties: fc.oneof(map, fc.dictionary(patterns, sub, { maxKeys: 2 })),
    dependencies: fc.oneof(map, fc.dictionary(fc.constantFrom('a', 'b'), fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }), { maxKeys: 2 })),
    $id: fc.oneof(uris, junk),
    id: fc.oneof(uris, junk),
    $anchor: fc.oneof(fc.constantFrom('ok', '1bad', 'a.b'), junk),
    if: subOrJunk,
    contains: subOrJunk,
    prefixItems: list,
    propertyNames: subOrJunk,
    contentMediaType: strings,
    unevaluatedProperties: subOrJunk,
    dependentRequired: fc.oneof(fc.dictionary(fc.constantFrom('a'), fc.array(fc.constantFrom('a', 'a', 'b'), { maxLength: 2 })), junk),
    nullable: value,
    'x-sensitive': value,
    foo: value,
  };
}

const { schema } = fc.letrec<{ schema: Record<string, unknown> }>((tie) => {
  const values = keywordValues(tie('schema'));
  const keys = Object.keys(values);
  return {
    schema: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant({}),
      fc
        .array(
          fc.oneof(...keys.map((k) => fc.tuple(fc.constant(k), values[k]!))),
          { maxLength: 5 },
        )
        .map((entries) => Object.fromEntries(entries) as Record<string, unknown>),
    ),
  };
});

/** Schemas of only the checked keywords, with values right in 2020-12: most should take the fast path. */
const { clean } = fc.letrec<{ clean: Record<string, unknown> }>((tie) => ({
  clean: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ type: fc.constantFrom('string', 'integer', 'boolean'), description: fc.string({ maxLength: 8 }) }, { requiredKeys: ['type'] }),
    fc.record(
      {
        type: fc.constant('object'),
        title: fc.string({ maxLength: 5 }),
        properties: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('clean'), { maxKeys: 3 }),
        required: fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), tie('clean')),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constant('array'), items: tie('clean'), minItems: fc.nat(3), maxItems: fc.nat(9) }, { requiredKeys: ['type', 'items'] }),
    fc.record({ enum: fc.uniqueArray(fc.constantFrom('a', 'b', 1, null), { minLength: 1, maxLength: 3 }), default: fc.constantFrom('a', 1) }, { requiredKeys: ['enum'] }),
    fc.record({ type: fc.constant('string'), pattern: fc.constantFrom('^[a-z]+$', '\\d{3}'), minLength: fc.nat(3), format: fc.constantFrom('uri', 'email') }),
    fc.record({ anyOf: fc.array(tie('clean'), { minLength: 1, maxLength: 2 }) }),
  ),
}));

const sound = (s: unknown, dialect: Dialect) => !obviouslyValid(s, dialect) || DIALECTS[dialect].validate(s) === true;

describe('meta-schema fast path', () => {
  for (const dialect of DIALECT_NAMES) {
    it(`never accepts what the ${dialect} meta-schema rejects`, () => {
      assertProperty(
        fc.property(schema, (s) => sound(s, dialect)),
        { numRuns: 3000 },
      );
    });

    it(`never accepts what the ${dialect} meta-schema rejects, on well-formed schemas, and takes most of them`, () => {
      let fast = 0;
      let runs = 0;
      assertProperty(
        fc.property(clean, (s) => {
          runs++;
          if (obviouslyValid(s, dialect)) fast++;
          return sound(s, dialect);
        }),
        { numRuns: 1000 },
      );
      // Without this the soundness property could hold by never taking the fast path.
      expect(fast / runs).toBeGreaterThan(0.5);
    });
  }

  for (const dialect of DIALECT_NAMES) {
    it(`the schema walk finds what obviouslyValid finds (${dialect}), and metaErrors with an owner answers as without`, () => {
      const same = (s: Record<string, unknown>) => {
        const walked = schemaNodes(s, dialect).obviouslyValid;
        const owner = {};
        return walked === obviouslyValid(s, dialect) && JSON.stringify(metaErrors(s, dialect, owner)) === JSON.stringify(metaErrors(s, dialect));
      };
      assertProperty(fc.property(schema, same), { numRuns: 2000 });
      assertProperty(fc.property(clean, same), { numRuns: 1000 });
    });
  }

  it('the schema walk puts each subschema in the resource its $id (or its parent) says', () => {
    for (const dialect of DIALECT_NAMES) {
      assertProperty(
        fc.property(schema, (s) =>
          schemaNodes(s, dialect).nodes.every((n) => n.resource === (n.parent === undefined || resourceBase(n.schema, dialect) !== undefined ? n : n.parent.resource)),
        ),
        { numRuns: 500 },
      );
    }
  });

  it('the schema walk counts depth as obviouslyValid does, and leaves a walk cut short to it', () => {
    const nest = (levels: number, wrap: (s: Record<string, unknown>) => Record<string, unknown>) => {
      let s: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < levels; i++) s = wrap(s);
      return s;
    };
    const wraps = [
      (s: Record<string, unknown>) => ({ type: 'object', properties: { a: s } }),
      (s: Record<string, unknown>) => ({ items: s }),
      (s: Record<string, unknown>) => ({ anyOf: [s] }),
      (s: Record<string, unknown>) => ({ additionalProperties: s, default: [[1]] }),
    ];
    for (const wrap of wraps) {
      for (let levels = 30; levels <= 130; levels++) {
        const s = nest(levels, wrap);
        expect([levels, schemaNodes(s, '2020-12').obviouslyValid]).toEqual([levels, obviouslyValid(s, '2020-12')]);
      }
    }
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    expect(schemaNodes(wide, '2020-12', 10).obviouslyValid).toBeUndefined();
    expect(metaErrors(wide, '2020-12', {})).toEqual([]);
  });

  it('agrees with the validator on the dialect-specific cases it knows', () => {
    const bench = { type: 'object', properties: { id: { type: 'string', description: 'x' } }, required: [] };
    expect(obviouslyValid(bench, '2020-12')).toBe(true);
    expect(obviouslyValid(bench, 'draft-07')).toBe(true);
    // draft-04 needs at least one required name.
    expect(obviouslyValid(bench, 'draft-04')).toBe(false);
    expect(DIALECTS['draft-04'].validate(bench)).toBe(false);
    // Before 2019-09 an enum has at least one value and no repeats.
    expect(obviouslyValid({ enum: ['a', 'a'] }, '2020-12')).toBe(true);
    expect(obviouslyValid({ enum: ['a', 'a'] }, 'draft-07')).toBe(false);
    expect(DIALECTS['draft-07'].validate({ enum: ['a', 'a'] })).toBe(false);
    // Keywords it does not check go to the validator.
    expect(obviouslyValid({ type: 'string', $id: 'x' }, '2020-12')).toBe(false);
    // Keywords no dialect knows are accepted with any value.
    expect(obviouslyValid({ type: 'string', 'x-order': { a: [1] } }, '2020-12')).toBe(true);
  });

  it('stays linear on long required and enum lists', () => {
    const names = Array.from({ length: 200_000 }, (_, i) => `p${i}`);
    const start = performance.now();
    expect(obviouslyValid({ type: 'object', required: names, enum: names }, 'draft-07')).toBe(true);
    expect(obviouslyValid({ type: 'object', required: [...names, 'p0'] }, '2020-12')).toBe(false);
    expect(performance.now() - start).toBeLessThan(2_000);
  });

  it('leaves deep schemas to the depth check and the validator', () => {
    const nest = (levels: number) => {
      let s: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < levels; i++) s = { type: 'object', properties: { a: s } };
      return s;
    };
    expect(obviouslyValid(nest(40), '2020-12')).toBe(true);
    expect(obviouslyValid(nest(100), '2020-12')).toBe(false);
    expect(metaErrors(nest(100), '2020-12')).toEqual([]);
    expect(metaErrors(nest(MAX_META_DEPTH), '2020-12')).toBeUndefined();
    // A deep default counts too.
    let deepValue: unknown = 1;
    for (let i = 0; i < 200; i++) deepValue = [deepValue];
    expect(obviouslyValid({ type: 'array', default: deepValue }, '2020-12')).toBe(false);
  });
});

describe('older-spec Tool fast path (olderAlsoAccepts)', () => {
  const v2026 = generated('core-2026-07-28').tool!;
  const v2025 = generated('core-2025-11-25').tool!;
  const sub = fc.oneof({ weight: 8, arbitrary: fc.constantFrom({}, { type: 'string' }) }, { weight: 1, arbitrary: junk });
  const props = fc.oneof({ weight: 3, arbitrary: fc.dictionary(fc.constantFrom('a', 'b', '__proto__', ''), sub, { maxKeys: 3 }) }, { weight: 1, arbitrary: junk });
  const req = fc.oneof({ weight: 3, arbitrary: fc.array(fc.oneof({ weight: 8, arbitrary: fc.constantFrom('a', 'b') }, { weight: 1, arbitrary: junk }), { maxLength: 3 }) }, { weight: 1, arbitrary: junk });
  const schemaOf = (types: fc.Arbitrary<unknown>) =>
    fc.oneof(
      { weight: 6, arbitrary: fc.record({ type: types, properties: props, required: req, $schema: maybe(fc.constant(DIALECTS['2020-12'].uri)), title: value }, { requiredKeys: [] }) },
      { weight: 1, arbitrary: junk },
    );
  const maybe = <T,>(a: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: a }, { weight: 1, arbitrary: junk });
  const tool = fc.record(
    {
      name: maybe(fc.constantFrom('t', 'list_rows')),
      inputSchema: schemaOf(fc.oneof({ weight: 5, arbitrary: fc.constant('object') }, { weight: 1, arbitrary: typeName })),
      outputSchema: schemaOf(fc.oneof({ weight: 4, arbitrary: fc.constant('object') }, { weight: 1, arbitrary: typeName }, { weight: 1, arbitrary: junk })),
      execution: maybe(fc.record({ taskSupport: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('forbidden', 'optional', 'required', 'always', 'Optional') }, { weight: 1, arbitrary: junk }) }, { requiredKeys: [] })),
      annotations: maybe(fc.record({ readOnlyHint: maybe(fc.boolean()), title: maybe(fc.string({ maxLength: 3 })) }, { requiredKeys: [] })),
      _meta: maybe(fc.dictionary(fc.constantFrom('a', 'x/y'), value, { maxKeys: 2 })),
      description: maybe(fc.string({ maxLength: 4 })),
    },
    { requiredKeys: ['name', 'inputSchema'] },
  );

  it('never accepts a tool that 2025-11-25 rejects, and takes most that it accepts', () => {
    let taken = 0;
    let accepted = 0;
    assertProperty(
      fc.property(tool, (t) => {
        const fast = v2026(t) && olderAlsoAccepts(t, '2026-07-28', '2025-11-25');
        const valid = v2025(t);
        if (valid) accepted++;
        if (fast) taken++;
        return !fast || valid;
      }),
      { numRuns: 5000 },
    );
    // Without this the property could hold by never taking the fast path.
    expect(accepted).toBeGreaterThan(100);
    expect(taken / accepted).toBeGreaterThan(0.9);
  });

  it('answers only for 2026-07-28 and 2025-11-25', () => {
    const t = { name: 't', inputSchema: { type: 'object' } };
    expect(olderAlsoAccepts(t, '2026-07-28', '2025-11-25')).toBe(true);
    expect(olderAlsoAccepts(t, '2025-11-25', '2025-06-18')).toBe(false);
    expect(olderAlsoAccepts(t, '2025-06-18', '2025-03-26')).toBe(false);
  });
});

describe('SEP-1913 annotations fast path', () => {
  const DESTINATIONS = ['ephemeral', 'system', 'user', 'internal', 'public'];
  const OUTCOMES = ['benign', 'consequential', 'irreversible'];
  const SOURCES = ['untrustedPublic', 'trustedPublic', 'internal', 'user', 'system'];
  const CLASSES = ['none', 'user', 'pii', 'financial', 'credentials'];
  const odd = fc.constantFrom('PII', 'Public', '', 'regulated', 'other', 1, null, true, undefined, { regulated: { scopes: ['GDPR'] } }, { regulated: {} }, {}, []);
  const set = (allowed: string[]) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...allowed) },
      { weight: 3, arbitrary: fc.array(fc.constantFrom(...allowed), { maxLength: 3 }) },
      { weight: 1, arbitrary: fc.array(fc.oneof(fc.constantFrom(...allowed), odd), { maxLength: 3 }) },
      { weight: 1, arbitrary: odd },
    );
  const members = (shape: Record<string, fc.Arbitrary<unknown>>) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.record(shape) },
      { weight: 2, arbitrary: fc.record(shape, { requiredKeys: [] }) },
      { weight: 1, arbitrary: fc.record({ ...shape, extra: fc.constant(1) }) },
      { weight: 1, arbitrary: fc.record({ ...shape, Destination: fc.constant('public') }) },
      { weight: 1, arbitrary: odd },
    );
  const annotations = fc.record(
    {
      maliciousActivityHint: fc.oneof(fc.boolean(), odd),
      attribution: fc.oneof(fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.constant(1)), { maxLength: 3 }), odd),
      inputMetadata: members({ destination: set(DESTINATIONS), sensitivity: set(CLASSES), outcomes: set(OUTCOMES) }),
      returnMetadata: members({ source: set(SOURCES), sensitivity: set(CLASSES) }),
      readOnlyHint: fc.boolean(),
      other: fc.jsonValue({ maxDepth: 2 }),
    },
    { requiredKeys: [] },
  );

  it('never accepts what the SEP-1913 schema rejects, and takes most well-formed annotations', () => {
    let fast = 0;
    let valid = 0;
    assertProperty(
      fc.property(annotations, (a) => {
        const ok = validateSep1913(a) === true;
        if (ok) valid++;
        if (obviouslyValidAnnotations(a)) {
          fast++;
          return ok;
        }
        return true;
      }),
      { numRuns: 5000 },
    );
    expect(fast / valid).toBeGreaterThan(0.5);
  });

  it('leaves regulated classes to the validator', () => {
    const a = { inputMetadata: { destination: 'user', sensitivity: [{ regulated: { scopes: ['GDPR'] } }], outcomes: 'benign' } };
    expect(validateSep1913(a)).toBe(true);
    expect(obviouslyValidAnnotations(a)).toBe(false);
    expect(obviouslyValidAnnotations({ inputMetadata: { destination: 'user', sensitivity: ['pii'], outcomes: [] }, readOnlyHint: true })).toBe(true);
  });
});
