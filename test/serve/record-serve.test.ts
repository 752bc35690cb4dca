/**
 * `exsim record` against `exsim serve` itself (issue 23 part 5; no internet): a served replay of
 * the sample on the manual clock, moved through the control plane, the demo account placing,
 * cancelling and taking orders so the book moves between prints; the recorder's stream
 * connection runs through a TCP proxy the test cuts mid-recording. Read back, the recording must
 * give the book REST depth showed at the same update id, the trades the server reports, and the
 * cut as one depth gap closed by the snapshot after the reconnect.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { Spot } from '@binance/connector';
import { afterAll, expect, test } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/index.ts';
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START, SAMPLE_DIR, readRecordingDepth, readRecordingTrades, type DepthBatch, type RecordingGap, type TradeBatch } from '../../src/data/index.ts';
import { formatUnits, parseUnits } from '../../src/engine/index.ts';
import { MarketRecorder, type RecorderEvent } from '../../src/record/index.ts';
import { TcpProxy } from '../support/tcp-proxy.ts';
import { until } from '../support/until.ts';

const ADMIN = 'record-test-admin';
const SCALE = { quotePrecision: 8, basePrecision: 8 };
const silent = { log: () => {}, error: () => {}, info: () => {}, warn: () => {}, debug: () => {} };

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface RestDepth {
  lastUpdateId: number;
  bids: [string, string][];
  asks: [string, string][];
}
type Book = { bids: [number, number][]; asks: [number, number][] };

/** Waits until `count` has not changed for `quietMs`. */
async function settled(count: () => number, quietMs = 300): Promise<void> {
  let last = count();
  let since = Date.now();
  while (Date.now() - since < quietMs) {
    await new Promise((r) => setTimeout(r, 20));
    if (count() !== last) {
      last = count();
      since = Date.now();
    }
  }
}

const units = (levels: [string, string][]): [number, number][] => levels.map(([p, q]) => [parseUnits(p, 8)!, parseUnits(q, 8)!]);

/** The book after each depth message (both sides sorted best first), beside the update id the reader reports for it. */
function booksAfterEachMessage(batches: readonly DepthBatch[]): Book[] {
  const bids = new Map<number, number>();
  const asks = new Map<number, number>();
  const books: Book[] = [];
  const snapshot = (): Book => ({ bids: [...bids].sort((a, b) => b[0] - a[0]), asks: [...asks].sort((a, b) => a[0] - b[0]) });
  let open = false;
  for (const batch of batches) {
    for (let i = 0; i < batch.length; i++) {
      const flags = batch.flags[i]!;
      if ((flags & DEPTH_MESSAGE_START) !== 0) {
        if (open) books.push(snapshot());
        open = true;
        if ((flags & DEPTH_CLEAR) !== 0) {
          bids.clear();
          asks.clear();
        }
      }
      const side = (flags & DEPTH_ASK) !== 0 ? asks : bids;
      if (batch.qty[i] === 0) side.delete(batch.price[i]!);
      else side.set(batch.price[i]!, batch.qty[i]!);
    }
  }
  if (open) books.push(snapshot());
  return books;
}

function tradeRows(batches: readonly TradeBatch[]) {
  return batches.flatMap((b) =>
    Array.from({ length: b.length }, (_, i) => ({
      id: b.id[i]!,
      price: formatUnits(b.price[i]!, 8),
      qty: formatUnits(b.qty[i]!, 8),
      quoteQty: formatUnits(b.quoteQty[i]!, 8),
      time: b.time[i]! / 1000,
      isBuyerMaker: (b.flags[i]! & 1) !== 0,
      isBestMatch: (b.flags[i]! & 2) !== 0,
    })),
  );
}

async function startServer(): Promise<ServeHandle> {
  // The bundled (sparse) sample: the served one's density would put more trades in the window than GET trades returns.
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: SAMPLE_DIR, adminKey: ADMIN }, () => undefined);
  cleanups.push(() => handle.close());
  return handle;
}

