/**
 * The command line. Commands load what they need lazily, so `--version` and `rules`
 * never pay for the engine, and file targets never load the MCP SDK.
 */
import { Command, CommanderError, Option } from 'commander';
import { lintCommand } from './lint.js';
import { EXIT, quietWhenFailed, UsageError, type CliIO } from './io.js';
import { TOOL_NAME, version } from '../version.js';
import { SPEC_VERSIONS, LATEST_SPEC, PACK_IDS } from '../types.js';
import { addLiveOptions, nonEmptyPath, saveSnapshotsDir } from '../sources/live/options.js';
import { MARKDOWN_MIN_BYTES } from '../reporters/markdown.js';
import { guardedStream, inWorkflowLog } from '../util/workflow-log.js';

function collectList(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}

/** --vocab and --disable-vocab: a value must name a vocabulary (`--vocab ''` meant every one). */
const vocabList = (flag: string) => (value: string, previous: string[] | undefined): string[] => {
  const list = collectList(value, undefined);
  if (list.length === 0) throw new UsageError(`${flag} ${JSON.stringify(value)} names no vocabulary; give pack ids, comma-separated: ${PACK_IDS.join(', ')}`);
  return [...(previous ?? []), ...list];
};

/** -c '' (an unset variable) read the working directory as the config file ("is a directory"). */
const configPath = nonEmptyPath('-c', "give the config file's name, or --no-config for none");

export interface OutputSpec {
  format: string;
  file?: string;
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  let exitCode: number = EXIT.ok;
  // A stdout or stderr that has failed (a pipe closed early) takes no more writes.
  io = { ...io, stdout: quietWhenFailed(io.stdout), stderr: quietWhenFailed(io.stderr) };
  // In a GitHub Actions log, nothing a server says on stderr may act as a workflow command.
  if (inWorkflowLog(io.env)) io = { ...io, stderr: guardedStream(io.stderr, 'text') };
  // `lint -- <command> <args…>` / `dump -- …`: everything after -- is one stdio server's command, verbatim.
  let command: string[] | undefined;
  const dashes = argv.indexOf('--');
  if (dashes !== -1 && argv.slice(0, dashes).some((a) => a === 'lint' || a === 'dump' || a === 'diff')) {
    command = argv.slice(dashes + 1);
    argv = argv.slice(0, dashes);
    if (command.length === 0 || command[0]!.trim() === '') {
      io.stderr.write(`${TOOL_NAME}: ${command.length ? `-- ${JSON.stringify(command[0])} names no command` : 'nothing after --'}: give the command of a stdio MCP server, e.g. -- node server.js\n`);
      return EXIT.error;
    }
  }
  const program = new Command();
  const outputs: OutputSpec[] = [];
  let pendingFile: string | undefined;
  // -f/-o pairs: each --format writes to the --output-file right after it, or to one right
  // before it (`-o r.json -f json`); a lone -o with no --format at all is text. Any other -o
  // has no format of its own and is a usage error (it was dropped, or written as text).
  const dangling = (file: string) => new UsageError(`-o ${file} has no --format before it; give each --output-file its own: -f json -o ${file}`);
  const addFormat = (value: string) => {
    outputs.push({ format: value, file: pendingFile });
    pendingFile = undefined;
    return value;
  };
  const addOutputFile = (value: string) => {
    const last = outputs[outputs.length - 1];
    if (pendingFile !== undefined) throw dangling(pendingFile);
    if (last && last.file === undefined) last.file = value;
    else pendingFile = value;
    return value;
  };
  /** At the end of the command line: an -o still waiting for a format. */
  const finishOutputs = () => {
    if (pendingFile === undefined) return;
    if (outputs.length) throw dangling(pendingFile);
    outputs.push({ format: 'text', file: pendingFile });
  };
  const byteCount = (v: string) => {
    if (!/^\d+$/.test(v)) throw new UsageError(`--markdown-max-bytes must be a whole number of bytes, got ${JSON.stringify(v)}`);
    if (Number(v) < MARKDOWN_MIN_BYTES) throw new UsageError(`--markdown-max-bytes must be at least ${MARKDOWN_MIN_BYTES} (the heading, the counts and the note about left-out findings need that much), got ${v}`);
    return Number(v);
  };

