/**
 * What the session rules share: naming a call in a message, and comparing what a result or
 * a resolve says with the possible sets its tools/list declaration allows (SEP-1913's
 * possible-set → resolved-value pattern).
 */
import type { SessionCall } from '../rule.js';
import type { PackId } from '../types.js';
import { quote } from '../util/text.js';
import type { Action, Claim, ClaimSet, Fact } from './claims.js';
import { BLAST_RADII, hasUnmapped, RESULT_SENSITIVITIES, REVERSIBILITIES, RISK_LEVELS } from './claims.js';
import { dataClassOf, describeClass, members, written } from './possible-sets.js';

/** `tools/call of "read_file" (server "files")`. */
export function callName(call: SessionCall): string {
  return `${call.kind === 'call' ? 'tools/call' : 'tools/resolve'} of ${quote(call.tool)} (server ${quote(call.server.name)})`;
}

/** `the result of tools/call of "read_file" (server "files")`, at entry N. */
export function resultName(call: SessionCall): string {
  return `the result of ${callName(call)}`;
}

/** The set-valued facts a result or a resolve may narrow (SEP-1913's and the action-metadata extension's). */
export const SET_FACTS = ['destinations', 'inputSensitivity', 'outcomes', 'sources', 'outputSensitivity'] as const;

/** The sensitivity sets, where "none" (no sensitive data) is below every class any declaration lists. */
const SENSITIVITY_FACTS: ReadonlySet<Fact> = new Set<Fact>(['inputSensitivity', 'outputSensitivity']);

/**
 * The member of a set a written value stands for ("regulated" for {regulated: …}; a value in
 * another letter case, "Public" or "UntrustedPublic", for the member the pack read it as, among
 * the claim's `read` members), or undefined for a value no set holds.
 */
function memberName(fact: Fact, value: unknown, read: readonly unknown[]): string | undefined {
  if (fact === 'inputSensitivity' || fact === 'outputSensitivity') {
    const c = dataClassOf(value);
    return typeof c === 'string' ? c : undefined;
  }
  if (typeof value !== 'string') return undefined;
  if (read.includes(value)) return value;
  const lower = value.toLowerCase();
  const m = read.find((r) => typeof r === 'string' && r.toLowerCase() === lower);
  return typeof m === 'string' ? m : value;
}

/**
 * How a fact is compared between a declaration and what a result or a resolve says, whichever
 * vocabulary says it on either side:
 * - set: each member must be in the union of the declared sets;
 * - boolean: `riskier` must not be said where every declaration of the fact said the other value;
 * - order: the value must not rank above every declared value (ranks from the least to the most
 *   a client has to allow for).
 */
export type Comparison =
  | { fact: Fact; kind: 'set' }
  | { fact: Fact; kind: 'boolean'; riskier: boolean }
  | { fact: Fact; kind: 'order'; ranks: Readonly<Record<string, number>>; order: string };

const ranked = (values: readonly string[]): Record<string, number> => Object.fromEntries(values.map((v, i) => [v, i]));

/** SEP-2793 categories and mcp.dev/effect values as actions, by reach: external counts as a write. */
const ACTION_RANKS: Readonly<Record<Action, number>> = { read: 0, observe: 0, utility: 0, write: 1, external: 1, delete: 2, destroy: 3 };

/** Every fact a declaration bounds, in the order findings are made (approval before requiresConfirmation, which one field can give both). */
export const COMPARISONS: readonly Comparison[] = [
  { fact: 'openWorld', kind: 'boolean', riskier: true },
  { fact: 'destructive', kind: 'boolean', riskier: true },
  { fact: 'readOnly', kind: 'boolean', riskier: false },
  { fact: 'idempotent', kind: 'boolean', riskier: false },
  { fact: 'maliciousActivity', kind: 'boolean', riskier: true },
  { fact: 'untrusted', kind: 'boolean', riskier: true },
  { fact: 'sensitiveOutput', kind: 'boolean', riskier: true },
  { fact: 'action', kind: 'order', ranks: ACTION_RANKS, order: 'read, observe and utility < write and external < delete < destroy' },
  { fact: 'riskLevel', kind: 'order', ranks: ranked(RISK_LEVELS), order: RISK_LEVELS.join(' < ') },
  { fact: 'reversibility', kind: 'order', ranks: ranked(REVERSIBILITIES), order: REVERSIBILITIES.join(' < ') },
  { fact: 'blastRadius', kind: 'order', ranks: ranked(BLAST_RADII), order: BLAST_RADII.join(' < ') },
  { fact: 'approval', kind: 'order', ranks: { multi: 0, single: 1, none: 2 }, order: 'multi < single < none: less approval allows more' },
  { fact: 'requiresConfirmation', kind: 'boolean', riskier: false },
  { fact: 'resultSensitivity', kind: 'order', ranks: ranked(RESULT_SENSITIVITIES), order: RESULT_SENSITIVITIES.join(' < ') },
  ...SET_FACTS.map((fact) => ({ fact, kind: 'set' as const })),
];

