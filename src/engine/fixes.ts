/**
 * The mechanical fixes of one report never edit the same place twice. A fix replaces the value
 * at each of its pointers; when one finding's fix replaces a value that holds another's (a
 * fix that adds a member replaces the whole object, e.g. readonly-vs-category adding
 * destructiveHint to `annotations`, beside risk-level-floor's fix of `annotations.riskLevel`),
 * a tool that applies every fix of a SARIF log or a JSON report at once would apply two
 * overlapping edits and corrupt the document. Of two such fixes the more severe finding's is
 * kept (the earlier in the report's order between equals); the other finding keeps its
 * message and suggestion, says why it has no fix this time, and gets its fix on the next run,
 * once the first is applied. Two findings that make the same edit are no exception: a tool
 * that applies SARIF regions would apply it twice, so the second finding has none either.
 */
import { SEVERITY_RANK, type Finding, type Replacement, type ServerInput } from '../types.js';

/** The replacements kept in one document: by pointer, and every pointer that holds one of them. */
interface Kept {
  at: Map<string, { text: string; finding: Finding }>;
  /** For each pointer that holds a kept replacement's: the finding, and where its replacement is. */
  holding: Map<string, { finding: Finding; at: string }>;
}

/** The parents of a pointer, nearest last ("/a/b/c" → "", "/a", "/a/b"). */
function ancestors(pointer: string): string[] {
  const out: string[] = [];
  for (let i = pointer.indexOf('/'); i >= 0; i = pointer.indexOf('/', i + 1)) out.push(pointer.slice(0, i));
  return out;
}

/** The kept finding whose fix edits text a replacement would edit too (the same value, a value holding it, or one inside it), and where. */
function clashOf(kept: Kept, r: Replacement): { finding: Finding; at: string; same: boolean } | undefined {
  const same = kept.at.get(r.pointer);
  // The same edit twice is a clash too: a tool that applies SARIF regions applies it twice.
  if (same) return { finding: same.finding, at: r.pointer, same: same.text === r.text };
  for (const a of ancestors(r.pointer)) {
    const outer = kept.at.get(a);
    if (outer) return { finding: outer.finding, at: a, same: false };
  }
  const inner = kept.holding.get(r.pointer);
  return inner ? { finding: inner.finding, at: inner.at, same: false } : undefined;
}

/**
 * Drops, in place, each fix that overlaps a fix kept for a finding of the same document.
 * @param documentOf The document a server's findings point into (servers read from one file share it).
 */
export function settleOverlappingFixes(findings: readonly Finding[], documentOf: (serverId: string) => unknown): void {
  const withFix = findings.filter((f) => f.fix !== undefined && f.fix.replacements.length > 0);
  if (withFix.length < 2) return;
  // Fixes that stay inside their own tool can only clash with fixes of the same tool: settled
  // tool by tool, and a tool with one fix has nothing to settle. A fix that reaches outside its
  // tool (none of the rules' does today), or tools one inside another's place (a transcript's
  // entry and a tool in it), send every fix of their document through one settling.
  const documents = new Map<unknown, Map<string, Finding[]>>();
  const whole = new Set<unknown>();
  for (const f of withFix) {
    const doc = documentOf(f.serverId);
    const base = f.tool !== undefined && f.pointer.endsWith(f.toolPointer) ? f.pointer.slice(0, f.pointer.length - f.toolPointer.length) : undefined;
    if (base === undefined || !f.fix!.replacements.every((r) => r.pointer.startsWith(`${base}/`))) whole.add(doc);
    let tools = documents.get(doc);
    if (!tools) documents.set(doc, (tools = new Map()));
    const key = base ?? '';
    const list = tools.get(key);
    if (list) list.push(f);
    else tools.set(key, [f]);
  }
  for (const [doc, tools] of documents) {
    if (!whole.has(doc) && ![...tools.keys()].some((base) => ancestors(base).some((a) => tools.has(a)))) {
      for (const list of tools.values()) if (list.length > 1) settle(list, documentOf);
      continue;
    }
    // In the report's order, as withFix is.
    const all = [...tools.values()].flat();
    const order = new Map(withFix.map((f, i) => [f, i]));
    settle(all.sort((a, b) => order.get(a)! - order.get(b)!), documentOf);
  }
}

/** Settles the fixes of these findings (given in the report's order) against each other. */
function settle(withFix: readonly Finding[], documentOf: (serverId: string) => unknown): void {
  // Stable: between findings of one severity, the report's order decides.
  const byPriority = withFix.map((f, i) => ({ f, i })).sort((a, b) => SEVERITY_RANK[b.f.severity] - SEVERITY_RANK[a.f.severity] || a.i - b.i);
  const documents = new Map<unknown, Kept>();
  for (const { f } of byPriority) {
    const doc = documentOf(f.serverId);
    let kept = documents.get(doc);
    if (!kept) documents.set(doc, (kept = { at: new Map(), holding: new Map() }));
    const replacements = f.fix!.replacements;
    let clash: ReturnType<typeof clashOf>;
    for (const r of replacements) if ((clash = clashOf(kept, r))) break;
    if (clash) {
      const { finding, at, same } = clash;
      const why = same && replacements.length === 1 ? `it is the same edit as ${finding.ruleId}'s fix at ${at}` : `it would edit the same place as ${finding.ruleId}'s fix at ${at}`;
      f.suggestion = `${f.suggestion ? `${f.suggestion} ` : ''}(no mechanical fix in this report: ${why}; apply that one and lint again)`;
      f.fix = undefined;
      continue;
    }
    for (const r of replacements) {
      if (!kept.at.has(r.pointer)) kept.at.set(r.pointer, { text: r.text, finding: f });
      for (const a of ancestors(r.pointer)) if (!kept.holding.has(a)) kept.holding.set(a, { finding: f, at: r.pointer });
    }
  }
}

/** settleOverlappingFixes for a run's servers: those read from one text (one locator) share a document. */
export function settleFixesOf(findings: readonly Finding[], servers: readonly Pick<ServerInput, 'id' | 'locator'>[]): void {
  const documentOf = new Map(servers.map((s) => [s.id, s.locator ?? s.id]));
  settleOverlappingFixes(findings, (id) => documentOf.get(id) ?? id);
}

/**
 * The first number inside a container that JSON.stringify cannot write back as the value read:
 * ±Infinity (`1e400` in the source), which it writes as null, and an integer past 2^53
 * (`12345678901234567890123`), which it writes as 1.2345678901234568e+22, another number to a
 * reader that keeps integers exact. A fix that replaces such a container with its re-serialised
 * JSON (an array without its repeated values, annotations with a member added) would change that
 * number. A number replaced on its own is what the fix means to change: only containers are
 * searched. Iterative, for deep nesting.
 */
export function unwritableNumberIn(value: unknown): number | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || (Number.isInteger(v) && !Number.isSafeInteger(v))) return v;
    } else if (v !== null && typeof v === 'object') {
      for (const member of Array.isArray(v) ? v : Object.values(v)) stack.push(member);
    }
  }
  return undefined;
}
