import { defineRule } from '../src/rule.js';
import type { RepeatedKey } from '../src/types.js';
import { escapeSegment } from '../src/util/pointer.js';
import { quote } from '../src/util/text.js';

/** "twice", "3 times". */
const times = (n: number) => (n === 2 ? 'twice' : `${n} times`);

/** Where the object is, in words. */
function place(r: RepeatedKey): string {
  if (r.object === r.scope) return r.kind === 'tool' ? 'the tool' : r.initialize ? 'the initialize result' : r.page !== undefined ? `the tools/list result of page ${r.page}` : 'the tools/list result';
  if (r.object === `${r.scope}/annotations`) return `the tool's annotations (${r.object})`;
  if (r.object === `${r.scope}/_meta`) return `the tool's _meta (${r.object})`;
  return `the object at ${r.object}`;
}

export default defineRule({
  id: 'duplicate-key',
  severity: 'error',
  category: 'structure',
  packs: ['core'],
  summary: 'A tool, its annotations and _meta, and a tools/list result must not give a member name twice.',
  precision: 'very-high',
  security: 6.5,
  why: `JSON says member names SHOULD be unique (RFC 8259 §4), and leaves what a parser does with a
repeated one to the parser: JavaScript's \`JSON.parse\` keeps the last value, some parsers keep
the first, and strict ones (a Rust client deserialising into a struct with serde, for one)
refuse the whole message. So what a client believes about a tool depends on its parser:
\`{"readOnlyHint": false, …, "readOnlyHint": true}\` is a read-only tool to one client and a
writing one to another, and \`{"tools": [...], "tools": []}\` is a server with tools to one and an
empty one to the next. mcp-annotate reads the last value, as \`JSON.parse\` does, and lints what
that says; this rule says that another client may read something else.`,
  notes: `- Checked: every member of a tool, every object inside its \`annotations\` and \`_meta\` (at any
  depth), and the members of the tools/list result around the tools (\`tools\`, \`nextCursor\`, a
  snapshot's \`protocolVersion\` and \`serverInfo\`). Not checked: inside \`inputSchema\` and
  \`outputSchema\` (the input-schema rules read those as JSON.parse does) and the objects around
  the result (a JSON-RPC response, a \`{"servers": [...]}\` file).
- One finding per repeated name, at its last occurrence (the value mcp-annotate reads), with the
  first occurrence as the related location. When every copy is the same JSON value (compared as
  values, not as text: member order, whitespace, string escapes such as \`"\\u0061"\` for \`"a"\`
  and number spellings such as \`1.0\` for \`1\` do not count), clients that accept the message
  agree on it, and the finding is a warning: a strict client still refuses it. An earlier copy
  that itself gives a name twice with different values (\`{"readOnlyHint": false, "readOnlyHint":
  true}\` before \`{"readOnlyHint": true}\`) is not the same value as the last: a parser that
  keeps the first reads another one. Otherwise it is
  an error, and the message shows the first and the last value as written. The baseline key
  says which (\`"detail": "same"\` or \`"different"\`): an accepted warning does not cover the
  error when the copies come to differ.
- Inside a member that is itself given again (a tool's \`annotations\` twice), only that member is
  reported: what its earlier copy holds is not what mcp-annotate reads.
- Dumps, session transcripts and live servers are checked. A live server's \`tools/list\`
  responses are scanned as they came (the stdio line; the HTTP body or event), each tool at the
  place the run and its snapshot give it (\`/tools/k\`, whichever page it came on), with every
  page's \`tools\` (the message names the page of a listing of several) and the first page's own
  members that the snapshot keeps (\`_meta\`, …; not a \`serverInfo\` or \`nextCursor\` that the
  snapshot does not hold as the page gave it). Its \`initialize\` response too, for the members the
  snapshot takes from it (\`protocolVersion\`, \`capabilities\`, \`serverInfo\`): a
  \`protocolVersion\` given twice is one spec version to a client that keeps the first and another
  to one that keeps the last. The target's secrets are hidden
  in the names and values shown. \`mcp-annotate dump\` and \`--save-snapshots\` write the parsed
  listing, where each name stands once: linting such a file later cannot see a repeat, and a
  finding of a live run points at the one place the file gives the name.`,
  examples: {
    incorrect: [
      {
        title: 'readOnlyHint given twice, with different values',
        text: `{
  "tools": [
    {
      "name": "send_email",
      "description": "Sends an email to any address.",
      "inputSchema": { "type": "object" },
      "annotations": {
        "readOnlyHint": false,
        "destructiveHint": false,
        "openWorldHint": true,
        "readOnlyHint": true
      }
    }
  ]
}`,
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
        explanation: 'mcp-annotate, like `JSON.parse`, reads `readOnlyHint: true`; a client whose parser keeps the first value reads `false`.',
      },
      {
        title: 'The tools array given twice',
        text: `{
  "tools": [
    { "name": "delete_repo", "inputSchema": { "type": "object" }, "annotations": { "readOnlyHint": false, "destructiveHint": true } }
  ],
  "tools": []
}`,
        findings: [{ pointer: '/tools' }],
      },
      {
        title: 'The same value twice, deep in _meta',
        text: `{
  "tools": [
    {
      "name": "get_weather",
      "inputSchema": { "type": "object" },
      "annotations": { "readOnlyHint": true, "openWorldHint": true },
      "_meta": { "io.modelcontextprotocol/action-metadata": { "outcome": { "kind": "read", "kind": "read" } } }
    }
  ]
}`,
        findings: [{ pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/outcome/kind', severity: 'warning' }],
      },
      {
        title: 'annotations given twice: only the member is reported',
        doc: false,
        text: `{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"readOnlyHint":false},"annotations":{"readOnlyHint":true,"title":"A","title":"B","title":"C"}}]}`,
        findings: [{ pointer: '/tools/0/annotations' }, { pointer: '/tools/0/annotations/title' }],
      },
      {
        title: 'A repeated name in a session transcript',
        doc: false,
        text: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}
{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","name":"b","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}}
`,
        findings: [{ pointer: '/1/result/tools/0/name' }],
      },
    ],
    correct: [
      {
        title: 'Each name once (inputSchema is left to the input-schema rules)',
        text: `{
  "tools": [
    {
      "name": "get_weather",
      "inputSchema": { "type": "object", "type": "object" },
      "annotations": { "readOnlyHint": true, "openWorldHint": true }
    }
  ]
}`,
      },
    ],
  },
  checkServer(ctx) {
    if (ctx.repeatedKeys.length === 0) return;
    const tools = new Map(ctx.tools.map((t) => [t.tool.pointer, t.tool]));
    for (const r of ctx.repeatedKeys) {
      const tool = r.kind === 'tool' ? tools.get(r.scope) : undefined;
      const pointer = `${r.object}/${escapeSegment(r.key)}`;
      const values = r.values && !r.same ? ` (first ${r.values[0]}, last ${r.values[1]})` : '';
      const message = r.same
        ? `${quote(r.key)} is given ${times(r.count)} in ${place(r)}, each time with the same value; JSON leaves a repeated name to the parser, and a strict client refuses the message`
        : `${quote(r.key)} is given ${times(r.count)} in ${place(r)}, with different values${values}: mcp-annotate, like JSON.parse, reads the last one, but a client whose parser keeps the first reads the other, and a strict one refuses the message`;
      ctx.report({
        ...(tool ? { tool } : {}),
        pointer,
        message,
        ...(r.same ? { severity: 'warning' as const } : {}),
        // In the baseline key: an accepted "same value" warning does not cover a later "different values" error there.
        detail: r.same ? 'same' : 'different',
        suggestion: `give ${quote(r.key)} once, with the value the ${r.kind === 'tool' ? 'tool' : 'server'} means`,
        related: [{ pointer, message: `first ${quote(r.key)}`, occurrence: 0, ...(tool ? { tool } : {}) }],
      });
    }
  },
});
