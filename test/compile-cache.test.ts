/**
 * bin/compile-cache.js: the CLI bundle loads from a V8 code cache when there is a good
 * one, and from source otherwise; a cache that is missing, corrupt, made from another
 * build, someone else's, or unwritable never changes what a run prints.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript beside the bin, no declarations
import { cacheDir, pathKey } from '../bin/compile-cache.js';
import { ROOT, runCli, tempDir } from './helpers/cli.js';

const BUNDLE = join(ROOT, 'dist', 'bundle', 'main.cjs');
const EXAMPLE = ['lint', 'fixtures/example-server.json', '--format', 'json', '--fail-on', 'none'];

/**
 * Loads the bundle in a new process (V8 keeps what it compiled in memory, so within one
 * process a second load would never look at the cache) and saves; the cache's status.
 */
function load(dir: string, extra: Record<string, string> = {}, command = 'lint'): string {
  const script = `
    import { loadBundle } from ${JSON.stringify(pathToFileURL(join(ROOT, 'bin', 'compile-cache.js')).href)};
    const b = loadBundle(${JSON.stringify(BUNDLE)}, ${JSON.stringify(command)}, { MCP_ANNOTATE_CACHE_DIR: ${JSON.stringify(dir)}, ...${JSON.stringify(extra)} });
    if (typeof b.exports.run !== 'function') throw new Error('no run export');
    b.save();
    process.stdout.write(b.status);`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
}
const cacheFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.cache')) : []);

