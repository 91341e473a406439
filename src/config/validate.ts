/**
 * Validates a config value with the published JSON Schema (precompiled into
 * generated/config.cjs) and then with what a schema cannot say (policy conditions,
 * unique policy names, rule ids of policies). Each problem names the config path and,
 * where it can, the closest valid value.
 */
import type { ErrorObject } from 'ajv';
import { generated } from '../schema/generated.js';
import { RULES } from '../../rules/index.js';
import { DRIFT_RULES } from '../diff/rules/index.js';
import { explainErrors } from '../schema/explain.js';
import { fieldPath, escapeSegment, unescapeSegment } from '../util/pointer.js';
import { hasOwn, isObject } from '../util/json.js';
import { closest, distance, orList, quote } from '../util/text.js';
import { globTooLong } from '../util/glob.js';
import { fileGlobProblem, nameGlobProblem } from '../util/name-glob.js';
import { EMPTY_IN, type ConditionError } from '../policies/evaluate.js';
import { compilePolicy, POLICY_PREFIX, type Policy } from '../policies/rules.js';
import type { Compiled } from '../policies/evaluate.js';
import { append } from '../util/array.js';
import { specFor } from '../engine/engine.js';

/** A problem at a pointer of the config value. `key`: point at the member's key rather than its value. */
export interface PointedProblem {
  pointer: string;
  message: string;
  key?: boolean;
}

