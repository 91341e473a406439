import { RESULT_SENSITIVITIES } from '../../engine/claims.js';
import { says } from '../../engine/queries.js';
import { fieldPath, get, relative } from '../../util/pointer.js';
import { quote } from '../../util/text.js';
import { at } from '../facts.js';
import type { ToolSide } from '../types.js';
import { defineDriftRule } from '../types.js';
import { dropped, reportLowered, saidBefore, tool } from './shared.js';

/** The outputSchema properties marked "x-sensitive": true that a vocabulary reads, tool-relative. */
function markedFields(side: ToolSide): string[] {
  return side.claims.all('sensitiveFields').flatMap((c) => c.value.map((p) => relative(side.view.pointer, p)));
}

/** The last segment of a pointer: the property's name. */
const nameOf = (rel: string) => rel.slice(rel.lastIndexOf('/') + 1);

export default defineDriftRule({
  id: 'drift/sensitivity-mark-removed',
  severity: 'error',
  category: 'drift',
  packs: ['webmcp-sensitive', 'trust-annotations', 'meta-hints'],
  summary: "A tool's output is no longer marked sensitive where it was.",
  precision: 'high',
  security: 7.0,
  why: `WebMCP's \`sensitiveHint: true\`, an \`"x-sensitive": true\` property in \`outputSchema\`, and the
trust-annotations extension's \`sensitive: true\` tell clients to keep what the tool returns (or
those fields of it) out of the model's context and out of logs; \`_meta["mcp.dev/resultSensitivity"]\`
tells proxies how carefully to handle the results. When a mark goes, or the sensitivity is
lowered, clients that follow the hints hand the same data to the model — a password, a health
record — with nothing in between. The data may really have stopped being sensitive, but that
is a decision a reviewer must see.`,
  notes: `- \`sensitiveHint\` and trust-annotations' \`sensitive\` are compared as a whole: moving the mark
  from one to the other keeps it and is not reported. A mark written in a form clients cannot
  read (\`"true"\`, a string) is ignored by them, so it counts as removed.
- Each \`"x-sensitive"\` property is compared at its place in \`outputSchema\`: still there
  but no longer marked (\`false\`, or no \`"x-sensitive"\`) is reported. A property that is gone
  from the head's \`outputSchema\` (or the whole \`outputSchema\`) is reported as a warning: its
  data may be gone too, or come back under another name, unmarked. A property of the same name
  marked elsewhere in the head (moved into \`$defs\`) is not reported.
- \`_meta["mcp.dev/resultSensitivity"]\` is ordered (public < internal < confidential <
  restricted): a step down is reported. A value that disappears is
  \`drift/sensitivity-added\`'s (a client must then assume any sensitivity).
- SEP-1913 \`returnMetadata.sensitivity\` and the action-metadata extension's are possible sets
  of data classes ("may return pii"), like destinations and outcomes: a class the head no
  longer lists says the tool returns less, and is not reported; a set that disappears is
  \`drift/sensitivity-added\`'s.`,
  examples: {
    incorrect: [
      {
        title: 'sensitiveHint turned false',
        base: { tools: [tool('get_api_key', { readOnlyHint: true, sensitiveHint: true })] },
        tools: [tool('get_api_key', { readOnlyHint: true, sensitiveHint: false })],
        findings: [{ pointer: '/tools/0/annotations/sensitiveHint' }],
      },
      {
        title: 'An "x-sensitive" mark dropped from an output property',
        base: {
          tools: [
            tool('get_patient', { readOnlyHint: true }, { outputSchema: { type: 'object', properties: { name: { type: 'string' }, diagnosis: { type: 'string', 'x-sensitive': true } } } }),
          ],
        },
        tools: [tool('get_patient', { readOnlyHint: true }, { outputSchema: { type: 'object', properties: { name: { type: 'string' }, diagnosis: { type: 'string' } } } })],
        findings: [{ pointer: '/tools/0/outputSchema/properties/diagnosis' }],
      },
      {
        title: 'The marked property is gone from the output schema',
        explanation: 'Its data may be gone, or be returned under another name without the mark: a warning.',
        base: { tools: [tool('get_user', { readOnlyHint: true }, { outputSchema: { type: 'object', properties: { email: { type: 'string' }, ssn: { type: 'string', 'x-sensitive': true } } } })] },
        tools: [tool('get_user', { readOnlyHint: true }, { outputSchema: { type: 'object', properties: { email: { type: 'string' }, tax_id: { type: 'string' } } } })],
        findings: [{ pointer: '/tools/0/outputSchema/properties', severity: 'warning' }],
      },
      {
        title: 'Result sensitivity lowered',
        base: { tools: [tool('get_invoice', { readOnlyHint: true }, { _meta: { 'mcp.dev/resultSensitivity': 'confidential' } })] },
        tools: [tool('get_invoice', { readOnlyHint: true }, { _meta: { 'mcp.dev/resultSensitivity': 'public' } })],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1resultSensitivity' }],
      },
    ],
    correct: [
      {
        title: 'The mark moved to the trust-annotations extension',
        base: { tools: [tool('get_api_key', { readOnlyHint: true, sensitiveHint: true })] },
        tools: [tool('get_api_key', { readOnlyHint: true }, { _meta: { 'io.modelcontextprotocol/trust-annotations': { sensitive: true } } })],
      },
      {
        title: 'The marked property moved into $defs',
        base: { tools: [tool('get_user', { readOnlyHint: true }, { outputSchema: { type: 'object', properties: { ssn: { type: 'string', 'x-sensitive': true } } } })] },
        tools: [
          tool(
            'get_user',
            { readOnlyHint: true },
            { outputSchema: { type: 'object', properties: { user: { $ref: '#/$defs/user' } }, $defs: { user: { type: 'object', properties: { ssn: { type: 'string', 'x-sensitive': true } } } } } },
          ),
        ],
      },
    ],
  },
  compare({ pair, report }) {
    const { base, head } = pair;
    // sensitiveHint and trust-annotations' sensitive, as a whole.
    const was = base.claims.where('sensitiveOutput', true);
    if (was.length && !head.claims.where('sensitiveOutput', true).length) {
      const d = dropped(pair, was, head.claims.where('sensitiveOutput', false)[0], 'marks the output sensitive');
      report({
        pointer: d.pointer,
        message: `${d.state}; in the base ${says(was[0]!)} (${was[0]!.pointer}), so clients may now put what the tool returns in the model's context`,
        suggestion: `if the output is no longer sensitive, make sure that is intended; otherwise restore ${was[0]!.field}${d.ignored ? ' as a JSON boolean' : ''}`,
        before: saidBefore(was),
      });
    }
    // "x-sensitive" properties, each at its place in outputSchema.
    const marked = base.claims.all('sensitiveFields');
    if (marked.length) {
      const now = new Set(markedFields(head));
      const names = new Set([...now].map(nameOf));
      for (const rel of markedFields(base)) {
        if (now.has(rel)) continue;
        const basePointer = base.view.pointer + rel;
        const before = [{ pointer: basePointer, message: `${fieldPath(rel)} is marked "x-sensitive" in the base` }];
        const node = get(head.view.value, rel);
        if (node === undefined) {
          if (names.has(nameOf(rel))) continue;
          const pointer = at(head, rel);
          report({
            pointer,
            severity: 'warning',
            message: `${fieldPath(rel)} is gone from the output schema (${pointer}), and with it its "x-sensitive" mark (${basePointer} in the base), so if its data now comes back under another name, clients may put it in the model's context`,
            suggestion: 'if the tool still returns that data under another name, mark that property "x-sensitive": true; if it no longer returns it, the change is fine',
            before,
          });
          continue;
        }
        const mark = node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>)['x-sensitive'] : undefined;
        const pointer = mark === undefined ? head.view.pointer + rel : `${head.view.pointer}${rel}/x-sensitive`;
        const state =
          mark === undefined
            ? `${fieldPath(rel)} is no longer marked "x-sensitive" (${pointer})`
            : mark === true
              ? `${fieldPath(rel)} is still marked "x-sensitive" (${pointer}) where no client reads the mark any more`
              : `${fieldPath(rel)}["x-sensitive"] is ${quote(mark)} now (${pointer})`;
        report({
          pointer,
          message: `${state}; in the base it was marked "x-sensitive": true (${basePointer}), so clients may now put its values in the model's context`,
          suggestion: `if the property is no longer sensitive, make sure that is intended; otherwise restore "x-sensitive": true on it`,
          before,
        });
      }
    }
    // mcp.dev/resultSensitivity stepped down (its removal is drift/sensitivity-added's).
    reportLowered(pair, report, { fact: 'resultSensitivity', order: RESULT_SENSITIVITIES, removal: false, consequence: 'clients and proxies may now handle the results with less care' });
  },
});
