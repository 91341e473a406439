/**
 * JSON Schema as data: which dialect a schema declares, its precompiled meta-schema
 * validator, and checks a meta-schema cannot make — local $refs that resolve to
 * nothing, `pattern`s that are not ECMAScript regular expressions (or only without the
 * `u` flag), and `required` names that no subschema describes.
 *
 * Everything here is iterative or bounded: tool schemas come from servers, and a
 * hostile one can be nested ten thousand levels deep.
 */
import { generated, type GeneratedValidator } from './generated.js';
import type { ErrorObject } from 'ajv';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Severity } from '../types.js';
import { hasOwn, isObject } from '../util/json.js';
import { escapeSegment, fieldPath, unescapeSegment } from '../util/pointer.js';
import { closest, head, quote, tail } from '../util/text.js';
import { append } from '../util/array.js';

export type Dialect = '2020-12' | '2019-09' | 'draft-07' | 'draft-06' | 'draft-04';

/** A dialect's meta-schema validator, loaded the first time a schema of that dialect is checked. */
function metaSchema(uri: string, name: string): { uri: string; readonly validate: GeneratedValidator } {
  let validate: GeneratedValidator | undefined;
  return {
    uri,
    get validate() {
      return (validate ??= generated(name).validate!);
    },
  };
}

export const DIALECTS: Record<Dialect, { uri: string; readonly validate: GeneratedValidator }> = {
  '2020-12': metaSchema('https://json-schema.org/draft/2020-12/schema', 'meta-2020-12'),
  '2019-09': metaSchema('https://json-schema.org/draft/2019-09/schema', 'meta-2019-09'),
  'draft-07': metaSchema('http://json-schema.org/draft-07/schema#', 'meta-draft-07'),
  'draft-06': metaSchema('http://json-schema.org/draft-06/schema#', 'meta-draft-06'),
  'draft-04': metaSchema('http://json-schema.org/draft-04/schema#', 'meta-draft-04'),
};

/** MCP's dialect for a tool schema without $schema (spec 2025-11-25 and later). */
export const DEFAULT_DIALECT: Dialect = '2020-12';

/** A $schema URI in a comparable form: https, no trailing "#", lower case. */
export function normaliseDialectUri(uri: string): string {
  return uri.replace(/^http:\/\//i, 'https://').replace(/#$/, '').toLowerCase();
}

const BY_URI = new Map(Object.entries(DIALECTS).map(([d, v]) => [normaliseDialectUri(v.uri), d as Dialect]));

export type DialectChoice = { dialect: Dialect; declared: boolean } | { unknown: string };

/** The choice for a schema without $schema, the common case (shared, frozen: callers only read it). */
const DEFAULT_CHOICE: DialectChoice = { dialect: DEFAULT_DIALECT, declared: false };

/** The dialect a schema declares with $schema; the default when it declares none (or a non-string, which the meta-schema reports). */
export function dialectOf(schema: Record<string, unknown>): DialectChoice {
  const uri = schema.$schema;
  if (typeof uri !== 'string') return DEFAULT_CHOICE;
  const dialect = BY_URI.get(normaliseDialectUri(uri));
  return dialect ? { dialect, declared: true } : { unknown: uri };
}

/**
 * How deeply a JSON value nests, counted without recursion; stops counting past `limit`
 * (so the answer is at most limit + 1).
 */
export function jsonDepth(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d > max) max = d;
    if (max > limit) return limit + 1;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return max;
}

/**
 * Nesting (in JSON levels) past which the meta-schema is not run: the precompiled
 * validators recurse once per level and overflow the stack somewhere past 1,000.
 */
export const MAX_META_DEPTH = 256;

// ---------------------------------------------------------------------------
// A conservative fast path for the meta-schema check

/**
 * Every keyword that a supported dialect's meta-schema (draft-04, draft-06, draft-07,
 * 2019-09, 2020-12, as Ajv bundles them) gives a schema of its own. Any other member of a
 * schema object is unconstrained by all five.
 */
const META_KEYWORDS: ReadonlySet<string> = new Set([
  // draft-04
  'id', '$schema', 'title', 'description', 'default', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum',
  'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'additionalItems', 'items', 'maxItems', 'minItems',
  'uniqueItems', 'maxProperties', 'minProperties', 'required', 'additionalProperties', 'definitions', 'properties',
  'patternProperties', 'dependencies', 'enum', 'type', 'allOf', 'anyOf', 'oneOf', 'not',
  // draft-06 and draft-07
  '$id', '$ref', 'examples', 'contains', 'propertyNames', 'const', 'format', '$comment', 'readOnly',
  'contentMediaType', 'contentEncoding', 'if', 'then', 'else',
  // 2019-09 and 2020-12
  '$anchor', '$recursiveRef', '$recursiveAnchor', '$vocabulary', '$defs', 'deprecated', 'writeOnly', 'maxContains',
  'minContains', 'dependentRequired', 'dependentSchemas', 'unevaluatedItems', 'unevaluatedProperties',
  'contentSchema', 'prefixItems', '$dynamicRef', '$dynamicAnchor',
]);

const SIMPLE_TYPES: ReadonlySet<string> = new Set(['array', 'boolean', 'integer', 'null', 'number', 'object', 'string']);

/** A format check exactly as the generated validators run it (the same ajv-formats functions and patterns). */
function formatCheck(name: 'regex' | 'uri' | 'uri-reference'): (s: string) => boolean {
  const f = fullFormats[name] as unknown;
  if (typeof f === 'function') return f as (s: string) => boolean;
  if (f instanceof RegExp) return (s) => f.test(s);
  throw new Error(`ajv-formats has no plain check for format ${name}`);
}
const isRegex = formatCheck('regex');
const isUri = formatCheck('uri');
const isUriReference = formatCheck('uri-reference');

/**
 * JSON levels (counted like jsonDepth) past which the fast path leaves a schema to the
 * validator; well below MAX_META_DEPTH, so a schema it accepts is one metaErrors checks.
 */
const FAST_MAX_DEPTH = 128;

