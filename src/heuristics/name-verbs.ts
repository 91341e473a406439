/**
 * What a tool's name says it does, for the heuristic rules (name-vs-hints,
 * risky-parameters). Names are read as tokens (src/util/tokens.ts), so verbs match as
 * whole words only. The reading is deliberately conservative: when the name is
 * ambiguous it finds no verb, and the rules stay silent.
 *
 * How a name is read:
 * 1. It is cut into namespace segments at ".", "/", ":" and "__" ("github.delete_branch",
 *    "mcp__github__create_issue"); the verb is looked for in the last segment that has
 *    one (the tool's own name comes last; a namespace may be a noun such as "post").
 * 2. In that segment the *primary verb* is the first token that is a known verb. Tokens
 *    before it are taken as a prefix (a server or object name: "repo_delete",
 *    "github_delete_branch"). Verbs that are also common nouns (post, update, set, push,
 *    merge, list, drop, search, read, deploy) count only as the segment's first token:
 *    "blog_post_comments" and "latest_update" have no verb, and "slack_post_message" is
 *    missed (precision over recall). edit, move, commit, apply, patch and reply are stricter
 *    still (NOUN_LIKE_WRITE_VERBS): see there.
 * 3. A known verb right after a conjunction ("and", "or", "then") is a verb too:
 *    "list_and_delete" → list, delete; "get_or_create_user" → get, create.
 * 4. A known verb right after the primary verb ("find_replace", "read_write") is a
 *    *co-verb*: it never fires a rule on its own (it may be a noun: "list_delete_markers")
 *    but it keeps a rule that wants "only reading verbs" quiet.
 * 5. Not a verb: a verb that is the first word of a known noun phrase ("merge_request",
 *    "set_union", "drop_shadow", "post_process", "read_only"), a verb after an event or
 *    setting word ("on_delete", "auto_delete", "pre_deploy"), and remove/drop/erase or
 *    create whose object is something a pure function strips from its input or makes
 *    from it ("remove_background", "drop_duplicates", "create_chart", "create_embedding"),
 *    and arithmetic "add" (a tool named just "add", "add_numbers", "add_days"), and "apply"
 *    with what a pure function applies ("apply_filter", "apply_regex"). A verb after an
 *    ordinal or recency word ("latest_commit", "last_edit", "best_move") is a noun.
 *    A "soft" delete ("soft_delete_user") is a write: the data stays, marked deleted.
 * 6. A segment that names a cache ("purge_cdn_cache", "clear_cache") is flagged: removing
 *    cached copies loses no data, so it need not be destructive.
 * 7. A *hedge* token anywhere in the segment ("dry", "preview", "simulate", "plan",
 *    "estimate", "validate", "diff", "whatif") says the call may only describe the
 *    change; the rules do not fire delete or write findings on such names.
 *
 * Verbs of no class (check, run, copy, undo, restore, cancel, count, …) are known verbs
 * too: as the primary verb they stop the scan, so "undo_delete", "can_delete",
 * "run_delete_preview" or "check_deploy_status" say nothing about deleting or deploying.
 */
import { segments } from '../util/tokens.js';

export type VerbClass = 'delete' | 'write' | 'read' | 'other';

/** Removal verbs: the tool deletes something. */
export const DELETE_VERBS: readonly string[] = ['delete', 'remove', 'drop', 'destroy', 'purge', 'wipe', 'erase', 'rm', 'rmdir'];

/** Verbs that change state without (necessarily) removing anything. */
export const WRITE_VERBS: readonly string[] = [
  // the catalogue's
  'create', 'update', 'write', 'set', 'send', 'post', 'publish', 'push', 'merge', 'deploy',
  // unambiguous writes
  'insert', 'upsert', 'upload', 'save', 'rename', 'reset', 'unset', 'submit', 'append', 'modify', 'install',
  'uninstall', 'overwrite', 'assign', 'invite', 'add',
  // writes that real servers name tools with (filesystem edit_file and move_file, git_commit,
  // kubectl_apply and kubectl_patch, slack_reply_to_thread)
  'edit', 'move', 'commit', 'apply', 'patch', 'reply',
];

/** Verbs of lookup. */
export const READ_VERBS: readonly string[] = ['get', 'list', 'read', 'search', 'describe', 'fetch', 'find', 'lookup'];

