/**
 * The limit on findings of one rule for one tool (lint and diff): the first `max` are listed,
 * and one note of the rule, made when the first one past the limit comes, counts the rest.
 */
import type { Finding } from '../types.js';
import { thousands } from '../util/text.js';

/**
 * The most findings of one rule listed for one tool. A rule gives one finding per bad item, and a
 * tool whose list holds 300,000 bad items (7 MB) gave 600,000 findings and a 400 MB report; a
 * real tool comes nowhere near (no tool of the benchmark's 100,000 has two findings of one
 * rule). Past it, one note of the rule counts the rest: the report says how many, and stays in
 * proportion to what a person can act on.
 */
export const MAX_PER_TOOL = 100;

interface Counted {
  note: Finding;
  ruleId: string;
  tool: boolean;
  omitted: number;
}

export class PerToolLimit {
  private readonly counted: Counted[] = [];
  /**
   * Findings of a rule for one tool (or about one server) so far, by rule, server and tool. The
   * caller empties it between checks (clear()), so that it holds only the keys of the ones running.
   */
  private readonly listed = new Map<string, { count: number; counted?: Counted }>();

  /** @param max The most listed; 0 lists every finding. */
  constructor(readonly max: number) {}

  /**
   * Whether a finding of `ruleId` for the tool at `toolPointer` of the server (none: about the
   * server) is listed. The first one past the limit has `note` make the note that counts it and
   * the ones after it (undefined: no note could be made, and the finding is dropped).
   */
  admit(ruleId: string, serverId: string, toolPointer: string | undefined, note: () => Finding | undefined): boolean {
    if (this.max === 0) return true;
    const key = `${ruleId}\u0000${serverId}\u0000${toolPointer ?? ''}`;
    let seen = this.listed.get(key);
    if (seen === undefined) this.listed.set(key, (seen = { count: 0 }));
    if (++seen.count <= this.max) return true;
    if (seen.counted === undefined) {
      const made = note();
      if (made === undefined) return false;
      this.counted.push((seen.counted = { note: made, ruleId, tool: toolPointer !== undefined, omitted: 0 }));
    }
    seen.counted.omitted++;
    return false;
  }

  clear(): void {
    if (this.listed.size > 0) this.listed.clear();
  }

  /** Writes each note's message, once every finding has come. */
  finish(): void {
    for (const c of this.counted) {
      const more = `${thousands(c.omitted)} more ${c.ruleId} finding${c.omitted === 1 ? '' : 's'}`;
      c.note.message = c.tool
        ? `the tool has ${more} than mcp-annotate lists for one tool (the first ${thousands(this.max)} are listed)`
        : `there ${c.omitted === 1 ? 'is' : 'are'} ${more} here than mcp-annotate lists for one server (the first ${thousands(this.max)} are listed)`;
    }
  }
}
