/**
 * Visits every subschema of a JSON Schema without recursion (hostile inputs can be
 * nested thousands of levels deep), with the pointer of each.
 */
import { escapeSegment } from '../util/pointer.js';
import { isObject } from '../util/json.js';

const MAP_KEYWORDS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const ONE_KEYWORDS = ['additionalProperties', 'unevaluatedProperties', 'items', 'additionalItems', 'unevaluatedItems', 'contains', 'not', 'if', 'then', 'else', 'propertyNames'];

/** Calls visit(schema, pointer) for the root and every subschema that is an object. */
export function walkSchema(root: unknown, rootPointer: string, visit: (schema: Record<string, unknown>, pointer: string) => void, limit = 100_000): void {
  const stack: [unknown, string][] = [[root, rootPointer]];
  let seen = 0;
  while (stack.length > 0 && seen < limit) {
    const [schema, pointer] = stack.pop()!;
    if (!isObject(schema)) continue;
    seen++;
    visit(schema, pointer);
    const push = (value: unknown, p: string) => {
      if (isObject(value)) stack.push([value, p]);
    };
    for (const k of MAP_KEYWORDS) {
      const m = schema[k];
      if (isObject(m)) for (const name of Object.keys(m).reverse()) push(m[name], `${pointer}/${escapeSegment(k)}/${escapeSegment(name)}`);
    }
    for (const k of LIST_KEYWORDS) {
      const l = schema[k];
      if (Array.isArray(l)) for (let i = l.length - 1; i >= 0; i--) push(l[i], `${pointer}/${k}/${i}`);
    }
    for (const k of ONE_KEYWORDS) {
      const v = schema[k];
      if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) push(v[i], `${pointer}/${k}/${i}`);
      else push(v, `${pointer}/${k}`);
    }
  }
}
