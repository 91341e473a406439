/**
 * Phrases in a tool description that state what the call does, for description-vs-hints.
 * Conservative by design: a phrase counts only when it reads as a statement about this
 * tool's own effect, and every match is checked for negation and for sentences that
 * talk about something else.
 *
 * Kinds:
 * - deletion: "permanently deletes", "deletes … permanently", "permanent deletion", a
 *   third-person "deletes"/"erases"/"destroys"/"purges"/"wipes", or a sentence that starts
 *   with the imperative "Delete …" ("Delete a branch."). "removes" and "drops" count
 *   only with "permanently": on their own they describe output filtering too often
 *   ("removes scripts from the page", "drops empty rows").
 * - overwrite: "overwrites", "overwrite", "overwriting" with this tool as the subject (see
 *   below: "Create a new file or completely overwrite an existing one", "it will overwrite
 *   existing files", "Writes the file, overwriting its content") — but not "overwrite" naming
 *   a flag, mode or option ("overwrite protection", "overwrite: true") — and the passive "is",
 *   "are", "will be", "get(s) overwritten" ("existing files will be overwritten") unless another
 *   agent or a schedule does it, said right after the verb ("are overwritten every night by
 *   the backup job"; not "whenever you call this" nor "by the user-supplied values"). Overwriting
 *   is not an additive update.
 * - irreversible: "cannot be undone" (and "can't", "can not", "reversed", "reverted"),
 *   "irreversible", "irreversibly".
 * - read-only: the tool is said to be read-only — "This tool is read-only", "This is
 *   read-only", "a read-only operation", or a sentence that starts with "Read-only:",
 *   "Read-only." or "[Read-only]". "Creates a read-only token", "mounts the volume
 *   read-only", "a read-only replica" and "It is read-only" (it may be the returned
 *   object) describe something else and do not count.
 *
 * A deletion verb ("deletes", "permanently deletes", "deletes … permanently") counts only
 * when this tool is its subject: nothing but words such as "this tool", "it", "will",
 * "also", "permanently" stand between it and the start of its clause or the last "and",
 * "then", "or", "but" ("Deletes…", "This tool permanently deletes…", "Archives the thread
 * and deletes its attachments"). "The server deletes expired tokens automatically"
 * has another subject and does not count. An infinitive in a sentence about this tool
 * counts too ("Use this tool when the user asks to permanently delete a file").
 *
 * A match does not count when:
 * - it is negated: a negator (not, no, never, nothing, none, without, cannot, n't forms,
 *   nor) stands within five words before it in the same clause (clauses end at
 *   , ; : ( ) — and at "but", "however", "then", "and"), or "nothing", "no" or "none"
 *   follows it ("deletes nothing");
 * - its sentence is conditional or about something else before the match: "if",
 *   "whether", "unless", a relative "which" or "who", or a relative "that" (but not
 *   "note that", "be aware that", "means that", …). "when" is not one: "Use this tool
 *   when the user asks to permanently delete a file" is about this tool;
 * - its sentence points to another tool: "instead" or "rather than" anywhere, a
 *   reference such as "use delete_file" or "call `purge_items`" before the match, or
 *   one anywhere in a purpose clause ("To delete a file, use delete_file.").
 * A deletion or overwrite whose object (within the next four words) is a cache ("Purges
 * cached content from the CDN") is marked: it contradicts readOnlyHint true, but not destructiveHint false.
 * Passive forms ("items are permanently deleted after 30 days") do not match at all:
 * they more often state a retention policy than what the call does.
 */

export type PhraseKind = 'deletion' | 'overwrite' | 'irreversible' | 'read-only';

export interface PhraseMatch {
  kind: PhraseKind;
  /** The matched text, as written. */
  text: string;
  /** UTF-16 offset of the match in the description. */
  index: number;
  /** Why the match was discarded, if it was. */
  discarded?: 'negated' | 'conditional' | 'other-tool';
  /** A deletion or overwrite whose object is a cache ("purges cached content"): no data is lost. */
  cache?: boolean;
}

const DEL = '(?:delete|deletes|remove|removes|erase|erases|destroy|destroys|purge|purges|wipe|wipes|drop|drops)';
const DEL3 = '(?:deletes|erases|destroys|purges|wipes)';

interface Pattern {
  kind: PhraseKind;
  re: RegExp;
  /** Only at the start of a sentence (after bullets, quotes and brackets). */
  sentenceStart?: boolean;
  /** A verb whose subject must be this tool (see subjectIsTool). */
  toolSubject?: boolean;
  /** A passive form: it does not count when another agent or a schedule does it (see otherAgentOrSchedule). */
  passive?: boolean;
}

