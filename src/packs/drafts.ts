/**
 * Fields from superseded drafts of the SEP-1913 vocabulary, recognised in one place so
 * that draft-field reports them, unknown-annotation-key skips them and the sep-1913 pack
 * does not also report them as schema errors.
 *
 * - SEP-1913's first draft: `sensitiveHint: "low" | "medium" | "high"` (a string level;
 *   a boolean sensitiveHint is WebMCP's flag, not a draft) and `privateHint`. The SEP
 *   replaced both with DataClass sensitivity on inputMetadata/returnMetadata.
 * - SEP-2061 (Action Security Metadata, merged into SEP-1913): capitalised keys
 *   (`InputMetadata`, `ReturnMetadata` on annotations; `Destination`, `Sensitivity`,
 *   `Outcomes`, `Source` inside them) and capitalised values ("PII", "Public",
 *   "Irreversible"). Any other case variant of a known value ("pIi", "bEnign") is found the
 *   same way, but is no draft's spelling, only the wrong letter case (`sep2061` false).
 */
import { DATA_CLASSES, DESTINATIONS, OUTCOMES, SOURCES } from '../engine/claims.js';
import { hasOwn, isObject } from '../util/json.js';
import { escapeSegment, fieldPath } from '../util/pointer.js';
import { DRAFT_SENSITIVE_LEVELS } from './webmcp-sensitive.js';
import { append } from '../util/array.js';

export type DraftKind = 'sensitive-level' | 'private-hint' | 'capitalised-key' | 'capitalised-value';

export interface DraftForm {
  kind: DraftKind;
  /** Pointer relative to the tool. */
  pointer: string;
  /** The field as a person reads it: annotations.inputMetadata.sensitivity[0]. */
  field: string;
  /** The value as written (or the key, for capitalised keys). */
  written: unknown;
  /** The current spelling (of the key or the value), when there is one. */
  current?: string;
  /** For capitalised keys: the current key is also present. */
  duplicate?: boolean;
  /**
   * For values (and the regulated key): written as SEP-2061 wrote it ("Public", "PII",
   * "Regulated"), rather than in some other wrong letter case ("pIi", "bEnign").
   */
  sep2061?: boolean;
}

/** SEP-1913's string data classes: "regulated" is only ever {regulated: {scopes}}, so "Regulated" is no draft spelling of a string. */
const STRING_CLASSES: readonly string[] = DATA_CLASSES.filter((c) => c !== 'regulated');

/** Current member names of SEP-1913's metadata objects, and the string values each holds. */
const MEMBERS: Record<'inputMetadata' | 'returnMetadata', Record<string, readonly string[]>> = {
  inputMetadata: { destination: DESTINATIONS, sensitivity: STRING_CLASSES, outcomes: OUTCOMES },
  returnMetadata: { source: SOURCES, sensitivity: STRING_CLASSES },
};
const METADATA = ['inputMetadata', 'returnMetadata'] as const;

const capitalise = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** How SEP-2061 wrote a current value: capitalised ("Public", "UntrustedPublic"), and the acronym in capitals ("PII"). */
export function sep2061Spelling(current: string): string {
  return current === 'pii' ? 'PII' : capitalise(current);
}
/** inputMetadata and returnMetadata, and their capitalised draft spellings → the current key. */
const DRAFT_METADATA_KEYS: ReadonlyMap<string, 'inputMetadata' | 'returnMetadata'> = new Map(METADATA.flatMap((m) => [[m, m] as const, [capitalise(m), m] as const]));
/**
 * inputMetadata and returnMetadata → their capitalised draft spellings, and each one's
 * capitalised member names → the current ones, made once: the sep-1913 pack asks for them
 * for every tool.
 */
const DRAFT_SPELLING: ReadonlyMap<string, string> = new Map(METADATA.map((m) => [m, capitalise(m)]));
const DRAFT_MEMBER_NAMES: Record<'inputMetadata' | 'returnMetadata', ReadonlyMap<string, string>> = {
  inputMetadata: new Map(Object.keys(MEMBERS.inputMetadata).map((m) => [capitalise(m), m])),
  returnMetadata: new Map(Object.keys(MEMBERS.returnMetadata).map((m) => [capitalise(m), m])),
};
/** SEP-2061's capitalised spelling of inputMetadata/returnMetadata ("InputMetadata"). */
export function draftMetadataKey(metadata: string): string | undefined {
  return DRAFT_SPELLING.get(metadata);
}
const isMember = (metadata: 'inputMetadata' | 'returnMetadata', key: string) => hasOwn(MEMBERS[metadata], key);

