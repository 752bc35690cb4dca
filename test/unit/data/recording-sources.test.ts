/**
 * exsim recordings as a data kind of market folders: their names beside Binance's and Tardis's,
 * their rank as a prints source and as a depth source, their parts in read order, the fingerprint,
 * and a folder holding only a recording read as a replay reads it: trades with the venue's ids,
 * the L2 book by the local-book recipe, the gaps found touching the window.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintData, formatRecordingFileName, openMarketData, parseDataFileName, readRecordingDepth, symbolFiles, windowedDepth, windowedTape, type RecordingGap } from '../../../src/data/index.ts';
import { depthFiles } from '../../../src/data/depth-sources.ts';
import { depthInWindow } from '../../../src/data/depth-window.ts';
import { sourceFiles } from '../../../src/data/tape-sources.ts';
import { collect, tempDir, tradesOf, writeDump } from './helpers.ts';
import { at, B, bookTicker, diff, messages, note, recordingFile, snapshot, trade } from './recording/recording-fixture.ts';

const DAY1 = B * 1000; // 2024-01-01 µs
const DAY = 86_400_000_000;
const us = (ms: number) => ms * 1000;
/** Prices and sizes at the sample market's 8 decimals. */
const P = 100_000_000;

describe('recording file names', () => {
  it('are a data kind: one UTC day, part 1 unnumbered, later runs numbered', () => {
    expect(parseDataFileName('exsim_recording_2024-01-01_BTCUSDT.gz')).toEqual({
      symbol: 'BTCUSDT',
      kind: 'exsim:recording',
      date: '2024-01-01',
      part: 1,
      period: 'daily',
      start: Date.UTC(2024, 0, 1),
      end: Date.UTC(2024, 0, 2),
      extension: 'gz',
    });
    expect(parseDataFileName(formatRecordingFileName('ETHBTC', '2024-02-29', 3))).toMatchObject({ kind: 'exsim:recording', symbol: 'ETHBTC', part: 3, start: Date.UTC(2024, 1, 29) });
    expect(parseDataFileName('exsim_recording_2024-01-01_BTCUSDT.1.gz')).toBeNull();
    expect(parseDataFileName('exsim_recording_2024-01-01_BTCUSDT.csv.gz')).toBeNull();
  });

  it("a day's parts are read in run order, not name order (part 10 after part 2)", async () => {
    const dir = await tempDir();
    for (const part of [10, 1, 2]) await writeDump(dir, `BTCUSDT/${formatRecordingFileName('BTCUSDT', '2024-01-01', part)}`, '');
    await writeDump(dir, `BTCUSDT/${formatRecordingFileName('BTCUSDT', '2023-12-31')}`, '');
    const files = await symbolFiles(openMarketData(dir), 'BTCUSDT');
    expect(files.map((f) => f.path.slice(dir.length + 1))).toEqual([
      'BTCUSDT/exsim_recording_2023-12-31_BTCUSDT.gz',
      'BTCUSDT/exsim_recording_2024-01-01_BTCUSDT.gz',
      'BTCUSDT/exsim_recording_2024-01-01_BTCUSDT.2.gz',
      'BTCUSDT/exsim_recording_2024-01-01_BTCUSDT.10.gz',
    ]);
  });
});

