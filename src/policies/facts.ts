/**
 * Policy facts: what a condition's `fact` names, and what it holds for one tool.
 *
 * - `tool.<path>`: a path into the tool as the server declared it
 *   (`tool.annotations.inputMetadata.destination`, `tool._meta["mcp.dev/effect"]`).
 *   An array is a possible set: each member is one possible value. The four core hints
 *   take MCP's documented defaults when absent (readOnlyHint false, destructiveHint true
 *   and idempotentHint false unless the tool is read-only, openWorldHint true).
 * - `claims.<fact>`: a normalised claim (see FactTypes in src/engine/claims.ts), the
 *   union of what every vocabulary the tool uses says about it.
 * - `server.name`: the server's name.
 * - `response.annotations.<path>`: what a call's result may carry. In tools/list a tool
 *   declares the annotations its responses may carry (SEP-1913, possible-set → resolved
 *   value), so the declared `tool.annotations.<path>` bounds it; a boolean `true` means
 *   "may be set" (so true or false). Undeclared, maliciousActivityHint is never set (the
 *   SEP: "false or omission means it will never be set") and openWorldHint may be (MCP's
 *   default is true); any other undeclared field is unknown.
 * - `request.<path>` (and any other `response.<path>`): only a call carries them;
 *   statically they are always unknown.
 */
import type { Claim, ClaimSet, Fact } from '../engine/claims.js';
import { unmappedValues } from '../engine/claims.js';
import { members, dataClassOf } from '../engine/possible-sets.js';
import type { ToolView } from '../packs/types.js';
import { escapeSegment, fieldPath, relative, split } from '../util/pointer.js';
import { hasOwn, isObject } from '../util/json.js';
import { closest } from '../util/text.js';

/** Every claim fact, and whether it holds a possible set. Record<Fact, …> keeps it complete. */
export const CLAIM_FACTS: Record<Fact, 'set' | 'value'> = {
  readOnly: 'value',
  destructive: 'value',
  idempotent: 'value',
  openWorld: 'value',
  outcomes: 'set',
  destinations: 'set',
  sources: 'set',
  inputSensitivity: 'set',
  outputSensitivity: 'set',
  maliciousActivity: 'value',
  attribution: 'set',
  requiresConfirmation: 'value',
  action: 'value',
  reversibility: 'value',
  riskLevel: 'value',
  blastRadius: 'value',
  sideEffects: 'set',
  approval: 'value',
  minTrustLevel: 'value',
  resultSensitivity: 'value',
  sensitiveOutput: 'value',
  sensitiveFields: 'set',
  secretReference: 'value',
  untrusted: 'value',
};

export const FACT_ROOTS = ['tool', 'claims', 'server', 'request', 'response'] as const;

export type FactRef =
  | { kind: 'tool'; path: string[]; text: string }
  | { kind: 'claims'; fact: Fact; text: string }
  | { kind: 'server-name'; text: string }
  | { kind: 'response'; path: string[]; text: string }
  | { kind: 'runtime'; text: string };

export class FactSyntaxError extends Error {}

/**
 * Split a fact path: dot-separated names, or bracketed JSON strings and indexes for keys
 * that are not plain names: `tool._meta["io.modelcontextprotocol/action-metadata"].outcome`.
 */
