import { defineRule } from '../src/rule.js';
import { draftForms, type DraftForm } from '../src/packs/drafts.js';
import { quote } from '../src/util/text.js';

const DATA_CLASSES_TEXT = '"none", "user", "pii", "financial", "credentials" or {"regulated": {"scopes": […]}}';

function describe(d: DraftForm): { message: string; suggestion: string; fix?: string } {
  switch (d.kind) {
    case 'sensitive-level':
      return {
        message: `${d.field} is ${quote(d.written)}, a sensitivity level from an early draft of SEP-1913; the SEP replaced the levels with data classes (${DATA_CLASSES_TEXT}) in annotations.inputMetadata.sensitivity and annotations.returnMetadata.sensitivity`,
        suggestion:
          'say what kind of data the tool handles instead, e.g. "returnMetadata": {"source": "internal", "sensitivity": "pii"}; a boolean sensitiveHint is a different thing (WebMCP: keep the output out of model context)',
      };
    case 'private-hint':
      return {
        message: `${d.field} comes from an early draft of SEP-1913, where it marked internal or private data; the SEP replaced it with data classes (${DATA_CLASSES_TEXT}) in annotations.inputMetadata.sensitivity and annotations.returnMetadata.sensitivity`,
        suggestion: 'drop privateHint and declare returnMetadata: "sensitivity": "user" for data private to the user (or "pii", "financial", …), and "source": "internal" for internal data',
      };
    case 'capitalised-key':
      return {
        message:
          d.sep2061 === false
            ? `${d.field} is the key ${quote(d.current)} in the wrong letter case; clients compare keys exactly`
            : `${d.field} uses SEP-2061's capitalised spelling; SEP-1913, which took SEP-2061's action metadata in, spells the key ${quote(d.current)}`,
        suggestion: d.duplicate ? `remove it: ${quote(d.current)} is already there` : `rename the key to ${quote(d.current)}`,
      };
    case 'capitalised-value':
      return {
        message: d.sep2061
          ? `${d.field} is ${quote(d.written)}, SEP-2061's spelling; SEP-1913 spells the value ${quote(d.current)}, and clients compare values exactly`
          : `${d.field} is ${quote(d.written)}, the value ${quote(d.current)} in the wrong letter case; clients compare values exactly`,
        suggestion: `write ${quote(d.current)}`,
        fix: JSON.stringify(d.current),
      };
  }
}