export interface Excess {
  comparison: Comparison;
  /** The result's or the resolve's claim. */
  claim: Claim;
  /** Where it says what exceeds the declaration: a member of a set, or the claim's field. */
  pointer: string;
  /** What it says there, as written. */
  value: unknown;
  /** The declaration's claims of the same fact, every one of which rules the value out. */
  declared: Claim[];
}

/**
 * The declared upper bound a claim's value gives an ordered fact, or (actual) the least it says.
 * mcp.dev/effect has no value past "delete", so a declared effect "delete" allows SEP-2793's
 * "destroy" too.
 */
function rankOf(c: Comparison & { kind: 'order' }, claim: Claim, side: 'actual' | 'declared'): number | undefined {
  if (side === 'declared' && c.fact === 'action' && claim.fact !== 'action') return hintBound(claim);
  const v = claim.value;
  if (typeof v !== 'string' || !Object.hasOwn(c.ranks, v)) return undefined;
  if (side === 'declared' && c.fact === 'action' && claim.pack === 'meta-hints' && v === 'delete') return ACTION_RANKS.destroy;
  return c.ranks[v];
}

/**
 * The core hints of a declaration that bound what a tool does, as claims of the action fact
 * bounds: readOnlyHint true allows no more than read, observe and utility (any write, delete or
 * destroy mutates), and, when the tool is not declared read-only, destructiveHint false allows
 * no more than write and external (a delete or a destroy is not an additive update) — the facts
 * readonly-vs-category and destructive-vs-category read within one declaration. With
 * readOnlyHint true destructiveHint means nothing (MCP core), so only one of them bounds.
 */
export function actionHints(declared: ClaimSet): Claim[] {
  const ro = declared.from('readOnly', 'core');
  if (ro?.value === true) return [ro];
  const d = declared.from('destructive', 'core');
  return d?.value === false ? [d] : [];
}

/** The highest action rank a declared hint (see actionHints) allows. */
function hintBound(claim: Claim): number {
  if (claim.fact === 'readOnly' && claim.value === true) return ACTION_RANKS.read;
  if (claim.fact === 'destructive' && claim.value === false) return ACTION_RANKS.write;
  return Infinity;
}

/** What a declared hint bounding the action (see actionHints) says the tool may do, for a message: "which …". */
export function hintBoundText(claim: Claim): string {
  return claim.fact === 'readOnly' ? 'says the tool modifies nothing' : 'promises only additive updates, no delete or destroy';
}

/** SEP-1913's maliciousActivityHint: "false or omission means it will never be set". */
export const MALICIOUS_KEY = 'maliciousActivityHint';

/**
 * A maliciousActivityHint true (in a result or a resolve) that the tool's declaration rules out
 * by leaving the hint out: MCP core gives it no default, so SEP-1913's "omission means it will
 * never be set" holds as written. The claim, and where the declaration is.
 */
export function undeclaredMalicious(call: SessionCall): { claim: Claim; where: string } | undefined {
  const declared = call.declared;
  const malicious = call.resultClaims.from('maliciousActivity', 'sep-1913');
  if (!declared || malicious?.value !== true || declared.claims.has('maliciousActivity')) return undefined;
  const annotations = declared.tool.annotations;
  if (annotations && Object.prototype.hasOwnProperty.call(annotations, MALICIOUS_KEY)) return undefined;
  return { claim: malicious, where: annotations ? `${declared.tool.pointer}/annotations` : declared.tool.pointer };
}

