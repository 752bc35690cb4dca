/**
 * Tardis files are ordered by receive time (`local_timestamp`), so the exchange `timestamp` of a
 * row can be a little earlier than the one before it: up to 1 s back the row is restamped to the
 * previous time and counted; further back is a one-line error naming file and line. Binance's
 * dumps stay strict.
 */
import { describe, expect, it } from 'vitest';
import { inspectDataFolder, openMarketData, readDepth, readTrades, windowedDepth, windowedTape, emptyReadNotes } from '../../../src/data/index.ts';
import { collect, lines, rejection, SCALE8, tempDir, tradesOf, writeDump } from './helpers.ts';
import { messages } from './recording/recording-fixture.ts';

const T = 1_704_067_200_000_000; // 2024-01-01 µs
const L2_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
const TRADES_HEADER = 'exchange,symbol,timestamp,local_timestamp,id,side,price,amount';
const P = 100_000_000;

/** A snapshot at 0.1 s, an update at 0.6 s, then a message of two rows stamped 0.5 s before it (received after it), then one at 0.7 s. */
const L2 = lines(
  L2_HEADER,
  `binance,BTCUSDT,${T + 100_000},${T + 100_100},true,bid,100,1`,
  `binance,BTCUSDT,${T + 100_000},${T + 100_100},true,ask,101,1`,
  `binance,BTCUSDT,${T + 600_000},${T + 600_100},false,bid,100,2`,
  `binance,BTCUSDT,${T + 100_000},${T + 600_200},false,ask,101,3`,
  `binance,BTCUSDT,${T + 100_000},${T + 600_200},false,ask,102,4`,
  `binance,BTCUSDT,${T + 700_000},${T + 700_100},false,bid,99,5`,
);

const TRADES = lines(
  TRADES_HEADER,
  `binance,BTCUSDT,${T + 600_000},${T + 600_100},1,buy,100,1`,
  `binance,BTCUSDT,${T + 100_000},${T + 600_200},2,sell,100,2`,
  `binance,BTCUSDT,${T + 700_000},${T + 700_100},3,buy,101,1`,
);

describe('a Tardis timestamp up to 1 s before the previous row', () => {
  it('incremental_book_L2: the message is restamped to the previous time and its rows counted', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv', L2);
    const depth = readDepth(path, { scale: SCALE8, kind: 'tardis:incremental_book_L2' });
    expect(messages(await collect(depth))).toEqual([
      { time: T + 100_000, clear: true, rows: [['bid', 100 * P, P], ['ask', 101 * P, P]] },
      { time: T + 600_000, clear: false, rows: [['bid', 100 * P, 2 * P]] },
      // Its own message still (another local_timestamp), at the time of the one before.
      { time: T + 600_000, clear: false, rows: [['ask', 101 * P, 3 * P], ['ask', 102 * P, 4 * P]] },
      { time: T + 700_000, clear: false, rows: [['bid', 99 * P, 5 * P]] },
    ]);
    expect(depth.notes.restampedRows).toBe(2);
    expect(depth.skippedUpdates).toBe(0);
  });

  it('trades: the trade is restamped and counted', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'binance_trades_2024-01-01_BTCUSDT.csv', TRADES);
    const notes = emptyReadNotes();
    const trades = tradesOf(await collect(readTrades(path, { scale: SCALE8, notes })));
    expect(trades.map((t) => [t.id, t.time])).toEqual([
      [1, T + 600_000],
      [2, T + 600_000],
      [3, T + 700_000],
    ]);
    expect(notes.restampedRows).toBe(1);
  });

  it("a market folder's windowed tape and depth carry the counts on their notes", async () => {
    const dir = await tempDir();
    await writeDump(dir, 'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz', L2);
    await writeDump(dir, 'binance_trades_2024-01-01_BTCUSDT.csv.gz', TRADES);
    const data = openMarketData(dir);
    const tape = await windowedTape(data, 'BTCUSDT', T, T + 1_000_000);
    expect(tradesOf(await collect(tape.trades as AsyncIterable<never>)).map((t) => t.time)).toEqual([T + 600_000, T + 600_000, T + 700_000]);
    expect(tape.notes).toEqual({ gaps: [], warnings: [], restampedRows: 1 });
    expect(tape.venueIds).toBe(true);
    const stream = (await windowedDepth(data, 'BTCUSDT', T, T + 1_000_000))!.open();
    expect((await collect(stream)).reduce((n, b) => n + b.length, 0)).toBe(6);
    expect(stream.notes).toEqual({ gaps: [], warnings: [], restampedRows: 2 });
    // Each read starts its notes afresh.
    await collect(stream);
    expect(stream.notes.restampedRows).toBe(2);
  });

  it('exsim data inspect counts them per file and sees no problem', async () => {
    const dir = await tempDir();
    await writeDump(dir, 'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz', L2);
    // The next day's first message stamped 0.5 s before the last of the day before: no overlap either.
    await writeDump(dir, 'binance_incremental_book_L2_2024-01-02_BTCUSDT.csv.gz', lines(L2_HEADER, `binance,BTCUSDT,${T + 200_000},${T + 86_400_000_100},true,bid,100,1`));
    const report = await inspectDataFolder(dir);
    expect(report.series.map((s) => [s.kind, s.problems, s.files.map((f) => f.restampedRows)])).toEqual([['tardis:incremental_book_L2', [], [2, 0]]]);
  });
});

describe('further back than 1 s', () => {
  it('is an error naming file and line (Tardis)', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'binance_trades_2024-01-01_BTCUSDT.csv', lines(TRADES_HEADER, `binance,BTCUSDT,${T + 2_100_000},${T + 2_100_100},1,buy,100,1`, `binance,BTCUSDT,${T + 100_000},${T + 2_100_200},2,sell,100,2`));
    const error = await rejection(collect(readTrades(path, { scale: SCALE8 })));
    expect(error.message).toBe(
      `${path}:3: column 3 (timestamp): 2024-01-01T00:00:00.100000Z is before 2024-01-01T00:00:02.100000Z of the previous row: time must not run backwards by more than 1 s (are the files in order?)`,
    );
  });

  it('Binance dumps stay strict: 1 ms back is an error', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'BTCUSDT-bookTicker-2024-01-01.csv', lines('update_id,best_bid_price,best_bid_qty,best_ask_price,best_ask_qty,transaction_time,event_time', '1,100,1,101,1,1704067200100,1704067200101', '2,100,1,101,1,1704067200099,1704067200102'));
    const error = await rejection(collect(readDepth(path, { scale: SCALE8, kind: 'bookTicker' })));
    expect(error.message).toBe(`${path}:3: column 6 (transaction_time): 2024-01-01T00:00:00.099000Z is before 2024-01-01T00:00:00.100000Z of the previous row: time must not run backwards (are the files in order?)`);
  });
});
