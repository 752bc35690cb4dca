/**
 * The local-book recipe over hand-written recordings: buffered events and the snapshot that
 * starts the book, stale events, continuity, a gap and its resynchronisation, snapshots while the
 * book is good, breaks (a lost connection, a stop, a torn file), and the one-line errors.
 */
import { PassThrough } from 'node:stream';
import { writeFileSync } from 'node:fs';
import { createGzip, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readRecordingDepth, type LocalBookCounts, type RecordingGap } from '../../../../src/data/index.ts';
import { at, B, collect, diff, messages, note, recordingFile, SCALE, snapshot } from './recording-fixture.ts';

const us = (ms: number) => ms * 1000;

async function read(files: string[], batchSize?: number) {
  const gaps: RecordingGap[] = [];
  const warnings: string[] = [];
  const ids: (number | null)[] = [];
  let counts: LocalBookCounts | undefined;
  const batches = await collect(
    readRecordingDepth(files, { scale: SCALE, onGap: (g) => gaps.push(g), onWarning: (w) => warnings.push(w), onCounts: (c) => (counts = c), onMessage: (id) => ids.push(id), ...(batchSize === undefined ? {} : { batchSize }) }),
  );
  return { batches, messages: messages(batches), ids, gaps, warnings, counts };
}

describe('readRecordingDepth', () => {
  it('starts the book at a snapshot: buffered events at or below lastUpdateId dropped, the first applied one spanning it, later stale events dropped', async () => {
    const file = recordingFile([
      at(B + 100, diff(B + 100, 95, 100, [['100.00', '1']])),
      at(B + 200, diff(B + 200, 101, 105, [['100.00', '2']], [['101.00', '3']])),
      `${us(B + 250)} ${snapshot(103, [['100.00', '1.5'], ['99.50', '4']], [['101.00', '1']])}`,
      at(B + 300, diff(B + 300, 106, 108, [], [['101.00', '0']])),
      at(B + 400, diff(B + 400, 104, 108, [['100.00', '9']])),
      at(B + 500, diff(B + 500, 109, 109, [['99.50', '0']])),
    ]);
    const { messages: m, gaps, counts } = await read([file]);
    expect(m).toEqual([
      // The snapshot at its receive time less the 5 ms the diffs before it took to arrive.
      { time: us(B + 245), clear: true, rows: [['bid', 10000, 1500], ['bid', 9950, 4000], ['ask', 10100, 1000]] },
      // The buffered event 101..105, raised to the snapshot's time (output time never goes back).
      { time: us(B + 245), clear: false, rows: [['bid', 10000, 2000], ['ask', 10100, 3000]] },
      { time: us(B + 300), clear: false, rows: [['ask', 10100, 0]] },
      { time: us(B + 500), clear: false, rows: [['bid', 9950, 0]] },
    ]);
    expect(gaps).toEqual([]);
    expect(counts).toEqual({ applied: 3, stale: 2, snapshotsApplied: 1, snapshotsSkipped: 0, snapshotsTooOld: 0 });
  });

  it('empties the book at a gap in update ids and resynchronises at the next snapshot; the gap runs from the last good event to that snapshot', async () => {
    const file = recordingFile([
      // Before any timed line: held, then put 5 ms earlier like the diffs after it.
      `${us(B + 50)} ${snapshot(10, [['100.00', '1']], [['101.00', '1']])}`,
      at(B + 100, diff(B + 100, 11, 12, [['100.00', '2']])),
      at(B + 200, diff(B + 200, 15, 16, [['100.00', '3']])),
      at(B + 300, diff(B + 300, 17, 18, [['99.00', '1']])),
      `${us(B + 350)} ${snapshot(16, [['100.00', '3'], ['99.00', '5']], [['101.00', '1']])}`,
      at(B + 400, diff(B + 400, 19, 19, [], [['101.00', '2']])),
    ]);
    const { messages: m, ids, gaps } = await read([file]);
    // The book's update id after each message (null: the empty book of the loss).
    expect(ids).toEqual([10, 12, null, 16, 18, 19]);
    expect(m).toEqual([
      { time: us(B + 45), clear: true, rows: [['bid', 10000, 1000], ['ask', 10100, 1000]] },
      { time: us(B + 100), clear: false, rows: [['bid', 10000, 2000]] },
      { time: us(B + 200), clear: true, rows: [['bid', 0, 0]] },
      { time: us(B + 345), clear: true, rows: [['bid', 10000, 3000], ['bid', 9900, 5000], ['ask', 10100, 1000]] },
      { time: us(B + 345), clear: false, rows: [['bid', 9900, 1000]] },
      { time: us(B + 400), clear: false, rows: [['ask', 10100, 2000]] },
    ]);
    expect(gaps).toEqual([{ symbol: 'BTCUSDT', stream: 'depth', from: us(B + 100), to: us(B + 345), why: 'depth update ids 13..14 missed', at: `${file}:3` }]);
  });

  it('passes over a snapshot older than what the buffered events continue from, and starts at the next', async () => {
    const file = recordingFile([
      at(B + 100, diff(B + 100, 20, 25, [['100.00', '1']])),
      `${us(B + 150)} ${snapshot(10, [['100.00', '8']], [])}`,
      at(B + 200, diff(B + 200, 26, 27, [['100.00', '2']])),
      `${us(B + 250)} ${snapshot(22, [['100.00', '1.5']], [])}`,
    ]);
    const { messages: m, gaps, counts } = await read([file]);
    expect(m).toEqual([
      { time: us(B + 245), clear: true, rows: [['bid', 10000, 1500]] },
      { time: us(B + 245), clear: false, rows: [['bid', 10000, 1000]] },
      { time: us(B + 245), clear: false, rows: [['bid', 10000, 2000]] },
    ]);
    expect(gaps).toEqual([]);
    expect(counts).toMatchObject({ applied: 2, snapshotsApplied: 1, snapshotsTooOld: 1 });
  });

  it('shows a snapshot with nothing buffered at once, and empties the book again when the next event shows it was too old; after a loss the gap runs on to the snapshot that holds', async () => {
    const start = recordingFile([
      `${us(B + 50)} ${snapshot(3, [['100.00', '1']], [])}`,
      at(B + 100, diff(B + 100, 10, 15, [['100.00', '2']])),
      `${us(B + 150)} ${snapshot(12, [['100.00', '3']], [])}`,
    ]);
    const first = await read([start]);
    expect(first.ids).toEqual([3, null, 12, 15]);
    expect(first.gaps).toEqual([]);
    expect(first.counts).toMatchObject({ snapshotsApplied: 2, snapshotsTooOld: 1 });
    const later = recordingFile([
      `${us(B + 50)} ${snapshot(3, [['100.00', '1']], [])}`,
      at(B + 100, diff(B + 100, 4, 5, [])),
      at(B + 200, diff(B + 200, 8, 9, [['100.00', '2']])),
      `${us(B + 250)} ${snapshot(7, [['100.00', '3']], [])}`,
      at(B + 300, diff(B + 300, 20, 21, [['100.00', '4']])),
      `${us(B + 350)} ${snapshot(21, [['100.00', '5']], [])}`,
      at(B + 400, diff(B + 400, 22, 22, [['100.00', '6']])),
    ]);
    const second = await read([later]);
    // 3; 4..5 confirms it (an event without levels writes no message); 8..9 shows a gap; the
    // snapshot at 7 resynchronises with 8..9 buffered; 20..21 shows another gap; 21 and 22 hold.
    expect(second.ids).toEqual([3, null, 7, 9, null, 21, 22]);
    expect(second.gaps).toEqual([
      { symbol: 'BTCUSDT', stream: 'depth', from: us(B + 100), to: us(B + 245), why: 'depth update ids 6..7 missed', at: `${later}:3` },
      { symbol: 'BTCUSDT', stream: 'depth', from: us(B + 245), to: us(B + 345), why: 'depth update ids 10..19 missed', at: `${later}:5` },
    ]);
  });

  it('runs a gap on past a resynchronising snapshot the stream shows too old, to the one that holds', async () => {
    const file = recordingFile([
      `${us(B + 50)} ${snapshot(3, [['100.00', '1']], [])}`,
      at(B + 100, diff(B + 100, 4, 4, [['100.00', '2']])),
      `${us(B + 150)} ${note('exsim@disconnected', { reason: 'close 1006', planned: false })}`,
      `${us(B + 200)} ${snapshot(6, [['100.00', '3']], [])}`,
      at(B + 300, diff(B + 300, 9, 9, [['100.00', '4']])),
      `${us(B + 350)} ${snapshot(9, [['100.00', '5']], [])}`,
      at(B + 400, diff(B + 400, 10, 10, [['100.00', '6']])),
    ]);
    const { ids, gaps, counts } = await read([file]);
    expect(ids).toEqual([3, 4, null, 6, null, 9, 10]);
    expect(gaps).toEqual([{ symbol: 'BTCUSDT', stream: 'depth', from: us(B + 100), to: us(B + 345), why: 'connection lost (close 1006)', at: `${file}:3` }]);
    expect(counts).toMatchObject({ snapshotsApplied: 3, snapshotsTooOld: 1 });
  });

  it('while the book is good, skips a snapshot at or behind it and lets a newer one replace it', async () => {
    const file = recordingFile([
      at(B + 100, diff(B + 100, 1, 5, [['100.00', '1']])),
      `${us(B + 120)} ${snapshot(5, [['100.00', '1']], [['101.00', '2']])}`,
      at(B + 200, diff(B + 200, 6, 8, [['100.00', '2']])),
      `${us(B + 220)} ${snapshot(7, [['100.00', '7']], [])}`,
      `${us(B + 240)} ${snapshot(12, [['100.00', '3']], [['102.00', '1']])}`,
      at(B + 300, diff(B + 300, 9, 12, [['100.00', '9']])),
      at(B + 400, diff(B + 400, 13, 13, [], [['102.00', '0']])),
    ]);
    const { messages: m, counts } = await read([file]);
    expect(m).toEqual([
      { time: us(B + 115), clear: true, rows: [['bid', 10000, 1000], ['ask', 10100, 2000]] },
      { time: us(B + 200), clear: false, rows: [['bid', 10000, 2000]] },
      { time: us(B + 235), clear: true, rows: [['bid', 10000, 3000], ['ask', 10200, 1000]] },
      { time: us(B + 400), clear: false, rows: [['ask', 10200, 0]] },
    ]);
    expect(counts).toEqual({ applied: 2, stale: 2, snapshotsApplied: 2, snapshotsSkipped: 1, snapshotsTooOld: 0 });
  });

  it('empties the book when the connection is lost and resynchronises at the snapshot after the reconnect; a planned handover is no break', async () => {
    const file = recordingFile([
      `${us(B + 50)} ${snapshot(10, [['100.00', '1']], [])}`,
      at(B + 100, diff(B + 100, 11, 11, [['100.00', '2']])),
      `${us(B + 150)} ${note('exsim@disconnected', { reason: 'scheduled reconnect', planned: true })}`,
      at(B + 200, diff(B + 200, 12, 12, [['100.00', '3']])),
      `${us(B + 300)} ${note('exsim@disconnected', { reason: 'close 1006', planned: false })}`,
      `${us(B + 900)} ${note('exsim@connected', { url: 'ws://127.0.0.1/stream', attempt: 1 })}`,
      at(B + 1000, diff(B + 1000, 20, 21, [['100.00', '4']])),
      `${us(B + 1050)} ${snapshot(20, [['100.00', '5']], [])}`,
    ]);
    const { messages: m, gaps } = await read([file]);
    expect(m).toEqual([
      { time: us(B + 45), clear: true, rows: [['bid', 10000, 1000]] },
      { time: us(B + 100), clear: false, rows: [['bid', 10000, 2000]] },
      { time: us(B + 200), clear: false, rows: [['bid', 10000, 3000]] },
      { time: us(B + 295), clear: true, rows: [['bid', 0, 0]] },
      { time: us(B + 1045), clear: true, rows: [['bid', 10000, 5000]] },
      { time: us(B + 1045), clear: false, rows: [['bid', 10000, 4000]] },
    ]);
    expect(gaps).toEqual([{ symbol: 'BTCUSDT', stream: 'depth', from: us(B + 200), to: us(B + 1045), why: 'connection lost (close 1006)', at: `${file}:5` }]);
  });

  it('reads files in the order given, one book across them; a stop followed by a new run is a gap, a stop at the very end is not', async () => {
    const first = recordingFile([
      `${us(B + 50)} ${snapshot(10, [['100.00', '1']], [])}`,
      at(B + 100, diff(B + 100, 11, 11, [['100.00', '2']])),
      `${us(B + 150)} ${note('exsim@stopped', { reason: 'SIGINT' })}`,
    ]);
    const alone = await read([first]);
    expect(alone.gaps).toEqual([]);
    expect(alone.messages.at(-1)).toEqual({ time: us(B + 145), clear: true, rows: [['bid', 0, 0]] });
    const second = recordingFile(
      [
        `${us(B + 5000)} ${note('exsim@started', { symbols: ['BTCUSDT'] })}`,
        at(B + 5100, diff(B + 5100, 30, 31, [['100.00', '3']])),
        `${us(B + 5150)} ${snapshot(30, [['100.00', '4']], [])}`,
      ],
      'exsim_recording_2024-01-01_BTCUSDT.2.gz',
    );
    const both = await read([first, second]);
    expect(both.messages.slice(3)).toEqual([
      { time: us(B + 5145), clear: true, rows: [['bid', 10000, 4000]] },
      { time: us(B + 5145), clear: false, rows: [['bid', 10000, 3000]] },
    ]);
    expect(both.gaps).toEqual([{ symbol: 'BTCUSDT', stream: 'depth', from: us(B + 100), to: us(B + 5145), why: 'the recorder stopped', at: `${first}:3` }]);
  });

  it('reports a loss never resynchronised, and a recording with no usable snapshot', async () => {
    const lost = recordingFile([`${us(B + 50)} ${snapshot(10, [['100.00', '1']], [])}`, at(B + 100, diff(B + 100, 11, 11, [])), at(B + 200, diff(B + 200, 13, 13, [])), at(B + 300, diff(B + 300, 14, 14, []))]);
    expect((await read([lost])).gaps).toEqual([
      { symbol: 'BTCUSDT', stream: 'depth', from: us(B + 100), to: us(B + 300), why: 'depth update id 12 missed; not resynchronised before the recording ends', at: `${lost}:3` },
    ]);
    const none = recordingFile([at(B + 100, diff(B + 100, 11, 11, [['100.00', '1']])), at(B + 200, diff(B + 200, 12, 12, []))]);
    const read2 = await read([none]);
    expect(read2.messages).toEqual([]);
    expect(read2.gaps).toEqual([{ symbol: 'BTCUSDT', stream: 'depth', from: us(B + 100), to: us(B + 200), why: 'no usable depth snapshot: the book was never built', at: `${none}:1` }]);
  });

  it('cuts batches between messages only', async () => {
    const file = recordingFile([
      `${us(B + 50)} ${snapshot(10, [['100.00', '1'], ['99.00', '1']], [['101.00', '1']])}`,
      at(B + 100, diff(B + 100, 11, 11, [['100.00', '2']])),
      at(B + 200, diff(B + 200, 12, 12, [['100.00', '3']], [['101.00', '3']])),
    ]);
    const { batches } = await read([file], 2);
    expect(batches.map((b) => b.length)).toEqual([3, 3]);
  });

  it('reads the complete lines of a torn gzip file, warns naming it, and empties the book where its data ends', async () => {
    const lines = [`${us(B + 50)} ${snapshot(10, [['100.00', '1']], [])}`, at(B + 100, diff(B + 100, 11, 11, [['100.00', '2']])), at(B + 200, diff(B + 200, 12, 12, [['100.00', '3']]))];
    // A recorder's file as it stands mid-run: everything up to a sync flush, then half a line.
    const gzip = createGzip();
    const parts: Buffer[] = [];
    gzip.pipe(new PassThrough()).on('data', (c: Buffer) => parts.push(c));
    gzip.write(lines.map((l) => `${l}\n`).join(''));
    await new Promise<void>((r) => gzip.flush(constants.Z_SYNC_FLUSH, () => r()));
    gzip.write(at(B + 300, diff(B + 300, 13, 13, [])).slice(0, 40));
    await new Promise<void>((r) => gzip.flush(constants.Z_SYNC_FLUSH, () => r()));
    await new Promise((r) => setImmediate(r));
    const file = recordingFile([]);
    writeFileSync(file, Buffer.concat(parts));
    const { messages: m, warnings, gaps } = await read([file]);
    expect(warnings).toEqual([`${file}: the gzip data ends early (a file still being written, or a killed recorder): read 3 complete lines, dropped a torn last line (40 characters)`]);
    expect(m).toEqual([
      { time: us(B + 45), clear: true, rows: [['bid', 10000, 1000]] },
      { time: us(B + 100), clear: false, rows: [['bid', 10000, 2000]] },
      { time: us(B + 200), clear: false, rows: [['bid', 10000, 3000]] },
      { time: us(B + 200), clear: true, rows: [['bid', 0, 0]] },
    ]);
    expect(gaps).toEqual([]);
  });
});