describe('ranking beside Tardis and Binance files', () => {
  it('prints: Binance trades, Tardis trades, a recording, then aggTrades; only the Tardis and recording ids are the venue\'s', async () => {
    const dir = await tempDir();
    const names = [
      'BTCUSDT-trades-2024-01-01.zip',
      'binance_trades_2024-01-01_BTCUSDT.csv.gz',
      'exsim_recording_2024-01-01_BTCUSDT.gz',
      'binance_trades_2024-01-02_BTCUSDT.csv.gz',
      'exsim_recording_2024-01-02_BTCUSDT.gz',
      'exsim_recording_2024-01-03_BTCUSDT.gz',
      'exsim_recording_2024-01-03_BTCUSDT.2.gz',
      'BTCUSDT-aggTrades-2024-01-03.zip',
      'BTCUSDT-aggTrades-2024-01-04.zip',
    ];
    for (const name of names) await writeDump(dir, name, '');
    const data = openMarketData(dir);
    const pick = async (day: number) => {
      const chosen = await sourceFiles(data, 'BTCUSDT', DAY1 + day * DAY, DAY1 + (day + 1) * DAY);
      return [chosen.source, chosen.kind, chosen.files.map((f) => f.path.slice(dir.length + 1))];
    };
    expect(await pick(0)).toEqual(['trades', 'trades', ['BTCUSDT-trades-2024-01-01.zip']]);
    expect(await pick(1)).toEqual(['trades', 'tardis:trades', ['binance_trades_2024-01-02_BTCUSDT.csv.gz']]);
    expect(await pick(2)).toEqual(['trades', 'exsim:recording', ['exsim_recording_2024-01-03_BTCUSDT.gz', 'exsim_recording_2024-01-03_BTCUSDT.2.gz']]);
    expect(await pick(3)).toEqual(['aggTrades', 'aggTrades', ['BTCUSDT-aggTrades-2024-01-04.zip']]);
    const venueIds = async (day: number) => (await windowedTape(data, 'BTCUSDT', DAY1 + day * DAY, DAY1 + (day + 1) * DAY)).venueIds;
    expect([await venueIds(0), await venueIds(1), await venueIds(2), await venueIds(3)]).toEqual([false, true, true, false]);
  });

  it('depth: Tardis incremental_book_L2, then a recording (L2), then snapshots and quotes', async () => {
    const dir = await tempDir();
    const names = [
      'binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz',
      'exsim_recording_2024-01-01_BTCUSDT.gz',
      'binance_book_snapshot_25_2024-01-01_BTCUSDT.csv.gz',
      'exsim_recording_2024-01-02_BTCUSDT.gz',
      'binance_book_snapshot_25_2024-01-02_BTCUSDT.csv.gz',
      'binance_book_ticker_2024-01-02_BTCUSDT.csv.gz',
      'BTCUSDT-bookTicker-2024-01-02.zip',
      'binance_book_snapshot_5_2024-01-03_BTCUSDT.csv.gz',
    ];
    // A recording ranks by what it holds: these hold diff depth (an empty one would hold no book).
    const l2Line = `${at(B, diff(B, 1, 1, [['100.00', '1']]))}\n`;
    for (const name of names) await writeDump(dir, name, name.startsWith('exsim_recording') ? l2Line : '');
    const data = openMarketData(dir);
    const pick = async (day: number) => {
      const chosen = await depthFiles(data, 'BTCUSDT', DAY1 + day * DAY, DAY1 + (day + 1) * DAY);
      return chosen === null ? null : [chosen.kind, chosen.info, chosen.files.map((f) => f.path.slice(dir.length + 1))];
    };
    expect(await pick(0)).toEqual(['tardis:incremental_book_L2', { granularity: 'L2', label: 'recorded L2 (tardis incremental_book_L2)' }, ['binance_incremental_book_L2_2024-01-01_BTCUSDT.csv.gz']]);
    expect(await pick(1)).toEqual(['exsim:recording', { granularity: 'L2', label: 'recorded L2 (exsim recording)' }, ['exsim_recording_2024-01-02_BTCUSDT.gz']]);
    expect(await pick(2)).toEqual(['tardis:book_snapshot_5', { granularity: 'snapshots', label: 'recorded snapshots (tardis book_snapshot_5)' }, ['binance_book_snapshot_5_2024-01-03_BTCUSDT.csv.gz']]);
  });

  it('a recording ranks by the book it holds: quotes alone are an L1 book, trades alone no book (a coarser file beside it wins)', async () => {
    const dir = await tempDir();
    const quotes = [at(B + 10, bookTicker(1, '100.00', '2.000', '101.00', '3.000')), at(B + 20, trade(B + 20, 7, '100.00', '1', true))];
    const prints = [at(B + 10, trade(B + 10, 7, '100.00', '1', true))];
    await writeDump(dir, 'exsim_recording_2024-01-01_BTCUSDT.gz', quotes.map((l) => `${l}\n`).join(''));
    await writeDump(dir, 'exsim_recording_2024-01-02_BTCUSDT.gz', prints.map((l) => `${l}\n`).join(''));
    await writeDump(dir, 'binance_book_snapshot_5_2024-01-02_BTCUSDT.csv.gz', '');
    await writeDump(dir, 'exsim_recording_2024-01-03_BTCUSDT.gz', prints.map((l) => `${l}\n`).join(''));
    const data = openMarketData(dir);
    const pick = async (day: number) => {
      const chosen = await depthFiles(data, 'BTCUSDT', DAY1 + day * DAY, DAY1 + (day + 1) * DAY);
      return chosen === null ? null : [chosen.kind, chosen.info.label, chosen.files.map((f) => f.path.slice(dir.length + 1))];
    };
    expect(await pick(0)).toEqual(['exsim:recording:bookTicker', 'recorded L1 (exsim recording bookTicker)', ['exsim_recording_2024-01-01_BTCUSDT.gz']]);
    expect(await pick(1)).toEqual(['tardis:book_snapshot_5', 'recorded snapshots (tardis book_snapshot_5)', ['binance_book_snapshot_5_2024-01-02_BTCUSDT.csv.gz']]);
    expect(await pick(2)).toBeNull();
    // The L1 book is the recorded quote: one CLEAR message of the best bid and ask (prices at 8 decimals, sizes at 8).
    const depth = await windowedDepth(data, 'BTCUSDT', DAY1, DAY1 + DAY);
    const read = messages(await collect(depth!.open()));
    expect(read.at(-1)).toEqual({ time: DAY1 + 10_000, clear: true, rows: [['bid', 100 * P, 2 * P], ['ask', 101 * P, 3 * P]] });
  });

  it('the data fingerprint covers the window\'s recordings', async () => {
    const dir = await tempDir();
    for (const name of ['exsim_recording_2024-01-01_BTCUSDT.gz', 'exsim_recording_2024-01-01_BTCUSDT.2.gz', 'exsim_recording_2024-01-02_BTCUSDT.gz', 'exsim_recording_2024-01-01_ETHBTC.gz']) {
      await writeDump(dir, name, 'x\n');
    }
    const fingerprint = await fingerprintData(dir, ['BTCUSDT'], DAY1, DAY1 + DAY);
    expect(fingerprint.files.map((f) => f.name)).toEqual(['exsim_recording_2024-01-01_BTCUSDT.2.gz', 'exsim_recording_2024-01-01_BTCUSDT.gz']);
  });
});

