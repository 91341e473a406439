/**
 * Each pack: what it extracts as claims, what it reports as schema problems, and how it
 * tells a tool that speaks its vocabulary from one whose key merely shares a name.
 */
import { describe, expect, it } from 'vitest';
import { PACKS, packById } from '../src/packs/index.js';
import type { ToolView } from '../src/packs/types.js';
import { PACK_IDS, type PackId } from '../src/types.js';
import { isObject } from '../src/util/json.js';
import { hasUnmapped, unmappedValues } from '../src/engine/claims.js';
import { RULES } from '../rules/index.js';

function view(tool: Record<string, unknown>, pointer = '/tools/0'): ToolView {
  return {
    value: tool,
    obj: tool,
    pointer,
    index: 0,
    name: String(tool.name ?? '#0'),
    hasName: typeof tool.name === 'string',
    annotations: isObject(tool.annotations) ? tool.annotations : undefined,
    meta: isObject(tool._meta) ? tool._meta : undefined,
  };
}

function analyse(id: PackId, tool: Record<string, unknown>) {
  return packById(id)!.analyse(view({ name: 't', inputSchema: { type: 'object' }, ...tool }), { spec: '2026-07-28' });
}

const claimsOf = (id: PackId, tool: Record<string, unknown>) =>
  analyse(id, tool).claims.map((c) => ({ fact: c.fact, value: c.value, pointer: c.pointer, ...(c.unknown ? { unknown: c.unknown } : {}) }));
const problemsOf = (id: PackId, tool: Record<string, unknown>) => analyse(id, tool).problems.map((p) => ({ kind: p.kind, pointer: p.pointer }));

describe('pack registry', () => {
  it('has one pack per id, in PACK_IDS order', () => {
    expect(PACKS.map((p) => p.id)).toEqual([...PACK_IDS]);
  });
  it('never defines a key in two packs', () => {
    const keys = PACKS.flatMap((p) => [...p.annotationKeys.map((k) => `annotations.${k}`), ...p.metaKeys.map((k) => `_meta.${k}`)]);
    expect(new Set(keys).size).toBe(keys.length);
  });
  it('makes every claim with the same keys in the same order (one hidden class for the rules to read)', () => {
    // Every tool of every rule example, through every pack: the claims of all vocabularies.
    const tools = RULES.flatMap((r) => [...r.examples.correct, ...r.examples.incorrect]).flatMap((e) => [
      ...(e.tools ?? []),
      ...(e.servers ?? []).flatMap((s) => s.tools),
    ]);
    const shapes = new Map<string, Set<PackId>>();
    for (const tool of tools.filter(isObject)) {
      for (const pack of PACKS) {
        for (const c of pack.analyse(view(tool), { spec: '2026-07-28' }).claims) {
          const shape = Object.keys(c).join(',');
          shapes.set(shape, (shapes.get(shape) ?? new Set()).add(c.pack));
        }
      }
    }
    expect(new Set([...shapes.values()].flatMap((s) => [...s]))).toEqual(new Set(PACK_IDS));
    expect([...shapes.keys()]).toEqual(['fact,value,pack,field,pointer,raw,unknown']);
  });
});

describe('core', () => {
  it('claims the four hints when they are booleans', () => {
    expect(claimsOf('core', { annotations: { readOnlyHint: true, destructiveHint: false, openWorldHint: 'no' } })).toEqual([
      { fact: 'readOnly', value: true, pointer: '/tools/0/annotations/readOnlyHint' },
      { fact: 'destructive', value: false, pointer: '/tools/0/annotations/destructiveHint' },
    ]);
  });
  it('reports wrong types against the spec version in use', () => {
    expect(problemsOf('core', { annotations: { openWorldHint: 'no' } })).toEqual([{ kind: 'invalid', pointer: '/tools/0/annotations/openWorldHint' }]);
  });
});

