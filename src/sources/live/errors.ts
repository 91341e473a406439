/** Errors of a live server, worded for the user (the runner prefixes the server). */
import { oneLine, shorten } from '../../util/text.js';
import { redact } from './vars.js';

/** A problem with one live server: its message is shown as it is, after the server's name. */
export class LiveError extends Error {}

/**
 * A short, escaped quotation of something a server sent. The secrets (`needles`) are hidden
 * first, in the text as it came: a secret the cut would split, or the escaping would change
 * (a quote, a tab, a control character), is then hidden all the same.
 */
export function excerpt(text: string, max = 80, needles: readonly string[] = []): string {
  const t = redact(text, needles).trim();
  return `"${oneLine(shorten(t, max)).replace(/"/g, '\\"')}"`;
}

/** The last non-empty line of a server's stderr, for "it exited" messages. */
export function lastLine(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  return lines[lines.length - 1];
}
