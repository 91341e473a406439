import { defineRule } from '../src/rule.js';
import { PACKS } from '../src/packs/index.js';
import { RESERVED_SECOND_LABELS } from '../src/packs/vocabulary.js';
import { escapeSegment } from '../src/util/pointer.js';
import { isObject } from '../src/util/json.js';
import { quote } from '../src/util/text.js';
import { readFileSync } from 'node:fs';
import { LATEST_SPEC, SPEC_VERSIONS, type SpecVersion } from '../src/types.js';
import { PACKAGE_ROOT } from '../src/version.js';
import { versionBefore } from '../src/packs/core.js';

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

/**
 * The _meta keys each spec version's schema.json defines under MCP's reserved prefix (for
 * requests, results and notifications; seen on a tool they are odd, but they are MCP's, not
 * unknown): schemas/meta-keys.json, derived by scripts/derive-schemas.mjs, read on first need.
 */
let MCP_DEFINED: Readonly<Record<SpecVersion, readonly string[]>> | undefined;
function mcpDefinedKeys(): Readonly<Record<SpecVersion, readonly string[]>> {
  return (MCP_DEFINED ??= JSON.parse(readFileSync(new URL('schemas/meta-keys.json', PACKAGE_ROOT), 'utf8')) as Record<SpecVersion, string[]>);
}

/** The versions whose schema defines a _meta key (none: no version does). */
function definedIn(key: string): SpecVersion[] {
  const all = mcpDefinedKeys();
  return SPEC_VERSIONS.filter((v) => all[v].includes(key));
}

/**
 * Prefixes a client reads its own keys under, by the name of that client: a key there that
 * breaks the syntax is still the one the client looks for, so no rename is suggested.
 */
const CLIENT_PREFIXES: Readonly<Record<string, string>> = {
  openai: "ChatGPT (OpenAI's Apps SDK)",
};

export interface MetaKeyParts {
  prefix?: string;
  labels: string[];
  name: string;
}

/** A _meta key split at its first "/" into prefix labels and name. */
export function splitMetaKey(key: string): MetaKeyParts {
  const slash = key.indexOf('/');
  if (slash < 0) return { labels: [], name: key };
  const prefix = key.slice(0, slash);
  return { prefix, labels: prefix.split('.'), name: key.slice(slash + 1) };
}

/** Whether a key follows MCP's _meta key syntax (an optional prefix of labels, then a name). */
export function wellFormedMetaKey(key: string): boolean {
  const { prefix, labels, name } = splitMetaKey(key);
  return name !== '' && NAME.test(name) && (prefix === undefined || labels.every((l) => LABEL.test(l)));
}

/** Why a label is invalid, in words. */
function labelProblem(label: string): string {
  if (label === '') return 'an empty label (two dots in a row, or a dot at an end)';
  const bad = [...new Set([...label].filter((c) => !/[A-Za-z0-9-]/.test(c)))];
  if (bad.length) return `the label ${quote(label)} contains ${bad.map((c) => quote(c)).join(', ')} (labels use letters, digits and "-")`;
  if (!/^[A-Za-z]/.test(label)) return `the label ${quote(label)} does not start with a letter`;
  return `the label ${quote(label)} ends with "-"`;
}

function nameProblem(name: string): string {
  const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9._-]/.test(c)))];
  if (bad.length) return `the name ${quote(name)} contains ${bad.map((c) => quote(c)).join(', ')} (names use letters, digits, "-", "_" and ".")`;
  return `the name ${quote(name)} must start and end with a letter or digit`;
}

function fixLabel(label: string): string {
  const s = label.replace(/[^A-Za-z0-9-]+/g, '-').replace(/^[^A-Za-z]+/, '').replace(/-+$/, '');
  return s === '' ? 'example' : s;
}

function fixName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').replace(/[^A-Za-z0-9]+$/, '');
}

let PACK_KEYS: ReadonlyMap<string, string> | undefined;

/** Every _meta key some pack defines, with its pack (built once). */
function packKeys(): ReadonlyMap<string, string> {
  if (PACK_KEYS) return PACK_KEYS;
  const keys = new Map<string, string>();
  for (const pack of PACKS) for (const k of pack.metaKeys) keys.set(k, pack.id);
  return (PACK_KEYS = keys);
}

