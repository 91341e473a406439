/**
 * Validators for what the reports promise: the official SARIF 2.1.0 schema (from
 * ../shared, or $MCP_ANNOTATE_SHARED) and this project's schemas/report.schema.json.
 * Each is compiled once, on first use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv04 from 'ajv-draft-04';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { ROOT } from './cli.js';

export const SHARED = process.env.MCP_ANNOTATE_SHARED ?? join(ROOT, '..', 'shared');

const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8'));

function once(make: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate = ((data: unknown) => {
    compiled ??= make();
    const ok = compiled(data);
    validate.errors = compiled.errors;
    return ok;
  }) as ValidateFunction;
  return validate;
}

/** The official SARIF 2.1.0 schema (draft-04). */
export const validateSarif = once(() => {
  const ajv = new Ajv04.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(readJson(join(SHARED, 'spec', 'sarif', 'sarif-schema-2.1.0.json')));
});

/** schemas/report.schema.json, the JSON format's contract (2020-12). */
export const validateJsonReport = once(() => {
  const ajv = new Ajv2020.default({ allErrors: true, strict: false });
  addFormats.default(ajv);
  return ajv.compile(readJson(join(ROOT, 'schemas', 'report.schema.json')));
});
