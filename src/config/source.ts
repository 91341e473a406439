/**
 * Config text → value, keeping positions: JSON (comments and trailing commas allowed,
 * as in tsconfig.json) through jsonc-parser, YAML through the yaml package (loaded only
 * when a YAML config is read). Every problem carries file:line:col.
 */
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { UsageError } from '../cli/io.js';
import { jsonErrorMessage, lineColumn, TOO_DEEP, tooDeepAt } from '../sources/parse.js';
import { createLocator } from '../sources/locate.js';
import { split } from '../util/pointer.js';
import type { Located } from '../types.js';
import { requirePackage } from '../util/require.js';
import { quote, thousands } from '../util/text.js';

export type ConfigFormat = 'json' | 'yaml';

/** One problem in a config file: where and what. */
export interface ConfigProblem {
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

/** A config (or baseline) that cannot be used; each problem is one line; the CLI exits 2. */
export class ConfigError extends UsageError {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

export function formatProblem(p: ConfigProblem): string {
  const where = p.file ? (p.line !== undefined ? `${p.file}:${p.line}:${p.column ?? 1}: ` : `${p.file}: `) : '';
  return `${where}${p.message}`;
}

export interface ParsedConfig {
  value: unknown;
  /** Line and column of the value at a pointer (or of its key, when `key`), falling back to the nearest ancestor. */
  position(pointer: string, key?: boolean): { line: number; column: number } | undefined;
  /**
   * position() for many pointers at once, in their order. A JSON file is scanned once for all of
   * them (position() scans it for each: thousands of baseline entries took half a minute).
   */
  positions(requests: readonly { pointer: string; key?: boolean }[]): ({ line: number; column: number } | undefined)[];
}


/** Parse a JSON config (or the package.json around an "mcp-annotate" key: `base` is its pointer). */
export function parseJsonConfig(text: string, file: string, base = ''): ParsedConfig {
  // Positions are counted without a BOM, as in a dump (an editor does not show it).
  text = text.replace(/^\uFEFF/, '');
  const deep = tooDeepAt(text);
  if (deep !== undefined) throw new ConfigError([{ file, ...lineColumn(text, deep), message: TOO_DEEP }]);
  try {
    return parseJsonConfigTree(text, file, base);
  } catch (err) {
    // jsonc-parser reads (and nodeValue walks) by recursion: thousands of levels overflow the stack.
    if (err instanceof RangeError) throw new ConfigError([{ file, message: 'the JSON is nested too deeply to process' }]);
    throw err;
  }
}

function parseJsonConfigTree(text: string, file: string, base: string): ParsedConfig {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length) {
    const first = errors[0]!;
    const { line, column } = lineColumn(text, first.offset);
    const code = printParseErrorCode(first.error);
    throw new ConfigError([{ file, line, column, message: `invalid JSON: ${jsonErrorMessage(code, text, first.offset)}` }]);
  }
  // An empty file is an empty config (as an empty YAML file is).
  const top = root && base ? findNodeAtLocation(root, split(base)) : root;
  // A member given twice is an error, as YAML makes it: JSON parsers disagree on which one counts.
  const twice: ConfigProblem[] = [];
  const onTwice = (key: string, first: JsonNode, again: JsonNode) =>
    twice.push({ file, ...lineColumn(text, again.offset), message: `${JSON.stringify(key)} is given twice in one object (first at line ${lineColumn(text, first.offset).line}); keep one` });
  // The config inside a file (package.json's "mcp-annotate" key) given twice: the config too.
  if (root && base) duplicatesOnPath(root, split(base), onTwice);
  const value = top ? nodeValue(top, onTwice) : base ? undefined : {};
  if (twice.length) throw new ConfigError(twice);
  const locator = root ? createLocator(text) : undefined;
  // The key of a member that exists; else where the value (or the nearest ancestor) starts.
  const place = (at: Located | undefined, pointer: string, key: boolean) =>
    !at ? undefined : key && at.pointer === base + pointer ? { line: at.line, column: at.column } : { line: at.valueLine, column: at.valueColumn };
  return {
    value,
    position: (pointer, key = false) => place(locator?.locateOne(base + pointer), pointer, key),
    positions: (requests) => {
      const found = locator?.locateAll(requests.map((r) => base + r.pointer));
      return requests.map((r, i) => place(found?.[i], r.pointer, r.key ?? false));
    },
  };
}

/** Members named along `segments` from `root` that their object gives more than once (other members are not the config's). */
function duplicatesOnPath(root: JsonNode, segments: readonly string[], twice: (key: string, first: JsonNode, again: JsonNode) => void): void {
  let node: JsonNode | undefined = root;
  for (const segment of segments) {
    if (node?.type !== 'object') return;
    const named: JsonNode[] = (node.children ?? []).filter((p) => p.children?.[0] !== undefined && String(p.children[0].value) === segment);
    for (const again of named.slice(1)) twice(segment, named[0]!.children![0]!, again.children![0]!);
    node = named[0]?.children?.[1];
  }
}

/** A node's value; `twice` hears of every member name an object repeats (with both keys' nodes). */
function nodeValue(node: JsonNode, twice: (key: string, first: JsonNode, again: JsonNode) => void): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const keys = new Map<string, JsonNode>();
      for (const prop of node.children ?? []) {
        const [k, v] = prop.children ?? [];
        if (!k || !v) continue;
        const key = String(k.value);
        const first = keys.get(key);
        if (first) twice(key, first, k);
        else keys.set(key, k);
        Object.defineProperty(out, key, { value: nodeValue(v, twice), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map((child) => nodeValue(child, twice));
    default:
      return node.value;
  }
}

/** Parse a YAML config. Duplicate keys are errors, as they are almost always mistakes. */
export async function parseYamlConfig(text: string, file: string): Promise<ParsedConfig> {
  // Positions are counted without a BOM, as in a dump (an editor does not show it).
  text = text.replace(/^\uFEFF/, '');
  const YAML = requirePackage('yaml') as typeof import('yaml');
  const lineCounter = new YAML.LineCounter();
  // YAML 1.2's core schema, also under a `%YAML 1.1` directive (which read 2025-11-25 as a Date
  // and `n` as false), and without the YAML 1.1 tags the yaml package resolves anyway (!!binary,
  // !!timestamp, !!set, !!omap, !!pairs became a Buffer, a Date, a Set or a Map: a hundred
  // lines naming Buffer methods, or a setting dropped without a word). A tag it cannot resolve is
  // refused below. logLevel: its warnings (a collection as a key) are ours to say, not Node's.
  const doc = YAML.parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true, schema: 'core', resolveKnownTags: false, logLevel: 'error' });
  if (doc.errors.length) {
    const first = doc.errors[0]!;
    const pos = lineCounter.linePos(first.pos[0]);
    const message = first.message.replace(/ at line \d+, column \d+.*$/s, '');
    // The yaml package's advice names its own API ("please use YAML.parseAllDocuments()").
    if (first.code === 'MULTIPLE_DOCS') throw new ConfigError([{ file, line: pos.line, column: pos.col, message: 'invalid YAML: a config file holds one YAML document; remove the "---" that starts another' }]);
    // The yaml package reads flow collections by recursion, and reports the overflow as an error.
    if (/Maximum call stack size exceeded/.test(message)) throw new ConfigError([{ file, message: 'the YAML is nested too deeply to process' }]);
    throw new ConfigError([{ file, line: pos.line, column: pos.col, message: `invalid YAML: ${message}` }]);
  }
  const at = (offset: number) => {
    const pos = lineCounter.linePos(offset);
    return { file, line: pos.line, column: pos.col };
  };
  const unplain = plainProblems(YAML, doc, text).map((p) => ({ ...at(p.offset), message: p.message }));
  if (unplain.length) throw new ConfigError(unplain);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    const message = (err as Error).message;
    const alias = /^Unresolved alias\b.*: (.*)$/s.exec(message);
    const node = alias ? unresolvedAlias(YAML, doc, alias[1]!) : undefined;
    if (alias) throw new ConfigError([{ ...(node?.range ? at(node.range[0]) : { file }), message: `invalid YAML: the alias *${alias[1]} names no anchor before it; define &${alias[1]} first, or write the value out` }]);
    if (/^Excessive alias count/.test(message)) {
      const excessive = excessiveAlias(YAML, doc, MAX_ALIAS_COUNT);
      throw new ConfigError([
        {
          ...(excessive?.range ? at(excessive.range[0]) : { file }),
          message: `invalid YAML: aliases expand this file past ${thousands(MAX_ALIAS_COUNT)} copies${excessive ? `, from the alias *${excessive.source} here on` : ''} (a guard against a file that would fill the memory); write the values out, or alias them fewer times`,
        },
      ]);
    }
    throw new ConfigError([{ file, message: `invalid YAML: ${message}` }]);
  }
  const locate = (pointer: string, key: boolean) => {
    let segments = split(pointer);
    for (;;) {
      const found = yamlNode(YAML, doc.contents, segments);
      const range = (key && found?.key?.range) || found?.value?.range;
      if (range) {
        const pos = lineCounter.linePos(range[0]);
        return { line: pos.line, column: pos.col };
      }
      if (segments.length === 0) return undefined;
      segments = segments.slice(0, -1);
      key = false;
    }
  };
  // No content (an empty file, only comments, a bare "---") is an empty config, as an empty JSON
  // file is; a document that says null (`~`, `null`, `!!null`) is refused, as JSON's null is.
  const c = doc.contents;
  const empty = c === null || (YAML.isScalar(c) && c.value === null && c.source === '' && !c.tag);
  return { value: empty ? {} : value, position: (pointer, key = false) => locate(pointer, key), positions: (requests) => requests.map((r) => locate(r.pointer, r.key ?? false)) };
}

