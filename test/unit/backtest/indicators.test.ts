/**
 * The indicators against values worked out by hand on small inputs (the working is beside each
 * case), and the precision claim: non-terminating divisions carry 40 significant digits.
 */
import { Decimal } from 'decimal.js';
import { describe, expect, test } from 'vitest';
import { atr, bollinger, ema, rsi, sma, vwap } from '../../../src/backtest/indicators.ts';

const bar = (high: string, low: string, close: string, volume = '0', quoteVolume = '0') => ({ high, low, close, volume, quoteVolume });

describe('moving averages', () => {
  test('sma: the mean of the last period values; null while there are fewer', () => {
    expect(sma(['1', '2', '3', '4', '5'], 3)!.toString()).toBe('4'); // (3 + 4 + 5) / 3
    expect(sma(['0.1', '0.2'], 2)!.toString()).toBe('0.15'); // exact: no 0.15000000000000002
    expect(sma(['1', '2'], 3)).toBeNull();
  });

  test('ema: seeded with the first SMA, then α = 2 / (period + 1)', () => {
    // seed (1 + 2 + 3) / 3 = 2; α = 0.5: 0.5·4 + 0.5·2 = 3; 0.5·5 + 0.5·3 = 4.
    expect(ema(['1', '2', '3', '4', '5'], 3)!.toString()).toBe('4');
    // seed (2 + 4) / 2 = 3; α = 2/3: 6·2/3 + 3/3 = 5; 8·2/3 + 5/3 = 7 (2/3 carried to 40 digits).
    const seven = ema(['2', '4', '6', '8'], 2)!;
    expect(seven.toDecimalPlaces(30).toString()).toBe('7');
    expect(seven.sub(7).abs().lt('1e-38')).toBe(true);
    expect(ema([1, 2], 3)).toBeNull();
  });

  test("the global decimal.js precision does not move them", () => {
    const before = Decimal.precision;
    Decimal.set({ precision: 5 });
    try {
      expect(ema(['2', '4', '6', '8'], 2)!.toDecimalPlaces(30).toString()).toBe('7');
    } finally {
      Decimal.set({ precision: before });
    }
  });
});

describe('oscillators and bands', () => {
  test("rsi: Wilder's averages of gains and losses", () => {
    // Changes +1, −1, +2, +1; period 2: gain (1 + 0) / 2 = 0.5, loss (0 + 1) / 2 = 0.5;
    // then gain (0.5 + 2) / 2 = 1.25, loss 0.5 / 2 = 0.25; gain (1.25 + 1) / 2 = 1.125,
    // loss 0.25 / 2 = 0.125: RS 9, RSI 100 − 100 / 10 = 90.
    expect(rsi(['10', '11', '10', '12', '13'], 2)!.toString()).toBe('90');
    expect(rsi(['1', '2', '3'], 2)!.toString()).toBe('100'); // no loss
    expect(rsi(['1', '2'], 2)).toBeNull(); // needs period + 1 values
  });

  test('bollinger: SMA ± k population standard deviations', () => {
    // mean 5; squared deviations 9, 1, 1, 1, 0, 0, 4, 16 = 32; / 8 = 4; sd 2.
    const bands = bollinger(['2', '4', '4', '4', '5', '5', '7', '9'], 8, 2)!;
    expect([bands.middle, bands.deviation, bands.upper, bands.lower].map(String)).toEqual(['5', '2', '9', '1']);
    expect(bollinger(['1'], 2)).toBeNull();
  });

  test("atr: Wilder's average of true ranges from the second bar", () => {
    // TR: max(11 − 9, |11 − 9|, |9 − 9|) = 2; max(3, |12 − 10|, |9 − 10|) = 3; max(1, |11 − 11|, |10 − 11|) = 1.
    // ATR (2 + 3) / 2 = 2.5, then (2.5 + 1) / 2 = 1.75.
    const bars = [bar('10', '8', '9'), bar('11', '9', '10'), bar('12', '9', '11'), bar('11', '10', '10.5')];
    expect(atr(bars, 2)!.toString()).toBe('1.75');
    expect(atr(bars.slice(0, 2), 2)).toBeNull();
  });

  test('vwap: Σ quote volume / Σ volume of the bars', () => {
    // (100 + 330) / (1 + 3) = 107.5
    expect(vwap([bar('0', '0', '0', '1', '100'), bar('0', '0', '0', '3', '330')])!.toString()).toBe('107.5');
    expect(vwap([bar('0', '0', '0')])).toBeNull();
  });
});
