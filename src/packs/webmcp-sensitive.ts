/**
 * webmcp-sensitive: the WebMCP sensitiveHint proposal — a boolean
 * annotations.sensitiveHint, "x-sensitive": true on outputSchema properties at any
 * depth, and secret_reference results (documented in the outputSchema).
 */
import { generated } from '../schema/generated.js';
import { newClaim, type Claim } from '../engine/claims.js';
import { dialectOf, nodePointer, walkSubschemas } from '../schema/json-schema.js';
import { isObject } from '../util/json.js';
import { fieldPath } from '../util/pointer.js';
import { quote } from '../util/text.js';
import type { Pack, PackEnv, SchemaProblem, ToolView } from './types.js';
import { checkVocabulary } from './vocabulary.js';
import { readsOutputSchema } from './core.js';

const validate = generated('webmcp-sensitive').ToolAnnotations!;

/** SEP-1913's first draft used sensitiveHint for a level; draft-field reports that form. */
export const DRAFT_SENSITIVE_LEVELS = ['low', 'medium', 'high'];
const KEYS = ['sensitiveHint'];
const recognised = (_k: string, v: unknown) => typeof v === 'boolean';
const expected = () => 'a boolean';

/** What to write in place of a SEP-1913 first-draft level, which WebMCP reads as no boolean. */
function levelSuggestion(v: unknown, sep1913: boolean): string {
  return (
    `WebMCP's sensitiveHint is true or false: write true if the tool's output must be kept out of the model's context; ${quote(v)} is a sensitivity level of an early SEP-1913 draft` +
    (sep1913 ? ' (draft-field says what replaced it)' : ', which SEP-1913 replaced with data classes in returnMetadata.sensitivity')
  );
}

export const webmcpSensitivePack: Pack = {
  id: 'webmcp-sensitive',
  title: 'WebMCP sensitive outputs',
  source: '../shared/seeds/002_994c6ebef8e679ab.txt (WebMCP sensitiveHint proposal)',
  location: 'annotations.sensitiveHint, "x-sensitive" in outputSchema, secret_reference results',
  annotationKeys: ['sensitiveHint'],
  metaKeys: [],
  proposal: true,
  analyse(tool: ToolView, env: PackEnv) {
    const claims: Claim[] = [];
    const problems: SchemaProblem[] = [];
    let speaksInSchema = false;
    // A version whose Tool has no outputSchema (2025-03-26): its clients ignore one, so an
    // "x-sensitive" property or a secret_reference result documented there keeps nothing out of
    // context, and counts for nothing.
    const output = readsOutputSchema(env.spec) ? tool.obj?.outputSchema : undefined;
    if (output !== undefined) {
      const fields: string[] = [];
      let secretReference: string | undefined;
      const root = `${tool.pointer}/outputSchema`;
      const choice = isObject(output) ? dialectOf(output) : undefined;
      const dialect = choice && 'dialect' in choice ? choice.dialect : '2020-12';
      walkSubschemas(
        output,
        dialect,
        (node) => {
          const schema = node.schema;
          const isSecretRef = secretReference === undefined && (schema.const === 'secret_reference' || (Array.isArray(schema.enum) && schema.enum.includes('secret_reference')));
          if (!('x-sensitive' in schema) && !isSecretRef) return;
          const pointer = root + nodePointer(node);
          if ('x-sensitive' in schema) {
            const v = schema['x-sensitive'];
            if (v === true) fields.push(pointer);
            else if (v !== false) {
              problems.push({
                pack: 'webmcp-sensitive',
                pointer: `${pointer}/x-sensitive`,
                message: `${fieldPath(pointer.slice(tool.pointer.length))}["x-sensitive"] must be true or false, got ${quote(v)}`,
                suggestion: 'write "x-sensitive": true on the properties whose values must not reach the model',
                kind: 'invalid',
              });
            }
          }
          if (isSecretRef) secretReference = pointer;
        },
        undefined,
        tool,
      );
      speaksInSchema = fields.length > 0 || secretReference !== undefined;
      if (fields.length) {
        claims.push(newClaim('sensitiveFields', fields, 'webmcp-sensitive', 'outputSchema "x-sensitive" properties', fields[0]!));
      }
      if (secretReference !== undefined) {
        claims.push(newClaim('secretReference', true, 'webmcp-sensitive', 'outputSchema (secret_reference)', secretReference));
      }
    }
    const a = tool.annotations;
    const hint = a?.sensitiveHint;
    const level = typeof hint === 'string' && DRAFT_SENSITIVE_LEVELS.includes(hint.toLowerCase());
    const sep1913 = env.packs?.has('sep-1913') ?? true;
    // A level ("high") is SEP-1913's first draft: draft-field's warning while sep-1913 runs,
    // and nothing more unless the tool speaks WebMCP elsewhere ("x-sensitive", a secret_reference
    // result), where a sensitiveHint that is not a boolean is also WebMCP's schema error. With
    // sep-1913 off nobody else explains it: WebMCP's sensitiveHint is a boolean, and a level is
    // no data of the server's own, so it is a schema error.
    const draft = level && sep1913 && !speaksInSchema;
    if (a && !draft) {
      const check = checkVocabulary({
        pack: 'webmcp-sensitive',
        container: a,
        at: '/annotations',
        toolPointer: tool.pointer,
        keys: KEYS,
        recognised,
        expected,
        name: 'WebMCP',
        validate,
        // "x-sensitive" or a secret_reference result: the tool speaks WebMCP, so a
        // sensitiveHint of the wrong type ("true") is a schema error, not the server's own data.
        speaks: speaksInSchema,
        lenient: (_k, v) => (level ? { suggestion: levelSuggestion(v, sep1913) } : undefined),
      });
      // The annotation's problems and claim first, as a person reads the tool.
      problems.unshift(...check.problems);
      if (typeof hint === 'boolean') {
        claims.unshift(newClaim('sensitiveOutput', hint, 'webmcp-sensitive', 'annotations.sensitiveHint', `${tool.pointer}/annotations/sensitiveHint`));
      }
    }
    return { claims, problems };
  },
};
