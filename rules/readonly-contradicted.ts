import { defineRule } from '../src/rule.js';
import { readOnly, sideOf } from '../src/engine/queries.js';
import { listSides, onlyReads } from '../src/engine/read-evidence.js';
import { readName, writingVerb } from '../src/heuristics/name-verbs.js';
import { parameterAgainstReadOnly } from '../src/heuristics/parameters.js';
import { quote } from '../src/util/text.js';

export default defineRule({
  id: 'readonly-contradicted',
  severity: 'warning',
  category: 'consistency',
  packs: ['core', 'sep-1913', 'action-metadata', 'risk-metadata', 'meta-hints'],
  summary: 'A tool that every other vocabulary calls read-only should not say readOnlyHint false.',
  precision: 'high',
  why: `\`readOnlyHint: false\` makes a client treat the tool as one that writes: it asks the
user before each call, or keeps the tool out of automatic plans. When the tool's other
annotations all say it only reads, the core hint is probably a leftover or a
copy-paste from a sibling tool, and users pay for it with prompts they learn to click
through.

The other annotations count as "read" when every action claim is read or observe
(SEP-2793 \`category\`, \`mcp.dev/effect\`), or when the possible outcomes are only
\`benign\` and the possible destinations only \`ephemeral\` (SEP-1913
\`inputMetadata\`, action-metadata), and nothing else says the tool does more.`,
  notes: `Fires only when \`readOnlyHint\` is explicitly \`false\`; an absent hint is
[missing-readonly-hint](missing-readonly-hint.md)'s, which quotes the same evidence.

**Read signals** (at least one is needed):
- an action of \`read\` or \`observe\`;
- possible outcomes only \`benign\` *together with* possible destinations only
  \`ephemeral\`: benign outcomes alone still allow the tool to store its inputs, and
  "benign" also covers "changes limited to private drafts";
- a read-only claim of \`true\` from a vocabulary other than core.

**Contrary signals** (any one keeps the rule quiet):
- an action other than read or observe, \`utility\` included: a utility tool is not
  destructive, but "utility" does not say "reads only" either. The vocabularies are
  weighed together, so SEP-2793 \`category: "read"\` beside \`mcp.dev/effect: "write"\`
  is not "every other vocabulary says read";
- an outcome other than \`benign\`, a destination other than \`ephemeral\` (\`system\`
  included: the platform stores the inputs), in SEP-1913 \`inputMetadata\` or anywhere
  in the action-metadata extension (its \`outcome\` included);
- a non-empty SEP-2793 \`sideEffects\` (\`["audit_log"]\`): the author listed something
  the call changes, and [readonly-vs-category](readonly-vs-category.md) would question
  \`readOnlyHint: true\` beside it;
- \`destructiveHint: true\` (or any destructive claim of true): the author said the tool
  performs destructive updates;
- reversibility \`manual\` or \`none\`: there is something to undo;
- a read-only claim of \`false\` from a vocabulary other than core.

**Unknown values count against "read".** The action-metadata extension's classifiers
are open strings: a destination of \`"external"\` or an outcome of \`"reversible"\` maps
to no known value, and the pack keeps it aside instead of guessing
([unknown-classifier](unknown-classifier.md) notes it). A SEP-1913 value outside its
enum is [schema-valid](schema-valid.md)'s error and likewise maps to nothing. Either way
nobody knows what it means, so a set that holds one is never "only benign" or "only
ephemeral": the rule would otherwise remove a prompt on the strength of a value it
cannot read. A SEP-2793 or \`_meta\` hints field that fails its schema (an invalid
\`category\`, a \`sideEffects\` that is not an array, \`mcp.dev/effect: "update"\`)
cannot be read at all; while [schema-valid](schema-valid.md) reports one, this rule
stays quiet, since the unreadable field may say the tool does more. Any schema error in
those two vocabularies counts, an invalid \`riskLevel\` included: the rule does not
guess what a field would have said. The exception is a value that is wrong but
unmistakably the vocabulary's, which the pack reads all the same (see
[vocabulary-key-collision](vocabulary-key-collision.md)): a case variant
(\`category: "Read"\`) counts as the member it names, and a list of categories or effects
as its furthest-reaching member (\`["read", "delete"]\` is a delete, never a read).

Neutral: sources, sensitivity, trust-annotations (\`untrusted\`, \`sensitive\`), WebMCP
\`sensitiveHint\`, risk level, blast radius, approval and confirmation (reading
sensitive data can be high-risk and deserve a prompt), \`openWorldHint\`,
\`idempotentHint\` and \`mcp.dev/idempotent\`, and \`destructiveHint: false\` (it only
restates that the author considered the tool a writer, which \`readOnlyHint: false\`
already says).

**The fix, and when there is none.** The mechanical fix sets \`readOnlyHint\` to true. It is
left out, and the suggestion asks the author to choose with both sides quoted, when the
tool's name or an input parameter says it writes as [name-vs-hints](name-vs-hints.md) and
[risky-parameters](risky-parameters.md) read them (\`delete_rows\`; a \`dry_run\` or
\`force\` flag): \`readOnlyHint: true\` would make those rules fire instead, so following
one rule would make another fire ([missing-readonly-hint](missing-readonly-hint.md) is
guarded the same way in the other direction). The rule still fires: the annotations
disagree either way.

A warning, not an error: the core hint errs on the cautious side. The mechanical fix
replaces \`false\` with \`true\`; review it, since it removes a prompt.`,
  examples: {
    incorrect: [
      {
        title: 'A name or a parameter that writes: no mechanical fix, the author chooses',
        doc: false,
        tools: [
          { name: 'delete_rows', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, category: 'read' } },
          {
            name: 'rows',
            inputSchema: { type: 'object', properties: { dry_run: { type: 'boolean' } } },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, category: 'read' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }, { pointer: '/tools/1/annotations/readOnlyHint' }],
      },
      {
        title: 'A lookup whose SEP-1913 metadata says it changes nothing and keeps nothing',
        tools: [
          {
            name: 'get_invoice',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              openWorldHint: false,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
              returnMetadata: { source: 'internal', sensitivity: 'financial' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
      {
        title: 'A lookup whose SEP-2793 category says it reads',
        explanation:
          'The risk level and the approval recommendation are about what the call exposes, not whether it writes, so they do not count against "read". `approvalRecommendation` already asks for a confirmation; `readOnlyHint: false` is not the way to force one.',
        tools: [
          {
            name: 'get_payroll_record',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, openWorldHint: false, category: 'read', riskLevel: 'high', approvalRecommendation: 'single' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
      {
        title: 'The _meta effect hint says read',
        doc: false,
        tools: [
          {
            name: 'get_user',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, openWorldHint: false },
            _meta: { 'mcp.dev/effect': 'read', 'mcp.dev/idempotent': true },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
      {
        title: 'The action-metadata extension says benign and ephemeral',
        doc: false,
        tools: [
          {
            name: 'get_invoice',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                inputMetadata: { destination: 'ephemeral', sensitivity: 'none' },
                returnMetadata: { source: 'internal', sensitivity: 'financial' },
                outcome: 'benign',
              },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
      {
        title: 'category observe, with untrusted results and sensitive output (neutral)',
        doc: false,
        tools: [
          {
            name: 'watch_logs',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, category: 'observe', sensitiveHint: true },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { untrusted: true } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
    ],
    correct: [
      {
        title: 'Benign outcomes, but the inputs are stored',
        tools: [
          {
            name: 'save_draft',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'user', sensitivity: 'user', outcomes: 'benign' },
            },
          },
        ],
      },
      {
        title: 'A read-only tool that says so',
        tools: [
          {
            name: 'get_invoice',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              openWorldHint: false,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
            },
          },
        ],
      },
      {
        title: 'SEP-2793 says read, the _meta effect hint says write',
        explanation: 'The vocabularies disagree, so they do not all say read; the rule stays quiet rather than remove a prompt.',
        tools: [
          {
            name: 'sync_profile',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, category: 'read' },
            _meta: { 'mcp.dev/effect': 'write' },
          },
        ],
      },
      {
        title: 'A read that declares a side effect',
        explanation: '`sideEffects` lists something the call changes (here, an audit log), so `readOnlyHint: false` is a defensible choice.',
        tools: [
          {
            name: 'get_medical_record',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, category: 'read', sideEffects: ['audit_log'] },
          },
        ],
      },
      {
        title: 'An action-metadata destination nobody can map',
        explanation:
          '`"external"` is an open classifier value with no known meaning: it is not "ephemeral", so the outcome alone does not make the tool read-only ([unknown-classifier](unknown-classifier.md) notes the value).',
        tools: [
          {
            name: 'lookup_invoice',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
            _meta: {
              'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: ['ephemeral', 'external'] }, outcome: 'benign' },
            },
          },
        ],
      },
      {
        title: 'category utility does not say read',
        doc: false,
        tools: [{ name: 'format_date', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, category: 'utility' } }],
      },
      {
        title: 'An action-metadata outcome nobody can map',
        doc: false,
        tools: [
          {
            name: 'lookup_invoice',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'ephemeral' }, outcome: ['benign', 'reversible'] } },
          },
        ],
      },
      {
        title: 'A SEP-1913 outcome outside the enum is not read as benign',
        doc: false,
        tools: [
          {
            name: 'lookup_invoice',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: ['benign', 'reversible'] },
            },
          },
        ],
      },
      {
        title: 'SEP-1913 says benign and ephemeral, action-metadata says consequential',
        doc: false,
        tools: [
          {
            name: 'lookup_invoice',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
            },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'consequential' } },
          },
        ],
      },
      {
        title: 'An effect value nobody can read keeps the rule quiet',
        doc: false,
        tools: [
          {
            name: 'get_invoice',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, category: 'read' },
            _meta: { 'mcp.dev/effect': 'update', 'mcp.dev/requiresConfirmation': true },
          },
        ],
      },
      {
        title: 'A sideEffects that is not an array keeps the rule quiet',
        doc: false,
        tools: [{ name: 'get_invoice', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, category: 'read', sideEffects: 'audit_log' } }],
      },
      {
        title: 'reversibility manual is a contrary signal',
        doc: false,
        tools: [{ name: 'get_invoice', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, category: 'read', reversibility: 'manual' } }],
      },
      {
        title: 'destructiveHint true is a contrary signal',
        doc: false,
        tools: [
          {
            name: 'reset_cache',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
            },
          },
        ],
      },
      {
        title: 'Benign outcomes without any destination are not enough',
        doc: false,
        tools: [
          {
            name: 'get_invoice',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, inputMetadata: { sensitivity: 'none', outcomes: 'benign' } },
          },
        ],
      },
      {
        title: 'A possible-set with a non-benign outcome',
        doc: false,
        tools: [
          {
            name: 'sync_invoice',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: ['benign', 'consequential'] },
            },
          },
        ],
      },
      {
        title: 'No other vocabulary at all',
        doc: false,
        tools: [{ name: 'get_invoice', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } }],
      },
    ],
  },
  check(ctx) {
    const ro = readOnly(ctx.claims);
    if (ro?.value !== false) return;
    const read = onlyReads(ctx.claims, ctx.problems);
    if (!read) return;
    const related = read.map((c) => ({ pointer: c.pointer, message: `${c.field} says the tool only reads` }));
    // The name or a parameter says the tool writes (name-vs-hints' and risky-parameters'
    // reading): readOnlyHint true would make those rules fire, so the author chooses, with
    // both sides quoted, and there is no mechanical fix.
    const verb = ctx.tool.hasName ? writingVerb(readName(ctx.tool.name)) : undefined;
    const param = verb ? undefined : parameterAgainstReadOnly(ctx.tool, ctx.at('/inputSchema'));
    const against = verb
      ? { side: `its name ${quote(ctx.tool.name)} (${ctx.at('/name')}) has the verb ${JSON.stringify(verb.token)}`, pointer: ctx.at('/name'), message: `the name has the verb ${JSON.stringify(verb.token)} here` }
      : param
        ? {
            side: `its input parameter ${quote(param.parameter.path)} (${param.evidence.pointer}) suggests it can change something`,
            pointer: param.evidence.pointer,
            message: `the parameter ${quote(param.parameter.path)} is here`,
          }
        : undefined;
    ctx.report({
      pointer: ro.pointer,
      message: `${sideOf(ro)} but the tool's other annotations say it only reads, and none says it does more: ${listSides(read)}`,
      suggestion: against
        ? `set readOnlyHint to true only if the tool really only reads: ${against.side}; if it can change anything, keep readOnlyHint false and correct the other annotations`
        : 'set readOnlyHint to true so clients can call the tool without a write prompt, or correct the other annotations if the tool does write',
      ...(against ? {} : { fix: { description: 'Set readOnlyHint to true', replacements: [{ pointer: ro.pointer, text: 'true' }] } }),
      related: against ? [...related, { pointer: against.pointer, message: against.message }] : related,
    });
  },
});
