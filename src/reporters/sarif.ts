/**
 * sarif: SARIF 2.1.0 for GitHub code scanning. One run per file; full rule metadata
 * (the rule's doc page as help markdown); results with a physical location relative
 * to the repository root when the tools came from a file, logical locations for the
 * tool and its server, content-based fingerprints, related locations and fixes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Rule } from '../rule.js';
import { CATEGORY_TITLES } from '../rule.js';
import type { Finding, Region, Severity } from '../types.js';
import { PACKAGE_ROOT, TOOL_NAME, repositoryUrl, ruleDocUrl, version } from '../version.js';
import { relativeInside } from '../util/paths.js';
import { unwrittenSentence, visible, type Report, type ReporterOptions } from './types.js';
import { spliceArray } from './json.js';

/** node:crypto, loaded when the first hash is needed (it costs start-up time otherwise). */
const sha256 = () => process.getBuiltinModule('node:crypto').createHash('sha256');

/** What SRCROOT stands for, in originalUriBaseIds. */
export const SRCROOT_DESCRIPTION = 'The repository root: the nearest directory holding .git above the directory mcp-annotate ran in (else that directory). Relative artifact URIs are relative to it.';

/** GitHub code scanning accepts at most this many results per run. */
export const SARIF_RESULT_LIMIT = 25_000;

/** Whether the SARIF log of this run holds every finding it would show (none left out for SARIF_RESULT_LIMIT). */
export function sarifKeepsAll(report: Pick<Report, 'findings'>, quiet: boolean): boolean {
  let n = 0;
  for (const f of report.findings) if (!quiet || f.severity === 'error') n++;
  return n <= SARIF_RESULT_LIMIT;
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', note: 'note' };

/** The repository root (nearest ancestor with .git), else the working directory. */
export function sourceRoot(cwd: string): string {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return resolve(cwd);
  }
}

