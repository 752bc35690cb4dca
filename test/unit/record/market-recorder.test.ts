/**
 * The recorder against a scripted venue: what it writes when the recipe needs another snapshot
 * (one older than the stream, a jump in diff ids), and the make-before-break handover, where a
 * fresh connection's diffs start later than the old connection's.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, expect, it } from 'vitest';
import { readRecordingDepth, type RecordingGap } from '../../../src/data/index.ts';
import { MarketRecorder, type RecorderEvent } from '../../../src/record/index.ts';
import { depthUpdate, FakeVenue } from './fake-venue.ts';
import { until } from '../../support/until.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: { handoverAfterMs?: number } = {}) {
  const venue = await FakeVenue.start();
  cleanups.push(() => venue.close());
  const out = mkdtempSync(join(tmpdir(), 'exsim-recorder-'));
  const events: RecorderEvent[] = [];
  const recorder = new MarketRecorder({
    symbols: ['BTCUSDT'],
    out,
    streamUrl: `ws://${venue.base}`,
    restUrl: `http://${venue.base}`,
    flushEveryMs: 10,
    ...options,
    onEvent: (e) => events.push(e),
  });
  cleanups.push(() => recorder.stop());
  const written = () => recorder.stats('BTCUSDT')!.messages;
  /** The file's lines after a clean stop: [stream, U..u] for diffs, [stream, lastUpdateId] for snapshots, else [stream]. */
  const lines = async () => {
    await recorder.stop('test done');
    const dir = join(out, 'BTCUSDT');
    const files = readdirSync(dir).map((f) => join(dir, f));
    const text = files.map((f) => gunzipSync(readFileSync(f)).toString('utf8')).join('');
    const described = text
      .trimEnd()
      .split('\n')
      .map((l) => {
        const { stream, data } = JSON.parse(l.slice(l.indexOf(' ') + 1)) as { stream: string; data: { U?: number; u?: number; lastUpdateId?: number; reason?: string } };
        if (data.U !== undefined) return `${stream} ${data.U}..${data.u}`;
        if (data.lastUpdateId !== undefined) return `${stream} ${data.lastUpdateId}`;
        return data.reason === undefined ? stream : `${stream} ${data.reason}`;
      });
    return { files, described };
  };
  recorder.start();
  return { venue, recorder, events, written, lines };
}

const SNAPSHOT = (lastUpdateId: number) => ({ lastUpdateId, bids: [['100.00000000', '1.00000000']], asks: [['101.00000000', '1.00000000']] });

it('subscribes to the three streams per symbol, takes a snapshot again when the first is older than the stream, and one more after a jump in diff ids', async () => {
  const { venue, recorder, events, written, lines } = await start();
  venue.snapshots.push(SNAPSHOT(3), SNAPSHOT(12), SNAPSHOT(40));
  await until(() => venue.connections.length === 1 && venue.depthRequests >= 1, 'the connection and a snapshot');
  expect(venue.urls[0]).toBe('/stream?streams=btcusdt@trade/btcusdt@depth@100ms/btcusdt@bookTicker');
  await until(() => recorder.stats('BTCUSDT')!.snapshots === 1, 'the first snapshot written');
  // The stream starts at 10: the snapshot at 3 cannot be continued; the recipe takes another.
  venue.send(0, 'btcusdt@depth@100ms', depthUpdate(10, 15, '100.00000000'));
  await until(() => recorder.stats('BTCUSDT')!.snapshots === 2, 'the second snapshot');
  venue.send(0, 'btcusdt@depth@100ms', depthUpdate(16, 20, '99.00000000'));
  // 21..29 never come: a gap, noted, and a snapshot taken.
  venue.send(0, 'btcusdt@depth@100ms', depthUpdate(30, 35, '98.00000000'));
  await until(() => recorder.stats('BTCUSDT')!.snapshots === 3, 'the snapshot after the gap');
  venue.send(0, 'btcusdt@depth@100ms', depthUpdate(36, 41, '97.00000000'));
  await until(() => written() === 4, 'the last diff');
  expect(events.filter((e) => e.type === 'gap')).toEqual([{ type: 'gap', symbol: 'BTCUSDT', reason: 'depth update ids 21..29 missed' }]);
  const { files, described } = await lines();
  expect(described).toEqual([
    'exsim@started',
    'exsim@connected',
    'btcusdt@depthSnapshot 3',
    'btcusdt@depth@100ms 10..15',
    'btcusdt@depthSnapshot 12',
    'btcusdt@depth@100ms 16..20',
    'btcusdt@depth@100ms 30..35',
    'exsim@gap depth update ids 21..29 missed',
    'btcusdt@depthSnapshot 40',
    'btcusdt@depth@100ms 36..41',
    'exsim@stopped test done',
  ]);
  // Read back: the first snapshot shows until the stream proves it too old (not a gap: there was no
  // book before), the book holds from the second, the gap lasts until the third.
  const gaps: RecordingGap[] = [];
  const ids: (number | null)[] = [];
  for await (const _ of readRecordingDepth(files, { scale: { quotePrecision: 8, basePrecision: 8 }, onGap: (g) => gaps.push(g), onMessage: (id) => ids.push(id) })) void _;
  expect(ids).toEqual([3, null, 12, 15, 20, null, 40, 41, null]);
  expect(gaps.map((g) => g.why)).toEqual(['depth update ids 21..29 missed']);
});

it("hands over make-before-break: the old connection's diffs are written until the new one's continue them, then the old one is closed", async () => {
  const { venue, events, written, lines } = await start({ handoverAfterMs: 200 });
  venue.snapshots.push(SNAPSHOT(5));
  await until(() => venue.connections.length === 1, 'the first connection');
  venue.send(0, 'btcusdt@depth@100ms', depthUpdate(6, 10, '100.00000000'));
  await until(() => venue.connections.length === 2, 'the fresh connection');
  await until(() => events.some((e) => e.type === 'connected' && e.handover), 'the fresh connection open');
  // The new connection's stream starts later than what the old one delivered so far: not written yet.
  venue.send(1, 'btcusdt@depth@100ms', depthUpdate(15, 20, '99.00000000'));
  venue.send(1, 'btcusdt@trade', { e: 'trade', E: 1, s: 'BTCUSDT', t: 7, p: '100.00000000', q: '1.00000000', T: 1, m: false, M: true });
  await until(() => written() === 2, 'the trade from the new connection');
  venue.send(0, 'btcusdt@depth@100ms', depthUpdate(11, 20, '98.00000000'));
  await until(() => written() === 3, "the old connection's diff");
  venue.send(1, 'btcusdt@depth@100ms', depthUpdate(21, 25, '97.00000000'));
  await until(() => written() === 4, 'the switch');
  // The old connection is closed by the recorder; its late copy is not written.
  await until(() => venue.connections[0]!.readyState === venue.connections[0]!.CLOSED, 'the old connection closed');
  const { described } = await lines();
  expect(described.filter((l) => !l.startsWith('btcusdt@depthSnapshot') && !l.startsWith('exsim@connected'))).toEqual([
    'exsim@started',
    'btcusdt@depth@100ms 6..10',
    'btcusdt@trade',
    'btcusdt@depth@100ms 11..20',
    'btcusdt@depth@100ms 21..25',
    "exsim@disconnected handover to a fresh connection before the venue's 24 h limit",
    'exsim@stopped test done',
  ]);
});
