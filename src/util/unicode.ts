/**
 * Characters that hide text from a human reviewer (tool poisoning), and how to name
 * characters in messages: U+202E RIGHT-TO-LEFT OVERRIDE.
 *
 * What counts as hidden, and the legitimate uses that do not:
 * - zero-width: U+200B, U+200C, U+200D, U+2060, U+FEFF. A joiner (U+200C/U+200D) is
 *   fine inside an emoji ZWJ sequence (👩‍💻), between letters of a script that needs it
 *   (the joining scripts: Arabic, Syriac, N'Ko, Mongolian…; the Brahmic scripts: Devanagari
 *   … Sinhala, Myanmar, Khmer, Javanese…; see JOINING_LETTER) and right after a virama of any
 *   script (ccc=9, see VIRAMAS), even at the end of the text: there it changes how visible
 *   letters join. Between Latin, Greek, Cyrillic, CJK or Hangul letters it changes nothing.
 * - bidi controls: embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069)
 *   always; the implicit marks (U+200E, U+200F, U+061C) only in text without any
 *   right-to-left letters, where they have no job to do.
 * - the tag block U+E0000–U+E007F, except the RGI emoji flag tag sequences (🏴 + the tag
 *   letters gbeng, gbsct or gbwls + U+E007F CANCEL TAG: the flags of England, Scotland,
 *   Wales). Any other subdivision code renders as a bare black flag. Tag characters
 *   U+E0020–U+E007E mirror ASCII: they are decoded to show the text they hide.
 * - control characters (C0, DEL, C1) other than tab and line feed; a carriage return
 *   directly before a line feed is fine, a lone one moves the cursor back to the start
 *   of the line in a terminal and lets later text overwrite earlier text.
 * - variation selectors (U+FE00–U+FE0F, U+E0100–U+E01EF): a run of two or more always
 *   (it encodes bytes: "emoji smuggling"), a single one where it selects nothing (see
 *   legitimateSelector): one after each letter encodes a byte per letter; and the
 *   ideographic ones of a string when they are too many or too high to be glyph variants
 *   (see smuggledIvs): one after each ideograph encodes a byte per ideograph.
 * - every other default-ignorable code point (Unicode's Default_Ignorable_Code_Point:
 *   what a renderer shows as nothing when it has no glyph for it): the soft hyphen, the
 *   Hangul fillers U+115F, U+1160, U+3164 and U+FFA0 (blank, and letters to an identifier
 *   check, so "read\u3164file" looks like "read file"), U+034F COMBINING GRAPHEME JOINER,
 *   the Khmer inherent vowels U+17B4/U+17B5, the Mongolian selectors and vowel separator
 *   U+180B–U+180F, the invisible operators U+2061–U+2064, the deprecated format characters
 *   U+206A–U+206F, U+1BCA0–U+1BCA3, U+1D173–U+1D17A and the unassigned U+2065,
 *   U+FFF0–U+FFF8 and U+E0080–U+E0FFF. Not where text needs them: a Mongolian selector
 *   after a Mongolian letter and the vowel separator between two; U+115F before a Hangul
 *   vowel jamo and U+1160 after a Hangul initial consonant jamo (old Hangul syllables
 *   written with conjoining jamo: the syllable is visible); U+034F between a letter or
 *   mark and a combining mark (it keeps marks in order under normalisation).
 */

export type HiddenKind = 'zero-width' | 'bidi' | 'tag' | 'control' | 'variation-selector' | 'invisible';

export interface HiddenChar {
  /** UTF-16 index in the string. */
  index: number;
  /** UTF-16 length (2 for astral code points). */
  length: number;
  codePoint: number;
  kind: HiddenKind;
}

/** A run of hidden characters that encodes text (tag characters, variation selectors). */
export interface HiddenText {
  kind: 'tag' | 'variation-selector';
  start: number;
  /** UTF-16 index after the run. */
  end: number;
  /** The text the run encodes. */
  text: string;
  /** UTF-16 indexes of the characters that encode it (single selectors spread over a string may have others between them). */
  indexes: number[];
}

