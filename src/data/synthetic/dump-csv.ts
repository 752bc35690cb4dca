/**
 * Rows in the exact text of Binance's spot dumps: no header, amounts with the asset's decimals
 * ("42000.01000000" at precision 8, as the dumps print them), booleans True/False, times in ms
 * (files before 2025) or µs (from 2025-01-01).
 */
import { formatUnits } from '../../engine/index.ts';
import type { AggTrade, Kline, TradeBatch, UnitScale } from '../tape.ts';
import { BEST_MATCH, BUYER_MAKER } from '../tape.ts';
import type { TimeUnit } from '../dump-parser.ts';

/** A µs time in the file's unit; refuses to drop sub-millisecond digits silently. */
export function fileTime(us: number, unit: TimeUnit): number {
  if (unit === 'us') return us;
  if (us % 1000 !== 0) throw new RangeError(`time ${us} µs is not a whole millisecond: generate with timeUnit 'ms'`);
  return us / 1000;
}

const bool = (b: boolean): string => (b ? 'True' : 'False');

/** One line per trade, each ending in a line feed. */
export function formatTradesCsv(batch: TradeBatch, scale: UnitScale, unit: TimeUnit): string {
  const q = scale.quotePrecision;
  const b = scale.basePrecision;
  const lines = new Array<string>(batch.length);
  for (let i = 0; i < batch.length; i++) {
    const flags = batch.flags[i]!;
    lines[i] = `${batch.id[i]},${formatUnits(batch.price[i]!, q)},${formatUnits(batch.qty[i]!, b)},${formatUnits(batch.quoteQty[i]!, q)},${fileTime(batch.time[i]!, unit)},${bool((flags & BUYER_MAKER) !== 0)},${bool((flags & BEST_MATCH) !== 0)}\n`;
  }
  return lines.join('');
}

export function formatAggTradesCsv(aggTrades: Iterable<AggTrade>, scale: UnitScale, unit: TimeUnit): string {
  const lines: string[] = [];
  for (const t of aggTrades) {
    lines.push(`${t.a},${formatUnits(t.p, scale.quotePrecision)},${formatUnits(t.q, scale.basePrecision)},${t.f},${t.l},${fileTime(t.T, unit)},${bool(t.m)},${bool(t.M)}\n`);
  }
  return lines.join('');
}

export function formatKlinesCsv(klines: Iterable<Kline>, scale: UnitScale, unit: TimeUnit): string {
  const q = scale.quotePrecision;
  const b = scale.basePrecision;
  const lines: string[] = [];
  for (const k of klines) {
    // The close time is the bar's last µs; in a ms file, the last ms (…59999).
    const close = unit === 'us' ? k.closeTime : Math.floor(k.closeTime / 1000);
    lines.push(
      `${fileTime(k.openTime, unit)},${formatUnits(k.open, q)},${formatUnits(k.high, q)},${formatUnits(k.low, q)},${formatUnits(k.close, q)},` +
        `${formatUnits(k.volume, b)},${close},${formatUnits(k.quoteVolume, q)},${k.trades},${formatUnits(k.takerBuyBaseVolume, b)},${formatUnits(k.takerBuyQuoteVolume, q)},0\n`,
    );
  }
  return lines.join('');
}
