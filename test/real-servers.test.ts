/**
 * A regression corpus: the tools/list dumps of 15 real MCP servers (test/fixtures/real-servers/,
 * see its SOURCES.md), each linted on its own by the CLI (its run(), in this process) with the default config and with
 * `mcp-annotate:strict`. The findings — rule id, tool, pointer and severity, not the messages —
 * are compared with test/golden/real-servers.txt, so any change in what the rules say about real
 * servers (a new false positive above all) is a reviewed diff. `npm run docs` (or
 * UPDATE_GOLDEN=1 npx vitest run test/real-servers.test.ts) rewrites the golden.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { riskyParameters } from '../src/heuristics/parameters.js';
import { ROOT, runCliInProcess as runCli, tempDir } from './helpers/cli.js'; // runs over files and stdin in this process; see runCliInProcess

const DIR = join(ROOT, 'test', 'fixtures', 'real-servers');
const GOLDEN = join(ROOT, 'test', 'golden', 'real-servers.txt');
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

interface JsonFinding {
  ruleId: string;
  severity: string;
  tool: string | null;
  pointer: string;
}

/** Lints each dump on its own (cross-server rules would otherwise pair unrelated servers). */
async function lintEach(configArgs: string[]): Promise<Map<string, { tools: number; findings: JsonFinding[] }>> {
  const out = new Map<string, { tools: number; findings: JsonFinding[] }>();
  const runs = await Promise.all(FILES.map((f) => runCli(['lint', f, '-f', 'json', '--fail-on', 'none', ...configArgs], { cwd: DIR })));
  FILES.forEach((f, i) => {
    const r = runs[i]!;
    // A dump that records the first spec version (2024-11-05, older than the schemas mcp-annotate
    // ships) gets the one note saying which version it was linted against; any other stderr is a defect.
    const recorded = (JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { protocolVersion?: string }).protocolVersion;
    if (recorded === '2024-11-05') expect(r.stderr, f).toMatch(/^mcp-annotate: note: server "[^"]+" \([^)]+\) records protocol version "2024-11-05", older than every spec version mcp-annotate knows, so it was linted against spec 2025-03-26, the oldest;[^\n]*\n$/);
    else expect(r.stderr, f).toBe('');
    expect(r.code, f).toBe(0);
    const report = JSON.parse(r.stdout) as { findings: JsonFinding[]; inputErrors: unknown[] };
    expect(report.inputErrors, f).toEqual([]);
    const tools = (JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { tools: unknown[] }).tools.length;
    out.set(f, { tools, findings: report.findings });
  });
  return out;
}

function section(name: string, results: Map<string, { tools: number; findings: JsonFinding[] }>): string[] {
  const lines = [`## ${name}`, ''];
  const counts = new Map<string, number>();
  for (const { findings } of results.values()) {
    for (const f of findings) counts.set(`${f.ruleId} ${f.severity}`, (counts.get(`${f.ruleId} ${f.severity}`) ?? 0) + 1);
  }
  lines.push('Findings per rule and severity, all servers:', '');
  for (const key of [...counts.keys()].sort()) lines.push(`  ${String(counts.get(key)).padStart(4)}  ${key}`);
  lines.push('');
  for (const [file, { tools, findings }] of results) {
    lines.push(`### ${file} (${tools} tools, ${findings.length} findings)`, '');
    for (const f of findings) lines.push(`${f.severity.padEnd(7)}  ${f.ruleId}  ${f.tool ?? '-'}  ${f.pointer}`);
    lines.push('');
  }
  return lines;
}

describe('real servers (test/fixtures/real-servers/)', () => {
  it('holds the 15 dumps SOURCES.md lists, 308 tools', () => {
    expect(FILES).toHaveLength(15);
    const sources = readFileSync(join(DIR, 'SOURCES.md'), 'utf8');
    for (const f of FILES) expect(sources, f).toContain(`\`${f}\``);
    const tools = FILES.reduce((n, f) => n + (JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { tools: unknown[] }).tools.length, 0);
    expect(tools).toBe(308);
  });

  it('gives the findings of test/golden/real-servers.txt, with the default config and with mcp-annotate:strict', async () => {
    const dir = tempDir({ 'strict.json': JSON.stringify({ extends: 'mcp-annotate:strict' }) });
    const [plain, strict] = await Promise.all([lintEach(['--no-config']), lintEach(['--config', join(dir, 'strict.json')])]);
    const text =
      [
        '# What mcp-annotate reports on the real servers of test/fixtures/real-servers/ (see SOURCES.md there):',
        '# severity, rule, tool and pointer of every finding. Written by test/real-servers.test.ts;',
        '# `npm run docs` rewrites it. Review every change: a new line on a real server may be a false positive.',
        '',
        ...section('default config', plain),
        ...section('mcp-annotate:strict', strict),
      ].join('\n') + '\n';
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
    expect(existsSync(GOLDEN), 'test/golden/real-servers.txt is missing; run npm run docs').toBe(true);
    expect(
      text,
      'the findings on the real servers changed; if that is intended, run npm run docs (or UPDATE_GOLDEN=1 npx vitest run test/real-servers.test.ts) and review the diff of test/golden/real-servers.txt',
    ).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it("flags, among the operation selectors' real enum values, only those that change state (every tool read as if it were read-only)", () => {
    const flagged: string[] = [];
    for (const f of FILES) {
      const doc = JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { tools: { name: string; inputSchema: unknown }[] };
      doc.tools.forEach((t, i) => {
        for (const p of riskyParameters(t.inputSchema, `/tools/${i}/inputSchema`)) {
          if (p.kind === 'operation') flagged.push(`${t.name}.${p.path}: ${p.evidence.map((e) => e.text).join(' ')}`);
        }
      });
    }
    expect(flagged).toEqual([
      'actions_run_trigger.method: rerun_workflow_run rerun_failed_jobs delete_workflow_run_logs',
      'discussion_comment_write.method: add reply update delete',
      'issue_dependency_write.method: add remove',
      'issue_write.method: create update',
      'label_write.method: create update delete',
      'manage_notification_subscription.action: delete',
      'manage_repository_notification_subscription.action: delete',
      'projects_write.method: add_project_item update_project_item update_project_items delete_project_item create_project_status_update create_project_view update_project_view delete_project_view create_project create_iteration_field',
      'pull_request_review_write.method: create submit_pending delete_pending',
      'kubectl_rollout.subCommand: pause restart resume undo',
      'kubectl_context.operation: set',
      'node_management.operation: cordon drain uncordon',
    ]);
  });
});
