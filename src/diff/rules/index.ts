/**
 * Every drift rule of `mcp-annotate diff`, in catalogue order. Their doc pages are
 * docs/rules/drift/<name>.md (the id is drift/<name>); test/diff-docs.test.ts keeps
 * pages, examples and the README table in step with this list.
 */
import type { DriftRule } from '../types.js';
import readonlyRemoved from './readonly-removed.js';
import destructiveAdded from './destructive-added.js';
import irreversibleAdded from './irreversible-added.js';
import confirmationDropped from './confirmation-dropped.js';
import riskLowered from './risk-lowered.js';
import idempotentRemoved from './idempotent-removed.js';
import openWorldAdded from './open-world-added.js';
import destinationAdded from './destination-added.js';
import sourceAdded from './source-added.js';
import sensitivityAdded from './sensitivity-added.js';
import sensitivityMarkRemoved from './sensitivity-mark-removed.js';
import outcomeAdded from './outcome-added.js';
import definitionChanged from './definition-changed.js';
import toolAdded from './tool-added.js';
import toolRemoved from './tool-removed.js';
import toolRenamed from './tool-renamed.js';

export const DRIFT_RULES: readonly DriftRule[] = [
  readonlyRemoved,
  destructiveAdded,
  irreversibleAdded,
  confirmationDropped,
  riskLowered,
  idempotentRemoved,
  openWorldAdded,
  destinationAdded,
  sourceAdded,
  sensitivityAdded,
  sensitivityMarkRemoved,
  outcomeAdded,
  definitionChanged,
  toolAdded,
  toolRemoved,
  toolRenamed,
];

export function driftRuleById(id: string): DriftRule | undefined {
  return DRIFT_RULES.find((r) => r.id === id);
}
