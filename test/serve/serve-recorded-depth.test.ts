/**
 * `exsim serve --data DIR` over recorded depth (a generated Tardis L2 day): the served book is the
 * recorded one (the start line names it), REST depth shows its levels from --from on, the clock
 * moved through the control plane moves the book with it, a MARKET order walks the recorded
 * levels, and --at-end loop is refused (it would continue the trades without the depth).
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { writeSyntheticL2Days } from '../../src/data/index.ts';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';

const DAY = Date.UTC(2024, 0, 1) * 1000;
const ADMIN = 'admin-key-for-tests';
let dir = '';
const handles: ServeHandle[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'exsim-serve-l2-'));
  await writeSyntheticL2Days(dir, {
    symbol: 'BTCUSDT', seed: 3, scale: { quotePrecision: 8, basePrecision: 8 }, tickSize: 1_000_000, stepSize: 1_000, startPrice: 4_200_000_000_000,
    startTime: DAY, endTime: DAY + 86_400_000_000, tradesPerDay: 20_000, depthRowsPerDay: 200_000, dailyVolatility: 0.02, medianQty: 80_000, firstTradeId: 700_000,
  });
}, 60_000);

afterAll(async () => {
  for (const h of handles) await h.close();
});

type Book = { lastUpdateId: number; bids: [string, string][]; asks: [string, string][] };

test('the served book is the recorded one, moves with the clock, and a MARKET order walks it', async () => {
  const lines: string[] = [];
  const handle = await serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: dir, from: '2024-01-01T01:00', adminKey: ADMIN }, (line) => lines.push(line));
  handles.push(handle);
  expect(lines).toContain('BTCUSDT: recorded L2 (tardis incremental_book_L2)');
  const depth = async (): Promise<Book> => (await (await fetch(`${handle.url}/api/v3/depth?symbol=BTCUSDT&limit=5000`)).json()) as Book;
  const first = await depth();
  // The recorded book holds more levels than the synthetic books keep (10 to 20 a side).
  expect(first.bids.length).toBeGreaterThan(30);
  expect(first.asks.length).toBeGreaterThan(30);
  const advance = await fetch(`${handle.url}/exsim/v1/clock/advance?by=600000`, { method: 'POST', headers: { 'X-EXSIM-ADMIN-KEY': ADMIN } });
  expect(advance.status).toBe(200);
  const later = await depth();
  expect(later.lastUpdateId).toBeGreaterThan(first.lastUpdateId);
  expect(later.bids.slice(0, 20)).not.toEqual(first.bids.slice(0, 20));
  const query = `symbol=BTCUSDT&side=BUY&type=MARKET&quantity=${(Number(later.asks[0]![1]) + Number(later.asks[1]![1])).toFixed(5)}&newOrderRespType=FULL&recvWindow=60000&timestamp=${Date.now()}`;
  const signature = createHmac('sha256', 'exsim-demo-secret').update(query).digest('hex');
  const order = (await (await fetch(`${handle.url}/api/v3/order?${query}&signature=${signature}`, { method: 'POST', headers: { 'X-MBX-APIKEY': 'exsim-demo-key' } })).json()) as { status: string; fills: { price: string; qty: string }[] };
  expect(order.status).toBe('FILLED');
  expect(order.fills.map((f) => [f.price, f.qty])).toEqual([later.asks[0], later.asks[1]]);
}, 60_000);

test('--at-end loop over recorded depth is refused in one line', async () => {
  await expect(serve({ port: 0, host: '127.0.0.1', clock: 'manual', data: dir, atEnd: 'loop' }, () => undefined)).rejects.toThrow(
    '--at-end loop continues the trades only: with recorded depth (BTCUSDT) the served market ends with its data (--at-end stop)',
  );
});
