/**
 * Input parameters that say a call can change or delete data, for risky-parameters.
 *
 * A parameter is read by the tokens of its name (src/util/tokens.ts, whole tokens only)
 * and by its schema. It counts only when a caller can turn it on: a boolean flag
 * (type boolean, a boolean branch of anyOf/oneOf, or a boolean default with no type) that
 * is not pinned off (const false, enum [false]), or, for operation selectors, a string
 * enum/const.
 *
 * Kinds, and which declaration each contradicts:
 * | kind | parameter names | readOnlyHint true | destructiveHint false |
 * | --- | --- | --- | --- |
 * | removal | a token delete, destroy, purge, wipe, erase; a bare "remove"/"drop", or remove/drop with an object such as existing, old, source, original, table, database (drop_existing, remove_source_files) | yes | yes |
 * | cascade | a token cascade | yes | yes |
 * | overwrite | a token overwrite or clobber; a bare "force"/"forced", or force with push, reset, replace, checkout, merge or update (force_push) | overwrite/clobber only | yes |
 * | dry-run | dry_run, dryrun, dry, whatif | yes | no |
 * | overwrite | a conflict policy (if_exists, on_conflict, conflict_resolution, write_mode, …) whose string enum/const allows overwrite, replace, delete, drop, truncate or clobber | yes | yes |
 * | operation | a string enum/const named action, operation, op, command, cmd or subcommand (or ending so: file_action), or exactly mode or method with a value whose first token is a delete verb or "overwrite" (both), or another write verb or a state-changing operation (OPERATION_VERBS: restart, undo, rollback, scale, drain, kill, …) (read-only only) | yes | delete values |
 *
 * Not risky on their own: "recursive" (list_files, search, mkdir -p and copy take it),
 * "all" (search all repositories, list all pages), "force" on a read-only tool (it
 * usually bypasses a cache), "truncate" and "prune" (shorten or trim the output), and
 * remove/drop with any other object (remove_duplicates, drop_empty: output shaping).
 *
 * Never risky:
 * - a parameter whose name starts with a filter word (include_deleted, show_removed,
 *   exclude, only, skip, ignore, with, hide, count, max, allow, can, is, has, …) or holds
 *   "cache" (purge_cache, force_refresh_cache: the cache is not the environment);
 * - anything under a parameter that is a filter or query (filter, filters, where, query,
 *   match, criteria, search, select, include, exclude, sort, order, fields, conditions);
 * - a parameter whose description says it acts on a cache or on the returned data
 *   ("from the results", "in the output", "of the response").
 * Operation selectors are also skipped when the tool name's verb reads (list_audit_events
 * with action: ["create", "delete"] filters by action), when the name is hedged (dry run,
 * preview, plan), or when their description says they filter ("Filter by action",
 * "only returns events matching …", "Which kind of events to show"). Their state-changing
 * values (OPERATION_VERBS, and edit, move, commit, apply, patch, reply) are skipped when the
 * name ends in a report noun (audit_trail, email_stats, lock_status: REPORT_NAME_NOUNS) and
 * neither the name nor the description's first word says the tool acts (manage_account_details,
 * handle_events: saysItActs), or its verb explains or computes (kubectl_explain,
 * calculate_route: DESCRIBING_VERBS).
 *
 * Nested object properties, array items, anyOf/oneOf/allOf branches and local $refs
 * ("#/$defs/…", "#/definitions/…") are followed: a flag is as risky inside an
 * "options" object as at the top. Properties reached through $ref are reported where
 * they are defined.
 */
import { isObject } from '../util/json.js';
import { escapeSegment, get } from '../util/pointer.js';
import { segments, tokensOf } from '../util/tokens.js';
import { DELETE_VERBS, NOUN_LIKE_WRITE_VERBS, WRITE_VERBS, readName } from './name-verbs.js';
import type { ToolView } from '../packs/types.js';

export type ParameterKind = 'removal' | 'cascade' | 'overwrite' | 'dry-run' | 'operation';