/**
 * Verbs that say nothing either way for these rules. They matter as the primary verb:
 * "undo_delete", "can_delete", "check_deploy_status", "run_query" name no delete or deploy.
 */
export const OTHER_VERBS: readonly string[] = [
  'analyse', 'analyze', 'approve', 'archive', 'ask', 'calculate', 'call', 'can', 'cancel', 'check',
  'clean', 'cleanup', 'clear', 'clone', 'close', 'compare', 'compute', 'confirm', 'convert', 'copy',
  'count', 'diff', 'disable', 'download', 'email', 'enable', 'estimate', 'evaluate', 'exec', 'execute',
  'explain', 'export', 'extract', 'filter', 'format', 'generate', 'has', 'import', 'inspect', 'invoke', 'is',
  'handle', 'login', 'logout', 'mark', 'open', 'parse', 'ping', 'plan', 'prevent', 'preview', 'process', 'prune',
  'pull', 'put', 'query', 'recover', 'refresh', 'reject', 'render', 'replace', 'restart', 'restore', 'resume',
  'revert', 'run', 'scan', 'schedule', 'share', 'should', 'show', 'simulate', 'sort', 'start', 'stop', 'store',
  'subscribe', 'summarise', 'summarize', 'sync', 'test', 'toggle', 'track', 'transform', 'translate', 'trash',
  'trigger', 'truncate', 'undelete', 'undo', 'unlink', 'unsubscribe', 'validate', 'verify', 'view', 'wait',
  'watch',
];

/**
 * Verbs that are common nouns too: they count only as a segment's first token or after a
 * conjunction. ("pull" is of no class, but "pull_request_read" must not stop at it: see
 * NOUN_PHRASES.)
 */
export const AMBIGUOUS_VERBS: ReadonlySet<string> = new Set(['post', 'update', 'set', 'push', 'merge', 'list', 'drop', 'search', 'read', 'deploy', 'lookup']);

/**
 * Writing verbs that name a thing as often as an act (a commit, a patch, an edit, a move, a
 * reply, an application): like AMBIGUOUS_VERBS they count only as the segment's first token
 * (edit_file, move_files, reply_to_review_comment), or after a server, CLI or resource prefix
 * of one or two tokens when nothing, a preposition or at most two more tokens follow
 * (git_commit, kubectl_apply, slack_reply_to_thread, API-patch-page, git_commit_all_changes,
 * aws_s3_move_object, jira_issue_edit). A reading word is the segment's verb instead when it
 * comes before them (suggest_edit, blame_commit) or, as in resource-first names, when it ends
 * the segment and is not also a common noun (commit_get, git_commit_show, patch_file_list; but
 * edit_view, edit_query and edit_saved_search edit). A report noun right after them makes them
 * nouns (move_analysis, reply_suggestions, os_patch_compliance), as do the nouns in
 * NOUN_PHRASES (commit_files, patch_contents).
 */
export const NOUN_LIKE_WRITE_VERBS: ReadonlySet<string> = new Set(['edit', 'move', 'commit', 'apply', 'patch', 'reply']);

/** Words that, as a segment's verb, make a NOUN_LIKE_WRITE_VERBS token a noun read about. */
const READING_WORDS: ReadonlySet<string> = new Set([
  ...READ_VERBS, 'show', 'view', 'suggest', 'suggests', 'analyse', 'analyze', 'validate', 'check', 'inspect', 'explain',
  'compare', 'count', 'summarise', 'summarize', 'blame', 'preview', 'browse', 'query', 'scan', 'audit', 'review',
  'evaluate', 'estimate', 'verify', 'test',
]);
/** Reading words that are common nouns too: at the end of a name they are what is written ("edit_view", "edit_saved_search"). */
const NOUN_READING_WORDS: ReadonlySet<string> = new Set(['view', 'search', 'query', 'test', 'review', 'audit', 'scan', 'preview', 'count', 'check']);

/**
 * Nouns that name a report or an analysis: right after a NOUN_LIKE_WRITE_VERBS token they make
 * it a noun ("commit_summary", "move_analysis"). Not the things a writing tool writes (files,
 * content, details, status, …): "edit_files" and "move_files" write.
 */
