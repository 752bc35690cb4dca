/**
 * File names of every recognised kind, the choice of a symbol's depth and trades sources in a
 * window, the depth cut to a window, and folders whose symbols the market has no rules for.
 */
import { describe, expect, it } from 'vitest';
import { parseDataFileName } from '../../../src/data/data-file-name.ts';
import { formatTardisFileName, parseTardisFileName } from '../../../src/data/tardis-file-name.ts';
import { chooseSymbols, openMarketData } from '../../../src/data/market-folder.ts';
import { readSpotRules } from '../../../src/data/spot-symbol-rules.ts';
import { depthFiles, windowedDepth } from '../../../src/data/depth-sources.ts';
import { depthInWindow } from '../../../src/data/depth-window.ts';
import { sourceFiles, windowedTape } from '../../../src/data/tape-sources.ts';
import { fingerprintData } from '../../../src/data/data-fingerprint.ts';
import type { DepthBatch } from '../../../src/data/depth-tape.ts';
import { collect, lines, tempDir, tradesOf, writeDump } from './helpers.ts';

const DAY1 = 1_704_067_200_000_000; // 2024-01-01 µs
const DAY = 86_400_000_000;
const L2_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';

function rowsOf(batches: readonly DepthBatch[]): [number, number, number, number][] {
  return batches.flatMap((b) => Array.from({ length: b.length }, (_, i): [number, number, number, number] => [b.time[i]!, b.price[i]!, b.qty[i]!, b.flags[i]!]));
}

describe('file names', () => {
  it('parses the Tardis downloader names of the data types exsim reads', () => {
    expect(parseTardisFileName('binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz')).toEqual({
      symbol: 'BTCUSDT',
      kind: 'tardis:incremental_book_L2',
      exchange: 'binance',
      period: 'daily',
      date: '2024-01-01',
      start: Date.UTC(2024, 0, 1),
      end: Date.UTC(2024, 0, 2),
      extension: 'csv.gz',
    });
    expect(parseTardisFileName('binance-futures_book_snapshot_25_2024-02-29_BTCUSDT.csv')).toMatchObject({ kind: 'tardis:book_snapshot_25', exchange: 'binance-futures', extension: 'csv', start: Date.UTC(2024, 1, 29) });
    expect(parseTardisFileName('binance_book_snapshot_5_2024-01-01_ETHBTC.csv.gz')).toMatchObject({ kind: 'tardis:book_snapshot_5', symbol: 'ETHBTC' });
    expect(parseTardisFileName('binance_book_ticker_2024-01-01_BTCUSDT.csv.gz')).toMatchObject({ kind: 'tardis:book_ticker' });
    expect(parseTardisFileName('deribit_trades_2024-01-01_BTC-PERPETUAL.csv.gz')).toMatchObject({ kind: 'tardis:trades', symbol: 'BTC-PERPETUAL' });
    for (const name of ['binance_quotes_2024-01-01_BTCUSDT.csv.gz', 'binance_trades_2024-02-30_BTCUSDT.csv.gz', 'binance_trades_2024-01-01_BTCUSDT.csv.gz.tmp', 'Binance_trades_2024-01-01_BTCUSDT.csv', 'binance_trades_2024-01_BTCUSDT.csv']) {
      expect(parseTardisFileName(name), name).toBeNull();
    }
    expect(formatTardisFileName('binance', 'incremental_book_L2', '2024-01-01', 'BTCUSDT', 'csv.gz')).toBe('binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz');
  });

  it('reads Binance futures bookTicker dump names beside the spot ones', () => {
    expect(parseDataFileName('BTCUSDT-bookTicker-2024-01-01.zip')).toEqual({ symbol: 'BTCUSDT', kind: 'bookTicker', period: 'daily', date: '2024-01-01', start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 0, 2), extension: 'zip' });
    expect(parseDataFileName('BTCUSDT-trades-2024-01-01.zip')).toMatchObject({ kind: 'trades' });
    expect(parseDataFileName('binance_trades_2024-01-01_BTCUSDT.csv.gz')).toMatchObject({ kind: 'tardis:trades' });
    expect(parseDataFileName('notes.csv')).toBeNull();
  });
});

