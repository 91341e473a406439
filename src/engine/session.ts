/**
 * What the session rules share: naming a call in a message, and comparing what a result or
 * a resolve says with the possible sets its tools/list declaration allows (SEP-1913's
 * possible-set → resolved-value pattern).
 */
import type { SessionCall } from '../rule.js';
import { quote } from '../util/text.js';
import type { Claim, ClaimSet, Fact } from './claims.js';
import { hasUnmapped } from './claims.js';
import { dataClassOf, describeClass, members, type Member } from './possible-sets.js';

/** `tools/call of "read_file" (server "files")`. */
export function callName(call: SessionCall): string {
  return `${call.kind === 'call' ? 'tools/call' : 'tools/resolve'} of ${quote(call.tool)} (server ${quote(call.server.name)})`;
}

/** `the result of tools/call of "read_file" (server "files")`, at entry N. */
export function resultName(call: SessionCall): string {
  return `the result of ${callName(call)}`;
}

/** The SEP-1913 set-valued facts a result or a resolve may narrow, with the field each is read from. */
export const SET_FACTS = ['destinations', 'inputSensitivity', 'outcomes', 'sources', 'outputSensitivity'] as const;

/** The member of a set a written value stands for ("regulated" for {regulated: …}), or undefined for a value no set holds. */
function memberName(fact: Fact, value: unknown): string | undefined {
  if (fact === 'inputSensitivity' || fact === 'outputSensitivity') {
    const c = dataClassOf(value);
    return typeof c === 'string' ? c : undefined;
  }
  return typeof value === 'string' ? value : undefined;
}

export interface Excess {
  /** The result's or the resolve's claim. */
  claim: Claim;
  /** Its member outside the declared set. */
  member: Member;
  /** The declaration's claim of the same field. */
  declared: Claim;
}

/**
 * Members of `actual`'s SEP-1913 set fields that the declaration's possible set of the same
 * field does not hold. A field the declaration does not give, or gives with values no enum
 * knows (a typo: what it allows is unclear), excludes nothing: never guessed.
 */
export function outsideDeclared(actual: ClaimSet, declared: ClaimSet): Excess[] {
  const out: Excess[] = [];
  for (const fact of SET_FACTS) {
    const mine = actual.from(fact, 'sep-1913');
    const theirs = declared.from(fact, 'sep-1913');
    if (!mine || !theirs || hasUnmapped(theirs)) continue;
    const allowed = theirs.value as readonly string[];
    for (const m of members(mine)) {
      const name = memberName(fact, m.value);
      // Values no enum knows are schema-valid's (in a tools/list) or unknown: not compared.
      if (name === undefined || !(mine.value as readonly string[]).includes(name)) continue;
      if (!allowed.includes(name)) out.push({ claim: mine, member: m, declared: theirs });
    }
  }
  return out;
}

/** `returnMetadata.source "untrustedPublic"` for a message. */
export function memberText(e: Excess): string {
  return `${e.claim.field.replace(/^annotations\./, '')} ${describeClass(e.member.value)}`;
}

/** The declared set as written, for a message. */
export function declaredText(c: Claim): string {
  return `${c.field} is ${quote(c.raw !== undefined ? c.raw : c.value, 80)}`;
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
  if (call.withdrawn) {
    return {
      why: `the tools/list of ${server} in effect when it was sent (${call.withdrawn.listing}) no longer lists ${quote(call.tool)}, which an earlier listing declared (${call.withdrawn.declared})`,
      suggestion: `the client used a tool the server had withdrawn: a client refreshes its tools on notifications/tools/list_changed and uses only listed ones; if the server still serves ${quote(call.tool)}, keep it in tools/list`,
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

/**
 * The notes for a result's (or a resolve's) SEP-1913 annotations that its schema does not allow:
 * a wrong type, a value no enum knows. Such a value is in no claim, so nothing compares it: the
 * note says so, with the schema's own words.
 */
export function schemaNotes(call: SessionCall): { pointer: string; message: string; suggestion?: string; informational: true }[] {
  return call.resultProblems.map((p) => ({
    pointer: p.pointer,
    informational: true as const,
    message: `${call.kind === 'call' ? `${resultName(call)}: _meta.${p.message}` : `${callName(call)}: the resolved tool's ${p.message}`}; SEP-1913's schema does not allow it, so it was not compared with the declaration`,
    ...(p.suggestion ? { suggestion: p.suggestion } : {}),
  }));
}
