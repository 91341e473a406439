import { defineRule } from '../src/rule.js';
import { ambiguousNote, schemaNotes, callName, declaredText, memberText, outsideDeclared, undeclaredNote } from '../src/engine/session.js';
import { declare, listed, resolved } from '../src/docs/transcripts.js';
import { quote } from '../src/util/text.js';
import type { Fact } from '../src/engine/claims.js';
import type { PackId } from '../src/types.js';

/**
 * Boolean hints and the value of each that says more than its opposite: a resolve may not
 * say it where the declaration explicitly said the other.
 */
const HINTS: { fact: Fact; pack: PackId; key: string; more: boolean; why: string; omissionRulesOut?: boolean }[] = [
  { fact: 'openWorld', pack: 'core', key: 'openWorldHint', more: true, why: 'the tool was declared closed-world' },
  { fact: 'destructive', pack: 'core', key: 'destructiveHint', more: true, why: 'the tool was declared non-destructive' },
  { fact: 'readOnly', pack: 'core', key: 'readOnlyHint', more: false, why: 'the tool was declared read-only' },
  { fact: 'idempotent', pack: 'core', key: 'idempotentHint', more: false, why: 'the tool was declared idempotent' },
  // No core default: SEP-1913's "false or omission means it will never be set" holds as written.
  { fact: 'maliciousActivity', pack: 'sep-1913', key: 'maliciousActivityHint', more: true, why: 'the declaration says the hint is never set', omissionRulesOut: true },
];

const readFile = declare('read_file', {
  readOnlyHint: true,
  openWorldHint: false,
  returnMetadata: { source: ['internal', 'user'], sensitivity: ['none', 'pii', 'financial'] },
});

export default defineRule({
  id: 'resolve-within-declared',
  severity: 'error',
  category: 'session',
  packs: ['core', 'sep-1913'],
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
  notes: `- Sets (SEP-1913 \`inputMetadata.destination\`, \`.sensitivity\`, \`.outcomes\`,
  \`returnMetadata.source\`, \`.sensitivity\`): a resolve MAY return an array when it cannot
  fully resolve, so the resolved set must be a subset of the declared one: each member outside it
  is its own finding. A field the declaration does not give excludes nothing, and values no enum
  knows, on either side, are not compared: for the resolve's, a note says so in SEP-1913's
  schema's words (a value outside its enum or of the wrong type).
- Boolean hints: a resolve may not say the riskier value where the declaration explicitly said
  the other — \`openWorldHint\`, \`destructiveHint\` or \`maliciousActivityHint\` true on a
  tool declared \`false\`, \`readOnlyHint\` or \`idempotentHint\` false on a tool declared
  \`true\`. An omitted hint has MCP's default (openWorldHint and destructiveHint true,
  readOnlyHint and idempotentHint false), which already allows the riskier value.
  \`maliciousActivityHint\` has no core default: SEP-1913's "\`false\` or omission means it will
  never be set" holds, so a resolve that says it true fires when the declaration omits it too.
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
      for (const h of HINTS) {
        const mine = call.resultClaims.from(h.fact, h.pack);
        const theirs = declared.claims.from(h.fact, h.pack);
        if (mine?.value !== h.more) continue;
        if (theirs === undefined && h.omissionRulesOut && !(declared.tool.annotations && Object.prototype.hasOwnProperty.call(declared.tool.annotations, h.key))) {
          const where = declared.tool.annotations ? `${declared.tool.pointer}/annotations` : declared.tool.pointer;
          ctx.report({
            call,
            pointer: mine.pointer,
            message: `${callName(call)} resolved ${h.key} to ${h.more}, but the tool's tools/list declaration (${where}) does not give ${h.key}: SEP-1913 says "false or omission means it will never be set", and a resolve only selects within the declaration`,
            suggestion: `if the tool can flag such content for some arguments, declare ${h.key}: true in tools/list; otherwise resolve to false`,
            related: [{ pointer: where, message: `${quote(call.tool)} is declared here, without ${h.key}`, tool: { name: call.tool } }],
          });
          continue;
        }
        if (theirs?.value !== !h.more) continue;
        ctx.report({
          call,
          pointer: mine.pointer,
          message: `${callName(call)} resolved ${h.key} to ${h.more}, but the tool's tools/list declaration says ${h.key} ${!h.more} (${theirs.pointer}): ${h.why}, and a resolve only selects within the declaration`,
          suggestion: `if the tool can do this for some arguments, declare ${h.key}: ${h.more}${h.omissionRulesOut ? '' : ' (or omit it)'} in tools/list; otherwise resolve to ${!h.more}`,
          related: [{ pointer: theirs.pointer, message: `${quote(call.tool)} declares ${h.key} ${!h.more} here`, tool: { name: call.tool } }],
        });
      }
      for (const e of outsideDeclared(call.resultClaims, declared.claims)) {
        ctx.report({
          call,
          pointer: e.member.pointer,
          message: `${callName(call)} resolved ${memberText(e)}, outside the tool's declared possible set: ${declaredText(e.declared)} (${e.declared.pointer})`,
          suggestion: `add it to ${e.declared.field} in the tools/list declaration if some arguments can lead to it; otherwise resolve within the declared set`,
          related: [{ pointer: e.declared.pointer, message: `${quote(call.tool)} declares ${e.declared.field} here`, tool: { name: call.tool } }],
        });
      }
    }
  },
});
