import { defineRule, type SessionCall } from '../src/rule.js';
import { ambiguousNote, schemaNotes, undeclaredMalicious, MALICIOUS_KEY, declaredText, exceedsDeclared, excessText, resultName, undeclaredNote, SET_FACTS, type Excess } from '../src/engine/session.js';
import { called, declare, listed } from '../src/docs/transcripts.js';
import { isObject } from '../src/util/json.js';
import { quote } from '../src/util/text.js';
import type { Fact } from '../src/engine/claims.js';

/**
 * The facts a result's annotations say of its data, and so the ones its declaration bounds: a
 * result says nothing of the tool's own behaviour (readOnlyHint, riskLevel, …).
 */
const FACTS: ReadonlySet<Fact> = new Set<Fact>(['openWorld', 'maliciousActivity', 'untrusted', 'sensitiveOutput', 'resultSensitivity', ...SET_FACTS]);

/** Why the riskier value of a boolean fact is ruled out by a declaration of the other. */
const WHY: Partial<Record<Fact, string>> = {
  openWorld: 'false means the hint is never set',
  maliciousActivity: 'false means the hint is never set',
  untrusted: "the tool's results were declared trusted",
  sensitiveOutput: "the tool's output was declared not sensitive",
};


/** The finding for what a result says beyond the declaration. */
function excessFinding(call: SessionCall, e: Excess) {
  const c = e.comparison;
  const fields = [...new Set(e.declared.map((d) => d.field))].join(' and ');
  const said = c.kind === 'set' ? excessText(e) : `${e.claim.field.replace(/^annotations\./, '')} ${quote(e.value)}`;
  const message =
    c.kind === 'set'
      ? `${resultName(call)} has ${said}, outside the tool's declared possible set: ${declaredText(e.declared)}`
      : c.kind === 'boolean'
        ? `${resultName(call)} has ${said}, but the tool's tools/list declaration says ${declaredText(e.declared)}: ${WHY[c.fact] ?? 'the declaration rules it out'}`
        : `${resultName(call)} has ${said}, beyond what the tool's tools/list declaration allows: ${declaredText(e.declared)} (${c.order})`;
  const suggestion =
    c.kind === 'set'
      ? `add it to ${fields} in the tools/list declaration if the tool can return it; otherwise fix the result's annotation`
      : `if the tool can return such data, declare it possible in tools/list (${fields}); otherwise the server must not say it on results`;
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
  returnMetadata: { source: ['internal', 'user'], sensitivity: ['none', 'financial'] },
});

const AM = 'io.modelcontextprotocol/action-metadata';
const TRUST = 'io.modelcontextprotocol/trust-annotations';

const readDoc = declare('read_doc', { readOnlyHint: true, openWorldHint: false }, { [AM]: { returnMetadata: { source: 'internal', sensitivity: 'none' } }, [TRUST]: { untrusted: false } });

