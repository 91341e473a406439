/**
 * The command line. Commands load what they need lazily, so `--version` and `rules`
 * never pay for the engine, and file targets never load the MCP SDK.
 */
import { Command, CommanderError, Option } from 'commander';
import { EXIT, UsageError, type CliIO } from './io.js';
import { TOOL_NAME, version } from '../version.js';
import { SPEC_VERSIONS, LATEST_SPEC, PACK_IDS } from '../types.js';

function collectList(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...value.split(',').map((v) => v.trim()).filter(Boolean)];
}

export interface OutputSpec {
  format: string;
  file?: string;
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  let exitCode: number = EXIT.ok;
  const program = new Command();
  const outputs: OutputSpec[] = [];
  let pendingFile: string | undefined;

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

  program
    .command('lint')
    .description('lint tools/list dumps: files, globs, directories, or - for stdin')
    .argument('[targets...]', 'files, globs or directories of tools/list dumps; - reads stdin')
    .addOption(new Option('--spec <version>', `MCP spec version to validate against (default: what a snapshot recorded, else ${LATEST_SPEC})`).choices(SPEC_VERSIONS))
    .option('-f, --format <format>', 'output format: text, json or sarif; repeat with -o for several outputs', (value: string) => {
      outputs.push({ format: value, file: pendingFile });
      pendingFile = undefined;
      return value;
    })
    .option('-o, --output-file <file>', 'write the report of the preceding --format to a file', (value: string) => {
      const last = outputs[outputs.length - 1];
      if (last && last.file === undefined) last.file = value;
      else pendingFile = value;
      return value;
    })
    .option('--vocab <packs>', `only these vocabularies (comma-separated; core is always on): ${PACK_IDS.join(', ')}`, collectList)
    .option('--disable-vocab <packs>', 'turn these vocabularies off (comma-separated)', collectList)
    .addOption(new Option('--fail-on <level>', 'exit 1 when a finding has this severity or higher').choices(['error', 'warning', 'note', 'none']).default('error'))
    .option('--max-warnings <n>', 'exit 1 when there are more than n warnings', (v: string) => {
      if (!/^\d+$/.test(v)) throw new UsageError(`--max-warnings must be a non-negative integer, got ${JSON.stringify(v)}`);
      return Number(v);
    })
    .option('--quiet', 'report errors only')
    .option('--color', 'force colour in text output')
    .option('--no-color', 'disable colour in text output')
    .action(async (targets: string[], options) => {
      if (pendingFile !== undefined) outputs.push({ format: 'text', file: pendingFile });
      const { lintCommand } = await import('./lint.js');
      exitCode = await lintCommand(targets, { ...options, outputs }, io);
    });

  program
    .command('rules')
    .description('list every rule: id, default severity, packs and summary')
    .addOption(new Option('-f, --format <format>', 'text, json or markdown').choices(['text', 'json', 'markdown']).default('text'))
    .action(async (options) => {
      const { rulesCommand } = await import('./rules.js');
      exitCode = rulesCommand(options.format, io);
    });

  program
    .command('explain')
    .description("print a rule's documentation: why, incorrect and correct examples")
    .argument('<rule-id>', 'the rule to explain')
    .action(async (id: string) => {
      const { explainCommand } = await import('./rules.js');
      exitCode = explainCommand(id, io);
    });

  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help') return EXIT.ok;
      return err.exitCode === 0 ? EXIT.ok : EXIT.error;
    }
    if (err instanceof UsageError) {
      io.stderr.write(`${TOOL_NAME}: ${err.message}\n`);
      return EXIT.error;
    }
    throw err;
  }
}
