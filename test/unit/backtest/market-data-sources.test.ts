/**
 * market-data.ts picks each symbol's finest source in the window (trades, aggTrades, then the
 * finest kline interval) and turns it into prints: aggTrades one print per aggregate, klines
 * along the adaptive intra-bar path with the path in each print's id.
 */
import { describe, expect, it } from 'vitest';
import { openMarketData, sourceFiles, windowedTape } from '../../../src/backtest/market-data.ts';
import { decodeKlineTradeId } from '../../../src/sim/index.ts';
import type { TradeBatch } from '../../../src/data/index.ts';
import { lines, tempDir, writeDump } from '../data/helpers.ts';

const DAY1 = 1_704_067_200_000_000; // 2024-01-01 µs
const DAY = 86_400_000_000;
const TRADE = '1,42000.01000000,0.00100000,42.00001000,1704067200123,True,True';
const AGG = [
  '0,42000.01000000,0.15000000,100,102,1704067200123,True,True',
  '1,42000.02000000,0.00100000,103,103,1704067200123,False,True',
  '2,41999.00000000,2.00000000,104,110,1704067201999,False,False',
];
// One 1m bar: open 42000, high 42010, low 41990, close 42005 (close nearer the high: adaptive walks O-L-H-C).
const KLINE_1M = '1704067200000,42000.00000000,42010.00000000,41990.00000000,42005.00000000,1.00000000,1704067259999,42000.00000000,10,0.50000000,21000.00000000,0';
const KLINE_5M = '1704067200000,42000.00000000,42010.00000000,41990.00000000,42005.00000000,1.00000000,1704067499999,42000.00000000,10,0.50000000,21000.00000000,0';

async function prints(tape: AsyncIterable<TradeBatch>): Promise<{ id: number; time: number; price: number; qty: number; quoteQty: number; flags: number }[]> {
  const out = [];
  for await (const b of tape) for (let i = 0; i < b.length; i++) out.push({ id: b.id[i]!, time: b.time[i]!, price: b.price[i]!, qty: b.qty[i]!, quoteQty: b.quoteQty[i]!, flags: b.flags[i]! });
  return out;
}

describe('the finest source per window', () => {
  it('trades over aggTrades over 1m over 5m; a window only coarser data covers gets the coarser', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-trades-2024-01-01.csv', lines(TRADE));
    await writeDump(dir, 'BTCUSDT-aggTrades-2024-01-01.csv', lines(...AGG));
    await writeDump(dir, 'BTCUSDT-aggTrades-2024-01-02.csv', lines(...AGG.map((r) => r.replace('170406720', '170415360'))));
    await writeDump(dir, 'BTCUSDT-1m-2024-01-03.csv', lines(KLINE_1M.replaceAll('170406', '170424')));
    await writeDump(dir, 'BTCUSDT-5m-2024-01-03.csv', lines(KLINE_5M.replaceAll('170406', '170424')));
    await writeDump(dir, 'BTCUSDT-5m-2024-01-04.csv', lines(KLINE_5M.replaceAll('170406', '170432')));
    const data = openMarketData(dir);
    const pick = async (from: number, to: number) => {
      const chosen = await sourceFiles(data, 'BTCUSDT', from, to);
      return [chosen.source, chosen.files.map((f) => f.path.slice(dir.length + 1))];
    };
    expect(await pick(DAY1, DAY1 + DAY)).toEqual(['trades', ['BTCUSDT-trades-2024-01-01.csv']]);
    expect(await pick(DAY1 + DAY, DAY1 + 2 * DAY)).toEqual(['aggTrades', ['BTCUSDT-aggTrades-2024-01-02.csv']]);
    expect(await pick(DAY1 + 2 * DAY, DAY1 + 3 * DAY)).toEqual(['klines:1m', ['BTCUSDT-1m-2024-01-03.csv']]);
    expect(await pick(DAY1 + 3 * DAY, DAY1 + 4 * DAY)).toEqual(['klines:5m', ['BTCUSDT-5m-2024-01-04.csv']]);
    // Not stitched: a window spanning both days reads aggTrades only (day 3 becomes a gap).
    expect(await pick(DAY1 + DAY, DAY1 + 3 * DAY)).toEqual(['aggTrades', ['BTCUSDT-aggTrades-2024-01-02.csv']]);
    await expect(sourceFiles(data, 'ETHBTC')).rejects.toThrow(`no ETHBTC trades, aggTrades or klines files in ${dir}`);
  });

  it('aggTrades: one print per aggregate, its id, price, quantity, flags, and price × qty floored', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-aggTrades-2024-01-01.csv', lines(...AGG));
    const tape = await windowedTape(openMarketData(dir), 'BTCUSDT', DAY1, DAY1 + DAY);
    expect(tape.source).toBe('aggTrades');
    expect(await prints(tape.trades as AsyncIterable<TradeBatch>)).toEqual([
      { id: 0, time: 1_704_067_200_123_000, price: 4_200_001_000_000, qty: 15_000_000, quoteQty: 630_000_150_000, flags: 3 },
      { id: 1, time: 1_704_067_200_123_000, price: 4_200_002_000_000, qty: 100_000, quoteQty: 4_200_002_000, flags: 2 },
      { id: 2, time: 1_704_067_201_999_000, price: 4_199_900_000_000, qty: 200_000_000, quoteQty: 8_399_800_000_000, flags: 0 },
    ]);
  });

  it('klines: prints along the adaptive path, each id decoding to its bar and leg, cut to the window', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-1m-2024-01-01.csv', lines(KLINE_1M));
    const tape = await windowedTape(openMarketData(dir), 'BTCUSDT', DAY1, DAY1 + DAY);
    expect(tape.source).toBe('klines:1m');
    const all = await prints(tape.trades as AsyncIterable<TradeBatch>);
    const origins = all.map((p) => decodeKlineTradeId(p.id)!);
    expect(origins.every((o) => o.klineOpenTime === DAY1 && o.tag === 'adaptive:OLHC')).toBe(true);
    expect(all[0]).toMatchObject({ time: DAY1, price: 4_200_000_000_000 });
    expect(all.at(-1)!.price).toBe(4_200_500_000_000);
    expect(Math.min(...all.map((p) => p.price))).toBe(4_199_000_000_000);
    expect(Math.max(...all.map((p) => p.price))).toBe(4_201_000_000_000);
    expect([...new Set(origins.map((o) => o.legName))]).toEqual(['open', 'O-L', 'L-H', 'H-C']);
    const late = await prints((await windowedTape(openMarketData(dir), 'BTCUSDT', DAY1 + 30_000_000, DAY1 + DAY)).trades as AsyncIterable<TradeBatch>);
    expect(late.length).toBeGreaterThan(0);
    expect(late.length).toBeLessThan(all.length);
    expect(late.every((p) => p.time >= DAY1 + 30_000_000)).toBe(true);
  });
});
