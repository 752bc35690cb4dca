/**
 * The columnar tape cache (src/data/tape-cache.ts): a file read once is read again from its Arrow
 * entry, and what comes out equals the parsed read batch for batch (trades across a day boundary,
 * Tardis L2 depth with its snapshots and skipped updates); a file whose first rows the parser
 * judges against the previous file is parsed instead; a corrupt, truncated or stale entry is
 * dropped and rebuilt, never trusted; an error stays the parser's, with file, line and column.
 */
import { readdir, readFile, writeFile, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTapeCache, openMarketData, readDepth, readTrades, readKlines, emptyReadNotes, windowedTape, type DepthBatch, type TradeBatch } from '../../../src/data/index.ts';
import { setTapeCache, TapeCache } from '../../../src/data/tape-cache.ts';
import { collect, lines, SCALE8, tempDir, writeDump } from './helpers.ts';

const DAY_MS = 86_400_000;
const T0 = 1_704_067_200_000; // 2024-01-01 ms

/** A Binance trades day of `n` trades, ids from `firstId`, one every 40 s, prices wandering on a 0.01 grid. */
function tradesDay(day: number, n: number, firstId: number): string {
  const rows: string[] = [];
  for (let i = 0; i < n; i++) {
    const price = (42000 + ((i * 37 + day * 11) % 500) / 100).toFixed(2);
    const qty = (0.001 + (i % 7) / 1000).toFixed(5);
    rows.push(`${firstId + i},${price},${qty},${(Number(price) * Number(qty)).toFixed(8)},${T0 + day * DAY_MS + i * 40_000},${i % 3 === 0 ? 'True' : 'False'},True`);
  }
  return lines(...rows);
}

const plain = (b: TradeBatch | DepthBatch): Record<string, number[]> => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, typeof v === 'number' ? [v] : Array.from(v as ArrayLike<number>)]));

let builds: string[] = [];
let cacheDir = '';

beforeEach(async () => {
  cacheDir = await tempDir();
  builds = [];
  const cache = new TapeCache({ dir: cacheDir, minBytes: 0 });
  cache.onBuild = (source) => builds.push(source.slice(source.lastIndexOf('/') + 1));
  setTapeCache(cache);
});

afterEach(() => setTapeCache(undefined));

/** The same read parsed (no cache) and through the cache: first (it builds) and second (it reads). */
async function threeReads<T>(read: () => AsyncIterable<T>): Promise<{ parsed: T[]; first: T[]; second: T[]; builtFirst: string[]; builtSecond: string[] }> {
  const cache = new TapeCache({ dir: cacheDir, minBytes: 0 });
  cache.onBuild = (source) => builds.push(source.slice(source.lastIndexOf('/') + 1));
  setTapeCache(null);
  const parsed = await collect(read());
  setTapeCache(cache);
  builds = [];
  const first = await collect(read());
  const builtFirst = builds;
  builds = [];
  const second = await collect(read());
  return { parsed, first, second, builtFirst, builtSecond: builds };
}

async function twoTradeDays(): Promise<string> {
  const dir = await tempDir();
  await writeDump(dir, 'BTCUSDT-trades-2024-01-01.zip', tradesDay(0, 1000, 1));
  await writeDump(dir, 'BTCUSDT-trades-2024-01-02.zip', tradesDay(1, 700, 1001));
  return dir;
}

