/**
 * User policies as rules: each policy of the config becomes a Rule `policy/<name>`, so
 * every reporter, the SARIF rule metadata and `mcp-annotate rules` treat it like any
 * other rule, and `rules`/`overrides` in the config can set its severity per tool.
 */
import { confirmationSignals, offConfirmationSignals, offConfirmationText, lintWithOffPacksOn, offPacksText } from '../engine/queries.js';
import type { Rule, ServerRef, ToolContext } from '../rule.js';
import type { Severity } from '../types.js';
import { quote } from '../util/text.js';
import { repositoryUrl } from '../version.js';
import { compileConditions, evaluate, type Compiled, type ConditionError, type Condition, type Node, type Witness } from './evaluate.js';
import { factState, type FactState } from './facts.js';

export const POLICY_EFFECTS = ['block', 'escalate', 'warn'] as const;
export type PolicyEffect = (typeof POLICY_EFFECTS)[number];

export interface Policy {
  name: string;
  effect: PolicyEffect;
  conditions: Condition;
  /** What the policy is for, in a sentence (the rule's summary). */
  description?: string;
}

export const POLICY_PREFIX = 'policy/';

const SEVERITY: Record<PolicyEffect, Severity> = { block: 'error', escalate: 'warning', warn: 'warning' };

const VERB: Record<PolicyEffect, string> = { block: 'block', escalate: 'escalate', warn: 'warn about' };

const MAX_NAMED_TOOLS = 5;

/** A condition as text: `tool.annotations.inputMetadata.outcomes equals "irreversible"`. */
export function conditionText(node: Node, compiled: Compiled): string {
  switch (node.kind) {
    case 'atom':
      return `${compiled.facts[node.fact]!.text} ${node.op} ${JSON.stringify(node.operand)}`;
    case 'not':
      return `not (${conditionText(node.child, compiled)})`;
    default:
      return node.children.length === 1
        ? conditionText(node.children[0]!, compiled)
        : node.children.map((c) => (c.kind === 'atom' || c.kind === 'not' ? conditionText(c, compiled) : `(${conditionText(c, compiled)})`)).join(` ${node.kind} `);
  }
}

function phrase(w: Witness, compiled: Compiled, states: readonly FactState[]): string {
  const fact = compiled.facts[w.fact]!.text;
  const state = states[w.fact]!;
  if (!w.value) return `${fact} is not declared (${w.pointer})`;
  const v = w.value;
  const verb = state.kind === 'values' && state.values.length > 1 ? 'may be' : 'is';
  const shown = `${quote(v.value)}${v.defaulted ? ' (not declared, so the default)' : ''}`;
  if (w.held) {
    const detail = w.op === 'contains' && typeof v.value === 'string' && v.value !== w.operand ? `, which contains ${quote(w.operand)}` : '';
    return `${fact} ${verb} ${shown}${detail} (${v.pointer})`;
  }
  const expected = w.op === 'in' ? `none of ${quote(w.operand)}` : w.op === 'contains' ? `without ${quote(w.operand)}` : `not ${quote(w.operand)}`;
  return `${fact} ${verb} ${shown}, ${expected} (${v.pointer})`;
}

