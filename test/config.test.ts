/**
 * The config file: discovery, precedence, validation messages (file:line:col, closest
 * value, exit 2), presets, rules and options, overrides (including the engine's hook for
 * server and run rules), targets (files and live servers), and CLI flags over config.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULES } from '../rules/index.js';
import { lint } from '../src/engine/engine.js';
import { loadConfig, ConfigError } from '../src/config/index.js';
import { presetRules } from '../src/config/presets.js';
import { mergeSetting, rebaseTarget } from '../src/config/resolve.js';
import { loadText } from '../src/sources/files.js';
import { nameMatcher } from '../src/util/name-glob.js';
import { json, runCliInProcess as runCli, tempDir, tool } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess
import { serverArgv, VOCAB_FIXTURE } from './live/helpers.js';

const DUMP = {
  serverInfo: { name: 'acme' },
  tools: [
    tool('delete_user', { readOnlyHint: true }),
    tool('legacy_wipe', { readOnlyHint: false }),
    tool('get_user', { readOnlyHint: true, openWorldHint: false }),
  ],
};

async function problemsOf(files: Record<string, string>, cwdRel = '.'): Promise<string[]> {
  const dir = tempDir(files);
  try {
    await loadConfig({ cwd: join(dir, cwdRel) });
  } catch (err) {
    if (err instanceof ConfigError) return err.message.split('\n');
    throw err;
  }
  return [];
}

describe('discovery', () => {
  for (const name of ['mcp-annotate.config.json', '.mcp-annotaterc.json', 'mcp-annotate.config.yaml', 'mcp-annotate.config.yml']) {
    it(`finds ${name} from a subdirectory`, async () => {
      const text = name.endsWith('json') ? json({ failOn: 'warning' }) : 'failOn: warning\n';
      const dir = tempDir({ [name]: text, 'a/b/.keep': '' });
      const config = await loadConfig({ cwd: join(dir, 'a', 'b') });
      expect(config?.path).toBe(join(dir, name));
      expect(config?.failOn).toBe('warning');
    });
  }

  it('reads the "mcp-annotate" key of package.json, and skips a package.json without one', async () => {
    const dir = tempDir({ 'package.json': json({ name: 'x', 'mcp-annotate': { failOn: 'note' } }), 'pkg/package.json': json({ name: 'inner' }) });
    const config = await loadConfig({ cwd: join(dir, 'pkg') });
    expect(config?.path).toBe(join(dir, 'package.json'));
    expect(config?.failOn).toBe('note');
  });

  it('the nearest directory wins; a config file wins over package.json in the same directory', async () => {
    const dir = tempDir({
      'mcp-annotate.config.json': json({ failOn: 'note' }),
      'sub/package.json': json({ 'mcp-annotate': { failOn: 'none' } }),
      'sub/mcp-annotate.config.yaml': 'failOn: warning\n',
    });
    expect((await loadConfig({ cwd: join(dir, 'sub') }))?.failOn).toBe('warning');
    expect((await loadConfig({ cwd: dir }))?.failOn).toBe('note');
  });

  it('skips a candidate that is not a regular file (a directory, a named pipe) and goes on up', async () => {
    for (const name of ['package.json', 'mcp-annotate.config.json', 'mcp-annotate.config.yaml', 'mcp-annotate.config.yml', '.mcp-annotaterc.json']) {
      const dir = tempDir({ 'mcp-annotate.config.json': json({ failOn: 'note' }), [`d/${name}/.keep`]: '', 'd/sub/.keep': '' });
      const config = await loadConfig({ cwd: join(dir, 'd', 'sub') });
      expect(config?.path).toBe(join(dir, 'mcp-annotate.config.json'));
      expect(config?.failOn).toBe('note');
    }
    const fifo = tempDir({ 'x.json': json(DUMP) });
    execFileSync('mkfifo', [join(fifo, 'mcp-annotate.config.json')]);
    execFileSync('mkfifo', [join(fifo, 'package.json')]);
    expect(await loadConfig({ cwd: fifo, warn: () => {} })).toBeUndefined();
    const dir = tempDir({ 'd/package.json/.keep': '', 'd/sub/x.json': json(DUMP) });
    const r = await runCli(['lint', 'x.json', '-f', 'json'], { cwd: join(dir, 'd', 'sub'), timeoutMs: 10_000 });
    expect(r.stderr).not.toMatch(/internal error|EISDIR/);
    expect(JSON.parse(r.stdout).summary.servers).toBe(1);
  });

  it('warns when two config files sit in one directory', async () => {
    const dir = tempDir({ 'mcp-annotate.config.json': json({}), 'mcp-annotate.config.yaml': 'failOn: note\n' });
    const lines: string[] = [];
    const config = await loadConfig({ cwd: dir, warn: (l) => lines.push(l) });
    expect(config?.path).toBe(join(dir, 'mcp-annotate.config.json'));
    expect(lines).toEqual(['using mcp-annotate.config.json; ignoring mcp-annotate.config.yaml in the same directory (keep one config file)']);
    const empty = tempDir({ 'mcp-annotate.config.json': '' });
    expect((await loadConfig({ cwd: empty }))?.rules).toEqual({});
    // A package.json with the key is ignored too, and said to be; one without it is no config.
    const pkg = tempDir({ 'mcp-annotate.config.json': json({}), 'package.json': json({ name: 'x', 'mcp-annotate': { failOn: 'none' } }) });
    const pkgLines: string[] = [];
    await loadConfig({ cwd: pkg, warn: (l) => pkgLines.push(l) });
    expect(pkgLines).toEqual(['using mcp-annotate.config.json; ignoring the "mcp-annotate" key of package.json in the same directory (keep one config file)']);
    const plain = tempDir({ 'mcp-annotate.config.json': json({}), 'package.json': json({ name: 'x' }) });
    const plainLines: string[] = [];
    await loadConfig({ cwd: plain, warn: (l) => plainLines.push(l) });
    expect(plainLines).toEqual([]);
  });

  it('-c picks a file; --no-config ignores them all', async () => {
    const dir = tempDir({ 'mcp-annotate.config.json': json({ failOn: 'note' }), 'ci/strict.yml': 'failOn: warning\n' });
    expect((await loadConfig({ cwd: dir, file: 'ci/strict.yml' }))?.failOn).toBe('warning');
    expect(await loadConfig({ cwd: dir, noConfig: true })).toBeUndefined();
    await expect(loadConfig({ cwd: dir, file: 'missing.json' })).rejects.toThrow('missing.json: cannot read the config file: no such file or directory');
  });
});

describe('validation messages', () => {
  it('long keys and values are cut; an override without servers and tools is one problem; two YAML documents are named as such', async () => {
    const long = 'x'.repeat(100_000);
    for (const config of [{ rules: { [long]: 'error' } }, { failOn: long }, { [long]: 1 }, { rules: { 'name-vs-hints': ['error', { [long]: 1 }] } }, { targets: { mcpServers: { [long]: { url: 1 } } } }]) {
      const problems = await problemsOf({ 'mcp-annotate.config.json': JSON.stringify(config) });
      expect(problems).toHaveLength(1);
      expect(problems[0]!.length).toBeLessThan(400);
      expect(problems[0]).toContain('xxx…');
    }
    expect(await problemsOf({ 'mcp-annotate.config.json': '{"overrides": [{"rules": {}}]}' })).toEqual([
      'mcp-annotate.config.json:1:16: overrides[0] needs "servers" or "tools" (or both): the server or tool names its rules apply to',
    ]);
    expect(await problemsOf({ 'mcp-annotate.config.yaml': 'rules: {}\n---\nrules: {}\n' })).toEqual([
      'mcp-annotate.config.yaml:2:1: invalid YAML: a config file holds one YAML document; remove the "---" that starts another',
    ]);
  });

  it('JSON: unknown rule, bad severity, unknown key, bad option, and a rule naming no policy, all in one run: path, file:line:col and the closest value', async () => {
    const text = `{
  "rule": {},
  "rules": {
    "readonly-vs-outcom": "error",
    "toxic-flow": ["err", { "openWorldIsUntrustd": true }],
    "name-vs-hints": "warn"
  },
  "overrides": [{ "tools": ["x*"], "rules": { "policy/nope": "off" } }],
  "spec": "2025-11-26",
  "vocabularies": { "sep1913": false }
}
`;
    expect(await problemsOf({ 'mcp-annotate.config.json': text })).toEqual([
      'mcp-annotate.config.json:2:3: the configuration has a member "rule" that is not allowed there (allowed: "$schema", "extends", "spec", "vocabularies", "rules", "overrides", "policies", "targets", "failOn" and "maxWarnings"); did you mean "rules"?',
      'mcp-annotate.config.json:4:5: rules has an unknown rule "readonly-vs-outcom"; did you mean "readonly-vs-outcome"? (mcp-annotate rules lists them; a policy\'s rule is "policy/<name>")',
      'mcp-annotate.config.json:5:20: rules["toxic-flow"][0] is "err"; expected "off", "note", "warning" or "error"; did you mean "error"?',
      'mcp-annotate.config.json:5:29: rules["toxic-flow"][1]: toxic-flow has no option "openWorldIsUntrustd"; did you mean "openWorldIsUntrusted"? (options: openWorldIsUntrusted)',
      'mcp-annotate.config.json:6:22: rules["name-vs-hints"] is "warn"; expected "off", "note", "warning" or "error"; did you mean "warning"?',
      // Checked though the schema found errors elsewhere (it was reported only once they were fixed).
      'mcp-annotate.config.json:8:47: overrides[0].rules sets "policy/nope", but no policy is named "nope"',
      'mcp-annotate.config.json:9:11: spec is "2025-11-26"; expected "2025-03-26", "2025-06-18", "2025-11-25" or "2026-07-28"; did you mean "2025-11-25"?',
      'mcp-annotate.config.json:10:21: vocabularies has a member "sep1913" that is not allowed there (allowed: "core", "sep-1913", "action-metadata", "trust-annotations", "risk-metadata", "webmcp-sensitive" and "meta-hints"); did you mean "sep-1913"?',
    ]);
  });

  it('a spec version that is an unknown date suggests the version a recorded one is linted as, unless it is one typo from a known version', async () => {
    const problem = async (spec: string) => (await problemsOf({ 'mcp-annotate.config.json': json({ spec }) }))[0];
    const expected = '"2025-03-26", "2025-06-18", "2025-11-25" or "2026-07-28"';
    // 2024-11-05 is one edit from 2025-11-25, but older than every version known: linted as 2025-03-26.
    expect(await problem('2024-11-05')).toBe(`mcp-annotate.config.json:2:11: spec is "2024-11-05"; expected ${expected}; did you mean "2025-03-26", the version a recorded "2024-11-05" is linted as?`);
    expect(await problem('2025-09-01')).toBe(`mcp-annotate.config.json:2:11: spec is "2025-09-01"; expected ${expected}; did you mean "2025-06-18", the version a recorded "2025-09-01" is linted as?`);
    // One typo from a known version (a digit off, two digits swapped): that version, misspelt.
    expect(await problem('2026-07-27')).toBe(`mcp-annotate.config.json:2:11: spec is "2026-07-27"; expected ${expected}; did you mean "2026-07-28"?`);
    expect(await problem('2025-06-08')).toBe(`mcp-annotate.config.json:2:11: spec is "2025-06-08"; expected ${expected}; did you mean "2025-06-18"?`);
    expect(await problem('2025-11-52')).toBe(`mcp-annotate.config.json:2:11: spec is "2025-11-52"; expected ${expected}; did you mean "2025-11-25"?`);
    // Where both agree, the plain suggestion.
    expect(await problem('2025-06-19')).toBe(`mcp-annotate.config.json:2:11: spec is "2025-06-19"; expected ${expected}; did you mean "2025-06-18"?`);
  });

  it('checks each part on its own: a bad effect does not hide a policy\'s conditions, nor a bad rules entry an unknown policy/<name> beside it', async () => {
    const text = 'rules:\n  name-vs-hints: warn\n  policy/nonexistent: off\n  policy/p0: error\npolicies:\n  - { name: p0, effect: blok, conditions: { fact: claims.destination, equals: public } }\n  - { name: p1, effect: blok, conditions: {} }\n';
    expect(await problemsOf({ 'mcp-annotate.config.yaml': text })).toEqual([
      'mcp-annotate.config.yaml:2:18: rules["name-vs-hints"] is "warn"; expected "off", "note", "warning" or "error"; did you mean "warning"?',
      'mcp-annotate.config.yaml:3:3: rules sets "policy/nonexistent", but no policy is named "nonexistent"',
      'mcp-annotate.config.yaml:6:25: policies[0].effect is "blok"; expected "block", "escalate" or "warn"; did you mean "block"?',
      expect.stringMatching(/^mcp-annotate\.config\.yaml:6:51: policies\[0\]\.conditions\.fact: "claims\.destination" is not a claim fact; did you mean "claims\.destinations"\?/),
      'mcp-annotate.config.yaml:7:25: policies[1].effect is "blok"; expected "block", "escalate" or "warn"; did you mean "block"?',
      'mcp-annotate.config.yaml:7:43: policies[1].conditions: a condition is {"fact": …, "equals"|"in"|"contains": …}, {"and": […]}, {"or": […]} or {"not": {…}}',
    ]);
  });

  it('a policy whose name the schema refuses still lends that name to its rules entries: one message, not a second that says no policy has it', async () => {
    const text = 'policies:\n  - { name: "bad name!", effect: warn, conditions: { fact: tool.name, equals: x } }\nrules:\n  policy/bad name!: warning\noverrides:\n  - { tools: ["x"], rules: { policy/bad name!: "off" } }\n';
    const problems = await problemsOf({ 'mcp-annotate.config.yaml': text });
    expect(problems).toEqual([expect.stringMatching(/^mcp-annotate\.config\.yaml:2:\d+: policies\[0\]\.name must match pattern/)]);
  });

  it('a policy whose name is a YAML number lends it too (policy/5): the schema\'s message alone', async () => {
    const text = 'policies:\n  - { name: 5, effect: warn, conditions: { fact: tool.name, equals: x } }\nrules:\n  policy/5: warning\noverrides:\n  - { tools: ["x"], rules: { policy/5: "off" } }\n';
    const problems = await problemsOf({ 'mcp-annotate.config.yaml': text });
    expect(problems).toEqual([expect.stringMatching(/^mcp-annotate\.config\.yaml:2:\d+: policies\[0\]\.name /)]);
  });

  it('a policy rule id must name a policy', async () => {
    const text = json({ policies: [{ name: 'no-public', effect: 'warn', conditions: { fact: 'tool.name', equals: 'x' } }], overrides: [{ tools: ['x*'], rules: { 'policy/no-publik': 'off' } }] });
    expect(await problemsOf({ 'mcp-annotate.config.json': text })).toEqual([
      'mcp-annotate.config.json:18:9: overrides[0].rules sets "policy/no-publik", but no policy is named "no-publik"; did you mean "policy/no-public"?',
    ]);
  });

  it('a policy the schema rejects does not hide the problems of the others, nor its name from the rules that use it', async () => {
    const text = json({
      policies: [
        { name: 'bad-effect', effect: 'warnn', conditions: { fact: 'tool.name', equals: 'x' } },
        { name: 'twice', effect: 'warn', conditions: { fact: 'tool.name', equals: 'x' } },
        { name: 'twice', effect: 'warn', conditions: { fact: 'tool.name', equals: 'y' } },
      ],
      rules: { 'policy/bad-effect': 'error' },
    });
    const problems = await problemsOf({ 'mcp-annotate.config.json': text });
    expect(problems.some((p) => p.includes('policies[0].effect'))).toBe(true);
    expect(problems.some((p) => p.includes('policies[2].name "twice" is already the name of policies[1]'))).toBe(true);
    expect(problems.some((p) => p.includes('no policy is named'))).toBe(false);
  });

  it('a value listed twice: which, and where, without the noise of the branch that wanted an object', async () => {
    expect(await problemsOf({ 'mcp-annotate.config.yaml': 'vocabularies: [sep-1913, core, sep-1913]\n' })).toEqual([
      'mcp-annotate.config.yaml:1:32: vocabularies lists "sep-1913" twice (items 0 and 2)',
    ]);
  });

  it('vocabularies.core: false is refused with its reason, beside the other problems (the schema says const true)', async () => {
    expect(await problemsOf({ 'mcp-annotate.config.json': '{"vocabularies": {"core": false, "sep-1913": 1}}' })).toEqual([
      'mcp-annotate.config.json:1:27: vocabularies.core cannot be false: the core vocabulary is the MCP spec itself and is always on',
      'mcp-annotate.config.json:1:46: vocabularies["sep-1913"] must be a boolean, got an integer (1)',
    ]);
  });

  it('a member given twice in a JSON config is an error, as YAML makes it (only inside package.json\'s own key)', async () => {
    expect(await problemsOf({ 'mcp-annotate.config.json': '{\n  "rules": {\n    "toxic-flow": "off",\n    "toxic-flow": "error"\n  }\n}\n' })).toEqual([
      'mcp-annotate.config.json:4:5: "toxic-flow" is given twice in one object (first at line 3); keep one',
    ]);
    // package.json: its other members are npm's business.
    expect(await problemsOf({ 'package.json': '{"scripts": {"a": "1", "a": "2"}, "mcp-annotate": {"rules": {}}}' })).toEqual([]);
    expect(await problemsOf({ 'package.json': '{\n"mcp-annotate": {"failOn": "error",\n "failOn": "note"}}' })).toEqual([
      'package.json:3:2: "failOn" is given twice in one object (first at line 2); keep one',
    ]);
    // The "mcp-annotate" key itself given twice: found (whichever copy is null) and refused, with either copy first.
    const twice = 'package.json:2:1: "mcp-annotate" is given twice in one object (first at line 1); keep one';
    for (const second of ['{"rules": {"name-vs-hints": "off"}}', 'null']) {
      expect(await problemsOf({ 'package.json': `{"name": "a", "mcp-annotate": {},\n"mcp-annotate": ${second}}` }), second).toEqual([twice]);
      expect(await problemsOf({ 'package.json': `{"name": "a", "mcp-annotate": ${second},\n"mcp-annotate": {}}` }), second).toEqual([twice]);
    }
    const dir = tempDir({ 'package.json': '{"name": "a", "mcp-annotate": {},\n"mcp-annotate": {"rules": {"name-vs-hints": "off"}}}\n', 'd.json': json(DUMP) });
    for (const args of [['lint', 'd.json'], ['lint', '-c', 'package.json', 'd.json']]) {
      expect(await runCli(args, { cwd: dir })).toEqual({ code: 2, stdout: '', stderr: `mcp-annotate: ${twice}\n` });
    }
    // A null key alone is no config (discovery skips it), as before.
    expect(await problemsOf({ 'package.json': '{"name": "a", "mcp-annotate": null}' })).toEqual([]);
  });

  it('YAML: positions of keys and values, and syntax errors', async () => {
    expect(await problemsOf({ 'mcp-annotate.config.yaml': 'extends: mcp-annotate:strikt\nrules:\n  hidden-characters: warnin\n  no-such-rule: off\n' })).toEqual([
      'mcp-annotate.config.yaml:1:10: extends is "mcp-annotate:strikt"; expected "mcp-annotate:recommended", "mcp-annotate:strict" or "mcp-annotate:all"; did you mean "mcp-annotate:strict"?',
      'mcp-annotate.config.yaml:3:22: rules["hidden-characters"] is "warnin"; expected "off", "note", "warning" or "error"; did you mean "warning"?',
      'mcp-annotate.config.yaml:4:3: rules has an unknown rule "no-such-rule" (mcp-annotate rules lists them; a policy\'s rule is "policy/<name>")',
    ]);
    expect(await problemsOf({ 'mcp-annotate.config.yml': 'rules:\n  a: 1\n  a: 2\n' })).toEqual(['mcp-annotate.config.yml:3:3: invalid YAML: Map keys must be unique']);
  });

  it('YAML 1.1 tags (!!binary, !!timestamp, !!set, !!omap, !!pairs) and other unknown tags are one line each at the tag, not a Buffer\'s methods or a setting dropped', async () => {
    const refused = (tag: string) => `the YAML tag ${tag} is not allowed: a config holds maps, sequences, strings, numbers, booleans and null (YAML 1.2's core schema), not what ${tag} makes; remove the tag`;
    const cases: [string, string][] = [
      ['rules: !!binary AAAA\n', `1:8: ${refused('!!binary')}`],
      ['!!binary AAAA\n', `1:1: ${refused('!!binary')}`],
      ['targets: !!binary AAAA\n', `1:10: ${refused('!!binary')}`],
      ['failOn: !!binary AAAA\n', `1:9: ${refused('!!binary')}`],
      ['spec: !!timestamp 2025-11-25\n', `1:7: ${refused('!!timestamp')}`],
      ['rules: !!set { name-vs-hints }\n', `1:8: ${refused('!!set')}`],
      ['extends: !!set { mcp-annotate:strict }\n', `1:10: ${refused('!!set')}`],
      ['rules:\n  name-vs-hints: !!omap [ a: 1 ]\n', `2:18: ${refused('!!omap')}`],
      ['overrides: !!pairs [ a: 1 ]\n', `1:12: ${refused('!!pairs')}`],
      ['failOn: !warn warning\n', `1:9: ${refused('!warn')}`],
    ];
    for (const [text, problem] of cases) expect(await problemsOf({ 'mcp-annotate.config.yaml': text }), text).toEqual([`mcp-annotate.config.yaml:${problem}`]);
    // Every tag is said, in file order.
    expect(await problemsOf({ 'mcp-annotate.config.yaml': 'spec: !!timestamp 2025-11-25\nrules: !!set { x }\n' })).toEqual([`mcp-annotate.config.yaml:1:7: ${refused('!!timestamp')}`, `mcp-annotate.config.yaml:2:8: ${refused('!!set')}`]);
    // The core schema's own tags are fine, and a %YAML 1.1 directive does not bring YAML 1.1's
    // implicit types back (the date stays the string the schema wants).
    expect(await problemsOf({ 'mcp-annotate.config.yaml': 'failOn: !!str warning\nmaxWarnings: !!int 3\n' })).toEqual([]);
    expect(await problemsOf({ 'mcp-annotate.config.yaml': '%YAML 1.1\n---\nspec: 2025-11-25\n' })).toEqual([]);
    const dir = tempDir({ 'cfg.yaml': 'rules: !!binary AAAA\n', 'd.json': json(DUMP) });
    expect(await runCli(['lint', 'd.json', '-c', 'cfg.yaml'], { cwd: dir })).toEqual({ code: 2, stdout: '', stderr: `mcp-annotate: cfg.yaml:1:8: ${refused('!!binary')}\n` });
  });

  it('aliases that would expand past the yaml package\'s guard are one line at the alias where it gives up', async () => {
    // Each line aliases the one before ten times: the eighth *a2 is where the yaml package stops
    // (8 references times the 121 copies *a2 holds passes 1,000; seven pass, checked below).
    const lines = (last: number) => [
      'a0: &a0 [x, x, x, x, x, x, x, x, x, x]',
      ...[1, 2].map((i) => `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`),
      `a3: [${Array(last).fill('*a2').join(', ')}]`,
      '',
    ];
    expect(await problemsOf({ 'mcp-annotate.config.yaml': lines(7).join('\n') })).not.toContainEqual(expect.stringContaining('invalid YAML'));
    expect(await problemsOf({ 'mcp-annotate.config.yaml': lines(10).join('\n') })).toEqual([
      'mcp-annotate.config.yaml:4:41: invalid YAML: aliases expand this file past 1,000 copies, from the alias *a2 here on (a guard against a file that would fill the memory); write the values out, or alias them fewer times',
    ]);
  });

  it('an alias with no anchor before it and a collection as a key are one line each with their position, and no warning of the yaml package reaches stderr', async () => {
    expect(await problemsOf({ 'mcp-annotate.config.yaml': 'a: &x 1\nb: *y\n' })).toEqual(['mcp-annotate.config.yaml:2:4: invalid YAML: the alias *y names no anchor before it; define &y first, or write the value out']);
    const key = 'a collection is not a valid key ("[a, b]"): a config\'s keys are strings, and JavaScript would turn this one into text; use a string key';
    expect(await problemsOf({ 'mcp-annotate.config.yaml': 'rules:\n  ? [a, b]\n  : off\n' })).toEqual([`mcp-annotate.config.yaml:2:5: ${key}`]);
    expect(await problemsOf({ 'mcp-annotate.config.yaml': 'x: &k [a, b]\nrules: { ? *k : off }\n' })).toEqual([
      'mcp-annotate.config.yaml:2:12: a collection is not a valid key ("*k"): a config\'s keys are strings, and JavaScript would turn this one into text; use a string key',
    ]);
    const dir = tempDir({ 'cfg.yaml': 'rules: { ? [a, b] : off }\n', 'd.json': json(DUMP) });
    expect(await runCli(['lint', 'd.json', '-c', 'cfg.yaml'], { cwd: dir })).toEqual({ code: 2, stdout: '', stderr: `mcp-annotate: cfg.yaml:1:12: ${key}\n` });
  });

  it('the validator reads an object\'s own members only, never inherited ones', async () => {
    const { checkConfig } = await import('../src/config/validate.js');
    const problems: { message: string }[] = [];
    const inherited = Object.assign(Object.create({ asciiSlice: 1, 'not-a-rule': 'error' }) as object, { 'name-vs-hints': 'off' });
    checkConfig(Object.assign(Object.create({ junk: true }) as object, { rules: inherited, failOn: 'warning' }), problems as never);
    expect(problems).toEqual([]);
  });

  it('a glob longer than picomatch compiles is a positioned config error, not an internal error', async () => {
    const long = 'x'.repeat(70_000) + '*';
    expect(await problemsOf({ 'mcp-annotate.config.json': JSON.stringify({ overrides: [{ tools: ['ok', long], rules: {} }] }) })).toEqual([
      'mcp-annotate.config.json:1:30: overrides[0].tools[1] is too long (70,001 characters; at most 65,536)',
    ]);
    expect(await problemsOf({ 'mcp-annotate.config.json': JSON.stringify({ overrides: [{ servers: [long], rules: {} }] }) })).toEqual([
      'mcp-annotate.config.json:1:27: overrides[0].servers[0] is too long (70,001 characters; at most 65,536)',
    ]);
    expect(await problemsOf({ 'mcp-annotate.config.json': JSON.stringify({ targets: { files: [long] } }) })).toEqual([
      'mcp-annotate.config.json:1:22: targets.files[0] is too long (70,001 characters; at most 65,536)',
    ]);
    const dir = tempDir({ 'g.json': JSON.stringify({ overrides: [{ tools: [long], rules: {} }] }), 'a.json': json(DUMP) });
    const r = await runCli(['diff', 'a.json', 'a.json', '-c', 'g.json'], { cwd: dir });
    expect(r).toMatchObject({ code: 2, stderr: 'mcp-annotate: g.json:1:25: overrides[0].tools[0] is too long (70,001 characters; at most 65,536)\n' });
  });

  it('a server or tool glob whose regular expression V8 cannot compile is a positioned config error, not an internal error', async () => {
    // Under the 65,536 limit (so the schema accepts it), but it threw at the first name matched.
    const big = '*' + 'a'.repeat(40_000);
    expect(await problemsOf({ 'mcp-annotate.config.json': JSON.stringify({ overrides: [{ tools: ['ok', big], servers: [big], rules: {} }] }) })).toEqual([
      'mcp-annotate.config.json:1:30: overrides[0].tools[1] cannot be compiled (Regular expression too large, at 40,001 characters); use a shorter pattern',
      'mcp-annotate.config.json:1:40046: overrides[0].servers[0] cannot be compiled (Regular expression too large, at 40,001 characters); use a shorter pattern',
    ]);
    const dir = tempDir({ 'mcp-annotate.config.json': JSON.stringify({ overrides: [{ tools: [big], rules: {} }] }), 'a.json': json(DUMP) });
    const r = await runCli(['lint', 'a.json'], { cwd: dir });
    expect(r).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'mcp-annotate: mcp-annotate.config.json:1:25: overrides[0].tools[0] cannot be compiled (Regular expression too large, at 40,001 characters); use a shorter pattern\n',
    });
  });

  it('JSON syntax errors, package.json positions, and comments allowed', async () => {
    expect(await problemsOf({ 'mcp-annotate.config.json': '{\n  "rules": {\n    "toxic-flow": "off",,\n  }\n}\n' })).toEqual(['mcp-annotate.config.json:3:25: invalid JSON: expected a property name in double quotes']);
    expect(await problemsOf({ 'package.json': '{\n  "name": "x",\n  "mcp-annotate": {\n    "failOn": "errors"\n  }\n}\n' })).toEqual([
      'package.json:4:15: failOn is "errors"; expected "error", "warning", "note" or "none"; did you mean "error"?',
    ]);
    expect(await problemsOf({ 'mcp-annotate.config.json': '{\n  // warnings fail the build\n  "failOn": "warning",\n}\n' })).toEqual([]);
  });

  it('live server entries: needs command or url; env and header values are never shown', async () => {
    const text = json({ targets: { mcpServers: { broken: { args: ['x'] }, secret: { command: 'node', env: { TOKEN: 12345678 } } } } });
    const problems = await problemsOf({ 'mcp-annotate.config.json': text });
    expect(problems).toEqual([
      'mcp-annotate.config.json:4:7: targets.mcpServers.broken needs "command" (a program to start over stdio) or "url" (a Streamable HTTP or SSE endpoint)',
      'mcp-annotate.config.json:12:20: targets.mcpServers.secret.env.TOKEN must be a string (its value is not shown)',
    ]);
    expect(problems.join('\n')).not.toContain('12345678');
  });

  it('the CLI prints each problem on its own line, exits 2 and lints nothing', async () => {
    const dir = tempDir({ 'mcp-annotate.config.json': json({ rules: { 'toxic-flw': 'off' }, failOn: 'warnings' }), 'dump.json': json(DUMP) });
    const r = await runCli(['lint', 'dump.json'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        'mcp-annotate: mcp-annotate.config.json:3:5: rules has an unknown rule "toxic-flw"; did you mean "toxic-flow"? (mcp-annotate rules lists them; a policy\'s rule is "policy/<name>")',
        'mcp-annotate: mcp-annotate.config.json:5:13: failOn is "warnings"; expected "error", "warning", "note" or "none"; did you mean "warning"?',
        '',
      ].join('\n'),
    );
  });
});

describe('presets, rules and options', () => {
  const servers = () => loadText(json(DUMP), { kind: 'file', path: 'd.json', display: 'd.json' }, 'acme', 'd.json');
  const sev = (rules: Record<string, unknown>, id: string) => lint(servers(), RULES, { rules: rules as never }).findings.filter((f) => f.ruleId === id).map((f) => f.severity);

  it('recommended is the defaults; strict raises warnings and notes but not heuristics; all makes everything an error', () => {
    const rec = presetRules('mcp-annotate:recommended', RULES);
    expect(RULES.every((r) => rec[r.id] === r.severity)).toBe(true);
    const strict = presetRules('mcp-annotate:strict', RULES);
    expect(strict['implicit-destructive']).toBe('error');
    expect(strict['implicit-open-world']).toBe('warning');
    expect(strict['name-vs-hints']).toBe('warning');
    expect(strict['description-vs-hints']).toBe('note');
    expect(strict['ignored-hint']).toBe('note');
    const all = presetRules('mcp-annotate:all', RULES);
    expect(new Set(Object.values(all))).toEqual(new Set(['error']));
    expect(sev(strict, 'implicit-destructive')).toEqual(['error']);
  });

  it("a rule's lower-severity cases move with its setting: strict leaves no warning of a non-heuristic rule, all makes every finding an error", async () => {
    // readonly-vs-category (error) reports sideEffects on a read-only tool as a warning case;
    // meta-key-format (warning) reports a prefix that is not reverse-DNS as a note case.
    const t = tool('audit', { readOnlyHint: true, openWorldHint: false, sideEffects: ['audit_log'] }, { _meta: { 'mcp.dev/owner': 'team' } });
    const severities = async (config: string) => {
      const dir = tempDir({ 'mcp-annotate.config.yaml': config, 'd.json': json({ serverInfo: { name: 's' }, tools: [t] }) });
      const r = await runCli(['lint', 'd.json', '-f', 'json', '--fail-on', 'none'], { cwd: dir });
      expect(r.stderr).toBe('');
      const found = JSON.parse(r.stdout).findings as { ruleId: string; severity: string }[];
      const of = (id: string) => found.filter((f) => f.ruleId === id).map((f) => f.severity);
      return { category: of('readonly-vs-category'), meta: of('meta-key-format') };
    };
    expect(await severities('extends: mcp-annotate:recommended\n')).toEqual({ category: ['warning'], meta: ['note'] });
    expect(await severities('extends: mcp-annotate:strict\n')).toEqual({ category: ['error'], meta: ['warning'] });
    expect(await severities('extends: mcp-annotate:all\n')).toEqual({ category: ['error'], meta: ['error'] });
    // A severity of one's own: the documented case keeps its distance below the rule's.
    expect(await severities('rules:\n  meta-key-format: error\n  readonly-vs-category: warning\n')).toEqual({ category: ['note'], meta: ['warning'] });
    // After a preset, a severity of one's own below the preset's replaces its raise; one that
    // restates it keeps it (writing "error" under all lowers nothing); a later recommended undoes strict.
    expect(await severities('extends: mcp-annotate:strict\nrules:\n  readonly-vs-category: error\n')).toEqual({ category: ['error'], meta: ['warning'] });
    expect(await severities('extends: mcp-annotate:all\nrules:\n  meta-key-format: error\n  readonly-vs-category: error\n')).toEqual({ category: ['error'], meta: ['error'] });
    expect(await severities('extends: mcp-annotate:all\nrules:\n  readonly-vs-category: warning\n')).toEqual({ category: ['note'], meta: ['error'] });
    expect(await severities('extends: [mcp-annotate:strict, mcp-annotate:recommended]\n')).toEqual({ category: ['warning'], meta: ['note'] });
    // An override's severity replaces the preset's raise for the tools it names.
    expect(await severities('extends: mcp-annotate:all\noverrides:\n  - tools: [audit]\n    rules:\n      meta-key-format: warning\n')).toEqual({ category: ['error'], meta: ['note'] });
    expect(await severities('extends: mcp-annotate:all\noverrides:\n  - tools: [audit]\n    rules:\n      meta-key-format: error\n')).toEqual({ category: ['error'], meta: ['error'] });
  });

  it('strict leaves ignored-hint a note, so a read-only tool with harmless redundant hints passes --max-warnings 0; all and a setting of one\'s own still raise it', async () => {
    // The git and filesystem reference servers' shape: idempotentHint and destructiveHint false beside readOnlyHint true.
    const t = tool('git_status', { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    const run = async (config: string) => {
      const dir = tempDir({ 'mcp-annotate.config.yaml': config, 'd.json': json({ serverInfo: { name: 's' }, tools: [t] }) });
      const r = await runCli(['lint', 'd.json', '-f', 'json', '--max-warnings', '0'], { cwd: dir });
      expect(r.stderr).toBe('');
      return { code: r.code, found: (JSON.parse(r.stdout).findings as { ruleId: string; severity: string }[]).map((f) => `${f.ruleId} ${f.severity}`) };
    };
    expect(await run('extends: mcp-annotate:strict\n')).toEqual({ code: 0, found: ['ignored-hint note', 'ignored-hint note'] });
    expect(await run('extends: mcp-annotate:all\n')).toEqual({ code: 1, found: ['ignored-hint error', 'ignored-hint error'] });
    expect(await run('extends: mcp-annotate:strict\nrules:\n  ignored-hint: warning\n')).toEqual({ code: 1, found: ['ignored-hint warning', 'ignored-hint warning'] });
  });

  it('a severity of one\'s own other than the preset\'s is taken as written: error under strict on a note rule is an error', async () => {
    const t = tool('delete_file', { readOnlyHint: false, destructiveHint: true });
    for (const config of ['extends: mcp-annotate:strict\nrules:\n  implicit-open-world: error\n', 'extends: mcp-annotate:strict\noverrides:\n  - tools: ["*"]\n    rules:\n      implicit-open-world: error\n']) {
      const dir = tempDir({ 'mcp-annotate.config.yaml': config, 'd.json': json({ serverInfo: { name: 's' }, tools: [t] }) });
      const r = await runCli(['lint', 'd.json', '-f', 'json'], { cwd: dir });
      const found = JSON.parse(r.stdout).findings as { ruleId: string; severity: string }[];
      expect(found.filter((f) => f.ruleId === 'implicit-open-world').map((f) => f.severity), config).toEqual(['error']);
      expect(r.code, config).toBe(1);
    }
  });

  it('under strict, a proposal\'s own mcp.dev/ key does not hide a note about a key of the server\'s own under that prefix, in any order', async () => {
    for (const meta of [{ 'mcp.dev/requiresConfirmation': true, 'mcp.dev/ownThing': 1 }, { 'mcp.dev/ownThing': 1, 'mcp.dev/requiresConfirmation': true }]) {
      const t = tool('send', { readOnlyHint: false, destructiveHint: false, openWorldHint: true }, { _meta: meta });
      const dir = tempDir({ 'mcp-annotate.config.yaml': 'extends: mcp-annotate:strict\n', 'd.json': json({ protocolVersion: '2025-11-25', serverInfo: { name: 's' }, tools: [t] }) });
      const r = await runCli(['lint', 'd.json', '-f', 'json', '--fail-on', 'none'], { cwd: dir });
      const found = (JSON.parse(r.stdout).findings as { ruleId: string; severity: string; pointer: string }[]).filter((f) => f.ruleId === 'meta-key-format');
      expect(found.map((f) => [f.pointer, f.severity]).sort(), JSON.stringify(meta)).toEqual([
        ['/tools/0/_meta/mcp.dev~1ownThing', 'warning'],
        ['/tools/0/_meta/mcp.dev~1requiresConfirmation', 'note'],
      ]);
    }
  });

  it('a note there is nothing to fix in stays a note under strict and all: no setting makes a finding no change can clear', async () => {
    // meta-key-format's note on a proposal's own forward-written prefix (mcp.dev/), and a policy's "cannot be decided" note.
    const t = tool('rm', { readOnlyHint: false, destructiveHint: true, openWorldHint: false }, { _meta: { 'mcp.dev/effect': 'delete', 'mcp.dev/requiresConfirmation': true } });
    const policy = 'policies:\n  - name: warn-open\n    effect: warn\n    conditions: { fact: request.annotations.openWorldHint, equals: true }\n';
    for (const preset of ['mcp-annotate:strict', 'mcp-annotate:all']) {
      const dir = tempDir({ 'mcp-annotate.config.yaml': `extends: ${preset}\nrules:\n  policy/warn-open: error\n${policy}`, 'd.json': json({ serverInfo: { name: 's' }, tools: [t] }) });
      const r = await runCli(['lint', 'd.json', '-f', 'json', '--max-warnings', '0'], { cwd: dir });
      const found = JSON.parse(r.stdout).findings as { ruleId: string; severity: string }[];
      expect(found.map((f) => [f.ruleId, f.severity]), preset).toEqual([
        ['policy/warn-open', 'note'],
        ['meta-key-format', 'note'],
      ]);
      expect(r.code, preset).toBe(0);
    }
  });

  it('a severity alone keeps the options; options merge key by key', () => {
    expect(mergeSetting(['warning', { openWorldIsUntrusted: true }], 'error')).toEqual(['error', { openWorldIsUntrusted: true }]);
    expect(mergeSetting(['warning', { a: 1 }], ['error', { b: 2 }])).toEqual(['error', { a: 1, b: 2 }]);
    expect(mergeSetting(undefined, 'off')).toBe('off');
  });

  it('extends then rules, through the real loader', async () => {
    const dir = tempDir({ 'mcp-annotate.config.yaml': 'extends: [mcp-annotate:all, mcp-annotate:recommended]\nrules:\n  toxic-flow: [note, { openWorldIsUntrusted: true }]\n' });
    const config = await loadConfig({ cwd: dir });
    expect(config?.rules['implicit-open-world']).toBe('note');
    expect(config?.rules['toxic-flow']).toEqual(['note', { openWorldIsUntrusted: true }]);
  });
});

describe('overrides', () => {
  const twoServers = () => [
    ...loadText(json(DUMP), { kind: 'file', path: 'a.json', display: 'a.json' }, 'acme', 'a.json'),
    ...loadText(json({ serverInfo: { name: 'other' }, tools: [tool('get_user', { readOnlyHint: true, openWorldHint: false })] }), { kind: 'file', path: 'b.json', display: 'b.json' }, 'other', 'b.json'),
  ];
  async function configFor(value: unknown) {
    const dir = tempDir({ 'mcp-annotate.config.json': json(value) });
    return (await loadConfig({ cwd: dir }))!;
  }
  const run = async (value: unknown) => {
    const c = await configFor(value);
    return lint(twoServers(), RULES, { rules: c.rules, overrides: c.overrides }).findings.map((f) => `${f.server}/${f.tool ?? '-'} ${f.ruleId} ${f.severity}`);
  };

  it('by tool-name glob and server name, applied in order', async () => {
    const base = await run({});
    expect(base).toContain('acme/legacy_wipe implicit-destructive warning');
    const out = await run({
      overrides: [
        { tools: ['legacy_*'], rules: { 'implicit-destructive': 'off' } },
        { servers: ['acme'], tools: ['delete_*'], rules: { 'name-vs-hints': 'error' } },
      ],
    });
    expect(out).not.toContain('acme/legacy_wipe implicit-destructive warning');
    expect(out).toContain('acme/delete_user name-vs-hints error');
  });

  it('a run-level rule that is off globally runs for the servers an override turns it on for', async () => {
    const off = await run({ rules: { 'cross-server-name-collision': 'off' } });
    expect(off.filter((l) => l.includes('cross-server-name-collision'))).toEqual([]);
    const on = await run({ rules: { 'cross-server-name-collision': 'off' }, overrides: [{ servers: ['other'], rules: { 'cross-server-name-collision': 'warning' } }] });
    expect(on.filter((l) => l.includes('cross-server-name-collision'))).toEqual(['other/get_user cross-server-name-collision warning']);
  });

  it('a server-level rule reports nothing on the tools an override turns it off for', async () => {
    const dup = { serverInfo: { name: 'dups' }, tools: [tool('same', { readOnlyHint: true }), tool('same', { readOnlyHint: true }), tool('x_same', { readOnlyHint: true })] };
    const servers = loadText(json(dup), { kind: 'file', path: 'd.json', display: 'd.json' }, 'dups', 'd.json');
    const c = await configFor({ overrides: [{ tools: ['same'], rules: { 'tool-name-unique': 'off' } }] });
    const all = lint(servers, RULES, {}).findings.filter((f) => f.ruleId === 'tool-name-unique');
    expect(all.length).toBeGreaterThan(0);
    expect(lint(servers, RULES, { rules: c.rules, overrides: c.overrides }).findings.filter((f) => f.ruleId === 'tool-name-unique')).toEqual([]);
    // Off for every tool but on through an override: runs, and reports on those tools only.
    const c2 = await configFor({ rules: { 'tool-name-unique': 'off' }, overrides: [{ tools: ['sa*'], rules: { 'tool-name-unique': 'error' } }] });
    expect(lint(servers, RULES, { rules: c2.rules, overrides: c2.overrides }).findings.filter((f) => f.ruleId === 'tool-name-unique').length).toBe(all.length);
  });
});

describe('an override whose globs match nothing in the run gets a note on stderr (it never fails the run)', () => {
  const PAYMENTS = json({ tools: [{ name: 'refund', inputSchema: { type: 'object' } }] });

  it('servers that name the file or another letter case: one note per override, at its servers, with the server meant', async () => {
    const dir = tempDir({
      'payments.json': PAYMENTS,
      'cfg.yaml': ['overrides:', '  - servers: ["payments.json", "Payments"]', '    rules: { missing-readonly-hint: error }', ''].join('\n'),
    });
    const r = await runCli(['lint', 'payments.json', '-c', 'cfg.yaml'], { cwd: dir });
    // The exit code is the run's without the override: a note fails nothing.
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      'mcp-annotate: note: cfg.yaml:2:5: overrides[0].servers matched no server in this run; did you mean "payments"? ("payments.json" names the file of server "payments": overrides match server names; "Payments" differs in letter case: globs are case-sensitive)\n',
    );
    // Spelled right, the override applies, and nothing is noted.
    writeFileSync(join(dir, 'cfg.yaml'), 'overrides:\n  - servers: ["payments"]\n    rules: { missing-readonly-hint: error }\n');
    expect(await runCli(['lint', 'payments.json', '-c', 'cfg.yaml'], { cwd: dir })).toMatchObject({ code: 1, stderr: '' });
  });

  it('tools that match no tool of the servers the override applies to; a glob of a server of another run; "[" (picomatch reads it as the character)', async () => {
    const dir = tempDir({
      'payments.json': PAYMENTS,
      'other.json': json({ serverInfo: { name: 'billing' }, tools: [tool('Charge', { readOnlyHint: false })] }),
      'mcp-annotate.config.json': json({
        overrides: [
          { servers: ['payments'], tools: ['Refund', 'Charge'], rules: { 'missing-readonly-hint': 'error' } },
          { tools: ['charge'], rules: { 'missing-readonly-hint': 'error' } },
          { servers: ['billing', 'not-linted-here'], rules: { 'missing-readonly-hint': 'error' } },
          { servers: ['['], rules: { 'missing-readonly-hint': 'error' } },
          { servers: ['pay*'], tools: ['ref*'], rules: { 'missing-readonly-hint': 'error' } },
        ],
      }),
    });
    const r = await runCli(['lint', 'payments.json', 'other.json', '-f', 'json'], { cwd: dir });
    expect(r.stderr.split('\n')).toEqual([
      'mcp-annotate: note: mcp-annotate.config.json:7:7: overrides[0].tools matched no tool of the servers it applies to in this run; did you mean "refund"? ("Refund" differs in letter case: globs are case-sensitive)',
      'mcp-annotate: note: mcp-annotate.config.json:16:7: overrides[1].tools matched no tool in this run; did you mean "Charge"? ("charge" differs in letter case: globs are case-sensitive)',
      // "[" and "not-linted-here" are no near miss of a server of the run: nothing is said.
      '',
    ]);
    expect(r.code).toBe(1);
  });

  it("a team config's overrides for servers and tools the run does not lint say nothing; a near spelling of a server's or a tool's name is noted", async () => {
    const dir = tempDir({
      'time.json': json({ serverInfo: { name: 'mcp-time', version: '1' }, tools: [tool('get_current_time', { readOnlyHint: true, openWorldHint: false })] }),
      'cfg.yaml': [
        'overrides:',
        '  - servers: ["mcp-time"]',
        '    rules: { missing-readonly-hint: error }',
        '  - servers: ["mcp-fetch"]',
        '    rules: { missing-readonly-hint: error }',
        '  - tools: ["delete_*"]',
        '    rules: { missing-readonly-hint: error }',
        '',
      ].join('\n'),
    });
    expect(await runCli(['lint', 'time.json', '-c', 'cfg.yaml'], { cwd: dir })).toMatchObject({ code: 0, stderr: '' });
    writeFileSync(
      join(dir, 'cfg.yaml'),
      ['overrides:', '  - servers: ["mcp-timex"]', '    rules: { missing-readonly-hint: error }', '  - tools: ["get_curent_time"]', '    rules: { missing-readonly-hint: error }', ''].join('\n'),
    );
    const r = await runCli(['lint', 'time.json', '-c', 'cfg.yaml'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')).toEqual([
      'mcp-annotate: note: cfg.yaml:2:5: overrides[0].servers matched no server in this run; did you mean "mcp-time"? ("mcp-timex" is a near spelling of "mcp-time")',
      'mcp-annotate: note: cfg.yaml:4:5: overrides[1].tools matched no tool in this run; did you mean "get_current_time"? ("get_curent_time" is a near spelling of "get_current_time")',
      '',
    ]);
    // A namespaced server named by its last part: globs match whole names.
    writeFileSync(join(dir, 'acme.json'), json({ serverInfo: { name: 'io.github.acme/weather', version: '1' }, tools: [tool('get_forecast', { readOnlyHint: true, openWorldHint: false })] }));
    writeFileSync(join(dir, 'cfg.yaml'), ['overrides:', '  - servers: ["weather"]', '    rules: { missing-readonly-hint: error }', ''].join('\n'));
    expect((await runCli(['lint', 'acme.json', '-c', 'cfg.yaml'], { cwd: dir })).stderr).toBe(
      'mcp-annotate: note: cfg.yaml:2:5: overrides[0].servers matched no server in this run; did you mean "io.github.acme/weather"? ("weather" matches only the last part of server "io.github.acme/weather": globs match the whole name (write "**/weather"))\n',
    );
  });

  it('--mcp-config: the serverInfo.name of a server named after its config entry (and a near spelling of it) suggests the entry; a disabled entry is said once, as skipped', async () => {
    const dir = tempDir({
      'time.json': json({ serverInfo: { name: 'mcp-time', version: '1' }, tools: [tool('get_current_time', { readOnlyHint: true, openWorldHint: false })] }),
      'cfg.yaml': [
        'overrides:',
        '  - servers: ["mcp-time"]',
        '    rules: { missing-readonly-hint: error }',
        '  - servers: ["fetch"]',
        '    rules: { missing-readonly-hint: error }',
        '  - servers: ["mcp-timex"]',
        '    rules: { missing-readonly-hint: error }',
        '',
      ].join('\n'),
    });
    writeFileSync(join(dir, '.mcp.json'), json({ mcpServers: { time: serverArgv('stdio-tools.mjs', join(dir, 'time.json')), fetch: { ...serverArgv('stdio-tools.mjs', join(dir, 'time.json')), disabled: true } } }));
    const r = await runCli(['lint', '--mcp-config', '.mcp.json', '-c', 'cfg.yaml'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr.split('\n')).toEqual([
      'mcp-annotate: note: skipped "fetch" (.mcp.json): it is disabled',
      'mcp-annotate: note: cfg.yaml:2:5: overrides[0].servers matched no server in this run; did you mean "time"? ("mcp-time" is the serverInfo.name of server "time", which the run names after its config entry: overrides match that name)',
      'mcp-annotate: note: cfg.yaml:6:5: overrides[2].servers matched no server in this run; did you mean "time"? ("mcp-timex" is a near spelling of "mcp-time", the serverInfo.name of server "time", which the run names after its config entry)',
      '',
    ]);
  });

  it('no notes when an input could not be read (its server cannot be matched)', async () => {
    const dir = tempDir({ 'payments.json': PAYMENTS, 'cfg.yaml': 'overrides:\n  - servers: ["missing"]\n    rules: { missing-readonly-hint: error }\n' });
    const r = await runCli(['lint', 'payments.json', 'missing.json', '-c', 'cfg.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('missing.json: no such file or directory\n');
  });

  it('diff matches the names it reports, after the head: the base file\'s name is noted with the head\'s', async () => {
    const dir = tempDir({
      'payments-v1.json': json({ tools: [tool('refund', { readOnlyHint: true })] }),
      'payments.json': PAYMENTS,
      'cfg.yaml': [
        'overrides:',
        '  - servers: ["payments-v1"]',
        '    rules: { drift/readonly-removed: warning }',
        '  - servers: ["payments"]',
        '    tools: ["refund"]',
        '    rules: { drift/readonly-removed: warning, drift/destructive-added: warning }',
        '',
      ].join('\n'),
    });
    const r = await runCli(['diff', 'payments-v1.json', 'payments.json', '-c', 'cfg.yaml', '-f', 'json'], { cwd: dir });
    expect(r.stderr).toBe(
      'mcp-annotate: note: cfg.yaml:2:5: overrides[0].servers matched no server in this run; did you mean "payments"? ("payments-v1" names the base side of server "payments": diff names the servers it compares after the head)\n',
    );
    // The second override applied: the drift is warnings, so the run passes.
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).findings.map((f: { ruleId: string; severity: string }) => `${f.ruleId} ${f.severity}`)).toEqual(['drift/destructive-added warning', 'drift/readonly-removed warning']);
    // A tool only the base has (removed in the head) is a tool of the run: its findings name it.
    writeFileSync(join(dir, 'cfg.yaml'), 'overrides:\n  - tools: ["gone"]\n    rules: { drift/tool-removed: warning }\n');
    writeFileSync(join(dir, 'payments-v1.json'), json({ tools: [tool('refund', {}), tool('gone', {})] }));
    expect((await runCli(['diff', 'payments-v1.json', 'payments.json', '-c', 'cfg.yaml'], { cwd: dir })).stderr).toBe('');
  });
});

