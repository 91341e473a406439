/** In-process lint of files or text, through the same pipeline the CLI uses. */
import { RULES } from '../../rules/index.js';
import { lint } from '../../src/engine/engine.js';
import { loadTargets, loadText } from '../../src/sources/files.js';
import type { Report } from '../../src/reporters/types.js';
import type { EngineOptions } from '../../src/engine/engine.js';

export async function reportFor(targets: string[], cwd: string, opts: EngineOptions = {}): Promise<Report> {
  const loaded = await loadTargets(targets, cwd);
  const result = lint(loaded.servers, RULES, opts);
  return { findings: result.findings, servers: result.servers, errors: loaded.errors, rules: RULES, cwd };
}

export function reportForText(text: string, display = 'dump.json', cwd = process.cwd(), opts: EngineOptions = {}): Report {
  const servers = loadText(text, { kind: 'file', path: display, display }, display.replace(/\.json$/, ''), display);
  const result = lint(servers, RULES, opts);
  return { findings: result.findings, servers: result.servers, errors: [], rules: RULES, cwd };
}
