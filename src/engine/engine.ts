/**
 * The engine: resolves which packs and rules run at which severity, lets each pack
 * analyse each tool once (claims + schema problems), runs the rules over those, and
 * returns findings with positions, sorted deterministically.
 */
import { PACKS } from '../packs/index.js';
import type { Pack, PackEnv, SchemaProblem, ToolView } from '../packs/types.js';
import { validateEnvelope } from '../packs/core.js';
import type { ReportInput, Rule, RunContext, ServerContext, ServerRef, SessionCall, SessionContext, ToolContext } from '../rule.js';
import {
  LATEST_SPEC,
  PACK_IDS,
  SEVERITY_RANK,
  SPEC_VERSIONS,
  type Finding,
  type Fix,
  type Located,
  type Locator,
  type PackId,
  type RelatedLocation,
  type RepeatedKey,
  type ServerInput,
  type Session,
  type SessionStep,
  type Severity,
  type SeveritySetting,
  type SpecVersion,
} from '../types.js';
import { isObject } from '../util/json.js';
import { contentPointer, fieldPath, get, relative, within } from '../util/pointer.js';
import { quote } from '../util/text.js';
import { deferNumbers, hasPlaceholder, MAX_SCANNED, numberLiterals, resolveWritten, writtenFrom } from '../util/written.js';
import { quotedBoolean } from '../packs/vocabulary.js';
import { typeName } from '../schema/explain.js';
import { ClaimSet, type Claim } from './claims.js';
import { MAX_PER_TOOL, PerToolLimit } from './limit.js';
import { unwritableNumberIn } from './fixes.js';

export type RuleSetting = SeveritySetting | [SeveritySetting] | [SeveritySetting, Record<string, unknown>];

export interface EngineOptions {
  /** The spec version asked for with --spec; otherwise each server's recorded version, or the latest. */
  spec?: SpecVersion;
  packs?: Iterable<PackId>;
  rules?: Record<string, RuleSetting>;
  /**
   * Levels a preset raises each rule's findings by, its lower-severity cases included (see
   * presetRaise); a rule whose severity an override sets follows the override instead.
   */
  raise?: Record<string, number>;
  /** Per server and tool rule settings (config overrides), applied after `rules`. */
  overrides?: (server: string, tool: string | undefined) => Record<string, RuleSetting> | undefined;
  /** Measure the time each pack and rule takes (MCP_ANNOTATE_TIMING=1). */
  timing?: boolean;
  /** Stop once this many findings are kept (default MAX_FINDINGS). */
  maxFindings?: number;
  /** List at most this many findings of one rule for one tool (or about one server); one note counts the rest (default MAX_PER_TOOL; 0: no limit). */
  maxPerTool?: number;
}

/**
 * The most findings one run keeps. A 100,000-tool registry dump gives about 140,000, and
 * the largest document read (512 MiB) holds no more than about half a million real tools.
 * But empty tools (`[{}, {}, …]`) give five findings each for three bytes: unbounded, a 6 MB
 * file filled a 4 GB heap and crashed the process. A million findings take about 1 GB.
 * Past the limit the run stops and says so (see LintResult.stopped).
 */
export const MAX_FINDINGS = 1_000_000;

export interface ServerSummary {
  id: string;
  name: string;
  origin: ServerInput['origin'];
  tools: number;
  spec: SpecVersion;
}

export interface LintResult {
  findings: Finding[];
  servers: ServerSummary[];
  /** Milliseconds per pack ("pack:<id>") and rule, when asked for. */
  timing?: Map<string, number>;
  /**
   * Set when the run reached maxFindings: the server it stopped in; `at` the tool it stopped
   * at (none: the server's or the run's checks across tools went past the limit, and their
   * findings past it were left out); how many servers after it were not linted;
   * `acrossServers` when it stopped in the checks across servers (after every server's own).
   */
  stopped?: { serverId: string; server: string; display: string; limit: number; at?: { toolIndex: number; tools: number }; serversAfter: number; acrossServers?: true };
}

interface Resolved {
  severity: Severity;
  options: Record<string, unknown>;
  /**
   * Levels every finding of the rule moves from what the rule reports: the configured severity's
   * distance from the rule's default, so a documented lower-severity case keeps its distance
   * below the rule's main case (or a preset's raise).
   */
  shift: number;
}

/** A protocol version as MCP writes them, a date: YYYY-MM-DD. */
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * The spec version whose schema applies to a recorded protocol version. `exact` when it is a
 * version mcp-annotate knows (then the tools/list envelope is checked too). Otherwise `chosen`
 * says why this one: an unknown date gets the newest known version not after it (or the
 * oldest), and only dates are compared — anything else ("garbage", "v2") gets the latest.
 * No recorded version at all is the latest, with nothing to say. `defaulted` when the latest
 * was taken for want of a version (none recorded, or one that is no date).
 */
export function specFor(protocolVersion: string | undefined): { spec: SpecVersion; exact: boolean; chosen?: string; defaulted?: true } {
  if (!protocolVersion) return { spec: LATEST_SPEC, exact: false, defaulted: true };
  if ((SPEC_VERSIONS as readonly string[]).includes(protocolVersion)) return { spec: protocolVersion as SpecVersion, exact: true };
  if (!DATE.test(protocolVersion))
    return { spec: LATEST_SPEC, exact: false, defaulted: true, chosen: `which is not a date (YYYY-MM-DD) as MCP's versions are, so it was linted against spec ${LATEST_SPEC}, the latest` };
  const older = SPEC_VERSIONS.filter((v) => v < protocolVersion);
  const spec = older[older.length - 1];
  if (spec === undefined) return { spec: SPEC_VERSIONS[0], exact: false, chosen: `older than every spec version mcp-annotate knows, so it was linted against spec ${SPEC_VERSIONS[0]}, the oldest` };
  return {
    spec,
    exact: false,
    chosen: `${spec === LATEST_SPEC ? 'newer than every spec version mcp-annotate knows' : 'not a spec version mcp-annotate knows'}, so it was linted against spec ${spec}, the newest before it`,
  };
}

