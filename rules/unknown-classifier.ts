import { defineRule } from '../src/rule.js';
import { DESTINATIONS, OUTCOMES, SOURCES, type Claim, type Fact } from '../src/engine/claims.js';
import { orList, quote, someWords } from '../src/util/text.js';
import { Distinct } from '../src/util/array.js';

/** SEP-1913's values for each classifier fact, and what the message calls one. */
const KNOWN: Partial<Record<Fact, { noun: string; values: readonly string[]; extra?: string }>> = {
  destinations: { noun: 'destination', values: DESTINATIONS },
  sources: { noun: 'source', values: SOURCES },
  outcomes: { noun: 'outcome', values: OUTCOMES },
  inputSensitivity: { noun: 'data class', values: ['none', 'user', 'pii', 'financial', 'credentials'], extra: '{"regulated": {"scopes": [...]}}' },
  outputSensitivity: { noun: 'data class', values: ['none', 'user', 'pii', 'financial', 'credentials'], extra: '{"regulated": {"scopes": [...]}}' },
};

/** The most values a finding quotes and points at: a list of 80,000 unknown outcomes made one finding of a 1.7 MB message and 80,000 related places. */
const SHOWN = 10;

/** Server values, quoted and shortened: "a", "a" and "b", "a", "b" and "c"; past SHOWN, the first ones and "and 79,990 more". */
function andList(values: readonly string[]): string {
  return someWords(values.slice(0, SHOWN).map((v) => quote(v)), values.length);
}

const squash = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');

