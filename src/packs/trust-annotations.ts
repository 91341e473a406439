/**
 * trust-annotations: the experimental extension SEP-1913's trust labels moved into —
 * _meta["io.modelcontextprotocol/trust-annotations"] = {sensitive, untrusted,
 * evidenceRef{type, digest, canonicalization, schema?, ref?}}. Mostly seen on results;
 * on a tool it says what the tool's results may be.
 */
import { generated } from '../schema/generated.js';
import { newClaim, type Claim } from '../engine/claims.js';
import { isObject } from '../util/json.js';
import { escapeSegment } from '../util/pointer.js';
import type { Pack, ToolView } from './types.js';
import { checkVocabulary } from './vocabulary.js';

const validate = generated('trust-annotations').Meta!;

export const TRUST_KEY = 'io.modelcontextprotocol/trust-annotations';
const KEYS = [TRUST_KEY];
export const TRUST_MEMBERS = ['sensitive', 'untrusted', 'evidenceRef'];
const recognised = (_k: string, v: unknown) => isObject(v) && TRUST_MEMBERS.some((x) => x in v);
const expected = () => 'an object with sensitive, untrusted and evidenceRef';

export const trustAnnotationsPack: Pack = {
  id: 'trust-annotations',
  title: 'Trust annotations extension',
  source: 'the experimental io.modelcontextprotocol/trust-annotations extension (SEP-1913 trust labels)',
  location: `_meta["${TRUST_KEY}"] = {sensitive, untrusted, evidenceRef}`,
  annotationKeys: [],
  metaKeys: [TRUST_KEY],
  proposal: true,
  analyse(tool: ToolView) {
    const m = tool.meta;
    if (!m) return { claims: [], problems: [] };
    const { problems, foreign, present } = checkVocabulary({
      pack: 'trust-annotations',
      container: m,
      at: '/_meta',
      toolPointer: tool.pointer,
      keys: KEYS,
      recognised,
      expected,
      name: 'the trust-annotations extension',
      validate,
    });
    const claims: Claim[] = [];
    const t = m[TRUST_KEY];
    if (present.length && !foreign.has(TRUST_KEY) && isObject(t)) {
      const base = `${tool.pointer}/_meta/${escapeSegment(TRUST_KEY)}`;
      const field = (k: string) => `_meta[${JSON.stringify(TRUST_KEY)}].${k}`;
      if (typeof t.sensitive === 'boolean') claims.push(newClaim('sensitiveOutput', t.sensitive, 'trust-annotations', field('sensitive'), `${base}/sensitive`));
      if (typeof t.untrusted === 'boolean') claims.push(newClaim('untrusted', t.untrusted, 'trust-annotations', field('untrusted'), `${base}/untrusted`));
    }
    return { claims, problems };
  },
};
