import { defineRule } from '../src/rule.js';
import type { Claim } from '../src/engine/claims.js';
import { canExpressConfirmation, confirmationSignals, irreversibleSignals, offConfirmationSignals, offConfirmationText, lintWithOffPacksOn, offPacksText, says, sideOf } from '../src/engine/queries.js';
import type { PackId } from '../src/types.js';

/** How directly a claim says a call cannot be undone; lower is stronger. */
function strength(c: Claim): number {
  if (c.fact === 'outcomes') return 0;
  if (c.fact === 'reversibility') return 1;
  if (c.fact === 'action') return c.value === 'destroy' ? 2 : 3;
  return 4; // destructiveHint true
}

/** `field includes "irreversible"` for outcome sets, `field is value` otherwise. */
function signal(c: Claim): string {
  return c.fact === 'outcomes' ? sideOf(c, 'irreversible') : sideOf(c);
}

/** The field each confirmation-capable vocabulary offers, as a suggestion names it. */
const ASK: Partial<Record<PackId, string>> = {
  'risk-metadata': 'set annotations.approvalRecommendation to "single" (or "multi")',
  'meta-hints': 'set _meta["mcp.dev/requiresConfirmation"] to true',
  'action-metadata': 'set requiresReview to true in _meta["io.modelcontextprotocol/action-metadata"]',
};