/** True when a and b differ by exactly one insertion, deletion, substitution or adjacent swap. */
export function oneEdit(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * How an unknown value relates to a known one, when it is plainly the same word written
 * differently: only letter case, only case and separators, or one typo in a word of four
 * or more letters that is close to exactly one known value. Anything else is a different
 * word, and is never matched ("external" is not "internal").
 */
export function variantOf(value: string, known: readonly string[]): { of: string; how: string } | undefined {
  const byCase = known.find((k) => k.toLowerCase() === value.toLowerCase());
  if (byCase) return { of: byCase, how: 'only in letter case' };
  const bySeparators = known.find((k) => squash(k) === squash(value));
  if (bySeparators) return { of: bySeparators, how: 'only in letter case, spaces, hyphens or underscores' };
  const v = squash(value);
  if (v.length < 4) return undefined;
  const near = known.filter((k) => k.length >= 4 && oneEdit(v, squash(k)));
  return near.length === 1 ? { of: near[0]!, how: 'by one letter, which looks like a misspelling' } : undefined;
}

/** Strings of a classifier as written that are a known value in another letter case ("Public"), once each. */
function caseVariantsOf(raw: unknown, values: readonly string[]): string[] {
  if (!Array.isArray(raw)) return typeof raw === 'string' && !values.includes(raw) && inOtherCase(raw, values) ? [raw] : NONE;
  // The list is made only for a claim that has a case variant: most have none.
  let out: Distinct<string> | undefined;
  for (const v of raw) {
    if (typeof v !== 'string' || values.includes(v)) continue;
    if (inOtherCase(v, values)) (out ??= new Distinct()).add(v);
  }
  return out?.list ?? NONE;
}

/** Whether a string is one of `values` in another letter case. */
function inOtherCase(v: string, values: readonly string[]): boolean {
  const lower = v.toLowerCase();
  return values.some((k) => k.toLowerCase() === lower);
}

/** No values (shared, never changed: every use of an empty list only reads its length). */
const NONE: string[] = [];

/** Where each string of a claim's list is first written (a lookup per value: `indexOf` per value was quadratic over a list of many); undefined for a single value. */
function firstIndexes(raw: unknown): Map<string, number> | undefined {
  if (!Array.isArray(raw)) return undefined;
  const at = new Map<string, number>();
  raw.forEach((v, i) => {
    if (typeof v === 'string' && !at.has(v)) at.set(v, i);
  });
  return at;
}

/** `values` (strings of the list) in the order they are written there. */
function inWrittenOrder(at: Map<string, number> | undefined, values: readonly string[]): string[] {
  if (at === undefined) return [...values];
  return [...values].sort((a, b) => (at.get(a) ?? -1) - (at.get(b) ?? -1));
}

/** The pointer of each unknown value: its array item, or the field when it is a single value. */
function itemPointers(claim: Claim, at: Map<string, number> | undefined, values: readonly string[]): string[] {
  return values.map((v) => {
    const i = at?.get(v);
    return i !== undefined ? `${claim.pointer}/${i}` : claim.pointer;
  });
}

export default defineRule({
  id: 'unknown-classifier',
  severity: 'note',
  category: 'consistency',
  packs: ['action-metadata'],
  summary: 'An action-metadata classifier uses a value outside the SEP-1913 vocabulary, which clients cannot act on.',
  precision: 'very-high',
  why: `The action-metadata extension keeps SEP-1913's classifiers (\`destination\`,
\`source\`, \`outcomes\`, \`sensitivity\`) but lets them be open strings, and servers in the
wild use their own: \`"external"\`, \`"first-party"\`, \`"sensitive"\`. A client's policy
("ask before sending pii to a public destination") is written against the SEP-1913
values, so a value outside them matches no policy: the client cannot tell whether
\`"external"\` means \`public\` or \`internal\`, and the declaration that was meant to
inform it says nothing it can use.

mcp-annotate keeps such values on the claim and never maps them to a known value: a
guess would let a rule fire (or stay silent) on something the server never said. This
note lists the values (the first ${SHOWN} of a longer list, and how many more), the field, and
the SEP-1913 values a client knows.`,
  notes: `- **A note, never more.** The extension allows open strings, so the value is valid;
  it is only less useful than a known one. The note does not fail a build by default.
- **No guessing.** The message says plainly that mcp-annotate does not map the value.
  It names a known value only when the unknown one is the same word written differently:
  separators (\`"untrusted_public"\`), or a single typo in a word of four or more letters
  that is one edit from exactly one known value (\`"pubic"\`). Even then there is no fix:
  \`"untrusted_public"\` may be the server's own class, and only the author knows. A
  different word is never matched, however close (\`"external"\` is two letters from
  \`"internal"\` and means something else).
- **Letter case alone is read.** A known value in another letter case (\`"Public"\`,
  \`"Irreversible"\`) is plainly SEP-1913's word, so the pack reads it as that value and
  the other rules weigh it (a read-only tool whose \`outcome\` is \`"Irreversible"\` is
  [readonly-vs-outcome](readonly-vs-outcome.md)'s error). This note still reports the
  spelling: a client that compares values exactly cannot act on it.
- **Where.** One note per field (each field that holds unknown values), at the first
  unknown array item (or at the field when it holds a single string), with the other
  unknown items as related locations. An empty string is a schema error
  ([schema-valid](schema-valid.md)), not an unknown classifier.
- SEP-1913's own \`annotations.inputMetadata\` / \`returnMetadata\` are closed enums:
  an unknown value there is a schema error, reported by schema-valid, not here.`,
  examples: {
    incorrect: [
      {
        title: 'Open-string classifiers a client cannot match',
        tools: [
          {
            name: 'post_to_channel',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                inputMetadata: { destination: ['external', 'user'], sensitivity: 'none', outcomes: 'irreversible' },
                requiresReview: true,
              },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination/0', severity: 'note' }],
      },
      {
        title: 'A known value written in another case',
        tools: [
          {
            name: 'fetch_page',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: 'UntrustedPublic', sensitivity: 'none' } } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/source', severity: 'note' }],
      },
      {
        title: 'Several unknown values in one field, and a misspelling',
        doc: false,
        tools: [
          {
            name: 'export_report',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                inputMetadata: { destination: 'pubic', sensitivity: ['pii', 'sensitive', 'confidential'], outcomes: 'benign' },
                outcome: 'Benign',
              },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination', severity: 'note' },
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/sensitivity/1', severity: 'note' },
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/outcome', severity: 'note' },
        ],
      },
      {
        title: 'A separator variant beside a value of the server\'s own',
        doc: false,
        tools: [
          {
            name: 'fetch_feed',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: ['first-party', 'untrusted_public'], sensitivity: 'none' } } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/source/0', severity: 'note' }],
      },
    ],
    correct: [
      {
        title: 'Classifiers from the SEP-1913 vocabulary',
        tools: [
          {
            name: 'post_to_channel',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                inputMetadata: { destination: ['public', 'user'], sensitivity: 'none', outcomes: 'irreversible' },
                requiresReview: true,
              },
            },
          },
        ],
      },
      {
        title: "SEP-1913's own inputMetadata is a closed enum: an unknown value there is schema-valid's error only",
        doc: false,
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, inputMetadata: { destination: 'external', sensitivity: 'pii', outcomes: 'reversible' } },
          },
        ],
      },
      {
        title: 'A regulated data class in its object form',
        doc: false,
        tools: [
          {
            name: 'read_chart',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
            _meta: {
              'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: 'internal', sensitivity: [{ regulated: { scopes: ['HIPAA'] } }, 'pii'] } },
            },
          },
        ],
      },
    ],
  },
  check(ctx) {
    for (const claim of ctx.claims.list) {
      // SEP-1913's annotations.inputMetadata / returnMetadata are closed enums: schema-valid's.
      if (claim.pack !== 'action-metadata') continue;
      const known = KNOWN[claim.fact];
      // The pack reads a known value in another letter case as that value (it is not on
      // claim.unknown), but a client that compares values exactly cannot: note it as well.
      const caseVariants = known ? caseVariantsOf(claim.raw, known.values) : NONE;
      const unread = claim.unknown === undefined ? NONE : claim.unknown.filter((v) => v !== '');
      if (unread.length === 0 && caseVariants.length === 0) continue;
      const at = firstIndexes(claim.raw);
      const values = unread.length === 0 ? caseVariants : caseVariants.length === 0 ? unread : inWrittenOrder(at, [...unread, ...caseVariants]);
      const pointers = itemPointers(claim, at, values.slice(0, SHOWN));
      const single = !Array.isArray(claim.raw) && values.length === 1;
      const noun = known?.noun ?? 'value';
      const head = `${claim.field} ${single ? 'is' : 'includes'} ${andList(values)}`;
      const notKnown = known
        ? `, which ${values.length === 1 ? `is not a SEP-1913 ${noun}` : `are not SEP-1913 ${noun}${noun.endsWith('s') ? 'es' : 's'}`}`
        : `, which ${values.length === 1 ? 'is' : 'are'} not a known value`;
      const knownList = known
        ? `; clients that implement SEP-1913 know ${orList(known.values)}${known.extra ? ` and the form ${known.extra}` : ''}`
        : '';
      const variants = known
        ? values.slice(0, SHOWN).flatMap((v) => {
            const m = variantOf(v, known.values);
            return m ? [`${quote(v)} differs from ${JSON.stringify(m.of)} ${m.how}`] : [];
          })
        : [];
      const variantText = variants.length ? `; ${variants.join('; ')}` : '';
      const them = values.length === 1 ? 'it' : 'them';
      const pronoun = (n: number) => (n === 1 ? 'it' : 'them');
      const readText = caseVariants.length
        ? `; mcp-annotate reads ${andList(caseVariants)} as the SEP-1913 ${noun}${caseVariants.length === 1 ? '' : 's'} ${caseVariants.length === 1 ? 'it names' : 'they name'}, as a client that compares values loosely would (one that compares them exactly cannot act on ${pronoun(caseVariants.length)})`
        : '';
      const keptText = unread.length ? `; mcp-annotate keeps ${unread.length === values.length ? them : andList(unread)} as written and does not map ${pronoun(unread.length)} to a known ${noun}` : '';
      ctx.report({
        pointer: pointers[0]!,
        message: `${head}${notKnown}${knownList}${variantText}${readText}${keptText}`,
        suggestion:
          caseVariants.length === values.length
            ? `write ${them} exactly as SEP-1913 does (${caseVariants.slice(0, SHOWN).map((v) => JSON.stringify(variantOf(v, known!.values)!.of)).join(', ')}${caseVariants.length > SHOWN ? ', …' : ''}): clients that compare values exactly ignore ${them} as written`
            : variants.length === values.length
            ? `if ${values.length === 1 ? 'the value is' : 'these values are'} meant as the SEP-1913 ${noun}${values.length === 1 ? '' : 's'} named above, write ${them} exactly as SEP-1913 does; otherwise leave ${them}, knowing clients cannot act on ${them}`
            : variants.length
              ? `write a value meant as the SEP-1913 ${noun} named above exactly as SEP-1913 does; for the others, use a SEP-1913 ${noun} where one says what you mean, or expect clients to ignore them`
              : `use a SEP-1913 ${noun} where one says what you mean (adding it beside your own value in the possible set is fine); otherwise expect clients to ignore ${them}`,
        related: pointers.slice(1).map((p, i) => ({ pointer: p, message: `${quote(values[i + 1])} is also not a SEP-1913 ${noun}` })),
      });
    }
  },
});
