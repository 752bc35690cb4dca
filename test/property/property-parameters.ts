/**
 * fast-check parameters shared by the property tests, overridable from the environment so a
 * failure seen in CI can be replayed locally without editing the test:
 * - EXSIM_PROPERTY_RUNS: runs per property (scales every property's default);
 * - EXSIM_PROPERTY_SEED / EXSIM_PROPERTY_PATH: the seed and path fast-check printed.
 */
import type fc from 'fast-check';

export function propertyParameters<T>(defaults: { numRuns: number }): fc.Parameters<T> {
  const env = process.env;
  const params: fc.Parameters<T> = { numRuns: defaults.numRuns };
  const runs = env['EXSIM_PROPERTY_RUNS'];
  if (runs !== undefined && runs !== '') params.numRuns = Number(runs);
  const seed = env['EXSIM_PROPERTY_SEED'];
  if (seed !== undefined && seed !== '') params.seed = Number(seed);
  const path = env['EXSIM_PROPERTY_PATH'];
  if (path !== undefined && path !== '') params.path = path;
  return params;
}
