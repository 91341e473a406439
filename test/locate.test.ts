/**
 * The locator against jsonc-parser's syntax tree: for generated JSON documents in
 * several layouts, every pointer maps to the same key, value and end positions.
 */
import fc from 'fast-check';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import { createLocator } from '../src/sources/locate.js';
import { lineColumn } from '../src/sources/parse.js';
import { get, join, split } from '../src/util/pointer.js';
import { assertProperty } from './helpers/property.js';

function pointersOf(value: unknown, base = ''): string[] {
  const out = [base];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pointersOf(v, join(base, i))));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pointersOf(v, join(base, k)));
  return out;
}

/** What the locator should say, computed from jsonc-parser's tree. */
function expected(text: string, tree: Node, value: unknown, pointer: string) {
  // jsonc-parser paths use numbers for array items and strings for members (even "0").
  const path: (string | number)[] = [];
  let current = value;
  for (const segment of split(pointer)) {
    const isArray = Array.isArray(current);
    path.push(isArray ? Number(segment) : segment);
    current = (current as Record<string, unknown>)[segment];
  }
  const node = findNodeAtLocation(tree, path)!;
  const key = node.parent?.type === 'property' ? node.parent.offset : node.offset;
  const container = node.type === 'object' || node.type === 'array';
  const start = lineColumn(text, key);
  const at = lineColumn(text, node.offset);
  const end = lineColumn(text, node.offset + node.length);
  return {
    line: start.line,
    column: start.column,
    endLine: container ? at.line : end.line,
    endColumn: container ? at.column + 1 : end.column,
    valueOffset: node.offset,
    valueLength: node.length,
    valueLine: at.line,
    valueColumn: at.column,
    valueEndLine: end.line,
    valueEndColumn: end.column,
  };
}

// Keys and strings with quotes, backslashes, slashes, tildes and non-ASCII, the cases a scanner gets wrong, and
// member names that read as array indexes (the request tree keeps those with array items).
const tricky = fc.oneof(fc.string(), fc.constantFrom('a"b', 'back\\slash', 'ends\\', 'x/y~z', '', 'üñí', '\u2028', '\\"', '{[', '"]}', '0', '1', '01', '12'));
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer(), tricky, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(tricky, tie('value'), { maxKeys: 5 }),
})).value;

/**
 * A document written with what the scanners have to step over: runs of spaces, comments, CR LF,
 * and earlier copies of members (JSON.parse keeps the last, written last here), some of them
 * large, so that the duplicate-key scan notes where they end. Choices come from `seed`.
 */
function writeHostile(value: unknown, seed: number, pad: number): string {
  let state = seed >>> 0 || 1;
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
  const space = () => ['', ' '.repeat(next(pad + 1)), '/* c */', '\n', '\r\n', '\r'][next(6)]!;
  const write = (v: unknown): string => {
    if (Array.isArray(v)) return `[${v.map((x) => space() + write(x) + space()).join(',')}]`;
    if (v === null || typeof v !== 'object') return JSON.stringify(v);
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v)) {
      if (next(3) === 0) parts.push(`${space()}${JSON.stringify(k)}:${space()}${write(next(2) ? { decoy: [1, { k: 2 }], pad: 'x'.repeat(next(200)) } : x)}`);
      parts.push(`${space()}${JSON.stringify(k)}${space()}:${space()}${write(x)}${space()}`);
    }
    return `{${parts.join(',')}}`;
  };
  return write(value);
}