/**
 * A day of BTCUSDT with a lost connection: the book from a snapshot, a diff, two trades; the
 * connection lost (the book emptied; the gap runs from the line before); three trade ids missed; a diff buffered until the snapshot
 * that resynchronises the book; one diff after it.
 */
const RECORDING = [
  `${us(B + 50)} ${snapshot(10, [['100.00', '1']], [['101.00', '2']])}`,
  at(B + 100, diff(B + 100, 11, 12, [['100.00', '3']])),
  at(B + 150, trade(B + 150, 500, '100.00', '0.5', true)),
  at(B + 200, trade(B + 200, 501, '101.00', '1', false)),
  `${us(B + 250)} ${note('exsim@disconnected', { reason: 'close 1006', planned: false })}`,
  at(B + 300, trade(B + 300, 505, '101.00', '0.25', false)),
  at(B + 400, diff(B + 400, 20, 22, [['99.00', '1']])),
  `${us(B + 450)} ${snapshot(21, [['100.00', '2']], [['101.00', '1']])}`,
  at(B + 500, diff(B + 500, 23, 23, [], [['101.00', '0']])),
];

async function recordingFolder(recording: readonly string[] = RECORDING): Promise<{ dir: string; file: string }> {
  const dir = await tempDir();
  await mkdir(join(dir, 'BTCUSDT'));
  return { dir, file: recordingFile(recording, formatRecordingFileName('BTCUSDT', '2024-01-01'), join(dir, 'BTCUSDT')) };
}

