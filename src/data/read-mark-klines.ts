/**
 * Recorded mark prices of USDⓈ-M perpetuals: data.binance.vision's mark price klines,
 * `futures/um/{daily,monthly}/markPriceKlines/<S>/1m/<S>-1m-YYYY-MM[-DD].zip` (the trade klines'
 * file names and columns, `open_time,open,high,low,close,...`, the volumes 0; told apart by their
 * folder, data-file-name.ts `priceKlinesFolder`). One-minute bars only: the mark moves each second
 * and a coarser bar says less of where it went. Times in ms (µs read too, above 1e14); prices read
 * at `precision` decimals (the spot symbol's price units, as the futures model's marks), rounded
 * half up when a file has more.
 */
import { basename } from 'node:path';
import { Decimal } from 'decimal.js';
import { DataFormatError } from './data-format-error.ts';
import { priceKlinesFolder } from './data-file-name.ts';
import { parseDumpFileName } from './dump-file-name.ts';
import { futuresFilesOverlapping } from './dump-sources.ts';
import { openDumpFile } from './open-dump-file.ts';

/** One recorded one-minute mark bar: open time (µs) and prices (units at the precision read). */
export interface MarkBar {
  readonly openTime: number;
  readonly open: number;
  readonly high: number;
  readonly low: number;
  readonly close: number;
}

export interface MarkKlines {
  readonly files: readonly string[];
  /** Oldest first, one per minute (a later file's bar of the same minute replaces an earlier one's). */
  readonly bars: readonly MarkBar[];
}

/** The 1m markPriceKlines dumps of `symbol` under `dir` whose period overlaps [from, to) µs, oldest first. */
export async function markKlineFiles(dir: string, symbol: string, from: number, to: number): Promise<string[]> {
  return futuresFilesOverlapping(dir, from, to, (path) => {
    const name = parseDumpFileName(basename(path));
    if (name === null || name.kind !== 'klines' || name.interval !== '1m' || name.symbol !== symbol) return null;
    return priceKlinesFolder(path) === 'markPriceKlines' ? name : null;
  });
}

/** The recorded 1m mark bars of `symbol` for [from, to) µs at `precision` decimals, or null when the folder has none. */
export async function readMarkKlines(dir: string, symbol: string, from: number, to: number, precision: number): Promise<MarkKlines | null> {
  const files = await markKlineFiles(dir, symbol, from, to);
  if (files.length === 0) return null;
  const byMinute = new Map<number, MarkBar>();
  for (const path of files) for (const bar of await readFile(path, precision)) byMinute.set(bar.openTime, bar);
  return { files, bars: [...byMinute.values()].sort((a, b) => a.openTime - b.openTime) };
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

async function readFile(path: string, precision: number): Promise<MarkBar[]> {
  const opened = await openDumpFile(path);
  const parts: Buffer[] = [];
  for await (const chunk of opened.chunks) parts.push(chunk);
  const bars: MarkBar[] = [];
  const scale = new Decimal(10).pow(precision);
  Buffer.concat(parts)
    .toString('utf8')
    .split(/\r?\n/)
    .forEach((text, i) => {
      if (text.trim() === '') return;
      const cells = text.split(',');
      // The header row (newer dumps have one).
      if (i === 0 && !/^\d/.test(cells[0] ?? '')) return;
      const at = (column: number, detail: string) => new DataFormatError(opened.name, i + 1, column, detail);
      if (cells.length < 5) throw at(0, `expected at least 5 columns (open_time,open,high,low,close), found ${cells.length}`);
      if (!/^\d+$/.test(cells[0]!)) throw at(1, `column 1 (open_time): "${cells[0]}" is not an integer time`);
      const names = ['open', 'high', 'low', 'close'];
      const [open, high, low, close] = [1, 2, 3, 4].map((c) => {
        const value = cells[c]!.trim();
        if (!DECIMAL.test(value)) throw at(c + 1, `column ${c + 1} (${names[c - 1]}): "${value}" is not a decimal`);
        return new Decimal(value).mul(scale).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
      }) as [number, number, number, number];
      if (low > Math.min(open, close) || high < Math.max(open, close)) throw at(0, `the bar's low ${cells[3]} and high ${cells[2]} do not contain its open ${cells[1]} and close ${cells[4]}`);
      const raw = Number(cells[0]);
      bars.push({ openTime: raw > 1e14 ? raw : raw * 1000, open, high, low, close });
    });
  return bars;
}
