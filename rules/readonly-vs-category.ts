import { defineRule } from '../src/rule.js';
import type { Action, Claim } from '../src/engine/claims.js';
import { readingActions, readOnly, says, sideOf } from '../src/engine/queries.js';
import { READONLY_FALSE_FIX_DOC, readOnlyFalseFix } from '../src/engine/readonly-fix.js';
import { orList } from '../src/util/text.js';

/** Actions a read-only tool cannot have, and what each says the tool does. */
const WRITES: Partial<Record<Action, string>> = {
  write: 'which says the tool modifies its environment',
  delete: 'which says the tool deletes data',
  destroy: 'which says the tool destroys resources',
  external: 'which says the tool’s primary side effect lands on an external system',
};

export default defineRule({
  id: 'readonly-vs-category',
  severity: 'error',
  category: 'consistency',
  packs: ['core', 'risk-metadata', 'meta-hints'],
  summary: 'A read-only tool cannot be categorised as one that mutates, deletes or destroys.',
  precision: 'high',
  security: 8.0,
  why: `\`readOnlyHint: true\` tells a client the tool does not modify its environment, and
clients call such tools without asking. SEP-2793's \`category\` and the
\`mcp.dev/effect\` hint say what the tool does in words of their own: a category of
\`mutate\`, \`delete\` or \`destroy\`, or an effect of \`write\`, \`delete\` or \`external\`,
says the tool changes something. Both cannot be true. A client that reads the core
hint auto-approves the call; a client that reads the category asks first, or blocks it.
If the hint is the wrong side, a deletion runs without the user ever seeing it.

SEP-2793 \`sideEffects\` lists what else a call does (\`"email"\`, \`"state_loss"\`). A
read-only tool should have none, so a non-empty list beside \`readOnlyHint: true\` is
reported too, as a warning.`,
  notes: `**Which words count.** SEP-2793 \`category\` \`mutate\`, \`delete\` and \`destroy\`, and
\`mcp.dev/effect\` \`write\`, \`delete\` and \`external\` (the packs normalise both to one
action fact). \`read\`, \`observe\` and \`utility\` agree with a read-only tool.

**\`mcp.dev/effect: "external"\` is an error, like the others.** The proposal defines
\`effect\` as the tool's "primary side-effect" and puts \`external\` beside \`write\` and
\`delete\`, answering its own question "is this tool read-only or does it mutate external
state?". A tool that only *reads from* an outside service has the effect \`read\`; that it
reaches the outside world is what \`openWorldHint\` says. The suggestion names that
reading, so a server that meant "talks to the internet" knows what to change.

**\`sideEffects\` is a warning.** Its vocabulary is open: a side effect such as
\`"audit_log"\` or \`"metrics"\` may leave the tool's environment as it was, so the list
alone does not prove the hint wrong. When the same tool already gets this rule's error
(category or effect), the \`sideEffects\` list is added to that finding as a related
location instead of a second finding: the error's fix settles both.

**Only an explicit \`readOnlyHint: true\` counts.** An absent hint defaults to false, which
agrees with every category.

**Where and what to fix.** One finding per contradicting field, at that field, with
\`readOnlyHint\` as the related location, as [readonly-vs-outcome](readonly-vs-outcome.md)
does. The mechanical fix sets \`readOnlyHint\` to false: it is the side that errs towards
asking the user, never towards skipping a prompt (see below for \`destructiveHint\`). Review it: if the tool really only
reads, correct the category or effect instead. A category or effect of \`read\` or
\`observe\` beside the contradicting one (category \`read\`, effect \`delete\`) agrees
with the hint but not with the other field, and setting the hint to false leaves that
standing, so it is listed as a related location too ([read-action-conflict](read-action-conflict.md),
which reports such a pair when no \`readOnlyHint: true\` is stated, leaves it to this
finding). The \`sideEffects\` warning carries no fix,
since harmless side effects are a plausible reading.

${READONLY_FALSE_FIX_DOC}`,
  examples: {
    incorrect: [
      {
        title: 'A case-variant category and a list of effects are read as SEP-2793 and the _meta hints (schema-valid reports the spelling)',
        doc: false,
        tools: [
          { name: 'drop_table', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, category: 'Destroy' } },
          { name: 'sync_folder', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false }, _meta: { 'mcp.dev/effect': ['read', 'delete'] } },
          { name: 'prune_cache', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false, category: ['read', 'destroy'] } },
        ],
        findings: [
          { pointer: '/tools/0/annotations/category' },
          { pointer: '/tools/1/_meta/mcp.dev~1effect' },
          { pointer: '/tools/2/annotations/category' },
        ],
      },
      {
        title: 'A "read-only" tool that SEP-2793 says mutates a deployment',
        tools: [
          {
            name: 'scale_deployment',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, riskLevel: 'medium', category: 'mutate', blastRadius: 'namespace' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/category' }],
      },
      {
        title: 'A "read-only" tool whose _meta hints say it deletes',
        tools: [
          {
            name: 'delete_user',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
            _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/requiresConfirmation': true },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
      {
        title: 'SEP-2793\'s "destroy" written as an effect is read as delete',
        doc: false,
        tools: [
          {
            name: 'purge_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'mcp.dev/effect': 'destroy', 'mcp.dev/requiresConfirmation': true },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
      {
        title: 'A read-only report that also sends email',
        explanation: 'A warning: the category agrees with the hint, but a listed side effect says a call does more than read.',
        tools: [
          {
            name: 'export_report',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, category: 'read', sideEffects: ['email'] },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/sideEffects', severity: 'warning' }],
      },
      {
        title: 'effect "external" on a read-only tool',
        doc: false,
        tools: [
          {
            name: 'post_tweet',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: true },
            _meta: { 'mcp.dev/effect': 'external' },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
      {
        title: 'Category and effect both contradict the hint; sideEffects folds into the errors',
        doc: false,
        tools: [
          {
            name: 'drop_namespace',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, category: 'destroy', sideEffects: ['state_loss'] },
            _meta: { 'mcp.dev/effect': 'delete' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/category' }, { pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
    ],
    correct: [
      {
        title: 'A read-only tool in the read category',
        tools: [
          {
            name: 'get_pod_logs',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, riskLevel: 'low', category: 'read', blastRadius: 'item' },
            _meta: { 'mcp.dev/effect': 'read' },
          },
        ],
      },
      {
        title: 'A tool that mutates and says it writes',
        tools: [
          {
            name: 'scale_deployment',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, category: 'mutate', sideEffects: ['restarts_pods'] },
          },
        ],
      },
      {
        title: 'No readOnlyHint: the default (false) agrees with "delete"',
        doc: false,
        tools: [{ name: 'delete_pod', inputSchema: { type: 'object' }, annotations: { category: 'delete', approvalRecommendation: 'single' } }],
      },
      {
        title: 'An empty sideEffects list',
        doc: false,
        tools: [{ name: 'list_pods', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, category: 'observe', sideEffects: [] } }],
      },
      {
        title: 'A "category" of the server’s own is not SEP-2793’s',
        doc: false,
        tools: [{ name: 'list_tables', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, category: 'database' } }],
      },
    ],
  },
  check(ctx) {
    const ro = readOnly(ctx.claims);
    if (ro?.value !== true) return;
    const sideEffects = ctx.claims.all('sideEffects').filter((c) => c.value.length > 0);
    const listed = (c: Claim<'sideEffects'>) => `${c.field} lists ${orList(c.value, 'and')}`;

    const writes = ctx.claims.all('action').filter((c) => WRITES[c.value] !== undefined);
    // A reading category or effect beside the write agrees with the hint, not with the write:
    // the fix below does not settle it (read-action-conflict leaves the write to this rule).
    // Read only for a tool with a write to report (most read-only tools have none).
    const reads = writes.length > 0 ? readingActions(ctx.claims) : [];
    // Made only for a tool that gets the finding (most read-only tools do not).
    const { fix, also } = writes.length > 0 ? readOnlyFalseFix(ctx, ro) : { fix: undefined, also: '' };
    for (const claim of writes) {
      const onlyReads = claim.field.startsWith('_meta') ? 'set the effect to "read"' : 'set the category to "read" or "observe"';
      ctx.report({
        pointer: claim.pointer,
        // The action in conflict: "write" accepted does not cover "destroy" later.
        detail: claim.value,
        message: `readOnlyHint is true (${ro.pointer}) but ${sideOf(claim)}, ${WRITES[claim.value]}`,
        suggestion:
          claim.value === 'external'
            ? `set readOnlyHint to false${also} if the call changes something outside the server; if the tool only reads from an outside service, set the effect to "read" (reaching the outside world is what openWorldHint says)`
            : `set readOnlyHint to false${also}, or, if the tool really only reads, ${onlyReads}`,
        fix,
        related: [
          { pointer: ro.pointer, message: 'readOnlyHint is true here' },
          ...reads.map((r) => ({ pointer: r.pointer, message: `${says(r)} here, which agrees with readOnlyHint but not with ${claim.field}` })),
          ...sideEffects.map((c) => ({ pointer: c.pointer, message: `${listed(c)} as well` })),
        ],
      });
    }
    if (writes.length > 0) return;

    for (const claim of sideEffects) {
      ctx.report({
        pointer: claim.pointer,
        severity: 'warning',
        message: `readOnlyHint is true (${ro.pointer}) but ${listed(claim)} (${claim.pointer}): a read-only tool should have no side effects`,
        suggestion: 'set readOnlyHint to false if a call changes anything outside the tool; if these side effects leave the environment as it was (logging, metrics), leave them out of sideEffects',
        related: [{ pointer: ro.pointer, message: 'readOnlyHint is true here' }],
      });
    }
  },
});