export interface Evidence {
  /** The token of the parameter's name, or the enum value, that makes it risky. */
  text: string;
  /** Absolute pointer: the property's schema for a flag, the enum value for a selector. */
  pointer: string;
  /** Whether it contradicts readOnlyHint true. */
  againstReadOnly: boolean;
  /** Whether it contradicts destructiveHint false. */
  againstNonDestructive: boolean;
}

export interface RiskyParameter {
  /** The property name. */
  name: string;
  /** "options.force", "files[].overwrite". */
  path: string;
  /** Absolute pointer of the property's schema. */
  pointer: string;
  kind: ParameterKind;
  /** What makes it risky, in document order (one entry for a flag, the values for a selector). */
  evidence: Evidence[];
}

const FILTER_FIRST: ReadonlySet<string> = new Set([
  'include', 'includes', 'exclude', 'excludes', 'show', 'hide', 'with', 'without', 'only', 'filter', 'skip', 'ignore',
  'count', 'list', 'since', 'until', 'is', 'has', 'was', 'allow', 'allowed', 'can', 'max', 'min', 'num', 'limit',
  'return', 'report', 'track', 'notify', 'log', 'on', 'before', 'after', 'no', 'not', 'prevent', 'protect', 'warn',
]);
const FILTER_PARENTS: ReadonlySet<string> = new Set([
  'filter', 'filters', 'where', 'query', 'match', 'criteria', 'search', 'select', 'include', 'exclude', 'sort', 'order',
  'fields', 'conditions', 'condition', 'predicate',
]);
const REMOVAL_TOKENS: ReadonlySet<string> = new Set(['delete', 'destroy', 'purge', 'wipe', 'erase']);
const STRIP_TOKENS: ReadonlySet<string> = new Set(['remove', 'drop']);
const REMOVAL_OBJECTS: ReadonlySet<string> = new Set([
  'existing', 'old', 'previous', 'source', 'sources', 'original', 'originals', 'table', 'tables', 'database', 'db',
  'schema', 'collection', 'bucket', 'branch', 'target', 'destination',
]);
const FORCE_WITH: ReadonlySet<string> = new Set(['push', 'reset', 'replace', 'checkout', 'merge', 'update', 'overwrite', 'delete', 'remove']);
const OPERATION_NAMES: ReadonlySet<string> = new Set(['action', 'operation', 'op', 'command', 'cmd', 'subcommand']);
/** Operation selectors only as the whole name: "delivery_method" or "sort_mode" select no operation. */
const OPERATION_EXACT: ReadonlySet<string> = new Set(['mode', 'method']);
/**
 * Operations that change the state of something running elsewhere, as the value of an
 * operation selector (kubectl rollout's subCommand ["history", "pause", "restart", "resume",
 * "status", "undo"]). They contradict readOnlyHint true, not destructiveHint false (they
 * change state; they need not lose data). Only as selector values: as the verb of a tool name
 * ("undo_delete", "cancel_order") name-vs-hints reads them differently. Left out on purpose:
 * reading words (status, history, get, list, describe, logs, watch, diff), start and stop (a
 * tool that traces, records or tails starts and stops its own session), run, exec and
 * execute (a read-only query runs), cancel, abort and retry (an asynchronous read the
 * tool started itself), scale and rotate (an image or matrix operation is a pure function),
 * enable and disable (a debugger enables the events it reads), close and open (the tool's
 * own page or session), resolve (a name lookup), accept and dismiss (a dialog), sync and
 * refresh.
 */
