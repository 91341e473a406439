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
import { SEVERITY_RANK, type Finding, type Replacement } from '../types.js';

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