/** SEP-2061's spelling of a member name ("Destination" → "destination"), or undefined. */
export function draftMemberName(metadata: 'inputMetadata' | 'returnMetadata', key: string): string | undefined {
  return DRAFT_MEMBER_NAMES[metadata].get(key);
}

/** Whether an annotations key/value is a superseded draft form (reported by draft-field, not as unknown). */
export function isDraftAnnotationKey(key: string, value: unknown): boolean {
  if (key === 'privateHint') return true;
  if (key === 'sensitiveHint') return isDraftSensitiveLevel(value);
  return key === 'InputMetadata' || key === 'ReturnMetadata';
}

export function isDraftSensitiveLevel(value: unknown): boolean {
  return typeof value === 'string' && DRAFT_SENSITIVE_LEVELS.includes(value.toLowerCase());
}

/** A known enum value written in another case ("PII" → "pii"), or undefined. */
export function currentCase(value: unknown, allowed: readonly string[]): string | undefined {
  if (typeof value !== 'string' || allowed.includes(value)) return undefined;
  const lower = value.toLowerCase();
  return allowed.find((a) => a.toLowerCase() === lower);
}

/** Every draft form in a tool's annotations, in document order of the keys. */
export function draftForms(annotations: Record<string, unknown> | undefined): DraftForm[] {
  const out: DraftForm[] = [];
  if (!annotations) return out;
  for (const key of Object.keys(annotations)) {
    // Only these keys can hold a draft form; the rest are skipped before any string is built.
    const metadata = DRAFT_METADATA_KEYS.get(key);
    if (metadata === undefined && key !== 'sensitiveHint' && key !== 'privateHint') continue;
    const value = annotations[key];
    const at = `/annotations/${escapeSegment(key)}`;
    if (key === 'sensitiveHint' && isDraftSensitiveLevel(value)) {
      out.push({ kind: 'sensitive-level', pointer: at, field: 'annotations.sensitiveHint', written: value });
      continue;
    }
    if (key === 'privateHint') {
      out.push({ kind: 'private-hint', pointer: at, field: 'annotations.privateHint', written: value });
      continue;
    }
    if (!metadata) continue;
    if (key !== metadata) {
      out.push({ kind: 'capitalised-key', pointer: at, field: `annotations.${key}`, written: key, current: metadata, duplicate: hasOwn(annotations, metadata) });
    }
    if (!isObject(value)) continue;
    for (const member of Object.keys(value)) {
      const v = value[member];
      const current = isMember(metadata, member) ? member : draftMemberName(metadata, member);
      if (!current) continue;
      // A current member with current values (the common case) has no draft form: no pointer or field is built for it.
      if (member === current && !mayHoldDraftValue(v, MEMBERS[metadata][current]!, current === 'sensitivity')) continue;
      const mAt = `${at}/${escapeSegment(member)}`;
      const mField = `annotations.${key}.${member}`;
      if (member !== current) {
        out.push({ kind: 'capitalised-key', pointer: mAt, field: mField, written: member, current, duplicate: hasOwn(value, current) });
      }
      append(out, draftValues(v, MEMBERS[metadata][current]!, mAt, mField, current === 'sensitivity'));
    }
  }
  return out;
}

/**
 * Whether draftValues could find anything in a value: a string in another letter case than a
 * member of `allowed`, or (for a data class) an object, which may hold a capitalised
 * "Regulated". false is certain; true only means "look".
 */
function mayHoldDraftValue(value: unknown, allowed: readonly string[], dataClass: boolean): boolean {
  if (!Array.isArray(value)) return currentCase(value, allowed) !== undefined || (dataClass && isObject(value));
  for (const v of value) if (currentCase(v, allowed) !== undefined || (dataClass && isObject(v))) return true;
  return false;
}

