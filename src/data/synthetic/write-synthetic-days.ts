/**
 * Writes a synthetic tape as Binance daily dump files: one trades file per UTC day and, derived
 * from the same trades, klines of the chosen intervals and (optionally) aggTrades, all named as
 * the real ones (`BTCUSDT-trades-2024-01-01.zip`, `BTCUSDT-1m-2024-01-01.zip`, …). The generator
 * runs once over the whole range, so price, volatility and ids continue across days; one day is
 * held in memory at a time.
 */
import { join } from 'node:path';
import { sliceTrades, type AggTrade, type Kline, type KlineInterval, type TradeBatch } from '../tape.ts';
import { formatDumpFileName } from '../dump-file-name.ts';
import { formatUtcDay, MS_PER_DAY } from '../utc-date.ts';
import { aggTradesFromTrades } from './agg-trades-from-trades.ts';
import { formatAggTradesCsv, formatKlinesCsv, formatTradesCsv } from './dump-csv.ts';
import { klinesFromTrades } from './klines-from-trades.ts';
import { generateTradeBatches, type SyntheticTradesSpec } from './synthetic-trades.ts';
import { writeDumpFile } from './write-dump-file.ts';

export interface SyntheticDaysOptions {
  readonly klineIntervals?: readonly KlineInterval[];
  /** Write aggTrades too, with ids from this number. */
  readonly firstAggTradeId?: number;
  readonly extension?: 'zip' | 'csv';
  /** Write the trades files (default true); false leaves a folder of klines and/or aggTrades only. */
  readonly trades?: boolean;
  /** zlib level for zips (default 6; the committed sample uses 9 to stay small). */
  readonly zipLevel?: number;
}

const DAY_US = MS_PER_DAY * 1000;

/** Returns the paths written, in order. The spec's range must start and end on UTC midnights. */
export async function writeSyntheticDays(dir: string, spec: SyntheticTradesSpec, options: SyntheticDaysOptions = {}): Promise<string[]> {
  if (options.trades === false && (options.klineIntervals ?? []).length === 0 && options.firstAggTradeId === undefined) {
    throw new RangeError('without trades, write klines or aggTrades (or both)');
  }
  if (spec.startTime % DAY_US !== 0 || spec.endTime % DAY_US !== 0) throw new RangeError('a synthetic dump covers whole UTC days');
  for (const interval of options.klineIntervals ?? []) {
    // Bars longer than a day would straddle the daily files (Binance's daily dumps stop at 1d too).
    if (interval === '3d' || interval === '1w' || interval === '1M') throw new RangeError(`daily files hold klines up to 1d, not ${interval}`);
  }
  const extension = options.extension ?? 'zip';
  const level = options.zipLevel ?? 6;
  const written: string[] = [];
  const lastClose = new Map<KlineInterval, number>();
  let nextAggId = options.firstAggTradeId;
  let day: TradeBatch[] = [];
  let dayStart = spec.startTime;

  const flush = async (): Promise<void> => {
    const date = formatUtcDay(dayStart / 1000);
    const path = (kind: 'trades' | 'aggTrades' | 'klines', interval?: KlineInterval): string =>
      join(dir, formatDumpFileName(spec.symbol, kind, date, extension, interval));
    if (options.trades !== false) {
      const trades = path('trades');
      await writeDumpFile(trades, day.map((b) => formatTradesCsv(b, spec.scale, spec.timeUnit)), level);
      written.push(trades);
    }
    for (const interval of options.klineIntervals ?? []) {
      // Before the first trade, the market stands at the start price (on the tick grid).
      const previousClose = lastClose.get(interval) ?? Math.round(spec.startPrice / spec.tickSize) * spec.tickSize;
      const klines: Kline[] = klinesFromTrades(day, { interval, startTime: dayStart, endTime: dayStart + DAY_US, previousClose });
      const last = klines.at(-1);
      if (last !== undefined) lastClose.set(interval, last.close);
      const file = path('klines', interval);
      await writeDumpFile(file, [formatKlinesCsv(klines, spec.scale, spec.timeUnit)], level);
      written.push(file);
    }
    if (nextAggId !== undefined) {
      const aggTrades: AggTrade[] = [...aggTradesFromTrades(day, nextAggId)];
      nextAggId += aggTrades.length;
      const file = path('aggTrades');
      await writeDumpFile(file, [formatAggTradesCsv(aggTrades, spec.scale, spec.timeUnit)], level);
      written.push(file);
    }
    day = [];
    dayStart += DAY_US;
  };

  // Small batches so a day boundary rarely falls inside one; when it does, split the batch.
  for (const batch of generateTradeBatches(spec, 8192)) {
    let from = 0;
    while (from < batch.length) {
      let to = from;
      while (to < batch.length && batch.time[to]! < dayStart + DAY_US) to++;
      if (to > from) day.push(sliceTrades(batch, from, to));
      if (to < batch.length) await flush();
      from = to;
    }
  }
  while (dayStart < spec.endTime) await flush();
  return written;
}
