/**
 * The bundled schemas are data derived from ../shared, not retyped: re-deriving them from
 * the official MCP schema.json files and the SEP-1913 text gives the committed files
 * byte for byte (npm run schemas rewrites them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { derivedFiles, sharedDir, SPEC_VERSIONS } from '../scripts/derive-schemas.mjs';
import { SPEC_VERSIONS as SUPPORTED } from '../src/types.js';
import { ROOT } from './helpers/cli.js';
import { olderAlsoAccepts, readsOutputSchema } from '../src/packs/core.js';

describe('derived schemas', () => {
  const files = derivedFiles() as Record<string, string>;

  it('cover every spec version mcp-annotate supports, and SEP-1913', () => {
    expect(SPEC_VERSIONS).toEqual([...SUPPORTED]);
    expect(Object.keys(files).sort()).toEqual([...SUPPORTED.map((v) => `schemas/core/${v}.json`), 'schemas/meta-keys.json', 'schemas/sep-1913.json'].sort());
  });

  for (const [rel, text] of Object.entries(files)) {
    it(`${rel} is what ../shared gives (npm run schemas)`, () => {
      expect(readFileSync(join(ROOT, rel), 'utf8')).toBe(text);
    });
  }

  it('knows which versions\' Tool has an outputSchema (readsOutputSchema), as the spec has it', () => {
    for (const v of SUPPORTED) {
      const ours = JSON.parse(files[`schemas/core/${v}.json`]!);
      const defs = ours.$defs ?? ours.definitions;
      expect(readsOutputSchema(v), v).toBe('outputSchema' in defs.Tool.properties);
    }
  });

  it("derives each version's own MCP-defined _meta keys", () => {
    const keys = JSON.parse(files['schemas/meta-keys.json']!);
    expect(keys['2025-06-18']).toEqual([]);
    expect(keys['2025-11-25']).toEqual(['io.modelcontextprotocol/related-task']);
    expect(keys['2026-07-28']).toContain('io.modelcontextprotocol/serverInfo');
    expect(keys['2026-07-28']).toContain('io.modelcontextprotocol/protocolVersion');
    expect(keys['2026-07-28']).not.toContain('io.modelcontextprotocol/related-task');
    // An extension identifier named as an example of a capability key is no _meta key.
    expect(keys['2026-07-28']).not.toContain('io.modelcontextprotocol/tasks');
  });

  it("olderAlsoAccepts knows all that 2025-11-25's Tool asks beyond 2026-07-28's", () => {
    // Descriptions and comments aside, the older Tool is the newer one with exactly these
    // additions; anything else changed here means olderAlsoAccepts (src/packs/core.ts) must be
    // looked at again.
    const strip = (x: unknown): unknown => {
      if (Array.isArray(x)) return x.map(strip);
      if (x === null || typeof x !== 'object') return x;
      return Object.fromEntries(Object.entries(x).filter(([k]) => k !== 'description' && k !== '$comment').map(([k, v]) => [k, strip(v)]));
    };
    const older = strip(JSON.parse(files['schemas/core/2025-11-25.json']!).$defs) as Record<string, any>;
    const newer = strip(JSON.parse(files['schemas/core/2026-07-28.json']!).$defs) as Record<string, any>;
    const schemaProperties = { additionalProperties: { additionalProperties: true, properties: {}, type: 'object' }, type: 'object' };
    const stringArray = { items: { type: 'string' }, type: 'array' };
    expect(newer.MetaObject).toEqual({ type: 'object' });
    const expected = structuredClone(newer.Tool);
    expected.properties._meta = { additionalProperties: {}, type: 'object' };
    expected.properties.execution = { $ref: '#/$defs/ToolExecution' };
    delete expected.properties.inputSchema.additionalProperties;
    Object.assign(expected.properties.inputSchema.properties, { properties: schemaProperties, required: stringArray });
    delete expected.properties.outputSchema.additionalProperties;
    Object.assign(expected.properties.outputSchema.properties, { properties: schemaProperties, required: stringArray, type: { const: 'object', type: 'string' } });
    expected.properties.outputSchema.required = ['type'];
    expect(older.Tool).toEqual(expected);
    expect(older.ToolExecution).toEqual({ properties: { taskSupport: { enum: ['forbidden', 'optional', 'required'], type: 'string' } }, type: 'object' });
    expect(older.ToolAnnotations).toEqual(newer.ToolAnnotations);
    expect(older.Icon).toEqual(newer.Icon);
    // Both in the same dialect (the same validator rules apply to what they share).
    expect(JSON.parse(files['schemas/core/2025-11-25.json']!).$schema).toBe(JSON.parse(files['schemas/core/2026-07-28.json']!).$schema);
    // No other pair of versions has a fast path.
    expect(olderAlsoAccepts({ name: 't', inputSchema: { type: 'object' } }, '2025-11-25', '2025-06-18')).toBe(false);
  });

  it('keeps the Tool definition of each version as the spec has it', () => {
    for (const v of SUPPORTED) {
      const spec = JSON.parse(readFileSync(join(sharedDir(), 'spec', 'mcp', `schema-${v}.json`), 'utf8'));
      const ours = JSON.parse(files[`schemas/core/${v}.json`]!);
      const defs = spec.$defs ? '$defs' : 'definitions';
      expect(ours[defs].Tool).toEqual(spec[defs].Tool);
      expect(ours[defs].ToolAnnotations).toEqual(spec[defs].ToolAnnotations);
    }
  });
});