export interface HiddenScan {
  chars: HiddenChar[];
  texts: HiddenText[];
  /**
   * The scan stopped after MAX_HIDDEN hidden characters (a decoded run is cut there too): a
   * string of millions of them would otherwise hold an object for each, and run a linter out of
   * memory. No text needs that many; the rest is not looked at.
   */
  truncated?: true;
}

/** The most hidden characters one string's scan records (see HiddenScan.truncated). */
export const MAX_HIDDEN = 100_000;

const NAMES: Record<number, string> = {
  0x00: 'NULL',
  0x07: 'BELL',
  0x08: 'BACKSPACE',
  0x09: 'CHARACTER TABULATION',
  0x0a: 'LINE FEED',
  0x0b: 'LINE TABULATION',
  0x0c: 'FORM FEED',
  0x0d: 'CARRIAGE RETURN',
  0x1b: 'ESCAPE',
  0x20: 'SPACE',
  0x21: 'EXCLAMATION MARK',
  0x22: 'QUOTATION MARK',
  0x23: 'NUMBER SIGN',
  0x24: 'DOLLAR SIGN',
  0x25: 'PERCENT SIGN',
  0x26: 'AMPERSAND',
  0x27: 'APOSTROPHE',
  0x28: 'LEFT PARENTHESIS',
  0x29: 'RIGHT PARENTHESIS',
  0x2a: 'ASTERISK',
  0x2b: 'PLUS SIGN',
  0x2c: 'COMMA',
  0x2f: 'SOLIDUS',
  0x3a: 'COLON',
  0x3b: 'SEMICOLON',
  0x3c: 'LESS-THAN SIGN',
  0x3d: 'EQUALS SIGN',
  0x3e: 'GREATER-THAN SIGN',
  0x3f: 'QUESTION MARK',
  0x40: 'COMMERCIAL AT',
  0x5b: 'LEFT SQUARE BRACKET',
  0x5c: 'REVERSE SOLIDUS',
  0x5d: 'RIGHT SQUARE BRACKET',
  0x5e: 'CIRCUMFLEX ACCENT',
  0x60: 'GRAVE ACCENT',
  0x7b: 'LEFT CURLY BRACKET',
  0x7c: 'VERTICAL LINE',
  0x7d: 'RIGHT CURLY BRACKET',
  0x7e: 'TILDE',
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0xa0: 'NO-BREAK SPACE',
  0xad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x17b4: 'KHMER VOWEL INHERENT AQ',
  0x17b5: 'KHMER VOWEL INHERENT AA',
  0x180b: 'MONGOLIAN FREE VARIATION SELECTOR ONE',
  0x180c: 'MONGOLIAN FREE VARIATION SELECTOR TWO',
  0x180d: 'MONGOLIAN FREE VARIATION SELECTOR THREE',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x180f: 'MONGOLIAN FREE VARIATION SELECTOR FOUR',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x206a: 'INHIBIT SYMMETRIC SWAPPING',
  0x206b: 'ACTIVATE SYMMETRIC SWAPPING',
  0x206c: 'INHIBIT ARABIC FORM SHAPING',
  0x206d: 'ACTIVATE ARABIC FORM SHAPING',
  0x206e: 'NATIONAL DIGIT SHAPES',
  0x206f: 'NOMINAL DIGIT SHAPES',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0x1bca0: 'SHORTHAND FORMAT LETTER OVERLAP',
  0x1bca1: 'SHORTHAND FORMAT CONTINUING OVERLAP',
  0x1bca2: 'SHORTHAND FORMAT DOWN STEP',
  0x1bca3: 'SHORTHAND FORMAT UP STEP',
  0x1d173: 'MUSICAL SYMBOL BEGIN BEAM',
  0x1d174: 'MUSICAL SYMBOL END BEAM',
  0x1d175: 'MUSICAL SYMBOL BEGIN TIE',
  0x1d176: 'MUSICAL SYMBOL END TIE',
  0x1d177: 'MUSICAL SYMBOL BEGIN SLUR',
  0x1d178: 'MUSICAL SYMBOL END SLUR',
  0x1d179: 'MUSICAL SYMBOL BEGIN PHRASE',
  0x1d17a: 'MUSICAL SYMBOL END PHRASE',
  0xe0001: 'LANGUAGE TAG',
  0xe007f: 'CANCEL TAG',
};

