import { defineRule } from '../src/rule.js';
import { ambiguousNote, schemaNotes, declaredText, memberText, outsideDeclared, resultName, undeclaredNote } from '../src/engine/session.js';
import { called, declare, listed } from '../src/docs/transcripts.js';
import { isObject } from '../src/util/json.js';
import { quote } from '../src/util/text.js';
import type { Fact } from '../src/engine/claims.js';
import type { PackId } from '../src/types.js';

/**
 * Boolean hints whose `true` in a result a declaration of `false` rules out, and whether
 * omitting the hint rules it out too: SEP-1913 says "false or omission means it will never be
 * set", but MCP core gives an omitted openWorldHint the default true.
 */
const HINTS: { fact: Fact; pack: PackId; key: string; omissionRulesOut: boolean }[] = [
  { fact: 'openWorld', pack: 'core', key: 'openWorldHint', omissionRulesOut: false },
  { fact: 'maliciousActivity', pack: 'sep-1913', key: 'maliciousActivityHint', omissionRulesOut: true },
];

const readFile = declare('read_file', {
  readOnlyHint: true,
  openWorldHint: false,
  returnMetadata: { source: ['internal', 'user'], sensitivity: ['none', 'financial'] },
});

export default defineRule({
  id: 'result-within-declared',
  severity: 'error',
  category: 'session',
  packs: ['core', 'sep-1913'],
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
  own finding, at that member. A field the declaration does not give excludes nothing
  (missing annotations mean unknown), and neither does a declared set holding a value no enum
  knows (\`schema-valid\` reports it; what it meant to allow is unclear); a result's value no enum
  knows is not compared either: a note says so, in SEP-1913's schema's words (a value outside
  its enum, \`"Internal"\`, or of the wrong type, \`maliciousActivityHint: "yes"\`), whether or
  not the tool was declared. Members the schema requires of a declaration are not asked of a
  result. A \`{"regulated": …}\` class is compared as the class:
  regulatory scopes are not.
- Only SEP-1913's own fields are compared, on both sides (\`annotations\` of the declaration,
  \`_meta.annotations\` of the result): the action-metadata extension's classifiers are open
  strings.
- The declaration is the tool of that name in the server's \`tools/list\` result in effect when
  the request was sent (the last listing before it). **A tool that no listing declared is never
  guessed at**: when the result carries annotations, a note says they were not checked and why
  (no \`tools/list\` of that server before the call, or one that does not list the tool).`,
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
    ],
    correct: [
      {
        title: 'A result that resolves the declared possible sets',
        transcript: [
          ...listed(1, [readFile]),
          ...called(2, 'read_file', { result: { openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: 'financial' } } }),
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
      if (!isObject(meta) || !isObject(meta.annotations)) continue;
      const at = `${call.response}/result/_meta/annotations`;
      for (const note of schemaNotes(call)) ctx.report({ call, ...note });
      if (!call.declared) {
        ctx.report(undeclaredNote(call, 'results', at, `${resultName(call)} carries annotations`));
        continue;
      }
      const declared = call.declared;
      for (const h of HINTS) {
        const mine = call.resultClaims.from(h.fact, h.pack);
        if (mine?.value !== true) continue;
        const theirs = declared.claims.from(h.fact, h.pack);
        if (theirs?.value === false) {
          ctx.report({
            call,
            pointer: mine.pointer,
            message: `${resultName(call)} has ${h.key} true, but the tool's tools/list declaration says ${h.key} false (${theirs.pointer}): false means the hint is never set`,
            suggestion: `if the tool can return such data, declare ${h.key}: true${h.omissionRulesOut ? '' : ' (or omit it)'} in tools/list; otherwise the server must not set it on results`,
            related: [{ pointer: theirs.pointer, message: `${quote(call.tool)} declares ${h.key} false here`, tool: { name: call.tool } }],
          });
        } else if (h.omissionRulesOut && !theirs && !(declared.tool.annotations && Object.prototype.hasOwnProperty.call(declared.tool.annotations, h.key))) {
          const where = declared.tool.annotations ? `${declared.tool.pointer}/annotations` : declared.tool.pointer;
          ctx.report({
            call,
            pointer: mine.pointer,
            message: `${resultName(call)} has ${h.key} true, but the tool's tools/list declaration (${where}) does not give ${h.key}: SEP-1913 says "false or omission means it will never be set"`,
            suggestion: `if the tool can flag such content, declare ${h.key}: true in tools/list so clients plan for it; otherwise the server must not set it on results`,
            related: [{ pointer: where, message: `${quote(call.tool)} is declared here, without ${h.key}`, tool: { name: call.tool } }],
          });
        }
      }
      for (const e of outsideDeclared(call.resultClaims, declared.claims)) {
        ctx.report({
          call,
          pointer: e.member.pointer,
          message: `${resultName(call)} has ${memberText(e)}, outside the tool's declared possible set: ${declaredText(e.declared)} (${e.declared.pointer})`,
          suggestion: `add it to ${e.declared.field} in the tools/list declaration if the tool can return it; otherwise fix the result's annotation`,
          related: [{ pointer: e.declared.pointer, message: `${quote(call.tool)} declares ${e.declared.field} here`, tool: { name: call.tool } }],
        });
      }
    }
  },
});
