/**
 * Identifier tokeniser for the heuristic rules: tool names, parameter names and enum
 * values become lower-case word tokens, so that a verb matches only as a whole word
 * ("get_deleted_items" holds "deleted", never "delete"; "undelete" is one token).
 *
 * Splits on every character that is not a letter or a digit (snake_case, kebab-case,
 * dotted and slash names, spaces, colons), on camelCase boundaries (acronyms included:
 * "getHTTPResponse" → get, http, response; "listURLs" → list, urls), and between letters
 * and digits ("s3Bucket" → s, 3, bucket).
 */

/**
 * One word: a plural acronym ("URLs", "IDs"), an acronym followed by a capitalised word
 * ("HTTP" in "HTTPResponse"), a capitalised or lower-case word, an acronym, or digits.
 * Letters are Unicode letters; marks stay with their letter.
 */
const WORD =
  /\p{Lu}{2,}s(?![\p{Ll}\p{M}])|\p{Lu}+(?=\p{Lu}[\p{Ll}\p{M}])|[\p{Lu}\p{Lt}]?[\p{Ll}\p{Lo}\p{Lm}\p{M}]+|[\p{Lu}\p{Lt}][\p{M}]*(?:[\p{Lu}\p{Lt}][\p{M}]*)*|\p{Nd}+/gu;

/** Lower-case word tokens of an identifier, in order. */
export function tokenize(identifier: string): string[] {
  const out: string[] = [];
  for (const m of identifier.normalize('NFC').matchAll(WORD)) out.push(m[0].toLowerCase());
  return out;
}

/**
 * Separators that mark a namespace rather than a word break: ".", "/", ":" and a double
 * underscore ("mcp__github__create_issue", "github.delete_branch", "fs/read_file").
 */
const SEGMENT_BREAK = /[./:\\]+|_{2,}/;

/** The name cut at namespace separators, each segment tokenised; empty segments dropped. */
export function segments(identifier: string): string[][] {
  return identifier
    .split(SEGMENT_BREAK)
    .map(tokenize)
    .filter((s) => s.length > 0);
}

/** Whether `token` occurs in `tokens` as a whole token. */
export function hasToken(tokens: readonly string[], token: string): boolean {
  return tokens.includes(token);
}
