import { defineRule } from '../src/rule.js';
import { readOnly, sideOf } from '../src/engine/queries.js';
import { listSides, onlyReads } from '../src/engine/read-evidence.js';
import type { Claim } from '../src/engine/claims.js';
import { holdsOnly } from '../src/engine/claims.js';
import { hasOwn } from '../src/util/json.js';

export default defineRule({
  id: 'implicit-destructive',
  severity: 'warning',
  category: 'core-hints',
  packs: ['core', 'sep-1913', 'action-metadata', 'risk-metadata', 'meta-hints'],
  summary: 'A tool that may write should say whether its writes are destructive.',
  precision: 'very-high',
  why: `\`destructiveHint\` defaults to **true**. A tool that is not read-only and does not set
it is, to every client, a tool that may delete or overwrite data, whether or not the
author meant that. Clients warn harder, or refuse to auto-approve, for destructive
tools; a tool that only creates things (a new issue, a new file) pays that price for
nothing. Setting the hint explicitly, to either value, tells clients the author thought
about it.`,
  notes: `Fires when \`readOnlyHint\` is false or absent and \`destructiveHint\` is absent (no
annotations at all included). A hint of the wrong type is
[schema-valid](schema-valid.md)'s, so a \`readOnlyHint\` or \`destructiveHint\` that is
present but not a boolean keeps this rule quiet. Reported at \`annotations\` when it
exists, else at the tool, with \`readOnlyHint\` as the related location when it is false.

The rule fires whatever the other vocabularies say; they only shape the suggestion,
in this order:
- a delete or destroy signal from any vocabulary (SEP-2793 \`category\` delete or
  destroy, \`mcp.dev/effect\` delete): set \`destructiveHint: true\` explicitly, quoting it;
- \`readOnlyHint\` absent and the other vocabularies say the tool only reads (see
  [readonly-contradicted](readonly-contradicted.md) for the signals, and for how
  unknown or unreadable values count against "read"): set \`readOnlyHint: true\`,
  which makes \`destructiveHint\` moot. The suggestion quotes every signal that together
  says so: benign outcomes alone do not (the inputs may still be stored), so SEP-1913's
  outcomes "benign" is quoted together with its destination "ephemeral";
- an irreversible signal without a delete or destroy one (SEP-1913 or action-metadata
  outcomes including "irreversible", SEP-2793 \`reversibility\` "none"): set
  \`destructiveHint\` explicitly, and the suggestion says that irreversible alone does
  not make a tool destructive;
- possible outcomes only "benign" (no persistent change outside the tool's own
  context) in *every* vocabulary that states outcomes: set \`destructiveHint: false\`.
  When SEP-1913 says "benign" and the action-metadata extension says "consequential",
  the vocabularies disagree and the author chooses.

**Irreversible is not destructive.** The spec's \`destructiveHint: false\` means "only
additive updates". Sending an email or publishing a post cannot be undone, yet it only
adds: SEP-1913's own \`send_email\` (outcomes "irreversible") is rightly non-destructive.
So an irreversible outcome, or SEP-2793 reversibility "none", never earns the
\`destructiveHint: true\` suggestion on its own (the same reading as
[description-vs-hints](description-vs-hints.md)); it still makes the call one to
confirm, which is [irreversible-needs-confirmation](irreversible-needs-confirmation.md)'s.

A value a pack could not map (an action-metadata outcome of \`"reversible"\`, a
SEP-1913 value outside its enum) is unknown: it is never taken for "benign" or
"irreversible", so a set that holds one does not earn the \`destructiveHint: false\`
suggestion. An action of write (SEP-2793 "mutate"), external or utility does not settle
whether the writes are destructive (creating is not overwriting).

In every other case the suggestion asks the author to choose: with \`readOnlyHint\` absent, first
\`readOnlyHint: true\` for a tool that only reads (a \`get\` with no annotations), then
\`destructiveHint\` false or true. There is no mechanical
fix: the hint is absent, and adding a key is not a one-value replacement.

The finding is shown at \`annotations\` (or at the tool, when it has none), but a baseline or a
SARIF fingerprint keys it by the missing member, \`/annotations/destructiveHint\`: adding an unrelated
annotation such as a \`title\` does not make it a new finding.`,
  examples: {
    incorrect: [
      {
        title: 'A tool that creates issues, with the default left to mean "destructive"',
        tools: [
          {
            name: 'create_issue',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, openWorldHint: true },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'SEP-2793 says the tool deletes, destructiveHint is left to the default',
        explanation: 'The default happens to match here, but only SEP-2793 clients know it was meant: the suggestion is `destructiveHint: true`, quoting the category.',
        tools: [
          {
            name: 'delete_user',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, openWorldHint: false, category: 'delete', reversibility: 'manual' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'No annotations at all',
        doc: false,
        tools: [{ name: 'create_issue', inputSchema: { type: 'object' } }],
        findings: [{ pointer: '/tools/0' }],
      },
      {
        title: 'The _meta effect hint says delete',
        doc: false,
        tools: [{ name: 'delete_user', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false }, _meta: { 'mcp.dev/effect': 'delete' } }],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'The action-metadata outcome says benign',
        doc: false,
        tools: [
          {
            name: 'format_text',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'benign' } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'SEP-1913 says benign, action-metadata says consequential',
        doc: false,
        tools: [
          {
            name: 'update_note',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, inputMetadata: { destination: 'user', sensitivity: 'none', outcomes: 'benign' } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'consequential' } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'SEP-1913 says irreversible: sending cannot be undone, but it only adds',
        explanation:
          'The suggestion is to set `destructiveHint` explicitly, not to set it to true: an irreversible outcome alone does not make a tool destructive (a sent email adds a message, it deletes nothing), so `destructiveHint: false` may well be right here.',
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              openWorldHint: true,
              inputMetadata: { destination: 'public', sensitivity: ['pii', 'user'], outcomes: 'irreversible' },
              returnMetadata: { source: 'system', sensitivity: 'none' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'SEP-1913 metadata says the tool only reads, and no core hint is set',
        doc: false,
        tools: [
          {
            name: 'read_drafts',
            inputSchema: { type: 'object' },
            annotations: {
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
              returnMetadata: { source: 'user', sensitivity: 'pii' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
    ],
    correct: [
      {
        title: 'A tool that only adds, and says so',
        tools: [
          {
            name: 'create_issue',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
          },
        ],
      },
      {
        title: 'A read-only tool needs no destructiveHint',
        tools: [{ name: 'list_issues', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
      },
      {
        title: 'destructiveHint false beside category delete is destructive-vs-category’s',
        doc: false,
        tools: [{ name: 'delete_user', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, category: 'delete' } }],
      },
      {
        title: 'A destructiveHint of the wrong type is schema-valid’s',
        doc: false,
        tools: [{ name: 'drop_table', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: 'yes' } }],
      },
    ],
  },
  check(ctx) {
    const obj = ctx.tool.obj;
    if (!obj) return;
    const hasAnnotations = hasOwn(obj, 'annotations');
    const a = ctx.tool.annotations;
    if (hasAnnotations && !a) return;
    if (a && hasOwn(a, 'destructiveHint')) return;
    const ro = readOnly(ctx.claims);
    if (a && hasOwn(a, 'readOnlyHint') && ro === undefined) return; // wrong type: schema-valid's
    if (ro?.value === true) return;

    const pointer = hasAnnotations ? ctx.at('/annotations') : ctx.tool.pointer;
    // Keyed by the member that is missing, wherever the finding is shown: adding an unrelated
    // annotation (a title) does not make it a new finding.
    const keyPointer = ctx.at('/annotations/destructiveHint');
    const why = ro
      ? `${sideOf(ro)} and destructiveHint is absent`
      : hasAnnotations
        ? 'neither readOnlyHint nor destructiveHint is set'
        : 'the tool has no annotations, so neither readOnlyHint nor destructiveHint is set';
    const message = `${why}: clients must treat the tool as one that may delete or overwrite data (destructiveHint defaults to true)`;

    // Only deleting or destroying is destructive: an irreversible outcome (a sent email) may
    // well be additive, so it never earns a "destructiveHint: true" suggestion on its own.
    const destroys = ctx.claims.where('action', 'delete', 'destroy');
    const irreversible: { claim: Claim; member?: string }[] = [
      ...ctx.claims.including('outcomes', 'irreversible').map((claim) => ({ claim, member: 'irreversible' })),
      ...ctx.claims.where('reversibility', 'none').map((claim) => ({ claim })),
    ];
    const read = ro ? undefined : onlyReads(ctx.claims, ctx.problems);
    // Every outcomes claim (each vocabulary) must say only benign: one benign claim beside a
    // consequential or unmapped one is no reason to call the tool non-destructive.
    const outcomes = ctx.claims.all('outcomes');
    const benign = outcomes.length > 0 && outcomes.every((c) => holdsOnly(c, ['benign'])) ? outcomes : [];
    let suggestion: string;
    if (destroys.length > 0) {
      suggestion = `add "destructiveHint": true to say so explicitly (${sideOf(destroys[0]!)} agrees)`;
    } else if (read) {
      suggestion = `add "readOnlyHint": true, which makes destructiveHint moot: ${listSides(read)} ${read.length > 1 ? 'together say' : 'says'} the tool only reads`;
    } else if (irreversible.length > 0) {
      const { claim, member } = irreversible[0]!;
      suggestion =
        `set "destructiveHint" explicitly: false if the tool only adds (sends, publishes, creates) and never deletes or overwrites, true if it may. ` +
        `${sideOf(claim, Array.isArray(claim.value) ? member : undefined)} says the call cannot be undone, but irreversible alone does not make a tool destructive (a send or publish only adds)`;
    } else if (benign.length > 0) {
      suggestion = `add "destructiveHint": false: ${sideOf(benign[0]!)} says the tool makes no persistent change outside its own context`;
    } else if (!ro) {
      // Nothing says what the tool does: a tool that only reads is best served by readOnlyHint.
      suggestion =
        'add "readOnlyHint": true if the tool only reads (destructiveHint is then moot); otherwise add "destructiveHint": false if it only adds (creates, appends) and never deletes or overwrites, or "destructiveHint": true if it may';
    } else {
      suggestion = 'add "destructiveHint": false if the tool only adds (creates, appends) and never deletes or overwrites, or "destructiveHint": true if it may';
    }
    ctx.report({
      pointer,
      keyPointer,
      message,
      suggestion,
      related: ro ? [{ pointer: ro.pointer, message: 'readOnlyHint is false here' }] : undefined,
    });
  },
});