/** A string array with no repeats (what uniqueItems means for strings); linear, for hostile lengths. */
function uniqueStrings(list: unknown[], allowed?: ReadonlySet<string>): boolean {
  // A short list (the usual required list) is compared pairwise, without a set.
  if (list.length <= 8) {
    for (let i = 0; i < list.length; i++) {
      const v = list[i];
      if (typeof v !== 'string' || (allowed !== undefined && !allowed.has(v))) return false;
      for (let j = 0; j < i; j++) if (list[j] === v) return false;
    }
    return true;
  }
  const seen = new Set<string>();
  for (const v of list) {
    if (typeof v !== 'string' || (allowed !== undefined && !allowed.has(v)) || seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}

/**
 * An array of distinct JSON scalars: uniqueItems for values that need no deep comparison
 * (a Set compares like the validator's deep equality does on scalars: 0 equals -0, NaN NaN).
 */
function uniqueScalars(list: unknown[]): boolean {
  const seen = new Set<unknown>();
  for (const v of list) {
    if ((v !== null && typeof v === 'object') || seen.has(v)) return false;
    seen.add(v);
  }
  return true;
}

/** Whether a value nested at JSON level `level` keeps the whole schema within FAST_MAX_DEPTH. */
function shallowEnough(value: unknown, level: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  const room = FAST_MAX_DEPTH - level + 1;
  return room > 0 && jsonDepth(value, room) <= room;
}

/** Every member of an object is an object subschema the fast path accepts. */
function schemaMap(map: unknown, dialect: Dialect, level: number): boolean {
  if (!isObject(map)) return false;
  // for…in also sees inherited members (never in parsed JSON): checking them too is only stricter.
  for (const key in map) {
    const v = map[key];
    if (!isObject(v) || !fastValidAt(v, dialect, level + 1)) return false;
  }
  return true;
}

/** A non-empty array of object subschemas the fast path accepts. */
function schemaList(list: unknown, dialect: Dialect, level: number): boolean {
  if (!Array.isArray(list) || list.length === 0) return false;
  for (const v of list) if (!isObject(v) || !fastValidAt(v, dialect, level + 1)) return false;
  return true;
}

const nonNegativeInteger = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;

// What the fast path checks for each keyword it knows (a small number, so one Map lookup
// and a jump table decide; the common keywords come first).
const TYPE = 1;
const STRING = 2;
const SCHEMA_MAP = 3;
const REQUIRED = 4;
const SCHEMA = 5;
const ENUM = 6;
const ADDITIONAL = 7;
const SCHEMA_LIST = 8;
const PATTERN = 9;
const URI = 10;
const URI_REFERENCE = 11;
const NON_NEGATIVE_INTEGER = 12;
const NUMBER = 13;
const MULTIPLE_OF = 14;
const BOOLEAN = 15;
const EXAMPLES = 16;
const ANY_VALUE = 17;
const FAST_KEYWORDS = new Map<string, number>([
  ['type', TYPE],
  ['description', STRING],
  ['properties', SCHEMA_MAP],
  ['required', REQUIRED],
  ['title', STRING],
  ['items', SCHEMA],
  ['enum', ENUM],
  ['default', ANY_VALUE],
  ['additionalProperties', ADDITIONAL],
  ['format', STRING],
  ['pattern', PATTERN],
  ['minimum', NUMBER],
  ['maximum', NUMBER],
  ['minLength', NON_NEGATIVE_INTEGER],
  ['maxLength', NON_NEGATIVE_INTEGER],
  ['minItems', NON_NEGATIVE_INTEGER],
  ['maxItems', NON_NEGATIVE_INTEGER],
  ['minProperties', NON_NEGATIVE_INTEGER],
  ['maxProperties', NON_NEGATIVE_INTEGER],
  ['anyOf', SCHEMA_LIST],
  ['oneOf', SCHEMA_LIST],
  ['allOf', SCHEMA_LIST],
  ['not', SCHEMA],
  ['$defs', SCHEMA_MAP],
  ['definitions', SCHEMA_MAP],
  ['$ref', URI_REFERENCE],
  ['$schema', URI],
  ['$comment', STRING],
  ['const', ANY_VALUE],
  ['examples', EXAMPLES],
  ['multipleOf', MULTIPLE_OF],
  ['uniqueItems', BOOLEAN],
  ['deprecated', BOOLEAN],
  ['readOnly', BOOLEAN],
  ['writeOnly', BOOLEAN],
]);

/** FAST_KEYWORDS' code for a keyword a meta-schema constrains that the fast path leaves to the validator. */
const META = 0;

/**
 * Whether one member of a schema object (keyword `code`, see FAST_KEYWORDS; undefined for a
 * keyword no dialect constrains) passes the fast path, the schema object being at JSON level
 * `level`. For keywords that hold subschemas this checks only the container (an object, a
 * non-empty list, a boolean or an object): the subschemas in it are the caller's to check,
 * at their own levels.
 */
function fastMember(code: number | undefined, v: unknown, dialect: Dialect, level: number): boolean {
  switch (code) {
    case TYPE:
      if (typeof v === 'string') return SIMPLE_TYPES.has(v);
      return Array.isArray(v) && v.length > 0 && uniqueStrings(v, SIMPLE_TYPES);
    case STRING:
      return typeof v === 'string';
    case SCHEMA_MAP:
    case SCHEMA:
      return isObject(v);
    case REQUIRED:
      // draft-04's stringArray needs at least one name.
      return Array.isArray(v) && !(dialect === 'draft-04' && v.length === 0) && uniqueStrings(v);
    case ENUM:
      if (!Array.isArray(v)) return false;
      // Before 2019-09: at least one value, no two equal.
      if ((dialect === 'draft-04' || dialect === 'draft-06' || dialect === 'draft-07') && (v.length === 0 || !uniqueScalars(v))) return false;
      return shallowEnough(v, level + 1);
    case ADDITIONAL:
      return typeof v === 'boolean' || isObject(v);
    case SCHEMA_LIST:
      return Array.isArray(v) && v.length > 0;
    case PATTERN:
      return typeof v === 'string' && isRegex(v);
    case URI:
      return typeof v === 'string' && isUri(v);
    case URI_REFERENCE:
      return typeof v === 'string' && isUriReference(v);
    case NON_NEGATIVE_INTEGER:
      return nonNegativeInteger(v);
    case NUMBER:
      return typeof v === 'number' && Number.isFinite(v);
    case MULTIPLE_OF:
      return typeof v === 'number' && Number.isFinite(v) && v > 0;
    case BOOLEAN:
      return typeof v === 'boolean';
    case EXAMPLES:
      return Array.isArray(v) && shallowEnough(v, level + 1);
    case ANY_VALUE:
    case undefined:
      // Unconstrained (a keyword no dialect knows, too), but it counts towards the depth.
      return shallowEnough(v, level + 1);
    default:
      // META: another keyword a meta-schema constrains: the validator decides.
      return false;
  }
}

/** The fast path's code for a member name: FAST_KEYWORDS', META, or undefined for a keyword no dialect constrains. */
function fastCode(key: string): number | undefined {
  return FAST_KEYWORDS.get(key) ?? (META_KEYWORDS.has(key) ? META : undefined);
}

/**
 * The fast path as a plain recursive reading; the schema walk (walk, below) finds the same
 * answer in its own pass over the subschemas, and test/schema-fast-path.test.ts compares them.
 */
function fastValidAt(schema: Record<string, unknown>, dialect: Dialect, level: number): boolean {
  if (level > FAST_MAX_DEPTH) return false;
  // for…in also sees inherited members (never in parsed JSON): checking them too is only stricter.
  for (const key in schema) {
    const v = schema[key];
    const code = fastCode(key);
    if (!fastMember(code, v, dialect, level)) return false;
    switch (code) {
      case SCHEMA_MAP:
        if (!schemaMap(v, dialect, level + 1)) return false;
        break;
      case SCHEMA:
        if (!fastValidAt(v as Record<string, unknown>, dialect, level + 1)) return false;
        break;
      case ADDITIONAL:
        if (typeof v !== 'boolean' && !fastValidAt(v as Record<string, unknown>, dialect, level + 1)) return false;
        break;
      case SCHEMA_LIST:
        if (!schemaList(v, dialect, level + 1)) return false;
        break;
    }
  }
  return true;
}

/**
 * A conservative check that a schema is valid against its dialect's meta-schema: true only
 * for schema objects made of a small set of keywords with values of the right JSON types
 * (type, properties, required, items, enum, pattern, min and max bounds, …), where that is
 * easy to be sure of. false means "not sure" — the generated validator decides. Sound by
 * construction (each accepted value satisfies the meta-schema's own subschema for its
 * keyword) and by test (test/schema-fast-path.test.ts compares it with the validators).
 */
export function obviouslyValid(schema: unknown, dialect: Dialect): boolean {
  return isObject(schema) && fastValidAt(schema, dialect, 1);
}

/**
 * Validates against the dialect's meta-schema; undefined when the schema is too deep to check
 * safely. With an owner (see schemaNodes), the fast path's answer comes from the shared walk
 * of the schema, which finds it in the same pass (WalkResult.obviouslyValid).
 */
export function metaErrors(schema: unknown, dialect: Dialect, owner?: object): ErrorObject[] | undefined {
  const fast = owner !== undefined && isObject(schema) ? schemaNodes(schema, dialect, DEFAULT_MAX_NODES, owner).obviouslyValid : undefined;
  if (fast ?? obviouslyValid(schema, dialect)) return [];
  if (jsonDepth(schema, MAX_META_DEPTH) > MAX_META_DEPTH) return undefined;
  const validate = DIALECTS[dialect].validate;
  try {
    return validate(schema) ? [] : [...(validate.errors ?? [])];
  } catch (e) {
    if (e instanceof RangeError) return undefined;
    throw e;
  }
}

// ---------------------------------------------------------------------------
// Walking subschemas

/** One subschema, with the way back to the root (pointers are built only when needed). */
export interface SchemaNode {
  schema: Record<string, unknown>;
  parent: SchemaNode | undefined;
  /** The keyword that holds this subschema in its parent ("not", "properties"). */
  keyword: string;
  /** The member name or index under the keyword, for map and list keywords. */
  member?: string;
  depth: number;
  /** The node whose $id starts the schema resource this one belongs to (the root otherwise). */
  resource: SchemaNode;
  /**
   * Which keywords the node has that its readers look at (MARK_* bits), found by the walk's
   * one pass over its members: a reader skips a node without them, unread.
   */
  marks: number;
}

/** SchemaNode.marks: a title or description (hidden-characters reads them). */
export const MARK_TEXT = 1;
/** SchemaNode.marks: an anchor, an id, a reference, a pattern, required or enum (checkSchema reads them). */
export const MARK_CHECKED = 2;

const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];
const LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** `items` may be one schema or (before 2020-12) a list. */
const ONE_OR_LIST_KEYWORDS = ['items'];
const ONE_KEYWORDS = [
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'contentSchema',
];

const LEGACY: ReadonlySet<Dialect> = new Set(['draft-04', 'draft-06', 'draft-07']);

/** The keyword that names a schema resource or a plain-name anchor in a dialect. */
function idKeyword(dialect: Dialect): string {
  return dialect === 'draft-04' ? 'id' : '$id';
}

/** The base URI a subschema's $id sets, when it starts a new schema resource. */
export function resourceBase(schema: Record<string, unknown>, dialect: Dialect): string | undefined {
  const id = schema[idKeyword(dialect)];
  if (typeof id !== 'string') return undefined;
  // Before 2019-09, keywords beside $ref (including $id) are ignored.
  if (LEGACY.has(dialect) && typeof schema.$ref === 'string') return undefined;
  const base = id.split('#')[0]!;
  return base === '' ? undefined : base;
}

/** The pointer of a node relative to the root schema. */
export function nodePointer(node: SchemaNode): string {
  const segments: string[] = [];
  for (let n: SchemaNode | undefined = node; n?.parent; n = n.parent) {
    if (n.member !== undefined) segments.push(escapeSegment(n.member));
    segments.push(escapeSegment(n.keyword));
  }
  let out = '';
  for (let i = segments.length - 1; i >= 0; i--) out += '/' + segments[i];
  return out;
}

export interface WalkResult {
  visited: number;
  /** True when the walk stopped at maxNodes. */
  truncated: boolean;
}

/** How a keyword holds subschemas: a map of them, a list, one schema or a list (items), or one schema. */
type Holds = 'map' | 'list' | 'one-or-list' | 'one';

/**
 * Each keyword the walk reads: the order its subschemas are visited in (-1: it holds none),
 * how it holds them, the mark it gives its node, and the fast path's code for it (see
 * fastMember). A member name not here is a keyword no dialect constrains.
 */
interface Keyword {
  order: number;
  holds: Holds | undefined;
  mark: number;
  fast: number | undefined;
}
const KEYWORDS = new Map<string, Keyword>();
for (const [list, holds] of [
  [MAP_KEYWORDS, 'map'],
  [LIST_KEYWORDS, 'list'],
  [ONE_OR_LIST_KEYWORDS, 'one-or-list'],
  [ONE_KEYWORDS, 'one'],
] as const) {
  for (const k of list) KEYWORDS.set(k, { order: KEYWORDS.size, holds, mark: 0, fast: fastCode(k) });
}
const KEYWORD_NAMES = [...KEYWORDS.keys()];
// Keywords that mark a node (order -1: they hold no subschemas, except patternProperties).
KEYWORDS.get('patternProperties')!.mark = MARK_CHECKED;
for (const k of ['title', 'description']) KEYWORDS.set(k, { order: -1, holds: undefined, mark: MARK_TEXT, fast: fastCode(k) });
for (const k of ['$anchor', '$dynamicAnchor', 'id', '$id', '$ref', '$dynamicRef', 'pattern', 'required', 'enum']) KEYWORDS.set(k, { order: -1, holds: undefined, mark: MARK_CHECKED, fast: fastCode(k) });
// Every other keyword the fast path knows or a meta-schema constrains: no subschemas to visit, no mark.
for (const k of [...FAST_KEYWORDS.keys(), ...META_KEYWORDS]) if (!KEYWORDS.has(k)) KEYWORDS.set(k, { order: -1, holds: undefined, mark: 0, fast: fastCode(k) });

export interface SchemaNodes {
  /** The root and every object subschema, parents before children, in walk order. */
  nodes: readonly SchemaNode[];
  /** True when the walk stopped at maxNodes. */
  truncated: boolean;
  /**
   * obviouslyValid(root, dialect), found in the same pass; undefined when the walk stopped at
   * maxNodes (it did not see every subschema: ask obviouslyValid).
   */
  obviouslyValid: boolean | undefined;
}

/** The most subschemas a walk visits unless told otherwise. */
const DEFAULT_MAX_NODES = 100_000;

/**
 * Walks remembered for one owner at a time: the engine makes a new ToolView for each tool
 * of each run, and the packs and rules that walk a tool's schemas (input-schema-valid,
 * hidden-characters, webmcp-sensitive) pass it, so each schema of a tool is walked once.
 * A walk without an owner is never remembered (the schema may change between calls).
 */
let cacheOwner: object | undefined;
const walkCache: { root: object; dialect: Dialect; maxNodes: number; result: SchemaNodes }[] = [];

/** A subschema of `parent`, in its parent's resource until the walk reads its own $id (see walk). */
function newNode(schema: Record<string, unknown>, parent: SchemaNode, keyword: string, member: string | undefined): SchemaNode {
  return { schema, parent, keyword, member, depth: parent.depth + 1, resource: parent.resource, marks: 0 };
}

function walk(root: Record<string, unknown>, dialect: Dialect, maxNodes: number): SchemaNodes {
  const rootNode = { schema: root, parent: undefined, keyword: '', depth: 0, marks: 0 } as unknown as SchemaNode;
  rootNode.resource = rootNode;
  const nodes: SchemaNode[] = [];
  const stack: SchemaNode[] = [rootNode];
  // The JSON level of each node on the stack, counted as fastValidAt counts it (a map or a
  // list of subschemas is a level of its own).
  const levels: number[] = [1];
  // Whether every node seen so far passes the fast path (fastValidAt without its recursion:
  // the walk visits every subschema it would recurse into).
  let fast = true;
  // Scratch space per node: the order numbers of its subschema keywords, and its children
  // and their levels, with their counts (setting an array's length to empty it is a call into
  // the runtime, once per node).
  const found: number[] = [];
  const children: SchemaNode[] = [];
  const childLevels: number[] = [];
  let foundCount = 0;
  let childCount = 0;
  while (stack.length > 0) {
    if (nodes.length >= maxNodes) return { nodes, truncated: true, obviouslyValid: undefined };
    const node = stack.pop()!;
    const level = levels.pop()!;
    nodes.push(node);
    const s = node.schema;
    if (level > FAST_MAX_DEPTH) fast = false;
    // The subschema keywords the node has, in visiting order (insertion sort: there are few),
    // its marks, and the fast path's verdict on each member. for…in, like the lookups it
    // replaces, also sees inherited members.
    foundCount = 0;
    let marks = 0;
    for (const k in s) {
      const kw = KEYWORDS.get(k);
      if (kw === undefined) {
        if (fast && !fastMember(undefined, s[k], dialect, level)) fast = false;
        continue;
      }
      if (fast) {
        // The commonest members inline (a description, a type name), the rest by fastMember.
        const code = kw.fast;
        const v = s[k];
        if (code === STRING) fast = typeof v === 'string';
        else if (code === TYPE && typeof v === 'string') fast = SIMPLE_TYPES.has(v);
        else if (code !== SCHEMA_MAP || !isObject(v)) fast = fastMember(code, v, dialect, level);
      }
      marks |= kw.mark;
      if (kw.order < 0) continue;
      let i = foundCount++;
      while (i > 0 && found[i - 1]! > kw.order) {
        found[i] = found[i - 1]!;
        i--;
      }
      found[i] = kw.order;
    }
    node.marks = marks;
    // A subschema with an $id of its own starts a resource (its children are made below, so
    // they see it). Only a node marked MARK_CHECKED can have one: id and $id mark it.
    if ((marks & MARK_CHECKED) !== 0 && node.parent !== undefined && resourceBase(s, dialect) !== undefined) node.resource = node;
    if (foundCount === 0) continue;
    childCount = 0;
    for (let f = 0; f < foundCount; f++) {
      const k = KEYWORD_NAMES[found[f]!]!;
      const holds = KEYWORDS.get(k)!.holds!;
      const v = s[k];
      // A member of a map or a list that is no object: the fast path takes none (the keywords
      // it knows want subschema objects there, and it leaves the others to the validator).
      if (holds === 'map') {
        if (isObject(v)) {
          for (const name of Object.keys(v)) {
            const m = v[name];
            if (isObject(m)) {
              childLevels[childCount] = level + 2;
              children[childCount++] = newNode(m, node, k, name);
            } else fast = false;
          }
        }
      } else if (Array.isArray(v)) {
        if (holds === 'list' || holds === 'one-or-list') {
          for (let i = 0; i < v.length; i++) {
            const m: unknown = v[i];
            if (isObject(m)) {
              childLevels[childCount] = level + 2;
              children[childCount++] = newNode(m, node, k, String(i));
            } else fast = false;
          }
        }
      } else if (holds !== 'list' && isObject(v)) {
        childLevels[childCount] = level + 1;
        children[childCount++] = newNode(v, node, k, undefined);
      }
    }
    for (let i = childCount - 1; i >= 0; i--) {
      stack.push(children[i]!);
      levels.push(childLevels[i]!);
    }
  }
  return { nodes, truncated: false, obviouslyValid: fast };
}

/**
 * The root and every subschema that is an object, parents before children, found without
 * recursion (see walkSubschemas). With an owner (the ToolView the schema belongs to), the
 * walk is remembered while the same owner keeps asking, and the result is shared: never
 * change it.
 */
export function schemaNodes(root: Record<string, unknown>, dialect: Dialect, maxNodes = DEFAULT_MAX_NODES, owner?: object): SchemaNodes {
  if (owner === undefined) return walk(root, dialect, maxNodes);
  if (owner !== cacheOwner) {
    cacheOwner = owner;
    walkCache.length = 0;
  }
  for (const c of walkCache) if (c.root === root && c.dialect === dialect && c.maxNodes === maxNodes) return c.result;
  const result = walk(root, dialect, maxNodes);
  walkCache.push({ root, dialect, maxNodes, result });
  return result;
}

/**
 * Visits the root and every subschema that is an object, parents before children,
 * without recursion. Keywords that hold subschemas are those of every supported
 * dialect (a keyword a dialect does not know is rare and harmless to look into).
 * `owner`: see schemaNodes.
 */
export function walkSubschemas(root: unknown, dialect: Dialect, visit: (node: SchemaNode) => void, maxNodes = DEFAULT_MAX_NODES, owner?: object): WalkResult {
  if (!isObject(root)) return { visited: 0, truncated: false };
  const { nodes, truncated } = schemaNodes(root, dialect, maxNodes, owner);
  for (const node of nodes) visit(node);
  return { visited: nodes.length, truncated };
}

// ---------------------------------------------------------------------------
// Regular expressions

export type PatternVerdict =
  | { ok: true }
  /** Compiles only without the u flag; `fixed` is an equivalent pattern that compiles with it, when dropping needless escapes gives one. */
  | { ok: false; unicodeOnly: true; reason: string; fixed?: string }
  | { ok: false; unicodeOnly: false; reason: string };

function reasonOf(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  // V8: "Invalid regular expression: /(abc/u: Unterminated group"
  const i = message.lastIndexOf(': ');
  return i >= 0 ? message.slice(i + 2) : message;
}

function compiles(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
}

/**
 * Drops the backslash of identity escapes (`\_`, `\:`, `\-` outside a class): the same
 * pattern without the u flag, and one that the u flag accepts.
 */
export function dropIdentityEscapes(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\' && i + 1 < source.length) {
      const n = source[i + 1]!;
      const keep = /[A-Za-z0-9]/.test(n) || '^$\\.*+?()[]{}|/'.includes(n) || (n === '-' && inClass) || /[\ud800-\udfff]/.test(n);
      out += keep ? c + n : n;
      i++;
      continue;
    }
    if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    out += c;
  }
  return out;
}

