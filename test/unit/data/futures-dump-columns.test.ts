/**
 * USDⓈ-M futures dumps have their own columns: trades six with a header row
 * (`id,price,qty,quote_qty,time,is_buyer_maker`: no best-match flag), aggTrades seven
 * (`agg_trade_id,...,is_buyer_maker`), klines spot's twelve with a header; times in ms. The same
 * loaders read them, told by the file's path (futures/um/...), and the columnar cache keys a
 * futures file apart from the spot file of the same name.
 */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { loadAggTrades, loadKlines, openMarketData, readTrades, windowedTape, type TradeBatch } from '../../../src/data/index.ts';
import { setTapeCache, TapeCache } from '../../../src/data/tape-cache.ts';
import { collect, lines, SCALE8, tempDir, tradesOf, writeDump } from './helpers.ts';

const T = 1_704_067_200_000; // 2024-01-01 ms
const UM_TRADES = lines('id,price,qty,quote_qty,time,is_buyer_maker', `7,42010.10,0.010,420.101,${T + 500},false`, `8,42010.20,1.500,63015.3,${T + 900},true`);
const SPOT_TRADES = lines(`1,42000.01,0.50000000,21000.00500000,${T},True,True`, `2,42000.02,0.25000000,10500.00500000,${T + 1000},False,True`);

test('a header-row, six-column USDⓈ-M trades file: rows in engine units, the best-match flag clear', async () => {
  const dir = await tempDir();
  const path = await writeDump(dir, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.zip', UM_TRADES);
  expect(tradesOf(await collect(readTrades(path, { scale: SCALE8 })))).toEqual([
    { id: 7, price: 4_201_010_000_000, qty: 1_000_000, quoteQty: 42_010_100_000, time: (T + 500) * 1000, isBuyerMaker: false, isBestMatch: false },
    { id: 8, price: 4_201_020_000_000, qty: 150_000_000, quoteQty: 6_301_530_000_000, time: (T + 900) * 1000, isBuyerMaker: true, isBestMatch: false },
  ]);
});

test('a seven-column USDⓈ-M aggTrades file and a klines file with a header row read through the spot loaders', async () => {
  const dir = await tempDir();
  const agg = await writeDump(dir, 'futures/um/daily/aggTrades/BTCUSDT/BTCUSDT-aggTrades-2024-01-01.csv', lines('agg_trade_id,price,quantity,first_trade_id,last_trade_id,transact_time,is_buyer_maker', `901,42340.00,0.500,1,3,${T + 2000},true`));
  expect(await loadAggTrades(agg, { scale: SCALE8 })).toEqual([{ a: 901, p: 4_234_000_000_000, q: 50_000_000, f: 1, l: 3, T: (T + 2000) * 1000, m: true, M: false }]);
  const klines = await writeDump(
    dir,
    'futures/um/daily/klines/BTCUSDT/1m/BTCUSDT-1m-2024-01-01.csv',
    lines('open_time,open,high,low,close,volume,close_time,quote_volume,count,taker_buy_volume,taker_buy_quote_volume,ignore', `${T},42300.0,42310.5,42290.1,42305.2,12.345,${T + 59_999},522222.1,321,6.001,253853.2,0`),
  );
  expect(await loadKlines(klines, { scale: SCALE8 })).toMatchObject([{ openTime: T * 1000, open: 4_230_000_000_000, close: 4_230_520_000_000, trades: 321 }]);
});

test('a folder holding both markets read as a whole must be told which; each file read alone goes by its path', async () => {
  const dir = await tempDir();
  await writeDump(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', SPOT_TRADES);
  await writeDump(dir, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', UM_TRADES);
  await expect(collect(readTrades(dir, { scale: SCALE8 }))).rejects.toThrow('the trades files are of spot and of futures/um (the same names in two markets); choose one market');
  expect(tradesOf(await collect(readTrades(dir, { scale: SCALE8, market: 'um' }))).map((t) => t.id)).toEqual([7, 8]);
  expect(tradesOf(await collect(readTrades(dir, { scale: SCALE8, market: 'spot' }))).map((t) => t.id)).toEqual([1, 2]);
  const coinM = await writeDump(dir, 'futures/cm/daily/trades/BTCUSD_PERP/BTCUSD_PERP-trades-2024-01-01.csv', UM_TRADES);
  await expect(collect(readTrades(coinM, { scale: SCALE8 }))).rejects.toThrow(
    'COIN-M futures data (futures/cm, binance-delivery) is not read: exsim trades USDⓈ-M perpetuals only',
  );
});

/** SHA-256 over a tape's columns, in order: equal digests, equal prints. */
async function tapeDigest(batches: AsyncIterable<TradeBatch> | Iterable<TradeBatch>): Promise<string> {
  const hash = createHash('sha256');
  for await (const b of batches) for (const column of [b.id, b.price, b.qty, b.quoteQty, b.time, b.flags]) hash.update(new Uint8Array(column.buffer, column.byteOffset, b.length * column.BYTES_PER_ELEMENT));
  return hash.digest('hex');
}

test("the spot tape of a folder with futures/um files beside is the spot-only folder's, print for print", async () => {
  const spotOnly = await tempDir();
  await writeDump(spotOnly, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', SPOT_TRADES);
  const mixed = await tempDir();
  await writeDump(mixed, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', SPOT_TRADES);
  await writeDump(mixed, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', UM_TRADES);
  const window = [T * 1000, (T + 86_400_000) * 1000] as const;
  // The two spot prints' columns (computed once from the spot-only folder, kept as the literal).
  const digest = '88823f2f0474fd962297134193bf9ae51e52f1035f769fcce252a94bced6aad9';
  expect(await tapeDigest((await windowedTape(openMarketData(spotOnly), 'BTCUSDT', ...window)).trades)).toBe(digest);
  expect(await tapeDigest((await windowedTape(openMarketData(mixed), 'BTCUSDT', ...window)).trades)).toBe(digest);
});

test('the columnar cache keeps a futures file and the spot file of the same name apart, and replays each as parsed', async () => {
  const dir = await tempDir();
  const spot = await writeDump(dir, 'spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', SPOT_TRADES);
  const um = await writeDump(dir, 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', UM_TRADES);
  const cache = new TapeCache({ dir: await tempDir(), minBytes: 0 });
  const built: string[] = [];
  cache.onBuild = (source) => built.push(source.slice(dir.length + 1));
  setTapeCache(cache);
  try {
    const first = [tradesOf(await collect(readTrades(spot, { scale: SCALE8 }))), tradesOf(await collect(readTrades(um, { scale: SCALE8 })))];
    const second = [tradesOf(await collect(readTrades(spot, { scale: SCALE8 }))), tradesOf(await collect(readTrades(um, { scale: SCALE8 })))];
    // Two entries, built once each; the second reads come from them, unchanged.
    expect(built).toEqual(['spot/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv', 'futures/um/daily/trades/BTCUSDT/BTCUSDT-trades-2024-01-01.csv']);
    expect(second).toEqual(first);
    expect(second.map((rows) => rows.map((t) => t.id))).toEqual([[1, 2], [7, 8]]);
  } finally {
    setTapeCache(undefined);
  }
});
