/** What rule messages say in cases where a wrong word would mislead (not covered by the examples' pointers). */
import { describe, expect, it } from 'vitest';
import { reportForText } from './helpers/lint.js';

const findings = (tools: unknown[]) => reportForText(JSON.stringify({ tools })).findings;

describe('sensitive-output-undeclared', () => {
  const tool = (sensitiveHint: unknown) => ({
    name: 'generate_api_key',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { secret: { type: 'string', 'x-sensitive': true } } },
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, ...(sensitiveHint === undefined ? {} : { sensitiveHint }) },
  });
  it('leaves a quoted sensitiveHint to schema-valid', () => {
    const all = findings([tool('true')]);
    expect(all.filter((x) => x.ruleId === 'sensitive-output-undeclared')).toEqual([]);
    expect(all.find((x) => x.ruleId === 'schema-valid')!.suggestion).toMatch(/without quotes/);
  });
  it('leaves a draft sensitiveHint level beside x-sensitive to schema-valid (the tool speaks WebMCP) and draft-field', () => {
    const all = findings([tool('high')]);
    expect(all.filter((x) => x.ruleId === 'sensitive-output-undeclared')).toEqual([]);
    expect(all.find((x) => x.ruleId === 'schema-valid')!.suggestion).toMatch(/^WebMCP's sensitiveHint is true or false: write true/);
    expect(all.map((x) => x.ruleId)).toContain('draft-field');
  });
  it('says absent when it is', () => {
    const f = findings([tool(undefined)]).find((x) => x.ruleId === 'sensitive-output-undeclared')!;
    expect(f.message).toContain('annotations.sensitiveHint is absent');
  });
});

describe('unknown-annotation-key', () => {
  const guessFor = (key: string) =>
    findings([{ name: 't', inputSchema: { type: 'object' }, annotations: { [key]: true } }]).find((x) => x.ruleId === 'unknown-annotation-key')!.suggestion;
  it('suggests the hint a key is missing "Hint" from', () => {
    expect(guessFor('readOnly')).toBe('did you mean "readOnlyHint"?');
    expect(guessFor('destructive')).toBe('did you mean "destructiveHint"?');
    expect(guessFor('idempotent')).toBe('did you mean "idempotentHint"?');
    expect(guessFor('openworld')).toBe('did you mean "openWorldHint"?');
    expect(guessFor('open_world')).toBe('did you mean "openWorldHint"?');
  });
  it('does not guess for a key that is not a hint', () => {
    expect(guessFor('costTier')).not.toMatch(/did you mean/);
  });  it('sends a key a _meta vocabulary defines to _meta under the same key, and never adds a second prefix', () => {
    expect(guessFor('mcp.dev/effect')).toBe('move it to _meta["mcp.dev/effect"], where the _meta hints proposal reads it (never from annotations)');
    expect(guessFor('io.modelcontextprotocol/action-metadata')).toBe(
      'move it to _meta["io.modelcontextprotocol/action-metadata"], where the action-metadata extension reads it (never from annotations)',
    );
    expect(guessFor('com.acme/risk')).toBe('if it is the server\'s own data, move it to _meta["com.acme/risk"], where its prefix already keeps it apart');
    expect(guessFor('io.modelcontextprotocol/risk')).toBe('if it is the server\'s own data, move it under _meta with a prefix the server owns, e.g. _meta["com.example/risk"]');
    expect(guessFor('costTier')).toBe('if it is the server\'s own data, move it under _meta with a prefix the server owns, e.g. _meta["com.example/costTier"]');
  });
  it('sends x-sensitive to the outputSchema properties', () => {
    expect(guessFor('x-sensitive')).toMatch(/^WebMCP's "x-sensitive" marks one property of the result: put "x-sensitive": true on the outputSchema properties/);
  });
  it('does not name a default, nor suggest a duplicate key, when the real key is stated too', () => {
    const f = findings([{ name: 't', inputSchema: { type: 'object' }, annotations: { readonlyHint: true, readOnlyHint: false } }]).find(
      (x) => x.ruleId === 'unknown-annotation-key',
    )!;
    expect(f.message).not.toContain('default');
    expect(f.message).toContain('readOnlyHint is also there');
    expect(f.suggestion).toContain('remove this key');
  });
});

describe('toxic-flow', () => {
  it('names the sink when it is the private source after another tool was named (not "the same tool", which read as the other one)', () => {
    const all = findings([
      { name: 'sink', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false, returnMetadata: { sensitivity: 'pii' } }, _meta: { 'mcp.dev/effect': 'external' } },
      { name: 'web', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: true, returnMetadata: { source: 'untrustedPublic', sensitivity: ['pii', 'financial'] } } },
    ]);
    const f = all.find((x) => x.ruleId === 'toxic-flow')!;
    expect(f.message).toContain('while "dump/web" may return untrusted content');
    expect(f.message).toContain('and "dump/sink" itself may return private data (annotations.returnMetadata.sensitivity includes "pii" at /tools/0/');
    expect(f.message).not.toContain('the same tool');
  });
});

