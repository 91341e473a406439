/**
 * Writing the files a run asks for: reports (--output-file), snapshots (dump -o), the
 * baseline and the starter config. A path that cannot be written is one line naming it
 * and saying why, exit code 2; never an unhandled stream error with a stack trace.
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
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

/** Write chunks to a file, creating its directories, waiting for it to drain between chunks. */
export async function writeChunksToFile(path: string, display: string, chunks: Iterable<string>): Promise<void> {
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (err) {
    throw new WriteError(display, err);
  }
  // A buffer of a few chunks, so that the next chunk is serialised while the last is written
  // (with the default 16 KiB, each 64 KiB chunk waited for its own write).
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  // Rejects on the stream's first error (and listens for it, so it is never unhandled).
  const done = finished(out);
  done.catch(() => undefined);
  try {
    for (const chunk of chunks) {
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), done]);
    }
    out.end();
    await done;
  } catch (err) {
    out.destroy();
    throw new WriteError(display, err);
  }
}
