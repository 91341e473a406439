import { defineRule } from '../src/rule.js';
import { CORE_HINTS } from '../src/packs/core.js';
import { isDraftAnnotationKey } from '../src/packs/drafts.js';
import { ACTION_KEY, ACTION_MEMBERS } from '../src/packs/action-metadata.js';
import { PACKS } from '../src/packs/index.js';
import { underReservedPrefix } from '../src/packs/vocabulary.js';
import type { ToolContext } from '../src/rule.js';
import type { PackId } from '../src/types.js';
import { isObject } from '../src/util/json.js';
import { escapeSegment, fieldPath } from '../src/util/pointer.js';
import { closest, normWord, quote } from '../src/util/text.js';
import { wellFormedMetaKey } from './meta-key-format.js';

/** Defaults of the core hints, for saying what a client falls back to. */
const CORE_DEFAULTS: Record<string, boolean> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

let KNOWN: ReadonlyMap<string, PackId> | undefined;

/** Every annotations key some pack defines, with the pack that defines it (built once). */
function knownKeys(): ReadonlyMap<string, PackId> {
  if (KNOWN) return KNOWN;
  const keys = new Map<string, PackId>();
  for (const pack of PACKS) for (const k of pack.annotationKeys) keys.set(k, pack.id);
  return (KNOWN = keys);
}

/** The known annotations keys of the enabled packs, and of the disabled ones. */
interface KeysBySwitch {
  on: readonly string[];
  off: readonly string[];
  /** The _meta namespaces of the enabled vocabularies ("mcp.dev/" → its key names). */
  namespaces: ReadonlyMap<string, readonly string[]>;
}

/** Per run (its set of enabled packs, shared by every tool): the keys split by whether their pack is on. */
const BY_SWITCH = new WeakMap<ReadonlySet<PackId>, KeysBySwitch>();

function keysBySwitch(packs: ReadonlySet<PackId>): KeysBySwitch {
  let k = BY_SWITCH.get(packs);
  if (!k) {
    const known = [...knownKeys()];
    const namespaces = new Map<string, readonly string[]>();
    for (const [prefix, names] of metaNamespaces()) {
      const on = names.filter((n) => packs.has(n.pack)).map((n) => n.name);
      if (on.length) namespaces.set(prefix, on);
    }
    k = { on: known.filter(([, p]) => packs.has(p)).map(([key]) => key), off: known.filter(([, p]) => !packs.has(p)).map(([key]) => key), namespaces };
    BY_SWITCH.set(packs, k);
  }
  return k;
}

/** The known key that is `key` plus "Hint" ("readOnly" → "readOnlyHint", "open_world" → "openWorldHint"), if any. */
function withHint(key: string, known: Iterable<string>): string | undefined {
  const k = normWord(key) + 'hint';
  for (const candidate of known) if (candidate.endsWith('Hint') && normWord(candidate) === k) return candidate;
  return undefined;
}

/**
 * The _meta namespaces of known vocabularies that are not MCP's reserved prefix
 * ("mcp.dev/" → its key names, each with its pack), built once. Keys under
 * io.modelcontextprotocol/ are meta-key-format's (a reserved prefix MCP does not define).
 */
let META_NAMESPACES: ReadonlyMap<string, readonly { name: string; pack: PackId }[]> | undefined;
function metaNamespaces(): ReadonlyMap<string, readonly { name: string; pack: PackId }[]> {
  if (META_NAMESPACES) return META_NAMESPACES;
  const out = new Map<string, { name: string; pack: PackId }[]>();
  for (const pack of PACKS) {
    for (const key of pack.metaKeys) {
      const slash = key.indexOf('/');
      if (slash <= 0 || underReservedPrefix(key)) continue;
      const prefix = key.slice(0, slash + 1);
      out.set(prefix, [...(out.get(prefix) ?? []), { name: key.slice(slash + 1), pack: pack.id }]);
    }
  }
  return (META_NAMESPACES = out);
}

