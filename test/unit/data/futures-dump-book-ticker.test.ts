/**
 * Binance publishes bookTicker dumps for futures only (`futures/um/.../bookTicker/`). A spot symbol
 * with no book of its own takes them as its L1 book, as it did before a file's market came from
 * its path; the perpetual takes them as its own.
 */
import { expect, test } from 'vitest';
import { depthFiles } from '../../../src/data/depth-sources.ts';
import { openMarketData } from '../../../src/data/index.ts';
import { lines, tempDir, writeDump } from './helpers.ts';

const T = 1_704_067_200_000; // 2024-01-01 ms

test('futures/um bookTicker dumps are the L1 book of the spot symbol and of the perpetual', async () => {
  const dir = await tempDir();
  await writeDump(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', lines(`1,42000.01,0.5,21000.005,${T},True,True`));
  await writeDump(
    dir,
    'futures/um/daily/bookTicker/BTCUSDT/BTCUSDT-bookTicker-2024-01-01.csv',
    lines('update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time', `1,42000.0,1.5,42000.1,2.0,${T},${T + 1}`),
  );
  const data = openMarketData(dir);
  const spot = await depthFiles(data, 'BTCUSDT');
  const um = await depthFiles(data, 'BTCUSDT', undefined, undefined, 'um');
  expect({ kind: spot?.kind, files: spot?.files.map((f) => f.name.market) }).toEqual({ kind: 'bookTicker', files: ['um'] });
  expect({ kind: um?.kind, files: um?.files.map((f) => f.name.market) }).toEqual({ kind: 'bookTicker', files: ['um'] });
});
