import { describe, expect, it } from 'vitest';
import { loadAggTrades, readAggTrades } from '../../../src/data/read-agg-trades.ts';
import { collect, lines, SCALE8, tempDir, writeDump } from './helpers.ts';

const ROWS = [
  '0,42000.01000000,0.15000000,100,102,1704067200123,True,True',
  '1,42000.02000000,0.00100000,103,103,1704067200123,False,True',
  '2,41999.00000000,2.00000000,104,110,1704067201999,True,True',
];

describe('loadAggTrades', () => {
  it('reads aggTrades (ids from 0, as on spot) in exact units', async () => {
    const dir = await tempDir();
    const agg = await loadAggTrades(await writeDump(dir, 'BTCUSDT-aggTrades-2024-01-01.zip', lines(...ROWS)), { scale: SCALE8 });
    expect(agg).toEqual([
      { a: 0, p: 4_200_001_000_000, q: 15_000_000, f: 100, l: 102, T: 1_704_067_200_123_000, m: true, M: true },
      { a: 1, p: 4_200_002_000_000, q: 100_000, f: 103, l: 103, T: 1_704_067_200_123_000, m: false, M: true },
      { a: 2, p: 4_199_900_000_000, q: 200_000_000, f: 104, l: 110, T: 1_704_067_201_999_000, m: true, M: true },
    ]);
  });

  it('reads µs aggTrades with a header, in batches', async () => {
    const dir = await tempDir();
    const header = 'agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker,is_best_match';
    const rows = ROWS.map((r) => r.replace(/,(\d{13}),/, ',$1456,'));
    const batches = await collect(readAggTrades(await writeDump(dir, 'BTCUSDT-aggTrades-2025-01-01.csv', lines(header, ...rows)), { scale: SCALE8, batchSize: 2 }));
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
    expect(batches[1]![0]!.T).toBe(1_704_067_201_999_456);
  });
});
