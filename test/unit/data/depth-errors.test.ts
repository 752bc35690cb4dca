/**
 * Bad depth and Tardis input: each case fails with one line naming file, line and column, never
 * with a crash or a silently wrong book.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { DataFormatError } from '../../../src/data/data-format-error.ts';
import { readDepth } from '../../../src/data/read-depth.ts';
import { readTrades } from '../../../src/data/read-trades.ts';
import type { DepthKind } from '../../../src/data/depth-kinds.ts';
import { collect, lines, rejection, SCALE8, tempDir, writeDump } from './helpers.ts';

const L2_HEADER = 'exchange,symbol,timestamp,local_timestamp,is_snapshot,side,price,amount';
const L2_FILE = 'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv';
const GOOD = 'binance,BTCUSDT,1704067200100000,1704067200100500,true,bid,42000,1';

/** The error reading `name` (holding `text`) as `kind` rejects with; its message must be one line. */
async function depthError(name: string, text: string, kind: DepthKind = 'tardis:incremental_book_L2'): Promise<{ error: DataFormatError; path: string }> {
  const dir = await tempDir();
  const path = await writeDump(dir, name, text);
  const error = await rejection(collect(readDepth(path, { scale: SCALE8, kind })));
  expect(error).toBeInstanceOf(DataFormatError);
  expect(error.message).not.toContain('\n');
  return { error: error as DataFormatError, path };
}

/** The message of an incremental_book_L2 file whose third line is `bad`. */
async function l2Message(bad: string): Promise<string> {
  const { error, path } = await depthError(L2_FILE, lines(L2_HEADER, GOOD, bad));
  return error.message.replace(path, 'FILE');
}

