import { defineRule } from '../src/rule.js';
import { destructive, readOnly, sideOf } from '../src/engine/queries.js';
import { MAX_PARAMETER_DEPTH, MAX_REF_HOPS, WALK_BUDGET, parameterOptions, riskyParameters, type Evidence, type RiskyParameter, type WalkOutcome } from '../src/heuristics/parameters.js';
import { orList, quote, thousands } from '../src/util/text.js';

/** The values, quoted; at most four, then how many more. */
function values(ev: readonly Evidence[]): string {
  if (ev.length <= 4) return orList(ev.map((e) => e.text));
  return `${ev.slice(0, 4).map((e) => quote(e.text)).join(', ')} or ${ev.length - 4} more`;
}

/** What the parameter suggests the call can do. */
function meaning(p: RiskyParameter, ev: readonly Evidence[]): string {
  switch (p.kind) {
    case 'removal':
      return 'is a flag that suggests the call can delete data';
    case 'cascade':
      return 'is a flag that suggests the call can delete or change dependent records too';
    case 'overwrite':
      return ev[0]!.pointer === p.pointer
        ? 'is a flag that suggests the call can overwrite or discard existing data'
        : `may be ${values(ev)} (${ev[0]!.pointer}), which suggests the call can overwrite existing data`;
    case 'dry-run':
      return 'is a dry-run switch, which suggests the call changes something when it is off';
    case 'operation':
      if (ev.length === 1) {
        return `may be ${quote(ev[0]!.text)} (${ev[0]!.pointer}): an operation that ${ev[0]!.againstNonDestructive ? 'deletes or overwrites data' : 'changes something'}`;
      }
      const what = ev.every((e) => e.againstNonDestructive)
        ? 'delete or overwrite data'
        : ev.some((e) => e.againstNonDestructive)
          ? 'change or delete data'
          : 'change something';
      return `may be ${values(ev)} (${ev[0]!.pointer}): operations that ${what}`;
  }
}

