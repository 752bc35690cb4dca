/**
 * `limit` as every market-data list endpoint reads it: default 500, at most 1000. The API facade
 * validates the parameter and answers its own errors; the history only clamps what it is given
 * to the maximum (as Binance caps depth's limit) and refuses nonsense outright.
 */
export const DEFAULT_LIMIT = 500;
export const MAX_LIMIT = 1000;

export function resolveLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer (got ${limit})`);
  return Math.min(limit, MAX_LIMIT);
}

/**
 * Picks positions from a run [lo, hi) of rows in time order, by the spec's rule:
 * with a lower bound (startTime or fromId) the oldest rows from it, else the newest.
 */
export function pickRange(lo: number, hi: number, fromLowerBound: boolean, limit: number): [number, number] {
  if (hi <= lo) return [lo, lo];
  return fromLowerBound ? [lo, Math.min(hi, lo + limit)] : [Math.max(lo, hi - limit), hi];
}
