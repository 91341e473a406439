/**
 * duplicate-key: member names a dump, a snapshot or a transcript repeats, found in the text
 * (JSON.parse keeps the last value silently), with positions in every output format and
 * baseline keys that do not move.
 */
import { describe, expect, it } from 'vitest';
import { runCliInProcess as runCli, tempDir } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess
import { createLocator, findRepeatedKeys } from '../src/sources/locate.js';
import { loadText } from '../src/sources/files.js';
import { lint, type RuleSetting } from '../src/engine/engine.js';
import { RULES } from '../rules/index.js';

const PROBE =
  '{"tools":[{"name":"send_email","description":"Sends an email to any address.","inputSchema":{"type":"object"},' +
  '"annotations":{"readOnlyHint":false,"destructiveHint":false,"openWorldHint":true,"readOnlyHint":true}}]}';

interface JsonFinding {
  ruleId: string;
  severity: string;
  message: string;
  pointer: string;
  toolPointer: string;
  line?: number;
  column?: number;
  related: { pointer: string; line?: number; column?: number }[];
}

const findings = (stdout: string, rule = 'duplicate-key') => (JSON.parse(stdout) as { findings: JsonFinding[] }).findings.filter((f) => f.ruleId === rule);

describe('duplicate-key through the CLI', () => {
  it('reports a hint given twice at its last occurrence, the first as related, and fails the run', async () => {
    const dir = tempDir({ 'd.json': PROBE });
    const r = await runCli(['lint', 'd.json', '--no-config', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const [f, ...more] = findings(r.stdout);
    expect(more).toEqual([]);
    expect(f).toMatchObject({ severity: 'error', pointer: '/tools/0/annotations/readOnlyHint', toolPointer: '/annotations/readOnlyHint', line: 1, column: PROBE.lastIndexOf('"readOnlyHint"') + 1 });
    expect(f!.message).toContain('"readOnlyHint" is given twice');
    expect(f!.message).toContain('first false, last true');
    expect(f!.related).toEqual([expect.objectContaining({ pointer: '/tools/0/annotations/readOnlyHint', line: 1, column: PROBE.indexOf('"readOnlyHint"') + 1 })]);
  });

  it('reports "tools" given twice in the tools/list result (an empty server to JSON.parse)', async () => {
    const dir = tempDir({ 'd.json': '{"tools":[{"name":"x","inputSchema":{"type":"object"}}],\n"tools":[]}' });
    const r = await runCli(['lint', 'd.json', '--no-config', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(findings(r.stdout).map((f) => [f.pointer, f.line, f.column, f.related[0]?.line, f.related[0]?.column])).toEqual([['/tools', 2, 1, 1, 2]]);
  });

  it('gives SARIF a physical location and a related location on the first occurrence', async () => {
    const dir = tempDir({ 'd.json': PROBE });
    const r = await runCli(['lint', 'd.json', '--no-config', '-f', 'sarif'], { cwd: dir });
    const results = (JSON.parse(r.stdout) as { runs: { results: { ruleId: string; locations: { physicalLocation: { region: { startColumn: number } } }[]; relatedLocations?: { physicalLocation: { region: { startColumn: number } } }[] }[] }[] }).runs[0]!.results.filter((x) => x.ruleId === 'duplicate-key');
    expect(results).toHaveLength(1);
    expect(results[0]!.locations[0]!.physicalLocation.region.startColumn).toBe(PROBE.lastIndexOf('"readOnlyHint"') + 1);
    expect(results[0]!.relatedLocations?.[0]?.physicalLocation.region.startColumn).toBe(PROBE.indexOf('"readOnlyHint"') + 1);
  });

  it('keeps its baseline key when a tool is added before it', async () => {
    const other = '{"name":"ping","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false}}';
    const dir = tempDir({ 'd.json': PROBE });
    const w = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'b.json', '--update-baseline'], { cwd: dir });
    expect(w.code).toBe(0);
    const moved = tempDir({ 'd.json': PROBE.replace('{"tools":[', `{"tools":[${other},`), 'b.json': '' });
    const { readFileSync, writeFileSync } = await import('node:fs');
    writeFileSync(`${moved}/b.json`, readFileSync(`${dir}/b.json`));
    const r = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'b.json', '-f', 'json'], { cwd: moved });
    expect(findings(r.stdout)).toEqual([]);
  });

  it('does not let a baselined "same value" warning hide a "different values" error at the same place', async () => {
    const same = PROBE.replace('"readOnlyHint":false', '"readOnlyHint":true');
    const dir = tempDir({ 'd.json': same });
    const w = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'b.json', '--update-baseline'], { cwd: dir });
    expect(w.code).toBe(0);
    const accepted = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'b.json', '-f', 'json'], { cwd: dir });
    expect(findings(accepted.stdout)).toEqual([]);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/d.json`, PROBE);
    const r = await runCli(['lint', 'd.json', '--no-config', '--baseline', 'b.json', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(findings(r.stdout).map((f) => `${f.pointer} ${f.severity}`)).toEqual(['/tools/0/annotations/readOnlyHint error']);
  });

  it('reads a session transcript (JSON Lines) with positions on the right line', async () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"destructiveHint":true,"destructiveHint":false}}]}}\n';
    const dir = tempDir({ 's.jsonl': text });
    const r = await runCli(['lint', 's.jsonl', '--no-config', '-f', 'json'], { cwd: dir });
    const line2 = text.split('\n')[1]!;
    expect(findings(r.stdout).map((f) => [f.pointer, f.line, f.column, f.related[0]?.line, f.related[0]?.column])).toEqual([
      ['/1/result/tools/0/annotations/destructiveHint', 2, line2.lastIndexOf('"destructiveHint"') + 1, 2, line2.indexOf('"destructiveHint"') + 1],
    ]);
  });

  it('compares values as JSON values: the same value written differently is a warning, not an error', async () => {
    const tool = (meta: string) => `{"tools":[{"name":"a","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false},"_meta":${meta}}]}`;
    const same = tool('{"x":{"a":1,"b":[1,"c"]},"x":{ "b": [1.0, "\\u0063"], "a": 1e0 },"y":1.0,"y":1,"z":"\\u0061","z":"a"}');
    const r = await runCli(['lint', 'd.json', '--no-config', '-f', 'json'], { cwd: tempDir({ 'd.json': same }) });
    expect(findings(r.stdout).map((f) => `${f.pointer} ${f.severity}`)).toEqual(['/tools/0/_meta/x warning', '/tools/0/_meta/y warning', '/tools/0/_meta/z warning']);
    expect(r.code).toBe(0);
    const different = tool('{"x":{"a":1},"x":{"a":"1"},"y":1.5,"y":1,"z":"\\u0061","z":"A","w":[1,2],"w":[2,1]}');
    const d = await runCli(['lint', 'd.json', '--no-config', '-f', 'json'], { cwd: tempDir({ 'd.json': different }) });
    const found = findings(d.stdout);
    expect(found.map((f) => `${f.pointer} ${f.severity}`)).toEqual(['/tools/0/_meta/x error', '/tools/0/_meta/y error', '/tools/0/_meta/z error', '/tools/0/_meta/w error']);
    // The message shows the values as written.
    expect(found[2]!.message).toContain('first "\\u0061", last "A"');
  });

  it('says nothing of a document without repeated names, or of repeats inside inputSchema', async () => {
    const dir = tempDir({ 'd.json': '{"tools":[{"name":"a","inputSchema":{"type":"object","type":"object"},"annotations":{"readOnlyHint":true,"openWorldHint":false}}]}' });
    const r = await runCli(['lint', 'd.json', '--no-config', '-f', 'json'], { cwd: dir });
    expect(findings(r.stdout)).toEqual([]);
  });
});

