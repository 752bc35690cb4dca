/**
 * Times on the wire: milliseconds by default, microseconds when the request says
 * `X-MBX-TIME-UNIT: MICROSECOND` (REST) or `timeUnit=MICROSECOND` (a WebSocket API or stream
 * URL; binance-facts §9). The engine keeps µs throughout.
 */
export type TimeUnit = 'MILLISECOND' | 'MICROSECOND';

/**
 * The time unit a request names, read one way for every transport: absent is milliseconds;
 * MICROSECOND / microsecond and MILLISECOND / millisecond are accepted; anything else is null,
 * which every caller answers with -1194 INVALID_TIME_UNIT, as Binance does.
 */
export function parseTimeUnit(value: string | null | undefined): TimeUnit | null {
  if (value === undefined || value === null || value === 'MILLISECOND' || value === 'millisecond') return 'MILLISECOND';
  if (value === 'MICROSECOND' || value === 'microsecond') return 'MICROSECOND';
  return null;
}

export function apiTime(micros: number, unit: TimeUnit): number {
  if (micros < 0) return micros; // -1 sentinels (workingTime of a pending order) pass through
  return unit === 'MICROSECOND' ? micros : Math.floor(micros / 1000);
}
