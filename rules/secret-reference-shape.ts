import { defineRule } from '../src/rule.js';
import { resultName } from '../src/engine/session.js';
import { called, declare, listed, on } from '../src/docs/transcripts.js';
import { isObject } from '../src/util/json.js';
import { quote } from '../src/util/text.js';

const createKey = declare('create_api_key', { readOnlyHint: false, destructiveHint: false, sensitiveHint: true });
const reference = (extra: Record<string, unknown>) => ({ type: 'secret_reference', id: 'key_123', label: 'API Key', redeemUrl: 'https://app.example.com/api/keys/key_123/redeem', ttl: 300, ...extra });
const textItem = { type: 'text', text: 'Created API key "production"' };
const SERVER_URL = 'https://app.example.com/mcp';

/** Hosts a browser treats as potentially trustworthy over plain http (a secure context). */
const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

const REQUIRED = [
  { key: 'id', what: 'the opaque identifier of the secret' },
  { key: 'label', what: 'the human-readable label a client shows' },
  { key: 'redeemUrl', what: 'the URL the user agent fetches the secret from' },
] as const;

export default defineRule({
  id: 'secret-reference-shape',
  severity: 'error',
  category: 'session',
  packs: ['webmcp-sensitive'],
  summary: 'A secret_reference content item needs an id, a label, a same-origin https redeemUrl and, when given, a positive ttl.',
  precision: 'very-high',
  security: 6.5,
  why: `The WebMCP sensitive-output proposal (../shared/seeds/002_994c6ebef8e679ab.txt, sections 4
and 4a) lets a tool return an opaque reference instead of a raw secret: a \`secret_reference\`
content item with \`id\` ("Opaque identifier for the secret"), \`label\` ("Human-readable label
for user-facing clients"), \`redeemUrl\` ("URL the user agent fetches with \`credentials:
"same-origin"\`") and an optional \`ttl\` ("Seconds until reference expiration"). Its redemption
contract says "\`redeemUrl\` MUST be same-origin with the page that registered the tool" and the
user agent "MUST send cookies": a reference without its fields cannot be redeemed (the secret is
lost, or the server falls back to returning it raw), and a redeemUrl on another origin or over
plain http sends the user's cookies where the secret can be intercepted or phished.`,
  notes: `- Checked on the \`content\` items of \`tools/call\` results whose \`type\` is
  \`"secret_reference"\`. Each problem is its own finding, at the offending member (at the item
  when a member is missing).
- \`id\`, \`label\` and \`redeemUrl\` must be non-empty strings; \`redeemUrl\` an absolute URL.
- **https**, with one exception: \`http://localhost\`, \`http://127.x.x.x\` and \`http://[::1]\`,
  which browsers treat as secure contexts (a local development server); anything else over http
  is an error.
- **Same origin**: checked when the transcript gives the server's URL — a wrapper's \`"url"\`
  (\`{"server": "app", "url": "https://app.example.com/mcp", "message": {…}}\`); the redeemUrl's
  origin (scheme, host and port) must be the server's. Without it, only the scheme is checked.
- \`ttl\`, when present, must be a positive finite number of seconds (a number too large for a
  double, \`1e400\`, is read as Infinity — a reference that never expires — and is a finding;
  one too small, \`1e-400\`, reads as 0, like \`-0\`, and the message says so).`,
  examples: {
    incorrect: [
      {
        title: 'A reference without a label, on another origin, with a zero ttl',
        transcript: on('app', [...listed(1, [createKey]), ...called(2, 'create_api_key', { content: [textItem, reference({ label: undefined, redeemUrl: 'https://secrets.example.net/redeem/key_123', ttl: 0 })] })], SERVER_URL),
        findings: [
          { pointer: '/3/message/result/content/1' },
          { pointer: '/3/message/result/content/1/redeemUrl' },
          { pointer: '/3/message/result/content/1/ttl' },
        ],
      },
      {
        title: 'A redeemUrl over plain http',
        transcript: [...listed(1, [createKey]), ...called(2, 'create_api_key', { content: [reference({ redeemUrl: 'http://app.example.com/api/keys/key_123/redeem' })] })],
        findings: [{ pointer: '/3/result/content/0/redeemUrl' }],
      },
      {
        title: 'An empty id and a relative redeemUrl',
        doc: false,
        transcript: [...listed(1, [createKey]), ...called(2, 'create_api_key', { content: [reference({ id: '', redeemUrl: '/redeem/key_123', ttl: undefined })] })],
        findings: [{ pointer: '/3/result/content/0/id' }, { pointer: '/3/result/content/0/redeemUrl' }],
      },
    ],
    correct: [
      {
        title: 'A complete reference on the server\'s origin',
        transcript: on('app', [...listed(1, [createKey]), ...called(2, 'create_api_key', { content: [textItem, reference({})] })], SERVER_URL),
      },
      {
        title: 'A local development server over http',
        transcript: [...listed(1, [createKey]), ...called(2, 'create_api_key', { content: [reference({ redeemUrl: 'http://localhost:8080/redeem/key_123', ttl: undefined })] })],
      },
    ],
  },
  checkSession(ctx) {
    for (const call of ctx.calls) {
      if (call.kind !== 'call' || !call.result || call.response === undefined) continue;
      const content = call.result.content;
      if (!Array.isArray(content)) continue;
      content.forEach((item, i) => {
        if (!isObject(item) || item.type !== 'secret_reference') return;
        const at = `${call.response}/result/content/${i}`;
        const what = `the secret_reference in ${resultName(call)}`;
        for (const r of REQUIRED) {
          const v = item[r.key];
          if (typeof v === 'string' && v !== '') continue;
          ctx.report({
            call,
            pointer: v === undefined ? at : `${at}/${r.key}`,
            // A missing member is keyed by its own pointer: three missing members are three findings.
            keyPointer: `${at}/${r.key}`,
            message: v === undefined ? `${what} has no ${r.key} (${r.what})` : `${what} has ${r.key} ${quote(v)}; it must be a non-empty string (${r.what})`,
            suggestion: `give the item a ${r.key}: a secret_reference needs id, label and redeemUrl`,
          });
        }
        const url = item.redeemUrl;
        if (typeof url === 'string' && url !== '') {
          let parsed: URL | undefined;
          try {
            parsed = new URL(url);
          } catch {
            parsed = undefined;
          }
          const pointer = `${at}/redeemUrl`;
          if (!parsed) {
            ctx.report({ call, pointer, message: `${what} has redeemUrl ${quote(url)}, which is not an absolute URL`, suggestion: 'give the absolute https URL of the redemption endpoint, on the origin of the server' });
          } else if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && LOOPBACK.test(parsed.hostname))) {
            ctx.report({
              call,
              pointer,
              message: `${what} has redeemUrl ${quote(url)}, which is not https: the user agent sends the user's cookies to redeem it, and the secret comes back in the clear`,
              suggestion: `serve the redemption endpoint over https${parsed.protocol === 'http:' ? ` (${quote(url.replace(/^http:/i, 'https:'))})` : ''}`,
            });
          } else if (call.serverUrl !== undefined && parsed.origin !== new URL(call.serverUrl).origin) {
            ctx.report({
              call,
              pointer,
              message: `${what} has redeemUrl ${quote(url)} on origin ${quote(parsed.origin)}, but the server is ${quote(call.serverUrl)} (origin ${quote(new URL(call.serverUrl).origin)}): the redemption endpoint MUST be same-origin`,
              suggestion: `serve the redemption endpoint on ${new URL(call.serverUrl).origin}`,
            });
          }
        }
        if ('ttl' in item) {
          const ttl = item.ttl;
          if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0) {
            ctx.report({
              call,
              pointer: `${at}/ttl`,
              // A number too large for a double (1e400) reads as Infinity: "ttl Infinity" named a
              // value the document does not have.
              message:
                typeof ttl === 'number' && !Number.isFinite(ttl)
                  ? `${what} has a ttl too large for a number (beyond 1.8e308, it reads as ${ttl > 0 ? 'Infinity: a reference that never expires' : '-Infinity'}); it must be a positive number of seconds until the reference expires`
                  : ttl === 0
                    ? // 0, -0 and a number too small for a double (1e-400) all read as 0.
                      `${what} has a ttl that reads as 0 (as 0, -0 and numbers too small for a double, such as 1e-400, do): a reference that expires at once; it must be a positive number of seconds until the reference expires`
                    : `${what} has ttl ${quote(ttl)}; it must be a positive number of seconds until the reference expires`,
              suggestion: 'give the seconds the reference stays redeemable (e.g. 300), or leave ttl out',
            });
          }
        }
      });
    }
  },
});