/** "U+202E", four hex digits at least. */
export function codePointLabel(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The character's Unicode name when it is one a message is likely to need. */
export function charName(cp: number): string | undefined {
  if (NAMES[cp]) return NAMES[cp];
  if (cp >= 0xe0020 && cp <= 0xe007e) return 'TAG';
  if (cp >= 0xfe00 && cp <= 0xfe0f) return `VARIATION SELECTOR-${cp - 0xfe00 + 1}`;
  if (cp >= 0xe0100 && cp <= 0xe01ef) return `VARIATION SELECTOR-${cp - 0xe0100 + 17}`;
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return 'CONTROL CHARACTER';
  return undefined;
}

/** "U+202E RIGHT-TO-LEFT OVERRIDE" (or just "U+00E9"). */
export function charLabel(cp: number): string {
  const name = charName(cp);
  return name ? `${codePointLabel(cp)} ${name}` : codePointLabel(cp);
}

/** A character as a message shows it: escaped when invisible, then its code point and name: `"\u200B" (U+200B ZERO WIDTH SPACE)`. */
export function describeChar(ch: string): string {
  const cp = ch.codePointAt(0)!;
  // Not a Hangul filler either: a letter (Lo) to Unicode, but default-ignorable, shown as nothing.
  const visible = ch === ' ' || (/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) && !/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(ch));
  const shown = visible ? JSON.stringify(ch) : `"${cp > 0xffff ? `\\u{${cp.toString(16).toUpperCase()}}` : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`}"`;
  return `${shown} (${charLabel(cp)})`;
}

// Unicode property classes cost about a millisecond each to set up, and ASCII text never
// needs them: each is made on first use.
let rtlPattern: RegExp | undefined;
let letterOrMark: RegExp | undefined;
let joiningLetter: RegExp | undefined;
let pictographic: RegExp | undefined;
const RTL = () =>
  (rtlPattern ??=
    /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\p{Script=Hanifi_Rohingya}\p{Script=Yezidi}]/u);
const LETTER_OR_MARK = () => (letterOrMark ??= /^[\p{L}\p{M}]$/u);
/**
 * A letter or mark of a script whose text needs ZWJ/ZWNJ: the cursive (joining) scripts of
 * ArabicShaping.txt, where they pick joined or separate forms (Persian writes ZWNJ inside
 * words), and the Brahmic scripts with viramas — the Indic ones, Myanmar, Khmer, Tai Tham,
 * Balinese, Javanese, Sundanese, the Philippine scripts and the historic ones (Brahmi,
 * Grantha, Sharada, Kawi…) — where they choose between conjuncts, half forms, subjoined or
 * stacked letters and explicit viramas (Myanmar င‍်္ against kinzi). Not Thai, Lao, Tibetan
 * or Tifinagh, whose viramas form no conjuncts (a joiner right after one is still accepted,
 * see VIRAMAS). Not yet Tulu-Tigalari or Gurung Khema (Unicode 16: Node 20, which this
 * package supports, rejects their names in a regular expression); a joiner right after their
 * viramas is accepted. By Script_Extensions, so the Arabic harakat (Inherited) count. Not Latin,
 * Greek, Cyrillic, CJK, Hangul…: a joiner there changes nothing a reader sees.
 */
