/** The recorder's files: a file per symbol and UTC day, rotation at midnight, parts for later runs, flushed lines readable from a file still open. */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Backoff } from '../../../src/record/backoff.ts';
import { RecordingWriter } from '../../../src/record/recording-writer.ts';
import { readRecordingLines } from '../../../src/data/recording/recording-lines.ts';

const DAY1 = Date.UTC(2024, 0, 1) * 1000;
const DAY2 = DAY1 + 86_400_000_000;
const trade = (symbol: string, n: number) => `{"stream":"${symbol.toLowerCase()}@trade","data":{"t":${n}}}`;

function writer(out: string, events: string[]) {
  return new RecordingWriter({
    out,
    symbols: ['BTCUSDT', 'ETHUSDT'],
    flushEveryMs: 10,
    onFile: (symbol, path) => events.push(`file ${symbol} ${path.slice(out.length + 1)}`),
    onRotate: (symbol) => events.push(`rotate ${symbol}`),
    onError: (error) => events.push(`error ${error.message}`),
  });
}

const lines = (path: string) => gunzipSync(readFileSync(path)).toString('utf8');

describe('RecordingWriter', () => {
  it('writes each symbol to its day file, moves to the next day at UTC midnight, and numbers a later run the same day as part 2', async () => {
    const out = mkdtempSync(join(tmpdir(), 'exsim-writer-'));
    const events: string[] = [];
    const w = writer(out, events);
    w.writeAll(DAY2 - 2, '{"stream":"exsim@started","data":{}}');
    w.write('BTCUSDT', DAY2 - 1, trade('BTCUSDT', 1));
    w.write('BTCUSDT', DAY2, trade('BTCUSDT', 2));
    w.write('ETHUSDT', DAY2 - 1, trade('ETHUSDT', 7));
    await w.close();
    expect(events).toEqual([
      'file BTCUSDT BTCUSDT/exsim_recording_2024-01-01_BTCUSDT.gz',
      'file ETHUSDT ETHUSDT/exsim_recording_2024-01-01_ETHUSDT.gz',
      'file BTCUSDT BTCUSDT/exsim_recording_2024-01-02_BTCUSDT.gz',
      'rotate BTCUSDT',
    ]);
    expect(lines(join(out, 'BTCUSDT/exsim_recording_2024-01-01_BTCUSDT.gz'))).toBe(`${DAY2 - 2} {"stream":"exsim@started","data":{}}\n${DAY2 - 1} ${trade('BTCUSDT', 1)}\n`);
    expect(lines(join(out, 'BTCUSDT/exsim_recording_2024-01-02_BTCUSDT.gz'))).toBe(`${DAY2} ${trade('BTCUSDT', 2)}\n`);
    expect(lines(join(out, 'ETHUSDT/exsim_recording_2024-01-01_ETHUSDT.gz'))).toBe(`${DAY2 - 2} {"stream":"exsim@started","data":{}}\n${DAY2 - 1} ${trade('ETHUSDT', 7)}\n`);

    const again = writer(out, events);
    again.write('BTCUSDT', DAY1 + 5, trade('BTCUSDT', 9));
    await again.close();
    expect(readdirSync(join(out, 'BTCUSDT')).sort()).toEqual(['exsim_recording_2024-01-01_BTCUSDT.2.gz', 'exsim_recording_2024-01-01_BTCUSDT.gz', 'exsim_recording_2024-01-02_BTCUSDT.gz']);
    expect(lines(join(out, 'BTCUSDT/exsim_recording_2024-01-01_BTCUSDT.2.gz'))).toBe(`${DAY1 + 5} ${trade('BTCUSDT', 9)}\n`);
  });

  it('flushes lines to disk while the file is open, so a killed recorder leaves them readable', async () => {
    const out = mkdtempSync(join(tmpdir(), 'exsim-writer-'));
    const w = writer(out, []);
    w.write('BTCUSDT', DAY1 + 1, trade('BTCUSDT', 1));
    w.write('BTCUSDT', DAY1 + 2, trade('BTCUSDT', 2));
    await new Promise((r) => setTimeout(r, 100));
    const path = join(out, 'BTCUSDT/exsim_recording_2024-01-01_BTCUSDT.gz');
    const warnings: string[] = [];
    const read = [];
    for await (const line of readRecordingLines([path], { onWarning: (m) => warnings.push(m) })) read.push([line.kind, line.received]);
    expect(read).toEqual([
      ['trade', DAY1 + 1],
      ['trade', DAY1 + 2],
      ['torn', DAY1 + 2],
    ]);
    expect(warnings).toEqual([`${path}: the gzip data ends early (a file still being written, or a killed recorder): read 2 complete lines`]);
    await w.close();
  });
});

describe('Backoff', () => {
  it('doubles the delay up to the cap, each drawn in its upper half, and starts over after a reset', () => {
    const draws = [0, 1, 0.5, 0, 0, 1];
    const backoff = new Backoff({ initialMs: 100, maxMs: 400 }, () => draws.shift()!);
    expect([backoff.next(), backoff.next(), backoff.next(), backoff.next()]).toEqual([50, 200, 300, 200]);
    backoff.reset();
    expect([backoff.next(), backoff.next()]).toEqual([50, 200]);
  });
});