/** What a vocabulary that lives in _meta is called in a message. */
const META_VOCABULARIES: Partial<Record<PackId, string>> = {
  'meta-hints': 'the _meta hints proposal',
  'action-metadata': 'the action-metadata extension',
  'trust-annotations': 'the trust-annotations extension',
};

let META_KEYS: ReadonlyMap<string, string> | undefined;
/** Every _meta key a known vocabulary defines ("mcp.dev/effect"), with what that vocabulary is called (built once). */
function metaKeyVocabularies(): ReadonlyMap<string, string> {
  if (META_KEYS) return META_KEYS;
  const out = new Map<string, string>();
  for (const pack of PACKS) for (const k of pack.metaKeys) out.set(k, META_VOCABULARIES[pack.id] ?? `the ${pack.title}`);
  return (META_KEYS = out);
}

/** Where a key that is no annotation belongs, when no known key is close to it. */
function elsewhere(key: string): string {
  // WebMCP's mark is per output property: the packs read it only in outputSchema.
  if (key === 'x-sensitive') {
    return 'WebMCP\'s "x-sensitive" marks one property of the result: put "x-sensitive": true on the outputSchema properties that hold the sensitive data (or set annotations.sensitiveHint for the tool as a whole)';
  }
  const vocabulary = metaKeyVocabularies().get(key);
  if (vocabulary) return `move it to _meta[${quote(key)}], where ${vocabulary} reads it (never from annotations)`;
  // A key that already carries a prefix keeps it: a second one would not be a valid _meta key.
  if (key.includes('/')) {
    if (wellFormedMetaKey(key) && !underReservedPrefix(key)) return `if it is the server's own data, move it to _meta[${quote(key)}], where its prefix already keeps it apart`;
    const name = key.slice(key.lastIndexOf('/') + 1);
    if (wellFormedMetaKey(name)) return `if it is the server's own data, move it under _meta with a prefix the server owns, e.g. _meta[${quote(`com.example/${name}`)}]`;
    return "if it is the server's own data, move it under _meta with a prefix the server owns (com.example/ and a name of letters, digits, \"-\", \"_\" and \".\")";
  }
  return `if it is the server's own data, move it under _meta with a prefix the server owns, e.g. _meta[${quote(`com.example/${key}`)}]`;
}

/** The members of the action-metadata object, and of its inputMetadata / returnMetadata. */
const ACTION_OBJECTS: readonly { path: string[]; members: readonly string[] }[] = [
  { path: [], members: ACTION_MEMBERS },
  { path: ['inputMetadata'], members: ['destination', 'sensitivity', 'outcomes'] },
  { path: ['returnMetadata'], members: ['source', 'sensitivity'] },
];

/**
 * Misspelled keys in a known vocabulary's own _meta namespace: a key under "mcp.dev/"
 * that is not one of its keys but close to one, and a member of the action-metadata
 * object close to one of its members. Keys not close to a known one are left alone: the
 * vocabularies may grow.
 */
function checkMeta(ctx: ToolContext, namespaces: ReadonlyMap<string, readonly string[]>): void {
  const m = ctx.tool.meta;
  if (!m) return;
  for (const key of Object.keys(m)) {
    const slash = key.indexOf('/');
    if (slash <= 0) continue;
    const prefix = key.slice(0, slash + 1);
    const names = namespaces.get(prefix);
    if (!names || names.includes(key.slice(slash + 1))) continue;
    const name = closest(key.slice(slash + 1), names);
    if (name === undefined) continue;
    reportMisspelt(ctx, `/_meta/${escapeSegment(key)}`, prefix + name, Object.prototype.hasOwnProperty.call(m, prefix + name), `a key of the _meta hints proposal`);
  }
  // A disabled vocabulary is not checked: no near misses of its keys either.
  if (!ctx.packs.has('action-metadata')) return;
  const am = m[ACTION_KEY];
  if (!isObject(am)) return;
  for (const { path, members } of ACTION_OBJECTS) {
    let obj: unknown = am;
    for (const seg of path) obj = isObject(obj) ? obj[seg] : undefined;
    if (!isObject(obj)) continue;
    for (const key of Object.keys(obj)) {
      if (members.includes(key)) continue;
      const guess = closest(key, members);
      if (guess === undefined) continue;
      const rel = `/_meta/${escapeSegment(ACTION_KEY)}${path.map((p) => `/${p}`).join('')}/${escapeSegment(key)}`;
      reportMisspelt(ctx, rel, guess, Object.prototype.hasOwnProperty.call(obj, guess), 'a member of the action-metadata extension');
    }
  }
}