/** closest(), or else the one candidate that the input starts (or is the start of): "warn" → "warning". */
export function suggest(input: string, candidates: readonly string[]): string | undefined {
  const near = closest(input, candidates);
  if (near) return near;
  const lower = input.toLowerCase();
  if (lower.length < 2) return undefined;
  const prefixed = candidates.filter((c) => c.toLowerCase().startsWith(lower) || lower.startsWith(c.toLowerCase()));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** How much of a rule id, option name or value from the config a message shows. */
const KEY_MAX = 80;

const didYouMean = (guess: string | undefined) => (guess ? `; did you mean ${JSON.stringify(guess)}?` : '');

/** Where a config path is shown: rules["x"], overrides[0].tools[1]. */
export function configField(pointer: string): string {
  return pointer === '' ? 'the configuration' : fieldPath(pointer);
}

const RULES_PATH = /^\/rules$|^\/overrides\/\d+\/rules$/;
const OPTIONS_PATH = /^(?:\/overrides\/\d+)?\/rules\/([^/]+)\/1$/;
const SERVER_ENTRY_PATH = /^\/targets\/mcpServers\/[^/]+$/;
const OVERRIDE_PATH = /^\/overrides\/\d+$/;
/** A policy condition, at any depth. */
const CONDITION_PATH = /^\/policies\/\d+\/conditions(?:\/(?:and|or)\/\d+|\/not)*$/;
/**
 * The keywords of the schema's "one form per condition" (anyOf of the forms): the policy
 * compiler names what is wrong with a condition's form more clearly than they can, so their
 * errors are left to it.
 */
const CONDITION_FORM = new Set(['anyOf', 'required', 'minProperties', 'maxProperties', 'not']);
const EMPTY_IN_PATH = /^\/policies\/\d+\/conditions(?:\/(?:and|or)\/\d+|\/not)*\/in$/;
const GLOB_PATH = /^\/overrides\/\d+\/(servers|tools)\/\d+$|^\/targets(\/files)?\/\d+$/;
const SECRET_PATH = /^\/targets\/mcpServers\/[^/]+\/(env|headers)(\/|$)/;

function describeType(e: ErrorObject): string {
  return String(e.params.type)
    .split(',')
    .map((t) => ({ string: 'a string', object: 'an object', array: 'an array', integer: 'an integer', number: 'a number', boolean: 'a boolean' })[t] ?? t)
    .join(' or ');
}

/** Turn Ajv errors into problems, config-aware: unknown rules, severities, server entries, secrets. */
export function schemaProblems(errors: readonly ErrorObject[], knownRules: readonly string[]): PointedProblem[] {
  const out: PointedProblem[] = [];
  const handled = new Set<ErrorObject>();
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of errors) byPath.set(e.instancePath, [...(byPath.get(e.instancePath) ?? []), e]);
  const deeper = (path: string) => errors.some((e) => e.instancePath.startsWith(path + '/'));

  for (const e of errors) {
    const path = e.instancePath;
    if (e.keyword === 'additionalProperties' && RULES_PATH.test(path)) {
      const id = String(e.params.additionalProperty);
      out.push({
        pointer: `${path}/${escapeSegment(id)}`,
        key: true,
        message: `${configField(path)} has an unknown rule ${quote(id, KEY_MAX)}${didYouMean(suggest(id, knownRules))} (mcp-annotate rules lists them; a policy's rule is "policy/<name>")`,
      });
      handled.add(e);
    } else if (e.keyword === 'additionalProperties' && OPTIONS_PATH.test(path)) {
      const option = String(e.params.additionalProperty);
      const known = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      const rule = unescapeSegment(OPTIONS_PATH.exec(path)![1]!);
      out.push({
        pointer: `${path}/${escapeSegment(option)}`,
        key: true,
        message: known.length
          ? `${configField(path)}: ${rule} has no option ${quote(option, KEY_MAX)}${didYouMean(suggest(option, known))} (options: ${known.join(', ')})`
          : `${configField(path)}: ${rule} takes no options, got ${quote(option, KEY_MAX)}`,
      });
      handled.add(e);
    } else if (SERVER_ENTRY_PATH.test(path) && (e.keyword === 'required' || e.keyword === 'anyOf')) {
      if (!out.some((p) => p.pointer === path && p.message.includes('needs "command"'))) {
        out.push({ pointer: path, key: true, message: `${configField(path)} needs "command" (a program to start over stdio) or "url" (a Streamable HTTP or SSE endpoint)` });
      }
      handled.add(e);
    } else if (OVERRIDE_PATH.test(path) && ((e.keyword === 'required' && ['servers', 'tools'].includes(String(e.params.missingProperty))) || e.keyword === 'anyOf')) {
      // The anyOf [{required: servers}, {required: tools}]: one problem, not one per branch.
      if (!out.some((p) => p.pointer === path && p.message.includes('needs "servers" or "tools"'))) {
        out.push({ pointer: path, message: `${configField(path)} needs "servers" or "tools" (or both): the server or tool names its rules apply to` });
      }
      handled.add(e);
    } else if (e.keyword === 'minItems' && EMPTY_IN_PATH.test(path)) {
      // As the policy compiler says it (the schema's minItems comes first).
      out.push({ pointer: path, message: `${configField(path)}: ${EMPTY_IN}` });
      handled.add(e);
    } else if (path === '/vocabularies/core' && e.keyword === 'const') {
      out.push({ pointer: path, message: 'vocabularies.core cannot be false: the core vocabulary is the MCP spec itself and is always on' });
      handled.add(e);
    } else if (e.keyword === 'maxLength' && GLOB_PATH.test(path) && typeof e.data === 'string') {
      // Globs picomatch would refuse to compile (it threw "Input length … exceeds maximum allowed length").
      out.push({ pointer: path, message: `${configField(path)} ${globTooLong(e.data)}` });
      handled.add(e);
    } else if (SECRET_PATH.test(path)) {
      // Never show a value from env or headers: they hold secrets.
      if (!out.some((p) => p.pointer === path)) {
        out.push({ pointer: path, message: `${configField(path)} must be ${e.keyword === 'type' ? describeType(e) : 'valid'} (its value is not shown)` });
      }
      handled.add(e);
    }
  }
  // A string where an enum is expected (a severity, a preset, an effect): name the closest.
  for (const [path, list] of byPath) {
    const en = list.find((e) => e.keyword === 'enum' && typeof e.data === 'string' && !handled.has(e));
    if (!en || deeper(path)) continue;
    const allowed = (en.params.allowedValues as unknown[]).map(String);
    const value = en.data as string;
    // A spec version that is a date mcp-annotate does not know (2024-11-05): the version a
    // recorded one is linted as (the newest known before it, or the oldest), not the nearest
    // spelling (2024-11-05 is two edits from 2025-11-25, but far from it in time). A date one
    // typo from a known version (a digit off, two swapped: 2026-07-27, 2025-06-08) is that
    // version misspelt: the spelling wins.
    const nearest = suggest(value, allowed);
    const typo = path === '/spec' && allowed.some((v) => distance(value, v, 1) <= 1);
    const asRecorded = path === '/spec' && !typo ? specFor(value) : undefined;
    const dated = asRecorded !== undefined && !asRecorded.defaulted && asRecorded.spec !== nearest ? asRecorded.spec : undefined;
    out.push({
      pointer: path,
      message:
        `${configField(path)} is ${quote(value, KEY_MAX)}; expected ${orList(allowed)}` +
        (dated !== undefined ? `; did you mean ${JSON.stringify(dated)}, the version a recorded ${quote(value, KEY_MAX)} is linted as?` : didYouMean(nearest)),
    });
    for (const e of list) handled.add(e);
  }
  // Errors of the branches that did not match are noise when a branch went deeper (its errors are reported).
  const valueLevel = new Set(['type', 'enum', 'const', 'anyOf', 'oneOf']);
  const rest = errors.filter((e) => !handled.has(e) && !(valueLevel.has(e.keyword) && deeper(e.instancePath)) && !(SERVER_ENTRY_PATH.test(e.instancePath) && e.keyword === 'anyOf'));
  for (const x of explainErrors(rest, '', 'the configuration')) {
    const extra = /has a member "([^"]*)" that is not allowed/.exec(x.message);
    out.push({
      pointer: x.pointer,
      key: extra !== null,
      message: x.suggestion.startsWith('did you mean') ? `${x.message}; ${x.suggestion}` : x.message,
    });
  }
  return out;
}

export interface CheckedConfig {
  policies: { policy: Policy; compiled: Compiled }[];
}

