/**
 * core: the MCP Tool definition of each spec version (annotations.{title, readOnlyHint,
 * destructiveHint, idempotentHint, openWorldHint} and the tool's shape), validated with
 * the schema derived from the official schema.json of that version.
 */
import { generated, type GeneratedValidator } from '../schema/generated.js';
import { SPEC_VERSIONS, type SpecVersion } from '../types.js';
import { newClaim, type Claim } from '../engine/claims.js';
import { explainErrors } from '../schema/explain.js';
import type { Pack, SchemaProblem, ToolView } from './types.js';
import { isObject } from '../util/json.js';

const loaded = new Map<SpecVersion, { tool: GeneratedValidator; envelope: GeneratedValidator }>();

/** The Tool and envelope validators of a spec version, loaded on first use. */
function validatorsOf(spec: SpecVersion): { tool: GeneratedValidator; envelope: GeneratedValidator } {
  let v = loaded.get(spec);
  if (!v) {
    const m = generated(`core-${spec}`);
    loaded.set(spec, (v = { tool: m.tool!, envelope: m.envelope! }));
  }
  return v;
}

export const CORE_HINTS = {
  readOnlyHint: 'readOnly',
  destructiveHint: 'destructive',
  idempotentHint: 'idempotent',
  openWorldHint: 'openWorld',
} as const;

/** Each core hint with its claim's fact, field and tool-relative pointer, built once. */
const HINT_CLAIMS = Object.entries(CORE_HINTS).map(([key, fact]) => ({ key, fact, field: `annotations.${key}`, rel: `/annotations/${key}` }));

/** Problems other structure rules report in their own words (input-schema-object). */
function ownedElsewhere(p: { pointer: string; message: string }, missingInputSchema: boolean): boolean {
  if (p.pointer === '' && missingInputSchema && p.message.includes('"inputSchema"')) return true;
  return p.pointer === '/inputSchema' || p.pointer === '/inputSchema/type';
}

export function validateEnvelope(value: unknown, pointer: string, spec: SpecVersion): SchemaProblem[] {
  const validate = validatorsOf(spec).envelope;
  if (validate(value)) return [];
  return explainErrors(validate.errors ?? [], '', 'the tools/list result').map((e) => ({
    pack: 'core',
    pointer: pointer + e.pointer,
    message: `${e.message} (spec ${spec})`,
    suggestion: e.suggestion,
    kind: 'invalid',
    ...(e.detail !== undefined ? { detail: e.detail } : {}),
  }));
}

/**
 * Spec versions whose Tool has no `outputSchema` (2025-06-18 added it): their clients ignore
 * one, so nothing in it counts (its "x-sensitive" properties keep no secret out of context).
 * test/schemas.test.ts keeps this in step with schemas/core/<version>.json.
 */
export const NO_OUTPUT_SCHEMA: readonly SpecVersion[] = ['2025-03-26'];

/** Whether clients of a spec version read a tool's outputSchema. */
export const readsOutputSchema = (spec: SpecVersion): boolean => !NO_OUTPUT_SCHEMA.includes(spec);

/** The spec version just before `spec` in SPEC_VERSIONS (none for the oldest). */
export function versionBefore(spec: SpecVersion): SpecVersion | undefined {
  const i = SPEC_VERSIONS.indexOf(spec);
  return i > 0 ? SPEC_VERSIONS[i - 1] : undefined;
}

/** A tool's core schema problems under a spec version, as analyse() reports them (input-schema-object's left out). */
function toolProblems(tool: ToolView, spec: SpecVersion): { pointer: string; message: string; suggestion?: string; detail?: string }[] {
  const validate = validatorsOf(spec).tool;
  if (validate(tool.value)) return [];
  const missingInputSchema = tool.obj !== undefined && !('inputSchema' in tool.obj);
  const out = [];
  for (const e of explainErrors(validate.errors ?? [])) {
    if (tool.obj && ownedElsewhere(e, missingInputSchema)) continue;
    out.push({ pointer: tool.pointer + e.pointer, message: e.message, ...(e.suggestion !== undefined ? { suggestion: e.suggestion } : {}), ...(e.detail !== undefined ? { detail: e.detail } : {}) });
  }
  return out;
}

/** `properties` as the 2025-11-25 Tool schema has it in inputSchema and outputSchema: absent, or an object of objects. */
function objectOfObjects(v: unknown): boolean {
  if (v === undefined) return true;
  if (!isObject(v)) return false;
  // for…in, as the validator's own loop reads it.
  for (const k in v) if (!isObject(v[k])) return false;
  return true;
}