export function splitPath(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  const fail = (why: string): never => {
    throw new FactSyntaxError(`${why} at character ${i + 1} of ${JSON.stringify(text)}`);
  };
  while (i < text.length) {
    if (text[i] === '[') {
      const close = text[i + 1] === '"' ? findStringEnd(text, i + 1) : text.indexOf(']', i);
      if (close === -1) fail('an unclosed "["');
      const inner = text[i + 1] === '"' ? text.slice(i + 1, close + 1) : text.slice(i + 1, close);
      if (text[i + 1] === '"') {
        try {
          out.push(JSON.parse(inner) as string);
        } catch {
          fail('an invalid quoted key');
        }
        i = close + 1;
        if (text[i] !== ']') fail('expected "]" after a quoted key');
        i++;
      } else {
        if (!/^(0|[1-9][0-9]*)$/.test(inner)) fail('expected an index or a quoted key in "[…]"');
        out.push(inner);
        i = close + 1;
      }
    } else {
      const m = /^[A-Za-z0-9_$-]+/.exec(text.slice(i));
      if (!m) fail(text[i] === '.' ? 'an empty name' : `an unexpected ${JSON.stringify(text[i])}`);
      out.push(m![0]);
      i += m![0].length;
    }
    if (i < text.length) {
      if (text[i] === '.') {
        i++;
        if (i >= text.length) fail('a trailing "."');
      } else if (text[i] !== '[') fail(`an unexpected ${JSON.stringify(text[i])}`);
    }
  }
  return out;
}

function findStringEnd(text: string, open: number): number {
  for (let j = open + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return j;
  }
  return -1;
}

/**
 * A fact path with its keys that are not plain names put in `["…"]`, as a person most likely
 * meant them: `tool._meta.mcp.dev/effect` → `tool._meta["mcp.dev/effect"]` (under `_meta` the
 * key runs from `_meta.` to the first "." after the unexpected character; elsewhere it is the
 * name the character is in). undefined when no such repair gives a path that parses.
 */
export function bracketedPath(text: string): string | undefined {
  let fixed = text;
  for (let round = 0; round < 8; round++) {
    try {
      splitPath(fixed);
      return fixed === text ? undefined : fixed;
    } catch {
      // find the next name with a character a plain name cannot have, outside any "[…]"
    }
    let bad = -1;
    for (let i = 0, depth = 0; i < fixed.length; i++) {
      const c = fixed[i]!;
      if (c === '[') depth++;
      else if (c === ']') depth = Math.max(0, depth - 1);
      else if (depth === 0 && c === '"') return undefined;
      else if (depth === 0 && !/[A-Za-z0-9_$.-]/.test(c)) {
        bad = i;
        break;
      }
    }
    if (bad === -1) return undefined;
    const meta = fixed.lastIndexOf('._meta.', bad);
    const start = meta !== -1 && meta > fixed.lastIndexOf(']', bad) ? meta + '._meta.'.length : fixed.lastIndexOf('.', bad) + 1;
    if (start <= 0 || start <= fixed.lastIndexOf(']', bad)) return undefined;
    const after = fixed.slice(bad).search(/[.[]/);
    const end = after === -1 ? fixed.length : bad + after;
    fixed = `${fixed.slice(0, start - 1)}[${JSON.stringify(fixed.slice(start, end))}]${fixed.slice(end)}`;
  }
  return undefined;
}

/** Parse a fact; throws FactSyntaxError with a message that suggests the closest valid fact. */
export function parseFact(text: string): FactRef {
  let path: string[];
  try {
    path = splitPath(text);
  } catch (err) {
    const fixed = err instanceof FactSyntaxError ? bracketedPath(text) : undefined;
    if (fixed === undefined) throw err;
    throw new FactSyntaxError(`${(err as Error).message}; did you mean ${fixed}? (a key that is not a plain name goes in ["…"])`);
  }
  const root = path[0] ?? '';
  const rest = path.slice(1);
  switch (root) {
    case 'tool':
      if (rest.length === 0) throw new FactSyntaxError(`"tool" needs a path into the tool, e.g. "tool.annotations.readOnlyHint"`);
      return { kind: 'tool', path: rest, text };
    case 'claims': {
      const name = rest[0];
      if (rest.length !== 1 || name === undefined || !hasOwn(CLAIM_FACTS, name)) {
        const guess = name !== undefined ? closest(name, Object.keys(CLAIM_FACTS)) : undefined;
        throw new FactSyntaxError(
          `${JSON.stringify(text)} is not a claim fact${guess ? `; did you mean "claims.${guess}"?` : ''} (claim facts: ${Object.keys(CLAIM_FACTS).join(', ')})`,
        );
      }
      return { kind: 'claims', fact: name as Fact, text };
    }
    case 'server':
      if (rest.length !== 1 || rest[0] !== 'name') throw new FactSyntaxError(`the only server fact is "server.name", got ${JSON.stringify(text)}`);
      return { kind: 'server-name', text };
    case 'response':
      if (rest[0] === 'annotations' && rest.length > 1) return { kind: 'response', path: rest.slice(1), text };
      return { kind: 'runtime', text };
    case 'request':
      if (rest.length === 0) throw new FactSyntaxError(`"request" needs a path, e.g. "request.annotations.openWorldHint"`);
      return { kind: 'runtime', text };
    default: {
      const guess = closest(root, FACT_ROOTS);
      throw new FactSyntaxError(
        `${JSON.stringify(text)} does not start with ${FACT_ROOTS.map((r) => JSON.stringify(`${r}.`)).join(', ')}${guess ? `; did you mean "${guess}${text.slice(root.length)}"?` : ''}`,
      );
    }
  }
}

/** One possible value of a fact, with where it is written. */
export interface FactValue {
  value: unknown;
  /** Absolute pointer of the value (or of where it would be written). */
  pointer: string;
  /** Not written: MCP's documented default for a core hint. */
  defaulted?: boolean;
}

/** What a fact holds for one tool. */
export type FactState =
  | { kind: 'values'; values: FactValue[] }
  /** The declaration does not say; nothing can equal it. */
  | { kind: 'absent'; pointer: string }
  /** Not knowable from a declaration: only a call carries it. */
  | { kind: 'unknown'; reason: string };

const CORE_DEFAULTS: Record<string, boolean> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

function pointerOf(tool: ToolView, path: readonly string[]): string {
  return tool.pointer + path.map((s) => '/' + escapeSegment(s)).join('');
}

/** The value at a path, or undefined (own properties only). */
function at(value: unknown, path: readonly string[]): { found: boolean; value?: unknown } {
  let current = value;
  for (const segment of path) {
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(segment)) {
      if (Number(segment) >= current.length) return { found: false };
      current = current[Number(segment)];
    } else if (isObject(current) && hasOwn(current, segment)) {
      current = current[segment];
    } else return { found: false };
  }
  return { found: true, value: current };
}

