/**
 * The drift engine: pairs the servers of two snapshots, pairs their tools (by name, then
 * renamed tools by content where that is unambiguous), runs the drift rules over each
 * pair and over what was added, removed or renamed, and returns findings located in the
 * head snapshot (related locations point into the base), sorted like lint's.
 */
import { ClaimSet } from '../engine/claims.js';
import { sortFindings, specFor, toolView, type RuleSetting, type ServerSummary } from '../engine/engine.js';
import { PACKS } from '../packs/index.js';
import type { PackId, Finding, Region, RelatedLocation, ServerInput, SpecVersion } from '../types.js';
import { PACK_IDS, SEVERITY_RANK } from '../types.js';
import { isObject } from '../util/json.js';
import { relative } from '../util/pointer.js';
import { canonical } from './facts.js';
import type { DriftReport, DriftRule, ToolPair, ToolSide } from './types.js';

export interface DiffOptions {
  /** The spec version to read both snapshots with (default: what each recorded, else the latest). */
  spec?: SpecVersion;
  packs?: Iterable<PackId>;
  /** Severity (or "off") per drift rule id. */
  rules?: Record<string, RuleSetting>;
  /** The config's overrides: settings by server and tool name, over `rules` (lint's EngineOptions.overrides). */
  overrides?: (server: string, tool: string | undefined) => Record<string, RuleSetting> | undefined;
  /**
   * Compare only servers both sides have: a server on one side only is left alone instead of
   * having every tool reported as added or removed (when an input could not be read, the
   * server may only be missing from what was read).
   */
  pairedOnly?: boolean;
}

export interface DiffResult {
  findings: Finding[];
  /** The head's servers, then servers only the base has (with pairedOnly: the servers both have). */
  servers: ServerSummary[];
}

/** The prefix that keeps base server ids apart from head ones (both sides may be the same file). */
const BASE_ID = 'base:';

