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
import { readsOutputSchema } from '../src/packs/core.js';

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