  /** The report and run options lint and diff share: formats and files, vocabularies, failure thresholds, colour, config. */
  const addReportOptions = (cmd: Command, help: { markdown: string; config: string }): Command =>
    cmd
      .option('-f, --format <format>', 'output format: text, json, sarif, github or markdown; repeat with -o for several outputs', addFormat)
      .option('-o, --output-file <file>', 'write the report of the preceding --format to a file (- for stdout)', addOutputFile)
      .option('--vocab <packs>', `only these vocabularies (comma-separated; core is always on): ${PACK_IDS.join(', ')}`, vocabList('--vocab'))
      .option('--disable-vocab <packs>', 'turn these vocabularies off (comma-separated)', vocabList('--disable-vocab'))
      .addOption(new Option('--fail-on <level>', "exit 1 when a finding has this severity or higher (default: the config's failOn, else error)").choices(['error', 'warning', 'note', 'none']))
      .option('--max-warnings <n>', 'exit 1 when there are more than n warnings', (v: string) => {
        if (!/^\d+$/.test(v)) throw new UsageError(`--max-warnings must be a non-negative integer, got ${JSON.stringify(v)}`);
        return Number(v);
      })
      .option('--quiet', 'report errors only')
      .option('--color', 'force colour in text output')
      .option('--no-color', 'disable colour in text output')
      .option('--markdown-max-bytes <n>', help.markdown, byteCount)
      .option('-c, --config <file>', help.config, configPath)
      .option('--no-config', 'use no config file');