export default defineRule({
  id: 'risky-parameters',
  severity: 'warning',
  category: 'heuristic',
  packs: ['core'],
  summary: 'A read-only or non-destructive tool should not take parameters that delete or overwrite (heuristic).',
  precision: 'medium',
  security: 5.0,
  why: `A tool's hints describe every call, whatever its arguments. A tool marked
\`readOnlyHint: true\` that takes \`purge: true\`, or an \`action\` that may be \`"delete"\`, is
auto-approved by clients that skip prompts for read-only tools, and the model chooses the
arguments. A tool marked \`destructiveHint: false\` (only additive updates) that takes
\`force\` or \`overwrite\` can replace existing data without the warning clients show for
destructive tools.

This is a **heuristic**: it reads parameter names and their schemas, not what the server
does with them, and it is tuned to stay silent on the parameters that reading tools take
all the time (\`recursive\`, \`all\`, \`include_deleted\`, \`force_refresh\`).`,
  notes: `Fires when \`readOnlyHint\` is true, or \`destructiveHint\` is false with
\`readOnlyHint\` not true (explicit values only), and the \`inputSchema\` has a parameter
that contradicts that declaration:

| parameter | contradicts \`readOnlyHint: true\` | contradicts \`destructiveHint: false\` |
| --- | --- | --- |
| a name with the word delete, destroy, purge, wipe or erase (\`purge\`, \`delete_after_read\`) | yes | yes |
| a bare \`remove\` or \`drop\`, or with an object that says data goes (\`drop_existing\`, \`remove_source_files\`) | yes | yes |
| \`cascade\` | yes | yes |
| \`overwrite\`, \`clobber\` | yes | yes |
| a bare \`force\`, or \`force\` with push, reset, replace, checkout, merge or update (\`force_push\`) | no (on a read it usually bypasses a cache) | yes |
| \`dry_run\`, \`dryrun\`, \`whatif\` (a call that can be dry can also be wet) | yes | no |
| a conflict policy (\`if_exists\`, \`on_conflict\`, \`conflict_resolution\`, \`write_mode\`, …) that may be overwrite, replace, delete, drop, truncate or clobber | yes | yes |
| an operation selector (\`action\`, \`operation\`, \`op\`, \`command\`, \`cmd\`, \`subcommand\`, or a name ending so such as \`file_action\`; or exactly \`mode\` or \`method\`, which GitHub's server uses to select operations — \`delivery_method\` and \`sort_mode\` select none) whose enum/const may be a delete verb or "overwrite" | yes | yes |
| the same, with another writing verb (\`"create"\`, \`"update"\`, \`"write"\`, …) | yes | no |
| the same, with an operation that changes the state of something running: restart, reboot, shutdown, undo, rollback, revert, restore, pause, resume, suspend, unsuspend, drain, cordon, uncordon, evict, kill, terminate, rerun, trigger, dispatch, approve, reject, archive, unarchive, lock, unlock, reopen, promote, demote, revoke, grant, transfer (kubectl rollout's \`subCommand\`: \`["history", "pause", "restart", "resume", "status", "undo"]\`) | yes | no (a state change need not lose data) |

Names are matched as whole tokens (\`include_deleted\` has "deleted", not "delete";
\`forceDelete\` is force, delete).

- **Not risky on their own:** \`recursive\` (list_files, search, mkdir -p and copy take it),
  \`all\` (search all repositories, list all pages), \`truncate\` and \`prune\` (they trim the
  output), and remove/drop with other objects (\`remove_duplicates\`, \`drop_empty\`): on
  reading tools these shape the result.
- **Never risky:** a parameter whose name starts with a filter word (include, exclude,
  show, hide, with, only, filter, skip, ignore, count, max, allow, is, has, …) or holds
  "cache" (\`purge_cache\`: a cache is not the environment); anything nested under a
  filter or query object (\`filter\`, \`where\`, \`query\`, \`criteria\`, \`select\`, \`sort\`, …);
  a parameter whose description says it acts on the returned data or a cache ("… from the
  results", "bypass the cache").
- **The type matters.** Flags count only when a caller can turn them on: type boolean (or
  a boolean branch of anyOf/oneOf, or a boolean default with no type) and not pinned off
  by \`const: false\` or \`enum: [false]\`. \`force: {type: "string"}\` is not a flag.
  Operation selectors and conflict policies count by their string enum/const values.
- **Operations left out of the state-changing list:** reading words (status, history,
  get, list, describe, logs, watch, diff); start and stop (a tool that traces, records or
  tails starts and stops its own session); run, exec and execute (a read-only query runs);
  cancel, abort and retry (an asynchronous read the tool started itself); scale and rotate
  (image and matrix operations are pure functions); enable and disable (a debugger enables
  the events it reads); open and close (the tool's own page or session); resolve (a name
  lookup); accept and dismiss (a dialog); sync and refresh.
- **Operation selectors that filter** are skipped: when the tool name's verb reads
  (\`list_audit_events\` with \`action: ["create", "delete"]\`), when the name is hedged
  (dry run, preview, plan), or when the description says it filters or picks which kind
  of thing to report ("Which kind of events to show", "Which lock operations to count").
- **Reports on operations** (a name whose last word is a report noun: stats, history,
  summary, trail, status, report, log, metrics, activity, lookup, …) and **tools that
  explain or compute** (explain, calculate, describe, estimate, compare, …) take
  selectors that name operations without performing them: \`audit_trail\` with
  \`action: ["approve", "revoke"]\`, \`email_stats\` with \`["archive", "reply"]\`,
  \`kubectl_explain\` with \`command: ["apply", "drain"]\`, \`lock_status\` with
  \`["lock", "unlock"]\`, \`calculate_route\` with \`mode: ["transfer", "walk"]\`.
  On them the state-changing operations and the writing verbs that are nouns as often
  (edit, move, commit, apply, patch, reply) do not count; delete verbs, "overwrite" and
  the other writing verbs (create, update, …) still do. A report noun at the end of the
  name is not enough when a writing verb stands anywhere in the name (manage, handle,
  change, set, update, …: \`manage_account_details\`, \`handle_events\`) or opens the
  description ("Change the status of a subscription." on \`subscription_status\`): such
  tools act, and their selectors count.
- **Nested parameters count.** Object properties, array items, anyOf/oneOf/allOf branches
  and local \`$ref\`s (\`#/$defs/…\`) are followed: a flag is as risky inside \`options\`
  as at the top. A parameter reached through \`$ref\` is reported where it is defined. The
  walk goes ${MAX_PARAMETER_DEPTH} levels deep and follows ${MAX_REF_HOPS} \`$ref\`s in a row, far past real
  schemas, and visits at most ${thousands(WALK_BUDGET)} subschemas of one tool (a schema built to
  be expensive is not walked to its end): the first eight levels of every parameter first, then
  what lies deeper, so a huge subtree deep down cannot hide a shallow parameter after it. When
  the walk stops before the end, a note on the inputSchema says so (a parameter past the
  ${thousands(WALK_BUDGET)} subschemas was not checked); it stays a note at any setting.

One finding per parameter, at the parameter's schema (or at the offending enum value),
with the hint as the related location. No mechanical fix.`,
  examples: {
    incorrect: [
      {
        title: 'A "non-destructive" upload that can overwrite',
        tools: [
          {
            name: 'upload_file',
            inputSchema: {
              type: 'object',
              properties: {
                path: { type: 'string' },
                content: { type: 'string' },
                force: { type: 'boolean', description: 'Replace the file if it already exists.' },
              },
            },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
        findings: [{ pointer: '/tools/0/inputSchema/properties/force' }],
      },
      {
        title: 'A "read-only" tool whose action may delete',
        tools: [
          {
            name: 'manage_labels',
            inputSchema: {
              type: 'object',
              properties: { action: { type: 'string', enum: ['list', 'create', 'delete'] }, label: { type: 'string' } },
            },
            annotations: { readOnlyHint: true },
          },
        ],
        findings: [{ pointer: '/tools/0/inputSchema/properties/action/enum/1' }],
      },
      {
        title: 'Flags on a read-only tool, nested ones included',
        doc: false,
        tools: [
          {
            name: 'sync_mailbox',
            inputSchema: {
              type: 'object',
              properties: {
                purge: { type: 'boolean' },
                dry_run: { type: 'boolean' },
                options: { type: 'object', properties: { overwrite: { anyOf: [{ type: 'boolean' }, { type: 'null' }] } } },
              },
            },
            annotations: { readOnlyHint: true },
          },
        ],
        findings: [
          { pointer: '/tools/0/inputSchema/properties/purge' },
          { pointer: '/tools/0/inputSchema/properties/dry_run' },
          { pointer: '/tools/0/inputSchema/properties/options/properties/overwrite' },
        ],
      },
      {
        title: 'A "read-only" tool whose subcommand may restart or undo',
        explanation:
          'kubectl rollout’s subcommands, from the Kubernetes server: "history" and "status" read, "pause", "restart", "resume" and "undo" change the rollout.',
        tools: [
          {
            name: 'kubectl_rollout',
            inputSchema: {
              type: 'object',
              properties: {
                subCommand: { type: 'string', enum: ['history', 'pause', 'restart', 'resume', 'status', 'undo'] },
                resourceType: { type: 'string' },
                name: { type: 'string' },
              },
            },
            annotations: { readOnlyHint: true },
          },
        ],
        findings: [{ pointer: '/tools/0/inputSchema/properties/subCommand/enum/1' }],
      },
      {
        title: 'A conflict policy and a $ref on a non-destructive tool',
        doc: false,
        tools: [
          {
            name: 'import_table',
            inputSchema: {
              type: 'object',
              properties: { if_exists: { type: 'string', enum: ['fail', 'append', 'replace'] }, opts: { $ref: '#/$defs/Opts' } },
              $defs: { Opts: { type: 'object', properties: { cascade: { type: 'boolean' } } } },
            },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
        findings: [
          { pointer: '/tools/0/inputSchema/properties/if_exists/enum/2' },
          { pointer: '/tools/0/inputSchema/$defs/Opts/properties/cascade' },
        ],
      },
      {
        title: 'A report noun at the end of the name of a tool that says it acts',
        doc: false,
        tools: [
          {
            name: 'subscription_status',
            description: 'Change the status of a subscription.',
            inputSchema: { type: 'object', properties: { action: { type: 'string', enum: ['cancel', 'pause', 'resume'] } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
          {
            name: 'manage_account_details',
            inputSchema: { type: 'object', properties: { operation: { type: 'string', enum: ['lock', 'unlock', 'transfer'] } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
          {
            name: 'handle_events',
            inputSchema: { type: 'object', properties: { action: { type: 'string', enum: ['approve', 'reject'] } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
        ],
        findings: [
          { pointer: '/tools/0/inputSchema/properties/action/enum/1' },
          { pointer: '/tools/1/inputSchema/properties/operation/enum/0' },
          { pointer: '/tools/2/inputSchema/properties/action/enum/0' },
        ],
      },
    ],
    correct: [
      {
        title: 'Recursion, "all" and deleted items are normal on a read-only tool',
        tools: [
          {
            name: 'list_files',
            inputSchema: {
              type: 'object',
              properties: {
                path: { type: 'string' },
                recursive: { type: 'boolean' },
                all: { type: 'boolean', description: 'Include hidden files.' },
                include_deleted: { type: 'boolean' },
              },
            },
            annotations: { readOnlyHint: true },
          },
        ],
      },
      {
        title: 'Reports on operations, and tools that explain or compute, name operations they do not perform',
        doc: false,
        tools: [
          {
            name: 'audit_trail',
            inputSchema: { type: 'object', properties: { action: { type: 'string', enum: ['approve', 'reject', 'grant', 'revoke', 'transfer'], description: 'Which kind of events to show' } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
          {
            name: 'email_stats',
            inputSchema: { type: 'object', properties: { action: { type: 'string', enum: ['archive', 'reply', 'move'] } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
          {
            name: 'pr_activity_summary',
            inputSchema: { type: 'object', properties: { action: { type: 'string', enum: ['approve', 'reject', 'comment'] } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
          {
            name: 'workflow_history',
            inputSchema: { type: 'object', properties: { action: { type: 'string', enum: ['trigger', 'dispatch', 'rerun'] } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
          {
            name: 'kubectl_explain',
            inputSchema: { type: 'object', properties: { command: { type: 'string', enum: ['apply', 'patch', 'rollout', 'drain', 'cordon'] } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
          {
            name: 'keyboard_shortcut_lookup',
            inputSchema: { type: 'object', properties: { command: { type: 'string', enum: ['undo', 'redo', 'archive', 'move'] } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
          {
            name: 'lock_status',
            inputSchema: { type: 'object', properties: { operation: { type: 'string', enum: ['lock', 'unlock'], description: 'Which lock operations to count' } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
          {
            name: 'calculate_route',
            inputSchema: { type: 'object', properties: { mode: { type: 'string', enum: ['transfer', 'walk', 'drive'] } } },
            annotations: { readOnlyHint: true, openWorldHint: false },
          },
        ],
      },
      {
        title: 'Reading operations, and operations on the tool’s own session, on a read-only tool',
        doc: false,
        tools: [
          {
            name: 'kubectl_rollout_status',
            inputSchema: { type: 'object', properties: { subCommand: { type: 'string', enum: ['history', 'status'] } } },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'trace_page',
            inputSchema: { type: 'object', properties: { action: { type: 'string', enum: ['start', 'stop', 'status'] } } },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'query_warehouse',
            inputSchema: { type: 'object', properties: { operation: { type: 'string', enum: ['run', 'cancel', 'retry', 'get_results'] } } },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'transform_image',
            inputSchema: { type: 'object', properties: { operation: { type: 'string', enum: ['scale', 'rotate', 'crop'] } } },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'context',
            inputSchema: { type: 'object', properties: { operation: { type: 'string', enum: ['list', 'get', 'describe'] } } },
            annotations: { readOnlyHint: true },
          },
        ],
      },
      {
        title: 'A state change is not a deletion: destructiveHint false may take restart or drain',
        doc: false,
        tools: [
          {
            name: 'node_management',
            inputSchema: { type: 'object', properties: { operation: { type: 'string', enum: ['cordon', 'drain', 'uncordon'] } } },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
      },
      {
        title: 'A destructive tool may take force',
        tools: [
          {
            name: 'delete_branch',
            inputSchema: { type: 'object', properties: { branch: { type: 'string' }, force: { type: 'boolean' } } },
            annotations: { readOnlyHint: false, destructiveHint: true },
          },
        ],
      },
      {
        title: 'Filters, caches and output shaping',
        doc: false,
        tools: [
          {
            name: 'list_audit_events',
            inputSchema: { type: 'object', properties: { action: { type: 'string', enum: ['create', 'update', 'delete'] } } },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'audit_log',
            inputSchema: {
              type: 'object',
              properties: { action: { type: 'string', enum: ['create', 'delete'], description: 'Filter events by action.' } },
            },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'get_weather',
            inputSchema: {
              type: 'object',
              properties: { force_refresh: { type: 'boolean' }, force: { type: 'boolean' }, purge_cache: { type: 'boolean' } },
            },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'run_report',
            inputSchema: {
              type: 'object',
              properties: {
                drop: { type: 'boolean', description: 'Drop empty rows from the results.' },
                remove_duplicates: { type: 'boolean' },
                truncate: { type: 'boolean' },
                filter: { type: 'object', properties: { deleted: { type: 'boolean' }, purge: { type: 'boolean' } } },
              },
            },
            annotations: { readOnlyHint: true },
          },
          {
            name: 'create_note',
            inputSchema: {
              type: 'object',
              properties: { force: { type: 'boolean', const: false }, mode: { type: 'string', enum: ['plain', 'markdown'] } },
            },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
      },
      {
        title: 'Hints absent or destructive: nothing to contradict',
        doc: false,
        tools: [
          { name: 'wipe_disk', inputSchema: { type: 'object', properties: { force: { type: 'boolean' } } } },
          { name: 'push', inputSchema: { type: 'object', properties: { force: { type: 'boolean' } } }, annotations: { readOnlyHint: false } },
        ],
      },
    ],
  },
  check(ctx) {
    const ro = readOnly(ctx.claims);
    const d = destructive(ctx.claims);
    const hint = ro?.value === true ? ro : d?.value === false ? d : undefined;
    if (!hint) return;
    const against = hint === ro ? 'againstReadOnly' : 'againstNonDestructive';
    const obj = ctx.tool.obj;
    if (!obj || !('inputSchema' in obj)) return;
    const outcome: WalkOutcome = {};
    for (const p of riskyParameters(obj.inputSchema, ctx.at('/inputSchema'), () => parameterOptions(ctx.tool), outcome)) {
      const ev = p.evidence.filter((e) => e[against]);
      if (ev.length === 0) continue;
      const pointer = ev[0]!.pointer;
      const param = `Input parameter ${quote(p.path)}${pointer === p.pointer ? '' : ` (${p.pointer})`}`;
      const at = pointer === p.pointer ? ` (${p.pointer})` : '';
      const message =
        hint === ro
          ? `${param}${at} ${meaning(p, ev)}, but ${sideOf(hint)} (heuristic)`
          : `${param}${at} ${meaning(p, ev)}, but ${sideOf(hint)}, which says its updates are only additive (heuristic)`;
      let suggestion: string;
      if (hint === ro) {
        suggestion =
          p.kind === 'operation'
            ? `if the tool can perform ${values(ev)}, set readOnlyHint to false, or split it into a read-only tool and one that writes; if ${quote(p.name)} only filters what is returned, say so in its description`
            : `if ${quote(p.name)} lets the call change or delete anything, set readOnlyHint to false; if it only shapes what is returned, say so in its description ("… from the results")`;
      } else {
        suggestion = `if ${quote(p.name)} can make the call delete or overwrite existing data, set destructiveHint to true; if it cannot, say what it does in its description`;
      }
      ctx.report({
        pointer,
        message,
        suggestion,
        related: [{ pointer: hint.pointer, message: `${hint === ro ? 'readOnlyHint is true' : 'destructiveHint is false'} here` }],
      });
    }
    if (outcome.stopped) {
      // Honest about what was not looked at: a parameter past the budget could contradict the hint unseen.
      ctx.report({
        pointer: ctx.at('/inputSchema'),
        informational: true,
        message: `inputSchema was not walked to its end: the check for parameters that contradict ${hint === ro ? 'readOnlyHint true' : 'destructiveHint false'} stopped after ${thousands(outcome.stopped.visited)} subschemas, so parameters past them were not checked`,
        suggestion: 'nothing to fix for this check; review the rest of the input parameters by hand, or split the schema into smaller tools',
        related: [{ pointer: hint.pointer, message: `${hint === ro ? 'readOnlyHint is true' : 'destructiveHint is false'} here` }],
      });
    }
  },
});