describe("a symbol's depth source", () => {
  it('the finest kind with a file in the window: L2, snapshots 25 then 5, then L1 (tardis book_ticker before binance bookTicker)', async () => {
    const dir = await tempDir();
    const names = [
      'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz',
      'binance_book_snapshot_25_2024-01-01_BTCUSDT.csv.gz',
      'binance_book_ticker_2024-01-01_BTCUSDT.csv.gz',
      'binance_book_snapshot_25_2024-01-02_BTCUSDT.csv.gz',
      'binance_book_snapshot_5_2024-01-02_BTCUSDT.csv.gz',
      'binance_book_snapshot_5_2024-01-03_BTCUSDT.csv.gz',
      'binance_book_ticker_2024-01-04_BTCUSDT.csv.gz',
      'BTCUSDT-bookTicker-2024-01-04.zip',
      'BTCUSDT-bookTicker-2024-01-05.zip',
      'BTCUSDT-trades-2024-01-05.zip',
    ];
    for (const name of names) await writeDump(dir, name, '');
    const data = openMarketData(dir);
    const pick = async (day: number, days = 1) => {
      const chosen = await depthFiles(data, 'BTCUSDT', DAY1 + day * DAY, DAY1 + (day + days) * DAY);
      return chosen === null ? null : [chosen.kind, chosen.info, chosen.files.map((f) => f.path.slice(dir.length + 1))];
    };
    expect(await pick(0)).toEqual(['tardis:incremental_book_L2', { granularity: 'L2', label: 'recorded L2 (tardis incremental_book_L2)' }, ['binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz']]);
    expect(await pick(1)).toEqual(['tardis:book_snapshot_25', { granularity: 'snapshots', label: 'recorded snapshots (tardis book_snapshot_25)' }, ['binance_book_snapshot_25_2024-01-02_BTCUSDT.csv.gz']]);
    expect(await pick(2)).toEqual(['tardis:book_snapshot_5', { granularity: 'snapshots', label: 'recorded snapshots (tardis book_snapshot_5)' }, ['binance_book_snapshot_5_2024-01-03_BTCUSDT.csv.gz']]);
    expect(await pick(3)).toEqual(['tardis:book_ticker', { granularity: 'L1', label: 'recorded L1 (tardis book_ticker)' }, ['binance_book_ticker_2024-01-04_BTCUSDT.csv.gz']]);
    expect(await pick(4)).toEqual(['bookTicker', { granularity: 'L1', label: 'recorded L1 (binance bookTicker)' }, ['BTCUSDT-bookTicker-2024-01-05.zip']]);
    // Not stitched: days 2 and 3 together are read from the finest kind alone (day 3 is a gap).
    expect(await pick(1, 2)).toEqual(['tardis:book_snapshot_25', { granularity: 'snapshots', label: 'recorded snapshots (tardis book_snapshot_25)' }, ['binance_book_snapshot_25_2024-01-02_BTCUSDT.csv.gz']]);
    expect(await pick(9)).toBeNull();
    expect(await depthFiles(data, 'ETHBTC')).toBeNull();
  });

  it('Tardis trades are a trades source; Binance trades win a day that has both', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'BTCUSDT-trades-2024-01-01.zip', lines('1,42000.01000000,0.00100000,42.00001000,1704067200123,True,True'));
    await writeDump(dir, 'binance_trades_2024-01-01_BTCUSDT.csv.gz', lines('binance,BTCUSDT,1704067200123000,1704067200124000,1,buy,42000.01,0.001'));
    await writeDump(dir, 'binance_trades_2024-01-02_BTCUSDT.csv.gz', lines('exchange,symbol,timestamp,local_timestamp,id,side,price,amount', 'binance,BTCUSDT,1704153600000001,1704153600000002,7,sell,42000.02,0.002'));
    const data = openMarketData(dir);
    const pick = async (day: number) => {
      const chosen = await sourceFiles(data, 'BTCUSDT', DAY1 + day * DAY, DAY1 + (day + 1) * DAY);
      return [chosen.source, chosen.files.map((f) => f.path.slice(dir.length + 1))];
    };
    expect(await pick(0)).toEqual(['trades', ['BTCUSDT-trades-2024-01-01.zip']]);
    expect(await pick(1)).toEqual(['trades', ['binance_trades_2024-01-02_BTCUSDT.csv.gz']]);
    const tape = await windowedTape(data, 'BTCUSDT', DAY1 + DAY, DAY1 + 2 * DAY);
    expect(tradesOf(await collect(tape.trades as AsyncIterable<never>))).toEqual([
      { id: 7, price: 4_200_002_000_000, qty: 200_000, quoteQty: 8_400_004_000, time: 1_704_153_600_000_001, isBuyerMaker: true, isBestMatch: true },
    ]);
  });
});

