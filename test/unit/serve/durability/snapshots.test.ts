/**
 * Journal snapshots (src/serve/durability/snapshots.ts): a served static market restarted from a snapshot
 * plus the journal's tail holds what a full replay of the journal holds (state hash, balances,
 * open orders, trades and klines, the rate-limit counters) and answers the next requests the
 * same; a damaged, foreign, stale or unverifiable snapshot is ignored with a warning and the
 * restore is still right; a served replay (--data) takes none.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { afterAll, expect, test, vi } from 'vitest';
import { serve, type ServeHandle } from '../../../../src/serve/serve.ts';
import { openWriteAheadLog } from '../../../../src/serve/index.ts';
import { snapshotPaths } from '../../../../src/serve/durability/snapshots.ts';

const dir = mkdtempSync(join(tmpdir(), 'exsim-serve-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const START = 1_764_000_000_000_000; // a fixed simulated start (the journal's header wins over the wall clock)
const SECRET = 'exsim-demo-secret';
const HEADERS = { 'X-MBX-APIKEY': 'exsim-demo-key' };
const TIME_MS = START / 1000;

const signed = (query: string): string => `${query}&timestamp=${TIME_MS}&signature=${createHmac('sha256', SECRET).update(`${query}&timestamp=${TIME_MS}`).digest('hex')}`;

async function request(url: string, method: string, path: string, query: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${url}${path}?${signed(query)}`, { method, headers: HEADERS });
  return { status: response.status, body: await response.json() };
}

/** A fresh journal whose simulated start is START (so two servers of these tests share a clock). */
async function freshJournal(name: string, startAt = START): Promise<string> {
  const path = join(dir, name);
  rmSync(path, { force: true });
  for (const p of Object.values(snapshotPaths(path))) rmSync(p, { force: true });
  await (await openWriteAheadLog({ journal: path }, startAt)).close();
  return path;
}

function start(journal: string, snapshotEvery: number, lines: string[] = []): Promise<ServeHandle> {
  return serve({ port: 0, host: '127.0.0.1', clock: 'manual', journal, fsync: 'none', snapshotEvery }, (line) => lines.push(line));
}

/** A seeded stream of orders (resting, marketable against the maker's ladder), cancels and cancel-alls. */
async function traffic(url: string, seed: string, count: number): Promise<void> {
  const random = seedrandom(seed);
  for (let i = 0; i < count; i++) {
    const r = random();
    const side = random() < 0.5 ? 'BUY' : 'SELL';
    const qty = (0.01 * (1 + Math.floor(random() * 5))).toFixed(5);
    if (r < 0.15 && i > 0) {
      await request(url, 'DELETE', '/api/v3/order', `symbol=BTCUSDT&origClientOrderId=${seed}-${Math.floor(random() * i)}`);
    } else if (r < 0.3) {
      await request(url, 'POST', '/api/v3/order', `symbol=BTCUSDT&side=${side}&type=MARKET&quantity=${qty}&newClientOrderId=${seed}-${i}`);
    } else {
      const offset = Math.floor(random() * 80) - 10; // now and then marketable
      const price = (side === 'BUY' ? 42_000 - offset : 42_000 + offset).toFixed(2);
      await request(url, 'POST', '/api/v3/order', `symbol=BTCUSDT&side=${side}&type=LIMIT&timeInForce=GTC&price=${price}&quantity=${qty}&newClientOrderId=${seed}-${i}`);
    }
  }
}

/** What a client can see of the exchange, and how it answers one more order. */
async function observe(url: string): Promise<unknown> {
  const get = async (path: string, query: string) => (await request(url, 'GET', path, query)).body;
  return {
    account: await get('/api/v3/account', 'omitZeroBalances=true'),
    open: await get('/api/v3/openOrders', 'symbol=BTCUSDT'),
    all: await get('/api/v3/allOrders', 'symbol=BTCUSDT&limit=1000'),
    trades: await get('/api/v3/myTrades', 'symbol=BTCUSDT&limit=1000'),
    market: await (await fetch(`${url}/api/v3/trades?symbol=BTCUSDT&limit=1000`)).json(),
    klines: await (await fetch(`${url}/api/v3/klines?symbol=BTCUSDT&interval=1m`)).json(),
    depth: await (await fetch(`${url}/api/v3/depth?symbol=BTCUSDT&limit=100`)).json(),
    orderCount: await get('/api/v3/rateLimit/order', ''),
    next: (await request(url, 'POST', '/api/v3/order', 'symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.05000&newClientOrderId=after')).body,
  };
}