/**
 * What `actual` (a result's or a resolve's claims) says beyond what `declared` (the tool's
 * tools/list declaration) allows, fact by fact (`facts`), whichever vocabulary says it on
 * either side: one comparison per fact, against every declared claim of it, so a value exceeds
 * only what no vocabulary of the declaration allows. An action (SEP-2793 category,
 * mcp.dev/effect) is compared with the declared readOnlyHint true or destructiveHint false as
 * well (actionHints), unless the actual readOnlyHint or destructiveHint already exceeds that
 * declared hint (that finding stands for both). A fact the declaration does not give
 * excludes nothing; neither does a declared set holding a value no enum knows (an open
 * action-metadata string, a typo: what it allows is unclear). A sensitivity of "none" is
 * within any non-empty declared sensitivity set: "none" is below every class (a declaration
 * cannot list it beside one: sensitivity-conflict). Each pointer is reported once
 * (SEP-2793's approvalRecommendation gives both approval and requiresConfirmation).
 */
export function exceedsDeclared(actual: ClaimSet, declared: ClaimSet, facts: ReadonlySet<Fact>): Excess[] {
  const out: Excess[] = [];
  const seen = new Set<string>();
  const push = (e: Excess) => {
    if (seen.has(e.pointer)) return;
    seen.add(e.pointer);
    out.push(e);
  };
  for (const comparison of COMPARISONS) {
    if (!facts.has(comparison.fact)) continue;
    const mine = actual.all(comparison.fact);
    // What a tool does is bounded by its declared readOnlyHint and destructiveHint too, unless
    // the resolve's own hint already exceeds that declared hint (reported above, with it): one
    // widening is one finding, not also one on the category or effect citing the same hint.
    const theirs =
      comparison.fact === 'action'
        ? [...declared.all('action'), ...actionHints(declared).filter((h) => !out.some((e) => e.declared.includes(h)))]
        : declared.all(comparison.fact);
    if (mine.length === 0 || theirs.length === 0) continue;
    if (comparison.kind === 'boolean') {
      if (theirs.some((t) => t.value === comparison.riskier)) continue;
      for (const m of mine) if (m.value === comparison.riskier) push({ comparison, claim: m, pointer: m.pointer, value: written(m), declared: theirs });
    } else if (comparison.kind === 'order') {
      let bound = -1;
      for (const t of theirs) bound = Math.max(bound, rankOf(comparison, t, 'declared') ?? Infinity);
      for (const m of mine) {
        const r = rankOf(comparison, m, 'actual');
        if (r !== undefined && r > bound) push({ comparison, claim: m, pointer: m.pointer, value: written(m), declared: theirs });
      }
    } else {
      if (theirs.some(hasUnmapped)) continue;
      const allowed = new Set<unknown>();
      for (const t of theirs) for (const v of t.value as readonly unknown[]) allowed.add(v);
      for (const m of mine) {
        for (const member of members(m)) {
          const name = memberName(comparison.fact, member.value, m.value as readonly unknown[]);
          // Values no enum knows are schema-valid's (in a tools/list) or unknown: not compared.
          if (name === undefined || !(m.value as readonly string[]).includes(name)) continue;
          // "none" is below every class: a declared non-empty sensitivity set allows it.
          if (name === 'none' && allowed.size > 0 && SENSITIVITY_FACTS.has(comparison.fact)) continue;
          if (!allowed.has(name)) push({ comparison, claim: m, pointer: member.pointer, value: member.value, declared: theirs });
        }
      }
    }
  }
  return out;
}

/** `returnMetadata.source "untrustedPublic"`, `_meta["mcp.dev/effect"] "delete"`: what a result or resolve says, for a message. */
export function excessText(e: Excess): string {
  const field = e.claim.field.replace(/^annotations\./, '');
  return `${field} ${e.comparison.kind === 'set' ? describeClass(e.value) : quote(e.value)}`;
}

/** The declaration's claims as written, for a message: `annotations.riskLevel is "low" (/1/…/riskLevel)`, joined with "and". */
export function declaredText(claims: readonly Claim[]): string {
  return claims.map((c) => `${c.field} is ${quote(c.raw !== undefined ? c.raw : c.value, 80)} (${c.pointer})`).join(' and ');
}

/**
 * Why a call's tool has no declaration to compare with, in words, and what would let it be
 * checked: no tools/list of its server before the call, a listing that withdrew the tool an
 * earlier one declared, or listings that never declared it.
 */
/**
 * The note for a result or resolve whose tool no listing in effect declares: `subject` says what
 * it carries ("the result of … carries annotations"), then why nothing was compared.
 */
export function undeclaredNote(call: SessionCall, what: 'results' | 'resolves', pointer: string, subject: string) {
  const why = undeclared(call, what);
  return { call, pointer, informational: true, message: `${subject}, but ${why.why}: they were not checked against a declaration`, suggestion: why.suggestion };
}

