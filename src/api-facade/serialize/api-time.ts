/**
 * Times on the wire: milliseconds by default, microseconds when the request says
 * `X-MBX-TIME-UNIT: MICROSECOND` (binance-facts §9). The engine keeps µs throughout.
 */
export type TimeUnit = 'MILLISECOND' | 'MICROSECOND';

export function apiTime(micros: number, unit: TimeUnit): number {
  if (micros < 0) return micros; // -1 sentinels (workingTime of a pending order) pass through
  return unit === 'MICROSECOND' ? micros : Math.floor(micros / 1000);
}
