import { defineRule } from '../src/rule.js';
import type { SpecVersion } from '../src/types.js';
import { describeChar, hiddenAt } from '../src/util/unicode.js';
import { quote, thousands } from '../src/util/text.js';

const MAX_LENGTH = 128;
const ALLOWED = /[A-Za-z0-9_.-]/;
const VALID_NAME = new RegExp(`^[A-Za-z0-9_.-]{1,${MAX_LENGTH}}$`);
/** Spec versions before the tool-name rules (spec 2025-11-25). */
const BEFORE_NAME_RULES: readonly SpecVersion[] = ['2025-03-26', '2025-06-18'];

/** A name made only of allowed characters, as close to the original as it gets. */
export function sanitiseToolName(name: string): string {
  const hidden = hiddenAt(name);
  let text = '';
  for (let i = 0; i < name.length; ) {
    const length = name.codePointAt(i)! > 0xffff ? 2 : 1;
    if (!hidden(i)) text += name.slice(i, i + length);
    i += length;
  }
  // Accented letters lose their accents (é → e); every other run of characters becomes "_".
  const plain = text.normalize('NFKD').replace(/\p{M}/gu, '');
  let out = plain.replace(/[^A-Za-z0-9_.-]+/g, '_');
  if (/^[^A-Za-z0-9_.-]/.test(plain)) out = out.replace(/^_+/, '');
  if (/[^A-Za-z0-9_.-]$/.test(plain)) out = out.replace(/_+$/, '');
  out = out.slice(0, MAX_LENGTH);
  return out === '' ? 'tool' : out;
}

export default defineRule({
  id: 'tool-name-format',
  severity: 'error',
  category: 'structure',
  packs: ['core'],
  summary: 'A tool name must be 1–128 characters of A-Z, a-z, 0-9, "_", "-" and ".".',
  precision: 'very-high',
  why: `Since spec 2025-11-25, MCP tool names are 1 to 128 characters long and use only
ASCII letters, digits, underscore, hyphen and dot. Clients put tool names into model
APIs, command lines, URLs and configuration keys; many of them reject a tool whose
name has a space, a slash, a colon or a non-ASCII letter, and the whole server can fail
to load with it. A name that passes here works everywhere.

Each offending character is named with its code point, so a look-alike (a non-breaking
space, a Cyrillic "а") is as easy to spot as a plain space.`,
  notes: `- **Severity by spec version.** The character set and the length limit came with spec
  2025-11-25. When the linted spec version is older (2025-03-26, 2025-06-18 —
  from \`--spec\` or the version a snapshot recorded), the finding is a **warning**: the
  name breaks no rule of that version, but clients enforce the newer one. Without a
  recorded version, the latest spec applies.
- **The spec says SHOULD.** The spec text words the rule as "SHOULD"; it is an error here
  because clients and model APIs reject such names outright, so the tool does not work,
  which is what a user needs to hear.
- **No mechanical fix.** Renaming a tool changes what callers send in \`tools/call\`, and
  saved configurations and allow-lists that name it; the suggestion shows a sanitised name
  (accents dropped, every run of other characters turned into "_") for the author to adopt.
- A missing name, or one that is not a string, is [schema-valid](schema-valid.md)'s.
  Invisible characters (zero-width, bidi controls, tag characters, control characters,
  Hangul fillers, soft hyphens: every character that rule reports) are left to
  [hidden-characters](hidden-characters.md), which also says what they hide; this rule does
  not repeat them.
- Uniqueness is [tool-name-unique](tool-name-unique.md)'s.`,
  examples: {
    incorrect: [
      {
        title: 'A name with a space and a slash',
        tools: [{ name: 'get user/profile', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
        findings: [{ pointer: '/tools/0/name' }],
      },
      {
        title: 'An older server: the same name under spec 2025-06-18 is a warning',
        spec: '2025-06-18',
        tools: [{ name: 'search:files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
        findings: [{ pointer: '/tools/0/name', severity: 'warning' }],
      },
      {
        title: 'An empty name',
        doc: false,
        tools: [{ name: '', inputSchema: { type: 'object' } }],
        findings: [{ pointer: '/tools/0/name' }],
      },
      {
        title: 'A name over 128 characters, with an accented letter',
        doc: false,
        tools: [{ name: `café_${'x'.repeat(130)}`, inputSchema: { type: 'object' } }],
        findings: [{ pointer: '/tools/0/name' }],
      },
    ],
    correct: [
      {
        title: 'Letters, digits, underscore, hyphen and dot',
        tools: [
          { name: 'files.search_v2', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'get-user-profile', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
      },
      {
        title: 'Only a hidden character: hidden-characters reports it, not this rule',
        doc: false,
        tools: [{ name: 'list_files\u200b', inputSchema: { type: 'object' } }],
      },
      {
        title: 'A name that is not a string is schema-valid\u2019s',
        doc: false,
        tools: [{ name: 42, inputSchema: { type: 'object' } }],
      },
    ],
  },
  check(ctx) {
    const name = ctx.tool.obj?.name;
    if (typeof name !== 'string') return;
    // The usual case: 1–128 characters, all allowed (and none of them hidden).
    if (VALID_NAME.test(name)) return;
    const problems: string[] = [];
    if (name === '') problems.push('is empty (MCP tool names are 1–128 characters)');
    const length = [...name].length;
    if (length > MAX_LENGTH) problems.push(`is ${thousands(length)} characters long (MCP allows at most ${MAX_LENGTH})`);
    const hidden = hiddenAt(name);
    const offending = new Map<string, number[]>();
    for (let i = 0; i < name.length; ) {
      const ch = String.fromCodePoint(name.codePointAt(i)!);
      if (!ALLOWED.test(ch) && !hidden(i)) {
        const list = offending.get(ch) ?? [];
        list.push(i);
        offending.set(ch, list);
      }
      i += ch.length;
    }
    if (offending.size > 0) {
      const at = (list: number[]) => (list.length === 1 ? `${list[0]}` : `${list.slice(0, 3).join(', ')}${list.length > 3 ? ', …' : ''}`);
      const shown = [...offending].slice(0, 6).map(([ch, list]) => `${describeChar(ch)} at index ${at(list)}`);
      const rest = offending.size > 6 ? `; and ${offending.size - 6} more` : '';
      problems.push(`has characters outside A-Za-z0-9_.-: ${shown.join('; ')}${rest}`);
    }
    if (problems.length === 0) return;
    const older = BEFORE_NAME_RULES.includes(ctx.spec);
    const suggested = sanitiseToolName(name);
    ctx.report({
      pointer: ctx.at('/name'),
      severity: older ? 'warning' : undefined,
      message:
        `tool name ${quote(name, 80)} ${problems.join(', and ')}` +
        (older ? ` (spec ${ctx.spec} predates these rules, which came with 2025-11-25, but clients already enforce them)` : ''),
      suggestion:
        name === ''
          ? 'give the tool a name of 1–128 characters from A-Za-z0-9_.-'
          : `rename the tool, e.g. to ${JSON.stringify(suggested)}; renaming changes what callers send in tools/call, so update them too`,
    });
  },
});