/**
 * After a passive verb: the change is made by someone else or on a schedule, not by the call
 * ("are overwritten every night by the backup job", "are overwritten on each deploy", "are
 * overwritten by the sync job"). Like passive deletions, such sentences state a policy.
 */
const OTHER_AGENT_OR_SCHEDULE =
  /^\s+(?:(?:every|each|nightly|daily|hourly|weekly|monthly|yearly|periodically|regularly|routinely)\b|on\s+(?:(?:a\s+)?schedule|each|every)\b|by\s+(?:the\s+|a\s+|an\s+|your\s+)?(?:[a-z-]+\s+){0,3}(?:job|jobs|process|server|system|service|scheduler|cron|daemon|worker|workers|pipeline|agent|bot|task|script|sync|admin|administrator|administrators|user|users|owner|team|platform|provider)(?![\w-]))/i;

/**
 * In priority order: a later pattern never matches inside an earlier match. Every match must
 * contain a TRIGGER word (below); a new pattern that can match without one needs a new
 * trigger word (test/fast-paths.test.ts compares the two paths).
 */
const PATTERNS: Pattern[] = [
  { kind: 'deletion', re: new RegExp(`\\bpermanently(?:\\s+(?:and\\s+)?[a-z]+ly)?\\s+${DEL}\\b`, 'gi'), toolSubject: true },
  { kind: 'deletion', re: new RegExp(`\\b${DEL}\\b(?:\\s+[^\\s.;:!?,]+){0,4}?\\s+permanently\\b`, 'gi'), toolSubject: true },
  { kind: 'deletion', re: /\bpermanent\s+(?:deletion|removal|erasure|destruction)\b/gi },
  { kind: 'deletion', re: /\b(?:delete|erase|destroy|purge|wipe)\b(?=\s+\S)/gi, sentenceStart: true },
  { kind: 'deletion', re: new RegExp(`\\b${DEL3}\\b`, 'gi'), toolSubject: true },
  {
    kind: 'overwrite',
    re: /\boverwrit(?:es|e|ing)\b(?!\s*(?:[=:]|(?:protection|mode|flag|option|parameter|setting|behaviou?r|policy|check)s?\b))/gi,
    toolSubject: true,
  },
  { kind: 'overwrite', re: /\b(?:is|are|will\s+be|gets?)\s+(?:(?:silently|always|automatically|completely|entirely)\s+)?overwritten\b/gi, passive: true },
  { kind: 'irreversible', re: /\b(?:cannot|can\s+not|can['’]t)\s+be\s+(?:undone|reversed|reverted)\b/gi },
  { kind: 'irreversible', re: /\birreversibl[ey]\b/gi },
  {
    kind: 'read-only',
    re: /\b(?:(?:this|the)\s+(?:tool|operation|action|call|endpoint|function|command|query|request)|this)\s+(?:is|are)\s+(?:(?:strictly|completely|fully|entirely|purely|always)\s+)?(?:an?\s+)?read[- ]?only\b/gi,
  },
  {
    kind: 'read-only',
    re: /\ba\s+(?:(?:strictly|completely|fully|entirely|purely|safe)\s*,?\s+)?read[- ]?only\s+(?:tool|operation|action|call|endpoint|function|command|query|request|lookup)\b/gi,
  },
  { kind: 'read-only', re: /read[- ]?only(?=\s*[:.\])—-])/gi, sentenceStart: true },
];

const NEGATORS = new Set([
  'not', 'no', 'never', 'nothing', 'none', 'neither', 'nor', 'without', 'cannot',
  "can't", "won't", "doesn't", "don't", "didn't", "isn't", "aren't", "wasn't", "weren't", "shouldn't", "mustn't",
  "wouldn't", "couldn't", "shan't", "hasn't", "haven't",
]);
const CLAUSE_WORDS = new Set(['but', 'however', 'then', 'and', 'although', 'though']);
const CONDITIONALS = new Set(['if', 'whether', 'unless', 'which', 'who']);
const THAT_OK = new Set(['note', 'notes', 'noted', 'warning', 'aware', 'careful', 'sure', 'mind', 'means', 'remember', 'understand', 'please', 'caution']);

/** Sentence boundaries: [start, end) offsets. */
function sentences(text: string): [number, number][] {
  const out: [number, number][] = [];
  const re = /[.!?](?=\s|$)|\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)/g;
  let start = 0;
  for (const m of text.matchAll(re)) {
    const end = m.index! + m[0].length;
    out.push([start, end]);
    start = end;
  }
  if (start < text.length) out.push([start, text.length]);
  return out;
}