describe('server and tool name globs', () => {
  it('`*` and `?` match any characters of a name, `/` included; a `/` in a pattern matches a `/`', () => {
    const m = (patterns: string[], name: string) => nameMatcher(patterns)(name);
    expect(m(['*'], 'io.github.acme/weather')).toBe(true);
    expect(m(['*'], 'example-servers/everything')).toBe(true);
    expect(m(['*/weather'], 'io.github.acme/weather')).toBe(true);
    expect(m(['io.github.acme/*'], 'io.github.acme/weather')).toBe(true);
    expect(m(['io.github.acme/*'], 'io.github.acme/tools/weather')).toBe(true);
    expect(m(['io.github.acme/*'], 'io.github.acmeXweather')).toBe(false);
    expect(m(['io.github.acme/*'], 'io.github.acme')).toBe(false);
    expect(m(['io.github.*/weather'], 'io.github.acme/weather')).toBe(true);
    expect(m(['io.github.*/weather'], 'io.github.acme/forecast')).toBe(false);
    expect(m(['**'], 'a/b/c')).toBe(true);
    expect(m(['legacy_*'], 'legacy_a/b')).toBe(true);
    expect(m(['a?c'], 'a/c')).toBe(true);
    expect(m(['{acme,other}/*'], 'other/x')).toBe(true);
    expect(m(['*'], '.hidden/x')).toBe(true);
    // Escapes and a backslash in a name: a name, not a Windows path.
    expect(m(['\\*'], '*')).toBe(true);
    expect(m(['\\*'], 'x')).toBe(false);
    expect(m(['a\\\\b'], 'a\\b')).toBe(true);
    expect(m(['!(legacy)*'], 'io.github.acme/weather')).toBe(true);
    // "/" is an ordinary character: "**" is "*", never "zero or more segments" (the README says so).
    expect(m(['**/weather'], 'io.github.acme/weather')).toBe(true);
    expect(m(['**/weather'], 'weather')).toBe(false);
    expect(m(['a/**/c'], 'a/b/c')).toBe(true);
    expect(m(['a/**/c'], 'a/c')).toBe(false);
    expect(m(['{weather,*/weather}'], 'weather')).toBe(true);
  });

  it('a server\'s names cannot make an override glob backtrack: a name made to fail a glob of stars is matched at once', async () => {
    // With V8's own regular expression, each of these names would take hours or more against its glob
    // (`*_*_*_*x` is 20 seconds on 800 characters of "a_", about sixteen times as long for each doubling).
    const dump = {
      serverInfo: { name: `srv${'a_'.repeat(5_000)}` },
      tools: [tool(`${'a_'.repeat(5_000)}`, { readOnlyHint: true }), tool(`delete_${'a'.repeat(10_000)}`, { readOnlyHint: true })],
    };
    const overrides = [
      { servers: ['*_*_*_*x'], rules: { 'name-vs-hints': 'off' } },
      { tools: ['*_*_*_*x', '@(a|a)*@(a|a)*@(a|a)*x'], rules: { 'name-vs-hints': 'off' } },
      { tools: ['delete_@(a|aa)*'], rules: { 'name-vs-hints': 'error' } },
    ];
    const dir = tempDir({ 'w.json': json(dump), 'c.json': json({ overrides }) });
    const r = await runCli(['lint', '-c', 'c.json', '-f', 'json', 'w.json'], { cwd: dir });
    expect(r.stderr).toBe('');
    // Only the last override matched: the delete_ tool's finding is an error.
    expect((JSON.parse(r.stdout) as { findings: { ruleId: string; severity: string }[] }).findings.filter((f) => f.ruleId === 'name-vs-hints').map((f) => f.severity)).toEqual(['error']);
  });

  it('overrides with `*` apply to servers and tools whose names hold a `/`', async () => {
    const dump = { serverInfo: { name: 'io.github.acme/weather' }, tools: [tool('geo/delete_city', { readOnlyHint: true })] };
    const lintWith = async (overrides: unknown) => {
      const dir = tempDir({ 'w.json': json(dump), 'c.json': json({ overrides }) });
      const r = await runCli(['lint', '-c', 'c.json', '-f', 'json', 'w.json'], { cwd: dir });
      return (JSON.parse(r.stdout) as { findings: { ruleId: string; severity: string }[] }).findings.filter((f) => f.ruleId === 'name-vs-hints').map((f) => f.severity);
    };
    expect(await lintWith([])).toEqual(['warning']);
    for (const glob of [{ servers: ['*'] }, { servers: ['io.github.acme/*'] }, { servers: ['*/weather'] }, { tools: ['*'] }, { tools: ['*delete*'] }, { tools: ['geo/*'] }]) {
      expect(await lintWith([{ ...glob, rules: { 'name-vs-hints': 'error' } }]), JSON.stringify(glob)).toEqual(['error']);
    }
    // A literal "/" still has to be there.
    expect(await lintWith([{ servers: ['io.github.acme'], rules: { 'name-vs-hints': 'error' } }])).toEqual(['warning']);
    expect(await lintWith([{ tools: ['geo_*'], rules: { 'name-vs-hints': 'error' } }])).toEqual(['warning']);
  });
});