describe('compile cache', () => {
  it('is written after a run without one, used by the next, and one file per Node version and command', () => {
    const dir = join(tempDir(), 'cache');
    expect(load(dir)).toBe('missing');
    const digest = /^\/\/ mcp-annotate bundle ([0-9a-f]{64})( ascii)?\n/.exec(readFileSync(BUNDLE, 'utf8'))![1]!;
    expect(cacheFiles(dir)).toEqual([`main-${process.version}-${process.arch}-lint-${digest.slice(0, 16)}-${pathKey(BUNDLE)}.cache`]);
    expect(load(dir)).toBe('used');
    expect(load(dir, {}, 'not-a-command')).toBe('missing');
    expect(load(dir, {}, 'other')).toBe('used');
  });

  it('reads an all-ASCII bundle as latin1, and says so in its first line; a bundle with other characters as UTF-8', () => {
    // esbuild escapes strings but not regular expression literals: a "•" in one makes the bundle UTF-8.
    const text = readFileSync(BUNDLE, 'utf8');
    const offending = [...text.matchAll(/[^\x00-\x7f]/g)].slice(0, 3).map((m) => `line ${text.slice(0, m.index).split('\n').length}: U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
    expect(offending, 'write these characters of regular expression literals as \\uXXXX').toEqual([]);
    expect(text.split('\n', 1)[0]).toMatch(/^\/\/ mcp-annotate bundle [0-9a-f]{64} ascii$/);
    // The same bundle with a non-ASCII character and no marker is read as UTF-8: the character comes through whole.
    const root = tempDir();
    mkdirSync(join(root, 'dist', 'bundle'), { recursive: true });
    const copy = join(root, 'dist', 'bundle', 'main.cjs');
    writeFileSync(copy, `${text.replace(/ ascii\n/, '\n')}\nmodule.exports.marker = 'caf\u00e9 \u2022';\n`);
    copyFileSync(join(ROOT, 'package.json'), join(root, 'package.json'));
    symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
    const script = `
      import { loadBundle } from ${JSON.stringify(pathToFileURL(join(ROOT, 'bin', 'compile-cache.js')).href)};
      const b = loadBundle(${JSON.stringify(copy)}, 'lint', { MCP_ANNOTATE_NO_CACHE: '1' });
      process.stdout.write(JSON.stringify([b.exports.marker, typeof b.exports.run]));`;
    expect(JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }))).toEqual(['caf\u00e9 \u2022', 'function']);
  });

  it('keeps the caches of the newest three builds of a command and removes older ones', () => {
    const dir = join(tempDir(), 'cache');
    mkdirSync(dir, { recursive: true });
    const family = `main-${process.version}-${process.arch}-lint-`;
    const old = ['0000000000000001', '0000000000000002', '0000000000000003'].map((d, i) => {
      const f = join(dir, `${family}${d}.cache`);
      writeFileSync(f, 'an older build');
      utimesSync(f, 1000 + i, 1000 + i);
      return f;
    });
    writeFileSync(join(dir, `main-${process.version}-${process.arch}-diff-0000000000000001.cache`), 'another command');
    expect(load(dir)).toBe('missing');
    expect(cacheFiles(dir).sort()).toEqual(
      [
        `main-${process.version}-${process.arch}-diff-0000000000000001.cache`,
        `${family}0000000000000002.cache`,
        `${family}0000000000000003.cache`,
        cacheFiles(dir).find((f) => f.startsWith(family) && !old.some((o) => o.endsWith(f)))!,
      ].sort(),
    );
  });

  it('keys the cache by the bundle\'s path too: two installs sharing a cache directory each name their own files in stack traces', () => {
    // V8 keeps the script name a code cache was made with: the second install's stack traces
    // named the first install's bundle.
    const dir = join(tempDir(), 'cache');
    const installs = [tempDir(), tempDir()].map((root) => {
      mkdirSync(join(root, 'dist', 'bundle'), { recursive: true });
      copyFileSync(BUNDLE, join(root, 'dist', 'bundle', 'main.cjs'));
      copyFileSync(join(ROOT, 'package.json'), join(root, 'package.json'));
      symlinkSync(join(ROOT, 'node_modules'), join(root, 'node_modules'));
      return join(root, 'dist', 'bundle', 'main.cjs');
    });
    // A stack from inside the bundle: the help commander writes goes through the bundle's own io.stdout.write caller.
    const stackFrom = (bundle: string) => {
      const script = `
        import { loadBundle } from ${JSON.stringify(pathToFileURL(join(ROOT, 'bin', 'compile-cache.js')).href)};
        const b = loadBundle(${JSON.stringify(bundle)}, 'rules', { MCP_ANNOTATE_CACHE_DIR: ${JSON.stringify(dir)} });
        let stack = '';
        const stdout = { write: () => { stack ||= new Error().stack; return true; } };
        await b.exports.run(['--help'], { stdout, stderr: stdout, stdin: process.stdin, cwd: process.cwd(), env: {} });
        b.save();
        process.stdout.write(JSON.stringify({ status: b.status, stack }));`;
      const { status, stack } = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
      return { status, files: [...new Set((stack as string).match(/\/[^\s():]*main\.cjs/g))] };
    };
    for (const [i, status] of [[0, 'missing'], [1, 'missing'], [0, 'used'], [1, 'used']] as const) {
      expect(stackFrom(installs[i]!), `install ${i}, cache ${status}`).toEqual({ status, files: [installs[i]] });
    }
    expect(cacheFiles(dir)).toHaveLength(2);
  });

  it('falls back to compiling when the cache is corrupt, and replaces it', () => {
    const dir = join(tempDir(), 'cache');
    load(dir);
    const [file] = cacheFiles(dir);
    const bytes = readFileSync(join(dir, file!));
    const header = bytes.indexOf(0x0a) + 1 + 4;
    bytes.fill(0x5a, header); // keep our header and the length, scramble V8's data
    writeFileSync(join(dir, file!), bytes);
    expect(load(dir)).toBe('rejected');
    expect(load(dir)).toBe('used');
    writeFileSync(join(dir, file!), bytes.subarray(0, bytes.length - 100)); // cut short
    expect(load(dir)).toBe('missing');
    expect(load(dir)).toBe('used');
  });

  it('ignores a cache made from another build of the bundle', () => {
    const dir = join(tempDir(), 'cache');
    load(dir);
    const [file] = cacheFiles(dir);
    const text = readFileSync(join(dir, file!), 'latin1');
    writeFileSync(join(dir, file!), text.replace(/^(mcp-annotate code cache )[0-9a-f]{64}/, `$1${'0'.repeat(64)}`), 'latin1');
    expect(load(dir)).toBe('missing');
  });

  it.runIf(process.getuid?.() === 0)("ignores a cache file another user owns (it could hold anyone's code)", () => {
    const dir = join(tempDir(), 'cache');
    load(dir);
    const [file] = cacheFiles(dir);
    chownSync(join(dir, file!), 1, 1);
    expect(load(dir)).toBe('missing');
  });

  it('is off with MCP_ANNOTATE_NO_CACHE=1 or NODE_DISABLE_COMPILE_CACHE=1, and lives under XDG_CACHE_HOME by default', () => {
    expect(cacheDir({ MCP_ANNOTATE_NO_CACHE: '1', MCP_ANNOTATE_CACHE_DIR: '/x' })).toBeUndefined();
    expect(cacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' })).toBeUndefined();
    expect(cacheDir({ MCP_ANNOTATE_CACHE_DIR: '/x/y' })).toBe('/x/y');
    if (process.platform !== 'win32') expect(cacheDir({ XDG_CACHE_HOME: '/home/u/.cache' })).toBe('/home/u/.cache/mcp-annotate');
    const dir = join(tempDir(), 'cache');
    expect(load(dir, { MCP_ANNOTATE_NO_CACHE: '1' })).toBe('off');
    expect(cacheFiles(dir)).toEqual([]);
  });

  it('prints the same bytes with no cache, a fresh cache, a used cache and an unwritable cache directory', async () => {
    const base = tempDir({ 'not-a-dir': 'a file where the cache directory would go' });
    const dir = join(base, 'cache');
    const plain = await runCli(EXAMPLE, { env: { MCP_ANNOTATE_NO_CACHE: '1' } });
    expect(plain.code).toBe(0);
    expect(plain.stdout.length).toBeGreaterThan(1000);
    const fresh = await runCli(EXAMPLE, { env: { MCP_ANNOTATE_CACHE_DIR: dir } });
    expect(cacheFiles(dir)).toHaveLength(1);
    const cached = await runCli(EXAMPLE, { env: { MCP_ANNOTATE_CACHE_DIR: dir } });
    const unwritable = await runCli(EXAMPLE, { env: { MCP_ANNOTATE_CACHE_DIR: join(base, 'not-a-dir', 'cache') } });
    for (const r of [fresh, cached, unwritable]) expect(r).toEqual(plain);
  });
});