const verdicts = new Map<string, PatternVerdict>();

/** Whether a JSON Schema pattern is an ECMAScript regular expression, with and without the u flag. */
export function checkPattern(source: string): PatternVerdict {
  const cached = verdicts.get(source);
  if (cached) return cached;
  let verdict: PatternVerdict;
  try {
    new RegExp(source, 'u');
    verdict = { ok: true };
  } catch (withU) {
    try {
      new RegExp(source);
      const fixed = dropIdentityEscapes(source);
      verdict = { ok: false, unicodeOnly: true, reason: reasonOf(withU), ...(fixed !== source && compiles(fixed, 'u') ? { fixed } : {}) };
    } catch (withoutU) {
      verdict = { ok: false, unicodeOnly: false, reason: reasonOf(withoutU) };
    }
  }
  if (verdicts.size > 5000) verdicts.clear();
  verdicts.set(source, verdict);
  return verdict;
}

// ---------------------------------------------------------------------------
// References

type Resolution =
  | { ok: true }
  /** Not a reference into this schema (another document): not checked. */
  | { external: true }
  | { ok: false; why: string; suggestion: string; replacement?: string };

interface RefContext {
  /** Field path of the resource root, for messages ("inputSchema"). */
  resourceField: string;
  anchors: ReadonlySet<string>;
  base: string | undefined;
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'string' ? 'a string' : typeof v === 'number' ? 'a number' : typeof v;
}

