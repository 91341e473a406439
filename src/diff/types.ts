/**
 * Drift rules: rules of `mcp-annotate diff`. Each compares what one tool said in the base
 * snapshot with what it says in the head snapshot (compare), or looks at the tools a server
 * gained, lost or renamed (compareServer). They are Rule objects like the lint rules (id,
 * severity, why, examples, doc page), so every reporter, SARIF's rule metadata and
 * `mcp-annotate explain` treat them alike; they have no lint check.
 */
import type { ClaimSet } from '../engine/claims.js';
import type { ToolView } from '../packs/types.js';
import type { Rule } from '../rule.js';
import type { ServerInput, Severity } from '../types.js';

/** One tool on one side of the diff: its view and its claims across every enabled pack. */
export interface ToolSide {
  view: ToolView;
  claims: ClaimSet;
  server: ServerInput;
  /** The tool's _meta entries that an annotation vocabulary defines (part of its annotations). */
  vocabularyMeta: Record<string, unknown>;
}

/** A tool of the base and the tool of the head it became. */
export interface ToolPair {
  base: ToolSide;
  head: ToolSide;
  /** How a renamed tool was matched ("identical definition", "same description and inputSchema"); undefined when the names match. */
  renamedBy?: string;
  /**
   * The head tool is one more tool of a name the base has (the base's tools of that name all
   * have their partner): it is compared with the base's tool of that name instead of being new.
   */
  duplicate?: boolean;
}

export interface DriftReport {
  /** Absolute pointer into the head document (for a removed tool: the head's tools array). */
  pointer: string;
  message: string;
  suggestion?: string;
  /** A lower severity than the rule's, for a documented secondary case. */
  severity?: Severity;
  /** Where the base said what changed (pointers into the base document). */
  before?: { pointer: string; message: string }[];
}

export interface PairContext {
  pair: ToolPair;
  /** Report against the head tool; `before` pointers are in the base tool's document. */
  report(r: DriftReport): void;
}

export interface ServerDiffContext {
  /** The head server (undefined when the server is gone), and the base one (undefined when it is new). */
  head?: ServerInput;
  base?: ServerInput;
  added: readonly ToolSide[];
  removed: readonly ToolSide[];
  renamed: readonly ToolPair[];
  /**
   * Report about a tool (a head tool, or a removed base tool) or the server. The pointer is
   * in the head's document when the head has the server, else in the base's.
   */
  report(r: DriftReport & { tool?: ToolSide }): void;
}

export interface DriftRule extends Rule {
  compare?(ctx: PairContext): void;
  compareServer?(ctx: ServerDiffContext): void;
}

export function defineDriftRule(rule: DriftRule): DriftRule {
  return rule;
}
