#!/usr/bin/env node
// The steps of the GitHub Action (action.yml at the repository root).
//
//   node scripts/action.mjs setup   install the dependencies from the lock file and build, in the
//                                   action's own directory ($GITHUB_ACTION_PATH): the action runs
//                                   from source at whatever ref it was used at, never from a
//                                   committed build that could drift from it.
//   node scripts/action.mjs run     run `mcp-annotate lint` with the inputs (INPUT_* variables),
//                                   write the SARIF file, append the markdown summary to
//                                   $GITHUB_STEP_SUMMARY, print the report and the GitHub
//                                   annotations to the log, set the outputs in $GITHUB_OUTPUT and
//                                   exit with mcp-annotate's exit code (so fail-on fails the step).
//
// No input is ever handed to a shell, nor taken for an option: targets are one per line (one
// that starts with "-" is passed as ./-…), the action's own options come before args, args are split into words with
// shell-quote (quotes group words; no variable is expanded, no operator is allowed), and the CLI
// is started with an argument vector.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { constants as osConstants, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const osSignals = osConstants.signals;

const ACTION_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MIN_NODE = [20, 19];
const FORMATS = ['text', 'json', 'sarif', 'github', 'markdown'];
const FAIL_ON = ['error', 'warning', 'note', 'none'];

/**
 * An input, from INPUT_<NAME> in upper case, trimmed (`raw`: as given). action.yml (a composite
 * action) maps each input to its step's env explicitly, with "-" as "_" (INPUT_FAIL_ON); the
 * runner of a JavaScript action would set INPUT_<NAME> with only spaces as "_" and hyphens kept
 * (INPUT_FAIL-ON, which @actions/core's getInput reads). Both spellings are read, the "_" one
 * first, so the script also works when started that way or by hand.
 */
export function input(name, env = process.env, { raw = false } = {}) {
  const upper = name.toUpperCase();
  const value = env[`INPUT_${upper.replace(/[- ]/g, '_')}`] ?? env[`INPUT_${upper.replace(/ /g, '_')}`] ?? '';
  return raw ? value : value.trim();
}

/** A multi-line input: one entry per non-empty line. */
export function lines(value) {
  return value
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
}

/**
 * A path input as a path, never an option: one that starts with "-" gets "./" in front (a lone
 * "-", the CLI's stdin, is a file named "-" too: the action has no stdin to give).
 */
export function asPath(value) {
  return value.startsWith('-') ? `./${value}` : value;
}

/** A stand-in for "$" while shell-quote splits words, so that nothing is taken for a variable. */
const DOLLAR = '\uE000';

/**
 * Split the args input into words like a shell (quotes and backslashes group), without a
 * shell: no variable expansion, no globbing (a glob stays a word; mcp-annotate expands its own
 * targets), and no operators or comments.
 */
export async function splitArgs(value) {
  if (value.includes(DOLLAR)) throw new ActionError('args: contains U+E000, which is not allowed');
  // The CLI's own check for --stdio.
  const { unclosedQuote, escapeInnerHashes } = await cliModule('sources/live/targets.js');
  const unclosed = unclosedQuote(value);
  if (unclosed) {
    throw new ActionError(`args: a ${unclosed === '"' ? 'double' : 'single'} quote (${unclosed}) is never closed; close it, or escape it with a backslash`);
  }
  const { parse } = await import('shell-quote');
  const words = [];
  // A # inside a word is part of it (--channel=#general), as in a POSIX shell; shell-quote
  // would take it for a comment. At the start of a word it is a comment, and refused below.
  for (const token of parse(escapeInnerHashes(dollarsInDoubleQuotes(value).replaceAll('$', DOLLAR)))) {
    if (typeof token === 'string') words.push(token.replaceAll(DOLLAR, '$'));
    else if ('op' in token && token.op === 'glob') words.push(token.pattern.replaceAll(DOLLAR, '$'));
    else if ('comment' in token) throw new ActionError('args: an unquoted # at the start of a word starts a shell comment; quote it if it is part of an argument');
    else throw new ActionError(`args: ${JSON.stringify(token.op)} is a shell operator, and no shell runs these arguments; quote it if it is part of an argument`);
  }
  return words;
}

