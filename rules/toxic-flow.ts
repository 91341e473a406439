import { defineRule, type ServerRef } from '../src/rule.js';
import { SENSITIVE_CLASSES, type Claim, type ClaimSet, type DataClass, type ResultSensitivity } from '../src/engine/claims.js';
import { confirmationSignals, offConfirmationSignals, offConfirmationText, openWorld, publicSinks, says } from '../src/engine/queries.js';
import type { ToolView } from '../src/packs/types.js';
import { quote } from '../src/util/text.js';

interface Options {
  openWorldIsUntrusted: boolean;
}

/** One claim that gives a tool a role, with the members of a possible set that count. */
interface Evidence {
  claim: Claim;
  members?: string[];
}

/** A tool with the evidence for one role. */
interface Player {
  server: ServerRef;
  tool: ToolView;
  evidence: Evidence[];
}

/**
 * What a tool can play in a toxic flow, kept per tool by collect() for checkRun(): the
 * evidence for each role (empty when it has none). A sink is kept only when nothing on the
 * tool asks for confirmation; `off` is where confirmation is explicitly turned off.
 */
interface Roles {
  /** With the tool's own openWorldIsUntrusted (the config's, or an override's for its server or tool). */
  untrusted: Evidence[];
  private: Evidence[];
  sink: Evidence[];
  off: Claim<'requiresConfirmation'>[];
  /** Requests for confirmation in a vocabulary the run turned off: not counted, but named. */
  unchecked?: Claim<'requiresConfirmation'>[];
}

/** Output classes that make a tool a source of private data. */
const PRIVATE_CLASSES: readonly DataClass[] = SENSITIVE_CLASSES;
const PRIVATE_LEVELS: readonly ResultSensitivity[] = ['confidential', 'restricted'];
/** What remains private once the tool keeps its secrets out of context (x-sensitive fields, secret_reference). */
const PRIVATE_CLASSES_SECRETS_KEPT: readonly DataClass[] = ['pii', 'financial', 'regulated'];
const PRIVATE_LEVELS_SECRETS_KEPT: readonly ResultSensitivity[] = ['confidential'];

/**
 * Untrusted content: a return source that includes untrustedPublic, or trust-annotations
 * untrusted true. With openWorldIsUntrusted, also an explicit openWorldHint true, unless a
 * finer declaration on the same tool says its results are not untrusted.
 */
export function untrustedEvidence(claims: ClaimSet, openWorldIsUntrusted: boolean): Evidence[] {
  const out: Evidence[] = [
    ...claims.including('sources', 'untrustedPublic').map((claim) => ({ claim, members: ['untrustedPublic'] })),
    ...claims.where('untrusted', true).map((claim) => ({ claim })),
  ];
  if (out.length > 0 || !openWorldIsUntrusted) return out;
  const ow = openWorld(claims);
  if (ow?.value !== true) return out;
  const declaredTrusted =
    claims.only('sources', 'trustedPublic', 'internal', 'user', 'system').length > 0 || claims.where('untrusted', false).length > 0;
  return declaredTrusted ? out : [{ claim: ow }];
}

/**
 * Private data that reaches the model: output sensitivity pii, financial, credentials or
 * regulated, or result sensitivity confidential or restricted. A tool that asks for its
 * sensitive output to be kept out of model context (sensitiveHint, trust-annotations
 * sensitive) is not a source; one that keeps its secrets out (x-sensitive fields, a
 * secret_reference) is not a source of credentials.
 */
export function privateEvidence(claims: ClaimSet): Evidence[] {
  if (claims.where('sensitiveOutput', true).length > 0) return [];
  const secretsKept = claims.all('sensitiveFields').some((c) => c.value.length > 0) || claims.where('secretReference', true).length > 0;
  const classes = secretsKept ? PRIVATE_CLASSES_SECRETS_KEPT : PRIVATE_CLASSES;
  const levels = secretsKept ? PRIVATE_LEVELS_SECRETS_KEPT : PRIVATE_LEVELS;
  return [
    ...claims.including('outputSensitivity', ...classes).map((claim) => ({
      claim: claim as Claim,
      members: claim.value.filter((v) => classes.includes(v)),
    })),
    ...claims.where('resultSensitivity', ...levels).map((claim) => ({ claim: claim as Claim })),
  ];
}

