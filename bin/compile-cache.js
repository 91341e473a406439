// Loads the CLI bundle (dist/bundle/main.cjs) with a V8 code cache, so that start-up
// deserialises compiled code instead of parsing and compiling the whole linter on every
// run. Node 22's module.enableCompileCache() does this for modules; this works the same
// way on every supported Node (20.19 and later).
//
// The cache lives in a directory of the user's own ($MCP_ANNOTATE_CACHE_DIR, else
// $XDG_CACHE_HOME/mcp-annotate or ~/.cache/mcp-annotate; %LOCALAPPDATA% on Windows), one
// file per Node version, architecture, command, build and install (the bundle's path: V8
// keeps the script name a cache was made with, so two installs sharing one cache printed
// each other's paths in stack traces); the newest three files of a Node version,
// architecture and command are kept. A file is used only when it names the bundle it was
// made from (the digest on the bundle's first line), belongs to this user, and V8 accepts
// it; otherwise the run
// compiles as usual and writes a fresh one at the end. Every failure to read or write it
// is ignored: the cache can only make a run faster.
// MCP_ANNOTATE_NO_CACHE=1 (or Node's NODE_DISABLE_COMPILE_CACHE=1) turns it off.
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';

const MAGIC = 'mcp-annotate code cache ';
/** Each command compiles different code, so each gets a cache of its own. */
const COMMANDS = new Set(['lint', 'dump', 'diff', 'rules', 'explain', 'init']);
/** The bundle's first line: its digest, and " ascii" when every character is ASCII (then it is read as latin1, the fastest decoding). */
const BUNDLE_HEADER = /^\/\/ mcp-annotate bundle ([0-9a-f]{64})( ascii)?\n/;

/** Where cache files go, or undefined when caching is off or there is no place for it. */
export function cacheDir(env = process.env) {
  if (env.MCP_ANNOTATE_NO_CACHE === '1' || env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  if (env.MCP_ANNOTATE_CACHE_DIR) return env.MCP_ANNOTATE_CACHE_DIR;
  let base = process.platform === 'win32' ? env.LOCALAPPDATA : env.XDG_CACHE_HOME;
  if (!base) {
    try {
      base = join(homedir(), '.cache');
    } catch {
      return undefined;
    }
  }
  return join(base, 'mcp-annotate');
}

/** The cache file's bytes after its header when it was made from `digest` by this user; else undefined. */
function readCache(file, digest) {
  let fd;
  try {
    fd = openSync(file, 'r');
    const uid = process.getuid?.();
    if (uid !== undefined && fstatSync(fd).uid !== uid) return undefined;
    const data = readFileSync(fd);
    const header = `${MAGIC}${digest}\n`;
    if (data.length <= header.length || data.toString('latin1', 0, header.length) !== header) return undefined;
    // The length V8's data had when written, so a file cut short is never handed to V8.
    const body = data.subarray(header.length + 4);
    return data.readUInt32LE(header.length) === body.length ? body : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function writeCache(file, digest, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const length = Buffer.alloc(4);
    length.writeUInt32LE(data.length);
    writeFileSync(tmp, Buffer.concat([Buffer.from(`${MAGIC}${digest}\n`, 'latin1'), length, data]), { mode: 0o600 });
    renameSync(tmp, file); // atomic: a concurrent run reads the old file or the new one, never half of one
  } catch {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // nothing was written
    }
  }
}

/** Keeps the newest few caches of a family (other builds of the same command), so old builds' files do not pile up. */
function prune(dir, family, keep = 3) {
  try {
    const files = readdirSync(dir)
      .filter((f) => f.startsWith(family) && f.endsWith('.cache'))
      .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of files.slice(keep)) rmSync(join(dir, f), { force: true });
  } catch {
    // another run pruned first, or the directory is not ours to tidy
  }
}

/** A short key of the bundle's path, for the cache file's name. */
export function pathKey(bundle) {
  return createHash('sha256').update(bundle).digest('hex').slice(0, 12);
}

/**
 * Evaluates the CommonJS bundle at `bundle` and returns its exports, with `status`
 * ('off', 'missing', 'rejected' or 'used') and `save()`, which writes a fresh cache
 * unless this run used one. Call save() at the end of a run: the functions the run
 * compiled are then in the cache too.
 */
export function loadBundle(bundle, command = 'other', env = process.env) {
  const bytes = readFileSync(bundle);
  const header = BUNDLE_HEADER.exec(bytes.toString('latin1', 0, 100));
  const source = bytes.toString(header?.[2] ? 'latin1' : 'utf8');
  const digest = header?.[1];
  const dir = digest ? cacheDir(env) : undefined;
  // Named by the build too, so two installs of different versions do not keep replacing each
  // other's cache; and by the bundle's path, since the code V8 reads back from a cache names
  // the file it was compiled from (a stack trace of one install named another's files).
  const family = `main-${process.version}-${process.arch}-${COMMANDS.has(command) ? command : 'other'}-`;
  const file = dir && join(dir, `${family}${digest.slice(0, 16)}-${pathKey(bundle)}.cache`);
  const cachedData = file ? readCache(file, digest) : undefined;

  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {"use strict";${source}\n})`, {
    filename: bundle,
    cachedData,
    // No importModuleDynamically: a script has no module loader for import(), so the bundle
    // requires the packages it keeps outside (scripts/build.mjs fails on any import() in it).
  });
  const status = !file ? 'off' : !cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
  return {
    exports: module.exports,
    status,
    save() {
      if (status !== 'missing' && status !== 'rejected') return;
      writeCache(file, digest, script.createCachedData());
      prune(dir, family);
    },
  };
}