export default defineRule({
  id: 'draft-field',
  severity: 'warning',
  category: 'structure',
  packs: ['sep-1913'],
  summary: 'Annotations written in the spelling of a superseded SEP-1913 or SEP-2061 draft.',
  precision: 'very-high',
  why: `SEP-1913 (trust and sensitivity annotations) went through drafts before its current
form. Its first draft had \`sensitiveHint: "low" | "medium" | "high"\` and \`privateHint\`;
the current SEP describes data with classes instead (\`inputMetadata.sensitivity\` and
\`returnMetadata.sensitivity\`: none, user, pii, financial, credentials, regulated). It
also took in SEP-2061's action metadata, whose drafts wrote capitalised keys and values
(\`"Destination": "Public"\`, \`"Sensitivity": "PII"\`).

A client that implements SEP-1913 as it stands reads none of these: the tool's data
looks unclassified and its metadata incomplete. Each finding says what the current
spelling is.`,
  notes: `- **\`sensitiveHint\` as a string level** is the SEP-1913 draft. A *boolean*
  \`sensitiveHint\` is WebMCP's flag (keep the output out of model context), another
  vocabulary, and is not reported. The level is this rule's alone while the tool speaks no
  WebMCP elsewhere; on a tool whose output schema does (an \`"x-sensitive"\` property, a
  \`secret_reference\` result), a sensitiveHint that is not a boolean is also WebMCP's
  schema error ([schema-valid](schema-valid.md)). With the \`sep-1913\` pack off, this rule
  does not run and the \`webmcp-sensitive\` pack checks the level as WebMCP's
  sensitiveHint: a [schema-valid](schema-valid.md) error (a boolean is expected).
- **\`privateHint\`** had no one-to-one successor; the suggestion points at
  \`returnMetadata.sensitivity\` ("user" for data private to the user) and
  \`returnMetadata.source\` ("internal").
- **Capitalised keys** are \`InputMetadata\` and \`ReturnMetadata\` on \`annotations\`, and
  \`Destination\`, \`Sensitivity\`, \`Outcomes\`, \`Source\` inside either spelling of those
  objects. **Capitalised values** are SEP-2061's spelling of a known value of those
  members: capitalised (\`"Public"\`, \`"Irreversible"\`, \`"UntrustedPublic"\`), and
  \`"PII"\`. Any other case variant (\`"pIi"\`, \`"bEnign"\`, \`"untrustedpublic"\`) is
  reported too, but as what it is — the value in the wrong letter case, no draft's
  spelling. A string \`"Regulated"\` is not one: the regulated class is only ever an
  object, so [schema-valid](schema-valid.md) says how to write it.
- The \`sep-1913\` pack reads what a draft spelling names: an \`InputMetadata\` object as
  \`inputMetadata\`, \`"Destination"\` as \`destination\`, \`"PII"\` as pii. So the other rules
  and policies on \`claims.*\` weigh it, and [schema-valid](schema-valid.md) checks the object
  under a capitalised key as it checks \`inputMetadata\`. When both spellings of a key are
  there (\`inputMetadata\` beside \`InputMetadata\`, \`destination\` beside \`Destination\`),
  the current one is read and the capitalised one is ignored: this rule says to remove it.
- A value in the wrong case gets a mechanical fix (replace it with the current spelling).
  Keys do not: renaming a key replaces its whole object.
- The SEP-1913 pack does not also report these as schema errors: problems that only a
  draft spelling causes (a "missing" \`destination\` beside a \`Destination\`, an enum
  mismatch on \`"PII"\`) are left to this rule; everything else in the object is still
  checked by [schema-valid](schema-valid.md), including the value under a capitalised
  key: \`"Destination": "Pubic"\` is wrong in any spelling, so it gets this rule's
  "rename the key" and schema-valid's "expected one of …; did you mean "public"?". [unknown-annotation-key](unknown-annotation-key.md)
  leaves these keys alone too.
- **The server's own data is not a draft.** When the \`sep-1913\` pack reads an
  \`inputMetadata\` or \`returnMetadata\` object as the server's own
  (\`{"Destination": "s3://exports", "Format": "csv"}\`: no member holds a SEP-1913 value),
  [vocabulary-key-collision](vocabulary-key-collision.md) says to move it under \`_meta\`,
  and this rule says nothing about its capitalised members.
- Runs only when the \`sep-1913\` pack is enabled.`,
  examples: {
    incorrect: [
      {
        title: "SEP-1913's first-draft hints",
        tools: [
          {
            name: 'read_record',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, sensitiveHint: 'high', privateHint: true },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/sensitiveHint' }, { pointer: '/tools/0/annotations/privateHint' }],
      },
      {
        title: "SEP-2061's capitalised keys and values",
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              inputMetadata: { Destination: 'Public', sensitivity: ['PII', 'user'], outcomes: 'irreversible' },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/annotations/inputMetadata/Destination' },
          { pointer: '/tools/0/annotations/inputMetadata/Destination' },
          { pointer: '/tools/0/annotations/inputMetadata/sensitivity/0' },
        ],
      },
      {
        title: 'Other case variants: the wrong letter case, not SEP-2061\'s spelling',
        doc: false,
        tools: [
          {
            name: 'x',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, inputMetadata: { destination: 'user', sensitivity: ['pIi', { REGULATED: { scopes: ['GDPR'] } }], outcomes: 'bEnign' } },
          },
        ],
        findings: [
          { pointer: '/tools/0/annotations/inputMetadata/sensitivity/0' },
          { pointer: '/tools/0/annotations/inputMetadata/sensitivity/1/REGULATED' },
          { pointer: '/tools/0/annotations/inputMetadata/outcomes' },
        ],
      },
      {
        title: 'Capitalised object keys, a duplicate member, a Regulated class',
        doc: false,
        tools: [
          {
            name: 'x',
            inputSchema: { type: 'object' },
            annotations: {
              ReturnMetadata: { Source: 'UntrustedPublic', Sensitivity: { Regulated: { scopes: ['HIPAA'] } } },
              inputMetadata: { destination: 'user', Destination: 'user', sensitivity: 'none', outcomes: 'Benign' },
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/annotations/ReturnMetadata' },
          { pointer: '/tools/0/annotations/ReturnMetadata/Source' },
          { pointer: '/tools/0/annotations/ReturnMetadata/Source' },
          { pointer: '/tools/0/annotations/ReturnMetadata/Sensitivity' },
          { pointer: '/tools/0/annotations/ReturnMetadata/Sensitivity/Regulated' },
          { pointer: '/tools/0/annotations/inputMetadata/Destination' },
          { pointer: '/tools/0/annotations/inputMetadata/outcomes' },
        ],
      },
    ],
    correct: [
      {
        title: 'The current SEP-1913 spelling, and a boolean (WebMCP) sensitiveHint',
        tools: [
          {
            name: 'send_email',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              sensitiveHint: false,
              inputMetadata: { destination: 'public', sensitivity: 'user', outcomes: 'irreversible' },
            },
          },
        ],
      },
      {
        title: "The server's own capitalised metadata (a vocabulary-key-collision, not a draft spelling)",
        doc: false,
        tools: [
          {
            name: 'export_rows',
            inputSchema: { type: 'object' },
            annotations: {
              readOnlyHint: false,
              destructiveHint: false,
              openWorldHint: true,
              inputMetadata: { Destination: 's3://exports', Format: 'csv' },
              returnMetadata: { Source: 'github', Sensitivity: 'internal' },
            },
          },
        ],
      },
    ],
  },
  check(ctx) {
    // An object the sep-1913 pack reads as the server's own data (vocabulary-key-collision:
    // "move it under _meta") is not SEP-1913's, so its members are no draft spellings of it.
    const forms = draftForms(ctx.tool.annotations);
    if (forms.length === 0) return;
    const foreign = ctx.problems.filter((p) => p.pack === 'sep-1913' && p.kind === 'collision').map((p) => p.pointer);
    for (const d of forms) {
      const pointer = ctx.at(d.pointer);
      if (foreign.some((f) => pointer === f || pointer.startsWith(`${f}/`))) continue;
      const { message, suggestion, fix } = describe(d);
      ctx.report({
        pointer,
        message,
        suggestion,
        ...(fix !== undefined ? { fix: { description: `Write ${fix}`, replacements: [{ pointer, text: fix }] } } : {}),
      });
    }
  },
});
