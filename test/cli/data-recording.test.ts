/**
 * The data commands on exsim recordings: `data inspect` lists them (days, parts, messages per
 * stream, times, gaps as notes that do not fail the command; a torn end or a malformed line is a
 * problem), `data import` reads them in full, copies them under their symbol and infers the rules
 * of a symbol the market does not know from their prices and sizes.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { inspectCommand } from '../../src/cli/data-commands.ts';
import { importCommand } from '../../src/cli/data-import.ts';
import { collect } from '../unit/data/helpers.ts';
import { formatRecordingFileName, openMarketData, windowedDepth, windowedTape, type DataFolderReport } from '../../src/data/index.ts';

const dirs: string[] = [];
const tmp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'exsim-rec-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** 2024-03-01 in ms. */
const D1 = Date.UTC(2024, 2, 1);
const D3 = Date.UTC(2024, 2, 3);
const us = (ms: number) => ms * 1000;

// SOLUSDT messages in Binance's shapes; every line received 5 ms after its event time.
type Levels = [string, string][];
const envelope = (stream: string, data: unknown) => JSON.stringify({ stream, data });
const diff = (E: number, U: number, u: number, b: Levels, a: Levels = []) => `${us(E) + 5000} ${envelope('solusdt@depth@100ms', { e: 'depthUpdate', E, s: 'SOLUSDT', U, u, b, a })}`;
const trade = (E: number, t: number, p: string, q: string) => `${us(E) + 5000} ${envelope('solusdt@trade', { e: 'trade', E, s: 'SOLUSDT', t, p, q, T: E, m: false, M: true })}`;
const snapshot = (receivedMs: number, lastUpdateId: number, bids: Levels, asks: Levels) => `${us(receivedMs)} ${envelope('solusdt@depthSnapshot', { lastUpdateId, bids, asks })}`;
const quote = (receivedMs: number, u: number, b: string, a: string) => `${us(receivedMs)} ${envelope('solusdt@bookTicker', { u, s: 'SOLUSDT', b, B: '3.5', a, A: '1.25' })}`;
const note = (receivedMs: number, stream: string, data: unknown) => `${us(receivedMs)} ${envelope(stream, data)}`;

function writeRecording(dir: string, date: string, part: number, lines: readonly string[], cut = 0): string {
  const path = join(dir, formatRecordingFileName('SOLUSDT', date, part));
  const bytes = gzipSync(lines.map((l) => `${l}\n`).join(''));
  writeFileSync(path, bytes.subarray(0, bytes.length - cut));
  return path;
}

/** Day 1 part 1 (a lost connection), part 2 (a later run), day 3; day 2 not recorded. */
function recordingsFolder(): { dir: string; files: string[] } {
  const dir = tmp();
  const files = [
    writeRecording(dir, '2024-03-01', 1, [
      note(D1 + 10, 'exsim@started', { symbols: ['SOLUSDT'] }),
      snapshot(D1 + 50, 100, [['142.35', '10.5']], [['142.40', '3']]),
      diff(D1 + 100, 101, 101, [['142.35', '8.125']]),
      trade(D1 + 120, 9000, '142.40', '0.125'),
      quote(D1 + 130, 101, '142.35', '142.40'),
      note(D1 + 200, 'exsim@disconnected', { reason: 'close 1006', planned: false }),
      note(D1 + 300, 'exsim@connected', { url: 'wss://x', attempt: 1 }),
      diff(D1 + 400, 110, 112, [['142.30', '1']]),
      snapshot(D1 + 410, 111, [['142.35', '8']], [['142.40', '2.5']]),
      trade(D1 + 450, 9004, '142.35', '2'),
      note(D1 + 500, 'exsim@stopped', { reason: 'SIGINT' }),
    ]),
    writeRecording(dir, '2024-03-01', 2, [note(D1 + 60_000, 'exsim@started', { symbols: ['SOLUSDT'] }), diff(D1 + 60_100, 200, 201, [['142.50', '1']]), snapshot(D1 + 60_110, 200, [['142.50', '4']], [['142.60', '1']]), diff(D1 + 60_200, 202, 202, [], [['142.60', '0.5']])]),
    writeRecording(dir, '2024-03-03', 1, [snapshot(D3 + 10, 500, [['150.00', '1']], [['150.10', '1']]), diff(D3 + 20, 501, 501, [['150.00', '2']]), trade(D3 + 30, 20000, '150.10', '0.001')]),
  ];
  return { dir, files };
}

