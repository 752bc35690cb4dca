/**
 * Binary search over a store kept in time order (trades, aggregate trades): the number of
 * leading entries with time < `time` (`inclusive` false: the first position at or after it) or
 * with time <= `time` (`inclusive` true: entries [0, result) are visible at `time`).
 */
export function timeBound(length: number, timeAt: (i: number) => number, time: number, inclusive: boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const t = timeAt(mid);
    if (t < time || (inclusive && t === time)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