const JOINING_LETTER = () =>
  (joiningLetter ??=
    /^(?=[\p{L}\p{M}])[\p{scx=Arabic}\p{scx=Syriac}\p{scx=Nko}\p{scx=Mongolian}\p{scx=Mandaic}\p{scx=Manichaean}\p{scx=Psalter_Pahlavi}\p{scx=Phags_Pa}\p{scx=Hanifi_Rohingya}\p{scx=Sogdian}\p{scx=Old_Uyghur}\p{scx=Chorasmian}\p{scx=Adlam}\p{scx=Devanagari}\p{scx=Bengali}\p{scx=Gurmukhi}\p{scx=Gujarati}\p{scx=Oriya}\p{scx=Tamil}\p{scx=Telugu}\p{scx=Kannada}\p{scx=Malayalam}\p{scx=Sinhala}\p{scx=Myanmar}\p{scx=Khmer}\p{scx=Tai_Tham}\p{scx=Balinese}\p{scx=Javanese}\p{scx=Sundanese}\p{scx=Tagalog}\p{scx=Hanunoo}\p{scx=Batak}\p{scx=Rejang}\p{scx=Saurashtra}\p{scx=Syloti_Nagri}\p{scx=Meetei_Mayek}\p{scx=Chakma}\p{scx=Brahmi}\p{scx=Kharoshthi}\p{scx=Kaithi}\p{scx=Sharada}\p{scx=Khojki}\p{scx=Khudawadi}\p{scx=Grantha}\p{scx=Newa}\p{scx=Tirhuta}\p{scx=Siddham}\p{scx=Modi}\p{scx=Takri}\p{scx=Ahom}\p{scx=Dogra}\p{scx=Dives_Akuru}\p{scx=Nandinagari}\p{scx=Zanabazar_Square}\p{scx=Soyombo}\p{scx=Bhaiksuki}\p{scx=Masaram_Gondi}\p{scx=Gunjala_Gondi}\p{scx=Kawi}]$/u);
const PICTOGRAPHIC = () => (pictographic ??= /^\p{Extended_Pictographic}$/u);
let mongolianLetter: RegExp | undefined;
const MONGOLIAN_LETTER = () => (mongolianLetter ??= /^(?=\p{L})\p{Script=Mongolian}$/u);
let visibleMark: RegExp | undefined;
const VISIBLE_MARK = () => (visibleMark ??= /^(?!\p{Default_Ignorable_Code_Point})\p{M}$/u);

function isVariationSelector(cp: number): boolean {
  return (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
}

function charAt(text: string, i: number): string | undefined {
  if (i < 0 || i >= text.length) return undefined;
  const cp = text.codePointAt(i)!;
  return String.fromCodePoint(cp);
}

/** The code point that ends just before UTF-16 index i. */
function before(text: string, i: number): string | undefined {
  if (i <= 0) return undefined;
  const low = text.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = text.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(i - 2, i);
  }
  return text[i - 1];
}

/** Whether a joiner at i sits inside an emoji ZWJ sequence or between letters of a script that uses joiners. */
function legitimateJoiner(text: string, i: number, cp: number): boolean {
  let prev = before(text, i);
  if (prev === undefined) return false;
  // Right after a virama of any script, as IDNA allows (RFC 5892 A.1/A.2, CONTEXTJ): there it
  // picks a half form, a conjunct or a visible virama, and it may end a word or the text
  // (Malayalam's chillus were written ന്‍ before Unicode 5.1).
  if (VIRAMAS.has(prev.codePointAt(0)!)) return true;
  const next = charAt(text, i + 1);
  if (next === undefined) return false;
  if (cp === 0x200d) {
    // Skip one emoji presentation selector or skin-tone modifier before the joiner.
    let j = i;
    const pcp = prev.codePointAt(0)!;
    if (pcp === 0xfe0f || (pcp >= 0x1f3fb && pcp <= 0x1f3ff)) {
      j -= prev.length;
      prev = before(text, j);
    }
    if (prev !== undefined && PICTOGRAPHIC().test(prev) && PICTOGRAPHIC().test(next)) return true;
  }
  return prev !== undefined && JOINING_LETTER().test(prev) && JOINING_LETTER().test(next);
}

/**
 * The viramas: every character whose canonical combining class is Virama (ccc=9, Unicode 17:
 * Indic viramas, Myanmar U+1039/U+103A, Khmer coeng U+17D2, Javanese pangkon U+A9C0, Balinese
 * adeg adeg U+1B44, Thai phinthu, Tibetan halanta…). JavaScript has no \p{…} for a combining
 * class; test/hidden-characters.test.ts derives the set from String.prototype.normalize (which
 * orders marks by class) and checks this one against it.
 */
