import { quote } from './text.js';
/** RFC 6901 JSON pointers. */

export function escapeSegment(segment: string | number): string {
  const s = String(segment);
  return s.includes('~') || s.includes('/') ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s;
}

export function unescapeSegment(segment: string): string {
  return segment.includes('~') ? segment.replace(/~1/g, '/').replace(/~0/g, '~') : segment;
}

export function join(base: string, ...segments: (string | number)[]): string {
  let out = base;
  for (const segment of segments) out += '/' + escapeSegment(segment);
  return out;
}

export function split(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer.slice(1).split('/').map(unescapeSegment);
}

export function parent(pointer: string): string {
  const i = pointer.lastIndexOf('/');
  return i <= 0 ? '' : pointer.slice(0, i);
}

/** The value at a pointer, or undefined. Treats "__proto__" and friends as plain keys. */
export function get(value: unknown, pointer: string): unknown {
  let current = value;
  for (const segment of split(pointer)) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

/** A pointer relative to base ("/annotations/x" under "/tools/3" for "/tools/3/annotations/x"); the pointer itself when it is not inside base. */
export function relative(base: string, pointer: string): string {
  return within(base, pointer) ? pointer.slice(base.length) : pointer;
}

/** Whether a pointer is base itself or inside it ("/tools/10" is not inside "/tools/1"). */
export function within(base: string, pointer: string): boolean {
  return pointer.startsWith(base) && (pointer.length === base.length || pointer.charCodeAt(base.length) === 47);
}

/**
 * A tool-relative pointer as a readable field path: /annotations/inputMetadata/outcomes/1
 * → annotations.inputMetadata.outcomes[1]; keys that are not identifiers are quoted.
 */
/** A longer member name is cut in a field path (a key can be a megabyte long). */
const MAX_SEGMENT = 60;

export function fieldPath(rel: string): string {
  let out = '';
  for (const segment of split(rel)) {
    if (/^(0|[1-9][0-9]*)$/.test(segment)) out += `[${segment}]`;
    else if (segment.length > MAX_SEGMENT) out += `[${quote(segment, MAX_SEGMENT)}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(segment) && !segment.includes('-')) out += (out ? '.' : '') + segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out || '(tool)';
}

/**
 * The segment that stands for an array item by its value in a finding's identity: "~=" and the
 * item's JSON, escaped as a segment is ("~=\"partner\"", "~=3", "~=null"). A real member name
 * never gives it: escaped, a "~" is always followed by "0" or "1". An item whose JSON is longer
 * than MAX_VALUE_SEGMENT characters is named by a hash of it instead: "~#" and 16 hex digits.
 */
export const VALUE_SEGMENT = '~=';
const MAX_VALUE_SEGMENT = 120;

/** Whether a pointer has a segment that starts with a digit (an array index, or a member named so). */
export function hasIndexSegment(pointer: string): boolean {
  for (let i = pointer.indexOf('/'); i !== -1; i = pointer.indexOf('/', i + 1)) {
    const c = pointer.charCodeAt(i + 1);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}

/**
 * A pointer into `root` with each index of an array item that is a string, number, boolean or
 * null replaced by that value (see VALUE_SEGMENT): the members of a possible set or of
 * `required` are named by what they are, not where they stand, so reordering them changes
 * nothing. Items that are objects or arrays keep their index. undefined when nothing was
 * replaced (no such index on the way). A number is named by its value as read, the same
 * whether the server is linted live, from its snapshot or from a file that writes it another
 * way; one past a double's range as 1e400 or -1e400 (the snapshot's spelling), not null, the
 * name JSON.stringify gives it, which is a null item's.
 */
export function contentPointer(root: unknown, pointer: string): string | undefined {
  if (!hasIndexSegment(pointer)) return undefined;
  const segments = split(pointer);
  let current: unknown = root;
  let changed = false;
  let out = '';
  for (const segment of segments) {
    if (Array.isArray(current) && /^(0|[1-9][0-9]*)$/.test(segment) && Number(segment) < current.length) {
      const item: unknown = current[Number(segment)];
      if (item === null || typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean') {
        const text = typeof item === 'number' && !Number.isFinite(item) ? (item > 0 ? '1e400' : '-1e400') : JSON.stringify(item);
        out += '/' + (text.length > MAX_VALUE_SEGMENT ? `~#${process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex').slice(0, 16)}` : VALUE_SEGMENT + escapeSegment(text));
        changed = true;
      } else out += '/' + segment;
      current = item;
    } else {
      out += '/' + escapeSegment(segment);
      current = current !== null && typeof current === 'object' && !Array.isArray(current) && Object.prototype.hasOwnProperty.call(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
    }
  }
  return changed ? out : undefined;
}
