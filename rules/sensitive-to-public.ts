import { defineRule } from '../src/rule.js';
import { SENSITIVE_CLASSES, type Claim, type DataClass } from '../src/engine/claims.js';
import { describeClass, members, dataClassOf } from '../src/engine/possible-sets.js';
import { confirmationSignals, offConfirmationSignals, offConfirmationText, publicSinks, says, sideOf } from '../src/engine/queries.js';

/** Data classes a client must not let reach a public destination unasked. */
const SENSITIVE: readonly DataClass[] = SENSITIVE_CLASSES;

/** The sensitive members of a sensitivity claim, as written, for the message. */
function sensitiveMembers(claim: Claim): string {
  const shown = members(claim)
    .filter((m) => SENSITIVE.includes(dataClassOf(m.value) as DataClass))
    .map((m) => describeClass(m.value));
  const unique = [...new Set(shown)];
  return unique.length <= 1 ? unique.join('') : `${unique.slice(0, -1).join(', ')} and ${unique[unique.length - 1]}`;
}

export default defineRule({
  id: 'sensitive-to-public',
  severity: 'warning',
  category: 'consistency',
  packs: ['sep-1913', 'action-metadata', 'meta-hints', 'risk-metadata'],
  summary: 'A tool that may send personal, financial, credential or regulated data to a public destination should ask for confirmation.',
  precision: 'high',
  security: 7.5,
  why: `This is SEP-1913's own motivating case: *"Take the salary spreadsheet and email it to
my accountant."* The email tool declares that its inputs may go to a \`public\`
destination; its inputs may carry \`financial\` data. Whatever the model puts in the
arguments — including data a prompt injection asked it to exfiltrate — leaves the
organisation when the call runs.

The SEP's answer is a policy: block, escalate, or require user confirmation. A tool
that declares this combination and nothing that asks for confirmation
(\`_meta["mcp.dev/requiresConfirmation"]: true\`, action-metadata \`requiresReview: true\`,
SEP-2793 \`approvalRecommendation\` \`single\` or \`multi\`) leaves the decision to
whatever default each client happens to have, and autonomous clients run it unasked.

The sensitivity and the destination may come from different vocabularies (SEP-1913
\`annotations.inputMetadata\`, or the action-metadata extension); possible sets count when
they *include* a sensitive class and \`public\`.`,
  notes: `- **Which classes count.** \`pii\`, \`financial\`, \`credentials\` and any
  \`{regulated: …}\` class. \`user\` (the user's own content) and \`none\` do not: posting
  the user's own text publicly is what a publishing tool is for. Open-vocabulary values a
  pack cannot map (action-metadata \`"sensitive"\`) are not guessed at.
- **Not gated on a confirmation vocabulary.** Unlike
  [irreversible-needs-confirmation](irreversible-needs-confirmation.md), this rule also
  fires on a tool that speaks only SEP-1913, which has no way to ask for confirmation:
  the declaration itself describes an exfiltration path, and adding a confirmation hint
  from another vocabulary costs one \`_meta\` key. The SEP's own \`send_email\` example
  (\`public\`, \`["pii", "user"]\`) is reported for that reason.
- **What counts as a public destination** is what makes a tool a sink in
  [toxic-flow](toxic-flow.md) (both rules share the definition): an input destination
  that includes \`public\`, or \`_meta["mcp.dev/effect"]\` \`"external"\` — that
  vocabulary's only way to say the arguments leave the system — unless the same tool
  declares input destinations that leave \`public\` out (\`internal\`, say). An
  action-metadata destination written as an open string (\`"external"\`) is not guessed at.
- **One finding per tool**, at the (first) destination that includes \`public\` (or, with
  none, at the \`"external"\` effect), with the
  sensitivity field as related location. A confirmation hint that is explicitly off
  (\`requiresConfirmation: false\`, \`approvalRecommendation: "none"\`) is named in the
  message and listed as related.
- No mechanical fix: the tool may need a confirmation signal, or its declared
  destination or sensitivity may be too broad; only the author knows which.`,
  examples: {
    incorrect: [
      {
        title: 'Emailing a spreadsheet that may hold financial data, with no confirmation',
        tools: [
          {
            name: 'email_file',
            description: 'Email a file from the shared drive to any address.',
            inputSchema: { type: 'object', properties: { path: { type: 'string' }, to: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'public', sensitivity: ['user', 'financial'], outcomes: 'irreversible' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/destination' }],
      },
      {
        title: 'Regulated data to a possibly public destination',
        doc: false,
        tools: [
          {
            name: 'share_record',
            inputSchema: { type: 'object' },
            annotations: {
              inputMetadata: {
                destination: ['internal', 'public'],
                sensitivity: [{ regulated: { scopes: ['HIPAA'] } }],
                outcomes: 'irreversible',
              },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/destination' }],
      },
      {
        title: 'SEP-2793 approvalRecommendation "none" turns confirmation off',
        doc: false,
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: {
              approvalRecommendation: 'none',
              inputMetadata: { destination: 'public', sensitivity: ['pii', 'user'], outcomes: 'irreversible' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/destination' }],
      },
      {
        title: 'Sensitivity from action-metadata, destination from SEP-1913',
        doc: false,
        tools: [
          {
            name: 'post_message',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' } },
            _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: 'public', sensitivity: ['financial'], outcomes: 'irreversible' } } },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/destination' }],
      },
      {
        title: 'mcp.dev/effect "external" is a public destination: the arguments leave the system',
        tools: [
          {
            name: 'send',
            description: 'Send a message to any address.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
            _meta: {
              'mcp.dev/effect': 'external',
              'io.modelcontextprotocol/action-metadata': { inputMetadata: { sensitivity: 'pii' } },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1effect' }],
      },
    ],
    correct: [
      {
        title: 'The same tool, asking for confirmation',
        tools: [
          {
            name: 'email_file',
            description: 'Email a file from the shared drive to any address.',
            inputSchema: { type: 'object', properties: { path: { type: 'string' }, to: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'public', sensitivity: ['user', 'financial'], outcomes: 'irreversible' },
            },
            _meta: { 'mcp.dev/requiresConfirmation': true },
          },
        ],
      },
      {
        title: 'Confirmation from approvalRecommendation or requiresReview',
        doc: false,
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: {
              approvalRecommendation: 'single',
              inputMetadata: { destination: 'public', sensitivity: 'pii', outcomes: 'irreversible' },
            },
          },
          {
            name: 'share_secret',
            inputSchema: { type: 'object' },
            _meta: {
              'io.modelcontextprotocol/action-metadata': {
                inputMetadata: { destination: 'public', sensitivity: 'credentials', outcomes: 'irreversible' },
                requiresReview: true,
              },
            },
          },
        ],
      },
      {
        title: 'Financial data that stays with an internal audience',
        tools: [
          {
            name: 'email_file_internal',
            inputSchema: { type: 'object', properties: { path: { type: 'string' }, to: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'internal', sensitivity: ['user', 'financial'], outcomes: 'irreversible' },
            },
          },
        ],
      },
      {
        title: 'An external effect whose declared destination leaves public out',
        doc: false,
        tools: [
          {
            name: 'notify_oncall',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: 'internal', sensitivity: 'pii', outcomes: 'irreversible' } },
            _meta: { 'mcp.dev/effect': 'external' },
          },
        ],
      },
      {
        title: "Publishing the user's own content",
        tools: [
          {
            name: 'publish_post',
            inputSchema: { type: 'object', properties: { body: { type: 'string' } } },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' },
            },
          },
        ],
        explanation: '`user` content is not one of the sensitive classes: publishing it is what the tool is for.',
      },
    ],
  },
  check(ctx) {
    const sensitive = ctx.claims.including('inputSensitivity', ...SENSITIVE);
    const toPublic = publicSinks(ctx.claims);
    if (sensitive.length === 0 || toPublic.length === 0) return;
    if (confirmationSignals(ctx.claims).length > 0) return;

    const dest = toPublic[0]!.claim;
    const destSide = toPublic[0]!.members ? sideOf(dest, 'public') : `${sideOf(dest)}, which says the arguments leave the system,`;
    const narrow = toPublic[0]!.members
      ? 'or narrow destination or sensitivity if the tool cannot send such data publicly'
      : 'or declare the input destination (internal, user, system) or narrow sensitivity if the arguments cannot reach a public destination';
    const sens = sensitive[0]!;
    const off = ctx.claims.where('requiresConfirmation', false);
    const classes = sensitiveMembers(sens);
    // A request for confirmation in a vocabulary the run turned off is not counted, but named.
    const unchecked = off.length ? [] : offConfirmationSignals(ctx);
    const offText = off.length
      ? `, and ${off.map((c) => sideOf(c)).join(' and ')}`
      : unchecked.length
        ? ', and nothing in a vocabulary this run checks asks for confirmation'
        : ', and nothing asks for confirmation';
    ctx.report({
      pointer: dest.pointer,
      message:
        `${destSide} and ${sens.field} includes ${classes} (${sens.pointer})${offText}: ` +
        'a client may send such data to a public destination without asking the user' +
        (unchecked.length ? `; ${offConfirmationText(unchecked)}` : ''),
      suggestion:
        off.length > 0
          ? `turn confirmation on (${says(off[0]!)} today), ${narrow}`
          : `ask for confirmation (e.g. _meta["mcp.dev/requiresConfirmation"]: true or approvalRecommendation "single"), ${narrow}`,
      related: [
        { pointer: sens.pointer, message: `inputs may carry ${classes} data` },
        ...sensitive.slice(1).map((c) => ({ pointer: c.pointer, message: `${c.field} also includes ${sensitiveMembers(c)}` })),
        ...off.map((c) => ({ pointer: c.pointer, message: 'confirmation is turned off here' })),
      ],
    });
  },
});
