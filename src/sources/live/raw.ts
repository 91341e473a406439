/**
 * A live server's tools/list responses as it wrote them, for the duplicate-key rule.
 *
 * The rules see what JSON.parse made of a response, and JSON.parse keeps the last of a member
 * given twice: `{"readOnlyHint": false, "readOnlyHint": true}` is `readOnlyHint: true` to the
 * linter, and to a client whose parser keeps the first it is `false`. The transports note the
 * text each response came from (stdio: its line; Streamable HTTP and SSE: the JSON body or the
 * event's data), and the text of each tools/list page is scanned once the listing is in, as a
 * file's text is (findRepeatedKeys). What it finds is moved to the places the snapshot gives
 * the same members: tool k of the listing is `/tools/k` there, whichever page it came on.
 */
import type { RepeatedKey } from '../../types.js';
import { join, split } from '../../util/pointer.js';
import { createLocator, findRepeatedKeys } from '../locate.js';
import { MAX_SCANNED, numberLiterals, writtenAsRead } from '../../util/written.js';
import { keptFromResult } from './snapshot.js';
import { redact } from './vars.js';

/** The text a JSON-RPC message was read from, and where in it the message is ('' or, in a batch, `/2`). */
export interface RawText {
  text: string;
  at: string;
}

/** Each message object the stdio transport parsed, with its line (weak: it dies with the message). */
export const RAW_TEXT = new WeakMap<object, RawText>();

/** One tools/list page: its raw response when one was noted, and its result as parsed. */
export interface RawPage {
  raw: RawText | undefined;
  result: { tools: unknown[] };
}

/**
 * The member names the listing's pages repeat, at the snapshot's pointers: in every tool of
 * every page, every page's `tools`, and the first page's own members that the snapshot keeps
 * as they came (fields such as `_meta`; not the ones mcp-annotate fills from initialize or
 * leaves out, nor a later page's, which the snapshot does not hold). In a listing of several
 * pages, a page's own repeat says which page. And the members of the initialize result that
 * the snapshot takes from it (`init`, its raw text when one was noted): a `protocolVersion`
 * given twice is a spec version to this linter, which keeps the last, and another to a client
 * that keeps the first. A page with no raw text (none was noted) is
 * skipped. The target's secrets are hidden as the snapshot hides them: in member names (in the
 * pointers too) as redactJson does, in the values' JSON text as in any text.
 */
export function liveRepeatedKeys(pages: readonly RawPage[], needles: readonly string[], init?: RawText): RepeatedKey[] {
  const out: RepeatedKey[] = [];
  const hide = (text: string) => (needles.length ? redact(text, needles) : text);
  if (init) {
    const result = `${init.at}/result`;
    for (const r of findRepeatedKeys(init.text, [{ pointer: result, scope: 'envelope' }])) {
      if (r.object !== result || !FROM_INITIALIZE.includes(r.key)) continue;
      out.push({ ...r, key: hide(r.key), ...(r.values ? { values: [hide(r.values[0]), hide(r.values[1])] as [string, string] } : {}), scope: '', object: '', initialize: true });
    }
  }
  let offset = 0;
  pages.forEach((page, p) => {
    const first = offset;
    offset += page.result.tools.length;
    if (!page.raw) return;
    const result = `${page.raw.at}/result`;
    const scopes: { pointer: string; scope: 'tool' | 'envelope' }[] = [{ pointer: result, scope: 'envelope' }];
    for (let i = 0; i < page.result.tools.length; i++) scopes.push({ pointer: `${result}/tools/${i}`, scope: 'tool' });
    for (const r of findRepeatedKeys(page.raw.text, scopes)) {
      const shown = { key: hide(r.key), ...(r.values ? { values: [hide(r.values[0]), hide(r.values[1])] as [string, string] } : {}) };
      if (r.kind === 'envelope') {
        // Only the members the snapshot's root holds as the page gave them: a later page's only "tools".
        if (r.object !== result || !(r.key === 'tools' || (p === 0 && keptFromResult(r.key)))) continue;
        out.push({ ...r, ...shown, scope: '', object: '', ...(pages.length > 1 ? { page: p + 1 } : {}) });
      } else {
        const index = Number(r.scope.slice(`${result}/tools/`.length));
        const tool = `/tools/${first + index}`;
        out.push({ ...r, ...shown, scope: tool, object: join(tool, ...namesHidden(page.result.tools[index], split(r.object.slice(r.scope.length)), hide)) });
      }
    }
  });
  return out;
}

