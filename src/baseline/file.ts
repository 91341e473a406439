/**
 * Reading and writing the baseline file, with positions for every problem.
 */
import { writeText } from '../util/write.js';
import { MAX_DOCUMENT_BYTES, readFailure, readFileBounded } from '../util/read.js';
import { ConfigError, parseJsonConfig, type ParsedConfig } from '../config/source.js';
import { isObject } from '../util/json.js';
import { escapeSegment } from '../util/pointer.js';
import { closest, quote } from '../util/text.js';
import { decode, InputProblem } from '../sources/parse.js';
import { createScanner, SyntaxKind } from 'jsonc-parser';
import { RULES } from '../../rules/index.js';
import { DRIFT_RULES } from '../diff/rules/index.js';
import { POLICY_PREFIX } from '../policies/rules.js';
import { BASELINE_VERSION, baselineText, entryKey, type Baseline, type BaselineEntry } from './baseline.js';

export interface LoadedBaseline {
  entries: BaselineEntry[];
  /** Line and column of the entry at each index, in one pass over the file. */
  positions(indexes: readonly number[]): ({ line: number; column: number } | undefined)[];
  /**
   * With --update-baseline: entries whose rule is no rule of this version (a typo, or a rule
   * removed since the file was written), kept in `entries` (they cover nothing and are dropped),
   * and why, for a note. Without it they are baseline errors.
   */
  unknownRules?: { index: number; why: string }[];
}

/** Rule ids a baseline entry may name: the lint rules, policy/<name> (a policy of whichever config), and diff's drift/* (as a config's `rules` may). */
let ruleIds: Set<string> | undefined;
const knownRule = (id: string) => (id.startsWith(POLICY_PREFIX) && id.length > POLICY_PREFIX.length) || (ruleIds ??= new Set([...RULES, ...DRIFT_RULES].map((r) => r.id))).has(id);

/** Whether a JSON text holds nothing but whitespace and comments (and a byte order mark). */
function emptyJson(text: string): boolean {
  const scanner = createScanner(text, true);
  if (text.charCodeAt(0) === 0xfeff) scanner.setPosition(1);
  return scanner.scan() === SyntaxKind.EOF;
}

const ENTRY_KEYS = ['server', 'tool', 'rule', 'pointer', 'detail', 'count', 'fingerprint', 'message', 'justification'];

/** Read a baseline; a missing file is undefined, a broken one a ConfigError naming file:line:col. */
export async function readBaseline(path: string, display: string, opts: { update?: boolean } = {}): Promise<LoadedBaseline | undefined> {
  let bytes: Buffer;
  try {
    bytes = readFileBounded(path, MAX_DOCUMENT_BYTES);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // With --update-baseline, a path that cannot be a file is said when it is written.
    if (code === 'ENOTDIR') return undefined;
    throw new ConfigError([{ file: display, message: `cannot read the baseline: ${readFailure(err)}` }]);
  }
  let text: string;
  try {
    text = decode(bytes, 'a baseline is UTF-8 encoded JSON');
  } catch (err) {
    if (!(err instanceof InputProblem)) throw err;
    throw new ConfigError([{ file: display, line: err.line, column: err.column, message: err.message }]);
  }
  // An empty file is one problem, not a missing "version" and "entries"; --update-baseline
  // writes it as it writes a missing one (it holds nothing to keep).
  if (emptyJson(text)) {
    if (opts.update) return { entries: [], positions: () => [] };
    throw new ConfigError([{ file: display, line: 1, column: 1, message: 'the baseline is empty; write one with --update-baseline' }]);
  }
  const parsed = parseJsonConfig(text, display);
  const { entries, unknownRules } = checkBaseline(parsed, display, opts.update ?? false);
  return { entries, positions: (indexes) => parsed.positions(indexes.map((i) => ({ pointer: `/entries/${i}` }))), ...(unknownRules.length ? { unknownRules } : {}) };
}

