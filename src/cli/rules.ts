/** `mcp-annotate rules` and `mcp-annotate explain <rule-id>`. */
import { readFileSync } from 'node:fs';
import { Chalk } from 'chalk';
import { RULES, ruleById } from '../../rules/index.js';
import { DRIFT_RULES, driftRuleById } from '../diff/rules/index.js';
import { CATEGORY_TITLES, type Rule } from '../rule.js';
import { PACKAGE_ROOT } from '../version.js';
import { closest, escapeTerminal, oneLine } from '../util/text.js';
import { EXIT, UsageError, useColor, type CliIO } from './io.js';
import { maxOf } from '../util/array.js';

export function rulesTable(rules: readonly Rule[]): string {
  const lines = ['| Rule | Severity | Category | Packs | Summary |', '| --- | --- | --- | --- | --- |'];
  for (const r of rules) {
    lines.push(`| [\`${r.id}\`](${r.helpUri ?? `docs/rules/${r.id}.md`}) | ${r.severity} | ${CATEGORY_TITLES[r.category]} | ${r.packs.join(', ')} | ${oneLine(r.summary).replace(/\|/g, '\\|')} |`);
  }
  return lines.join('\n') + '\n';
}

export function rulesCommand(format: 'text' | 'json' | 'markdown', io: CliIO, policies: readonly Rule[] = []): number {
  // The lint rules, then the drift rules of `mcp-annotate diff`, then the policies of the config.
  const ALL: readonly Rule[] = [...RULES, ...DRIFT_RULES, ...policies];
  if (format === 'json') {
    const list = ALL.map((r) => ({
      id: r.id,
      severity: r.severity,
      category: r.category,
      packs: r.packs,
      precision: r.precision,
      securitySeverity: r.security ?? null,
      summary: r.summary,
    }));
    io.stdout.write(JSON.stringify(list, null, 2) + '\n');
  } else if (format === 'markdown') {
    io.stdout.write(rulesTable(ALL));
  } else {
    const c = new Chalk({ level: useColor(undefined, io.env, io.stdout.isTTY) ? 1 : 0 });
    const width = Math.max(...ALL.map((r) => r.id.length));
    let category = '';
    for (const r of ALL) {
      if (r.category !== category) {
        category = r.category;
        io.stdout.write(`${category === ALL[0]!.category ? '' : '\n'}${c.bold(CATEGORY_TITLES[r.category])}\n`);
      }
      const sev = r.severity === 'error' ? c.red('error  ') : r.severity === 'warning' ? c.yellow('warning') : c.blue('note   ');
      io.stdout.write(`  ${r.id.padEnd(width)}  ${sev}  ${oneLine(r.summary)}${r.packs.length ? `  ${c.dim(`[${r.packs.join(', ')}]`)}` : ''}\n`);
    }
    io.stdout.write(`\n${RULES.length} lint rules and ${DRIFT_RULES.length} drift rules (mcp-annotate diff)${policies.length ? `, and ${policies.length} ${policies.length === 1 ? 'policy' : 'policies'} of the config` : ''}. mcp-annotate explain <rule-id> shows a rule's documentation.\n`);
  }
  return EXIT.ok;
}

