/**
 * `exsim serve --data sample --futures BTCUSDT` (issue 28): a bot shorts the perpetual over HTTP
 * exactly as against fapi.binance.com, the served clock moves past 08:00 UTC, and the short is
 * paid funding as Binance books it (income FUNDING_FEE at the funding time, the rate and mark
 * GET /fapi/v1/fundingRate reports for it). Manual clock, moved by the control plane.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { afterAll, expect, test } from 'vitest';
import { spawnServe } from './spawn-serve.ts';

let child: ChildProcessWithoutNullStreams | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
});

const ADMIN = 'futures-test-admin';

async function startServer(): Promise<string> {
  const served = spawnServe(['--port', '0', '--data', 'sample', '--clock', 'manual', '--futures', 'BTCUSDT', '--admin-key', ADMIN]);
  child = served.child;
  return (await served.ready).url;
}

test('a short over HTTP on the served perpetual receives funding at 08:00 UTC', async () => {
  const url = await startServer();
  const signed = async (method: string, path: string, params: Record<string, string>) => {
    const { serverTime } = (await (await fetch(`${url}/fapi/v1/time`)).json()) as { serverTime: number };
    const query = new URLSearchParams({ ...params, timestamp: String(serverTime) }).toString();
    const signature = createHmac('sha256', 'exsim-demo-secret').update(query).digest('hex');
    const response = await fetch(`${url}${path}?${query}&signature=${signature}`, { method, headers: { 'X-MBX-APIKEY': 'exsim-demo-key' } });
    return { status: response.status, body: (await response.json()) as unknown };
  };
  expect(await signed('POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '1000' })).toEqual({ status: 200, body: { tranId: 1 } });
  expect((await signed('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '10' })).body).toEqual({ leverage: 10, maxNotionalValue: '70000000.00000000', symbol: 'BTCUSDT' });
  const order = await signed('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.010', newOrderRespType: 'RESULT' });
  expect(order.body).toMatchObject({ status: 'FILLED', executedQty: '0.010', side: 'SELL', type: 'MARKET', positionSide: 'BOTH' });
  // The manual clock stands at 04:00 (the warm-up); move it past the 08:00 funding.
  const moved = await fetch(`${url}/exsim/v1/clock/advance?to=${Date.UTC(2024, 0, 1, 8, 0, 1)}`, { method: 'POST', headers: { 'X-EXSIM-ADMIN-KEY': ADMIN } });
  expect(moved.status).toBe(200);
  const [position] = (await signed('GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).body as Record<string, string>[];
  expect(position!['positionAmt']).toBe('-0.010');
  const [rate] = (await (await fetch(`${url}/fapi/v1/fundingRate?symbol=BTCUSDT&startTime=${Date.UTC(2024, 0, 1, 8)}&limit=1`)).json()) as { fundingRate: string; markPrice: string; fundingTime: number }[];
  expect(rate!.fundingTime).toBe(Date.UTC(2024, 0, 1, 8));
  const income = (await signed('GET', '/fapi/v1/income', { incomeType: 'FUNDING_FEE' })).body as { income: string; time: number; symbol: string }[];
  expect(income).toHaveLength(1);
  expect(income[0]).toMatchObject({ symbol: 'BTCUSDT', time: Date.UTC(2024, 0, 1, 8) });
  // A short receives 0.010 × mark × rate when the rate is positive (rounded down to the unit).
  const expected = Math.floor(0.01 * Number(rate!.markPrice) * Number(rate!.fundingRate) * 1e8) / 1e8;
  expect(Number(income[0]!.income)).toBeCloseTo(expected, 8);
}, 60_000);