function sortServers(inputs: readonly ServerInput[]): ServerInput[] {
  return [...inputs].sort((a, b) => (a.origin.display < b.origin.display ? -1 : a.origin.display > b.origin.display ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** _meta keys some vocabulary defines. */
const META_KEYS = new Set(PACKS.flatMap((p) => p.metaKeys));

function analyse(input: ServerInput, packs: ReadonlySet<PackId>, spec: SpecVersion | undefined): ToolSide[] {
  const env = { spec: spec ?? specFor(input.protocolVersion).spec };
  const active = PACKS.filter((p) => packs.has(p.id));
  return input.tools.map((t, i) => {
    const view = toolView(t.value, t.pointer, i);
    const claims = active.flatMap((p) => p.analyse(view, env).claims);
    const vocabularyMeta = Object.fromEntries(Object.entries(view.meta ?? {}).filter(([k]) => META_KEYS.has(k)));
    return { view, claims: new ClaimSet(claims), server: input, vocabularyMeta };
  });
}

/**
 * Pair servers by name. Two single-server snapshots are one server whatever their names (a
 * snapshot without serverInfo is named after its file: base.json and head.json).
 */
function pairServers(base: ServerInput[], head: ServerInput[]): { pairs: [ServerInput, ServerInput][]; baseOnly: ServerInput[] } {
  if (base.length === 1 && head.length === 1) return { pairs: [[base[0]!, head[0]!]], baseOnly: [] };
  const pairs: [ServerInput, ServerInput][] = [];
  const left = [...base];
  for (const h of head) {
    const i = left.findIndex((b) => b.name === h.name);
    if (i >= 0) pairs.push([left.splice(i, 1)[0]!, h]);
  }
  return { pairs, baseOnly: left };
}

/** A definition that says enough to recognise the tool: a description, or input properties. */
function distinctive(t: Record<string, unknown>): boolean {
  if (typeof t.description === 'string' && t.description.trim() !== '') return true;
  const schema = t.inputSchema;
  return isObject(schema) && isObject(schema.properties) && Object.keys(schema.properties).length > 0;
}

/**
 * Keys that identify a renamed tool, strictest first, with how the message names them. A key
 * only matches when exactly one removed and one added tool share it, and never for a bare
 * definition (no description, no input properties) that any two tools could share.
 */
const RENAME_KEYS: { how: string; key: (tool: Record<string, unknown>) => string | undefined }[] = [
  {
    how: 'an identical definition apart from the name',
    key: (t) => {
      if (!distinctive(t)) return undefined;
      const { name: _name, ...rest } = t;
      return canonical(rest);
    },
  },
  {
    how: 'the same description and inputSchema',
    key: (t) => (typeof t.description === 'string' && t.description.trim() !== '' ? canonical({ d: t.description, s: t.inputSchema ?? null }) : undefined),
  },
];

function pairTools(base: ToolSide[], head: ToolSide[]): { pairs: ToolPair[]; removed: ToolSide[]; added: ToolSide[] } {
  const byName = new Map<string, ToolSide[]>();
  for (const b of base) {
    if (!b.view.hasName) continue;
    const list = byName.get(b.view.name) ?? [];
    list.push(b);
    byName.set(b.view.name, list);
  }
  const pairs: ToolPair[] = [];
  const matched = new Set<ToolSide>();
  let added: ToolSide[] = [];
  for (const h of head) {
    const b = h.view.hasName ? byName.get(h.view.name)?.shift() : undefined;
    if (b) {
      pairs.push({ base: b, head: h });
      matched.add(b);
    } else {
      added.push(h);
    }
  }
  let removed = base.filter((b) => !matched.has(b));
  // Renamed tools: a key that exactly one removed and exactly one added tool share.
  for (const { how, key } of RENAME_KEYS) {
    if (!removed.length || !added.length) break;
    const keyOf = (s: ToolSide) => (s.view.obj ? key(s.view.obj) : undefined);
    const count = (list: ToolSide[]) => {
      const m = new Map<string, ToolSide[]>();
      for (const s of list) {
        const k = keyOf(s);
        if (k !== undefined) m.set(k, [...(m.get(k) ?? []), s]);
      }
      return m;
    };
    const removedByKey = count(removed);
    const addedByKey = count(added);
    const renamed = new Set<ToolSide>();
    for (const h of added) {
      const k = keyOf(h);
      if (k === undefined) continue;
      const from = removedByKey.get(k);
      if (from?.length === 1 && addedByKey.get(k)?.length === 1) {
        pairs.push({ base: from[0]!, head: h, renamedBy: how });
        renamed.add(h).add(from[0]!);
      }
    }
    removed = removed.filter((s) => !renamed.has(s));
    added = added.filter((s) => !renamed.has(s));
  }
  return { pairs, removed, added };
}

/** Where a finding goes: the document its pointer is in, and the tool it is about. */
interface Target {
  input: ServerInput;
  /** The tool the finding is about (a removed tool: its base side, while the pointer is in the head). */
  tool?: ToolSide;
  /** Whether `tool` lives in `input` (then the finding has its index and a tool-relative pointer). */
  inInput: boolean;
}

function locate(input: ServerInput, pointer: string): { file?: string; region?: Region } {
  const at = input.locator?.locateOne(pointer);
  if (!at) return {};
  const file = input.origin.kind === 'file' ? input.origin.display : input.origin.kind === 'live' ? input.origin.snapshot : undefined;
  return { file, region: { line: at.line, column: at.column, endLine: at.endLine, endColumn: at.endColumn } };
}

export function diff(baseInputs: readonly ServerInput[], headInputs: readonly ServerInput[], rules: readonly DriftRule[], opts: DiffOptions = {}): DiffResult {
  const packs = new Set<PackId>(['core', ...(opts.packs ?? PACK_IDS)]);
  const severityOf = (setting: RuleSetting | undefined) => (Array.isArray(setting) ? setting[0] : setting);
  const globally = (rule: DriftRule) => severityOf(opts.rules?.[rule.id]) ?? rule.severity;
  /** A rule's severity for a finding: `rules`, then the overrides that match its server and tool ("off": no finding). */
  const severityFor = (rule: DriftRule, server: string, tool: string | undefined) => severityOf(opts.overrides?.(server, tool)?.[rule.id]) ?? globally(rule);
  // A rule that is off runs all the same when overrides might turn it on for some servers or tools.
  const active = rules.filter((r) => (r.packs.length === 0 || r.packs.some((p) => packs.has(p))) && (opts.overrides || globally(r) !== 'off'));

  const base = sortServers(baseInputs.map((s) => ({ ...s, id: BASE_ID + s.id })));
  const head = sortServers(headInputs);
  const { pairs, baseOnly } = pairServers(base, head);
  const findings: Finding[] = [];

  const push = (rule: DriftRule, target: Target, before: { input: ServerInput; tool?: ToolSide } | undefined, r: DriftReport) => {
    const tool = target.tool;
    const severity = severityFor(rule, target.input.name, tool?.view.name);
    if (severity === 'off') return;
    const related: RelatedLocation[] = [];
    for (const b of r.before ?? []) {
      if (!before) continue;
      related.push({ message: b.message, pointer: b.pointer, serverId: before.input.id, server: before.input.name, tool: before.tool?.view.name, ...locate(before.input, b.pointer) });
    }
    const own = target.inInput ? tool : undefined;
    findings.push({
      ruleId: rule.id,
      severity: r.severity !== undefined && SEVERITY_RANK[r.severity] < SEVERITY_RANK[severity] ? r.severity : severity,
      message: r.message,
      suggestion: r.suggestion,
      serverId: target.input.id,
      server: target.input.name,
      tool: tool?.view.name,
      toolIndex: own?.view.index,
      pointer: r.pointer,
      toolPointer: own && r.pointer.startsWith(own.view.pointer) ? relative(own.view.pointer, r.pointer) : '',
      ...locate(target.input, r.pointer),
      ...(related.length ? { related } : {}),
    });
  };

  const summaries: ServerSummary[] = [];
  const summary = (input: ServerInput) => summaries.push({ id: input.id, name: input.name, origin: input.origin, tools: input.tools.length, spec: opts.spec ?? specFor(input.protocolVersion).spec });

  const compareServers = (b: ServerInput | undefined, h: ServerInput | undefined) => {
    const baseTools = b ? analyse(b, packs, opts.spec) : [];
    const headTools = h ? analyse(h, packs, opts.spec) : [];
    const { pairs: toolPairs, removed, added } = pairTools(baseTools, headTools);
    const renamed = toolPairs.filter((p) => p.renamedBy !== undefined);
    for (const rule of active) {
      if (rule.compare && b && h) {
        for (const pair of toolPairs) {
          rule.compare({
            pair,
            report: (r) => push(rule, { input: h, tool: pair.head, inInput: true }, { input: b, tool: pair.base }, r),
          });
        }
      }
      rule.compareServer?.({
        head: h,
        base: b,
        added,
        removed,
        renamed,
        report: (r) => {
          const inHead = r.tool === undefined || r.tool.server === h;
          // Findings go into the head where it has the server; a server the head lacks gets them in the base.
          const input = h ?? b!;
          const baseTool = r.tool && !inHead ? r.tool : renamed.find((p) => p.head === r.tool)?.base;
          push(rule, { input, tool: r.tool, inInput: r.tool?.server === input }, b ? { input: b, tool: baseTool } : undefined, r);
        },
      });
    }
  };

  // With pairedOnly, the report lists only the servers that were compared.
  for (const h of head) {
    const b = pairs.find(([, hh]) => hh === h)?.[0];
    if (!b && opts.pairedOnly) continue;
    compareServers(b, h);
    summary(h);
  }
  for (const b of opts.pairedOnly ? [] : baseOnly) {
    compareServers(b, undefined);
    summary(b);
  }
  return { findings: sortFindings(findings, summaries), servers: summaries };
}
