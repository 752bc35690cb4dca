/**
 * The depth and Tardis readers on small files written here: every row's units and flags, how
 * rows group into messages, when a message replaces the book, what is skipped, and the trades.
 */
import { describe, expect, it } from 'vitest';
import { readDepth } from '../../../src/data/read-depth.ts';
import { readTrades } from '../../../src/data/read-trades.ts';
import type { DepthBatch } from '../../../src/data/depth-tape.ts';
import type { DepthKind } from '../../../src/data/depth-kinds.ts';
import { collect, lines, SCALE8, tempDir, tradesOf, writeDump } from './helpers.ts';

const L2_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
const L2_FILE = 'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv';
const L2_FILE_2 = 'binance_incremental_book_L2_2024-01-02_BTCUSDT.csv';

/** Every row of the batches as [time, price, qty, flags] (flags: 1 ask, 2 message start, 4 clear). */
function rowsOf(batches: readonly DepthBatch[]): [number, number, number, number][] {
  return batches.flatMap((b) => Array.from({ length: b.length }, (_, i): [number, number, number, number] => [b.time[i]!, b.price[i]!, b.qty[i]!, b.flags[i]!]));
}

async function depthRows(path: string | string[], kind: DepthKind, batchSize?: number): Promise<{ rows: [number, number, number, number][]; skipped: number; batches: DepthBatch[] }> {
  const depth = readDepth(path, { scale: SCALE8, kind, ...(batchSize === undefined ? {} : { batchSize }) });
  const batches = await collect(depth);
  return { rows: rowsOf(batches), skipped: depth.skippedUpdates, batches };
}

describe('tardis incremental_book_L2', () => {
  it('groups rows into messages by timestamps, clears the book at each snapshot run, skips updates before the first snapshot', async () => {
    const dir = await tempDir();
    const path = await writeDump(
      dir,
      L2_FILE,
      lines(
        L2_HEADER,
        'binance,BTCUSDT,1704067199000000,1704067199000100,false,bid,41999,1',
        'binance,BTCUSDT,1704067200000000,1704067200000500,true,ask,42000.02,0.5',
        'binance,BTCUSDT,1704067200000000,1704067200000500,true,bid,42000.01,1.25',
        'binance,BTCUSDT,1704067200100000,1704067200100300,false,bid,42000.01,0',
        'binance,BTCUSDT,1704067200100000,1704067200100300,false,ask,42000.03,2',
        'binance,BTCUSDT,1704067200100000,1704067200100400,false,ask,42000.02,0.25',
        'binance,BTCUSDT,1704067200200000,1704067200200400,true,bid,41990,3',
        'binance,BTCUSDT,1704067200200000,1704067200200400,true,ask,42010,4',
        'binance,BTCUSDT,1704067200300000,1704067200300400,false,ask,42010,0',
      ),
    );
    const { rows, skipped } = await depthRows(path, 'tardis:incremental_book_L2');
    expect(skipped).toBe(1);
    expect(rows).toEqual([
      [1_704_067_200_000_000, 4_200_002_000_000, 50_000_000, 7],
      [1_704_067_200_000_000, 4_200_001_000_000, 125_000_000, 0],
      [1_704_067_200_100_000, 4_200_001_000_000, 0, 2],
      [1_704_067_200_100_000, 4_200_003_000_000, 200_000_000, 1],
      [1_704_067_200_100_000, 4_200_002_000_000, 25_000_000, 3],
      [1_704_067_200_200_000, 4_199_000_000_000, 300_000_000, 6],
      [1_704_067_200_200_000, 4_201_000_000_000, 400_000_000, 1],
      [1_704_067_200_300_000, 4_201_000_000_000, 0, 3],
    ]);
  });

  it('starts each file at its own snapshot; a flip of is_snapshot or a new timestamp starts a message; batches hold whole messages', async () => {
    const dir = await tempDir();
    await writeDump(dir, `${L2_FILE}.gz`, lines(L2_HEADER, 'binance,BTCUSDT,1704067200000000,1704067200000500,true,bid,42000,1', 'binance,BTCUSDT,1704067200000000,1704067200000500,true,ask,42001,1'));
    await writeDump(
      dir,
      `${L2_FILE_2}.gz`,
      lines(
        L2_HEADER,
        'binance,BTCUSDT,1704153600000000,1704153600000100,false,ask,42010,1',
        'binance,BTCUSDT,1704153600000000,1704153600000200,true,bid,41000,1',
        'binance,BTCUSDT,1704153600000000,1704153600000200,false,bid,41000,2',
        'binance,BTCUSDT,1704153600000001,1704153600000200,false,bid,41000,3',
        'binance,BTCUSDT,1704153600000001,1704153600000200,false,ask,41001,3',
      ),
    );
    const { rows, skipped, batches } = await depthRows(dir, 'tardis:incremental_book_L2', 2);
    expect(skipped).toBe(1);
    expect(rows).toEqual([
      [1_704_067_200_000_000, 4_200_000_000_000, 100_000_000, 6],
      [1_704_067_200_000_000, 4_200_100_000_000, 100_000_000, 1],
      [1_704_153_600_000_000, 4_100_000_000_000, 100_000_000, 6],
      [1_704_153_600_000_000, 4_100_000_000_000, 200_000_000, 2],
      [1_704_153_600_000_001, 4_100_000_000_000, 300_000_000, 2],
      [1_704_153_600_000_001, 4_100_100_000_000, 300_000_000, 1],
    ]);
    expect(batches.map((b) => b.length)).toEqual([2, 2, 2]);
    for (const batch of batches) expect(batch.flags[0]! & 2).toBe(2);
  });

  it('reads CRLF lines and a file without a header', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, L2_FILE, 'binance,BTCUSDT,1704067200000000,1704067200000500,true,bid,42000,1\r\nbinance,BTCUSDT,1704067200000000,1704067200000500,true,ask,42001,0.00000001\r\n');
    expect((await depthRows(path, 'tardis:incremental_book_L2')).rows).toEqual([
      [1_704_067_200_000_000, 4_200_000_000_000, 100_000_000, 6],
      [1_704_067_200_000_000, 4_200_100_000_000, 1, 1],
    ]);
  });
});

