/**
 * Tardis.dev's dataset file names, as its downloaders (tardis-dev for Python and Node) write
 * them: `<exchange>_<data_type>_<YYYY-MM-DD>_<SYMBOL>.csv.gz`, e.g.
 * `binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz` (the symbol upper-cased, `/` and `:`
 * turned into `-`); an unpacked `.csv` keeps the name. One file is one UTC day.
 */
import { TARDIS_DATA_TYPES, type TardisDataType } from './tardis-schema.ts';
import { parseUtcPeriod } from './utc-date.ts';

/** A Tardis file's kind, told apart from Binance's kinds (`trades` is both). */
export type TardisKind = `tardis:${TardisDataType}`;

export interface TardisFileName {
  /** The symbol as the name writes it (the downloader's upper case). */
  readonly symbol: string;
  readonly kind: TardisKind;
  /** Tardis's exchange id: `binance`, `binance-futures`, ... */
  readonly exchange: string;
  readonly period: 'daily';
  /** "2024-01-01". */
  readonly date: string;
  /** Epoch ms of the day's start. */
  readonly start: number;
  /** Epoch ms of the next day's start. */
  readonly end: number;
  readonly extension: 'csv' | 'csv.gz';
  /** Klines only, which Tardis does not publish: here so that every file name answers it. */
  readonly interval?: undefined;
}

const NAME = new RegExp(`^([a-z0-9-]+)_(${TARDIS_DATA_TYPES.join('|')})_(\\d{4}-\\d{2}-\\d{2})_([A-Za-z0-9_.-]+?)\\.(csv|csv\\.gz)$`);

/** The parts of a Tardis file's base name, or null when it does not follow the scheme. */
export function parseTardisFileName(baseName: string): TardisFileName | null {
  const match = NAME.exec(baseName);
  if (match === null) return null;
  const [, exchange, dataType, date, symbol, extension] = match as unknown as [string, string, TardisDataType, string, string, 'csv' | 'csv.gz'];
  const start = parseUtcPeriod(date);
  if (start === null) return null;
  return { symbol, kind: `tardis:${dataType}`, exchange, period: 'daily', date, start, end: start + 86_400_000, extension };
}

/** The downloader's name for an exchange, data type, day and symbol: the inverse of parseTardisFileName. */
export function formatTardisFileName(exchange: string, dataType: TardisDataType, date: string, symbol: string, extension: 'csv' | 'csv.gz'): string {
  return `${exchange}_${dataType}_${date}_${symbol}.${extension}`;
}

/** A symbol as the downloader writes it in a file name (so a `XBT/USD` row belongs to a `XBT-USD` file). */
export function fileNameSymbol(symbol: string): string {
  return symbol.replace(/[:\\/?*<>|"]/g, '-').toUpperCase();
}
