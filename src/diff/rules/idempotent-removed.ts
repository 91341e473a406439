import { readOnly, says } from '../../engine/queries.js';
import { defineDriftRule } from '../types.js';
import type { ToolSide } from '../types.js';
import { dropped, saidBefore, tool } from './shared.js';

/**
 * The claims saying a tool is idempotent, as clients read them: idempotentHint true only while
 * readOnlyHint is not true (the spec's "meaningful only when readOnlyHint == false"), and
 * _meta["mcp.dev/idempotent"] true.
 */
function idempotent(side: ToolSide) {
  const ro = readOnly(side.claims)?.value === true;
  return side.claims.where('idempotent', true).filter((c) => c.pack !== 'core' || !ro);
}

export default defineDriftRule({
  id: 'drift/idempotent-removed',
  severity: 'warning',
  category: 'drift',
  packs: ['core', 'meta-hints'],
  summary: 'A tool that was idempotent may no longer be safe to call twice.',
  precision: 'very-high',
  security: 5.5,
  why: `\`idempotentHint: true\` (or \`_meta["mcp.dev/idempotent"]: true\`) tells clients that calling
the tool again with the same arguments has no further effect: clients, gateways and agent
frameworks retry such a call after a timeout or a dropped connection, and users approve it
once for all its repeats. When the hint turns false or is dropped (absent means false), a
repeated call may now do its work twice — a second message sent, a second charge, a second
row — where the reviewed tool promised it would not. Clients that read the new hint stop
retrying, but a retry policy or an approval set up for the old one does not, so the change
must be a decision someone reviewed.`,
  notes: `- An idempotentHint that disappears counts: absent means false. So does one that is not a
  boolean (\`"true"\`, a string): clients ignore it.
- idempotentHint means nothing while \`readOnlyHint\` is true (the spec's ToolAnnotations:
  "meaningful only when readOnlyHint == false"), so it is not compared on a tool that was
  read-only in the base; a tool that stops being read-only is reported by
  \`drift/readonly-removed\`. A tool that is read-only in the head is not compared either: it
  changes nothing, so calling it twice repeats nothing.
- The vocabularies are compared as a whole: moving the promise from \`idempotentHint\` to
  \`_meta["mcp.dev/idempotent"]\` keeps it and is not reported.
- When the description or \`inputSchema\` changed too, \`drift/definition-changed\` counts the
  hint change as the hints having been reviewed; this rule still reports the weakening.`,
  examples: {
    incorrect: [
      {
        title: 'idempotentHint turned false',
        base: { tools: [tool('set_status', { readOnlyHint: false, destructiveHint: false, idempotentHint: true })] },
        tools: [tool('set_status', { readOnlyHint: false, destructiveHint: false, idempotentHint: false })],
        findings: [{ pointer: '/tools/0/annotations/idempotentHint' }],
      },
      {
        title: 'idempotentHint dropped with a new description',
        explanation: 'An absent idempotentHint means false. The description changed too, which drift/definition-changed takes as the hints having been reviewed: the weakened hint is still reported.',
        base: { tools: [tool('charge_card', { readOnlyHint: false, destructiveHint: false, idempotentHint: true }, { description: 'Charges the card once per order id.' })] },
        tools: [tool('charge_card', { readOnlyHint: false, destructiveHint: false }, { description: 'Charges the card.' })],
        findings: [{ pointer: '/tools/0/annotations' }],
      },
      {
        title: 'mcp.dev/idempotent turned false',
        base: { tools: [tool('upsert_row', { readOnlyHint: false }, { _meta: { 'mcp.dev/effect': 'write', 'mcp.dev/idempotent': true } })] },
        tools: [tool('upsert_row', { readOnlyHint: false }, { _meta: { 'mcp.dev/effect': 'write', 'mcp.dev/idempotent': false } })],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1idempotent' }],
      },
    ],
    correct: [
      {
        title: 'The promise moved to the _meta hints',
        base: { tools: [tool('set_status', { readOnlyHint: false, destructiveHint: false, idempotentHint: true })] },
        tools: [tool('set_status', { readOnlyHint: false, destructiveHint: false }, { _meta: { 'mcp.dev/idempotent': true } })],
      },
      {
        title: 'idempotentHint beside readOnlyHint true',
        explanation: 'idempotentHint means nothing on a read-only tool, so dropping it there changes nothing.',
        base: { tools: [tool('get_status', { readOnlyHint: true, idempotentHint: true })] },
        tools: [tool('get_status', { readOnlyHint: true })],
      },
    ],
  },
  compare({ pair, report }) {
    if (readOnly(pair.head.claims)?.value === true) return;
    const was = idempotent(pair.base);
    if (!was.length || idempotent(pair.head).length) return;
    const off = pair.head.claims.where('idempotent', false)[0];
    const d = dropped(pair, was, off, 'says the tool is idempotent');
    report({
      pointer: d.pointer,
      message: `${d.state}; in the base ${says(was[0]!)} (${was[0]!.pointer}), so a repeated or retried call may now do its work twice`,
      suggestion: `if calling the tool twice now does more than calling it once, make sure that is intended and that retries and approvals set up for it still hold; otherwise restore ${was[0]!.field}${d.ignored ? ' as a JSON boolean' : ''}`,
      before: saidBefore(was),
    });
  },
});
