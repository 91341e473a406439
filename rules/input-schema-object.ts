import { defineRule } from '../src/rule.js';
import { typeName } from '../src/schema/explain.js';
import { isObject } from '../src/util/json.js';
import { quote } from '../src/util/text.js';

export default defineRule({
  id: 'input-schema-object',
  severity: 'error',
  category: 'structure',
  packs: ['core'],
  summary: 'A tool needs an inputSchema whose root "type" is "object".',
  precision: 'very-high',
  why: `Every MCP spec version requires \`inputSchema\`, and requires its root to be
\`"type": "object"\`: tool arguments are always a JSON object. Clients build argument
forms, validate model output and convert the schema for model APIs from this root; a
tool without it, or with a root of another type, is rejected by strict clients and
SDKs, and a model handed such a schema guesses the arguments.

Even a tool that takes no arguments needs \`"inputSchema": {"type": "object"}\`.`,
  notes: `- This rule owns the root of \`inputSchema\`: a missing \`inputSchema\`, one that is not an
  object (\`true\`, a string), and a root \`type\` that is missing, another type, or a list of
  types (\`["object", "null"]\`, which the spec does not allow either). The core schema
  problems at those places are not repeated by [schema-valid](schema-valid.md).
- A mechanical fix is offered only where it cannot change meaning: \`"Object"\` in another
  case, and a list of types that includes \`"object"\` (tool arguments are never null, so
  \`"object"\` alone says the same). For a root of another type the tool's arguments
  must be redesigned (wrap the value in an object property), so there is no fix.
- Whether the rest of the schema is valid JSON Schema is
  [input-schema-valid](input-schema-valid.md)'s.`,
  examples: {
    incorrect: [
      {
        title: 'No inputSchema',
        tools: [{ name: 'get_time', description: 'Current server time.', annotations: { readOnlyHint: true } }],
        findings: [{ pointer: '/tools/0' }],
        explanation: 'A tool without arguments still needs `"inputSchema": {"type": "object"}`.',
      },
      {
        title: 'A root type that also allows null',
        tools: [{ name: 'search', inputSchema: { type: ['object', 'null'], properties: { query: { type: 'string' } } }, annotations: { readOnlyHint: true } }],
        findings: [{ pointer: '/tools/0/inputSchema/type' }],
      },
      {
        title: 'A schema without a root type',
        tools: [{ name: 'search', inputSchema: { properties: { query: { type: 'string' } } }, annotations: { readOnlyHint: true } }],
        findings: [{ pointer: '/tools/0/inputSchema' }],
      },
      {
        title: 'A string root',
        doc: false,
        tools: [{ name: 'echo', inputSchema: { type: 'string' } }],
        findings: [{ pointer: '/tools/0/inputSchema/type' }],
      },
      {
        title: 'inputSchema is not an object',
        doc: false,
        tools: [{ name: 'echo', inputSchema: true }],
        findings: [{ pointer: '/tools/0/inputSchema' }],
      },
      {
        title: '"Object" in another case (with a fix)',
        doc: false,
        tools: [{ name: 'echo', inputSchema: { type: 'Object' } }],
        findings: [{ pointer: '/tools/0/inputSchema/type' }],
      },
    ],
    correct: [
      {
        title: 'An object root with properties',
        tools: [
          {
            name: 'search',
            inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
            annotations: { readOnlyHint: true },
          },
        ],
      },
      {
        title: 'A tool without arguments',
        tools: [{ name: 'get_time', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
      },
    ],
  },
  check(ctx) {
    const tool = ctx.tool.obj;
    if (!tool) return;
    if (!Object.prototype.hasOwnProperty.call(tool, 'inputSchema')) {
      ctx.report({
        pointer: ctx.tool.pointer,
        message: 'the tool has no inputSchema; MCP requires one, with "type": "object" at the root, even for a tool that takes no arguments',
        suggestion: 'add "inputSchema": {"type": "object"} (with "properties" for its arguments)',
      });
      return;
    }
    const schema = tool.inputSchema;
    if (!isObject(schema)) {
      ctx.report({
        pointer: ctx.at('/inputSchema'),
        message: `inputSchema is ${typeName(schema)} (${quote(schema)}); MCP requires a JSON Schema object with "type": "object" at the root`,
        suggestion: 'make it {"type": "object", "properties": {…}}',
      });
      return;
    }
    if (!Object.prototype.hasOwnProperty.call(schema, 'type')) {
      ctx.report({
        pointer: ctx.at('/inputSchema'),
        message: 'inputSchema has no "type"; MCP requires "type": "object" at its root (tool arguments are always a JSON object)',
        suggestion: 'add "type": "object" to inputSchema',
      });
      return;
    }
    const type = schema.type;
    if (type === 'object') return;
    const pointer = ctx.at('/inputSchema/type');
    const fix = { description: 'Set inputSchema.type to "object"', replacements: [{ pointer, text: '"object"' }] };
    if (typeof type === 'string' && type.toLowerCase() === 'object') {
      ctx.report({
        pointer,
        message: `inputSchema.type is ${quote(type)}; JSON Schema type names are lower case, and MCP requires "object"`,
        suggestion: 'write "object"',
        fix,
      });
    } else if (Array.isArray(type)) {
      const hasObject = type.includes('object');
      ctx.report({
        pointer,
        message: `inputSchema.type is a list of types (${quote(type)}); MCP requires exactly "object" at the root${hasObject ? ', and tool arguments are never null or another type' : ''}`,
        suggestion: hasObject ? 'write "type": "object"' : 'make the root "type": "object" and put the value in a property',
        ...(hasObject ? { fix } : {}),
      });
    } else {
      ctx.report({
        pointer,
        message: `inputSchema.type is ${quote(type)}; MCP requires "object" at the root, since tool arguments are always a JSON object`,
        suggestion: typeof type === 'string' ? `make the root {"type": "object"} and describe the ${type} as one of its properties` : 'write "type": "object"',
      });
    }
  },
});