describe('depth cut to a window', () => {
  const l2 = lines(
    L2_HEADER,
    'binance,BTCUSDT,1704067200000000,1704067200000001,true,bid,100,1',
    'binance,BTCUSDT,1704067200000000,1704067200000001,true,bid,99,2',
    'binance,BTCUSDT,1704067200000000,1704067200000001,true,ask,101,3',
    'binance,BTCUSDT,1704067201000000,1704067201000001,false,bid,100,0',
    'binance,BTCUSDT,1704067201000000,1704067201000001,false,ask,102,4',
    'binance,BTCUSDT,1704067202000000,1704067202000001,false,ask,101,5',
    'binance,BTCUSDT,1704067203000000,1704067203000001,false,bid,98,6',
    'binance,BTCUSDT,1704067203000000,1704067203000001,false,bid,97,7',
  );

  it('the messages before `from` become one CLEAR message of the book they built (bids then asks, best first), stamped with the last one\'s time', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz', l2);
    const data = openMarketData(dir);
    const depth = await windowedDepth(data, 'BTCUSDT', DAY1 + 1_500_000, DAY1 + 3_000_000);
    expect(depth).toMatchObject({ symbol: 'BTCUSDT', kind: 'tardis:incremental_book_L2', info: { granularity: 'L2' } });
    expect(rowsOf(await collect(depth!.open()))).toEqual([
      [DAY1 + 1_000_000, 9_900_000_000, 200_000_000, 6],
      [DAY1 + 1_000_000, 10_100_000_000, 300_000_000, 1],
      [DAY1 + 1_000_000, 10_200_000_000, 400_000_000, 1],
      [DAY1 + 2_000_000, 10_100_000_000, 500_000_000, 3],
    ]);
    // A window on a message's time takes it as recorded; one before everything folds nothing.
    expect(rowsOf(await collect((await windowedDepth(data, 'BTCUSDT', DAY1 + 2_000_000, DAY1 + 2_000_001))!.open())).map((r) => r[0])).toEqual([DAY1 + 1_000_000, DAY1 + 1_000_000, DAY1 + 1_000_000, DAY1 + 2_000_000]);
    expect(rowsOf(await collect((await windowedDepth(data, 'BTCUSDT', DAY1 - 1, DAY1 + 1))!.open()))).toEqual([
      [DAY1, 10_000_000_000, 100_000_000, 6],
      [DAY1, 9_900_000_000, 200_000_000, 0],
      [DAY1, 10_100_000_000, 300_000_000, 1],
    ]);
    // After the last message: the book it left, alone.
    expect(rowsOf(await collect((await windowedDepth(data, 'BTCUSDT', DAY1 + 5_000_000, DAY1 + DAY))!.open()))).toEqual([
      [DAY1 + 3_000_000, 9_900_000_000, 200_000_000, 6],
      [DAY1 + 3_000_000, 9_800_000_000, 600_000_000, 0],
      [DAY1 + 3_000_000, 9_700_000_000, 700_000_000, 0],
      [DAY1 + 3_000_000, 10_100_000_000, 500_000_000, 1],
      [DAY1 + 3_000_000, 10_200_000_000, 400_000_000, 1],
    ]);
  });

  it('a book emptied before the window opens as an empty-book message', async () => {
    const batch: DepthBatch = {
      length: 2,
      time: Float64Array.of(10, 20),
      price: Float64Array.of(5, 5),
      qty: Float64Array.of(1, 0),
      flags: Uint8Array.of(6, 2),
    };
    expect(rowsOf(await collect(depthInWindow([batch], 30, 40)))).toEqual([[20, 0, 0, 6]]);
  });
});

describe('symbols without rules', () => {
  it('a folder of symbols neither the built-in market nor the Binance snapshot has: the message says how to get their rules', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'binance_trades_2024-01-01_SOLUSDT.csv.gz', '');
    const data = openMarketData(dir);
    const snapshot = readSpotRules();
    const hint =
      `${dir} has data for SOLUSDT, which has no exchange rules in the built-in market (BTCUSDT, ETHBTC) or the bundled Binance snapshot (${snapshot.symbols.length} spot symbols as of ${snapshot.date}): ` +
      `run \`exsim data symbols --update\` where Binance's API is reachable, or \`exsim data import ${dir} --out ${dir}\` to infer them from the data into exsim-market.json`;
    expect(() => chooseSymbols(data, undefined)).toThrow(hint);
    expect(() => chooseSymbols(data, ['SOLUSDT'])).toThrow(hint);
    expect(() => chooseSymbols(data, ['XRPUSDT'])).toThrow('unknown symbol XRPUSDT: the market has BTCUSDT, ETHBTC');
  });
});

describe('the data fingerprint', () => {
  it('covers the window\'s Tardis and depth files, a packed file rather than its unpacked twin', async () => {
    const dir = await tempDir();
    for (const name of ['binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz', 'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv', 'binance_trades_2024-01-01_BTCUSDT.csv.gz', 'BTCUSDT-bookTicker-2024-01-02.zip', 'binance_trades_2024-01-01_ETHBTC.csv.gz']) {
      await writeDump(dir, name, 'x\n');
    }
    const fingerprint = await fingerprintData(dir, ['BTCUSDT'], DAY1, DAY1 + DAY);
    expect(fingerprint.files.map((f) => f.name)).toEqual(['binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz', 'binance_trades_2024-01-01_BTCUSDT.csv.gz']);
  });
});
