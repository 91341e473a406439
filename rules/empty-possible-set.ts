import { defineRule } from '../src/rule.js';
import type { Fact } from '../src/engine/claims.js';
import type { Fix } from '../src/types.js';
import { claimsOf, describeClass, noneBesideClass, valueKey, written } from '../src/engine/possible-sets.js';
import { quote, someWords, thousands } from '../src/util/text.js';

/** The enum-valued possible sets, what a policy looks for in each, and a value that fills one. */
const SETS: Partial<Record<Fact, { looksFor: string; fill: string }>> = {
  destinations: { looksFor: '"public"', fill: 'list where inputs may go ("ephemeral" if they are not kept)' },
  inputSensitivity: { looksFor: '"pii"', fill: 'list the data classes the inputs may carry ("none" if nothing sensitive)' },
  outcomes: { looksFor: '"irreversible"', fill: 'list the possible outcomes ("benign" if the tool changes nothing)' },
  sources: { looksFor: '"untrustedPublic"', fill: 'list where results may come from ("system" if the tool generates them)' },
  outputSensitivity: { looksFor: '"credentials"', fill: 'list the data classes the results may carry ("none" if nothing sensitive)' },
};
const SET_FACTS = Object.keys(SETS) as Fact[];

/** The examples' tool that shares a document, with the destinations it lists. */
const shareDocument = (destination: string[]) => ({
  name: 'share_document',
  inputSchema: { type: 'object' },
  annotations: { readOnlyHint: false, destructiveHint: false, inputMetadata: { destination, sensitivity: 'user', outcomes: 'irreversible' } },
});

/** The places a value is listed, the first few: "/p/0 and /p/2", "/p/0, /p/2, …, /p/9 and 12 more". */
const SHOWN_PLACES = 5;
function listedAt(pointer: string, items: readonly number[]): string {
  return someWords(items.slice(0, SHOWN_PLACES).map((i) => `${pointer}/${i}`), items.length);
}

