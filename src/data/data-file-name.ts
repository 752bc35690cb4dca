/**
 * Every data file name exsim recognises, as one type: Binance's dumps, Tardis.dev's datasets and
 * exsim's own recordings all say symbol, kind and the period they cover, which is all that
 * choosing files needs.
 */
import { parseDumpFileName, type DumpFileName } from './dump-file-name.ts';
import type { DumpKind } from './dump-schema.ts';
import { parseRecordingFileName, type RecordingFileName } from './recording/recording-file-name.ts';
import { parseTardisFileName, type TardisFileName, type TardisKind } from './tardis-file-name.ts';

/** An exsim recording (`exsim record`): one symbol's trades, diff depth, snapshots and quotes of one UTC day. */
export const RECORDING_KIND = 'exsim:recording';

export type DataKind = DumpKind | TardisKind | typeof RECORDING_KIND;

/** A recording's name as a data file: a daily `.gz`, numbered from part 2 when a later run wrote the same day. */
export interface RecordingDataFileName extends RecordingFileName {
  readonly kind: typeof RECORDING_KIND;
  readonly period: 'daily';
  readonly extension: 'gz';
  /** Klines only: here so that every file name answers it. */
  readonly interval?: undefined;
}

export type DataFileName = DumpFileName | TardisFileName | RecordingDataFileName;

/** A Binance dump, Tardis or recording file name's parts, or null for any other name. */
export function parseDataFileName(baseName: string): DataFileName | null {
  const named = parseDumpFileName(baseName) ?? parseTardisFileName(baseName);
  if (named !== null) return named;
  const recording = parseRecordingFileName(baseName);
  return recording === null ? null : { ...recording, kind: RECORDING_KIND, period: 'daily', extension: 'gz' };
}

export function isTardisFileName(name: DataFileName): name is TardisFileName {
  return name.kind.startsWith('tardis:');
}

/**
 * Read order of two files of one series: by period, then (recordings) by part, since a day's later
 * run continues it. Ties are left to the caller (paths).
 */
export function comparePeriods(a: DataFileName, b: DataFileName): number {
  return a.start - b.start || partOf(a) - partOf(b);
}

const partOf = (name: DataFileName): number => ('part' in name ? name.part : 1);

const PACKED = /\.(zip|csv\.gz)$/i;

/**
 * `items` without an unpacked `x.csv` that has its packed twin (`x.zip`, `x.csv.gz`) among them:
 * the same data, and the packed one's CRC guards it, so that is the one read.
 */
export function dropUnpackedTwins<T>(items: readonly T[], pathOf: (item: T) => string): T[] {
  const packed = new Set(items.map(pathOf).filter((p) => PACKED.test(p)).map((p) => p.replace(PACKED, '')));
  return items.filter((item) => {
    const path = pathOf(item);
    return !(/\.csv$/i.test(path) && packed.has(path.replace(/\.csv$/i, '')));
  });
}