function pascal(id: string): string {
  return id
    .split(/[-/]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/**
 * A rule's help markdown: its doc page, whose links to other pages (`schema-valid.md`,
 * `schema-valid.md#anchor`, `../…`) are relative to docs/rules/ in the repository. Code scanning
 * shows the text on an alert's page, where such a link would resolve to …/security/code-scanning/…
 * (a 404): each relative link is made absolute against the page's own URL (ruleDocUrl, or the
 * rule's helpUri). Fenced code is left as it is.
 */
export function ruleHelp(rule: Rule): string {
  let text: string;
  try {
    text = readFileSync(new URL(`docs/rules/${rule.id}.md`, PACKAGE_ROOT), 'utf8');
  } catch {
    text = `# ${rule.id}\n\n${rule.summary}\n\n${rule.why}\n`;
  }
  return absoluteLinks(text, rule.helpUri ?? ruleDocUrl(rule.id));
}

/** A relative link destination resolved against `base`; an absolute one (a scheme) as it is. */
function absolute(dest: string, base: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(dest)) return dest;
  try {
    return new URL(dest, base).href;
  } catch {
    return dest;
  }
}

/** Markdown with the destinations of its inline links and images and its link reference definitions made absolute against `base`, outside fenced code. */
export function absoluteLinks(markdown: string, base: string): string {
  let fence: string | undefined;
  return markdown
    .split('\n')
    .map((line) => {
      const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
      if (fence !== undefined) {
        if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && /^ {0,3}[`~]+\s*$/.test(line)) fence = undefined;
        return line;
      }
      if (open) {
        fence = open[1]!;
        return line;
      }
      return line
        .replace(/(\]\(\s*)(<[^>\n]*>|[^\s()<>]+)/g, (_m, lead: string, dest: string) =>
          dest.startsWith('<') ? `${lead}<${absolute(dest.slice(1, -1), base)}>` : `${lead}${absolute(dest, base)}`,
        )
        .replace(/^( {0,3}\[[^\]]+\]:\s*)(\S+)/, (_m, lead: string, dest: string) => `${lead}${absolute(dest, base)}`);
    })
    .join('\n');
}

/**
 * Markdown as SARIF plain text (fullDescription.text, help.text): links become their text,
 * code spans their content, and emphasis (`**x**`, `*x*`, `__x__`, `_x_`), headings, list
 * markers, block quotes and code fences with their info strings go, keeping the words. An
 * underscore inside a word (`snake_case`, `_meta`, `400_f48d.txt`) is no emphasis and stays,
 * and nothing inside a code span is touched.
 */
export function plain(markdown: string): string {
  const lines = markdown
    .split('\n')
    // A code fence line (with its info string) goes; the code stays as text.
    .filter((line) => !/^\s*(`{3,}|~{3,})[^`]*$/.test(line))
    .map((line) =>
      line
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^\s*(?:>\s?)+/, '')
        .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+/, ''),
    );
  // Code spans are kept apart from the emphasis stripping: `a_b_c`, `**x**` there are literal.
  return lines
    .join('\n')
    .split(/(`+[^`]*`+)/)
    .map((part, i) => (i % 2 === 1 ? part.replace(/^`+\s?|\s?`+$/g, '') : unemphasize(part.replace(/!?\[([^\]]+)\]\([^)]+\)/g, '$1'))))
    .join('')
    .replace(/`/g, '')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

/** Emphasis markers off, the words kept (CommonMark's flanking rules, simplified: an "_" run inside a word is literal). */
function unemphasize(text: string): string {
  let out = text;
  for (let pass = 0; pass < 3; pass++) {
    const before = out;
    out = out
      .replace(/(\*{1,2})(?=[^\s*])([^*]*?[^\s*])\1/g, '$2')
      .replace(/(?<![\p{L}\p{N}_\\])(_{1,2})(?=[^\s_])([^_]*?[^\s_])\1(?![\p{L}\p{N}_])/gu, '$2');
    if (out === before) break;
  }
  return out;
}

/**
 * A rule's SARIF metadata. GitHub code scanning ranks a security rule's alerts by its
 * `security-severity` (one number for the rule, not per result) and fails a pull request's
 * check from "high" (7.0) up, whatever a result's level. So the number is given only when every
 * result of the rule in this run is at the rule's own level: when any is not — a documented
 * lower case of the rule, a note with nothing to fix, or a severity the configuration set (a
 * preset, a `rules` setting, an override) — it is left out, and code scanning ranks
 * the rule's alerts by their level (error, warning, note) instead.
 */
export function sarifRule(rule: Rule, byLevel = false) {
  const tags = ['mcp', CATEGORY_TITLES[rule.category].toLowerCase(), ...(rule.tags ?? [])];
  if (rule.security !== undefined) tags.unshift('security');
  const properties: Record<string, unknown> = { tags, precision: rule.precision };
  if (rule.security !== undefined && !byLevel) properties['security-severity'] = rule.security.toFixed(1);
  return {
    id: rule.id,
    name: pascal(rule.id),
    // Plain text fields: a policy's summary is its description, as its author wrote it.
    shortDescription: { text: plain(rule.summary) },
    fullDescription: { text: plain(rule.why) },
    help: { text: `${plain(rule.summary)} ${plain(rule.why)} See ${rule.helpUri ?? ruleDocUrl(rule.id)}`, markdown: ruleHelp(rule) },
    helpUri: rule.helpUri ?? ruleDocUrl(rule.id),
    defaultConfiguration: { level: LEVEL[rule.severity] },
    properties,
  };
}

function region(r: Region) {
  return { startLine: r.line, startColumn: r.column, endLine: r.endLine, endColumn: r.endColumn };
}

/** The log without its results, the findings to write as results, and how to turn one into a result. */
function prepare(report: Report, opts: Pick<ReporterOptions, 'quiet'>) {
  const root = sourceRoot(report.cwd);
  const uris = new Map<string, { uri: string; uriBaseId?: string }>();
  const uriFor = (display: string) => {
    let known = uris.get(display);
    if (known === undefined) {
      const abs = resolve(report.cwd, display);
      const rel = relativeInside(root, abs);
      known = rel === undefined ? { uri: pathToFileURL(abs).href } : { uri: rel.split('/').map(encodeURIComponent).join('/'), uriBaseId: 'SRCROOT' };
      uris.set(display, known);
    }
    return { ...known };
  };
  const ruleIndex = new Map(report.rules.map((r, i) => [r.id, i]));
  const all = visible(report.findings, opts.quiet);
  // Over GitHub's limit: keep the most severe, say how many were left out.
  const ranked = all.length > SARIF_RESULT_LIMIT ? [...all].sort((a, b) => rank(b) - rank(a)).slice(0, SARIF_RESULT_LIMIT) : all;
  const kept = new Set(ranked);
  const findings = all.filter((f) => kept.has(f));
  const occurrences = new Map<string, number>();
  // Rules with a result at another level than their own: ranked by level, not by security-severity.
  const defaults = new Map(report.rules.map((r) => [r.id, r.severity]));
  const byLevel = new Set<string>();
  for (const f of findings) if (f.severity !== defaults.get(f.ruleId)) byLevel.add(f.ruleId);

  const toResult = (f: Finding) => {
    // The detail too, when the rule gives one (the baseline's key has it for the same reason):
    // the hidden characters found. Else dismissing the alert for one zero-width space would also
    // cover a bidi override added at that place later. Not for a note with nothing to fix (a
    // policy's undecided note, whose detail is its list of tools): dismissed once, it stays
    // dismissed while its tools come and go.
    const key = [f.server, f.tool ?? '', f.ruleId, f.keyPointer ?? f.toolPointer, ...(f.detail !== undefined && !f.informational ? [f.detail] : [])].join('\u0000');
    const n = occurrences.get(key) ?? 0;
    occurrences.set(key, n + 1);
    const fingerprint = sha256().update(`${key}\u0000${n}`).digest('hex').slice(0, 32);
    const logicalLocations = [
      ...(f.tool !== undefined ? [{ name: f.tool, fullyQualifiedName: `${f.server}/${f.tool}`, kind: 'function' }] : []),
      { name: f.server, fullyQualifiedName: f.server, kind: 'module' },
    ];
    const location: Record<string, unknown> = { logicalLocations };
    if (f.file && f.region) location.physicalLocation = { artifactLocation: uriFor(f.file), region: region(f.region) };
    const result: Record<string, unknown> = {
      ruleId: f.ruleId,
      ruleIndex: ruleIndex.get(f.ruleId) ?? -1,
      level: LEVEL[f.severity],
      message: { text: f.suggestion ? `${f.message}. Fix: ${f.suggestion}` : f.message },
      locations: [location],
      partialFingerprints: { 'mcpAnnotate/v1': fingerprint },
      properties: { server: f.server, ...(f.tool !== undefined ? { tool: f.tool } : {}), pointer: f.pointer },
    };
    if (f.related?.length) {
      result.relatedLocations = f.related.map((r, i) => ({
        id: i + 1,
        message: { text: r.message },
        ...(r.file && r.region ? { physicalLocation: { artifactLocation: uriFor(r.file), region: region(r.region) } } : {}),
        logicalLocations: [
          r.tool !== undefined
            ? { name: r.tool, fullyQualifiedName: `${r.server}/${r.tool}`, kind: 'function' }
            : { name: r.server, fullyQualifiedName: r.server, kind: 'module' },
        ],
      }));
    }
    if (f.fix?.regions?.length && f.file) {
      result.fixes = [
        {
          description: { text: f.fix.description },
          artifactChanges: [
            {
              artifactLocation: uriFor(f.file),
              replacements: f.fix.regions.map((r) => ({ deletedRegion: region(r.region), insertedContent: { text: r.text } })),
            },
          ],
        },
      ];
    }
    return result;
  };

  const notifications = report.errors.map((e) => ({
    level: 'error',
    message: { text: e.message },
    ...(e.file && e.line
      ? { locations: [{ physicalLocation: { artifactLocation: uriFor(e.file), region: { startLine: e.line, startColumn: e.column ?? 1 } } }] }
      : {}),
  }));
  for (const u of report.unwritten ?? []) notifications.push({ level: 'error', message: { text: unwrittenSentence(u) } });
  if (findings.length < all.length) {
    notifications.push({
      level: 'warning',
      message: { text: `${all.length - findings.length} of ${all.length} results were left out: GitHub code scanning accepts at most ${SARIF_RESULT_LIMIT} per run (the most severe were kept)` },
    });
  }

  // Whether any artifact location is relative to SRCROOT: then the run defines it (the files
  // named are the same for results, related locations, fixes and notifications).
  const located = (file: string | undefined) => file !== undefined && uriFor(file).uriBaseId !== undefined;
  const usesRoot =
    findings.some((f) => ((f.region || f.fix?.regions?.length) && located(f.file)) || f.related?.some((r) => r.region && located(r.file))) ||
    report.errors.some((e) => e.line && located(e.file));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: TOOL_NAME,
            version: version(),
            semanticVersion: version(),
            informationUri: repositoryUrl(),
            rules: report.rules.map((r) => sarifRule(r, byLevel.has(r.id))),
          },
        },
        invocations: [
          {
            ...(report.exitCode !== undefined ? { exitCode: report.exitCode } : {}),
            executionSuccessful: report.errors.length === 0 && !report.unwritten?.length,
            toolExecutionNotifications: notifications,
          },
        ],
        // SRCROOT without a uri: the log stays the same on every machine (no absolute path of
        // the checkout in it), and a consumer resolves it as the repository root, which is where
        // GitHub code scanning reads relative URIs from anyway.
        ...(usesRoot ? { originalUriBaseIds: { SRCROOT: { description: { text: SRCROOT_DESCRIPTION } } } } : {}),
        columnKind: 'utf16CodeUnits',
        ...(report.baseline ? { properties: { baseline: report.baseline } } : {}),
        results: [] as Record<string, unknown>[],
      },
    ],
  };
  return { log, findings, toResult };
}

export function sarifLog(report: Report, opts: Pick<ReporterOptions, 'quiet'>) {
  const { log, findings, toResult } = prepare(report, opts);
  log.runs[0]!.results = findings.map(toResult);
  return log;
}

/** The log as chunks, one result at a time (see jsonChunks); the bytes of JSON.stringify(sarifLog(…), null, 2), controls escaped as there. */
export function* sarifChunks(report: Report, opts: Pick<ReporterOptions, 'quiet'>): Generator<string> {
  const { log, findings, toResult } = prepare(report, opts);
  yield* spliceArray(log, 'results', 3, findings, toResult);
}

function rank(f: Finding): number {
  return f.severity === 'error' ? 3 : f.severity === 'warning' ? 2 : 1;
}

export function formatSarif(report: Report, opts: ReporterOptions): string {
  return [...sarifChunks(report, opts)].join('');
}