describe('a folder holding only a recording', () => {
  it('yields the trades with the venue ids, a trades gap, and the L2 book with its label, depth gap and recipe counts', async () => {
    const { dir, file } = await recordingFolder();
    const data = openMarketData(dir);
    const tape = await windowedTape(data, 'BTCUSDT', DAY1, DAY1 + DAY);
    expect([tape.source, tape.venueIds]).toEqual(['trades', true]);
    expect(tradesOf(await collect(tape.trades as AsyncIterable<never>))).toEqual([
      { id: 500, price: 100 * P, qty: P / 2, quoteQty: 50 * P, time: us(B + 150), isBuyerMaker: true, isBestMatch: true },
      { id: 501, price: 101 * P, qty: P, quoteQty: 101 * P, time: us(B + 200), isBuyerMaker: false, isBestMatch: true },
      { id: 505, price: 101 * P, qty: P / 4, quoteQty: 25.25 * P, time: us(B + 300), isBuyerMaker: false, isBestMatch: true },
    ]);
    expect(tape.notes).toEqual({
      gaps: [{ symbol: 'BTCUSDT', stream: 'trades', from: us(B + 200), to: us(B + 300), why: 'trade ids 502..504 missed (connection lost (close 1006))', at: `${file}:6` }],
      warnings: [],
      restampedRows: 0,
    });

    const depth = await windowedDepth(data, 'BTCUSDT', DAY1, DAY1 + DAY);
    expect(depth).toMatchObject({ symbol: 'BTCUSDT', kind: 'exsim:recording', info: { granularity: 'L2', label: 'recorded L2 (exsim recording)' } });
    const stream = depth!.open();
    expect(messages(await collect(stream))).toEqual([
      // The snapshot on the exchange's clock: its receive time less the 5 ms the diffs took.
      { time: us(B + 45), clear: true, rows: [['bid', 100 * P, P], ['ask', 101 * P, 2 * P]] },
      { time: us(B + 100), clear: false, rows: [['bid', 100 * P, 3 * P]] },
      // The connection lost: an empty book until the snapshot that resynchronises it.
      { time: us(B + 245), clear: true, rows: [['bid', 0, 0]] },
      { time: us(B + 445), clear: true, rows: [['bid', 100 * P, 2 * P], ['ask', 101 * P, P]] },
      { time: us(B + 445), clear: false, rows: [['bid', 99 * P, P]] },
      { time: us(B + 500), clear: false, rows: [['ask', 101 * P, 0]] },
    ]);
    expect(stream.notes).toEqual({
      gaps: [{ symbol: 'BTCUSDT', stream: 'depth', from: us(B + 200), to: us(B + 445), why: 'connection lost (close 1006)', at: `${file}:5` }],
      warnings: [],
      restampedRows: 0,
    });
    expect(stream.bookCounts).toEqual({ applied: 3, stale: 0, snapshotsApplied: 2, snapshotsSkipped: 0, snapshotsTooOld: 0 });
    expect(stream.skippedUpdates).toBe(0);
  });

  it('a window keeps the gaps that touch it and cuts both sides to it', async () => {
    const { dir, file } = await recordingFolder();
    const data = openMarketData(dir);
    const from = us(B + 300);
    const to = us(B + 480);
    const tape = await windowedTape(data, 'BTCUSDT', from, to);
    expect(tradesOf(await collect(tape.trades as AsyncIterable<never>)).map((t) => t.id)).toEqual([505]);
    // The ids missed just before the window's first trade.
    expect(tape.notes.gaps.map((g) => [g.stream, g.from, g.to])).toEqual([['trades', us(B + 200), us(B + 300)]]);
    const stream = (await windowedDepth(data, 'BTCUSDT', from, to))!.open();
    expect(messages(await collect(stream))).toEqual([
      // The book folded up to `from`: empty since the connection was lost.
      { time: us(B + 245), clear: true, rows: [['bid', 0, 0]] },
      { time: us(B + 445), clear: true, rows: [['bid', 100 * P, 2 * P], ['ask', 101 * P, P]] },
      { time: us(B + 445), clear: false, rows: [['bid', 99 * P, P]] },
    ]);
    expect(stream.notes.gaps).toEqual([{ symbol: 'BTCUSDT', stream: 'depth', from: us(B + 200), to: us(B + 445), why: 'connection lost (close 1006)', at: `${file}:5` }]);

    // A window after the data: the book the last message left; the gaps, all mended before it, are not the window's.
    const late = (await windowedDepth(data, 'BTCUSDT', us(B + 600), us(B + 700)))!.open();
    expect(messages(await collect(late))).toEqual([{ time: us(B + 500), clear: true, rows: [['bid', 100 * P, 2 * P], ['bid', 99 * P, P]] }]);
    expect(late.notes.gaps).toEqual([]);
    const lateTape = await windowedTape(data, 'BTCUSDT', us(B + 600), us(B + 700));
    expect(await collect(lateTape.trades as AsyncIterable<never>)).toEqual([]);
    expect(lateTape.notes.gaps).toEqual([]);
  });

  it('a gap open at the window\'s end is reported with its true end, however small the batches', async () => {
    // The resynchronising snapshot has nothing buffered after it: the diff after it confirms it.
    const recording = [...RECORDING.slice(0, 6), RECORDING[7]!, at(B + 500, diff(B + 500, 22, 23, [], [['101.00', '0']]))];
    const { dir, file } = await recordingFolder(recording);
    const from = DAY1;
    const to = us(B + 300);
    const gap: RecordingGap = { symbol: 'BTCUSDT', stream: 'depth', from: us(B + 200), to: us(B + 445), why: 'connection lost (close 1006)', at: `${file}:5` };
    const read = async (until: number | undefined) => {
      const gaps: RecordingGap[] = [];
      const batches = await collect(depthInWindow(readRecordingDepth([file], { scale: { quotePrecision: 8, basePrecision: 8 }, batchSize: 1, until, onGap: (g) => gaps.push(g) }), from, to));
      return { times: messages(batches).map((m) => m.time), gaps };
    };
    // Without `until` the consumer stops at the first batch past the window, before the diff that confirms the snapshot.
    expect(await read(undefined)).toEqual({ times: [us(B + 45), us(B + 100), us(B + 245)], gaps: [] });
    expect(await read(to)).toEqual({ times: [us(B + 45), us(B + 100), us(B + 245)], gaps: [gap] });
    const stream = (await windowedDepth(openMarketData(dir), 'BTCUSDT', from, to))!.open();
    expect(messages(await collect(stream)).map((m) => m.time)).toEqual([us(B + 45), us(B + 100), us(B + 245)]);
    expect(stream.notes.gaps).toEqual([gap]);
  });

  it('a torn file: its complete lines read, a warning on the notes, nothing printed', async () => {
    const { dir, file } = await recordingFolder(RECORDING.slice(0, 4));
    const bytes = readFileSync(file);
    writeFileSync(file, bytes.subarray(0, bytes.length - 12));
    const tape = await windowedTape(openMarketData(dir), 'BTCUSDT', DAY1, DAY1 + DAY);
    const ids = tradesOf(await collect(tape.trades as AsyncIterable<never>)).map((t) => t.id);
    expect(ids.length).toBeLessThanOrEqual(2);
    expect(tape.notes.warnings).toHaveLength(1);
    expect(tape.notes.warnings[0]).toMatch(new RegExp(`^${file.replace(/[.\\/]/g, '\\$&')}: the gzip data ends early`));
  });
});

