/**
 * The GitHub Action, run the way the runner runs a composite action: a clean checkout of this
 * repository (git clone, plus the working tree's uncommitted changes) as $GITHUB_ACTION_PATH,
 * action.yml parsed with a YAML library, each step's env evaluated for the inputs (defaults
 * from action.yml) and its run script executed with `bash --noprofile --norc -eo pipefail`,
 * with GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP set. npm ci runs
 * offline, from the npm cache the project's own install filled.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

interface Step {
  name: string;
  id?: string;
  shell: string;
  run: string;
  env?: Record<string, string>;
}
interface ActionYml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as ActionYml;

/** A clone of this repository at HEAD, with the working tree's uncommitted changes on top. */
function checkout(): string {
  const dir = join(tempDir(), 'action');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', ROOT, dir]);
  const list = (...args: string[]) => execFileSync('git', ['-C', ROOT, 'ls-files', '-z', ...args], { encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of list('--deleted')) rmSync(join(dir, f), { force: true });
  for (const f of list('--modified', '--others', '--exclude-standard')) {
    // Only files: a symbolic link to a directory (bench/data linked from another checkout) is
    // listed too, since .gitignore's `bench/data/` names directories and git sees the link as a file.
    if (!existsSync(join(ROOT, f)) || !statSync(join(ROOT, f)).isFile()) continue;
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    copyFileSync(join(ROOT, f), join(dir, f));
  }
  return dir;
}

/** `${{ inputs.x }}`, `${{ github.action_path }}` and `${{ steps.id.outputs.x }}`, as the runner evaluates them. */
function evaluate(template: string, ctx: { inputs: Record<string, string>; actionPath: string; steps?: Record<string, Record<string, string>> }): string {
  return template.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_m, expr: string) => {
    let m: RegExpExecArray | null;
    if ((m = /^inputs\.([\w-]+)$/.exec(expr))) return ctx.inputs[m[1]!] ?? '';
    if (expr === 'github.action_path') return ctx.actionPath;
    if ((m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr))) return ctx.steps?.[m[1]!]?.[m[2]!] ?? '';
    throw new Error(`unsupported expression in action.yml: ${expr}`);
  });
}

/** GITHUB_OUTPUT's name<<DELIMITER … DELIMITER and name=value lines. */
function readOutputs(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([\w-]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      out[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return out;
}

interface StepResult {
  name: string;
  code: number;
  stdout: string;
  stderr: string;
}

/** Run the action's steps in order until one fails, as the runner would. */
function runAction(actionPath: string, workspace: string, given: Record<string, string>, only?: (s: Step) => boolean, runnerEnv: Record<string, string> = {}) {
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) inputs[name] = given[name] ?? spec.default ?? '';
  const temp = tempDir();
  const files = { output: join(temp, 'output'), summary: join(temp, 'summary.md') };
  const results: StepResult[] = [];
  const stepOutputs: Record<string, Record<string, string>> = {};
  for (const step of action.runs.steps.filter(only ?? (() => true))) {
    writeFileSync(files.output, '');
    const env: Record<string, string> = {
      PATH: process.env.PATH!,
      HOME: process.env.HOME ?? temp,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: workspace,
      GITHUB_ACTION_PATH: actionPath,
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      RUNNER_TEMP: temp,
      // npm ci from the cache the project's own install filled: no network in tests.
      npm_config_offline: 'true',
      ...runnerEnv,
    };
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = evaluate(String(v), { inputs, actionPath });
    const script = join(temp, `step-${results.length}.sh`);
    writeFileSync(script, step.run);
    expect(step.shell).toBe('bash');
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: workspace, env, encoding: 'utf8', timeout: 240_000 });
    results.push({ name: step.name, code: r.status ?? 1, stdout: r.stdout, stderr: r.stderr });
    if (step.id) stepOutputs[step.id] = readOutputs(files.output);
    if (r.status !== 0) break;
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs)) outputs[name] = evaluate(spec.value, { inputs, actionPath, steps: stepOutputs });
  const summary = existsSync(files.summary) ? readFileSync(files.summary, 'utf8') : '';
  return { results, last: results[results.length - 1]!, outputs, summary };
}

const example = readFileSync(join(ROOT, 'fixtures', 'example-server.json'), 'utf8');

/** A stdio MCP server with one tool, in plain Node. */
const stdioServer = `
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.method === 'initialize') send({ jsonrpc: '2.0', id: msg.id, result: { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'tiny', version: '1.0.0' } } });
  else if (msg.method === 'tools/list') send({ jsonrpc: '2.0', id: msg.id, result: { tools: [{ name: 'list_notes', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }] } });
  else if (msg.id !== undefined) send({ jsonrpc: '2.0', id: msg.id, result: {} });
});
`;

/**
 * The workflow commands the runner would process in a step's log (actions/runner,
 * ActionCommandManager and ActionCommand): a line that starts with "::" once leading whitespace
 * is trimmed, or the legacy "##[name …]" anywhere in a line; after ::stop-commands::<token>
 * none until a line ::<token>::.
 */