/** Markdown to terminal text: headings bold, code indented, markers and comments dropped. */
export function terminalMarkdown(markdown: string, color: boolean): string {
  const c = new Chalk({ level: color ? 1 : 0 });
  const inline = inlineMarkup(c);
  // A cell as it shows, for widths: the same markup with no colour.
  const plain = inlineMarkup(new Chalk({ level: 0 }));
  const out: string[] = [];
  let inCode = false;
  let table: string[][] = [];
  // A markdown table as aligned columns: its header in bold (none when every header cell is empty).
  const flushTable = () => {
    if (table.length === 0) return;
    const [header, ...rows] = table;
    const shown = header!.every((cell) => cell === '') ? rows : [header!, ...rows];
    const widths = header!.map((_, i) => Math.min(TABLE_COLUMN_MAX, maxOf(shown.map((r) => plain(r[i] ?? '').length))));
    shown.forEach((row, n) => {
      const line = row.map((cell, i) => (i === row.length - 1 ? inline(cell) : inline(cell) + ' '.repeat(Math.max(0, widths[i]! - plain(cell).length)))).join('  ');
      out.push(n === 0 && shown[0] === header ? c.bold(line) : line);
    });
    table = [];
  };
  // The lines of one paragraph or list item: a **bold** or `code` span may run across them.
  let block: string[] = [];
  const flushBlock = () => {
    if (block.length) out.push(inline(block.join('\n')));
    block = [];
  };
  for (const line of markdown.replace(/<!--[\s\S]*?-->\n?/g, '').split('\n')) {
    if (!inCode && line.startsWith('|')) {
      flushBlock();
      if (!/^\|(\s*:?-{3,}:?\s*\|)+\s*$/.test(line)) table.push(cells(line));
      continue;
    }
    flushTable();
    if (line.startsWith('```')) {
      flushBlock();
      inCode = !inCode;
      continue;
    }
    if (inCode) out.push(c.cyan(`    ${line}`));
    else if (/^#{1,3} /.test(line)) {
      flushBlock();
      out.push(c.bold(line.replace(/^#+ /, '')));
    } else if (line.trim() === '' || /^\s*(?:[-*+]|\d+\.) /.test(line) || line.startsWith('>')) {
      // A blank line ends the block; a list item or a quote starts one of its own.
      flushBlock();
      if (line.trim() === '') out.push(line);
      else block.push(line);
    } else block.push(line);
  }
  flushBlock();
  flushTable();
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** Columns of a table in the terminal are padded to at most this width; a longer cell runs on. */
const TABLE_COLUMN_MAX = 32;

/** The cells of a markdown table row (escaped pipes kept as "|"). */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/**
 * `code` and **bold** as colour (as plain text when the chalk has no colour). Code spans are
 * found first, so the stars of a glob in one are not bold; either may run across the lines of a
 * block.
 */
function inlineMarkup(c: InstanceType<typeof Chalk>): (text: string) => string {
  return (text) => {
    // Code spans stand aside as placeholders (NUL never occurs in a doc page) while bold is found.
    const code: string[] = [];
    const held = text.replace(/`([^`]+)`/g, (_m, t: string) => `\u0000${code.push(t) - 1}\u0000`);
    return held
      .replace(/\*\*((?:[^*]|\*(?!\*))+?)\*\*/g, (_m, t: string) => c.bold(t))
      .replace(/\u0000(\d+)\u0000/g, (_m, n: string) => c.cyan(code[Number(n)]!));
  };
}

export function explainCommand(id: string, io: CliIO, policies: readonly Rule[] = []): number {
  const rule = ruleById(id) ?? driftRuleById(id) ?? policies.find((p) => p.id === id);
  if (!rule) {
    const guess = closest(id, [...RULES, ...DRIFT_RULES, ...policies].map((r) => r.id));
    throw new UsageError(`unknown rule ${JSON.stringify(id)}${guess ? `; did you mean ${JSON.stringify(guess)}?` : ''} (mcp-annotate rules lists them)`);
  }
  // A policy of the config has no page in docs/rules/: its page is its summary and why, which
  // quote the config (its description, its conditions' values): escaped as any other string is.
  const markdown = rule.category === 'policy' ? escapeTerminal(`# ${rule.id}\n\n> ${oneLine(rule.summary)}\n\n${rule.why}\n`) : readFileSync(new URL(`docs/rules/${rule.id}.md`, PACKAGE_ROOT), 'utf8');
  io.stdout.write(terminalMarkdown(markdown, useColor(undefined, io.env, io.stdout.isTTY)) + '\n');
  return EXIT.ok;
}