function resolve(ref: string, resource: Record<string, unknown>, ctx: RefContext): Resolution {
  let fragment: string;
  if (ref.startsWith('#')) fragment = ref.slice(1);
  else if (ctx.base !== undefined && ref.startsWith(`${ctx.base}#`)) fragment = ref.slice(ctx.base.length + 1);
  else if (ctx.base !== undefined && ref === ctx.base) fragment = '';
  else return { external: true };
  let decoded: string;
  try {
    decoded = decodeURIComponent(fragment);
  } catch {
    return { ok: false, why: 'its fragment has a malformed %-escape', suggestion: 'percent-encode the fragment correctly (e.g. %25 for "%")' };
  }
  if (decoded === '') return { ok: true };
  if (!decoded.startsWith('/')) {
    if (ctx.anchors.has(decoded)) return { ok: true };
    const guess = closest(decoded, ctx.anchors);
    return {
      ok: false,
      why: `no subschema declares the anchor ${JSON.stringify(decoded)}`,
      suggestion: guess ? `did you mean "#${guess}"?` : `add "$anchor": ${JSON.stringify(decoded)} to the subschema it should point to, or use a JSON pointer ("#/$defs/…")`,
    };
  }
  const segments = decoded.slice(1).split('/').map(unescapeSegment);
  let current: unknown = resource;
  let path = '';
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    let next: unknown;
    let found = false;
    if (Array.isArray(current)) {
      if (/^(0|[1-9][0-9]*)$/.test(seg) && Number(seg) < current.length) {
        next = current[Number(seg)];
        found = true;
      }
    } else if (isObject(current) && hasOwn(current, seg)) {
      next = current[seg];
      found = true;
    }
    if (!found) {
      const where = shortField(path === '' ? ctx.resourceField : joinField(ctx.resourceField, fieldPath(path)));
      const rest = segments.slice(i + 1);
      // definitions ↔ $defs: the commonest broken reference (a generator changed dialect).
      const swap = i === 0 && (seg === 'definitions' || seg === '$defs') ? (seg === 'definitions' ? '$defs' : 'definitions') : undefined;
      if (swap && isObject(resource) && hasOwn(resource, swap)) {
        const alt = `/${swap}/${rest.map(escapeSegment).join('/')}`;
        const altResolution = resolve(`#${encodeFragment(alt)}`, resource, ctx);
        if ('ok' in altResolution && altResolution.ok) {
          const replacement = ref.replace(seg === 'definitions' ? '/definitions/' : '/$defs/', `/${swap}/`);
          return {
            ok: false,
            why: `${where} has no ${JSON.stringify(seg)}; its definitions are under ${JSON.stringify(swap)}`,
            suggestion: `point it at ${JSON.stringify(replacement)}`,
            replacement,
          };
        }
      }
      if (!isObject(current) && !Array.isArray(current)) {
        return { ok: false, why: `${where} is ${kindOf(current)}, so it has no member ${JSON.stringify(seg)}`, suggestion: 'point it at an existing subschema' };
      }
      const guess = isObject(current) ? closest(seg, Object.keys(current)) : undefined;
      return {
        ok: false,
        why: `${where} has no member ${JSON.stringify(seg)}`,
        suggestion: guess
          ? `did you mean ${JSON.stringify(`#/${[...segments.slice(0, i), guess, ...rest].map(escapeSegment).join('/')}`)}?`
          : 'define the subschema it names, or point it at an existing one',
      };
    }
    current = next;
    path += '/' + escapeSegment(seg);
  }
  if (!isObject(current) && typeof current !== 'boolean') {
    return { ok: false, why: `it resolves to ${kindOf(current)}, not to a schema`, suggestion: 'point it at a subschema (an object or a boolean)' };
  }
  return { ok: true };
}

