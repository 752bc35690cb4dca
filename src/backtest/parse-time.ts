/**
 * Times on the command line and in scenario files: a UTC day `2024-01-01`, a UTC time
 * `2024-01-01T06:30`, `2024-01-01T06:30:15.250Z`, or epoch milliseconds `1704067200000`.
 * Always UTC (a trailing Z is optional), never the host's time zone, so a run means the same
 * window on every machine.
 */
import { parseUtcPeriod } from '../data/index.ts';
import { InputError } from './input-error.ts';

const DAY = /^(\d{4}-\d{2}-\d{2})$/;
const TIME = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?Z?$/;

/** µs since the epoch, or InputError naming `what`. */
export function parseTime(text: string, what: string): number {
  const bad = () => new InputError(`${what} must be a UTC time (YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.ffffff]]) or epoch ms, got "${text}"`);
  if (/^\d{10,13}$/.test(text)) return Number(text) * 1000;
  const day = DAY.exec(text);
  if (day !== null) {
    const ms = parseUtcPeriod(day[1]!);
    if (ms === null) throw bad();
    return ms * 1000;
  }
  const time = TIME.exec(text);
  if (time === null) throw bad();
  const ms = parseUtcPeriod(time[1]!);
  const [hh, mm, ss] = [Number(time[2]), Number(time[3]), Number(time[4] ?? '0')];
  if (ms === null || hh > 23 || mm > 59 || ss > 59) throw bad();
  const fraction = Number((time[5] ?? '').padEnd(6, '0'));
  return ms * 1000 + ((hh * 60 + mm) * 60 + ss) * 1_000_000 + fraction;
}
