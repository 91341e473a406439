import { defineRule } from '../src/rule.js';
import { claimsOf, regulatedScopes } from '../src/engine/possible-sets.js';
import { closest, quote } from '../src/util/text.js';

/** The regimes SEP-1913 lists as examples of RegulatoryScope, spelled as it spells them. */
export const EXAMPLE_SCOPES = ['GDPR', 'CCPA', 'HIPAA', 'GLBA', 'PCI-DSS', 'FERPA', 'COPPA', 'SOX'] as const;

/** Real regimes and frameworks one edit away from an example: never "corrected". */
const OTHER_REGIMES = new Set(['COPA', 'SOC', 'SOC1', 'SOC2', 'SOC3', 'CPPA', 'CPRA']);

const norm = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');


/**
 * The example scope a string misspells: same letters up to case, spaces, "-" and "_"
 * ("hipaa", "PCI DSS"), or one typo or two swapped letters (closest(): "HIPPA", "GDRP").
 * Three-letter names (SOX) only match up to case and punctuation: one edit there is a
 * different name, not a typo.
 */
export function nearMiss(scope: string): string | undefined {
  const n = norm(scope);
  if (OTHER_REGIMES.has(n.toUpperCase())) return undefined;
  const exact = EXAMPLE_SCOPES.find((c) => norm(c) === n);
  if (exact) return exact;
  const typo = closest(scope, EXAMPLE_SCOPES);
  if (!typo || norm(typo).length <= 3) return undefined;
  return typo;
}

export default defineRule({
  id: 'regulated-scope',
  severity: 'note',
  category: 'consistency',
  packs: ['sep-1913', 'action-metadata'],
  summary: "A regulatory scope outside SEP-1913's examples may be a misspelling that policies will not match.",
  precision: 'medium',
  why: `SEP-1913 lets a sensitivity class name the regimes that apply to the data:
\`{"regulated": {"scopes": ["HIPAA"]}}\`. Scopes are open strings, and the SEP suggests
spellings for the common ones: GDPR, CCPA, HIPAA, GLBA, PCI-DSS, FERPA, COPPA, SOX.
Clients and policies match scopes as strings, so \`"hipaa"\`, \`"PCI DSS"\` or \`"GDRP"\`
are not HIPAA, PCI-DSS or GDPR to them: a rule that escalates calls carrying HIPAA data
lets the misspelled one through.

A scope that is simply a different regime (\`"LGPD"\`, \`"PIPEDA"\`) is legitimate; it is
reported as a note so that you know policies written against the SEP's examples will not
recognise it.`,
  notes: `- **Near misses get a fix.** A scope that equals an example up to case, spaces,
  \`-\` and \`_\` (\`"hipaa"\`, \`"PCI DSS"\`, \`"pci_dss"\`), that is one typo away
  (\`"HIPPA"\`), or that swaps two adjacent letters (\`"GDRP"\`) is reported with the
  SEP's spelling as a mechanical fix.
- **Not near misses.** Three-letter names only match up to case and punctuation (one
  edit on \`SOX\` is a third of the name: \`SOC\` is the audit framework, not a typo), and
  a few real regimes one edit from an example are never "corrected" (COPA, the Child
  Online Protection Act, is not COPPA; CPRA and the CPPA are not CCPA; SOC 1/2/3).
- **Other scopes** are reported as notes without a fix: scopes are open strings, and
  the scope may well be right.
- Scopes are read from every sensitivity set, input and output, of SEP-1913 and of the
  action-metadata extension. Scopes that are not strings are
  [schema-valid](schema-valid.md)'s.`,
  examples: {
    incorrect: [
      {
        title: 'Misspelled regimes',
        tools: [
          {
            name: 'read_patient_record',
            inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
            annotations: {
              readOnlyHint: true,
              returnMetadata: { source: 'internal', sensitivity: { regulated: { scopes: ['hipaa', 'GDRP'] } } },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/annotations/returnMetadata/sensitivity/regulated/scopes/0' },
          { pointer: '/tools/0/annotations/returnMetadata/sensitivity/regulated/scopes/1' },
        ],
      },
      {
        title: 'A regime the SEP does not list',
        tools: [
          {
            name: 'export_customers',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: true,
              returnMetadata: { source: 'internal', sensitivity: ['pii', { regulated: { scopes: ['GDPR', 'LGPD'] } }] },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/returnMetadata/sensitivity/1/regulated/scopes/1' }],
      },
      {
        title: 'Spacing, a typo and a look-alike of a three-letter name in an input set',
        doc: false,
        tools: [
          {
            name: 'charge_card',
            inputSchema: { type: 'object' },
            annotations: {
              inputMetadata: {
                destination: 'internal',
                sensitivity: [{ regulated: { scopes: ['PCI DSS', 'HIPPA', 'SOC', 'COPA'] } }],
                outcomes: 'irreversible',
              },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/annotations/inputMetadata/sensitivity/0/regulated/scopes/0' },
          { pointer: '/tools/0/annotations/inputMetadata/sensitivity/0/regulated/scopes/1' },
          { pointer: '/tools/0/annotations/inputMetadata/sensitivity/0/regulated/scopes/2' },
          { pointer: '/tools/0/annotations/inputMetadata/sensitivity/0/regulated/scopes/3' },
        ],
      },
      {
        title: 'Scopes in the action-metadata extension',
        doc: false,
        tools: [
          {
            name: 'read_chart',
            inputSchema: { type: 'object' },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                returnMetadata: { source: 'internal', sensitivity: [{ regulated: { scopes: ['Hipaa', 'PIPEDA'] } }] },
              },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/sensitivity/0/regulated/scopes/0' },
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/returnMetadata/sensitivity/0/regulated/scopes/1' },
        ],
      },
    ],
    correct: [
      {
        title: "Scopes spelled as in the SEP's examples",
        tools: [
          {
            name: 'charge_card',
            inputSchema: { type: 'object', properties: { amount: { type: 'number' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: {
                destination: 'internal',
                sensitivity: ['financial', { regulated: { scopes: ['PCI-DSS', 'GLBA'] } }],
                outcomes: 'irreversible',
              },
            },
          },
        ],
      },
    ],
  },
  check(ctx) {
    if (!ctx.claims.has('inputSensitivity') && !ctx.claims.has('outputSensitivity')) return;
    for (const claim of claimsOf(ctx.claims, 'inputSensitivity', 'outputSensitivity')) {
      for (const { scope, pointer } of regulatedScopes(claim)) {
        if (typeof scope !== 'string' || (EXAMPLE_SCOPES as readonly string[]).includes(scope)) continue;
        const canonical = nearMiss(scope);
        if (canonical) {
          ctx.report({
            pointer,
            message: `regulatory scope ${quote(scope)} in ${claim.field} looks like a misspelling of ${JSON.stringify(canonical)}, one of SEP-1913's example scopes; policies that match ${JSON.stringify(canonical)} will not match it`,
            suggestion: `write ${JSON.stringify(canonical)}`,
            fix: { description: `Replace with ${JSON.stringify(canonical)}`, replacements: [{ pointer, text: JSON.stringify(canonical) }] },
          });
        } else {
          ctx.report({
            pointer,
            message: `regulatory scope ${quote(scope)} in ${claim.field} is not one of SEP-1913's example scopes (${EXAMPLE_SCOPES.join(', ')}); scopes are open strings, so this is fine if it names the regime you mean, but policies written against the examples will not recognise it`,
            suggestion: `keep ${quote(scope)} if it names the regime you mean and the clients you target know it; otherwise use one of ${EXAMPLE_SCOPES.join(', ')}`,
          });
        }
      }
    }
  },
});