/**
 * One line per server whose recorded protocol version mcp-annotate does not know: which spec
 * version was used instead, and that its tools/list envelope was not checked (said on stderr;
 * nothing to say when --spec chose the version).
 */
export function specNotes(servers: readonly ServerInput[], spec: SpecVersion | undefined): string[] {
  if (spec !== undefined) return [];
  const out: string[] = [];
  for (const s of servers) {
    let { chosen } = specFor(s.protocolVersion);
    let recorded = quote(s.protocolVersion, 40);
    // 2025, "", null, {…}: not a version at all, so the latest applies, as for "v2".
    if (s.protocolVersion === undefined && s.protocolVersionInvalid !== undefined) {
      recorded = s.protocolVersionInvalid.length > 40 ? `${s.protocolVersionInvalid.slice(0, 39)}…` : s.protocolVersionInvalid;
      chosen = `which is ${s.protocolVersionInvalid === '""' ? 'empty' : 'not a string'} (MCP's versions are YYYY-MM-DD dates), so it was linted against spec ${LATEST_SPEC}, the latest`;
    }
    if (!chosen) continue;
    const where = s.origin.display === s.name ? quote(s.name) : `${quote(s.name)} (${s.origin.display})`;
    out.push(
      `server ${where} records protocol version ${recorded}, ${chosen}` +
        (s.envelopes.length ? `; the tools/list envelope around its tools was not checked` : '') +
        ` (--spec <version> chooses the version${s.envelopes.length ? ' and checks the envelope against it' : ''})`,
    );
  }
  return out;
}

function splitSetting(setting: RuleSetting | undefined): { severity?: SeveritySetting; options?: Record<string, unknown> } {
  if (setting === undefined) return {};
  if (Array.isArray(setting)) return { severity: setting[0], options: setting[1] };
  return { severity: setting };
}

function resolveRule(rule: Rule, raise: number | undefined, ...settings: (RuleSetting | undefined)[]): Resolved | undefined {
  let severity: SeveritySetting = rule.severity;
  let shift: number | undefined = raise;
  for (let i = 0; i < settings.length; i++) {
    const sev = splitSetting(settings[i]).severity;
    if (sev) {
      // The preset's raise goes with the preset's own setting (the first); an override's
      // severity replaces it, unless it restates that severity.
      if (i > 0 && sev !== severity) shift = undefined;
      severity = sev;
    }
  }
  if (severity === 'off') return undefined;
  return { severity, options: resolveOptions(rule, ...settings), shift: shift ?? SEVERITY_RANK[severity] - SEVERITY_RANK[rule.severity] };
}

/** A rule's options from its settings, whatever their severity: the defaults, then each setting's options over the previous. */
function resolveOptions(rule: Rule, ...settings: (RuleSetting | undefined)[]): Record<string, unknown> {
  let options: Record<string, unknown> = { ...(rule.options?.defaults ?? {}) };
  for (const s of settings) {
    const opts = splitSetting(s).options;
    if (opts) options = { ...options, ...opts };
  }
  return options;
}

export function toolView(value: unknown, pointer: string, index: number): ToolView {
  const obj = isObject(value) ? value : undefined;
  const hasName = typeof obj?.name === 'string' && obj.name !== '';
  return {
    value,
    obj,
    pointer,
    index,
    name: hasName ? (obj!.name as string) : `#${index}`,
    hasName,
    annotations: obj && isObject(obj.annotations) ? obj.annotations : undefined,
    meta: obj && isObject(obj._meta) ? obj._meta : undefined,
  };
}

const DEFAULT_SETTING: Resolved = { severity: 'error', options: {}, shift: 0 };
const NO_PROBLEMS: readonly SchemaProblem[] = [];
const NO_CLAIMS = new ClaimSet([]);

const BY_RANK: readonly Severity[] = ['note', 'note', 'warning', 'error'];

/** A finding's severity: what the rule reported (its default unless a lower case), moved by the setting's shift. */
function findingSeverity(rule: Rule, resolved: Resolved, reported: Severity | undefined, informational: boolean | undefined): Severity {
  if (informational) return 'note';
  const rank = SEVERITY_RANK[reported ?? rule.severity] + resolved.shift;
  return BY_RANK[Math.max(1, Math.min(3, rank))]!;
}

/**
 * A server context whose repeatedKeys are read from the source text when a rule first asks
 * (duplicate-key): the scan costs nothing when the rule is off. Not enumerable, so spreading
 * the context does not scan; each context made from it gets the getter again.
 */
function withRepeatedKeys(ctx: Omit<ServerContext<Record<string, unknown>>, 'repeatedKeys'>, input: ServerInput): ServerContext<Record<string, unknown>> {
  let keys: readonly RepeatedKey[] | undefined;
  return Object.defineProperty(ctx, 'repeatedKeys', { get: () => (keys ??= input.repeatedKeys?.() ?? []), enumerable: false, configurable: true }) as ServerContext<Record<string, unknown>>;
}

export function lint(inputs: readonly ServerInput[], rules: readonly Rule[], opts: EngineOptions = {}): LintResult {
  // Numbers quoted while the packs and rules run are placeholders, resolved to the numbers as
  // written once the findings are located (src/util/written.ts).
  return deferNumbers(() => lintDeferred(inputs, rules, opts));
}

