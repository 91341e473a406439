import { defineRule } from '../src/rule.js';
import { destructive, readOnly, says, sideOf } from '../src/engine/queries.js';

export default defineRule({
  id: 'destructive-vs-outcome',
  severity: 'warning',
  category: 'consistency',
  packs: ['core', 'sep-1913', 'action-metadata'],
  summary: 'A destructive tool should not declare only benign outcomes.',
  precision: 'high',
  security: 5.0,
  why: `\`destructiveHint: true\` says the tool may delete or overwrite things in its
environment. An outcome set of only \`benign\` says it causes "no persistent state
change outside the tool's execution context, or changes limited to private drafts".
Both cannot describe the same tool well. Clients that gate on outcomes (SEP-1913
policies such as "escalate irreversible outcomes") will let the call through on the
strength of "benign"; clients that gate on the core hint will prompt. Whichever is
wrong, users get inconsistent treatment of the same tool, and if it is the outcome,
a destructive call is waved through.`,
  notes: `Only an explicit \`destructiveHint: true\` counts: the implicit default is
[implicit-destructive](implicit-destructive.md)'s business, and a default does not state
an opinion to contradict. When \`readOnlyHint\` is true, \`destructiveHint\` is ignored by
clients (and [readonly-destructive](readonly-destructive.md) reports the clash), so this
rule stays quiet.

A warning, not an error: "benign" includes changes to private drafts, and overwriting a
draft is destructive in the core sense, so a reading reconciles the two. One finding
per outcomes claim (each vocabulary that says so), at the outcomes, with
\`destructiveHint\` as the related location, matching
[readonly-vs-outcome](readonly-vs-outcome.md). The outcomes may come from SEP-1913
\`annotations.inputMetadata.outcomes\` or from the action-metadata extension (its
\`inputMetadata.outcomes\` or its top-level \`outcome\`); each is judged on its own, so
an extension \`outcome: "benign"\` fires even when SEP-1913 lists more (the two copies
disagreeing is [action-metadata-conflict](action-metadata-conflict.md)'s).

**Unknown outcomes are not guessed at.** The extension's classifiers are open strings:
in \`["benign", "reversible"]\`, \`"reversible"\` maps to no known outcome, so the set is
not "only benign" and the rule stays quiet ([unknown-classifier](unknown-classifier.md)
notes the value). A SEP-1913 value outside its enum is treated the same way (and is
[schema-valid](schema-valid.md)'s error).

Only \`destructiveHint\` is weighed: a SEP-2793 \`category\` of delete or destroy (or
\`mcp.dev/effect: "delete"\`) beside benign outcomes is not this rule's, because the
catalogue scopes it to the core hint. Such a tool, with \`destructiveHint\` absent, is
told by [implicit-destructive](implicit-destructive.md) to set it to true, and then this
rule fires.

When a SEP-2793 \`category\` or \`mcp.dev/effect\` of \`delete\` or \`destroy\` agrees with
the hint, the suggestion is only to correct the outcomes: setting \`destructiveHint\` to false
would trade this warning for [destructive-vs-category](destructive-vs-category.md)'s error.`,
  examples: {
    incorrect: [
      {
        title: 'A delete tool whose outcomes claim to be benign',
        tools: [
          {
            name: 'delete_file',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              openWorldHint: false,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes' }],
      },
      {
        title: 'A delete category agrees with the hint: the outcomes are what is wrong',
        doc: false,
        tools: [
          {
            name: 'trash_item',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              openWorldHint: false,
              category: 'delete',
              approvalRecommendation: 'single',
              riskLevel: 'medium',
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes' }],
      },
      {
        title: 'A cache purge whose action-metadata outcome claims to be benign',
        explanation: 'The outcome comes from the action-metadata extension, at its own pointer; clients that gate on it would let the purge through unprompted.',
        tools: [
          {
            name: 'purge_cdn_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: true },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'ephemeral' }, outcome: 'benign' } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/outcome' }],
      },
      {
        title: 'readOnlyHint absent: destructiveHint counts',
        doc: false,
        tools: [
          {
            name: 'delete_file',
            inputSchema: { type: 'object' },
            annotations: { destructiveHint: true, inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: ['benign'] } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/outcomes' }],
      },
    ],
    correct: [
      {
        title: 'A delete tool with an irreversible outcome',
        tools: [
          {
            name: 'delete_file',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              openWorldHint: false,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'irreversible' },
            },
          },
        ],
      },
      {
        title: 'The default destructiveHint is not an explicit claim',
        doc: false,
        tools: [
          {
            name: 'format_text',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' } },
          },
        ],
      },
      {
        title: 'An action-metadata outcome set with a value nobody can map',
        doc: false,
        tools: [
          {
            name: 'purge_cdn_cache',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: ['benign', 'reversible'] } },
          },
        ],
      },
      {
        title: 'A SEP-1913 outcome outside the enum is not read as benign',
        doc: false,
        tools: [
          {
            name: 'purge_cdn_cache',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: ['benign', 'reversible'] },
            },
          },
        ],
      },
      {
        title: 'A possible set that includes more than benign',
        doc: false,
        tools: [
          {
            name: 'edit_file',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              inputMetadata: { destination: 'user', sensitivity: 'none', outcomes: ['benign', 'consequential'] },
            },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const d = destructive(ctx.claims);
    if (d?.value !== true || readOnly(ctx.claims)?.value === true) return;
    // A delete or destroy category or effect says the same as the hint: then it is the
    // outcomes that are wrong (setting destructiveHint to false would only trade this warning
    // for destructive-vs-category's error).
    const deletes = ctx.claims.where('action', 'delete', 'destroy');
    for (const claim of ctx.claims.only('outcomes', 'benign')) {
      ctx.report({
        pointer: claim.pointer,
        message: `${sideOf(d)} but ${sideOf(claim)}: a destructive update to the tool's environment is at least "consequential"`,
        suggestion: deletes.length
          ? `add "consequential" (or "irreversible" if it cannot be undone) to the outcomes: ${sideOf(deletes[0]!)} agrees with destructiveHint that the tool deletes`
          : 'if the tool can delete or overwrite data, add "consequential" (or "irreversible" if it cannot be undone) to the outcomes; if it cannot, set destructiveHint to false',
        related: [{ pointer: d.pointer, message: 'destructiveHint is true here' }, ...deletes.map((c) => ({ pointer: c.pointer, message: `${says(c)} here` }))],
      });
    }
  },
});