export default defineRule({
  id: 'result-within-declared',
  severity: 'error',
  category: 'session',
  packs: ['core', 'sep-1913', 'action-metadata', 'trust-annotations', 'webmcp-sensitive', 'meta-hints'],
  summary: "A tools/call result's annotations must stay within what the tool's tools/list declaration allows.",
  precision: 'very-high',
  security: 6.5,
  why: `SEP-1913 (../shared/seeds/000_f48d420c65c867ff.txt) has annotations follow a
**possible-set → resolved-value** pattern: "Static declarations: Tools declare the set of
annotations they might return in \`tools/list\`", and "\`CallToolResult\` includes annotations
describing actual returned data" (*Tool Call Result Extension*). "For boolean hints, \`true\`
means the hint may be set; \`false\` or omission means it will never be set", and enum fields
declare the possible values. A result that says what its declaration rules out — open-world
data from a tool declared \`openWorldHint: false\`, an \`untrustedPublic\` source from a tool
that declared only \`internal\` — breaks the contract clients planned with: a client that
allowed the call because the tool was declared closed-world, or because its sources were
trusted, admitted exactly the data its policy meant to keep out.`,
  notes: `- **openWorldHint** fires only when the declaration says \`false\` explicitly. MCP core
  makes an omitted \`openWorldHint\` default to true, so an omitted hint allows an open-world
  result.
- **maliciousActivityHint** has no default in MCP core, so SEP-1913's rule holds as written:
  "\`false\` or omission means it will never be set". A result that says it true fires when the
  declaration says \`false\` or does not give the hint at all (a declaration that gives it with
  the wrong type is \`schema-valid\`'s, and not compared). It is SEP-1913's only boolean hint
  without a core default; the other four are MCP core's hints, each with its default.
- **Sets** (\`returnMetadata.source\` and \`.sensitivity\`, \`inputMetadata.destination\`,
  \`.sensitivity\` and \`.outcomes\`): each member of the result outside the declared set is its
  own finding, at that member. A sensitivity of \`"none"\` is within any non-empty declared
  sensitivity set: "none" is below every class, and a declaration cannot list it beside one
  ([sensitivity-conflict](sensitivity-conflict.md)), so a tool declared \`["pii"]\` may say
  \`"none"\` on a result that carries no personal data. A field the declaration does not give excludes nothing
  (missing annotations mean unknown), and neither does a declared set holding a value no enum
  knows (\`schema-valid\` reports it; what it meant to allow is unclear); a result's value no enum
  knows is not compared either: a note says so, in SEP-1913's schema's words (a value outside
  its enum, \`"Internal"\`, or of the wrong type, \`maliciousActivityHint: "yes"\`), whether or
  not the tool was declared, and whatever else the result's annotations hold (in a result every
  key SEP-1913 defines is SEP-1913's: it is never taken for the server's own data). A core hint
  that is not a boolean (\`openWorldHint: "true"\`, \`openWorldHint: 1\`), or WebMCP's
  \`sensitiveHint\`, gets the same note in MCP's (WebMCP's) words: it is not compared, and
  does not count as open-world for [propagation-open-world](propagation-open-world.md) either. Members the schema requires of a declaration are not asked of a
  result. A \`{"regulated": …}\` class is compared as the class:
  regulatory scopes are not.
- **Every vocabulary the run has on is compared, one comparison per fact**, whichever
  vocabulary says it on either side: the declaration's \`annotations\` and \`_meta\` (the
  action-metadata and trust-annotations extensions, the _meta hints), the result's
  \`_meta.annotations\` (SEP-1913's) and the extensions in the result's own \`_meta\`. A
  result's value exceeds the declaration only when no declared claim of the same fact allows it
  (when two vocabularies of the declaration disagree, the looser one counts); each finding names
  the result's field and value, and every declared field and value it exceeds. The facts a result
  says of its data are compared:
  - the sets above, from SEP-1913 or the action-metadata extension (\`returnMetadata.source\` in
    one and a declared \`returnMetadata.source\` in the other are the same fact);
  - \`openWorldHint\` and \`maliciousActivityHint\` (true where the declaration rules it out);
  - untrusted results — trust-annotations \`untrusted\` true where the declaration says false;
  - sensitive output — trust-annotations \`sensitive\` or WebMCP's \`sensitiveHint\` true where
    each of them the declaration gives says false;
  - \`_meta["mcp.dev/resultSensitivity"]\` above the declared one (public < internal <
    confidential < restricted).

  What a result cannot say of its data (readOnlyHint, riskLevel, an effect) is not compared:
  SEP-2793's \`category\` and \`_meta["mcp.dev/effect"]\` describe a tool, and no vocabulary
  defines them on a call's result, so a result that carries one is compared neither with a
  declared category or effect nor with a declared \`readOnlyHint: true\` or
  \`destructiveHint: false\` ([resolve-within-declared](resolve-within-declared.md) compares
  both, since a resolve describes the tool).
- An action-metadata declaration is compared when its sets hold only values SEP-1913 defines
  (in any letter case). The extension's classifiers are open strings, so a declared set that
  holds one no enum knows (\`"partner-feed"\`) excludes nothing — what it meant to allow is
  unclear — and the result is not compared with it.
- The declaration is the tool of that name in the server's \`tools/list\` result in effect when
  the request was sent (the last listing before it). **A tool that no listing declared is never
  guessed at**: when the result carries annotations (in \`_meta.annotations\` or an extension of
  its \`_meta\`), a note says they were not checked and why
  (no \`tools/list\` of that server before the call, one that does not list the tool, or a
  page that lists it but is part of no listing: the note names that page and why).`,
  examples: {
    incorrect: [
      {
        title: 'Open-world data from a tool declared closed-world',
        transcript: [...listed(1, [readFile]), ...called(2, 'read_file', { result: { openWorldHint: true } })],
        findings: [{ pointer: '/3/result/_meta/annotations/openWorldHint' }],
      },
      {
        title: 'A source and a sensitivity the declaration does not allow',
        transcript: [
          ...listed(1, [readFile]),
          ...called(2, 'read_file', { result: { returnMetadata: { source: 'untrustedPublic', sensitivity: 'credentials' } } }),
        ],
        findings: [{ pointer: '/3/result/_meta/annotations/returnMetadata/source' }, { pointer: '/3/result/_meta/annotations/returnMetadata/sensitivity' }],
      },
      {
        title: 'A result for a tool the transcript never declared',
        explanation: 'Nothing to compare with: a note says the annotations were not checked.',
        transcript: called(1, 'read_file', { result: { openWorldHint: true } }),
        findings: [{ pointer: '/1/result/_meta/annotations', severity: 'note' }],
      },
      {
        title: 'A result value SEP-1913 does not define',
        doc: false,
        transcript: [...listed(1, [readFile]), ...called(2, 'read_file', { result: { maliciousActivityHint: 'no', returnMetadata: { source: 'Internal', sensitivity: 'none' } } })],
        findings: [
          { pointer: '/3/result/_meta/annotations/maliciousActivityHint', severity: 'note' },
          { pointer: '/3/result/_meta/annotations/returnMetadata/source', severity: 'note' },
        ],
      },
      {
        title: 'Hints of the wrong type: a note each, nothing compared',
        doc: false,
        transcript: [...listed(1, [declare('fetch', { readOnlyHint: true, openWorldHint: false })]), ...called(2, 'fetch', { result: { maliciousActivityHint: 'yes', openWorldHint: 'true' } })],
        findings: [
          { pointer: '/3/result/_meta/annotations/maliciousActivityHint', severity: 'note' },
          { pointer: '/3/result/_meta/annotations/openWorldHint', severity: 'note' },
        ],
      },
      {
        title: 'maliciousActivityHint on a tool that declared it never set',
        doc: false,
        transcript: [...listed(1, [declare('fetch', { readOnlyHint: true, maliciousActivityHint: false })]), ...called(2, 'fetch', { result: { maliciousActivityHint: true } })],
        findings: [{ pointer: '/3/result/_meta/annotations/maliciousActivityHint' }],
      },
      {
        title: 'maliciousActivityHint on a tool whose declaration omits it',
        explanation: 'SEP-1913: "`false` or omission means it will never be set"; unlike openWorldHint, the hint has no default in MCP core.',
        transcript: [...listed(1, [declare('fetch_page', { readOnlyHint: true })]), ...called(2, 'fetch_page', { result: { maliciousActivityHint: true } })],
        findings: [{ pointer: '/3/result/_meta/annotations/maliciousActivityHint' }],
      },
      {
        title: 'A source the action-metadata declaration does not allow',
        explanation: 'The declaration in the action-metadata extension bounds the result as SEP-1913\'s would.',
        transcript: [
          ...listed(1, [readDoc]),
          ...called(2, 'read_doc', { result: { returnMetadata: { source: 'untrustedPublic', sensitivity: 'credentials' } } }),
        ],
        findings: [{ pointer: '/3/result/_meta/annotations/returnMetadata/source' }, { pointer: '/3/result/_meta/annotations/returnMetadata/sensitivity' }],
      },
      {
        title: 'Untrusted content from a tool declared trusted',
        transcript: [...listed(1, [readDoc]), ...called(2, 'read_doc', { resultMeta: { [TRUST]: { untrusted: true } } })],
        findings: [{ pointer: '/3/result/_meta/io.modelcontextprotocol~1trust-annotations/untrusted' }],
      },
      {
        title: 'An action-metadata result outside a SEP-1913 declaration',
        doc: false,
        transcript: [...listed(1, [readFile]), ...called(2, 'read_file', { resultMeta: { [AM]: { returnMetadata: { source: 'untrustedPublic' } } } })],
        findings: [{ pointer: '/3/result/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/source' }],
      },
      {
        title: 'A sensitive result from a tool declared not sensitive, and a higher result sensitivity',
        doc: false,
        transcript: [
          ...listed(1, [declare('get_report', { readOnlyHint: true, sensitiveHint: false }, { 'mcp.dev/resultSensitivity': 'internal' })]),
          ...called(2, 'get_report', { resultMeta: { [TRUST]: { sensitive: true }, 'mcp.dev/resultSensitivity': 'restricted' } }),
        ],
        findings: [{ pointer: '/3/result/_meta/io.modelcontextprotocol~1trust-annotations/sensitive' }, { pointer: '/3/result/_meta/mcp.dev~1resultSensitivity' }],
      },
    ],
    correct: [
      {
        title: 'A declared action-metadata set with an open value',
        explanation: 'What "partner-feed" allows is unclear: the declared set excludes nothing.',
        transcript: [
          ...listed(1, [declare('read_feed', { readOnlyHint: true }, { [AM]: { returnMetadata: { source: ['internal', 'partner-feed'] } } })]),
          ...called(2, 'read_feed', { result: { returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' } } }),
        ],
      },
      {
        title: 'Trust labels the declaration allows',
        doc: false,
        transcript: [...listed(1, [declare('fetch_page', { readOnlyHint: true }, { [TRUST]: { untrusted: true, sensitive: false } })]), ...called(2, 'fetch_page', { resultMeta: { [TRUST]: { untrusted: true, sensitive: false } } })],
      },
      {
        title: 'A result that resolves the declared possible sets',
        transcript: [
          ...listed(1, [readFile]),
          ...called(2, 'read_file', { result: { openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: 'financial' } } }),
        ],
      },
      {
        title: 'A result of sensitivity "none" from a tool declared ["pii"]',
        explanation: '"none" is below every class: it is within any non-empty declared sensitivity set (a declaration cannot list it beside "pii", see sensitivity-conflict).',
        transcript: [
          ...listed(1, [declare('lookup_customer', { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: ['internal'], sensitivity: ['pii'] } })]),
          ...called(2, 'lookup_customer', { result: { returnMetadata: { source: 'internal', sensitivity: 'none' } } }),
        ],
      },
      {
        title: 'openWorldHint omitted in the declaration (defaults to true)',
        transcript: [...listed(1, [declare('fetch_page', { readOnlyHint: true })]), ...called(2, 'fetch_page', { result: { openWorldHint: true } })],
      },
      {
        title: 'maliciousActivityHint declared possible',
        doc: false,
        transcript: [...listed(1, [declare('fetch_page', { readOnlyHint: true, maliciousActivityHint: true })]), ...called(2, 'fetch_page', { result: { maliciousActivityHint: true } })],
      },
      {
        title: 'A field the declaration does not give',
        doc: false,
        transcript: [...listed(1, [declare('fetch_page', { readOnlyHint: true })]), ...called(2, 'fetch_page', { result: { returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' } } })],
      },
    ],
  },
  checkSession(ctx) {
    for (const call of ctx.calls) {
      if (call.kind !== 'call') continue;
      const unpaired = ambiguousNote(call);
      if (unpaired) {
        ctx.report({ call, informational: true, ...unpaired });
        continue;
      }
      if (!call.result || call.response === undefined) continue;
      const meta = call.result._meta;
      if (!isObject(meta)) continue;
      const annotated = isObject(meta.annotations);
      // Annotations in _meta.annotations (SEP-1913's), or in a vocabulary of _meta itself.
      if (!annotated && call.resultClaims.list.length === 0) continue;
      const at = annotated ? `${call.response}/result/_meta/annotations` : `${call.response}/result/_meta`;
      for (const note of schemaNotes(call)) ctx.report({ call, ...note });
      if (!call.declared) {
        ctx.report(undeclaredNote(call, 'results', at, `${resultName(call)} carries annotations`));
        continue;
      }
      const declared = call.declared;
      const malicious = undeclaredMalicious(call);
      if (malicious) {
        const { where } = malicious;
        ctx.report({
          call,
          pointer: malicious.claim.pointer,
          message: `${resultName(call)} has ${MALICIOUS_KEY} true, but the tool's tools/list declaration (${where}) does not give ${MALICIOUS_KEY}: SEP-1913 says "false or omission means it will never be set"`,
          suggestion: `if the tool can flag such content, declare ${MALICIOUS_KEY}: true in tools/list so clients plan for it; otherwise the server must not set it on results`,
          related: [{ pointer: where, message: `${quote(call.tool)} is declared here, without ${MALICIOUS_KEY}`, tool: { name: call.tool } }],
        });
      }
      for (const e of exceedsDeclared(call.resultClaims, declared.claims, FACTS)) ctx.report(excessFinding(call, e));
    }
  },
});
