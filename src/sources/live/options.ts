/**
 * The command-line options of live targets, shared by `lint` and `dump`. Declaring them
 * loads nothing but commander.
 */
import { Option, type Command } from 'commander';
import { UsageError } from '../../cli/io.js';

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * An empty value (an unset variable) is a usage error, said before anything runs: an empty
 * --stdio or --url became a server with an empty name (": --stdio needs a command to run"),
 * and an empty --mcp-config or --save-snapshots path the working directory.
 */
const nonEmpty = (flag: string, why: string) => (value: string, previous: string[] | undefined): string[] => {
  if (value.trim() === '') throw new UsageError(`${flag} ${JSON.stringify(value)} ${why}`);
  return collect(value, previous);
};

/** The parser of an option that names a path: an empty one is a usage error, not the working directory. */
export function nonEmptyPath(flag: string, give: string): (value: string) => string {
  return (value) => {
    if (value === '') throw new UsageError(`${flag} "" is an empty path; ${give}`);
    return value;
  };
}

/** --save-snapshots (lint and diff): an empty directory wrote into the working directory, over files of the same names. */
export const saveSnapshotsDir = nonEmptyPath('--save-snapshots', 'give the directory to write the snapshots into (. for the current directory)');

/** --server values as given: a value naming a server exactly picks it, else it is split at commas once the names are known (selectServers). */
function collectServers(value: string, previous: string[] | undefined): string[] {
  if (value.split(',').every((v) => v.trim() === '')) {
    throw new UsageError(`--server needs a server name (or several, comma-separated), got ${JSON.stringify(value)}`);
  }
  return [...(previous ?? []), value];
}

/**
 * The longest deadline a server gets: a day. Timers cannot wait longer than 2^31 - 1 ms
 * (about 24.8 days); past that, Node fires them at once.
 */
export const MAX_TIMEOUT_SECONDS = 86_400;

function seconds(value: string): number {
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0)) throw new UsageError(`--timeout must be a positive number of seconds, got ${JSON.stringify(value)}`);
  if (n > MAX_TIMEOUT_SECONDS) throw new UsageError(`--timeout must be at most ${MAX_TIMEOUT_SECONDS} seconds (a day), got ${JSON.stringify(value)}`);
  return n;
}

function positiveInt(value: string): number {
  if (!/^[1-9]\d*$/.test(value)) throw new UsageError(`--concurrency must be a positive integer, got ${JSON.stringify(value)}`);
  return Number(value);
}

export function addLiveOptions(cmd: Command, { forLint }: { forLint: boolean }): Command {
  cmd
    .option('--stdio <command>', `start this command line as a stdio MCP server${forLint ? ' (repeatable)' : ''}; or give the command after --`, nonEmpty('--stdio', 'names no command; give the command line of a stdio MCP server, e.g. --stdio "node build/index.js"'))
    .option('--url <url>', `an MCP server over HTTP: Streamable HTTP, falling back to legacy SSE${forLint ? ' (repeatable)' : ''}`, nonEmpty('--url', 'names no server; give its http:// or https:// endpoint, e.g. --url https://example.com/mcp'))
    .addOption(new Option('--transport <kind>', 'force the transport of --url servers').choices(['http', 'sse']))
    .option('--header <"Name: value">', 'an HTTP header for --url servers (repeatable; ${NAME} reads an environment variable)', collect)
    .option('--env <NAME=value>', 'an environment variable for --stdio servers (repeatable; ${NAME} reads one of yours)', collect)
    .option('--mcp-config <file>', 'every server in an MCP client config file (Claude, Cursor, VS Code, Gemini CLI, Windsurf, opencode, Zed; repeatable)', (value: string, previous: string[] | undefined) =>
      collect(nonEmptyPath('--mcp-config', "give the client config file's name (.mcp.json, .cursor/mcp.json, …)")(value), previous),
    )
    .option('--server <names>', 'only these servers of the config files (comma-separated, repeatable; a value that names a server exactly picks that one)', collectServers)
    .option('--input <id=value>', "a value for VS Code's ${input:id} (repeatable)", collect);
  if (forLint) {
    cmd
      .option('--discover', 'list the servers in the MCP configs of known clients for this user and project (lints them only with --yes)')
      .option('--yes', 'with --discover: start the servers found and lint them');
  }
  cmd.option('--timeout <seconds>', 'per server: the most time to start or connect, initialize and list its tools (default: 30, or an opencode entry\'s own timeout)', seconds);
  if (forLint) {
    cmd
      .option('--concurrency <n>', 'how many live servers to run at once (default: 4)', positiveInt)
      .option('--save-snapshots <dir>', 'write each live server\'s snapshot into this directory and point findings into those files', saveSnapshotsDir);
  }
  return cmd;
}
