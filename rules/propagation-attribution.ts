import { defineRule, type SessionCall } from '../src/rule.js';
import { callName, resultName } from '../src/engine/session.js';
import { called, declare, listed, on } from '../src/docs/transcripts.js';
import { plural, quote } from '../src/util/text.js';
import { isObject } from '../src/util/json.js';

const readFile = declare('read_file', { readOnlyHint: true, openWorldHint: false });
const sendEmail = declare('send_email', { readOnlyHint: false, destructiveHint: false, openWorldHint: true });
const SALARIES = 'mcp://file-server.acme.local/hr/salaries.xlsx';
const BUDGET = 'urn:org:acme:finance:budget-2026';

/** How many missing entries a message names. */
const SHOWN = 3;

interface Seen {
  /** Where the entry was first seen: a result's or a request's attribution. */
  pointer: string;
  call: SessionCall;
  in: 'result' | 'request';
}

export default defineRule({
  id: 'propagation-attribution',
  severity: 'warning',
  category: 'session',
  packs: ['sep-1913'],
  summary: "A tools/call request's attribution should include every attribution seen earlier in the session.",
  precision: 'very-high',
  security: 3.0,
  why: `SEP-1913 (../shared/seeds/000_f48d420c65c867ff.txt), *Propagation Rules*: "**Attribution
accumulation**: \`attribution\` lists **SHOULD** be merged (union) across context boundaries";
a request's \`attribution\` is the "Aggregated attribution from prior context" (*Result
Annotations*), and the SEP's reference client sends its accumulated session annotations with
every call. Attribution is what lets the next server — and the person asked to confirm a call —
see where the data in context came from ("the salary spreadsheet"): a request that drops an
entry hides a source that is still in the context window.`,
  notes: `- The attribution seen so far is the union of every earlier result's \`_meta.annotations.attribution\`
  (by where its response is in the transcript) and every earlier request's: a later
  \`tools/call\` request's \`params._meta.annotations.attribution\` must hold all of it.
- A result that arrives after the client cancelled its call (\`notifications/cancelled\`) is
  one MCP has the client ignore: its attribution is not seen. The cancellation is read as the
  client's as [propagation-open-world](propagation-open-world.md) reads it.
- One finding per request, at its attribution (or the nearest part of it the request has),
  naming the first ${SHOWN} missing entries and how many more, with where each named one was first
  seen as related locations.
- A warning, as the SEP says SHOULD. Clients may reasonably minimise attribution for privacy
  (the SEP's *Privacy Considerations*): turn the rule off for sessions where that is the policy.`,
  examples: {
    incorrect: [
      {
        title: 'An email request that drops the file it carries',
        transcript: [
          ...on('files', listed(1, [readFile])),
          ...on('mail', listed(1, [sendEmail])),
          ...on('files', called(2, 'read_file', { result: { attribution: [SALARIES] } })),
          ...on('mail', called(2, 'send_email')),
        ],
        findings: [{ pointer: '/6/message/params/_meta/annotations/attribution' }],
      },
      {
        title: 'Attribution accumulated from two results, one of them dropped',
        transcript: [
          ...listed(1, [readFile, sendEmail]),
          ...called(2, 'read_file', { result: { attribution: [SALARIES] } }),
          ...called(3, 'read_file', { request: { attribution: [SALARIES] }, result: { attribution: [BUDGET] } }),
          ...called(4, 'send_email', { request: { attribution: [BUDGET] } }),
        ],
        findings: [{ pointer: '/6/params/_meta/annotations/attribution' }],
      },
    ],
    correct: [
      {
        title: 'A late result of a call the client cancelled',
        doc: false,
        transcript: [
          ...listed(1, [readFile, sendEmail]),
          { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'read_file', arguments: {} } },
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } },
          { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '…' }], _meta: { annotations: { attribution: [SALARIES] } } } },
          ...called(3, 'send_email'),
        ],
      },
      {
        title: 'The attribution carried to the next server',
        transcript: [
          ...on('files', listed(1, [readFile])),
          ...on('mail', listed(1, [sendEmail])),
          ...on('files', called(2, 'read_file', { result: { attribution: [SALARIES] } })),
          ...on('mail', called(2, 'send_email', { request: { attribution: [SALARIES] } })),
        ],
      },
    ],
  },
  checkSession(ctx) {
    const events: { at: number; call: SessionCall; in: 'result' | 'request' }[] = [];
    for (const call of ctx.calls) {
      if (call.kind !== 'call') continue;
      events.push({ at: call.requestAt, call, in: 'request' });
      // A response to a request the client had cancelled is one it ignores (MCP cancellation).
      if (call.responseAt !== undefined && !call.cancelled) events.push({ at: call.responseAt, call, in: 'result' });
    }
    events.sort((a, b) => a.at - b.at);
    const seen = new Map<string, Seen>();
    for (const e of events) {
      const claims = e.in === 'request' ? e.call.requestClaims : e.call.resultClaims;
      const attribution = claims.from('attribution', 'sep-1913');
      if (e.in === 'request' && seen.size > 0) {
        // How many seen entries the request lacks, from what it holds (no pass over everything
        // seen per request: a long session sees thousands), and the first few of them.
        const has = new Set(attribution?.value ?? []);
        let held = 0;
        for (const entry of has) if (seen.has(entry)) held++;
        const count = seen.size - held;
        if (count > 0) {
          const shown: [string, Seen][] = [];
          for (const item of seen) {
            if (!has.has(item[0])) shown.push(item);
            if (shown.length === SHOWN) break;
          }
          const more = count - shown.length;
          const call = e.call;
          const meta = call.params?._meta;
          const annotations = isObject(meta) && isObject(meta.annotations) ? meta.annotations : undefined;
          const written = annotations && Object.prototype.hasOwnProperty.call(annotations, 'attribution') ? annotations.attribution : undefined;
          const how = attribution
            ? 'has an attribution without'
            : written !== undefined
              ? `has attribution ${quote(written, 60)}, ${written === null ? 'null' : typeof written === 'object' ? 'an object' : `a ${typeof written}`} where SEP-1913 has an array of strings, so it is missing`
              : 'carries no attribution, missing';
          ctx.report({
            call,
            pointer: attribution?.pointer ?? `${call.request}/params/_meta/annotations/attribution`,
            message: `${callName(call)} ${how} ${plural(count, 'entry', 'entries')} seen earlier in the session: ${shown.map(([entry]) => quote(entry, 100)).join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
            suggestion: 'send the union of every attribution seen so far in params._meta.annotations.attribution (SEP-1913 attribution accumulation)',
            related: shown.map(([entry, s]) => ({
              pointer: s.pointer,
              message: `${quote(entry, 100)} was first seen in ${s.in === 'result' ? resultName(s.call) : `the request of ${callName(s.call)}`}`,
              serverId: s.call.server.id,
              tool: { name: s.call.tool },
            })),
          });
        }
      }
      if (!attribution) continue;
      for (const entry of attribution.value) if (!seen.has(entry)) seen.set(entry, { pointer: attribution.pointer, call: e.call, in: e.in });
    }
  },
});
