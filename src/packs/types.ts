/**
 * A pack is one annotation vocabulary: where it lives on a tool, its JSON Schema, and
 * how what it says becomes claims. Adding a vocabulary is adding a pack.
 */
import type { PackId, SpecVersion } from '../types.js';
import type { Claim } from '../engine/claims.js';

/** A tool as packs and rules see it. */
export interface ToolView {
  value: unknown;
  /** The tool when it is an object. */
  obj?: Record<string, unknown>;
  pointer: string;
  index: number;
  /** The tool's name, or "#<index>" when it has none. */
  name: string;
  hasName: boolean;
  annotations?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

export interface SchemaProblem {
  pack: PackId;
  /** Absolute pointer of the offending value. */
  pointer: string;
  message: string;
  suggestion?: string;
  /**
   * invalid: the tool speaks the vocabulary and gets it wrong (schema-valid).
   * collision: a key the vocabulary defines holds the server's own data (vocabulary-key-collision).
   * draft: a problem that a superseded draft spelling explains (draft-field reports the draft form;
   *   see src/packs/drafts.ts).
   */
  kind: 'invalid' | 'collision' | 'draft';
  /**
   * The pack read the value all the same (a case variant of an enum member, a list of
   * actions: see vocabularyLike in vocabulary.ts), so its claims say what the field says:
   * rules need not count the field as unreadable.
   */
  read?: true;
  /** See Explained.detail: what the problem is about when others can share its pointer. */
  detail?: string;
}

export interface PackEnv {
  spec: SpecVersion;
  /**
   * The packs that run (undefined: every pack). A pack may read a form another vocabulary
   * explains differently only when that vocabulary is on: SEP-1913's first-draft
   * sensitiveHint level is draft-field's while sep-1913 runs, and webmcp-sensitive's to check
   * when it does not.
   */
  packs?: ReadonlySet<PackId>;
  /**
   * The annotations read are a tools/call result's `_meta.annotations` (a session's), SEP-1913's
   * own place, not a tool's: there a key the vocabulary defines is the vocabulary's, so a value
   * of the wrong shape is a schema problem, never the server's own data (a collision). A resolved
   * tool (tools/resolve) is a whole Tool and is read without it, as its declaration is.
   */
  result?: boolean;
}

export interface PackResult {
  claims: Claim[];
  problems: SchemaProblem[];
}

export interface Pack {
  id: PackId;
  title: string;
  /** Where the vocabulary is defined (a seed document or the spec). */
  source: string;
  /** Where on the tool it lives, for docs and `rules` output. */
  location: string;
  /** Keys of `annotations` this pack defines. */
  annotationKeys: readonly string[];
  /** Keys of the tool's `_meta` this pack defines. */
  metaKeys: readonly string[];
  /** Whether a draft proposal (its keys may collide with a server's own fields). */
  proposal: boolean;
  analyse(tool: ToolView, env: PackEnv): PackResult;
}