function reportMisspelt(ctx: ToolContext, rel: string, guess: string, both: boolean, what: string): void {
  ctx.report({
    pointer: ctx.at(rel),
    message: `${fieldPath(rel)} is not ${what}, but close to ${JSON.stringify(guess)}; clients that implement it ignore the misspelled key${both ? ` (${JSON.stringify(guess)} is also there)` : `, as if ${JSON.stringify(guess)} were not set`}`,
    suggestion: both ? `did you mean ${JSON.stringify(guess)}? It is already there: remove this key` : `did you mean ${JSON.stringify(guess)}? Rename the key`,
  });
}

export default defineRule({
  id: 'unknown-annotation-key',
  severity: 'warning',
  category: 'structure',
  packs: ['core'],
  summary: 'Every key in annotations should be one that MCP or a known vocabulary defines, and no key in a vocabulary\'s _meta namespace should be a misspelling of one of its keys.',
  precision: 'high',
  why: `Clients read the annotations they know and ignore the rest. A misspelled hint —
\`readonlyHint\`, \`destructive_hint\`, \`openWorld\` — is not an error anywhere, and the
client quietly uses the hint's default instead: for \`readOnlyHint\` that is "this tool
writes", for \`destructiveHint\` "this tool destroys data". The author thinks the tool is
marked read-only, and every user is asked to approve every call.

Keys of the server's own belong in \`_meta\` under a prefix the server owns, where no
future MCP annotation can collide with them.

The same silent default follows a misspelled key of a vocabulary that lives in \`_meta\`:
\`_meta["mcp.dev/requireConfirmation"]\` asks a client for nothing, and an action-metadata
object with \`requiresreview\` does not request review.`,
  notes: `- **Known keys** are those of MCP (\`title\`, \`readOnlyHint\`, \`destructiveHint\`,
  \`idempotentHint\`, \`openWorldHint\`) and of every vocabulary mcp-annotate knows (SEP-1913,
  SEP-2793 risk metadata, WebMCP's \`sensitiveHint\`), **whether or not that pack is
  enabled** for the run: turning a pack off stops checking its vocabulary; it does not
  make its keys wrong. This departs on purpose from the wording of the project's rule
  catalogue ("an \`annotations\` key that no *enabled* pack defines"): read literally, that
  would report every \`riskLevel\` or \`inputMetadata\` as unknown as soon as its pack is
  off. A pack is turned off because the user's clients do not implement that
  vocabulary, not because its keys are misspelled, so such a finding would be noise whose
  only "fix" (moving the key under \`_meta\`) breaks a correct declaration for the clients
  that do implement it. The keys of the vocabularies mcp-annotate knows
  are therefore always known; what the pack switch controls is whether the vocabulary is
  checked at all, its near misses included (next point).
- **A disabled vocabulary is not checked at all**, near misses included: with the
  \`meta-hints\` pack off, \`_meta["mcp.dev/requireConfirmation"]\` is not reported; with
  \`action-metadata\` off, neither is a \`requiresreview\` member; with \`risk-metadata\`
  off, an annotations key close only to one of its keys (\`riskLevl\`) is left alone too.
  A key close to an enabled vocabulary's key is suggested that key, as usual.
- The closest known key is suggested when the key is a plausible typo of it (same letters
  ignoring case, "-" and "_", or a small edit distance), or when the key is a known hint
  without its "Hint" (\`readOnly\` → \`readOnlyHint\`); when it is a core hint, the
  message says which default the client uses instead. A word of the opposite meaning is
  never suggested.
- **In \`_meta\`**, a key under a known vocabulary's own namespace (\`mcp.dev/\`, the
  \`_meta\` hints proposal) that is not one of its keys, and a member of the
  \`io.modelcontextprotocol/action-metadata\` object (or of its \`inputMetadata\` /
  \`returnMetadata\`) that is not one of its members, is reported only when it is close to
  a known one (\`mcp.dev/idempotant\`, \`mcp.dev/Effect\`, \`requiresreview\`), with that
  key suggested. Other keys there are left alone: the vocabularies may grow. Unknown
  members of the trust-annotations object are schema errors
  ([schema-valid](schema-valid.md)), and unknown keys under \`io.modelcontextprotocol/\`
  are [meta-key-format](meta-key-format.md)'s.
- **Where a key with no close known key belongs.** A key a known vocabulary defines in
  \`_meta\` (\`mcp.dev/effect\`, \`io.modelcontextprotocol/action-metadata\`) is read only
  there, never from \`annotations\`: the suggestion is the same key under \`_meta\`, where
  that vocabulary reads it. WebMCP's \`x-sensitive\` marks \`outputSchema\` properties, so
  that is where it is sent. A key that already carries a prefix of its own (\`com.acme/risk\`)
  moves to \`_meta\` as it is (a second prefix would not be a valid \`_meta\` key); any other
  key of the server's own gets a prefix, \`_meta["com.example/<key>"]\`.
- **A misspelt key beside the real one** (\`readonlyHint\` and \`readOnlyHint\`): clients read
  the real one, so the message says so rather than naming its default, and the suggestion is
  to remove the misspelt key, not to rename it into a second copy.
- There is no mechanical fix: renaming a key replaces the whole object that holds it.
- Superseded draft fields (\`privateHint\`, \`sensitiveHint: "high"\`, \`InputMetadata\`) are
  [draft-field](draft-field.md)'s, which says what replaced them, and are not repeated here.`,
  examples: {
    incorrect: [
      {
        title: 'A misspelled hint',
        tools: [{ name: 'list_files', inputSchema: { type: 'object' }, annotations: { readonlyHint: true } }],
        findings: [{ pointer: '/tools/0/annotations/readonlyHint' }],
        explanation: 'Clients ignore `readonlyHint` and treat the tool as one that writes.',
      },
      {
        title: 'A hint without its "Hint"',
        doc: false,
        tools: [{ name: 'get_file_info', inputSchema: { type: 'object' }, annotations: { readOnly: true, destructiveHint: false, openWorldHint: false } }],
        findings: [{ pointer: '/tools/0/annotations/readOnly' }],
      },
      {
        title: 'Misspelled keys of vocabularies that live in _meta',
        tools: [
          {
            name: 'delete_user',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true },
            _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/requireConfirmation': true },
          },
          {
            name: 'publish_post',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
            _meta: { 'io.modelcontextprotocol/action-metadata': { outcome: 'irreversible', requiresreview: true } },
          },
        ],
        findings: [{ pointer: '/tools/0/_meta/mcp.dev~1requireConfirmation' }, { pointer: '/tools/1/_meta/io.modelcontextprotocol~1action-metadata/requiresreview' }],
        explanation: 'Clients that implement these vocabularies do not ask for confirmation or review: the keys they look for are not there.',
      },
      {
        title: 'A key in another case, and a misspelled member of inputMetadata',
        doc: false,
        tools: [
          {
            name: 'send',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false },
            _meta: {
              'mcp.dev/Effect': 'write',
              'mcp.dev/idempotant': false,
              'io.modelcontextprotocol/action-metadata': { inputMetadata: { destinaton: 'public' } },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/_meta/mcp.dev~1Effect' },
          { pointer: '/tools/0/_meta/mcp.dev~1idempotant' },
          { pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destinaton' },
        ],
      },
      {
        title: 'Keys that belong elsewhere: a _meta vocabulary key, a key with its own prefix, WebMCP\'s x-sensitive, a misspelt hint beside the real one',
        doc: false,
        tools: [
          {
            name: 'get_file',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, readonlyHint: true, destructiveHint: false, 'mcp.dev/effect': 'read', 'com.acme/risk': 'low', 'x-sensitive': true },
          },
        ],
        findings: [
          { pointer: '/tools/0/annotations/readonlyHint' },
          { pointer: '/tools/0/annotations/mcp.dev~1effect' },
          { pointer: '/tools/0/annotations/com.acme~1risk' },
          { pointer: '/tools/0/annotations/x-sensitive' },
        ],
      },
      {
        title: "A field of the server's own",
        tools: [{ name: 'list_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, costTier: 'free' } }],
        findings: [{ pointer: '/tools/0/annotations/costTier' }],
      },
    ],
    correct: [
      {
        title: 'Core hints and keys of known vocabularies',
        tools: [
          {
            name: 'delete_branch',
            inputSchema: { type: 'object' },
            annotations: { title: 'Delete branch', readOnlyHint: false, destructiveHint: true, riskLevel: 'high', approvalRecommendation: 'single', sensitiveHint: false },
          },
        ],
      },
      {
        title: "A disabled pack's keys are still known",
        doc: false,
        packs: ['core'],
        tools: [{ name: 'x', inputSchema: { type: 'object' }, annotations: { riskLevel: 'low', maliciousActivityHint: false } }],
      },
      {
        title: "A disabled vocabulary's near misses are not checked",
        doc: false,
        packs: ['core', 'sep-1913'],
        tools: [
          {
            name: 'delete_user',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false, riskLevl: 'high' },
            _meta: { 'mcp.dev/requireConfirmation': true, 'io.modelcontextprotocol/action-metadata': { outcome: 'irreversible', requiresreview: true } },
          },
        ],
      },
      {
        title: 'Keys in a vocabulary namespace that are not close to any of its keys are left alone',
        doc: false,
        tools: [
          {
            name: 'x',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
            _meta: { 'mcp.dev/costTier': 'free', 'io.modelcontextprotocol/action-metadata': { owner: 'ops', requiresReview: false } },
          },
        ],
      },
      {
        title: 'Draft fields are left to draft-field',
        doc: false,
        tools: [{ name: 'x', inputSchema: { type: 'object' }, annotations: { privateHint: true, sensitiveHint: 'high' } }],
      },
    ],
  },
  check(ctx) {
    const keys = keysBySwitch(ctx.packs);
    checkMeta(ctx, keys.namespaces);
    const a = ctx.tool.annotations;
    if (!a) return;
    const known = knownKeys();
    for (const key of Object.keys(a)) {
      if (known.has(key) || isDraftAnnotationKey(key, a[key])) continue;
      const guess = closest(key, keys.on) ?? withHint(key, keys.on);
      // A near miss of a disabled vocabulary's key is that vocabulary's to check, and it is off.
      if (guess === undefined && keys.off.length && (closest(key, keys.off) ?? withHint(key, keys.off)) !== undefined) continue;
      const rel = `/annotations/${escapeSegment(key)}`;
      const field = fieldPath(rel);
      const vocabulary = guess === undefined ? metaKeyVocabularies().get(key) : undefined;
      // The real key stated as well: clients read that one, and a rename would give the key twice.
      const both = guess !== undefined && Object.prototype.hasOwnProperty.call(a, guess);
      let message = vocabulary
        ? `${field} is a key of ${vocabulary}, which reads it only from _meta; here clients ignore it`
        : guess === undefined && key === 'x-sensitive'
          ? `${field} is WebMCP's mark for an outputSchema property, not an annotation; here clients ignore it`
          : `${field} is not an annotation of MCP or of any vocabulary mcp-annotate knows; clients ignore it`;
      if (guess && both) message += ` (${guess} is also there, ${ctx.at(`/annotations/${escapeSegment(guess)}`)}, and clients read that one)`;
      else if (guess && guess in CORE_HINTS) message += ` and use ${guess}'s default (${CORE_DEFAULTS[guess]}) instead`;
      ctx.report({
        pointer: ctx.at(rel),
        message,
        suggestion: guess
          ? both
            ? `did you mean ${JSON.stringify(guess)}? It is already there: remove this key (if its value is the one meant, put it in ${JSON.stringify(guess)})`
            : `did you mean ${JSON.stringify(guess)}?`
          : elsewhere(key),
      });
    }
  },
});