export const OPERATION_VERBS: ReadonlySet<string> = new Set([
  'restart', 'reboot', 'shutdown', 'undo', 'rollback', 'revert', 'restore', 'pause', 'resume', 'suspend', 'unsuspend',
  'drain', 'cordon', 'uncordon', 'evict', 'kill', 'terminate', 'rerun', 'trigger', 'dispatch', 'approve', 'reject',
  'archive', 'unarchive', 'lock', 'unlock', 'reopen', 'promote', 'demote', 'revoke', 'grant', 'transfer',
]);
/** Conflict policies: on_conflict, if_exists, conflict_resolution. */
const CONFLICT_NAMES: ReadonlySet<string> = new Set(['if_exists', 'on_exists', 'exists', 'existing', 'on_conflict', 'conflict', 'conflicts', 'conflict_resolution', 'conflict_strategy', 'conflict_policy', 'write_mode', 'overwrite_mode', 'collision']);
const CONFLICT_VALUES: ReadonlySet<string> = new Set(['overwrite', 'replace', 'delete', 'drop', 'truncate', 'clobber']);
/**
 * An operation selector whose description says it filters (list_audit_events' "action"), or
 * picks which kind of thing to report ("Which kind of events to show", "Which lock operations
 * to count": "which", then "to show" with no "." or ";" between).
 */
const FILTER_WORDS = /\b(?:filter|filters|filtered|filtering|matching|only\s+(?:returns?|shows?|lists?|includes?))\b/i;
/** "which", a "." or ";" (ends what "which" started), or "to show" and the like. */
const WHICH_TO = /\bwhich\b|[.;]|\bto\s+(?:show|count|list|return|report|display|include|summari[sz]e|search|query)\b/gi;

/**
 * Whether a description says it filters. "which … to show" is read in one pass over the text
 * (the pattern /\bwhich\b[^.;]*?\bto\s+show/ walked from every "which" to the end of the
 * sentence: quadratic in a description of many "which" and no "." or ";").
 */
function saysItFilters(text: string): boolean {
  if (FILTER_WORDS.test(text)) return true;
  let which = false;
  for (const m of text.matchAll(WHICH_TO)) {
    const w = m[0];
    if (w === '.' || w === ';') which = false;
    else if (w.length === 5 && w.toLowerCase() === 'which') which = true;
    else if (which) return true;
  }
  return false;
}
const RETURNED_DATA = /\b(?:from|in|of|on)\s+(?:the\s+)?(?:returned\s+|response\s+)?(?:results?|output|response|returned\s+\w+)\b|\bcach(?:e|ed|ing)\b/i;

type Schema = Record<string, unknown>;

const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;

/**
 * How deep the walk goes (levels of properties, items and branches), and how many $refs in a row
 * it follows: far past any real schema, so a flag cannot sit just out of reach. The walk's cost is
 * bounded by WALK_BUDGET and `seen`, not by these.
 */
export const MAX_PARAMETER_DEPTH = 64;
export const MAX_REF_HOPS = 64;
/** Subschemas one tool's walk visits at most. */
export const WALK_BUDGET = 5000;
/** The walk's first pass stops this deep (see riskyParameters). */
const SHALLOW_DEPTH = 8;

/** The schema a local $ref points to, with its pointer (following up to MAX_REF_HOPS refs). */
function resolve(root: unknown, rootPointer: string, schema: Schema, pointer: string): [Schema, string] {
  let s = schema;
  let p = pointer;
  for (let i = 0; i < MAX_REF_HOPS && typeof s.$ref === 'string'; i++) {
    const ref = s.$ref as string;
    if (!ref.startsWith('#')) break;
    let rel: string;
    try {
      rel = decodeURIComponent(ref.slice(1));
    } catch {
      break;
    }
    const target = get(root, rel);
    if (!isObject(target)) break;
    s = target;
    p = rootPointer + rel;
  }
  return [s, p];
}

/** The schema and the branches a value may match (anyOf/oneOf/allOf, one level, refs resolved). */
function variants(root: unknown, rootPointer: string, schema: Schema, pointer: string): [Schema, string][] {
  const [s, p] = resolve(root, rootPointer, schema, pointer);
  const out: [Schema, string][] = [[s, p]];
  for (const k of COMBINATORS) {
    const list = s[k];
    if (!Array.isArray(list)) continue;
    list.forEach((b, i) => {
      if (isObject(b)) out.push(resolve(root, rootPointer, b, `${p}/${k}/${i}`));
    });
  }
  return out;
}

