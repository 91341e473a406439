import { defineRule } from '../src/rule.js';
import type { DataClass } from '../src/engine/claims.js';
import { claimsOf, dataClassOf, describeClass, members, noneBesideClass, withoutNone } from '../src/engine/possible-sets.js';
import { sideOf } from '../src/engine/queries.js';

/** Output classes that cannot be public. */
const NOT_PUBLIC: readonly DataClass[] = ['pii', 'financial', 'credentials'];

/** How a message names each class. */
const NOUN: Record<string, string> = { pii: 'personal data', financial: 'financial data', credentials: 'credentials' };


export default defineRule({
  id: 'sensitivity-conflict',
  severity: 'error',
  category: 'consistency',
  packs: ['sep-1913', 'action-metadata', 'meta-hints'],
  summary: 'A sensitivity declaration must not list "none" beside a data class, or call sensitive output public.',
  precision: 'high',
  security: 5.0,
  why: `Clients decide on sensitivity declarations: whether data may go to a public
destination, whether a result is redacted, whether a call needs the user's consent. A
declaration that says both "nothing sensitive" and "personal data" lets each client pick
the half it likes — and a check written as "skip the prompt when the tool handles
\`none\`" picks the wrong one.

Two forms are reported:

- \`"none"\` beside another DataClass in one sensitivity set (SEP-1913
  \`inputMetadata.sensitivity\` / \`returnMetadata.sensitivity\`, or the action-metadata
  extension's), e.g. \`["none", "pii"]\`;
- \`_meta["mcp.dev/resultSensitivity"]: "public"\` on a tool whose output sensitivity
  includes \`pii\`, \`financial\` or \`credentials\`.`,
  notes: `- **Why \`["none", "pii"]\` is a contradiction and not a union.** In \`tools/list\` a
  sensitivity set lists the classes the data *may* carry, so \`["pii", "financial"]\`
  reads "may be PII, may be financial". \`"none"\` is not a class of data but the absence
  of one: it asserts that the data is not sensitive. Beside \`"pii"\` it asserts both that
  the data is not sensitive and that it may be PII. It adds no possibility either —
  every tool may be called with harmless data, so "sometimes nothing sensitive" is true
  of every set — and its only effect is to make an equality or membership test on
  \`"none"\` succeed for a tool that handles PII. Dropping \`"none"\` loses nothing, so the
  finding carries that fix. It drops repeated values of the list as well (\`["none", "pii",
  "pii"]\` becomes \`["pii"]\`): [empty-possible-set](empty-possible-set.md) leaves such a
  list's fix to this one, so a consumer that applies every fix gets one edit of the list, not
  two that overlap. (By the same reading, a \`tools/resolve\` or a result that
  resolves to \`"none"\` stays within a declared \`["pii"]\`: "none" is below every class.)
- **\`"user"\` contradicts \`"none"\` too, though it is not sensitive.** \`"user"\` is the
  user's own content (their notes, drafts, messages): no other rule counts it as
  sensitive data (it is not PII, financial, credentials or regulated), but it is a data
  class, and \`"none"\` says the data carries none. So \`["user", "none"]\` is reported
  too, and the message says what \`"user"\` means rather than calling it sensitive. When
  the set also holds a sensitive class, the message names that one.
- Only classes the pack recognises count as "another class": an open-vocabulary value
  such as action-metadata \`"public"\` may be the server's own word for "none".
- **\`resultSensitivity: "public"\`** is a single value that covers every result, so it
  cannot coexist with output that may be personal, financial or a credential. \`user\`
  and \`regulated\` are not counted: a user's own content may be published, and a
  regulated regime (SOX, for example) covers published data too. Reported at the
  \`resultSensitivity\` value, with the output sensitivity as related location; no
  mechanical fix, because either side may be wrong.`,
  examples: {
    incorrect: [
      {
        title: '"none" beside personal data',
        tools: [
          {
            name: 'list_contacts',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
              returnMetadata: { source: 'user', sensitivity: ['none', 'pii'] },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/returnMetadata/sensitivity/0' }],
      },
      {
        title: '"none" beside a regulated class, in the input set',
        doc: false,
        tools: [
          {
            name: 'upload_record',
            inputSchema: { type: 'object' },
            annotations: {
              inputMetadata: { destination: 'internal', sensitivity: [{ regulated: { scopes: ['HIPAA'] } }, 'none'], outcomes: 'consequential' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/sensitivity/1' }],
      },
      {
        title: 'Results said to be public that may carry credentials',
        tools: [
          {
            name: 'get_service_config',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, returnMetadata: { source: 'internal', sensitivity: ['user', 'credentials'] } },
            _meta: { 'mcp.dev/resultSensitivity': 'public' },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1resultSensitivity' }],
      },
      {
        title: '"none" beside the user\'s own content',
        doc: false,
        tools: [
          {
            name: 'get_note',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, returnMetadata: { source: 'internal', sensitivity: ['user', 'none'] } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/returnMetadata/sensitivity/1' }],
      },
      {
        title: '"none" beside personal data in the action-metadata extension',
        doc: false,
        tools: [
          {
            name: 'search_people',
            inputSchema: { type: 'object' },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: 'internal', sensitivity: ['none', 'pii'] } } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/sensitivity/0' }],
      },
    ],
    correct: [
      {
        title: 'Several possible classes, none of them "none"',
        tools: [
          {
            name: 'list_inbox',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
              returnMetadata: { source: 'untrustedPublic', sensitivity: ['pii', 'user'] },
            },
          },
        ],
      },
      {
        title: '"none" on its own',
        doc: false,
        tools: [
          {
            name: 'get_time',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, returnMetadata: { source: 'system', sensitivity: ['none'] } },
          },
        ],
      },
      {
        title: 'Public results with regulated or user data; "none" beside an open-vocabulary value',
        doc: false,
        tools: [
          {
            name: 'get_filing',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, returnMetadata: { source: 'trustedPublic', sensitivity: ['user', { regulated: { scopes: ['SOX'] } }] } },
            _meta: { 'mcp.dev/resultSensitivity': 'public' },
          },
          {
            name: 'read_notes',
            inputSchema: { type: 'object' },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: 'internal', sensitivity: ['none', 'public'] } } },
          },
        ],
      },
    ],
  },
  check(ctx) {
    for (const claim of claimsOf(ctx.claims, 'inputSensitivity', 'outputSensitivity')) {
      const pair = noneBesideClass(claim);
      if (!pair) continue;
      const { none, other } = pair;
      // Without "none" and without repeats: empty-possible-set leaves a repeat in this list to this fix.
      const kept = withoutNone(claim);
      const direction = claim.fact === 'inputSensitivity' ? 'the input' : 'the output';
      const clash =
        dataClassOf(other.value) === 'user'
          ? `"none" says ${direction} carries no class of data, "user" says it may carry the user's own content: not sensitive data, but a data class all the same`
          : `"none" says ${direction} is not sensitive, ${describeClass(other.value)} says it may be`;
      ctx.report({
        pointer: none[0]!.pointer,
        message: `${claim.field} lists "none" (${none[0]!.pointer}) beside ${describeClass(other.value)} (${other.pointer}): ${clash}`,
        suggestion: `drop "none": a possible set lists every class ${direction} may carry, and "none" adds no possibility to it`,
        fix: kept
          ? { description: `Remove "none"${kept.length < members(claim).length - none.length ? ' and repeated values' : ''} from ${claim.field}`, replacements: [{ pointer: claim.pointer, text: JSON.stringify(kept) }] }
          : undefined,
        related: [{ pointer: other.pointer, message: `${describeClass(other.value)} is declared here` }],
      });
    }

    for (const pub of ctx.claims.where('resultSensitivity', 'public')) {
      const sensitive = ctx.claims.including('outputSensitivity', ...NOT_PUBLIC);
      if (sensitive.length === 0) continue;
      const first = sensitive[0]!;
      const member = members(first).find((m) => NOT_PUBLIC.includes(dataClassOf(m.value) as DataClass))!;
      const cls = String(dataClassOf(member.value));
      ctx.report({
        pointer: pub.pointer,
        message: `${sideOf(pub)} but ${sideOf(first, cls)}: a public result cannot carry ${NOUN[cls] ?? cls}`,
        suggestion: `raise ${pub.field} to ${cls === 'credentials' ? '"restricted"' : '"confidential"'}, or drop ${JSON.stringify(cls)} from ${first.field} if the output cannot carry it`,
        related: sensitive.map((c) => ({ pointer: c.pointer, message: `${c.field} includes ${JSON.stringify(dataClassOf(members(c).find((m) => NOT_PUBLIC.includes(dataClassOf(m.value) as DataClass))?.value))}` })),
      });
    }
  },
});
