import { defineRule } from '../src/rule.js';
import { destructive, sideOf } from '../src/engine/queries.js';
import { listSides, onlyReads, readEvidence, writeSignals } from '../src/engine/read-evidence.js';
import { onlyReadingVerbs, readName } from '../src/heuristics/name-verbs.js';
import { hasOwn } from '../src/util/json.js';
import { quote } from '../src/util/text.js';

export default defineRule({
  id: 'missing-readonly-hint',
  severity: 'warning',
  category: 'core-hints',
  packs: ['core', 'sep-1913', 'action-metadata', 'risk-metadata', 'meta-hints'],
  summary: 'Every tool should say whether it is read-only.',
  precision: 'very-high',
  why: `Without \`readOnlyHint\` a client cannot tell a lookup from a write. The hint defaults
to false, and missing annotations mean "unknown", never "safe": a careful client
assumes the tool may modify its environment and asks the user to approve every call.
For a tool that only reads, that is a prompt on every search, list or fetch, and users
who click through prompts all day stop reading them.

Saying \`readOnlyHint: true\` lets clients run read-only tools without friction;
saying \`false\` explicitly tells them the prompt is deserved.`,
  notes: `Fires when the tool has no \`annotations\` at all, or \`annotations\` without a
\`readOnlyHint\` key — unless \`destructiveHint\` is true. The spec's default
(\`readOnlyHint\` false) then makes the annotations unambiguous: the tool modifies its
environment, destructively, and a client that asks for approval on every call is right to.
The gap this rule is for (a tool that only reads, prompting all day) is not there, and
adding \`"readOnlyHint": false\` would change nothing a client does. When such a tool's
name only reads (\`search_pages\` with \`destructiveHint: true\`) that contradiction is
[name-vs-hints](name-vs-hints.md)'s, and when another vocabulary says read (category
\`read\`) it is [destructive-vs-category](destructive-vs-category.md)'s error; both suggest
\`readOnlyHint: true\`. A \`readOnlyHint\` of the wrong type (\`"true"\`) is
[schema-valid](schema-valid.md)'s error, and an \`annotations\` that is not an object
likewise, so this rule stays quiet about them. Reported at \`annotations\` when it exists,
else at the tool.

The rule always fires when the hint is missing; the other vocabularies only shape
what it suggests:
- they say the tool only reads (an action of read or observe from SEP-2793
  \`category\` or \`mcp.dev/effect\`, or possible outcomes only "benign" together with
  possible destinations only "ephemeral", from SEP-1913 or the action-metadata
  extension) and none of them says otherwise: the message quotes them and the
  suggestion is \`readOnlyHint: true\`. The signals weighed on each side are the same
  as [readonly-contradicted](readonly-contradicted.md)'s;
- none says read, and one says the tool changes its environment (an action of write,
  delete, destroy or external; outcomes including consequential or irreversible; a
  destination including user, internal or public): the suggestion is
  \`readOnlyHint: false\`, quoting it;
- the tool sets \`destructiveHint: false\` (which only means something when
  \`readOnlyHint\` is false) and no other vocabulary says read: the suggestion is to say
  \`readOnlyHint: false\` explicitly;
- otherwise, or when the vocabularies disagree (SEP-2793 says "read", \`mcp.dev/effect\`
  says "write"), the author chooses.

The suggestion never pushes towards \`readOnlyHint: false\` when the tool's name only reads,
as [name-vs-hints](name-vs-hints.md) reads names (\`search_pages\`, \`get_user\`; not
\`find_replace\`): \`destructiveHint: false\` or a write signal from another vocabulary
then leaves the choice to the author, quoting the name on one side and the signal on the
other, so that following one rule never makes another fire.

A value a pack could not map (an action-metadata open string such as destination
\`"external"\`, a SEP-1913 value outside its enum) is unknown, never read as one of
the known values: it keeps the read suggestion away, and it is not quoted as a write.
So does a SEP-2793 or \`_meta\` hints field that fails its schema (an invalid
\`category\` or \`mcp.dev/effect\`), which those packs cannot read at all — unless the
value is unmistakably the vocabulary's: a case variant (\`"Read"\`) is read as the member
it names, and a list of categories or effects as its furthest-reaching member (see
[vocabulary-key-collision](vocabulary-key-collision.md)).
Trust, sensitivity and risk fields (trust-annotations, WebMCP \`sensitiveHint\`,
\`riskLevel\`, approval) say nothing about whether the tool writes.

There is no mechanical fix: adding a key is not a one-value replacement, and which
value is right is the author's call.

The finding is shown at \`annotations\` (or at the tool, when it has none), but a baseline or a
SARIF fingerprint keys it by the missing member, \`/annotations/readOnlyHint\`: adding an unrelated
annotation such as a \`title\` does not make it a new finding.`,
  examples: {
    incorrect: [
      {
        title: 'A search tool without annotations',
        tools: [{ name: 'search_issues', inputSchema: { type: 'object' } }],
        findings: [{ pointer: '/tools/0' }],
      },
      {
        title: 'SEP-1913 metadata says the tool only reads, but readOnlyHint is missing',
        tools: [
          {
            name: 'lookup_invoice',
            inputSchema: { type: 'object' },
            annotations: {
              openWorldHint: false,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'The _meta hints say the tool reads, but the core hint is missing',
        explanation:
          'Clients that read only the core hints never see `mcp.dev/effect`; the message quotes it and the suggestion is `readOnlyHint: true`.',
        tools: [{ name: 'get_user', inputSchema: { type: 'object' }, _meta: { 'mcp.dev/effect': 'read' } }],
        findings: [{ pointer: '/tools/0' }],
      },
      {
        title: 'SEP-2793 says the tool deletes: the suggestion is readOnlyHint false',
        doc: false,
        tools: [
          {
            name: 'delete_user',
            inputSchema: { type: 'object' },
            annotations: { category: 'delete', riskLevel: 'high', approvalRecommendation: 'single' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'The vocabularies disagree (category read, effect write): the author chooses',
        doc: false,
        tools: [
          {
            name: 'sync_profile',
            inputSchema: { type: 'object' },
            annotations: { category: 'read' },
            _meta: { 'mcp.dev/effect': 'write' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'An unknown action-metadata destination keeps the read suggestion away',
        doc: false,
        tools: [
          {
            name: 'lookup_invoice',
            inputSchema: { type: 'object' },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: ['ephemeral', 'external'] }, outcome: 'benign' } },
          },
        ],
        findings: [{ pointer: '/tools/0' }],
      },
      {
        title: 'destructiveHint false without readOnlyHint',
        explanation:
          '`destructiveHint: false` only means something when `readOnlyHint` is false, and nothing else says the tool reads: the suggestion is to say `"readOnlyHint": false`.',
        tools: [{ name: 'create_branch', inputSchema: { type: 'object' }, annotations: { destructiveHint: false } }],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'A name that only reads: the author chooses, no push towards false',
        explanation:
          'The name says the tool reads and `destructiveHint: false` says it writes: the suggestion quotes both and lets the author choose, rather than asking for `"readOnlyHint": false`, most likely wrong for a search.',
        tools: [{ name: 'search_pages', inputSchema: { type: 'object' }, annotations: { destructiveHint: false } }],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'destructiveHint false beside category read: the suggestion is readOnlyHint true',
        doc: false,
        tools: [
          {
            name: 'fetch_report',
            inputSchema: { type: 'object' },
            annotations: { destructiveHint: false, openWorldHint: false, category: 'read' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'Benign outcomes alone do not say read-only (the inputs may be stored)',
        doc: false,
        tools: [
          {
            name: 'save_note',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: 'user', sensitivity: 'none', outcomes: 'benign' } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
    ],
    correct: [
      {
        title: 'A tool that says it only reads',
        tools: [{ name: 'search_issues', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
      },
      {
        title: 'A tool that says it writes',
        tools: [{ name: 'create_issue', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } }],
      },
      {
        title: 'destructiveHint true: readOnlyHint false by default says it already',
        explanation:
          'With `readOnlyHint` at its default (false), `destructiveHint: true` tells clients the tool modifies its environment destructively; they ask for approval, as they should, and `"readOnlyHint": false` would change nothing.',
        tools: [{ name: 'delete_branch', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } }],
      },
      {
        title: 'destructiveHint true on a name that reads is name-vs-hints’ finding, not this rule’s',
        doc: false,
        tools: [{ name: 'search_pages', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } }],
      },
      {
        title: 'destructiveHint true beside category read is destructive-vs-category’s error, not this rule’s',
        doc: false,
        tools: [
          {
            name: 'get_report',
            inputSchema: { type: 'object' },
            annotations: { destructiveHint: true, openWorldHint: false, category: 'read', approvalRecommendation: 'single' },
          },
        ],
      },
      {
        title: 'A readOnlyHint of the wrong type is schema-valid’s, not this rule’s',
        doc: false,
        tools: [{ name: 'search_issues', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'true' } }],
      },
    ],
  },
  check(ctx) {
    const obj = ctx.tool.obj;
    if (!obj) return;
    const hasAnnotations = hasOwn(obj, 'annotations');
    const a = ctx.tool.annotations;
    if (hasAnnotations && !a) return;
    if (a && hasOwn(a, 'readOnlyHint')) return;

    const d = destructive(ctx.claims);
    // destructiveHint true with readOnlyHint at its default (false) is unambiguous: the tool
    // modifies its environment destructively, and clients ask for approval, as they should.
    if (d?.value === true) return;

    const pointer = hasAnnotations ? ctx.at('/annotations') : ctx.tool.pointer;
    // Keyed by the member that is missing, wherever the finding is shown: adding an unrelated
    // annotation (a title) does not make it a new finding.
    const keyPointer = ctx.at('/annotations/readOnlyHint');
    const what = hasAnnotations ? 'annotations has no readOnlyHint' : 'the tool has no annotations, hence no readOnlyHint';
    const base = `${what}: clients must assume the tool modifies its environment (readOnlyHint defaults to false) and ask for approval on every call`;
    const read = onlyReads(ctx.claims, ctx.problems);
    if (read) {
      ctx.report({
        pointer,
        keyPointer,
        message: `${base}, yet its other annotations say it only reads: ${listSides(read)}`,
        suggestion: 'add "readOnlyHint": true to the annotations',
        related: read.map((c) => ({ pointer: c.pointer, message: `${c.field} says the tool only reads` })),
      });
      return;
    }
    const reads = readEvidence(ctx.claims).read;
    const writes = reads.length === 0 ? writeSignals(ctx.claims) : [];
    // A name whose verbs only read (name-vs-hints' reading): never push towards false, which
    // name-vs-hints would then contradict; the author chooses, with both sides quoted.
    const nameReads = ctx.tool.hasName && onlyReadingVerbs(readName(ctx.tool.name));
    const name = `its name ${quote(ctx.tool.name)} (${ctx.at('/name')})`;
    let suggestion: string;
    if (nameReads && writes.length > 0) {
      suggestion = `add "readOnlyHint": true if the tool only reads, as ${name} says, or "readOnlyHint": false if it can modify anything, as ${sideOf(writes[0]!.claim, writes[0]!.member)} says`;
    } else if (nameReads && d && reads.length === 0) {
      suggestion =
        `add "readOnlyHint": true if the tool only reads, as ${name} says (destructiveHint is then ignored), ` +
        `or "readOnlyHint": false if it can modify anything (destructiveHint false then says its updates are only additive)`;
    } else if (writes.length > 0) {
      suggestion = `add "readOnlyHint": false to the annotations: ${sideOf(writes[0]!.claim, writes[0]!.member)} says the tool changes its environment`;
    } else if (d && reads.length > 0) {
      // Another vocabulary says read, yet the vocabularies disagree: destructiveHint false alone
      // must not push towards false.
      suggestion =
        `add "readOnlyHint": true if the tool only reads, as ${listSides(reads)} ${reads.length > 1 ? 'say' : 'says'} (then destructiveHint is ignored and can go), ` +
        `or "readOnlyHint": false if it can modify anything (then correct ${reads.length > 1 ? 'those fields' : reads[0]!.field})`;
    } else if (d) {
      suggestion = `add "readOnlyHint": false to the annotations: destructiveHint (${d.pointer}) only means something when readOnlyHint is false`;
    } else {
      suggestion = 'add "readOnlyHint": true if the tool only reads, or "readOnlyHint": false if it can modify anything, so clients know which';
    }
    ctx.report({ pointer, keyPointer, message: base, suggestion });
  },
});
