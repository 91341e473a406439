import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

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

/**
 * A path as the file system resolves it, to tell whether two names are one file: the real
 * path when it exists (symlinks, `..`), else its real directory and its name, else the path.
 */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}