function joinPhrases(parts: string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** Compile a policy's conditions, or collect why they cannot be. */
export function compilePolicy(policy: Policy, errors: ConditionError[], warnings: ConditionError[] = []): Compiled | undefined {
  return compileConditions(policy.conditions, errors, warnings);
}

export function policyRule(policy: Policy, compiled: Compiled): Rule {
  const id = `${POLICY_PREFIX}${policy.name}`;
  const text = conditionText(compiled.root, compiled);
  const undecided = new WeakMap<ServerRef, { tool: string; reasons: string[] }[]>();
  const verb = VERB[policy.effect];
  const effectLine: Record<PolicyEffect, string> = {
    block: 'an **error** on every tool whose declaration may satisfy the conditions',
    escalate: 'a **warning** on every tool whose declaration may satisfy the conditions and that carries no confirmation signal',
    warn: 'a **warning** on every tool whose declaration may satisfy the conditions',
  };

  return {
    id,
    severity: SEVERITY[policy.effect],
    category: 'policy',
    packs: [],
    summary: policy.description ?? `User policy (${policy.effect}): ${text}.`,
    // The description is the summary, which explain and SARIF show above this text.
    why: [
      `A user policy from the configuration. Effect \`${policy.effect}\`: ${effectLine[policy.effect]}.`,
      '',
      `Conditions: \`${text}\``,
      '',
      '```json',
      conditionsJson(policy.conditions),
      '```',
      '',
      'Statically, a condition on a fact holds when some possible value the tool declares satisfies it. Facts about requests, and about responses a tool does not bound in tools/list, are only known at call time: a policy that needs them is reported once per server as a note naming the tools it could not decide.',
    ].join('\n'),
    precision: 'high',
    tags: ['policy', policy.effect],
    helpUri: `${repositoryUrl()}#policies`,
    examples: { correct: [], incorrect: [] },
    check(ctx: ToolContext) {
      const states = compiled.facts.map((f) => factState(f, ctx.tool, ctx.claims, ctx.server.name));
      const outcome = evaluate(compiled, states);
      if (outcome.result === 'no') return;
      // A tool that asks for confirmation already gets what an escalation would ask for.
      if (policy.effect === 'escalate' && confirmationSignals(ctx.claims).length > 0) return;
      if (outcome.result === 'unknown') {
        const list = undecided.get(ctx.server) ?? [];
        list.push({ tool: ctx.tool.name, reasons: outcome.unknown });
        undecided.set(ctx.server, list);
        return;
      }
      const seen = new Set<string>();
      const witnesses = outcome.witnesses.filter((w) => {
        const key = `${w.fact}\u0000${w.value?.pointer ?? w.pointer}\u0000${w.held}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      const phrases = witnesses.map((w) => phrase(w, compiled, states));
      const first = witnesses[0];
      const pointer = first?.value?.pointer ?? first?.pointer ?? ctx.tool.pointer;
      // A request for confirmation in a vocabulary the run turned off is not counted, but named.
      const off = policy.effect === 'escalate' ? offConfirmationSignals(ctx) : [];
      const lead =
        policy.effect === 'escalate'
          ? off.length
            ? `policy ${quote(policy.name)} escalates this tool, and it carries no confirmation signal in the vocabularies this run checks`
            : `policy ${quote(policy.name)} escalates this tool, and it carries no confirmation signal`
          : `policy ${quote(policy.name)} ${policy.effect === 'block' ? 'blocks' : 'warns about'} this tool`;
      ctx.report({
        pointer,
        message: `${lead}: ${joinPhrases(phrases)}${off.length ? `; ${offConfirmationText(off)}` : ''}`,
        suggestion:
          policy.effect === 'escalate'
            ? `ask for confirmation (_meta["mcp.dev/requiresConfirmation"]: true, action-metadata requiresReview, or approvalRecommendation "single"), or correct the declaration if the tool cannot do this` +
              (off.length ? `; if the clients that enforce the policy implement ${offPacksText(off)}, ${lintWithOffPacksOn(off)}` : '')
            : policy.effect === 'block'
              ? `a client enforcing this policy refuses the tool: correct the declaration if the tool cannot do this, or turn ${id} off for it in "overrides"`
              : `review the tool against the policy; correct the declaration if the tool cannot do this`,
        related: witnesses.slice(1).map((w, i) => ({
          pointer: w.value?.pointer ?? w.pointer ?? ctx.tool.pointer,
          message: phrases[i + 1]!,
        })),
      });
    },
    checkServer(ctx) {
      const list = undecided.get(ctx.server);
      if (!list?.length) return;
      const names = list.slice(0, MAX_NAMED_TOOLS).map((t) => quote(t.tool));
      const more = list.length > MAX_NAMED_TOOLS ? ` and ${list.length - MAX_NAMED_TOOLS} more` : '';
      const reasons = [...new Set(list.flatMap((t) => t.reasons))];
      ctx.report({
        pointer: ctx.toolsPointer,
        severity: 'note',
        informational: true,
        detail: undecidedDetail(list.map((t) => t.tool)),
        // The tools it names are those the policy is on for (check() ran for them), if only through a tool-scoped override.
        coveredTools: list.map((t) => t.tool),
        message: `policy ${quote(policy.name)} cannot be decided from the declarations of ${list.length === 1 ? 'tool' : `${list.length} tools`} ${names.join(', ')}${more}: ${reasons.join('; ')}. What ${list.length === 1 ? 'its declaration says does' : 'their declarations say does'} not rule it out, so a client enforcing it at call time may ${verb} ${list.length === 1 ? 'it' : 'them'}`,
        suggestion: `nothing to fix: a client decides this per call; a policy on what tools declare (tool.…, claims.…, or response annotations they declare in tools/list) is decided here`,
      });
    },
  };
}

/**
 * The tools an "undecided" note is about, for its baseline key (a JSON array of names, sorted):
 * a baselined note covers the same tools or fewer (renamed ones followed), never a tool that
 * became undecided later (see toolList in the baseline).
 */
function undecidedDetail(tools: string[]): string {
  return JSON.stringify([...new Set(tools)].sort());
}

/** Rules for the policies of a config, in the order they are written. */
export function policyRules(policies: readonly { policy: Policy; compiled: Compiled }[]): Rule[] {
  return policies.map((p) => policyRule(p.policy, p.compiled));
}

/** Nesting up to which the conditions are shown indented on the policy's page. */
const INDENTED_DEPTH = 12;

/**
 * The conditions as JSON for the policy's page (explain, SARIF help): indented while they nest
 * no deeper than INDENTED_DEPTH, else on one line — indented, the text grows with the square of
 * the nesting (a 9 KB condition nested 1,000 deep was 5 MB of SARIF help).
 */
function conditionsJson(conditions: unknown): string {
  let deepest = 0;
  const stack: [unknown, number][] = [[conditions, 1]];
  while (stack.length && deepest <= INDENTED_DEPTH) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    deepest = Math.max(deepest, depth);
    for (const v of Object.values(value)) stack.push([v, depth + 1]);
  }
  return deepest <= INDENTED_DEPTH ? JSON.stringify(conditions, null, 2) : JSON.stringify(conditions);
}
