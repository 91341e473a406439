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