function typeIncludes(s: Schema, t: string): boolean {
  return s.type === t || (Array.isArray(s.type) && s.type.includes(t));
}

/** A flag a caller can turn on. */
function settableFlag(vs: [Schema, string][]): boolean {
  let flag = false;
  for (const [s] of vs) {
    if ('const' in s) {
      if (s.const === true) flag = true;
      else if (typeof s.const === 'boolean') return false;
      continue;
    }
    if (Array.isArray(s.enum)) {
      if (s.enum.includes(true)) flag = true;
      else if (s.enum.every((x) => typeof x === 'boolean')) return false;
      continue;
    }
    if (typeIncludes(s, 'boolean')) flag = true;
    else if (s.type === undefined && typeof s.default === 'boolean') flag = true;
  }
  return flag;
}

/** The string values an operation selector may take, with the pointer of each. */
function stringValues(vs: [Schema, string][]): [string, string][] {
  const out: [string, string][] = [];
  for (const [s, p] of vs) {
    if (typeof s.const === 'string') out.push([s.const, `${p}/const`]);
    if (Array.isArray(s.enum)) s.enum.forEach((v, i) => typeof v === 'string' && out.push([v, `${p}/enum/${i}`]));
  }
  return out;
}

function description(vs: [Schema, string][]): string {
  return vs.map(([s]) => (typeof s.description === 'string' ? s.description : '')).join(' ');
}

function classifyFlag(tokens: readonly string[]): { kind: ParameterKind; evidence: string; readOnly: boolean; nonDestructive: boolean } | undefined {
  const removal = tokens.find((t) => REMOVAL_TOKENS.has(t));
  if (removal) return { kind: 'removal', evidence: removal, readOnly: true, nonDestructive: true };
  const strip = tokens.find((t) => STRIP_TOKENS.has(t));
  if (strip && (tokens.length === 1 || tokens.some((t) => REMOVAL_OBJECTS.has(t)))) {
    return { kind: 'removal', evidence: strip, readOnly: true, nonDestructive: true };
  }
  if (tokens.includes('cascade')) return { kind: 'cascade', evidence: 'cascade', readOnly: true, nonDestructive: true };
  const over = tokens.find((t) => t === 'overwrite' || t === 'clobber');
  if (over) return { kind: 'overwrite', evidence: over, readOnly: true, nonDestructive: true };
  const force = tokens.find((t) => t === 'force' || t === 'forced');
  if (force && (tokens.length === 1 || tokens.some((t) => FORCE_WITH.has(t)))) {
    return { kind: 'overwrite', evidence: force, readOnly: false, nonDestructive: true };
  }
  const joined = tokens.join('_');
  if (joined === 'dry_run' || joined === 'dryrun' || joined === 'dry' || joined === 'whatif' || joined === 'what_if') {
    return { kind: 'dry-run', evidence: joined, readOnly: true, nonDestructive: false };
  }
  return undefined;
}

/** What a parameter's name alone says, computed once per name. */
interface NameInfo {
  tokens: readonly string[];
  /** A conflict policy (if_exists, on_conflict, …). */
  conflictPolicy: boolean;
  /** Starts with a filter word or names a cache: never risky, and not looked into. */
  filterLike: boolean;
  /** Names a filter or query: not looked into. */
  filterParent: boolean;
  /** Whether inspect() can find anything: a flag the name classifies, a conflict policy, or an operation selector. */
  flag: boolean;
  selector: boolean;
}

const NAME_MEMO_MAX_ENTRIES = 20_000;
const nameInfos = new Map<string, NameInfo>();

