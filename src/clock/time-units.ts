/**
 * Simulated time is an integer count of microseconds since the Unix epoch, held in a JS number:
 * exact up to 2^53 µs, i.e. until about the year 2255. Binance speaks milliseconds (request
 * timestamps, most dump files) and sometimes microseconds (newer dumps); these helpers are the
 * one place the factor lives.
 */

export const MICROS_PER_MILLI = 1_000;
export const MICROS_PER_SECOND = 1_000_000;
export const MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
export const MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
export const MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

/** Throws a RangeError naming `what` unless `value` is a safe integer count of microseconds. */
export function assertMicros(value: number, what: string): void {
  if (!Number.isSafeInteger(value)) {
    throw new RangeError(`${what} must be a safe integer count of microseconds, got ${value}`);
  }
}

/** Milliseconds (possibly fractional) to whole microseconds, rounding down. */
export function millisToMicros(ms: number): number {
  return Math.floor(ms * MICROS_PER_MILLI);
}

/** Microseconds to whole milliseconds, rounding down (as a timestamp truncates: 1.9 ms is in ms 1). */
export function microsToMillis(us: number): number {
  return Math.floor(us / MICROS_PER_MILLI);
}