describe('empty-possible-set', () => {
  const tool = (destination: unknown[]) => ({
    name: 'share_document',
    inputSchema: { type: 'object' },
    annotations: { readOnlyHint: false, destructiveHint: false, inputMetadata: { destination, sensitivity: 'user', outcomes: 'irreversible' } },
  });
  const repeats = (destination: unknown[]) => findings([tool(destination)]).filter((x) => x.ruleId === 'empty-possible-set');
  const at = '/tools/0/annotations/inputMetadata/destination';

  it('reports each repeated value once, at its first repeat, however many times it is listed', () => {
    const all = repeats(['public', 'internal', 'public', 'internal', 'public', 'public', 'public', 'public', 'public']);
    expect(all.map((f) => [f.pointer, f.message])).toEqual([
      [`${at}/2`, `annotations.inputMetadata.destination lists "public" 7 times (${at}/0, ${at}/2, ${at}/4, ${at}/5, ${at}/6 and 2 more)`],
      [`${at}/3`, `annotations.inputMetadata.destination lists "internal" twice (${at}/1 and ${at}/3)`],
    ]);
    expect(all[0]!.suggestion).toBe('remove the repeated "public", or replace them with the values that were meant');
    // The fix removes every repeat at once, on the first finding only.
    expect(all.map((f) => f.fix?.replacements)).toEqual([[{ pointer: at, text: '["public","internal"]' }], undefined]);
  });

  it('gives a value listed a million times one finding: a 10 MB list is not a million findings', () => {
    const all = repeats(Array.from({ length: 1_000_000 }, () => 'public'));
    expect(all).toHaveLength(1);
    expect(all[0]!.message).toBe(`annotations.inputMetadata.destination lists "public" 1,000,000 times (${at}/0, ${at}/1, ${at}/2, ${at}/3, ${at}/4 and 999,995 more)`);
  });
});

describe('unknown-classifier', () => {
  const key = 'io.modelcontextprotocol/action-metadata';
  const at = `/tools/0/_meta/${key.replace('/', '~1')}/inputMetadata/outcomes`;
  const classifier = (outcomes: unknown[]) =>
    findings([{ name: 'act', inputSchema: { type: 'object' }, _meta: { [key]: { inputMetadata: { outcomes } } } }]).filter((x) => x.ruleId === 'unknown-classifier');

  it('points at each value where it is first written, case variants in their place among the others', () => {
    const [f] = classifier(['later', 'Benign', 'soon', 'later', 'benign', 'Benign']);
    expect(f!.pointer).toBe(`${at}/0`);
    expect(f!.message).toMatch(/^_meta\["io\.modelcontextprotocol\/action-metadata"\]\.inputMetadata\.outcomes includes "later", "Benign" and "soon", /);
    expect(f!.related.map((r) => r.pointer)).toEqual([`${at}/1`, `${at}/2`]);
  });

  it('places 100,000 distinct values in time linear in the list (each was looked for in the list from its start), and quotes and points at the first ten', { timeout: 30_000 }, () => {
    const n = 100_000;
    const outcomes = Array.from({ length: n }, (_, i) => `outcome_${i}`);
    // The case variant written last is placed among the first ten by where it is written: after them all.
    const [f] = classifier([...outcomes, 'Benign', ...outcomes]);
    expect(f!.pointer).toBe(`${at}/0`);
    expect(f!.message).toMatch(/ includes "outcome_0", "outcome_1", "outcome_2", "outcome_3", "outcome_4", "outcome_5", "outcome_6", "outcome_7", "outcome_8", "outcome_9" and 99,991 more, which are not SEP-1913 outcomes; /);
    expect(f!.message.length).toBeLessThan(2_000);
    expect(f!.related.map((r) => r.pointer)).toEqual(Array.from({ length: 9 }, (_, i) => `${at}/${i + 1}`));
    // Fewer than eleven: each quoted and placed, as before.
    const [few] = classifier(outcomes.slice(0, 10));
    expect(few!.message).toMatch(/ includes "outcome_0", .*, "outcome_8" and "outcome_9", which/);
    expect(few!.related).toHaveLength(9);
  });
});
