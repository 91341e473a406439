import { defineRule } from '../src/rule.js';
import { readOnly, says, sideOf } from '../src/engine/queries.js';
import { RISK_LEVELS, type Claim, type ClaimSet, type RiskLevel } from '../src/engine/claims.js';
import { append } from '../src/util/array.js';

/** A signal that sets a minimum riskLevel: the claim(s) that say it, and why. */
interface Floor {
  level: RiskLevel;
  /** One claim, or an irreversible signal and a blast radius that together set the floor. */
  sides: { claim: Claim; member?: string }[];
  /** What the signal means, as the message words it: "a tool that may destroy". */
  reason: string;
}

const rank = (level: RiskLevel): number => RISK_LEVELS.indexOf(level);

/** Blast radii that reach past one team's resources. */
const WIDE = ['organization', 'global'] as const;

/**
 * Whether the tool says it only reads, so a wide blast radius describes what it reads,
 * not what it changes: some field says read (readOnlyHint true, category / mcp.dev/effect
 * read or observe) and none says it changes something (another category or effect,
 * consequential or irreversible outcomes, reversibility manual or none, side effects).
 */
function readsOnly(claims: ClaimSet): boolean {
  const actions = claims.all('action');
  const reads = readOnly(claims)?.value === true || actions.some((c) => c.value === 'read' || c.value === 'observe');
  if (!reads) return false;
  const changes =
    actions.some((c) => c.value === 'write' || c.value === 'delete' || c.value === 'destroy' || c.value === 'external') ||
    claims.all('outcomes').some((c) => c.value.includes('consequential') || c.value.includes('irreversible')) ||
    claims.all('reversibility').some((c) => c.value === 'manual' || c.value === 'none') ||
    claims.all('sideEffects').some((c) => c.value.length > 0);
  return !changes;
}

/** Every floor the tool's other fields imply, in table order. */
export function floors(claims: ClaimSet): Floor[] {
  const out: Floor[] = [];
  const irreversible: Floor[] = [];
  const actions = claims.all('action');
  let destroys: Claim | undefined;
  for (const c of actions) {
    if (c.value !== 'destroy') continue;
    destroys ??= c;
    out.push({ level: 'high', sides: [{ claim: c }], reason: 'a tool that may destroy data or resources' });
  }
  for (const c of actions) if (c.value === 'delete') irreversible.push({ level: 'medium', sides: [{ claim: c }], reason: 'a tool that may delete' });
  for (const c of claims.all('reversibility')) {
    if (c.value === 'none') irreversible.push({ level: 'medium', sides: [{ claim: c }], reason: 'an effect that cannot be undone' });
  }
  for (const c of claims.all('outcomes')) {
    if (c.value.includes('irreversible')) irreversible.push({ level: 'medium', sides: [{ claim: c, member: 'irreversible' }], reason: 'an effect that cannot be undone' });
  }
  const wide = readsOnly(claims) ? [] : claims.all('blastRadius').filter((c) => (WIDE as readonly string[]).includes(c.value));
  const reach = (c: Claim) => (c.value === 'global' ? 'may reach beyond one organization' : 'may reach a whole organization');
  const first = destroys ? { claim: destroys } : irreversible[0]?.sides[0];
  if (first && wide[0]) {
    const what = first.claim.fact === 'action' ? (first.claim.value === 'destroy' ? 'a destructive change' : 'a deletion') : 'an irreversible change';
    out.push({ level: 'high', sides: [first, { claim: wide[0] }], reason: `${what} that ${reach(wide[0])}` });
  }
  append(out, irreversible);
  for (const c of wide) out.push({ level: 'medium', sides: [{ claim: c }], reason: `a change that ${reach(c)}` });
  return out;
}

function sidesText(f: Floor): string {
  return f.sides.map((s) => sideOf(s.claim, s.member)).join(' and ');
}