  program
    .name(TOOL_NAME)
    .description('Lint the annotations MCP servers put on their tools.')
    .version(version(), '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      outputError: (s, write) => write(`${TOOL_NAME}: ${s.replace(/^error: /, '')}`),
    });

  const lintProgram = program
    .command('lint')
    .description('lint tools/list dumps and session transcripts: files, globs, directories, or - for stdin')
    .argument('[targets...]', 'files, globs or directories of tools/list dumps or session transcripts (JSON, JSON Lines); - reads stdin')
    .addOption(new Option('--spec <version>', `MCP spec version to validate against (default: what a snapshot recorded, else ${LATEST_SPEC})`).choices(SPEC_VERSIONS));
  addReportOptions(lintProgram, {
    markdown: 'size budget of markdown reports (default 1000000, under the 1 MiB of a step summary; 65000 fits a pull-request comment)',
    config: 'use this config file instead of looking for one',
  })
    .option('--baseline <file>', 'report only findings that this baseline file does not list')
    .option('--update-baseline', 'write every current finding to the --baseline file (keeping justifications) and report none')
    .option('--fail-on-stale', 'exit 1 when baseline entries no longer occur');
  addLiveOptions(lintProgram, { forLint: true }).action(async (targets: string[], options) => {
    refuseEmptyTarget('lint', targets);
    finishOutputs();
    exitCode = await lintCommand(targets, { ...options, outputs, command }, io);
  });

  addLiveOptions(
    program
      .command('dump')
      .description("write a live server's snapshot {serverInfo, protocolVersion, capabilities, tools} for lint to read back")
      .argument('[url]', 'the server URL (or use --stdio, -- <command>, --mcp-config with --server)')
      .option('-o, --output-file <file>', 'write the snapshot to this file instead of stdout (- is stdout)'),
    { forLint: false },
  ).action(async (url: string | undefined, options) => {
    const { dumpCommand } = await import('./dump.js');
    exitCode = await dumpCommand(url, { ...options, command }, io);
  });

  addLiveOptions(
    addReportOptions(
      program
        .command('diff')
        .description('compare two snapshots of the same servers and report annotation changes that weaken what clients rely on')
        .argument('<base>', 'the snapshot before: a file, glob or directory of tools/list dumps, or - for stdin')
        .argument('[head]', 'the snapshot after (or a live server: --stdio, --url, --mcp-config)')
        .addOption(new Option('--spec <version>', `MCP spec version to read both snapshots with (default: what each recorded, else ${LATEST_SPEC})`).choices(SPEC_VERSIONS)),
      {
        markdown: 'size budget of markdown reports (default 1000000)',
        config: 'use this config file instead of looking for one (its drift/* rule severities, spec, vocabularies, failOn, maxWarnings)',
      },
    ),
    { forLint: false },
  )
    .option('--concurrency <n>', 'how many live head servers to run at once (default: 4)', (v: string) => {
      if (!/^[1-9]\d*$/.test(v)) throw new UsageError(`--concurrency must be a positive integer, got ${JSON.stringify(v)}`);
      return Number(v);
    })
    .option('--save-snapshots <dir>', "write each live head server's snapshot into this directory and point findings into those files", saveSnapshotsDir)
    .action(async (base: string, head: string | undefined, options) => {
      refuseEmptyTarget('diff', head === undefined ? [base] : [base, head]);
      finishOutputs();
      const { diffCommand } = await import('./diff.js');
      exitCode = await diffCommand(base, head, { ...options, outputs, command }, io);
    });

  program
    .command('rules')
    .description("list every rule: id, default severity, packs and summary (with the config's policies)")
    .addOption(new Option('-f, --format <format>', 'text, json or markdown').choices(['text', 'json', 'markdown']).default('text'))
    .option('-c, --config <file>', 'take the policies from this config file', configPath)
    .option('--no-config', 'use no config file')
    .action(async (options) => {
      const { rulesCommand } = await import('./rules.js');
      const { configuredPolicies } = await import('../config/settings.js');
      exitCode = rulesCommand(options.format, io, await configuredPolicies(options.config, io));
    });

  program
    .command('explain')
    .description("print a rule's documentation: why, incorrect and correct examples")
    .argument('<rule-id>', 'the rule to explain (or policy/<name> of the config)')
    .option('-c, --config <file>', 'take the policies from this config file', configPath)
    .option('--no-config', 'use no config file')
    .action(async (id: string, options) => {
      const { explainCommand } = await import('./rules.js');
      const { configuredPolicies } = await import('../config/settings.js');
      exitCode = explainCommand(id, io, await configuredPolicies(options.config, io));
    });

  program
    .command('init')
    .description('write a starter config file in the working directory')
    .argument('[targets...]', 'files or globs of tools/list dumps to put under targets')
    .addOption(new Option('--format <format>', 'yaml (explained in comments) or json (explained by its $schema)').choices(['yaml', 'json']).default('yaml'))
    .option('--force', 'overwrite an existing config file of the same name')
    .action(async (targets: string[], options) => {
      const { initCommand } = await import('./init.js');
      exitCode = await initCommand(targets, options, io);
    });

  // `help <name>` for a name that is no command printed the general help (on stderr, exit 2) and
  // never said why: it is the unknown command `mcp-annotate <name>` is, and says so the same way.
  const [first, asked] = argv;
  const unknownHelp =
    first === 'help' && asked !== undefined && asked !== 'help' && !asked.startsWith('-') && !program.commands.some((c) => c.name() === asked || c.aliases().includes(asked));
  try {
    await program.parseAsync(unknownHelp ? [asked] : argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return EXIT.ok;
      // The help shown for a missing command (`mcp-annotate` alone) is a usage error; `mcp-annotate help` is not.
      return err.exitCode === 0 ? EXIT.ok : EXIT.error;
    }
    if (err instanceof UsageError) {
      for (const line of err.message.split('\n')) io.stderr.write(`${TOOL_NAME}: ${line}\n`);
      return EXIT.error;
    }
    throw err;
  }
}

/**
 * An empty target ("", an unset variable) names no file: lint, and either side of diff, would
 * read the working directory (init refuses it too).
 */
function refuseEmptyTarget(command: 'lint' | 'diff', targets: string[]): void {
  if (targets.includes('')) throw new UsageError(`${command}: a target is empty (""); give files, globs or directories (. for the current directory)`);
}
