/**
 * Recorded funding rates of USDⓈ-M perpetuals: data.binance.vision's monthly dumps
 * `futures/um/monthly/fundingRate/<S>/<S>-fundingRate-YYYY-MM.zip`, one CSV with the header
 * `calc_time,funding_interval_hours,last_funding_rate` (calc_time in epoch ms, the interval the
 * funding closed in hours, the rate as a decimal), a row per funding.
 *
 * Read apart from the trades/klines dumps (dump-file-name.ts): the rows are a handful a month, read
 * whole, and the file is no tape. The file must lie under a `futures/um` folder pair, as
 * data.binance.vision lays it out (marketOfPath), like the other USDⓈ-M dumps. A calc_time above
 * 1e14 is taken as µs (as spot dumps switched to in 2025); rates are kept at 1e-8 (the exchange
 * shows 8 decimals), rounded half up when a file has more.
 */
import { basename } from 'node:path';
import { Decimal } from 'decimal.js';
import { DataFormatError } from './data-format-error.ts';
import { futuresFilesOverlapping } from './dump-sources.ts';
import { openDumpFile } from './open-dump-file.ts';
import { civilFromDays, parseUtcPeriod } from './utc-date.ts';

export interface FundingRateFileName {
  readonly symbol: string;
  /** "2024-01". */
  readonly date: string;
  /** Epoch ms of the month's start and of the next month's. */
  readonly start: number;
  readonly end: number;
}

/** One recorded funding. */
export interface FundingRateRow {
  /** µs. */
  readonly time: number;
  readonly intervalHours: number;
  /** The rate in 1e-8 units (0.0001 → 10 000). */
  readonly rate: number;
}

export interface FundingRates {
  /** The files read, oldest first. */
  readonly files: readonly string[];
  /** Every row of those files, oldest first. */
  readonly rows: readonly FundingRateRow[];
}

const NAME = /^([A-Z0-9]+)-fundingRate-(\d{4}-\d{2})\.(csv|zip)$/;

/** The parts of a fundingRate dump's base name, or null for any other name. */
export function parseFundingRateFileName(baseName: string): FundingRateFileName | null {
  const match = NAME.exec(baseName);
  if (match === null) return null;
  const [, symbol, date] = match as unknown as [string, string, string];
  const start = parseUtcPeriod(date);
  if (start === null) return null;
  const [year, month] = civilFromDays(Math.floor(start / 86_400_000));
  return { symbol, date, start, end: Date.UTC(year, month, 1) };
}

/** The USDⓈ-M fundingRate dumps of `symbol` under `dir` whose month overlaps [from, to) µs, oldest first. */
export async function fundingRateFiles(dir: string, symbol: string, from: number, to: number): Promise<string[]> {
  return futuresFilesOverlapping(dir, from, to, (path) => {
    const name = parseFundingRateFileName(basename(path));
    return name === null || name.symbol !== symbol ? null : name;
  });
}

/** The recorded fundings of `symbol` from the folder's fundingRate dumps for [from, to) µs, or null when it has none. */
export async function readFundingRates(dir: string, symbol: string, from: number, to: number): Promise<FundingRates | null> {
  const files = await fundingRateFiles(dir, symbol, from, to);
  if (files.length === 0) return null;
  const rows: FundingRateRow[] = [];
  for (const path of files) rows.push(...(await readFile(path)));
  rows.sort((a, b) => a.time - b.time);
  return { files, rows };
}

async function readFile(path: string): Promise<FundingRateRow[]> {
  const opened = await openDumpFile(path);
  const parts: Buffer[] = [];
  for await (const chunk of opened.chunks) parts.push(chunk);
  const lines = Buffer.concat(parts).toString('utf8').split(/\r?\n/);
  const rows: FundingRateRow[] = [];
  lines.forEach((text, i) => {
    if (text.trim() === '') return;
    const cells = text.split(',');
    // The header row (Binance's dumps have one).
    if (i === 0 && !/^\d/.test(cells[0] ?? '')) return;
    const at = (column: number, detail: string) => new DataFormatError(opened.name, i + 1, column, detail);
    if (cells.length < 3) throw at(0, `expected 3 columns (calc_time,funding_interval_hours,last_funding_rate), found ${cells.length}`);
    const [timeText, hoursText, rateText] = cells as [string, string, string];
    if (!/^\d+$/.test(timeText)) throw at(1, `column 1 (calc_time): "${timeText}" is not an integer time`);
    if (!/^\d+$/.test(hoursText) || Number(hoursText) === 0) throw at(2, `column 2 (funding_interval_hours): "${hoursText}" is not a whole number of hours`);
    if (!/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(rateText.trim())) throw at(3, `column 3 (last_funding_rate): "${rateText}" is not a decimal`);
    const raw = Number(timeText);
    rows.push({
      time: raw > 1e14 ? raw : raw * 1000,
      intervalHours: Number(hoursText),
      rate: new Decimal(rateText.trim()).mul(1e8).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber(),
    });
  });
  return rows;
}
