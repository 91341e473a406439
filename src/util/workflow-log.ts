/**
 * Output that reaches a GitHub Actions job log must not carry workflow commands of a server's
 * making. The runner reads each line of a step's stdout and stderr for two forms of command:
 *
 *   ::name props::data   when the line, leading whitespace trimmed, starts with "::"
 *   ##[name props]data   anywhere in the line (the legacy form)
 *
 * and a `::stop-commands::x` of a server's choosing would also switch off the commands that
 * come after it (the Action's own annotations). So when GITHUB_ACTIONS=true, every report the
 * CLI writes to stdout and everything it writes to stderr passes through a guard:
 *
 *   text (text, markdown, messages): a line's leading "::" is written \u{3a}: and "##[" is
 *   written ##\u{5b}, the way the text format shows other characters that must not act;
 *   json (json, sarif, dump): "[" after "##" is written \u005b, which is the same JSON
 *   (a JSON text has no line that starts with "::": its strings hold no line breaks).
 *
 * The github format writes commands on purpose and escapes what it quotes (github.ts): its
 * command lines (those that start with "::") are written as they are, since the runner reads a
 * line that starts with "::" as that command and looks no further, and every other line (the
 * summary, which may quote a config file's path) is guarded as text is (guardGithub).
 * Reports written to files (-o) are not in the log and are written as they are.
 */

export type LogGuardKind = 'text' | 'json';

/** Whether output goes to a GitHub Actions job log (the runner sets GITHUB_ACTIONS=true). */
export function inWorkflowLog(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** Whitespace the runner trims (C#'s TrimStart: Char.IsWhiteSpace) before looking for "::". */
const LEADING = /^[\s\u0085\u180e]*/;

/**
 * A guard for one stream: a function from each written piece of text to the text to write.
 * It remembers whether the last piece ended a line, so a line written in several pieces is
 * still seen from its start.
 */
export function logGuard(kind: LogGuardKind): (text: string) => string {
  if (kind === 'json') {
    // "##" at the end of one piece and "[" at the start of the next are one "##[" to the runner.
    let before = '';
    return (text) => {
      const out = (before + text).replace(/##\[/g, '##\\u005b').slice(before.length);
      before = (before + text).slice(-2);
      return out;
    };
  }
  /** The text of the line being written, so far (written unguarded; its guarded form was written). */
  let open = '';
  return (text) => {
    if (text === '') return text;
    const lines = text.split('\n');
    const out = lines.map((line, i) => {
      if (i > 0) return guardLine(line);
      // The first line continues the open one: write what guarding the whole line adds.
      const whole = guardLine(open + line);
      const done = guardLine(open);
      if (whole.startsWith(done)) return whole.slice(done.length);
      // The open line ended in ":" or "#", which this piece makes a command: escape its first character.
      return `\\u{${line.codePointAt(0)!.toString(16)}}${guardLine(line.slice(1))}`;
    });
    open = lines.length > 1 ? lines[lines.length - 1]! : open + lines[0]!;
    return out.join('\n');
  };
}

/**
 * The github format's output in a GitHub Actions log: its own command lines as they are, every
 * other line guarded as a text line. It takes whole lines (the format is written in one piece).
 */
export function guardGithub(text: string): string {
  return text
    .split('\n')
    .map((line) => (line.startsWith('::') ? line : guardLine(line)))
    .join('\n');
}

/** One line: a leading "::" as \u{3a}:, every "##[" as ##\u{5b}. */
function guardLine(line: string): string {
  const lead = LEADING.exec(line)![0].length;
  const l = line.startsWith('::', lead) ? `${line.slice(0, lead)}\\u{3a}${line.slice(lead + 1)}` : line;
  return l.replace(/##\[/g, '##\\u{5b}');
}

/** The stream, with every string written to it guarded (see logGuard). */
export function guardedStream<T extends NodeJS.WritableStream>(stream: T, kind: LogGuardKind): T {
  const guard = logGuard(kind);
  return new Proxy(stream, {
    get(target, prop) {
      if (prop === 'write') {
        return (chunk: unknown, ...rest: unknown[]) => (target.write as (...a: unknown[]) => boolean)(typeof chunk === 'string' ? guard(chunk) : chunk, ...rest);
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