const REPORT_NOUNS: ReadonlySet<string> = new Set([
  'summary', 'summaries', 'stats', 'statistics', 'metrics', 'report', 'reports', 'analysis', 'analytics', 'history',
  'log', 'logs', 'count', 'counts', 'frequency', 'compliance', 'suggestions', 'suggestion', 'sentiment', 'eligibility',
  'generator', 'validator', 'analyzer', 'analyser', 'checker', 'trail', 'activity', 'rate', 'score', 'scores', 'quality',
  'timeline', 'graph', 'overview', 'insights', 'trends', 'distribution',
]);
/** Words that may follow a prefixed NOUN_LIKE_WRITE_VERBS token ("slack_reply_to_thread"). */
const PREPOSITIONS: ReadonlySet<string> = new Set(['to', 'into', 'on', 'in', 'at', 'from', 'with', 'for']);

const CLASS = new Map<string, VerbClass>();
for (const v of OTHER_VERBS) CLASS.set(v, 'other');
for (const v of READ_VERBS) CLASS.set(v, 'read');
for (const v of WRITE_VERBS) CLASS.set(v, 'write');
for (const v of DELETE_VERBS) CLASS.set(v, 'delete');

/** The class of a verb token, or undefined when it is not a known verb. */
export function verbClass(token: string): VerbClass | undefined {
  return CLASS.get(token);
}

const CONJUNCTIONS: ReadonlySet<string> = new Set(['and', 'or', 'then']);

/** verb → tokens that, right after it, make it the first word of a noun phrase. */
const NOUN_PHRASES: Readonly<Record<string, readonly string[]>> = {
  commit: ['history', 'log', 'logs', 'message', 'messages', 'status', 'statuses', 'info', 'details', 'diff', 'diffs', 'hash', 'sha', 'id', 'list', 'stats', 'count', 'graph', 'activity', 'files', 'author', 'authors', 'range', 'check', 'checks', 'search'],
  edit: ['history', 'log', 'logs', 'distance', 'count', 'mode', 'link', 'links', 'url', 'permission', 'permissions', 'access', 'status'],
  move: ['history', 'list', 'log', 'logs', 'count', 'number', 'notation', 'options', 'suggestions'],
  patch: ['notes', 'note', 'version', 'versions', 'level', 'status', 'history', 'info', 'details', 'list', 'id', 'set', 'sets', 'contents'],
  reply: ['count', 'counts', 'list', 'rate', 'time', 'times', 'status', 'history', 'template', 'templates'],
  apply: ['status', 'history', 'log', 'logs', 'link', 'url'],
  merge: ['request', 'requests', 'conflict', 'conflicts', 'sort', 'base', 'status', 'statuses'],
  post: ['process', 'processing', 'processor', 'mortem', 'code', 'codes', 'count', 'counts', 'stats', 'metrics', 'views'],
  deploy: ['key', 'keys', 'status', 'statuses', 'history', 'log', 'logs'],
  set: ['union', 'intersection', 'difference', 'operations', 'theory', 'cover', 'point', 'points'],
  drop: ['shadow', 'down', 'zone', 'zones', 'rate'],
  read: ['only', 'receipt', 'receipts', 'replica', 'replicas'],
  pull: ['request', 'requests'],
  push: ['notification', 'notifications'],
  update: ['available', 'channel', 'channels'],
  search: ['results', 'result', 'engine', 'engines', 'index', 'history', 'query', 'queries'],
};

/** Tokens that, right before a verb, make it an event or setting name ("on_delete", "auto_delete"). */
const MODIFIERS: ReadonlySet<string> = new Set([
  'auto', 'on', 'pre', 'before', 'after', 'allow', 'allowed', 'no', 'not', 'non',
  // ordinals and recency: the verb is a noun ("latest_commit", "last_edit", "best_move")
  'latest', 'last', 'recent', 'first', 'next', 'previous', 'prev', 'current', 'initial', 'best', 'head',
]);