/**
 * Which reserved-prefix rule a spec version has:
 * - 2025-03-26 has no rules for _meta keys at all (the syntax and the reserved prefixes came
 *   with 2025-06-18); keys are held to the latest rules, as notes.
 * - 2025-06-18: "Any prefix beginning with zero or more valid labels, followed by
 *   `modelcontextprotocol` or `mcp`, followed by any valid label, is reserved"
 *   (`mcp.dev/`, `tools.mcp.com/`; `io.modelcontextprotocol/` is not, nothing follows).
 * - 2025-11-25 and later: "Any prefix where the second label is `modelcontextprotocol` or
 *   `mcp` is reserved" (`io.modelcontextprotocol/`, `dev.mcp/`; `mcp.dev/` is not), and
 *   prefixes SHOULD be reverse-DNS.
 */
type KeyRules = 'none' | 'any-label' | 'second-label';

function keyRulesOf(spec: SpecVersion): KeyRules {
  if (spec === '2025-03-26') return 'none';
  if (spec === '2025-06-18') return 'any-label';
  return 'second-label';
}

/**
 * The version whose defined keys also count: the one before the latest, when the spec was
 * defaulted (no usable version recorded, none given) — such a dump may speak it, as schema-valid
 * also assumes (it checks the tool against that version too).
 */
function alsoDefining(spec: SpecVersion, source: 'given' | 'recorded' | 'default'): SpecVersion | undefined {
  return source === 'default' ? versionBefore(spec) : undefined;
}

const isReservedLabel = (label: string) => RESERVED_SECOND_LABELS.includes(label.toLowerCase());

/** The index of the label that makes a prefix reserved under a rule, or -1. */
function reservedAt(labels: readonly string[], rules: 'any-label' | 'second-label'): number {
  if (rules === 'second-label') return labels.length >= 2 && isReservedLabel(labels[1]!) ? 1 : -1;
  for (let i = 0; i < labels.length - 1; i++) if (isReservedLabel(labels[i]!)) return i;
  return -1;
}

/** What a key earns on its own: nothing, or a finding's message and suggestion. */
type KeyVerdict = { message: string; suggestion: string } | null;
/** A forward-written prefix: the note's prefix (once per server, apart for a proposal's own keys), message and suggestion. */
type ForwardVerdict = { prefix: string; message: string; suggestion: string; informational: boolean } | null;

/** Verdicts by key (one memo per rule set): the same keys come back on tool after tool. */
const MEMO_MAX_ENTRIES = 10_000;
const keyVerdicts = new Map<string, Map<string, KeyVerdict>>();
const forwardVerdicts = new Map<string, ForwardVerdict>();

function remember<V>(memo: Map<string, V>, key: string, v: V): V {
  if (key.length <= 256) {
    if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
    memo.set(key, v);
  }
  return v;
}

/**
 * The syntax or reserved-prefix problem of a key under a spec version's rules, if any.
 * @param also Another version whose defined keys count as defined too: the version before the
 *   latest, when the latest was linted against only for want of a recorded version (a dump that
 *   records none may well speak 2025-11-25, whose io.modelcontextprotocol/related-task is MCP's).
 */
