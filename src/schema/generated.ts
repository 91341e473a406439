/**
 * The validators scripts/build.mjs precompiled from the bundled JSON Schemas
 * (generated/*.cjs, standalone Ajv code). Each is loaded synchronously the first time a
 * run needs it, so start-up never pays for spec versions or dialects it does not use.
 */
import { createRequire } from 'node:module';
import type { ErrorObject } from 'ajv';

export interface GeneratedValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

const load = createRequire(import.meta.url);

/** The exports of generated/<name>.cjs (e.g. generated('core-2026-07-28').tool). */
export function generated(name: string): Record<string, GeneratedValidator> {
  return load(`#generated/${name}.cjs`) as Record<string, GeneratedValidator>;
}
