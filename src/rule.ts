/**
 * The rule API. A rule is one file in rules/: its metadata, the why, examples that
 * drive both its tests and its doc page, and a check that reads tools and claims
 * through a context and reports findings with a JSON pointer. Rules never format
 * output, never read files and never compute line numbers.
 */
import type { Fix, PackId, RepeatedKey, Severity, SpecVersion } from './types.js';
import type { ClaimSet } from './engine/claims.js';
import type { SchemaProblem, ToolView } from './packs/types.js';

export type RuleCategory = 'structure' | 'core-hints' | 'consistency' | 'heuristic' | 'server' | 'session' | 'drift' | 'policy';

export const CATEGORY_TITLES: Record<RuleCategory, string> = {
  structure: 'Structure and schema',
  'core-hints': 'Core hints',
  consistency: 'Consistency across vocabularies',
  heuristic: 'Heuristics',
  server: 'Across tools of one server',
  session: 'Results and sessions',
  drift: 'Drift between two snapshots',
  policy: 'User policies',
};

/** One example: a document in, the findings of this rule out. */
export interface RuleExample {
  title: string;
  /** The tools of a tools/list result; the document is {"tools": tools}. */
  tools?: unknown[];
  /** Any document shape mcp-annotate reads (a snapshot, a JSON-RPC response, …). */
  document?: unknown;
  /** The document as JSON text, for what a JSON value cannot hold (a member given twice); it wins over the others. */
  text?: string;
  /** Drift rules (mcp-annotate diff): the document before; `tools`/`document` is the one after. */
  base?: unknown;
  /**
   * A session transcript: the ordered JSON-RPC messages (or {"server", "url"?, "message"}
   * wrappers) of one agent session; the document is then this array.
   */
  transcript?: unknown[];
  /** Several servers linted together ({"servers": [...]}). */
  servers?: { serverInfo: { name: string }; tools: unknown[] }[];
  /** Expected findings of this rule (incorrect examples): absolute pointers, in order. */
  findings?: { pointer: string; server?: string; severity?: Severity }[];
  /** Rule options for this example. */
  options?: Record<string, unknown>;
  /** Only these packs enabled. */
  packs?: PackId[];
  spec?: SpecVersion;
  /** Set to false to keep an edge case out of the doc page (it is still tested). */
  doc?: false;
  /** A sentence under the example on the doc page. */
  explanation?: string;
}

export interface RuleMeta<O = Record<string, never>> {
  id: string;
  severity: Severity;
  category: RuleCategory;
  /** The packs whose claims the rule reads (core is always on). */
  packs: readonly PackId[];
  /** One line, imperative or descriptive; the SARIF shortDescription. */
  summary: string;
  /** Why it matters, in markdown; the SARIF fullDescription and the heart of the doc page. */
  why: string;
  /** Judgment calls and their reasons, in markdown. */
  notes?: string;
  /** SARIF precision: heuristics say so. */
  precision: 'very-high' | 'high' | 'medium' | 'low';
  /** SARIF security-severity (0–10) for security rules; their tag list gets "security". */
  security?: number;
  tags?: readonly string[];
  /** Where the rule is documented, when not docs/rules/<id>.md (user policies: the README). */
  helpUri?: string;
  options?: {
    defaults: O;
    /** JSON Schema of the options object. */
    schema: Record<string, unknown>;
    /** Markdown describing each option. */
    docs: string;
  };
  examples: { correct: RuleExample[]; incorrect: RuleExample[] };
}

export interface ReportInput {
  /** Absolute pointer of the offending value (use ctx.at() or a claim's pointer). */
  pointer: string;
  message: string;
  /** What to do about it. */
  suggestion?: string;
  /** A lower severity than the rule's for a documented secondary case. */
  severity?: Severity;
  /**
   * A note about something there is nothing to fix in (what a client decides per call, a
   * proposal's own spelling): it stays a note whatever the rule's setting, so a stricter
   * setting never turns it into a warning or an error no change can clear.
   */
  informational?: boolean;
  /** Other places the message names; `occurrence` picks an earlier copy of a member its object gives more than once (0: the first). */
  related?: { pointer: string; message: string; tool?: Pick<ToolView, 'name'>; serverId?: string; occurrence?: number }[];
  fix?: Fix;
  /**
   * What the finding is about when its rule and place alone do not say it (hidden-characters:
   * which characters). A baseline entry holds it, so an accepted finding does not cover a
   * changed one at the same place.
   */
  detail?: string;
  /**
   * The absolute pointer the finding's identity (its baseline key and SARIF fingerprint) is built
   * from when it is not `pointer`: where a missing member would be (implicit-destructive's
   * `/annotations/destructiveHint`, shown at the annotations or the tool), so adding an
   * unrelated member does not change the key. The finding is still shown at `pointer`.
   */
  keyPointer?: string;
}

