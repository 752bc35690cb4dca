import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDumpFile } from '../../../src/data/open-dump-file.ts';
import { loadAggTrades } from '../../../src/data/read-agg-trades.ts';
import { loadKlines } from '../../../src/data/read-klines.ts';
import { readTrades } from '../../../src/data/read-trades.ts';
import { loadSample, SAMPLE_DIR, SAMPLE_SYMBOLS } from '../../../src/data/sample.ts';
import { SAMPLE_FIRST_AGG_TRADE_ID, SAMPLE_KLINE_INTERVALS, SAMPLE_SPECS } from '../../../src/data/synthetic/sample-spec.ts';
import { writeSyntheticDays } from '../../../src/data/synthetic/write-synthetic-days.ts';
import { collect, tempDir, tradesOf } from './helpers.ts';

/** Rows in the committed sample; a change means the sample was regenerated with another spec. */
const EXPECTED_ROWS = {
  BTCUSDT: { trades: 62_374, aggTrades: 46_861, klines1m: 1440, around: 42_000 },
  ETHBTC: { trades: 40_665, aggTrades: 30_282, klines1m: 1440, around: 0.055 },
} as const;

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of (await openDumpFile(path)).chunks) hash.update(chunk);
  return hash.digest('hex');
}

describe('the bundled sample', () => {
  it('has BTCUSDT and ETHBTC and names its files', () => {
    expect(SAMPLE_SYMBOLS).toEqual(['BTCUSDT', 'ETHBTC']);
    const btc = loadSample('BTCUSDT');
    expect(btc.trades.map((p) => p.slice(SAMPLE_DIR.length))).toEqual(['BTCUSDT-trades-2024-01-01.zip']);
    expect(btc.klines['1m']!.map((p) => p.slice(SAMPLE_DIR.length))).toEqual(['BTCUSDT-1m-2024-01-01.zip']);
    expect(btc.aggTrades.map((p) => p.slice(SAMPLE_DIR.length))).toEqual(['BTCUSDT-aggTrades-2024-01-01.zip']);
    expect(btc.scale).toEqual({ quotePrecision: 8, basePrecision: 8 });
    expect(() => loadSample('DOGEUSDT')).toThrow('no sample data for DOGEUSDT; the sample has BTCUSDT, ETHBTC');
  });

  for (const symbol of ['BTCUSDT', 'ETHBTC'] as const) {
    it(`${symbol} loads with the expected rows, realistic prices, inside its day`, async () => {
      const sample = loadSample(symbol);
      const expected = EXPECTED_ROWS[symbol];
      const trades = tradesOf(await collect(readTrades(sample.trades, { scale: sample.scale })));
      expect(trades).toHaveLength(expected.trades);
      for (const t of [trades[0]!, trades.at(-1)!]) {
        expect(t.price / 1e8).toBeGreaterThan(expected.around * 0.9);
        expect(t.price / 1e8).toBeLessThan(expected.around * 1.1);
        expect(t.time).toBeGreaterThanOrEqual(sample.startTime);
        expect(t.time).toBeLessThan(sample.endTime);
      }
      const klines = await loadKlines(sample.klines['1m']!, { scale: sample.scale });
      expect(klines).toHaveLength(expected.klines1m);
      expect(klines.reduce((n, k) => n + k.trades, 0)).toBe(expected.trades);
      expect(await loadAggTrades(sample.aggTrades, { scale: sample.scale })).toHaveLength(expected.aggTrades);
    });
  }

  it('is what write-sample.ts generates today (same CSV inside every zip)', async () => {
    const dir = await tempDir();
    for (const spec of SAMPLE_SPECS) {
      await writeSyntheticDays(dir, spec, { klineIntervals: SAMPLE_KLINE_INTERVALS, firstAggTradeId: SAMPLE_FIRST_AGG_TRADE_ID[spec.symbol]!, extension: 'csv' });
    }
    const generated = (await readdir(dir)).sort();
    const committed = (await readdir(SAMPLE_DIR)).sort();
    expect(committed).toEqual(generated.map((name) => name.replace(/\.csv$/, '.zip')));
    for (const name of generated) {
      expect(await sha256(join(SAMPLE_DIR, name.replace(/\.csv$/, '.zip'))), `${name} is stale: rerun src/data/synthetic/write-sample.ts`).toBe(await sha256(join(dir, name)));
    }
  });
});
