import { defineRule, type ToolContext } from '../src/rule.js';
import { quote } from '../src/util/text.js';

/** Same JSON value (key order ignored), compared without recursion. */
function sameJson(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object' || Array.isArray(x) !== Array.isArray(y)) return false;
    const kx = Object.keys(x);
    const ky = Object.keys(y);
    if (kx.length !== ky.length) return false;
    for (const k of kx) {
      if (!Object.prototype.hasOwnProperty.call(y, k)) return false;
      stack.push([(x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k]]);
    }
  }
  return true;
}

export default defineRule({
  id: 'tool-name-unique',
  severity: 'error',
  category: 'structure',
  packs: ['core'],
  summary: 'Two tools of one server must not share a name.',
  precision: 'very-high',
  security: 5.0,
  why: `A client calls a tool by its name. When two tools of one server share a name, which
one \`tools/call\` runs is up to the server, while the client shows the user — and asks
approval for — whichever definition it kept. A read-only \`export\` listed before a
destructive \`export\` is the approval prompt of one and the behaviour of the other.
Clients that key tools by name silently drop one of them.`,
  notes: `- Names are compared exactly, as the spec says they are case-sensitive: \`getUser\` and
  \`getuser\` are two names.
- The second and every later tool with a name is reported, at its \`name\`, with the first
  one as the related location. When the duplicate definitions are identical (a server that
  registered one tool twice, or pages of a listing that overlap), the message says so.
- Tools without a string name, or with an empty one, are left to
  [schema-valid](schema-valid.md) and [tool-name-format](tool-name-format.md).
- The same name on two *different* servers is
  [cross-server-name-collision](cross-server-name-collision.md)'s.`,
  examples: {
    incorrect: [
      {
        title: 'Two tools called "export"',
        tools: [
          { name: 'export', description: 'Export a report as CSV.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'export', description: 'Export and delete the source data.', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true } },
        ],
        findings: [{ pointer: '/tools/1/name' }],
      },
      {
        title: 'The same tool listed three times',
        doc: false,
        tools: [
          { name: 'ping', inputSchema: { type: 'object' } },
          { name: 'ping', inputSchema: { type: 'object' } },
          { name: 'ping', inputSchema: { type: 'object' } },
        ],
        findings: [{ pointer: '/tools/1/name' }, { pointer: '/tools/2/name' }],
      },
    ],
    correct: [
      {
        title: 'Distinct names (case matters)',
        tools: [
          { name: 'getUser', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'getuser', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
      },
    ],
  },
  checkServer(ctx) {
    const first = new Map<string, ToolContext<Record<string, never>>>();
    for (const t of ctx.tools) {
      if (!t.tool.hasName) continue;
      const name = t.tool.name;
      const earlier = first.get(name);
      if (!earlier) {
        first.set(name, t);
        continue;
      }
      const identical = sameJson(earlier.tool.value, t.tool.value);
      ctx.report({
        tool: t.tool,
        pointer: `${t.tool.pointer}/name`,
        message: `tool name ${quote(name)} is already used by the tool at ${earlier.tool.pointer}${identical ? ' (the two definitions are identical)' : ''}; a client cannot tell which one tools/call runs`,
        suggestion: identical ? 'list the tool once' : 'give each tool its own name, or remove the one the server does not really serve',
        related: [{ pointer: `${earlier.tool.pointer}/name`, message: `first tool named ${quote(name)}`, tool: earlier.tool }],
      });
    }
  },
});