/** Verbs that may strip something from the call's input rather than delete from the environment. */
const STRIP_VERBS: ReadonlySet<string> = new Set(['remove', 'drop', 'erase']);
/** Objects a pure function strips from its input: "remove_background" returns a new image. */
const PURE_REMOVALS: ReadonlySet<string> = new Set([
  'background', 'bg', 'whitespace', 'whitespaces', 'duplicates', 'dupes', 'punctuation', 'accents', 'diacritics',
  'formatting', 'markup', 'html', 'markdown', 'noise', 'stopwords', 'emoji', 'emojis', 'watermark', 'outliers',
  'nulls', 'na', 'nan', 'newlines', 'exif',
]);
/** Arithmetic: "add" alone or "add_numbers", "add_days" compute; "add_comment" writes. */
const PURE_ADDITIONS: ReadonlySet<string> = new Set([
  'numbers', 'number', 'two', 'integers', 'ints', 'floats', 'values', 'vectors', 'matrices', 'days', 'hours',
  'minutes', 'seconds', 'weeks', 'months', 'years', 'time', 'duration', 'durations', 'date', 'dates',
]);
/** What a pure function applies to its input: "apply_filter" returns the filtered data. */
const PURE_APPLICATIONS: ReadonlySet<string> = new Set([
  'filter', 'filters', 'formula', 'formulas', 'regex', 'mask', 'function', 'transform', 'transforms', 'transformation',
  'transformations',
]);
/** Objects a pure function makes from its input: "create_chart" returns an image. */
const PURE_CREATIONS: ReadonlySet<string> = new Set([
  'chart', 'charts', 'diagram', 'diagrams', 'plot', 'plots', 'visualization', 'visualisation', 'embedding',
  'embeddings', 'qr', 'qrcode', 'uuid', 'uuids', 'hash', 'regex', 'slug', 'summary',
]);

/** Tokens that make a name describe a change rather than make it. */
export const HEDGES: ReadonlySet<string> = new Set([
  'dry', 'dryrun', 'preview', 'simulate', 'simulation', 'simulated', 'whatif', 'estimate', 'plan', 'validate',
  'validation', 'diff', 'impact',
]);

/** Words that make a removal a cache operation. */
export const CACHE_WORDS: ReadonlySet<string> = new Set(['cache', 'caches', 'cached']);

export interface NameVerb {
  token: string;
  cls: VerbClass;
  /** Index of the token in the segment. */
  index: number;
  /** primary: the first verb; conjoined: after and/or/then; co-verb: right after the primary verb. */
  role: 'primary' | 'conjoined' | 'co-verb';
}

export interface NameReading {
  /** The tokens of the segment the verbs were read from (empty when no segment has a verb). */
  tokens: string[];
  /** Verbs that may fire a rule: the primary verb and conjoined verbs. */
  verbs: NameVerb[];
  /** Co-verbs: never fire a rule, but count when a rule asks whether *every* verb reads. */
  coVerbs: NameVerb[];
  /** The hedge token found, if any. */
  hedge?: string;
  /** Whether the segment names a cache ("purge_cdn_cache"): removing from it loses no data. */
  cache?: boolean;
}

/**
 * What the tokens before the one isVerbAt looks at hold: whether one is a reading word, and how
 * many are not digits. readSegment counts them as it goes, so reading a name stays linear in its
 * tokens (re-reading the prefix at every token made a long name of "edit_" cost seconds).
 */
interface Before {
  reading: boolean;
  words: number;
}

function isVerbAt(tokens: readonly string[], i: number, afterConjunction: boolean, before?: Before): boolean {
  const t = tokens[i]!;
  const cls = verbClass(t);
  if (!cls) return false;
  if (AMBIGUOUS_VERBS.has(t) && i > 0 && !afterConjunction) return false;
  const next = tokens[i + 1];
  if (NOUN_LIKE_WRITE_VERBS.has(t)) {
    if (next !== undefined && REPORT_NOUNS.has(next)) return false;
    if (!afterConjunction) {
      // a reading word before it is the segment's verb (suggest_edit, blame_commit); one that
      // ends the segment is the verb of a resource-first name (commit_get, git_commit_show)
      // unless it is a noun too (edit_view, edit_saved_search)
      if (before ? before.reading : tokens.slice(0, i).some((x) => READING_WORDS.has(x))) return false;
      const last = tokens[tokens.length - 1]!;
      if (i < tokens.length - 1 && READING_WORDS.has(last) && !NOUN_READING_WORDS.has(last)) return false;
      // digits belong to the word before them ("aws_s3_move_object" → aws, s, 3: a two-word prefix)
      if ((before ? before.words : tokens.slice(0, i).filter((x) => !/^\d+$/.test(x)).length) > 2) return false;
      if (i > 0 && !(next === undefined || PREPOSITIONS.has(next) || tokens.length - i - 1 <= 2)) return false;
    }
  }
  if (next !== undefined && NOUN_PHRASES[t]?.includes(next)) return false;
  const prev = tokens[i - 1];
  if (prev !== undefined && !afterConjunction && MODIFIERS.has(prev)) return false;
  if (next !== undefined && STRIP_VERBS.has(t) && PURE_REMOVALS.has(next)) return false;
  if (next !== undefined && t === 'create' && PURE_CREATIONS.has(next)) return false;
  if (next !== undefined && t === 'apply' && PURE_APPLICATIONS.has(next)) return false;
  if (t === 'add' && (tokens.length === 1 || (next !== undefined && PURE_ADDITIONS.has(next)))) return false;
  return true;
}

