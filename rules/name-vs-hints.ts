import { defineRule } from '../src/rule.js';
import { destructive, readOnly, sideOf } from '../src/engine/queries.js';
import { firstOf, onlyReadingVerbs, readName, writingVerb, type NameVerb } from '../src/heuristics/name-verbs.js';
import { quote } from '../src/util/text.js';

const uniqueVerbs = (verbs: readonly NameVerb[]) => [...new Set(verbs.map((v) => JSON.stringify(v.token)))];

export default defineRule({
  id: 'name-vs-hints',
  severity: 'warning',
  category: 'heuristic',
  packs: ['core'],
  summary: "The tool name's verb should not contradict readOnlyHint or destructiveHint (heuristic).",
  precision: 'medium',
  security: 5.0,
  why: `Users and models read a tool's name before anything else, and clients act on its
hints. When they disagree, one of them is wrong, and either way someone is misled:
\`delete_branch\` with \`readOnlyHint: true\` is auto-approved by clients that skip
prompts for read-only tools; \`remove_collaborator\` with \`destructiveHint: false\` is
presented as a purely additive change; \`get_invoice\` with \`destructiveHint: true\` makes
every lookup ask for confirmation, and users learn to click through the prompts that
matter.

This is a **heuristic**: it reads the name's verb, and names can mislead. It stays
silent whenever the name is ambiguous, and it never changes a hint for you.`,
  notes: `What fires, on explicit hint values (absent hints are
[missing-readonly-hint](missing-readonly-hint.md)'s and
[implicit-destructive](implicit-destructive.md)'s business) — with one reading of a default:
\`destructiveHint: true\` without \`readOnlyHint\` is read as \`readOnlyHint: false\`, which is
the spec's default and what every client acts on (missing-readonly-hint does not report that
tool, so the lookup named \`search_pages\` that asks for confirmation is reported here):

| the name's verb | contradicts |
| --- | --- |
| delete, remove, drop, destroy, purge, wipe, erase, rm, rmdir | \`readOnlyHint: true\`, or \`destructiveHint: false\` |
| create, update, write, set, send, post, publish, push, merge, deploy, and insert, upsert, upload, save, rename, reset, unset, submit, append, modify, install, uninstall, overwrite, assign, invite, add, edit, move, commit, apply, patch, reply | \`readOnlyHint: true\` |
| get, list, read, search, describe, fetch, find, lookup — and no other verb | \`destructiveHint: true\` with \`readOnlyHint: false\` or absent |

When \`readOnlyHint\` is true, \`destructiveHint\` is not checked (the spec ignores it; the
read-only contradiction is the one to fix). One finding per contradicted hint, at the
hint, with the name as the related location. No mechanical fix: a heuristic cannot tell
whether the hint or the name is the wrong one.

How the name is read (whole tokens only, via the tokeniser: \`get_deleted_items\` has
"deleted", not "delete"; \`undelete\` is one word; \`getHTTPResponse\` is get, http,
response):
- **Where the verb may be.** Not only first: the name is cut into namespace segments at
  \`.\`, \`/\`, \`:\` and \`__\`, the verb is looked for in the last segment that has
  one, and within it the first known verb is *the* verb, with anything before it taken
  as a prefix: \`repo_delete\`, \`github.delete_branch\`, \`github_delete_branch\` and
  \`mcp__github__create_issue\` all have their verb found. Verbs that are also common
  nouns (post, update, set, push, merge, list, drop, search, read, deploy, lookup) count
  only as the first word of the segment: \`blog_post_comments\` and \`latest_update\`
  have no verb, and \`get_post\` is a get. The price is recall: \`slack_post_message\` and
  \`issue_list\` are not read.
- **Several verbs.** A verb after "and", "or" or "then" counts too. The strongest class
  decides: \`list_and_delete\` is a delete, \`get_or_create_user\` a write (so it contradicts
  \`readOnlyHint: true\`, and \`destructiveHint: true\` is fine on it). The "only reads"
  case needs *every* verb to read, including a verb right after the first
  (\`find_replace\` does not only read).
- **Known verbs of no class** (check, run, copy, undo, restore, cancel, count, mark, can,
  is, …) win when they come first: \`undo_delete\`, \`can_delete\`, \`mark_as_read\`,
  \`check_deploy_status\` and \`run_delete_preview\` say nothing about deleting or deploying.
- **\`reset_password\` and \`set_reminder\`.** "reset" is not "set" (whole tokens). Both
  change state, so both contradict \`readOnlyHint: true\`; neither is a delete (resetting a
  password or setting a reminder replaces a value, which the delete list does not try to
  judge), so neither contradicts \`destructiveHint: false\`.
- **Not verbs here:** known noun phrases (\`merge_request\`, \`pull_request\`, \`set_union\`,
  \`drop_shadow\`, \`post_process\`, \`deploy_keys\`, \`deploy_status\`, \`read_only\`,
  \`search_results\`), event and setting names
  (\`on_delete\`, \`auto_delete\`, \`pre_deploy\`), and things a pure function strips from or
  makes out of its input (\`remove_background\`, \`drop_duplicates\`, \`create_chart\`,
  \`create_embedding\`), and arithmetic "add" (a tool named just \`add\`, \`add_numbers\`,
  \`add_days\`), and "apply" with what a pure function applies (\`apply_filter\`,
  \`apply_regex\`, \`apply_transform\`): such tools are legitimately read-only. A "soft"
  delete (\`soft_delete_user\`) is a write, not a delete.
- **edit, move, commit, apply, patch, reply** name things as often as acts, so, like post
  and update, they are writes only as the first word of the segment (\`edit_file\`,
  \`move_files\`, \`edit_content\`, \`reply_to_review_comment\`) or after a server, CLI or
  resource prefix of one or two words with nothing, a preposition or at most two words after
  them (\`git_commit\`, \`kubectl_apply\`, \`slack_reply_to_thread\`, \`API-patch-page\`,
  \`git_commit_all_changes\`, \`aws_s3_move_object\`, \`jira_issue_edit\`). A reading word
  — get, show, list, search, view, suggest, analyse, validate, check, blame, … — is the verb
  instead when it comes before them (\`suggest_edit\`, \`blame_commit\`) or ends a
  resource-first name (\`commit_get\`, \`git_commit_show\`, \`patch_file_list\`), unless it
  is a noun too (\`edit_view\`, \`edit_query\`, \`edit_saved_search\` edit). Followed by a
  noun that names a report or an analysis they are nouns (\`commit_summary\`,
  \`edit_history\`, \`edit_suggestions\`, \`move_analysis\`, \`patch_notes\`,
  \`patch_compliance_report\`, \`reply_count\`, \`reply_sentiment\`, \`apply_status\`,
  \`apply_eligibility\`, \`os_patch_compliance\`, \`page_edit_metrics\`), as in a few
  phrases (\`commit_files\`, \`commit_author\`, \`patch_contents\`); what a writing tool
  writes (files, content, details) does not make them nouns. After an
  ordinal or recency word (latest, last, recent, first, next, previous, current, initial,
  best, head: \`latest_commit\`, \`last_edit\`, \`best_move\`) any verb is a noun. None of them is a delete:
  editing, moving or patching may lose data, but whether it does is
  [description-vs-hints](description-vs-hints.md)' and the author's call, so they contradict
  only \`readOnlyHint: true\`.
- **Caches.** A name that names a cache (\`purge_cdn_cache\`, \`clear_cache\`) is not held to
  \`destructiveHint: false\`: removing cached copies loses no data. It still contradicts
  \`readOnlyHint: true\`.
- **Hedged names** (dry, dryrun, preview, simulate, plan, estimate, validate, diff,
  whatif, impact anywhere in the segment) may only describe a change, so delete and
  write verbs do not fire on them.

Known residual false positives: nouns in first position that look like verbs
(\`update_history\` on a read-only tool), and pure functions with other objects
(\`merge_json\`, \`write_haiku\`). Turn the rule off for such tools with a per-tool
override.`,
  examples: {
    incorrect: [
      {
        title: 'A delete tool marked read-only',
        tools: [{ name: 'delete_branch', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
      {
        title: 'A removal marked as only additive',
        tools: [
          {
            name: 'remove_collaborator',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: false, destructiveHint: false },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/destructiveHint' }],
      },
      {
        title: 'A lookup marked destructive',
        tools: [{ name: 'get_invoice', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true } }],
        findings: [{ pointer: '/tools/0/annotations/destructiveHint' }],
        explanation: 'Every call now asks for confirmation. If the tool only reads, `readOnlyHint: true` is the fix.',
      },
      {
        title: 'A namespaced name with the verb last',
        doc: false,
        tools: [{ name: 'github.repo_delete', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
      {
        title: 'Verbs of two classes: the strongest decides',
        doc: false,
        tools: [
          { name: 'list_and_delete_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'get_or_create_label', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
        findings: [{ pointer: '/tools/0/annotations/destructiveHint' }, { pointer: '/tools/1/annotations/readOnlyHint' }],
      },
      {
        title: 'Writes marked read-only: send, reset, set, camelCase',
        doc: false,
        tools: [
          { name: 'send_message', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'reset_password', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'setReminder', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'mcp__vercel__deploy', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
        findings: [
          { pointer: '/tools/0/annotations/readOnlyHint' },
          { pointer: '/tools/1/annotations/readOnlyHint' },
          { pointer: '/tools/2/annotations/readOnlyHint' },
          { pointer: '/tools/3/annotations/readOnlyHint' },
        ],
      },
      {
        title: 'Real servers’ writing tools marked read-only: edit, move, commit, apply, patch, reply',
        explanation:
          'The names of the filesystem, git, Kubernetes and Slack servers’ writing tools, each with `readOnlyHint: true`.',
        tools: [
          { name: 'edit_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'move_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'git_commit', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'kubectl_apply', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'kubectl_patch', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'slack_reply_to_thread', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
        findings: [
          { pointer: '/tools/0/annotations/readOnlyHint' },
          { pointer: '/tools/1/annotations/readOnlyHint' },
          { pointer: '/tools/2/annotations/readOnlyHint' },
          { pointer: '/tools/3/annotations/readOnlyHint' },
          { pointer: '/tools/4/annotations/readOnlyHint' },
          { pointer: '/tools/5/annotations/readOnlyHint' },
        ],
      },
      {
        title: 'Writing tools whose object is files, content or a noun that reads, or with a two-word prefix',
        doc: false,
        tools: [
          { name: 'move_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'edit_content', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'edit_details', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'reply_to_review_comment', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'edit_view', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'edit_saved_search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'git_commit_all_changes', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'aws_s3_move_object', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'google_drive_move_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'jira_issue_edit', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
        findings: [
          { pointer: '/tools/0/annotations/readOnlyHint' },
          { pointer: '/tools/1/annotations/readOnlyHint' },
          { pointer: '/tools/2/annotations/readOnlyHint' },
          { pointer: '/tools/3/annotations/readOnlyHint' },
          { pointer: '/tools/4/annotations/readOnlyHint' },
          { pointer: '/tools/5/annotations/readOnlyHint' },
          { pointer: '/tools/6/annotations/readOnlyHint' },
          { pointer: '/tools/7/annotations/readOnlyHint' },
          { pointer: '/tools/8/annotations/readOnlyHint' },
          { pointer: '/tools/9/annotations/readOnlyHint' },
        ],
      },
      {
        title: 'A lookup marked destructive, readOnlyHint left at its default',
        doc: false,
        tools: [{ name: 'search_pages', inputSchema: { type: 'object' }, annotations: { destructiveHint: true } }],
        findings: [{ pointer: '/tools/0/annotations/destructiveHint' }],
      },
      {
        title: 'destructiveHint false is not checked again when readOnlyHint is true',
        doc: false,
        tools: [{ name: 'purge_queue', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, destructiveHint: false } }],
        findings: [{ pointer: '/tools/0/annotations/readOnlyHint' }],
      },
    ],
    correct: [
      {
        title: 'Names and hints that agree',
        tools: [
          { name: 'delete_branch', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true } },
          { name: 'list_branches', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'create_issue', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
        ],
      },
      {
        title: 'A verb inside another word is not the verb',
        tools: [
          { name: 'get_deleted_items', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'undelete_file', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
        ],
        explanation: '"deleted" and "undelete" are whole words of their own; neither is "delete".',
      },
      {
        title: 'Ambiguous names stay silent',
        doc: false,
        tools: [
          { name: 'blog_post_comments', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'get_post', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'remove_background', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'merge_request_notes', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'undo_delete', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'delete_branch_dry_run', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'soft_delete_user', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'on_delete_hook', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'purge_cdn_cache', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: false } },
          { name: 'add', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'pull_request_read', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
      },
      {
        title: 'Read-only tools whose names hold edit, move, commit, apply, patch or reply as nouns',
        doc: false,
        tools: [
          { name: 'get_commit', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'list_commits', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'commit_history', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'latest_commit', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'edit_history', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'best_move', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'patch_notes', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'slack_get_thread_replies', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'reply_count', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'apply_filter', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'apply_regex', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
      },
      {
        title: 'Read-only tools that read about commits, patches, edits, moves and replies',
        doc: false,
        tools: [
          { name: 'commit_get', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'gitlab_commit_get', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'git_commit_show', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'blame_commit', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'commit_author', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'commit_authors', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'commit_files', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'commit_range', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'commit_summary', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'commit_search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'commit_frequency', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'commit_check_runs', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'os_patch_compliance', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'patch_compliance_report', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'missing_patch_report', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'patch_contents', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'patch_file_list', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'suggest_move', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'chess_move_analysis', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'move_analysis', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'move_generator', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'move_validator', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'suggest_edit', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'edit_suggestions', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'page_edit_metrics', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'wiki_edit_stats', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'suggest_reply', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'reply_suggestions', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'reply_sentiment', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'code_review_reply_suggestions', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
          { name: 'apply_eligibility', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
        ],
      },
      {
        title: 'A read verb beside a write verb may well be destructive',
        doc: false,
        tools: [
          { name: 'get_or_create_label', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true } },
          { name: 'find_replace', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false, destructiveHint: true } },
        ],
      },
      {
        title: 'Absent hints are other rules’ business',
        doc: false,
        tools: [
          { name: 'delete_branch', inputSchema: { type: 'object' } },
          { name: 'get_invoice', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } },
        ],
      },
    ],
  },
  check(ctx) {
    if (!ctx.tool.hasName) return;
    const ro = readOnly(ctx.claims);
    const d = destructive(ctx.claims);
    // Every finding below needs readOnlyHint true or an explicit destructiveHint.
    if (ro?.value !== true && d === undefined) return;
    const reading = readName(ctx.tool.name);
    if (reading.verbs.length === 0) return;
    // The name's side of a message, made only for a finding: most tools read here are not reported.
    const nameSide = () => `tool name ${quote(ctx.tool.name)} (${ctx.at('/name')})`;
    const related = (verb: string) => [{ pointer: ctx.at('/name'), message: `the name has the verb ${JSON.stringify(verb)} here` }];

    if (ro?.value === true) {
      const v = writingVerb(reading);
      if (!v) return;
      const does = v.cls === 'delete' ? 'deletes data' : 'changes something';
      ctx.report({
        pointer: ro.pointer,
        message: `The name suggests the tool ${does}: ${nameSide()} has the verb ${JSON.stringify(v.token)}, but ${sideOf(ro)} (heuristic)`,
        suggestion:
          v.cls === 'delete'
            ? `if the tool can delete anything, set readOnlyHint to false (destructiveHint then defaults to true); if it only reads, a name without ${JSON.stringify(v.token)} would stop misleading users and models`
            : `if the tool changes anything, set readOnlyHint to false (and destructiveHint to false if it only adds); if it only reads, a name without ${JSON.stringify(v.token)} would stop misleading users and models`,
        related: related(v.token),
      });
      return;
    }

    if (d?.value === false) {
      if (reading.hedge !== undefined || reading.cache) return;
      const v = firstOf(reading, 'delete');
      if (!v) return;
      ctx.report({
        pointer: d.pointer,
        message: `The name suggests the tool deletes data: ${nameSide()} has the verb ${JSON.stringify(v.token)}, but ${sideOf(d)}, which says its updates are only additive (heuristic)`,
        suggestion: `if the tool can delete or overwrite anything, set destructiveHint to true; if ${JSON.stringify(v.token)} here only hides, archives or unlinks (nothing is lost), keep the hint and say so in the description`,
        related: related(v.token),
      });
      return;
    }

    // readOnlyHint false, or absent: it defaults to false, so destructiveHint true means the same.
    if (d?.value === true && onlyReadingVerbs(reading)) {
      const all = uniqueVerbs([...reading.verbs, ...reading.coVerbs]);
      const roSide = ro ? sideOf(ro) : 'readOnlyHint is absent (it defaults to false)';
      ctx.report({
        pointer: d.pointer,
        message: `The name suggests the tool only reads: ${nameSide()} has only ${all.length === 1 ? `the reading verb ${all[0]}` : `reading verbs (${all.join(', ')})`}, but ${sideOf(d)} and ${roSide} (heuristic)`,
        suggestion: 'if the tool only reads, set readOnlyHint to true (destructiveHint is then ignored); if it does delete or overwrite something, say so in its name or description so users are not surprised by the confirmation prompt',
        related: related(reading.verbs[0]!.token),
      });
    }
  },
});