describe('parts of a day', () => {
  it('read as one recording: a stop ends part 1, part 2 resynchronises at its snapshot; the stretch between is a gap', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'BTCUSDT'));
    const folder = join(dir, 'BTCUSDT');
    recordingFile([...RECORDING.slice(0, 4), `${us(B + 260)} ${note('exsim@stopped', { reason: 'SIGINT' })}`], formatRecordingFileName('BTCUSDT', '2024-01-01'), folder);
    const part2 = recordingFile(
      [`${us(B + 900)} ${note('exsim@started', { symbols: ['BTCUSDT'] })}`, at(B + 1000, diff(B + 1000, 40, 41, [['98.00', '1']])), `${us(B + 1010)} ${snapshot(40, [['98.00', '5']], [])}`, at(B + 1100, trade(B + 1100, 600, '98.00', '1', true))],
      formatRecordingFileName('BTCUSDT', '2024-01-01', 2),
      folder,
    );
    const data = openMarketData(dir);
    const stream = (await windowedDepth(data, 'BTCUSDT', DAY1, DAY1 + DAY))!.open();
    expect(messages(await collect(stream)).map((m) => [m.time, m.clear, m.rows])).toEqual([
      [us(B + 45), true, [['bid', 100 * P, P], ['ask', 101 * P, 2 * P]]],
      [us(B + 100), false, [['bid', 100 * P, 3 * P]]],
      [us(B + 255), true, [['bid', 0, 0]]],
      [us(B + 1005), true, [['bid', 98 * P, 5 * P]]],
      [us(B + 1005), false, [['bid', 98 * P, P]]],
    ]);
    expect(stream.notes.gaps).toEqual([{ symbol: 'BTCUSDT', stream: 'depth', from: us(B + 200), to: us(B + 1005), why: 'the recorder stopped', at: `${join(folder, 'exsim_recording_2024-01-01_BTCUSDT.gz')}:5` }]);
    const tape = await windowedTape(data, 'BTCUSDT', DAY1, DAY1 + DAY);
    expect(tradesOf(await collect(tape.trades as AsyncIterable<never>)).map((t) => t.id)).toEqual([500, 501, 600]);
    expect(tape.notes.gaps).toEqual([{ symbol: 'BTCUSDT', stream: 'trades', from: us(B + 200), to: us(B + 1100), why: 'trade ids 502..599 missed (the recorder stopped)', at: `${part2}:4` }]);
  });
});