/**
 * What a config value cannot be made of, in document order (offsets into the text): a tag the
 * core schema does not resolve (YAML 1.1's !!binary, !!timestamp, !!set, !!omap, !!pairs, or an
 * application's !foo), and a collection as a key (JavaScript makes "[ a, b ]" of it).
 */
function plainProblems(YAML: typeof import('yaml'), doc: import('yaml').Document, text: string): { offset: number; message: string }[] {
  const out: { offset: number; message: string }[] = [];
  for (const w of doc.warnings) {
    if (w.code !== 'TAG_RESOLVE_FAILED') continue;
    // A tag is URI characters (no spaces, no control characters): shown as written.
    const tag = text.slice(w.pos[0], Math.min(w.pos[1], w.pos[0] + 60));
    out.push({
      offset: w.pos[0],
      message: `the YAML tag ${tag} is not allowed: a config holds maps, sequences, strings, numbers, booleans and null (YAML 1.2's core schema), not what ${tag} makes; remove the tag`,
    });
  }
  YAML.visit(doc, {
    Pair(_, pair) {
      let key: unknown = pair.key;
      if (YAML.isAlias(key)) key = key.resolve(doc) ?? key;
      if (!YAML.isCollection(key)) return;
      const range = (pair.key as RangedNode).range;
      const written = range ? text.slice(range[0], range[1]) : String(pair.key);
      out.push({ offset: range?.[0] ?? 0, message: `a collection is not a valid key (${quote(written.replace(/\s+/g, ' '), 40)}): a config's keys are strings, and JavaScript would turn this one into text; use a string key` });
    },
  });
  return out.sort((a, b) => a.offset - b.offset);
}