function nameInfo(name: string): NameInfo {
  const known = nameInfos.get(name);
  if (known !== undefined) return known;
  const tokens = tokensOf(name);
  const conflictPolicy = CONFLICT_NAMES.has(tokens.join('_'));
  const filterLike = !conflictPolicy && ((tokens.length > 0 && FILTER_FIRST.has(tokens[0]!)) || tokens.includes('cache') || tokens.includes('cached'));
  const last = tokens[tokens.length - 1];
  const info: NameInfo = {
    tokens,
    conflictPolicy,
    filterLike,
    filterParent: tokens.some((t) => FILTER_PARENTS.has(t)),
    flag: classifyFlag(tokens) !== undefined,
    selector: last !== undefined && (OPERATION_NAMES.has(last) || (tokens.length === 1 && OPERATION_EXACT.has(last))),
  };
  if (name.length <= 256) {
    if (nameInfos.size >= NAME_MEMO_MAX_ENTRIES) nameInfos.clear();
    nameInfos.set(name, info);
  }
  return info;
}

export interface ParameterOptions {
  /** Skip operation selectors (the tool name reads or is hedged). */
  skipOperations?: boolean;
  /**
   * Skip the selector values that only change state (OPERATION_VERBS) or are writing verbs that
   * are nouns as often (edit, move, commit, apply, patch, reply): the tool reports on such
   * operations (audit_trail, email_stats, lock_status) or explains or computes
   * (kubectl_explain, calculate_route). Delete verbs, "overwrite" and the other writing verbs
   * still count.
   */
  skipStateChanges?: boolean;
}

/** Last words of a tool name that make it a report on operations ("audit_trail", "workflow_history"). */
export const REPORT_NAME_NOUNS: ReadonlySet<string> = new Set([
  'stats', 'statistics', 'history', 'histories', 'summary', 'summaries', 'trail', 'status', 'statuses', 'report', 'reports',
  'log', 'logs', 'metrics', 'activity', 'activities', 'lookup', 'overview', 'analytics', 'insights', 'timeline', 'audit',
  'info', 'details', 'usage', 'counts', 'count', 'trends', 'feed', 'events', 'dashboard', 'reference', 'docs', 'help',
]);
/**
 * Writing verbs that, anywhere in a tool's name or as the first word of its description, say
 * the tool acts: a report noun at the end of the name then does not make it a report
 * ("manage_account_details", "handle_events", "subscription_status" described as "Change the
 * status of a subscription.").
 */
const ACTING_VERBS: ReadonlySet<string> = new Set([
  'manage', 'handle', 'change', 'set', 'modify', 'update', 'edit', 'administer', 'control', 'configure', 'adjust',
  'toggle', 'perform', 'execute', 'create', 'write', 'save', 'apply', 'process',
]);
/** The base form of a third-person verb ("changes" → "change", "modifies" → "modify", "sets" → "set"). */
function baseForms(word: string): string[] {
  const forms = [word];
  if (word.endsWith('ies')) forms.push(`${word.slice(0, -3)}y`);
  if (word.endsWith('es')) forms.push(word.slice(0, -2));
  if (word.endsWith('s')) forms.push(word.slice(0, -1));
  return forms;
}
/**
 * Whether the name (any token) or the description (its first word) says the tool writes: then
 * a report noun at the end of its name does not skip its state-changing selector values.
 */
export function saysItActs(name: string | undefined, description: unknown): boolean {
  if (name !== undefined && tokensOf(name).some((t) => ACTING_VERBS.has(t))) return true;
  if (typeof description !== 'string') return false;
  const first = tokensOf(description.slice(0, 40))[0];
  return first !== undefined && baseForms(first).some((f) => ACTING_VERBS.has(f));
}
/** Tool verbs that explain or compute rather than act: "kubectl_explain", "calculate_route". */
export const DESCRIBING_VERBS: ReadonlySet<string> = new Set([
  'explain', 'calculate', 'compute', 'describe', 'estimate', 'analyse', 'analyze', 'compare', 'count', 'summarise',
  'summarize', 'inspect', 'show', 'view', 'check', 'validate', 'evaluate', 'verify', 'lookup', 'preview', 'simulate',
  'convert', 'format', 'parse', 'render', 'translate',
]);

/**
 * A schema whose visit finds nothing: no $ref to follow and nothing that holds
 * subschemas. Such a property is put on the stack as a bare placeholder (null): visiting it
 * only spends budget, so its pointer and path are never built.
 */