describe('days', () => {
  it("the next day's first part continues a recording; a day missing between two files is a gap, the book not carried over it", async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'BTCUSDT'));
    const folder = join(dir, 'BTCUSDT');
    const NEXT = B + 86_400_000;
    recordingFile(RECORDING.slice(0, 2), formatRecordingFileName('BTCUSDT', '2024-01-01'), folder);
    const day2 = recordingFile([at(NEXT + 100, diff(NEXT + 100, 13, 13, [['100.00', '4']]))], formatRecordingFileName('BTCUSDT', '2024-01-02'), folder);
    const data = openMarketData(dir);
    const continued = (await windowedDepth(data, 'BTCUSDT', DAY1, DAY1 + 2 * DAY))!.open();
    expect(messages(await collect(continued)).map((m) => [m.time, m.clear])).toEqual([
      [us(B + 45), true],
      [us(B + 100), false],
      [us(NEXT + 100), false],
    ]);
    expect(continued.notes.gaps).toEqual([]);

    const LATER = B + 3 * 86_400_000;
    recordingFile([`${us(LATER + 10)} ${snapshot(50, [['97.00', '1']], [])}`, at(LATER + 20, diff(LATER + 20, 51, 51, [['97.00', '2']]))], formatRecordingFileName('BTCUSDT', '2024-01-04'), folder);
    const stream = (await windowedDepth(data, 'BTCUSDT', DAY1, DAY1 + 4 * DAY))!.open();
    expect(messages(await collect(stream)).map((m) => [m.time, m.clear, m.rows.length])).toEqual([
      [us(B + 45), true, 2],
      [us(B + 100), false, 1],
      [us(NEXT + 100), false, 1],
      // Day 3 is missing: day 2's book ends with its file.
      [us(NEXT + 100), true, 1],
      [us(LATER + 5), true, 1],
      [us(LATER + 20), false, 1],
    ]);
    expect(stream.notes.gaps).toEqual([
      { symbol: 'BTCUSDT', stream: 'depth', from: us(NEXT + 100), to: us(LATER + 5), why: 'nothing recorded between exsim_recording_2024-01-02_BTCUSDT.gz and exsim_recording_2024-01-04_BTCUSDT.gz', at: `${day2}:2` },
    ]);
  });
});