function draftValues(value: unknown, allowed: readonly string[], at: string, field: string, dataClass: boolean): DraftForm[] {
  const out: DraftForm[] = [];
  const one = (v: unknown, p: string, f: string) => {
    const current = currentCase(v, allowed);
    if (current) out.push({ kind: 'capitalised-value', pointer: p, field: f, written: v, current, sep2061: v === sep2061Spelling(current) });
    else if (dataClass && isObject(v)) {
      for (const k of Object.keys(v)) {
        if (k !== 'regulated' && k.toLowerCase() === 'regulated' && !hasOwn(v, 'regulated')) {
          out.push({ kind: 'capitalised-key', pointer: `${p}/${escapeSegment(k)}`, field: `${f}.${k}`, written: k, current: 'regulated', sep2061: k === 'Regulated' });
        }
      }
    }
  };
  if (Array.isArray(value)) value.forEach((v, i) => one(v, `${at}/${i}`, `${field}[${i}]`));
  else one(value, at, field);
  return out;
}

/**
 * The annotations with SEP-2061's spellings inside inputMetadata/returnMetadata replaced
 * by the current ones (member names and enum values), for validating what a draft form
 * does not explain. `back` maps a pointer in the copy to the pointer in the original
 * (both relative to the annotations object);
 * `backText` rewrites a message about a pointer in the copy to name the field as written
 * ("annotations.inputMetadata.destination is …" → "annotations.inputMetadata.Destination is …").
 */
export function normaliseDraftMetadata(
  annotations: Record<string, unknown>,
): { value: Record<string, unknown>; back(pointer: string): string; backText(text: string, pointer: string): string } | undefined {
  const renames = new Map<string, string>();
  let changed = false;
  const copy: Record<string, unknown> = { ...annotations };
  for (const metadata of METADATA) {
    // The object under SEP-2061's capitalised key ("InputMetadata"), when the current key is
    // not also there, is validated as the object it names: the copy spells the key "inputMetadata".
    const draftKey = capitalise(metadata);
    const written = !hasOwn(annotations, metadata) && hasOwn(annotations, draftKey) ? draftKey : metadata;
    const obj = annotations[written];
    if (!isObject(obj)) continue;
    const at = `/${escapeSegment(written)}`;
    if (written !== metadata) {
      delete copy[written];
      changed = true;
    }
    const out: [string, unknown][] = [];
    for (const [member, v] of Object.entries(obj)) {
      const current = isMember(metadata, member) ? member : draftMemberName(metadata, member);
      if (!current) {
        out.push([member, v]);
        continue;
      }
      // A draft spelling beside the current one: drop it (draft-field says to).
      if (current !== member && hasOwn(obj, current)) {
        changed = true;
        continue;
      }
      const name = current;
      if (name !== member) {
        renames.set(`/${metadata}/${name}`, `${at}/${escapeSegment(member)}`);
        changed = true;
      }
      const allowed = MEMBERS[metadata][current]!;
      const fix = (x: unknown) => {
        const c = currentCase(x, allowed);
        if (c) changed = true;
        if (current === 'sensitivity' && isObject(x) && !hasOwn(x, 'regulated')) {
          const key = Object.keys(x).find((k) => k.toLowerCase() === 'regulated');
          if (key !== undefined) {
            changed = true;
            return Object.fromEntries(Object.entries(x).map(([k, y]) => [k === key ? 'regulated' : k, y]));
          }
        }
        return c ?? x;
      };
      out.push([name, Array.isArray(v) ? v.map(fix) : fix(v)]);
    }
    copy[metadata] = Object.fromEntries(out);
    // After the members: back() takes the first rename that matches.
    if (written !== metadata) renames.set(`/${metadata}`, at);
  }
  if (!changed) return undefined;
  return {
    value: copy,
    back(pointer: string) {
      for (const [to, from] of renames) if (pointer === to || pointer.startsWith(`${to}/`)) return from + pointer.slice(to.length);
      return pointer;
    },
    backText(text: string, pointer: string) {
      for (const [to, from] of renames) {
        if (pointer !== to && !pointer.startsWith(`${to}/`)) continue;
        const field = fieldPath(`/annotations${to}`);
        return text.startsWith(field) ? fieldPath(`/annotations${from}`) + text.slice(field.length) : text;
      }
      return text;
    },
  };
}
