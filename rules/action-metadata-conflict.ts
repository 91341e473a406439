import { defineRule } from '../src/rule.js';
import { hasUnmapped, type SetFact } from '../src/engine/claims.js';
import { members, regulatedOf } from '../src/engine/possible-sets.js';
import { sideOf } from '../src/engine/queries.js';
import type { Claim } from '../src/engine/claims.js';
import { orList } from '../src/util/text.js';

/**
 * The regulatory scopes a sensitivity claim's regulated members name, as written (a policy
 * matches them as written), or undefined when a regulated member names none or a non-string:
 * then what it covers is open, and nothing is certain.
 */
function scopesOf(claim: Claim): string[] | undefined {
  const out = new Set<string>();
  for (const m of members(claim)) {
    const regulated = regulatedOf(m.value);
    if (!regulated) continue;
    const scopes = regulated.scopes;
    if (!Array.isArray(scopes) || scopes.length === 0 || scopes.some((x) => typeof x !== 'string')) return undefined;
    for (const x of scopes as string[]) out.add(x);
  }
  return [...out];
}

/** The facts both SEP-1913 (annotations) and the action-metadata extension (_meta) state. */
const SHARED: readonly SetFact[] = ['destinations', 'inputSensitivity', 'outcomes', 'sources', 'outputSensitivity'];

