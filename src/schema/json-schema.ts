/**
 * JSON Schema as data: which dialect a schema declares, its precompiled meta-schema
 * validator, and checks a meta-schema cannot make — local $refs that resolve to
 * nothing, `pattern`s that are not ECMAScript regular expressions (or only without the
 * `u` flag), and `required` names that no subschema describes.
 *
 * Everything here is iterative or bounded: tool schemas come from servers, and a
 * hostile one can be nested ten thousand levels deep.
 */
import { validate as meta201909 } from '#generated/meta-2019-09.js';
import { validate as meta202012, type GeneratedValidator } from '#generated/meta-2020-12.js';
import { validate as metaDraft04 } from '#generated/meta-draft-04.js';
import { validate as metaDraft06 } from '#generated/meta-draft-06.js';
import { validate as metaDraft07 } from '#generated/meta-draft-07.js';
import type { ErrorObject } from 'ajv';
import type { Severity } from '../types.js';
import { hasOwn, isObject } from '../util/json.js';
import { escapeSegment, fieldPath, unescapeSegment } from '../util/pointer.js';
import { closest, quote } from '../util/text.js';

export type Dialect = '2020-12' | '2019-09' | 'draft-07' | 'draft-06' | 'draft-04';

export const DIALECTS: Record<Dialect, { uri: string; validate: GeneratedValidator }> = {
  '2020-12': { uri: 'https://json-schema.org/draft/2020-12/schema', validate: meta202012 },
  '2019-09': { uri: 'https://json-schema.org/draft/2019-09/schema', validate: meta201909 },
  'draft-07': { uri: 'http://json-schema.org/draft-07/schema#', validate: metaDraft07 },
  'draft-06': { uri: 'http://json-schema.org/draft-06/schema#', validate: metaDraft06 },
  'draft-04': { uri: 'http://json-schema.org/draft-04/schema#', validate: metaDraft04 },
};

/** MCP's dialect for a tool schema without $schema (spec 2025-11-25 and later). */
export const DEFAULT_DIALECT: Dialect = '2020-12';

