/**
 * Binance publishes spot and USDⓈ-M futures dumps under the same file names
 * (`BTCUSDT-trades-2024-01-01.zip`), told apart only by the folder: `spot/...` or `futures/um/...`
 * (COIN-M under `futures/cm/...`, which exsim does not read). A data folder holding both must
 * never read the futures file as the spot one: a file's market comes from its path.
 */
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { marketOfPath, openMarketData, parseDataFilePath, symbolFiles } from '../../../src/data/index.ts';
import { lines, tempDir, writeDump } from './helpers.ts';

const SPOT_ROW = '1,42000.01,0.5,21000.005,1704067200000,True,True';
const UM_HEADER = 'id,price,qty,quote_qty,time,is_buyer_maker';
const UM_ROW = '7,42010.10,0.010,420.101,1704067200500,false';

test('a futures/um segment makes a file USDⓈ-M, futures/cm COIN-M; a Tardis name says its exchange; anything else is spot', () => {
  expect(marketOfPath('/d/spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip')).toBe('spot');
  expect(marketOfPath('/d/BTCUSDT-trades-2024-01-01.zip')).toBe('spot');
  expect(marketOfPath('/d/futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip')).toBe('um');
  expect(marketOfPath('/d/futures/cm/daily/trades/BTCUSD_PERP/BTCUSD_PERP-trades-2024-01-01.zip')).toBe('cm');
  // "um" elsewhere, or "futures" alone, says nothing.
  expect(marketOfPath('/d/um/futures/BTCUSDT-trades-2024-01-01.zip')).toBe('spot');
  expect(parseDataFilePath('/d/binance-futures_trades_2024-01-01_BTCUSDT.csv.gz')).toMatchObject({ kind: 'tardis:trades', market: 'um' });
  expect(parseDataFilePath('/d/binance_trades_2024-01-01_BTCUSDT.csv.gz')).toMatchObject({ market: 'spot' });
});

test('parseDataFilePath: the name parts with the market, null for a COIN-M file', () => {
  expect(parseDataFilePath('/d/futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip')).toEqual({
    symbol: 'BTCUSDT',
    kind: 'trades',
    period: 'daily',
    date: '2024-01-01',
    start: Date.UTC(2024, 0, 1),
    end: Date.UTC(2024, 0, 2),
    extension: 'zip',
    market: 'um',
  });
  expect(parseDataFilePath('/d/futures/cm/daily/trades/BTCUSD_PERP/BTCUSDT-trades-2024-01-01.zip')).toBeNull();
});

test("a folder with spot and futures/um files of one name: the spot symbol's files are the spot ones; a futures-only symbol is no spot symbol", async () => {
  const dir = await tempDir();
  await writeDump(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', lines(SPOT_ROW));
  await writeDump(dir, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', lines(UM_HEADER, UM_ROW));
  await writeDump(dir, 'futures/um/daily/trades/SOLUSDT/SOLUSDT-trades-2024-01-01.csv', lines(UM_HEADER, UM_ROW));
  await writeDump(dir, 'futures/cm/daily/trades/BTCUSD_PERP/BTCUSDT-trades-2024-01-01.csv', lines(UM_HEADER, UM_ROW));
  const data = openMarketData(dir);
  expect(data.dataSymbols).toEqual(['BTCUSDT']);
  expect(data.futuresSymbols).toEqual(['BTCUSDT', 'SOLUSDT']);
  expect((await symbolFiles(data, 'BTCUSDT')).map((f) => f.path)).toEqual([join(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv')]);
  expect((await symbolFiles(data, 'BTCUSDT', undefined, undefined, 'um')).map((f) => f.path)).toEqual([join(dir, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv')]);
});