export const VIRAMAS: ReadonlySet<number> = new Set([
  0x094d, 0x09cd, 0x0a4d, 0x0acd, 0x0b4d, 0x0bcd, 0x0c4d, 0x0ccd, 0x0d3b, 0x0d3c, 0x0d4d, 0x0dca, 0x0e3a, 0x0eba, 0x0f84,
  0x1039, 0x103a, 0x1714, 0x1715, 0x1734, 0x17d2, 0x1a60, 0x1b44, 0x1baa, 0x1bab, 0x1bf2, 0x1bf3, 0x2d7f, 0xa806, 0xa82c,
  0xa8c4, 0xa953, 0xa9c0, 0xaaf6, 0xabed, 0x10a3f, 0x11046, 0x11070, 0x1107f, 0x110b9, 0x11133, 0x11134, 0x111c0, 0x11235,
  0x112ea, 0x1134d, 0x113ce, 0x113cf, 0x113d0, 0x11442, 0x114c2, 0x115bf, 0x1163f, 0x116b6, 0x1172b, 0x11839, 0x1193d,
  0x1193e, 0x119e0, 0x11a34, 0x11a47, 0x11a99, 0x11c3f, 0x11d44, 0x11d45, 0x11d97, 0x11f41, 0x11f42, 0x1612f,
]);

let emojiBase: RegExp | undefined;
let standardizedBase: RegExp | undefined;
let ideograph: RegExp | undefined;
/** A character with a text and an emoji presentation (U+FE0E/U+FE0F pick one): emoji, and #, *, 0–9, ©, ®, ™… */
const EMOJI_BASE = () => (emojiBase ??= /^\p{Emoji}$/u);
/**
 * A character with standardized variants (StandardizedVariants.txt, U+FE00–U+FE0F): the
 * mathematical symbols outside ASCII, CJK ideographs (the compatibility ideographs' forms),
 * CJK punctuation (、。！，．：；？: fullwidth and centred forms), letters of Myanmar, Phags-pa, Manichaean and Egyptian
 * hieroglyphs, and the digit zero (a slashed form). Not ASCII letters or the ASCII math
 * signs (+ < = > | ~), which have none.
 */
const STANDARDIZED_BASE = () =>
  (standardizedBase ??=
    /^(?:0|(?![\x00-\x7f])[\p{Sm}\p{Ideographic}\u3001\u3002\uff01\uff0c\uff0e\uff1a\uff1b\uff1f]|(?=\p{L})[\p{Script=Myanmar}\p{Script=Phags_Pa}\p{Script=Manichaean}\p{Script=Egyptian_Hieroglyphs}])$/u);
/** The base of an Ideographic Variation Sequence (VS17–VS256, registered in the IVD): an ideograph. */
const IDEOGRAPH = () => (ideograph ??= /^\p{Ideographic}$/u);

/**
 * Whether a single variation selector at i picks a variant of the character before it:
 * U+FE0E/U+FE0F after a character with a text and an emoji presentation, U+FE00–U+FE0F after
 * one with standardized variants, VS17–VS256 after an ideograph. Anywhere else (after an
 * ASCII letter, say) it changes nothing a reader sees, and one selector after each letter
 * hides a byte per letter.
 */
function legitimateSelector(text: string, i: number, cp: number): boolean {
  const prev = before(text, i);
  if (prev === undefined) return false;
  if (cp >= 0xe0100) return IDEOGRAPH().test(prev);
  if ((cp === 0xfe0e || cp === 0xfe0f) && EMOJI_BASE().test(prev)) return true;
  return STANDARDIZED_BASE().test(prev);
}

/**
 * The emoji tag sequences (🏴 + tag letters + CANCEL TAG) that are flags, as tag letters:
 * the three recommended for general interchange (RGI, UTS #51) — England, Scotland, Wales.
 * Other subdivision codes make valid but not recommended sequences that render as a plain
 * black flag with the tags unseen, so they are reported like any other tag run.
 */
const RGI_FLAG_TAGS = new Set(['gbeng', 'gbsct', 'gbwls']);