/** A recorder of BTCUSDT on a served replay (manual clock), its stream connection through a proxy the script can cut. */
async function recordingSession(options: { handoverAfterMs?: number } = {}) {
  const handle = await startServer();
  const proxy = await TcpProxy.start(Number(new URL(handle.url).port));
  cleanups.push(() => proxy.close());
  const out = mkdtempSync(join(tmpdir(), 'exsim-record-'));
  const events: RecorderEvent[] = [];
  const recorder = new MarketRecorder({
    symbols: ['BTCUSDT'],
    out,
    streamUrl: `ws://127.0.0.1:${proxy.port}`,
    restUrl: handle.url,
    reconnect: { initialMs: 100, maxMs: 200 },
    flushEveryMs: 50,
    ...(options.handoverAfterMs === undefined ? {} : { handoverAfterMs: options.handoverAfterMs }),
    onEvent: (e) => events.push(e),
  });
  cleanups.push(() => recorder.stop('test cleanup'));
  recorder.start();
  const stats = () => recorder.stats('BTCUSDT')!;
  await until(() => stats().snapshots >= 1, 'the first snapshot');

  const spot = new Spot('exsim-demo-key', 'exsim-demo-secret', { baseURL: handle.url, logger: silent });
  // limit=1000 (weight 50; the served book has far fewer levels): 5000 weighs 250 of the 6000 a minute allows.
  const depth = async (): Promise<RestDepth> => (await fetch(`${handle.url}/api/v3/depth?symbol=BTCUSDT&limit=1000`)).json() as Promise<RestDepth>;
  const observed: { depth: RestDepth; recorded: boolean }[] = [];
  const resting: number[] = [];
  let latest = await depth();
  let i = 0;
  /** An order placed, cancelled or taking. */
  const act = async () => {
    const bestBid = parseUnits(latest.bids[0]![0], 8)!;
    if (i % 3 === 0) {
      const price = formatUnits(bestBid - (5 + (i % 4)) * 1_000_000, 8);
      resting.push((await spot.newOrder('BTCUSDT', 'BUY', 'LIMIT', { price, quantity: '0.002', timeInForce: 'GTC' })).data.orderId as number);
    } else if (i % 3 === 1 && resting.length > 0) {
      // A print may have filled it meanwhile (-2011 then): the book moved either way.
      await spot.cancelOrder('BTCUSDT', { orderId: resting.shift()! }).catch((error: { response?: { data?: { code?: number } } }) => {
        if (error.response?.data?.code !== -2011) throw error;
      });
    } else {
      await spot.newOrder('BTCUSDT', i % 2 === 0 ? 'BUY' : 'SELL', 'MARKET', { quantity: '0.0003' });
    }
    i++;
  };
  /** Six simulated seconds (the tape's prints), then REST depth after the last diff boundary. */
  const advance = async (recorded = true) => {
    await handle.control.advance({ byMs: 6000 });
    latest = await depth();
    observed.push({ depth: latest, recorded });
  };
  const step = async (recorded = true) => {
    await act();
    await advance(recorded);
  };
  /** Stops the recorder once it has everything sent; the files, the lines' stream names, and the served trades. */
  const finish = async () => {
    await settled(() => stats().messages);
    await recorder.stop('test done');
    // One file, or two if the wall clock passed midnight UTC meanwhile.
    const files = readdirSync(join(out, 'BTCUSDT'))
      .sort()
      .map((f) => join(out, 'BTCUSDT', f));
    for (const file of files) expect(file).toMatch(/\/exsim_recording_\d{4}-\d{2}-\d{2}_BTCUSDT\.gz$/);
    const lines = files.flatMap((f) => gunzipSync(readFileSync(f)).toString('utf8').trimEnd().split('\n'));
    const served = (await spot.trades('BTCUSDT', { limit: 1000 })).data as { id: number }[];
    return { files, lines, streams: lines.map((l) => (JSON.parse(l.slice(l.indexOf(' ') + 1)) as { stream: string }).stream), served };
  };
  return { proxy, events, stats, act, advance, step, observed, finish };
}

/** Reads the depth back and checks the replayed book against every REST answer given while recording; returns the gaps and each message's update id. */
async function checkBooks(files: string[], observed: readonly { depth: RestDepth; recorded: boolean }[]) {
  const gaps: RecordingGap[] = [];
  const ids: (number | null)[] = [];
  const warnings: string[] = [];
  const batches = await collect(readRecordingDepth(files, { scale: SCALE, onGap: (g) => gaps.push(g), onMessage: (id) => ids.push(id), onWarning: (w) => warnings.push(w) }));
  const books = booksAfterEachMessage(batches);
  expect(books).toHaveLength(ids.length);
  expect(warnings).toEqual([]);
  let compared = 0;
  for (const { depth: rest, recorded } of observed) {
    if (!recorded) continue;
    // The replayed book as of this answer: after the last message at or below its id.
    let at = -1;
    for (let k = 0; k < ids.length; k++) if (ids[k] !== null && ids[k]! <= rest.lastUpdateId) at = k;
    expect(books[at], `book at update id ${rest.lastUpdateId}`).toEqual({ bids: units(rest.bids), asks: units(rest.asks) });
    compared++;
  }
  expect(compared).toBe(observed.filter((o) => o.recorded).length);
  return { gaps, ids };
}

