/**
 * What a `lint` run uses, from the config file with the command-line flags over it:
 * flags win (--spec, --vocab/--disable-vocab, --fail-on, --max-warnings, targets on the
 * command line), the config fills in the rest.
 */
import { RULES } from '../../rules/index.js';
import type { EngineOptions } from '../engine/engine.js';
import type { Rule } from '../rule.js';
import type { PackId, Severity, SpecVersion } from '../types.js';
import { loadConfig, type ResolvedConfig } from './index.js';
import { hasLiveFlags, type LiveFlags } from '../sources/live/flags.js';

export interface RunFlags extends LiveFlags {
  /** -c's file; false for --no-config (commander's negation). */
  config?: string | false;
  spec?: SpecVersion;
  vocab?: string[];
  disableVocab?: string[];
  failOn?: Severity | 'none';
  maxWarnings?: number;
}

export interface RunSettings {
  config?: ResolvedConfig;
  /** Every rule of the run: the catalogue, then the config's policies. */
  rules: readonly Rule[];
  engine: Pick<EngineOptions, 'spec' | 'rules' | 'raise' | 'overrides'>;
  /** For selectPacks(): --vocab/--disable-vocab, else the config's vocabularies. */
  vocab?: string[];
  disableVocab?: string[];
  failOn: Severity | 'none';
  maxWarnings?: number;
  /** The config file (as messages show it) when maxWarnings is its `maxWarnings`, not --max-warnings. */
  maxWarningsFrom?: string;
  /** Targets: the command line's, else the config's files. */
  targets: string[];
  /** Whether the targets came from the config (for messages). */
  targetsFromConfig: boolean;
}

export async function runSettings(cliTargets: string[], flags: RunFlags, io: { cwd: string; warn: (line: string) => void }): Promise<RunSettings> {
  const config = await loadConfig({ cwd: io.cwd, file: typeof flags.config === 'string' ? flags.config : undefined, noConfig: flags.config === false, warn: io.warn });
  // Targets on the command line (files or live servers) replace the config's.
  const useConfigTargets = cliTargets.length === 0 && !hasLiveFlags(flags) && config !== undefined && (config.files.length > 0 || config.mcpServers !== undefined);
  const disable = [...new Set<string>([...(flags.vocab?.length ? [] : (config?.disableVocab ?? [])), ...(flags.disableVocab ?? [])])];
  return {
    config,
    rules: config?.policies.length ? [...RULES, ...config.policies] : RULES,
    engine: { spec: flags.spec ?? config?.spec, rules: config?.rules, raise: config?.raise, overrides: config?.overrides },
    vocab: flags.vocab?.length ? flags.vocab : (config?.vocab as PackId[] | undefined),
    disableVocab: disable.length ? disable : undefined,
    failOn: flags.failOn ?? config?.failOn ?? 'error',
    maxWarnings: flags.maxWarnings ?? config?.maxWarnings,
    ...(flags.maxWarnings === undefined && config?.maxWarnings !== undefined ? { maxWarningsFrom: config.display } : {}),
    targets: useConfigTargets ? config!.files : cliTargets,
    targetsFromConfig: useConfigTargets,
  };
}

/**
 * The policies `mcp-annotate rules` and `explain` show beside the catalogue (`config` is
 * -c's file, or false for --no-config, or undefined to look for one).
 */
export async function configuredPolicies(config: string | false | undefined, io: { cwd: string; stderr: { write(s: string): unknown } }): Promise<readonly Rule[]> {
  const resolved = await loadConfig({
    cwd: io.cwd,
    file: typeof config === 'string' ? config : undefined,
    noConfig: config === false,
    warn: (line) => io.stderr.write(`mcp-annotate: ${line}\n`),
  });
  return resolved?.policies ?? [];
}