function processedCommands(log: string): { name: string; line: string }[] {
  const registered = new Set(['error', 'warning', 'notice', 'debug', 'group', 'endgroup', 'add-mask', 'stop-commands', 'echo', 'add-matcher', 'remove-matcher', 'set-output', 'save-state', 'set-env', 'add-path']);
  const out: { name: string; line: string }[] = [];
  let stopToken: string | undefined;
  for (const line of log.split(/\r?\n/)) {
    const trimmed = line.replace(/^[\s\u0085\u180e]+/, '');
    let name: string | undefined;
    let data = '';
    if (trimmed.startsWith('::') && trimmed.indexOf('::', 2) !== -1) {
      const info = trimmed.slice(2, trimmed.indexOf('::', 2));
      name = info.split(' ')[0];
      data = trimmed.slice(trimmed.indexOf('::', 2) + 2);
    } else if (line.includes('##[') && line.indexOf(']', line.indexOf('##[')) !== -1) {
      const at = line.indexOf('##[');
      name = line.slice(at + 3, line.indexOf(']', at)).split(' ')[0];
    }
    if (name === undefined) continue;
    if (stopToken !== undefined) {
      if (name === stopToken) stopToken = undefined;
      continue;
    }
    if (!registered.has(name!)) continue;
    if (name === 'stop-commands') stopToken = data;
    out.push({ name: name!, line });
  }
  return out;
}

function workspace(files: Record<string, string>): string {
  const dir = tempDir(files);
  execFileSync('git', ['init', '--quiet', dir]);
  return dir;
}

/** The functions of scripts/action.mjs that need no runner. */
async function actionScript() {
  return (await import(pathToFileURL(join(ROOT, 'scripts', 'action.mjs')).href)) as {
    input: (name: string, env: Record<string, string>, opts?: { raw?: boolean }) => string;
    splitArgs: (value: string) => Promise<string[]>;
    lastLine: (text: string) => string | undefined;
    explained: (code: number, json: unknown) => boolean;
  };
}

describe('scripts/action.mjs', () => {
  it('reads an input as action.yml passes it (INPUT_FAIL_ON) and as a JavaScript action\'s runner would (INPUT_FAIL-ON)', async () => {
    const { input } = await actionScript();
    expect(input('fail-on', { INPUT_FAIL_ON: ' none ' })).toBe('none');
    expect(input('fail-on', { 'INPUT_FAIL-ON': 'warning' })).toBe('warning');
    expect(input('sarif-file', { 'INPUT_SARIF-FILE': 'a.sarif', INPUT_SARIF_FILE: 'b.sarif' })).toBe('b.sarif');
    expect(input('args', { INPUT_ARGS: '--quiet \\\n' }, { raw: true })).toBe('--quiet \\\n');
    expect(input('config', {})).toBe('');
  });

  it('splits args as bash splits words: a backslash-newline continues the line, also at the end and inside double quotes', async () => {
    const { splitArgs } = await actionScript();
    const words = async (text: string) => (await splitArgs(text)).map((w) => `[${w}]`).join('');
    for (const text of ['--vocab core \\\n--quiet \\\n', '--vocab core \\\n', 'a\\\nb c', '"a \\\nb" c', "'a \\\nb' c"]) {
      const bash = spawnSync('bash', ['--noprofile', '--norc', '-c', `printf '[%s]' ${text}`], { encoding: 'utf8' }).stdout;
      expect(await words(text), JSON.stringify(text)).toBe(bash);
    }
    // A backslash before $ or ` inside double quotes goes, as in bash; inside single quotes it stays; a $ alone is a $.
    for (const text of ['--header "X-Price: \\$5"', '--env "P=a\\$b"', '"a\\`b"', "'a\\$b'", 'a\\$b', '"\\\\$x"', '"a\\"b"', '"$HOME"']) {
      const bash = spawnSync('bash', ['--noprofile', '--norc', '-c', `HOME=/h; printf '[%s]' ${text}`], { encoding: 'utf8' }).stdout;
      const ours = await words(text);
      // bash expands $HOME and \\$x's $x; the action never expands: compare the rest.
      if (text.includes('$HOME') || text.includes('\\\\$')) expect(ours, JSON.stringify(text)).toBe(text === '"$HOME"' ? '[$HOME]' : '[\\$x]');
      else expect(ours, JSON.stringify(text)).toBe(bash);
    }
    // A backslash that ends the input is a backslash, as in bash; $'…' and $"…" are refused, not misread.
    for (const text of ['a\\', 'x \\']) {
      const bash = spawnSync('bash', ['--noprofile', '--norc', '-c', `printf '[%s]' ${text}`], { encoding: 'utf8' }).stdout;
      expect(await words(text), JSON.stringify(text)).toBe(bash);
    }
    await expect(splitArgs("--header $'X: a\\nb'")).rejects.toThrow(/\$'…' quoting is not supported here/);
    await expect(splitArgs('a $"x"')).rejects.toThrow(/\$"…" quoting is not supported here/);
    expect(await words("'$\"x\"' \"$'y'\"")).toBe('[$"x"][$\'y\']');
    // An escaped backslash continues nothing (bash would end the command there; here a line break separates words), nor does CRLF differ.
    expect(await words('a \\\\\nb')).toBe('[a][\\][b]');
    expect(await words('a \\\r\nb')).toBe('[a][b]');
  });

  it('takes the reason from the last error line of stderr, with its hint, not from a note or the hint alone', async () => {
    const { lastLine } = await actionScript();
    expect(lastLine("mcp-annotate: unknown option '--stdin'\n(Did you mean --stdio?)\n")).toBe("unknown option '--stdin' (Did you mean --stdio?)");
    expect(lastLine('error: missing required argument\n')).toBe('error: missing required argument');
    expect(lastLine('mcp-annotate: c.yaml:1:1: bad\nmcp-annotate: note: something else\n')).toBe('c.yaml:1:1: bad');
    expect(lastLine('x.json: no such file or directory\n')).toBe('x.json: no such file or directory');
    expect(lastLine('')).toBeUndefined();
  });

  it('tells an exit code the JSON report accounts for from one it does not', async () => {
    const { explained } = await actionScript();
    const report = (more: object = {}) => ({ summary: { errors: 1, warnings: 0 }, inputErrors: [], ...more });
    expect(explained(0, undefined)).toBe(true);
    expect(explained(1, report())).toBe(true);
    expect(explained(2, report({ inputErrors: [{ message: 'x.json: no such file or directory' }] }))).toBe(true);
    expect(explained(2, report({ unwritten: [{ file: 'a.sarif', reason: 'it is a directory' }] }))).toBe(true);
    // No report, an exit 2 the report does not say, a signal.
    expect(explained(2, undefined)).toBe(false);
    expect(explained(2, report())).toBe(false);
    expect(explained(130, report())).toBe(false);
  });
});

