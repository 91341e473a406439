/**
 * A stdio client transport for the MCP SDK's Client that starts the server in its own
 * process group, so the server and everything it spawns can be stopped together.
 *
 * The SDK's StdioClientTransport spawns the server as a plain child: a server started
 * through `npx` or a shell leaves its real process (a grandchild) behind when only the
 * child is killed. This transport frames messages like the SDK (newline-delimited
 * JSON-RPC, checked with the SDK's JSONRPCMessageSchema) but hands the Client the message
 * exactly as parsed, keeps a byte budget, treats any stdout line that is not JSON-RPC as
 * fatal, and keeps the tail of stderr for error messages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { noteEscaped, registerGroup, signalGroup, unregisterGroup } from './processes.js';
import { LiveError, excerpt, notMcp } from './errors.js';
import { redactWindow } from './vars.js';
import { RAW_TEXT } from './raw.js';
import { formatBytes } from '../../util/read.js';
import { createScanner, ParseErrorCode, printParseErrorCode, ScanError, SyntaxKind } from 'jsonc-parser';
import { firstJsonError, jsonErrorMessage } from '../parse.js';

/**
 * Whether a line that does not parse starts as a JSON-RPC message or batch: a JSON object (or an
 * array of them) with a "jsonrpc" member of its own, in any order, before the first error. A
 * structured log line that quotes a message (`{"level":"info"} sending {"jsonrpc":…}`) or a
 * console.log of an object has none, and is a log line.
 */
function startsAsJsonRpc(line: string): boolean {
  const scanner = createScanner(line, true);
  /** The open containers: true for an object. */
  const open: boolean[] = [];
  let keyNext = false;
  for (let token = scanner.scan(), n = 0; token !== SyntaxKind.EOF && n < 400; token = scanner.scan(), n++) {
    if (scanner.getTokenError() !== ScanError.None) return false;
    if (open.length === 0 && token !== SyntaxKind.OpenBraceToken && token !== SyntaxKind.OpenBracketToken) return false;
    if (token === SyntaxKind.OpenBraceToken || token === SyntaxKind.OpenBracketToken) {
      open.push(token === SyntaxKind.OpenBraceToken);
      keyNext = token === SyntaxKind.OpenBraceToken;
    } else if (token === SyntaxKind.CloseBraceToken || token === SyntaxKind.CloseBracketToken) {
      open.pop();
      if (open.length === 0) return false;
      keyNext = false;
    } else if (token === SyntaxKind.CommaToken) keyNext = open[open.length - 1] === true;
    else if (token === SyntaxKind.StringLiteral && keyNext) {
      // A member of the message itself: the top object, or an object of a top-level batch.
      const message = open.length === 1 || (open.length === 2 && open[0] === false);
      if (message && scanner.getTokenValue() === 'jsonrpc') return true;
      keyNext = false;
    } else keyNext = false;
  }
  return false;
}

export interface StdioLaunch {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

export interface StdioLimits {
  maxBytes: number;
  /** Checks a parsed line is a JSON-RPC message (the SDK's schema). */
  isMessage: (value: unknown) => boolean;
  /** Called once with the first fatal problem (garbage on stdout, too much output). */
  fail: (err: LiveError) => void;
  /** What the session is doing ("while listing tools (page 1)"), for messages. */
  phase?: () => string;
  /** The protocol version the server negotiated, once it answered initialize. */
  protocolVersion?: () => string | undefined;
  /** The secrets to hide in what the server wrote, before it is cut or quoted (see vars.ts). */
  needles?: readonly string[];
}

const STDERR_TAIL = 4096;
/** How long an end (of the process, of stdout) waits for the output still in the pipes before it is acted on. */
const END_GRACE_MS = 100;

/**
 * Runs `fn` a moment from now, after the event loop's next poll for I/O too. Timers run before
 * the poll, so on a loaded machine that left this process unscheduled for longer than the moment,
 * a timer alone came due while what had already arrived was unread: a server that had exited
 * (code 3) was said to have closed its stdout and "kept running". The timer, for unref().
 */
export function afterGrace(ms: number, fn: () => void): NodeJS.Timeout {
  return setTimeout(() => setImmediate(fn), ms);
}

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child?: ChildProcess;
  private pgid?: number;
  private pending: Buffer[] = [];
  private bytes = 0;
  private stderrTail = '';
  /** stderr was longer than its tail: the tail starts in the middle of something. */
  private stderrCut = false;
  private exited?: { code: number | null; signal: NodeJS.Signals | null; afterClose: boolean };
  private exitPromise?: Promise<void>;
  /** The process has exited and its stdio streams are closed. */
  private ended = false;
  private closing?: Promise<void>;
  /** Resolves when the server's stdout has closed (every process holding it ended or closed it). */
  private stdoutClosed?: Promise<void>;

