import { defineRule } from '../src/rule.js';
import { destructive, readOnly, sideOf } from '../src/engine/queries.js';
import { mayState, statedEffects, type PhraseMatch } from '../src/heuristics/phrases.js';
import { quote } from '../src/util/text.js';

const WHAT: Record<PhraseMatch['kind'], string> = {
  deletion: 'the tool deletes data',
  overwrite: 'the tool overwrites existing data',
  irreversible: 'the call cannot be undone',
  'read-only': 'the tool is read-only',
};

export default defineRule({
  id: 'description-vs-hints',
  severity: 'note',
  category: 'heuristic',
  packs: ['core'],
  summary: 'The description should not say the opposite of readOnlyHint or destructiveHint (heuristic).',
  precision: 'medium',
  security: 4.0,
  why: `The description is what a model reads to decide whether to call a tool, and what a
user reads in an approval prompt; the hints are what the client acts on. A description
that says "permanently deletes" on a tool marked \`readOnlyHint: true\` means the client
may run, without asking, a call its own text calls destructive. A description that says
"This tool is read-only" on a tool whose \`readOnlyHint\` is false costs a prompt on every
call, and suggests the hint was never set on purpose.

This is a **heuristic** that reads English prose, so it is a note: it quotes the phrase it
matched and where, and it stays silent when the phrase is negated or is about something
other than this call.`,
  notes: `What fires, on explicit hint values only (an absent \`readOnlyHint\` is
[missing-readonly-hint](missing-readonly-hint.md)'s business):

| the description says | contradicts |
| --- | --- |
| a deletion: "permanently deletes", "deletes … permanently", "permanent deletion", "deletes", "erases", "destroys", "purges", "wipes", or a sentence starting with the imperative "Delete …" | \`readOnlyHint: true\`, or \`destructiveHint: false\` |
| an overwrite: "overwrites", "overwrite", "overwriting" with the tool as subject ("Create a new file or completely overwrite an existing file", "it will overwrite existing files", "Writes the file, overwriting its content"), or "is", "are", "will be", "get(s) overwritten" | \`readOnlyHint: true\`, or \`destructiveHint: false\` (the spec: false means "only additive updates", and overwriting is not one) |
| irreversibility: "cannot be undone" (can't / can not; reversed / reverted), "irreversible", "irreversibly" | \`readOnlyHint: true\` only |
| read-only: "This tool is read-only", "This is read-only", "a read-only operation/query/call/…", or a sentence starting "Read-only:" / "Read-only." / "[Read-only]" | \`readOnlyHint: false\` |

- **The tool must be the subject.** A third-person deletion verb ("deletes",
  "permanently deletes") or an active "overwrite(s)" counts only when nothing but words
  like "this tool", "it", "will", "also", "completely" stand between it and the start of its
  clause or the last "and", "or", "then" ("Deletes…", "This tool permanently deletes…",
  "Archives the thread and deletes its attachments"), or as an infinitive in a sentence
  about this tool ("Use this tool when the user asks to permanently delete a file"). After
  "as", "because", "since" or "so" the clause needs the tool as its subject again ("it", "this",
  "this tool", "the tool", "this call", "the call": "Use with caution as it will overwrite
  existing files", "Be careful since this deletes every row", "because the call deletes the
  branch"): "Counts row
  changes, so deletes are included", "because deletes slow down scans" and "Returns the
  schema, as overwriting it requires admin access" are about deletes and overwrites, not
  this tool's; the same holds after "since" ("since this tool overwrites…" counts, the
  temporal "since deletes were last compacted" does not). Nothing after "such as" or "as
  well as" counts: "Returns audit events such as deletes and updates", "Returns inserts as
  well as deletes for the table" — unless a verb with its object follows "as well as": in
  "Resets the cache as well as deletes the temporary files" the tool deletes.
  "The server deletes expired tokens automatically" has another subject, and so has "Set
  overwrite to true to replace the file".
- **"overwrite" as a name** of a flag, mode or option does not count: "overwrite
  protection", "the overwrite flag", "overwrite: true", "overwrite=false". "replaces" is
  not read at all: "replaces the current labels with the given list" is an ordinary
  update, and "replaces placeholders" describes output.
- **Irreversible is not destructive.** Sending an email cannot be undone, yet it only adds:
  the spec's \`destructiveHint: false\` ("only additive updates") is right for it. So
  "cannot be undone" and "irreversible" contradict only \`readOnlyHint: true\`.
- **"removes" and "drops" alone do not count** (only with "permanently"): a fetch tool
  "removes scripts from the page" and a query tool "drops empty rows" describe their
  output. A bare "permanently" does not count either ("a permanent link",
  "permanently stored").
- **Caches.** A deletion or overwrite whose object is a cache ("Purges cached content from
  the CDN", "overwrites the cached copy") contradicts \`readOnlyHint: true\` but not
  \`destructiveHint: false\`: no data is lost.
- **Negation.** A match does not count when a negator (not, no, never, nothing, none,
  without, cannot, nor, any "n't") stands within five words before it in the same clause,
  or "nothing"/"no"/"none" follows it: "does not delete", "never deletes anything",
  "nothing is permanently removed", "deletes nothing", "never overwrites", "does not
  overwrite", "without overwriting", "won't overwrite". "are never overwritten" does not
  match at all (only "silently", "always", "automatically", "completely" or "entirely" may
  stand between the auxiliary and "overwritten").
- **About something else.** A match does not count in a sentence that is conditional
  before it ("if", "whether", "unless"), in a relative clause ("which", "who", or a
  relative "that" — but "Note that this permanently deletes…" counts), or one that points
  to another tool ("instead", "rather than", "use delete_file to…", "To delete a file,
  use delete_file."). Passive deletions ("items are permanently deleted after 30 days")
  never match: they usually state a retention policy, not what the call does. A passive
  overwrite does ("existing files will be overwritten"): it states what the call does to
  what is already there — unless another agent or a schedule does it, said right after the verb
  ("Previous versions are overwritten every night by the backup job", "fields are
  overwritten on each deploy", "notes with the same title are overwritten by the sync job"):
  that, like a passive deletion, states a policy. "The existing file will be overwritten
  whenever you call this" and "Existing keys are overwritten by the user-supplied values"
  are the call's own overwrites and count. A conditional one ("If the file exists, it is overwritten") does
  not count, like every conditional sentence: the price of precision.
- **Read-only about an object** does not count: "Creates a read-only token", "mounts the
  volume read-only", "a read-only replica", "It is read-only" (it may be the result).

One finding per contradicted hint, at \`description\`, quoting the first phrase that
counts and its 1-based character position in the description; the hint is the related
location. No mechanical fix: the prose or the hint may be the wrong one.`,
  examples: {
    incorrect: [
      {
        title: 'A read-only tool whose description says it deletes',
        tools: [
          {
            name: 'clean_artifacts',
            description: 'Permanently deletes build artifacts older than 30 days.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
          },
        ],
        findings: [{ pointer: '/tools/0/description' }],
      },
      {
        title: 'A "non-destructive" tool that deletes',
        tools: [
          {
            name: 'archive_thread',
            description: 'Archives the thread and deletes its attachments.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
        findings: [{ pointer: '/tools/0/description' }],
      },
      {
        title: 'A description that says read-only while the hint says otherwise',
        tools: [
          {
            name: 'query_warehouse',
            description: 'Runs a SQL query against the analytics warehouse. This tool is read-only.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
        findings: [{ pointer: '/tools/0/description' }],
      },
      {
        title: 'A "non-destructive" tool that overwrites',
        explanation:
          'The filesystem reference server’s `write_file`, with `destructiveHint` false: the spec says false means the tool "performs only additive updates", and overwriting a file is not one.',
        tools: [
          {
            name: 'write_file',
            description:
              'Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
          },
        ],
        findings: [{ pointer: '/tools/0/description' }],
      },
      {
        title: 'Overwrites, as a clause after "as" and as a passive',
        doc: false,
        tools: [
          { name: 'put_object', description: 'Uploads the object. Existing objects will be overwritten.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'save_draft', description: 'Saves the draft, overwriting the previous version.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'sync_notes', description: 'Be careful, as it overwrites local edits.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
        ],
        findings: [{ pointer: '/tools/0/description' }, { pointer: '/tools/1/description' }, { pointer: '/tools/2/description' }],
      },
      {
        title: '"cannot be undone" on a read-only tool',
        doc: false,
        tools: [
          {
            name: 'rotate_key',
            description: 'Rotates the signing key. This action cannot be undone.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
          },
        ],
        findings: [{ pointer: '/tools/0/description' }],
      },
      {
        title: 'Both contradictions in one description',
        doc: false,
        tools: [
          {
            name: 'tidy',
            description: 'Read-only: inspects the workspace.\n\nDelete the stale branches it finds.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
        findings: [{ pointer: '/tools/0/description' }, { pointer: '/tools/0/description' }],
      },
      {
        title: 'This tool as the subject after as/since/because, a verb after "as well as", and the call’s own passive overwrites',
        doc: false,
        tools: [
          { name: 'tool_0', description: 'Use with care, as this will permanently delete the repository.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'tool_1', description: 'Be careful since this deletes every row in the table.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'tool_2', description: 'Handle with caution because the call deletes the branch.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'tool_3', description: 'Resets the cache as well as deletes the temporary files.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'tool_4', description: 'The existing file will be overwritten whenever you call this.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'tool_5', description: 'Existing keys are overwritten by the user-supplied values.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
        findings: [
          { pointer: '/tools/0/description' },
          { pointer: '/tools/1/description' },
          { pointer: '/tools/2/description' },
          { pointer: '/tools/3/description' },
          { pointer: '/tools/4/description' },
          { pointer: '/tools/5/description' },
        ],
      },
    ],
    correct: [
      {
        title: 'Deletes and overwrites as things, and overwrites done by someone else',
        doc: false,
        tools: [
          { name: 'tool_0', description: 'Returns audit events such as deletes and updates.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'tool_1', description: 'Returns inserts as well as deletes for the table.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'tool_2', description: 'Counts row changes, so deletes are included in the total.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'tool_3', description: 'Shows the change feed since deletes were last compacted.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'tool_4', description: 'Reports table statistics because deletes slow down scans.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'tool_5', description: 'Lists the operations on a key, such as overwrites and reads.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'tool_6', description: 'Returns the schema, as overwriting it requires admin access.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'tool_7', description: 'Previous versions are overwritten every night by the backup job.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'tool_8', description: 'fields are overwritten on each deploy.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'tool_9', description: 'notes with the same title are overwritten by the sync job.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
      },
      {
        title: 'Negated statements',
        tools: [
          {
            name: 'list_files',
            description: 'Lists files in a folder. Never deletes anything.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'sync_folder',
            description: 'Copies new files to the backup. Nothing is permanently removed.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
          {
            name: 'create_file',
            description: 'Creates a new file. Never overwrites an existing file: fails if the path exists.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
      },
      {
        title: 'Overwrite negated, named as an option, or said of something else',
        doc: false,
        tools: [
          { name: 'a', description: 'Writes the file. Does not overwrite existing files.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'b', description: 'Appends the lines without overwriting anything.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'c', description: "Copies the file; it won't overwrite the target.", inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'd', description: 'Existing entries are never overwritten.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'e', description: 'Creates the file. Overwrite protection is on by default.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'f', description: 'Set overwrite to true to replace an existing file.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'g', description: 'Saves the note. If a note with that title exists, it is overwritten.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'h', description: 'To overwrite a file, use write_file instead.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'i', description: 'Refreshes the index; overwrites the cached results.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'j', description: 'Whether to overwrite is decided by the server.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'k', description: 'Uploads the file, failing rather than overwriting.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'l', description: 'The sync job overwrites stale rows nightly.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
        ],
      },
      {
        title: 'Irreversible is not destructive',
        tools: [
          {
            name: 'send_email',
            description: 'Sends the email. This cannot be undone.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
        explanation: 'Sending only adds, so `destructiveHint: false` is right; irreversibility contradicts only `readOnlyHint: true`.',
      },
      {
        title: 'Sentences about something else',
        doc: false,
        tools: [
          {
            name: 'list_trash',
            description: 'Lists items in the trash. Items are permanently deleted after 30 days. To delete one now, use delete_item.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'check_migration',
            description: 'Checks whether a migration is irreversible before you run it.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'create_token',
            description: 'Creates a read-only token for the API.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
          {
            name: 'purge_cdn_cache',
            description: 'Purges cached content from the CDN. Origin data is not affected.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
          {
            name: 'fetch_page',
            description: 'Fetches a page and removes scripts from the HTML.',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true },
          },
        ],
      },
      {
        title: 'Absent hints and absent descriptions',
        doc: false,
        tools: [
          { name: 'purge', description: 'Permanently deletes everything.', inputSchema: { type: 'object' } },
          { name: 'peek', description: 'This tool is read-only.', inputSchema: { type: 'object' }, annotations: {} },
          { name: 'noop', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
      },
    ],
  },
  check(ctx) {
    const description = ctx.tool.obj?.description;
    if (typeof description !== 'string' || description.length === 0) return;
    const ro = readOnly(ctx.claims);
    const d = destructive(ctx.claims);
    // What a finding below can say: a deletion, overwrite or irreversible change against
    // readOnlyHint true or destructiveHint false, "read-only" against readOnlyHint false. A
    // description without a trigger word of those kinds is not scanned.
    if (!mayState(description, ro?.value === true || d?.value === false, ro?.value === false)) return;
    const matches = statedEffects(description);
    if (matches.length === 0) return;
    const pointer = ctx.at('/description');
    const said = (m: PhraseMatch) =>
      `The description says ${WHAT[m.kind]}: description (${pointer}) says ${quote(m.text)} at character ${m.index + 1}`;

    if (ro?.value === true) {
      const m = matches.find((x) => x.kind === 'deletion' || x.kind === 'overwrite' || x.kind === 'irreversible');
      if (m) {
        ctx.report({
          pointer,
          // What the description says (a deletion, "read-only"): two findings at /description are two.
          detail: m.kind,
          message: `${said(m)}, but ${sideOf(ro)} (heuristic)`,
          suggestion: `if the call can delete, overwrite or irreversibly change anything, set readOnlyHint to false; if the sentence is about something else (another tool, a retention policy), reword it so it does not read as this tool's effect`,
          related: [{ pointer: ro.pointer, message: 'readOnlyHint is true here' }],
        });
      }
    } else if (d?.value === false) {
      const m = matches.find((x) => (x.kind === 'deletion' || x.kind === 'overwrite') && !x.cache);
      if (m) {
        const verb = m.kind === 'overwrite' ? 'overwrite' : 'delete';
        ctx.report({
          pointer,
          // What the description says (a deletion, "read-only"): two findings at /description are two.
          detail: m.kind,
          message: `${said(m)}, but ${sideOf(d)}, which says its updates are only additive (heuristic)`,
          suggestion: `if the call can ${verb} data, set destructiveHint to true; otherwise reword the description so it does not say the tool ${verb}s`,
          related: [{ pointer: d.pointer, message: 'destructiveHint is false here' }],
        });
      }
    }

    if (ro?.value === false) {
      const m = matches.find((x) => x.kind === 'read-only');
      if (m) {
        ctx.report({
          pointer,
          // What the description says (a deletion, "read-only"): two findings at /description are two.
          detail: m.kind,
          message: `${said(m)}, but ${sideOf(ro)} (heuristic)`,
          suggestion: 'if the tool only reads, set readOnlyHint to true; otherwise take "read-only" out of the description',
          related: [{ pointer: ro.pointer, message: 'readOnlyHint is false here' }],
        });
      }
    }
  },
});