describe('tardis book snapshots', () => {
  const header = (levels: number): string =>
    ['exchange,symbol,timestamp,local_timestamp', ...Array.from({ length: levels }, (_, i) => `asks[${i}].price,asks[${i}].amount,bids[${i}].price,bids[${i}].amount`)].join(',');

  it('one CLEAR message per row, asks then bids best first, empty levels skipped; a row with no level empties the book', async () => {
    const dir = await tempDir();
    const path = await writeDump(
      dir,
      'binance_book_snapshot_5_2024-01-01_BTCUSDT.csv.gz',
      lines(
        header(5),
        `binance,BTCUSDT,1704067200010000,1704067200010500,42000.02,0.5,42000.01,2,42000.05,1,41999,3${',,,,'.repeat(3)}`,
        `binance,BTCUSDT,1704067200020000,1704067200020500${',,,,'.repeat(5)}`,
      ),
    );
    expect((await depthRows(path, 'tardis:book_snapshot_5')).rows).toEqual([
      [1_704_067_200_010_000, 4_200_002_000_000, 50_000_000, 7],
      [1_704_067_200_010_000, 4_200_005_000_000, 100_000_000, 1],
      [1_704_067_200_010_000, 4_200_001_000_000, 200_000_000, 0],
      [1_704_067_200_010_000, 4_199_900_000_000, 300_000_000, 0],
      [1_704_067_200_020_000, 0, 0, 6],
    ]);
  });

  it('book_snapshot_25 has 104 columns', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'binance_book_snapshot_25_2024-01-01_BTCUSDT.csv', lines(header(25), `binance,BTCUSDT,1704067200010000,1704067200010500,42001,1,42000,2${',,,,'.repeat(24)}`));
    expect((await depthRows(path, 'tardis:book_snapshot_25')).rows).toEqual([
      [1_704_067_200_010_000, 4_200_100_000_000, 100_000_000, 7],
      [1_704_067_200_010_000, 4_200_000_000_000, 200_000_000, 0],
    ]);
  });
});