/** Validate a config value; problems (and warnings, which do not stop it loading) are collected, never thrown. */
export function checkConfig(value: unknown, problems: PointedProblem[], warnings: PointedProblem[] = []): CheckedConfig {
  const knownRules = [...RULES, ...DRIFT_RULES].map((r) => r.id);
  const validateSchema = generated('config').validate!;
  const errors = validateSchema(value) ? [] : (validateSchema.errors ?? []).filter((e) => !(CONDITION_PATH.test(e.instancePath) && CONDITION_FORM.has(e.keyword)));
  const valid = errors.length === 0;
  // With schema errors, the checks below still look at the parts the schema found nothing
  // wrong in (a policy, a rules map), so that one run lists every problem.
  const errorPaths = errors.map((e) => e.instancePath);
  if (!valid) append(problems, schemaProblems(errors, knownRules));
  if (!isObject(value)) return { policies: [] };
  const sound = (at: string) => !errorPaths.some((p) => p === at || p.startsWith(`${at}/`));
  const config = value as Record<string, unknown>;
  const policies: CheckedConfig['policies'] = [];
  const names = new Map<string, number>();
  // Each part of a policy on its own: a bad effect does not hide what is wrong with its
  // conditions, and the policy still lends its name to the rules that use it.
  (Array.isArray(config.policies) ? (config.policies as Policy[]) : []).forEach((policy, i) => {
    const at = `/policies/${i}`;
    if (!isObject(policy)) return;
    // A name the schema refuses (a bad character) is still the name the rules use: said once, as the schema's error.
    // A name of another type (5 in YAML) is the name rules write as policy/5.
    const name = typeof policy.name === 'string' ? policy.name : typeof policy.name === 'number' || typeof policy.name === 'boolean' ? String(policy.name) : undefined;
    if (name !== undefined) {
      const first = names.get(name);
      if (first === undefined) names.set(name, i);
      else if (sound(`${at}/name`)) problems.push({ pointer: `${at}/name`, message: `policies[${i}].name ${JSON.stringify(name)} is already the name of policies[${first}]; policy names must be unique` });
    }
    if (!hasOwn(policy, 'conditions') || !sound(`${at}/conditions`)) return;
    const errors: ConditionError[] = [];
    const cautions: ConditionError[] = [];
    const compiled = compilePolicy(policy, errors, cautions);
    for (const e of errors) problems.push({ pointer: `${at}/conditions${e.pointer}`, message: `${configField(`${at}/conditions${e.pointer}`)}: ${e.message}` });
    for (const e of cautions) warnings.push({ pointer: `${at}/conditions${e.pointer}`, message: `${configField(`${at}/conditions${e.pointer}`)}: ${e.message}` });
    if (compiled && sound(at)) policies.push({ policy, compiled });
  });
  const policyIds = [...names.keys()].map((n) => `${POLICY_PREFIX}${n}`);
  const checkRuleIds = (rules: unknown, at: string) => {
    if (!isObject(rules)) return;
    // Key by key: one bad entry does not hide an unknown policy/<name> beside it.
    for (const id of Object.keys(rules)) {
      if (id.startsWith(POLICY_PREFIX) && !policyIds.includes(id) && sound(`${at}/${escapeSegment(id)}`)) {
        problems.push({
          pointer: `${at}/${escapeSegment(id)}`,
          key: true,
          message: `${configField(at)} sets ${quote(id, KEY_MAX)}, but no policy is named ${quote(id.slice(POLICY_PREFIX.length), KEY_MAX)}${didYouMean(suggest(id, policyIds))}`,
        });
      }
    }
  };
  checkRuleIds(config.rules, '/rules');
  if (Array.isArray(config.overrides)) config.overrides.forEach((o, i) => checkRuleIds(isObject(o) ? o.rules : undefined, `/overrides/${i}/rules`));
  // A server or tool glob whose regular expression V8 cannot compile threw at the first name
  // matched ("internal error"): a config problem at the glob, as one too long is.
  (Array.isArray(config.overrides) ? config.overrides : []).forEach((o, i) => {
    for (const key of ['servers', 'tools'] as const) {
      const globs = isObject(o) ? o[key] : undefined;
      if (!Array.isArray(globs)) continue;
      globs.forEach((glob, j) => {
        const at = `/overrides/${i}/${key}/${j}`;
        const why = typeof glob === 'string' && sound(at) ? nameGlobProblem(glob) : undefined;
        if (why) problems.push({ pointer: at, message: `${configField(at)} ${why}` });
      });
    }
  });
  // A file glob too, here rather than when the targets are expanded: one whose groups nest too
  // deep would abort the process (see MAX_GROUP_DEPTH) where a command-line target is checked.
  const files = Array.isArray(config.targets) ? config.targets : isObject(config.targets) && Array.isArray(config.targets.files) ? config.targets.files : [];
  const filesAt = Array.isArray(config.targets) ? '/targets' : '/targets/files';
  files.forEach((glob, j) => {
    const at = `${filesAt}/${j}`;
    const why = typeof glob === 'string' && sound(at) ? fileGlobProblem(glob) : undefined;
    if (why) problems.push({ pointer: at, message: `${configField(at)} ${why}` });
  });
  return { policies: valid ? policies : [] };
}