describe('exsim data inspect on recordings', () => {
  test('one series of every part and day: messages per stream, times, missing days; gaps are notes, not problems', async () => {
    const { dir, files } = recordingsFolder();
    const { output, problems } = await inspectCommand(dir, { scan: true, json: true });
    expect(problems).toBe(0);
    const report = JSON.parse(output) as DataFolderReport;
    expect(report.series).toHaveLength(1);
    const series = report.series[0]!;
    expect(series).toMatchObject({
      symbol: 'SOLUSDT',
      kind: 'exsim:recording',
      firstDay: '2024-03-01',
      lastDay: '2024-03-03',
      missingDays: [{ from: '2024-03-02', to: '2024-03-02' }],
      rows: 18,
      messages: { trade: 3, depth: 5, snapshot: 4, bookTicker: 1, note: 5, other: 0 },
      firstTime: us(D1 + 5),
      lastTime: us(D3 + 30),
      gapCount: 6,
      problems: [],
    });
    expect(series.files.map((f) => [f.path, f.part, f.rows, f.firstTime, f.lastTime])).toEqual([
      ['exsim_recording_2024-03-01_SOLUSDT.gz', 1, 11, us(D1 + 5), us(D1 + 495)],
      ['exsim_recording_2024-03-01_SOLUSDT.2.gz', 2, 4, us(D1 + 59_995), us(D1 + 60_200)],
      ['exsim_recording_2024-03-03_SOLUSDT.gz', 1, 3, us(D3 + 5), us(D3 + 30)],
    ]);
    const [day1, part2] = files as [string, string, string];
    const gap = (stream: string, fromUs: number, toUs: number, why: string, at: string) => ({ symbol: 'SOLUSDT', stream, from: fromUs, to: toUs, why, at });
    const lost = 'connection lost (close 1006)';
    const dayMissing = 'nothing recorded between exsim_recording_2024-03-01_SOLUSDT.2.gz and exsim_recording_2024-03-03_SOLUSDT.gz';
    expect(series.recordingGaps).toEqual([
      gap('trades', us(D1 + 120), us(D1 + 450), `trade ids 9001..9003 missed (${lost})`, `${day1}:10`),
      // From the line before the lost connection (the quote, on the exchange clock) to the snapshot after it.
      gap('depth', us(D1 + 125), us(D1 + 405), lost, `${day1}:6`),
      // No quote came after the lost connection.
      gap('bookTicker', us(D1 + 125), us(D3 + 30), `${lost}; no quote followed before the recording ends`, `${day1}:6`),
      // Part 2 recorded no trade: the ids run on to day 3's.
      gap('trades', us(D1 + 450), us(D3 + 30), 'trade ids 9005..19999 missed (the recorder stopped)', `${files[2]}:3`),
      // The stop ends part 1; part 2's run resynchronises at its snapshot.
      gap('depth', us(D1 + 450), us(D1 + 60_105), 'the recorder stopped', `${day1}:11`),
      // Part 2 ends without a stop, but day 2 is missing: the book is not carried over to day 3's snapshot.
      gap('depth', us(D1 + 60_200), us(D3 + 5), dayMissing, `${part2}:5`),
    ]);

    const table = (await inspectCommand(dir, { scan: true, json: false })).output.split('\n');
    expect(table.filter((l) => /^(messages|note|problem)/.test(l))).toEqual([
      'messages SOLUSDT exsim:recording: 3 trade, 5 depth, 4 snapshot, 1 bookTicker, 5 note',
      'note SOLUSDT exsim:recording: 6 gaps, as live recordings have: a replay bridges each (the book empty until the next snapshot)',
      `note SOLUSDT trades gap 2024-03-01T00:00:00.120000Z .. 2024-03-01T00:00:00.450000Z: trade ids 9001..9003 missed (${lost}) (${day1}:10)`,
      `note SOLUSDT depth gap 2024-03-01T00:00:00.125000Z .. 2024-03-01T00:00:00.405000Z: ${lost} (${day1}:6)`,
      `note SOLUSDT bookTicker gap 2024-03-01T00:00:00.125000Z .. 2024-03-03T00:00:00.030000Z: ${lost}; no quote followed before the recording ends (${day1}:6)`,
      `note SOLUSDT trades gap 2024-03-01T00:00:00.450000Z .. 2024-03-03T00:00:00.030000Z: trade ids 9005..19999 missed (the recorder stopped) (${files[2]}:3)`,
      `note SOLUSDT depth gap 2024-03-01T00:00:00.450000Z .. 2024-03-01T00:01:00.105000Z: the recorder stopped (${day1}:11)`,
      `note SOLUSDT depth gap 2024-03-01T00:01:00.200000Z .. 2024-03-03T00:00:00.005000Z: ${dayMissing} (${part2}:5)`,
    ]);
  });

  test('a torn end and a malformed line are problems, with file and line', async () => {
    const dir = tmp();
    const torn = writeRecording(dir, '2024-03-01', 1, [snapshot(D1 + 50, 100, [['142.35', '1']], []), trade(D1 + 120, 9000, '142.40', '0.125'), trade(D1 + 130, 9001, '142.40', '0.125')], 12);
    const bad = writeRecording(dir, '2024-03-02', 1, [trade(D1 + 86_400_100, 9002, '142.4x', '1')]);
    const { output, problems } = await inspectCommand(dir, { scan: true, json: true });
    const series = (JSON.parse(output) as DataFolderReport).series[0]!;
    expect(problems).toBe(2);
    expect(series.problems).toHaveLength(2);
    expect(series.problems[0]).toMatch(new RegExp(`^${torn.replace(/[.\\/]/g, '\\$&')}: the gzip data ends early`));
    expect(series.problems[1]).toBe(`${bad}:1: trade "p" is "142.4x", not a decimal >= 0 with at most 8 decimals`);
    expect(series.files.map((f) => f.error === undefined)).toEqual([false, false]);
  });
});

