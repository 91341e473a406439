/**
 * Writing the files a run asks for: reports (--output-file), snapshots (dump -o), the
 * baseline and the starter config. A path that cannot be written is one line naming it
 * and saying why, exit code 2; never an unhandled stream error with a stack trace.
 */
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, open, realpath, rename, stat, unlink, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { finished } from 'node:stream/promises';
import { UsageError } from '../cli/io.js';

const REASONS: Record<string, string> = {
  EISDIR: 'it is a directory',
  ENOTDIR: 'part of its path is a file, not a directory',
  EEXIST: 'part of its path is a file, not a directory',
  ENOENT: 'its directory does not exist',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  ENAMETOOLONG: 'the name is too long',
  EFBIG: 'the file is too large for the file system',
};

/** Why a file could not be written, in words. */
export function writeReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return (e?.code && REASONS[e.code]) || (e?.message ?? String(err));
}

/** "cannot write <file>: <why>", for one file a run could not write. */
export class WriteError extends UsageError {
  /** The file as the command line named it. */
  readonly file: string;
  /** Why it could not be written, in words. */
  readonly reason: string;
  constructor(display: string, err: unknown) {
    const reason = writeReason(err);
    super(`cannot write ${display}: ${reason}`);
    this.file = display;
    this.reason = reason;
  }
}

/** Write text to a file, creating its directories. */
export async function writeText(path: string, display: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  } catch (err) {
    throw new WriteError(display, err);
  }
}

/**
 * Write chunks to a file, creating its directories, waiting for it to drain between chunks.
 * `replace`: the file holds a whole report already (a report written again with the run's final
 * verdict): it is replaced whole or not at all, never left half written by a write that fails
 * (see replacement).
 */
export async function writeChunksToFile(path: string, display: string, chunks: Iterable<string>, opts: { replace?: boolean } = {}): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (err) {
    throw new WriteError(display, err);
  }
  let swap: Awaited<ReturnType<typeof replacement>>;
  try {
    swap = opts.replace ? await replacement(path) : undefined;
  } catch (err) {
    throw new WriteError(display, err);
  }
  // A buffer of a few chunks, so that the next chunk is serialised while the last is written
  // (with the default 16 KiB, each 64 KiB chunk waited for its own write).
  const out = createWriteStream(path, { highWaterMark: 1 << 20, ...(swap ? { fd: swap.handle } : {}) });
  // Rejects on the stream's first error (and listens for it, so it is never unhandled).
  const done = finished(out);
  done.catch(() => undefined);
  try {
    for (const chunk of chunks) {
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), done]);
    }
    out.end();
    await done;
    if (swap) {
      // The mode the file had (the umask applied to the one given at creation).
      await chmod(swap.temp, swap.mode);
      await rename(swap.temp, swap.target);
    }
  } catch (err) {
    out.destroy();
    if (swap) await unlink(swap.temp).catch(() => undefined);
    throw new WriteError(display, err);
  }
}

/**
 * Where to write a file that is to be replaced whole: a temporary file beside it (in the same
 * directory, so that renaming it over the file replaces it at once), with the file's mode. The
 * file a symbolic link points to is the one replaced (the link stays, as when the file was
 * written through it). Undefined, for writing the file in place as before, when renaming would
 * change more than its text: it is not a regular file (a device, a pipe), it has other hard
 * links, or another user owns it (the new file would be the writer's); or its directory takes
 * no new file while the file itself can be written.
 */
async function replacement(path: string): Promise<{ temp: string; target: string; mode: number; handle: FileHandle } | undefined> {
  let target: string;
  let mode: number;
  try {
    target = await realpath(path);
    const info = await stat(target);
    if (!info.isFile() || info.nlink > 1 || (process.getuid !== undefined && info.uid !== process.getuid())) return undefined;
    mode = info.mode & 0o7777;
  } catch {
    return undefined;
  }
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    // Created, never opened if it exists ("wx"): a link put in its place is not followed.
    return { temp, target, mode, handle: await open(temp, 'wx', mode) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return undefined;
    throw err;
  }
}