function isLeaf(s: Schema): boolean {
  return typeof s.$ref !== 'string' && !isObject(s.properties) && !isObject(s.items) && !Array.isArray(s.anyOf) && !Array.isArray(s.oneOf) && !Array.isArray(s.allOf);
}


/**
 * What risky-parameters leaves out for a tool, from its name and description: operation
 * selectors when the name hedges or reads first, state changes on a report-like or describing
 * name. Shared with the rules that ask whether the parameters would contradict readOnlyHint true.
 */
export function parameterOptions(tool: ToolView): ParameterOptions {
  const obj = tool.obj;
  const reading = tool.hasName ? readName(tool.name) : undefined;
  const skipOperations = reading !== undefined && (reading.hedge !== undefined || reading.verbs[0]?.cls === 'read');
  const segs = tool.hasName ? segments(tool.name) : [];
  const lastToken = segs[segs.length - 1]?.at(-1);
  const skipStateChanges =
    (lastToken !== undefined && REPORT_NAME_NOUNS.has(lastToken) && !saysItActs(tool.hasName ? tool.name : undefined, obj?.description)) ||
    (reading?.verbs[0] !== undefined && DESCRIBING_VERBS.has(reading.verbs[0].token));
  return { skipOperations, skipStateChanges };
}

/** The first input parameter risky-parameters would report against readOnlyHint true, if any. */
export function parameterAgainstReadOnly(tool: ToolView, inputSchemaPointer: string): { parameter: RiskyParameter; evidence: Evidence } | undefined {
  const obj = tool.obj;
  if (!obj || !('inputSchema' in obj)) return undefined;
  for (const p of riskyParameters(obj.inputSchema, inputSchemaPointer, () => parameterOptions(tool))) {
    const ev = p.evidence.find((e) => e.againstReadOnly);
    if (ev) return { parameter: p, evidence: ev };
  }
  return undefined;
}

/** What a walk of riskyParameters left unchecked: set when its budget ran out with subschemas still to visit. */
export interface WalkOutcome {
  stopped?: { visited: number };
}

/**
 * Every risky parameter of an inputSchema, in document order; `outcome` says whether the walk's
 * budget ran out first. The options may be given as a function: they matter only for operation
 * selectors, which few schemas have, so reading the tool's name for them (parameterOptions) is
 * left until the walk meets one.
 */
