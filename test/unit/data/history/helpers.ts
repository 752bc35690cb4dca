/**
 * Helpers for the market-data history tests: tapes written as decimal strings at precision 8
 * (prices and quantities alike, so u('1.5') === 150_000_000), times as µs offsets from T0.
 */
import { MarketHistory } from '../../../../src/data/history/index.ts';
import type { MarketHistoryOptions } from '../../../../src/data/history/index.ts';
import type { TapeTrade } from '../../../../src/data/tape.ts';
import { parseUnits } from '../../../../src/engine/units.ts';

/** 2024-01-01 00:00:00 UTC (a Monday), in µs. */
export const T0 = Date.UTC(2024, 0, 1) * 1000;
export const S = 1_000_000;
export const M = 60 * S;
export const H = 60 * M;
export const D = 24 * H;

/** µs since the epoch of a UTC calendar time. */
export function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute, second) * 1000;
}

export function u(decimal: string): number {
  const n = parseUnits(decimal, 8);
  if (n === null) throw new Error(`test helper: bad decimal "${decimal}"`);
  return n;
}

export interface TradeSpec {
  /** Absolute time in µs. */
  t: number;
  p: string;
  q: string;
  /** Default false: the buyer was the taker (a taker buy). */
  buyerMaker?: boolean;
  bestMatch?: boolean;
  id?: number;
}

/** The trade with quoteQty = price * qty exactly (the test values are chosen to divide evenly). */
export function trade(spec: TradeSpec, id: number): TapeTrade {
  const price = u(spec.p);
  const qty = u(spec.q);
  const product = BigInt(price) * BigInt(qty);
  if (product % 100_000_000n !== 0n) throw new Error(`test helper: ${spec.p} x ${spec.q} is not exact at 8 decimals`);
  return {
    id: spec.id ?? id,
    price,
    qty,
    quoteQty: Number(product / 100_000_000n),
    time: spec.t,
    isBuyerMaker: spec.buyerMaker ?? false,
    isBestMatch: spec.bestMatch ?? true,
  };
}

/** A history holding `specs` (ids 1, 2, 3, ... unless given), keeping everything by default. */
export function historyOf(specs: readonly TradeSpec[], options: Partial<MarketHistoryOptions> = {}): MarketHistory {
  const history = new MarketHistory({
    basePrecision: 8,
    tradeRetention: Infinity,
    secondBarRetention: Infinity,
    minuteBarRetention: Infinity,
    ...options,
  });
  specs.forEach((spec, i) => history.record(trade(spec, i + 1)));
  return history;
}
