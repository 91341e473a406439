/**
 * The drift engine: pairs the servers of two snapshots, pairs their tools (by name, duplicates
 * of one name by content first, then renamed tools by content where that is unambiguous; a
 * further tool of a name the base has, with the base's tool of that name), runs the drift rules over each
 * pair and over what was added, removed or renamed, and returns findings located in the
 * head snapshot (related locations point into the base), sorted like lint's.
 */
import { ClaimSet } from '../engine/claims.js';
import { MAX_PER_TOOL, PerToolLimit } from '../engine/limit.js';
import { MAX_FINDINGS, quotesNumbers, sortFindings, specFor, toolView, writeNumbers, type RuleSetting, type ServerSummary } from '../engine/engine.js';
import { PACKS } from '../packs/index.js';
import type { PackId, Finding, Located, Region, RelatedLocation, ServerInput, SpecVersion } from '../types.js';
import { PACK_IDS, SEVERITY_RANK } from '../types.js';
import { isObject } from '../util/json.js';
import { relative, within } from '../util/pointer.js';
import { quote, QUOTED_NAME_MAX } from '../util/text.js';
import { deferNumbers } from '../util/written.js';
import { valueKey, unorderedSchema } from './facts.js';
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
  /** Stop once this many findings are kept (default MAX_FINDINGS, as lint). */
  maxFindings?: number;
  /** List at most this many findings of one rule for one tool (default MAX_PER_TOOL, as lint; 0: no limit). */
  maxPerTool?: number;
}

export interface DiffResult {
  findings: Finding[];
  /** The head's servers, then servers only the base has (with pairedOnly: the servers both have). */
  servers: ServerSummary[];
  /** Set when the comparison reached maxFindings, in this server (the base's, when the head lacks it): the servers after it were not compared. */
  stopped?: { serverId: string; server: string; display: string; limit: number };
}

/**
 * The most tools diff compares in one server. It keeps what every tool of both sides says
 * (about 1 KB a tool) to pair them, so a few megabytes of empty tools would fill the heap;
 * real servers, even registry dumps, stay far below this.
 */
export const MAX_DIFF_TOOLS = 500_000;

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
 * snapshot without serverInfo is named after its file: base.json and head.json). Servers left
 * over pair by serverInfo.name when exactly one on each side has it: a snapshot saved before
 * snapshots recorded their config entry's name is named by serverInfo.name, the server it is a
 * snapshot of by its entry.
 */
function pairServers(base: ServerInput[], head: ServerInput[]): { pairs: [ServerInput, ServerInput][]; baseOnly: ServerInput[] } {
  if (base.length === 1 && head.length === 1) return { pairs: [[base[0]!, head[0]!]], baseOnly: [] };
  const pairs: [ServerInput, ServerInput][] = [];
  // Base servers by name, each name's in order, with the next one not yet paired.
  const byName = new Map<string, { list: ServerInput[]; next: number; byTools?: Map<string, ServerInput[]> }>();
  for (const b of base) {
    const same = byName.get(b.name);
    if (same) same.list.push(b);
    else byName.set(b.name, { list: [b], next: 0 });
  }
  const headCount = new Map<string, number>();
  for (const h of head) headCount.set(h.name, (headCount.get(h.name) ?? 0) + 1);
  const toolsOf = (s: ServerInput) => valueKey(s.tools.map((t) => t.value));
  const paired = new Set<ServerInput>();
  // Several servers of one name (two instances of one server binary): an identical one is its
  // pair wherever it is, so that reordering them changes nothing; the others pair in order.
  const partner = new Map<ServerInput, ServerInput>();
  for (const h of head) {
    const same = byName.get(h.name);
    if (!same || (same.list.length === 1 && headCount.get(h.name) === 1)) continue;
    if (!same.byTools) {
      same.byTools = new Map();
      for (const b of same.list) {
        const key = toolsOf(b);
        const list = same.byTools.get(key);
        if (list) list.push(b);
        else same.byTools.set(key, [b]);
      }
    }
    const b = same.byTools.get(toolsOf(h))?.shift();
    if (b) {
      partner.set(h, b);
      paired.add(b);
    }
  }
  for (const h of head) {
    let b = partner.get(h);
    const same = byName.get(h.name);
    if (!b && same) {
      while (same.next < same.list.length && paired.has(same.list[same.next]!)) same.next++;
      b = same.list[same.next];
      if (b) paired.add(b);
    }
    if (b) pairs.push([b, h]);
  }
  const headPaired = new Set(pairs.map(([, h]) => h));
  const infoName = (s: ServerInput) => (typeof s.serverInfo?.name === 'string' && s.serverInfo.name !== '' ? s.serverInfo.name : undefined);
  const byInfo = <T extends ServerInput>(list: T[]) => {
    const out = new Map<string, T[]>();
    for (const s of list) {
      const n = infoName(s);
      if (n !== undefined) out.set(n, [...(out.get(n) ?? []), s]);
    }
    return out;
  };
  const restBase = byInfo(base.filter((b) => !paired.has(b)));
  for (const [n, heads] of byInfo(head.filter((h) => !headPaired.has(h)))) {
    const bases = restBase.get(n);
    // Two config entries of different names are two servers, whatever binary they run.
    if (heads.length !== 1 || bases?.length !== 1 || (heads[0]!.entryNamed && bases[0]!.entryNamed)) continue;
    pairs.push([bases[0]!, heads[0]!]);
    paired.add(bases[0]!);
  }
  return { pairs, baseOnly: base.filter((b) => !paired.has(b)) };
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
      return valueKey(rest);
    },
  },
  {
    how: 'the same description and inputSchema',
    key: (t) => (typeof t.description === 'string' && t.description.trim() !== '' ? valueKey({ d: t.description, s: unorderedSchema(t.inputSchema ?? null) }) : undefined),
  },
];

