/**
 * Reading a file the user named, with a limit on its size. A path may name a named pipe
 * (`-c <(…)`), a device (/dev/stdin, /dev/zero) or a file larger than anything the reader
 * can use: a regular file over the limit is refused before it is read, and a pipe or
 * device stops being read as soon as it passes the limit, so no input runs the process out
 * of memory.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';

/**
 * The most bytes a JSON document can have: the longest string V8 holds ((1 << 29) - 24
 * characters; an ASCII byte is one character). Longer input cannot be parsed as one JSON
 * text.
 */
export const MAX_DOCUMENT_BYTES = 2 ** 29 - 24;

/** The most bytes a config file (mcp-annotate's, an MCP client's, an envFile) may have: far more than any needs. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;

/** More bytes than the limit; `size` is the file's size when known (a regular file). */
export class TooLarge extends Error {
  constructor(
    readonly limit: number,
    readonly size?: number,
  ) {
    super(size === undefined ? `larger than ${formatBytes(limit)}` : `${formatBytes(size)}, larger than ${formatBytes(limit)}`);
  }
}

/** A stream's bytes, or TooLarge as soon as they pass `limit` (the stream is then destroyed). */
export async function readStreamBounded(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > limit) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      throw new TooLarge(limit);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/**
 * The bytes of the file at `path`, up to `limit`, read synchronously (a named pipe blocks
 * until its writer has written, as any read of it does). Errors are the file system's
 * (ENOENT, EACCES; EISDIR for a directory, ENXIO for a socket) or TooLarge.
 */
export function readFileBounded(path: string, limit: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const info = fstatSync(fd);
    if (info.isDirectory()) throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR' });
    if (info.isFile()) {
      if (info.size > limit) throw new TooLarge(limit, info.size);
      return readFileSync(fd);
    }
    // A pipe or a device has no size: read until its end or one byte past the limit.
    const chunks: Buffer[] = [];
    let size = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, limit + 1 - size));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) return Buffer.concat(chunks, size);
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      size += n;
      if (size > limit) throw new TooLarge(limit);
    }
  } finally {
    closeSync(fd);
  }
}

/** Why a file could not be read, in words (for "cannot read …: <why>"). */
export function readFailure(err: unknown): string {
  if (err instanceof TooLarge) return err.message;
  const code = (err as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file or directory';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENXIO') return 'is a socket or a device without a reader, not a file';
  return (err as Error)?.message ?? String(err);
}

export function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : `${Math.round(n / 1024)} KiB`;
}