/** Decodes a run of variation selectors the way "emoji smuggling" encodes bytes. */
function decodeSelectors(cps: number[]): string {
  const bytes = Uint8Array.from(cps.map((cp) => (cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16)));
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

/**
 * Every character that can be a hidden one (see scanHidden): C0 and C1 controls other than
 * tab and line feed (a carriage return is looked at more closely there), and every
 * default-ignorable code point — zero-width characters, bidi marks, embeddings, overrides
 * and isolates, variation selectors, the BOM, tag characters, Hangul fillers, the soft
 * hyphen, invisible operators… No match means scanHidden finds nothing.
 */
const MAY_HIDE_SOURCE = '[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\\p{Default_Ignorable_Code_Point}]';
// Made on first use, like the classes above: text that passes no quick test never needs them.
let mayHidePattern: RegExp | undefined;
let mayHideAll: RegExp | undefined;
const MAY_HIDE = () => (mayHidePattern ??= new RegExp(MAY_HIDE_SOURCE, 'u'));
/** MAY_HIDE, global: the scan goes from one match to the next. */
const MAY_HIDE_ALL = () => (mayHideAll ??= new RegExp(MAY_HIDE_SOURCE, 'gu'));

/**
 * A quick test in front of MAY_HIDE: UTF-16 code units only (no u flag), true for every
 * string MAY_HIDE matches (test/fast-paths.test.ts checks each code point), and false for
 * nearly all text: ASCII, accented letters, CJK, Hangul syllables, dashes and quotes, emoji.
 * MAY_HIDE alone takes about twice as long on text with any non-Latin-1 character (V8
 * reads such a string by code point under the u flag); this takes no longer than the
 * narrower class it replaced. The high surrogates are those of U+1BCA0–U+1BCA3,
 * U+1D173–U+1D17A and U+E0000–U+E0FFF.
 */
const MAY_HIDE_QUICK = /[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u034f\u061c\u115f-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\uffff]|[\ud82f\ud834\udb40-\udb43]/;

/** Whether `text` may hold a hidden character: false means scanHidden(text) finds none. */
export function mayHide(text: string): boolean {
  return MAY_HIDE_QUICK.test(text) && MAY_HIDE().test(text);
}

/**
 * Whether the character starting at an index of `text` is a hidden one (scanHidden's). Past a
 * scan cut short (HiddenScan.truncated), every character that may hide counts as one, so a
 * name of a million zero-width spaces is not taken for a name of a million other characters.
 */
export function hiddenAt(text: string): (index: number) => boolean {
  const scan = scanHidden(text);
  const at = new Set(scan.chars.map((c) => c.index));
  if (!scan.truncated) return (i) => at.has(i);
  const last = scan.chars.length > 0 ? scan.chars[scan.chars.length - 1]!.index : -1;
  return (i) => at.has(i) || (i > last && mayHide(String.fromCodePoint(text.codePointAt(i)!)));
}

/** Whether a Hangul filler at i is part of a syllable written with conjoining jamo that shows a jamo of its own. */
function fillerInSyllable(text: string, i: number, cp: number): boolean {
  if (cp === 0x115f) {
    // A choseong filler before a real jungseong (vowel).
    const next = text.codePointAt(i + 1) ?? 0;
    return (next >= 0x1161 && next <= 0x11a7) || (next >= 0xd7b0 && next <= 0xd7c6);
  }
  // A jungseong filler after a real choseong (initial consonant).
  const prev = text.charCodeAt(i - 1);
  return (prev >= 0x1100 && prev <= 0x115e) || (prev >= 0xa960 && prev <= 0xa97c);
}

/**
 * Every hidden character in `text`, and the text that tag or selector runs encode. A
 * character this starts to report must be in MAY_HIDE too (test/fast-paths.test.ts).
 */
export function scanHidden(text: string): HiddenScan {
  const chars: HiddenChar[] = [];
  const texts: HiddenText[] = [];
  if (!MAY_HIDE_QUICK.test(text)) return { chars, texts };
  // Only a character MAY_HIDE matches can be reported, so the scan goes from one to the
  // next (each on a code point boundary: under the u flag a match is a whole code point).
  let rtl: boolean | undefined;
  /** Single variation selectors that select nothing, and the ideographic ones (VS17–VS256 after an ideograph). */
  const stray: HiddenChar[] = [];
  const ivs: HiddenChar[] = [];
  const all = MAY_HIDE_ALL();
  all.lastIndex = 0;
  let truncated = false;
  /**
   * Room left for one more than MAX_HIDDEN (the ideographic selectors kept aside count too): the
   * scan is cut short only when a character it would report is left out, so it goes one past
   * the limit to know, and gives that one back at the end.
   */
  const room = () => MAX_HIDDEN + 1 - chars.length - ivs.length;
  for (let m = all.exec(text); m !== null; m = all.exec(text)) {
    if (room() <= 0) break;
    const i = m.index;
    const cp = text.codePointAt(i)!;
    const len = cp > 0xffff ? 2 : 1;
    const hit = (kind: HiddenKind) => chars.push({ index: i, length: len, codePoint: cp, kind });
    if (cp >= 0xe0000 && cp <= 0xe007f) {
      // A run of tag characters.
      const start = i;
      const run: number[] = [];
      let j = i;
      const most = room();
      while (j < text.length) {
        const c = text.codePointAt(j)!;
        if (c < 0xe0000 || c > 0xe007f) break;
        if (run.length === most) {
          truncated = true;
          break;
        }
        run.push(c);
        j += 2;
      }
      const prev = before(text, start);
      const flag =
        prev === '\u{1F3F4}' &&
        run.length === 6 &&
        run[5] === 0xe007f &&
        RGI_FLAG_TAGS.has(String.fromCharCode(...run.slice(0, 5).map((c) => c - 0xe0000)));
      if (!flag) {
        for (let k = 0; k < run.length; k++) chars.push({ index: start + 2 * k, length: 2, codePoint: run[k]!, kind: 'tag' });
        const decoded = run.filter((c) => c >= 0xe0020 && c <= 0xe007e).map((c) => String.fromCharCode(c - 0xe0000)).join('');
        if (decoded) texts.push({ kind: 'tag', start, end: j, text: decoded, indexes: run.map((_, k) => start + 2 * k) });
      }
      all.lastIndex = j;
      continue;
    }
    if (isVariationSelector(cp)) {
      const start = i;
      const run: number[] = [];
      let j = i;
      const most = room();
      while (j < text.length) {
        const c = text.codePointAt(j)!;
        if (!isVariationSelector(c)) break;
        if (run.length === most) {
          truncated = true;
          break;
        }
        run.push(c);
        j += c > 0xffff ? 2 : 1;
      }
      if (run.length >= 2) {
        let k = start;
        const indexes: number[] = [];
        for (const c of run) {
          chars.push({ index: k, length: c > 0xffff ? 2 : 1, codePoint: c, kind: 'variation-selector' });
          indexes.push(k);
          k += c > 0xffff ? 2 : 1;
        }
        const decoded = decodeSelectors(run);
        if (readable(decoded)) texts.push({ kind: 'variation-selector', start, end: j, text: decoded, indexes });
      } else {
        const c = { index: start, length: j - start, codePoint: run[0]!, kind: 'variation-selector' as const };
        if (!legitimateSelector(text, start, run[0]!)) {
          chars.push(c);
          stray.push(c);
        } else if (c.codePoint >= 0xe0100) ivs.push(c);
      }
      all.lastIndex = j;
      continue;
    }
    if (cp === 0x0d) {
      if (text.charCodeAt(i + 1) !== 0x0a) hit('control');
    } else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
      hit('control');
    } else if (cp === 0x200b || cp === 0x2060 || cp === 0xfeff) {
      hit('zero-width');
    } else if (cp === 0x200c || cp === 0x200d) {
      if (!legitimateJoiner(text, i, cp)) hit('zero-width');
    } else if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
      hit('bidi');
    } else if (cp === 0x200e || cp === 0x200f || cp === 0x061c) {
      rtl ??= RTL().test(text);
      if (!rtl) hit('bidi');
    } else if (cp >= 0x180b && cp <= 0x180f) {
      // A Mongolian selector picks the form of the letter before it; the vowel separator sits between two letters.
      const prev = before(text, i);
      const next = charAt(text, i + 1);
      const after = prev !== undefined && MONGOLIAN_LETTER().test(prev);
      if (!(after && (cp !== 0x180e || (next !== undefined && MONGOLIAN_LETTER().test(next))))) hit('invisible');
    } else if (cp === 0x115f || cp === 0x1160) {
      if (!fillerInSyllable(text, i, cp)) hit('invisible');
    } else if (cp === 0x034f) {
      // The grapheme joiner keeps the combining marks around it in order (after a letter or
      // mark, before a visible mark); it has no other job.
      const prev = before(text, i);
      const next = charAt(text, i + 1);
      if (prev === undefined || next === undefined || !LETTER_OR_MARK().test(prev) || !VISIBLE_MARK().test(next)) hit('invisible');
    } else {
      // Every other default-ignorable code point: the soft hyphen, Hangul fillers, invisible operators…
      hit('invisible');
    }
  }
  if (chars.length + ivs.length > MAX_HIDDEN) {
    // The one past the limit: the last found, in either list.
    truncated = true;
    const lastChar = chars[chars.length - 1];
    const lastIvs = ivs[ivs.length - 1];
    const extra = lastIvs && (!lastChar || lastIvs.index > lastChar.index) ? ivs.pop()! : chars.pop()!;
    // A run decoded up to it loses it too (a tag character's letter with it).
    const t = texts[texts.length - 1];
    if (t && t.indexes[t.indexes.length - 1] === extra.index) {
      t.indexes.pop();
      if (t.kind === 'tag' && extra.codePoint >= 0xe0020 && extra.codePoint <= 0xe007e) t.text = t.text.slice(0, -1);
      t.end = extra.index;
      // A run of that one character alone is no run.
      if (t.indexes.length === 0 || t.text === '') texts.pop();
    }
  }
  // One selector after each of several characters encodes a byte each, like a run: decode
  // them together, apart from any runs (decoded on their own: a decoy run hides no strays).
  decodeSpread(stray, texts);
  // One ideographic selector after each ideograph can encode a byte each just the same.
  if (smuggledIvs(ivs)) {
    chars.push(...ivs);
    chars.sort((a, b) => a.index - b.index);
    decodeSpread(ivs, texts);
  }
  return truncated ? { chars, texts, truncated } : { chars, texts };
}