export default defineRule({
  id: 'action-metadata-conflict',
  severity: 'warning',
  category: 'consistency',
  packs: ['sep-1913', 'action-metadata'],
  summary: 'SEP-1913 annotations and the action-metadata extension must not describe the same tool differently.',
  precision: 'high',
  security: 5.0,
  why: `SEP-1913's action metadata (\`annotations.inputMetadata\` and
\`annotations.returnMetadata\`) moved into an experimental extension,
\`_meta["io.modelcontextprotocol/action-metadata"]\`, and servers in transition carry
both. Its issue puts it plainly: "When a tool carries both SEP-1913 fields in
annotations and this object in \`_meta\`, conflicts between them are findings."

Each field is a possible set: where inputs may go (\`destination\`), what they may carry
(\`sensitivity\`), what a call may cause (\`outcomes\`, or the extension's \`outcome\`), where
results come from (\`source\`) and what they may carry (\`sensitivity\`). When the two
copies list different sets, a client that reads the annotations and a client that reads
\`_meta\` make different decisions about the same call: one sees a \`public\` destination
and asks before sending \`pii\`, the other sees \`user\` and does not.`,
  notes: `**A warning, not an error.** Neither copy contradicts itself or the MCP spec: each is a
statement of what a call *may* do, and a narrower set in one copy may just be stale
rather than false. What is certain is the cost: clients that read only one vocabulary
get a different answer, and a policy that should fire does not. That is a gap a client
pays for, which is what warnings are for. Contradictions *within* one meaning (a
read-only tool with irreversible outcomes) are the other rules' errors, whichever copy
says it.

**Sets, not spellings.** \`"pii"\` and \`["pii"]\` are the same set, and order does not
matter. Where both copies say \`regulated\`, their scopes are compared too (as written:
policies match \`"HIPAA"\`, not \`"hipaa"\`), since the scopes are what a policy matches; a
regulated member that names no scopes leaves them open, and is not compared. Each of the extension's outcome fields (\`inputMetadata.outcomes\` and the
top-level \`outcome\`) is compared with SEP-1913's \`inputMetadata.outcomes\` on its own.

**Values nobody can map are not guessed at.** The extension's classifiers are open
strings (\`"external"\`, \`"sensitive"\`); the pack keeps those aside, and
[unknown-classifier](unknown-classifier.md) reports them. This rule compares only the
values both vocabularies know, and only where the answer is certain: when one side
also holds an unmapped value, the pair is reported only if that side's *known* values
include one the other side excludes (the unmapped value might be the other side's missing member,
as \`"external"\` may mean \`"public"\`). When both sides hold unmapped values, nothing is
certain and nothing is reported. SEP-1913 values outside its enums are treated the same
way ([schema-valid](schema-valid.md) reports them).

**Where.** At the extension's field (the issue makes these findings the extension's),
with the SEP-1913 field as the related location; the message names both fields, both
values and what only one side lists. No mechanical fix: either copy may be the current
one.

Disagreements between two fields of the extension itself (\`inputMetadata.outcomes\` vs
\`outcome\`) are out of scope here.`,
  examples: {
    incorrect: [
      {
        title: 'The _meta copy forgot that mail may leave the organisation',
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: ['internal', 'public'], sensitivity: ['pii', 'user'], outcomes: 'irreversible' },
            },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                inputMetadata: { destination: 'internal', sensitivity: ['user', 'pii'], outcomes: ['irreversible'] },
                requiresReview: true,
              },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination' }],
      },
      {
        title: 'Different outcomes and a different result source',
        tools: [
          {
            name: 'import_feed',
            inputSchema: { type: 'object' },
            annotations: {
              inputMetadata: { destination: 'user', sensitivity: 'none', outcomes: 'consequential' },
              returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' },
            },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                returnMetadata: { source: 'trustedPublic', sensitivity: 'none' },
                outcome: 'benign',
              },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/source' },
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/outcome' },
        ],
      },
      {
        title: 'An unmapped value does not excuse a known one the other side excludes',
        doc: false,
        tools: [
          {
            name: 'share_doc',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: 'user', sensitivity: 'user', outcomes: 'consequential' } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: ['internal', 'external'] } } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination' }],
      },
      {
        title: 'Both say regulated, under different laws',
        explanation:
          'A policy that escalates calls carrying HIPAA data fires for a client that reads the annotations and not for one that reads _meta.',
        tools: [
          {
            name: 'get_patient',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, returnMetadata: { source: 'internal', sensitivity: [{ regulated: { scopes: ['HIPAA'] } }] } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: 'internal', sensitivity: [{ regulated: { scopes: ['GDPR'] } }] } } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/sensitivity' }],
      },
      {
        title: 'A regulated class on one side only',
        doc: false,
        tools: [
          {
            name: 'get_patient',
            inputSchema: { type: 'object' },
            annotations: { returnMetadata: { source: 'internal', sensitivity: [{ regulated: { scopes: ['HIPAA'] } }, 'pii'] } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { sensitivity: 'pii' } } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/sensitivity' }],
      },
    ],
    correct: [
      {
        title: 'Both copies list the same sets',
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'public', sensitivity: ['pii', 'user'], outcomes: 'irreversible' },
            },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                inputMetadata: { destination: ['public'], sensitivity: ['user', 'pii'], outcomes: 'irreversible' },
                outcome: 'irreversible',
                requiresReview: true,
              },
            },
          },
        ],
      },
      {
        title: 'An open classifier the linter cannot map',
        explanation: '"external" may well mean "public": that is for unknown-classifier to raise, not a conflict.',
        tools: [
          {
            name: 'post_webhook',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' },
            },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'external' }, requiresReview: true } },
          },
        ],
      },
      {
        title: 'Only one vocabulary states the field',
        doc: false,
        tools: [
          {
            name: 'search_web',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: 'untrustedPublic' } } },
          },
        ],
      },
      {
        title: 'Unmapped values on both sides',
        doc: false,
        tools: [
          {
            name: 'share_doc',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: ['user', 'publc'], sensitivity: 'user', outcomes: 'consequential' } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: ['internal', 'external'] } } },
          },
        ],
      },
      {
        title: 'The same scopes in another order; a regulated member without scopes decides nothing',
        doc: false,
        tools: [
          {
            name: 'get_patient',
            inputSchema: { type: 'object' },
            annotations: { returnMetadata: { source: 'internal', sensitivity: [{ regulated: { scopes: ['HIPAA', 'GDPR'] } }] } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: 'internal', sensitivity: [{ regulated: { scopes: ['GDPR', 'HIPAA'] } }] } } },
          },
          {
            name: 'get_record',
            inputSchema: { type: 'object' },
            annotations: { returnMetadata: { source: 'internal', sensitivity: [{ regulated: { scopes: ['HIPAA'] } }] } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { returnMetadata: { source: 'internal', sensitivity: [{ regulated: {} }] } } },
          },
        ],
      },
      {
        title: 'A subset plus an unmapped value may be the same set',
        doc: false,
        tools: [
          {
            name: 'share_doc',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: ['user', 'public'], sensitivity: 'user', outcomes: 'consequential' } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: ['user', 'external'] } } },
          },
        ],
      },
    ],
  },
  check(ctx) {
    for (const fact of SHARED) {
      const sep = ctx.claims.from(fact, 'sep-1913');
      if (!sep) continue;
      const a = sep.value as string[];
      const aOpen = hasUnmapped(sep);
      for (const ext of ctx.claims.all(fact)) {
        if (ext.pack !== 'action-metadata') continue;
        const b = ext.value as string[];
        const bOpen = hasUnmapped(ext);
        if (aOpen && bOpen) continue;
        const onlyA = a.filter((v) => !b.includes(v));
        const onlyB = b.filter((v) => !a.includes(v));
        // An unmapped value on one side may stand for the members only the other side lists.
        const certain = aOpen ? onlyA.length > 0 : bOpen ? onlyB.length > 0 : onlyA.length + onlyB.length > 0;
        // Both say regulated: the scopes are what policies match ("HIPAA"), so they must agree too.
        const [scopesA, scopesB] = a.includes('regulated') && b.includes('regulated') ? [scopesOf(sep), scopesOf(ext)] : [];
        const scopesOnlyA = scopesA && scopesB ? scopesA.filter((x) => !scopesB.includes(x)) : [];
        const scopesOnlyB = scopesA && scopesB ? scopesB.filter((x) => !scopesA.includes(x)) : [];
        if (!certain && scopesOnlyA.length + scopesOnlyB.length === 0) continue;
        const scopeList = (xs: string[]) => `regulated ${xs.length === 1 ? 'scope' : 'scopes'} ${orList(xs, 'and')}`;
        const side = (classes: string[], scopes: string[]) => [
          ...(certain && classes.length ? [orList(classes, 'and')] : []),
          ...(scopes.length ? [scopeList(scopes)] : []),
        ];
        const diff = [
          ...(side(onlyB, scopesOnlyB).length ? [`only _meta lists ${side(onlyB, scopesOnlyB).join(' and ')}`] : []),
          ...(side(onlyA, scopesOnlyA).length ? [`only the annotations list ${side(onlyA, scopesOnlyA).join(' and ')}`] : []),
        ].join(', ');
        // What the two sets disagree on, sorted (the order they are written in is no part of it):
        // accepting one disagreement does not cover another at the same place later.
        const sorted = (xs: string[]) => [...xs].sort().join(', ');
        const detail = [`_meta: ${sorted([...onlyB, ...scopesOnlyB.map((x) => `scope ${x}`)])}`, `annotations: ${sorted([...onlyA, ...scopesOnlyA.map((x) => `scope ${x}`)])}`].join('; ');
        ctx.report({
          pointer: ext.pointer,
          detail,
          message: `${sideOf(ext)} but ${sideOf(sep)}: ${diff}; clients reading different vocabularies see different possible sets`,
          suggestion: 'decide which set is right and write it in both places, or keep only one of the two copies',
          related: [{ pointer: sep.pointer, message: `${sep.field} is here` }],
        });
      }
    }
  },
});