function checkBaseline(parsed: ParsedConfig, display: string, update: boolean): { entries: BaselineEntry[]; unknownRules: { index: number; why: string }[] } {
  // Placed all at once when thrown (one pass over the file, however many problems).
  const pending: { pointer: string; key: boolean; message: string }[] = [];
  const at = (pointer: string, message: string, key = false) => {
    pending.push({ pointer, key, message });
  };
  const fail = () => {
    const positions = parsed.positions(pending);
    return new ConfigError(pending.map((p, i) => ({ file: display, line: positions[i]?.line, column: positions[i]?.column, message: p.message })));
  };
  const doc = parsed.value;
  if (!isObject(doc)) {
    at('', 'a baseline is an object {"version": 1, "entries": [...]}; write one with --update-baseline');
    throw fail();
  }
  if (doc.version !== BASELINE_VERSION) at('/version', `"version" must be ${BASELINE_VERSION}, got ${JSON.stringify(doc.version) ?? 'nothing'}`);
  for (const k of Object.keys(doc)) if (k !== 'version' && k !== 'entries') at(`/${escapeSegment(k)}`, `unknown member ${JSON.stringify(k)} (a baseline has "version" and "entries")`, true);
  if (!Array.isArray(doc.entries)) {
    at('/entries', '"entries" must be an array');
    throw fail();
  }
  const entries: BaselineEntry[] = [];
  const unknownRules: { index: number; why: string }[] = [];
  /** The first entry of each key: a second one is the same finding written twice. */
  const firstOf = new Map<string, number>();
  doc.entries.forEach((e, i) => {
    const p = `/entries/${i}`;
    if (!isObject(e)) return at(p, `entries[${i}] must be an object`);
    let ok = true;
    for (const k of Object.keys(e)) {
      if (!ENTRY_KEYS.includes(k)) {
        const guess = closest(k, ENTRY_KEYS);
        at(`${p}/${escapeSegment(k)}`, `entries[${i}] has an unknown member ${JSON.stringify(k)}${guess ? `; did you mean ${JSON.stringify(guess)}?` : ''}`, true);
        ok = false;
      }
    }
    for (const k of ['server', 'rule', 'pointer'] as const) {
      if (typeof e[k] !== 'string') {
        at(k in e ? `${p}/${k}` : p, `entries[${i}].${k} must be a string`);
        ok = false;
      }
    }
    for (const k of ['tool', 'detail', 'fingerprint', 'message', 'justification'] as const) {
      if (k in e && typeof e[k] !== 'string') {
        at(`${p}/${k}`, `entries[${i}].${k} must be a string`);
        ok = false;
      }
    }
    if (typeof e.count === 'number' && Number.isInteger(e.count) && e.count > Number.MAX_SAFE_INTEGER) {
      at(`${p}/count`, `entries[${i}].count must be at most ${Number.MAX_SAFE_INTEGER}`);
      ok = false;
    } else if (typeof e.count !== 'number' || !Number.isInteger(e.count) || e.count < 1) {
      at('count' in e ? `${p}/count` : p, `entries[${i}].count must be a positive integer`);
      ok = false;
    }
    if (typeof e.rule === 'string' && !knownRule(e.rule)) {
      const guess = closest(e.rule, [...ruleIds!]);
      const why = `${quote(e.rule, 200)} is not a rule of this version${guess ? `; did you mean ${JSON.stringify(guess)}?` : ''}`;
      if (update) unknownRules.push({ index: i, why: `${why} (it covered nothing)` });
      else at(`${p}/rule`, `entries[${i}].rule ${why} (mcp-annotate rules lists them; a policy's rule is "policy/<name>"; for a rule removed since the baseline was written, --update-baseline drops its entries)`);
    }
    if (!ok) return;
    const entry = e as unknown as BaselineEntry;
    const key = entryKey(entry);
    const first = firstOf.get(key);
    if (first !== undefined) at(p, `entries[${i}] has the same key as entries[${first}] (server, tool, rule, pointer and detail); merge them into one entry, adding their counts and keeping one justification`);
    else firstOf.set(key, i);
    entries.push(entry);
  });
  if (pending.length) throw fail();
  return { entries, unknownRules };
}

export async function writeBaseline(path: string, display: string, baseline: Baseline): Promise<void> {
  await writeText(path, display, baselineText(baseline));
}
