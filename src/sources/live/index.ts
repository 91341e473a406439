/**
 * Live targets for `lint` and `dump`: command-line servers (--stdio, --url, `-- cmd`),
 * client config files (--mcp-config) and the configs found by --discover. Importing this
 * module does not load the MCP SDK; connecting does.
 */
import { resolve } from 'node:path';
import { UsageError } from '../../cli/io.js';
import { checkLiveFlags } from './flags.js';
import { displayPath } from '../files.js';
import { targetsFromConfigFile } from './config.js';
import { discoverConfigs } from './discover.js';
import { liveRunOptions, runLiveTargets, type LiveRunFlags, type LiveRunResult } from './run.js';
import { displayUrl, parseAssignment, targetsFromFlags, type LiveFlags, type LiveTarget, type LiveTargets } from './targets.js';
import { VariableError, redact, secretNeedles } from './vars.js';
import { oneLine, plural } from '../../util/text.js';
import { append, maxOf } from '../../util/array.js';
import type { InputError } from '../../types.js';

export { targetsFromServerEntries, targetsFromConfigText, targetsFromConfigFile, type EntryOptions, type EntryStyle } from './config.js';
export { liveRunOptions, runLiveTargets, type LiveRunFlags, type LiveRunOptions, type LiveRunResult } from './run.js';
export { hasLiveFlags, type LiveFlags, type LiveTarget, type LiveTargets } from './targets.js';

export interface LiveContext {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Files the run reads or writes (absolute): --save-snapshots never writes over one. */
  reserved?: ReadonlySet<string>;
}

function inputsOf(f: LiveFlags): Map<string, string> {
  const inputs = new Map<string, string>();
  for (const item of f.input ?? []) {
    try {
      const [id, value] = parseAssignment(item, '--input', /^[^=\s]+$/);
      inputs.set(id, value);
    } catch (err) {
      throw new UsageError((err as VariableError).message);
    }
  }
  return inputs;
}

export interface ResolvedLive extends LiveTargets {
  /** Config files read, in order (for --discover's listing). */
  files: { path: string; display: string; client?: string; scope?: string; targets: LiveTarget[]; notes: string[] }[];
}

/**
 * The servers --server picks, by the names the config files hold: a value that names a
 * server exactly is that server (a name may hold a comma); any other value is a
 * comma-separated list of names.
 */
export function selectServers(values: readonly string[], names: ReadonlySet<string>): Set<string> {
  const only = new Set<string>();
  for (const value of values) {
    if (names.has(value)) only.add(value);
    else for (const part of value.split(',')) if (part.trim() !== '') only.add(part.trim());
  }
  return only;
}

/**
 * Every live target the flags name, resolved (variables expanded) but not started. `plan`:
 * resolve nothing, only say which config servers would run (ResolvedLive.planned), with the
 * errors of the files themselves (unreadable, not JSON, --server names that match nothing).
 */
export async function resolveLiveTargets(f: LiveFlags, ctx: LiveContext, opts: { plan?: boolean } = {}): Promise<ResolvedLive> {
  checkLiveFlags(f);
  const inputs = inputsOf(f);
  const fromFlags = opts.plan ? { targets: [], errors: [], notes: [] } : targetsFromFlags(f, ctx.env, ctx.cwd);
  const files: { path: string; client?: string; scope?: string; discovered: boolean }[] = [];
  const seen = new Set<string>();
  for (const file of [
    ...(f.mcpConfig ?? []).map((p) => ({ path: resolve(ctx.cwd, p), discovered: false })),
    ...(f.discover ? discoverConfigs({ cwd: ctx.cwd, env: ctx.env }).map((c) => ({ path: c.path, client: c.client, scope: c.scope, discovered: true })) : []),
  ]) {
    if (seen.has(file.path)) continue;
    seen.add(file.path);
    files.push(file);
  }
  const readAll = async (only: ReadonlySet<string> | undefined, plan: boolean): Promise<ResolvedLive> => {
    const out: ResolvedLive = { ...fromFlags, targets: [...fromFlags.targets], errors: [...fromFlags.errors], notes: [...fromFlags.notes], files: [], names: [], planned: [], skipped: [] };
    for (const file of files) {
      const r = await targetsFromConfigFile(file.path, { env: ctx.env, cwd: ctx.cwd, inputs, only, plan, allowNoServers: file.discovered });
      append(out.targets, r.targets);
      append(out.errors, r.errors);
      append(out.notes, r.notes);
      append(out.names!, r.names ?? []);
      append(out.planned!, r.planned ?? []);
      append(out.skipped!, r.skipped ?? []);
      out.files.push({ path: file.path, display: displayPath(file.path, ctx.cwd), client: file.client, scope: file.scope, targets: r.targets, notes: r.notes });
    }
    return out;
  };
  if (!f.server?.length) return readAll(undefined, Boolean(opts.plan));
  // The names first (nothing resolved), to tell a name with a comma from a list of names.
  const known = new Set((await readAll(new Set(), true)).names);
  const only = selectServers(f.server, known);
  const out = await readAll(only, Boolean(opts.plan));
  const missing = [...only].filter((n) => !known.has(n));
  if (missing.length) {
    const list = [...known].sort().map((n) => JSON.stringify(n)).join(', ');
    out.errors.push({
      target: '--server',
      message: `--server ${missing.map((n) => JSON.stringify(n)).join(', ')}: no such server in ${f.discover && !f.mcpConfig?.length ? 'the discovered configs' : 'the config files'}${list ? ` (servers: ${list})` : ''}`,
    });
  }
  return out;
}