function keyVerdict(key: string, spec: SpecVersion, also?: SpecVersion): KeyVerdict {
  const rules = keyRulesOf(spec);
  const memoKey = also === undefined ? spec : `${spec}+${also}`;
  let memo = keyVerdicts.get(memoKey);
  if (!memo) keyVerdicts.set(memoKey, (memo = new Map()));
  const known = memo.get(key);
  if (known !== undefined) return known;
  const { prefix, labels, name } = splitMetaKey(key);
  const problems: string[] = [];
  if (prefix !== undefined) {
    if (prefix === '') problems.push('the prefix before "/" is empty');
    else for (const label of labels) if (!LABEL.test(label)) problems.push(labelProblem(label));
  }
  if (!NAME.test(name)) problems.push(nameProblem(name));
  if (problems.length > 0) {
    const fixed = prefix !== undefined && prefix !== '' ? `${labels.map(fixLabel).join('.')}/${fixName(name)}` : fixName(name);
    const client = prefix !== undefined && Object.hasOwn(CLIENT_PREFIXES, prefix) ? CLIENT_PREFIXES[prefix] : undefined;
    return remember(memo, key, {
      message:
        `_meta key ${quote(key)} does not follow MCP's key syntax: ${[...new Set(problems)].join('; ')}` +
        (rules === 'none' ? ' (spec 2025-03-26 set no rules for _meta keys; this syntax came with 2025-06-18, and clients of later versions may drop or reject such keys)' : ''),
      suggestion: client
        ? `${client} reads this key under this very name, so a rename breaks that client: keep it while the server targets it (turn meta-key-format off for these tools in the config); other MCP clients and gateways may drop or reject it`
        : `rename it${fixed !== '' && fixed !== key ? `, e.g. to ${quote(fixed)}` : ''}; prefixes are reverse-DNS labels ending in "/" (com.example/)`,
    });
  }
  if (prefix === undefined) return remember(memo, key, null);
  const at = reservedAt(labels, rules === 'none' ? 'second-label' : rules);
  // The keys of the version whose rules apply (2025-03-26 has none of its own: the latest's).
  const definer = rules === 'none' ? LATEST_SPEC : spec;
  if (at < 0 || packKeys().has(key) || mcpDefinedKeys()[definer].includes(key) || (also !== undefined && mcpDefinedKeys()[also].includes(key))) return remember(memo, key, null);
  const why =
    rules === 'any-label'
      ? `which spec 2025-06-18 reserves for MCP (a label ${quote(labels[at])} followed by another label)`
      : `which MCP reserves for itself (its second label is ${quote(labels[1])})`;
  const elsewhere = definedIn(key);
  return remember(memo, key, {
    message:
      `_meta key ${quote(key)} uses the prefix ${quote(`${prefix}/`)}, ${why}, and neither MCP nor a known extension defines it` +
      (elsewhere.length ? ` in spec ${spec} (MCP defines it in spec ${elsewhere.join(', ')} only)` : '') +
      (rules === 'none' ? ' (spec 2025-03-26 reserved no prefixes; spec 2025-11-25 reserves this one)' : ''),
    suggestion: elsewhere.length
      ? `if the server speaks spec ${elsewhere[elsewhere.length - 1]}, record that protocolVersion or pass --spec ${elsewhere[elsewhere.length - 1]}; otherwise drop it, or use a prefix the server owns, e.g. ${quote(`com.example/${name}`)}`
      : `use a prefix the server owns, e.g. ${quote(`com.example/${name}`)}`,
  });
}

/**
 * The note for a prefix written forwards whose reverse-DNS form MCP reserves, if any
 * (only under the second-label rule: the reverse-DNS advice came with it, and under
 * 2025-06-18's rule a forward prefix such as mcp.dev/ is itself reserved).
 */
function forwardVerdict(key: string): ForwardVerdict {
  const known = forwardVerdicts.get(key);
  if (known !== undefined) return known;
  const { prefix, labels, name } = splitMetaKey(key);
  if (prefix === undefined || !labels.every((l) => LABEL.test(l)) || !NAME.test(name)) return remember(forwardVerdicts, key, null);
  const n = labels.length;
  if (n < 2 || isReservedLabel(labels[1]!) || !isReservedLabel(labels[n - 2]!)) return remember(forwardVerdicts, key, null);
  const reversed = [...labels].reverse().join('.');
  const packId = packKeys().get(key);
  const pack = packId ? PACKS.find((p) => p.id === packId)?.title ?? packId : undefined;
  return remember(forwardVerdicts, key, {
    prefix,
    // A proposal's own spelling: nothing to change while the server follows the proposal.
    informational: pack !== undefined,
    message:
      `_meta key ${quote(key)} writes its prefix as a forward domain name; MCP asks for reverse-DNS prefixes, and this one reversed (${quote(`${reversed}/`)}) would be reserved for MCP. ` +
      (pack
        ? `This is how the ${pack} proposal spells its keys, so the key needs no change while you follow it (noted once per server)`
        : 'As written it is not reserved and is valid (noted once per server)'),
    suggestion: pack
      ? `keep the ${quote(`${prefix}/`)} keys while the proposal uses them; for keys of the server's own, use a reverse-DNS prefix of a domain it controls (com.example/)`
      : `use a reverse-DNS prefix of a domain the server controls, e.g. ${quote(`com.example/${name}`)}`,
  });
}

