import { defineRule, type ServerRef } from '../src/rule.js';
import type { ToolView } from '../src/packs/types.js';
import { quote } from '../src/util/text.js';

export default defineRule({
  id: 'cross-server-name-collision',
  severity: 'note',
  category: 'server',
  packs: ['core'],
  summary: 'Servers loaded together should not expose tools with the same name.',
  precision: 'very-high',
  security: 4.0,
  why: `Tool names are unique within a server, not across servers. A client that loads
several servers and merges their tool lists into one has to do something with two tools
called \`search\`, and clients disagree: some keep the last one registered, some the
first, some refuse to start, some prefix every name with its server. Where a name is
shadowed, the model sees one description and the call goes to the other server's tool —
or one server's tool is simply unreachable.

The same mechanism is an attack: *tool shadowing* is a server registering a tool under
the name of a trusted server's tool so that calls meant for one go to the other. Even
in clients that namespace names, two tools with one name make it harder for the model
and for a person approving the call to tell which server will run it.`,
  notes: `- **Scope.** Only between servers linted in one run (a client config, or several
  dumps passed together). Two tools of one name within a server are
  [tool-name-unique](tool-name-unique.md)'s; here each name counts once per server.
- **Where.** By content, not by order: of the servers that expose a name, the one whose
  name sorts first (by code point) is the one the others are reported against, and the
  finding sits on the \`name\` of the tool in each other server, pointing at that first
  server's tool. When three servers share a name, the second and third (by name) are each
  reported against the first. Reordering the servers of a file, or the files of a run,
  moves no finding (and so changes no baseline entry or SARIF fingerprint); servers with
  the same name keep the order the engine sorts them in (by source).
- **Exact comparison.** Names are compared as written: the spec says to treat
  them as case-sensitive, and clients that merge lists key them exactly. Tools without a string
  name are skipped.
- **A note, not a warning.** Many clients namespace tool names by server, and a collision
  is often harmless there; where it is not, which of the two servers should rename is a
  choice the linter cannot make. Two snapshots of the *same* server linted together
  collide on every tool: lint versions of one server separately.`,
  examples: {
    incorrect: [
      {
        title: 'Two servers that both expose "search"',
        servers: [
          {
            serverInfo: { name: 'github' },
            tools: [{ name: 'search', inputSchema: { type: 'object', properties: { query: { type: 'string' } } }, annotations: { readOnlyHint: true } }],
          },
          {
            serverInfo: { name: 'filesystem' },
            tools: [
              { name: 'read_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
              { name: 'search', inputSchema: { type: 'object', properties: { pattern: { type: 'string' } } }, annotations: { readOnlyHint: true } },
            ],
          },
        ],
        findings: [{ pointer: '/servers/0/tools/0/name' }],
      },
      {
        title: 'Three servers with one name; a duplicate within a server counts once',
        doc: false,
        servers: [
          { serverInfo: { name: 'a' }, tools: [{ name: 'run', inputSchema: { type: 'object' } }] },
          {
            serverInfo: { name: 'b' },
            tools: [
              { name: 'run', inputSchema: { type: 'object' } },
              { name: 'run', inputSchema: { type: 'object' } },
            ],
          },
          { serverInfo: { name: 'c' }, tools: [{ name: 'status', inputSchema: { type: 'object' } }, { name: 'run', inputSchema: { type: 'object' } }] },
        ],
        findings: [{ pointer: '/servers/1/tools/0/name' }, { pointer: '/servers/2/tools/1/name' }],
      },
    ],
    correct: [
      {
        title: 'Server-specific names',
        servers: [
          {
            serverInfo: { name: 'github' },
            tools: [{ name: 'search_issues', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
          },
          {
            serverInfo: { name: 'filesystem' },
            tools: [{ name: 'search_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
          },
        ],
      },
      {
        title: 'A duplicate within one server is tool-name-unique’s, not this rule’s',
        doc: false,
        tools: [
          { name: 'search', inputSchema: { type: 'object' } },
          { name: 'search', inputSchema: { type: 'object' } },
        ],
      },
      {
        title: 'Names that differ only in case are different names',
        doc: false,
        servers: [
          { serverInfo: { name: 'a' }, tools: [{ name: 'Search', inputSchema: { type: 'object' } }] },
          { serverInfo: { name: 'b' }, tools: [{ name: 'search', inputSchema: { type: 'object' } }] },
        ],
      },
    ],
  },
  checkRun(ctx) {
    // One server cannot collide with another (its own duplicates are tool-name-unique's).
    if (ctx.servers.length < 2) return;
    // Every server that exposes each name (once per server: its own duplicates are
    // tool-name-unique's), then the one reported against chosen by content — the server whose
    // name sorts first — so the order of the servers (in a file, or of the files) moves nothing.
    const byName = new Map<string, { server: ServerRef; tool: ToolView }[]>();
    for (const s of ctx.servers) {
      const seenHere = new Set<string>();
      for (const { tool } of s.tools) {
        if (!tool.hasName || seenHere.has(tool.name)) continue;
        seenHere.add(tool.name);
        const list = byName.get(tool.name);
        if (list) list.push({ server: s.server, tool });
        else byName.set(tool.name, [{ server: s.server, tool }]);
      }
    }
    for (const list of byName.values()) {
      if (list.length < 2) continue;
      // Stable: servers of one name keep the engine's order (their findings have one key whichever is first).
      const sorted = [...list].sort((a, b) => (a.server.name < b.server.name ? -1 : a.server.name > b.server.name ? 1 : 0));
      const earlier = sorted[0]!;
      for (const { server, tool } of sorted.slice(1)) {
        const there = `${earlier.tool.pointer}/name`;
        ctx.report({
          server,
          tool,
          pointer: `${tool.pointer}/name`,
          message:
            `server ${quote(server.name)} exposes a tool named ${quote(tool.name)}, and so does server ${quote(earlier.server.name)} (${there}): ` +
            `a client that merges both tool lists shows the model two tools of one name, and may call the wrong one or drop one`,
          suggestion: `give one of the two a server-specific name (e.g. ${quote(`${server.name}_${tool.name}`.replace(/[^A-Za-z0-9_.-]/g, '_'))}), or load the servers in a client that prefixes tool names with the server`,
          related: [
            {
              pointer: there,
              message: `server ${quote(earlier.server.name)} exposes ${quote(tool.name)} here`,
              tool: earlier.tool,
              serverId: earlier.server.id,
            },
          ],
        });
      }
    }
  },
});
