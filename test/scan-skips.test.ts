/**
 * A directory scan or a glob in an ordinary repository finds other programs' JSON files
 * (package.json, tsconfig.json, …): they are skipped with one note, not linted as tools (a
 * package.json read as the tool "my-mcp-servers" failed CI with exit 1, a tsconfig.json was an
 * input error, exit 2). A file named as a target is read as it always was.
 */
import { describe, expect, it } from 'vitest';
import { json, runCliInProcess as runCli, tempDir, tool } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess

const dump = json({ tools: [tool('get_issue', { readOnlyHint: true, openWorldHint: false })] });
const pkg = json({ name: 'my-mcp-servers', version: '1.0.0', private: true });
const notes = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('mcp-annotate: note:'));

describe('directory scans and globs skip files that are not dumps', () => {
  it('skips package.json and a tsconfig.json with comments in a Node repository, with one note', async () => {
    const dir = tempDir({
      'github.json': dump,
      'package.json': pkg,
      'package-lock.json': json({ name: 'my-mcp-servers', lockfileVersion: 3, packages: {} }),
      'tsconfig.json': '{\n  // strict\n  "compilerOptions": { "strict": true }\n}\n',
      'tsconfig.build.json': json({ extends: './tsconfig.json' }),
    });
    const r = await runCli(['lint', '.', '--no-config', '-f', 'json'], { cwd: dir });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { servers: { name: string }[]; inputErrors: unknown[] };
    expect(report.servers.map((s) => s.name)).toEqual(['github']);
    expect(report.inputErrors).toEqual([]);
    expect(notes(r.stderr)).toEqual([
      "mcp-annotate: note: skipped package-lock.json, package.json, tsconfig.build.json, tsconfig.json (found by a directory or a glob): by their names, config files of other tools (npm's, TypeScript's, …), and they hold no tools/list dump; name a file as a target to read it anyway",
    ]);
    // A glob whose file-name part is a pattern skips them too.
    const glob = await runCli(['lint', '*.json', '--no-config'], { cwd: dir });
    expect(glob.code).toBe(0);
    expect(glob.stdout).not.toContain('my-mcp-servers');
    expect(notes(glob.stderr)).toHaveLength(1);
  });

  it('still reads a file named as a target, or by a glob that names the file, as before', async () => {
    const dir = tempDir({ 'package.json': pkg, 'pkgs/a/package.json': pkg });
    const named = await runCli(['lint', 'package.json', '--no-config'], { cwd: dir });
    expect(named.code).toBe(1);
    expect(named.stdout).toContain('my-mcp-servers');
    expect(named.stdout).toContain('input-schema-object');
    expect(notes(named.stderr)).toEqual([]);
    const glob = await runCli(['lint', 'pkgs/*/package.json', '--no-config'], { cwd: dir });
    expect(glob.code).toBe(1);
    expect(glob.stdout).toContain('input-schema-object');
    // Named and found by a directory: read as named.
    const both = await runCli(['lint', 'package.json', '.', '--no-config'], { cwd: dir });
    expect(both.stdout).toContain('package.json');
    expect(both.stdout).toContain('input-schema-object');
  });

  it('lints a file with a well-known name that holds a dump (a snapshot of a server named "vercel")', async () => {
    const dir = tempDir({ 'vercel.json': json({ serverInfo: { name: 'vercel' }, tools: [tool('deploy')] }) });
    const r = await runCli(['lint', '.', '--no-config'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('vercel.json');
    expect(r.stdout).toContain('deploy');
    expect(notes(r.stderr)).toEqual([]);
  });

  it('skips a package.json with an "mcp-annotate" key that is not the config in use', async () => {
    const dir = tempDir({
      '.mcp-annotaterc.json': json({ rules: {} }),
      'package.json': json({ name: 'my-mcp-servers', version: '1.0.0', 'mcp-annotate': { rules: {} } }),
      'github.json': dump,
    });
    const r = await runCli(['lint', '.'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('my-mcp-servers');
    expect(notes(r.stderr)).toHaveLength(1);
    expect(notes(r.stderr)[0]).toContain('skipped package.json');
  });

  it('skips one object with "name" but no member only a tool has, and lints one that has such a member', async () => {
    const dir = tempDir({
      'github.json': dump,
      'app.json': json({ name: 'my-app', description: 'a web app', scripts: {} }),
      'tools/annotated.json': json({ name: 'delete_file', annotations: { destructiveHint: true } }),
      'tools/no-name.json': json({ inputSchema: { type: 'object' } }),
    });
    const r = await runCli(['lint', '.', '--no-config'], { cwd: dir });
    // The annotated tool without inputSchema is still linted (its error fails the run); app.json is not.
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('my-app');
    expect(r.stdout).toContain('delete_file');
    expect(r.stdout).toContain('tools/no-name.json');
    expect(notes(r.stderr)).toEqual([
      'mcp-annotate: note: skipped app.json (found by a directory or a glob): one object with "name" but no "inputSchema", "outputSchema" or "annotations", which is not an MCP tool; name a file as a target to read it as a single tool anyway',
    ]);
    // Named, it is read as a tool, as before.
    const named = await runCli(['lint', 'app.json', '--no-config'], { cwd: dir });
    expect(named.code).toBe(1);
    expect(named.stdout).toContain('my-app');
  });

  it('skips a JSON Schema document (a json-schema.org "$schema", no "tools"), with a note; other JSON files found are still input errors, and \'!pattern\' leaves them out', async () => {
    const dir = tempDir({
      'github.json': dump,
      'schemas/report.schema.json': json({ $schema: 'https://json-schema.org/draft/2020-12/schema', title: 'Report', type: 'object', properties: { id: { type: 'string' } } }),
      'schemas/config.schema.json': json({ $schema: 'http://json-schema.org/draft-07/schema#', $id: 'urn:x', type: 'object' }),
      // A dump that records a "$schema" is still a dump; so is an MCP bundle's manifest.
      'schemas/snap.json': json({ $schema: 'https://json-schema.org/draft/2020-12/schema', serverInfo: { name: 'snap' }, tools: [tool('read_snap', { readOnlyHint: true, openWorldHint: false })] }),
      'bundle/manifest.json': json({ manifest_version: '0.2', name: 'bundle', version: '1.0.0', tools: [{ name: 'get_bundle', description: 'Get the bundle.' }] }),
      'data/other.json': json({ rows: [1, 2] }),
      // A JSON-RPC response or a file of servers that records a "$schema" is a dump too.
      'schemas/resp.json': json({ $schema: 'https://json-schema.org/draft/2020-12/schema', result: { tools: [tool('read_resp', { readOnlyHint: true, openWorldHint: false })] } }),
      'schemas/multi.json': json({ $schema: 'https://json-schema.org/draft/2020-12/schema', servers: [{ serverInfo: { name: 'multi' }, tools: [tool('read_multi', { readOnlyHint: true, openWorldHint: false })] }] }),
    });
    const r = await runCli(['lint', '.', '--no-config', '-f', 'json'], { cwd: dir });
    // data/other.json is no dump: an input error.
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout) as { servers: { name: string }[]; inputErrors: { target: string }[] };
    expect(report.servers.map((s) => s.name).sort()).toEqual(['github', 'manifest', 'multi', 'resp', 'snap']);
    expect(report.inputErrors.map((e) => e.target)).toEqual(['data/other.json']);
    expect(notes(r.stderr)).toEqual([
      'mcp-annotate: note: skipped schemas/config.schema.json, schemas/report.schema.json (found by a directory or a glob): JSON Schema documents ("$schema" names a json-schema.org meta-schema, and no "tools"), not tools/list dumps; name a file as a target to read it anyway',
    ]);
    const left = await runCli(['lint', '.', '!data/**', '--no-config', '-f', 'json'], { cwd: dir });
    // Exit 1: the manifest's tool has no inputSchema (input-schema-object); no input error.
    expect(left.code).toBe(1);
    expect((JSON.parse(left.stdout) as { inputErrors: unknown[] }).inputErrors).toEqual([]);
    // A brace glob counts as a pattern; a schema named as a target is read as it is (an input error).
    const brace = await runCli(['lint', 'schemas/{report.schema,snap}.json', '--no-config'], { cwd: dir });
    expect(brace.code).toBe(0);
    expect(notes(brace.stderr)).toEqual([expect.stringContaining('skipped schemas/report.schema.json')]);
    const named = await runCli(['lint', 'schemas/report.schema.json', '--no-config'], { cwd: dir });
    expect(named.code).toBe(2);
    expect(named.stderr).toContain('schemas/report.schema.json:1:1: expected a tools/list result');
  });

  it('says a directory or a glob whose every file was skipped lints nothing (exit 2), as for one without .json files', async () => {
    const dir = tempDir({ 'd/package.json': pkg, 'd/tsconfig.json': json({ compilerOptions: {} }) });
    const r = await runCli(['lint', 'd', '--no-config'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'd: the directory holds no .json files to lint (the 2 files it holds are not tools/list dumps: d/package.json, d/tsconfig.json; name a file as a target to read it anyway)',
    );
    // The error names them: no note repeats it.
    expect(notes(r.stderr)).toEqual([]);
    const glob = await runCli(['lint', 'd/*.json', '--no-config'], { cwd: dir });
    expect(glob.code).toBe(2);
    expect(glob.stderr).toContain('d/*.json: no files to lint match this pattern (the 2 files it matches are not tools/list dumps: d/package.json, d/tsconfig.json;');
  });

  it('skips them in the config\'s targets and on either side of diff too', async () => {
    const dir = tempDir({ 'mcp-annotate.config.json': json({ targets: ['.'] }), 'github.json': dump, 'package.json': pkg });
    const r = await runCli(['lint'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(notes(r.stderr)).toHaveLength(1);
    const other = tempDir({ 'base/github.json': dump, 'base/package.json': pkg, 'head/github.json': dump, 'head/package.json': pkg });
    const d = await runCli(['diff', 'base', 'head', '--no-config'], { cwd: other });
    expect(d.code).toBe(0);
    expect(notes(d.stderr)).toEqual([
      expect.stringContaining('skipped base/package.json'),
      expect.stringContaining('skipped head/package.json'),
    ]);
  });
});
