/**
 * A VS Code `envFile`, read as VS Code reads it (its envfile parser follows dotenv): one
 * variable a line, `NAME=value` or `NAME: value`, an optional `export ` in front, blank lines
 * and `#` comments skipped, a `#` outside quotes ending the value, a value in matching '…', "…"
 * or `…` quotes unquoted (`\n` and `\r` in "…" become line breaks).
 *
 * Node's util.parseEnv is not that: it joins a line without "=" to the next one, so
 * `TOKEN ghp_…` followed by `LOG_LEVEL=debug` became one variable named
 * "TOKEN ghp_…\nLOG_LEVEL", a secret in a name nothing hides, and no LOG_LEVEL.
 * A line that is not a variable (no separator, or a name that is not letters, digits, `_`,
 * `.` and `-`) is skipped; its line number is returned so a note can name it, never its text.
 */
export interface EnvFile {
  /** The variables, in the order of the file (a later line wins, as in VS Code). */
  vars: [name: string, value: string][];
  /** The 1-based numbers of the lines that were skipped as malformed. */
  skipped: number[];
}

const NAME = /^[\w.-]+$/;
const QUOTES = new Set(['"', "'", '`']);

/** The index of the first character outside quotes that `is` accepts, or -1. */
function outsideQuotes(text: string, is: (c: string) => boolean): number {
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote && text[i - 1] !== '\\') quote = '';
    } else if (QUOTES.has(c)) quote = c;
    else if (is(c)) return i;
  }
  return -1;
}

export function parseEnvFile(text: string): EnvFile {
  const out: EnvFile = { vars: [], skipped: [] };
  const lines = text.split(/\r\n|\r|\n/);
  for (let n = 0; n < lines.length; n++) {
    let line = lines[n]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('export ')) line = line.slice(7).trim();
    const sep = outsideQuotes(line, (c) => c === '=' || c === ':');
    const name = sep === -1 ? '' : line.slice(0, sep).trim();
    if (!NAME.test(name)) {
      out.skipped.push(n + 1);
      continue;
    }
    let value = line.slice(sep + 1).trim();
    const comment = outsideQuotes(value, (c) => c === '#');
    if (comment !== -1) value = value.slice(0, comment).trim();
    const q = value[0];
    if (value.length >= 2 && q !== undefined && QUOTES.has(q) && value.endsWith(q)) {
      value = value.slice(1, -1);
      if (q === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
    }
    out.vars.push([name, value]);
  }
  return out;
}
