import { defineRule } from '../src/rule.js';
import { resultName, SET_FACTS } from '../src/engine/session.js';
import { written } from '../src/engine/possible-sets.js';
import { called, declare, listed } from '../src/docs/transcripts.js';
import { quote } from '../src/util/text.js';

const listInbox = declare('list_inbox', {
  readOnlyHint: true,
  returnMetadata: { source: ['untrustedPublic', 'user'], sensitivity: ['pii', 'user'] },
});

export default defineRule({
  id: 'result-single-value',
  severity: 'warning',
  category: 'session',
  packs: ['sep-1913'],
  summary: 'A tools/call result should give each SEP-1913 metadata field one resolved value, not a set.',
  precision: 'very-high',
  why: `SEP-1913 (../shared/seeds/000_f48d420c65c867ff.txt) separates what a tool *may* do from
what one response *is*: "In \`tools/list\`, annotation fields express **possible** values … For
enum-like fields (for example \`inputMetadata.outcomes\`), tools MAY declare a set of possible
values using an array; \`tools/resolve\` and responses SHOULD return a single resolved value",
and again in *Schema Definitions*: "Array forms indicate **possible** values and are intended
for \`tools/list\` (and \`tools/resolve\` when it cannot fully resolve). Responses should return
single concrete values." A result that still says \`"source": ["untrustedPublic", "user"]\`
leaves the client where the declaration did: it cannot tell whether this data is untrusted, and
a policy that needs to know must assume the worst of the set.`,
  notes: `- Fields checked: \`_meta.annotations.returnMetadata.source\` and \`.sensitivity\`, and
  \`inputMetadata.destination\`, \`.sensitivity\` and \`.outcomes\`, of \`tools/call\` results.
  \`attribution\` is a list by design, and not checked.
- A \`tools/resolve\` response MAY return an array when it cannot fully resolve: arrays there
  are not findings (see [resolve-within-declared](resolve-within-declared.md) for what a resolve
  may not do).
- An array of one value has a mechanical fix: that value. An empty array names no value at all,
  and is told so.
- A warning, as the SEP says SHOULD.`,
  examples: {
    incorrect: [
      {
        title: 'A result that repeats the possible set',
        transcript: [
          ...listed(1, [listInbox]),
          ...called(2, 'list_inbox', { result: { returnMetadata: { source: ['untrustedPublic', 'user'], sensitivity: 'pii' } } }),
        ],
        findings: [{ pointer: '/3/result/_meta/annotations/returnMetadata/source' }],
      },
      {
        title: 'An array of one value',
        explanation: 'The fix is the value itself.',
        transcript: [...listed(1, [listInbox]), ...called(2, 'list_inbox', { result: { returnMetadata: { source: 'user', sensitivity: ['pii'] } } })],
        findings: [{ pointer: '/3/result/_meta/annotations/returnMetadata/sensitivity' }],
      },
      {
        title: 'An empty array',
        doc: false,
        transcript: [...listed(1, [listInbox]), ...called(2, 'list_inbox', { result: { returnMetadata: { source: 'user', sensitivity: [] } } })],
        findings: [{ pointer: '/3/result/_meta/annotations/returnMetadata/sensitivity' }],
      },
    ],
    correct: [
      {
        title: 'One resolved value per field',
        transcript: [...listed(1, [listInbox]), ...called(2, 'list_inbox', { result: { returnMetadata: { source: 'untrustedPublic', sensitivity: 'pii' } } })],
      },
      {
        title: 'A tools/resolve that cannot fully resolve',
        explanation: '`tools/resolve` MAY return a narrower set when it cannot resolve to one value.',
        transcript: [
          ...listed(1, [listInbox]),
          { jsonrpc: '2.0', id: 2, method: 'tools/resolve', params: { name: 'list_inbox', arguments: { limit: 10 } } },
          { jsonrpc: '2.0', id: 2, result: { tool: { ...listInbox, annotations: { readOnlyHint: true, returnMetadata: { source: ['untrustedPublic', 'user'], sensitivity: 'pii' } } } } },
        ],
      },
    ],
  },
  checkSession(ctx) {
    for (const call of ctx.calls) {
      if (call.kind !== 'call') continue;
      for (const fact of SET_FACTS) {
        const c = call.resultClaims.from(fact, 'sep-1913');
        if (!c) continue;
        const w = written(c);
        if (!Array.isArray(w)) continue;
        const field = c.field.replace(/^annotations\./, '_meta.annotations.');
        if (w.length === 0) {
          ctx.report({
            call,
            pointer: c.pointer,
            message: `${resultName(call)} gives ${field} as an empty array, which names no value; SEP-1913 asks a response for the one resolved value that applies to it`,
            suggestion: `give the one value that describes this response, or leave ${field} out`,
          });
          continue;
        }
        ctx.report({
          call,
          pointer: c.pointer,
          message: `${resultName(call)} gives ${field} as ${w.length === 1 ? 'an array of one value' : 'a set'}, ${quote(w, 80)}; SEP-1913 asks a response for the one resolved value that applies to it`,
          suggestion:
            w.length === 1
              ? `write the value itself, ${quote(w[0])}, without the array`
              : 'return the one value that describes this response (the possible set belongs in the tools/list declaration)',
          ...(w.length === 1 ? { fix: { description: 'Write the single value without the array', replacements: [{ pointer: c.pointer, text: JSON.stringify(w[0]) }] } } : {}),
        });
      }
    }
  },
});