/** The class of the verb at i: a "soft" delete is a write (the data stays, marked deleted). */
function classAt(tokens: readonly string[], i: number): VerbClass {
  const cls = verbClass(tokens[i]!)!;
  return cls === 'delete' && tokens[i - 1] === 'soft' ? 'write' : cls;
}

/** Whether a token is all digits, as /^\d+$/ reads it (tokens are never empty). */
function isDigits(t: string): boolean {
  if (t.length === 0) return false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

function readSegment(tokens: string[]): NameReading | undefined {
  let primary = -1;
  const before: Before = { reading: false, words: 0 };
  for (let i = 0; i < tokens.length; i++) {
    if (isVerbAt(tokens, i, false, before)) {
      primary = i;
      break;
    }
    const t = tokens[i]!;
    if (READING_WORDS.has(t)) before.reading = true;
    if (!isDigits(t)) before.words++;
  }
  if (primary < 0) return undefined;
  const verbs: NameVerb[] = [{ token: tokens[primary]!, cls: classAt(tokens, primary), index: primary, role: 'primary' }];
  const coVerbs: NameVerb[] = [];
  const nextTok = tokens[primary + 1];
  if (nextTok !== undefined && !AMBIGUOUS_VERBS.has(nextTok) && verbClass(nextTok)) {
    coVerbs.push({ token: nextTok, cls: verbClass(nextTok)!, index: primary + 1, role: 'co-verb' });
  }
  for (let i = primary + 1; i < tokens.length - 1; i++) {
    if (!CONJUNCTIONS.has(tokens[i]!)) continue;
    if (isVerbAt(tokens, i + 1, true)) verbs.push({ token: tokens[i + 1]!, cls: classAt(tokens, i + 1), index: i + 1, role: 'conjoined' });
  }
  const hedge = tokens.find((t) => HEDGES.has(t));
  const cache = tokens.some((t) => CACHE_WORDS.has(t));
  const reading: NameReading = { tokens, verbs, coVerbs };
  if (hedge !== undefined) reading.hedge = hedge;
  if (cache) reading.cache = cache;
  return reading;
}

function read(name: string): NameReading {
  const segs = segments(name);
  for (let s = segs.length - 1; s >= 0; s--) {
    const reading = readSegment(segs[s]!);
    if (reading) return reading;
  }
  return { tokens: [], verbs: [], coVerbs: [] };
}

/** The last names read: the rules that read names (name-vs-hints, risky-parameters) read the same tool's name in turn. */
const recent: { name: string; reading: NameReading }[] = [];
const RECENT = 4;

/**
 * Read the verbs of a tool name (see the module comment for how). A reading is shared with
 * the next rules that read the same name and must not be changed.
 */
export function readName(name: string): NameReading {
  for (const r of recent) if (r.name === name) return r.reading;
  const reading = read(name);
  if (recent.length >= RECENT) recent.shift();
  recent.push({ name, reading });
  return reading;
}

/** The first verb of a class among the verbs that may fire a rule. */
export function firstOf(reading: NameReading, ...classes: VerbClass[]): NameVerb | undefined {
  for (const cls of classes) {
    const v = reading.verbs.find((x) => x.cls === cls);
    if (v) return v;
  }
  return undefined;
}

/**
 * The verb that makes the name contradict readOnlyHint true (name-vs-hints' reading): the first
 * delete, else write, verb of a name that does not hedge ("get_or_create" does).
 */
export function writingVerb(reading: NameReading): NameVerb | undefined {
  return reading.hedge === undefined ? firstOf(reading, 'delete', 'write') : undefined;
}

/** Whether the name has verbs and every one of them (co-verbs included) is a reading verb. */
export function onlyReadingVerbs(reading: NameReading): boolean {
  const all = [...reading.verbs, ...reading.coVerbs];
  return all.length > 0 && all.every((v) => v.cls === 'read');
}
