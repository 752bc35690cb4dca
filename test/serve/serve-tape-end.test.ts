/**
 * `exsim serve --at-end`: what the served market does when its replayed tape runs out. A tiny
 * generated day (about 50 BTCUSDT prints) is replayed at speed:100000 (a day in under a second).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { genCommand } from '../../src/cli/data-commands.ts';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';
import type { TapeEndMode } from '../../src/sim/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'exsim-tape-end-'));
const DAY_START_MS = Date.UTC(2024, 0, 1);
const DAY_END_MS = DAY_START_MS + 86_400_000;

interface Trade {
  id: number;
  price: string;
  time: number;
}

beforeAll(async () => {
  await genCommand({
    out: dir,
    symbol: 'BTCUSDT',
    from: '2024-01-01',
    days: '1',
    seed: '7',
    price: '42000',
    tradesPerDay: '50',
    volatility: '0.025',
    tick: '0.01',
    step: '0.00001',
    medianQty: '0.0008',
    klines: '',
    aggTrades: false,
    csv: false,
  });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function served(atEnd: TapeEndMode): Promise<{ handle: ServeHandle; lines: string[] }> {
  const lines: string[] = [];
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'speed:100000', data: dir, atEnd, seed: '3' }, (line) => lines.push(line));
  return { handle, lines };
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function trades(url: string): Promise<Trade[]> {
  const answer = await fetch(`${url}/api/v3/trades?symbol=BTCUSDT&limit=1000`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as Trade[];
}

function expectForwardOnly(list: readonly Trade[]): void {
  for (let i = 1; i < list.length; i++) {
    expect(list[i]!.id).toBe(list[i - 1]!.id + 1);
    expect(list[i]!.time).toBeGreaterThanOrEqual(list[i - 1]!.time);
  }
}

describe('exsim serve --at-end', () => {
  test('loop or synthetic without --data is a one-line error: the static market has no tape', async () => {
    await expect(serve({ port: 0, host: '127.0.0.1', clock: 'realtime', atEnd: 'loop' }, () => undefined)).rejects.toThrow('--at-end loop needs --data: the static sample market has no tape');
  });

  test('stop: one line says the tape ended; the server keeps answering while time moves and nothing trades', async () => {
    const { handle, lines } = await served('stop');
    try {
      expect(handle.tapeEnd).toMatchObject({ mode: 'stop', ended: false, loops: 0 });
      await until(() => handle.tapeEnd!.ended, 'the end of the tape');
      const endedAt = handle.tapeEnd!.endedAt!;
      expect(endedAt).toBeGreaterThan(DAY_START_MS * 1000);
      expect(endedAt).toBeLessThan(DAY_END_MS * 1000);
      const said = lines.filter((line) => line.startsWith('exsim: the tape ended'));
      expect(said).toEqual([`exsim: the tape ended at ${new Date(Math.floor(endedAt / 1000)).toISOString()}; the market is still, orders and requests still work`]);
      const before = await trades(handle.url);
      expect(before.at(-1)!.time).toBe(Math.floor(endedAt / 1000));
      const timeThen = ((await (await fetch(`${handle.url}/api/v3/time`)).json()) as { serverTime: number }).serverTime;
      await until(async () => ((await (await fetch(`${handle.url}/api/v3/time`)).json()) as { serverTime: number }).serverTime > timeThen + 3_600_000, 'an hour of simulated time');
      expect(await trades(handle.url)).toEqual(before);
      const depth = (await (await fetch(`${handle.url}/api/v3/depth?symbol=BTCUSDT&limit=5`)).json()) as { bids: unknown[]; asks: unknown[] };
      expect(depth.bids.length).toBeGreaterThan(0);
      expect(depth.asks.length).toBeGreaterThan(0);
      expect(lines.filter((line) => line.startsWith('exsim: the tape ended'))).toHaveLength(1);
    } finally {
      await handle.close();
    }
  });

  test('loop: the tape again a day later, trade ids and times only going forward across the seams', async () => {
    const { handle, lines } = await served('loop');
    try {
      await until(() => handle.tapeEnd!.loops >= 2, 'two loops');
      await until(async () => (await trades(handle.url)).at(-1)!.time > DAY_END_MS + 86_400_000, 'the second loop\'s prints');
      const list = await trades(handle.url);
      expect(list[0]!.time).toBeLessThan(DAY_END_MS);
      expect(list.some((t) => t.time >= DAY_END_MS && t.time < DAY_END_MS + 86_400_000)).toBe(true);
      expectForwardOnly(list);
      // The loop replays the same prints: day 2's prices are day 1's.
      const day1 = list.filter((t) => t.time < DAY_END_MS);
      const day2 = list.filter((t) => t.time >= DAY_END_MS && t.time < DAY_END_MS + 86_400_000);
      expect(day2.map((t) => [t.time - 86_400_000, t.price])).toEqual(day1.map((t) => [t.time, t.price]));
      expect(lines.filter((line) => line.includes('; loop ')).slice(0, 2)).toEqual([
        expect.stringMatching(/^exsim: the tape ended \(BTCUSDT at 2024-01-01T\S+\); loop 1: replaying it again shifted by 1 day\(s\), trade ids continuing$/),
        expect.stringMatching(/^exsim: the tape ended \(BTCUSDT at 2024-01-02T\S+\); loop 2: replaying it again shifted by 2 day\(s\), trade ids continuing$/),
      ]);
      expect(handle.tapeEnd).toMatchObject({ mode: 'loop', ended: true });
    } finally {
      await handle.close();
    }
  });

  test('synthetic: seeded generated prints continue from the last price and time', async () => {
    const { handle, lines } = await served('synthetic');
    try {
      await until(() => handle.tapeEnd!.ended, 'the end of the tape');
      const endedAtMs = Math.floor(handle.tapeEnd!.endedAt! / 1000);
      const recorded = await trades(handle.url);
      const last = recorded.filter((t) => t.time <= endedAtMs).at(-1)!;
      await until(async () => (await trades(handle.url)).filter((t) => t.time > endedAtMs).length >= 20, 'twenty synthetic prints');
      const list = await trades(handle.url);
      expectForwardOnly(list);
      const after = list.filter((t) => t.time > endedAtMs);
      expect(after[0]!.id).toBe(last.id + 1);
      // Starts at the tape's last price: the first generated print is within 1% of it.
      expect(Math.abs(Number(after[0]!.price) / Number(last.price) - 1)).toBeLessThan(0.01);
      expect(lines).toContainEqual(expect.stringMatching(/^exsim: the BTCUSDT tape ended at 2024-01-01T\S+; continuing with synthetic trades \(seed 3\) from price \d+\.\d+, trade id \d+$/));
      expect(handle.tapeEnd).toMatchObject({ mode: 'synthetic', ended: true, loops: 0 });
    } finally {
      await handle.close();
    }
  });
});