describe('action.yml', () => {
  it('is a composite action whose run scripts hold no expression, with every input passed as INPUT_*', () => {
    expect(action.runs.using).toBe('composite');
    const env: Record<string, string> = {};
    for (const step of action.runs.steps) {
      expect(step.run, step.name).not.toContain('${{');
      Object.assign(env, step.env ?? {});
    }
    for (const name of Object.keys(action.inputs)) {
      expect(env[`INPUT_${name.replace(/-/g, '_').toUpperCase()}`], name).toBe(`\${{ inputs.${name} }}`);
    }
    expect(Object.keys(action.outputs).sort()).toEqual(['error-count', 'exit-code', 'sarif-file', 'warning-count']);
    expect(action.inputs['sarif-file']!.default).toBe('mcp-annotate.sarif');
  });
});

describe('the action, run as the runner runs it', () => {
  let actionPath = '';

  beforeAll(() => {
    actionPath = checkout();
    // No build artifacts come with the checkout: the setup step makes them.
    expect(existsSync(join(actionPath, 'dist'))).toBe(false);
    expect(existsSync(join(actionPath, 'node_modules'))).toBe(false);
    const { results } = runAction(actionPath, workspace({}), {}, (s) => s.id === undefined);
    const setup = results[0]!;
    expect(setup.code, `${setup.stdout}\n${setup.stderr}`).toBe(0);
    expect(setup.stdout).toContain('::group::Install mcp-annotate (npm ci)');
    expect(existsSync(join(actionPath, 'dist', 'bundle', 'main.cjs'))).toBe(true);
  }, 300_000);

  const lintStep = (s: Step) => s.id === 'lint';

  it('writes the SARIF file, the summary, the annotations and the outputs, and fails on errors', () => {
    const ws = workspace({ 'servers/example.json': example });
    const { last, outputs, summary } = runAction(actionPath, ws, { targets: 'servers/*.json' }, lintStep);
    expect(last.code, last.stderr).toBe(1);
    expect(outputs).toEqual({ 'sarif-file': 'mcp-annotate.sarif', 'error-count': '4', 'warning-count': '15', 'exit-code': '1' });
    const sarif = JSON.parse(readFileSync(join(ws, 'mcp-annotate.sarif'), 'utf8'));
    expect(sarif.runs[0].results).toHaveLength(21);
    expect(sarif.runs[0].results[0].locations[0].physicalLocation.artifactLocation).toEqual({ uri: 'servers/example.json', uriBaseId: 'SRCROOT' });
    expect(summary).toMatch(/^## mcp-annotate\n\n❌ \*\*21 findings\*\* in 1 server, 8 tools\./);
    expect(summary).toContain('| 4 | 15 | 2 |');
    // The text report, then the annotations (10 errors at most of each level).
    expect(last.stdout).toContain('✖ 21 problems (4 errors, 15 warnings, 2 notes) in 1 server, 8 tools');
    const annotations = last.stdout.split('\n').filter((l) => /^::(error|warning|notice) /.test(l));
    expect(annotations.filter((l) => l.startsWith('::error '))).toHaveLength(4);
    expect(annotations.filter((l) => l.startsWith('::warning '))).toHaveLength(10);
    expect(annotations[0]).toMatch(/^::error file=servers\/example\.json,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=readonly-vs-outcome::acme-workspace › send_email: /);
    expect(last.stdout).toContain('5 of 21 annotations were left out (5 warnings)');
  });

  it('prints nothing a server says as a workflow command: the CLI output is between stop-commands and its token', () => {
    // A server whose name stops command processing and whose tool name is a legacy ##[error].
    const evil = JSON.stringify({
      serverInfo: { name: '::stop-commands::pwned' },
      tools: [
        { name: '  ::error::fake', description: 'Permanently deletes everything', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
        { name: 'x##[error]Fake failure', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } },
      ],
    });
    const ws = workspace({ 's.json': evil });
    for (const format of ['text', 'markdown', 'json', 'sarif', 'github']) {
      const { last } = runAction(actionPath, ws, { targets: 's.json', format }, lintStep);
      expect(last.code, format).toBe(1);
      const log = `${last.stdout}\n${last.stderr}`;
      const commands = processedCommands(log);
      // stop-commands with the action's own token, then only the action's annotations: real errors, none of the server's making.
      expect(commands[0]!.name, format).toBe('stop-commands');
      expect(commands[0]!.line, format).toMatch(/^::stop-commands::mcp-annotate-[0-9a-f-]{36}$/);
      const annotations = commands.slice(1);
      expect(annotations.length, format).toBeGreaterThan(0);
      for (const c of annotations) expect(c.line, format).toMatch(/^::(error|warning|notice) (file=s\.json,line=\d+|title=)/);
      expect(annotations.filter((c) => c.name === 'error').length, format).toBeGreaterThanOrEqual(2);
      // The report itself is in the log, between the two lines, the server's strings defused.
      const token = commands[0]!.line.slice('::stop-commands::'.length);
      const inside = last.stdout.slice(last.stdout.indexOf(commands[0]!.line), last.stdout.indexOf(`::${token}::`));
      if (format === 'text') {
        expect(inside).toContain('\\u{3a}:stop-commands::pwned s.json');
        expect(inside).toContain('x##\\u{5b}error]Fake failure');
      }
      if (format === 'json') expect(inside).toContain('x##\\u005berror]Fake failure');
    }
  });

  it('passes inputs with spaces, quotes and shell syntax as data, never as shell code', async () => {
    const name = 'tools "q" $(touch PWNED) `touch PWNED2`.json';
    const ws = workspace({ [`my dir/${name}`]: example });
    const { last, outputs, summary } = runAction(actionPath, ws, {
      targets: `\n  ${name}  \n\n`,
      'working-directory': 'my dir',
      'sarif-file': 'reports/out put.sarif',
      'fail-on': 'none',
      format: 'github',
      args: `--vocab 'core,sep-1913' --disable-vocab "sep-1913" --max-warnings 1000 '$(touch PWNED3)'`,
    }, lintStep);
    expect(existsSync(join(ws, 'PWNED')) || existsSync(join(ws, 'my dir', 'PWNED')) || existsSync(join(ws, 'my dir', 'PWNED2')) || existsSync(join(ws, 'my dir', 'PWNED3'))).toBe(false);
    // '$(touch PWNED3)' reached the CLI as a target (a file that does not exist): exit 2, said in the log.
    expect(last.code).toBe(2);
    expect(last.stdout).toContain('$(touch PWNED3): no such file or directory');
    expect(outputs['exit-code']).toBe('2');
    expect(outputs['sarif-file']).toBe('my dir/reports/out put.sarif');
    expect(existsSync(join(ws, 'my dir', 'reports', 'out put.sarif'))).toBe(true);
    // Only core: no sep-1913 finding; the target was linted with its odd name.
    const coreOnly = JSON.parse((await runCli(['lint', 'fixtures/example-server.json', '--vocab', 'core', '-f', 'json'])).stdout);
    expect(outputs['error-count']).toBe(String(coreOnly.summary.errors));
    expect(outputs['warning-count']).toBe(String(coreOnly.summary.warnings));
    expect(summary).not.toContain('readonly-vs-outcome');
    const annotations = last.stdout.split('\n').filter((l) => /^::(error|warning|notice) /.test(l));
    expect(annotations.length).toBeGreaterThan(3);
    // The input error first (most severe), then the findings of the odd file, at its repo-relative path.
    expect(annotations[0]).toBe('::error title=mcp-annotate%3A input error::$(touch PWNED3): no such file or directory');
    expect(annotations[1]).toContain(`::error file=my dir/tools "q" $(touch PWNED) \`touch PWNED2\`.json,line=`);
    // format github: the annotations are printed once.
    expect(new Set(annotations).size).toBe(annotations.length);
  });

  it('passes a target that starts with - as a file, never as an option', () => {
    const marker = join(tempDir(), 'PWNED');
    const ws = workspace({ 'servers/example.json': example, '-': example, '--quiet': example });
    const { last, outputs } = runAction(actionPath, ws, { targets: `servers/example.json\n--stdio=touch ${marker}\n-\n--quiet`, 'fail-on': 'none' }, lintStep);
    expect(existsSync(marker)).toBe(false);
    // --stdio=… is a file that does not exist (exit 2); - and --quiet are the files of those names.
    expect(last.code).toBe(2);
    expect(last.stdout).toContain(`./--stdio=touch ${marker}: no such file or directory`);
    expect(last.stdout).toMatch(/ lint servers\/example\.json "?\.\/--stdio=touch [^\n]* \.\/- \.\/--quiet /);
    const sarif = JSON.parse(readFileSync(join(ws, 'mcp-annotate.sarif'), 'utf8'));
    const uris = new Set(sarif.runs[0].results.map((r: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) => r.locations[0]!.physicalLocation.artifactLocation.uri));
    expect([...uris].sort()).toEqual(['-', '--quiet', 'servers/example.json']);
    expect(outputs['error-count']).toBe('12');
  });

  it('keeps its own options before args, so a -- in args takes only the server command', () => {
    const server = join(tempDir({ 'server.mjs': stdioServer }), 'server.mjs');
    const ws = workspace({});
    const { last, outputs, summary } = runAction(actionPath, ws, { format: 'json', 'fail-on': 'none', args: `-- node ${JSON.stringify(server)}` }, lintStep);
    expect(last.code, last.stderr).toBe(0);
    // The report on stdout is json (-f json reached the CLI), and the server was linted.
    const report = JSON.parse(last.stdout.slice(last.stdout.indexOf('{'), last.stdout.lastIndexOf('}') + 1));
    expect(report.summary.tools).toBe(1);
    expect(outputs['sarif-file']).toBe('mcp-annotate.sarif');
    expect(summary).toContain('## mcp-annotate');
  });

  it('gives every SARIF result of a server started from args a file to point at (code scanning rejects results without one)', () => {
    const server = join(tempDir({ 'server.mjs': stdioServer.replace("inputSchema: { type: 'object' }, annotations", "description: 'Deletes all notes', inputSchema: { type: 'object' }, annotations") }), 'server.mjs');
    const ws = workspace({});
    const { last } = runAction(actionPath, ws, { 'fail-on': 'none', args: `--stdio ${JSON.stringify(`node ${server}`)}` }, lintStep);
    expect(last.code, last.stdout).toBe(0);
    expect(last.stdout).toContain('saved in mcp-annotate-snapshots/');
    const sarif = JSON.parse(readFileSync(join(ws, 'mcp-annotate.sarif'), 'utf8'));
    const results = sarif.runs[0].results as { locations: { physicalLocation?: { artifactLocation: { uri: string } } }[] }[];
    expect(results.length).toBeGreaterThan(0);
    for (const r of results) expect(r.locations[0]!.physicalLocation?.artifactLocation.uri).toBe('mcp-annotate-snapshots/tiny.json');
    expect(existsSync(join(ws, 'mcp-annotate-snapshots', 'tiny.json'))).toBe(true);
    // A directory of one's own choosing is kept.
    const own = runAction(actionPath, ws, { 'fail-on': 'none', args: `--save-snapshots snaps -- node ${JSON.stringify(server)}` }, lintStep);
    expect(own.last.code, own.last.stdout).toBe(0);
    expect(own.last.stdout).not.toContain('saved in mcp-annotate-snapshots/');
    const mine = JSON.parse(readFileSync(join(ws, 'mcp-annotate.sarif'), 'utf8'));
    expect(mine.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('snaps/tiny.json');
  });

  it('masks the values of --env, --input and --header in args, and never prints them', () => {
    const ws = workspace({ 'tools.json': example });
    const secrets = ['sk-live-0123456789', 'in-put-secret-42', 'tok.abcdef.999', 'attached-env-777', 'attached-hdr-888'];
    const args = `--env API_KEY=${secrets[0]} --input token=${secrets[1]} --header "Authorization: Bearer ${secrets[2]}" --env=OTHER=${secrets[3]} --header=X-Key:${secrets[4]} --env 'REF=\${MY_KEY}'`;
    const { last } = runAction(actionPath, ws, { targets: 'tools.json', 'fail-on': 'none', args }, lintStep);
    // --header without a --url server is a usage error of the CLI: what matters here is the log.
    expect(last.code, last.stderr).toBe(2);
    const log = `${last.stdout}\n${last.stderr}`.split('\n');
    // Each value is masked before anything else is printed; no other line holds it.
    for (const secret of secrets) {
      const first = log.findIndex((l) => l.includes(secret));
      expect(log[first], secret).toMatch(/^::add-mask::/);
      expect(log.filter((l) => l.includes(secret) && !l.startsWith('::add-mask::')), secret).toEqual([]);
    }
    for (const secret of secrets) expect(log, secret).toContain(`::add-mask::${secret}`);
    expect(log).toContain(`::add-mask::Bearer ${secrets[2]}`);
    const echo = log.find((l) => l.startsWith('mcp-annotate lint '))!;
    expect(echo).toContain('--env "API_KEY=***" --input "token=***" --header "Authorization: ***" "--env=OTHER=***" "--header=X-Key: ***"');
    // A reference is no secret: the CLI resolves it (and keeps what it resolves to out of its output).
    expect(echo).toContain('--env "REF=${MY_KEY}"');
  });

  it('shows a --url as the CLI does (a key in its path or query as ***), and masks a key in its path', () => {
    const key = 'sk-ak-9Xq2vL7pR4tK8mN3wB6yZ1cF5hJ0';
    // Words are no keys: neither masked (which would hide them in the whole log) nor hidden.
    const args = `--timeout 5 --url http://127.0.0.1:9/mcp/${key}/sse?api_key=query-secret-1 --url=http://127.0.0.1:9/v1/${key}/mcp --url http://127.0.0.1:9/sk-learn-tutorial-server/GitHubMCPServerV2/mcp`;
    const { last } = runAction(actionPath, workspace({}), { 'fail-on': 'none', args }, lintStep);
    expect(last.code, last.stdout).toBe(2);
    const log = `${last.stdout}\n${last.stderr}`.split('\n');
    expect(log.filter((l) => l.startsWith('::add-mask::'))).toEqual([`::add-mask::${key}`, `::add-mask::${key}`]);
    const echo = log.find((l) => l.startsWith('mcp-annotate lint '))!;
    expect(echo).toContain('--url "http://127.0.0.1:9/mcp/***/sse?api_key=***" "--url=http://127.0.0.1:9/v1/***/mcp" --url http://127.0.0.1:9/sk-learn-tutorial-server/GitHubMCPServerV2/mcp');
    expect(log.filter((l) => (l.includes(key) || l.includes('query-secret-1')) && !l.startsWith('::add-mask::'))).toEqual([]);
  });

  it('neither masks nor hides the values of Accept, Content-Type and User-Agent (any case), as the CLI does not; other headers stay secret', async () => {
    // A server that quotes the headers it was sent, in a process of its own (runAction blocks this one).
    const server = spawn(
      process.execPath,
      [
        '-e',
        `const s = require('node:http').createServer((req, res) => res.writeHead(400, { 'content-type': 'text/plain' }).end('Accept must include application/json and text/event-stream; agent ' + req.headers['user-agent']));
         s.listen(0, '127.0.0.1', () => console.log(s.address().port));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const port = await new Promise<string>((resolvePort, reject) => {
        server.stdout!.once('data', (d: Buffer) => resolvePort(String(d).trim()));
        server.once('exit', () => reject(new Error('the test server ended')));
      });
      const token = 'tok-secret-4242';
      const args = `--transport http --url http://127.0.0.1:${port}/mcp --header "accept: application/json, text/event-stream" --header=Content-Type:application/json --header "USER-AGENT: probe-\${AGENT}" --header "Authorization: Bearer ${token}"`;
      const { last } = runAction(actionPath, workspace({}), { 'fail-on': 'none', args }, lintStep, { AGENT: 'agent-secret-77' });
      expect(last.code, last.stdout).toBe(2);
      const log = `${last.stdout}\n${last.stderr}`.split('\n');
      // Only the Authorization value is masked (and its token on its own).
      expect(log.filter((l) => l.startsWith('::add-mask::'))).toEqual([`::add-mask::Bearer ${token}`, `::add-mask::${token}`]);
      const echo = log.find((l) => l.startsWith('mcp-annotate lint '))!;
      expect(echo).toContain('--header "accept: application/json, text/event-stream" --header=Content-Type:application/json --header "USER-AGENT: probe-${AGENT}" --header "Authorization: ***"');
      // The server's explanation stays readable; what the variable resolved to is still hidden by the CLI.
      expect(last.stdout).toContain(`http://127.0.0.1:${port}/mcp: HTTP 400 Bad Request while waiting for the initialize response: "Accept must include application/json and text/event-stream; agent probe-***"`);
      expect(last.stdout).not.toContain('agent-secret-77');
      expect(log.filter((l) => l.includes(token) && !l.startsWith('::add-mask::'))).toEqual([]);
    } finally {
      server.kill();
    }
  });

  it('sets the sarif-file output only when this run wrote the file', () => {
    const ws = workspace({ 'tools.json': example, 'mcp-annotate.sarif': '{"stale":true}', 'dir.sarif/keep': '' });
    // An earlier run's file, and a run that writes no SARIF (--version prints the version and ends).
    const version = runAction(actionPath, ws, { targets: 'tools.json', args: '--version' }, lintStep);
    expect(version.last.code, version.last.stderr).toBe(0);
    expect(version.outputs['sarif-file']).toBe('');
    expect(readFileSync(join(ws, 'mcp-annotate.sarif'), 'utf8')).toBe('{"stale":true}');
    // Nothing to lint: exit 2, the stale file stays and is not reported.
    const nothing = runAction(actionPath, ws, {}, lintStep);
    expect(nothing.last.code).toBe(2);
    expect(nothing.outputs['sarif-file']).toBe('');
    // A directory where the file should go.
    const dir = runAction(actionPath, ws, { targets: 'tools.json', 'sarif-file': 'dir.sarif' }, lintStep);
    expect(dir.outputs['sarif-file']).toBe('');
    // A run that writes it: set, even over the stale file.
    const ok = runAction(actionPath, ws, { targets: 'tools.json', 'fail-on': 'none' }, lintStep);
    expect(ok.last.code).toBe(0);
    expect(ok.outputs['sarif-file']).toBe('mcp-annotate.sarif');
    expect(JSON.parse(readFileSync(join(ws, 'mcp-annotate.sarif'), 'utf8')).runs).toHaveLength(1);
  });

  it('says why when mcp-annotate fails before linting: one ::error line and a step summary', () => {
    const ws = workspace({ 'tools.json': example });
    const nothing = runAction(actionPath, ws, {}, lintStep);
    expect(nothing.last.code).toBe(2);
    const errors = nothing.last.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^::error title=mcp-annotate::mcp-annotate exited with code 2: nothing to lint: give the targets input /);
    // Not the command line's "- to read stdin": the action has no stdin (a target - is the file ./-).
    expect(errors[0]).not.toContain('stdin');
    expect(nothing.summary).toContain('give the targets input');
    // The CLI's own message still reaches the log (its stderr, printed with its stdout).
    expect(nothing.last.stdout).toMatch(/^mcp-annotate: nothing to lint/m);
    expect(nothing.summary).toMatch(/^## mcp-annotate\n\n❌ \*\*The run failed\*\* \(exit code 2\) before it could lint anything: nothing to lint/);
    expect(nothing.outputs).toEqual({ 'sarif-file': '', 'error-count': '', 'warning-count': '', 'exit-code': '2' });
    const baseline = runAction(actionPath, ws, { targets: 'tools.json', baseline: 'missing.baseline.json' }, lintStep);
    expect(baseline.last.code).toBe(2);
    expect(baseline.last.stdout).toMatch(/^::error title=mcp-annotate::mcp-annotate exited with code 2: .*missing\.baseline\.json/m);
    expect(baseline.summary).toContain('missing.baseline.json');
  });

  it('says in one ::error line, exit 2 and no stack trace, that the runner environment is broken', () => {
    const ws = workspace({ 'tools.json': example });
    const missing = join(tempDir(), 'no', 'such', 'dir');
    for (const [name, value, says] of [
      ['RUNNER_TEMP', missing, `RUNNER_TEMP: cannot make a temporary directory in ${missing}: ENOENT`],
      ['GITHUB_OUTPUT', join(missing, 'output'), `GITHUB_OUTPUT: cannot write ${missing}/output: ENOENT`],
      ['GITHUB_STEP_SUMMARY', join(missing, 'summary.md'), `GITHUB_STEP_SUMMARY: cannot write ${missing}/summary.md: ENOENT`],
    ] as const) {
      const { last } = runAction(actionPath, ws, { targets: 'tools.json' }, lintStep, { [name]: value });
      expect(last.code, name).toBe(2);
      const errors = last.stdout.split('\n').filter((l) => l.startsWith('::error'));
      expect(errors, name).toHaveLength(1);
      expect(errors[0], name).toContain(`::error title=mcp-annotate::${says}`);
      expect(last.stderr, name).not.toMatch(/\n\s+at /);
      // Nothing ran: no report in the log.
      expect(last.stdout, name).not.toContain('problems');
    }
  });

  it('refuses a working-directory outside the workspace and args with a quote left open', () => {
    const elsewhere = tempDir({ 'tools.json': example });
    const ws = workspace({ 'sub/tools.json': example });
    symlinkSync(elsewhere, join(ws, 'link'));
    for (const dir of [elsewhere, '../x', 'sub/../..', 'link']) {
      const { last, outputs } = runAction(actionPath, ws, { targets: 'tools.json', 'working-directory': dir }, lintStep);
      expect(last.code, dir).toBe(2);
      expect(last.stdout, dir).toContain(`::error title=mcp-annotate::working-directory: ${dir} is outside the workspace (${ws}); give a directory inside it, relative to it`);
      expect(outputs['exit-code']).toBe('2');
    }
    // Inside it, also given as an absolute path: fine.
    const abs = runAction(actionPath, ws, { targets: 'tools.json', 'working-directory': join(ws, 'sub'), 'fail-on': 'none' }, lintStep);
    expect(abs.last.code, abs.last.stdout).toBe(0);
    for (const [args, quote] of [[`--vocab 'core`, 'a single quote (\')'], ['--vocab "core', 'a double quote (")']]) {
      const { last } = runAction(actionPath, ws, { targets: 'sub/tools.json', args }, lintStep);
      expect(last.code, args).toBe(2);
      expect(last.stdout, args).toContain(`::error title=mcp-annotate::args: ${quote} is never closed; close it, or escape it with a backslash`);
    }
  });

  it('refuses shell operators in args and a bad format with one clear line, exit 2', () => {
    const ws = workspace({ 'tools.json': example });
    const op = runAction(actionPath, ws, { targets: 'tools.json', args: '--quiet; touch PWNED' }, lintStep);
    expect(op.last.code).toBe(2);
    expect(op.last.stdout).toContain('::error title=mcp-annotate::args: ";" is a shell operator, and no shell runs these arguments; quote it if it is part of an argument');
    expect(op.outputs['exit-code']).toBe('2');
    expect(existsSync(join(ws, 'PWNED'))).toBe(false);
    // A # inside a word is part of it, as in a POSIX shell; at the start of a word it is a comment, refused.
    const inner = runAction(actionPath, ws, { targets: 'tools.json', 'fail-on': 'none', args: '--header X-Tag:#a --url http://127.0.0.1:9/#x' }, lintStep);
    expect(inner.last.stdout).not.toContain('shell comment');
    expect(inner.last.stdout).toContain('127.0.0.1:9/#x');
    const comment = runAction(actionPath, ws, { targets: 'tools.json', args: '--quiet #--vocab core' }, lintStep);
    expect(comment.last.code).toBe(2);
    expect(comment.last.stdout).toContain('::error title=mcp-annotate::args: an unquoted # at the start of a word starts a shell comment; quote it if it is part of an argument');
    // A backslash-newline continues the line (no empty argument); a # after it starts a word, so a comment.
    const continued = runAction(actionPath, ws, { targets: 'tools.json', 'fail-on': 'none', args: '--vocab core \\\n--quiet' }, lintStep);
    expect(continued.last.code, continued.last.stdout).toBe(0);
    expect(continued.last.stdout).toContain('-f text -o - --vocab core --quiet\n');
    expect(continued.last.stdout).not.toMatch(/empty target|--vocab core '' --quiet/);
    // The last line of a block `args: |` ends in backslash + line break too: no empty argument.
    const trailing = runAction(actionPath, ws, { targets: 'tools.json', 'fail-on': 'none', args: '--vocab core \\\n--quiet \\\n' }, lintStep);
    expect(trailing.last.code, trailing.last.stdout).toBe(0);
    expect(trailing.last.stdout).toContain('-f text -o - --vocab core --quiet\n');
    const after = runAction(actionPath, ws, { targets: 'tools.json', args: '--quiet \\\n# comment' }, lintStep);
    expect(after.last.code).toBe(2);
    expect(after.last.stdout).toContain('::error title=mcp-annotate::args: an unquoted # at the start of a word starts a shell comment');
    const fmt = runAction(actionPath, ws, { targets: 'tools.json', format: 'html' }, lintStep);
    expect(fmt.last.code).toBe(2);
    expect(fmt.last.stdout).toContain('::error title=mcp-annotate::format: "html" is not one of text, json, sarif, github, markdown');
  });

  it('says why a report file that cannot be written fails the step: ✖ in the summary and the log, and an ::error annotation', () => {
    const ws = workspace({ 's/a.json': example, 'dir.sarif/keep': '' });
    // fail-on none: the findings alone would pass the step.
    const { last, outputs, summary } = runAction(actionPath, ws, { targets: 's/a.json', 'fail-on': 'none', 'sarif-file': 'dir.sarif' }, lintStep);
    expect(last.code).toBe(2);
    expect(outputs).toEqual({ 'sarif-file': '', 'error-count': '4', 'warning-count': '15', 'exit-code': '2' });
    const sentence = `cannot write ${join(ws, 'dir.sarif')} (it is a directory), which fails the run (exit code 2)`;
    expect(summary).toMatch(/^## mcp-annotate\n\n❌ \*\*21 findings\*\* in 1 server, 8 tools\./);
    expect(summary).toContain(`_${sentence}._`);
    expect(last.stdout).toContain(`✖ 21 problems (4 errors, 15 warnings, 2 notes) in 1 server, 8 tools; ${sentence}\n`);
    // Processed by the runner (after the CLI's output): the reason first, then the findings.
    const errors = processedCommands(last.stdout).filter((c) => c.name === 'error');
    expect(errors[0]!.line).toBe(`::error title=mcp-annotate%3A report not written::${sentence}`);
    expect(errors.slice(1).every((c) => /^::error file=s\/a\.json,/.test(c.line))).toBe(true);
  });

  it('names the error, not only its hint, and puts a config error on its file and line, repository-relative', () => {
    const ws = workspace({ 'tools.json': example, 'pkg/s/a.json': example, 'pkg/mcp-annotate.config.yaml': 'targets:\n  files: [s/a.json]\nrules:\n  nonexistent-rule: error\n' });
    // commander's "(Did you mean --stdio?)" is the last line of stderr; the error is the line before.
    const typo = runAction(actionPath, ws, { targets: 'tools.json', args: '--stdin' }, lintStep);
    expect(typo.last.code).toBe(2);
    expect(typo.last.stdout).toContain("::error title=mcp-annotate::mcp-annotate exited with code 2: unknown option '--stdin' (Did you mean --stdio?)\n");
    expect(typo.summary).toContain("before it could lint anything: unknown option '--stdin' (Did you mean --stdio?)");
    const config = runAction(actionPath, ws, { 'working-directory': 'pkg' }, lintStep);
    expect(config.last.code).toBe(2);
    const errors = config.last.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toEqual([
      '::error file=pkg/mcp-annotate.config.yaml,line=4,col=3,title=mcp-annotate::mcp-annotate exited with code 2: pkg/mcp-annotate.config.yaml:4:3: rules has an unknown rule "nonexistent-rule" (mcp-annotate rules lists them; a policy\'s rule is "policy/<name>")',
    ]);
    expect(config.summary).toContain('before it could lint anything: pkg/mcp-annotate.config.yaml:4:3: rules has an unknown rule');
  });

  it('echoes its command line where the runner processes no workflow command: an input holding ##[ or :: is only text', () => {
    const ws = workspace({ 'tools.json': example });
    const { last } = runAction(actionPath, ws, { targets: 'tools.json\n##[error]fake.json', 'fail-on': 'none', args: '--vocab core --server "##[stop-commands]zz"' }, lintStep);
    expect(last.code).toBe(2);
    expect(last.stdout).toMatch(/^mcp-annotate lint tools\.json "##\[error\]fake\.json" .*"##\[stop-commands\]zz"/m);
    // The action's stop-commands, then its own ::error (not silenced by the input's stop-commands).
    const commands = processedCommands(last.stdout);
    expect(commands.map((c) => c.name)).toEqual(['stop-commands', 'error']);
    expect(commands[1]!.line).toBe('::error title=mcp-annotate::mcp-annotate exited with code 2: --server picks servers from --mcp-config files or --discover; give one of them');
  });

  it('fails the step according to fail-on, and passes a clean run', () => {
    const clean = JSON.stringify({ tools: [{ name: 'list_notes', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false } }] });
    const ws = workspace({ 'clean.json': clean, 'tools.json': example });
    const ok = runAction(actionPath, ws, { targets: 'clean.json' }, lintStep);
    expect(ok.last.code).toBe(0);
    expect(ok.outputs).toEqual({ 'sarif-file': 'mcp-annotate.sarif', 'error-count': '0', 'warning-count': '0', 'exit-code': '0' });
    expect(ok.summary).toContain('✅ **No problems** in 1 server, 1 tool.');
    const none = runAction(actionPath, ws, { targets: 'tools.json', 'fail-on': 'none' }, lintStep);
    expect(none.last.code).toBe(0);
    expect(none.outputs['error-count']).toBe('4');
  });
});