/**
 * Inside double quotes, bash drops the backslash before $ and ` ("\$5" is $5); shell-quote
 * keeps it once $ is hidden from it: done here, where the quotes are known. Single quotes keep
 * everything as it is, and outside quotes shell-quote drops the backslash itself. A backslash
 * that ends the input stays one, and bash's $'…' and $"…" quoting is refused rather than read
 * wrongly.
 */
function dollarsInDoubleQuotes(value) {
  let out = '';
  let quote = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quote === "'") {
      if (c === "'") quote = '';
      out += c;
    } else if (c === '\\' && i + 1 < value.length) {
      const next = value[++i];
      out += quote === '"' && next === '$' ? DOLLAR : quote === '"' && next === '`' ? '`' : c + next;
    } else if (c === '\\') {
      // A backslash that ends the input is itself, as in bash (shell-quote made it an empty word).
      out += '\\\\';
    } else if (c === '$' && quote === '' && (value[i + 1] === "'" || value[i + 1] === '"')) {
      throw new ActionError(`args: bash's $${value[i + 1]}…${value[i + 1]} quoting is not supported here; write the value in plain quotes`);
    } else {
      if (c === '"') quote = quote === '"' ? '' : '"';
      else if (c === "'" && quote === '') quote = "'";
      out += c;
    }
  }
  return out;
}

export class ActionError extends Error {}

/** The options of `lint` whose values are secrets, and where the secret part of a value starts. */
const SECRET_OPTIONS = { '--env': '=', '--input': '=', '--header': ':' };
/** A value that is only a reference to an environment variable (the CLI resolves it and keeps the result secret). */
const REFERENCE = /^\$\{(?:env:)?[A-Za-z_]\w*\}$/;
/** Shorter values are not masked in the log (masking "1" would hide every 1 in it), only in the echoed command. */
const MIN_MASK = 4;

/**
 * The secret values in the CLI arguments (of --env NAME=value, --input id=value, --header
 * "Name: value", and their --opt=… forms; not after --, the server's command), and the
 * arguments as they may be shown, with those values as ***. A --url is shown as the CLI shows
 * it (its user-info, query values and key-like path segments as ***), and those path segments
 * are masked too.
 *
 * As in the CLI (its isPlainHeader, used here so that the two cannot drift apart), the values
 * of Accept, Content-Type and User-Agent (any case) are no secrets: they hold no credential, and
 * masking them would make the runner hide a server's explanation that quotes them ("Accept must
 * include application/json and text/event-stream") everywhere in the log. They are shown as
 * written; a ${VAR} in them is resolved by the CLI, which keeps what it resolves to out of its
 * output, as for any other header.
 */
export async function secretsOf(args) {
  const { isPlainHeader, displayUrl, pathSecrets } = await cliModule('sources/live/targets.js');
  const secrets = [];
  const shown = [];
  /** A --url as the CLI shows it (user-info, query values and path segments that look like keys as ***), its path segments that are keys (isKeySegment) masked. */
  const url = (word) => {
    try {
      for (const secret of new Set(pathSecrets(new URL(word)))) if (!REFERENCE.test(secret)) secrets.push(secret);
    } catch {
      // Not a URL: the CLI refuses it, showing it as displayUrl does.
    }
    return displayUrl(word);
  };
  /** word with its value part hidden: the part after the first separator, or all of it. */
  const hide = (word, separator) => {
    const at = word.indexOf(separator);
    // The CLI's parseHeader: the name is what comes before the first colon, trimmed.
    if (separator === ':' && at !== -1 && isPlainHeader(word.slice(0, at).trim())) return word;
    const value = (at === -1 ? word : word.slice(at + 1)).trim();
    if (value && !REFERENCE.test(value)) {
      secrets.push(value);
      // "Bearer <token>": the token alone too, wherever it shows up on its own.
      const credential = separator === ':' ? /^[\w-]+\s+(\S.*)$/.exec(value)?.[1] : undefined;
      if (credential && !REFERENCE.test(credential)) secrets.push(credential);
    }
    if (!value || REFERENCE.test(value)) return word;
    return at === -1 ? '***' : `${word.slice(0, at + 1)}${separator === ':' ? ' ' : ''}***`;
  };
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === '--') {
      shown.push(...args.slice(i));
      break;
    }
    const attached = /^(--[\w-]+)=/.exec(word);
    if (attached?.[1] === '--url') {
      shown.push(`--url=${url(word.slice(attached[0].length))}`);
    } else if (word === '--url' && i + 1 < args.length) {
      shown.push(word, url(args[i + 1]));
      i++;
    } else if (attached && SECRET_OPTIONS[attached[1]]) {
      shown.push(`${attached[1]}=${hide(word.slice(attached[0].length), SECRET_OPTIONS[attached[1]])}`);
    } else if (SECRET_OPTIONS[word] && i + 1 < args.length) {
      shown.push(word, hide(args[i + 1], SECRET_OPTIONS[word]));
      i++;
    } else {
      shown.push(word);
    }
  }
  return { secrets, shown };
}

