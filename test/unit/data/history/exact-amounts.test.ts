import { describe, expect, it } from 'vitest';
import { changePercentMilli, divRound, formatAmount, weightedAverage } from '../../../../src/data/history/exact-amount.ts';
import { formatKline } from '../../../../src/data/history/index.ts';
import { D, H, historyOf, S, T0, u } from './helpers.ts';
import type { TradeSpec } from './helpers.ts';

describe('volumes past 2^53 units stay exact', () => {
  // Each trade: 90,000,000 quote at 8 decimals = 9e15 units, just under 2^53 (9.007e15).
  const specs: TradeSpec[] = [];
  for (let i = 0; i < 30; i++) specs.push({ t: T0 + i * H + (i % 3) * S, p: '90000000', q: '1', buyerMaker: i % 2 === 1 });
  const h = historyOf(specs);
  const asOf = T0 + 30 * H;

  it('in a 1s kline, a 1d kline built from stored hour and day bars, and the 24hr ticker', () => {
    const [day0, day1] = h.klines(asOf, { interval: '1d' });
    expect(day0!.exact.quoteVolume).toBe(24n * 9_000_000_000_000_000n);
    expect(day0!.exact.takerBuyQuoteVolume).toBe(12n * 9_000_000_000_000_000n);
    expect(day1!.exact.quoteVolume).toBe(6n * 9_000_000_000_000_000n);
    expect(formatKline(day0!, { quotePrecision: 8, basePrecision: 8 })[7]).toBe('2160000000.00000000');
    const ticker = h.ticker24hr(asOf);
    expect(ticker.quoteVolume).toBe(24n * 9_000_000_000_000_000n); // trades at 6h .. 29h
    expect(ticker.weightedAvgPrice).toBe(u('90000000'));
  });

  it('when many trades of near-maximal size land in one second', () => {
    const burst = historyOf(Array.from({ length: 2000 }, () => ({ t: T0, p: '90000000', q: '1' })));
    const [second] = burst.klines(T0, { interval: '1s' });
    expect(second!.exact.quoteVolume).toBe(2000n * 9_000_000_000_000_000n);
    expect(burst.avgPrice(T0)!.price).toBe(u('90000000'));
  });

  it('a week of such trades sums the same from every interval', () => {
    const weekly = historyOf(Array.from({ length: 7 * 24 }, (_, i) => ({ t: T0 + i * H, p: '90000000', q: '1' })));
    const total = 168n * 9_000_000_000_000_000n;
    for (const interval of ['15m', '1h', '4h', '1d', '3d', '1w', '1M'] as const) {
      const rows = weekly.klines(T0 + 7 * D - 1, { interval, limit: 1000 });
      expect(rows.reduce((sum, r) => sum + r.exact.quoteVolume, 0n)).toBe(total);
    }
  });
});

describe('rounding', () => {
  it('divRound rounds half away from zero', () => {
    expect(divRound(5n, 2n)).toBe(3n);
    expect(divRound(-5n, 2n)).toBe(-3n);
    expect(divRound(7n, 3n)).toBe(2n);
    expect(divRound(-7n, 3n)).toBe(-2n);
    expect(divRound(8n, 3n)).toBe(3n);
  });

  it('weightedAverage matches a captured Binance ticker: QKCBTC 817.26117135 / 97790258 = 0.00000836', () => {
    expect(weightedAverage(81_726_117_135n, 9_779_025_800_000_000n, 8)).toBe(836);
    // FETBNB 30548.958787 / 3147282.1 = 0.0097064571... shown 0.00970646
    expect(weightedAverage(BigInt(u('30548.958787')), BigInt(u('3147282.1')), 8)).toBe(970_646);
    expect(weightedAverage(5n, 0n, 8)).toBe(0);
  });

  it('changePercentMilli matches captured tickers: -1.193, -2.028 and -4.646', () => {
    expect(changePercentMilli(9302, 9191)).toBe(-1_193);
    expect(changePercentMilli(986_000, 966_000)).toBe(-2_028);
    expect(changePercentMilli(861, 821)).toBe(-4_646);
  });
});

describe('formatAmount', () => {
  it('formats numbers and BigInts alike', () => {
    expect(formatAmount(150_000_000, 8)).toBe('1.50000000');
    expect(formatAmount(12_345_678_901_234_567_890n, 8)).toBe('123456789012.34567890');
    expect(formatAmount(5n, 8)).toBe('0.00000005');
    expect(formatAmount(-5n, 3)).toBe('-0.005');
    expect(formatAmount(42n, 0)).toBe('42');
  });
});