/** A field path short enough for a message: the middle of a very deep one is elided. */
export function shortField(path: string, max = 160): string {
  if (path.length <= max) return path;
  const half = Math.floor((max - 1) / 2);
  return `${head(path, half)}…${tail(path, half)}`;
}

function joinField(base: string, rest: string): string {
  return rest.startsWith('[') ? base + rest : `${base}.${rest}`;
}

function encodeFragment(pointer: string): string {
  return pointer.replace(/[%"<>\\^`{|} ]/g, (c) => encodeURIComponent(c));
}

// ---------------------------------------------------------------------------
// The checks

export interface SchemaIssue {
  /** Pointer relative to the schema's root. */
  pointer: string;
  severity: Severity;
  message: string;
  suggestion: string;
  /** JSON text to replace the value at `pointer` with, when the fix is mechanical. */
  replacement?: string;
  /**
   * The one dialect in which this is a problem at all ($dynamicRef is 2020-12's; in the
   * other dialects it is an unknown keyword validators ignore), for a caller that is not
   * sure which dialect applies.
   */
  onlyIn?: Dialect;
}

export interface SchemaCheckOptions {
  /** The schema's name in messages: "inputSchema". */
  name: string;
  /** What the schema describes, for messages: "arguments" or "results". */
  instances: string;
  /** Stop after this many issues (the count of the rest is returned). */
  maxIssues?: number;
  maxNodes?: number;
  /** The ToolView the schema belongs to, so that its walk is shared (see schemaNodes). */
  owner?: object;
}

export interface SchemaCheck {
  issues: SchemaIssue[];
  /** Issues found beyond maxIssues. */
  more: number;
  truncated: boolean;
}

const EMPTY_ENUM_NOTE = 'Ajv, which most JavaScript MCP clients and SDKs use, refuses to compile a schema with an empty enum ("enum must have non-empty array")';
const UNICODE_FLAG_NOTE = 'Ajv, which most JavaScript MCP clients and SDKs use, compiles patterns with the u flag and then fails to compile the whole schema';

/**
 * The property names a schema object describes in place (its own `properties` and those of
 * allOf/anyOf/oneOf/if/then/else/dependentSchemas branches and local $refs), whether
 * anything else could describe more (patternProperties, an additionalProperties or
 * unevaluatedProperties schema, a reference that cannot be followed), and whether any
 * subschema besides `start` was looked at.
 */
function describedNames(start: Record<string, unknown>, resource: Record<string, unknown>, dialect: Dialect): { names: Set<string>; open: boolean; combined: boolean } {
  const names = new Set<string>();
  const seen = new Set<object>();
  const queue: unknown[] = [start];
  let budget = 200;
  let combined = false;
  while (queue.length > 0) {
    const s = queue.pop();
    if (!isObject(s) || seen.has(s)) continue;
    seen.add(s);
    if (s !== start) combined = true;
    if (--budget < 0) return { names, open: true, combined };
    if (s !== start && resourceBase(s, dialect) !== undefined) return { names, open: true, combined };
    if (isObject(s.properties)) for (const k of Object.keys(s.properties)) names.add(k);
    if (isObject(s.patternProperties) && Object.keys(s.patternProperties).length > 0) return { names, open: true, combined };
    for (const k of ['additionalProperties', 'unevaluatedProperties']) {
      const v = s[k];
      if (isObject(v) && Object.keys(v).length > 0) return { names, open: true, combined };
    }
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k])) append(queue, s[k] as unknown[]);
    for (const k of ['if', 'then', 'else']) queue.push(s[k]);
    for (const k of ['dependentSchemas', 'dependencies']) if (isObject(s[k])) append(queue, Object.values(s[k] as object));
    if (typeof s.$recursiveRef === 'string' && dialect === '2019-09') return { names, open: true, combined };
    for (const k of dialect === '2020-12' ? ['$ref', '$dynamicRef'] : ['$ref']) {
      const ref = s[k];
      if (typeof ref !== 'string') continue;
      if (!ref.startsWith('#/')) return { names, open: true, combined };
      let target: unknown = resource;
      try {
        for (const seg of decodeURIComponent(ref.slice(2)).split('/').map(unescapeSegment)) {
          target = isObject(target) && hasOwn(target, seg) ? target[seg] : Array.isArray(target) ? target[Number(seg)] : undefined;
        }
      } catch {
        target = undefined;
      }
      if (!isObject(target)) return { names, open: true, combined };
      queue.push(target);
    }
  }
  return { names, open: false, combined };
}