/** The first alias named `name` with no anchor of that name before it. */
function unresolvedAlias(YAML: typeof import('yaml'), doc: import('yaml').Document, name: string): RangedNode | undefined {
  const anchors = new Set<string>();
  let found: RangedNode | undefined;
  YAML.visit(doc, {
    Node(_, node) {
      if (YAML.isAlias(node)) {
        if (node.source === name && !anchors.has(name)) {
          found = node as RangedNode;
          return YAML.visit.BREAK;
        }
      } else if (node.anchor) anchors.add(node.anchor);
      return undefined;
    },
  });
  return found;
}

interface RangedNode {
  range?: [number, number, number] | null;
}

/** The yaml package's guard against aliases that expand a small file into a huge value ("billion laughs"). */
const MAX_ALIAS_COUNT = 1000;

/**
 * The alias at which the yaml package's toJS gives up with "Excessive alias count", found by
 * counting as it does, in document order: each anchored node is counted once where it stands
 * and once for each alias to it so far, times the aliases nested in it (the deepest chain of
 * its items). Undefined if the count never passes the limit (the error is then said without a
 * place).
 */
function excessiveAlias(YAML: typeof import('yaml'), doc: import('yaml').Document, max: number): (RangedNode & { source: string }) | undefined {
  const data = new Map<unknown, { count: number; aliasCount: number }>();
  const nested = (node: unknown): number => {
    if (YAML.isAlias(node)) {
      const d = data.get(node.resolve(doc));
      return d ? d.count * d.aliasCount : 0;
    }
    if (YAML.isCollection(node)) {
      let most = 0;
      for (const item of node.items) most = Math.max(most, nested(item));
      return most;
    }
    if (YAML.isPair(node)) return Math.max(nested(node.key), nested(node.value));
    return 1;
  };
  let found: (RangedNode & { source: string }) | undefined;
  YAML.visit(doc, {
    Node(_, node) {
      if (YAML.isAlias(node)) {
        const source = node.resolve(doc);
        const d = source && data.get(source);
        if (!d) return undefined;
        d.count++;
        if (d.aliasCount === 0) d.aliasCount = nested(source);
        if (d.count * d.aliasCount > max) {
          found = node as RangedNode & { source: string };
          return YAML.visit.BREAK;
        }
      } else if (node.anchor) data.set(node, { count: 1, aliasCount: 0 });
      return undefined;
    },
  });
  return found;
}

function yamlNode(YAML: typeof import('yaml'), root: unknown, segments: string[]): { key?: RangedNode; value?: RangedNode } | undefined {
  let node: unknown = root;
  let key: RangedNode | undefined;
  for (const s of segments) {
    if (YAML.isAlias(node)) return undefined;
    if (YAML.isMap(node)) {
      const pair = node.items.find((p) => (YAML.isScalar(p.key) ? String(p.key.value) : String(p.key)) === s);
      if (!pair) return undefined;
      key = YAML.isNode(pair.key) ? (pair.key as RangedNode) : undefined;
      node = pair.value;
    } else if (YAML.isSeq(node)) {
      node = node.items[Number(s)];
      key = undefined;
      if (node === undefined) return undefined;
    } else return undefined;
  }
  return { key, value: YAML.isNode(node) ? (node as RangedNode) : undefined };
}