/** The members of the snapshot's root that come from the initialize result (see buildSnapshot). */
const FROM_INITIALIZE = ['protocolVersion', 'capabilities', 'serverInfo'];

/** The segments of a path into `value`, each member name hidden as redactJson hides it (array indexes as they are). */
function namesHidden(value: unknown, segments: readonly string[], hide: (text: string) => string): string[] {
  let at = value;
  return segments.map((segment) => {
    if (Array.isArray(at)) {
      at = at[Number(segment)];
      return segment;
    }
    // An own member, "__proto__" included (JSON.parse makes it one).
    at = at !== null && typeof at === 'object' ? Object.getOwnPropertyDescriptor(at, segment)?.value : undefined;
    return hide(segment);
  });
}

/**
 * Said by `dump`, whose snapshot holds the parsed listing: how many names the server's
 * responses gave twice or more, and where the first is.
 */
export function repeatsNote(label: string, keys: readonly RepeatedKey[]): string {
  const first = keys[0]!;
  const where = first.initialize ? 'the initialize result' : first.object === '' ? `the tools/list result${first.page ? ` of page ${first.page}` : ''}` : first.object;
  const more = keys.length > 1 ? ` and ${keys.length - 1} more` : '';
  return `${label}: its ${keys.some((k) => k.initialize) ? 'initialize and tools/list responses give' : 'tools/list response gives'} a member name more than once (${JSON.stringify(first.key)} in ${where}${more}); the snapshot holds the parsed listing, each name once with its last value, so linting it cannot see that: lint the server live to see each one (duplicate-key)`;
}

/** Whether a number literal may not read back as written: one of 15 characters or fewer without an exponent always does. */
const mayDiffer = (literal: string) => (literal.length > 15 || /[eE]/.test(literal)) && !writtenAsRead(literal, Number(literal));

/**
 * The number literals of the values at the snapshot's pointers, as the server's tools/list
 * responses wrote them (the snapshot is written from the parsed listing: 1e999 there is
 * 1e400, 12345678901234567890123 is 1.2345678901234568e+22), for the engine to quote numbers as
 * written (src/util/written.ts). Undefined when no response writes a number that does not read
 * back as written: then the snapshot's text, or the parsed value, says the same, and no raw
 * text is kept. Tool k of the listing is `/tools/k` in the snapshot, whichever page it came on;
 * the snapshot's other members are the first page's result's.
 */
export function liveWrittenNumbers(pages: readonly RawPage[]): ((pointers: readonly string[]) => string[]) | undefined {
  let differs = false;
  for (const page of pages) {
    if (!page.raw || differs) continue;
    numberLiterals(page.raw.text, 0, page.raw.text.length, (l) => {
      if (!differs && mayDiffer(l)) differs = true;
    });
  }
  if (!differs) return undefined;
  const kept = pages.map((p) => ({ raw: p.raw, count: p.result.tools.length }));
  const locators = new Map<number, ReturnType<typeof createLocator>>();
  return (pointers) => {
    const byPage = new Map<number, string[]>();
    for (const pointer of pointers) {
      const m = /^\/tools\/(0|[1-9]\d*)(?=\/|$)/.exec(pointer);
      let page = 0;
      let inPage: string;
      if (m) {
        let k = Number(m[1]);
        while (page < kept.length && k >= kept[page]!.count) k -= kept[page++]!.count;
        if (page === kept.length) continue;
        inPage = `/tools/${k}${pointer.slice(m[0].length)}`;
      } else if (pointer === '' || pointer === '/tools') continue; // the whole listing: not one value's numbers
      else inPage = pointer;
      const raw = kept[page]!.raw;
      if (!raw) continue;
      let list = byPage.get(page);
      if (!list) byPage.set(page, (list = []));
      list.push(`${raw.at}/result${inPage}`);
    }
    const out: string[] = [];
    let budget = MAX_SCANNED;
    for (const [page, list] of byPage) {
      const text = kept[page]!.raw!.text;
      let locator = locators.get(page);
      if (!locator) locators.set(page, (locator = createLocator(text)));
      for (const at of locator.locateAll(list)) {
        if (!at || at.valueLength > budget) continue;
        budget -= at.valueLength;
        numberLiterals(text, at.valueOffset, at.valueOffset + at.valueLength, (l) => out.push(l));
      }
    }
    return out;
  };
}