export interface ServerRef {
  id: string;
  name: string;
}

export interface ToolContext<O = Record<string, never>> {
  tool: ToolView;
  server: ServerRef;
  /** What the tool's annotations say, normalised by the packs (for check() and collect(); server and run rules see none: see `collected`). */
  claims: ClaimSet;
  /** Schema problems the packs found in this tool (for check(); server and run rules see none). */
  problems: readonly SchemaProblem[];
  /** The spec version the tool is linted against (see specSource for where it came from). */
  spec: SpecVersion;
  /**
   * Where `spec` came from: "given" by --spec (or the config's `spec`), "recorded" by the
   * input (a snapshot's protocolVersion, or the newest known version before an unknown date it
   * records), or "default": the input records no usable version (none, or one that is not a
   * date) and the engine took the latest. A "default" spec is a guess — most servers speak an
   * older version — so a rule may also check what the version before the latest would reject
   * (schema-valid does, as warnings).
   */
  specSource: 'given' | 'recorded' | 'default';
  /** Packs enabled for this run. */
  packs: ReadonlySet<PackId>;
  /**
   * The rule's options for this tool: its defaults, the config's `rules`, then the overrides
   * that match the tool's server and name. In checkServer() and checkRun() (for a rule with
   * options) each tool of ctx.tools carries its own the same way.
   */
  options: O;
  /** Absolute pointer for a tool-relative one: ctx.at('/annotations/readOnlyHint'). */
  at(rel: string): string;
  /**
   * Whether the rule with this id checks this tool in this run: it is registered, its packs
   * are on, and its setting for this tool (the config's, then the overrides') is not "off".
   * A rule that leaves a case to another rule asks this first, so turning that rule off
   * never silences both.
   */
  runs(ruleId: string): boolean;
  /**
   * In checkServer() and checkRun(): what this rule's collect() kept from the tool. The
   * tool's claims are let go once its own checks are done, so a rule that reasons across
   * tools keeps the little it needs here instead.
   */
  collected?: unknown;
  /** Report a finding of the rule whose check() is running (only valid during check()). */
  report(finding: ReportInput): void;
}

export interface ServerContext<O = Record<string, never>> {
  server: ServerRef;
  tools: readonly ToolContext<O>[];
  /** Problems of the server's envelope (the tools/list result around the tools). */
  envelopeProblems: readonly SchemaProblem[];
  /**
   * The server's tools/list results around its tools (a snapshot's top level, each page of a
   * paginated listing), held to the spec version only when the input says which (a known
   * protocolVersion recorded, or --spec): empty otherwise, as envelopeProblems are — most dumps
   * do not say, and their envelope is no one version's.
   */
  envelopes: readonly { value: unknown; pointer: string }[];
  toolsPointer: string;
  /**
   * Member names the server's tools and tools/list results repeat in its source text (empty for a
   * live server, whose JSON the SDK parsed).
   */
  repeatedKeys: readonly RepeatedKey[];
  /** A server of a session transcript that no tools/list response declared (it has no tools to lint). */
  unlisted?: true;
  spec: SpecVersion;
  /** Where `spec` came from (see ToolContext.specSource). */
  specSource: 'given' | 'recorded' | 'default';
  packs: ReadonlySet<PackId>;
  /** The rule's options for the server (overrides without `tools` included); each of `tools` has its own. */
  options: O;
  /**
   * Report against a tool, or against the server when tool is omitted. A finding about the
   * server that speaks for some of its tools (a policy's note naming the tools it cannot
   * decide) names them in `coveredTools`: it is kept where the rule is on for the server or
   * for one of them (a finding without a tool otherwise takes only overrides without `tools`).
   */
  report(finding: ReportInput & { tool?: ToolView; coveredTools?: readonly string[] }): void;
}

export interface RunContext<O = Record<string, never>> {
  servers: readonly ServerContext<O>[];
  /**
   * The rule's options in the config's `rules` (an override's, when only overrides turn the
   * rule on). Each of `servers`, and each of their tools, carries its own, overrides included:
   * read those for what a server or tool does.
   */
  options: O;
  report(finding: ReportInput & { server: ServerRef; tool?: ToolView }): void;
}