/** Starts on `journal`, observes, stops; returns what it saw, the start-up lines and the state hash at the stop. */
async function restartAndObserve(journal: string, snapshotEvery = 0): Promise<{ seen: unknown; lines: string[]; hash: string }> {
  const lines: string[] = [];
  const server = await start(journal, snapshotEvery, lines);
  const seen = await observe(server.url);
  await server.close();
  return { seen, lines, hash: /state hash ([0-9a-f]{64})/.exec(lines.join('\n'))![1]! };
}

/** A copy of the journal (and, if asked, its snapshots) as a kill -9 would leave them now. */
function crashImage(journal: string, name: string, withSnapshots: boolean): string {
  const copy = join(dir, name);
  copyFileSync(journal, copy);
  const from = snapshotPaths(journal);
  const to = snapshotPaths(copy);
  for (const key of ['newest', 'previous'] as const) {
    rmSync(to[key], { force: true });
    if (withSnapshots && existsSync(from[key])) copyFileSync(from[key], to[key]);
  }
  return copy;
}

test('a restart from a snapshot and the journal after it equals a full replay, and answers the next order the same', async () => {
  const journal = await freshJournal('live.jsonl');
  const lines: string[] = [];
  const server = await start(journal, 25, lines);
  await traffic(server.url, 'snap', 90);
  // A kill -9 now: the newest snapshot covers 75 commands, the journal holds a tail after it.
  const withSnapshots = crashImage(journal, 'image.jsonl', true);
  const withoutSnapshots = crashImage(journal, 'image-full.jsonl', false);
  await server.close();
  expect(lines.filter((l) => l.startsWith('journal: snapshot at'))).toHaveLength(4); // 3 on the way, 1 at the stop
  expect(existsSync(snapshotPaths(journal).previous)).toBe(true);

  const full = await restartAndObserve(withoutSnapshots);
  const fromSnapshot = await restartAndObserve(withSnapshots);
  expect(full.lines.join('\n')).not.toContain('from the snapshot');
  expect(fromSnapshot.lines.join('\n')).toMatch(/restored \d+ commands \(from the snapshot at \d+ \(state hash verified\)/);
  expect(fromSnapshot.seen).toEqual(full.seen);
  expect(fromSnapshot.hash).toBe(full.hash);
  expect((full.seen as { trades: unknown[] }).trades.length).toBeGreaterThan(5);
  expect((full.seen as { open: unknown[] }).open.length).toBeGreaterThan(5);

  // The clean stop's snapshot covers the whole journal: nothing is replayed after it.
  const lines2: string[] = [];
  const idle = await start(journal, 25, lines2);
  await idle.close();
  const [, restored, covered] = /restored (\d+) commands \(from the snapshot at (\d+) \(state hash verified\)/.exec(lines2.join('\n'))!;
  expect(covered).toBe(restored);
  // It served nothing: its stop writes no snapshot (the newest holds every command).
  expect(lines2.filter((l) => l.startsWith('journal: snapshot at'))).toEqual([]);
  const clean = await restartAndObserve(journal);
  expect(clean.lines.join('\n')).toContain(`restored ${restored} commands (from the snapshot at ${restored} (state hash verified)`);
  expect(clean.lines.filter((l) => l.startsWith('journal: snapshot at'))).toHaveLength(1); // it placed an order
});

test('a damaged, foreign, stale or unverifiable snapshot is ignored with a warning; the restore is still right', async () => {
  const journal = await freshJournal('bad.jsonl');
  const server = await start(journal, 20);
  await traffic(server.url, 'bad', 50);
  const reference = crashImage(journal, 'bad-full.jsonl', false);
  const image = crashImage(journal, 'bad-image.jsonl', true);
  await server.close();
  const truth = await restartAndObserve(reference);
  const paths = snapshotPaths(image);
  const warnings = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    // Damaged payload in the newest: the previous one is used.
    const newest = readFileSync(paths.newest);
    const damaged = Buffer.from(newest);
    damaged[damaged.length - 10] = damaged[damaged.length - 10]! ^ 0xff;
    writeFileSync(paths.newest, damaged);
    const fromPrevious = await restartAndObserve(crashImage(image, 'bad-1.jsonl', true));
    expect(warnings.mock.calls.flat().join('\n')).toContain('ignored: its payload is damaged');
    expect(fromPrevious.lines.join('\n')).toContain('from the snapshot at 20 ');
    expect(fromPrevious.seen).toEqual(truth.seen);
    expect(fromPrevious.hash).toBe(truth.hash);

    // A recorded state hash the state does not reproduce (newest), and a foreign snapshot (previous): a full replay.
    warnings.mockClear();
    const text = newest.toString('latin1');
    const newline = text.indexOf('\n');
    const meta = JSON.parse(text.slice(0, newline)) as Record<string, unknown>;
    writeFileSync(paths.newest, Buffer.concat([Buffer.from(`${JSON.stringify({ ...meta, stateHash: '0'.repeat(64) })}\n`), newest.subarray(newline + 1)]));
    const foreignJournal = await freshJournal('foreign.jsonl', START + 1);
    const foreign = await start(foreignJournal, 1);
    await traffic(foreign.url, 'foreign', 3);
    await foreign.close();
    copyFileSync(snapshotPaths(foreignJournal).newest, paths.previous);
    const replayed = await restartAndObserve(crashImage(image, 'bad-2.jsonl', true));
    const said = warnings.mock.calls.flat().join('\n');
    expect(said).toMatch(/snapshot .*bad-2\.jsonl\.snapshot ignored: the state read back has hash [0-9a-f]{12}, the snapshot recorded 000000000000/);
    expect(said).toContain('bad-2.jsonl.snapshot.prev ignored: it belongs to another journal');
    expect(replayed.lines.join('\n')).not.toContain('from the snapshot');
    expect(replayed.seen).toEqual(truth.seen);
    expect(replayed.hash).toBe(truth.hash);

    // Written by another build of the engine: not read, even though it would verify.
    warnings.mockClear();
    writeFileSync(paths.newest, Buffer.concat([Buffer.from(`${JSON.stringify({ ...meta, code: '1'.repeat(64) })}\n`), newest.subarray(newline + 1)]));
    rmSync(paths.previous);
    const otherBuild = await restartAndObserve(crashImage(image, 'bad-3.jsonl', true));
    expect(warnings.mock.calls.flat().join('\n')).toContain('bad-3.jsonl.snapshot ignored: it was written by another build of exsim');
    expect(otherBuild.lines.join('\n')).not.toContain('from the snapshot');
    expect(otherBuild.hash).toBe(truth.hash);

    // Stale: a snapshot of a later state than the journal holds (a journal restored from an older copy).
    warnings.mockClear();
    const later = await freshJournal('later.jsonl');
    const laterServer = await start(later, 0);
    await traffic(laterServer.url, 'bad', 50);
    const short = crashImage(later, 'later-short.jsonl', false);
    await traffic(laterServer.url, 'more', 5);
    await laterServer.close();
    copyFileSync(snapshotPaths(later).newest, snapshotPaths(short).newest);
    const stale = await restartAndObserve(short);
    expect(warnings.mock.calls.flat().join('\n')).toMatch(/later-short\.jsonl\.snapshot ignored: it covers \d+ bytes, the journal has \d+/);
    expect(stale.lines.join('\n')).not.toContain('from the snapshot');
    expect(stale.seen).toEqual(truth.seen);
  } finally {
    warnings.mockRestore();
  }
});

test('a snapshot write torn by a kill (its temp file) is never read; the newest complete one is', async () => {
  const journal = await freshJournal('torn.jsonl');
  const server = await start(journal, 10);
  await traffic(server.url, 'torn', 25);
  const image = crashImage(journal, 'torn-image.jsonl', true);
  const reference = crashImage(journal, 'torn-full.jsonl', false);
  await server.close();
  writeFileSync(snapshotPaths(image).temp, readFileSync(snapshotPaths(image).newest).subarray(0, 100));
  const restored = await restartAndObserve(image);
  expect(restored.lines.join('\n')).toContain('from the snapshot at 20 ');
  expect(restored.seen).toEqual((await restartAndObserve(reference)).seen);
});

test('a served replay (--data): a restart from a snapshot and the tail equals a full replay (tape position, fills, histories)', async () => {
  const journal = join(dir, 'replay.jsonl');
  const lines: string[] = [];
  // A fast clock: the tape moves on between requests, the market model fills resting orders.
  const server = await serve({ port: 0, host: '127.0.0.1', clock: 'speed:600', data: 'sample', seed: '3', journal, fsync: 'none', snapshotEvery: 15 }, (line) => lines.push(line));
  const price = Number(((await (await fetch(`${server.url}/api/v3/ticker/price?symbol=BTCUSDT`)).json()) as { price: string }).price);
  const random = seedrandom('replay-snap');
  const sign = (query: string, at: number): string => `${query}&recvWindow=60000&timestamp=${at}&signature=${createHmac('sha256', SECRET).update(`${query}&recvWindow=60000&timestamp=${at}`).digest('hex')}`;
  for (let i = 0; i < 50; i++) {
    const side = random() < 0.5 ? 'BUY' : 'SELL';
    const at = ((await (await fetch(`${server.url}/api/v3/time`)).json()) as { serverTime: number }).serverTime;
    const off = (random() * 0.002 - 0.0004) * price;
    const limit = (side === 'BUY' ? price - off : price + off).toFixed(2);
    const query = random() < 0.2 ? `symbol=BTCUSDT&side=${side}&type=MARKET&quantity=0.00100` : `symbol=BTCUSDT&side=${side}&type=LIMIT&timeInForce=GTC&price=${limit}&quantity=0.00200`;
    await fetch(`${server.url}/api/v3/order?${sign(query, at)}`, { method: 'POST', headers: HEADERS });
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
  const withSnapshots = crashImage(journal, 'replay-image.jsonl', true);
  const withoutSnapshots = crashImage(journal, 'replay-full.jsonl', false);
  await server.close();
  expect(lines.filter((l) => l.startsWith('journal: snapshot at')).length).toBeGreaterThanOrEqual(3);
  const restart = async (path: string) => {
    const out: string[] = [];
    const again = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: 'sample', seed: '3', journal: path, fsync: 'none', snapshotEvery: 0 }, (line) => out.push(line));
    const url = again.url;
    const now = ((await (await fetch(`${url}/api/v3/time`)).json()) as { serverTime: number }).serverTime;
    const get = async (path: string, query: string) => (await (await fetch(`${url}${path}?${sign(query, now)}`, { headers: HEADERS })).json()) as unknown;
    const seen = {
      now,
      account: await get('/api/v3/account', 'omitZeroBalances=true'),
      open: await get('/api/v3/openOrders', 'symbol=BTCUSDT'),
      all: await get('/api/v3/allOrders', 'symbol=BTCUSDT&limit=1000'),
      trades: await get('/api/v3/myTrades', 'symbol=BTCUSDT&limit=1000'),
      market: await (await fetch(`${url}/api/v3/trades?symbol=BTCUSDT&limit=1000`)).json(),
      klines: await (await fetch(`${url}/api/v3/klines?symbol=BTCUSDT&interval=1m&limit=1000`)).json(),
      depth: await (await fetch(`${url}/api/v3/depth?symbol=BTCUSDT&limit=100`)).json(),
      orderCount: await get('/api/v3/rateLimit/order', ''),
    };
    // The market moves on from where it was: the same prints and fills for the next simulated minutes.
    await again.control.advance({ byMs: 600_000 });
    const later = ((await (await fetch(`${url}/api/v3/time`)).json()) as { serverTime: number }).serverTime;
    const after = {
      later,
      trades: (await (await fetch(`${url}/api/v3/myTrades?${sign('symbol=BTCUSDT&limit=1000', later)}`, { headers: HEADERS })).json()) as unknown[],
      market: await (await fetch(`${url}/api/v3/trades?symbol=BTCUSDT&limit=1000`)).json(),
    };
    await again.close();
    return { seen: { ...seen, after }, out, hash: /state hash ([0-9a-f]{64})/.exec(out.join('\n'))![1]! };
  };
  const full = await restart(withoutSnapshots);
  const fromSnapshot = await restart(withSnapshots);
  expect(fromSnapshot.out.join('\n')).toMatch(/restored \d+ commands \(from the snapshot at \d+ \(state hash verified\)/);
  expect(full.out.join('\n')).not.toContain('from the snapshot');
  expect(fromSnapshot.seen).toEqual(full.seen);
  expect(fromSnapshot.hash).toBe(full.hash);
  expect((full.seen as { all: unknown[] }).all.length).toBeGreaterThan(30);
}, 60_000);