function lintDeferred(inputs: readonly ServerInput[], rules: readonly Rule[], opts: EngineOptions): LintResult {
  const packs = new Set<PackId>(['core', ...(opts.packs ?? PACK_IDS)]);
  const activePacks = PACKS.filter((p) => packs.has(p.id));
  const ruleRuns = (r: Rule) => r.packs.length === 0 || r.packs.some((p) => packs.has(p));
  const active = rules
    .filter(ruleRuns)
    .map((rule) => ({ rule, resolved: resolveRule(rule, opts.raise?.[rule.id], opts.rules?.[rule.id]) }))
    .filter((r) => r.resolved || opts.overrides);

  // Rules that reason across tools keep what they need of each tool (collect()); then a
  // tool's claims can go as soon as its own checks are done.
  const collectors = active
    .filter((a) => a.rule.collect && (a.rule.checkServer || a.rule.checkRun))
    .map((a) => ({ rule: a.rule, options: resolveOptions(a.rule, opts.rules?.[a.rule.id]), kept: new Map<ToolContext<Record<string, unknown>>, unknown>() }));
  const keptBy = new Map(collectors.map((c) => [c.rule, c.kept]));

  /**
   * A rule's options for a server (tool undefined) or one of its tools: the config's, then the
   * overrides' that match, whatever the severity (a tool the rule is off for may still play a
   * part in a check across tools). `base`: the options without overrides.
   */
  const optionsFor = (rule: Rule, base: Record<string, unknown>, server: string, tool: string | undefined): Record<string, unknown> => {
    const o = opts.overrides?.(server, tool)?.[rule.id];
    return o === undefined ? base : resolveOptions(rule, opts.rules?.[rule.id], o);
  };

  /**
   * Runs a rule's server or run check with what its collect() kept set as `collected` on
   * each tool, and (for a rule with options) each server's and tool's own options as their
   * `options` (in place, and cleared after: no copy of every tool context per rule).
   */
  const withCollected = <T>(rule: Rule, servers: readonly ServerContext<Record<string, unknown>>[], fn: () => T): T => {
    const kept = keptBy.get(rule);
    const own = rule.options !== undefined;
    if (!kept && !own) return fn();
    const base = resolveOptions(rule, opts.rules?.[rule.id]);
    for (const s of servers) {
      if (own) s.options = optionsFor(rule, base, s.server.name, undefined);
      for (const t of s.tools) {
        if (kept) t.collected = kept.get(t);
        if (own) t.options = optionsFor(rule, base, s.server.name, t.tool.name);
      }
    }
    try {
      return fn();
    } finally {
      for (const s of servers) {
        if (own) s.options = {};
        for (const t of s.tools) {
          t.collected = undefined;
          if (own) t.options = {};
        }
      }
    }
  };

  // Rules with a per-tool check, with their default setting and a reusable "running" record.
  const toolRules = active
    .filter((a) => a.rule.check)
    .map((a) => ({ rule: a.rule, resolved: a.resolved, running: { rule: a.rule, setting: a.resolved ?? DEFAULT_SETTING } }));
  const toolRuleById = new Map(toolRules.map((e) => [e.rule.id, e]));

  const servers = [...inputs].sort((a, b) => (a.origin.display < b.origin.display ? -1 : a.origin.display > b.origin.display ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const findings: Finding[] = [];
  const timing = opts.timing ? new Map<string, number>() : undefined;
  const timed = <T>(key: string, fn: () => T): T => {
    if (!timing) return fn();
    const start = performance.now();
    try {
      return fn();
    } finally {
      timing.set(key, (timing.get(key) ?? 0) + performance.now() - start);
    }
  };
  const serverContexts: ServerContext<Record<string, unknown>>[] = [];
  const summaries: ServerSummary[] = [];
  const toolByServer = new Map<string, ToolView[]>();

  /** Severity and options of a rule for one tool (overrides by server and tool name). */
  const settingFor = (rule: Rule, base: Resolved | undefined, server: string, tool: string | undefined): Resolved | undefined => {
    const o = opts.overrides?.(server, tool)?.[rule.id];
    if (o === undefined) return base;
    return resolveRule(rule, opts.raise?.[rule.id], opts.rules?.[rule.id], o);
  };

  /** The rule's setting for a server, or else for the first of its tools it is on for (overrides may turn it on for some tools only). */
  const onSomewhere = (rule: Rule, base: Resolved | undefined, server: string, tools: readonly ToolView[]): Resolved | undefined => {
    const own = settingFor(rule, base, server, undefined);
    if (own || !opts.overrides) return own;
    for (const t of tools) {
      const s = settingFor(rule, base, server, t.name);
      if (s) return s;
    }
    return undefined;
  };

  const maxFindings = opts.maxFindings ?? MAX_FINDINGS;
  let stopped: LintResult['stopped'];
  /** The index in `servers` of the server being linted (the last one in the run's checks). */
  let serverIndex = 0;
  /** While its tools are checked one by one: how many tools the server has. */
  let toolCount: number | undefined;
  /** In the checks across servers, after every server's own. */
  let acrossServers = false;
  const stop = (input: ServerInput, at?: { toolIndex: number; tools: number }) => {
    stopped ??= {
      serverId: input.id,
      server: input.name,
      display: input.origin.display,
      limit: maxFindings,
      at,
      serversAfter: servers.length - 1 - serverIndex,
      ...(acrossServers ? { acrossServers: true as const } : {}),
    };
  };
  const serverNames = new Map(servers.map((s) => [s.id, s.name]));
  const serverRoots = new Map(servers.map((s) => [s.id, s.root]));
  const serverEntries = new Map(servers.filter((s) => s.entries?.length).map((s) => [s.id, s.entries!]));
  /**
   * What a server-level finding's pointer is keyed relative to: the server's part of the
   * document (ServerInput.root), or in a session transcript the entry of the message it points
   * into (ServerInput.entries); else nothing (absolute).
   */
  const serverBase = (id: string, pointer: string): string => {
    const root = serverRoots.get(id);
    if (root !== undefined) return root;
    const entries = serverEntries.get(id);
    return entries?.find((e) => within(e, pointer)) ?? '';
  };
  /** The tool a finding is about: a tool of the server, or the tool a session's call names (index: its place in the server's tools, when it is one). */
  type FindingTool = IdentityTool & { name: string; index?: number };
  const limit = new PerToolLimit(opts.maxPerTool ?? MAX_PER_TOOL);
  const push = (rule: Rule, resolved: Resolved, server: ServerRef, tool: FindingTool | undefined, input: ReportInput) => {
    const listed = limit.admit(rule.id, server.id, tool?.pointer, () => {
      // One note of the rule, at the tool (or where the first finding not listed is), counts the rest.
      const at = findings.length;
      make(rule, resolved, server, tool, { pointer: tool?.pointer ?? input.pointer, severity: 'note', message: '', suggestion: 'fix the findings listed and run again (MCP_ANNOTATE_MAX_PER_TOOL=0 lists them all)' });
      return findings[at];
    });
    if (listed) make(rule, resolved, server, tool, input);
  };
  const make = (rule: Rule, resolved: Resolved, server: ServerRef, tool: FindingTool | undefined, input: ReportInput) => {
    if (findings.length >= maxFindings) {
      if (!stopped) stop(servers.find((s) => s.id === server.id) ?? servers[serverIndex]!, tool && toolCount !== undefined ? { toolIndex: tool.index ?? 0, tools: toolCount } : undefined);
      return;
    }
    const base = tool?.pointer ?? '';
    const toolPointer = relative(tool ? base : serverBase(server.id, input.pointer), input.pointer);
    const keyPointer = tool ? identityOf(tool, input, toolPointer) : undefined;
    const lost = tool && input.fix ? lostNumber(input.fix, tool) : undefined;
    const finding: Finding = {
      ruleId: rule.id,
      severity: findingSeverity(rule, resolved, input.severity, input.informational),
      message: input.message,
      suggestion: lost
        ? `${input.suggestion ? `${input.suggestion} ` : ''}(no mechanical fix: ${lost.field} holds ${quote(lost.value)}, which the fix's JSON would not write back as it is; edit it by hand)`
        : input.suggestion,
      serverId: server.id,
      server: server.name,
      tool: tool?.name,
      toolIndex: tool?.index,
      pointer: input.pointer,
      toolPointer,
      related: input.related?.map((r): RelatedLocation => {
        const sameServer = r.serverId === undefined || r.serverId === server.id;
        return {
          message: r.message,
          pointer: r.pointer,
          ...(r.occurrence !== undefined ? { occurrence: r.occurrence } : {}),
          serverId: sameServer ? server.id : r.serverId!,
          server: sameServer ? server.name : (serverNames.get(r.serverId!) ?? server.name),
          // A place inside the finding's own tool is that tool's, unless the rule names another.
          tool: r.tool?.name ?? (sameServer && tool && within(tool.pointer, r.pointer) ? tool.name : undefined),
        };
      }),
      fix: lost ? undefined : input.fix,
      detail: input.detail,
      ...(input.informational ? { informational: true as const } : {}),
    };
    // Only the few findings whose identity is not their place carry it (no field for the rest).
    if (keyPointer !== undefined) finding.keyPointer = keyPointer;
    findings.push(finding);
  };

  for (const [index, input] of servers.entries()) {
    if (stopped) break;
    serverIndex = index;
    const { spec: recorded, exact, defaulted } = specFor(input.protocolVersion);
    const spec = opts.spec ?? recorded;
    const specSource: ToolContext['specSource'] = opts.spec !== undefined ? 'given' : defaulted ? 'default' : 'recorded';
    const env: PackEnv = { spec, packs };
    const server: ServerRef = { id: input.id, name: input.name };
    const views = input.tools.map((t, i) => toolView(t.value, t.pointer, i));
    toolByServer.set(server.id, views);
    const toolContexts: ToolContext<Record<string, unknown>>[] = [];

    // Hot loop (tools × rules): no allocation per rule call. One report function per
    // tool reads the rule that is running from `current`.
    let current: { rule: Rule; setting: Resolved } = { rule: toolRules[0]?.rule as Rule, setting: DEFAULT_SETTING };
    toolCount = views.length;
    for (const view of views) {
      if (findings.length >= maxFindings) {
        stop(input, { toolIndex: view.index, tools: views.length });
        break;
      }
      limit.clear();
      const claims: Claim[] = [];
      const problems: SchemaProblem[] = [];
      for (const pack of activePacks) {
        const r = timing ? timed(`pack:${pack.id}`, () => pack.analyse(view, env)) : pack.analyse(view, env);
        for (const c of r.claims) claims.push(c);
        for (const p of r.problems) problems.push(p);
      }
      const ctx: ToolContext<Record<string, unknown>> = {
        tool: view,
        server,
        claims: new ClaimSet(claims),
        problems,
        spec,
        specSource,
        packs,
        options: {},
        at: (rel) => view.pointer + rel,
        runs: (id) => {
          const e = toolRuleById.get(id);
          return e !== undefined && (opts.overrides ? settingFor(e.rule, e.resolved, server.name, view.name) : e.resolved) !== undefined;
        },
        collected: undefined,
        report: (f) => push(current.rule, current.setting, server, view, f),
      };
      toolContexts.push(ctx);
      for (const entry of toolRules) {
        const setting = opts.overrides ? settingFor(entry.rule, entry.resolved, server.name, view.name) : entry.resolved;
        if (!setting) continue;
        entry.running.setting = setting;
        current = entry.running;
        ctx.options = setting.options;
        if (timing) timed(entry.rule.id, () => entry.rule.check!(ctx));
        else entry.rule.check!(ctx);
      }
      for (const c of collectors) {
        // The tool's own options (an override's for this server or tool over the config's).
        ctx.options = opts.overrides ? optionsFor(c.rule, c.options, server.name, view.name) : c.options;
        const kept = timing ? timed(c.rule.id, () => c.rule.collect!(ctx)) : c.rule.collect!(ctx);
        if (kept !== undefined) c.kept.set(ctx, kept);
      }
      // Server and run checks see the tool, not its schema problems or claims.
      ctx.problems = NO_PROBLEMS;
      ctx.claims = NO_CLAIMS;
      ctx.options = {};
    }
    toolCount = undefined;
    if (stopped) {
      summaries.push({ id: input.id, name: input.name, origin: input.origin, tools: views.length, spec });
      break;
    }

    const envelopes = opts.spec !== undefined || exact ? input.envelopes : [];
    const envelopeProblems = envelopes.flatMap((e) => validateEnvelope(e.value, e.pointer, spec));
    const serverCtx = withRepeatedKeys(
      {
        server,
        tools: toolContexts,
        envelopeProblems,
        envelopes,
        toolsPointer: input.toolsPointer,
        ...(input.unlisted ? { unlisted: true as const } : {}),
        spec,
        specSource,
        packs,
        options: {},
        report: () => undefined,
      },
      input,
    );
    serverContexts.push(serverCtx);
    limit.clear();
    for (const { rule, resolved } of active) {
      if (!rule.checkServer) continue;
      const setting = onSomewhere(rule, resolved, server.name, views);
      if (!setting) continue;
      // Each finding takes the setting of its tool (or of the server): none where an override turns the rule off.
      const ruleCtx = withRepeatedKeys(
        {
          ...serverCtx,
          options: setting.options,
          report: (f: Parameters<ServerContext['report']>[0]) => {
            let s = settingFor(rule, resolved, server.name, f.tool?.name);
            // About the server, for some of its tools: on where the rule is on for one of them.
            if (!s && !f.tool && f.coveredTools) for (const t of f.coveredTools) if ((s = settingFor(rule, resolved, server.name, t))) break;
            if (s) push(rule, s, server, f.tool, f);
          },
        },
        input,
      );
      timed(rule.id, () => withCollected(rule, [ruleCtx], () => rule.checkServer!(ruleCtx)));
    }
    summaries.push({ id: input.id, name: input.name, origin: input.origin, tools: views.length, spec });
  }

  acrossServers = true;
  limit.clear();
  // Session transcripts: each is checked once, its calls and resolves in order. A run of
  // tools/list dumps has none, and pays nothing here.
  const sessions = new Set<Session>();
  for (const s of servers) if (s.session) sessions.add(s.session);
  const sessionRules = sessions.size ? active.filter((a) => a.rule.checkSession) : [];
  for (const session of sessions) {
    if (stopped || sessionRules.length === 0) break;
    const { calls, stepOf } = timed('(session)', () => sessionCalls(session, servers, activePacks, opts.spec, packs));
    for (const { rule, resolved } of sessionRules) {
      if (stopped) break;
      const setting = resolved ?? servers.map((s) => onSomewhere(rule, resolved, s.name, toolByServer.get(s.id) ?? [])).find((x) => x !== undefined);
      if (!setting) continue;
      const ctx: SessionContext<Record<string, unknown>> = {
        calls,
        packs,
        options: setting.options,
        report: (f) => {
          const { call, ...finding } = f;
          const step = stepOf.get(call)!;
          const s = settingFor(rule, resolved, call.server.name, call.tool);
          if (!s) return;
          // Keyed within the message's entry (a baseline survives messages added before it).
          const base = within(step.requestEntry, f.pointer) ? step.requestEntry : step.responseEntry !== undefined && within(step.responseEntry, f.pointer) ? step.responseEntry : '';
          const own = byIdInput(servers, call.server.id);
          const index = step.declared && own?.tools[step.declared.index]?.pointer === step.declared.pointer ? step.declared.index : undefined;
          // The identity names the members of a set in the request's params or the result by their values, as in a tool.
          const inParams = call.params !== undefined && within(`${step.request}/params`, f.pointer);
          const inResult = !inParams && call.result !== undefined && step.response !== undefined && within(`${step.response}/result`, f.pointer);
          const value = inParams ? { value: call.params, valueAt: `${step.request}/params` } : inResult ? { value: call.result, valueAt: `${step.response}/result` } : {};
          push(rule, s, call.server, { name: call.tool, pointer: base, index, ...value }, finding);
        },
      };
      timed(rule.id, () => rule.checkSession!(ctx));
    }
  }

  limit.clear();
  for (const { rule, resolved } of active) {
    if (!rule.checkRun || stopped) continue;
    // Off globally, a rule still runs when an override turns it on for some server or tool.
    const setting = resolved ?? servers.map((s) => onSomewhere(rule, resolved, s.name, toolByServer.get(s.id) ?? [])).find((x) => x !== undefined);
    if (!setting) continue;
    const ctx: RunContext<Record<string, unknown>> = {
      servers: serverContexts,
      options: setting.options,
      report: (f) => {
        const setting = settingFor(rule, resolved, f.server.name, f.tool?.name);
        if (setting) push(rule, setting, f.server, f.tool, f);
      },
    };
    timed(rule.id, () => withCollected(rule, serverContexts, () => rule.checkRun!(ctx)));
  }

  limit.finish();
  timed('(locate findings)', () => locateFindings(findings, servers));
  const sorted = timed('(sort findings)', () => sortFindings(findings, servers));
  return { findings: sorted, servers: summaries, timing, stopped };
}

/** Where a finding's tool is, and the value its identity is read from (the tool; a call's params or result). */
/**
 * A number a fix would change without meaning to: one inside a value the fix rewrites whole that
 * its JSON cannot write back (unwritableNumberIn), with the field that holds the value.
 */
function lostNumber(fix: Fix, tool: IdentityTool): { value: number; field: string } | undefined {
  const base = tool.valueAt ?? tool.pointer;
  for (const r of fix.replacements) {
    if (!within(base, r.pointer)) continue;
    const rel = relative(base, r.pointer);
    const value = unwritableNumberIn(get(tool.value, rel));
    if (value !== undefined) return { value, field: fieldPath(rel) };
  }
  return undefined;
}

interface IdentityTool {
  pointer: string;
  /** The value at `valueAt` (the tool's, when valueAt is absent). */
  value?: unknown;
  valueAt?: string;
}

/**
 * The finding's identity pointer (Finding.keyPointer), when it is not its toolPointer: the
 * rule's keyPointer, and the indexes of array items that are strings, numbers, booleans or null
 * replaced by their values (contentPointer). Most findings have no index in their pointer: for
 * them this is one scan of the toolPointer.
 */
function identityOf(tool: IdentityTool, input: ReportInput, toolPointer: string): string | undefined {
  const at = input.keyPointer ?? input.pointer;
  const root = tool.valueAt ?? tool.pointer;
  if (tool.value !== undefined && within(root, at)) {
    const inner = input.keyPointer === undefined && tool.valueAt === undefined ? toolPointer : at.slice(root.length);
    const named = contentPointer(tool.value, inner);
    if (named !== undefined) return (tool.valueAt === undefined ? '' : relative(tool.pointer, root)) + named;
  }
  if (input.keyPointer === undefined) return undefined;
  const rel = relative(tool.pointer, at);
  return rel === toolPointer ? undefined : rel;
}

function byIdInput(servers: readonly ServerInput[], id: string): ServerInput | undefined {
  return servers.find((s) => s.id === id);
}

const NO_CLAIMS_SET = new ClaimSet([]);

/** What the active packs read in a tool (or an annotations object shaped as one). */
function claimsOf(view: ToolView, packs: readonly Pack[], env: PackEnv): ClaimSet {
  const claims: Claim[] = [];
  for (const pack of packs) for (const c of pack.analyse(view, env).claims) claims.push(c);
  return new ClaimSet(claims);
}

/** An annotations object (a request's or a result's _meta.annotations) as the packs read a tool's: at `${base}/annotations`. */
function annotationsView(annotations: unknown, base: string): ToolView | undefined {
  if (!isObject(annotations)) return undefined;
  return toolView({ annotations }, base, -1);
}

/** The boolean hints of a result's or a resolve's annotations outside SEP-1913, with the pack of each. */
const RESULT_HINTS: readonly { key: string; pack: PackId }[] = [
  { key: 'readOnlyHint', pack: 'core' },
  { key: 'destructiveHint', pack: 'core' },
  { key: 'idempotentHint', pack: 'core' },
  { key: 'openWorldHint', pack: 'core' },
  { key: 'sensitiveHint', pack: 'webmcp-sensitive' },
];

/**
 * A boolean hint of a result's or a resolve's annotations that is not a boolean (openWorldHint
 * "true", readOnlyHint 0): no claim reads it, so the session rules note it (SEP-1913's own
 * maliciousActivityHint is the sep-1913 pack's). Only for the active packs.
 */
function hintTypeProblems(view: ToolView, packs: readonly Pack[]): SchemaProblem[] {
  const a = view.annotations;
  if (!a) return [];
  const out: SchemaProblem[] = [];
  for (const { key, pack } of RESULT_HINTS) {
    if (!Object.hasOwn(a, key) || typeof a[key] === 'boolean' || !packs.some((p) => p.id === pack)) continue;
    const v = a[key];
    const quoted = quotedBoolean(v);
    out.push({
      pack,
      pointer: `${view.pointer}/annotations/${key}`,
      kind: 'invalid',
      message: `annotations.${key} must be a boolean, got ${typeName(v)}${typeof v === 'object' && v !== null ? '' : ` (${quote(v)})`}`,
      suggestion: quoted === undefined ? 'make it a boolean' : `write ${quoted} without quotes`,
    });
  }
  return out;
}

/** A session's steps as the calls its rules see, with the packs' claims of each side and of the declaration. */
function sessionCalls(
  session: Session,
  servers: readonly ServerInput[],
  packs: readonly Pack[],
  spec: SpecVersion | undefined,
  enabled: ReadonlySet<PackId>,
): { calls: SessionCall[]; stepOf: Map<SessionCall, SessionStep> } {
  const byId = new Map(servers.map((s) => [s.id, s]));
  const declaredClaims = new Map<string, ClaimSet>();
  const stepOf = new Map<SessionCall, SessionStep>();
  const calls: SessionCall[] = [];
  for (const step of session.steps) {
    const input = byId.get(step.serverId);
    if (!input) continue;
    const env: PackEnv = { spec: spec ?? specFor(input.protocolVersion).spec, packs: enabled };
    const read = (view: ToolView | undefined) => (view ? claimsOf(view, packs, env) : NO_CLAIMS_SET);
    const meta = (o: Record<string, unknown> | undefined) => (o && isObject(o._meta) ? o._meta.annotations : undefined);
    let declared: SessionCall['declared'];
    if (step.declared) {
      const tool = toolView(step.declared.value, step.declared.pointer, step.declared.index);
      let claims = declaredClaims.get(step.declared.pointer);
      if (!claims) declaredClaims.set(step.declared.pointer, (claims = read(tool)));
      declared = { tool, claims };
    }
    const result = step.result;
    const resultView =
      result === undefined || step.response === undefined
        ? undefined
        : step.kind === 'call'
          ? annotationsView(meta(result), `${step.response}/result/_meta`)
          : isObject(result.tool)
            ? toolView(result.tool, `${step.response}/result/tool`, -1)
            : undefined;
    // A call result's own _meta, for the vocabularies that live there (the trust-annotations and
    // action-metadata extensions, the _meta hints): `_meta.annotations` is SEP-1913's, read above.
    const resultMetaView =
      step.kind === 'call' && result !== undefined && step.response !== undefined && isObject(result._meta) ? toolView({ _meta: result._meta }, `${step.response}/result`, -1) : undefined;
    // What SEP-1913's schema says of the result's annotations: a value of the wrong type, or one
    // no enum knows, is left out of the claims; the session rules say so rather than nothing.
    // (Required members are a declaration's business: a result gives what applies to it.)
    const resultProblems: SchemaProblem[] = [];
    let resultClaims = NO_CLAIMS_SET;
    if (resultView || resultMetaView) {
      const claims: Claim[] = [];
      // A call result's _meta.annotations is SEP-1913's own place: every key there is SEP-1913's.
      // A resolve's result is a whole Tool, read as its tools/list declaration is (a key of the
      // server's own, attribution "Data by Acme Corp", is a collision there too, not compared).
      // But a resolve of a tool whose declaration speaks SEP-1913 (maliciousActivityHint false) is
      // read in its terms: a "yes" there is no key of the server's own, it is the hint gone wrong.
      const speaksSep1913 = declared !== undefined && declared.claims.list.some((c) => c.pack === 'sep-1913');
      const resultEnv: PackEnv = step.kind === 'call' || speaksSep1913 ? { ...env, result: true } : env;
      for (const pack of packs) {
        if (resultView) {
          const r = pack.analyse(resultView, resultEnv);
          for (const c of r.claims) claims.push(c);
          if (pack.id === 'sep-1913') for (const p of r.problems) if (p.kind !== 'collision' && !/ is missing the required member /.test(p.message)) resultProblems.push(p);
        }
        if (resultMetaView && pack.metaKeys.length > 0) for (const c of pack.analyse(resultMetaView, env).claims) claims.push(c);
      }
      resultClaims = new ClaimSet(claims);
      if (resultView) resultProblems.push(...hintTypeProblems(resultView, packs));
    }
    const name = step.params?.name;
    const call: SessionCall = {
      kind: step.kind,
      server: { id: input.id, name: input.name },
      serverUrl: session.urls.get(input.id),
      tool: typeof name === 'string' && name !== '' ? name : '#?',
      requestAt: step.requestAt,
      responseAt: step.responseAt,
      request: step.request,
      response: step.response,
      params: step.params,
      result,
      requestClaims: read(annotationsView(meta(step.params), `${step.request}/params/_meta`)),
      resultClaims,
      resultProblems,
      declared,
      listed: step.listed,
      ...(step.withdrawn ? { withdrawn: step.withdrawn } : {}),
      ...(step.incomplete ? { incomplete: step.incomplete } : {}),
      ...(step.stray ? { stray: step.stray } : {}),
      ...(step.midway ? { midway: step.midway } : {}),
      ...(step.ambiguous ? { ambiguous: step.ambiguous } : {}),
      ...(step.cancelled ? { cancelled: step.cancelled } : {}),
    };
    stepOf.set(call, step);
    calls.push(call);
  }
  return { calls, stepOf };
}

function locateFindings(findings: Finding[], servers: readonly ServerInput[]): void {
  const byId = new Map(servers.map((s) => [s.id, s]));
  // Every pointer a finding needs, per document, in the order the loop below visits them.
  // The servers of one document ({"servers": [...]}) share its locator: one pass over the
  // text for all of them (a pass per server made 4,000 servers in one file take seconds).
  const documentOf = (serverId: string): unknown => byId.get(serverId)?.locator ?? serverId;
  const wanted = new Map<unknown, { pointers: string[]; occurrences?: (number | undefined)[] }>();
  const want = (serverId: string, pointer: string, occurrence?: number) => {
    const doc = documentOf(serverId);
    let list = wanted.get(doc);
    if (!list) wanted.set(doc, (list = { pointers: [] }));
    // Which copy of a member given more than once: only lists that ask for one carry them.
    if (occurrence !== undefined) (list.occurrences ??= [])[list.pointers.length] = occurrence;
    list.pointers.push(pointer);
  };
  for (const f of findings) {
    want(f.serverId, f.pointer);
    for (const r of f.related ?? []) want(r.serverId, r.pointer, r.occurrence);
    for (const r of f.fix?.replacements ?? []) want(f.serverId, r.pointer);
  }
  const located = new Map<unknown, { at: (Located | undefined)[]; next: number }>();
  for (const [doc, { pointers, occurrences }] of wanted) located.set(doc, { at: typeof doc === 'string' ? [] : (doc as Locator).locateAll(pointers, occurrences), next: 0 });
  /** The position of the next wanted pointer of a server's document: the loop below asks in the order they were collected. */
  const take = (serverId: string): Located | undefined => {
    const l = located.get(documentOf(serverId))!;
    return l.at[l.next++];
  };
  const fileOf = (s: ServerInput | undefined) =>
    s?.origin.kind === 'file' ? s.origin.display : s?.origin.kind === 'live' ? s.origin.snapshot : undefined;
  // A server without positions of its own (a live server without a snapshot file) points at
  // its fallback location: its entry in the client config it came from.
  const fallbacks = new Map<string, { file: string; region?: Finding['region'] } | undefined>();
  const fallbackOf = (id: string) => {
    if (!fallbacks.has(id)) {
      const fb = byId.get(id)?.fallbackLocation;
      const fat = fb?.locator?.locateOne(fb.pointer);
      fallbacks.set(id, fb && { file: fb.display, region: fat && { line: fat.line, column: fat.column, endLine: fat.endLine, endColumn: fat.endColumn } });
    }
    return fallbacks.get(id);
  };
  for (const f of findings) {
    const s = byId.get(f.serverId);
    const at = take(f.serverId);
    // A finding that quotes a number reads its places' text first: their positions are taken
    // ahead, in the order they were wanted; the rest (nearly every finding) take them below.
    const numbers = quotesNumbers(f);
    const relatedAt = numbers && f.related?.length ? f.related.map((r) => take(r.serverId)) : undefined;
    const fixAt = numbers && f.fix ? f.fix.replacements.map(() => take(f.serverId)) : undefined;
    if (numbers) writeNumbers(f, at, relatedAt, fixAt, byId);
    if (at) {
      f.file = fileOf(s);
      f.region = { line: at.line, column: at.column, endLine: at.endLine, endColumn: at.endColumn };
    } else if (fallbackOf(f.serverId)) {
      f.file = fallbackOf(f.serverId)!.file;
      f.region = fallbackOf(f.serverId)!.region;
    }
    for (const [k, r] of (f.related ?? []).entries()) {
      const rs = byId.get(r.serverId);
      const rat = relatedAt ? relatedAt[k] : take(r.serverId);
      if (rat) {
        r.file = fileOf(rs);
        r.region = { line: rat.line, column: rat.column, endLine: rat.endLine, endColumn: rat.endColumn };
      } else if (fallbackOf(r.serverId)) {
        r.file = fallbackOf(r.serverId)!.file;
        r.region = fallbackOf(r.serverId)!.region;
      }
    }
    if (f.fix) {
      const regions = [];
      const ats = fixAt ?? f.fix.replacements.map(() => take(f.serverId));
      for (const [i, r] of f.fix.replacements.entries()) {
        const rat = ats[i];
        // Only a value that exists exactly at the pointer can be replaced mechanically.
        if (!rat || rat.pointer !== r.pointer) {
          regions.length = 0;
          break;
        }
        regions.push({
          region: { line: rat.valueLine, column: rat.valueColumn, endLine: rat.valueEndLine, endColumn: rat.valueEndColumn },
          text: r.text,
        });
      }
      if (regions.length) f.fix.regions = regions;
    }
  }
}

/** Whether a finding's texts quote a number (see src/util/written.ts). */
export function quotesNumbers(f: Finding): boolean {
  if (hasPlaceholder(f.message) || hasPlaceholder(f.suggestion) || hasPlaceholder(f.fix?.description) || hasPlaceholder(f.detail)) return true;
  for (const r of f.related ?? []) if (hasPlaceholder(r.message)) return true;
  return false;
}

/**
 * The numbers a finding quotes, written as its input wrote them: read from the number literals
 * of the values it points at (its own pointer's, its related locations', its fix's), in the
 * locator's text or a live server's raw responses; at most MAX_SCANNED characters of them.
 */
export function writeNumbers(
  f: Finding,
  at: Located | undefined,
  relatedAt: readonly (Located | undefined)[] | undefined,
  fixAt: readonly (Located | undefined)[] | undefined,
  byId: ReadonlyMap<string, ServerInput>,
): void {
  const literals: string[] = [];
  let budget = MAX_SCANNED;
  const own = byId.get(f.serverId);
  const places: { server: ServerInput | undefined; pointer: string; at: Located | undefined }[] = [{ server: own, pointer: f.pointer, at }];
  f.related?.forEach((r, k) => places.push({ server: byId.get(r.serverId), pointer: r.pointer, at: relatedAt?.[k] }));
  f.fix?.replacements.forEach((r, k) => places.push({ server: own, pointer: r.pointer, at: fixAt?.[k] }));
  // A live server's raw responses, by server, all its pointers at once.
  const raw = new Map<ServerInput, string[]>();
  for (const p of places) {
    if (p.server?.writtenNumbers) {
      let list = raw.get(p.server);
      if (!list) raw.set(p.server, (list = []));
      list.push(p.pointer);
      continue;
    }
    const text = p.server?.locator?.text;
    if (text === undefined || !p.at || p.at.valueLength > budget) continue;
    budget -= p.at.valueLength;
    numberLiterals(text, p.at.valueOffset, p.at.valueOffset + p.at.valueLength, (l) => literals.push(l));
  }
  for (const [server, pointers] of raw) for (const l of server.writtenNumbers!(pointers)) literals.push(l);
  const written = writtenFrom(literals);
  f.message = resolveWritten(f.message, written);
  if (f.suggestion !== undefined) f.suggestion = resolveWritten(f.suggestion, written);
  // Part of the finding's identity (baseline keys, SARIF fingerprints): resolved too, so that
  // a placeholder's per-process nonce never reaches a key.
  if (f.detail !== undefined) f.detail = resolveWritten(f.detail, written);
  for (const r of f.related ?? []) r.message = resolveWritten(r.message, written);
  if (f.fix) f.fix = { ...f.fix, description: resolveWritten(f.fix.description, written) };
}

export function sortFindings(findings: Finding[], servers: readonly { id: string }[]): Finding[] {
  const order = new Map(servers.map((s, i) => [s.id, i]));
  const cmp = (a: string | number | undefined, b: string | number | undefined) => (a === b ? 0 : a === undefined ? -1 : b === undefined ? 1 : a < b ? -1 : 1);
  return findings.sort(
    (a, b) =>
      cmp(order.get(a.serverId), order.get(b.serverId)) ||
      cmp(a.toolIndex ?? -1, b.toolIndex ?? -1) ||
      cmp(a.region?.line, b.region?.line) ||
      cmp(a.region?.column, b.region?.column) ||
      cmp(a.pointer, b.pointer) ||
      cmp(a.ruleId, b.ruleId) ||
      cmp(a.message, b.message),
  );
}