describe('rule options in overrides', () => {
  // toxic-flow's openWorldIsUntrusted: fetch_page is an untrusted source only with it.
  const CLINIC = {
    serverInfo: { name: 'clinic' },
    tools: [
      tool('fetch_page', { readOnlyHint: true, openWorldHint: true }),
      tool('get_record', { readOnlyHint: true, openWorldHint: false, returnMetadata: { source: 'internal', sensitivity: 'pii' } }),
      tool('send_fax', { readOnlyHint: false, openWorldHint: true, inputMetadata: { destination: 'public', sensitivity: 'none', outcomes: 'irreversible' } }),
    ],
  };
  const OTHER = { serverInfo: { name: 'other' }, tools: [tool('get_time', { readOnlyHint: true, openWorldHint: false })] };
  const ON = ['warning', { openWorldIsUntrusted: true }];
  const OFF = ['warning', { openWorldIsUntrusted: false }];
  async function toxic(config: unknown): Promise<string[]> {
    const dir = tempDir({ 'mini.json': json(CLINIC), 'other.json': json(OTHER), 'c.json': json(config) });
    const r = await runCli(['lint', '-c', 'c.json', '-f', 'json', 'mini.json', 'other.json'], { cwd: dir });
    const findings = (JSON.parse(r.stdout) as { findings: { ruleId: string; severity: string; tool: string; related: { tool?: string }[] }[] }).findings;
    return findings.filter((f) => f.ruleId === 'toxic-flow').map((f) => `${f.tool} ${f.severity} (from ${f.related.map((x) => x.tool).join(', ')})`);
  }
  const FOUND = ['send_fax warning (from fetch_page, get_record)'];

  it('toxic-flow takes openWorldIsUntrusted from an override, for the servers and tools it matches', async () => {
    expect(await toxic({})).toEqual([]);
    expect(await toxic({ rules: { 'toxic-flow': ON } })).toEqual(FOUND);
    // Set for the clinic server only: the same finding (it was none: the global options were used).
    expect(await toxic({ overrides: [{ servers: ['clinic'], rules: { 'toxic-flow': ON } }] })).toEqual(FOUND);
    // For another server only: clinic's open-world tool stays trusted.
    expect(await toxic({ overrides: [{ servers: ['other'], rules: { 'toxic-flow': ON } }] })).toEqual([]);
    // Per tool: a tool is a source by its own setting (send_fax is open-world too, so a source of its own).
    expect(await toxic({ overrides: [{ tools: ['fetch_*'], rules: { 'toxic-flow': ON } }] })).toEqual(FOUND);
    expect(await toxic({ overrides: [{ tools: ['send_*'], rules: { 'toxic-flow': ON } }] })).toEqual(['send_fax warning (from send_fax, get_record)']);
    expect(await toxic({ overrides: [{ tools: ['get_*'], rules: { 'toxic-flow': ON } }] })).toEqual([]);
    // Options alone (no severity change) in an override: `[severity, options]` as in `rules`.
    expect(await toxic({ rules: { 'toxic-flow': 'off' }, overrides: [{ servers: ['clinic'], rules: { 'toxic-flow': ON } }] })).toEqual(FOUND);
  });

  it('an override turns openWorldIsUntrusted back off where it is on globally', async () => {
    expect(await toxic({ rules: { 'toxic-flow': ON }, overrides: [{ servers: ['clinic'], rules: { 'toxic-flow': OFF } }] })).toEqual([]);
    expect(await toxic({ rules: { 'toxic-flow': ON }, overrides: [{ tools: ['fetch_page', 'send_fax'], rules: { 'toxic-flow': OFF } }] })).toEqual([]);
    expect(await toxic({ rules: { 'toxic-flow': ON }, overrides: [{ tools: ['fetch_page'], rules: { 'toxic-flow': OFF } }] })).toEqual(['send_fax warning (from send_fax, get_record)']);
    // Off only for another server: clinic keeps the global option.
    expect(await toxic({ rules: { 'toxic-flow': ON }, overrides: [{ servers: ['other'], rules: { 'toxic-flow': OFF } }] })).toEqual(FOUND);
  });

  it('a tool the rule is off for still takes its options as a source', async () => {
    // fetch_page's findings are off, but it is still an untrusted source for send_fax (its option on).
    expect(await toxic({ rules: { 'toxic-flow': ON }, overrides: [{ tools: ['fetch_page'], rules: { 'toxic-flow': 'off' } }] })).toEqual(FOUND);
  });
});