describe('recording errors name file and line', () => {
  const fails = (lines: string[]) => {
    const file = recordingFile(lines);
    return { file, read: read([file]) };
  };

  it('a line without a receive time', async () => {
    const { file, read: r } = fails(['hello world']);
    await expect(r).rejects.toThrow(`${file}:1: expected "<receive time, µs> <message>", the line starts "hello world"`);
  });

  it('a message that is not JSON', async () => {
    const { file, read: r } = fails([at(B + 100, diff(B + 100, 1, 1, [])), `${us(B + 200)} {"stream":"btcusdt@depth@100ms","data":{"U":1,`]);
    await expect(r).rejects.toThrow(new RegExp(`^${file.replace(/[.]/g, '\\.')}:2: the message is not JSON \\(`));
  });

  it('a diff event without its last update id', async () => {
    const { file, read: r } = fails([`${us(B + 100)} {"stream":"btcusdt@depth@100ms","data":{"e":"depthUpdate","E":${B + 100},"U":1,"b":[],"a":[]}}`]);
    await expect(r).rejects.toThrow(`${file}:1: depthUpdate "u" is missing`);
  });

  it('a price with more decimals than the quote asset has', async () => {
    const { file, read: r } = fails([`${us(B + 50)} ${snapshot(10, [], [])}`, at(B + 100, diff(B + 100, 11, 11, [['100.001', '1']]))]);
    await expect(r).rejects.toThrow(`${file}:2: "b"[0]: price "100.001" is not a decimal >= 0 with at most 2 decimals`);
  });

  it('a level that is not a pair of strings', async () => {
    const { file, read: r } = fails([`${us(B + 50)} ${snapshot(10, [['100.00', '1']], [])}`.replace('"1"]', '1]')]);
    await expect(r).rejects.toThrow(`${file}:1: "bids"[0] is ["100.00",1], not a ["price", "quantity"] pair`);
  });

  it("another symbol's stream in the file", async () => {
    const { file, read: r } = fails([at(B + 100, diff(B + 100, 1, 1, [])), at(B + 200, diff(B + 200, 2, 2, []).replace('btcusdt@', 'ethusdt@'))]);
    await expect(r).rejects.toThrow(`${file}:2: a recording file holds one symbol's streams: "ethusdt@depth@100ms" is not BTCUSDT's`);
  });

  it('a file not named as a recording, without a symbol', async () => {
    const file = recordingFile([], 'capture.gz');
    await expect(collect(readRecordingDepth([file], { scale: SCALE }))).rejects.toThrow(`${file}: not named as a recording (exsim_recording_<YYYY-MM-DD>_<SYMBOL>.gz): name the symbol`);
  });
});