/** A written value as possible values: each member of an array, or the value itself. */
function possible(value: unknown, pointer: string): FactValue[] {
  if (Array.isArray(value)) return value.map((v, i) => ({ value: v, pointer: `${pointer}/${i}` }));
  return [{ value, pointer }];
}

function toolFact(tool: ToolView, path: readonly string[]): FactState {
  const pointer = pointerOf(tool, path);
  const found = at(tool.value, path);
  if (found.found) return { kind: 'values', values: possible(found.value, pointer) };
  if (path.length === 2 && path[0] === 'annotations' && hasOwn(CORE_DEFAULTS, path[1]!)) {
    const hint = path[1]!;
    // destructiveHint and idempotentHint mean nothing on a read-only tool.
    if ((hint === 'destructiveHint' || hint === 'idempotentHint') && tool.annotations?.readOnlyHint === true) return { kind: 'absent', pointer };
    return { kind: 'values', values: [{ value: CORE_DEFAULTS[hint], pointer, defaulted: true }] };
  }
  return { kind: 'absent', pointer };
}

/**
 * What a result may carry when tools/list does not declare the hint: SEP-1913 says omission of
 * its boolean hint means it is never set; MCP's openWorldHint defaults to true.
 */
const RESPONSE_DEFAULTS: Record<string, boolean> = { maliciousActivityHint: false, openWorldHint: true };

