/**
 * The control plane (issue 15 item 3): a manual-clock server driven through a scenario over HTTP
 * (advance by and to, with exact server times, fills by the replayed prints in between), pause /
 * resume / speed on a paced server, accounts created while serving, status, and the admin key
 * (with failed authentications limited per IP).
 */
import { request } from 'node:http';
import { afterAll, describe, expect, test } from 'vitest';
import { Spot } from '@binance/connector';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';

const handles: ServeHandle[] = [];
afterAll(async () => {
  for (const h of handles) await h.close();
});
const silent = { log: () => {}, error: () => {}, info: () => {}, warn: () => {}, debug: () => {} };
const ADMIN = 'admin-secret-for-tests';
const H4 = Date.UTC(2024, 0, 1, 4);

async function start(clock: string, adminKey: string | null = ADMIN) {
  const handle = await serve({ port: 0, host: '127.0.0.1', clock, data: 'sample', ...(adminKey === null ? {} : { adminKey }) }, () => undefined);
  handles.push(handle);
  const call = async (method: string, path: string, key: string | null = ADMIN, body?: unknown) => {
    const res = await fetch(`${handle.url}${path}`, { method, headers: key === null ? {} : { 'X-EXSIM-ADMIN-KEY': key }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { handle, call };
}

describe('a manual-clock server driven over HTTP', () => {
  test('advance by and to move simulated time exactly; the prints in between are replayed', async () => {
    const { handle, call } = await start('manual');
    expect((await call('GET', '/exsim/v1/clock')).body).toEqual({ mode: 'manual', paused: false, speed: 0, serverTime: H4, serverTimeUs: H4 * 1000 });
    const spot = new Spot('exsim-demo-key', 'exsim-demo-secret', { baseURL: handle.url, logger: silent });
    // A wall-clock-signed request works though simulated time stands still.
    const bought = await spot.newOrder('BTCUSDT', 'BUY', 'MARKET', { quantity: '0.01' });
    expect(bought.data).toMatchObject({ status: 'FILLED', transactTime: H4 });
    const lastBefore = (await spot.trades('BTCUSDT', { limit: 1 })).data[0].time as number;
    expect((await call('POST', '/exsim/v1/clock/advance?by=600000')).body).toMatchObject({ serverTime: H4 + 600_000 });
    expect((await spot.time()).data.serverTime).toBe(H4 + 600_000);
    const lastAfter = (await spot.trades('BTCUSDT', { limit: 1 })).data[0].time as number;
    expect(lastAfter).toBeGreaterThan(lastBefore);
    expect(lastAfter).toBeLessThanOrEqual(H4 + 600_000);
    const klines = (await spot.klines('BTCUSDT', '1m', { startTime: H4, limit: 20 })).data as unknown[][];
    expect(klines.map((k) => k[0])).toEqual(Array.from({ length: 11 }, (_, i) => H4 + i * 60_000));
    expect((await call('POST', `/exsim/v1/clock/advance?to=${H4 + 3_600_000}`)).body.serverTime).toBe(H4 + 3_600_000);
    expect(await call('POST', `/exsim/v1/clock/advance?to=${H4}`)).toEqual({ status: 400, body: { code: -1130, msg: "Data sent for parameter 'to' is not valid." } });
    expect(await call('POST', '/exsim/v1/clock/advance')).toEqual({ status: 400, body: { code: -1102, msg: "Param 'by' or 'to' must be sent, but both were empty/null!" } });
    const status = (await call('GET', '/exsim/v1/status')).body;
    expect(status).toMatchObject({ clock: { serverTime: H4 + 3_600_000 }, symbols: ['BTCUSDT', 'ETHBTC'], replay: { data: 'sample', position: H4 + 3_600_000 } });
    // The same control in process.
    expect((await handle.control.advance({ byMs: 1000 })).serverTime).toBe(H4 + 3_601_000);
  });

  test('the admin key: none given refuses, a wrong one refuses, no --admin-key turns the control plane off', async () => {
    const { call } = await start('manual');
    expect(await call('GET', '/exsim/v1/clock', null)).toEqual({ status: 401, body: { code: -1002, msg: 'You are not authorized to execute this request.' } });
    expect((await call('GET', '/exsim/v1/clock', 'wrong')).status).toBe(401);
    expect((await call('GET', '/exsim/v1/nothing')).status).toBe(404);
    const off = await start('manual', null);
    expect(await off.call('GET', '/exsim/v1/clock')).toEqual({ status: 403, body: { code: -1002, msg: 'The exsim control API is off: start the server with --admin-key.' } });
  });
});

test('ten failed authentications from an IP in a minute: 429 -1003 with Retry-After for any key from it; other IPs are served', async () => {
  const { handle, call } = await start('manual');
  for (let i = 0; i < 10; i++) expect((await call('GET', '/exsim/v1/clock', `guess-${i}`)).status).toBe(401);
  const locked = await fetch(`${handle.url}/exsim/v1/clock`, { headers: { 'X-EXSIM-ADMIN-KEY': ADMIN } });
  expect([locked.status, await locked.json()]).toEqual([429, { code: -1003, msg: 'Too many failed control authentications; current limit is 10 per 60 seconds per IP.' }]);
  const retryAfter = Number(locked.headers.get('retry-after'));
  expect(retryAfter >= 1 && retryAfter <= 60).toBe(true);
  // The same key from another address (127.0.0.2: Linux routes all of 127/8 to the loopback).
  const { port } = new URL(handle.url);
  const other = await new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/exsim/v1/clock', localAddress: '127.0.0.2', headers: { 'X-EXSIM-ADMIN-KEY': ADMIN } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
  expect(other).toBe(200);
});

test('pause, resume and speed on a paced server; a hand move of a running clock is refused', async () => {
  const { call } = await start('speed:10');
  expect((await call('POST', '/exsim/v1/clock/advance?by=1000')).body).toMatchObject({ code: -1000 });
  const paused = (await call('POST', '/exsim/v1/clock/pause')).body;
  expect(paused).toMatchObject({ mode: 'speed:10', paused: true, speed: 0 });
  await new Promise((r) => setTimeout(r, 150));
  expect((await call('GET', '/exsim/v1/clock')).body.serverTimeUs).toBe(paused.serverTimeUs);
  expect((await call('POST', '/exsim/v1/clock/advance?by=5000')).body.serverTimeUs).toBe(paused.serverTimeUs + 5_000_000);
  expect((await call('POST', '/exsim/v1/clock/resume')).body).toMatchObject({ mode: 'speed:10', paused: false, speed: 10 });
  await new Promise((r) => setTimeout(r, 150));
  expect((await call('GET', '/exsim/v1/clock')).body.serverTimeUs).toBeGreaterThan(paused.serverTimeUs + 5_000_000);
  expect((await call('POST', '/exsim/v1/clock/speed?mode=speed:100')).body).toMatchObject({ mode: 'speed:100', speed: 100 });
  expect((await call('POST', '/exsim/v1/clock/speed?mode=warp')).status).toBe(400);
});

test('accounts created while serving trade at once with their keys', async () => {
  const { handle, call } = await start('manual');
  const created = await call('POST', '/exsim/v1/accounts', ADMIN, { accounts: [{ accountId: 42, apiKey: 'bot-42', secret: 'bot-42-secret', balances: { USDT: '2500' } }] });
  expect(created).toEqual({ status: 200, body: { accounts: [42] } });
  const spot = new Spot('bot-42', 'bot-42-secret', { baseURL: handle.url, logger: silent });
  const account = (await spot.account({ omitZeroBalances: true })).data;
  expect(account.balances).toEqual([{ asset: 'USDT', free: '2500.00000000', locked: '0.00000000' }]);
  expect((await spot.newOrder('BTCUSDT', 'BUY', 'LIMIT', { quantity: '0.01', price: '30000', timeInForce: 'GTC' })).data).toMatchObject({ status: 'NEW' });
  expect((await call('POST', '/exsim/v1/accounts', ADMIN, { accounts: [{ accountId: 42, balances: {} }] })).body).toEqual({ code: -1000, msg: 'Control request refused: account 42 exists' });
});