/**
 * A tools/call or tools/resolve of a session transcript, as session rules see it. Claims are
 * read by the packs, as a tool's are: the request's params._meta.annotations, the result's
 * _meta.annotations (a call) or the resolved tool (a resolve), and the declared tool.
 */
export interface SessionCall {
  kind: 'call' | 'resolve';
  server: ServerRef;
  /** The server's URL, when the transcript gives it (a wrapper's "url"). */
  serverUrl?: string;
  /** params.name, or "#?" when the request names no tool. */
  tool: string;
  /** Order in the transcript: the place of the request among its messages, and of the response (batch members count one by one). */
  requestAt: number;
  responseAt?: number;
  /** Absolute pointers of the JSON-RPC request and response (inside a wrapper when there is one). */
  request: string;
  response?: string;
  params?: Record<string, unknown>;
  /** The response's result object (none for an error response, or when the transcript ends first). */
  result?: Record<string, unknown>;
  /** What params._meta.annotations say (empty when none). */
  requestClaims: ClaimSet;
  /**
   * What the result says: its _meta.annotations and the vocabularies of its _meta (the
   * trust-annotations and action-metadata extensions, the _meta hints) for a call, the resolved
   * tool for a resolve; empty when none.
   */
  resultClaims: ClaimSet;
  /**
   * Schema problems of the result's annotations, which resultClaims leave out: SEP-1913's (when
   * the sep-1913 pack is active) — a value of the wrong type or outside its enum; required
   * members are not asked of a result — and a core hint or WebMCP's sensitiveHint that is not a
   * boolean.
   */
  resultProblems: readonly SchemaProblem[];
  /** The declaration in effect when the request was sent: the tool of that name in the server's tools/list. */
  declared?: { tool: ToolView; claims: ClaimSet };
  /** Whether a tools/list of the server was in effect when the request was sent. */
  listed: boolean;
  /** Not in the listing in effect, but declared by an earlier listing (at `declared`) that a later one (`listing`) replaced. */
  withdrawn?: { declared: string; listing: string };
  /** Not in the pages of the listing in effect, whose last page's nextCursor (this pointer) had not been followed yet. */
  incomplete?: string;
  /** In no listing before the request, but declared (at `pointer`) on a tools/list page (`page`) that is part of no listing, for the reason `why`. */
  stray?: { pointer: string; page: string; why: string };
  /** Not in the listing in effect, which starts mid-way: its pages before `page` (the answer for the page after `cursor`) are missing from the transcript. */
  midway?: { page: string; cursor: string };
  /**
   * The response could not be told apart from the response to another request waiting for the
   * same id (`with`, described): no result is given, and nothing of it is checked.
   */
  ambiguous?: { response: string; with: string[] };
  /**
   * Pointer of the client's notifications/cancelled of the request, sent before its response
   * arrived: MCP has the client ignore the response, so it is no context of the session (the
   * propagation rules do not count it); what the server sent is still checked against the
   * declaration.
   */
  cancelled?: string;
}

export interface SessionContext<O = Record<string, never>> {
  /** Every call and resolve of one transcript, in the order of their requests. */
  calls: readonly SessionCall[];
  packs: ReadonlySet<PackId>;
  options: O;
  /** Report against a call: its server and tool; the pointer is in its request or its response. */
  report(finding: ReportInput & { call: SessionCall }): void;
}

export interface Rule<O = any> extends RuleMeta<O> {
  /** Called once per tool. */
  check?(ctx: ToolContext<O>): void;
  /**
   * Called once per tool, whatever the rule's setting for that tool, in a rule with
   * checkServer() or checkRun(): what those checks need to know of the tool, or undefined
   * for nothing. They read it as `collected` on each of their tools, whose claims are
   * empty by then (keeping every claim of a registry-sized dump would not fit in memory).
   * ctx.options here are the tool's own: the config's, then those of the overrides that
   * match its server and name, whatever the severity they set (a tool the rule is off for
   * may still play a part in a check across tools).
   */
  collect?(ctx: ToolContext<O>): unknown;
  /** Called once per server, after every tool was checked. */
  checkServer?(ctx: ServerContext<O>): void;
  /** Called once per run, with every server. */
  checkRun?(ctx: RunContext<O>): void;
  /** Called once per session transcript in the run, with its calls and resolves in order. */
  checkSession?(ctx: SessionContext<O>): void;
}

export function defineRule<O = Record<string, never>>(rule: Rule<O>): Rule<O> {
  return rule;
}
