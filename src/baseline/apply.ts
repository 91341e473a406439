/**
 * The baseline step of `lint`: after the findings are known, drop the ones the baseline
 * covers, say which entries are stale, and write the file with --update-baseline.
 * Everything it says goes to stderr, one line each, so stdout stays the report.
 */
import { resolve } from 'node:path';
import { UsageError } from '../cli/io.js';
import { displayPath } from '../sources/files.js';
import type { Finding, ServerInput } from '../types.js';
import type { LintResult } from '../engine/engine.js';
import { oneLine, plural, shorten } from '../util/text.js';
import { ConfigError } from '../config/source.js';
import { buildBaseline, matchBaseline, toolList, type BaselineEntry } from './baseline.js';
import { readBaseline, writeBaseline } from './file.js';

export interface BaselineFlags {
  baseline?: string;
  updateBaseline?: boolean;
  failOnStale?: boolean;
}

export interface BaselineResult {
  /** The findings to report. */
  findings: Finding[];
  /** Lines for stderr. */
  lines: string[];
  /** Stale entries and --fail-on-stale: exit 1. */
  failStale: boolean;
  /** The baseline could not be updated: exit 2. */
  error: boolean;
  /** What the baseline did, for the reports (absent without --baseline). */
  summary?: BaselineSummary;
}

/** What a run's baseline did: findings it listed (so not reported) and entries that no longer occur. */
export interface BaselineSummary {
  /** The baseline file, as given (relative to the working directory when inside it). */
  file: string;
  /** Findings the baseline lists, not reported (with --update-baseline: every finding, now written to it). */
  known: number;
  /** Entries that no longer occur (0 with --update-baseline, which drops them). */
  stale: number;
  /** --update-baseline rewrote the file. */
  updated: boolean;
  /** --fail-on-stale and stale entries: the run fails for them (exit 1). */
  failStale?: boolean;
  /** Each stale entry: where it is in the baseline file and what it says (as on stderr). */
  staleEntries?: { line?: number; column?: number; message: string }[];
}

/** Flag combinations that cannot work, before anything is linted. */
export function checkBaselineFlags(flags: BaselineFlags): void {
  if (flags.baseline === undefined && flags.updateBaseline) throw new UsageError('--update-baseline needs --baseline <file>: the file to write');
  if (flags.baseline === undefined && flags.failOnStale) throw new UsageError('--fail-on-stale needs --baseline <file>');
  // An empty path resolved to the working directory, and was reported as "is a directory".
  if (flags.baseline === '') throw new UsageError('--baseline "" is an empty path; give the baseline file\'s name');
}

const q = (s: string) => oneLine(JSON.stringify(s));

/** What an entry is about, as stale notes name it: rule (detail) on tool … of server … at pointer. */
function entryWhat(e: BaselineEntry): string {
  const listed = toolList(e.detail);
  const detail = listed ? ` (${shorten(`${listed.length === 1 ? 'tool' : 'tools'} ${listed.map(q).join(', ')}`, 200)})` : e.detail !== undefined ? ` (${shorten(q(e.detail), 200)})` : '';
  return `${e.rule}${detail} on ${e.tool !== undefined ? `tool ${q(e.tool)} of ` : ''}server ${q(e.server)} at ${q(e.pointer)}`;
}

/** Where a run stopped at the findings limit (LintResult.stopped). */
export type Stopped = NonNullable<LintResult['stopped']>;

/**
 * The names of the servers a stopped run did not fully lint: the one it stopped in and every
 * one after it; every server when it stopped in the checks across servers.
 */
export function uncheckedServers(servers: readonly ServerInput[], stopped: Stopped | undefined): Set<string> {
  if (!stopped) return new Set();
  const at = servers.findIndex((s) => s.id === stopped.serverId);
  const from = stopped.acrossServers ? 0 : Math.min(at === -1 ? servers.length : at, servers.length - 1 - stopped.serversAfter);
  return new Set(servers.slice(Math.max(0, from)).map((s) => s.name));
}

/**
 * @param inputErrors How many inputs could not be read (not counting a stop at the findings limit).
 * @param stopped Where the run stopped at the findings limit, if it did.
 */