/**
 * Why a run whose only targets are config files has nothing to lint (every server there
 * disabled or skipped, or none at all), said like an empty config's targets (exit 2), not
 * as "no problems in 0 servers".
 */
function nothingSelected(f: LiveFlags, resolved: ResolvedLive): string {
  const files = resolved.files.map((file) => file.display);
  const where = files.length === 1 ? files[0]! : `${files.slice(0, -1).join(', ')} and ${files[files.length - 1]}`;
  if (files.length === 0 || (f.discover && (resolved.names ?? []).length === 0)) return 'nothing to lint: --discover found no MCP servers in the known client config locations for this user and project';
  if ((resolved.names ?? []).length === 0) return `nothing to lint: ${where} ${files.length > 1 ? 'hold' : 'holds'} no servers; add one, or give other targets`;
  if (f.server?.length) return `nothing to lint: --server picks only servers of ${where} that are disabled or skipped (the notes above say why); enable one, or pick another`;
  return `nothing to lint: every server in ${where} is disabled or skipped (the notes above say why); enable one, or give other targets`;
}

/**
 * Resolve and run every live target. `alone`: the run has no other targets, so config files
 * that select no server are a usage error ("nothing to lint"; their notes are written first).
 */
export async function gatherLive(f: LiveFlags & LiveRunFlags, ctx: LiveContext, opts: { alone?: boolean } = {}): Promise<LiveRunResult & { notes: string[]; skipped: string[] }> {
  const resolved = await resolveLiveTargets(f, ctx);
  if (opts.alone && resolved.targets.length === 0 && resolved.errors.length === 0) {
    for (const n of resolved.notes) ctx.stderr.write(`mcp-annotate: note: ${oneLine(n)}\n`);
    throw new UsageError(nothingSelected(f, resolved));
  }
  // Every client config read keeps its content, also one that selected no server.
  const reserved = new Set([...(ctx.reserved ?? []), ...resolved.files.map((file) => file.path)]);
  const run = await runLiveTargets(resolved.targets, liveRunOptions(f, { ...ctx, reserved }));
  return { ...run, errors: [...resolved.errors, ...run.errors], notes: [...resolved.notes, ...run.notes], skipped: resolved.skipped ?? [] };
}

/** What a target would start or reach, for --discover's listing: no arguments, no query, no secret. */
function describeTarget(t: LiveTarget): string {
  const needles = secretNeedles(t.secrets);
  if (t.stdio) return `stdio  ${redact(t.stdio.command, needles)}`;
  const url = new URL(t.http!.url);
  return `${t.http!.transport === 'auto' ? 'http' : t.http!.transport}   ${redact(displayUrl(`${url.origin}${url.pathname}`), needles)}`;
}

/** --discover without --yes: the servers found, with their source files. Starts nothing. */
export async function listDiscovered(f: LiveFlags, ctx: LiveContext): Promise<{ text: string; errors: LiveTargets['errors'] }> {
  const resolved = await resolveLiveTargets(f, ctx);
  const lines: string[] = [];
  // A server that could not be resolved as written (a VS Code input to give with --input, an
  // unset variable) is still one the client starts: listed under its file with why, not an
  // error of the listing.
  const entryErrors = (display: string) => resolved.errors.filter((e) => e.target.startsWith(`${display} › `));
  const listedErrors = new Set<InputError>();
  const withServers = resolved.files.filter((file) => file.targets.length || file.notes.length || entryErrors(file.display).length);
  let count = 0;
  let blocked = 0;
  for (const file of withServers) {
    lines.push(`${oneLine(file.display)}${file.client ? ` (${file.client}, ${file.scope})` : ''}`);
    const unresolved = entryErrors(file.display);
    const nameOf = (e: InputError) => e.target.slice(file.display.length + 3);
    const width = maxOf([...file.targets.map((t) => oneLine(t.name ?? t.label).length), ...unresolved.map((e) => oneLine(nameOf(e)).length)], 0);
    for (const t of file.targets) {
      count++;
      lines.push(`  ${oneLine(t.name ?? t.label).padEnd(width)}  ${oneLine(describeTarget(t))}`);
    }
    for (const e of unresolved) {
      blocked++;
      listedErrors.add(e);
      lines.push(`  ${oneLine(nameOf(e)).padEnd(width)}  (cannot be started as written: ${oneLine(e.message.replace(/^.*?: server "(?:[^"\\]|\\.)*": /, ''))})`);
    }
    for (const n of file.notes) lines.push(`  (${oneLine(n)})`);
  }
  const flagTargets = resolved.targets.filter((t) => !t.config);
  for (const t of flagTargets) {
    count++;
    lines.push(`${oneLine(t.display)}  ${oneLine(describeTarget(t))}`);
  }
  if (count === 0 && blocked === 0 && withServers.length === 0) {
    lines.push('No MCP servers found in the known client config locations for this user and project (see the README for the list).');
  } else {
    lines.push('');
    const found = `${plural(count + blocked, 'server')} found${blocked ? ` (${blocked === count + blocked ? (blocked === 1 ? 'it cannot' : 'none can') : `${blocked} cannot`} be started as written: give what ${blocked === 1 ? 'it needs' : 'they need'}, as said above)` : ''}.`;
    const next = count === 0 ? 'Nothing was started.' : `Nothing was started: add --yes to start ${count === 1 ? 'it' : 'them'} and lint ${count === 1 ? 'its' : 'their'} tools (--server NAME picks some).`;
    lines.push(`${found} ${next}`);
  }
  return { text: lines.join('\n') + '\n', errors: resolved.errors.filter((e) => !listedErrors.has(e)) };
}