/**
 * Ideographic variation selectors (VS17–VS256, each after an ideograph) that carry bytes
 * rather than pick glyphs. Real text uses few, and mostly the first sixteen, VS17–VS32
 * (the Ideographic Variation Database registers a handful of variants per ideograph; 葛󠄀 is
 * VS17), which decode to the control bytes 0x10–0x1F. So a string's ideographic selectors are
 * smuggled bytes when three or more are VS33 or above (each one byte of printable ASCII or of
 * a multi-byte UTF-8 character: "Send ~/.ssh/id_rsa" after 18 ideographs), or when there are
 * more than 16 of them at all. A name or two with a variant glyph stays quiet.
 */
const IVS_DATA_SELECTORS = 3;
const IVS_MAX = 16;
function smuggledIvs(ivs: readonly HiddenChar[]): boolean {
  if (ivs.length > IVS_MAX) return true;
  if (ivs.length < IVS_DATA_SELECTORS) return false;
  let data = 0;
  for (const c of ivs) if (c.codePoint >= 0xe0110 && ++data >= IVS_DATA_SELECTORS) return true;
  return false;
}

/** Decodes single selectors spread over a string together, and keeps the text when it reads as text. */
function decodeSpread(selectors: readonly HiddenChar[], texts: HiddenText[]): void {
  if (selectors.length < 2) return;
  const decoded = decodeSelectors(selectors.map((c) => c.codePoint));
  const last = selectors[selectors.length - 1]!;
  if (readable(decoded)) {
    texts.push({ kind: 'variation-selector', start: selectors[0]!.index, end: last.index + last.length, text: decoded, indexes: selectors.map((c) => c.index) });
  }
}

/** Whether bytes decoded from variation selectors read as text (and so are shown in the message). */
function readable(decoded: string): boolean {
  return /^[\x20-\x7e\n\t]+$/.test(decoded) || /^[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\t]+$/u.test(decoded);
}

/** The text with every hidden character removed (a lone CR, VT, FF or NEL becomes a line feed). */
export function removeHidden(text: string, chars: readonly HiddenChar[]): string {
  if (chars.length === 0) return text;
  let out = '';
  let at = 0;
  for (const c of chars) {
    out += text.slice(at, c.index);
    if (c.codePoint === 0x0d || c.codePoint === 0x0b || c.codePoint === 0x0c || c.codePoint === 0x85) out += '\n';
    at = c.index + c.length;
  }
  return out + text.slice(at);
}
