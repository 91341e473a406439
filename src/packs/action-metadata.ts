/**
 * action-metadata: the experimental extension SEP-1913's action metadata moved into —
 * _meta["io.modelcontextprotocol/action-metadata"] = {inputMetadata, returnMetadata,
 * outcome, requiresReview}. Its classifiers are open strings: SEP-1913's values map to
 * claims; any other string is kept on the claim (claim.unknown) and never guessed at.
 */
import { generated } from '../schema/generated.js';
import {
  newClaim,
  DATA_CLASSES,
  DESTINATIONS,
  OUTCOMES,
  SOURCES,
  type Claim,
  type DataClass,
  type Fact,
} from '../engine/claims.js';
import { Distinct } from '../util/array.js';
import { asSet, isObject } from '../util/json.js';
import { regulatedOf } from '../engine/possible-sets.js';
import { escapeSegment } from '../util/pointer.js';
import type { Pack, ToolView } from './types.js';
import { checkVocabulary } from './vocabulary.js';

const validate = generated('action-metadata').Meta!;

export const ACTION_KEY = 'io.modelcontextprotocol/action-metadata';
export const ACTION_MEMBERS = ['inputMetadata', 'returnMetadata', 'outcome', 'requiresReview'];
const MEMBERS = ACTION_MEMBERS;
/** The extension's object as a person reads it: _meta["io.modelcontextprotocol/action-metadata"]. */
const FIELD = `_meta[${JSON.stringify(ACTION_KEY)}]`;
/** The extension's object, relative to its tool. */
const AT = `/_meta/${escapeSegment(ACTION_KEY)}`;

const KEYS = [ACTION_KEY];
const recognised = (_k: string, v: unknown) => isObject(v) && MEMBERS.some((x) => x in v);
const expected = () => 'an object with inputMetadata, returnMetadata, outcome and requiresReview';

/**
 * Known values of an open classifier, and the strings that are not known. A known value in
 * another letter case ("Irreversible") is read as that value: it is plainly SEP-1913's word,
 * and leaving it unread would hide what it says (a read-only tool that may be irreversible).
 * unknown-classifier still notes the spelling. Anything further off ("untrusted_public",
 * "pubic", "external") is kept as written and never guessed at.
 */
/** No unknown strings (shared: only read). */
const NO_UNKNOWN: readonly string[] = [];

function classify<T extends string>(value: unknown, known: readonly T[]): { values: T[]; unknown: readonly string[] } {
  const values: T[] = [];
  // Made only for a value that has one: a known member, the common case, needs no list and no lower-case copy.
  let unknown: Distinct<string> | undefined;
  for (const v of asSet(value)) {
    if (typeof v !== 'string') continue;
    const m = (known as readonly string[]).includes(v) ? (v as T) : knownInOtherCase(v, known);
    if (m !== undefined) {
      if (!values.includes(m)) values.push(m);
    } else (unknown ??= new Distinct()).add(v);
  }
  return { values, unknown: unknown?.list ?? NO_UNKNOWN };
}

/** The member of `known` a string writes in another letter case, if any. */
function knownInOtherCase<T extends string>(v: string, known: readonly T[]): T | undefined {
  const lower = v.toLowerCase();
  return known.find((k) => k.toLowerCase() === lower);
}

/** SEP-1913's string classes; "regulated" exists only in its object form {regulated: {scopes}}. */
const STRING_CLASSES = DATA_CLASSES.filter((c) => c !== 'regulated');

function sensitivity(value: unknown): { values: DataClass[]; unknown: readonly string[] } {
  const r = classify(value, STRING_CLASSES);
  const regulated = asSet(value).some((v) => regulatedOf(v) !== undefined);
  return { values: regulated ? [...r.values, 'regulated'] : r.values, unknown: r.unknown };
}

export const actionMetadataPack: Pack = {
  id: 'action-metadata',
  title: 'Action metadata extension',
  source: 'the experimental io.modelcontextprotocol/action-metadata extension (SEP-1913 action metadata with open classifiers)',
  location: `_meta["${ACTION_KEY}"] = {inputMetadata, returnMetadata, outcome, requiresReview}`,
  annotationKeys: [],
  metaKeys: [ACTION_KEY],
  proposal: true,
  analyse(tool: ToolView) {
    const m = tool.meta;
    if (!m) return { claims: [], problems: [] };
    const { problems, foreign, present } = checkVocabulary({
      pack: 'action-metadata',
      container: m,
      at: '/_meta',
      toolPointer: tool.pointer,
      keys: KEYS,
      recognised,
      expected,
      name: 'the action-metadata extension',
      validate,
    });
    const claims: Claim[] = [];
    const am = m[ACTION_KEY];
    if (!present.length || foreign.has(ACTION_KEY) || !isObject(am)) return { claims, problems };
    const base = tool.pointer + AT;
    /** `path` is the dotted path under the extension's object, `rel` the same as a pointer. */
    const add = <F extends Fact>(fact: F, path: string, rel: string, raw: unknown, r: { values: unknown[]; unknown: readonly string[] }) => {
      claims.push(newClaim(fact, r.values as Claim<F>['value'], 'action-metadata', `${FIELD}.${path}`, `${base}/${rel}`, raw, r.unknown.length ? (r.unknown as string[]) : undefined));
    };
    const input = am.inputMetadata;
    if (isObject(input)) {
      if ('destination' in input) add('destinations', 'inputMetadata.destination', 'inputMetadata/destination', input.destination, classify(input.destination, DESTINATIONS));
      if ('sensitivity' in input) add('inputSensitivity', 'inputMetadata.sensitivity', 'inputMetadata/sensitivity', input.sensitivity, sensitivity(input.sensitivity));
      if ('outcomes' in input) add('outcomes', 'inputMetadata.outcomes', 'inputMetadata/outcomes', input.outcomes, classify(input.outcomes, OUTCOMES));
    }
    const ret = am.returnMetadata;
    if (isObject(ret)) {
      if ('source' in ret) add('sources', 'returnMetadata.source', 'returnMetadata/source', ret.source, classify(ret.source, SOURCES));
      if ('sensitivity' in ret) add('outputSensitivity', 'returnMetadata.sensitivity', 'returnMetadata/sensitivity', ret.sensitivity, sensitivity(ret.sensitivity));
    }
    if ('outcome' in am) add('outcomes', 'outcome', 'outcome', am.outcome, classify(am.outcome, OUTCOMES));
    if (typeof am.requiresReview === 'boolean') {
      claims.push(newClaim('requiresConfirmation', am.requiresReview, 'action-metadata', `${FIELD}.requiresReview`, `${base}/requiresReview`));
    }
    return { claims, problems };
  },
};