export default defineRule({
  id: 'empty-possible-set',
  severity: 'error',
  category: 'consistency',
  packs: ['sep-1913', 'action-metadata'],
  summary: 'A possible set (destination, sensitivity, outcomes, source) must not be empty; duplicates in one are redundant.',
  precision: 'very-high',
  security: 4.0,
  why: `In \`tools/list\`, SEP-1913's \`destination\`, \`sensitivity\`, \`outcomes\` and
\`source\` may be arrays: the set of values the tool *may* produce. Every call has some
destination, some outcome, some origin and some sensitivity (\`"none"\` included), so an
empty set describes no possible call — and it fails open: a client policy that asks
"may the outcome be irreversible?" or "may inputs go public?" finds nothing in \`[]\` and
lets the call through. The SEP's schema does not forbid an empty array, so nothing else
catches it.

A value listed twice in one set (\`["user", "public", "public"]\`) changes nothing, but it
is usually a copy-paste slip next to a value that was meant to be there; it is reported
as a warning at its first repeat, once for each repeated value, however many times it is
listed (the message names the first five places).

The same holds for the action-metadata extension's sets, whichever vocabulary wrote them.`,
  notes: `- **Which fields.** The enum-valued possible sets: input \`destination\`,
  \`sensitivity\` and \`outcomes\`, return \`source\` and \`sensitivity\` (SEP-1913
  \`annotations.inputMetadata\`/\`returnMetadata\`, and the action-metadata extension's
  members and \`outcome\`). The rule reads each as written, so an array of only
  misspelled values is [schema-valid](schema-valid.md)'s, not an empty set.
- **Not these.** SEP-2793 \`sideEffects\` is an *open* list of strings, not a possible
  set of an enum, and \`[]\` there says "no side effects" — a real statement, not an
  error. \`attribution: []\` says "no sources" and is left alone for the same reason.
  A \`{regulated: {scopes: []}}\` class declares regulated data without naming a regime;
  scopes are open strings and that is left to the author.
- **Duplicates** are compared by value, so two equal \`{regulated: {scopes: ["HIPAA"]}}\`
  objects are duplicates whatever their key order; two \`regulated\` objects with
  different scopes are not. The fix replaces the set with the set minus its repeats; it
  comes with the finding on the first repeated item only (it removes them all at once). A
  sensitivity list that also has \`"none"\` beside a class gets no fix here: the fix of
  [sensitivity-conflict](sensitivity-conflict.md) rewrites that list without \`"none"\` and
  without the repeats, and two fixes of one list would overlap (when that rule is off, this
  one keeps its fix).
- No mechanical fix for an empty set: only the author knows its members.`,
  examples: {
    incorrect: [
      {
        title: 'An empty outcomes set',
        tools: [
          {
            name: 'update_ticket',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'internal', sensitivity: 'user', outcomes: [] },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes' }],
      },
      {
        title: 'A destination listed twice',
        tools: [shareDocument(['internal', 'public', 'public'])],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/destination/2', severity: 'warning' }],
      },
      {
        title: 'A value listed many times is one finding, and each repeated value one',
        doc: false,
        tools: [shareDocument(['public', 'internal', 'public', 'internal', 'public', 'public', 'public', 'public', 'public'])],
        findings: [
          { pointer: '/tools/0/annotations/inputMetadata/destination/2', severity: 'warning' },
          { pointer: '/tools/0/annotations/inputMetadata/destination/3', severity: 'warning' },
        ],
      },
      {
        title: 'Empty return sets and a repeated regulated class',
        doc: false,
        tools: [
          {
            name: 'fetch_record',
            inputSchema: { type: 'object' },
            annotations: {
              inputMetadata: {
                destination: 'ephemeral',
                sensitivity: [{ regulated: { scopes: ['HIPAA'] } }, 'pii', { regulated: { scopes: ['HIPAA'] } }],
                outcomes: 'benign',
              },
              returnMetadata: { source: [], sensitivity: [] },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/annotations/inputMetadata/sensitivity/2', severity: 'warning' },
          { pointer: '/tools/0/annotations/returnMetadata/source' },
          { pointer: '/tools/0/annotations/returnMetadata/sensitivity' },
        ],
      },
      {
        title: 'Empty and repeated action-metadata sets',
        doc: false,
        tools: [
          {
            name: 'sync_calendar',
            inputSchema: { type: 'object' },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                inputMetadata: { destination: ['external', 'external'], sensitivity: 'user', outcomes: 'consequential' },
                outcome: [],
              },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination/1', severity: 'warning' },
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/outcome' },
        ],
      },
    ],
    correct: [
      {
        title: 'Single values and sets with distinct members',
        tools: [
          {
            name: 'share_document',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: ['internal', 'public'], sensitivity: 'user', outcomes: ['consequential', 'irreversible'] },
              returnMetadata: { source: 'system', sensitivity: 'none' },
            },
          },
        ],
      },
      {
        title: 'Two regulated classes with different scopes',
        doc: false,
        tools: [
          {
            name: 'export_records',
            inputSchema: { type: 'object' },
            annotations: {
              inputMetadata: {
                destination: 'internal',
                sensitivity: [{ regulated: { scopes: ['HIPAA'] } }, { regulated: { scopes: ['GDPR'] } }],
                outcomes: 'consequential',
              },
            },
          },
        ],
      },
      {
        title: 'Empty open lists: SEP-2793 sideEffects and attribution',
        doc: false,
        tools: [
          {
            name: 'get_weather',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, riskLevel: 'low', category: 'read', sideEffects: [], attribution: [] },
          },
        ],
      },
    ],
  },
  check(ctx) {
    if (!SET_FACTS.some((f) => ctx.claims.has(f))) return;
    for (const claim of claimsOf(ctx.claims, ...SET_FACTS)) {
      const set = SETS[claim.fact]!;
      const w = written(claim);
      if (!Array.isArray(w)) continue;
      if (w.length === 0) {
        ctx.report({
          pointer: claim.pointer,
          message: `${claim.field} is an empty list (${claim.pointer}): a possible set with no members describes no possible call, and a client looking for ${set.looksFor} in it finds nothing and lets the call through`,
          suggestion: set.fill,
        });
        continue;
      }
      // Where each value is listed, in the order values first appear.
      const places = new Map<string, number[]>();
      w.forEach((v, i) => {
        const key = valueKey(v);
        const list = places.get(key);
        if (list) list.push(i);
        else places.set(key, [i]);
      });
      if (places.size === w.length) continue;
      const unique = [...places.values()].map((items) => w[items[0]!]);
      // One fix for the set (it replaces the whole list), on its first repeated item: on every
      // one, n repeats of a list of u values made a report of n × u (gigabytes from a few KB).
      // "none" beside a class in the same list: sensitivity-conflict's fix rewrites the list
      // without "none" and without the repeats, so this one leaves the list to it (two fixes
      // writing one list two ways conflict for a consumer that applies them all).
      const leftToConflict = noneBesideClass(claim) !== undefined && ctx.runs('sensitivity-conflict');
      let fix: Fix | undefined = leftToConflict
        ? undefined
        : { description: `Remove repeated values from ${claim.field}`, replacements: [{ pointer: claim.pointer, text: JSON.stringify(unique) }] };
      // One finding per repeated value, at its first repeat, naming where it is listed: a finding
      // per repeat let a list of a value listed a million times (10 MB) make a million findings
      // (a 1 GB report).
      const repeated = [...places.values()].filter((items) => items.length > 1).sort((a, b) => a[1]! - b[1]!);
      for (const items of repeated) {
        const [at, i] = items as [number, number];
        const v = w[i];
        const shown = claim.fact === 'inputSensitivity' || claim.fact === 'outputSensitivity' ? describeClass(v) : quote(v);
        ctx.report({
          pointer: `${claim.pointer}/${i}`,
          severity: 'warning',
          message: `${claim.field} lists ${shown} ${items.length === 2 ? 'twice' : `${thousands(items.length)} times`} (${listedAt(claim.pointer, items)})`,
          suggestion: `remove the repeated ${shown}, or replace ${items.length === 2 ? 'it' : 'them'} with the value${items.length === 2 ? '' : 's'} that ${items.length === 2 ? 'was' : 'were'} meant${leftToConflict ? ' (sensitivity-conflict\'s fix for "none" in this list removes it too)' : ''}`,
          fix,
          related: [{ pointer: `${claim.pointer}/${at}`, message: `${shown} is first listed here` }],
        });
        fix = undefined;
      }
    }
  },
});
