import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { loadAggTrades } from '../../../src/data/read-agg-trades.ts';
import { loadKlines } from '../../../src/data/read-klines.ts';
import { readTrades } from '../../../src/data/read-trades.ts';
import { aggTradesFromTrades } from '../../../src/data/synthetic/agg-trades-from-trades.ts';
import { klinesFromTrades } from '../../../src/data/synthetic/klines-from-trades.ts';
import { generateTradeBatches, type SyntheticTradesSpec } from '../../../src/data/synthetic/synthetic-trades.ts';
import { writeSyntheticDays } from '../../../src/data/synthetic/write-synthetic-days.ts';
import { zipSingleFile } from '../../../src/data/synthetic/zip-writer.ts';
import { collect, SCALE8, tempDir, tradesOf } from './helpers.ts';

const DAY_US = 86_400_000_000;
const START = Date.UTC(2024, 11, 31) * 1000;

const SPEC: SyntheticTradesSpec = {
  symbol: 'ETHBTC',
  seed: 7,
  scale: SCALE8,
  tickSize: 1_000,
  stepSize: 10_000,
  startPrice: 5_500_000,
  startTime: START,
  endTime: START + 2 * DAY_US,
  tradesPerDay: 3_000,
  dailyVolatility: 0.015,
  medianQty: 5_000_000,
  firstTradeId: 500,
  timeUnit: 'ms',
};

describe('writing synthetic dumps', () => {
  it('writes daily files in the real naming scheme, byte-identical on a rerun', async () => {
    const [a, b] = [await tempDir(), await tempDir()];
    const options = { klineIntervals: ['1m', '1h'] as const, firstAggTradeId: 0 };
    const written = await writeSyntheticDays(a, SPEC, options);
    await writeSyntheticDays(b, SPEC, options);
    expect(written.map((p) => p.slice(a.length + 1))).toEqual([
      'ETHBTC-trades-2024-12-31.zip',
      'ETHBTC-1m-2024-12-31.zip',
      'ETHBTC-1h-2024-12-31.zip',
      'ETHBTC-aggTrades-2024-12-31.zip',
      'ETHBTC-trades-2025-01-01.zip',
      'ETHBTC-1m-2025-01-01.zip',
      'ETHBTC-1h-2025-01-01.zip',
      'ETHBTC-aggTrades-2025-01-01.zip',
    ]);
    for (const name of await readdir(a)) expect(await readFile(join(b, name)), name).toEqual(await readFile(join(a, name)));
  });

  it('loads back exactly what the generator produced, in ms and in µs, zipped or not', async () => {
    for (const [timeUnit, extension] of [['ms', 'zip'], ['us', 'csv']] as const) {
      const spec = { ...SPEC, timeUnit };
      const dir = await tempDir();
      await writeSyntheticDays(dir, spec, { klineIntervals: ['1m'], firstAggTradeId: 10, extension });
      const generated = [...generateTradeBatches(spec)];
      expect(tradesOf(await collect(readTrades(dir, { scale: SCALE8 })))).toEqual(tradesOf(generated));
      const klines = await loadKlines(dir, { scale: SCALE8 });
      expect(klines).toHaveLength(2 * 1440);
      // Day two's klines continue from day one's close, so the two files equal one derivation.
      expect(klines.slice(1440)).toEqual(klinesFromTrades(generated, { interval: '1m', startTime: START + DAY_US, endTime: START + 2 * DAY_US, previousClose: klines[1439]!.close }));
      expect(await loadAggTrades(dir, { scale: SCALE8 })).toEqual([...aggTradesFromTrades(generated, 10)]);
    }
  });

  it('zips one deflated entry with a fixed date that other readers accept', async () => {
    const data = Buffer.from('1,2,3\n'.repeat(1000));
    const zip = zipSingleFile('x.csv', data);
    expect(zipSingleFile('x.csv', data)).toEqual(zip);
    const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
    const entries = await collect(file.eachEntry());
    expect(entries.map((e) => [e.fileName, e.compressionMethod, e.uncompressedSize, e.getLastModDate({ timezone: 'UTC' }).toISOString()])).toEqual([
      ['x.csv', 8, data.length, '1980-01-01T00:00:00.000Z'],
    ]);
  });
});
