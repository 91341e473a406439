/**
 * The readers behind the heuristic rules (name-vs-hints, risky-parameters,
 * description-vs-hints): what a name, a description and an inputSchema are taken to say.
 * The rule examples cover the rules end to end; these cover the many edge cases.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstOf, onlyReadingVerbs, readName } from '../src/heuristics/name-verbs.js';
import { scanDescription, statedEffects } from '../src/heuristics/phrases.js';
import { MAX_PARAMETER_DEPTH, WALK_BUDGET, riskyParameters, type WalkOutcome } from '../src/heuristics/parameters.js';
import { referenceScan } from './helpers/phrases-reference.js';
import { assertProperty } from './helpers/property.js';

const verbs = (name: string) => readName(name).verbs.map((v) => `${v.token}:${v.cls}`);

describe('readName', () => {
  it.each([
    ['delete_branch', ['delete:delete']],
    ['deleteBranch', ['delete:delete']],
    ['repo_delete', ['delete:delete']],
    ['github_delete_branch', ['delete:delete']],
    ['github.delete_branch', ['delete:delete']],
    ['mcp__github__create_issue', ['create:write']],
    ['files/list', ['list:read']],
    ['post.get', ['get:read']],
    ['delete.branch', ['delete:delete']],
    ['get_deleted_items', ['get:read']],
    ['undelete', ['undelete:other']],
    ['undelete_file', ['undelete:other']],
    ['undo_delete', ['undo:other']],
    ['can_delete', ['can:other']],
    ['reset_password', ['reset:write']],
    ['set_reminder', ['set:write']],
    ['get_post', ['get:read']],
    ['blog_post_comments', []],
    ['latest_update', []],
    ['slack_post_message', []],
    ['list_and_delete', ['list:read', 'delete:delete']],
    ['get_or_create_user', ['get:read', 'create:write']],
    ['list_delete_markers', ['list:read']],
    ['merge_request_diff', ['diff:other']],
    ['merge_request_notes', []],
    ['set_union', []],
    ['drop_shadow', []],
    ['remove_background', []],
    ['drop_duplicates', []],
    ['delete_duplicates', ['delete:delete']],
    ['create_chart', []],
    ['on_delete_hook', []],
    ['auto_delete_settings', []],
    ['soft_delete_user', ['delete:write']],
    ['hard_delete_user', ['delete:delete']],
    ['mark_as_read', ['mark:other']],
    ['check_deploy_status', ['check:other']],
    ['run_query', ['run:other']],
    ['dataset_list', []],
    ['dataset_delete', ['delete:delete']],
    ['HTTPDeleteRequest', ['delete:delete']],
    ['deploy_keys_list', []],
    ['deploy_status', []],
    ['deploy_app', ['deploy:write']],
    ['pull_request_read', []],
    ['pull_request_review_write', ['write:write']],
    ['add', []],
    ['add_numbers', []],
    ['add_days', []],
    ['add_issue_comment', ['add:write']],
    ['git_reset', ['reset:write']],
    ['API-post-search', []],
    ['API-delete-a-block', ['delete:delete']],
    ['edit_file', ['edit:write']],
    ['move_file', ['move:write']],
    ['git_commit', ['commit:write']],
    ['kubectl_apply', ['apply:write']],
    ['kubectl_patch', ['patch:write']],
    ['slack_reply_to_thread', ['reply:write']],
    ['API-patch-page', ['patch:write']],
    ['API-move-page', ['move:write']],
    ['get_commit', ['get:read']],
    ['search_commits', ['search:read']],
    ['commit_history', []],
    ['commit_message', []],
    ['latest_commit', []],
    ['last_edit', []],
    ['edit_history', []],
    ['best_move', []],
    ['move_list', []],
    ['patch_notes', []],
    ['reply_count', ['count:other']],
    ['apply_filter', ['filter:other']],
    ['apply_regex', []],
    ['apply_migration', ['apply:write']],
    ['slack_get_thread_replies', ['get:read']],
    ['', []],
  ])('%s', (name, expected) => {
    expect(verbs(name)).toEqual(expected);
  });

  it('notices caches', () => {
    expect(readName('purge_cdn_cache').cache).toBe(true);
    expect(readName('delete_branch').cache).toBeUndefined();
    expect(statedEffects('Purges cached content from the CDN.')[0]).toMatchObject({ kind: 'deletion', cache: true });
    expect(statedEffects('Deletes the file.')[0]?.cache).toBeUndefined();
  });

  it('finds hedges', () => {
    expect(readName('delete_branch_dry_run').hedge).toBe('dry');
    expect(readName('preview_deploy').hedge).toBe('preview');
    expect(readName('delete_branch').hedge).toBeUndefined();
  });

  it('picks the strongest class first', () => {
    expect(firstOf(readName('list_and_delete'), 'delete', 'write')?.token).toBe('delete');
    expect(firstOf(readName('get_or_create_user'), 'delete', 'write')?.token).toBe('create');
    expect(firstOf(readName('get_user'), 'delete', 'write')).toBeUndefined();
  });

  it('says a name only reads when every verb, co-verbs included, reads', () => {
    expect(onlyReadingVerbs(readName('get_user'))).toBe(true);
    expect(onlyReadingVerbs(readName('search_and_read'))).toBe(true);
    expect(onlyReadingVerbs(readName('find_replace'))).toBe(false);
    expect(onlyReadingVerbs(readName('get_or_create_user'))).toBe(false);
    expect(onlyReadingVerbs(readName('fetch_and_process'))).toBe(false);
    expect(onlyReadingVerbs(readName('user_profile'))).toBe(false);
  });
});

const effects = (text: string) => statedEffects(text).map((m) => `${m.kind}:${m.text}`);
const discarded = (text: string) => scanDescription(text).filter((m) => m.discarded).map((m) => `${m.discarded}:${m.text}`);

describe('statedEffects', () => {
  it.each([
    ['Permanently deletes the branch.', ['deletion:Permanently deletes']],
    ['Deletes the file permanently.', ['deletion:Deletes the file permanently']],
    ['Permanently and irreversibly deletes the repository.', ['deletion:Permanently and irreversibly deletes']],
    ['Delete a branch from the repository.', ['deletion:Delete']],
    ['- Delete a branch', ['deletion:Delete']],
    ['Deletes a label. This action cannot be undone.', ['deletion:Deletes', 'irreversible:cannot be undone']],
    ['This operation is irreversible.', ['irreversible:irreversible']],
    ['Note that this permanently removes the item.', ['deletion:permanently removes']],
    ['Use this tool when the user asks to permanently delete a file.', ['deletion:permanently delete']],
    ['Requests permanent deletion of the account.', ['deletion:permanent deletion']],
    ['This tool is read-only.', ['read-only:This tool is read-only']],
    ['Read-only: lists the open pull requests.', ['read-only:Read-only']],
    ['[Read-only] Lists files.', ['read-only:Read-only']],
    ['Performs a read-only query against the warehouse.', ['read-only:a read-only query']],
    ['This is read only and safe to call.', ['read-only:This is read only']],
    ['Archives the thread and deletes its attachments.', ['deletion:deletes']],
    ['Moves the issue, then permanently deletes it.', ['deletion:permanently deletes']],
    ['This tool will immediately delete the file permanently.', ['deletion:delete the file permanently']],
    ['WARNING: This permanently deletes the repository and cannot be undone!', ['deletion:permanently deletes', 'irreversible:cannot be undone']],
    // The filesystem reference server's write_file.
    [
      'Create a new file or completely overwrite an existing file with new content. Use with caution as it will overwrite existing files without warning.',
      ['overwrite:overwrite', 'overwrite:overwrite'],
    ],
    ['Overwrites the target file.', ['overwrite:Overwrites']],
    ['Overwrite the page content with the given markdown.', ['overwrite:Overwrite']],
    ['Writes the file, overwriting its content.', ['overwrite:overwriting']],
    ['Uploads the object; existing objects will be overwritten.', ['overwrite:will be overwritten']],
    ['Existing keys are silently overwritten.', ['overwrite:are silently overwritten']],
    ['Use this tool to overwrite a document.', ['overwrite:overwrite']],
    ['Be careful, since this tool overwrites local edits.', ['overwrite:overwrites']],
    ['Use with caution as it permanently deletes the repository.', ['deletion:permanently deletes']],
  ])('%s', (text, expected) => {
    expect(effects(text)).toEqual(expected);
  });

  it.each([
    'Lists files. Does not delete anything.',
    'Never deletes anything.',
    'Nothing is permanently removed.',
    'This tool does not permanently delete files.',
    'Deletes nothing; it only reports what would go.',
    'Items in the trash are permanently deleted after 30 days.',
    'Fetches a page and removes scripts from the HTML.',
    'Lists deleted items.',
    'Returns the undelete history.',
    'Checks whether a migration is irreversible.',
    'To delete a file, use delete_file.',
    'Lists files. Use delete_file to permanently delete one.',
    'Archives the issue instead of permanently deleting it.',
    'Creates a read-only token.',
    'Mounts the volume read-only.',
    'Returns a read-only replica endpoint.',
    'Returns the config. It is read-only.',
    'This tool is not read-only.',
    'Lists backups which cannot be undone once expired.',
    'Deleted items are listed.',
    'Returns a permanent link.',
    'Lists tokens. The server deletes expired tokens automatically.',
    'Returns backups; the retention job permanently removes old ones.',
    'Use this to find files you may want to delete.',
    'Creates a new file. Never overwrites an existing one.',
    'Writes the file. Does not overwrite existing files.',
    'Appends lines without overwriting anything.',
    "Copies the file; it won't overwrite the target.",
    'No overwrite: fails when the path exists.',
    'Existing entries are never overwritten.',
    'Overwrite protection is on by default.',
    'Set overwrite to true to replace an existing file.',
    'overwrite: whether to replace an existing file.',
    'Pass overwrite=true to replace the file.',
    'If a note with that title exists, it is overwritten.',
    'To overwrite a file, use write_file instead.',
    'Uploads the file, failing rather than overwriting.',
    'The sync job overwrites stale rows nightly.',
    'Returns the previous content of a file that was overwritten.',
    'Refuses to overwrite an existing branch.',
  ])('nothing counts in %j', (text) => {
    expect(effects(text)).toEqual([]);
  });

  it('says why a match was discarded', () => {
    expect(discarded('Never deletes anything.')).toEqual(['negated:deletes']);
    expect(discarded('This tool, if asked, permanently deletes the file.')).toEqual(['conditional:permanently deletes']);
    expect(discarded('If you want to permanently delete, call purge_item.')).toEqual([]);
    expect(discarded('To delete a file, use delete_file.')).toEqual([]);
    expect(discarded('To permanently delete a file, use delete_file.')).toEqual(['other-tool:permanently delete']);
    expect(discarded('Never overwrites an existing file.')).toEqual(['negated:overwrites']);
    expect(discarded('Does not overwrite existing files.')).toEqual(['negated:overwrite']);
    expect(discarded('If the file exists, it is overwritten.')).toEqual(['conditional:is overwritten']);
  });

  it('marks an overwrite of a cache, as a deletion of one', () => {
    expect(statedEffects('Refreshes the index and overwrites the cached results.')[0]).toMatchObject({ kind: 'overwrite', cache: true });
    expect(statedEffects('Overwrites the file.')[0]?.cache).toBeUndefined();
  });

  it('reports offsets into the description', () => {
    const [m] = statedEffects('Moves the issue, then permanently deletes it.');
    expect(m).toMatchObject({ text: 'permanently deletes', index: 22 });
  });
});

const risky = (props: Record<string, unknown>, opts = {}) =>
  riskyParameters({ type: 'object', properties: props }, '/tools/0/inputSchema', opts).map(
    (r) => `${r.path}:${r.kind}:${r.evidence.map((e) => `${e.text}${e.againstReadOnly ? '+ro' : ''}${e.againstNonDestructive ? '+nd' : ''}`).join(',')}`,
  );

describe('riskyParameters', () => {
  const bool = { type: 'boolean' };
  it('reads flags by name', () => {
    expect(risky({ force: bool })).toEqual(['force:overwrite:force+nd']);
    expect(risky({ cascade: bool })).toEqual(['cascade:cascade:cascade+ro+nd']);
    expect(risky({ purge: bool })).toEqual(['purge:removal:purge+ro+nd']);
    expect(risky({ drop: bool })).toEqual(['drop:removal:drop+ro+nd']);
    expect(risky({ drop_existing: bool })).toEqual(['drop_existing:removal:drop+ro+nd']);
    expect(risky({ removeSourceFiles: bool })).toEqual(['removeSourceFiles:removal:remove+ro+nd']);
    expect(risky({ overwrite: bool })).toEqual(['overwrite:overwrite:overwrite+ro+nd']);
    expect(risky({ force_push: bool })).toEqual(['force_push:overwrite:force+nd']);
    expect(risky({ dry_run: bool })).toEqual(['dry_run:dry-run:dry_run+ro']);
    expect(risky({ deleteAfterRead: bool })).toEqual(['deleteAfterRead:removal:delete+ro+nd']);
  });

  it('leaves alone what is normal on a reading tool', () => {
    expect(
      risky({
        recursive: bool,
        all: bool,
        include_deleted: bool,
        show_removed: bool,
        remove_duplicates: bool,
        drop_empty: bool,
        truncate: bool,
        prune: bool,
        force_refresh: bool,
        purge_cache: bool,
        allow_delete: bool,
      }),
    ).toEqual([]);
  });

  it('looks at the type: only flags a caller can turn on', () => {
    expect(risky({ force: { type: 'string' } })).toEqual([]);
    expect(risky({ force: { type: 'boolean', const: false } })).toEqual([]);
    expect(risky({ force: { enum: [false] } })).toEqual([]);
    expect(risky({ force: { anyOf: [{ type: 'boolean' }, { type: 'null' }] } })).toEqual(['force:overwrite:force+nd']);
    expect(risky({ force: { type: ['boolean', 'null'] } })).toEqual(['force:overwrite:force+nd']);
    expect(risky({ force: { default: false } })).toEqual(['force:overwrite:force+nd']);
    expect(risky({ force: { description: 'force it' } })).toEqual([]);
  });

  it('looks at the description for output shaping and caches', () => {
    expect(risky({ drop: { type: 'boolean', description: 'Drop empty rows from the results.' } })).toEqual([]);
    expect(risky({ force: { type: 'boolean', description: 'Bypass the cache.' } })).toEqual([]);
    expect(risky({ force: { type: 'boolean', description: 'Overwrite the output file if it exists.' } })).toEqual(['force:overwrite:force+nd']);
  });

  it('follows nested objects, arrays, branches and local refs, but not filters', () => {
    expect(risky({ options: { type: 'object', properties: { overwrite: bool } } })).toEqual(['options.overwrite:overwrite:overwrite+ro+nd']);
    expect(risky({ files: { type: 'array', items: { type: 'object', properties: { overwrite: bool } } } })).toEqual([
      'files[].overwrite:overwrite:overwrite+ro+nd',
    ]);
    expect(risky({ filter: { type: 'object', properties: { deleted: bool, purge: bool } } })).toEqual([]);
    const withRef = riskyParameters(
      { type: 'object', properties: { opts: { $ref: '#/$defs/Opts' } }, $defs: { Opts: { type: 'object', properties: { cascade: bool } } } },
      '/tools/0/inputSchema',
    );
    expect(withRef.map((r) => [r.path, r.pointer])).toEqual([['opts.cascade', '/tools/0/inputSchema/$defs/Opts/properties/cascade']]);
  });

  it('finds a flag nested deeper than real schemas go, or behind a long chain of refs (it stopped at 8 of each)', () => {
    const nest = (levels: number): Record<string, unknown> => (levels === 0 ? { type: 'object', properties: { purge: bool } } : { type: 'object', properties: { o: nest(levels - 1) } });
    expect(riskyParameters(nest(12), '').map((r) => r.path)).toEqual([`${'o.'.repeat(12)}purge`]);
    expect(riskyParameters(nest(MAX_PARAMETER_DEPTH + 1), '')).toEqual([]);
    const hops = 20;
    const $defs: Record<string, unknown> = { [`D${hops}`]: { type: 'object', properties: { purge: bool } } };
    for (let i = 0; i < hops; i++) $defs[`D${i}`] = { $ref: `#/$defs/D${i + 1}` };
    expect(riskyParameters({ type: 'object', properties: { opts: { $ref: '#/$defs/D0' } }, $defs }, '').map((r) => [r.path, r.pointer])).toEqual([['opts.purge', `/$defs/D${hops}/properties/purge`]]);
  });

  it('a huge subtree deep down does not use up the walk before a shallow parameter after it', () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`f${i}`, { type: 'string' }])) };
    let spec: Record<string, unknown> = wide;
    for (let i = 8; i >= 0; i--) spec = { type: 'object', properties: { [`level${i}`]: spec } };
    const schema = { type: 'object', properties: { spec, options: { type: 'object', properties: { delete_after: bool } } } };
    expect(riskyParameters(schema, '').map((r) => r.path)).toEqual(['options.delete_after']);
  });

  it('says when its budget ran out before the end of the schema, and only then', () => {
    // A flag nine levels down, before a sibling wider than the budget: the first pass spends it all.
    let deep: Record<string, unknown> = { type: 'object', properties: { purge: bool } };
    for (let i = 0; i < 9; i++) deep = { type: 'object', properties: { [`level${i}`]: deep } };
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: WALK_BUDGET + 1000 }, (_, i) => [`f${i}`, { type: 'object', properties: { x: { type: 'string' } } }])) };
    const stopped: WalkOutcome = {};
    expect(riskyParameters({ type: 'object', properties: { deep, wide } }, '', {}, stopped)).toEqual([]);
    expect(stopped).toEqual({ stopped: { visited: WALK_BUDGET } });
    // Wide leaves cost budget but hide nothing: a walk that ends among them is not stopped short.
    const leaves = { type: 'object', properties: Object.fromEntries(Array.from({ length: WALK_BUDGET + 1000 }, (_, i) => [`f${i}`, { type: 'string' }])) };
    const done: WalkOutcome = {};
    riskyParameters(leaves, '', {}, done);
    expect(done).toEqual({});
    // Cycles end the walk early, not the budget.
    const cyclic: WalkOutcome = {};
    riskyParameters({ type: 'object', properties: { node: { $ref: '#/$defs/Node' } }, $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' } } } } }, '', {}, cyclic);
    expect(cyclic).toEqual({});
  });

  it('survives cyclic refs', () => {
    const schema = { type: 'object', properties: { node: { $ref: '#/$defs/Node' } }, $defs: { Node: { type: 'object', properties: { child: { $ref: '#/$defs/Node' }, purge: bool } } } };
    expect(riskyParameters(schema, '').map((r) => r.path)).toEqual(['node.purge']);
  });

  it('reads operation selectors and conflict policies by their values', () => {
    expect(risky({ action: { type: 'string', enum: ['list', 'create', 'delete'] } })).toEqual(['action:operation:create+ro,delete+ro+nd']);
    expect(risky({ mode: { enum: ['read', 'write'] } })).toEqual(['mode:operation:write+ro']);
    expect(risky({ method: { type: 'string', enum: ['GET', 'POST', 'DELETE'] } })).toEqual(['method:operation:POST+ro,DELETE+ro+nd']);
    expect(risky({ merge_method: { enum: ['merge', 'squash', 'rebase'] } })).toEqual([]);
    expect(risky({ delivery_method: { enum: ['email', 'post'] } })).toEqual([]);
    expect(risky({ file_action: { enum: ['read', 'delete'] } })).toEqual(['file_action:operation:delete+ro+nd']);
    expect(risky({ mode: { enum: ['fast', 'accurate'] } })).toEqual([]);
    expect(risky({ action: { enum: ['list', 'delete'] } }, { skipOperations: true })).toEqual([]);
    expect(risky({ if_exists: { enum: ['fail', 'replace', 'append'] } })).toEqual(['if_exists:overwrite:replace+ro+nd']);
    expect(risky({ on_conflict: { enum: ['skip', 'overwrite'] } })).toEqual(['on_conflict:overwrite:overwrite+ro+nd']);
    expect(risky({ event_type: { enum: ['create', 'delete'] } })).toEqual([]);
    // State-changing operations (kubectl rollout), against readOnlyHint true only; reading words and the tool's own session stay out.
    expect(risky({ subCommand: { type: 'string', enum: ['history', 'pause', 'restart', 'resume', 'status', 'undo'] } })).toEqual([
      'subCommand:operation:pause+ro,restart+ro,resume+ro,undo+ro',
    ]);
    expect(risky({ operation: { enum: ['cordon', 'drain', 'uncordon', 'kill', 'rollback'] } })).toEqual([
      'operation:operation:cordon+ro,drain+ro,uncordon+ro,kill+ro,rollback+ro',
    ]);
    expect(risky({ action: { enum: ['start', 'stop', 'status', 'get', 'list', 'describe', 'history', 'logs', 'watch', 'run', 'cancel', 'scale', 'rotate'] } })).toEqual([]);
  });

  it('points at the offending enum value', () => {
    const [r] = riskyParameters({ type: 'object', properties: { action: { enum: ['get', 'delete'] } } }, '/tools/0/inputSchema');
    expect(r!.evidence[0]!.pointer).toBe('/tools/0/inputSchema/properties/action/enum/1');
  });
});

describe('hostile inputs', () => {
  it('scans a huge description quickly', () => {
    const text = 'This tool deletes files, never deletes anything. '.repeat(50_000);
    const t = Date.now();
    expect(statedEffects(text).length).toBeGreaterThan(0);
    expect(Date.now() - t).toBeLessThan(2000);
  });

  it('walks deep and wide schemas within bounds', () => {
    let deep: Record<string, unknown> = { type: 'object', properties: { purge: { type: 'boolean' } } };
    for (let i = 0; i < 5000; i++) deep = { type: 'object', properties: { next: deep } };
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, { type: 'object', properties: { force: { type: 'boolean' } } }])) };
    const t = Date.now();
    expect(riskyParameters(deep, '')).toEqual([]);
    expect(riskyParameters(wide, '').length).toBeGreaterThan(0);
    expect(Date.now() - t).toBeLessThan(2000);
  });

  // Each of these took seconds when a check re-read what came before at every step (probe
  // BK: 1-10 s here); the bound is 1 s (1.5 s for the four descriptions), where they now take 10-90 ms.
  it('scans long sentences of many matches in time linear in the description', () => {
    const texts = ['and wipes ', 'x to wipes ', 'deletes ', 'such as deletes and '].map((u) => u.repeat(Math.floor(20_000 / u.length)));
    const t = performance.now();
    const found = texts.map((text) => scanDescription(text));
    expect(performance.now() - t).toBeLessThan(1500);
    expect(found.map((f) => f.length)).toEqual([2000, 0, 1, 0]);
    expect(found[0]!.every((m) => m.kind === 'deletion' && m.discarded === undefined)).toBe(true);
  });

  it('tests a parameter description of many "which" in linear time', () => {
    const t = performance.now();
    const found = riskyParameters({ type: 'object', properties: { action: { type: 'string', enum: ['delete', 'list'], description: 'which '.repeat(40_000) } } }, '');
    expect(performance.now() - t).toBeLessThan(1000);
    expect(found.map((p) => p.name)).toEqual(['action']);
  });

  it('reads the verbs of a long name of noun-like verbs in linear time', () => {
    const t = performance.now();
    const reading = readName(`${'edit_'.repeat(40_000)}get`);
    expect(performance.now() - t).toBeLessThan(1000);
    expect(reading.verbs.map((v) => [v.token, v.index])).toEqual([['get', 40_000]]);
  });

  it('tokenises a long name quickly', () => {
    const t = Date.now();
    expect(readName('aB'.repeat(100_000)).verbs).toEqual([]);
    expect(Date.now() - t).toBeLessThan(2000);
  });
});

describe('scanDescription: the word index', () => {
  // The checks look the words before a match up in an index of the description; re-reading the
  // text before each match (the reference) must give the same matches, reasons and cache marks.
  const word = fc.constantFrom(
    ...('this tool it will also permanently deletes delete deleted wipes erases purges destroys removes drops overwrites overwrite ' +
      "overwriting overwritten is are be gets cannot can't undone reversed irreversible read-only read only operation a the server " +
      "user files cache cached caches and or then but however as such well because since so if whether unless which who that note " +
      "means not no never nothing none without don't doesn't nor to use call see delete_file instead rather than when every night " +
      'by backup job on each deploy an any all its them protection mode true').split(' '),
    'Deletes', 'Delete', 'This', 'Read-only', 'x'.repeat(40), `don${'a'.repeat(40)}`,
  );
  const gap = fc.constantFrom(' ', ' ', ' ', ' ', ', ', '; ', ': ', '. ', '? ', ' - ', '—', '(', ') ', '\n\n', '\n- ', '\n1. ', "'", '’', '\u212a', '\u0130', ' `', '"', '> ');
  const description = fc.array(fc.tuple(word, gap), { minLength: 1, maxLength: 30 }).map((parts) => parts.map(([w, g]) => w + g).join('').trim());

  it('finds what re-reading the text before each match finds', () => {
    assertProperty(
      fc.property(description, (text) => {
        expect(scanDescription(text)).toEqual(referenceScan(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with the reference on quotes, apostrophes and case-folding letters next to a match', () => {
    for (const text of [
      "The tool 'deletes' files.",
      'Use this tool when you want to\u212a deletes files.',
      "It won’t deletes’cache files, and wipes'cache too.",
      '\u0130f it deletes files, so it permanently deletes the cache.',
      'Resets the cache as well as deletes the temporary files; such as deletes and wipes.',
      `${"x'".repeat(30)}deletes${"'x".repeat(30)} things`,
    ]) {
      expect(scanDescription(text)).toEqual(referenceScan(text));
    }
  });
});
