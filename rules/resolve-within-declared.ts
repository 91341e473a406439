import { defineRule } from '../src/rule.js';
import { ambiguousNote, hintBoundText, schemaNotes, undeclaredMalicious, MALICIOUS_KEY, callName, declaredText, exceedsDeclared, excessText, undeclaredNote, COMPARISONS, type Excess } from '../src/engine/session.js';
import { declare, listed, resolved } from '../src/docs/transcripts.js';
import { quote } from '../src/util/text.js';
import type { Fact } from '../src/engine/claims.js';
import type { SessionCall } from '../src/rule.js';

/** Every fact a declaration bounds: a resolve describes the whole tool. */
const FACTS: ReadonlySet<Fact> = new Set(COMPARISONS.map((c) => c.fact));

/** Why the riskier value of a boolean fact is ruled out by a declaration of the other. */
const WHY: Partial<Record<Fact, string>> = {
  openWorld: 'the tool was declared closed-world',
  destructive: 'the tool was declared non-destructive',
  readOnly: 'the tool was declared read-only',
  idempotent: 'the tool was declared idempotent',
  maliciousActivity: 'the declaration says the hint is never set',
  untrusted: "the tool's results were declared trusted",
  sensitiveOutput: "the tool's output was declared not sensitive",
  requiresConfirmation: 'the tool was declared to need confirmation',
};


/** The finding for what a resolve says beyond the declaration. */
function excessFinding(call: SessionCall, e: Excess) {
  const c = e.comparison;
  const said = c.kind === 'set' ? excessText(e) : `${e.claim.field.replace(/^annotations\./, '')} to ${quote(e.value)}`;
  const declared = declaredText(e.declared);
  // A declared readOnlyHint true or destructiveHint false that bounds a resolved action: what it
  // says, and what declaring the action possible makes of it.
  const hint = c.fact === 'action' ? e.declared.find((d) => d.fact !== 'action') : undefined;
  const fields = [...new Set(e.declared.map((d) => (d === hint ? `${d.field} ${d.value === true ? 'false' : 'true'}` : d.field)))].join(' and ');
  const message =
    c.kind === 'set'
      ? `${callName(call)} resolved ${said}, outside the tool's declared possible set: ${declared}`
      : c.kind === 'boolean'
        ? `${callName(call)} resolved ${said}, but the tool's tools/list declaration says ${declared}: ${WHY[c.fact] ?? 'the declaration rules it out'}, and a resolve only selects within the declaration`
        : `${callName(call)} resolved ${said}, beyond what the tool's tools/list declaration allows: ${declared}${hint ? `, which ${hintBoundText(hint)}` : ''} (${c.order}), and a resolve only selects within the declaration`;
  const suggestion =
    c.kind === 'set'
      ? `add it to ${fields} in the tools/list declaration if some arguments can lead to it; otherwise resolve within the declared set`
      : `if some arguments can lead to it, declare it possible in tools/list (${fields}); otherwise resolve within the declaration`;
  return {
    call,
    pointer: e.pointer,
    message,
    suggestion,
    related: e.declared.map((d) => ({ pointer: d.pointer, message: `${quote(call.tool)} declares ${d.field} here`, tool: { name: call.tool } })),
  };
}

const readFile = declare('read_file', {
  readOnlyHint: true,
  openWorldHint: false,
  returnMetadata: { source: ['internal', 'user'], sensitivity: ['none', 'pii', 'financial'] },
});

const AM = 'io.modelcontextprotocol/action-metadata';
const TRUST = 'io.modelcontextprotocol/trust-annotations';

const tidy = declare(
  'tidy',
  { readOnlyHint: false, destructiveHint: false, category: 'mutate', reversibility: 'auto', riskLevel: 'low', approvalRecommendation: 'single' },
  { 'mcp.dev/effect': 'write', 'mcp.dev/requiresConfirmation': true },
);

const archive = declare('archive', { readOnlyHint: false, openWorldHint: false }, { [AM]: { inputMetadata: { destination: 'internal', outcomes: ['benign', 'consequential'] } } });

