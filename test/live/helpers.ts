/** Shared bits of the live-server tests: paths, commands, process checks. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quote } from 'shell-quote';
import { ROOT } from '../helpers/cli.js';

export const SERVERS = join(ROOT, 'test', 'live', 'servers');
export const VOCAB_FIXTURE = join(SERVERS, 'vocabularies.json');
export const NODE = process.execPath;

/** A --stdio command line running one of the test servers with node. */
export function serverCommand(script: string, ...args: string[]): string {
  return quote([NODE, join(SERVERS, script), ...args]);
}

/** The argv of the same, for mcpServers entries. */
export function serverArgv(script: string, ...args: string[]): { command: string; args: string[] } {
  return { command: NODE, args: [join(SERVERS, script), ...args] };
}

/** Is a process still running? (A zombie waiting to be reaped counts as gone.) */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

export async function waitFor<T>(check: () => T | undefined | false, ms = 10_000, what = 'condition'): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface JsonFinding {
  ruleId: string;
  severity: string;
  message: string;
  suggestion: string | null;
  tool: string | null;
  pointer: string;
  toolPointer: string;
  file: string | null;
  line: number | null;
  related: { message: string; pointer: string; tool: string | null }[];
  fix: unknown;
}

/**
 * What the findings say, without where they were found (file, line, server id), in a fixed
 * order (a report orders findings by position, and live ones without a file have none).
 */
export function essence(report: { findings: JsonFinding[] }) {
  const list = report.findings.map((f) => ({
    ruleId: f.ruleId,
    severity: f.severity,
    message: f.message,
    suggestion: f.suggestion,
    tool: f.tool,
    pointer: f.pointer,
    toolPointer: f.toolPointer,
    related: f.related.map((r) => ({ message: r.message, pointer: r.pointer, tool: r.tool })),
    fix: f.fix,
  }));
  return list.map((f) => JSON.stringify(f)).sort();
}

export type { JsonFinding };
