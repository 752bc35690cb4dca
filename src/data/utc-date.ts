/**
 * Calendar arithmetic in UTC without the Date object: src/data must not read the wall clock, and
 * a hook rejects Date construction here, so days are converted with Howard Hinnant's civil-date
 * algorithms (exact for every proleptic Gregorian date) and Date.UTC for the other direction.
 */

const MS_PER_DAY = 86_400_000;

/** Days since 1970-01-01 for a civil date (month 1..12). */
export function daysFromCivil(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / MS_PER_DAY);
}

/** The civil date [year, month 1..12, day 1..31] of a day count since 1970-01-01. */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** "YYYY-MM-DD" of an epoch time in milliseconds. */
export function formatUtcDay(ms: number): string {
  const [y, m, d] = civilFromDays(Math.floor(ms / MS_PER_DAY));
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** "YYYY-MM-DDTHH:MM:SS.ffffffZ" of an epoch time in microseconds (for messages and reports). */
export function formatUtcMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const dayMs = ms - Math.floor(ms / MS_PER_DAY) * MS_PER_DAY;
  const seconds = Math.floor(dayMs / 1000);
  const micros = us - Math.floor(us / 1_000_000) * 1_000_000;
  const hh = Math.floor(seconds / 3600);
  const mm = Math.floor((seconds % 3600) / 60);
  const ss = seconds % 60;
  return `${formatUtcDay(ms)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}.${pad(micros, 6)}Z`;
}

/**
 * Epoch milliseconds of the start of a "YYYY-MM-DD" day or "YYYY-MM" month, or null if the text
 * is not a real date (2024-02-30 is rejected rather than rolled over).
 */
export function parseUtcPeriod(text: string): number | null {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(text);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = match[3] === undefined ? 1 : Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return null;
  const ms = Date.UTC(year, month - 1, day);
  const [, m2, d2] = civilFromDays(ms / MS_PER_DAY);
  return m2 === month && d2 === day ? ms : null;
}

export { MS_PER_DAY };