export async function applyBaseline(
  findings: Finding[],
  servers: readonly ServerInput[],
  inputErrors: number,
  flags: BaselineFlags,
  cwd: string,
  stopped?: Stopped,
): Promise<BaselineResult> {
  if (flags.baseline === undefined) return { findings, lines: [], failStale: false, error: false };
  const path = resolve(cwd, flags.baseline);
  const display = displayPath(path, cwd);
  const loaded = await readBaseline(path, display, { update: Boolean(flags.updateBaseline) });
  if (!loaded && !flags.updateBaseline) {
    throw new ConfigError([{ file: display, message: 'no such baseline file; create it with --update-baseline' }]);
  }
  const entries = loaded?.entries ?? [];
  const match = matchBaseline(findings, servers, entries, inputErrors === 0, uncheckedServers(servers, stopped));
  const lines: string[] = [];
  for (const r of match.serverRenames) lines.push(`baseline ${display}: server ${q(r.to)} has the tools of baselined server ${q(r.from)}; its entries apply to it`);
  // A tool renamed in a renamed server: the server by the name it has now.
  const serverNow = new Map(match.serverRenames.map((r) => [r.from, r.to]));
  for (const r of match.renames) lines.push(`baseline ${display}: tool ${q(r.to)} of server ${q(serverNow.get(r.server) ?? r.server)} has the content of baselined tool ${q(r.from)}; its entries apply to it`);

  if (flags.updateBaseline) {
    if (inputErrors > 0 || stopped) {
      const why = [
        ...(inputErrors > 0 ? [`${plural(inputErrors, 'input')} could not be read`] : []),
        ...(stopped ? ['the run stopped at the findings limit'] : []),
      ];
      const missing = stopped ? 'the findings not reached' : 'their findings';
      lines.push(`baseline ${display} not updated: ${why.join(' and ')}, and ${missing} would be missing from it`);
      return { findings: match.fresh, lines, failStale: false, error: true };
    }
    const next = buildBaseline(findings, servers, { entries, match });
    await writeBaseline(path, display, next);
    // An entry whose finding now has another detail is dropped, and the new entry has no
    // justification: it was written for what the entry covered (a zero-width space, copies that
    // agree), not for what the finding is now. Say so rather than lose it without a word.
    for (const s of match.stale) {
      if (s.now === undefined || s.entry.justification === undefined) continue;
      lines.push(
        `baseline ${display}: the justification of the entry for ${entryWhat(s.entry)} was not carried over: its finding is now ${shorten(q(s.now), 200)}, which it was not written for; add one to the new entry if it still holds (it was ${shorten(q(s.entry.justification), 200)})`,
      );
    }
    for (const u of loaded?.unknownRules ?? []) {
      lines.push(`baseline ${display}: dropped the entry for ${entryWhat(entries[u.index]!)}: ${u.why}${entries[u.index]!.justification !== undefined ? ` (its justification was ${shorten(q(entries[u.index]!.justification!), 200)})` : ''}`);
    }
    // An entry that no finding matched is dropped; one matched fewer times keeps a lower count.
    const gone = match.stale.filter((s) => s.unmatched === s.entry.count).length;
    const lowered = match.stale.length - gone;
    const changes = [
      ...(gone ? [`dropped ${plural(gone, 'stale entry', 'stale entries')}`] : []),
      ...(lowered ? [`lowered the count of ${plural(lowered, 'entry', 'entries')}`] : []),
    ];
    const dropped = changes.length ? `; ${changes.join(', ')}` : '';
    lines.push(`wrote baseline ${display}: ${plural(next.entries.length, 'entry', 'entries')} covering ${plural(findings.length, 'finding')}${dropped}`);
    return { findings: [], lines, failStale: false, error: false, summary: { file: display, known: findings.length, stale: 0, updated: true } };
  }

  if (match.known) lines.push(`baseline ${display}: ${plural(match.known, 'known finding')} not reported`);
  const staleEntries: NonNullable<BaselineSummary['staleEntries']> = [];
  const positions = loaded?.positions(match.stale.map((s) => s.index)) ?? [];
  match.stale.forEach((s, i) => {
    const pos = positions[i];
    const where = pos ? `${display}:${pos.line}:${pos.column}` : display;
    const e = s.entry;
    const what = entryWhat(e);
    const others = s.elsewhere ? shorten(`${s.elsewhere.servers.length === 1 ? 'server' : 'servers'} ${s.elsewhere.servers.map(q).join(', ')}`, 200) : '';
    const message = s.grown
      ? `stale baseline entry: ${what} still occurs, but now about ${shorten(`${plural(s.grown.length, 'tool')} ${s.grown.map(q).join(', ')}`, 200)}, so it is reported as new; run with --update-baseline to accept it`
      : s.now !== undefined
        ? `stale baseline entry: ${what} still occurs, but now as ${shorten(q(s.now), 200)}, which the entry does not cover (its detail is part of its key), so it is reported as new; run with --update-baseline to accept it${e.justification !== undefined ? ' (the justification, written for what the entry covers, is not carried over to it)' : ''}`
        : s.elsewhere?.serverGone
          ? `stale baseline entry: ${what} was not applied: no server in this run is named ${q(e.server)}, and ${others} ${s.elsewhere.servers.length === 1 ? 'has' : 'have'} the same finding, reported as new, but could not be taken for ${q(e.server)} renamed (a renamed server is followed only when it has every baselined tool of the old name); if it is, rename the server in the baseline or run with --update-baseline`
          : s.elsewhere
            ? `stale baseline entry: ${what} no longer occurs on that server, but ${others} ${s.elsewhere.servers.length === 1 ? 'has' : 'have'} the same finding, reported as new (entries are per server); remove it or run with --update-baseline`
            : `stale baseline entry: ${what} ${s.unmatched === e.count ? 'no longer occurs' : `occurs ${e.count - s.unmatched} of ${e.count} times`}; remove it or run with --update-baseline`;
    lines.push(`${where}: ${message}`);
    staleEntries.push({ line: pos?.line, column: pos?.column, message });
  });
  const failStale = Boolean(flags.failOnStale) && match.stale.length > 0;
  return {
    findings: match.fresh,
    lines,
    failStale,
    error: false,
    summary: { file: display, known: match.known, stale: match.stale.length, updated: false, failStale, staleEntries },
  };
}
