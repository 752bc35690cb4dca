/**
 * What a served exchange keeps besides engine commands (issue 13): accounts and API keys created
 * through the control plane, hand moves of the clock, fiat deposit records (and the PAYOUT the
 * pay ledger shows for each), equity disclaimer acceptances, the pacing the control plane set
 * (pause, resume, speed). Each is journaled before its answer
 * leaves: a copy of the journal taken right after the answers (what a kill -9 at that instant
 * leaves on disk) restores all of it from the journal, and a clean stop and start from its snapshot.
 */
import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { serve, type ServeHandle } from '../../src/serve/serve.ts';
import { WsApiTestClient } from '../api/ws-api-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'exsim-journal-facade-'));
const handles: ServeHandle[] = [];
afterAll(async () => {
  for (const h of handles) await h.close().catch(() => undefined);
  rmSync(dir, { recursive: true, force: true });
});

const ADMIN = 'admin-key-for-the-journal-test';
const H4 = Date.UTC(2024, 0, 1, 4);
const ED = generateKeyPairSync('ed25519');

async function start(journal: string, clock = 'manual') {
  const printed: string[] = [];
  const handle = await serve({ port: 0, host: '127.0.0.1', clock, data: 'sample', adminKey: ADMIN, journal }, (line) => printed.push(line));
  handles.push(handle);
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${handle.url}${path}`, { method, headers: { 'X-EXSIM-ADMIN-KEY': ADMIN }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return (await res.json()) as any;
  };
  /** A signed request with an HMAC secret or the Ed25519 private key (the server's time as timestamp: the clock is manual). */
  const signed = async (method: string, path: string, apiKey: string, secret: string | 'ed25519', params: Record<string, string> = {}, body?: string) => {
    const serverTime = ((await (await fetch(`${handle.url}/api/v3/time`)).json()) as { serverTime: number }).serverTime;
    const query = new URLSearchParams({ ...params, timestamp: String(serverTime) }).toString();
    const payload = query + (body ?? '');
    const signature = secret === 'ed25519' ? sign(null, Buffer.from(payload), ED.privateKey).toString('base64') : createHmac('sha256', secret).update(payload).digest('hex');
    const res = await fetch(`${handle.url}${path}?${query}&signature=${encodeURIComponent(signature)}`, {
      method,
      headers: { 'X-MBX-APIKEY': apiKey, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { handle, admin, signed, printed };
}

const ACCOUNTS = {
  accounts: [
    { accountId: 42, apiKey: 'bot-42', secret: 'bot-42-secret', balances: { USDT: '2500' } },
    { accountId: 43, apiKey: 'bot-43-ed', keyType: 'ED25519', publicKey: ED.publicKey.export({ type: 'spki', format: 'pem' }).toString(), balances: { BTC: '0.5' } },
  ],
};

/** What the restored server must show: the accounts trade with their keys, the clock, the fiat records. */
async function expectRestored(server: Awaited<ReturnType<typeof start>>, clockMs: number) {
  expect((await server.admin('GET', '/exsim/v1/clock')).serverTime).toBe(clockMs);
  const usdt = await server.signed('GET', '/api/v3/account', 'bot-42', 'bot-42-secret', { omitZeroBalances: 'true' });
  expect(usdt.status).toBe(200);
  expect(usdt.body.balances).toEqual([{ asset: 'USDT', free: '2500.00000000', locked: '0.00000000' }]);
  const btc = await server.signed('GET', '/api/v3/account', 'bot-43-ed', 'ed25519', { omitZeroBalances: 'true' });
  expect(btc.status).toBe(200);
  expect(btc.body.balances).toEqual([{ asset: 'BTC', free: '0.50000000', locked: '0.00000000' }]);
  // 49,990 of the 50,000 BRL daily limit were deposited before the restart: 20 more is over it.
  const over = await server.signed('POST', '/sapi/v1/fiat/deposit', 'exsim-demo-key', 'exsim-demo-secret', {}, '{"currency":"BRL","apiPaymentMethod":"pix","amount":20}');
  expect(over.body).toMatchObject({ code: '-16007', success: false });
  const next = await server.signed('POST', '/sapi/v1/fiat/deposit', 'exsim-demo-key', 'exsim-demo-secret', {}, '{"currency":"BRL","apiPaymentMethod":"pix","amount":10}');
  expect(next.body).toMatchObject({ success: true, data: { orderId: 'exsimfd2' } });
  const payments = await server.signed('GET', '/sapi/v1/pay/transactions', 'exsim-demo-key', 'exsim-demo-secret');
  expect(payments.body.data.map((p: any) => [p.orderType, p.amount, p.transactionTime])).toEqual([
    ['PAYOUT', '10.00000000', clockMs],
    ['PAYOUT', '49990.00000000', H4 + 60_000],
  ]);
}

test('control-plane accounts and keys, clock moves, fiat and pay records and disclaimers survive a kill at the answer and a clean restart', async () => {
  const journal = join(dir, 'served.jsonl');
  const first = await start(journal);
  expect(await first.admin('POST', '/exsim/v1/accounts', ACCOUNTS)).toEqual({ accounts: [42, 43] });
  expect((await first.admin('POST', '/exsim/v1/clock/advance?by=60000')).serverTime).toBe(H4 + 60_000);
  const deposit = await first.signed('POST', '/sapi/v1/fiat/deposit', 'exsim-demo-key', 'exsim-demo-secret', {}, '{"currency":"BRL","apiPaymentMethod":"pix","amount":49990}');
  expect(deposit.body).toMatchObject({ success: true, data: { orderId: 'exsimfd1' } });
  expect((await first.signed('POST', '/sapi/v1/equity/account/disclaimer', 'bot-42', 'bot-42-secret')).body).toEqual({ success: true });
  expect((await first.admin('POST', '/exsim/v1/clock/advance?by=30000')).serverTime).toBe(H4 + 90_000);

  // A kill -9 now leaves on disk exactly what was written before the answers: a copy of it.
  const crashed = join(dir, 'crashed.jsonl');
  copyFileSync(journal, crashed);
  expect(statSync(journal).mode & 0o777).toBe(0o600);
  // The public key is journaled as the public key (SPKI), the disclaimer as [account, µs].
  const text = readFileSync(crashed, 'utf8');
  expect(text).toContain('"apiKey":"bot-43-ed"');
  expect(text).toContain('BEGIN PUBLIC KEY');
  expect(text).toContain(`"disclaimers":[[42,${(H4 + 60_000) * 1000}]]`);
  await expectRestored(await start(crashed), H4 + 90_000);

  // A clean stop (it writes a snapshot) and start of the original: the facade state comes back from the snapshot.
  await first.handle.close();
  handles.splice(handles.indexOf(first.handle), 1);
  const again = await start(journal);
  expect(again.printed.join('\n')).toMatch(/from the snapshot at \d+ \(state hash verified\)/);
  await expectRestored(again, H4 + 90_000);
}, 120_000);

test('orders placed and canceled over the WebSocket API are journaled before their answers', async () => {
  const journal = join(dir, 'ws-api.jsonl');
  const server = await start(journal);
  const client = await WsApiTestClient.open(`${server.handle.url.replace('http:', 'ws:')}/ws-api/v3`);
  try {
    const demo = { apiKey: 'exsim-demo-key', hmacSecret: 'exsim-demo-secret' } as const;
    const order = (price: string) => client.signed('order.place', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.01', price, timestamp: H4 }, demo);
    const kept = (await order('30000')).result;
    const canceled = (await order('30100')).result;
    expect((await client.signed('order.cancel', { symbol: 'BTCUSDT', orderId: canceled.orderId, timestamp: H4 }, demo)).result).toMatchObject({ status: 'CANCELED' });
    // A kill -9 right after the last answer: the copy holds both orders and the cancel.
    const crashed = join(dir, 'ws-api-crashed.jsonl');
    copyFileSync(journal, crashed);
    const restored = await start(crashed);
    const open = await restored.signed('GET', '/api/v3/openOrders', 'exsim-demo-key', 'exsim-demo-secret', { symbol: 'BTCUSDT' });
    expect(open.body.map((o: any) => [o.orderId, o.price, o.status])).toEqual([[kept.orderId, '30000.00000000', 'NEW']]);
    const gone = await restored.signed('GET', '/api/v3/order', 'exsim-demo-key', 'exsim-demo-secret', { symbol: 'BTCUSDT', orderId: String(canceled.orderId) });
    expect(gone.body).toMatchObject({ orderId: canceled.orderId, status: 'CANCELED' });
  } finally {
    client.close();
  }
}, 120_000);

test('the pacing set through the control plane (pause, speed) survives a kill at the answer and a clean restart, whatever --clock the restart names', async () => {
  const journal = join(dir, 'paced.jsonl');
  const first = await start(journal, 'speed:10');
  const paused = await first.admin('POST', '/exsim/v1/clock/pause');
  expect(paused).toMatchObject({ mode: 'speed:10', paused: true, speed: 0 });

  // A kill -9 right after the answer, restarted with another --clock: still paused, at the paused time.
  const crashed = join(dir, 'paced-crashed.jsonl');
  copyFileSync(journal, crashed);
  const restored = await start(crashed, 'realtime');
  expect(restored.printed.join('\n')).toContain('clock: paused (speed:10 on resume) (as the journal left it; --clock realtime not used)');
  expect(await restored.admin('GET', '/exsim/v1/clock')).toEqual({ ...paused });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect((await restored.admin('GET', '/exsim/v1/clock')).serverTimeUs).toBe(paused.serverTimeUs);
  expect(await restored.admin('POST', '/exsim/v1/clock/resume')).toMatchObject({ mode: 'speed:10', paused: false, speed: 10 });

  // A speed change, a clean stop (snapshot) and a start with --clock manual: the journal's speed runs.
  expect(await first.admin('POST', '/exsim/v1/clock/speed?mode=speed:5')).toMatchObject({ mode: 'speed:5', paused: false, speed: 5 });
  await first.handle.close();
  handles.splice(handles.indexOf(first.handle), 1);
  const again = await start(journal, 'manual');
  expect(again.printed.join('\n')).toMatch(/from the snapshot at \d+ \(state hash verified\)/);
  expect(await again.admin('GET', '/exsim/v1/clock')).toMatchObject({ mode: 'speed:5', paused: false, speed: 5 });
}, 120_000);