export default defineRule({
  id: 'risk-level-floor',
  severity: 'warning',
  category: 'consistency',
  packs: ['core', 'risk-metadata', 'sep-1913', 'action-metadata', 'meta-hints'],
  summary: 'SEP-2793 riskLevel should not be lower than what the tool\'s other fields imply.',
  precision: 'high',
  security: 6.0,
  why: `SEP-2793's \`riskLevel\` is the one graded field a client can gate on without reading
anything else: allowlists and approval policies are written as "auto-approve low",
"ask for medium and up". When a tool says \`riskLevel: "low"\` while its own
\`category\` is \`destroy\`, or its \`reversibility\` is \`none\`, the client that trusts
the summary runs a destructive, irreversible call without asking — and the client that
reads every field cannot tell which one the server meant.

The rule derives a minimum level from the fields that describe *what* the tool does and
*how far* it reaches, in any vocabulary, and warns when \`riskLevel\` is below it. The
message names the field that sets the minimum and the level it implies.`,
  notes: `The minimum levels (each row is one signal; the highest applicable row sets the floor):

| Signal | Field (vocabulary) | Implies at least |
| --- | --- | --- |
| category \`destroy\` | \`annotations.category\` (SEP-2793) | \`high\` |
| category \`destroy\`, or a delete or irreversible signal from the rows below, **together with** blast radius \`organization\` or \`global\` | that field and \`annotations.blastRadius\` (SEP-2793) | \`high\` |
| category \`delete\`, effect \`delete\` | \`annotations.category\` (SEP-2793), \`_meta["mcp.dev/effect"]\` | \`medium\` |
| reversibility \`none\` | \`annotations.reversibility\` (SEP-2793) | \`medium\` |
| outcomes include \`irreversible\` | \`annotations.inputMetadata.outcomes\` (SEP-1913), action-metadata \`outcome\` / \`inputMetadata.outcomes\` | \`medium\` |
| blast radius \`organization\` or \`global\` on a tool that may change something | \`annotations.blastRadius\` (SEP-2793) | \`medium\` |

- **Floors, not estimates.** The SEP's reference inferrer rates its own examples higher
  (\`kubectl_delete\` high, a \`destroy\` cleanup critical). This rule only asks for the level below which no reading
  holds, so a server that rates a soft delete (to a trash can) \`medium\` is left alone.
  No signal implies \`critical\`: that is the server's judgment of its worst case, and
  nothing in the other fields can prove it wrong.
- **Irreversible outcomes count like \`reversibility: "none"\`.** SEP-1913's
  \`irreversible\` ("cannot be undone through the same API", sending, publishing) is the
  same idea in another vocabulary; possible-set semantics apply, so
  \`["benign", "irreversible"]\` may be irreversible and sets the floor.
- **Blast radius only counts for tools that may change something.** A search across a
  whole organization reads widely but changes nothing, so \`blastRadius\` is ignored when
  a field says the tool reads (\`readOnlyHint: true\`, \`category\` or
  \`mcp.dev/effect\` \`read\` / \`observe\`) and none says it changes something
  (another category or effect, consequential or irreversible outcomes, \`reversibility\`
  manual or none, non-empty \`sideEffects\`). A tool that says neither may write
  (missing means unknown, never safe). An explicit \`readOnlyHint: false\` beside
  \`category: "read"\` does not count as a change: it is the hint's default, and the
  graded field is the more specific of the two.
- **\`destructiveHint\` does not set a floor.** It is binary and defaults to true; servers
  set it on every tool to pass client review (the SEP's own thread reports a gateway
  doing so for 3,000+ tools), and SEP-2793's graded fields exist to say more precisely
  how destructive a tool is. Counting it would demand \`medium\` of every tool with an
  explicit \`destructiveHint: true\`, even where the graded fields say precisely that the
  change is small and reversible.
  \`mutate\` / \`write\`, \`external\`, \`reversibility: "manual"\`, \`sideEffects\` and
  \`blastRadius\` item/namespace/cluster set no floor either.
- **No \`riskLevel\`, no finding.** An absent level is not a low one; this rule only
  checks a level the server states.
- One finding per \`riskLevel\`, at its value, naming the signal with the highest floor
  (in table order on a tie) and, after "also", every other signal above the stated level;
  all of them are related locations. The fix raises \`riskLevel\` to the floor: the
  safe direction, though the other field may be the wrong one.`,
  examples: {
    incorrect: [
      {
        title: 'A namespace teardown rated low',
        tools: [
          {
            name: 'delete_namespace',
            inputSchema: { type: 'object', properties: { namespace: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              riskLevel: 'low',
              category: 'destroy',
              reversibility: 'none',
              approvalRecommendation: 'single',
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/riskLevel' }],
      },
      {
        title: 'An irreversible change that reaches the whole organization, rated medium',
        tools: [
          {
            name: 'rotate_org_signing_key',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              riskLevel: 'medium',
              category: 'mutate',
              reversibility: 'none',
              blastRadius: 'organization',
              approvalRecommendation: 'multi',
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/riskLevel' }],
      },
      {
        title: 'The floor comes from another vocabulary: SEP-1913 irreversible outcomes',
        doc: false,
        tools: [
          {
            name: 'send_invoice',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              riskLevel: 'low',
              approvalRecommendation: 'single',
              inputMetadata: { destination: 'public', sensitivity: 'financial', outcomes: ['consequential', 'irreversible'] },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/riskLevel' }],
      },
      {
        title: 'mcp.dev/effect delete',
        doc: false,
        tools: [
          {
            name: 'remove_member',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, riskLevel: 'low', category: 'mutate' },
            _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/requiresConfirmation': true },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/riskLevel' }],
      },
      {
        title: 'A wide blast radius on a tool that does not say it only reads',
        doc: false,
        tools: [
          {
            name: 'set_default_branch_policy',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, riskLevel: 'low', blastRadius: 'global', reversibility: 'auto' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/riskLevel' }],
      },
      {
        title: 'readOnlyHint true does not exempt a blast radius when the category says the tool changes things',
        doc: false,
        tools: [
          {
            name: 'update_org_settings',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, riskLevel: 'low', category: 'mutate', blastRadius: 'organization' },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/riskLevel' }],
      },
    ],
    correct: [
      {
        title: 'A destroying tool rated high',
        tools: [
          {
            name: 'delete_namespace',
            inputSchema: { type: 'object', properties: { namespace: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              riskLevel: 'high',
              category: 'destroy',
              reversibility: 'none',
              blastRadius: 'namespace',
              approvalRecommendation: 'single',
            },
          },
        ],
      },
      {
        title: 'An organization-wide search rated low: it only reads',
        tools: [
          {
            name: 'search_org_repositories',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, riskLevel: 'low', category: 'read', blastRadius: 'organization' },
          },
        ],
      },
      {
        title: 'A soft delete rated medium',
        doc: false,
        tools: [
          {
            name: 'trash_file',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: true,
              riskLevel: 'medium',
              category: 'delete',
              reversibility: 'manual',
              blastRadius: 'item',
              approvalRecommendation: 'single',
            },
          },
        ],
      },
      {
        title: 'No riskLevel: nothing to compare',
        doc: false,
        tools: [
          {
            name: 'drop_table',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, category: 'destroy', reversibility: 'none', approvalRecommendation: 'single' },
          },
        ],
      },
      {
        title: 'destructiveHint true alone sets no floor',
        doc: false,
        tools: [
          {
            name: 'update_label',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, riskLevel: 'low', category: 'mutate', reversibility: 'auto', approvalRecommendation: 'single' },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const levels = ctx.claims.all('riskLevel');
    if (levels.length === 0) return;
    const all = floors(ctx.claims);
    for (const risk of levels) {
      const above = all.filter((f) => rank(f.level) > rank(risk.value));
      if (above.length === 0) continue;
      const top = above.reduce((a, b) => (rank(b.level) > rank(a.level) ? b : a));
      const sides = [...top.sides];
      // Every other single signal above the stated level, once each (a combination's
      // parts are single signals of their own).
      const also = above.filter((f) => f.sides.length === 1 && !sides.some((s) => s.claim === f.sides[0]!.claim));
      for (const f of also) sides.push(f.sides[0]!);
      const alsoText = also.length
        ? `; also above ${JSON.stringify(risk.value)}: ${also.map((f) => `${sidesText(f)}, at least ${JSON.stringify(f.level)}`).join('; ')}`
        : '';
      ctx.report({
        pointer: risk.pointer,
        // The floor it falls short of: "below high" accepted does not cover "below critical" later.
        detail: top.level,
        message: `${sideOf(risk)} but ${sidesText(top)}: ${top.reason} is at least ${JSON.stringify(top.level)} risk${alsoText}`,
        suggestion: `raise riskLevel to ${JSON.stringify(top.level)} (or higher), or correct ${top.sides.map((s) => s.claim.field).join(' and ')} if the tool cannot do that`,
        fix: { description: `Set riskLevel to ${JSON.stringify(top.level)}`, replacements: [{ pointer: risk.pointer, text: JSON.stringify(top.level) }] },
        related: sides.map((s) => ({ pointer: s.claim.pointer, message: `${says(s.claim, s.member)} here` })),
      });
    }
  },
});