function words(s: string): string[] {
  return s
    .toLowerCase()
    .replace(/’/g, "'")
    .split(/[^a-z']+/)
    .filter((w) => w.length > 0);
}

/** The text of the clause before `index` within the sentence starting at `sentenceStart`. */
function clauseBefore(text: string, sentenceStart: number, index: number): string {
  const before = text.slice(sentenceStart, index);
  const cut = Math.max(...[',', ';', ':', '(', ')', '—', '–', ' - '].map((c) => before.lastIndexOf(c)));
  return cut >= 0 ? before.slice(cut + 1) : before;
}

function negated(text: string, sentenceStart: number, m: PhraseMatch): boolean {
  const clause = words(clauseBefore(text, sentenceStart, m.index));
  let window: string[] = [];
  for (const w of clause) {
    if (CLAUSE_WORDS.has(w)) window = [];
    else window.push(w);
  }
  if (window.slice(-5).some((w) => NEGATORS.has(w) || w.endsWith("n't"))) return true;
  const after = words(text.slice(m.index + m.text.length, m.index + m.text.length + 40)).slice(0, 2);
  return after.some((w) => w === 'nothing' || w === 'no' || w === 'none');
}

/** Words that may stand between the start of a clause and a verb whose subject is this tool. */
const SUBJECT_WORDS = new Set([
  'this', 'the', 'tool', 'it', 'endpoint', 'operation', 'command', 'function', 'call', 'action', 'request', 'method',
  'will', 'can', 'may', 'might', 'also', 'immediately', 'irreversibly', 'permanently', 'completely', 'entirely',
  'automatically', 'then', 'use', 'to', 'note', 'warning', 'caution', 'important', 'please', 'that', 'be', 'aware',
  'sure', 'make', 'means', 'mind', 'remember',
]);
/** Words after which a new clause about this tool may begin ("Lists the branches and deletes…"). */
const COORDINATORS = new Set(['and', 'then', 'or', 'but', 'also', 'however']);
/**
 * Words that start a subordinate clause with a subject of its own: a verb after them counts
 * only with this tool named as that subject ("Use with caution as it will overwrite…", "so
 * this tool deletes…"). "Counts row changes, so deletes are included" and "because deletes
 * slow down scans" talk about deletes, not this tool's, and so does a temporal "since"
 * ("since deletes were last compacted"); "since this tool overwrites…" counts.
 */
const CLAUSE_STARTS = new Set(['as', 'because', 'since', 'so']);
/** Words that name this tool as the subject of a subordinate clause ("it", "this", "this call", "the call", "this tool", "the tool"). */
const TOOL_SUBJECTS = new Set(['it', 'this', 'tool', 'call']);
/** Words that, right after a verb, start its object: "as well as deletes the temporary files" lists a verb, not a noun. */
const OBJECT_STARTS = new Set(['the', 'a', 'an', 'any', 'all', 'every', 'each', 'its', 'their', 'your', 'this', 'that', 'these', 'those', 'them', 'it']);

/**
 * Whether the clause before a third-person verb leaves this tool as its subject: nothing
 * but subject words since the clause began ("Deletes…", "This tool permanently deletes…",
 * "Archives the thread and deletes…", "Moves it, then deletes…"). "The server deletes
 * expired tokens" has another subject.
 */
function subjectIsTool(text: string, sentenceStart: number, index: number): boolean {
  const clause = words(clauseBefore(text, sentenceStart, index));
  let since: string[] = [];
  // After "as", "because" or "so" the tool must be named again; after "such as" or "as well
  // as" a list of things follows ("such as deletes and updates"), never this tool's verb.
  let needSubject = false;
  let listing = false;
  let listedWord = '';
  for (let i = 0; i < clause.length; i++) {
    const w = clause[i]!;
    if (w === 'as' && (clause[i - 1] === 'such' || clause[i - 1] === 'well')) {
      listing = true;
      listedWord = clause[i - 1]!;
      since = [];
    } else if (CLAUSE_STARTS.has(w)) {
      needSubject = true;
      listing = false;
      since = [];
    } else if (COORDINATORS.has(w)) {
      if (w !== 'and' && w !== 'or') listing = false;
      needSubject = false;
      since = [];
    } else since.push(w);
  }
  // "as well as" lists nouns ("inserts as well as deletes for the table"), but a verb with
  // an object right after it is a second verb of the clause ("Resets the cache as well as
  // deletes the temporary files")
  if (listing && listedWord === 'well' && since.length === 0) {
    const after = words(text.slice(index, index + 80));
    if (after.length > 1 && /s$/.test(after[0]!) && OBJECT_STARTS.has(after[1]!)) {
      listing = false;
      needSubject = false; // the "as" of "as well as" starts no clause: the verb shares the sentence's subject
    }
  }
  if (listing) return false;
  if (needSubject && !since.some((w) => TOOL_SUBJECTS.has(w))) return false;
  if (since.every((w) => SUBJECT_WORDS.has(w) || NEGATORS.has(w) || w === 'does' || w === 'do')) return true;
  // "Use this tool when the user asks to permanently delete a file": an infinitive in a sentence about this tool.
  const sentence = text.slice(sentenceStart);
  return since[since.length - 1] === 'to' && /\b(?:use|call)\s+this\b|\bthis\s+tool\b/i.test(sentence);
}

function conditional(text: string, sentenceStart: number, index: number): boolean {
  const before = words(text.slice(sentenceStart, index));
  for (let i = 0; i < before.length; i++) {
    const w = before[i]!;
    if (CONDITIONALS.has(w)) return true;
    if (w === 'that' && !(i > 0 && THAT_OK.has(before[i - 1]!))) return true;
  }
  return false;
}

/** "use delete_file", "call `purge_items`", "see the files.delete tool": a reference to another tool. */
const TOOL_REFERENCE = /\b(?:use|call|see|try)\s+(?:the\s+)?[`'"]?[A-Za-z][A-Za-z0-9]*(?:[_.\-/][A-Za-z0-9]+)+/i;

function otherTool(sentence: string, offset: number): boolean {
  if (/\b(?:instead|rather\s+than)\b/i.test(sentence)) return true;
  const ref = TOOL_REFERENCE.exec(sentence);
  if (!ref) return false;
  // "Use delete_file to remove files." (before the match) or "To delete a file, use delete_file." (a purpose clause)
  return ref.index < offset || /^[\s>*\-•"'`(\[]*(?:to|for)\b/i.test(sentence);
}

function atSentenceStart(text: string, sentenceStart: number, index: number): boolean {
  return /^[\s>*\-•#"'`(\[]*(?:\d+[.)]\s*)?$/.test(text.slice(sentenceStart, index));
}

/** Every match in the description (its first SCAN_LIMIT characters), discarded ones included (with the reason). */
/** Descriptions are scanned up to this many characters (hostile inputs can be megabytes long). */
export const SCAN_LIMIT = 20_000;

/**
 * A word every pattern's match contains (case-insensitive, like the patterns): delete,
 * erase, destroy, purge or wipe, "overwrit", "permanent" (the only way "remove" and "drop" match),
 * "undone"/"reversed"/"reverted", "irreversibl", or "read-only". One native test of it
 * skips the detailed matching on the many descriptions that have none.
 */
const TRIGGER = /delete|erase|destroy|purge|wipe|overwrit|permanent|undone|reversed|reverted|irreversibl|read[- ]?only/i;

export function scanDescription(description: string): PhraseMatch[] {
  const text = description.length > SCAN_LIMIT ? description.slice(0, SCAN_LIMIT) : description;
  const found: PhraseMatch[] = [];
  if (!TRIGGER.test(text)) return found;
  const spans: [number, number][] = [];
  const sents = sentences(text);
  const sentenceOf = (i: number): [number, number] => {
    let lo = 0;
    let hi = sents.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [s, e] = sents[mid]!;
      if (i < s) hi = mid - 1;
      else if (i >= e) lo = mid + 1;
      else return [s, e];
    }
    return [0, text.length];
  };
  for (const p of PATTERNS) {
    for (const m of text.matchAll(p.re)) {
      const index = m.index!;
      const end = index + m[0].length;
      if (spans.some(([s, e]) => index < e && end > s)) continue;
      const [s, e] = sentenceOf(index);
      if (p.sentenceStart && !atSentenceStart(text, s, index)) continue;
      if (p.toolSubject && !subjectIsTool(text, s, index)) continue;
      if (p.passive && OTHER_AGENT_OR_SCHEDULE.test(text.slice(end, e))) continue;
      const match: PhraseMatch = { kind: p.kind, text: m[0], index };
      if ((p.kind === 'deletion' || p.kind === 'overwrite') && /\bcach(?:e|es|ed)\b/i.test(words(text.slice(end, e)).slice(0, 4).join(' '))) match.cache = true;
      if (negated(text, s, match)) match.discarded = 'negated';
      else if (conditional(text, s, index)) match.discarded = 'conditional';
      else if (otherTool(text.slice(s, e), index - s)) match.discarded = 'other-tool';
      found.push(match);
      spans.push([index, end]);
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** The matches that count, in order of position. */
export function statedEffects(text: string): PhraseMatch[] {
  return scanDescription(text).filter((m) => m.discarded === undefined);
}