/** A $schema URI in a comparable form: https, no trailing "#", lower case. */
export function normaliseDialectUri(uri: string): string {
  return uri.replace(/^http:\/\//i, 'https://').replace(/#$/, '').toLowerCase();
}

const BY_URI = new Map(Object.entries(DIALECTS).map(([d, v]) => [normaliseDialectUri(v.uri), d as Dialect]));

export type DialectChoice = { dialect: Dialect; declared: boolean } | { unknown: string };

/** The dialect a schema declares with $schema; the default when it declares none (or a non-string, which the meta-schema reports). */
export function dialectOf(schema: Record<string, unknown>): DialectChoice {
  const uri = schema.$schema;
  if (typeof uri !== 'string') return { dialect: DEFAULT_DIALECT, declared: false };
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

/** Validates against the dialect's meta-schema; undefined when the schema is too deep to check safely. */
export function metaErrors(schema: unknown, dialect: Dialect): ErrorObject[] | undefined {
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
}

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

/**
 * Visits the root and every subschema that is an object, parents before children,
 * without recursion. Keywords that hold subschemas are those of every supported
 * dialect (a keyword a dialect does not know is rare and harmless to look into).
 */
export function walkSubschemas(root: unknown, dialect: Dialect, visit: (node: SchemaNode) => void, maxNodes = 100_000): WalkResult {
  if (!isObject(root)) return { visited: 0, truncated: false };
  const rootNode = { schema: root, parent: undefined, keyword: '', depth: 0 } as unknown as SchemaNode;
  rootNode.resource = rootNode;
  const stack: SchemaNode[] = [rootNode];
  let visited = 0;
  while (stack.length > 0) {
    if (visited >= maxNodes) return { visited, truncated: true };
    const node = stack.pop()!;
    visited++;
    visit(node);
    const s = node.schema;
    const children: SchemaNode[] = [];
    const add = (value: unknown, keyword: string, member?: string) => {
      if (!isObject(value)) return;
      const child: SchemaNode = { schema: value, parent: node, keyword, member, depth: node.depth + 1, resource: node.resource };
      if (resourceBase(value, dialect) !== undefined) child.resource = child;
      children.push(child);
    };
    for (const k of MAP_KEYWORDS) {
      const m = s[k];
      if (isObject(m)) for (const name of Object.keys(m)) add(m[name], k, name);
    }
    for (const k of LIST_KEYWORDS) {
      const l = s[k];
      if (Array.isArray(l)) for (let i = 0; i < l.length; i++) add(l[i], k, String(i));
    }
    for (const k of ONE_OR_LIST_KEYWORDS) {
      const v = s[k];
      if (Array.isArray(v)) for (let i = 0; i < v.length; i++) add(v[i], k, String(i));
      else add(v, k);
    }
    for (const k of ONE_KEYWORDS) add(s[k], k);
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return { visited, truncated: false };
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
  return `${path.slice(0, half)}…${path.slice(path.length - half)}`;
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
}

export interface SchemaCheckOptions {
  /** The schema's name in messages: "inputSchema". */
  name: string;
  /** What the schema describes, for messages: "arguments" or "results". */
  instances: string;
  /** Stop after this many issues (the count of the rest is returned). */
  maxIssues?: number;
  maxNodes?: number;
}

export interface SchemaCheck {
  issues: SchemaIssue[];
  /** Issues found beyond maxIssues. */
  more: number;
  truncated: boolean;
}

const UNICODE_FLAG_NOTE = 'Ajv, which most JavaScript MCP clients and SDKs use, compiles patterns with the u flag and then fails to compile the whole schema';

/**
 * The property names a schema object describes in place (its own `properties` and those of
 * allOf/anyOf/oneOf/if/then/else/dependentSchemas branches and local $refs), and whether
 * anything else could describe more (patternProperties, an additionalProperties or
 * unevaluatedProperties schema, a reference that cannot be followed).
 */
function describedNames(start: Record<string, unknown>, resource: Record<string, unknown>, dialect: Dialect): { names: Set<string>; open: boolean } {
  const names = new Set<string>();
  const seen = new Set<object>();
  const queue: unknown[] = [start];
  let budget = 200;
  while (queue.length > 0) {
    const s = queue.pop();
    if (!isObject(s) || seen.has(s)) continue;
    seen.add(s);
    if (--budget < 0) return { names, open: true };
    if (s !== start && resourceBase(s, dialect) !== undefined) return { names, open: true };
    if (isObject(s.properties)) for (const k of Object.keys(s.properties)) names.add(k);
    if (isObject(s.patternProperties) && Object.keys(s.patternProperties).length > 0) return { names, open: true };
    for (const k of ['additionalProperties', 'unevaluatedProperties']) {
      const v = s[k];
      if (isObject(v) && Object.keys(v).length > 0) return { names, open: true };
    }
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(s[k])) queue.push(...(s[k] as unknown[]));
    for (const k of ['if', 'then', 'else']) queue.push(s[k]);
    for (const k of ['dependentSchemas', 'dependencies']) if (isObject(s[k])) queue.push(...Object.values(s[k] as object));
    if (typeof s.$recursiveRef === 'string') return { names, open: true };
    for (const k of ['$ref', '$dynamicRef']) {
      const ref = s[k];
      if (typeof ref !== 'string') continue;
      if (!ref.startsWith('#/')) return { names, open: true };
      let target: unknown = resource;
      try {
        for (const seg of decodeURIComponent(ref.slice(2)).split('/').map(unescapeSegment)) {
          target = isObject(target) && hasOwn(target, seg) ? target[seg] : Array.isArray(target) ? target[Number(seg)] : undefined;
        }
      } catch {
        target = undefined;
      }
      if (!isObject(target)) return { names, open: true };
      queue.push(target);
    }
  }
  return { names, open: false };
}

/**
 * What a meta-schema cannot see: local references that resolve to nothing, patterns that
 * are not ECMAScript regular expressions, `required` names no subschema describes.
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

  const walk = walkSubschemas(
    root,
    dialect,
    (node) => {
      const s = node.schema;
      // Anchors of the node's resource.
      let set = anchors.get(node.resource);
      if (!set) anchors.set(node.resource, (set = new Set()));
      for (const k of ['$anchor', '$dynamicAnchor']) if (typeof s[k] === 'string') set.add(s[k] as string);
      const id = s[idKeyword(dialect)];
      if (typeof id === 'string' && id.includes('#')) {
        const fragment = id.slice(id.indexOf('#') + 1);
        if (fragment !== '' && !fragment.startsWith('/')) set.add(fragment);
      }
      for (const k of ['$ref', '$dynamicRef']) if (typeof s[k] === 'string') refs.push({ node, keyword: k, ref: s[k] as string });

      if (typeof s.pattern === 'string') {
        const v = checkPattern(s.pattern);
        if (!v.ok) {
          const rel = `${nodePointer(node)}/pattern`;
          add(patternIssue(rel, `${field(rel)} ${quote(s.pattern)}`, s.pattern, v, true));
        }
      }
      if (isObject(s.patternProperties)) {
        for (const key of Object.keys(s.patternProperties)) {
          const v = checkPattern(key);
          if (v.ok) continue;
          const rel = `${nodePointer(node)}/patternProperties/${escapeSegment(key)}`;
          add(patternIssue(rel, `${field(`${nodePointer(node)}/patternProperties`)} key ${quote(key)}`, key, v, false));
        }
      }
      if (Array.isArray(s.required) && isObject(s.properties)) requiredChecks.push(node);
    },
    options.maxNodes,
  );

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
    });
  }

  for (const node of requiredChecks) {
    const s = node.schema;
    const { names, open } = describedNames(s, node.resource.schema, dialect);
    if (open) continue;
    const required = s.required as unknown[];
    const reported = new Set<string>();
    const base = nodePointer(node);
    required.forEach((name, i) => {
      if (typeof name !== 'string' || names.has(name) || reported.has(name)) return;
      reported.add(name);
      const guess = closest(name, [...names].filter((n) => !required.includes(n)));
      const closed = s.additionalProperties === false;
      add({
        pointer: `${base}/required/${i}`,
        severity: 'warning',
        message:
          `${field(`${base}/required`)} names ${JSON.stringify(name)}, but ${field(`${base}/properties`)} has no ${JSON.stringify(name)}` +
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