function undeclared(call: SessionCall, what: 'results' | 'resolves'): { why: string; suggestion: string } {
  const server = `server ${quote(call.server.name)}`;
  if (!call.listed) {
    return {
      why: `the transcript holds no tools/list result of ${server} before it`,
      suggestion: `capture the session from its start, with the tools/list exchange of every server, so ${what} can be checked against what their tools declare`,
    };
  }
  if (call.incomplete) {
    return {
      why: `the tools/list of ${server} in effect when it was sent was not complete: its pages so far do not list ${quote(call.tool)}, and the last one's nextCursor (${call.incomplete}) had not been followed yet`,
      suggestion: `the client called ${quote(call.tool)} before it had fetched every page of the listing; a client follows each nextCursor before it relies on the listing (check this by hand against the page that declares ${quote(call.tool)})`,
    };
  }
  if (call.midway) {
    return {
      why: `the tools/list of ${server} in effect when it was sent starts mid-way: the transcript holds its pages from the one at ${call.midway.page} (the page after cursor ${quote(call.midway.cursor, 40)}) on, which do not list ${quote(call.tool)}, and the pages before it are missing`,
      suggestion: `capture the session from its start, with every page of the tools/list exchange, so ${quote(call.tool)} can be checked against the page that declares it`,
    };
  }
  if (call.withdrawn) {
    return {
      why: `the tools/list of ${server} in effect when it was sent (${call.withdrawn.listing}) no longer lists ${quote(call.tool)}, which an earlier listing declared (${call.withdrawn.declared})`,
      suggestion: `the client used a tool the server had withdrawn: a client refreshes its tools on notifications/tools/list_changed and uses only listed ones; if the server still serves ${quote(call.tool)}, keep it in tools/list`,
    };
  }
  if (call.stray) {
    return {
      why: `${quote(call.tool)} is declared only on the tools/list page at ${call.stray.page} (${call.stray.pointer}), which counts for no listing of ${server} (${call.stray.why})`,
      suggestion: `capture every tools/list exchange of the server, each page's request with the cursor the page before gave as nextCursor, so every page is read as part of its listing; meanwhile check ${quote(call.tool)} by hand against ${call.stray.pointer}`,
    };
  }
  return {
    why: `no tools/list of ${server} before it lists ${quote(call.tool)}`,
    suggestion: `if the listing has several pages, capture every one (tools/list with each nextCursor); otherwise the server serves a tool it does not list: declare ${quote(call.tool)} in tools/list`,
  };
}

/** The note for a call or resolve whose response could not be told apart from another request's. */
export function ambiguousNote(call: SessionCall): { pointer: string; message: string; suggestion: string } | undefined {
  const a = call.ambiguous;
  if (!a) return undefined;
  return {
    pointer: `${a.response}/id`,
    message: `${callName(call)} and ${a.with.join(', ')} wait for a response with the same id, and the response at ${a.response} does not tell which one it answers (an error, or a result that fits both): ${call.kind === 'call' ? 'its result was' : 'its resolved annotations were'} not checked — neither against the declaration nor by the session's propagation rules`,
    suggestion: 'client and server number their requests independently, so ids may meet; check this response by hand, or capture the session with distinct ids on each side',
  };
}

/** Whose schema a result's annotation problem breaks, by the pack that found it. */
const SCHEMA_OF: Partial<Record<PackId, string>> = { core: "MCP's schema", 'sep-1913': "SEP-1913's schema", 'webmcp-sensitive': "WebMCP's sensitiveHint proposal" };

/**
 * The notes for a result's (or a resolve's) annotations that their schema does not allow: a
 * SEP-1913 value of the wrong type or that no enum knows, a core hint (or WebMCP's
 * sensitiveHint) that is not a boolean. Such a value is in no claim, so nothing compares it: the
 * note says so, with the schema's own words, whether or not the tool was declared.
 */
export function schemaNotes(call: SessionCall): { pointer: string; message: string; suggestion?: string; informational: true }[] {
  return call.resultProblems.map((p) => ({
    pointer: p.pointer,
    informational: true as const,
    message: `${call.kind === 'call' ? `${resultName(call)}: _meta.${p.message}` : `${callName(call)}: the resolved tool's ${p.message}`}; ${SCHEMA_OF[p.pack] ?? `${p.pack}'s schema`} does not allow it, so it was not compared with the declaration`,
    ...(p.suggestion ? { suggestion: p.suggestion } : {}),
  }));
}
