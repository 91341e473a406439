import type { ErrorObject } from 'ajv';
import { defineRule, type ReportInput } from '../src/rule.js';
import { explainErrors } from '../src/schema/explain.js';
import { readsOutputSchema } from '../src/packs/core.js';
import { DIALECTS, MAX_META_DEPTH, checkSchema, dialectOf, metaErrors, type Dialect } from '../src/schema/json-schema.js';
import type { SpecVersion } from '../src/types.js';
import { isObject } from '../src/util/json.js';
import { fieldPath, get } from '../src/util/pointer.js';
import { quote } from '../src/util/text.js';

/** Spec versions that name no default dialect (2025-11-25 made it 2020-12). */
const NO_DEFAULT_DIALECT: readonly SpecVersion[] = ['2025-03-26', '2025-06-18'];
/** Findings per schema; the rest are counted in one note. */
const MAX_FINDINGS = 50;

const SCHEMAS = [
  { key: 'inputSchema', instances: 'arguments' },
  { key: 'outputSchema', instances: 'result' },
] as const;

/** Meta-schema errors this rule reports itself, in better words (patterns: see checkSchema). */
const ownPatternCheck = (e: ErrorObject) => e.keyword === 'format' && e.params?.format === 'regex';

type Explained = ReturnType<typeof explainErrors>[number];

const EXCLUSIVE_BOUNDS = { exclusiveMaximum: 'maximum', exclusiveMinimum: 'minimum' } as const;

/**
 * exclusiveMaximum/exclusiveMinimum written in the other dialect family's way: a number in
 * draft-04 (where it is a boolean beside maximum/minimum), a boolean in draft-06 and later
 * (where it is the bound itself). The meta-schema gives one such mistake two errors in
 * draft-04 (the type, and "maximum" missing); this says it once, with how to write it.
 * Returns the findings and the errors they stand for.
 */
function exclusiveBoundMistakes(errors: readonly ErrorObject[], schema: Record<string, unknown>, dialect: Dialect, key: string): { explained: Explained[]; handled: Set<ErrorObject> } {
  const explained: Explained[] = [];
  const handled = new Set<ErrorObject>();
  for (const e of errors) {
    const m = e.keyword === 'type' ? /^#\/properties\/(exclusiveMaximum|exclusiveMinimum)\/type$/.exec(e.schemaPath) : null;
    if (!m) continue;
    const kw = m[1] as keyof typeof EXCLUSIVE_BOUNDS;
    const bound = EXCLUSIVE_BOUNDS[kw];
    const at = e.instancePath;
    const parentAt = at.slice(0, at.lastIndexOf('/'));
    const parent = get(schema, parentAt);
    if (!isObject(parent)) continue;
    const value = e.data;
    const other = parent[bound];
    const field = fieldPath(`/${key}${at}`);
    if (dialect === 'draft-04' && typeof value === 'number') {
      for (const d of errors) if (d.keyword === 'dependencies' && d.instancePath === parentAt && d.params?.property === kw) handled.add(d);
      const tighter = typeof other !== 'number' || (kw === 'exclusiveMaximum' ? value <= other : value >= other);
      explained.push({
        pointer: at,
        message: `${field} is ${value}, but in this dialect ${kw} is a boolean that makes "${bound}" exclusive; a number there is how draft-06 and later write it`,
        suggestion: tighter
          ? `write "${bound}": ${value}, "${kw}": true${typeof other === 'number' ? ` (in place of "${bound}": ${other})` : ''}, or declare a later dialect, where "${kw}": ${value} means this`
          : `remove "${kw}": "${bound}": ${other} is already the tighter bound`,
      });
      handled.add(e);
    } else if (dialect !== 'draft-04' && typeof value === 'boolean') {
      explained.push({
        pointer: at,
        message: `${field} is ${value}, but in this dialect ${kw} is the bound itself, a number; a boolean beside "${bound}" is how draft-04 wrote it`,
        suggestion:
          value === false
            ? `remove "${kw}": false ("${bound}" is inclusive already)`
            : typeof other === 'number'
              ? `write "${kw}": ${other} in place of "${bound}": ${other} and "${kw}": true`
              : `write the limit itself: "${kw}": <number>`,
      });
      handled.add(e);
    }
  }
  return { explained, handled };
}

