/**
 * The phrase scan as it was before scanDescription indexed the description's words: every
 * check re-reads the text before its match with words(). Quadratic on hostile input, but
 * plainly what the checks mean; test/heuristics.test.ts checks that scanDescription finds
 * exactly what this finds. The patterns, word lists and tokenisers are the scan's own (PHRASE_VOCABULARY):
 * only the reading differs.
 */
import { PHRASE_VOCABULARY, SCAN_LIMIT, type PhraseMatch } from '../../src/heuristics/phrases.js';

const {
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
} = PHRASE_VOCABULARY;

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

export function referenceScan(description: string): PhraseMatch[] {
  const text = description.length > SCAN_LIMIT ? description.slice(0, SCAN_LIMIT) : description;
  const found: PhraseMatch[] = [];
  if (!TRIGGER.test(text)) return found;
  const spans: [number, number][] = [];
  const sents = sentences(text);
  const sentenceOf = (i: number) => sentenceAt(sents, i, text.length);
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