describe('bad rows', () => {
  it('a symbol or exchange other than the file name says', async () => {
    expect(await l2Message('binance,ETHUSDT,1704067200200000,1704067200200500,false,bid,42000,1')).toBe('FILE:3: column 2 (symbol): "ETHUSDT" is not BTCUSDT, as the file name says');
    expect(await l2Message('binance-futures,BTCUSDT,1704067200200000,1704067200200500,false,bid,42000,1')).toBe(
      'FILE:3: column 1 (exchange): "binance-futures" is not binance, as the file name says',
    );
  });

  it('time running backwards more than 1 s, within a file and across the files of a read (a smaller step is restamped: tardis-restamp.test.ts)', async () => {
    expect(await l2Message('binance,BTCUSDT,1704067199000000,1704067200200500,false,bid,42000,1')).toBe(
      'FILE:3: column 3 (timestamp): 2023-12-31T23:59:59.000000Z is before 2024-01-01T00:00:00.100000Z of the previous row: time must not run backwards by more than 1 s (are the files in order?)',
    );
    const dir = await tempDir();
    const first = await writeDump(dir, L2_FILE, lines(L2_HEADER, 'binance,BTCUSDT,1704153601000001,1704153601000001,true,bid,42000,1'));
    const second = await writeDump(dir, 'binance_incremental_book_L2_2024-01-02_BTCUSDT.csv', lines(L2_HEADER, 'binance,BTCUSDT,1704153600000000,1704153601000001,true,bid,42000,1'));
    const error = await rejection(collect(readDepth(dir, { scale: SCALE8, kind: 'tardis:incremental_book_L2' })));
    expect(error.message).toBe(
      `${second}:2: column 3 (timestamp): 2024-01-02T00:00:00.000000Z is before 2024-01-02T00:00:01.000001Z of the last row of ${first}: time must not run backwards by more than 1 s (are the files in order?)`,
    );
  });

  it('words and numbers a row cannot have', async () => {
    expect(await l2Message('binance,BTCUSDT,1704067200200000,1704067200200500,false,buy,42000,1')).toBe('FILE:3: column 6 (side): "buy" is not bid or ask');
    expect(await l2Message('binance,BTCUSDT,1704067200200000,1704067200200500,True,bid,42000,1')).toBe('FILE:3: column 5 (is_snapshot): "True" is not false or true');
    expect(await l2Message('binance,BTCUSDT,1704067200200000,1704067200200500,false,bid,42000,-1')).toBe('FILE:3: column 8 (amount): "-1" is negative');
    expect(await l2Message('binance,BTCUSDT,1704067200200000,1704067200200500,false,bid,n/a,1')).toBe('FILE:3: column 7 (price): "n/a" is not a decimal');
    expect(await l2Message('binance,BTCUSDT,1704067200200000,1704067200200500,false,bid,42000,0.000000001')).toBe('FILE:3: column 8 (amount): "0.000000001" has more than 8 decimals');
    expect(await l2Message('binance,BTCUSDT,1704067200200000,1704067200200500,false,bid,42000')).toBe('FILE:3: column 8 (amount) is missing: the row has 7 columns, a tardis incremental_book_L2 row has 8');
    expect(await l2Message('binance,BTCUSDT,1704067200200,1704067200200500,false,bid,42000,1')).toBe(
      "FILE:3: column 3 (timestamp): 1704067200200 is in milliseconds but this file's first row is in microseconds",
    );
  });

  it('another kind of file read as this one: its header says so', async () => {
    const { error, path } = await depthError(L2_FILE, lines('exchange,symbol,timestamp,local_timestamp,id,side,price,amount', 'binance,BTCUSDT,1704067200100000,1704067200100500,1,buy,42000,1'));
    expect(error.message).toBe(`${path}:1: header column 5 is "id" where a tardis incremental_book_L2 file has "is_snapshot"`);
  });

  it('an empty file, a header alone', async () => {
    const { error, path } = await depthError(L2_FILE, lines(L2_HEADER));
    expect(error.message).toBe(`${path}: no rows: an empty tardis incremental_book_L2 file`);
  });

  it('snapshot levels: a price without its amount, levels out of order', async () => {
    const header = ['exchange,symbol,timestamp,local_timestamp', ...Array.from({ length: 5 }, (_, i) => `asks[${i}].price,asks[${i}].amount,bids[${i}].price,bids[${i}].amount`)].join(',');
    const name = 'binance_book_snapshot_5_2024-01-01_BTCUSDT.csv';
    const missing = await depthError(name, lines(header, `binance,BTCUSDT,1704067200010000,1704067200010500,42000.02,,42000.01,2${',,,,'.repeat(4)}`), 'tardis:book_snapshot_5');
    expect(missing.error.message).toBe(`${missing.path}:2: column 6 (asks[0].amount): empty, but the level has a price 42000.02`);
    const crossed = await depthError(name, lines(header, `binance,BTCUSDT,1704067200010000,1704067200010500,42000.02,1,42000.01,2,42000.01,1,42000,1${',,,,'.repeat(3)}`), 'tardis:book_snapshot_5');
    expect(crossed.error.message).toBe(`${crossed.path}:2: column 9 (asks[1].price): 42000.01 is not above 42000.02 in column 5: levels must go away from the best`);
  });

  it('a quote side with a price and no size', async () => {
    const { error, path } = await depthError(
      'binance_book_ticker_2024-01-01_BTCUSDT.csv',
      lines('exchange,symbol,timestamp,local_timestamp,ask_amount,ask_price,bid_price,bid_amount', 'binance,BTCUSDT,1704067200001000,1704067200001500,0.5,42000.02,42000.01,'),
      'tardis:book_ticker',
    );
    expect(error.message).toBe(`${path}:2: column 8 (bid_amount): empty, but the bid has a price 42000.01`);
  });

  it('a trade side other than buy or sell', async () => {
    const dir = await tempDir();
    const path = await writeDump(dir, 'binance_trades_2024-01-01_BTCUSDT.csv', lines('exchange,symbol,timestamp,local_timestamp,id,side,price,amount', 'binance,BTCUSDT,1704067200123456,1704067200124000,1,unknown,1,1'));
    expect((await rejection(collect(readTrades(path, { scale: SCALE8 })))).message).toBe(`${path}:2: column 6 (side): "unknown" is not buy or sell`);
  });
});

describe('broken files', () => {
  it('a truncated gzip names the file', async () => {
    const dir = await tempDir();
    const rows = Array.from({ length: 2000 }, (_, i) => `binance,BTCUSDT,${1704067200100000 + i},${1704067200100000 + i},true,bid,${42000 + i},1`);
    const path = await writeDump(dir, `${L2_FILE}.gz`, lines(L2_HEADER, ...rows));
    const whole = await readFile(path);
    await writeFile(path, whole.subarray(0, whole.length - 40));
    const error = await rejection(collect(readDepth(path, { scale: SCALE8, kind: 'tardis:incremental_book_L2' })));
    expect(error.message).toBe(`${path}: corrupt or truncated gzip: unexpected end of file`);
  });

  it('a file that is not gzip at all', async () => {
    const dir = await tempDir();
    const path = `${dir}/${L2_FILE}.gz`;
    await writeFile(path, lines(L2_HEADER, GOOD));
    const error = await rejection(collect(readDepth(path, { scale: SCALE8, kind: 'tardis:incremental_book_L2' })));
    expect(error.message).toBe(`${path}: corrupt or truncated gzip: incorrect header check`);
  });
});
