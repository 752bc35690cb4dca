/**
 * Closed bars for strategies (`ctx.bars('BTCUSDT', '1m')`): the klines of the market history as
 * of simulated now, the bar still forming left out, as typed objects with exact decimal strings.
 * Read from the history directly (what GET /api/v3/klines answers from), so they cost no request,
 * no latency and no rate-limit weight, and change nothing in the run.
 */
import { formatKline, type KlineInterval, type MarketHistory } from '../data/index.ts';

export interface Bar {
  readonly symbol: string;
  readonly interval: KlineInterval;
  /** ms since the epoch: the bar's first ms and its last (openTime + interval − 1). */
  readonly openTime: number;
  readonly closeTime: number;
  /** Decimal strings at the symbol's precisions. */
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  /** Base asset traded, and quote asset (Σ price × quantity). */
  readonly volume: string;
  readonly quoteVolume: string;
  readonly trades: number;
  readonly takerBuyVolume: string;
  readonly takerBuyQuoteVolume: string;
}

/** The most recent bars that closed by `nowUs` (at most `limit`, 1..1000), oldest first. */
export function closedBars(history: MarketHistory, scale: { readonly quotePrecision: number; readonly basePrecision: number }, symbol: string, interval: KlineInterval, nowUs: number, limit: number): Bar[] {
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RangeError(`bars(${symbol}, ${interval}, ${limit}): limit must be an integer 1..1000`);
  // One more than asked: the newest kline is the one still open unless now sits on a boundary.
  const rows = history.klines(nowUs, { interval, limit: Math.min(1000, limit + 1) }).filter((k) => k.closeTime < nowUs);
  return rows.slice(-limit).map((k) => {
    const [openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBuyVolume, takerBuyQuoteVolume] = formatKline(k, scale);
    return { symbol, interval, openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBuyVolume, takerBuyQuoteVolume } as Bar;
  });
}
