/**
 * Shared types: the data that flows targets → sources → engine → findings → reporters.
 */

export type Severity = 'error' | 'warning' | 'note';
export type SeveritySetting = Severity | 'off';

export const SEVERITY_RANK: Record<Severity, number> = { note: 1, warning: 2, error: 3 };

export const SPEC_VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const;
export type SpecVersion = (typeof SPEC_VERSIONS)[number];
export const LATEST_SPEC: SpecVersion = '2026-07-28';

export const PACK_IDS = [
  'core',
  'sep-1913',
  'action-metadata',
  'trust-annotations',
  'risk-metadata',
  'webmcp-sensitive',
  'meta-hints',
] as const;
export type PackId = (typeof PACK_IDS)[number];

/** 1-based line and column (UTF-16 code units), as SARIF and editors count them. */
export interface Region {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** Where a value sits in its source text. */
export interface Located extends Region {
  /** The pointer that was actually found: the requested one, or its nearest existing ancestor. */
  pointer: string;
  /** Offset and length of the value itself (not its key), for mechanical fixes. */
  valueOffset: number;
  valueLength: number;
  valueLine: number;
  valueColumn: number;
  valueEndLine: number;
  valueEndColumn: number;
}

export interface Locator {
  /**
   * Positions for many pointers in one pass over the text, in the order of `pointers` (undefined
   * where none is found). A member its object gives more than once is found where it is given
   * last (the value JSON.parse keeps), unless `occurrences` asks for an earlier one at that
   * index (0: the first).
   */
  locateAll(pointers: readonly string[], occurrences?: readonly (number | undefined)[]): (Located | undefined)[];
  /** The position of one pointer. */
  locateOne(pointer: string): Located | undefined;
  /**
   * The text the positions are in (valueOffset counts in it), when the locator has one: the
   * engine reads how the numbers a finding quotes were written from it (src/util/written.ts).
   */
  text?: string;
  /** The member names that tools and tools/list results repeat in the text (see findRepeatedKeys in src/sources/locate.ts). */
  repeatedKeys?(scopes: readonly { pointer: string; scope: RepeatedKeyScope }[]): RepeatedKey[];
}

/** What findRepeatedKeys checks: a tool (its members, and all of its annotations and _meta), or a tools/list result (its own members). */
export type RepeatedKeyScope = 'tool' | 'envelope';

/** A member name an object of a tool or a tools/list result gives more than once in the source text. */
export interface RepeatedKey {
  /** Pointer of the tool or tools/list result it is in. */
  scope: string;
  kind: RepeatedKeyScope;
  /** Pointer of the object that repeats it. */
  object: string;
  key: string;
  /** How many times the object gives it (2 or more). */
  count: number;
  /** Every occurrence's value is the same JSON value as the first one's (compared as values: 1.0 is 1, "\u0061" is "a"). */
  same: boolean;
  /** The JSON text of the first and the last value, when both are short. */
  values?: [string, string];
  /** A live server's listing of several pages: the page whose result repeats it (1: the first). */
  page?: number;
  /** A live server's initialize result repeats it (a member the snapshot takes from initialize: protocolVersion, capabilities, serverInfo). */
  initialize?: true;
}

export type Origin =
  | { kind: 'file'; path: string; display: string }
  | { kind: 'stdin'; display: string }
  | { kind: 'live'; display: string; transport: string; configFile?: string; configPointer?: string; snapshot?: string };

/** One server's tools, as a source produced them. */
export interface ServerInput {
  /** Unique within a run. */
  id: string;
  name: string;
  origin: Origin;
  /** The negotiated or recorded protocol version, when the input says. */
  protocolVersion?: string;
  /**
   * A recorded "protocolVersion" that is not a non-empty string (2025, "", null, {…}), as JSON
   * text: it is no version, so the latest spec applies, and a note on stderr says so.
   */
  protocolVersionInvalid?: string;
  serverInfo?: Record<string, unknown>;
  /** Each tool as plain JSON with the pointer of the tool in the source document. */
  tools: { value: unknown; pointer: string }[];
  /** The ListToolsResult objects around the tools (one per page). */
  envelopes: { value: unknown; pointer: string }[];
  /** Pointer of the (first) tools array. */
  toolsPointer: string;
  /**
   * Pointer of this server's own part of a document that holds several ({"servers": [...]}):
   * server-level findings are keyed relative to it, so reordering the servers changes no key.
   */
  root?: string;
  /**
   * In a session transcript: the entries (messages: "/4", or a batch member "/4/2") that hold
   * this server's listing, or its first entry when it has none. A server-level finding is keyed
   * within the one it points into, as a call's findings are within their message's, so a
   * message added before it changes no key.
   */
  entries?: readonly string[];
  /** The name comes from a client config's entry (a live config server, or a snapshot's "configEntry"). */
  entryNamed?: boolean;
  /**
   * A live server's secret values (its env and header values) as redact() takes them: the
   * texts of every finding are redacted with them after linting, since a rule's own work can
   * put back together what the server sent split (a fix that removes the hidden character
   * inside a secret, a message that decodes tag characters). Never enumerable: never printed.
   */
  secretNeedles?: readonly string[];
  locator?: Locator;
  /** Location used when a finding has no position in a file (e.g. the server's entry in a client config). */
  fallbackLocation?: { file: string; display: string; locator?: Locator; pointer: string };
  /**
   * A server of a session transcript whose tools no tools/list response declared: it has no
   * tools to lint, and that is not a finding (no-tools stays quiet).
   */
  unlisted?: true;
  /** The session of the transcript this server came from (shared by every server of it). */
  session?: Session;
  /**
   * What reading the input left out, said on stderr as notes (e.g. a transcript's tools/list
   * page that is part of no listing: its cursor came from no page, or from a replaced listing).
   */
  notes?: readonly string[];
  /**
   * Member names its tools and tools/list results repeat in the source text (none for a live
   * server: the SDK parsed the JSON). A function: the text is scanned when a rule first asks.
   */
  repeatedKeys?: () => readonly RepeatedKey[];
  /**
   * The number literals, as the server wrote them, of the values at these pointers (a live
   * server's raw tools/list responses, whose snapshot was written from the parsed listing):
   * read instead of the locator's text to quote numbers as written (src/util/written.ts).
   */
  writtenNumbers?: (pointers: readonly string[]) => string[];
}

/**
 * One tools/call or tools/resolve of a session transcript, with its response when the
 * transcript holds one. Pointers are absolute in the transcript document (an array of
 * entries; a JSON Lines file reads as the array of its lines).
 */
export interface SessionStep {
  kind: 'call' | 'resolve';
  /** The ServerInput id of the server it was exchanged with. */
  serverId: string;
  /**
   * Place of the request among the transcript's messages (the order of the session; the
   * members of a JSON-RPC batch count one by one), and the pointer of its entry ("/4"; a batch
   * member's own, "/4/1").
   */
  requestAt: number;
  requestEntry: string;
  /** Pointer of the JSON-RPC request itself ("/4", or "/4/message" inside a wrapper). */
  request: string;
  params?: Record<string, unknown>;
  responseAt?: number;
  responseEntry?: string;
  response?: string;
  /** The response's result object (absent for an error response or no response). */
  result?: Record<string, unknown>;
  /** The tool the server's tools/list declared under params.name, as in effect when the request was sent. */
  declared?: { value: unknown; pointer: string; index: number };
  /** Whether a tools/list of the server was in effect when the request was sent. */
  listed: boolean;
  /**
   * The tool is not in the listing in effect, but an earlier listing of the server declared it
   * (at `declared`): a later listing (`listing`) withdrew it.
   */
  withdrawn?: { declared: string; listing: string };
  /**
   * The tool is not in the pages of the listing in effect, whose last page so far has a
   * nextCursor (at this pointer) the client had not followed yet: the listing was incomplete.
   */
  incomplete?: string;
  /**
   * The tool is in no listing of the server before the request, but a tools/list page that is
   * part of no listing declared it (at `pointer`, on the page at `page`; `why` it was not counted).
   */
  stray?: { pointer: string; page: string; why: string };
  /**
   * The tool is not in the listing in effect, which starts mid-way: the transcript holds its pages
   * from `page` (the answer for the page after `cursor`) on, and the earlier ones are missing.
   */
  midway?: { page: string; cursor: string };
  /**
   * A response with the request's id could not be told apart from the response to another
   * request waiting for the same id (the server's own, say): its result is not checked.
   */
  ambiguous?: { response: string; with: string[] };
  /**
   * Pointer of the client's notifications/cancelled of this request, sent while it waited for
   * its response: a response that arrives after it is one the client ignores (MCP cancellation).
   */
  cancelled?: string;
}

export interface Session {
  steps: SessionStep[];
  /** Server URLs the transcript gives ("url" of a wrapper), by ServerInput id. */
  urls: Map<string, string>;
}

/** A problem with an input that stops it from being linted (bad JSON, wrong shape, unreachable server). */
export interface InputError {
  target: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
}

export interface RelatedLocation {
  message: string;
  pointer: string;
  /** The occurrence of the pointer's member the location is at, when its object gives it more than once (0: the first); else the last. */
  occurrence?: number;
  serverId: string;
  server: string;
  tool?: string;
  file?: string;
  region?: Region;
}

export interface Replacement {
  /** Pointer of the value to replace. */
  pointer: string;
  /** JSON text to put in its place. */
  text: string;
}

export interface Fix {
  description: string;
  replacements: Replacement[];
}

export interface Finding {
  ruleId: string;
  severity: Severity;
  message: string;
  /** What to do about it, in a sentence. */
  suggestion?: string;
  serverId: string;
  server: string;
  /** Tool name, or undefined for server-level findings. */
  tool?: string;
  toolIndex?: number;
  /** Absolute JSON pointer into the source document. */
  pointer: string;
  /**
   * The pointer relative to its tool; for a server-level finding, relative to the server's part
   * of the document (ServerInput.root), else absolute. Stable when tools or servers move.
   */
  toolPointer: string;
  /**
   * The pointer of the finding's identity (its baseline key and SARIF fingerprint), relative as
   * toolPointer is, when it is not toolPointer: the rule's ReportInput.keyPointer, with the index
   * of each array item that is a string, number, boolean or null replaced by the item's value
   * (see contentPointer in src/util/pointer.ts). Absent for most findings.
   */
  keyPointer?: string;
  file?: string;
  region?: Region;
  related?: RelatedLocation[];
  fix?: Fix & { regions?: { region: Region; text: string }[] };
  /** See ReportInput.detail: part of the finding's baseline key. */
  detail?: string;
  /** See ReportInput.informational: a note with nothing to fix; --fail-on note does not fail on it. */
  informational?: true;
}