describe('duplicate-key off', () => {
  it('never reads the repeated names: the scan runs when the rule first asks', () => {
    const text = `{"tools":[${PROBE.slice(10, -2)},${PROBE.slice(10, -2).replace('send_email', 'send_sms')}]}`;
    const run = (rules: Record<string, RuleSetting>) => {
      const servers = loadText(text, { kind: 'file', path: 'd.json', display: 'd.json' }, 'd', 'd.json');
      let asked = 0;
      for (const s of servers) {
        const read = s.repeatedKeys!;
        s.repeatedKeys = () => {
          asked++;
          return read();
        };
      }
      const found = lint(servers, RULES, { rules }).findings.filter((f) => f.ruleId === 'duplicate-key').length;
      return { asked, found };
    };
    expect(run({ 'duplicate-key': 'off' })).toEqual({ asked: 0, found: 0 });
    expect(run({})).toEqual({ asked: 1, found: 2 });
  });
});

describe('findRepeatedKeys', () => {
  it('counts every copy, compares their values, and forgets what an overridden copy held', () => {
    const text = '{"tools":[{"name":"a","annotations":{"x":1,"x":1,"x":1},"_meta":{"k":{"y":[{"z":1,"z":2}]},"k":{"y":2}}}],"tools":[{"name":"b","name":"b"}]}';
    // The first tools array is overridden: only the envelope's "tools" and what the second holds count.
    expect(findRepeatedKeys(text, [{ pointer: '', scope: 'envelope' }, { pointer: '/tools/0', scope: 'tool' }])).toEqual([
      { scope: '', kind: 'envelope', object: '', key: 'tools', count: 2, same: false },
      { scope: '/tools/0', kind: 'tool', object: '/tools/0', key: 'name', count: 2, same: true, values: ['"b"', '"b"'] },
    ]);
    const one = '{"tools":[{"name":"a","annotations":{"x":1,"x":1,"x":2},"_meta":{"k":{"y":[{"z":1,"z":2}]}}}]}';
    expect(findRepeatedKeys(one, [{ pointer: '/tools/0', scope: 'tool' }])).toEqual([
      { scope: '/tools/0', kind: 'tool', object: '/tools/0/annotations', key: 'x', count: 3, same: false, values: ['1', '2'] },
      { scope: '/tools/0', kind: 'tool', object: '/tools/0/_meta/k/y/0', key: 'z', count: 2, same: false, values: ['1', '2'] },
    ]);
  });

  it('does not overflow on deep nesting inside annotations', () => {
    const depth = 200_000;
    const text = `{"tools":[{"name":"a","annotations":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)},"annotations":{}}]}`;
    const found = findRepeatedKeys(text, [{ pointer: '/tools/0', scope: 'tool' }]);
    expect(found.map((f) => [f.object, f.key])).toEqual([['/tools/0', 'annotations']]);
  });

  it('stays linear in the repeats: 40,000 in one object and 20,000 tools each with one', () => {
    // Forgetting an overridden copy's findings used to walk every finding of the document at
    // each repeat: this case took 10–28 s (quadratic); one pass takes well under a second. The
    // test checks what the pass finds; speed is the benchmark's to measure, not a timed assertion.
    const meta = Array.from({ length: 40_000 }, (_, i) => `"k${i}":1,"k${i}":2`).join(',');
    const tools = Array.from({ length: 20_000 }, (_, i) => `{"name":"t${i}","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"readOnlyHint":true}}`);
    const text = `{"tools":[{"name":"big","inputSchema":{"type":"object"},"_meta":{${meta}}},${tools.join(',')}]}`;
    const scopes = Array.from({ length: 20_001 }, (_, i) => ({ pointer: `/tools/${i}`, scope: 'tool' as const }));
    const found = findRepeatedKeys(text, scopes);
    expect(found.length).toBe(60_000);
    expect(found[0]).toMatchObject({ object: '/tools/0/_meta', key: 'k0', same: false });
    expect(found[59_999]).toMatchObject({ object: '/tools/20000/annotations', key: 'readOnlyHint', same: true });
  });

  it('forgets what an overridden copy held, at any depth, whatever the later copy is', () => {
    const text = '{"tools":[{"name":"a","_meta":{"k":{"y":{"z":1,"z":2},"w":[{"v":1,"v":1}]},"q":{"r":1,"r":1},"k":"x"}}]}';
    expect(findRepeatedKeys(text, [{ pointer: '/tools/0', scope: 'tool' }]).map((f) => `${f.object} ${f.key}`)).toEqual(['/tools/0/_meta/q r', '/tools/0/_meta k']);
  });

  it('lets the locator find an earlier copy of a member', () => {
    const text = '{"a":1,\n"a":2,\n"a":3}';
    const [last, first, second] = createLocator(text).locateAll(['/a', '/a', '/a'], [undefined, 0, 1]);
    expect([last?.line, first?.line, second?.line]).toEqual([3, 1, 2]);
  });
});