/** ::add-mask:: for each secret (each of its lines), so that the runner hides it in the log. */
function mask(secrets) {
  for (const secret of secrets) {
    for (const line of secret.split(/\r?\n/)) {
      if (line.trim().length >= MIN_MASK) process.stdout.write(`::add-mask::${escapeData(line)}\n`);
    }
  }
}

/** A workflow-command message (%, CR, LF escaped). */
function escapeData(s) {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Append name=value to $GITHUB_OUTPUT with a random delimiter, as @actions/core does. */
function setOutput(name, value, env = process.env) {
  const file = env.GITHUB_OUTPUT;
  if (!file) {
    process.stdout.write(`mcp-annotate: output ${name}=${value}\n`);
    return;
  }
  const delimiter = `ghadelimiter_${randomUUID()}`;
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

function run(command, args, options) {
  const r = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (r.error) throw new ActionError(`${command} could not be started: ${r.error.message}`);
  return r.status ?? 1;
}

/**
 * Run the CLI with its stdout and stderr both to our stdout, a line at a time as they come
 * (one stream, so the runner sees them in this order), and its stderr also kept (the last
 * 64 KiB) to say why it failed. The CLI keeps secrets out of its own messages.
 *
 * Everything the CLI prints is the report of what servers said: names, descriptions, stderr.
 * The runner takes a line that starts with "::" (or holds "##[") for a workflow command, and
 * one such line of a server's making could stop the commands the action prints after it, or
 * fake an error. So the CLI's output is printed between `::stop-commands::<token>` and
 * `::<token>::`, with a token no server can know: within, the runner processes no command at
 * all (the CLI also neutralises such lines itself when GITHUB_ACTIONS=true). The command line
 * the action echoes (`preamble`) holds the inputs, so it is printed within too. The action's own
 * annotations are printed after, from the file the CLI wrote them to.
 */
function runCli(args, options, preamble = '') {
  return new Promise((resolvePromise, reject) => {
    const token = `mcp-annotate-${randomUUID()}`;
    process.stdout.write(`::stop-commands::${token}\n`);
    // The command line holds the inputs, which may hold "::" or "##[": within, as the CLI's output.
    process.stdout.write(preamble);
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    // Whole lines only, so that a line of stdout and one of stderr are never run together.
    const open = { stdout: '', stderr: '' };
    const print = (stream, chunk) => {
      const text = open[stream] + chunk;
      const end = text.lastIndexOf('\n') + 1;
      if (end > 0) process.stdout.write(text.slice(0, end));
      open[stream] = text.slice(end);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk) => print('stdout', chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      print('stderr', chunk);
      stderr = (stderr + chunk).slice(-65536);
    });
    const resume = () => {
      for (const rest of [open.stdout, open.stderr]) if (rest) process.stdout.write(`${rest}\n`);
      open.stdout = open.stderr = '';
      process.stdout.write(`::${token}::\n`);
    };
    child.on('error', (err) => {
      resume();
      reject(new ActionError(`mcp-annotate could not be started: ${err.message}`));
    });
    child.on('close', (code, signal) => {
      resume();
      resolvePromise({ code: code ?? (signal ? 128 + (osSignals[signal] ?? 0) : 1), stderr });
    });
  });
}

/**
 * Why the CLI failed, from its stderr, without colours and the tool's name: its last error line
 * (one that starts with "mcp-annotate: " or "error: ", not a note or a warning) with the hint
 * lines after it ("(Did you mean --stdio?)"); else the last line that says something.
 */
export function lastLine(text) {
  const lines = text
    .replace(/\u001b\[[0-9;]*[A-Za-z]/g, '')
    .split(/\r?\n|\r/)
    .map((l) => l.trim())
    .filter(Boolean);
  const isError = (l) => /^(mcp-annotate: |error: )/.test(l) && !/^mcp-annotate: (note|warning): /.test(l);
  let at = lines.length - 1;
  while (at >= 0 && !isError(lines[at])) at--;
  if (at < 0) return lines.at(-1)?.replace(/^mcp-annotate: /, '');
  const hints = lines.slice(at + 1).filter((l) => /^\(.*\)$/.test(l));
  return [lines[at], ...hints].join(' ').replace(/^mcp-annotate: /, '');
}

/**
 * Whether the JSON report accounts for the exit code, so that the annotations and the summary
 * made from the reports say why the step fails: 0; 1 (findings at fail-on, too many warnings,
 * stale baseline entries, all in the reports); 2 with input errors or report files that could not
 * be written in it. Anything else (no report, an error after it was written, a signal) is not.
 */
export function explained(code, json) {
  if (code === 0) return true;
  if (!json) return false;
  if (code === 1) return true;
  return code === 2 && (json.inputErrors?.length > 0 || json.unwritten?.length > 0);
}

/** A workflow-command property value (%, CR, LF, ":" and "," escaped). */
function escapeProperty(s) {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The file a reason starts with ("mcp-annotate.config.yaml:4:3: rules has …", "b.json: …"),
 * when it names one that exists: as file=/line=/col= of an annotation, relative to the
 * repository as findings' are, and the reason with that path in place of the one relative to
 * working-directory.
 */
export async function located(why, cwd, workspace) {
  for (let at = why.indexOf(': '); at > 0; at = why.indexOf(': ', at + 1)) {
    const m = /^(.+?)(?::(\d+)(?::(\d+))?)?$/.exec(why.slice(0, at));
    if (!m) continue;
    const path = resolve(cwd, m[1]);
    if (!fileState(path)?.file) continue;
    const { relativeInside } = await cliModule('util/paths.js');
    const relative = relativeInside(workspace, path);
    if (relative === undefined) return undefined;
    const file = relative.split('\\').join('/');
    const position = m[2] ? `:${m[2]}${m[3] ? `:${m[3]}` : ''}` : '';
    return { file: `file=${escapeProperty(file)}`, line: m[2], col: m[3], message: `${file}${position}${why.slice(at)}` };
  }
  return undefined;
}

/**
 * The CLI's reason, in the action's terms: its "nothing to lint" with no targets at all tells
 * command-line users to give files or "-" (stdin), which the action has no way to pass.
 */
export function forAction(why) {
  if (why?.startsWith('nothing to lint: give files')) {
    return 'nothing to lint: give the targets input (files, globs or directories of tools/list dumps), the mcp-config input, a live server in args (--stdio, --url, -- <command>), or targets in the config file';
  }
  return why;
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
    throw new ActionError(`mcp-annotate needs Node.js ${MIN_NODE.join('.')} or newer, and this runner has ${process.versions.node}: add actions/setup-node before this action`);
  }
}

/** `setup`: npm ci and the build, in the action's directory. */
function setup() {
  checkNode();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const shell = process.platform === 'win32';
  process.stdout.write('::group::Install mcp-annotate (npm ci)\n');
  const installed = run(npm, ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: ACTION_ROOT, shell });
  process.stdout.write('::endgroup::\n');
  if (installed !== 0) throw new ActionError(`npm ci failed in ${ACTION_ROOT} (exit code ${installed})`);
  process.stdout.write('::group::Build mcp-annotate\n');
  const built = run(process.execPath, [join(ACTION_ROOT, 'scripts', 'build.mjs')], { cwd: ACTION_ROOT });
  process.stdout.write('::endgroup::\n');
  if (built !== 0) throw new ActionError(`the build failed in ${ACTION_ROOT} (exit code ${built})`);
  return 0;
}

/** A module of the CLI's build (the setup step made it), by its path under dist/src. */
function cliModule(path) {
  return import(pathToFileURL(join(ACTION_ROOT, 'dist', 'src', ...path.split('/'))).href);
}

/** Whether path is root or inside it. */
async function inside(root, path) {
  const { relativeInside } = await cliModule('util/paths.js');
  return path === root || relativeInside(root, path) !== undefined;
}

/** The path as later steps can use it: relative to the workspace when inside it. */
async function forWorkspace(path, workspace) {
  const { relativeInside } = await cliModule('util/paths.js');
  return relativeInside(workspace, path) ?? path;
}

/** What is at a path (nothing: undefined), to tell whether a run wrote it. */
function fileState(path) {
  try {
    const st = statSync(path);
    return { file: st.isFile(), mtimeMs: st.mtimeMs, size: st.size, ino: st.ino };
  } catch {
    return undefined;
  }
}

/** Whether the run left a regular file at the path that was not there before it, or changed it. */
export function written(before, after) {
  if (!after?.file) return false;
  return !before || before.mtimeMs !== after.mtimeMs || before.size !== after.size || before.ino !== after.ino;
}

/** The CLI arguments for the inputs, and the files it writes. */
export async function plan(env, temp) {
  const workspace = resolve(env.GITHUB_WORKSPACE || process.cwd());
  const dir = input('working-directory', env) || '.';
  const cwd = resolve(workspace, dir);
  const outside = () => new ActionError(`working-directory: ${dir} is outside the workspace (${workspace}); give a directory inside it, relative to it`);
  if (!(await inside(workspace, cwd))) throw outside();
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new ActionError(`working-directory: ${cwd} is not a directory`);
  // Nor through a symbolic link that leads out of it.
  if (!(await inside(realpathSync(workspace), realpathSync(cwd)))) throw outside();
  const format = input('format', env) || 'text';
  if (!FORMATS.includes(format)) throw new ActionError(`format: ${JSON.stringify(format)} is not one of ${FORMATS.join(', ')}`);
  const failOn = input('fail-on', env);
  if (failOn && !FAIL_ON.includes(failOn)) throw new ActionError(`fail-on: ${JSON.stringify(failOn)} is not one of ${FAIL_ON.join(', ')}`);
  const sarif = resolve(cwd, input('sarif-file', env) || 'mcp-annotate.sarif');
  const files = { sarif, markdown: join(temp, 'summary.md'), json: join(temp, 'report.json'), github: join(temp, 'annotations.txt') };

  // Targets and paths are data: one that starts with "-" would be read as an option.
  const args = ['lint', ...lines(input('targets', env)).map(asPath)];
  for (const config of lines(input('mcp-config', env))) args.push('--mcp-config', asPath(config));
  const config = input('config', env);
  if (config) args.push('--config', asPath(config));
  const baseline = input('baseline', env);
  if (baseline) args.push('--baseline', asPath(baseline));
  if (failOn) args.push('--fail-on', failOn);
  args.push('-f', 'sarif', '-o', files.sarif, '-f', 'markdown', '-o', files.markdown, '-f', 'json', '-o', files.json, '-f', 'github', '-o', files.github);
  // The report for the log, to stdout (format github: the annotations, printed from their file
  // once the CLI is done). Every format of the action has its file, so an -o in args pairs with
  // a format in args; and the action's own options all come before args, where a -- (the rest
  // is a stdio server's command) cannot take them.
  if (format !== 'github') args.push('-f', format, '-o', '-');
  // Not trimmed: the last line of a block `args: |` ends in a line break, and a backslash before
  // it continues the line (trimmed, a lone backslash would be an empty word).
  const extra = await splitArgs(input('args', env, { raw: true }));
  // Servers started from args have no file: their SARIF results would carry only logical
  // locations, and GitHub code scanning rejects the whole upload for one such result. Their
  // snapshots are saved in the workspace, so that every result points at a line of a file.
  const snapshots = liveWithoutSnapshots(extra) ? SNAPSHOT_DIR : undefined;
  if (snapshots) args.push('--save-snapshots', snapshots);
  args.push(...extra);
  return { workspace, cwd, format, files, args, snapshots };
}

/** Where the action saves the snapshots of servers started from args, relative to working-directory. */
export const SNAPSHOT_DIR = 'mcp-annotate-snapshots';

/**
 * Whether args start servers of their own (--stdio, --url, a command after --) without
 * --save-snapshots. Servers of a client config (the mcp-config input, --mcp-config) need no
 * snapshot: their findings point at their entry in the config file.
 */
export function liveWithoutSnapshots(words) {
  let live = false;
  for (const word of words) {
    if (word === '--') return !words.some((w, i) => i < words.indexOf('--') && /^--save-snapshots(=|$)/.test(w));
    if (/^--(stdio|url)(=|$)/.test(word)) live = true;
    if (/^--save-snapshots(=|$)/.test(word)) return false;
  }
  return live;
}

/** The runner's files the action appends to can be written (before anything runs, not after). */
function checkRunnerFiles(env) {
  for (const name of ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY']) {
    if (!env[name]) continue;
    try {
      appendFileSync(env[name], '');
    } catch (err) {
      throw new ActionError(`${name}: cannot write ${env[name]}: ${err.message}`);
    }
  }
}

/** `run`: lint, then the summary, the annotations and the outputs. */
async function lint(env = process.env) {
  checkNode();
  checkRunnerFiles(env);
  const base = env.RUNNER_TEMP || tmpdir();
  let temp;
  try {
    temp = mkdtempSync(join(base, 'mcp-annotate-'));
  } catch (err) {
    throw new ActionError(`RUNNER_TEMP: cannot make a temporary directory in ${base}: ${err.message}`);
  }
  try {
    const p = await plan(env, temp);
    const { secrets, shown } = await secretsOf(p.args);
    mask(secrets);
    let preamble = '';
    if (p.snapshots) {
      preamble += `mcp-annotate: the servers started from args are saved in ${p.snapshots}/ (--save-snapshots), so that their SARIF results point at lines of a file, as GitHub code scanning requires; give --save-snapshots <dir> in args to choose the directory\n`;
    }
    preamble += `mcp-annotate ${shown.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(' ')}\n`;
    const sarifBefore = fileState(p.files.sarif);
    const { code, stderr } = await runCli([join(ACTION_ROOT, 'bin', 'mcp-annotate.js'), ...p.args], { cwd: p.cwd, env }, preamble);

    if (existsSync(p.files.github)) process.stdout.write(readFileSync(p.files.github, 'utf8'));
    if (existsSync(p.files.markdown) && env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, readFileSync(p.files.markdown, 'utf8'));
    const json = existsSync(p.files.json) ? JSON.parse(readFileSync(p.files.json, 'utf8')) : undefined;
    if (!explained(code, json)) {
      // No report (the CLI stopped before linting: nothing to lint, a bad config, a usage
      // error), or an exit code the report does not account for: its reason, from stderr.
      const why = forAction(lastLine(stderr));
      const at = why === undefined ? undefined : await located(why, p.cwd, p.workspace);
      const props = at ? `${at.file}${at.line ? `,line=${at.line}` : ''}${at.col ? `,col=${at.col}` : ''},` : '';
      const message = at ? at.message : why;
      process.stdout.write(`::error ${props}title=mcp-annotate::${escapeData(`mcp-annotate exited with code ${code}: ${message ?? 'see the log above'}`)}\n`);
      if (env.GITHUB_STEP_SUMMARY) {
        const text = (message ?? 'see the job log').replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
        appendFileSync(env.GITHUB_STEP_SUMMARY, `## mcp-annotate\n\n❌ **The run failed** (exit code ${code})${json ? '' : ' before it could lint anything'}: ${text}\n\nThe job log has the details.\n`);
      }
    }
    let counts = { errors: '', warnings: '' };
    if (json) counts = { errors: String(json.summary.errors), warnings: String(json.summary.warnings) };
    // Only a SARIF file this run wrote: not one left by an earlier run, nor a directory.
    setOutput('sarif-file', written(sarifBefore, fileState(p.files.sarif)) ? await forWorkspace(p.files.sarif, p.workspace) : '', env);
    setOutput('error-count', counts.errors, env);
    setOutput('warning-count', counts.warnings, env);
    setOutput('exit-code', String(code), env);
    return code;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

async function main(command) {
  try {
    if (command === 'setup') return setup();
    if (command === 'run') return await lint();
    throw new ActionError(`usage: node scripts/action.mjs setup|run (got ${JSON.stringify(command ?? '')})`);
  } catch (err) {
    // One line, never a stack trace: an unexpected error says what it was, as an ActionError does.
    const message = err instanceof ActionError ? err.message : `unexpected error: ${err?.message ?? String(err)}`;
    process.stdout.write(`::error title=mcp-annotate::${escapeData(message)}\n`);
    if (command === 'run') {
      try {
        setOutput('exit-code', '2');
      } catch {
        // GITHUB_OUTPUT itself is what failed; the ::error line says so.
      }
    }
    return 2;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv[2]);
}
