/**
 * Recording file names: one gzipped file per symbol and UTC day (by local receive time), in the
 * symbol's folder, named after Tardis's `<exchange>_<data_type>_<YYYY-MM-DD>_<SYMBOL>` scheme:
 *
 *   DIR/BTCUSDT/exsim_recording_2024-01-01_BTCUSDT.gz      the day's first file
 *   DIR/BTCUSDT/exsim_recording_2024-01-01_BTCUSDT.2.gz    a later run the same day (part 2, 3, ...)
 *
 * A restarted recorder never appends to a file an earlier run wrote: that file may end in a
 * torn gzip member (a killed run), and a member appended after it would be unreadable. Files
 * sort by (day, part), which is receive order.
 */
import { parseUtcPeriod } from '../utc-date.ts';

export interface RecordingFileName {
  readonly symbol: string;
  /** "2024-01-01" (UTC, of the local receive times). */
  readonly date: string;
  /** 1 for the day's first file, then 2, 3, ... */
  readonly part: number;
  /** Epoch ms of the day's start and of the next day's. */
  readonly start: number;
  readonly end: number;
}

const NAME = /^exsim_recording_(\d{4}-\d{2}-\d{2})_([A-Z0-9]+)(?:\.([1-9]\d*))?\.gz$/;

/** The parts of a recording file's base name, or null when it is not one. */
export function parseRecordingFileName(baseName: string): RecordingFileName | null {
  const match = NAME.exec(baseName);
  if (match === null) return null;
  const [, date, symbol, part] = match as unknown as [string, string, string, string | undefined];
  const start = parseUtcPeriod(date);
  if (start === null) return null;
  const n = part === undefined ? 1 : Number(part);
  // Part 1 is written without a number; "…_BTCUSDT.1.gz" would be a second name for it.
  if (part !== undefined && n < 2) return null;
  return { symbol, date, part: n, start, end: start + 86_400_000 };
}

/** The file name for a symbol, day and part: the inverse of parseRecordingFileName. */
export function formatRecordingFileName(symbol: string, date: string, part = 1): string {
  return `exsim_recording_${date}_${symbol}${part === 1 ? '' : `.${part}`}.gz`;
}

/** Orders recording file names by symbol, day, then part (receive order within a symbol). */
export function compareRecordingFileNames(a: RecordingFileName, b: RecordingFileName): number {
  if (a.symbol !== b.symbol) return a.symbol < b.symbol ? -1 : 1;
  return a.start - b.start || a.part - b.part;
}