describe('duplicate-key: copies that repeat a name inside', () => {
  it('are not "the same value" when a parser that keeps the first reads another one', async () => {
    const dir = tempDir({
      'nest.json': '{"tools":[{"name":"delete_repo","description":"Deletes a repository.","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":false,"readOnlyHint":true},"annotations":{"readOnlyHint":true}}]}',
    });
    const r = await runCli(['lint', '--no-config', 'nest.json', '-f', 'json'], { cwd: dir });
    const dup = JSON.parse(r.stdout).findings.filter((f: { ruleId: string }) => f.ruleId === 'duplicate-key');
    expect(dup.map((f: { pointer: string; severity: string; message: string }) => `${f.pointer} ${f.severity} ${/with different values/.test(f.message)}`)).toEqual(['/tools/0/annotations error true']);
    expect(r.code).toBe(1);
  });

  it('inner copies that agree keep the outer ones "the same value"', async () => {
    const dir = tempDir({
      'same.json': '{"tools":[{"name":"t","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"readOnlyHint":true,"openWorldHint":false},"annotations":{"readOnlyHint":true,"openWorldHint":false}}]}',
    });
    const r = await runCli(['lint', '--no-config', 'same.json', '-f', 'json'], { cwd: dir });
    const dup = JSON.parse(r.stdout).findings.filter((f: { ruleId: string }) => f.ruleId === 'duplicate-key');
    expect(dup.map((f: { pointer: string; severity: string }) => `${f.pointer} ${f.severity}`)).toEqual(['/tools/0/annotations warning']);
  });

  it('copies nested in copies are judged in one pass (no scan of a copy again at each level)', () => {
    // {"k":{"k":…,"k":1},"k":1}, 40 levels: scanning each earlier copy again took time doubling per level.
    let v = '0';
    for (let j = 0; j < 40; j++) v = `{"k":${v},"k":1}`;
    const text = `{"tools":[{"name":"t","annotations":{"x":${v}}}]}`;
    const found = findRepeatedKeys(text, [{ pointer: '/tools/0', scope: 'tool' }]);
    expect(found.map((f) => `${f.object} ${f.key} ${f.same}`)).toEqual(['/tools/0/annotations/x k false']);
  });
});
