import { defineRule } from '../src/rule.js';
import { CORE_HINTS } from '../src/packs/core.js';
import { isDraftAnnotationKey } from '../src/packs/drafts.js';
import { PACKS } from '../src/packs/index.js';
import { escapeSegment, fieldPath } from '../src/util/pointer.js';
import { closest, quote } from '../src/util/text.js';

/** Defaults of the core hints, for saying what a client falls back to. */
const CORE_DEFAULTS: Record<string, boolean> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };

let KNOWN: ReadonlyMap<string, string> | undefined;

/** Every annotations key some pack defines, with the pack that defines it (built once). */
function knownKeys(): ReadonlyMap<string, string> {
  if (KNOWN) return KNOWN;
  const keys = new Map<string, string>();
  for (const pack of PACKS) for (const k of pack.annotationKeys) keys.set(k, pack.id);
  return (KNOWN = keys);
}

const squash = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');

/** The known key that is `key` plus "Hint" ("readOnly" → "readOnlyHint", "open_world" → "openWorldHint"), if any. */
function withHint(key: string, known: Iterable<string>): string | undefined {
  const k = squash(key) + 'hint';
  for (const candidate of known) if (candidate.endsWith('Hint') && squash(candidate) === k) return candidate;
  return undefined;
}

export default defineRule({
  id: 'unknown-annotation-key',
  severity: 'warning',
  category: 'structure',
  packs: ['core'],
  summary: 'Every key in annotations should be one that MCP or a known vocabulary defines.',
  precision: 'high',
  why: `Clients read the annotations they know and ignore the rest. A misspelled hint —
\`readonlyHint\`, \`destructive_hint\`, \`openWorld\` — is not an error anywhere, and the
client quietly uses the hint's default instead: for \`readOnlyHint\` that is "this tool
writes", for \`destructiveHint\` "this tool destroys data". The author thinks the tool is
marked read-only, and every user is asked to approve every call.

Keys of the server's own belong in \`_meta\` under a prefix the server owns, where no
future MCP annotation can collide with them.`,
  notes: `- **Known keys** are those of MCP (\`title\`, \`readOnlyHint\`, \`destructiveHint\`,
  \`idempotentHint\`, \`openWorldHint\`) and of every vocabulary mcp-annotate knows (SEP-1913,
  SEP-2793 risk metadata, WebMCP's \`sensitiveHint\`), **whether or not that pack is
  enabled** for the run: turning a pack off stops checking its vocabulary; it does not
  make its keys wrong.
- The closest known key is suggested when the key is a plausible typo of it (same letters
  ignoring case, "-" and "_", or a small edit distance), or when the key is a known hint
  without its "Hint" (\`readOnly\` → \`readOnlyHint\`); when it is a core hint, the
  message says which default the client uses instead. A word of the opposite meaning is
  never suggested.
- There is no mechanical fix: renaming a key replaces the whole \`annotations\` object.
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
        title: 'Draft fields are left to draft-field',
        doc: false,
        tools: [{ name: 'x', inputSchema: { type: 'object' }, annotations: { privateHint: true, sensitiveHint: 'high' } }],
      },
    ],
  },
  check(ctx) {
    const a = ctx.tool.annotations;
    if (!a) return;
    const known = knownKeys();
    for (const key of Object.keys(a)) {
      if (known.has(key) || isDraftAnnotationKey(key, a[key])) continue;
      const guess = closest(key, known.keys()) ?? withHint(key, known.keys());
      const rel = `/annotations/${escapeSegment(key)}`;
      const field = fieldPath(rel);
      let message = `${field} is not an annotation of MCP or of any vocabulary mcp-annotate knows; clients ignore it`;
      if (guess && guess in CORE_HINTS) message += ` and use ${guess}'s default (${CORE_DEFAULTS[guess]}) instead`;
      ctx.report({
        pointer: ctx.at(rel),
        message,
        suggestion: guess
          ? `did you mean ${JSON.stringify(guess)}?`
          : `if it is the server's own data, move it under _meta with a prefix the server owns, e.g. _meta[${quote(`com.example/${key}`)}]`,
      });
    }
  },
});