export function riskyParameters(
  inputSchema: unknown,
  pointer: string,
  options: ParameterOptions | (() => ParameterOptions) = {},
  outcome?: WalkOutcome,
): RiskyParameter[] {
  const found: RiskyParameter[] = [];
  if (!isObject(inputSchema)) return found;
  let resolved = typeof options === 'function' ? undefined : options;
  const opts = (): ParameterOptions => (resolved ??= (options as () => ParameterOptions)());
  const seen = new Set<string>();
  const reported = new Set<string>();
  // Depth-first in document order: a stack of [schema, pointer, path, depth] (null for a
  // leaf, see isLeaf), pushed in reverse.
  type Entry = [Schema, string, string, number] | null;
  const stack: Entry[] = [[inputSchema, pointer, '', 0]];
  const next: Entry[] = [];
  // Two passes share the budget: the first goes SHALLOW_DEPTH levels deep, and what lies deeper
  // waits for the second, so a huge deep subtree cannot use up the budget before a shallow
  // parameter after it is seen.
  const deeper: Entry[] = [];
  let budget = WALK_BUDGET;
  for (let pass = 0; pass < 2; pass++) {
    if (pass === 1) for (let i = deeper.length - 1; i >= 0; i--) stack.push(deeper[i]!);
    while (stack.length > 0 && budget-- > 0) {
      const entry = stack.pop()!;
      if (entry === null) continue;
      const [node, nodePointer, path, depth] = entry;
      if (pass === 0 && depth > SHALLOW_DEPTH) {
        // Not visited yet: it costs nothing until the second pass.
        budget++;
        deeper.push(entry);
        continue;
      }
      const vs = variants(inputSchema, pointer, node, nodePointer);
      next.length = 0;
      for (const [s, p] of vs) {
        if (seen.has(p) || depth > MAX_PARAMETER_DEPTH) continue;
        seen.add(p);
        const props = s.properties;
        if (isObject(props)) {
          for (const name of Object.keys(props)) {
            const sub = props[name];
            if (!isObject(sub)) continue;
            const info = nameInfo(name);
            if (info.filterLike) continue;
            // Only a name inspect() can classify is worth resolving the property's variants for.
            const inspectable = info.flag || info.conflictPolicy || (info.selector && !opts().skipOperations);
            const leaf = isLeaf(sub);
            if (!inspectable && leaf) {
              if (!info.filterParent) next.push(null);
              continue;
            }
            const propPointer = `${p}/properties/${escapeSegment(name)}`;
            const propPath = path ? `${path}.${name}` : name;
            if (inspectable) {
              const propVariants = variants(inputSchema, pointer, sub, propPointer);
              if (!reported.has(propVariants[0]![1]) && !RETURNED_DATA.test(description(propVariants))) {
                const r = inspect(name, propPath, info.tokens, propVariants, opts);
                if (r) {
                  reported.add(propVariants[0]![1]);
                  found.push(r);
                }
              }
            }
            if (!info.filterParent) next.push(leaf ? null : [sub, propPointer, propPath, depth + 1]);
          }
        }
        const items = s.items;
        if (isObject(items)) next.push([items, `${p}/items`, `${path}[]`, depth + 1]);
        for (const k of COMBINATORS) {
          const list = s[k];
          if (Array.isArray(list)) list.forEach((b, i) => isObject(b) && next.push([b, `${p}/${k}/${i}`, path, depth + 1]));
        }
      }
      for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]!);
    }
  }
  // The budget ran out with schemas still to walk (a leaf's null costs budget but hides nothing).
  if (outcome && stack.some((e) => e !== null)) outcome.stopped = { visited: WALK_BUDGET };
  return found;
}

function inspect(name: string, path: string, tokens: readonly string[], vs: [Schema, string][], opts: () => ParameterOptions): RiskyParameter | undefined {
  const pointer = vs[0]![1];
  if (settableFlag(vs)) {
    const c = classifyFlag(tokens);
    if (c) {
      return { name, path, pointer, kind: c.kind, evidence: [{ text: c.evidence, pointer, againstReadOnly: c.readOnly, againstNonDestructive: c.nonDestructive }] };
    }
  }
  const values = stringValues(vs);
  if (values.length === 0) return undefined;
  if (CONFLICT_NAMES.has(tokens.join('_'))) {
    const evidence = values
      .filter(([v]) => CONFLICT_VALUES.has(tokensOf(v)[0] ?? ''))
      .map(([text, p]) => ({ text, pointer: p, againstReadOnly: true, againstNonDestructive: true }));
    return evidence.length > 0 ? { name, path, pointer, kind: 'overwrite', evidence } : undefined;
  }
  const last = tokens[tokens.length - 1];
  const selector = last !== undefined && (OPERATION_NAMES.has(last) || (tokens.length === 1 && OPERATION_EXACT.has(last)));
  if (!selector) return undefined;
  const options = opts();
  if (options.skipOperations) return undefined;
  if (saysItFilters(description(vs))) return undefined;
  const evidence: Evidence[] = [];
  for (const [text, p] of values) {
    const first = tokensOf(text)[0];
    if (first === undefined) continue;
    if (DELETE_VERBS.includes(first) || first === 'overwrite') evidence.push({ text, pointer: p, againstReadOnly: true, againstNonDestructive: true });
    else if (options.skipStateChanges && (OPERATION_VERBS.has(first) || NOUN_LIKE_WRITE_VERBS.has(first))) continue;
    else if (WRITE_VERBS.includes(first) || OPERATION_VERBS.has(first)) evidence.push({ text, pointer: p, againstReadOnly: true, againstNonDestructive: false });
  }
  return evidence.length > 0 ? { name, path, pointer, kind: 'operation', evidence } : undefined;
}
