import { defineRule } from '../src/rule.js';
import type { Action, Claim } from '../src/engine/claims.js';
import { beyondReading, destructive, readingActions, readOnly, says, sideOf } from '../src/engine/queries.js';
import { listSides } from '../src/engine/read-evidence.js';

/** Actions that say a tool does more than read, and what each says. */
const WRITES: Partial<Record<Action, string>> = {
  write: 'which says the tool modifies its environment',
  delete: 'which says the tool deletes data',
  destroy: 'which says the tool destroys resources',
  external: 'which says the tool’s primary side effect lands on an external system',
};

/** One claim that says the tool does more than read, with the member that says so. */
interface Against {
  claim: Claim;
  member?: string;
  what: string;
}

export default defineRule({
  id: 'read-action-conflict',
  severity: 'error',
  category: 'consistency',
  packs: ['risk-metadata', 'meta-hints'],
  summary: 'A tool categorised as reading must not be described elsewhere as writing, deleting, sending, or irreversible.',
  precision: 'high',
  security: 7.0,
  why: `SEP-2793's \`category\` and the \`mcp.dev/effect\` hint say in one word what a tool
does; \`read\` and \`observe\` say it only reads. Another field of the same tool may say the
opposite: an effect of \`write\`, \`delete\` or \`external\` (or a category of \`mutate\`,
\`delete\` or \`destroy\`), SEP-1913 or action-metadata outcomes that include
\`irreversible\`, or SEP-2793 \`reversibility: "none"\`. Both cannot be true. A client that
reads the category runs the tool without asking; a client that reads the effect or the
outcomes asks first, or blocks it. If the reading side is the wrong one, a deletion or a
message that cannot be taken back runs unasked.

The other rules that weigh these fields ([readonly-vs-category](readonly-vs-category.md),
[readonly-vs-outcome](readonly-vs-outcome.md), [destructive-vs-category](destructive-vs-category.md))
compare each of them with a core hint, so without one (or with one that settles nothing
here, such as \`readOnlyHint: false\` beside a \`read\` category) the contradiction went
unreported. Claims are normalised across vocabularies so that a rule about "irreversible"
fires whichever vocabulary said it; this rule is that promise for a reading category or
effect.`,
  notes: `**Which words count.** On the reading side, a \`category\` or \`mcp.dev/effect\` of
\`read\` or \`observe\` (\`utility\` says nothing about writing, either way). On the other
side, an action of \`write\` (\`mutate\`), \`delete\`, \`destroy\` or \`external\`; outcomes
(SEP-1913 \`inputMetadata.outcomes\`, action-metadata \`outcome\` or
\`inputMetadata.outcomes\`) whose possible set *includes* \`irreversible\`; and
\`reversibility: "none"\`, which says a call's effect can never be undone — the reading
[reversibility-vs-outcome](reversibility-vs-outcome.md) and
[readonly-contradicted](readonly-contradicted.md) give it too. \`consequential\` outcomes
and \`reversibility: "manual"\` are not counted: a tool that only reads may still leave
a persistent trace (a read receipt, a "last viewed" mark, an access log) that SEP-1913
calls consequential and an author may say is undone by hand, and possible sets are
written wide on purpose. An irreversible effect or a named write, delete or send cannot
be part of a read. Values a pack could not map are not guessed at.

**An error**, like readonly-vs-category and readonly-vs-outcome: the two fields are
definitions that exclude each other, not a judgment, and clients that read different
vocabularies treat the tool in opposite ways.

**One problem, one finding.** When a core hint is stated, the rules that compare it
already report the same field, and this rule leaves the field to them — only while they
check the tool, so turning one of them off never silences both:
- \`readOnlyHint: true\`: readonly-vs-category reports the writing action and
  readonly-vs-outcome the irreversible outcome, each listing the reading category or
  effect as a related location (setting the hint to false does not settle it);
- \`destructiveHint: false\` (no \`readOnlyHint: true\`): destructive-vs-category reports a
  \`delete\` or \`destroy\` action, with the reading category or effect related;
- \`destructiveHint: true\` (no \`readOnlyHint: true\`): destructive-vs-category reports the
  reading category or effect itself, with what says the tool writes as related, so this
  rule reports nothing for the tool;
- \`reversibility: "none"\` beside outcomes that are only \`benign\` is
  reversibility-vs-outcome's finding.

**Where and what to fix.** One finding per field that contradicts the reading category or
effect, at that field (its member is the finding's \`detail\`, so an accepted \`"write"\`
does not cover \`"delete"\` later), with every reading field as a related location. No
mechanical fix: either side may be the wrong one, and only the author knows which.`,
  examples: {
    incorrect: [
      {
        title: 'SEP-2793 says read, the _meta hints say delete',
        tools: [
          {
            name: 'purge_cache',
            inputSchema: { type: 'object' },
            annotations: { openWorldHint: false, category: 'read' },
            _meta: { 'mcp.dev/effect': 'delete' },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
      {
        title: 'An effect of "read" beside SEP-1913 outcomes that include irreversible',
        tools: [
          {
            name: 'lookup_order',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'irreversible' } },
            _meta: { 'mcp.dev/effect': 'read' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes' }],
      },
      {
        title: 'A read category beside an action-metadata outcome of irreversible',
        doc: false,
        tools: [
          {
            name: 'get_invoice',
            inputSchema: { type: 'object' },
            annotations: { category: 'read' },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'irreversible' } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/outcome' }],
      },
      {
        title: 'readOnlyHint false does not settle which of the two is right',
        doc: false,
        tools: [
          {
            name: 'post_message',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, category: 'observe' },
            _meta: { 'mcp.dev/effect': 'external' },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
      {
        title: 'Both vocabularies read, reversibility none: no other rule weighs it, core hint or not',
        doc: false,
        tools: [
          {
            name: 'get_pod',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, category: 'read', reversibility: 'none' },
            _meta: { 'mcp.dev/effect': 'read' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/reversibility' }],
      },
      {
        title: 'Several contradicting fields: one finding each',
        doc: false,
        tools: [
          {
            name: 'sync_repo',
            inputSchema: { type: 'object' },
            annotations: { category: 'observe', inputMetadata: { destination: 'internal', sensitivity: 'none', outcomes: ['benign', 'irreversible'] } },
            _meta: { 'mcp.dev/effect': 'write' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes' }, { pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
    ],
    correct: [
      {
        title: 'Every vocabulary says the tool reads',
        tools: [
          {
            name: 'get_pod_logs',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              category: 'read',
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
            },
            _meta: { 'mcp.dev/effect': 'read' },
          },
        ],
      },
      {
        title: 'With readOnlyHint true, the writing effect is readonly-vs-category’s finding',
        explanation: 'readonly-vs-category reports the effect against the hint and lists the category as a related location: one problem, one finding.',
        tools: [
          {
            name: 'purge_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, category: 'read' },
            _meta: { 'mcp.dev/effect': 'delete' },
          },
        ],
      },
      {
        title: 'With readOnlyHint true, an irreversible outcome is readonly-vs-outcome’s finding',
        doc: false,
        tools: [
          {
            name: 'lookup_order',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'irreversible' } },
            _meta: { 'mcp.dev/effect': 'read' },
          },
        ],
      },
      {
        title: 'destructiveHint stated: destructive-vs-category’s finding, either way',
        doc: false,
        tools: [
          {
            name: 'purge_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, category: 'read' },
            _meta: { 'mcp.dev/effect': 'delete' },
          },
          {
            name: 'wipe_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, category: 'read' },
            _meta: { 'mcp.dev/effect': 'delete' },
          },
        ],
      },
      {
        title: 'reversibility none beside only benign outcomes is reversibility-vs-outcome’s finding',
        doc: false,
        tools: [
          {
            name: 'lookup_customer',
            inputSchema: { type: 'object' },
            annotations: { category: 'read', reversibility: 'none', inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' } },
          },
        ],
      },
      {
        title: 'consequential outcomes, reversibility manual and a utility category are not counted',
        doc: false,
        tools: [
          {
            name: 'get_report',
            inputSchema: { type: 'object' },
            annotations: { category: 'read', reversibility: 'manual', inputMetadata: { destination: 'internal', sensitivity: 'none', outcomes: 'consequential' } },
          },
          {
            name: 'format_date',
            inputSchema: { type: 'object' },
            annotations: { category: 'utility' },
            _meta: { 'mcp.dev/effect': 'write' },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const reads = readingActions(ctx.claims);
    if (reads.length === 0) return;
    const ro = readOnly(ctx.claims)?.value === true;
    const d = ro ? undefined : destructive(ctx.claims)?.value;
    // destructiveHint true: destructive-vs-category reports every reading category or effect.
    if (d === true && ctx.runs('destructive-vs-category')) return;

    const outcomes = ctx.claims.all('outcomes');
    const onlyBenign = outcomes.length > 0 && ctx.claims.only('outcomes', 'benign').length === outcomes.length;
    const against: Against[] = [];
    for (const { claim, member } of beyondReading(ctx.claims)) {
      if (claim.fact === 'action') {
        // readOnlyHint true: readonly-vs-category's; destructiveHint false: destructive-vs-category's for a deletion.
        if (ro && ctx.runs('readonly-vs-category')) continue;
        if (d === false && (claim.value === 'delete' || claim.value === 'destroy') && ctx.runs('destructive-vs-category')) continue;
        against.push({ claim, what: WRITES[claim.value as Action]! });
      } else if (claim.fact === 'outcomes') {
        if (ro && ctx.runs('readonly-vs-outcome')) continue;
        against.push({ claim, member, what: 'which says a call may have effects that cannot be undone' });
      } else {
        // Beside outcomes that are only benign, reversibility-vs-outcome reports the same field.
        if (onlyBenign && ctx.runs('reversibility-vs-outcome')) continue;
        against.push({ claim, what: 'which says a call’s effect can never be undone' });
      }
    }

    for (const a of against) {
      const fixOther =
        a.claim.fact === 'action'
          ? a.claim.value === 'external'
            ? `set ${a.claim.field} to "read" (reaching an outside service is what openWorldHint says)`
            : `set ${a.claim.field} to ${a.claim.field.startsWith('_meta') ? '"read"' : '"read" or "observe"'}`
          : a.claim.fact === 'outcomes'
            ? `drop "irreversible" from ${a.claim.field}`
            : `drop ${a.claim.field} or set it to "auto"`;
      ctx.report({
        pointer: a.claim.pointer,
        // The member in conflict: an accepted "write" does not cover "delete" at the same place later.
        detail: a.member ?? String(a.claim.value),
        message:
          `${listSides(reads)} but ${sideOf(a.claim, a.member)}, ${a.what}: ` +
          'a tool that only reads changes nothing, so one of the two is wrong, and clients that read different vocabularies treat the tool in opposite ways',
        suggestion: `if the tool only reads, ${fixOther}; if it does more, change ${reads.map((r) => r.field).join(' and ')} to what it does`,
        related: reads.map((r) => ({ pointer: r.pointer, message: `${says(r)} here` })),
      });
    }
  },
});
