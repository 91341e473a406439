/**
 * `mcp-annotate init`: write a starter config in the working directory.
 *
 * YAML (the default) carries its explanations as comments. JSON cannot hold comments, so a
 * JSON config gets its explanations from the published schema ($schema: editors show each
 * key's description on hover and complete rule ids) and from what init prints.
 * An existing config in the directory is never overwritten without --force.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { CONFIG_FILES, PACKAGE_KEY } from '../config/load.js';
import { CONFIG_SCHEMA_ID } from '../config/schema.js';
import { PRESET_DOCS } from '../config/presets.js';
import { isObject } from '../util/json.js';
import { repositoryUrl } from '../version.js';
import { EXIT, UsageError, type CliIO } from './io.js';
import { writeText } from '../util/write.js';
import { oneLine } from '../util/text.js';

export interface InitOptions {
  format: 'yaml' | 'json';
  force?: boolean;
}

const LOCAL_SCHEMA = 'node_modules/mcp-annotate/schemas/config.schema.json';

/** The installed package's schema when mcp-annotate is a dependency here (matches its rules exactly), else the published one. */
export function schemaRef(dir: string): string {
  return existsSync(join(dir, LOCAL_SCHEMA)) ? `./${LOCAL_SCHEMA}` : CONFIG_SCHEMA_ID;
}

export function starterYaml(schema: string, targets: readonly string[]): string {
  const list = targets.map((t) => `    - ${JSON.stringify(t)}`).join('\n');
  return `# mcp-annotate configuration: ${repositoryUrl()}#configuration
# yaml-language-server: $schema=${schema}
$schema: ${JSON.stringify(schema)}

# Start from a preset, then change what you need below:
#   mcp-annotate:recommended  ${PRESET_DOCS['mcp-annotate:recommended']}
#   mcp-annotate:strict       ${PRESET_DOCS['mcp-annotate:strict']}
#   mcp-annotate:all          ${PRESET_DOCS['mcp-annotate:all']}
extends: mcp-annotate:recommended

# What \`mcp-annotate lint\` lints when no targets are given on the command line:
# tools/list dumps (files, globs, directories; relative to this file), and live servers
# in the shape of an MCP client config's "mcpServers".
${
  targets.length
    ? `targets:\n  files:\n${list}\n  # mcpServers:\n  #   my-server:\n  #     command: node\n  #     args: [dist/server.js]`
    : `# targets:\n#   files:\n#     - tools.json\n#   mcpServers:\n#     my-server:\n#       command: node\n#       args: [dist/server.js]`
}

# Rule severities: off, note, warning or error, or [severity, options] (setting only a
# severity keeps the rule's options). \`mcp-annotate rules\` lists the rules and
# \`mcp-annotate explain <rule>\` explains one. For example:
# rules:
#   name-vs-hints: off
#   toxic-flow: [warning, { openWorldIsUntrusted: true }]
rules: {}

# Other settings for some servers or tools (names as globs), applied after "rules".
# overrides:
#   - tools: ["legacy_*"]
#     rules: { missing-readonly-hint: off }

# Your own policies (the SEP-1913 policy layer); each one is the rule policy/<name>.
# effect: block (an error), escalate (a warning unless the tool asks for confirmation), warn.
# policies:
#   - name: confirm-irreversible-actions
#     effect: escalate
#     conditions: { fact: tool.annotations.inputMetadata.outcomes, equals: irreversible }

# Exit 1 when a finding is at least this severity: error, warning, note or none.
failOn: error
`;
}

export function starterJson(schema: string, targets: readonly string[]): string {
  const config: Record<string, unknown> = { $schema: schema, extends: 'mcp-annotate:recommended' };
  if (targets.length) config.targets = { files: [...targets] };
  config.rules = {};
  config.failOn = 'error';
  return JSON.stringify(config, null, 2) + '\n';
}

const JSON_GUIDE = `Each key is described in the schema ($schema), so editors show help on hover and complete rule ids:
  extends   a preset: mcp-annotate:recommended, mcp-annotate:strict or mcp-annotate:all
  targets   {"files": [...], "mcpServers": {...}}: what lint lints when given no targets
  rules     {"<rule-id>": "off" | "note" | "warning" | "error" | [severity, options]}
  overrides [{"servers": [globs], "tools": [globs], "rules": {...}}]
  policies  [{"name", "effect": "block" | "escalate" | "warn", "conditions"}]
  failOn    error, warning, note or none
`;

export async function initCommand(targets: string[], opts: InitOptions, io: CliIO): Promise<number> {
  const name = opts.format === 'json' ? 'mcp-annotate.config.json' : 'mcp-annotate.config.yaml';
  // The config's own validator refuses an empty target (targets.files[0] must not be empty).
  if (targets.some((t) => t === '')) throw new UsageError('init: a target is empty (""); give files, globs or directories of tools/list dumps');
  const path = join(io.cwd, name);
  const existing = CONFIG_FILES.filter((f) => existsSync(join(io.cwd, f)));
  const other = existing.filter((f) => f !== name);
  if (other.length) {
    throw new UsageError(`${other.join(', ')} already configures mcp-annotate here; edit it, or remove it before writing ${name}`);
  }
  if (existing.length && !opts.force) throw new UsageError(`${name} already exists; use --force to overwrite it`);
  const pkg = join(io.cwd, 'package.json');
  if (existsSync(pkg)) {
    const value: unknown = parseJsonc(readFileSync(pkg, 'utf8'));
    // As for another config file, --force or not: a second config beside it left one unused
    // (lint says "ignoring the "mcp-annotate" key of package.json"), and --force overwrites
    // only a file of the same name.
    if (isObject(value) && value[PACKAGE_KEY] !== undefined) {
      throw new UsageError(`package.json already configures mcp-annotate here (its "${PACKAGE_KEY}" key); edit it, or remove the key before writing ${name}`);
    }
  }
  const schema = schemaRef(io.cwd);
  await writeText(path, name, opts.format === 'json' ? starterJson(schema, targets) : starterYaml(schema, targets));
  // Target names may hold newlines or other invisible characters: the summary stays one line.
  io.stdout.write(`wrote ${name}${targets.length ? ` (targets: ${oneLine(targets.join(', '))})` : ''}\n`);
  if (opts.format === 'json') io.stdout.write(JSON_GUIDE);
  io.stdout.write(
    `next: mcp-annotate lint${targets.length ? '' : ' <dumps>'}; to gate only new findings: mcp-annotate lint --baseline mcp-annotate.baseline.json --update-baseline, then commit both files\n`,
  );
  return EXIT.ok;
}