export default defineRule({
  id: 'meta-key-format',
  severity: 'warning',
  category: 'structure',
  packs: ['core'],
  summary: 'Keys of a tool\'s _meta (and of its tools/list result\'s) must follow MCP\'s prefix/name syntax and stay out of its reserved prefixes.',
  precision: 'very-high',
  why: `MCP gives \`_meta\` keys a syntax so that metadata from different parties cannot collide:
an optional prefix of dot-separated labels ending in "/" (\`com.example/\`), then a name.
Some prefixes are reserved for MCP itself, and implementations must not assume anything
about values under them. Which ones depends on the spec version: since 2025-11-25,
prefixes whose second label is \`modelcontextprotocol\` or \`mcp\`
(\`io.modelcontextprotocol/\`, \`dev.mcp/\`); in 2025-06-18, prefixes with
\`modelcontextprotocol\` or \`mcp\` followed by another label (\`mcp.dev/\`,
\`tools.mcp.com/\`).

A key that breaks the syntax may be dropped or rejected by strict clients and gateways;
a key under a reserved prefix that MCP does not define can collide with one it defines
later, and clients may treat it as protocol metadata.`,
  notes: `- The key is split at its first "/": before it the prefix (labels: a letter first, a
  letter or digit last, letters, digits and "-" between), after it the name (empty, or
  a letter or digit at both ends with letters, digits, "-", "_" and "." between). A key
  without "/" is a name alone.
- **Reserved prefixes follow the linted spec version** (\`--spec\`, or the
  \`protocolVersion\` a snapshot recorded; the latest without either). The spec texts
  (the \`_meta\` section of each version's "Overview" page; since 2026-07-28 also the
  \`MetaObject\` description in \`schema.json\`):
  - 2025-11-25 and later: "Any prefix where the second label is \`modelcontextprotocol\`
    or \`mcp\` is **reserved** for MCP use. For example: \`io.modelcontextprotocol/\`,
    \`dev.mcp/\`, \`org.modelcontextprotocol.api/\`, and \`com.mcp.tools/\` are all
    reserved. However, \`com.example.mcp/\` is NOT reserved, as the second label is
    \`example\`." — and "Implementations SHOULD use reverse DNS notation (e.g.,
    \`com.example/\` rather than \`example.com/\`)."
  - 2025-06-18: "Any prefix beginning with zero or more valid labels, followed by
    \`modelcontextprotocol\` or \`mcp\`, followed by any valid label, is **reserved** for
    MCP use. For example: \`modelcontextprotocol.io/\`, \`mcp.dev/\`,
    \`api.modelcontextprotocol.org/\`, and \`tools.mcp.com/\` are all reserved." Under
    it, \`mcp.dev/owner\` is reserved and \`io.modelcontextprotocol/owner\` (nothing
    follows the label) is not.
  - 2025-03-26 has no rules for \`_meta\` keys (the key syntax came with 2025-06-18).
    Keys are held to the latest rules, and findings are **notes** that say so.

  Labels are compared case-insensitively (DNS names are). A reserved key is
  fine when the MCP schema **of the linted version** defines it (for requests and results;
  odd on a tool, but MCP's own) or a vocabulary
  mcp-annotate knows defines it (\`io.modelcontextprotocol/action-metadata\`,
  \`io.modelcontextprotocol/trust-annotations\`, and under 2025-06-18 the \`_meta\` hints
  proposal's \`mcp.dev/effect\`, …), whether or not its pack is enabled. The keys each
  version defines are derived from its \`schema.json\` (\`schemas/meta-keys.json\`, by
  \`npm run schemas\`): \`io.modelcontextprotocol/related-task\` in 2025-11-25 only;
  \`serverInfo\`, \`protocolVersion\`, \`clientInfo\`, \`clientCapabilities\`, \`logLevel\` and
  \`subscriptionId\` (under \`io.modelcontextprotocol/\`) in 2026-07-28 only. A key another
  version defines is reported like any other, and the message names that version. Under
  2025-03-26, whose keys are held to the latest rules, the latest version's keys are MCP's.
  A dump that records no usable version (linted against the latest for want of one, none
  given) may speak the version before the latest, as [schema-valid](schema-valid.md)
  assumes too: that version's keys count as defined as well
  (\`io.modelcontextprotocol/related-task\` is not reported).
- **The tools/list result's own \`_meta\`** is checked the same way when the input says which
  version produced it (a snapshot's known \`protocolVersion\`, or \`--spec\`), as
  [schema-valid](schema-valid.md) checks the envelope; most dumps do not say, and their
  envelope is then not checked. 2026-07-28's \`ResultMetaObject\`: "All key naming rules from
  \`MetaObject\` apply".
- **A prefix written forwards** whose reverse-DNS form would be reserved — \`mcp.dev/\`
  reversed is \`dev.mcp/\` — gets a **note**, not a warning, under 2025-11-25 and later.
  It is not reserved as written, and it is exactly how the \`_meta\` hints proposal spells
  its keys (\`mcp.dev/effect\`), so a server following that proposal is doing the right
  thing; the note is there because MCP asks for reverse-DNS prefixes and the proposal may
  still change its spelling. One note per prefix per server, at its use in the tool whose name sorts first (by
  code point; named tools first; that tool's key that sorts first), so reordering tools moves no note — one for the
  proposal's own keys, which says the key needs no change and stays a note under any
  setting, and one for keys of the server's own under that prefix, so the first never hides
  the second. Under
  2025-06-18 such a prefix is simply reserved (see above), and there is no note.
- No mechanical fix: renaming a key breaks whoever reads it. The suggestion shows a key
  that follows the syntax, except under a prefix a client reads its own keys under
  (\`openai/\`, ChatGPT's Apps SDK, whose \`openai/toolInvocation/invoking\` has a "/" in its
  name): there the key is what that client looks for, and the suggestion says so instead.`,
  examples: {
    incorrect: [
      {
        title: 'An underscore in a prefix label, and a name ending in "-"',
        tools: [{ name: 'list_files', inputSchema: { type: 'object' }, _meta: { 'my_app/version': '2', 'com.example/cache-': true } }],
        findings: [{ pointer: '/tools/0/_meta/my_app~1version' }, { pointer: '/tools/0/_meta/com.example~1cache-' }],
      },
      {
        title: 'A key ChatGPT reads, with a "/" in its name: reported, but no rename suggested',
        tools: [{ name: 'search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false }, _meta: { 'openai/toolInvocation/invoking': 'Searching…' } }],
        findings: [{ pointer: '/tools/0/_meta/openai~1toolInvocation~1invoking' }],
      },
      {
        title: "A key under MCP's reserved prefix",
        tools: [{ name: 'list_files', inputSchema: { type: 'object' }, _meta: { 'io.modelcontextprotocol/owner': 'team-files' } }],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1owner' }],
      },
      {
        title: 'The _meta hints proposal\u2019s keys: a gentle note',
        tools: [
          {
            name: 'delete_user',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true },
            _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/requiresConfirmation': true },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1effect', severity: 'note' }],
      },
      {
        title: 'Under spec 2025-06-18: a reserved label followed by another label',
        spec: '2025-06-18',
        tools: [
          {
            name: 'list_files',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'mcp.dev/owner': 'team', 'tools.mcp.com/x': 1, 'io.modelcontextprotocol/y': 2, 'mcp.dev/effect': 'read' },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1owner' }, { pointer: '/tools/0/_meta/tools.mcp.com~1x' }],
      },
      {
        title: 'Under spec 2025-11-25: a key only 2026-07-28 defines',
        spec: '2025-11-25',
        tools: [
          {
            name: 'list_files',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, openWorldHint: false },
            _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'files', version: '1.0.0' }, 'io.modelcontextprotocol/related-task': { taskId: 't1' } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1serverInfo' }],
      },
      {
        title: "The tools/list result's own _meta, in a snapshot that records its version",
        document: {
          protocolVersion: '2025-11-25',
          serverInfo: { name: 'files', version: '1.0.0' },
          _meta: { 'io.modelcontextprotocol/owner': 'team-files', 'com.example/region': 'eu' },
          tools: [{ name: 'list_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }],
        },
        findings: [{ pointer: '/_meta/io.modelcontextprotocol~1owner' }],
      },
      {
        title: 'Under spec 2025-03-26 (no key rules yet): the latest rules, as notes',
        doc: false,
        spec: '2025-03-26',
        tools: [{ name: 'x', inputSchema: { type: 'object' }, _meta: { 'my_app/v': 1, 'dev.mcp/x': 1, 'mcp.dev/y': 1 } }],
        findings: [
          { pointer: '/tools/0/_meta/my_app~1v', severity: 'note' },
          { pointer: '/tools/0/_meta/dev.mcp~1x', severity: 'note' },
        ],
      },
      {
        title: 'An empty prefix, a label starting with a digit, a name with a space',
        doc: false,
        tools: [{ name: 'x', inputSchema: { type: 'object' }, _meta: { '/a': 1, '1password.com/x': 1, 'a b': 1, 'Dev.MCP/x': 1 } }],
        findings: [
          { pointer: '/tools/0/_meta/~1a' },
          { pointer: '/tools/0/_meta/1password.com~1x' },
          { pointer: '/tools/0/_meta/a b' },
          { pointer: '/tools/0/_meta/Dev.MCP~1x' },
        ],
      },
    ],
    correct: [
      {
        title: "Under spec 2026-07-28, the keys it defines; a dump's own _meta is not checked when it records no version",
        doc: false,
        document: {
          _meta: { 'io.modelcontextprotocol/owner': 'team-files' },
          tools: [
            {
              name: 'list_files',
              inputSchema: { type: 'object' },
              annotations: { readOnlyHint: true, openWorldHint: false },
              _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'files', version: '1.0.0' } },
            },
          ],
        },
      },
      {
        title: 'Reverse-DNS prefixes, names, and keys a known extension defines',
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            _meta: {
              'com.example/tier': 'gold',
              'com.example.mcp/trace': true,
              progressToken: 'abc',
              'io.modelcontextprotocol/action-metadata': { outcome: 'irreversible', requiresReview: true },
            },
          },
        ],
      },
    ],
  },
  check(ctx) {
    const meta = ctx.tool.meta;
    if (!meta) return;
    const rules = keyRulesOf(ctx.spec);
    const also = alsoDefining(ctx.spec, ctx.specSource);
    for (const key of Object.keys(meta)) {
      const v = keyVerdict(key, ctx.spec, also);
      if (v) ctx.report({ pointer: ctx.at(`/_meta/${escapeSegment(key)}`), severity: rules === 'none' ? 'note' : undefined, message: v.message, suggestion: v.suggestion });
    }
  },
  checkServer(ctx) {
    // The tools/list result's own _meta, when the input's version is known (recorded, or given
    // with --spec; see ServerContext.envelopes): 2026-07-28's ResultMetaObject says "All key
    // naming rules from MetaObject apply", and every version's _meta section speaks of any _meta.
    const rules = keyRulesOf(ctx.spec);
    const also = alsoDefining(ctx.spec, ctx.specSource);
    for (const e of ctx.envelopes) {
      const meta = isObject(e.value) ? e.value._meta : undefined;
      if (!isObject(meta)) continue;
      for (const key of Object.keys(meta)) {
        const v = keyVerdict(key, ctx.spec, also);
        if (v) ctx.report({ pointer: `${e.pointer}/_meta/${escapeSegment(key)}`, severity: rules === 'none' ? 'note' : undefined, message: v.message, suggestion: v.suggestion });
      }
    }
    // A forward-written prefix is a property of how the server (or the proposal it
    // follows) spells keys, not of one tool: one note per prefix per server.
    if (rules !== 'second-label') return;
    // Once per prefix, and apart for a proposal's own keys and the server's own: the note that a
    // proposal's key needs no change must not hide one about a key of the server's. The key it
    // is reported at is chosen by content — the tool whose name sorts first, then its key that
    // sorts first — so reordering tools (or a _meta's keys) moves no note.
    const chosen = new Map<string, { t: (typeof ctx.tools)[number]; key: string; v: NonNullable<ForwardVerdict> }>();
    for (const t of ctx.tools) {
      const meta = t.tool.meta;
      if (!meta) continue;
      for (const key of Object.keys(meta)) {
        const v = forwardVerdict(key);
        if (!v) continue;
        const once = `${v.prefix}\u0000${v.informational}`;
        const was = chosen.get(once);
        // A tool without a name ("#3", its place) comes after every named one.
        const order = was && (Number(was.t.tool.hasName) - Number(t.tool.hasName) || (t.tool.name < was.t.tool.name ? -1 : t.tool.name > was.t.tool.name ? 1 : 0));
        if (was && !(order! < 0 || (order === 0 && t.tool.index === was.t.tool.index && key < was.key))) continue;
        chosen.set(once, { t, key, v });
      }
    }
    for (const { t, key, v } of chosen.values()) {
      ctx.report({
        tool: t.tool,
        pointer: t.at(`/_meta/${escapeSegment(key)}`),
        severity: 'note',
        informational: v.informational,
        message: v.message,
        suggestion: v.suggestion,
      });
    }
  },
});
