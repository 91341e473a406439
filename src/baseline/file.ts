/**
 * Reading and writing the baseline file, with positions for every problem.
 */
import { writeText } from '../util/write.js';
import { MAX_DOCUMENT_BYTES, readFailure, readFileBounded } from '../util/read.js';
import { ConfigError, parseJsonConfig, type ParsedConfig } from '../config/source.js';
import { isObject } from '../util/json.js';
import { escapeSegment } from '../util/pointer.js';
import { closest } from '../util/text.js';
import { decodeKeepingBom, InputProblem } from '../sources/parse.js';
import { BASELINE_VERSION, baselineText, type Baseline, type BaselineEntry } from './baseline.js';

export interface LoadedBaseline {
  entries: BaselineEntry[];
  /** Line and column of the entry at each index, in one pass over the file. */
  positions(indexes: readonly number[]): ({ line: number; column: number } | undefined)[];
}

const ENTRY_KEYS = ['server', 'tool', 'rule', 'pointer', 'detail', 'count', 'fingerprint', 'message', 'justification'];

/** Read a baseline; a missing file is undefined, a broken one a ConfigError naming file:line:col. */
export async function readBaseline(path: string, display: string): Promise<LoadedBaseline | undefined> {
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
    text = decodeKeepingBom(bytes, 'a baseline is UTF-8 encoded JSON');
  } catch (err) {
    if (!(err instanceof InputProblem)) throw err;
    throw new ConfigError([{ file: display, line: err.line, column: err.column, message: err.message }]);
  }
  const parsed = parseJsonConfig(text, display);
  const entries = checkBaseline(parsed, display);
  return { entries, positions: (indexes) => parsed.positions(indexes.map((i) => ({ pointer: `/entries/${i}` }))) };
}

function checkBaseline(parsed: ParsedConfig, display: string): BaselineEntry[] {
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
    if (ok) entries.push(e as unknown as BaselineEntry);
  });
  if (pending.length) throw fail();
  return entries;
}

export async function writeBaseline(path: string, display: string, baseline: Baseline): Promise<void> {
  await writeText(path, display, baselineText(baseline));
}