describe('exsim data import of recordings', () => {
  test('reads them in full, copies them under the symbol, infers tick and step; the imported folder replays them', async () => {
    const { dir } = recordingsFolder();
    const out = tmp();
    const notes: string[] = [];
    const report = await importCommand([dir], out, { onWarning: (line) => notes.push(line) });
    expect(report).toMatchObject({ symbols: ['SOLUSDT'], inferred: ['SOLUSDT'] });
    expect(readdirSync(join(out, 'SOLUSDT')).sort()).toEqual(['exsim_recording_2024-03-01_SOLUSDT.2.gz', 'exsim_recording_2024-03-01_SOLUSDT.gz', 'exsim_recording_2024-03-03_SOLUSDT.gz']);
    expect(notes).toEqual([`note: ${join(dir, 'exsim_recording_2024-03-01_SOLUSDT.gz')}: 3 gaps, as live recordings have (exsim data inspect lists them)`]);
    const market = JSON.parse(readFileSync(join(out, 'exsim-market.json'), 'utf8'));
    const sol = market.symbols.find((s: { symbol: string }) => s.symbol === 'SOLUSDT');
    expect(sol.filters[0]).toMatchObject({ filterType: 'PRICE_FILTER', tickSize: '0.01000000' });
    expect(sol.filters[1]).toMatchObject({ filterType: 'LOT_SIZE', stepSize: '0.00100000' });

    const data = openMarketData(out);
    const tape = await windowedTape(data, 'SOLUSDT', us(D1), us(D3 + 86_400_000));
    expect(tape.venueIds).toBe(true);
    const ids = (await collect(tape.trades as AsyncIterable<{ id: Float64Array; length: number }>)).flatMap((b) => Array.from(b.id.subarray(0, b.length)));
    expect(ids).toEqual([9000, 9004, 20000]);
    const depth = await windowedDepth(data, 'SOLUSDT', us(D1), us(D3 + 86_400_000));
    expect(depth?.info.label).toBe('recorded L2 (exsim recording)');
  });

  test('a malformed recording is refused; a torn one is imported with a warning', async () => {
    const badDir = tmp();
    const bad = writeRecording(badDir, '2024-03-01', 1, [trade(D1 + 100, 1, '1.0', 'lots')]);
    await expect(importCommand([badDir], tmp(), { onWarning: () => undefined })).rejects.toThrow(`${bad}:1: trade "q" is "lots", not a decimal >= 0 with at most 8 decimals`);
    const tornDir = tmp();
    mkdirSync(join(tornDir, 'in'));
    const torn = writeRecording(join(tornDir, 'in'), '2024-03-01', 1, [trade(D1 + 100, 1, '142.40', '0.5'), trade(D1 + 200, 2, '142.41', '0.5')], 12);
    const warnings: string[] = [];
    const report = await importCommand([join(tornDir, 'in')], join(tornDir, 'out'), { onWarning: (line) => warnings.push(line) });
    expect(report.inferred).toEqual(['SOLUSDT']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(new RegExp(`^warning: ${torn.replace(/[.\\/]/g, '\\$&')}: the gzip data ends early`));
  });
});