/** `required` as the 2025-11-25 Tool schema has it in inputSchema and outputSchema: absent, or an array of strings. */
function stringList(v: unknown): boolean {
  if (v === undefined) return true;
  if (!Array.isArray(v)) return false;
  for (const s of v) if (typeof s !== 'string') return false;
  return true;
}

const TASK_SUPPORT: readonly unknown[] = ['forbidden', 'optional', 'required'];

/**
 * Whether a tool the Tool schema of `spec` accepts is accepted by that of `older` too, by
 * what the older one asks beyond it; false when not sure (the older validator decides). Known
 * for 2026-07-28 and the version before it, 2025-11-25, whose Tool also asks for a known
 * execution.taskSupport, `properties` of objects and `required` of strings in inputSchema and
 * outputSchema, and an outputSchema of type "object" (test/schemas.test.ts checks that this is
 * the whole difference between the two schemas, and test/schema-fast-path.test.ts that the
 * older validator accepts whatever passes here).
 */
export function olderAlsoAccepts(value: unknown, spec: SpecVersion, older: SpecVersion): boolean {
  if (spec !== '2026-07-28' || older !== '2025-11-25' || !isObject(value)) return false;
  const execution = value.execution;
  if (execution !== undefined && !(isObject(execution) && (execution.taskSupport === undefined || TASK_SUPPORT.includes(execution.taskSupport)))) return false;
  // Both are objects here: the newer schema asks that much of them.
  const input = value.inputSchema as Record<string, unknown>;
  if (!objectOfObjects(input.properties) || !stringList(input.required)) return false;
  const output = value.outputSchema as Record<string, unknown> | undefined;
  return output === undefined || (output.type === 'object' && objectOfObjects(output.properties) && stringList(output.required));
}

/** The answer for a tool the older version accepts, one per version (shared: callers only read it). */
const NO_OLDER_PROBLEMS = new Map<SpecVersion, { spec: SpecVersion; problems: [] }>();
function noProblemsUnder(spec: SpecVersion): { spec: SpecVersion; problems: [] } {
  let r = NO_OLDER_PROBLEMS.get(spec);
  if (!r) NO_OLDER_PROBLEMS.set(spec, (r = { spec, problems: [] }));
  return r;
}

/**
 * What the core Tool schema of the version before `spec` rejects in a tool and that of `spec`
 * does not (the same message at the same place counts once): for a tool linted against the
 * latest version only because its input recorded none. A tool valid under the older version
 * costs one call of its precompiled validator.
 */
export function olderSpecProblems(tool: ToolView, spec: SpecVersion): { spec: SpecVersion; problems: { pointer: string; message: string; suggestion?: string; detail?: string }[] } | undefined {
  const older = versionBefore(spec);
  if (older === undefined) return undefined;
  // The fast path: a tool valid under `spec` (olderAlsoAccepts relies on that: checked first)
  // that has none of what only the older Tool schema rejects.
  if (validatorsOf(spec).tool(tool.value) && olderAlsoAccepts(tool.value, spec, older)) return noProblemsUnder(older);
  if (validatorsOf(older).tool(tool.value)) return noProblemsUnder(older);
  const own = new Set(toolProblems(tool, spec).map((p) => `${p.pointer}\u0000${p.message}`));
  return { spec: older, problems: toolProblems(tool, older).filter((p) => !own.has(`${p.pointer}\u0000${p.message}`)) };
}

export const corePack: Pack = {
  id: 'core',
  title: 'MCP core tool annotations',
  source: 'the official MCP schema.json of each spec version (../shared/spec/mcp/)',
  location: 'annotations.{title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint}, and the Tool shape',
  annotationKeys: ['title', 'readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'],
  metaKeys: [],
  proposal: false,
  analyse(tool: ToolView, env) {
    const problems: SchemaProblem[] = [];
    for (const p of toolProblems(tool, env.spec)) problems.push({ pack: 'core', ...p, kind: 'invalid' });
    const claims: Claim[] = [];
    const a = tool.annotations;
    if (a) {
      for (const { key, fact, field, rel } of HINT_CLAIMS) {
        const v = a[key];
        if (typeof v === 'boolean') claims.push(newClaim(fact, v, 'core', field, tool.pointer + rel));
      }
    }
    return { claims, problems };
  },
};