export default defineRule({
  id: 'irreversible-needs-confirmation',
  severity: 'warning',
  category: 'consistency',
  packs: ['core', 'sep-1913', 'action-metadata', 'risk-metadata', 'meta-hints'],
  summary: 'A tool that may be irreversible or destructive should ask for confirmation, when its vocabulary can say so.',
  precision: 'high',
  security: 7.0,
  why: `A call that cannot be undone is the one a user most needs to see before it runs,
and an agent acting on a prompt-injected instruction is most dangerous exactly there.
Three vocabularies let a server ask for that pause: \`_meta["mcp.dev/requiresConfirmation"]\`,
SEP-2793 \`approvalRecommendation\` (\`single\` or \`multi\`), and the action-metadata
extension's \`requiresReview\`. When the same tool says it may be irreversible or
destructive (outcomes including \`irreversible\`, \`reversibility: "none"\`, category
\`delete\` or \`destroy\`, effect \`delete\`, \`destructiveHint: true\`) and does not ask, a
client that follows the server's own advice runs the call unattended.

The \`_meta\` hints proposal names this very check as a use: "CI checks verifying that
destructive tools always declare \`requiresConfirmation: true\`".`,
  notes: `**Only where confirmation can be expressed.** The rule checks a tool only when it
uses at least one vocabulary that has a confirmation field (the \`_meta\` hints, SEP-2793,
the action-metadata extension). A tool that speaks only the core hints and SEP-1913
has no way to ask, and flagging it would demand a vocabulary the author never chose;
for those tools, a user policy (an \`escalate\` policy on irreversible outcomes, as in
SEP-1913's own example) is the tool to use.

**An explicit "no" is no confirmation.** \`requiresConfirmation: false\`,
\`approvalRecommendation: "none"\` and \`requiresReview: false\` all leave the call
unattended, so they do not silence the rule; the message quotes them. If the choice is
deliberate (a "delete" that only clears a cache), turn the rule off for that tool in the
configuration.

**One finding per problem.** When the decline is SEP-2793's \`approvalRecommendation:
"none"\` on a tool whose riskLevel is high or critical or whose reversibility is "none",
[approval-for-high-risk](approval-for-high-risk.md) reports it (with a mechanical fix) and
this rule stays quiet — but only while approval-for-high-risk checks the tool: when the
configuration turns it off (for the run, or for this server or tool in \`overrides\`), this
rule reports the tool itself, so turning one rule off never silences both.

**Disabled vocabularies.** Packs are the vocabularies your clients implement. A request for
confirmation in a vocabulary the run turned off (\`--disable-vocab meta-hints\` and
\`"mcp.dev/requiresConfirmation": true\`) is not counted — a client that does not implement
it does not ask — so the finding stays, but its message names that request and says it was
not counted because its vocabulary is off (and the suggestion says to lint with it on —
with them on, when several are off — if your clients implement it). [sensitive-to-public](sensitive-to-public.md),
[toxic-flow](toxic-flow.md) and \`escalate\` policies word it the same way.

**Any "yes" is enough.** When one vocabulary asks for confirmation and another says it
is not needed, the rule stays quiet: a client that honours any request for confirmation
will ask, and that is the behaviour this rule wants.

**What counts as irreversible or destructive.** Outcomes (SEP-1913 or action-metadata)
that *include* \`irreversible\` (possible-set semantics), SEP-2793 \`reversibility: "none"\`,
category \`delete\` or \`destroy\`, \`mcp.dev/effect: "delete"\`, and an explicit
\`destructiveHint: true\` on a tool whose \`readOnlyHint\` is not true. An absent
\`destructiveHint\` (true by default) does not count: that default is
[implicit-destructive](implicit-destructive.md)'s, and counting it would flag every tool
that has a \`_meta\` hint and no core hints at all. \`consequential\` outcomes and
\`reversibility: "manual"\` do not count: they can be undone.

**One finding per tool,** at the strongest signal, in this order: outcomes
\`irreversible\` (says so outright), \`reversibility: "none"\`, category \`destroy\`, category
or effect \`delete\`, \`destructiveHint: true\`. The other signals and any explicit "no"
are related locations.

**No mechanical fix.** Adding a confirmation key is not a one-value replacement, and
which vocabulary to add it in is the author's choice (the suggestion names the field of
each vocabulary the tool already uses). Where the server declined explicitly, flipping
that value would be mechanical but would overrule a stated decision, so it is left to a
person.

[approval-for-high-risk](approval-for-high-risk.md) weighs
\`approvalRecommendation: "none"\` against \`riskLevel\` and \`reversibility\`; this rule
weighs every confirmation field against irreversibility. A high-risk or irreversible tool
that declines approval with \`approvalRecommendation: "none"\` gets only the first (see "One
finding per problem"); one that declines otherwise (\`requiresConfirmation: false\`,
\`requiresReview: false\`) or says nothing gets this one.`,
  examples: {
    incorrect: [
      {
        title: 'A branch delete that SEP-2793 rates medium risk and says needs no approval',
        tools: [
          {
            name: 'delete_branch',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              riskLevel: 'medium',
              category: 'delete',
              reversibility: 'manual',
              approvalRecommendation: 'none',
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/category' }],
      },
      {
        title: 'An email sender with _meta hints but no confirmation hint',
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'public', sensitivity: ['pii', 'user'], outcomes: 'irreversible' },
            },
            _meta: { 'mcp.dev/effect': 'external', 'mcp.dev/idempotent': false },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes' }],
      },
      {
        title: 'requiresReview false on an irreversible outcome',
        doc: false,
        tools: [
          {
            name: 'publish_release',
            inputSchema: { type: 'object' },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: ['consequential', 'irreversible'], requiresReview: false } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/outcome' }],
      },
      {
        title: 'destructiveHint true with a _meta hint that does not ask',
        doc: false,
        tools: [
          {
            name: 'overwrite_file',
            inputSchema: { type: 'object' },
            annotations: { destructiveHint: true },
            _meta: { 'mcp.dev/effect': 'write', 'mcp.dev/requiresConfirmation': false },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/destructiveHint' }],
      },
    ],
    correct: [
      {
        title: 'A high-risk delete with approvalRecommendation "none" is approval-for-high-risk\'s finding',
        doc: false,
        tools: [
          {
            name: 'delete_repository',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, riskLevel: 'high', category: 'delete', reversibility: 'none', approvalRecommendation: 'none' },
          },
        ],
      },
      {
        title: 'A delete that asks for confirmation',
        tools: [
          {
            name: 'delete_user',
            description: 'Permanently delete a user account',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true },
            _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/idempotent': false, 'mcp.dev/requiresConfirmation': true, 'mcp.dev/resultSensitivity': 'internal' },
          },
        ],
      },
      {
        title: 'Core hints and SEP-1913 only: no vocabulary to ask with',
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'public', sensitivity: 'pii', outcomes: 'irreversible' },
            },
          },
        ],
      },
      {
        title: 'One vocabulary asks, another does not: a yes wins',
        doc: false,
        tools: [
          {
            name: 'drop_database',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, category: 'destroy', approvalRecommendation: 'none' },
            _meta: { 'mcp.dev/requiresConfirmation': true },
          },
        ],
      },
      {
        title: 'A recoverable write with SEP-2793 metadata',
        doc: false,
        tools: [
          {
            name: 'update_record',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, category: 'mutate', reversibility: 'manual', approvalRecommendation: 'none' },
          },
        ],
      },
      {
        title: 'An implicit destructiveHint is not a signal',
        doc: false,
        tools: [{ name: 'write_note', inputSchema: { type: 'object' }, _meta: { 'mcp.dev/effect': 'write' } }],
      },
    ],
  },
  check(ctx) {
    if (!canExpressConfirmation(ctx.claims) || confirmationSignals(ctx.claims).length > 0) return;
    // An explicit approvalRecommendation "none" on a high-risk or irreversible tool is
    // approval-for-high-risk's finding (with its fix); one problem, one finding — when that
    // rule checks this tool at all (turned off, for the run or by an override, it reports nothing).
    const highRisk = ctx.claims.where('riskLevel', 'high', 'critical').length > 0 || ctx.claims.where('reversibility', 'none').length > 0;
    if (highRisk && ctx.claims.where('approval', 'none').length > 0 && ctx.runs('approval-for-high-risk')) return;
    const signals = irreversibleSignals(ctx.claims)
      .map((c, i) => ({ c, i }))
      .sort((a, b) => strength(a.c) - strength(b.c) || a.i - b.i)
      .map((x) => x.c);
    const strongest = signals[0];
    if (!strongest) return;
    const declined = ctx.claims.where('requiresConfirmation', false);
    // A request for confirmation in a vocabulary the run turned off is not counted, but named.
    const off = offConfirmationSignals(ctx);
    const nothing = declined.length
      ? `confirmation is declined: ${declined.map((c) => sideOf(c)).join(' and ')}`
      : off.length
        ? 'no annotation of a vocabulary this run checks asks for confirmation before a call'
        : 'no annotation asks for confirmation before a call';
    const used = ctx.claims.packs();
    const asks = (Object.keys(ASK) as PackId[]).filter((p) => used.has(p)).map((p) => ASK[p]!);
    ctx.report({
      pointer: strongest.pointer,
      message: off.length
        ? `${signal(strongest)} but ${nothing}; ${offConfirmationText(off)}, and a client that does not implement ${offPacksText(off)} will run such a call without asking`
        : `${signal(strongest)} but ${nothing}; a client that follows the server's own hints will run such a call without asking`,
      suggestion:
        `${asks.length ? asks.join(', or ') : 'ask for confirmation (mcp.dev/requiresConfirmation, approvalRecommendation or requiresReview)'}; if a call can in fact be undone, correct ${strongest.field}` +
        (off.length ? `; if the clients you lint for implement ${offPacksText(off)}, ${lintWithOffPacksOn(off)}` : ''),
      related: [
        ...signals.slice(1).map((c) => ({ pointer: c.pointer, message: `${says(c, c.fact === 'outcomes' ? 'irreversible' : undefined)} here as well` })),
        ...declined.map((c) => ({ pointer: c.pointer, message: `${says(c)}: no confirmation` })),
        ...off.map((c) => ({ pointer: c.pointer, message: `${says(c)}: asks for confirmation, but ${offPacksText([c])} is off in this run` })),
      ],
    });
  },
});
