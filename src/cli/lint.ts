/**
 * `mcp-annotate lint`: targets → servers → findings → every requested output.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { RULES } from '../../rules/index.js';
import { lint } from '../engine/engine.js';
import { loadTargets } from '../sources/files.js';
import { FORMATS, format } from '../reporters/index.js';
import type { FormatName, Report } from '../reporters/types.js';
import { PACK_IDS, SEVERITY_RANK, type InputError, type PackId, type Severity, type SpecVersion } from '../types.js';
import { closest, oneLine } from '../util/text.js';
import { EXIT, UsageError, useColor, type CliIO } from './io.js';
import type { OutputSpec } from './main.js';

export interface LintCliOptions {
  spec?: SpecVersion;
  vocab?: string[];
  disableVocab?: string[];
  outputs: OutputSpec[];
  failOn: Severity | 'none';
  maxWarnings?: number;
  quiet?: boolean;
  color?: boolean;
}

export function exitCodeFor(findingSeverities: Iterable<Severity>, errors: readonly InputError[], failOn: Severity | 'none', maxWarnings?: number): number {
  if (errors.length > 0) return EXIT.error;
  let warnings = 0;
  let failing = false;
  for (const s of findingSeverities) {
    if (s === 'warning') warnings++;
    if (failOn !== 'none' && SEVERITY_RANK[s] >= SEVERITY_RANK[failOn]) failing = true;
  }
  if (failing) return EXIT.findings;
  if (maxWarnings !== undefined && warnings > maxWarnings) return EXIT.findings;
  return EXIT.ok;
}

function checkOutputs(outputs: OutputSpec[]): OutputSpec[] {
  const list = outputs.length ? outputs : [{ format: 'text' }];
  for (const o of list) {
    if (!(FORMATS as readonly string[]).includes(o.format)) {
      throw new UsageError(`unknown format ${JSON.stringify(o.format)}; expected one of ${FORMATS.join(', ')}`);
    }
  }
  if (list.filter((o) => o.file === undefined).length > 1) {
    throw new UsageError('only one format can go to stdout; give the others an --output-file');
  }
  return list;
}

/** The packs a run uses: all by default, only --vocab ones when given, minus --disable-vocab. */
export function selectPacks(only: string[] | undefined, disabled: string[] | undefined): PackId[] {
  for (const id of [...(only ?? []), ...(disabled ?? [])]) {
    if (!(PACK_IDS as readonly string[]).includes(id)) {
      const guess = closest(id, PACK_IDS);
      throw new UsageError(`unknown vocabulary ${JSON.stringify(id)}${guess ? `; did you mean ${JSON.stringify(guess)}?` : ''} (known: ${PACK_IDS.join(', ')})`);
    }
  }
  if (disabled?.includes('core')) throw new UsageError('the core vocabulary cannot be disabled: it is the MCP spec itself');
  const base = only?.length ? PACK_IDS.filter((p) => p === 'core' || only.includes(p)) : [...PACK_IDS];
  return base.filter((p) => !disabled?.includes(p));
}

export async function lintCommand(targets: string[], opts: LintCliOptions, io: CliIO): Promise<number> {
  const outputs = checkOutputs(opts.outputs);
  if (targets.length === 0) throw new UsageError('nothing to lint: give files, globs or directories of tools/list dumps, or - to read stdin');

  const packs = selectPacks(opts.vocab, opts.disableVocab);
  const loaded = await loadTargets(targets, io.cwd, io.stdin);
  const result = lint(loaded.servers, RULES, { spec: opts.spec, packs });
  const report: Report = { findings: result.findings, servers: result.servers, errors: loaded.errors, rules: RULES, cwd: io.cwd };

  for (const e of loaded.errors) io.stderr.write(`${oneLine(e.message)}\n`);
  for (const o of outputs) {
    const color = o.file === undefined ? useColor(opts.color, io.env, io.stdout.isTTY) : opts.color === true;
    const text = format(o.format as FormatName, report, { color, quiet: Boolean(opts.quiet) });
    if (o.file === undefined) {
      io.stdout.write(text);
    } else {
      const path = resolve(io.cwd, o.file);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
    }
  }
  return exitCodeFor(
    result.findings.map((f) => f.severity),
    loaded.errors,
    opts.failOn,
    opts.maxWarnings,
  );
}