export default defineRule({
  id: 'resolve-within-declared',
  severity: 'error',
  category: 'session',
  packs: ['core', 'sep-1913', 'action-metadata', 'trust-annotations', 'risk-metadata', 'webmcp-sensitive', 'meta-hints'],
  summary: 'A tools/resolve result must not exceed what the tool declared in tools/list.',
  precision: 'very-high',
  security: 6.5,
  why: `Tool Resolution (SEP-1862) lets a server refine a tool's annotations for specific arguments
before the call, and SEP-1913 (../shared/seeds/000_f48d420c65c867ff.txt, *Integration with Tool
Resolution*) builds on it: "the tool declares the **set of possible annotations** in
\`tools/list\`, and \`tools/resolve\` selects concrete values for the given arguments". A resolve
*selects* from the declaration; it never adds to it. Clients decide which tools to offer, and
which to allow without asking, from the static declaration: a resolve that suddenly says
\`openWorldHint: true\` for a tool declared closed-world, or a \`public\` destination the
declaration never listed, widens what was approved after the approval.`,
  notes: `- **Every vocabulary the run has on is compared, one comparison per fact.** The packs read
  each vocabulary into facts; a resolved value is compared with every claim of the same fact in
  the declaration, whichever vocabulary made it, and exceeds the declaration only when no
  declared claim allows it (when two vocabularies of the declaration disagree, the looser one
  counts). Each finding names the resolved field and value, and every declared field and value it
  exceeds. A fact the declaration does not give excludes nothing.
- **Boolean facts**: the resolve may not say the riskier value where every declared claim says the
  other one.

  | Fact | Fields | Riskier value |
  | --- | --- | --- |
  | open world | \`openWorldHint\` | true |
  | destructive | \`destructiveHint\` | true |
  | read-only | \`readOnlyHint\` | false |
  | idempotent | \`idempotentHint\`, \`_meta["mcp.dev/idempotent"]\` | false |
  | malicious activity | \`maliciousActivityHint\` | true |
  | untrusted results | trust-annotations \`untrusted\` | true |
  | sensitive output | \`sensitiveHint\` (WebMCP), trust-annotations \`sensitive\` | true |
  | needs confirmation | \`_meta["mcp.dev/requiresConfirmation"]\`, action-metadata \`requiresReview\`, \`approvalRecommendation\` (not \`"none"\`) | false |

  An omitted core hint has MCP's default (openWorldHint and destructiveHint true, readOnlyHint
  and idempotentHint false), which already allows the riskier value. \`maliciousActivityHint\`
  has no core default: SEP-1913's "\`false\` or omission means it will never be set" holds, so
  a resolve that says it true fires when the declaration omits it too.
- **Ordered facts**: the resolved value may not rank above the highest declared one.

  | Fact | Fields | Order, least to most |
  | --- | --- | --- |
  | action | SEP-2793 \`category\`, \`_meta["mcp.dev/effect"]\` | read, observe, utility < write (\`mutate\`), external < delete < destroy |
  | risk level | \`riskLevel\` | low < medium < high < critical |
  | reversibility | \`reversibility\` | auto < manual < none |
  | blast radius | \`blastRadius\` | item < namespace < cluster < organization < global |
  | approval | \`approvalRecommendation\` | multi < single < none (less approval allows more) |
  | result sensitivity | \`_meta["mcp.dev/resultSensitivity"]\` | public < internal < confidential < restricted |

  \`mcp.dev/effect\` has no value past \`delete\`, so a declared effect \`delete\` allows a
  resolved category \`destroy\`. **The core hints bound the action too**, as
  [readonly-vs-category](readonly-vs-category.md) and
  [destructive-vs-category](destructive-vs-category.md) read them within one declaration: a
  declared \`readOnlyHint: true\` allows no more than read, observe and utility (a resolved
  \`mutate\`, \`delete\`, \`destroy\`, or an effect \`write\`, \`external\` or \`delete\`,
  exceeds it), and a declared \`destructiveHint: false\` on a tool not declared read-only allows
  no more than write and external (a resolved \`delete\` or \`destroy\` exceeds it). The finding
  names the hint beside any declared category or effect, with the hint as a related location;
  when a declared category or effect allows more than the hint (a declaration that contradicts
  itself, which those rules report), the looser one counts. When the resolve's own
  \`readOnlyHint\` or \`destructiveHint\` already exceeds the declared hint
  (\`{"readOnlyHint": false, "category": "mutate"}\` for a tool declared read-only), that hint's
  finding is the one: the category or effect is not compared with the same declared hint again
  (only with a declared category or effect). One field reported as one fact is not reported again as
  another (\`approvalRecommendation: "none"\` is an approval finding, not also a confirmation
  one).
- **Sets** (SEP-1913 \`inputMetadata.destination\`, \`.sensitivity\`, \`.outcomes\`,
  \`returnMetadata.source\`, \`.sensitivity\`, and the same fields of the action-metadata
  extension): a resolve MAY return an array when it cannot fully resolve, so each resolved member
  must be in the declared set (the union of the declaration's sets of that fact): each member
  outside it is its own finding. A sensitivity of \`"none"\` is within any non-empty declared
  sensitivity set: "none" is below every class, and a declaration cannot list it beside one
  ([sensitivity-conflict](sensitivity-conflict.md)), so a tool declared \`["pii"]\` may resolve
  to \`"none"\` for arguments that reach no personal data. A declared set holding a value no enum knows — an open
  action-metadata string, a typo — excludes nothing, since what it meant to allow is unclear;
  resolved values no enum knows are not compared either: for SEP-1913's, a note says so in its
  schema's words (a value outside its enum or of the wrong type), and so it does for a core hint
  (or WebMCP's \`sensitiveHint\`) that is not a boolean (\`openWorldHint: "true"\`,
  \`readOnlyHint: 0\`), in MCP's words. A resolve's result is a whole Tool, read as its
  \`tools/list\` declaration is: a SEP-1913 key holding what is plainly the server's own data
  (\`attribution: "Data by Acme Corp"\`, a lone \`maliciousActivityHint: "yes"\`) is a
  [vocabulary-key-collision](vocabulary-key-collision.md) in the declaration and is not compared
  or noted in the resolve; a quoted boolean (\`maliciousActivityHint: "true"\`) is SEP-1913's
  hint written wrong, in either, and gets the note.
- Not compared: \`attribution\` (provenance, not a bound), SEP-2793 \`sideEffects\` (open
  strings) and \`minTrustLevel\` (an advisory scale whose direction the SEP leaves open),
  WebMCP's \`x-sensitive\` properties and secret_reference results (about the output schema).
- A resolve of a tool that no \`tools/list\` in effect declared is not compared: a note says so
  (never guessed).
- Arrays in a resolve are not [result-single-value](result-single-value.md) findings.`,
  examples: {
    incorrect: [
      {
        title: 'A resolve that opens the world of a closed-world tool',
        transcript: [...listed(1, [readFile]), ...resolved(2, 'read_file', { readOnlyHint: true, openWorldHint: true, returnMetadata: { source: 'internal', sensitivity: 'financial' } })],
        findings: [{ pointer: '/3/result/tool/annotations/openWorldHint' }],
      },
      {
        title: 'A resolved set wider than the declared one',
        transcript: [
          ...listed(1, [readFile]),
          ...resolved(2, 'read_file', { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: ['internal', 'untrustedPublic'], sensitivity: 'credentials' } }),
        ],
        findings: [{ pointer: '/3/result/tool/annotations/returnMetadata/source/1' }, { pointer: '/3/result/tool/annotations/returnMetadata/sensitivity' }],
      },
      {
        title: 'A read-only tool resolved as a writer',
        doc: false,
        transcript: [...listed(1, [readFile]), ...resolved(2, 'read_file', { readOnlyHint: false })],
        findings: [{ pointer: '/3/result/tool/annotations/readOnlyHint' }],
      },
      {
        title: 'A resolved value SEP-1913 does not define',
        doc: false,
        transcript: [...listed(1, [readFile]), ...resolved(2, 'read_file', { readOnlyHint: true, returnMetadata: { source: 'nowhere', sensitivity: 'none' } })],
        findings: [{ pointer: '/3/result/tool/annotations/returnMetadata/source', severity: 'note' }],
      },
      {
        title: 'Resolved hints of the wrong type: a note each, nothing compared',
        doc: false,
        transcript: [...listed(1, [readFile]), ...resolved(2, 'read_file', { openWorldHint: 'true', readOnlyHint: 0, maliciousActivityHint: 'true' })],
        findings: [
          { pointer: '/3/result/tool/annotations/openWorldHint', severity: 'note' },
          { pointer: '/3/result/tool/annotations/readOnlyHint', severity: 'note' },
          { pointer: '/3/result/tool/annotations/maliciousActivityHint', severity: 'note' },
        ],
      },
      {
        title: 'maliciousActivityHint resolved true on a tool whose declaration omits it',
        doc: false,
        transcript: [...listed(1, [readFile]), ...resolved(2, 'read_file', { readOnlyHint: true, maliciousActivityHint: true })],
        findings: [{ pointer: '/3/result/tool/annotations/maliciousActivityHint' }],
      },
      {
        title: 'A resolve of a tool no tools/list declared',
        doc: false,
        transcript: resolved(1, 'read_file', { readOnlyHint: true }),
        findings: [{ pointer: '/1/result/tool', severity: 'note' }],
      },
      {
        title: "A resolve riskier than the tool's SEP-2793 and _meta hints declaration",
        explanation: 'Each field is compared with every declared field of the same fact: the category and the effect with both the declared category and effect, the _meta confirmation with both `approvalRecommendation` and `mcp.dev/requiresConfirmation`.',
        transcript: [
          ...listed(1, [tidy]),
          ...resolved(
            2,
            'tidy',
            { readOnlyHint: false, destructiveHint: true, category: 'destroy', reversibility: 'none', riskLevel: 'critical', approvalRecommendation: 'none' },
            { 'mcp.dev/effect': 'delete', 'mcp.dev/requiresConfirmation': false },
          ),
        ],
        findings: [
          { pointer: '/3/result/tool/annotations/destructiveHint' },
          { pointer: '/3/result/tool/annotations/category' },
          { pointer: '/3/result/tool/annotations/reversibility' },
          { pointer: '/3/result/tool/annotations/riskLevel' },
          { pointer: '/3/result/tool/annotations/approvalRecommendation' },
          { pointer: '/3/result/tool/_meta/mcp.dev~1effect' },
          { pointer: '/3/result/tool/_meta/mcp.dev~1requiresConfirmation' },
        ],
      },
      {
        title: 'A read-only tool resolved as a destroyer, a non-destructive one as a deleter',
        explanation: 'A declared `readOnlyHint: true` rules out any mutation, a declared `destructiveHint: false` any delete or destroy, in whichever vocabulary the resolve says it.',
        transcript: [
          ...listed(1, [
            declare('read_file', { readOnlyHint: true, openWorldHint: false }),
            declare('update_record', { readOnlyHint: false, destructiveHint: false, openWorldHint: false }),
          ]),
          ...resolved(3, 'read_file', { readOnlyHint: true, category: 'destroy' }),
          ...resolved(4, 'update_record', { readOnlyHint: false }, { 'mcp.dev/effect': 'delete' }),
        ],
        findings: [{ pointer: '/3/result/tool/annotations/category' }, { pointer: '/5/result/tool/_meta/mcp.dev~1effect' }],
      },
      {
        title: 'A read-only tool resolved as a writer, by its hint and its category: one finding',
        doc: false,
        transcript: [...listed(1, [readFile]), ...resolved(2, 'read_file', { readOnlyHint: false, category: 'mutate' })],
        findings: [{ pointer: '/3/result/tool/annotations/readOnlyHint' }],
      },
      {
        title: 'An action-metadata set wider than the declared one',
        transcript: [...listed(1, [archive]), ...resolved(2, 'archive', { readOnlyHint: false, openWorldHint: false }, { [AM]: { inputMetadata: { destination: 'public', outcomes: 'irreversible' } } })],
        findings: [
          { pointer: '/3/result/tool/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination' },
          { pointer: '/3/result/tool/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/outcomes' },
        ],
      },
      {
        title: 'A SEP-1913 destination outside an action-metadata declaration',
        doc: false,
        transcript: [...listed(1, [archive]), ...resolved(2, 'archive', { readOnlyHint: false, inputMetadata: { destination: ['internal', 'public'], sensitivity: 'none', outcomes: 'benign' } })],
        findings: [{ pointer: '/3/result/tool/annotations/inputMetadata/destination/1' }],
      },
      {
        title: 'Trust labels and a sensitive output the declaration rules out',
        doc: false,
        transcript: [
          ...listed(1, [declare('read_doc', { readOnlyHint: true, sensitiveHint: false }, { [TRUST]: { untrusted: false } })]),
          ...resolved(2, 'read_doc', { readOnlyHint: true }, { [TRUST]: { untrusted: true, sensitive: true } }),
        ],
        findings: [{ pointer: '/3/result/tool/_meta/io.modelcontextprotocol~1trust-annotations/untrusted' }, { pointer: '/3/result/tool/_meta/io.modelcontextprotocol~1trust-annotations/sensitive' }],
      },
      {
        title: 'A wider blast radius, a more sensitive result, a lost review',
        doc: false,
        transcript: [
          ...listed(1, [declare('scale', { readOnlyHint: false, blastRadius: 'namespace' }, { 'mcp.dev/resultSensitivity': 'internal', [AM]: { requiresReview: true }, 'mcp.dev/idempotent': true })]),
          ...resolved(2, 'scale', { readOnlyHint: false, idempotentHint: false, blastRadius: 'global', approvalRecommendation: 'none' }, { 'mcp.dev/resultSensitivity': 'restricted' }),
        ],
        findings: [
          { pointer: '/3/result/tool/annotations/idempotentHint' },
          { pointer: '/3/result/tool/annotations/blastRadius' },
          { pointer: '/3/result/tool/annotations/approvalRecommendation' },
          { pointer: '/3/result/tool/_meta/mcp.dev~1resultSensitivity' },
        ],
      },
    ],
    correct: [
      {
        title: 'A resolve that narrows the declaration',
        transcript: [...listed(1, [readFile]), ...resolved(2, 'read_file', { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: 'financial' } })],
      },
      {
        title: 'A resolve that cannot fully resolve',
        explanation: 'A subset of the declared set is within it.',
        transcript: [...listed(1, [readFile]), ...resolved(2, 'read_file', { readOnlyHint: true, returnMetadata: { source: ['internal', 'user'], sensitivity: ['pii', 'financial'] } })],
      },
      {
        title: "Another vocabulary's word for what the declaration allows",
        explanation: '`mcp.dev/effect` has no value past `delete`: a declared effect `delete` allows the category `destroy`. A riskLevel below the declared one narrows it.',
        transcript: [
          ...listed(1, [declare('purge', { destructiveHint: true, riskLevel: 'critical' }, { 'mcp.dev/effect': 'delete' })]),
          ...resolved(2, 'purge', { destructiveHint: true, category: 'destroy', riskLevel: 'high' }),
        ],
      },
      {
        title: 'A resolve to sensitivity "none" for a tool declared ["pii"]',
        explanation: '"none" is below every class: it is within any non-empty declared sensitivity set (a declaration cannot list it beside "pii", see sensitivity-conflict).',
        transcript: [
          ...listed(1, [declare('lookup_customer', { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: ['internal'], sensitivity: ['pii'] } })]),
          ...resolved(2, 'lookup_customer', { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: 'none' } }),
        ],
      },
      {
        title: 'A declared action-metadata set with an open value',
        explanation: 'What "partner-cloud" allows is unclear: the declared set excludes nothing.',
        transcript: [
          ...listed(1, [declare('sync', { readOnlyHint: false }, { [AM]: { inputMetadata: { destination: ['internal', 'partner-cloud'] } } })]),
          ...resolved(2, 'sync', { readOnlyHint: false }, { [AM]: { inputMetadata: { destination: 'public' } } }),
        ],
      },
      {
        title: 'Declared vocabularies that disagree: the looser one counts',
        doc: false,
        transcript: [
          ...listed(1, [declare('note', { readOnlyHint: false, category: 'read' }, { 'mcp.dev/effect': 'write', 'mcp.dev/requiresConfirmation': false, [AM]: { requiresReview: true } })]),
          ...resolved(2, 'note', { readOnlyHint: false }, { 'mcp.dev/effect': 'write', 'mcp.dev/requiresConfirmation': false }),
        ],
      },
    ],
  },
  checkSession(ctx) {
    for (const call of ctx.calls) {
      if (call.kind !== 'resolve') continue;
      const unpaired = ambiguousNote(call);
      if (unpaired) {
        ctx.report({ call, informational: true, ...unpaired });
        continue;
      }
      if (!call.result || call.response === undefined) continue;
      const at = `${call.response}/result/tool`;
      for (const note of schemaNotes(call)) ctx.report({ call, ...note });
      if (call.resultClaims.list.length === 0) continue;
      if (!call.declared) {
        ctx.report(undeclaredNote(call, 'resolves', at, `${callName(call)} resolved annotations`));
        continue;
      }
      const declared = call.declared;
      const malicious = undeclaredMalicious(call);
      if (malicious) {
        const { where } = malicious;
        ctx.report({
          call,
          pointer: malicious.claim.pointer,
          message: `${callName(call)} resolved ${MALICIOUS_KEY} to true, but the tool's tools/list declaration (${where}) does not give ${MALICIOUS_KEY}: SEP-1913 says "false or omission means it will never be set", and a resolve only selects within the declaration`,
          suggestion: `if the tool can flag such content for some arguments, declare ${MALICIOUS_KEY}: true in tools/list; otherwise resolve to false`,
          related: [{ pointer: where, message: `${quote(call.tool)} is declared here, without ${MALICIOUS_KEY}`, tool: { name: call.tool } }],
        });
      }
      for (const e of exceedsDeclared(call.resultClaims, declared.claims, FACTS)) ctx.report(excessFinding(call, e));
    }
  },
});