/** Keywords whose subschemas apply to the same instance as their parent, and whose `required` is a requirement on it. */
const SAME_INSTANCE = new Set(['allOf', 'anyOf', 'oneOf', 'then', 'else', 'dependentSchemas', 'dependencies']);

/**
 * The subschema whose names a `required` list can be described by: the node itself, or,
 * for a branch (allOf, anyOf, oneOf, then, else, dependentSchemas), the schema it is a
 * branch of, and so on up. undefined when the list is not a plain requirement or its
 * context is unknown: under `not` or `if` (a condition, not a requirement), or in a
 * definition (it applies wherever it is referenced).
 */
function requiredContext(node: SchemaNode, memo: Map<SchemaNode, SchemaNode | null>): SchemaNode | undefined {
  // Memoised along the way up: a hostile chain of ten thousand nested allOfs is climbed once.
  const path: SchemaNode[] = [];
  let top = node;
  let found: SchemaNode | null | undefined;
  for (;;) {
    found = memo.get(top);
    if (found !== undefined) break;
    path.push(top);
    if (!(top.parent && SAME_INSTANCE.has(top.keyword))) {
      const unknown = top.parent && (top.keyword === 'not' || top.keyword === 'if' || top.keyword === '$defs' || top.keyword === 'definitions');
      found = unknown ? null : top;
      break;
    }
    top = top.parent;
  }
  for (const n of path) memo.set(n, found);
  return found ?? undefined;
}

