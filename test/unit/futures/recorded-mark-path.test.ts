/**
 * The mark each second along recorded one-minute mark bars (backtest futures-setup.ts
 * `markAlongBars`): open at second 0, the extreme nearer the open at 20, the other at 40, the
 * close from 59, linear and floored to a unit in between; no bar, no recorded mark (null: the
 * model's then). And FuturesMarket takes it for the USDⓈ-M perpetual alone.
 */
import { expect, test } from 'vitest';
import { markAlongBars } from '../../../src/backtest/futures-setup.ts';
import { FuturesMarket } from '../../../src/futures/index.ts';
import { SAMPLE_CONFIG } from '../../../src/sample/sample-market.ts';
import { Engine } from '../../../src/engine/index.ts';
import type { MarketHistory } from '../../../src/data/index.ts';

const M = 60_000_000;
const S = 1_000_000;
const T0 = Date.UTC(2024, 0, 1) * 1000;

test('low first when the low is nearer the open; high first otherwise; the close held from second 59', () => {
  const mark = markAlongBars([
    { openTime: T0, open: 1000, high: 1100, low: 990, close: 1050 },
    { openTime: T0 + M, open: 1000, high: 1010, low: 900, close: 950 },
  ]);
  // Bar 1: 1000 → 990 (s 20) → 1100 (s 40) → 1050 (s 59).
  expect([0, 10, 20, 30, 40, 50, 59].map((s) => mark(T0 + s * S + 123))).toEqual([1000, 995, 990, 1045, 1100, 1073, 1050]);
  // Bar 2: the high (10 away) before the low (100 away).
  expect([20, 40].map((s) => mark(T0 + M + s * S))).toEqual([1010, 900]);
  expect(mark(T0 + 2 * M)).toBeNull();
});

test('FuturesMarket: the recorded mark for the USDⓈ-M perpetual, the model for the others and before the index has a price', () => {
  const engine = new Engine(SAMPLE_CONFIG);
  const specs = SAMPLE_CONFIG.symbols.map((s) => engine.symbolSpec(s.symbol)!);
  const history = { priceTicker: (t: number) => (t >= T0 ? { price: 4_200_000_000_000, time: T0 } : null), firstTradeTime: T0 } as unknown as MarketHistory;
  const market = new FuturesMarket({ specs, history: () => history, marks: { BTCUSDT: (t) => (t < T0 + M ? 4_300_000_000_000 : null) } });
  const perp = market.findContract('USD_M', 'BTCUSDT', T0 + S)!;
  expect(market.markPrice(perp, T0 + S)).toBe(4_300_000_000_000);
  // After the record: index × (1 + premium), near 42 000.
  expect(Math.abs(market.markPrice(perp, T0 + 2 * M)! - 4_200_000_000_000)).toBeLessThan(10_000_000_000);
  expect(market.markPrice(perp, T0 - S)).toBeNull();
  const coinM = market.findContract('COIN_M', 'BTCUSD_PERP', T0 + S)!;
  expect(market.markPrice(coinM, T0 + S)).not.toBe(4_300_000_000_000);
});