function responseFact(tool: ToolView, path: readonly string[], text: string): FactState {
  const found = at(tool.annotations, path);
  const field = `tool.annotations.${fieldPath(path.map((s) => '/' + escapeSegment(s)).join(''))}`;
  const pointer = pointerOf(tool, ['annotations', ...path]);
  if (!found.found) {
    const hint = path.length === 1 ? path[0]! : undefined;
    if (hint !== undefined && hasOwn(RESPONSE_DEFAULTS, hint)) {
      const values = RESPONSE_DEFAULTS[hint] ? [true, false] : [false];
      return { kind: 'values', values: values.map((value) => ({ value, pointer, defaulted: true })) };
    }
    return { kind: 'unknown', reason: `${text} is only known from a call's result, and the tool does not declare ${field} in tools/list to bound it` };
  }
  // In tools/list, a boolean hint `true` means "may be set": a result may carry true or false.
  if (found.value === true) return { kind: 'values', values: [{ value: true, pointer }, { value: false, pointer }] };
  return { kind: 'values', values: possible(found.value, pointer) };
}

/**
 * The name a policy matches an "x-sensitive" field by: the property names from the output
 * schema's root to it, dot-separated (`password`, `credentials.password`); array items,
 * `allOf`/`anyOf`/`oneOf` branches and `$defs` add no name. `pointer` is the field's schema.
 */
export function sensitiveFieldName(pointer: string, toolPointer: string): string {
  const segments = split(relative(toolPointer, pointer)).slice(1); // past "outputSchema"
  const names: string[] = [];
  for (let i = 0; i < segments.length - 1; i++) {
    const keyword = segments[i]!;
    // A property's name is a name; so is a definition's, which adds none ($defs.properties is a definition named "properties").
    if (keyword === 'properties') names.push(segments[++i]!);
    else if (NAMED_SUBSCHEMAS.has(keyword)) i++;
  }
  return names.join('.');
}

/** The keywords whose members are subschemas by a name or a pattern, not keywords: the segment after one is no keyword. */
const NAMED_SUBSCHEMAS: ReadonlySet<string> = new Set(['$defs', 'definitions', 'dependentSchemas', 'patternProperties', 'dependencies']);

/** A known member read from a case variant ("Public" for public) is still written where the variant is. */
const sameMember = (written: unknown, v: unknown) =>
  written === v || dataClassOf(written) === v || (typeof written === 'string' && typeof v === 'string' && written.toLowerCase() === v.toLowerCase());

function claimValues(c: Claim, tool: ToolView): FactValue[] {
  // The claim holds the fields' pointers (rules point at them): a policy matches the names,
  // and each name is found at its own field.
  if (c.fact === 'sensitiveFields') return (c.value as string[]).map((p) => ({ value: sensitiveFieldName(p, tool.pointer), pointer: p }));
  if (!Array.isArray(c.value)) return [{ value: c.value, pointer: c.pointer }];
  const written = members(c);
  const find = (v: unknown) => (written.find((m) => m.value === v) ?? written.find((m) => sameMember(m.value, v)))?.pointer ?? c.pointer;
  return [...(c.value as unknown[]), ...unmappedValues(c)].map((v) => ({ value: v, pointer: find(v) }));
}

/** What a fact holds for a tool of a server. */
export function factState(ref: FactRef, tool: ToolView, claims: ClaimSet, serverName: string): FactState {
  switch (ref.kind) {
    case 'tool':
      return toolFact(tool, ref.path);
    case 'claims': {
      const list = claims.all(ref.fact);
      if (list.length === 0) return { kind: 'absent', pointer: tool.pointer };
      const values: FactValue[] = [];
      for (const c of list) for (const v of claimValues(c, tool)) values.push(v);
      return values.length ? { kind: 'values', values } : { kind: 'absent', pointer: list[0]!.pointer };
    }
    case 'server-name':
      return { kind: 'values', values: [{ value: serverName, pointer: tool.pointer }] };
    case 'response':
      return responseFact(tool, ref.path, ref.text);
    case 'runtime':
      return { kind: 'unknown', reason: `${ref.text} is only known when a call is made (a client evaluates it per request)` };
  }
}
