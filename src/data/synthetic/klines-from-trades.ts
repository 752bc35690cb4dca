/**
 * Klines derived from a trade tape the way the exchange builds them: bars on the market-data
 * history's UTC kline grid (any of the 16 intervals),
 * open/close from the first/last trade, taker-buy volumes from trades whose buyer was the taker
 * (isBuyerMaker false). Volumes are sums of exact units, exact while below 2^53 (a day of the
 * bundled sample is ~10^15 quote units at most). A bar with no trades repeats the previous close with zero volume, as the
 * exchange reports quiet intervals; bars before the first trade are not emitted.
 */
import { BUYER_MAKER, type Kline, type KlineInterval, type TradeBatch } from '../tape.ts';
import { KlineGrid } from '../history/kline-calendar.ts';

export interface KlineRange {
  readonly interval: KlineInterval;
  /** µs; bars from the one containing startTime… */
  readonly startTime: number;
  /** …up to, not including, the one starting at or after endTime (µs). */
  readonly endTime: number;
  /** The close before startTime, to fill quiet bars before the first trade; without it they are left out. */
  readonly previousClose?: number;
}

export function klinesFromTrades(batches: Iterable<TradeBatch>, range: KlineRange): Kline[] {
  const grid = new KlineGrid(range.interval);
  const klines: Kline[] = [];
  let bar: Kline | undefined;
  let pending = range.previousClose === undefined ? undefined : grid.startOf(range.startTime);
  const open = (openTime: number, price: number): Kline => ({
    openTime,
    open: price,
    high: price,
    low: price,
    close: price,
    volume: 0,
    closeTime: grid.next(openTime) - 1,
    quoteVolume: 0,
    trades: 0,
    takerBuyBaseVolume: 0,
    takerBuyQuoteVolume: 0,
  });
  for (const batch of batches) {
    for (let i = 0; i < batch.length; i++) {
      const time = batch.time[i]!;
      if (time < range.startTime || time >= range.endTime) continue;
      const price = batch.price[i]!;
      const openTime = grid.startOf(time);
      if (bar === undefined || openTime !== bar.openTime) {
        if (bar === undefined && pending !== undefined) {
          for (; pending < openTime; pending = grid.next(pending)) klines.push(open(pending, range.previousClose!));
        }
        if (bar !== undefined) {
          if (openTime < bar.openTime) throw new Error(`trade ${batch.id[i]} runs backwards in time`);
          // Quiet bars between the last one and this trade.
          for (let t = grid.next(bar.openTime); t < openTime; t = grid.next(t)) klines.push(open(t, bar.close));
        }
        bar = open(openTime, price);
        klines.push(bar);
      }
      const qty = batch.qty[i]!;
      const quoteQty = batch.quoteQty[i]!;
      if (price > bar.high) bar.high = price;
      if (price < bar.low) bar.low = price;
      bar.close = price;
      bar.volume += qty;
      bar.quoteVolume += quoteQty;
      bar.trades++;
      if ((batch.flags[i]! & BUYER_MAKER) === 0) {
        bar.takerBuyBaseVolume += qty;
        bar.takerBuyQuoteVolume += quoteQty;
      }
    }
  }
  if (bar !== undefined) {
    for (let t = grid.next(bar.openTime); t < range.endTime; t = grid.next(t)) klines.push(open(t, bar.close));
  } else if (pending !== undefined) {
    for (; pending < range.endTime; pending = grid.next(pending)) klines.push(open(pending, range.previousClose!));
  }
  return klines;
}