describe('targets and flags over the config', () => {
  it('config targets are relative to the config file; command-line targets replace them', async () => {
    const dir = tempDir({
      'mcp-annotate.config.json': json({ targets: ['dumps/*.json', 'one.json'] }),
      'dumps/a.json': json({ serverInfo: { name: 'a' }, tools: [tool('get_a', { readOnlyHint: true, openWorldHint: false })] }),
      'one.json': json({ serverInfo: { name: 'one' }, tools: [tool('get_one', { readOnlyHint: true, openWorldHint: false })] }),
      'sub/other.json': json({ serverInfo: { name: 'other' }, tools: [tool('get_b', { readOnlyHint: true, openWorldHint: false })] }),
    });
    const fromSub = await runCli(['lint', '-f', 'json'], { cwd: join(dir, 'sub') });
    expect(fromSub.stderr).toBe('');
    // Outside the working directory, paths are shown in full.
    expect(JSON.parse(fromSub.stdout).servers.map((s: { source: string }) => s.source)).toEqual([join(dir, 'dumps/a.json'), join(dir, 'one.json')]);
    const explicit = await runCli(['lint', '-f', 'json', 'other.json'], { cwd: join(dir, 'sub') });
    expect(JSON.parse(explicit.stdout).servers.map((s: { source: string }) => s.source)).toEqual(['other.json']);
    expect(rebaseTarget('x/*.json', join(dir, 'conf dir'), dir)).toBe('conf dir/x/*.json');
    expect(rebaseTarget('x/[ab].json', join(dir, '(a)'), dir)).toBe('\\(a\\)/x/[ab].json');
  });

  it('failOn, maxWarnings, spec and vocabularies apply; flags win', async () => {
    const dir = tempDir({
      'mcp-annotate.config.json': json({ targets: ['d.json'], failOn: 'warning', vocabularies: { 'risk-metadata': false }, spec: '2025-06-18' }),
      'd.json': json({ tools: [tool('w', { readOnlyHint: false, riskLevel: 'nope' })] }),
    });
    const r = await runCli(['lint', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.servers[0].spec).toBe('2025-06-18');
    expect(report.findings.some((f: { message: string }) => f.message.includes('riskLevel'))).toBe(false);
    expect((await runCli(['lint', '--fail-on', 'error'], { cwd: dir })).code).toBe(0);
    const flags = JSON.parse((await runCli(['lint', '-f', 'json', '--spec', '2025-11-25', '--vocab', 'risk-metadata'], { cwd: dir })).stdout);
    expect(flags.servers[0].spec).toBe('2025-11-25');
    expect(flags.findings.some((f: { message: string }) => f.message.includes('riskLevel'))).toBe(true);
    writeFileSync(join(dir, 'mcp-annotate.config.json'), json({ targets: ['d.json'], failOn: 'none', maxWarnings: 0 }));
    expect((await runCli(['lint'], { cwd: dir })).code).toBe(1);
    expect((await runCli(['lint', '--max-warnings', '5'], { cwd: dir })).code).toBe(0);
    expect((await runCli(['lint', '--no-config', 'd.json'], { cwd: dir })).code).toBe(0);
  });

  it('vocabularies: [] is core only, not every vocabulary; --vocab naming none is a usage error', async () => {
    const dir = tempDir({
      'mcp-annotate.config.json': json({ targets: ['d.json'], vocabularies: [] }),
      'd.json': json({ tools: [tool('w', { readOnlyHint: false, riskLevel: 'nope' })] }),
    });
    const riskFindings = (stdout: string) => JSON.parse(stdout).findings.filter((f: { message: string }) => f.message.includes('riskLevel')).length;
    expect(riskFindings((await runCli(['lint', '-f', 'json'], { cwd: dir })).stdout)).toBe(0);
    expect(riskFindings((await runCli(['lint', '-f', 'json', '--no-config', 'd.json'], { cwd: dir })).stdout)).toBeGreaterThan(0);
    for (const value of ['', ',', ' , ']) {
      for (const flag of ['--vocab', '--disable-vocab']) {
        const r = await runCli(['lint', 'd.json', flag, value], { cwd: dir });
        expect(r).toMatchObject({ code: 2, stdout: '' });
        expect(r.stderr).toBe(`mcp-annotate: ${flag} ${JSON.stringify(value)} names no vocabulary; give pack ids, comma-separated: core, sep-1913, action-metadata, trust-annotations, risk-metadata, webmcp-sensitive, meta-hints\n`);
      }
    }
  });

  it('nothing to lint when neither the command line nor the config names targets', async () => {
    const dir = tempDir({ 'mcp-annotate.config.json': json({ failOn: 'warning' }) });
    const r = await runCli(['lint'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcp-annotate: nothing to lint/);
  });

  it('a negated glob in targets ("!sub/a.json") leaves out what the other targets find, relative to the config file', async () => {
    const dump = json(DUMP);
    const dir = tempDir({ 'sub/a.json': dump, 'sub/b.json': dump, 'cfg/c.json': json({ targets: ['../sub', '!../sub/a.json'] }), 'mcp-annotate.config.json': json({ targets: ['sub/*.json', '!sub/a.json'] }) });
    for (const args of [['lint', '-f', 'json'], ['lint', '-c', 'cfg/c.json', '-f', 'json'], ['lint', 'sub/*.json', '!sub/a.json', '-f', 'json']]) {
      const r = await runCli(args, { cwd: dir });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout).servers.map((s: { source: string }) => s.source)).toEqual(['sub/b.json']);
    }
    expect(rebaseTarget('!sub/a.json', join(dir, 'cfg'), dir)).toBe('!cfg/sub/a.json');
    expect(rebaseTarget('!../sub/*.json', join(dir, 'cfg'), dir)).toBe('!sub/*.json');
    const none = await runCli(['lint', 'sub/*.json', '!sub/*.json'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('sub/*.json: no files match this pattern (the 2 files it matches are left out by a "!" pattern');
  });

  it('nothing to lint (exit 2) when the targets are "!" patterns only, on the command line or in the config', async () => {
    const dump = json(DUMP);
    const dir = tempDir({ 'a.json': dump, 'old-b.json': dump, 'cfg/c.json': json({ targets: ['!*.json'] }), 'cfg/d.json': json({ targets: { files: ['!../old-*.json', '!x.json'], mcpServers: { a: { command: 'x', disabled: true } } } }) });
    expect(await runCli(['lint', '--no-config', '!old-*.json'], { cwd: dir })).toEqual({
      code: 2,
      stdout: '',
      stderr: `mcp-annotate: nothing to lint: the only target is a "!" pattern, which leaves out what other targets find; give the files, globs or directories to lint as well (e.g. 'dumps/*.json' '!dumps/old-*.json')\n`,
    });
    expect((await runCli(['lint', '--no-config', '!old-*.json', '!a.json'], { cwd: dir })).stderr).toMatch(/^mcp-annotate: nothing to lint: every target is a "!" pattern/);
    expect(await runCli(['lint', '-c', 'cfg/c.json'], { cwd: dir })).toEqual({
      code: 2,
      stdout: '',
      stderr: 'mcp-annotate: nothing to lint: the targets of cfg/c.json are only "!" patterns, which leave out what other targets find; add the files, globs or directories to lint, or give targets on the command line\n',
    });
    // With only disabled servers besides: nothing to lint either.
    const off = await runCli(['lint', '-c', 'cfg/d.json'], { cwd: dir });
    expect(off.code).toBe(2);
    expect(off.stderr.trimEnd().split('\n').at(-1)).toBe('mcp-annotate: nothing to lint: every server under targets.mcpServers of cfg/d.json is disabled; enable one, or give targets on the command line');
    // diff: a side that is only a "!" pattern is no side.
    for (const [args, side] of [[['!old-*.json', 'a.json'], 'base'], [['a.json', '!old-*.json'], 'head']] as const) {
      expect(await runCli(['diff', '--no-config', ...args], { cwd: dir })).toEqual({
        code: 2,
        stdout: '',
        stderr: `mcp-annotate: the ${side} "!old-*.json" is a "!" pattern, which leaves out what other targets find; give the ${side}'s files, glob or directory\n`,
      });
    }
    // A file whose name starts with "!" is a file, not a pattern; and with other targets, "!" leaves out.
    const bang = tempDir({ '!odd.json': dump, 'a.json': dump });
    expect(JSON.parse((await runCli(['lint', '--no-config', '!odd.json', '-f', 'json'], { cwd: bang })).stdout).servers.map((x: { source: string }) => x.source)).toEqual(['!odd.json']);
    expect(JSON.parse((await runCli(['lint', '--no-config', '*.json', '!a.json', '-f', 'json'], { cwd: bang })).stdout).servers.map((x: { source: string }) => x.source)).toEqual(['!odd.json']);
  });

  it('nothing to lint (exit 2) when the config lists no servers, or every one is disabled', async () => {
    const empty = await runCli(['lint'], { cwd: tempDir({ 'mcp-annotate.config.json': json({ targets: { mcpServers: {} } }) }) });
    expect(empty).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'mcp-annotate: nothing to lint: the targets of mcp-annotate.config.json list no files and no servers; add some, or give targets on the command line\n',
    });
    const off = await runCli(['lint'], { cwd: tempDir({ 'mcp-annotate.config.json': json({ targets: { mcpServers: { a: { command: 'x', disabled: true }, b: { url: 'http://127.0.0.1:1/', enabled: false } } } }) }) });
    expect(off.code).toBe(2);
    expect(off.stdout).toBe('');
    expect(off.stderr.trimEnd().split('\n').at(-1)).toBe(
      'mcp-annotate: nothing to lint: every server under targets.mcpServers of mcp-annotate.config.json is disabled; enable one, or give targets on the command line',
    );
  });

  it('live servers under targets.mcpServers are linted like a dump of the same tools', async () => {
    const fixture = JSON.parse(readFileSync(VOCAB_FIXTURE, 'utf8'));
    const { command, args } = serverArgv('stdio-tools.mjs', VOCAB_FIXTURE);
    const dir = tempDir({
      'mcp-annotate.config.json': json({ targets: { mcpServers: { vocab: { command, args, env: { SECRET_THING: 's3cr3t-value' } } } } }),
      'dump.json': json(fixture),
    });
    const live = await runCli(['lint', '-f', 'json'], { cwd: dir, timeoutMs: 60_000 });
    expect(live.stderr).toBe('');
    const dump = await runCli(['lint', '-f', 'json', 'dump.json'], { cwd: dir });
    const key = (f: { ruleId: string; tool: string | null; pointer: string }) => `${f.ruleId} ${f.tool} ${f.pointer}`;
    const liveReport = JSON.parse(live.stdout);
    expect(liveReport.servers[0].kind).toBe('live');
    expect(liveReport.findings.map(key).sort()).toEqual(JSON.parse(dump.stdout).findings.map(key).sort());
    expect(liveReport.findings.length).toBeGreaterThan(5);
    expect(live.stdout).not.toContain('s3cr3t-value');
  });

  it('a live entry whose variable is missing is one error naming the config position; the other targets still run', async () => {
    const dir = tempDir({
      'mcp-annotate.config.json': json({ targets: { files: ['d.json'], mcpServers: { needs: { command: 'node', args: ['${MISSING_VAR_FOR_TEST}'] } } } }),
      'd.json': json(DUMP),
    });
    const r = await runCli(['lint', '-f', 'json'], { cwd: dir, env: { MISSING_VAR_FOR_TEST: undefined } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^mcp-annotate\.config\.json:7:7: server "needs": environment variable MISSING_VAR_FOR_TEST is not set/);
    expect(JSON.parse(r.stdout).servers.map((s: { name: string }) => s.name)).toEqual(['acme']);
  });
});

describe('the README', () => {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = (from: string, to: string) => readme.slice(readme.indexOf(from), readme.indexOf(to, readme.indexOf(from)));
  const yamlBlocks = (text: string) => [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

  it('every config example in "Configuration" and "Policies" is a valid config', async () => {
    const blocks = yamlBlocks(section('## Configuration', '## Baseline'));
    expect(blocks.length).toBe(2);
    for (const block of blocks) {
      const dir = tempDir({ 'mcp-annotate.config.yaml': block });
      const config = await loadConfig({ cwd: dir });
      expect(config?.path).toBe(join(dir, 'mcp-annotate.config.yaml'));
    }
  });

  it('the config error example is what lint prints', async () => {
    const text = section('## Configuration', '## Policies');
    const example = /\$ cat mcp-annotate\.config\.json\n([\s\S]*?\n\})\n\$ mcp-annotate lint\n([\s\S]*?)```/.exec(text)!;
    const dir = tempDir({ 'mcp-annotate.config.json': example[1]! + '\n', 'd.json': json(DUMP) });
    const r = await runCli(['lint', 'd.json'], { cwd: dir });
    expect(r.stderr).toBe(example[2]);
  });
});