  constructor(
    private readonly launch: StdioLaunch,
    private readonly limits: StdioLimits,
  ) {}

  /**
   * How the process ended, when it ended by itself: not after close() (mcp-annotate's own
   * hang-up, which a server that exits when its stdin closes follows with code 0).
   */
  get exit() {
    return this.exited && !this.exited.afterClose ? this.exited : undefined;
  }

  /**
   * The last lines the server wrote on stderr, secrets hidden: also one the tail starts in
   * the middle of, whose first characters were cut off.
   */
  get stderr(): string {
    return redactWindow(this.stderrTail, this.limits.needles ?? [], { start: this.stderrCut });
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(this.launch.command, this.launch.args, {
          cwd: this.launch.cwd,
          env: this.launch.env,
          stdio: ['pipe', 'pipe', 'pipe'],
          shell: false,
          // A new session and process group (POSIX): the group can be killed as a whole, and
          // a Ctrl-C in the terminal reaches only mcp-annotate, which then stops the group.
          detached: process.platform !== 'win32',
          windowsHide: true,
        });
      } catch (err) {
        reject(err);
        return;
      }
      this.child = child;
      this.exitPromise = new Promise((done) => child.once('exit', () => done()));
      this.stdoutClosed = new Promise((done) => (child.stdout ? child.stdout.once('close', () => done()) : done()));
      child.once('error', (err) => reject(err));
      child.once('spawn', () => {
        if (child.pid !== undefined) {
          this.pgid = child.pid;
          registerGroup(child.pid);
        }
        resolve();
      });
      child.on('exit', (code, signal) => {
        this.exited = { code, signal, afterClose: this.closing !== undefined };
        if (this.closing !== undefined) return;
        // The server is gone, but a process it started may still hold its stdout and stderr
        // (a helper started with "&"), and the session ends only when they close: after a
        // moment for the output in the pipes (afterGrace), stop the rest of the group and close them.
        afterGrace(END_GRACE_MS, () => {
          if (this.closing !== undefined || this.ended) return;
          if (this.pgid !== undefined) signalGroup(this.pgid, 'SIGKILL');
          for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
        }).unref();
      });
      child.on('close', () => {
        this.ended = true;
        if (this.pgid !== undefined && this.closing === undefined) {
          // The server ended by itself; its children may not have.
          signalGroup(this.pgid, 'SIGKILL');
          unregisterGroup(this.pgid);
        }
        this.onclose?.();
      });
      child.stdin?.on('error', () => {
        // EPIPE after the server exited: the exit itself is what gets reported.
      });
      child.stdout?.on('data', (chunk: Buffer) => this.receive(chunk));
      // A server that closes its stdout cannot answer any more: fail at once, unless it exits
      // (the usual way stdout closes) within a moment (afterGrace: also the exit heard late on a
      // loaded machine).
      child.stdout?.once('end', () => {
        afterGrace(END_GRACE_MS, () => {
          if (this.closing !== undefined || this.exited) return;
          const phase = this.limits.phase?.();
          this.limits.fail(new LiveError(`the server closed its stdout${phase ? ` ${phase}` : ''} but kept running; stopped it (stdout carries its answers)`));
        }).unref();
      });
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        const all = this.stderrTail + text;
        if (all.length > STDERR_TAIL) this.stderrCut = true;
        this.stderrTail = all.slice(-STDERR_TAIL);
      });
    });
  }

  private receive(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limits.maxBytes) {
      this.limits.fail(new LiveError(`the server sent more than ${formatBytes(this.limits.maxBytes)} on stdout; stopped it (a tools/list result is never that large)`));
      this.child?.stdout?.removeAllListeners('data');
      return;
    }
    // Only the new chunk is searched for line ends: a long line costs linear time.
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
      this.pending.push(chunk.subarray(start, nl));
      start = nl + 1;
      const line = Buffer.concat(this.pending).toString('utf8').replace(/\r$/, '');
      this.pending = [];
      if (!this.line(line)) return;
    }
    if (start < chunk.length) this.pending.push(chunk.subarray(start));
  }

  /** One line of stdout; false when it was fatal. */
  private line(line: string): boolean {
    if (line.trim() === '') return true;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // A line that starts as a JSON-RPC message ({"jsonrpc": first, or a batch of them) is the
      // server's broken answer, not a log line (which may well mention "jsonrpc" further on).
      if (startsAsJsonRpc(line)) {
        this.child?.stdout?.removeAllListeners('data');
        const first = firstJsonError(line);
        const why = first ? `${jsonErrorMessage(printParseErrorCode(first.error), line, first.offset)} at column ${first.offset + 1}` : 'invalid JSON';
        // Cut short: the error is where the line ends, or a string never ends. Otherwise the line is whole and wrong.
        const cut =
          first === undefined ||
          first.offset >= line.trimEnd().length ||
          // A string that runs to the end of the line (not one ended early by a raw carriage return in it).
          (first.error === ParseErrorCode.UnexpectedEndOfString && !line.includes('\r', first.offset));
        this.limits.fail(new LiveError(`the server wrote a JSON-RPC message on stdout that is not valid JSON (${excerpt(line, 80, this.limits.needles)}: ${why})${cut ? '; was it cut short?' : ''}`));
        return false;
      }
      this.garbage(line);
      return false;
    }
    if (!this.limits.isMessage(value)) {
      // JSON-RPC that MCP does not allow (an error without an id, a batch) is no log line.
      const why = notMcp(value, this.limits.phase?.() ?? 'while starting the server', this.limits.needles ?? [], line, this.limits.protocolVersion?.());
      if (why === undefined) this.garbage(line);
      else {
        this.child?.stdout?.removeAllListeners('data');
        this.limits.fail(new LiveError(why));
      }
      return false;
    }
    // The line it came from, for the duplicate-key scan of a tools/list response (see raw.ts).
    RAW_TEXT.set(value as object, { text: line, at: '' });
    this.onmessage?.(value as JSONRPCMessage);
    return true;
  }

  private garbage(line: string): void {
    this.child?.stdout?.removeAllListeners('data');
    this.limits.fail(
      new LiveError(
        line.startsWith('\uFEFF')
          ? `the server wrote a line on stdout that starts with a byte order mark (U+FEFF), which JSON-RPC does not allow (${excerpt(line, 80, this.limits.needles)}); write stdout as UTF-8 without a BOM`
          : `the server wrote a line on stdout that is not a JSON-RPC message (${excerpt(line, 80, this.limits.needles)}); stdout must carry only protocol messages, logs belong on stderr`,
      ),
    );
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed || this.exited) {
        resolve();
        return;
      }
      if (stdin.write(JSON.stringify(message) + '\n')) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /** Stop the server and every process in its group; resolves when they are gone. */
  close(): Promise<void> {
    this.closing ??= this.terminate();
    return this.closing;
  }

  private async terminate(): Promise<void> {
    const child = this.child;
    const pgid = this.pgid;
    if (!child || pgid === undefined) return;
    const wait = (ms: number) =>
      Promise.race([this.exitPromise!, new Promise<void>((r) => setTimeout(r, ms).unref())]).then(() => this.exited !== undefined);
    try {
      child.stdin?.end();
    } catch {
      // already closed
    }
    // A well-behaved server exits when its stdin closes; give it a moment, then the group.
    if (!(this.exited || (await wait(200)))) {
      signalGroup(pgid, 'SIGTERM');
      await wait(1000);
    }
    // Whatever is left in the group (children that ignore SIGTERM, or outlived the server).
    signalGroup(pgid, 'SIGKILL');
    if (!this.exited) await wait(1000);
    unregisterGroup(pgid);
    child.stdout?.removeAllListeners('data');
    // With the whole group gone, stdout still open means a process that left the group (a
    // setsid or detached grandchild) holds it: a group kill cannot reach that process.
    const closed = await Promise.race([this.stdoutClosed!.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 200).unref())]);
    if (!closed && this.exited) noteEscaped();
    // The pipes are ours to close whoever holds their other ends, or they keep mcp-annotate running.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    child.unref();
  }
}