/** The dialect as messages name it (made only for a message: most schemas have none). */
function dialectNameOf(dialect: Dialect, declared: boolean, namesDefault: boolean, spec: SpecVersion): string {
  return `JSON Schema ${dialect}${declared ? '' : namesDefault ? ", MCP's default dialect" : `, which mcp-annotate assumes without "$schema": spec ${spec} names no default dialect`}`;
}

/** Better words for some of the meta-schema's findings. */
function reword(e: Explained, value: unknown): Explained {
  if (e.pointer.endsWith('/type') && Array.isArray(value) && value.length === 0) {
    return { ...e, suggestion: 'list at least one type, e.g. ["string"], or remove "type" to allow values of any type' };
  }
  if (e.pointer.endsWith('/enum') && Array.isArray(value) && value.length === 0) {
    return { ...e, suggestion: 'list the values it allows, or remove "enum"' };
  }
  return e;
}

export default defineRule({
  id: 'input-schema-valid',
  severity: 'error',
  category: 'structure',
  packs: ['core'],
  summary: 'inputSchema and outputSchema must be valid JSON Schemas of their dialect.',
  precision: 'high',
  security: 3.0,
  why: `Clients compile a tool's \`inputSchema\` to validate arguments and to describe them to
the model, and its \`outputSchema\` to validate \`structuredContent\`. A schema that is not
valid JSON Schema — a misspelled type (\`"strin"\`), a \`$ref\` to a definition that is not
there, a \`pattern\` that is not a regular expression — fails to compile: depending on
the client the tool disappears, every call to it fails, or validation is silently
skipped.

Each schema is checked against the meta-schema of the dialect its \`$schema\` names
(2020-12, 2019-09, draft-07, draft-06 or draft-04), with MCP's default, 2020-12, when it
names none. On top of the meta-schema, the rule checks what a meta-schema cannot see:
local references (\`"#/$defs/User"\`, \`"#address"\`) that resolve to nothing,
\`pattern\` and \`patternProperties\` keys that are not ECMAScript regular expressions,
and (as warnings) \`required\` names that no property describes and empty \`enum\`s.`,
  notes: `- **Default dialect.** Spec 2025-11-25 made JSON Schema 2020-12 the default for a schema
  without \`$schema\`; earlier versions named no default. A schema without \`$schema\` is
  checked as 2020-12. When it fails as 2020-12 but is valid draft-07 (typically a tuple
  \`"items": [...]\`, which 2020-12 spells \`prefixItems\`), the suggestion is to declare
  draft-07, and under spec 2025-03-26 or 2025-06-18 the finding is only a **warning**,
  since those versions did not say which dialect applied. The message says which: "(JSON
  Schema 2020-12, MCP's default dialect)" from 2025-11-25 on, and before it "(JSON Schema
  2020-12, which mcp-annotate assumes without "$schema": spec 2025-06-18 names no default
  dialect)".
- **\`outputSchema\` under spec 2025-03-26.** That version's Tool has no \`outputSchema\`
  (2025-06-18 added it), and its clients ignore one. So under 2025-03-26 (recorded by the
  input or given with \`--spec\`) an \`outputSchema\` is not checked: one informational
  **note** says so, which never fails a run. Lint with \`--spec 2025-06-18\` or later to
  check it.
- **Unknown \`$schema\`.** A dialect other than the five above (draft-03, a custom
  meta-schema) gets one **note** saying the schema was not checked, and nothing else.
- **Patterns.** JSON Schema patterns are ECMAScript regular expressions. One that does not
  compile at all is an error. One that compiles only without the \`u\` flag (typically a
  needless escape such as \`\\_\` or \`\\-\` outside a class) is a **warning**: Ajv, which
  most JavaScript clients and SDKs use, compiles with \`u\` and then fails to compile the
  whole schema. When dropping the needless backslashes gives a pattern that compiles with
  \`u\` (and means the same), that pattern is offered as a fix.
- **An empty \`enum\`** allows no value at all. Draft-04 to draft-07 forbid it, and their
  meta-schemas report it (an error). 2019-09 and 2020-12 allow it, but Ajv refuses to
  compile a schema with one ("enum must have non-empty array"), so, as with a pattern that
  needs the \`u\` flag off, it is a **warning** there.
- **\`exclusiveMaximum\` and \`exclusiveMinimum\`** changed meaning in draft-06: in
  draft-04 they are booleans that make \`maximum\`/\`minimum\` exclusive, later they are
  the bound itself. One written the other way gets one finding (not the meta-schema's
  two) that says which spelling the dialect wants and how to write the same bound in it.
  An empty \`type\` list gets one finding too, suggesting a type or no \`type\` at all.
- **References.** Only references into the same document are checked: \`"#/…"\` JSON
  pointers, \`"#name"\` anchors (\`$anchor\`, \`$dynamicAnchor\`, and \`$id: "#name"\` in
  drafts 04–07), and absolute references to the schema's own \`$id\`. A subschema with an
  \`$id\` of its own starts a new resource, and references inside it resolve against it.
  References to other documents are not fetched. \`$dynamicRef\` is checked only in 2020-12,
  the one dialect that has it; in the others it is an unknown keyword that validators
  ignore. So a dangling \`$dynamicRef\` in a schema without \`$schema\` is, like the
  draft-07 forms above, only a **warning** under spec 2025-03-26 or 2025-06-18. A \`"#/definitions/…"\` that exists under
  \`"$defs"\` (or the other way round) gets a mechanical fix.
- **\`required\` without a property** is a **warning** (the catalogue's), and only when
  nothing else could describe the name: the rule looks through the schema's own
  \`properties\` (a schema with no \`properties\` at all describes nothing) and those of its
  \`allOf\`/\`anyOf\`/\`oneOf\`/\`if\`/\`then\`/\`else\`/\`dependentSchemas\` branches and local
  \`$ref\`s, and stays silent when any of them has
  \`patternProperties\` (patterns are not run against names: a hostile pattern could take
  exponential time), an \`additionalProperties\` or \`unevaluatedProperties\` *schema*, or
  a reference it cannot follow. \`additionalProperties: true\` or \`{}\` describe nothing, so
  they do not silence it; \`additionalProperties: false\` makes it worse — no value can
  satisfy the schema — and the message says so. A \`required\` inside an
  \`allOf\`/\`anyOf\`/\`oneOf\`/\`then\`/\`else\`/\`dependentSchemas\` branch is looked up in
  the schema it is a branch of (\`"anyOf": [{"required": ["a"]}, {"required": ["b"]}]\`
  beside \`properties\` is fine); one under \`not\` or \`if\` (a condition, not a
  requirement) or in \`$defs\`/\`definitions\` (it applies wherever it is referenced) is
  not checked. \`$dynamicRef\` is followed only in 2020-12 and \`$recursiveRef\` only in
  2019-09, the dialects that have them.
- **Hostile schemas.** Subschemas are walked without recursion. A schema nested more than
  ${MAX_META_DEPTH} JSON levels deep is not run through the meta-schema (the precompiled
  validators recurse and would overflow the stack); that is reported as a **warning**,
  since such a schema also breaks clients. At most ${MAX_FINDINGS} findings are reported per
  schema; one **note** counts the rest.
- The root of \`inputSchema\` (present, an object, \`"type": "object"\`) is
  [input-schema-object](input-schema-object.md)'s; a non-object \`outputSchema\`, and
  anything the MCP schema itself already constrains at the same place (\`outputSchema.type\`
  since 2025-06-18), is [schema-valid](schema-valid.md)'s.`,
  examples: {
    incorrect: [
      {
        title: 'A misspelled type and a dangling $ref',
        tools: [
          {
            name: 'create_user',
            inputSchema: {
              type: 'object',
              properties: { name: { type: 'strin' }, address: { $ref: '#/$defs/Address' } },
              $defs: { Adress: { type: 'object' } },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/inputSchema/properties/name/type' }, { pointer: '/tools/0/inputSchema/properties/address/$ref' }],
      },
      {
        title: 'A pattern that needs the u flag off, and a required name with no property',
        tools: [
          {
            name: 'lookup_order',
            inputSchema: {
              type: 'object',
              properties: { orderId: { type: 'string', pattern: '^[A-Z0-9\\-\\_]+$' } },
              required: ['orderID'],
            },
            annotations: { readOnlyHint: true },
          },
        ],
        findings: [
          { pointer: '/tools/0/inputSchema/properties/orderId/pattern', severity: 'warning' },
          { pointer: '/tools/0/inputSchema/required/0', severity: 'warning' },
        ],
      },
      {
        title: 'An unknown $schema: not checked',
        tools: [{ name: 'legacy', inputSchema: { $schema: 'http://json-schema.org/draft-03/schema#', type: 'object' } }],
        findings: [{ pointer: '/tools/0/inputSchema/$schema', severity: 'note' }],
      },
      {
        title: 'A draft-07 tuple without $schema, under spec 2025-06-18: a warning',
        doc: false,
        spec: '2025-06-18',
        tools: [{ name: 'set_point', inputSchema: { type: 'object', properties: { xy: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] } } } }],
        findings: [{ pointer: '/tools/0/inputSchema/properties/xy/items', severity: 'warning' }],
      },
      {
        title: 'A dangling $dynamicRef without $schema, under spec 2025-06-18: a warning (draft-07 ignores it)',
        doc: false,
        spec: '2025-06-18',
        tools: [{ name: 't', inputSchema: { type: 'object', properties: { a: { $dynamicRef: '#meta' } } } }],
        findings: [{ pointer: '/tools/0/inputSchema/properties/a/$dynamicRef', severity: 'warning' }],
      },
      {
        title: 'An outputSchema under spec 2025-03-26, whose Tool has none: one note, not checked',
        doc: false,
        spec: '2025-03-26',
        tools: [{ name: 'stats', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: [] } }],
        findings: [{ pointer: '/tools/0/outputSchema', severity: 'note' }],
      },
      {
        title: 'The same tuple under the latest spec: an error',
        doc: false,
        tools: [{ name: 'set_point', inputSchema: { type: 'object', properties: { xy: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] } } } }],
        findings: [{ pointer: '/tools/0/inputSchema/properties/xy/items' }],
      },
      {
        title: 'definitions vs $defs (with a fix), an anchor that is not there, a broken pattern key',
        doc: false,
        tools: [
          {
            name: 'x',
            inputSchema: {
              type: 'object',
              properties: { a: { $ref: '#/definitions/A' }, b: { $ref: '#bee' } },
              patternProperties: { '(x': {} },
              $defs: { A: { $anchor: 'be', type: 'string' } },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/inputSchema/properties/a/$ref' },
          { pointer: '/tools/0/inputSchema/properties/b/$ref' },
          { pointer: '/tools/0/inputSchema/patternProperties/(x' },
        ],
      },
      {
        title: 'An outputSchema in draft-04 with a bad pattern; required under additionalProperties false',
        doc: false,
        tools: [
          {
            name: 'y',
            inputSchema: { type: 'object', properties: { p: { type: 'string' } }, required: ['q'], additionalProperties: false },
            outputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { id: { type: 'string', pattern: '(' } } },
          },
        ],
        findings: [
          { pointer: '/tools/0/inputSchema/required/0', severity: 'warning' },
          { pointer: '/tools/0/outputSchema/properties/id/pattern' },
        ],
      },
      {
        title: 'required with no properties at all, or with properties only in an allOf branch',
        doc: false,
        tools: [
          { name: 'a', inputSchema: { type: 'object', required: ['b'] } },
          { name: 'b', inputSchema: { type: 'object', additionalProperties: false, required: ['b'] } },
          { name: 'c', inputSchema: { type: 'object', allOf: [{ properties: { a: {} } }], required: ['b'] } },
          { name: 'd', inputSchema: { type: 'object', properties: { a: {} }, anyOf: [{ required: ['a'] }, { required: ['c'] }] } },
        ],
        findings: [
          { pointer: '/tools/0/inputSchema/required/0', severity: 'warning' },
          { pointer: '/tools/1/inputSchema/required/0', severity: 'warning' },
          { pointer: '/tools/2/inputSchema/required/0', severity: 'warning' },
          { pointer: '/tools/3/inputSchema/anyOf/1/required/0', severity: 'warning' },
        ],
      },
      {
        title: 'draft-04 exclusiveMaximum written as a number, 2020-12 exclusiveMinimum as a boolean, an empty type list',
        tools: [
          {
            name: 'set_volume',
            inputSchema: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', properties: { level: { type: 'number', exclusiveMaximum: 11 } } },
            outputSchema: { type: 'object', properties: { level: { type: 'number', minimum: 0, exclusiveMinimum: true }, note: { type: [] } } },
          },
        ],
        findings: [
          { pointer: '/tools/0/inputSchema/properties/level/exclusiveMaximum' },
          { pointer: '/tools/0/outputSchema/properties/level/exclusiveMinimum' },
          { pointer: '/tools/0/outputSchema/properties/note/type' },
        ],
      },
      {
        title: 'An empty enum: valid 2020-12, but Ajv will not compile it',
        doc: false,
        tools: [{ name: 'a', inputSchema: { type: 'object', properties: { mode: { type: 'string', enum: [] } } } }],
        findings: [{ pointer: '/tools/0/inputSchema/properties/mode/enum', severity: 'warning' }],
      },
      {
        title: 'A name listed twice in required: the later one is reported',
        doc: false,
        tools: [{ name: 'a', inputSchema: { type: 'object', properties: { p: {}, q: {} }, required: ['p', 'q', 'p'] } }],
        findings: [{ pointer: '/tools/0/inputSchema/required/2' }],
      },
      {
        title: 'A schema nested 300 levels deep (test/json-schema.test.ts goes to 10,000)',
        doc: false,
        tools: [
          {
            name: 'deep',
            inputSchema: (() => {
              let s: Record<string, unknown> = { type: 'string', pattern: '(' };
              for (let i = 0; i < 300; i++) s = { type: 'object', properties: { a: s } };
              return s;
            })(),
          },
        ],
        findings: [{ pointer: '/tools/0/inputSchema', severity: 'warning' }, { pointer: `/tools/0/inputSchema${'/properties/a'.repeat(300)}/pattern` }],
      },
    ],
    correct: [
      {
        title: 'A 2020-12 schema with $defs, an anchor and a pattern',
        tools: [
          {
            name: 'create_user',
            inputSchema: {
              type: 'object',
              properties: {
                name: { type: 'string', minLength: 1 },
                email: { type: 'string', pattern: '^[^@\\s]+@[^@\\s]+$' },
                address: { $ref: '#/$defs/Address' },
                billing: { $ref: '#billing' },
              },
              required: ['name', 'email'],
              $defs: { Address: { type: 'object', properties: { city: { type: 'string' } } }, Billing: { $anchor: 'billing', type: 'object' } },
            },
          },
        ],
      },
      {
        title: 'A draft-07 schema that says so',
        tools: [
          {
            name: 'set_point',
            inputSchema: {
              $schema: 'http://json-schema.org/draft-07/schema#',
              type: 'object',
              properties: { xy: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] }, unit: { $ref: '#/definitions/Unit' } },
              definitions: { Unit: { enum: ['px', 'pt'] } },
            },
          },
        ],
      },
      {
        title: 'required names supplied by a branch, a pattern, an additionalProperties schema or the parent of a branch; required as a condition',
        doc: false,
        tools: [
          { name: 'a', inputSchema: { type: 'object', properties: { x: {} }, required: ['x', 'y'], allOf: [{ properties: { y: {} } }] } },
          { name: 'b', inputSchema: { type: 'object', properties: { x: {} }, required: ['x-1'], patternProperties: { '^x-': {} } } },
          { name: 'c', inputSchema: { type: 'object', properties: { x: {} }, required: ['y'], additionalProperties: { type: 'string' } } },
          { name: 'd', inputSchema: { type: 'object', properties: { x: {} }, required: ['y'], $ref: '#/$defs/Y', $defs: { Y: { properties: { y: {} } } } } },
          { name: 'e', inputSchema: { type: 'object', properties: { a: {}, b: {} }, anyOf: [{ required: ['a'] }, { required: ['b'] }] } },
          { name: 'f', inputSchema: { type: 'object', properties: { a: {} }, not: { required: ['z'] }, if: { required: ['y'] }, then: { required: ['a'] }, $defs: { R: { required: ['q'] } } } },
        ],
      },
      {
        title: 'outputSchema.type "Object" under 2025-11-25 is schema-valid\u2019s (the MCP schema requires "object" there)',
        doc: false,
        spec: '2025-11-25',
        tools: [{ name: 'g', inputSchema: { type: 'object' }, outputSchema: { type: 'Object' } }],
      },
      {
        title: 'An embedded resource with its own $id, an external $ref, an http $schema without "#"',
        doc: false,
        tools: [
          {
            name: 'f',
            inputSchema: {
              $schema: 'http://json-schema.org/draft/2020-12/schema',
              $id: 'https://example.com/tool.json',
              type: 'object',
              properties: {
                inner: { $id: 'https://example.com/inner.json', $defs: { X: { type: 'string' } }, properties: { x: { $ref: '#/$defs/X' } } },
                other: { $ref: 'https://example.com/other.json#/$defs/Y' },
                self: { $ref: 'https://example.com/tool.json#/properties/inner' },
                pct: { $ref: '#/$defs/a%20b' },
              },
              $defs: { 'a b': { type: 'string' } },
            },
          },
        ],
      },
      {
        title: '$dynamicRef outside 2020-12 is an unknown keyword, not a reference',
        doc: false,
        tools: [
          { name: 'g', inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { p: { $dynamicRef: '#x' } } } },
          { name: 'h', inputSchema: { $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties: { p: { $dynamicRef: '#x' } } } },
        ],
      },
    ],
  },
  check(ctx) {
    const tool = ctx.tool.obj;
    if (!tool) return;
    for (const { key, instances } of SCHEMAS) {
      const schema = tool[key];
      if (!isObject(schema)) continue;
      const base = ctx.at(`/${key}`);
      if (key === 'outputSchema' && !readsOutputSchema(ctx.spec)) {
        // Not a field of this version's Tool: its clients ignore it, so there is nothing of MCP's to check.
        ctx.report({
          pointer: base,
          severity: 'note',
          informational: true,
          message: `outputSchema is no field of a Tool in spec ${ctx.spec} (spec 2025-06-18 added it): clients of that version ignore it, so it was not checked`,
          suggestion: 'nothing to fix for this version; to check it, lint with --spec 2025-06-18 or later (the versions where clients read it)',
        });
        continue;
      }
      // Since 2025-11-25 a schema without $schema is 2020-12; earlier versions named no default, and mcp-annotate assumes it.
      const namesDefault = !NO_DEFAULT_DIALECT.includes(ctx.spec);
      const choice = dialectOf(schema);
      if ('unknown' in choice) {
        ctx.report({
          pointer: `${base}/$schema`,
          severity: 'note',
          message: `${key} declares "$schema": ${quote(choice.unknown)}, a dialect mcp-annotate does not know (it knows JSON Schema ${Object.keys(DIALECTS).join(', ')}), so the schema was not checked`,
          suggestion: namesDefault
            ? `declare one of the known dialects, e.g. "$schema": "${DIALECTS['2020-12'].uri}", or drop "$schema" to use MCP's default (2020-12)`
            : `declare one of the known dialects, e.g. "$schema": "${DIALECTS['draft-07'].uri}" (spec ${ctx.spec} names no default dialect, so say which one)`,
        });
        continue;
      }
      const { dialect, declared } = choice;
      const findings: ReportInput[] = [];

      // The fast path's answer comes from the tool's shared walk of the schema (checkSchema's, below).
      const errors = metaErrors(schema, dialect, ctx.tool);
      if (errors === undefined) {
        findings.push({
          pointer: base,
          severity: 'warning',
          message: `${key} nests more than ${MAX_META_DEPTH} levels deep, so it was not checked against the meta-schema of ${dialectNameOf(dialect, declared, namesDefault, ctx.spec)}; validators that recurse (Ajv among them) can overflow the stack on it`,
          suggestion: 'flatten the schema (name repeated parts under $defs and $ref them); no real tool needs this depth',
        });
      } else {
        // The root type of inputSchema is input-schema-object's; anything the core schema already
        // reported at the same place (outputSchema.type under 2025-11-25) is schema-valid's.
        let explained: ReturnType<typeof explainErrors> = [];
        if (errors.length > 0) {
          const reported = new Set(ctx.problems.filter((p) => p.kind === 'invalid').map((p) => p.pointer));
          const own = errors.filter((e) => !ownPatternCheck(e));
          const bounds = exclusiveBoundMistakes(own, schema, dialect, key);
          explained = [...bounds.explained, ...explainErrors(own.filter((e) => !bounds.handled.has(e)), `/${key}`)]
            .filter((e) => !(key === 'inputSchema' && e.pointer === '/type') && !reported.has(base + e.pointer))
            .map((e) => reword(e, get(schema, e.pointer)));
        }
        let older = false;
        let draft07 = false;
        if (explained.length > 0 && !declared) {
          const e07 = metaErrors(schema, 'draft-07');
          draft07 = e07 !== undefined && e07.filter((e) => !ownPatternCheck(e)).length === 0;
          older = draft07 && NO_DEFAULT_DIALECT.includes(ctx.spec);
        }
        for (const e of explained) {
          const value = get(schema, e.pointer);
          const tuple = dialect === '2020-12' && e.pointer.endsWith('/items') && Array.isArray(value);
          findings.push({
            pointer: base + e.pointer,
            detail: e.detail,
            severity: older ? 'warning' : undefined,
            message:
              `${e.message} (${dialectNameOf(dialect, declared, namesDefault, ctx.spec)})` +
              (draft07 ? '; the schema is valid draft-07' : ''),
            suggestion: draft07
              ? `declare the dialect it was written for: "$schema": "${DIALECTS['draft-07'].uri}"${tuple ? ' (or write the list of item schemas as "prefixItems", the 2020-12 spelling)' : ''}`
              : tuple
                ? 'in JSON Schema 2020-12 a list of item schemas is written "prefixItems"'
                : e.suggestion,
          });
        }
      }

      const result = checkSchema(schema, dialect, { name: key, instances, owner: ctx.tool });
      for (const issue of result.issues) {
        const pointer = base + issue.pointer;
        // A problem only in MCP's default dialect, under a spec version that named none: read as
        // draft-07 (what those versions' schemas were mostly written in), it is no problem.
        const unsure = !declared && issue.onlyIn !== undefined && NO_DEFAULT_DIALECT.includes(ctx.spec);
        findings.push({
          pointer,
          severity: unsure ? 'warning' : issue.severity,
          message: unsure
            ? `${issue.message} (${dialectNameOf(dialect, declared, namesDefault, ctx.spec)}); in draft-07 $dynamicRef is an unknown keyword that validators ignore`
            : issue.message,
          suggestion: issue.suggestion,
          ...(issue.replacement !== undefined ? { fix: { description: `Replace the value with ${issue.replacement}`, replacements: [{ pointer, text: issue.replacement }] } } : {}),
        });
      }
      const more = Math.max(0, findings.length - MAX_FINDINGS) + result.more;
      for (let i = 0; i < findings.length && i < MAX_FINDINGS; i++) ctx.report(findings[i]!);
      if (more > 0 || result.truncated) {
        ctx.report({
          pointer: base,
          severity: 'note',
          message: `${key} has ${more > 0 ? `${more} more problem${more === 1 ? '' : 's'}` : 'more subschemas'} than mcp-annotate reports for one schema${result.truncated ? ' (not every subschema was checked)' : ''}`,
          suggestion: 'fix the problems above and run again',
        });
      }
    }
  },
});
