/**
 * USDⓈ-M mark price klines (`futures/um/{daily,monthly}/markPriceKlines/<S>/1m/<S>-1m-...zip`):
 * trade klines' names and columns, told apart by their folder. Read as one-minute bars at a
 * given precision; never listed as tape files (no prints), and counted by the data fingerprint
 * under their own name.
 */
import { expect, test } from 'vitest';
import { fingerprintData } from '../../../src/data/data-fingerprint.ts';
import { parseDataFilePath } from '../../../src/data/data-file-name.ts';
import { readMarkKlines } from '../../../src/data/read-mark-klines.ts';
import { lines, tempDir, writeDump } from './helpers.ts';

const T = Date.UTC(2024, 0, 1);
const MIN = 60_000;
const HEADER = 'open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore';
const DAY = [T * 1000, (T + 86_400_000) * 1000] as const;

test('1m bars of the markPriceKlines folder only, at the precision asked (half up), a later file replacing a minute', async () => {
  const dir = await tempDir();
  await writeDump(dir, 'futures/um/daily/markPriceKlines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.zip', lines(HEADER, `${T},42000.125,42010.5,41990,42001,0,${T + 59_999},0,60,0,0,0`, `${T + MIN},42001,42002,42000,42002,0,${T + MIN + 59_999},0,60,0,0,0`));
  // The same day's trade klines and index klines: not marks. A 5m mark file: not one-minute.
  await writeDump(dir, 'futures/um/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.zip', lines(HEADER, `${T},1,1,1,1,1,${T + 59_999},1,1,1,1,0`));
  await writeDump(dir, 'futures/um/daily/indexPriceKlines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.zip', lines(HEADER, `${T},1,1,1,1,0,${T + 59_999},0,1,0,0,0`));
  await writeDump(dir, 'futures/um/daily/markPriceKlines/BTCUSDT/5m/BTCUSDT-5m-2024-01-01.zip', lines(HEADER, `${T},1,1,1,1,0,${T + 299_999},0,1,0,0,0`));
  const read = await readMarkKlines(dir, 'BTCUSDT', ...DAY, 2);
  expect(read?.files.map((f) => f.slice(dir.length))).toEqual(['/futures/um/daily/markPriceKlines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.zip']);
  expect(read?.bars).toEqual([
    { openTime: T * 1000, open: 4_200_013, high: 4_201_050, low: 4_199_000, close: 4_200_100 },
    { openTime: (T + MIN) * 1000, open: 4_200_100, high: 4_200_200, low: 4_200_000, close: 4_200_200 },
  ]);
  expect(await readMarkKlines(dir, 'ETHUSDT', ...DAY, 2)).toBeNull();
});

test('a mark or index klines file is no tape file; the fingerprint names a mark file apart from the trade klines of its name', async () => {
  const dir = await tempDir();
  const mark = await writeDump(dir, 'futures/um/daily/markPriceKlines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.csv', lines(`${T},1,1,1,1,0,${T + 59_999},0,1,0,0,0`));
  const trades = await writeDump(dir, 'futures/um/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.csv', lines(`${T},1,1,1,1,1,${T + 59_999},1,1,1,1,0`));
  await writeDump(dir, 'spot/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.csv', lines(`${T * 1000},1,1,1,1,1,${T * 1000 + 59_999_999},1,1,1,1,0`));
  expect(parseDataFilePath(mark)).toBeNull();
  expect(parseDataFilePath(dir + '/futures/um/monthly/indexPriceKlines/BTCUSDT/1m/BTCUSDT-1m-2024-01.zip')).toBeNull();
  expect(parseDataFilePath(trades)).toMatchObject({ kind: 'klines', market: 'um' });
  expect((await fingerprintData(dir, ['BTCUSDT'], ...DAY, ['BTCUSDT'])).files.map((f) => f.name)).toEqual([
    'BTCUSDT-1m-2024-01-01.csv',
    'futures/um/BTCUSDT-1m-2024-01-01.csv',
    'futures/um/markPriceKlines/BTCUSDT-1m-2024-01-01.csv',
  ]);
});

test('a bar whose extremes do not contain its open and close names file and line', async () => {
  const dir = await tempDir();
  const path = await writeDump(dir, 'futures/um/markPriceKlines/BTCUSDT-1m-2024-01-01.csv', lines(HEADER, `${T},42000,41999,41990,42000,0,${T + 59_999},0,60,0,0,0`));
  await expect(readMarkKlines(dir, 'BTCUSDT', ...DAY, 2)).rejects.toThrow(`${path}:2: the bar's low 41990 and high 41999 do not contain its open 42000 and close 42000`);
});