describe('locator', () => {
  it('finds the same positions after the duplicate-key scan noted where containers end (the skip table)', () => {
    assertProperty(
      fc.property(json, fc.integer(), fc.nat(300), (value, seed, pad) => {
        const text = writeHostile(value, seed, pad);
        const pointers = pointersOf(value);
        // Some pointers that are not there, and earlier copies of members given twice.
        for (const p of pointers.slice(0, 3)) pointers.push(`${p}/missing`, `${p}/7`);
        const occurrences = pointers.map((_, i) => (i % 4 === 1 ? i % 3 : undefined));
        // Every other object of the document is a tool, and the root a tools/list result.
        const objects = pointersOf(value).filter((p) => {
          const v = get(value, p);
          return v !== null && typeof v === 'object' && !Array.isArray(v);
        });
        const scopes = objects.filter((p, i) => i % 2 === 0 || p === '').map((pointer) => ({ pointer, scope: pointer === '' ? ('envelope' as const) : ('tool' as const) }));
        const plain = createLocator(text).locateAll(pointers, occurrences);
        const scanned = createLocator(text);
        scanned.repeatedKeys!(scopes);
        expect(scanned.locateAll(pointers, occurrences), text).toEqual(plain);
        // A second locateAll on the same locator reads the table from its start again.
        expect(scanned.locateAll(pointers.slice().reverse()), text).toEqual(createLocator(text).locateAll(pointers.slice().reverse()));
      }),
      { numRuns: 300 },
    );
  });


  it('agrees with jsonc-parser on every pointer of generated documents', () => {
    assertProperty(
      fc.property(json, fc.constantFrom(0, 2, '\t', 4), fc.constantFrom('\n', '\r\n', '\r'), (value, indent, eol) => {
        let text = JSON.stringify(value, null, indent);
        if (eol !== '\n') text = text.replace(/\n/g, eol);
        const tree = parseTree(text)!;
        const pointers = pointersOf(value);
        const located = createLocator(text).locateAll(pointers);
        pointers.forEach((p, i) => {
          const got = located[i]!;
          const { pointer: _found, ...rest } = got;
          expect(rest, `${p} in ${text}`).toEqual(expected(text, tree, value, p));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('reads JSON with comments and trailing commas (client config files) the way jsonc-parser does', () => {
    const text = [
      '// VS Code MCP servers {"not": [a value]}',
      '{',
      '  /* the "inputs" come first, } ] */ "inputs": [],',
      '  "servers": {',
      '    "files": { // stdio, "quoted" {',
      '      "command": "npx", /* [ */',
      '      "args": ["-y", "server-filesystem", "${workspaceFolder}",],',
      '    },',
      '    "web": {"url": "https://example.com/mcp"/**/},',
      '  },',
      '}',
    ].join('\n');
    const tree = parseTree(text, [], { allowTrailingComma: true, disallowComments: false })!;
    const value = { inputs: [], servers: { files: { command: 'npx', args: ['-y', 'server-filesystem', '${workspaceFolder}'] }, web: { url: 'https://example.com/mcp' } } };
    const pointers = pointersOf(value);
    const located = createLocator(text).locateAll(pointers);
    pointers.forEach((p, i) => {
      const { pointer: _found, ...rest } = located[i]!;
      expect(rest, p).toEqual(expected(text, tree, value, p));
    });
  });

  it('places values that start on a later line than their key, and literals and containers that span lines', () => {
    const text = ['{', '  "a":', '    1,', '  "b"', '  :', '  "x",', '  "c":\r\n    {"d": [', '      true', '    ]},', '  "e": "one line"', '}'].join('\n');
    const tree = parseTree(text)!;
    const value = { a: 1, b: 'x', c: { d: [true] }, e: 'one line' };
    const pointers = pointersOf(value);
    const located = createLocator(text).locateAll(pointers);
    pointers.forEach((p, i) => {
      const { pointer: _found, ...rest } = located[i]!;
      expect(rest, p).toEqual(expected(text, tree, value, p));
    });
    expect(located[pointers.indexOf('/a')]).toMatchObject({ line: 2, valueLine: 3 });
  });

  it('counts a lone CR as a line break, as CR LF and LF are (old Mac line ends; SARIF and editors count all three)', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = ['{', '  "tools": [', '    {"name": "a", // a comment that ends at the line end', '     "annotations": {"readOnlyHint": "yes"}}', '  ]', '}'].join(eol);
      const [hint] = createLocator(text).locateAll(['/tools/0/annotations/readOnlyHint']);
      expect(hint, JSON.stringify(eol)).toMatchObject({ line: 4, column: 22, valueLine: 4, valueColumn: 38 });
      expect(lineColumn(text, text.indexOf('"yes"'))).toEqual({ line: 4, column: 38 });
    }
    // An offset inside a CR LF is on the line that it ends; a mix of line ends counts each.
    expect(lineColumn('a\r\nb', 2)).toEqual({ line: 1, column: 3 });
    expect(lineColumn('a\rb\nc\r\nd', 7)).toEqual({ line: 4, column: 1 });
  });

  it('maps a missing pointer to its nearest existing ancestor', () => {
    const text = '{\n  "tools": [\n    {"name": "a", "annotations": {}}\n  ]\n}';
    const [missing, deeper] = createLocator(text).locateAll(['/tools/0/annotations/readOnlyHint', '/nope/deeper']);
    expect(missing).toMatchObject({ pointer: '/tools/0/annotations', line: 3, column: 19 });
    expect(deeper).toMatchObject({ pointer: '', line: 1, column: 1 });
  });

  it('locateAll answers in the order asked, for repeats, missing pointers and numeric keys alike', () => {
    assertProperty(
      fc.property(json, fc.array(fc.nat(), { maxLength: 30 }), (value, picks) => {
        const text = JSON.stringify(value, null, 2);
        const existing = pointersOf(value);
        // Existing pointers, repeated, and some that go past a value or name no member.
        const candidates = [...existing, ...existing.map((p) => `${p}/0`), ...existing.map((p) => `${p}/~0missing~1`)];
        const pointers = picks.map((i) => candidates[i % candidates.length]!);
        const locator = createLocator(text);
        const all = locator.locateAll(pointers);
        expect(all).toHaveLength(pointers.length);
        pointers.forEach((p, i) => {
          // One pointer asked alone, by a fresh locator, is found at the same place.
          expect(createLocator(text).locateOne(p), p).toEqual(all[i]);
          expect(locator.locateOne(p), p).toEqual(all[i]);
        });
      }),
      { numRuns: 200 },
    );
    const text = '{"0": {"a": 1}, "list": [10, 20]}';
    expect(createLocator(text).locateAll(['/list/1', '/0/a', '/list/1', '/list/01'])).toMatchObject([
      { pointer: '/list/1', valueOffset: 29 },
      { pointer: '/0/a', valueOffset: 12 },
      { pointer: '/list/1', valueOffset: 29 },
      // "01" is no array index: the nearest existing ancestor.
      { pointer: '/list', valueOffset: 24 },
    ]);
  });

  it('of a member given twice, finds the last one, the value JSON.parse keeps, and nothing of the earlier one', () => {
    const text = '{\n  "a": {"x": 1, "y": [1, 2]},\n  "b": 0,\n  "a": {"y": [3]}\n}';
    const value = JSON.parse(text) as { a: Record<string, unknown> };
    expect(value.a).toEqual({ y: [3] });
    const [a, y, y1, x, y0] = createLocator(text).locateAll(['/a', '/a/y', '/a/y/1', '/a/x', '/a/y/0']);
    expect(a).toMatchObject({ pointer: '/a', line: 4, column: 3 });
    expect(y).toMatchObject({ pointer: '/a/y', line: 4, column: 9 });
    // Only the earlier "a" has "x" and a second item of "y": the nearest ancestor of the last one.
    expect(y1).toMatchObject({ pointer: '/a/y', line: 4, column: 9 });
    expect(x).toMatchObject({ pointer: '/a', line: 4, column: 3 });
    expect(y0).toMatchObject({ pointer: '/a/y/0', line: 4, column: 15 });
    // The same for an object given twice around the member.
    const outer = '{"s": {"k": {"v": 1}}, "s": {"j": 2, "k": {"w": 1}}}';
    expect(createLocator(outer).locateAll(['/s/k/v', '/s/k/w', '/s/j'])).toMatchObject([
      { pointer: '/s/k', valueOffset: outer.lastIndexOf('{"w"') },
      { pointer: '/s/k/w', valueOffset: outer.lastIndexOf('1') },
      { pointer: '/s/j', valueOffset: outer.indexOf('2') },
    ]);
  });

  it('skips and enters deeply nested values without recursion', () => {
    const depth = 100_000;
    const text = '{"deep": ' + '['.repeat(depth) + '1' + ']'.repeat(depth) + ', "after": true}';
    const [after, deep] = createLocator(text).locateAll(['/after', '/deep/0/0']);
    expect(after).toMatchObject({ line: 1, column: depth * 2 + 13 });
    expect(deep).toMatchObject({ line: 1, column: 12, valueLength: (depth - 2) * 2 + 1 });
    expect(createLocator(text).locateOne('/deep' + '/0'.repeat(4_999))).toMatchObject({ line: 1, column: 10 + 4_999 });
  });
});
