/**
 * Every rule, in catalogue order. A test checks that each file in rules/ is listed
 * here, has a doc page in docs/rules/ and examples that produce what they claim.
 */
import type { Rule } from '../src/rule.js';
// Structure and schema
import schemaValid from './schema-valid.js';
import toolNameFormat from './tool-name-format.js';
import toolNameUnique from './tool-name-unique.js';
import duplicateKey from './duplicate-key.js';
import inputSchemaObject from './input-schema-object.js';
import inputSchemaValid from './input-schema-valid.js';
import hiddenCharacters from './hidden-characters.js';
import unknownAnnotationKey from './unknown-annotation-key.js';
import metaKeyFormat from './meta-key-format.js';
import draftField from './draft-field.js';
import vocabularyKeyCollision from './vocabulary-key-collision.js';
import noTools from './no-tools.js';
// Core hints
import readonlyDestructive from './readonly-destructive.js';
import missingReadonlyHint from './missing-readonly-hint.js';
import implicitDestructive from './implicit-destructive.js';
import implicitOpenWorld from './implicit-open-world.js';
import ignoredHint from './ignored-hint.js';
import titleMismatch from './title-mismatch.js';
// Consistency across vocabularies
import readonlyVsOutcome from './readonly-vs-outcome.js';
import readonlyVsDestination from './readonly-vs-destination.js';
import readonlyVsCategory from './readonly-vs-category.js';
import readonlyContradicted from './readonly-contradicted.js';
import readActionConflict from './read-action-conflict.js';
import destructiveVsCategory from './destructive-vs-category.js';
import destructiveVsOutcome from './destructive-vs-outcome.js';
import reversibilityVsOutcome from './reversibility-vs-outcome.js';
import idempotentConflict from './idempotent-conflict.js';
import publicDestinationOpenWorld from './public-destination-open-world.js';
import untrustedSourceOpenWorld from './untrusted-source-open-world.js';
import irreversibleNeedsConfirmation from './irreversible-needs-confirmation.js';
import sensitiveToPublic from './sensitive-to-public.js';
import credentialsInOutput from './credentials-in-output.js';
import sensitivityConflict from './sensitivity-conflict.js';
import riskLevelFloor from './risk-level-floor.js';
import approvalForHighRisk from './approval-for-high-risk.js';
import sensitiveOutputUndeclared from './sensitive-output-undeclared.js';
import emptyPossibleSet from './empty-possible-set.js';
import attributionUri from './attribution-uri.js';
import regulatedScope from './regulated-scope.js';
import actionMetadataConflict from './action-metadata-conflict.js';
import unknownClassifier from './unknown-classifier.js';
// Heuristics
import nameVsHints from './name-vs-hints.js';
import riskyParameters from './risky-parameters.js';
import descriptionVsHints from './description-vs-hints.js';
// Across tools of one server
import toxicFlow from './toxic-flow.js';
import crossServerNameCollision from './cross-server-name-collision.js';
// Results and sessions
import resultWithinDeclared from './result-within-declared.js';
import resultSingleValue from './result-single-value.js';
import propagationOpenWorld from './propagation-open-world.js';
import propagationAttribution from './propagation-attribution.js';
import resolveWithinDeclared from './resolve-within-declared.js';
import secretReferenceShape from './secret-reference-shape.js';

export const RULES: readonly Rule[] = [
  // Structure and schema
  schemaValid,
  toolNameFormat,
  toolNameUnique,
  duplicateKey,
  inputSchemaObject,
  inputSchemaValid,
  hiddenCharacters,
  unknownAnnotationKey,
  metaKeyFormat,
  draftField,
  vocabularyKeyCollision,
  noTools,
  // Core hints
  readonlyDestructive,
  missingReadonlyHint,
  implicitDestructive,
  implicitOpenWorld,
  ignoredHint,
  titleMismatch,
  // Consistency across vocabularies
  readonlyVsOutcome,
  readonlyVsDestination,
  readonlyVsCategory,
  readonlyContradicted,
  readActionConflict,
  destructiveVsCategory,
  destructiveVsOutcome,
  reversibilityVsOutcome,
  idempotentConflict,
  publicDestinationOpenWorld,
  untrustedSourceOpenWorld,
  irreversibleNeedsConfirmation,
  sensitiveToPublic,
  credentialsInOutput,
  sensitivityConflict,
  riskLevelFloor,
  approvalForHighRisk,
  sensitiveOutputUndeclared,
  emptyPossibleSet,
  attributionUri,
  regulatedScope,
  actionMetadataConflict,
  unknownClassifier,
  // Heuristics
  nameVsHints,
  riskyParameters,
  descriptionVsHints,
  // Across tools of one server
  toxicFlow,
  crossServerNameCollision,
  // Results and sessions
  resultWithinDeclared,
  resultSingleValue,
  propagationOpenWorld,
  propagationAttribution,
  resolveWithinDeclared,
  secretReferenceShape,
];

export function ruleById(id: string): Rule | undefined {
  return RULES.find((r) => r.id === id);
}
