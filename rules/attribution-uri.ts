import { defineRule } from '../src/rule.js';
import type { Fix } from '../src/types.js';
import { claimsOf, members } from '../src/engine/possible-sets.js';
import { quote } from '../src/util/text.js';

/** RFC 3986 scheme followed by ":". */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
/** Characters RFC 3986 allows outside percent-escapes: unreserved, gen-delims, sub-delims. */
const URI_CHAR = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]$/;
/** Non-ASCII characters an IRI (RFC 3987) may not carry: controls, spaces, invisible and bidi formatting characters. */
const BAD_NON_ASCII = /^[\u0080-\u00a0\u00ad\u061c\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\ufff0-\uffff\u{e0000}-\u{e007f}]$/u;

function describeChar(ch: string): string {
  const names: Record<string, string> = { ' ': 'a space', '\\': 'a backslash', '\t': 'a tab', '\n': 'a newline', '"': 'a double quote' };
  if (names[ch]) return names[ch]!;
  const cp = ch.codePointAt(0)!;
  if (cp < 0x20 || cp >= 0x7f) return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return JSON.stringify(ch);
}

/** Why a string is not a URI, or undefined when it is one (non-ASCII letters allowed, as in IRIs). */
export function uriProblem(s: string): { reason: string; hint?: string } | undefined {
  if (s === '') return { reason: 'it is empty' };
  if (/^[A-Za-z]:[\\/]/.test(s) || s.startsWith('\\\\')) {
    return { reason: 'it is a Windows path', hint: 'write it as local://HOST/path, or local:anonymous/path when the machine is unknown' };
  }
  if (!SCHEME.test(s)) {
    const path = { reason: 'it is a file path with no scheme', hint: 'write it as local://HOST/path, or local:anonymous/path when the machine is unknown' };
    if (/^(\/|~|\.\.?\/)/.test(s) || s.includes('\\')) return path;
    const host = /^(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?::\d+)?(?=[/?#]|$)/.exec(s);
    if (host && (/^www\./i.test(s) || s.length > host[0].length || host[0].split('.').length > 2)) {
      return { reason: 'it has no scheme', hint: `if it is a web address, write ${quote('https://' + s)}` };
    }
    if (s.includes('/')) return path;
    return { reason: 'it has no scheme (a URI starts with one, such as "https:", "mcp:" or "urn:")' };
  }
  let i = 0;
  for (const ch of s) {
    if (ch === '%') {
      if (!/^%[0-9A-Fa-f]{2}/.test(s.slice(i))) return { reason: `"%" at position ${i + 1} is not followed by two hex digits`, hint: 'write a literal "%" as %25' };
    } else if (ch.charCodeAt(0) < 0x80 ? !URI_CHAR.test(ch) : BAD_NON_ASCII.test(ch)) {
      const what = describeChar(ch);
      const visible = ch.charCodeAt(0) < 0x80 && ch.charCodeAt(0) >= 0x20;
      return {
        reason: `it contains ${what} at position ${i + 1}`,
        hint: visible ? `percent-encode ${what}${ch === ' ' ? ' as %20' : ''}` : `remove ${what}, or percent-encode it if it belongs there`,
      };
    }
    i += ch.length;
  }
  return undefined;
}

/** file:// URIs rewritten in the form SEP-1913 prefers, when that is mechanical. */
export function localForm(s: string): string | undefined {
  const m = /^file:\/\/([^/?#]*)(\/[^?#]*)?([?#].*)?$/i.exec(s);
  if (m) {
    const host = m[1]!;
    const path = m[2] ?? '';
    const rest = m[3] ?? '';
    if (host === '' || host.toLowerCase() === 'localhost') return path ? `local:anonymous${path}${rest}` : undefined;
    return `local://${host}${path}${rest}`;
  }
  const single = /^file:(\/[^/].*)$/i.exec(s);
  return single ? `local:anonymous${single[1]}` : undefined;
}

export default defineRule({
  id: 'attribution-uri',
  severity: 'warning',
  category: 'consistency',
  packs: ['sep-1913'],
  summary: 'Attribution entries should be URIs that identify their source, not file:// paths.',
  precision: 'high',
  why: `SEP-1913's \`attribution\` lists the sources behind a tool's data for audit trails and
provenance: clients merge it across a session, show it in confirmation dialogs ("send
content from mcp://file-server.acme.local/hr/salaries.xlsx?") and log it. The SEP asks
for URIs that meaningfully identify the source:

- \`mcp://server-name.domain/path/to/resource\` for MCP server origins,
- \`https://api.example.com/endpoint\` for web sources,
- \`local://WORKSTATION.corp.acme.com/path/file\` for local files on a known machine,
- \`local:anonymous/path/file\` for local files of unknown origin,
- \`urn:org:acme:hr:salaries\` for organisation resources,

and to avoid opaque \`file://\` URIs, which do not say whose machine a path is on. A bare
path or a name is worse: clients cannot compare, merge or link it, and the audit trail
it leaves identifies nothing.`,
  notes: `- **What is a URI.** RFC 3986: a scheme (\`letter *(letter / digit / "+" / "-" / ".")\`)
  and \`:\`, then only characters a URI may hold, with \`%\` escapes of two hex digits.
  Letters beyond ASCII are accepted (an IRI, RFC 3987, maps to a URI by
  percent-encoding); spaces, controls and invisible or bidi formatting characters are
  not. A one-letter scheme followed by \`\\\` or \`/\` is read as a Windows drive
  (\`C:\\reports\\q3.xlsx\`), not as a URI.
- **Any other scheme is accepted.** The SEP's list is a preference; \`s3://\`,
  \`postgres://\` and the like identify their source well enough.
- **\`file://\` gets a mechanical fix** to the SEP's preferred form:
  \`file://HOST/path\` → \`local://HOST/path\`, and \`file:///path\` (or
  \`file://localhost/path\`) → \`local:anonymous/path\`, which keeps everything the
  original said. Use \`local://HOST/path\` instead when you know the machine.
- One finding per entry, at the entry. Entries that are not strings are
  [schema-valid](schema-valid.md)'s.`,
  examples: {
    incorrect: [
      {
        title: 'A file:// URI and a bare path',
        tools: [
          {
            name: 'read_report',
            inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
            annotations: {
              readOnlyHint: true,
              attribution: ['file:///srv/reports/q3.xlsx', 'reports/q3-summary.md'],
              returnMetadata: { source: 'internal', sensitivity: 'financial' },
            },
          },
        ],
        findings: [{ pointer: '/tools/0/annotations/attribution/0' }, { pointer: '/tools/0/annotations/attribution/1' }],
      },
      {
        title: 'A file:// URI with a host, a Windows path, a space and a host without a scheme',
        doc: false,
        tools: [
          {
            name: 'collect_sources',
            inputSchema: { type: 'object' },
            annotations: {
              attribution: ['file://build-01.corp.acme.com/var/log/app.log', 'C:\\reports\\q3.xlsx', 'https://example.com/my report', 'api.example.com/v1/rates'],
            },
          },
        ],
        findings: [
          { pointer: '/tools/0/annotations/attribution/0' },
          { pointer: '/tools/0/annotations/attribution/1' },
          { pointer: '/tools/0/annotations/attribution/2' },
          { pointer: '/tools/0/annotations/attribution/3' },
        ],
      },
    ],
    correct: [
      {
        title: 'The URI forms SEP-1913 suggests',
        tools: [
          {
            name: 'read_report',
            inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
            annotations: {
              readOnlyHint: true,
              attribution: [
                'mcp://file-server.acme.local/hr/salaries.xlsx',
                'https://api.example.com/v1/rates',
                'local://WORKSTATION.corp.acme.com/reports/q3.xlsx',
                'local:anonymous/reports/q3-summary.md',
                'urn:org:acme:hr:salaries',
              ],
            },
          },
        ],
      },
      {
        title: 'Other schemes, escapes and non-ASCII letters',
        doc: false,
        tools: [
          {
            name: 'read_object',
            inputSchema: { type: 'object' },
            annotations: { readOnlyHint: true, attribution: ['s3://acme-reports/2025/q3.csv', 'https://example.com/my%20report', 'https://例え.jp/データ'] },
          },
        ],
      },
    ],
  },
  check(ctx) {
    if (!ctx.claims.has('attribution')) return;
    for (const claim of claimsOf(ctx.claims, 'attribution')) {
      for (const m of members(claim)) {
        if (typeof m.value !== 'string' || m.index === undefined) continue;
        const entry = m.value;
        const field = `${claim.field}[${m.index}]`;
        const problem = uriProblem(entry);
        if (problem) {
          ctx.report({
            pointer: m.pointer,
            message: `${field} is ${quote(entry)}, which is not a URI: ${problem.reason}`,
            suggestion: problem.hint ?? 'write a URI that identifies the source, e.g. mcp://server/path, https://host/path, local://HOST/path or urn:org:…',
          });
          continue;
        }
        if (SCHEME.exec(entry)![1]!.toLowerCase() !== 'file') continue;
        const local = localForm(entry);
        const fix: Fix | undefined = local ? { description: `Replace with ${quote(local)}`, replacements: [{ pointer: m.pointer, text: JSON.stringify(local) }] } : undefined;
        ctx.report({
          pointer: m.pointer,
          message: `${field} is ${quote(entry)}, a file:// URI, which SEP-1913 asks servers to avoid: it does not say whose machine the file is on`,
          suggestion: local
            ? `write ${quote(local)}${local.startsWith('local:anonymous') ? ', or local://HOST/… if you know the machine' : ''}`
            : 'write local://HOST/path, or local:anonymous/path when the machine is unknown',
          ...(fix ? { fix } : {}),
        });
      }
    }
  },
});
