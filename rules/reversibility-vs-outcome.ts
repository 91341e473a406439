import { defineRule } from '../src/rule.js';
import type { Claim } from '../src/engine/claims.js';
import { sideOf } from '../src/engine/queries.js';

/** "a (/p)", "a (/p) and b (/q)", "a (/p), b (/q) and c (/r)". */
function andSides(sides: string[]): string {
  return sides.length <= 1 ? sides.join('') : `${sides.slice(0, -1).join(', ')} and ${sides[sides.length - 1]}`;
}

export default defineRule({
  id: 'reversibility-vs-outcome',
  severity: 'error',
  category: 'consistency',
  packs: ['risk-metadata', 'sep-1913', 'action-metadata'],
  summary: 'SEP-2793 reversibility must agree with the possible outcomes the tool declares.',
  precision: 'high',
  security: 6.0,
  why: `Two vocabularies describe whether a call can be taken back. SEP-2793's
\`reversibility\` says how: \`auto\` (undone automatically), \`manual\` (undone by hand),
\`none\` (never). SEP-1913's possible \`outcomes\` (in \`annotations.inputMetadata\`, or the
action-metadata extension's \`inputMetadata.outcomes\` and \`outcome\`) say what a call
may cause: \`benign\` (no persistent change outside the tool's context), \`consequential\`
(a change that "can be programmatically reversed"), \`irreversible\` (effects that
"cannot be undone through the same API", such as sending, deleting, publishing).

- \`reversibility: "auto"\` while the outcomes include \`irreversible\`: one vocabulary
  says a mistaken call is undone automatically, the other that it cannot be undone at
  all. A client that gates on reversibility lets the call through without a prompt;
  if that side is wrong, an email goes out or data is gone.
- \`reversibility: "none"\` while the outcomes are only \`benign\`: one says the effect
  can never be undone, the other that there is no lasting effect to undo. Clients that
  gate on either will disagree about the same tool.`,
  notes: `**Possible sets.** In \`tools/list\` the outcomes are the set of what a call *may* do.
\`auto\` conflicts with a set that *includes* \`irreversible\`, since some call may then be
impossible to undo. \`none\` conflicts only when *every* outcomes field the tool has is
only \`benign\`: if any of them allows \`consequential\` or \`irreversible\`, or holds a value
the pack could not map, something may be left to undo (a disagreement between SEP-1913's
outcomes and the extension's is [action-metadata-conflict](action-metadata-conflict.md)'s).

**\`manual\` is never reported.** SEP-1913's \`irreversible\` means "cannot be undone
through the same API": restoring from a backup or asking support is exactly the manual
reversal SEP-2793 describes, so \`manual\` fits \`irreversible\`, \`consequential\` and even
\`benign\` (private drafts).

**\`none\` with only \`benign\` stays an error, with one narrow reading noted.** SEP-1913's
\`benign\` also covers "changes limited to private drafts that are not transmitted or
shared", so a tool that permanently discards a private draft could be called benign
*and* not reversible. We keep the catalogue's error because for any other tool "no
persistent change" and "a change that can never be undone" cannot both hold, and
because the two vocabularies then drive clients in opposite directions (SEP-2793
clients prompt, SEP-1913 clients auto-run). If your tool is that draft case, turn the
rule off for it in the configuration.

**Where.** One finding per \`reversibility\` field, at it, naming every outcomes field on
the other side (each also a related location). No mechanical fix: either vocabulary may
be the wrong one, and for \`auto\` the right replacement (\`manual\` or \`none\`) is a
judgment only the author can make.`,
  examples: {
    incorrect: [
      {
        title: 'An invoice sender that claims every call can be undone automatically',
        tools: [
          {
            name: 'send_invoice',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              reversibility: 'auto',
              approvalRecommendation: 'single',
              inputMetadata: { destination: 'public', sensitivity: 'financial', outcomes: ['consequential', 'irreversible'] },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/reversibility' }],
      },
      {
        title: 'A lookup that can "never be undone" but changes nothing',
        tools: [
          {
            name: 'lookup_customer',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, category: 'read', reversibility: 'none' },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                inputMetadata: { destination: 'ephemeral', sensitivity: 'none' },
                outcome: 'benign',
              },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/reversibility' }],
      },
      {
        title: 'Both outcome vocabularies say irreversible: one finding naming both',
        doc: false,
        tools: [
          {
            name: 'publish_post',
            inputSchema: { type: 'object' },
            annotations: {
              reversibility: 'auto',
              inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' },
            },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: ['irreversible'] } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/reversibility' }],
      },
    ],
    correct: [
      {
        title: 'A deletion that can only be undone from a backup',
        explanation: 'SEP-1913 calls an effect irreversible when the same API cannot undo it; a manual restore is what "manual" means.',
        tools: [
          {
            name: 'delete_record',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              category: 'delete',
              reversibility: 'manual',
              approvalRecommendation: 'single',
              inputMetadata: { destination: 'internal', sensitivity: 'user', outcomes: 'irreversible' },
            },
          },
        ],
      },
      {
        title: 'A message that cannot be unsent',
        tools: [
          {
            name: 'send_sms',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              reversibility: 'none',
              approvalRecommendation: 'single',
              inputMetadata: { destination: 'public', sensitivity: 'pii', outcomes: 'irreversible' },
            },
          },
        ],
      },
      {
        title: 'none, and one outcome field allows more than benign',
        doc: false,
        tools: [
          {
            name: 'purge_queue',
            inputSchema: { type: 'object' },
            annotations: { reversibility: 'none', inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'irreversible' } },
          },
        ],
      },
      {
        title: 'none, and an outcome the pack cannot map',
        doc: false,
        tools: [
          {
            name: 'purge_queue',
            inputSchema: { type: 'object' },
            annotations: { reversibility: 'none' },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: ['benign', 'data-loss'] } },
          },
        ],
      },
      {
        title: 'auto with consequential outcomes',
        doc: false,
        tools: [
          {
            name: 'rename_file',
            inputSchema: { type: 'object' },
            annotations: { reversibility: 'auto', inputMetadata: { destination: 'user', sensitivity: 'none', outcomes: ['benign', 'consequential'] } },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const outcomes = ctx.claims.all('outcomes');
    for (const r of ctx.claims.all('reversibility')) {
      let against: Claim<'outcomes'>[] = [];
      let message = '';
      let suggestion = '';
      if (r.value === 'auto') {
        against = ctx.claims.including('outcomes', 'irreversible');
        if (against.length === 0) continue;
        message = `${sideOf(r)} but ${andSides(against.map((c) => sideOf(c, 'irreversible')))}: "auto" says a call is undone automatically, "irreversible" that it cannot be undone through the tool's API at all`;
        suggestion =
          'if a call can only be undone by hand (a backup, a support request), set reversibility to "manual", and to "none" if not at all; if the tool’s own API undoes it, the outcome is "consequential", not "irreversible"';
      } else if (r.value === 'none') {
        against = ctx.claims.only('outcomes', 'benign');
        if (against.length === 0 || against.length !== outcomes.length) continue;
        message = `${sideOf(r)} but ${andSides(against.map((c) => sideOf(c)))}: "none" says a call's effect can never be undone, "benign" that a call leaves no persistent change to undo`;
        suggestion = 'if a call can have an effect that cannot be undone, add "irreversible" to the outcomes; if it changes nothing outside its own context, set reversibility to "auto"';
      } else continue;
      ctx.report({
        pointer: r.pointer,
        // The outcome in conflict with the reversibility at this place.
        detail: r.value === 'auto' ? 'irreversible' : 'benign',
        message,
        suggestion,
        related: against.map((c) => ({ pointer: c.pointer, message: `${c.field} is here` })),
      });
    }
  },
});
