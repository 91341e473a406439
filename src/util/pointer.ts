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
