/**
 * Every data file name exsim recognises, as one type: Binance's dumps, Tardis.dev's datasets and
 * exsim's own recordings all say symbol, kind and the period they cover, which is all that
 * choosing files needs.
 */
import { basename, resolve, sep } from 'node:path';
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

/**
 * The market a data file belongs to: Binance spot, or USDⓈ-M futures (`um`, the perpetual a run
 * trades as `um:<symbol>`). Binance's dumps use the same file names in both markets
 * (`BTCUSDT-trades-2024-01-01.zip`), told apart only by the folder data.binance.vision puts them
 * in: `spot/...` or `futures/um/...`. Tardis.dev names its exchange in the file name
 * (`binance-futures_trades_...`). exsim recordings are of spot.
 */
export type DataMarket = 'spot' | 'um';

/** A data file's name parts and the market its path says. */
export type MarketFileName = DataFileName & { readonly market: DataMarket };

/** The markets a path or name can say; `cm` (COIN-M futures) is not read by exsim. */
export type PathMarket = DataMarket | 'cm';

/**
 * The market of the file at `path`: a `futures/um` pair of folders anywhere in its (resolved)
 * path is USDⓈ-M, `futures/cm` COIN-M; a Tardis name's exchange says it
 * (`binance-futures`: USDⓈ-M, `binance-delivery`: COIN-M); anything else is spot.
 */
export function marketOfPath(path: string, name: DataFileName | null = null): PathMarket {
  if (name !== null && isTardisFileName(name)) return name.exchange === 'binance-futures' ? 'um' : name.exchange === 'binance-delivery' ? 'cm' : 'spot';
  const parts = resolve(path).split(sep === '\\' ? /[\\/]/ : '/');
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i] !== 'futures') continue;
    if (parts[i + 1] === 'um') return 'um';
    if (parts[i + 1] === 'cm') return 'cm';
  }
  return 'spot';
}

/** Why a COIN-M file is not read (one sentence for messages). */
export const COIN_M_NOT_READ = 'COIN-M futures data (futures/cm, binance-delivery) is not read: exsim trades USDⓈ-M perpetuals only';

/**
 * The name parts of the data file at `path` and its market (marketOfPath), or null for a name
 * outside the schemes and for COIN-M files (not read). Every listing of a data folder goes
 * through this, so a futures dump is never taken for the spot file of the same name.
 */
export function parseDataFilePath(path: string): MarketFileName | null {
  const name = parseDataFileName(basename(path));
  if (name === null || isPriceKlinesPath(path)) return null;
  const market = marketOfPath(path, name);
  return market === 'cm' ? null : { ...name, market };
}

/**
 * USDⓈ-M mark, index and premium index klines (`futures/um/daily/markPriceKlines/BTCUSDT/1m/
 * BTCUSDT-1m-2024-01-01.zip`) carry the kline file names of trade klines, told apart only by
 * their folder: they are no prints (read-mark-klines.ts reads the mark ones), so no listing of
 * tape files takes them.
 */
export const PRICE_KLINE_FOLDERS: readonly string[] = ['markPriceKlines', 'indexPriceKlines', 'premiumIndexKlines'];

/** The price-klines folder (`markPriceKlines`, ...) `path` lies under, or null. */
export function priceKlinesFolder(path: string): string | null {
  const parts = resolve(path).split(sep === '\\' ? /[\\/]/ : '/');
  return parts.find((p) => PRICE_KLINE_FOLDERS.includes(p)) ?? null;
}

const isPriceKlinesPath = (path: string): boolean => priceKlinesFolder(path) !== null;

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
