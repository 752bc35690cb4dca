import { describe, expect, it } from 'vitest';
import { loadKlines } from '../../../src/data/read-klines.ts';
import { lines, SCALE8, tempDir, writeDump } from './helpers.ts';

// Two 1m bars as in a 2024 spot dump (ms) and the same bars as a 2025 dump would print them (µs).
const BARS_MS = [
  '1704067200000,42283.58000000,42298.62000000,42261.02000000,42298.61000000,35.92724000,1704067259999,1519032.26650490,1327,17.96394000,759561.12218840,0',
  '1704067260000,42298.62000000,42320.00000000,42298.61000000,42320.00000000,21.07084000,1704067319999,891548.34101060,819,14.36087000,607619.02837250,0',
];
const BARS_US = BARS_MS.map((r) => r.replace(/^(\d{13}),/, '$1000,').replace(/,(\d{13}),(\d+\.\d+,\d+,)/, (_, close: string, rest: string) => `,${close}999,${rest}`));

const EXPECTED_FIRST = {
  openTime: 1_704_067_200_000_000,
  open: 4_228_358_000_000,
  high: 4_229_862_000_000,
  low: 4_226_102_000_000,
  close: 4_229_861_000_000,
  volume: 3_592_724_000,
  closeTime: 1_704_067_259_999_999,
  quoteVolume: 151_903_226_650_490,
  trades: 1327,
  takerBuyBaseVolume: 1_796_394_000,
  takerBuyQuoteVolume: 75_956_112_218_840,
};

describe('loadKlines', () => {
  it('reads ms klines; the close time becomes the last µs of the bar', async () => {
    const dir = await tempDir();
    const klines = await loadKlines(await writeDump(dir, 'BTCUSDT-1m-2024-01-01.csv', lines(...BARS_MS)), { scale: SCALE8 });
    expect(klines).toHaveLength(2);
    expect(klines[0]).toEqual(EXPECTED_FIRST);
    expect(klines[1]!.closeTime - klines[1]!.openTime).toBe(60_000_000 - 1);
  });

  it('reads µs klines to the same values', async () => {
    const dir = await tempDir();
    expect(BARS_US[0]).toContain('1704067200000000,');
    expect(BARS_US[0]).toContain(',1704067259999999,');
    const klines = await loadKlines(await writeDump(dir, 'BTCUSDT-1m-2025-01-01.zip', lines(...BARS_US)), { scale: SCALE8 });
    expect(klines[0]).toEqual(EXPECTED_FIRST);
  });

  it('accepts a header, and rows without the trailing Ignore column', async () => {
    const dir = await tempDir();
    const header = 'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';
    const trimmed = BARS_MS.map((r) => r.replace(/,0$/, ''));
    const klines = await loadKlines(await writeDump(dir, 'BTCUSDT-1m-2024-01-01.csv', lines(header, ...trimmed)), { scale: SCALE8 });
    expect(klines[0]).toEqual(EXPECTED_FIRST);
  });

  it('reads 1s klines and picks the interval when a folder has several', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-1s-2025-01-01.zip', lines('1735689600000000,1.00000000,1.00000000,1.00000000,1.00000000,0.00000000,1735689600999999,0.00000000,0,0.00000000,0.00000000,0'));
    await writeDump(dir, 'BTCUSDT-1m-2024-01-01.csv', lines(...BARS_MS));
    await expect(loadKlines(dir, { scale: SCALE8 })).rejects.toThrow('several intervals (1m, 1s)');
    const seconds = await loadKlines(dir, { scale: SCALE8, interval: '1s' });
    expect(seconds).toEqual([expect.objectContaining({ openTime: 1_735_689_600_000_000, closeTime: 1_735_689_600_999_999, trades: 0 })]);
  });

  it('keeps summed volumes beyond 2^53 units as the nearest double instead of refusing the row', async () => {
    const dir = await tempDir();
    // A day of BTCUSDT: ~2e10 USDT of quote volume is 2e18 units at 8 decimals.
    const row = '1704067200000,42283.58000000,42298.62000000,42261.02000000,42298.61000000,35.92724000,1704153599999,20000000000.12345678,1327,17.96394000,10000000000.00000000,0';
    const [kline] = await loadKlines(await writeDump(dir, 'BTCUSDT-1d-2024-01-01.csv', lines(row)), { scale: SCALE8 });
    expect(kline!.quoteVolume).toBe(2_000_000_000_012_345_678);
    expect(kline!.takerBuyQuoteVolume).toBe(1e18);
    expect(kline!.closeTime).toBe(1_704_153_599_999_999);
  });
});
