/** Trades and the L1 book from hand-written recordings, and the recording file names. */
import { describe, expect, it } from 'vitest';
import { compareRecordingFileNames, formatRecordingFileName, parseRecordingFileName, readRecordingBookTicker, readRecordingTrades, type RecordingGap } from '../../../../src/data/index.ts';
import { at, B, bookTicker, collect, messages, note, recordingFile, SCALE, trade } from './recording-fixture.ts';

const us = (ms: number) => ms * 1000;

describe('readRecordingTrades', () => {
  it('keeps ids, takes T as the time (ms or µs), m as isBuyerMaker, computes the quote quantity, drops duplicates and reports a jump in ids with its cause', async () => {
    const file = recordingFile([
      at(B + 1, trade(B + 1, 100, '42000.01', '0.5', false)),
      at(B + 2, trade(B + 2, 101, '42000.00', '1.25', true)),
      at(B + 2, trade(B + 2, 101, '42000.00', '1.25', true)),
      `${us(B + 3)} ${note('exsim@disconnected', { reason: 'close 1006', planned: false })}`,
      at(B + 9, trade(B + 9, 104, '41999.99', '0.001', false)),
      at(B + 10, trade(us(B + 10) + 7, 105, '1e2', '2', true)),
    ]);
    const gaps: RecordingGap[] = [];
    const batches = await collect(readRecordingTrades([file], { scale: SCALE, onGap: (g) => gaps.push(g) }));
    expect(batches).toHaveLength(1);
    const b = batches[0]!;
    expect(Array.from(b.id)).toEqual([100, 101, 104, 105]);
    expect(Array.from(b.price)).toEqual([4200001, 4200000, 4199999, 10000]);
    expect(Array.from(b.qty)).toEqual([500, 1250, 1, 2000]);
    // floor(price × qty) in quote units: 21000.005 -> 21000.00, 52500.00, 41.99999 -> 41.99, 200.00.
    expect(Array.from(b.quoteQty)).toEqual([2100000, 5250000, 4199, 20000]);
    expect(Array.from(b.time)).toEqual([us(B + 1), us(B + 2), us(B + 9), us(B + 10) + 7]);
    // Bit 0 isBuyerMaker, bit 1 isBestMatch (M).
    expect(Array.from(b.flags)).toEqual([2, 3, 2, 3]);
    expect(gaps).toEqual([{ symbol: 'BTCUSDT', stream: 'trades', from: us(B + 2), to: us(B + 9), why: 'trade ids 102..103 missed (connection lost (close 1006))', at: `${file}:5` }]);
  });

  it('refuses a trade earlier than the one before it, naming the line', async () => {
    const file = recordingFile([at(B + 5, trade(B + 5, 1, '1.00', '1', false)), at(B + 6, trade(B + 4, 2, '1.00', '1', false))]);
    await expect(collect(readRecordingTrades([file], { scale: SCALE }))).rejects.toThrow(`${file}:2: trade 2's time ${us(B + 4)} µs is before the previous trade's (${us(B + 5)} µs)`);
  });

  it('names the line and the field of a bad trade', async () => {
    const file = recordingFile([at(B + 5, trade(B + 5, 1, '1.001', '1', false))]);
    await expect(collect(readRecordingTrades([file], { scale: SCALE }))).rejects.toThrow(`${file}:1: trade "p" is "1.001", not a decimal >= 0 with at most 2 decimals`);
  });
});

describe('readRecordingBookTicker', () => {
  it('turns each quote into a CLEAR message of a bid and an ask on the exchange clock, drops stale ones, and empties the book while disconnected', async () => {
    const file = recordingFile([
      at(B + 100, trade(B + 100, 1, '100.00', '1', false)),
      `${us(B + 120)} ${bookTicker(7, '100.00', '1', '101.00', '2')}`,
      `${us(B + 130)} ${bookTicker(6, '99.00', '1', '101.00', '2')}`,
      `${us(B + 140)} ${bookTicker(9, '100.00', '0.5', '100.50', '0')}`,
      `${us(B + 200)} ${note('exsim@disconnected', { reason: 'ping timeout', planned: false })}`,
      `${us(B + 300)} ${bookTicker(12, '100.00', '0.5', '100.50', '1')}`,
    ]);
    const gaps: RecordingGap[] = [];
    const batches = await collect(readRecordingBookTicker([file], { scale: SCALE, onGap: (g) => gaps.push(g) }));
    expect(messages(batches)).toEqual([
      { time: us(B + 115), clear: true, rows: [['bid', 10000, 1000], ['ask', 10100, 2000]] },
      { time: us(B + 135), clear: true, rows: [['bid', 10000, 500], ['ask', 10050, 0]] },
      { time: us(B + 195), clear: true, rows: [['bid', 0, 0]] },
      { time: us(B + 295), clear: true, rows: [['bid', 10000, 500], ['ask', 10050, 1000]] },
    ]);
    expect(gaps).toEqual([{ symbol: 'BTCUSDT', stream: 'bookTicker', from: us(B + 135), to: us(B + 295), why: 'connection lost (ping timeout)', at: `${file}:5` }]);
  });
});

describe('recording file names', () => {
  it('parse, format and sort by symbol, day and part', () => {
    expect(parseRecordingFileName('exsim_recording_2024-01-01_BTCUSDT.gz')).toEqual({ symbol: 'BTCUSDT', date: '2024-01-01', part: 1, start: B, end: B + 86_400_000 });
    expect(parseRecordingFileName('exsim_recording_2024-01-01_BTCUSDT.3.gz')).toMatchObject({ part: 3 });
    for (const bad of ['exsim_recording_2024-01-01_BTCUSDT.1.gz', 'exsim_recording_2024-02-30_BTCUSDT.gz', 'exsim_recording_2024-01-01_btcusdt.gz', 'BTCUSDT-trades-2024-01-01.zip', 'exsim_recording_2024-01-01_BTCUSDT.csv.gz']) {
      expect(parseRecordingFileName(bad), bad).toBeNull();
    }
    expect(formatRecordingFileName('ETHUSDT', '2024-03-05')).toBe('exsim_recording_2024-03-05_ETHUSDT.gz');
    expect(formatRecordingFileName('ETHUSDT', '2024-03-05', 2)).toBe('exsim_recording_2024-03-05_ETHUSDT.2.gz');
    const names = ['exsim_recording_2024-01-02_BTCUSDT.gz', 'exsim_recording_2024-01-01_BTCUSDT.2.gz', 'exsim_recording_2024-01-01_BTCUSDT.10.gz', 'exsim_recording_2024-01-01_BTCUSDT.gz'];
    expect(names.map((n) => parseRecordingFileName(n)!).sort(compareRecordingFileNames).map((p) => formatRecordingFileName(p.symbol, p.date, p.part))).toEqual([
      'exsim_recording_2024-01-01_BTCUSDT.gz',
      'exsim_recording_2024-01-01_BTCUSDT.2.gz',
      'exsim_recording_2024-01-01_BTCUSDT.10.gz',
      'exsim_recording_2024-01-02_BTCUSDT.gz',
    ]);
  });
});
