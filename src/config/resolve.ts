/**
 * A validated config → what a run uses: the rule settings (presets, then `rules`), the
 * overrides hook for the engine, the policy rules, packs, spec, failure thresholds and
 * targets. The CLI puts its flags over this.
 */
import { isAbsolute, posix, relative, resolve, sep } from 'node:path';
import { escapeGlob, isGlobPattern } from '../util/glob.js';
import { nameMatcher } from '../util/name-glob.js';
import type { RuleSetting } from '../engine/engine.js';
import type { Rule } from '../rule.js';
import type { Locator, PackId, Severity, SpecVersion } from '../types.js';
import { PACK_IDS } from '../types.js';
import { policyRules } from '../policies/rules.js';
import type { CheckedConfig } from './validate.js';
import { presetRaise, presetRules, type PresetName } from './presets.js';

export interface ConfigFileValue {
  $schema?: string;
  extends?: PresetName | PresetName[];
  spec?: SpecVersion;
  vocabularies?: PackId[] | Partial<Record<PackId, boolean>>;
  rules?: Record<string, RuleSetting>;
  overrides?: { servers?: string[]; tools?: string[]; rules: Record<string, RuleSetting> }[];
  policies?: unknown[];
  targets?: string[] | { files?: string[]; mcpServers?: Record<string, unknown> };
  failOn?: Severity | 'none';
  maxWarnings?: number;
}

/** One override of the config, with the places of its globs (set by loadConfig). */
export interface OverrideEntry {
  index: number;
  servers?: readonly string[];
  tools?: readonly string[];
  /** "file:line:col" of the `servers` and `tools` members. */
  at: { servers?: string; tools?: string };
}

export interface ResolvedConfig {
  /** Absolute path of the config file. */
  path: string;
  display: string;
  /** Rule settings: presets, then `rules`. */
  rules: Record<string, RuleSetting>;
  /** Levels a preset raises a rule's findings by (see presetRaise); absent where `rules` sets the rule. */
  raise: Record<string, number>;
  overrides?: (server: string, tool: string | undefined) => Record<string, RuleSetting> | undefined;
  /**
   * The overrides as written, each with where its `servers` and `tools` are in the config file
   * ("cfg.yaml:2:5"), for the notes on the ones that match nothing (see overrideNotes).
   */
  overrideEntries?: OverrideEntry[];
  /** One rule per policy (policy/<name>). */
  policies: Rule[];
  spec?: SpecVersion;
  /** --vocab semantics: only these (core is always on). */
  vocab?: PackId[];
  /** --disable-vocab semantics. */
  disableVocab?: PackId[];
  failOn?: Severity | 'none';
  maxWarnings?: number;
  /** Files, globs and directories, relative to the working directory. */
  files: string[];
  /** Live servers, as written, with the pointer of the object that holds them. */
  mcpServers?: { entries: Record<string, unknown>; pointer: string };
  /** Positions in the config file (for live servers' entries). */
  locator?: Locator;
}

/** Merge two settings of one rule: a later severity wins, options merge key by key. */
export function mergeSetting(earlier: RuleSetting | undefined, later: RuleSetting): RuleSetting {
  const opts = (s: RuleSetting | undefined) => (Array.isArray(s) && s.length > 1 ? (s[1] as Record<string, unknown>) : undefined);
  const severity = Array.isArray(later) ? later[0] : later;
  const merged = opts(earlier) || opts(later) ? { ...opts(earlier), ...opts(later) } : undefined;
  return merged ? [severity, merged] : severity;
}

/** A config target as the working directory sees it (targets are relative to the config file). */
export function rebaseTarget(target: string, configDir: string, cwd: string): string {
  if (target === '-' || isAbsolute(target)) return target;
  // A negated glob ("!sub/a.json") leaves out what the others find: rebase its pattern.
  if (target.length > 1 && target.startsWith('!')) {
    const rest = target.slice(1);
    return '!' + (isAbsolute(rest) ? rest : posix.join(escapeGlob(relative(cwd, configDir).split(sep).join('/')) || '.', rest).replace(/^\.\//, ''));
  }
  const rel = relative(cwd, configDir).split(sep).join('/');
  if (isGlobPattern(target)) return rel === '' ? target : posix.join(escapeGlob(rel), target);
  return relative(cwd, resolve(configDir, target)) || '.';
}

export function resolveConfig(
  value: ConfigFileValue,
  checked: CheckedConfig,
  file: { path: string; display: string; dir: string; pointerBase: string; locator?: Locator },
  rules: readonly Rule[],
  cwd: string,
): ResolvedConfig {
  let settings: Record<string, RuleSetting> = {};
  const presets = value.extends === undefined ? [] : Array.isArray(value.extends) ? value.extends : [value.extends];
  let raise: Record<string, number> = {};
  for (const p of presets) {
    settings = { ...settings, ...presetRules(p, rules) };
    // A later preset decides: recommended after strict puts every rule back at its default.
    raise = presetRaise(p, rules);
  }
  for (const [id, s] of Object.entries(value.rules ?? {})) {
    const before = settings[id];
    settings[id] = mergeSetting(before, s);
    // A severity of the user's own replaces the preset's raise, unless it restates the preset's
    // own severity: writing "error" under `all` lowers nothing, and "error" under `strict` on a
    // note rule is an error (not the note raised one level).
    const own = Array.isArray(s) ? s[0] : s;
    const preset = Array.isArray(before) ? before[0] : before;
    if (own !== undefined && own !== preset) delete raise[id];
  }

  let overrides: ResolvedConfig['overrides'];
  if (value.overrides?.length) {
    const compiled = value.overrides.map((o) => ({
      servers: o.servers ? nameMatcher(o.servers) : undefined,
      tools: o.tools ? nameMatcher(o.tools) : undefined,
      rules: o.rules,
    }));
    const cache = new Map<string, Record<string, RuleSetting> | undefined>();
    overrides = (server, tool) => {
      const key = `${server}\u0000${tool ?? '\u0001'}`;
      if (cache.has(key)) return cache.get(key);
      let out: Record<string, RuleSetting> | undefined;
      for (const o of compiled) {
        if (o.servers && !o.servers(server)) continue;
        // Server-level findings have no tool: only overrides without "tools" apply to them.
        if (o.tools && (tool === undefined || !o.tools(tool))) continue;
        out ??= {};
        for (const [id, s] of Object.entries(o.rules)) out[id] = mergeSetting(out[id], s);
      }
      cache.set(key, out);
      return out;
    };
  }

  let vocab: PackId[] | undefined;
  let disableVocab: PackId[] | undefined;
  if (Array.isArray(value.vocabularies)) vocab = value.vocabularies;
  else if (value.vocabularies) disableVocab = PACK_IDS.filter((p) => value.vocabularies && (value.vocabularies as Record<string, boolean>)[p] === false);

  const targets = value.targets;
  const fileTargets = Array.isArray(targets) ? targets : (targets?.files ?? []);
  const mcpServers = !Array.isArray(targets) && targets?.mcpServers ? { entries: targets.mcpServers, pointer: `${file.pointerBase}/targets/mcpServers` } : undefined;

  return {
    path: file.path,
    display: file.display,
    rules: settings,
    raise,
    overrides,
    policies: policyRules(checked.policies),
    spec: value.spec,
    vocab,
    disableVocab,
    failOn: value.failOn,
    maxWarnings: value.maxWarnings,
    files: fileTargets.map((t) => rebaseTarget(t, file.dir, cwd)),
    mcpServers,
    locator: file.locator,
  };
}