test('the book and trades replayed from a recording of exsim serve are the served ones; a cut connection is one gap, resynchronised at the next snapshot', async () => {
  const session = await recordingSession();
  for (let k = 0; k < 12; k++) await session.step();
  await settled(() => session.stats().messages);
  // The network drops the stream connection; the exchange goes on without the recorder.
  session.proxy.cut();
  await until(() => session.events.some((e) => e.type === 'disconnected'), 'the disconnect');
  for (let k = 0; k < 6; k++) await session.step(false);
  session.proxy.restore();
  await until(() => session.stats().snapshots >= 2, 'the snapshot after the reconnect');
  for (let k = 0; k < 12; k++) await session.step();
  const { files, lines, streams, served } = await session.finish();

  expect(streams[0]).toBe('exsim@started');
  expect(streams.at(-1)).toBe('exsim@stopped');
  expect(streams.filter((s) => s === 'btcusdt@depthSnapshot')).toHaveLength(2);
  const disconnects = lines.filter((l) => l.includes('"exsim@disconnected"'));
  expect(disconnects).toHaveLength(1);
  expect(disconnects[0]).toContain('"planned":false');

  const { gaps, ids } = await checkBooks(files, session.observed);
  // The cut: the book emptied, then replaced by the snapshot taken after the reconnect; the stop empties it at the end.
  const lost = ids.indexOf(null);
  expect(lost).toBeGreaterThan(0);
  expect(ids.map((id, k) => (id === null ? k : -1)).filter((k) => k >= 0)).toEqual([lost, ids.length - 1]);
  expect(ids[lost + 1]).toBeGreaterThan(ids[lost - 1]!);
  expect(gaps).toHaveLength(1);
  expect(gaps[0]).toMatchObject({ symbol: 'BTCUSDT', stream: 'depth', why: 'connection lost (the connection dropped (1006, no close frame))' });
  expect(gaps[0]!.to).toBeGreaterThanOrEqual(gaps[0]!.from);

  // Trades: exactly the server's, but for those made while the recorder was cut off (a reported gap).
  const tradeGaps: RecordingGap[] = [];
  const recordedTrades = tradeRows(await collect(readRecordingTrades(files, { scale: SCALE, onGap: (g) => tradeGaps.push(g) })));
  expect(tradeGaps).toHaveLength(1);
  const missed = /^trade ids (\d+)\.\.(\d+) missed \(connection lost \(the connection dropped \(1006, no close frame\)\)\)$/.exec(tradeGaps[0]!.why);
  expect(missed, tradeGaps[0]!.why).not.toBeNull();
  const [first, last] = [recordedTrades[0]!.id, recordedTrades.at(-1)!.id];
  // At least the taking orders of the 8 recorded steps, besides the tape's prints.
  expect(recordedTrades.length).toBeGreaterThanOrEqual(8);
  expect(recordedTrades).toEqual(served.filter((t) => t.id >= first && t.id <= last && !(t.id >= Number(missed![1]) && t.id <= Number(missed![2]))));
});

test("hands over to a fresh connection before the venue's 24 h limit without a gap, though the book moves while both are open", async () => {
  const session = await recordingSession({ handoverAfterMs: 300 });
  const handovers = () => session.events.filter((e) => e.type === 'connected' && e.handover).length;
  for (let round = 0; round < 3; round++) {
    await session.step();
    // The book moves (an order), then a fresh connection opens: its diff ids start after the
    // move, which only the old connection will report.
    const before = handovers();
    await session.act();
    await until(() => handovers() > before, 'a fresh connection');
    await session.advance();
  }
  for (let k = 0; k < 6; k++) await session.step();
  const { files, lines, served } = await session.finish();
  const disconnects = lines.filter((l) => l.includes('"exsim@disconnected"'));
  expect(disconnects.length).toBeGreaterThanOrEqual(2);
  for (const line of disconnects) expect(line).toContain('"planned":true');
  const { gaps } = await checkBooks(files, session.observed);
  expect(gaps).toEqual([]);
  const tradeGaps: RecordingGap[] = [];
  const recordedTrades = tradeRows(await collect(readRecordingTrades(files, { scale: SCALE, onGap: (g) => tradeGaps.push(g) })));
  expect(tradeGaps).toEqual([]);
  expect(recordedTrades).toEqual(served.filter((t) => t.id >= recordedTrades[0]!.id));
});

test('exsim record stops cleanly on SIGINT: the gzip file ends whole, its last line the stop note', async () => {
  const handle = await startServer();
  const out = mkdtempSync(join(tmpdir(), 'exsim-record-cli-'));
  const ws = handle.url.replace('http:', 'ws:');
  const child = spawn(process.execPath, ['bin/exsim.js', 'record', '--symbols', 'btcusdt,ETHBTC', '--out', out, '--stream-url', ws, '--rest-url', handle.url]);
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stdout += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await until(() => /ETHBTC: depth snapshot/.test(stdout) && /BTCUSDT: depth snapshot/.test(stdout), 'both snapshots', 30_000);
  await handle.control.advance({ byMs: 60_000 });
  await new Promise((r) => setTimeout(r, 300));
  child.kill('SIGINT');
  expect(await exited).toBe(0);
  expect(stdout).toContain('stopped (SIGINT received); files closed');
  for (const symbol of ['BTCUSDT', 'ETHBTC']) {
    const [name, ...more] = readdirSync(join(out, symbol));
    expect(more).toEqual([]);
    // gunzipSync throws on a torn member: the file ends whole.
    const lines = gunzipSync(readFileSync(join(out, symbol, name!))).toString('utf8').trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^\d+ \{"stream":"exsim@stopped","data":\{"reason":"SIGINT received"\}\}$/);
    expect(lines.some((l) => l.includes(`"${symbol.toLowerCase()}@trade"`))).toBe(true);
  }
});

async function collect<T>(batches: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const b of batches) all.push(b);
  return all;
}