describe('sep-1913', () => {
  it('claims possible sets from single values and arrays', () => {
    expect(
      claimsOf('sep-1913', {
        annotations: {
          inputMetadata: { destination: ['user', 'public'], sensitivity: [{ regulated: { scopes: ['HIPAA'] } }, 'pii'], outcomes: 'irreversible' },
          returnMetadata: { source: 'untrustedPublic', sensitivity: 'none' },
        },
      }).map((c) => [c.fact, c.value]),
    ).toEqual([
      ['destinations', ['user', 'public']],
      ['inputSensitivity', ['regulated', 'pii']],
      ['outcomes', ['irreversible']],
      ['sources', ['untrustedPublic']],
      ['outputSensitivity', ['none']],
    ]);
  });
  it('treats a key holding the server’s own data as a collision, not a schema error', () => {
    expect(problemsOf('sep-1913', { annotations: { attribution: 'Data © OpenStreetMap contributors' } })).toEqual([
      { kind: 'collision', pointer: '/tools/0/annotations/attribution' },
    ]);
  });
  it('holds a tool that speaks SEP-1913 elsewhere to the schema for that key', () => {
    expect(
      problemsOf('sep-1913', {
        annotations: { attribution: 'OpenStreetMap', returnMetadata: { source: 'trustedPublic', sensitivity: 'none' } },
      }),
    ).toEqual([{ kind: 'invalid', pointer: '/tools/0/annotations/attribution' }]);
  });
  it("reads SEP-2061's capitalised InputMetadata/ReturnMetadata as the object it names", () => {
    expect(
      claimsOf('sep-1913', {
        annotations: {
          InputMetadata: { Destination: 'Public', sensitivity: ['pii'], outcomes: 'irreversible' },
          ReturnMetadata: { source: 'untrustedPublic', sensitivity: 'none' },
        },
      }).map((c) => [c.fact, c.value, c.pointer]),
    ).toEqual([
      ['destinations', ['public'], '/tools/0/annotations/InputMetadata/Destination'],
      ['inputSensitivity', ['pii'], '/tools/0/annotations/InputMetadata/sensitivity'],
      ['outcomes', ['irreversible'], '/tools/0/annotations/InputMetadata/outcomes'],
      ['sources', ['untrustedPublic'], '/tools/0/annotations/ReturnMetadata/source'],
      ['outputSensitivity', ['none'], '/tools/0/annotations/ReturnMetadata/sensitivity'],
    ]);
  });
  it('validates the object under a capitalised key, and lets the current key win beside it', () => {
    expect(problemsOf('sep-1913', { annotations: { InputMetadata: { destination: 'pubic', sensitivity: 'none' } } })).toEqual([
      { kind: 'invalid', pointer: '/tools/0/annotations/InputMetadata' },
      { kind: 'invalid', pointer: '/tools/0/annotations/InputMetadata/destination' },
    ]);
    expect(
      claimsOf('sep-1913', {
        annotations: {
          inputMetadata: { destination: 'user', sensitivity: 'none', outcomes: 'benign' },
          InputMetadata: { destination: 'public', sensitivity: 'pii', outcomes: 'irreversible' },
        },
      }).map((c) => [c.fact, c.value, c.pointer]),
    ).toEqual([
      ['destinations', ['user'], '/tools/0/annotations/inputMetadata/destination'],
      ['inputSensitivity', ['none'], '/tools/0/annotations/inputMetadata/sensitivity'],
      ['outcomes', ['benign'], '/tools/0/annotations/inputMetadata/outcomes'],
    ]);
  });
});

