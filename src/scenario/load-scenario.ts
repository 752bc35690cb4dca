/**
 * Reads a scenario file and validates it against scenarios/schema.json with Ajv (the standard,
 * maintained JSON Schema validator: the schema stays the one documented authority instead of a
 * hand-written checker that drifts from it). A file that is missing, not JSON, or not a valid
 * scenario is an InputError naming the file and the first problem.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { InputError } from '../backtest/index.ts';
import type { Scenario } from './scenario-types.ts';

export const SCENARIO_SCHEMA_PATH = fileURLToPath(new URL('../../scenarios/schema.json', import.meta.url));

let validator: ValidateFunction | undefined;

function validate(): ValidateFunction {
  if (validator === undefined) {
    const ajv = new Ajv({ allErrors: false, strict: false });
    validator = ajv.compile(JSON.parse(readFileSync(SCENARIO_SCHEMA_PATH, 'utf8')) as object);
  }
  return validator;
}

export function loadScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new InputError(`${path}: no such scenario file`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${path}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const check = validate();
  if (!check(json)) {
    const e = check.errors?.[0];
    const where = e?.instancePath === '' || e?.instancePath === undefined ? 'the file' : e.instancePath;
    const extra = e?.params !== undefined && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : '';
    throw new InputError(`${path}: not a valid scenario: ${where} ${e?.message ?? 'is invalid'}${extra}`);
  }
  return json as Scenario;
}
