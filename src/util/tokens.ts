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
let word: RegExp | undefined;
/** Made on first use: a Unicode property class costs a millisecond to set up, and ASCII names never need it. */
const WORD = () =>
  (word ??=
    /\p{Lu}{2,}s(?![\p{Ll}\p{M}])|\p{Lu}+(?=\p{Lu}[\p{Ll}\p{M}])|[\p{Lu}\p{Lt}]?[\p{Ll}\p{Lo}\p{Lm}\p{M}]+|[\p{Lu}\p{Lt}][\p{M}]*(?:[\p{Lu}\p{Lt}][\p{M}]*)*|\p{Nd}+/gu);

/**
 * WORD for text that is all ASCII, where \p{Lu} is A-Z, \p{Ll} is a-z, \p{Nd} is 0-9 and
 * \p{Lt}, \p{Lo}, \p{Lm} and \p{M} match nothing: the same tokens, without Unicode
 * property lookups (ASCII text is also already in NFC).
 */
const ASCII_WORD = /[A-Z]{2,}s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+/g;
const NON_ASCII = /[^\x00-\x7f]/;

function scan(identifier: string): string[] {
  const out: string[] = [];
  if (NON_ASCII.test(identifier)) {
    for (const m of identifier.normalize('NFC').matchAll(WORD())) out.push(m[0].toLowerCase());
  } else {
    // One native call finds every token.
    const words = identifier.match(ASCII_WORD);
    if (words !== null) for (const w of words) out.push(w.toLowerCase());
  }
  return out;
}

/** Identifiers longer than this are tokenised every time rather than remembered. */
const MEMO_MAX_LENGTH = 256;
const MEMO_MAX_ENTRIES = 20_000;
const memo = new Map<string, readonly string[]>();

/**
 * The tokens of an identifier, remembered: the same parameter and tool names come back
 * tool after tool, and several rules read the same name. The array is shared; never
 * change it (tokenize returns a copy).
 */
export function tokensOf(identifier: string): readonly string[] {
  const known = memo.get(identifier);
  if (known !== undefined) return known;
  const tokens = scan(identifier);
  if (identifier.length <= MEMO_MAX_LENGTH) {
    if (memo.size >= MEMO_MAX_ENTRIES) memo.clear();
    memo.set(identifier, tokens);
  }
  return tokens;
}

/** Lower-case word tokens of an identifier, in order. */
export function tokenize(identifier: string): string[] {
  return tokensOf(identifier).slice();
}

/**
 * Separators that mark a namespace rather than a word break: ".", "/", ":" and a double
 * underscore ("mcp__github__create_issue", "github.delete_branch", "fs/read_file").
 */
const SEGMENT_BREAK = /[./:\\]+|_{2,}/;

/** The name cut at namespace separators, each segment tokenised; empty segments dropped. */
export function segments(identifier: string): string[][] {
  if (!SEGMENT_BREAK.test(identifier)) {
    // One segment (most names): no split.
    const tokens = scan(identifier);
    return tokens.length > 0 ? [tokens] : [];
  }
  return identifier
    .split(SEGMENT_BREAK)
    .map(scan)
    .filter((s) => s.length > 0);
}

/** Whether `token` occurs in `tokens` as a whole token. */
export function hasToken(tokens: readonly string[], token: string): boolean {
  return tokens.includes(token);
}
