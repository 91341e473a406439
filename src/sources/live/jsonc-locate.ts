/**
 * Positions in client config files, which are JSON with comments and trailing commas
 * (VS Code, Zed, opencode): a Locator over jsonc-parser's syntax tree. Config files are
 * small, so building the tree is cheap.
 */
import { parseTree, type Node } from 'jsonc-parser';
import type { Located, Locator } from '../../types.js';
import { lineColumn } from '../parse.js';
import { parent, split } from '../../util/pointer.js';

/** The node at a pointer (object keys by name, array items by index). */
function nodeAt(root: Node, pointer: string): Node | undefined {
  let node: Node | undefined = root;
  for (const segment of split(pointer)) {
    if (node?.type === 'object') node = node.children?.find((p) => p.children?.[0]?.value === segment)?.children?.[1];
    else if (node?.type === 'array' && /^(0|[1-9]\d*)$/.test(segment)) node = node.children?.[Number(segment)];
    else return undefined;
  }
  return node;
}

export function createJsoncLocator(text: string): Locator {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  const at = (offset: number) => lineColumn(text, offset);
  return {
    locate(pointers: Iterable<string>): Map<string, Located> {
      const out = new Map<string, Located>();
      if (!root) return out;
      for (const requested of pointers) {
        let pointer = requested;
        let node: Node | undefined;
        for (;;) {
          node = nodeAt(root, pointer);
          if (node || pointer === '') break;
          pointer = parent(pointer);
        }
        if (!node) continue;
        const container = node.type === 'object' || node.type === 'array';
        const key = node.parent?.type === 'property' ? node.parent.children?.[0] : undefined;
        const start = at(key?.offset ?? node.offset);
        const valueStart = at(node.offset);
        const valueEnd = at(node.offset + node.length);
        const regionEnd = container ? { line: valueStart.line, column: valueStart.column + 1 } : valueEnd;
        out.set(requested, {
          pointer,
          line: start.line,
          column: start.column,
          endLine: regionEnd.line,
          endColumn: regionEnd.column,
          valueOffset: node.offset,
          valueLength: node.length,
          valueLine: valueStart.line,
          valueColumn: valueStart.column,
          valueEndLine: valueEnd.line,
          valueEndColumn: valueEnd.column,
        });
      }
      return out;
    },
  };
}