/**
 * Keys that pair tools of one name when either side lists more than one (tool-name-unique
 * reports that in lint), strictest first: an identical definition, then the same description
 * and inputSchema. A duplicate that matches neither pairs with the first one left of its name
 * in the base, in the order they are listed. So reordering duplicates is no drift, and a tool
 * that is gone is the one whose definition the head no longer has.
 */
const DUPLICATE_KEYS: ((s: ToolSide) => string)[] = [
  (s) => valueKey(s.view.value),
  (s) => valueKey({ d: s.view.obj?.description ?? null, s: unorderedSchema(s.view.obj?.inputSchema ?? null) }),
];

function pairTools(base: ToolSide[], head: ToolSide[]): { pairs: ToolPair[]; removed: ToolSide[]; added: ToolSide[] } {
  const group = (list: ToolSide[]) => {
    const out = new Map<string, ToolSide[]>();
    for (const s of list) {
      if (!s.view.hasName) continue;
      const same = out.get(s.view.name);
      if (same) same.push(s);
      else out.set(s.view.name, [s]);
    }
    return out;
  };
  const byName = group(base);
  const matched = new Set<ToolSide>();
  // Tools of a name either side lists more than once: by content first.
  const partner = new Map<ToolSide, ToolSide>();
  for (const [name, heads] of group(head)) {
    const bases = byName.get(name);
    if (!bases || (bases.length === 1 && heads.length === 1)) continue;
    for (const key of DUPLICATE_KEYS) {
      const free = new Map<string, ToolSide[]>();
      for (const b of bases) {
        if (matched.has(b)) continue;
        const k = key(b);
        const same = free.get(k);
        if (same) same.push(b);
        else free.set(k, [b]);
      }
      for (const h of heads) {
        if (partner.has(h)) continue;
        const b = free.get(key(h))?.shift();
        if (b) {
          partner.set(h, b);
          matched.add(b);
        }
      }
    }
  }
  const pairs: ToolPair[] = [];
  const next = new Map<string, number>();
  let added: ToolSide[] = [];
  for (const h of head) {
    let b = partner.get(h);
    if (!b && h.view.hasName) {
      const same = byName.get(h.view.name);
      let i = next.get(h.view.name) ?? 0;
      while (same && i < same.length && matched.has(same[i]!)) i++;
      b = same?.[i];
      next.set(h.view.name, i);
      if (b) matched.add(b);
    }
    if (b) pairs.push({ base: b, head: h });
    else added.push(h);
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
        if (k === undefined) continue;
        const same = m.get(k);
        if (same) same.push(s);
        else m.set(k, [s]);
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
  // A tool added under a name the base has (every base tool of that name already has its
  // partner): a second definition of a tool clients know, not a new tool. It is compared with
  // the base's tool of that name (the one of the same content, else the first listed), so a
  // weaker duplicate is reported as the weakening it is.
  added = added.filter((h) => {
    const bases = h.view.hasName ? byName.get(h.view.name) : undefined;
    if (!bases) return true;
    let b: ToolSide | undefined;
    for (const key of DUPLICATE_KEYS) b ??= bases.find((s) => key(s) === key(h));
    pairs.push({ base: b ?? bases[0]!, head: h, duplicate: true });
    return false;
  });
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

/**
 * Where findings and related locations still need their file and region, per document (the
 * servers of one file share its locator): its pointers, and what each goes into, in which file.
 */
type Wanted = Map<unknown, { input: ServerInput; pointers: string[]; into: { target: { file?: string; region?: Region }; file?: string }[] }>;

/**
 * Sets file and region on everything wanted, with one pass over each document (asked one pointer
 * at a time, a pass per finding made large diffs quadratic); where each was found, by target.
 */
function locateWanted(wanted: Wanted): Map<object, Located> {
  const located = new Map<object, Located>();
  for (const { input, pointers, into } of wanted.values()) {
    const found = input.locator?.locateAll(pointers) ?? [];
    into.forEach(({ target, file }, i) => {
      const at = found[i];
      if (!at) return;
      target.file = file;
      target.region = { line: at.line, column: at.column, endLine: at.endLine, endColumn: at.endColumn };
      located.set(target, at);
    });
  }
  return located;
}

/**
 * The servers a diff of every server compares, as its findings name them: each head server with
 * the base server it is compared with (its findings carry the head's name, a removed tool's the
 * base's tool name), and each base server the head lacks.
 */
export function comparedServers(baseInputs: readonly ServerInput[], headInputs: readonly ServerInput[]): { server: ServerInput; base?: ServerInput }[] {
  const base = sortServers(baseInputs.map((s) => ({ ...s, id: BASE_ID + s.id })));
  const head = sortServers(headInputs);
  const { pairs, baseOnly } = pairServers(base, head);
  const baseOf = new Map(pairs.map(([b, h]) => [h, b]));
  return [...head.map((h) => ({ server: h, base: baseOf.get(h) })), ...baseOnly.map((b) => ({ server: b }))];
}

export function diff(baseInputs: readonly ServerInput[], headInputs: readonly ServerInput[], rules: readonly DriftRule[], opts: DiffOptions = {}): DiffResult {
  // Numbers are quoted as the snapshots wrote them, as in lint (src/util/written.ts).
  return deferNumbers(() => diffDeferred(baseInputs, headInputs, rules, opts));
}

function diffDeferred(baseInputs: readonly ServerInput[], headInputs: readonly ServerInput[], rules: readonly DriftRule[], opts: DiffOptions): DiffResult {
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
  const wanted: Wanted = new Map();
  const locateLater = (input: ServerInput, pointer: string, target: { file?: string; region?: Region }) => {
    const doc = input.locator ?? input;
    let w = wanted.get(doc);
    if (!w) wanted.set(doc, (w = { input, pointers: [], into: [] }));
    w.pointers.push(pointer);
    w.into.push({ target, file: input.origin.kind === 'file' ? input.origin.display : input.origin.kind === 'live' ? input.origin.snapshot : undefined });
  };

  const maxFindings = opts.maxFindings ?? MAX_FINDINGS;
  let stopped: DiffResult['stopped'];
  const limit = new PerToolLimit(opts.maxPerTool ?? MAX_PER_TOOL);
  const push = (rule: DriftRule, target: Target, before: { input: ServerInput; tool?: ToolSide } | undefined, r: DriftReport) => {
    const toolPointer = target.tool?.view.pointer;
    const listed = limit.admit(rule.id, target.input.id, toolPointer, () => {
      // One note of the rule, at the tool (or where the first finding not listed is), counts the rest.
      const at = findings.length;
      make(rule, target, undefined, { pointer: toolPointer ?? r.pointer, severity: 'note', message: '', suggestion: 'MCP_ANNOTATE_MAX_PER_TOOL=0 lists them all' });
      return findings[at];
    });
    if (listed) make(rule, target, before, r);
  };
  const make = (rule: DriftRule, target: Target, before: { input: ServerInput; tool?: ToolSide } | undefined, r: DriftReport) => {
    if (findings.length >= maxFindings) {
      stopped ??= { serverId: target.input.id, server: target.input.name, display: target.input.origin.display, limit: maxFindings };
      return;
    }
    const tool = target.tool;
    const severity = severityFor(rule, target.input.name, tool?.view.name);
    if (severity === 'off') return;
    const related: RelatedLocation[] = [];
    for (const b of r.before ?? []) {
      if (!before) continue;
      const rel: RelatedLocation = { message: b.message, pointer: b.pointer, serverId: before.input.id, server: before.input.name, tool: before.tool?.view.name };
      locateLater(before.input, b.pointer, rel);
      related.push(rel);
    }
    const own = target.inInput ? tool : undefined;
    const finding: Finding = {
      ruleId: rule.id,
      severity: r.severity !== undefined && SEVERITY_RANK[r.severity] < SEVERITY_RANK[severity] ? r.severity : severity,
      message: r.message,
      suggestion: r.suggestion,
      serverId: target.input.id,
      server: target.input.name,
      tool: tool?.view.name,
      toolIndex: own?.view.index,
      pointer: r.pointer,
      toolPointer: own && within(own.view.pointer, r.pointer) ? relative(own.view.pointer, r.pointer) : '',
      ...(related.length ? { related } : {}),
    };
    locateLater(target.input, r.pointer, finding);
    findings.push(finding);
  };

  const summaries: ServerSummary[] = [];
  const summary = (input: ServerInput) => summaries.push({ id: input.id, name: input.name, origin: input.origin, tools: input.tools.length, spec: opts.spec ?? specFor(input.protocolVersion).spec });

  const compareServers = (b: ServerInput | undefined, h: ServerInput | undefined) => {
    const baseTools = b ? analyse(b, packs, opts.spec) : [];
    const headTools = h ? analyse(h, packs, opts.spec) : [];
    const { pairs: toolPairs, removed, added } = pairTools(baseTools, headTools);
    const renamed = toolPairs.filter((p) => p.renamedBy !== undefined);
    const renamedFrom = new Map(renamed.map((p) => [p.head, p.base]));
    for (const rule of active) {
      if (rule.compare && b && h) {
        for (const pair of toolPairs) {
          // A duplicate's findings say which definition of the base it was compared with.
          const also = pair.duplicate
            ? ` (a second tool named ${quote(pair.head.view.name, QUOTED_NAME_MAX)} that the base did not have, compared with the base's tool of that name at ${pair.base.view.pointer})`
            : '';
          rule.compare({
            pair,
            report: (r) => push(rule, { input: h, tool: pair.head, inInput: true }, { input: b, tool: pair.base }, also ? { ...r, message: r.message + also } : r),
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
          const baseTool = r.tool && !inHead ? r.tool : r.tool ? renamedFrom.get(r.tool) : undefined;
          push(rule, { input, tool: r.tool, inInput: r.tool?.server === input }, b ? { input: b, tool: baseTool } : undefined, r);
        },
      });
    }
  };

  // With pairedOnly, the report lists only the servers that were compared.
  const baseOf = new Map(pairs.map(([b, h]) => [h, b]));
  for (const h of head) {
    if (stopped) break;
    const b = baseOf.get(h);
    if (!b && opts.pairedOnly) continue;
    limit.clear();
    compareServers(b, h);
    summary(h);
  }
  for (const b of opts.pairedOnly ? [] : baseOnly) {
    if (stopped) break;
    limit.clear();
    compareServers(b, undefined);
    summary(b);
  }
  limit.finish();
  const located = locateWanted(wanted);
  // Every placeholder of a finding's texts written out: the number as the snapshot wrote it.
  const byId = new Map([...base, ...head].map((s) => [s.id, s]));
  for (const f of findings) {
    if (quotesNumbers(f)) writeNumbers(f, located.get(f), f.related?.map((r) => located.get(r)), undefined, byId);
  }
  return { findings: sortFindings(findings, summaries), servers: summaries, stopped };
}