describe('best bid and ask quotes (L1)', () => {
  it('tardis book_ticker: each row one CLEAR message, bid then ask, an empty side left out', async () => {
    const dir = await tempDir();
    const path = await writeDump(
      dir,
      'binance_book_ticker_2024-01-01_BTCUSDT.csv.gz',
      lines(
        'exchange,symbol,timestamp,local_timestamp,ask_amount,ask_price,bid_price,bid_amount',
        'binance,BTCUSDT,1704067200001000,1704067200001500,0.5,42000.02,42000.01,1.5',
        'binance,BTCUSDT,1704067200002000,1704067200002500,0.5,42000.02,,',
        'binance,BTCUSDT,1704067200003000,1704067200003500,,,,',
      ),
    );
    expect((await depthRows(path, 'tardis:book_ticker')).rows).toEqual([
      [1_704_067_200_001_000, 4_200_001_000_000, 150_000_000, 6],
      [1_704_067_200_001_000, 4_200_002_000_000, 50_000_000, 1],
      [1_704_067_200_002_000, 4_200_002_000_000, 50_000_000, 7],
      [1_704_067_200_003_000, 0, 0, 6],
    ]);
  });

  it('binance futures bookTicker dumps, zipped, with or without the header, stamped at transaction_time', async () => {
    const dir = await tempDir();
    const row = '8123456789,42000.01,1.5,42000.02,0.5,1704067200123,1704067200125';
    const withHeader = await writeDump(dir, 'a/BTCUSDT-bookTicker-2024-01-01.zip', lines('update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time', row));
    const bare = await writeDump(dir, 'b/BTCUSDT-bookTicker-2024-01-01.csv', lines(row));
    const expected = [
      [1_704_067_200_123_000, 4_200_001_000_000, 150_000_000, 6],
      [1_704_067_200_123_000, 4_200_002_000_000, 50_000_000, 1],
    ];
    expect((await depthRows(withHeader, 'bookTicker')).rows).toEqual(expected);
    expect((await depthRows(bare, 'bookTicker')).rows).toEqual(expected);
  });
});

describe('tardis trades', () => {
  it('keeps the venue id; a sell taker means the buyer made the market; quoteQty is price × amount floored', async () => {
    const dir = await tempDir();
    const path = await writeDump(
      dir,
      'binance_trades_2024-01-01_BTCUSDT.csv.gz',
      lines(
        'exchange,symbol,timestamp,local_timestamp,id,side,price,amount',
        'binance,BTCUSDT,1704067200123456,1704067200124000,3340000001,buy,42000.01,0.001',
        'binance,BTCUSDT,1704067200123456,1704067200124000,3340000002,sell,0.00000003,0.5',
      ),
    );
    expect(tradesOf(await collect(readTrades(path, { scale: SCALE8 })))).toEqual([
      { id: 3_340_000_001, price: 4_200_001_000_000, qty: 100_000, quoteQty: 4_200_001_000, time: 1_704_067_200_123_456, isBuyerMaker: false, isBestMatch: true },
      { id: 3_340_000_002, price: 3, qty: 50_000_000, quoteQty: 1, isBuyerMaker: true, isBestMatch: true, time: 1_704_067_200_123_456 },
    ]);
  });

  it('a folder of Binance and Tardis trades of one symbol is refused rather than read twice', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'binance_trades_2024-01-01_BTCUSDT.csv', lines('binance,BTCUSDT,1704067200123456,1704067200124000,1,buy,1,1'));
    await writeDump(dir, 'BTCUSDT-trades-2024-01-02.csv', lines('2,1.00000000,1.00000000,1.00000000,1704153600000,True,True'));
    await expect(collect(readTrades(dir, { scale: SCALE8 }))).rejects.toThrow('the files mix tardis:trades and trades; keep one kind in the folder');
  });
});