describe('the columnar tape cache', () => {
  it('trades: a cached read equals the parsed read batch for batch, across a file boundary inside a batch', async () => {
    const dir = await twoTradeDays();
    const r = await threeReads(() => readTrades(dir, { scale: SCALE8, batchSize: 300 }));
    expect(r.parsed.map((b) => b.length)).toEqual([300, 300, 300, 300, 300, 200]);
    expect(r.first.map(plain)).toEqual(r.parsed.map(plain));
    expect(r.second.map(plain)).toEqual(r.parsed.map(plain));
    expect(r.builtFirst).toEqual(['BTCUSDT-trades-2024-01-01.zip', 'BTCUSDT-trades-2024-01-02.zip']);
    expect(r.builtSecond).toEqual([]);
    const entries = (await readdir(cacheDir)).filter((f) => f.endsWith('.json')).length;
    expect(entries).toBe(2);
  });

  it('klines: the objects a cached read builds equal the parsed ones', async () => {
    const dir = await tempDir();
    const rows: string[] = [];
    for (let i = 0; i < 50; i++) {
      const open = T0 + i * 60_000;
      rows.push(`${open},42000.00,42010.50,41990.25,42005.00,1.50000000,${open + 59_999},63007.50000000,12,0.75000000,31503.75000000,0`);
    }
    await writeDump(dir, 'BTCUSDT-1m-2024-01-01.zip', lines(...rows));
    const r = await threeReads(() => readKlines(dir, { scale: SCALE8, batchSize: 20 }));
    expect(r.parsed.map((b) => b.length)).toEqual([20, 20, 10]);
    expect(r.second).toEqual(r.parsed);
    expect(r.parsed[0]![0]).toMatchObject({ open: 4_200_000_000_000, high: 4_201_050_000_000, trades: 12 });
    expect(r.builtSecond).toEqual([]);
  });

  it('Tardis L2 depth: the same batches, messages, skipped updates and restamped rows', async () => {
    const dir = await tempDir();
    const us = T0 * 1000;
    const header = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
    const day = (d: number): string => {
      const t = us + d * DAY_MS * 1000;
      const rows = [header];
      // The second day opens with two updates before its snapshot: skipped and counted.
      if (d === 1) rows.push(`binance,BTCUSDT,${t + 10},${t + 20},false,bid,99,1`, `binance,BTCUSDT,${t + 11},${t + 21},false,ask,103,1`);
      rows.push(`binance,BTCUSDT,${t + 100},${t + 200},true,bid,100,1`, `binance,BTCUSDT,${t + 100},${t + 200},true,ask,101,2`);
      for (let i = 0; i < 40; i++) rows.push(`binance,BTCUSDT,${t + 1000 + i * 500},${t + 1100 + i * 500},false,${i % 2 === 0 ? 'bid' : 'ask'},${i % 2 === 0 ? 100 - (i % 5) : 101 + (i % 5)},${(i % 4) + 1}`);
      // A row stamped 0.3 ms before the one before it (received after it): restamped.
      rows.push(`binance,BTCUSDT,${t + 1000 + 39 * 500 - 300},${t + 1100 + 40 * 500},false,bid,98,7`);
      return lines(...rows);
    };
    await writeDump(dir, 'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz', day(0));
    await writeDump(dir, 'binance_incremental_book_L2_2024-01-02_BTCUSDT.csv.gz', day(1));
    const streams: ReturnType<typeof readDepth>[] = [];
    const r = await threeReads(() => {
      const stream = readDepth(dir, { scale: SCALE8, kind: 'tardis:incremental_book_L2', batchSize: 16 });
      streams.push(stream);
      return stream;
    });
    expect(r.parsed.map((b) => b.length)).toEqual([16, 16, 16, 16, 16, 6]);
    expect(r.first.map(plain)).toEqual(r.parsed.map(plain));
    expect(r.second.map(plain)).toEqual(r.parsed.map(plain));
    expect(streams.map((s) => [s.skippedUpdates, s.notes.restampedRows])).toEqual([
      [2, 2],
      [2, 2],
      [2, 2],
    ]);
    expect(r.builtSecond).toEqual([]);
  });

  it('a file whose first rows are restamped to the previous file is parsed (not cached), and the read is the same', async () => {
    const dir = await tempDir();
    const us = T0 * 1000;
    const header = 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount';
    const midnight = us + DAY_MS * 1000;
    await writeDump(dir, 'binance_trades_2024-01-01_BTCUSDT.csv.gz', lines(header, `binance,BTCUSDT,${midnight - 1000},${midnight - 900},1,buy,100,1`, `binance,BTCUSDT,${midnight - 10},${midnight - 5},2,sell,100,2`));
    // Stamped 0.5 s before the last trade of the day before (received after midnight): restamped to it.
    await writeDump(dir, 'binance_trades_2024-01-02_BTCUSDT.csv.gz', lines(header, `binance,BTCUSDT,${midnight - 500_010},${midnight + 100},3,buy,101,1`, `binance,BTCUSDT,${midnight + 50},${midnight + 200},4,buy,101,1`));
    const notes = [emptyReadNotes(), emptyReadNotes(), emptyReadNotes()];
    let n = 0;
    const r = await threeReads(() => readTrades(dir, { scale: SCALE8, notes: notes[n++]! }));
    expect(r.parsed[0]!.time).toEqual(Float64Array.from([midnight - 1000, midnight - 10, midnight - 10, midnight + 50]));
    expect(r.first.map(plain)).toEqual(r.parsed.map(plain));
    expect(r.second.map(plain)).toEqual(r.parsed.map(plain));
    expect(notes.map((x) => x.restampedRows)).toEqual([1, 1, 1]);
    expect(r.builtFirst).toEqual(['binance_trades_2024-01-01_BTCUSDT.csv.gz', 'binance_trades_2024-01-02_BTCUSDT.csv.gz']);
    // The second day was read again from its file: its rows depend on the day before.
    expect(r.builtSecond).toEqual(['binance_trades_2024-01-02_BTCUSDT.csv.gz']);
  });

  it('a corrupt part is not trusted: the file is parsed again, the entry rebuilt, and the read is the same', async () => {
    const dir = await twoTradeDays();
    const read = () => collect(readTrades(dir, { scale: SCALE8, batchSize: 300 }));
    const expected = (await read()).map(plain);
    const parts = (await readdir(cacheDir)).filter((f) => f.endsWith('.arrow')).sort();
    expect(parts).toHaveLength(2);
    for (const part of parts) {
      const path = join(cacheDir, part);
      const bytes = await readFile(path);
      const at = bytes.length >> 1;
      bytes[at] = bytes[at]! ^ 0x40; // a flipped bit inside the columns, same size
      await writeFile(path, bytes);
    }
    builds = [];
    expect((await read()).map(plain)).toEqual(expected);
    expect(builds).toEqual(['BTCUSDT-trades-2024-01-01.zip', 'BTCUSDT-trades-2024-01-02.zip']);
    builds = [];
    expect((await read()).map(plain)).toEqual(expected);
    expect(builds).toEqual([]);
  });

  it('a truncated part or a stale description is not trusted either', async () => {
    const dir = await twoTradeDays();
    const read = () => collect(readTrades(dir, { scale: SCALE8, batchSize: 300 }));
    const expected = (await read()).map(plain);
    const files = (await readdir(cacheDir)).sort();
    const part = files.find((f) => f.endsWith('.arrow'))!;
    await truncate(join(cacheDir, part), 100);
    const description = files.filter((f) => f.endsWith('.json'))[1]!;
    const entry = JSON.parse(await readFile(join(cacheDir, description), 'utf8')) as { format: number };
    await writeFile(join(cacheDir, description), JSON.stringify({ ...entry, format: 0 }));
    builds = [];
    expect((await read()).map(plain)).toEqual(expected);
    expect(builds).toHaveLength(2);
  });

  it('a read that fails across files fails as the parser says, whether or not the files are cached', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-trades-2024-01-01.zip', tradesDay(0, 100, 1));
    // The next day's ids start over: the parser refuses its first row.
    await writeDump(dir, 'BTCUSDT-trades-2024-01-02.zip', tradesDay(1, 100, 50));
    const read = () => collect(readTrades(dir, { scale: SCALE8 }));
    const message = 'BTCUSDT-trades-2024-01-02.zip/BTCUSDT-trades-2024-01-02.csv:1: column 1 (id): id 50 is not after id 100 of the last row of';
    await expect(read()).rejects.toThrow(message);
    builds = [];
    await collect(readTrades(join(dir, 'BTCUSDT-trades-2024-01-02.zip'), { scale: SCALE8 }));
    expect(builds).toEqual(['BTCUSDT-trades-2024-01-02.zip']);
    // Both files have entries now: the second's first id does not follow the first's last, so it is parsed, and refused.
    builds = [];
    await expect(read()).rejects.toThrow(message);
    expect(builds).toEqual(['BTCUSDT-trades-2024-01-02.zip']);
  });

  it('exsim data import builds every file ahead of the first run: a windowed read then converts nothing', async () => {
    const dir = await twoTradeDays();
    const data = openMarketData(dir);
    const built = await buildTapeCache(data, ['BTCUSDT']);
    expect(built.map((p) => p.slice(p.lastIndexOf('/') + 1))).toEqual(['BTCUSDT-trades-2024-01-01.zip', 'BTCUSDT-trades-2024-01-02.zip']);
    builds = [];
    const tape = await windowedTape(data, 'BTCUSDT', T0 * 1000 + 3_600_000_000, (T0 + DAY_MS) * 1000 + 3_600_000_000);
    const rows = (await collect(tape.trades as AsyncIterable<TradeBatch>)).reduce((n, b) => n + b.length, 0);
    expect(rows).toBe(910 + 90);
    expect(builds).toEqual([]);
  });
});
