import { defineRule } from '../src/rule.js';
import { readOnly, sideOf } from '../src/engine/queries.js';

export default defineRule({
  id: 'idempotent-conflict',
  severity: 'error',
  category: 'consistency',
  packs: ['core', 'meta-hints'],
  summary: 'idempotentHint and mcp.dev/idempotent must not disagree.',
  precision: 'high',
  security: 4.0,
  why: `Idempotency decides whether a call may be repeated: a client, gateway or routing
layer retries a timed-out call only when a second call with the same arguments has no
further effect. The core \`idempotentHint\` and the \`_meta["mcp.dev/idempotent"]\` hint
both answer that question (the \`_meta\` proposal lists "routing layers retrying only
idempotent tools" as its use). When one says \`true\` and the other \`false\`, a layer that
reads the \`true\` side retries a call the server says must not be repeated: a second
payment, a duplicate message, a second order.`,
  notes: `**Read-only tools are skipped.** The spec says \`idempotentHint\` is "meaningful only
when \`readOnlyHint == false\`", so on a read-only tool clients ignore it and it cannot
conflict (it is [ignored-hint](ignored-hint.md)'s note). The \`_meta\` proposal also
words \`idempotent\` as "repeated calls with same input produce same result", which for a
read-only tool is a different question (a clock or a stock quote is safe to repeat but
never returns the same result twice), so a disagreement there is not a contradiction.
An absent \`readOnlyHint\` defaults to false: the hints are compared.

**On a tool that writes, the two mean the same thing.** Taken literally, "same result"
and "no additional effect on its environment" could differ (an upsert that answers
"created" then "updated"). We read \`mcp.dev/idempotent\` by the proposal's own use case,
retry safety, which is exactly what \`idempotentHint\` says for a tool that writes; a
client deciding whether to retry cannot honour both values. Hence an error.

**Only stated values count.** An absent \`idempotentHint\` defaults to false, but a
default is not an opinion: \`mcp.dev/idempotent: true\` without \`idempotentHint\` is not
reported (clients that read only the core hint will just not retry, which is safe).

**Where.** At \`_meta["mcp.dev/idempotent"]\`, with \`idempotentHint\` as the related
location, as other cross-vocabulary rules report at the field that disagrees with the
core hint. No mechanical fix: only the author knows whether a repeated call has a
further effect, and guessing \`false\` would quietly disable retries the server
supports.`,
  examples: {
    incorrect: [
      {
        title: 'A card charge that the core hint calls idempotent',
        tools: [
          {
            name: 'charge_card',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
            _meta: { 'mcp.dev/effect': 'external', 'mcp.dev/idempotent': false, 'mcp.dev/requiresConfirmation': true },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1idempotent' }],
      },
      {
        title: 'No readOnlyHint (false by default): the hints are compared',
        doc: false,
        tools: [
          {
            name: 'set_status',
            inputSchema: { type: 'object' },
            annotations: { idempotentHint: false },
            _meta: { 'mcp.dev/idempotent': true },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1idempotent' }],
      },
    ],
    correct: [
      {
        title: 'Both vocabularies say a repeated call has no further effect',
        tools: [
          {
            name: 'set_thermostat',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
            _meta: { 'mcp.dev/effect': 'write', 'mcp.dev/idempotent': true },
          },
        ],
      },
      {
        title: 'A read-only quote: idempotentHint is ignored, and results differ by design',
        doc: false,
        tools: [
          {
            name: 'get_stock_quote',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, idempotentHint: true },
            _meta: { 'mcp.dev/effect': 'read', 'mcp.dev/idempotent': false },
          },
        ],
      },
      {
        title: 'No idempotentHint: the default is not a claim',
        doc: false,
        tools: [
          {
            name: 'set_thermostat',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false },
            _meta: { 'mcp.dev/idempotent': true },
          },
        ],
      },
    ],
  },
  check(ctx) {
    if (readOnly(ctx.claims)?.value === true) return;
    const core = ctx.claims.from('idempotent', 'core');
    if (!core) return;
    for (const other of ctx.claims.all('idempotent')) {
      if (other.pack === 'core' || other.value === core.value) continue;
      const [yes, no] = core.value ? [core, other] : [other, core];
      ctx.report({
        pointer: other.pointer,
        message: `${sideOf(core)} but ${sideOf(other)}: a layer that reads ${yes.field} will retry a call that ${no.field} says may have a further effect each time`,
        suggestion: 'decide whether a second call with the same arguments changes anything more; if it does, set both to false, if not, set both to true',
        related: [{ pointer: core.pointer, message: `idempotentHint is ${core.value} here` }],
      });
    }
  },
});