describe('action-metadata', () => {
  const key = 'io.modelcontextprotocol/action-metadata';
  it('maps known classifiers and keeps open strings without guessing', () => {
    const claims = claimsOf('action-metadata', {
      _meta: { [key]: { inputMetadata: { destination: ['external', 'user'], sensitivity: 'sensitive' }, outcome: 'irreversible', requiresReview: true } },
    });
    expect(claims).toEqual([
      { fact: 'destinations', value: ['user'], pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/destination', unknown: ['external'] },
      { fact: 'inputSensitivity', value: [], pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/inputMetadata/sensitivity', unknown: ['sensitive'] },
      { fact: 'outcomes', value: ['irreversible'], pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/outcome' },
      { fact: 'requiresConfirmation', value: true, pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/requiresReview' },
    ]);
  });
  it('reports a classifier of the wrong type', () => {
    expect(problemsOf('action-metadata', { _meta: { [key]: { outcome: 3 } } })).toEqual([
      { kind: 'invalid', pointer: '/tools/0/_meta/io.modelcontextprotocol~1action-metadata/outcome' },
    ]);
  });
});

describe('trust-annotations', () => {
  const key = 'io.modelcontextprotocol/trust-annotations';
  it('claims sensitive and untrusted results', () => {
    expect(claimsOf('trust-annotations', { _meta: { [key]: { sensitive: true, untrusted: false } } }).map((c) => [c.fact, c.value])).toEqual([
      ['sensitiveOutput', true],
      ['untrusted', false],
    ]);
  });
  it('requires digest and canonicalization on evidenceRef, and catches typos', () => {
    expect(problemsOf('trust-annotations', { _meta: { [key]: { untrustd: true, evidenceRef: { type: 'sigstore' } } } })).toEqual([
      { kind: 'invalid', pointer: '/tools/0/_meta/io.modelcontextprotocol~1trust-annotations/untrustd' },
      { kind: 'invalid', pointer: '/tools/0/_meta/io.modelcontextprotocol~1trust-annotations/evidenceRef' },
      { kind: 'invalid', pointer: '/tools/0/_meta/io.modelcontextprotocol~1trust-annotations/evidenceRef' },
    ]);
  });
  it('reports a typo as a schema error even when it is the only member: MCP reserves io.modelcontextprotocol/', () => {
    expect(problemsOf('trust-annotations', { _meta: { [key]: { untrustd: true } } })).toEqual([
      { kind: 'invalid', pointer: '/tools/0/_meta/io.modelcontextprotocol~1trust-annotations/untrustd' },
    ]);
    expect(problemsOf('trust-annotations', { _meta: { [key]: 'yes' } })).toEqual([{ kind: 'invalid', pointer: '/tools/0/_meta/io.modelcontextprotocol~1trust-annotations' }]);
  });
});

describe('risk-metadata', () => {
  it('claims the graded fields, with category as a normalised action and approval as confirmation', () => {
    expect(
      claimsOf('risk-metadata', { annotations: { riskLevel: 'high', category: 'mutate', approvalRecommendation: 'single', sideEffects: ['email'] } }).map((c) => [c.fact, c.value]),
    ).toEqual([
      ['riskLevel', 'high'],
      ['action', 'write'],
      ['sideEffects', ['email']],
      ['approval', 'single'],
      ['requiresConfirmation', true],
    ]);
  });
  it('does not read a server’s own "category" as SEP-2793', () => {
    expect(problemsOf('risk-metadata', { annotations: { category: 'database' } })).toEqual([{ kind: 'collision', pointer: '/tools/0/annotations/category' }]);
    expect(claimsOf('risk-metadata', { annotations: { category: 'database' } })).toEqual([]);
  });
  it('is strict once the tool speaks SEP-2793', () => {
    expect(problemsOf('risk-metadata', { annotations: { category: 'database', riskLevel: 'low', minTrustLevel: 9 } })).toEqual([
      { kind: 'invalid', pointer: '/tools/0/annotations/category' },
      { kind: 'invalid', pointer: '/tools/0/annotations/minTrustLevel' },
    ]);
  });
});

describe('webmcp-sensitive', () => {
  it('claims sensitiveHint, x-sensitive fields at any depth and secret_reference', () => {
    const claims = claimsOf('webmcp-sensitive', {
      annotations: { sensitiveHint: true },
      outputSchema: {
        type: 'object',
        properties: {
          keys: { type: 'array', items: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } } },
          ref: { $ref: '#/$defs/Ref' },
        },
        $defs: { Ref: { type: 'object', properties: { type: { const: 'secret_reference' } } } },
      },
    });
    expect(claims.map((c) => [c.fact, c.value])).toEqual([
      ['sensitiveOutput', true],
      ['sensitiveFields', ['/tools/0/outputSchema/properties/keys/items/properties/secret']],
      ['secretReference', true],
    ]);
  });
  it('leaves the SEP-1913 draft level form to draft-field while sep-1913 runs', () => {
    expect(analyse('webmcp-sensitive', { annotations: { sensitiveHint: 'high' } })).toEqual({ claims: [], problems: [] });
  });
  it('checks the draft level form as WebMCP\'s when sep-1913 is off (no claim: it is no boolean)', () => {
    const r = packById('webmcp-sensitive')!.analyse(view({ name: 't', inputSchema: { type: 'object' }, annotations: { sensitiveHint: 'high' } }), {
      spec: '2026-07-28',
      packs: new Set<PackId>(['core', 'webmcp-sensitive']),
    });
    expect(r.claims).toEqual([]);
    expect(r.problems.map((p) => ({ kind: p.kind, pointer: p.pointer }))).toEqual([{ kind: 'invalid', pointer: '/tools/0/annotations/sensitiveHint' }]);
  });
  it('reports a quoted sensitiveHint as a schema error, with or without WebMCP in the output schema', () => {
    const outputSchema = { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } };
    expect(problemsOf('webmcp-sensitive', { annotations: { sensitiveHint: 'true' }, outputSchema })).toEqual([{ kind: 'invalid', pointer: '/tools/0/annotations/sensitiveHint' }]);
    // A quoted boolean is WebMCP's flag written wrong, as on a core hint.
    expect(problemsOf('webmcp-sensitive', { annotations: { sensitiveHint: 'true' } })).toEqual([{ kind: 'invalid', pointer: '/tools/0/annotations/sensitiveHint' }]);
    // Without any other sign of WebMCP, another string may be the server's own field.
    expect(problemsOf('webmcp-sensitive', { annotations: { sensitiveHint: 'secret' } })).toEqual([{ kind: 'collision', pointer: '/tools/0/annotations/sensitiveHint' }]);
  });
  it('reports a non-boolean x-sensitive', () => {
    expect(problemsOf('webmcp-sensitive', { outputSchema: { type: 'object', properties: { a: { 'x-sensitive': 'yes' } } } })).toEqual([
      { kind: 'invalid', pointer: '/tools/0/outputSchema/properties/a/x-sensitive' },
    ]);
  });
});

describe('meta-hints', () => {
  it('claims effect, idempotent, confirmation and result sensitivity', () => {
    expect(
      claimsOf('meta-hints', {
        _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/idempotent': false, 'mcp.dev/requiresConfirmation': true, 'mcp.dev/resultSensitivity': 'internal' },
      }).map((c) => [c.fact, c.value, c.pointer]),
    ).toEqual([
      ['action', 'delete', '/tools/0/_meta/mcp.dev~1effect'],
      ['idempotent', false, '/tools/0/_meta/mcp.dev~1idempotent'],
      ['requiresConfirmation', true, '/tools/0/_meta/mcp.dev~1requiresConfirmation'],
      ['resultSensitivity', 'internal', '/tools/0/_meta/mcp.dev~1resultSensitivity'],
    ]);
  });
  it('reports an unknown effect when the tool speaks the vocabulary', () => {
    expect(problemsOf('meta-hints', { _meta: { 'mcp.dev/effect': 'update', 'mcp.dev/requiresConfirmation': true } })).toEqual([
      { kind: 'invalid', pointer: '/tools/0/_meta/mcp.dev~1effect' },
    ]);
  });
});

describe('lists of many distinct unknown members', () => {
  it('are kept, each once and in order, in time linear in the list (every member was looked for in the list so far)', { timeout: 20_000 }, () => {
    // 200,000 distinct members, each written twice: a scan of the list per member is 2·10¹⁰ steps, minutes.
    const n = 200_000;
    const names = Array.from({ length: n }, (_, i) => `x${i}`);
    const list = [...names, ...names];
    const sep = analyse('sep-1913', { annotations: { inputMetadata: { destination: list, sensitivity: ['none'], outcomes: ['benign'] } } });
    const am = analyse('action-metadata', { _meta: { 'io.modelcontextprotocol/action-metadata': { inputMetadata: { destination: [...list, 'user'] } } } });
    const destinations = [...sep.claims, ...am.claims].filter((c) => c.fact === 'destinations');
    expect(destinations.map((c) => c.pack)).toEqual(['sep-1913', 'action-metadata']);
    for (const c of destinations) {
      expect(c.unknown).toEqual(names);
      expect(hasUnmapped(c)).toBe(true);
      expect(unmappedValues(c)).toEqual(names);
    }
  });

  it('hasUnmapped agrees with unmappedValues on every claim the rules\' examples make', () => {
    const seen = { true: 0, false: 0 };
    for (const rule of RULES) {
      for (const example of [...(rule.examples?.incorrect ?? []), ...(rule.examples?.correct ?? [])]) {
        for (const tool of example.tools ?? []) {
          if (!isObject(tool)) continue;
          for (const pack of PACKS) {
            for (const c of pack.analyse(view(tool), { spec: '2026-07-28' }).claims) {
              const has = unmappedValues(c).length > 0;
              expect(hasUnmapped(c)).toBe(has);
              seen[`${has}`]++;
            }
          }
        }
      }
    }
    expect(seen.true).toBeGreaterThan(10);
    expect(seen.false).toBeGreaterThan(100);
  });
});
