import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * `path` relative to `base`, with "/" separators, when it lies inside base; undefined when
 * it is base itself or outside it. A name that only starts with two dots ("..notes.json")
 * is inside.
 */
export function relativeInside(base: string, path: string): string | undefined {
  const rel = relative(base, path);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) || resolve(base, rel) !== path) return undefined;
  return rel.split(sep).join('/');
}