/** Whether every string of a `required` list names one of the node's own properties. */
function ownPropertiesName(required: unknown[], properties: unknown): boolean {
  for (const n of required) if (typeof n === 'string' && !(isObject(properties) && hasOwn(properties, n))) return false;
  return true;
}

/**
 * What a meta-schema cannot see: local references that resolve to nothing, patterns that
 * are not ECMAScript regular expressions, `required` names no subschema describes, and
 * empty enums (valid since 2019-09, but Ajv does not compile them).
 */
export function checkSchema(root: unknown, dialect: Dialect, options: SchemaCheckOptions): SchemaCheck {
  const maxIssues = options.maxIssues ?? 50;
  const issues: SchemaIssue[] = [];
  let more = 0;
  const add = (issue: SchemaIssue) => {
    if (issues.length < maxIssues) issues.push(issue);
    else more++;
  };
  const field = (rel: string) => shortField(fieldPath(`/${escapeSegment(options.name)}${rel}`));

  const anchors = new Map<SchemaNode, Set<string>>();
  const refs: { node: SchemaNode; keyword: string; ref: string }[] = [];
  const requiredChecks: SchemaNode[] = [];
  const idKey = idKeyword(dialect);

  if (!isObject(root)) return { issues, more, truncated: false };
  const walk = schemaNodes(root, dialect, options.maxNodes, options.owner);
  for (const node of walk.nodes) {
    // The walk marked the nodes that have anything this check reads.
    if ((node.marks & MARK_CHECKED) === 0) continue;
    const s = node.schema;
    const anchor = s.$anchor;
    const dynamicAnchor = s.$dynamicAnchor;
    const id = s[idKey];
    const ref = s.$ref;
    const dynamicRef = s.$dynamicRef;
    const pattern = s.pattern;
    const patternProperties = s.patternProperties;
    const required = s.required;
    const properties = s.properties;
    // Anchors of the node's resource.
    if (typeof anchor === 'string' || typeof dynamicAnchor === 'string' || (typeof id === 'string' && id.includes('#'))) {
      let set = anchors.get(node.resource);
      if (!set) anchors.set(node.resource, (set = new Set()));
      if (typeof anchor === 'string') set.add(anchor);
      if (typeof dynamicAnchor === 'string') set.add(dynamicAnchor);
      if (typeof id === 'string' && id.includes('#')) {
        const fragment = id.slice(id.indexOf('#') + 1);
        if (fragment !== '' && !fragment.startsWith('/')) set.add(fragment);
      }
    }
    if (typeof ref === 'string') refs.push({ node, keyword: '$ref', ref });
    // $dynamicRef is 2020-12's (2019-09 has $recursiveRef); elsewhere it is an unknown keyword validators ignore.
    if (typeof dynamicRef === 'string' && dialect === '2020-12') refs.push({ node, keyword: '$dynamicRef', ref: dynamicRef });

    if (typeof pattern === 'string') {
      const v = checkPattern(pattern);
      if (!v.ok) {
        const rel = `${nodePointer(node)}/pattern`;
        add(patternIssue(rel, `${field(rel)} ${quote(pattern)}`, pattern, v, true));
      }
    }
    if (isObject(patternProperties)) {
      for (const key of Object.keys(patternProperties)) {
        const v = checkPattern(key);
        if (v.ok) continue;
        const rel = `${nodePointer(node)}/patternProperties/${escapeSegment(key)}`;
        add(patternIssue(rel, `${field(`${nodePointer(node)}/patternProperties`)} key ${quote(key)}`, key, v, false));
      }
    }
    // An empty enum: valid in 2019-09 and 2020-12 (the older meta-schemas reject it themselves).
    if (Array.isArray(s.enum) && s.enum.length === 0 && (dialect === '2020-12' || dialect === '2019-09')) {
      const rel = `${nodePointer(node)}/enum`;
      add({
        pointer: rel,
        severity: 'warning',
        message: `${field(rel)} is empty, so no value can match it; ${EMPTY_ENUM_NOTE}`,
        suggestion: 'list the values it allows, or remove "enum"',
      });
    }
    // Only a required name that is not among the node's own properties can need a look further.
    if (Array.isArray(required) && !ownPropertiesName(required, properties)) requiredChecks.push(node);
  }

  // What follows has work only for a schema with references or unknown required names.
  if (refs.length === 0 && requiredChecks.length === 0) return { issues, more, truncated: walk.truncated };

  const contextOf = (node: SchemaNode): RefContext => ({
    resourceField: field(nodePointer(node.resource)),
    anchors: anchors.get(node.resource) ?? new Set(),
    base: resourceBase(node.resource.schema, dialect),
  });

  for (const { node, keyword, ref } of refs) {
    const r = resolve(ref, node.resource.schema, contextOf(node));
    if ('external' in r || r.ok) continue;
    const rel = `${nodePointer(node)}/${escapeSegment(keyword)}`;
    add({
      pointer: rel,
      severity: 'error',
      message: `${field(rel)} is ${quote(ref)}, which points to nothing in this schema: ${r.why}; validators refuse to compile a schema with a dangling reference`,
      suggestion: r.suggestion,
      ...(r.replacement !== undefined ? { replacement: JSON.stringify(r.replacement) } : {}),
      ...(keyword === '$dynamicRef' ? { onlyIn: '2020-12' as const } : {}),
    });
  }

  const contexts = new Map<SchemaNode, SchemaNode | null>();
  const described = new Map<SchemaNode, ReturnType<typeof describedNames>>();
  for (const node of requiredChecks) {
    const s = node.schema;
    const top = requiredContext(node, contexts);
    if (!top) continue;
    let d = described.get(top);
    if (!d) described.set(top, (d = describedNames(top.schema, top.resource.schema, dialect)));
    const { names, open, combined } = d;
    if (open) continue;
    const required = s.required as unknown[];
    const reported = new Set<string>();
    const base = nodePointer(node);
    // Where the names were looked for, for the message.
    const alone = top === node && !combined;
    const where = (name: string) =>
      alone
        ? isObject(s.properties)
          ? `${field(`${base}/properties`)} has no ${JSON.stringify(name)}`
          : `${field(base)} has no "properties"`
        : `no "properties" of ${field(nodePointer(top))} or of the subschemas combined with it (allOf, anyOf, oneOf, $ref, …) has ${JSON.stringify(name)}`;
    // The "did you mean" candidates (the described names not required themselves) are built
    // once per required list, and only for a problem that will be reported: a list of
    // thousands of unknown names past the report cap costs one pass.
    let candidates: string[] | undefined;
    required.forEach((name, i) => {
      if (typeof name !== 'string' || names.has(name) || reported.has(name)) return;
      reported.add(name);
      if (issues.length >= maxIssues) {
        more++;
        return;
      }
      if (!candidates) {
        const listed = new Set(required);
        candidates = [...names].filter((n) => !listed.has(n));
      }
      const guess = closest(name, candidates);
      const closed = s.additionalProperties === false;
      add({
        pointer: `${base}/required/${i}`,
        severity: 'warning',
        message:
          `${field(`${base}/required`)} names ${JSON.stringify(name)}, but ${where(name)}` +
          (guess ? ` (it has ${JSON.stringify(guess)})` : '') +
          (closed
            ? `; with additionalProperties false, no ${options.instances} can satisfy this schema`
            : `; a client or model reading the schema never learns what ${JSON.stringify(name)} is`),
        suggestion: guess ? `did you mean ${JSON.stringify(guess)}? Otherwise add ${JSON.stringify(name)} to properties` : `add ${JSON.stringify(name)} to properties, or drop it from required`,
      });
    });
  }

  return { issues, more, truncated: walk.truncated };
}

function patternIssue(pointer: string, what: string, source: string, v: Exclude<PatternVerdict, { ok: true }>, isValue: boolean): SchemaIssue {
  const pythonAnchor = /\\[AZz]/.test(source) ? ' (\\A and \\Z are Python anchors; ECMAScript uses ^ and $)' : '';
  if (!v.unicodeOnly) {
    return {
      pointer,
      severity: 'error',
      message: `${what} is not a valid ECMAScript regular expression: ${v.reason}${pythonAnchor}`,
      suggestion: 'fix the regular expression; JSON Schema patterns use ECMAScript (JavaScript) syntax',
    };
  }
  return {
    pointer,
    severity: 'warning',
    message: `${what} is a valid regular expression only without the u (Unicode) flag (with it: ${v.reason})${pythonAnchor}; ${UNICODE_FLAG_NOTE}`,
    suggestion: v.fixed !== undefined ? `write it as ${quote(v.fixed, 120)}: the same pattern without needless backslashes` : 'rewrite it so that it also compiles with the u flag (no backslash before characters that need no escaping)',
    ...(isValue && v.fixed !== undefined ? { replacement: JSON.stringify(v.fixed) } : {}),
  };
}