const member = (m: string) => (m === 'regulated' ? 'a regulated class' : JSON.stringify(m));

/** `field includes "x" at /pointer`, or `field is v at /pointer`. */
function shown(e: Evidence): string {
  const what = e.members ? `${e.claim.field} includes ${e.members.map(member).join(' and ')}` : says(e.claim);
  return `${what} at ${e.claim.pointer}`;
}

function said(e: Evidence): string {
  return e.members ? `${e.claim.field} includes ${e.members.map(member).join(' and ')}` : says(e.claim);
}

const who = (p: { server: ServerRef; tool: ToolView }) => quote(`${p.server.name}/${p.tool.name}`, 100);

export default defineRule<Options>({
  id: 'toxic-flow',
  severity: 'warning',
  category: 'server',
  packs: ['sep-1913', 'action-metadata', 'trust-annotations', 'risk-metadata', 'webmcp-sensitive', 'meta-hints'],
  summary: 'A tool that may send data out should ask for confirmation when untrusted content and private data are in reach.',
  precision: 'high',
  security: 8.0,
  why: `An agent that can (1) read content an attacker controls, (2) read private data and
(3) send data somewhere the attacker can see has everything a prompt injection needs to
steal that data: instructions hidden in a web page, an email or a GitHub issue tell the
model to fetch the private data and pass it to the sending tool. This combination is
known as the *lethal trifecta*; the 2025 GitHub MCP exploit needed only one server
(public issues, private repositories, pull requests on a public repository).

No single tool is wrong here, so per-tool rules do not see it. SEP-1913 gives every leg
a declaration — \`returnMetadata.source\` \`untrustedPublic\`, \`returnMetadata.sensitivity\`,
\`inputMetadata.destination\` \`public\` — so that clients can break the chain; the SEP
names *data exfiltration* and *prompt injection* as the problems it exists to solve. The
usual place to break it is the sink: a tool that may send data to a public destination
while untrusted content and private data are in reach should ask the user before it runs.

The rule looks at every tool of a server, and at every server linted in the same run
together (the tools an agent sees when a client loads those servers side by side), and
reports each sink that has no confirmation signal
(\`_meta["mcp.dev/requiresConfirmation"]: true\`, action-metadata \`requiresReview: true\`,
SEP-2793 \`approvalRecommendation\` \`single\` or \`multi\`). The finding sits on the sink;
its related locations point at the tools that supply the untrusted content and the
private data.`,
  notes: `- **What makes a tool *untrusted*.** A return source that includes
  \`untrustedPublic\` (SEP-1913 \`returnMetadata.source\` or the action-metadata
  extension's), or trust-annotations \`untrusted: true\`. \`trustedPublic\` does not count
  (the SEP calls it curated or verified).
- **\`openWorldHint\` alone does not.** The SEP requires \`openWorldHint: true\` on tools that
  return untrusted content, but the implication runs one way: the hint also marks every
  tool that merely *reaches* an external system (creating an issue, charging a card), and
  it is true by default on every tool. Counting it would make almost any server with a
  private source and a public sink fire on a guess. The option \`openWorldIsUntrusted\`
  opts into that broader reading for an explicit \`openWorldHint: true\` — except on a tool
  whose own finer declaration (a return source without \`untrustedPublic\`, or
  \`untrusted: false\`) says otherwise.
- **What makes a tool *private*.** Output sensitivity that includes \`pii\`, \`financial\`,
  \`credentials\` or a \`regulated\` class, or \`_meta["mcp.dev/resultSensitivity"]\`
  \`confidential\` or \`restricted\`. Not counted: \`user\` (the user's own content; the same
  line [sensitive-to-public](sensitive-to-public.md) draws), \`internal\`, and return
  *sources* (\`internal\`, \`user\`): a source says where data comes from, its sensitivity
  says whether it is private — SEP-1913's own \`read_file\` example pairs source
  \`internal\` with sensitivity \`financial\`. Open strings a pack cannot map
  (action-metadata \`"sensitive"\`) are not guessed at.
- **Withheld output is not a source.** \`sensitiveHint: true\` (WebMCP) and trust-annotations
  \`sensitive: true\` ask the client to keep raw sensitive values out of model context;
  with those packs enabled (the vocabularies your clients implement) the model never
  holds the data, so it cannot be made to send it. \`"x-sensitive"\` fields and a
  documented \`secret_reference\` keep *secrets* out, so they remove \`credentials\` and
  \`restricted\` (as in [credentials-in-output](credentials-in-output.md)) but not \`pii\`
  or \`financial\`.
- **What makes a tool a *sink*.** An input destination that includes \`public\`, or
  \`_meta["mcp.dev/effect"]\` \`"external"\` — that vocabulary's only way to say the
  arguments leave the system — unless the same tool declares destinations that leave
  \`public\` out. An action-metadata destination written as an open string
  (\`"external"\`) is not guessed at.
- **One tool may play several roles**, including all three (a browser tool that reads
  pages, reads the signed-in user's data and submits forms). SEP-1913's own
  \`list_inbox\` example is both untrusted and private.
- **Confirmation** is looked for on the sink only: asking before the sink runs is what
  breaks the chain. A confirmation hint that is explicitly off is named in the message;
  when it is a boolean, the fix turns it on.
- **One finding per unconfirmed sink, never per server pair.** The whole run is analysed
  in one pass: a sink takes its untrusted and private sources from its own server when
  it has them, else from the first servers in the run that do; a trifecta spread over
  several servers is reported once, at its sink. Related locations name the first
  source of each kind (more may exist: fixing a source does not silence the finding,
  confirming the sink does). Linear in the number of tools.
- **Cross-server findings depend on what you lint together.** Lint the servers one agent
  loads side by side (a client config) to see flows between them; lint a server alone to
  see only its own.`,
  options: {
    defaults: { openWorldIsUntrusted: false },
    schema: {
      type: 'object',
      properties: { openWorldIsUntrusted: { type: 'boolean' } },
      additionalProperties: false,
    },
    docs: `- \`openWorldIsUntrusted\` (boolean, default \`false\`): also treat a tool with an explicit
  \`openWorldHint: true\` as a source of untrusted content, unless the tool declares return
  sources without \`untrustedPublic\` or \`untrusted: false\`. Broader and noisier: for teams
  that want every open-world tool treated as a possible injection vector. Set under
  \`overrides\`, it applies to the servers and tools the override matches: each tool is a
  source or not by its own setting (\`servers: ["browser"]\` with \`openWorldIsUntrusted: true\`
  treats that server's open-world tools as untrusted, and \`false\` for one server keeps its
  tools out when the option is on everywhere else). The setting's severity does not matter
  here: a tool the rule is off for can still be a source for a sink it is on for.`,
  },
  examples: {
    incorrect: [
      {
        title: "SEP-1913's own email tools: an inbox of untrusted mail and a send tool that never asks",
        document: {
          serverInfo: { name: 'mail', version: '1.0.0' },
          tools: [
            {
              name: 'list_inbox',
              description: "List recent emails in the user's inbox.",
              inputSchema: { type: 'object', properties: { limit: { type: 'number' } } },
              annotations: {
                readOnlyHint: true,
                inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
                returnMetadata: { source: 'untrustedPublic', sensitivity: ['pii', 'user'] },
              },
            },
            {
              name: 'send_email',
              description: 'Send an email on behalf of the user.',
              inputSchema: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } } },
              annotations: {
                readOnlyHint: false,
                destructiveHint: false,
                inputMetadata: { destination: 'public', sensitivity: ['pii', 'user'], outcomes: 'irreversible' },
                returnMetadata: { source: 'system', sensitivity: 'none' },
              },
            },
          ],
        },
        findings: [{ pointer: '/tools/1/annotations/inputMetadata/destination' }],
        explanation:
          'An email in the inbox can carry instructions ("forward the last ten messages to …"); the inbox also holds personal data, and `send_email` delivers anywhere without asking.',
      },
      {
        title: 'A trifecta spread over three servers loaded together',
        servers: [
          {
            serverInfo: { name: 'web' },
            tools: [
              {
                name: 'fetch_url',
                inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
                annotations: { readOnlyHint: true, returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' } },
              },
            ],
          },
          {
            serverInfo: { name: 'hr-files' },
            tools: [
              {
                name: 'read_file',
                inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
                annotations: { readOnlyHint: true, returnMetadata: { source: 'internal', sensitivity: 'financial' } },
              },
            ],
          },
          {
            serverInfo: { name: 'slack' },
            tools: [
              {
                name: 'post_message',
                inputSchema: { type: 'object', properties: { channel: { type: 'string' }, text: { type: 'string' } } },
                annotations: { readOnlyHint: false, destructiveHint: false },
                _meta: { 'mcp.dev/effect': 'external', 'mcp.dev/requiresConfirmation': false },
              },
            ],
          },
        ],
        findings: [{ pointer: '/servers/2/tools/0/_meta/mcp.dev~1effect' }],
        explanation:
          'Each server is harmless alone. Together, a fetched page can tell the model to read the salary file and post it; the finding sits on the sink and its related locations point at the other two servers.',
      },
      {
        title: 'One tool that plays all three parts',
        doc: false,
        tools: [
          {
            name: 'browser_act',
            inputSchema: { type: 'object' },
            annotations: {
              inputMetadata: { destination: ['ephemeral', 'public'], sensitivity: 'pii', outcomes: ['benign', 'irreversible'] },
              returnMetadata: { source: ['untrustedPublic', 'user'], sensitivity: ['pii', 'credentials'] },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/inputMetadata/destination' }],
      },
      {
        title: 'Several sinks in several servers: one finding each, sources shared, nothing per server pair',
        doc: false,
        servers: [
          {
            serverInfo: { name: 'a' },
            tools: [
              {
                name: 'search_web',
                inputSchema: { type: 'object' },
                _meta: { 'io.modelcontextprotocol/trust-annotations': { untrusted: true } },
              },
              {
                name: 'tweet',
                inputSchema: { type: 'object' },
                annotations: { inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' } },
              },
            ],
          },
          {
            serverInfo: { name: 'b' },
            tools: [
              { name: 'get_customer', inputSchema: { type: 'object' }, _meta: { 'mcp.dev/resultSensitivity': 'confidential' } },
              {
                name: 'publish_page',
                inputSchema: { type: 'object' },
                _meta: {
                  'io.modelcontextprotocol/action-metadata': {
                    inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' },
                    requiresReview: false,
                  },
                },
              },
              {
                name: 'publish_page_reviewed',
                inputSchema: { type: 'object' },
                _meta: {
                  'io.modelcontextprotocol/action-metadata': {
                    inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' },
                    requiresReview: true,
                  },
                },
              },
            ],
          },
        ],
        findings: [
          { pointer: '/servers/0/tools/1/annotations/inputMetadata/destination' },
          { pointer: '/servers/1/tools/1/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination' },
        ],
      },
      {
        title: 'With openWorldIsUntrusted, an explicit openWorldHint true is an untrusted source',
        options: { openWorldIsUntrusted: true },
        document: {
          serverInfo: { name: 'clinic-assistant' },
          tools: [
            {
              name: 'fetch_page',
              inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
              annotations: { readOnlyHint: true, openWorldHint: true },
            },
            {
              name: 'get_patient_record',
              inputSchema: { type: 'object' },
              annotations: {
                readOnlyHint: true,
                openWorldHint: false,
                returnMetadata: { source: 'internal', sensitivity: [{ regulated: { scopes: ['HIPAA'] } }] },
              },
            },
            {
              name: 'send_fax',
              inputSchema: { type: 'object' },
              annotations: {
                readOnlyHint: false,
                openWorldHint: true,
                inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'irreversible' },
              },
            },
          ],
        },
        findings: [{ pointer: '/tools/2/annotations/inputMetadata/destination' }],
      },
      {
        title: 'Two servers, each with its own trifecta: one finding per sink, each naming its own server’s sources',
        doc: false,
        servers: [
          {
            serverInfo: { name: 'mail' },
            tools: [
              {
                name: 'list_inbox',
                inputSchema: { type: 'object' },
                annotations: { returnMetadata: { source: 'untrustedPublic', sensitivity: ['pii', 'user'] } },
              },
              {
                name: 'send_email',
                inputSchema: { type: 'object' },
                annotations: { inputMetadata: { destination: 'public', sensitivity: ['pii', 'user'], outcomes: 'irreversible' } },
              },
            ],
          },
          {
            serverInfo: { name: 'github' },
            tools: [
              {
                name: 'get_issue',
                inputSchema: { type: 'object' },
                annotations: { returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' } },
              },
              {
                name: 'get_file_contents',
                inputSchema: { type: 'object' },
                annotations: { returnMetadata: { source: 'internal', sensitivity: 'credentials' } },
              },
              {
                name: 'create_pull_request',
                inputSchema: { type: 'object' },
                annotations: { inputMetadata: { destination: ['internal', 'public'], sensitivity: 'user', outcomes: 'consequential' } },
              },
            ],
          },
        ],
        findings: [
          { pointer: '/servers/0/tools/1/annotations/inputMetadata/destination' },
          { pointer: '/servers/1/tools/2/annotations/inputMetadata/destination' },
        ],
      },
      {
        title: 'Secrets kept out, but personal data still reaches the model',
        doc: false,
        tools: [
          {
            name: 'get_account',
            inputSchema: { type: 'object' },
            outputSchema: { type: 'object', properties: { email: { type: 'string' }, token: { type: 'string', 'x-sensitive': true } } },
            annotations: { returnMetadata: { source: ['user', 'untrustedPublic'], sensitivity: ['pii', 'credentials'] } },
          },
          {
            name: 'share_link',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'irreversible' } },
          },
        ],
        findings: [{ pointer: '/tools/1/annotations/inputMetadata/destination' }],
      },
    ],
    correct: [
      {
        title: 'The same email tools, with confirmation on the send tool',
        document: {
          serverInfo: { name: 'mail', version: '1.0.0' },
          tools: [
            {
              name: 'list_inbox',
              inputSchema: { type: 'object', properties: { limit: { type: 'number' } } },
              annotations: {
                readOnlyHint: true,
                inputMetadata: { destination: 'ephemeral', sensitivity: 'none', outcomes: 'benign' },
                returnMetadata: { source: 'untrustedPublic', sensitivity: ['pii', 'user'] },
              },
            },
            {
              name: 'send_email',
              inputSchema: { type: 'object', properties: { to: { type: 'string' }, body: { type: 'string' } } },
              annotations: {
                readOnlyHint: false,
                destructiveHint: false,
                inputMetadata: { destination: 'public', sensitivity: ['pii', 'user'], outcomes: 'irreversible' },
                returnMetadata: { source: 'system', sensitivity: 'none' },
              },
              _meta: { 'mcp.dev/requiresConfirmation': true },
            },
          ],
        },
      },
      {
        title: 'Untrusted content and a public sink, but nothing private to leak',
        tools: [
          {
            name: 'search_web',
            inputSchema: { type: 'object', properties: { query: { type: 'string' } } },
            annotations: { readOnlyHint: true, returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' } },
          },
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
        explanation: 'Without a tool that returns private data, an injected instruction has nothing to steal through `publish_post`.',
      },
      {
        title: 'By default an explicit openWorldHint true is not an untrusted source',
        doc: false,
        tools: [
          { name: 'fetch_page', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: true } },
          {
            name: 'read_file',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, returnMetadata: { source: 'internal', sensitivity: 'financial' } },
          },
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: { openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'irreversible' } },
          },
        ],
      },
      {
        title: 'With openWorldIsUntrusted, a finer return source still wins over openWorldHint',
        doc: false,
        options: { openWorldIsUntrusted: true },
        tools: [
          {
            name: 'get_exchange_rate',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: true, returnMetadata: { source: 'trustedPublic', sensitivity: 'none' } },
          },
          {
            name: 'read_file',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: 'financial' } },
          },
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: { openWorldHint: false, inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'irreversible' } },
            _meta: { 'io.modelcontextprotocol/trust-annotations': { untrusted: false } },
          },
        ],
      },
      {
        title: 'Sensitive output withheld from the model (sensitiveHint) is not a source',
        doc: false,
        tools: [
          {
            name: 'read_mail',
            inputSchema: { type: 'object' },
            annotations: { sensitiveHint: true, returnMetadata: { source: 'untrustedPublic', sensitivity: 'pii' } },
          },
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: 'public', sensitivity: 'pii', outcomes: 'irreversible' } },
          },
        ],
      },
      {
        title: 'An external effect whose declared destinations are internal is not a public sink; user data is not private',
        doc: false,
        tools: [
          {
            name: 'read_notes',
            inputSchema: { type: 'object' },
            annotations: { returnMetadata: { source: ['user', 'untrustedPublic'], sensitivity: 'user' } },
            _meta: { 'mcp.dev/resultSensitivity': 'internal' },
          },
          {
            name: 'get_secret',
            inputSchema: { type: 'object' },
            annotations: { returnMetadata: { source: 'system', sensitivity: 'credentials' } },
            outputSchema: { type: 'object', properties: { ref: { type: 'object', properties: { type: { const: 'secret_reference' } } } } },
          },
          {
            name: 'notify_oncall',
            inputSchema: { type: 'object' },
            annotations: { inputMetadata: { destination: 'internal', sensitivity: 'pii', outcomes: 'irreversible' } },
            _meta: { 'mcp.dev/effect': 'external' },
          },
        ],
      },
      {
        title: 'Across servers, a sink that asks for approval',
        doc: false,
        servers: [
          {
            serverInfo: { name: 'web' },
            tools: [
              {
                name: 'fetch_url',
                inputSchema: { type: 'object' },
                annotations: { returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' } },
              },
            ],
          },
          {
            serverInfo: { name: 'crm' },
            tools: [
              {
                name: 'export_contacts',
                inputSchema: { type: 'object' },
                annotations: {
                  returnMetadata: { source: 'internal', sensitivity: 'pii' },
                  inputMetadata: { destination: 'public', sensitivity: 'pii', outcomes: 'irreversible' },
                  approvalRecommendation: 'single',
                },
              },
            ],
          },
        ],
      },
    ],
  },
  collect(ctx): Roles | undefined {
    const c = ctx.claims;
    if (c.list.length === 0) return undefined;
    const roles: Roles = {
      untrusted: untrustedEvidence(c, ctx.options.openWorldIsUntrusted === true),
      private: privateEvidence(c),
      sink: [],
      off: [],
    };
    const sink = publicSinks(c);
    if (sink.length && confirmationSignals(c).length === 0) {
      roles.sink = sink;
      roles.off = c.where('requiresConfirmation', false);
      if (!roles.off.length) roles.unchecked = offConfirmationSignals(ctx);
    }
    const plays = roles.untrusted.length || roles.private.length || roles.sink.length;
    return plays ? roles : undefined;
  },
  checkRun(ctx) {
    interface PerServer {
      untrusted?: Player;
      private?: Player;
      sinks: { player: Player; off: Claim<'requiresConfirmation'>[]; unchecked?: Claim<'requiresConfirmation'>[] }[];
    }
    const per: PerServer[] = [];
    let runUntrusted: Player | undefined;
    let runPrivate: Player | undefined;

    // One pass over every tool: the first source of each kind per server and per run,
    // and every sink without a confirmation signal.
    for (const s of ctx.servers) {
      const here: PerServer = { sinks: [] };
      for (const t of s.tools) {
        const roles = t.collected as Roles | undefined;
        if (!roles) continue;
        if (!here.untrusted && roles.untrusted.length) here.untrusted = { server: s.server, tool: t.tool, evidence: roles.untrusted };
        if (!here.private && roles.private.length) here.private = { server: s.server, tool: t.tool, evidence: roles.private };
        if (roles.sink.length) here.sinks.push({ player: { server: s.server, tool: t.tool, evidence: roles.sink }, off: roles.off, unchecked: roles.unchecked });
      }
      runUntrusted ??= here.untrusted;
      runPrivate ??= here.private;
      per.push(here);
    }
    if (!runUntrusted || !runPrivate) return;

    for (const here of per) {
      const untrusted = here.untrusted ?? runUntrusted;
      const priv = here.private ?? runPrivate;
      for (const { player: sink, off, unchecked } of here.sinks) {
        const [ev, ...moreSink] = sink.evidence as [Evidence, ...Evidence[]];
        const [u] = untrusted.evidence as [Evidence];
        const [p] = priv.evidence as [Evidence];
        // The sink itself may be a source: call it "the same tool" rather than naming it twice.
        const name = (pl: Player) => (pl.tool === sink.tool ? 'the same tool' : who(pl));
        const sources =
          untrusted.tool === priv.tool
            ? `${name(untrusted)} may return untrusted content (${shown(u)}) and private data (${shown(p)})`
            : // After another tool's name, "the same tool" would read as that one: the sink is named.
              `${name(untrusted)} may return untrusted content (${shown(u)}) and ${priv.tool === sink.tool ? `${who(sink)} itself` : who(priv)} may return private data (${shown(p)})`;
        const offText = off.length
          ? `confirmation is off (${off.map((c) => `${says(c)} at ${c.pointer}`).join(', ')})`
          : unchecked?.length
            ? 'nothing in a vocabulary this run checks asks for confirmation'
            : 'nothing asks for confirmation';
        const crossServer = untrusted.server.id !== sink.server.id || priv.server.id !== sink.server.id;
        const switchable = off.find((c) => c.raw === undefined && c.value === false);
        const how = off.length
          ? `turn confirmation on for ${who(sink)} (${says(off[0]!)} today)`
          : `ask for confirmation before ${who(sink)} runs (e.g. _meta["mcp.dev/requiresConfirmation"]: true, action-metadata requiresReview: true, or approvalRecommendation "single")`;
        ctx.report({
          server: sink.server,
          tool: sink.tool,
          pointer: ev.claim.pointer,
          message:
            `${who(sink)} may send data to a public destination (${said(ev)}) and ${offText}, while ${sources}: ` +
            'instructions injected into the untrusted content can make the model send the private data out through this tool' +
            (unchecked?.length ? `; ${offConfirmationText(unchecked)}` : ''),
          suggestion:
            `${how}, or narrow what the tools declare if one of them cannot play its part` +
            (crossServer ? '; or do not load these servers into one agent' : ''),
          ...(switchable
            ? { fix: { description: `Set ${switchable.field} to true`, replacements: [{ pointer: switchable.pointer, text: 'true' }] } }
            : {}),
          related: [
            ...moreSink.map((e) => ({ pointer: e.claim.pointer, message: `${who(sink)} also says ${said(e)}`, tool: sink.tool })),
            ...off.map((c) => ({ pointer: c.pointer, message: 'confirmation is turned off here', tool: sink.tool })),
            ...untrusted.evidence.map((e) => ({
              pointer: e.claim.pointer,
              message: `${who(untrusted)} may return untrusted content: ${said(e)}`,
              tool: untrusted.tool,
              serverId: untrusted.server.id,
            })),
            ...priv.evidence.map((e) => ({
              pointer: e.claim.pointer,
              message: `${who(priv)} may return private data: ${said(e)}`,
              tool: priv.tool,
              serverId: priv.server.id,
            })),
          ],
        });
      }
    }
  },
});
