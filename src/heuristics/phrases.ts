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
  { kind: 'irreversible', re: /\b(?:cannot|can\s+not|can['\u2019]t)\s+be\s+(?:undone|reversed|reverted)\b/gi },
  { kind: 'irreversible', re: /\birreversibl[ey]\b/gi },
  {
    kind: 'read-only',
    re: /\b(?:(?:this|the)\s+(?:tool|operation|action|call|endpoint|function|command|query|request)|this)\s+(?:is|are)\s+(?:(?:strictly|completely|fully|entirely|purely|always)\s+)?(?:an?\s+)?read[- ]?only\b/gi,
  },
  {
    kind: 'read-only',
    re: /\ba\s+(?:(?:strictly|completely|fully|entirely|purely|safe)\s*,?\s+)?read[- ]?only\s+(?:tool|operation|action|call|endpoint|function|command|query|request|lookup)\b/gi,
  },
  { kind: 'read-only', re: /read[- ]?only(?=\s*[:.\])\u2014-])/gi, sentenceStart: true },
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
  const re = /[.!?](?=\s|$)|\n\s*\n|\n(?=\s*(?:[-*\u2022]|\d+[.)])\s)/g;
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
    .replace(/\u2019/g, "'")
    .split(/[^a-z']+/)
    .filter((w) => w.length > 0);
}

/*
 * The checks below read the words before a match: its clause (negation, subject), its sentence
 * (condition, another tool). Re-reading that text for every match made a long sentence of many
 * matches ("and wipes " × 2,000) quadratic, so one pass over the description indexes its words
 * (as words() reads them: the same tokens, at their offsets) and the state each check needs
 * after every word, and each match looks it up. The answers are those of reading the text
 * before the match with words(), exactly (test/heuristics.test.ts compares the two).
 */

/** A word longer than this, cut by a match inside it, is kept as its last three letters (no word the checks look for is so long). */
const LONG_WORD = 32;
const LOWER_WORD = /^[a-z']*$/;

/** What subjectIsTool tracks through a clause (see there). */
interface SubjectState {
  needSubject: boolean;
  listing: boolean;
  listedWord: string;
  /** The words since the clause (or its last clause start or coordinator) began: how many, the last, and what they are. */
  since: number;
  last: string | undefined;
  allSubject: boolean;
  anyTool: boolean;
}
const START: SubjectState = { needSubject: false, listing: false, listedWord: '', since: 0, last: undefined, allSubject: true, anyTool: false };

function step(state: SubjectState, w: string, prev: string | undefined): SubjectState {
  // After "as", "because" or "so" the tool must be named again; after "such as" or "as well
  // as" a list of things follows ("such as deletes and updates"), never this tool's verb.
  if (w === 'as' && (prev === 'such' || prev === 'well')) return { ...START, needSubject: state.needSubject, listing: true, listedWord: prev };
  if (CLAUSE_STARTS.has(w)) return { ...START, needSubject: true, listedWord: state.listedWord };
  if (COORDINATORS.has(w)) return { ...START, listing: w !== 'and' && w !== 'or' ? false : state.listing, listedWord: state.listedWord };
  return {
    needSubject: state.needSubject,
    listing: state.listing,
    listedWord: state.listedWord,
    since: state.since + 1,
    last: w,
    allSubject: state.allSubject && (SUBJECT_WORDS.has(w) || NEGATORS.has(w) || w === 'does' || w === 'do'),
    anyTool: state.anyTool || TOOL_SUBJECTS.has(w),
  };
}

/** The words of a description with their offsets, and what the checks need after each. */
class Words {
  /** Word k: text[start[k], end[k]), lower case, as words() reads it. */
  readonly start: number[] = [];
  readonly end: number[] = [];
  readonly word: string[] = [];
  /** Where clauses begin, in order (every sentence start among them). */
  private readonly clauses: number[] = [];
  /** Where the sentence holding word k begins. */
  private readonly sentence: number[] = [];
  /** Whether a conditional word stands in word k's sentence up to word k. */
  private readonly cond: boolean[] = [];
  /** subjectIsTool's state after word k, from the start of its clause. */
  private readonly subject: SubjectState[] = [];
  private cacheAt: Map<number, number> = new Map();
  private useThis: number | undefined;
  private others = new Map<number, { instead: boolean; ref: number; purpose: boolean }>();

  constructor(
    readonly text: string,
    sents: [number, number][],
  ) {
    const n = text.length;
    // words() lower-cases, turns ’ into ' and splits at anything but a-z and '. Only three
    // other characters lower-case into those: İ (to "i" and a combining dot, which ends the
    // word), ’ and the Kelvin sign K.
    let from = -1;
    const close = (to: number) => {
      this.start.push(from);
      this.end.push(to);
      const w = text.slice(from, to);
      this.word.push(LOWER_WORD.test(w) ? w : w.toLowerCase().replace(/\u2019/g, "'").replace(/\u0307/g, ''));
      from = -1;
    };
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      const inWord = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 39 || c === 0x2019 || c === 0x212a || c === 0x130;
      if (!inWord) {
        if (from >= 0) close(i);
        continue;
      }
      if (from < 0) from = i;
      if (c === 0x130) close(i + 1);
    }
    if (from >= 0) close(n);

    // A clause starts at a sentence start and right after , ; : ( ) — – and " - ".
    let next = 1;
    this.clauses.push(0);
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 44 || c === 59 || c === 58 || c === 40 || c === 41 || c === 0x2014 || c === 0x2013 || (c === 32 && text.charCodeAt(i + 1) === 45 && text.charCodeAt(i + 2) === 32)) {
        while (next < sents.length && sents[next]![0] <= i) this.clauses.push(sents[next++]![0]);
        if (this.clauses[this.clauses.length - 1] !== i + 1) this.clauses.push(i + 1);
      }
    }
    while (next < sents.length) this.clauses.push(sents[next++]![0]);

    let si = 0;
    for (let k = 0; k < this.word.length; k++) {
      const st = this.start[k]!;
      while (si < sents.length - 1 && st >= sents[si]![1]) si++;
      const sentence = sents[si]?.[0] ?? 0;
      this.sentence.push(sentence);
      const w = this.word[k]!;
      const prevInSentence = k > 0 && this.start[k - 1]! >= sentence;
      this.cond.push((prevInSentence && this.cond[k - 1]!) || isConditional(w, prevInSentence ? this.word[k - 1] : undefined));
      const prevInClause = k > 0 && this.start[k - 1]! >= this.clauseStart(st);
      this.subject.push(step(prevInClause ? this.subject[k - 1]! : START, w, prevInClause ? this.word[k - 1] : undefined));
    }
  }

  /** Where the clause holding offset i begins. */
  clauseStart(i: number): number {
    const c = this.clauses;
    let lo = 0;
    let hi = c.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (c[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return c[lo]!;
  }

  /** The last word that starts before offset i, or -1. */
  private before(i: number): number {
    let lo = 0;
    let hi = this.start.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (this.start[mid]! < i) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Word k as the text before offset i reads it (cut there if it runs on). */
  private cut(k: number, i: number): string {
    const w = this.word[k]!;
    const len = i - this.start[k]!;
    if (len >= w.length) return w;
    return len > LONG_WORD ? '\0' + w.slice(len - 3, len) : w.slice(0, len);
  }

  /** words(text.slice(clauseStart, i)), last first, at most `max` of them. */
  lastWords(i: number, max: number): string[] {
    const from = this.clauseStart(i);
    const out: string[] = [];
    for (let k = this.before(i); k >= 0 && this.start[k]! >= from && out.length < max; k--) out.push(this.cut(k, i));
    return out;
  }

  /** subjectIsTool's state at offset i: the clause before it read word by word. */
  subjectAt(i: number): SubjectState {
    const from = this.clauseStart(i);
    const k = this.before(i);
    if (k < 0 || this.start[k]! < from) return START;
    if (this.end[k]! <= i) return this.subject[k]!;
    const prevIn = k > 0 && this.start[k - 1]! >= from;
    return step(prevIn ? this.subject[k - 1]! : START, this.cut(k, i), prevIn ? this.word[k - 1] : undefined);
  }

  /** Whether words(text.slice(sentenceStart, i)) holds a conditional word. */
  conditionalAt(sentenceStart: number, i: number): boolean {
    const k = this.before(i);
    if (k < 0 || this.start[k]! < sentenceStart) return false;
    if (this.end[k]! <= i) return this.cond[k]!;
    const prevIn = k > 0 && this.start[k - 1]! >= sentenceStart;
    if (prevIn && this.cond[k - 1]) return true;
    return isConditional(this.cut(k, i), prevIn ? this.word[k - 1] : undefined);
  }

  /** Whether one of the first four words of text.slice(i, sentenceEnd) names a cache. */
  cacheAfter(i: number, sentenceEnd: number): boolean {
    let lo = 0;
    let hi = this.end.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.end[mid]! > i) hi = mid;
      else lo = mid + 1;
    }
    for (let k = lo; k < lo + 4 && k < this.start.length && this.start[k]! < sentenceEnd; k++) {
      // A word cut at i (after "’" or "'") names a cache only after the cut.
      const at = this.lastCache(k);
      if (at >= 0 && at >= i - this.start[k]!) return true;
    }
    return false;
  }

  /** Where the last "cache", "caches" or "cached" in word k starts, or -1. */
  private lastCache(k: number): number {
    let at = this.cacheAt.get(k);
    if (at === undefined) {
      at = -1;
      const re = /\bcach(?:e|es|ed)\b/g;
      for (let m = re.exec(this.word[k]!); m; m = re.exec(this.word[k]!)) at = m.index;
      this.cacheAt.set(k, at);
    }
    return at;
  }

  /** Whether the text from offset i on says "use this", "call this" or "this tool". */
  aboutThisFrom(i: number): boolean {
    if (this.useThis === undefined) {
      this.useThis = -1;
      const re = /\b(?:use|call)\s+this\b|\bthis\s+tool\b/gi;
      for (let m = re.exec(this.text); m; m = re.exec(this.text)) {
        this.useThis = m.index;
        re.lastIndex = m.index + 1;
      }
    }
    return this.useThis >= i;
  }

  /** What otherTool reads of the sentence [s, e), once per sentence. */
  other(s: number, e: number): { instead: boolean; ref: number; purpose: boolean } {
    let o = this.others.get(s);
    if (!o) {
      const sentence = this.text.slice(s, e);
      o = {
        instead: /\b(?:instead|rather\s+than)\b/i.test(sentence),
        ref: TOOL_REFERENCE.exec(sentence)?.index ?? -1,
        purpose: /^[\s>*\-\u2022"'`(\[]*(?:to|for)\b/i.test(sentence),
      };
      this.others.set(s, o);
    }
    return o;
  }
}

function isConditional(w: string, prev: string | undefined): boolean {
  return CONDITIONALS.has(w) || (w === 'that' && !(prev !== undefined && THAT_OK.has(prev)));
}

function negated(text: string, ws: Words, m: PhraseMatch): boolean {
  // a negator within five words before it, in the same clause and after its last clause word
  for (const w of ws.lastWords(m.index, 5)) {
    if (CLAUSE_WORDS.has(w)) break;
    if (NEGATORS.has(w) || w.endsWith("n't")) return true;
  }
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
function subjectIsTool(text: string, ws: Words, sentenceStart: number, index: number): boolean {
  const state = ws.subjectAt(index);
  let { listing, needSubject } = state;
  // "as well as" lists nouns ("inserts as well as deletes for the table"), but a verb with
  // an object right after it is a second verb of the clause ("Resets the cache as well as
  // deletes the temporary files")
  if (listing && state.listedWord === 'well' && state.since === 0) {
    const after = words(text.slice(index, index + 80));
    if (after.length > 1 && /s$/.test(after[0]!) && OBJECT_STARTS.has(after[1]!)) {
      listing = false;
      needSubject = false; // the "as" of "as well as" starts no clause: the verb shares the sentence's subject
    }
  }
  if (listing) return false;
  if (needSubject && !state.anyTool) return false;
  if (state.allSubject) return true;
  // "Use this tool when the user asks to permanently delete a file": an infinitive in a sentence about this tool.
  return state.last === 'to' && ws.aboutThisFrom(sentenceStart);
}

/** "use delete_file", "call `purge_items`", "see the files.delete tool": a reference to another tool. */
const TOOL_REFERENCE = /\b(?:use|call|see|try)\s+(?:the\s+)?[`'"]?[A-Za-z][A-Za-z0-9]*(?:[_.\-/][A-Za-z0-9]+)+/i;

function otherTool(ws: Words, s: number, e: number, offset: number): boolean {
  const o = ws.other(s, e);
  if (o.instead) return true;
  if (o.ref < 0) return false;
  // "Use delete_file to remove files." (before the match) or "To delete a file, use delete_file." (a purpose clause)
  return o.ref < offset || o.purpose;
}

/** What may stand before a match at the start of a sentence: bullets, quotes, brackets, a number. */
const LEAD = /[\s>*\-\u2022#"'`(\[\d.)]/;

function atSentenceStart(text: string, sentenceStart: number, index: number): boolean {
  // Look back only as far as the first character that cannot lead a sentence.
  for (let i = index - 1; i >= sentenceStart; i--) if (!LEAD.test(text[i]!)) return false;
  return /^[\s>*\-\u2022#"'`(\[]*(?:\d+[.)]\s*)?$/.test(text.slice(sentenceStart, index));
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

/**
 * TRIGGER cut by kind: every deletion, overwrite or irreversible match holds one of the first
 * (PATTERNS' words: delete … wipe or "permanent", "overwrit", "undone" … "irreversibl"), every
 * read-only match the second.
 */
const CHANGE_TRIGGER = /delete|erase|destroy|purge|wipe|overwrit|permanent|undone|reversed|reverted|irreversibl/i;
const READ_ONLY_TRIGGER = /read[- ]?only/i;

/**
 * Whether scanDescription may find a match of the kinds asked for: deletion, overwrite and
 * irreversible (`changes`), read-only (`readOnly`). False means it finds none of them, so a
 * caller that reads only those kinds can skip the scan: a rule that can only report a read-only
 * statement (readOnlyHint false beside destructiveHint true) tests one short pattern instead of
 * the twelve words of TRIGGER, and one that can report nothing tests none.
 */
export function mayState(description: string, changes: boolean, readOnly: boolean): boolean {
  if (!changes && !readOnly) return false;
  const text = description.length > SCAN_LIMIT ? description.slice(0, SCAN_LIMIT) : description;
  if (changes && readOnly) return TRIGGER.test(text);
  return (changes ? CHANGE_TRIGGER : READ_ONLY_TRIGGER).test(text);
}

/** The sentence (of `sentences`) that holds place i, by a binary search; the whole text when none does. */
function sentenceAt(sents: readonly [number, number][], i: number, length: number): [number, number] {
  let lo = 0;
  let hi = sents.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, e] = sents[mid]!;
    if (i < s) hi = mid - 1;
    else if (i >= e) lo = mid + 1;
    else return [s, e];
  }
  return [0, length];
}

export function scanDescription(description: string): PhraseMatch[] {
  const text = description.length > SCAN_LIMIT ? description.slice(0, SCAN_LIMIT) : description;
  const found: PhraseMatch[] = [];
  if (!TRIGGER.test(text)) return found;
  // The characters inside an earlier (higher-priority) match.
  let taken: Uint8Array | undefined;
  const sents = sentences(text);
  // Indexed when a match first needs it: most descriptions with a trigger word have no match.
  let indexed: Words | undefined;
  const indexOf = () => (indexed ??= new Words(text, sents));
  const sentenceOf = (i: number) => sentenceAt(sents, i, text.length);
  const free = (index: number, end: number) => {
    if (taken) for (let i = index; i < end; i++) if (taken[i]) return false;
    return true;
  };
  for (const p of PATTERNS) {
    for (const m of text.matchAll(p.re)) {
      const index = m.index!;
      const end = index + m[0].length;
      if (!free(index, end)) continue;
      const [s, e] = sentenceOf(index);
      if (p.sentenceStart && !atSentenceStart(text, s, index)) continue;
      if (p.toolSubject && !subjectIsTool(text, indexOf(), s, index)) continue;
      if (p.passive && OTHER_AGENT_OR_SCHEDULE.test(text.slice(end, e))) continue;
      const match: PhraseMatch = { kind: p.kind, text: m[0], index };
      if ((p.kind === 'deletion' || p.kind === 'overwrite') && indexOf().cacheAfter(end, e)) match.cache = true;
      if (negated(text, indexOf(), match)) match.discarded = 'negated';
      else if (indexOf().conditionalAt(s, index)) match.discarded = 'conditional';
      else if (otherTool(indexOf(), s, e, index - s)) match.discarded = 'other-tool';
      found.push(match);
      (taken ??= new Uint8Array(text.length)).fill(1, index, end);
    }
  }
  return found.sort((a, b) => a.index - b.index);
}

/** The matches that count, in order of position. */
export function statedEffects(text: string): PhraseMatch[] {
  return scanDescription(text).filter((m) => m.discarded === undefined);
}

/**
 * The patterns, word lists and tokenisers (sentences, sentenceAt, words) of the scan, for test/helpers/phrases-reference.ts: a plain
 * (quadratic) reading of the same checks that the tests compare scanDescription with, over
 * this very data, so the two can only differ in how they read it, never in what they look for.
 */
export const PHRASE_VOCABULARY = {
  sentences,
  sentenceAt,
  words,
  PATTERNS,
  OTHER_AGENT_OR_SCHEDULE,
  NEGATORS,
  CLAUSE_WORDS,
  CONDITIONALS,
  THAT_OK,
  SUBJECT_WORDS,
  COORDINATORS,
  CLAUSE_STARTS,
  TOOL_SUBJECTS,
  OBJECT_STARTS,
  TOOL_REFERENCE,
  TRIGGER,
} as const;
