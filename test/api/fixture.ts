/**
 * A small exchange for the facade tests: the sample market on a bare engine at a fixed simulated
 * time, the demo key (account 1) and a market-maker key (account 2), and helpers to send
 * requests through handleRequest.
 */
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { handleRequest, type ApiResponse } from '../../src/api-facade/rest/handle-request.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import { signHmacSha256 } from '../../src/api-facade/signing/hmac-sha256.ts';
import type { RateLimit } from '../../src/api-facade/limits/rate-limit-config.ts';
import type { RequestWeightLimiterOptions } from '../../src/api-facade/limits/request-weight-limiter.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';

/** 2026-01-01T00:00:00Z in µs. */
export const T0 = 1_767_225_600_000_000;
export const T0_MS = T0 / 1000;
export const DEMO_KEY = 'exsim-demo-key';
export const DEMO_SECRET = 'exsim-demo-secret';
export const MM_KEY = 'exsim-maker-key';
export const MM_SECRET = 'exsim-maker-secret';

export interface Fixture {
  backend: EngineBackend;
  ctx: ExchangeContext;
  demo: InProcessClient;
  maker: InProcessClient;
}

export function makeFixture(options: { weightLimiter?: Omit<RequestWeightLimiterOptions, 'rateLimits'>; rateLimits?: readonly RateLimit[] } = {}): Fixture {
  const backend = new EngineBackend(SAMPLE_CONFIG, T0, sampleAccounts(T0));
  const ctx = new ExchangeContext({
    backend,
    apiKeys: [
      { apiKey: DEMO_KEY, keyType: 'HMAC', secretKey: DEMO_SECRET, accountId: 1 },
      { apiKey: MM_KEY, keyType: 'HMAC', secretKey: MM_SECRET, accountId: 2 },
    ],
    ...(options.weightLimiter === undefined ? {} : { weightLimiter: options.weightLimiter }),
    ...(options.rateLimits === undefined ? {} : { rateLimits: options.rateLimits }),
  });
  return { backend, ctx, demo: new InProcessClient(ctx, { apiKey: DEMO_KEY, ip: '10.0.0.1' }), maker: new InProcessClient(ctx, { apiKey: MM_KEY, ip: '10.0.0.2' }) };
}

/** Market maker quotes BTCUSDT: asks 50010/50020, bids 49990/49980, 0.5 BTC each. */
export function seedBook(f: Fixture): void {
  for (const [side, price] of [['SELL', '50010'], ['SELL', '50020'], ['BUY', '49990'], ['BUY', '49980']] as const) {
    const r = f.maker.post('/api/v3/order', { symbol: 'BTCUSDT', side, type: 'LIMIT', timeInForce: 'GTC', quantity: '0.5', price });
    if (r.status !== 200) throw new Error(`seed failed: ${r.body}`);
  }
}

/** A raw request through handleRequest, signing `payload` (query + body) with `secret` when given. */
export function raw(
  f: Fixture,
  method: string,
  path: string,
  query: string,
  options: { body?: string; key?: string; secret?: string; headers?: Record<string, string>; ip?: string } = {},
): ApiResponse & { json: any } {
  const body = options.body ?? '';
  let q = query;
  let b = body;
  if (options.secret !== undefined) {
    const sig = signHmacSha256(options.secret, q + b);
    if (b !== '') b += `&signature=${sig}`;
    else q += `${q === '' ? '' : '&'}signature=${sig}`;
  }
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key !== undefined) headers['x-mbx-apikey'] = options.key;
  if (b !== '') headers['content-type'] = 'application/x-www-form-urlencoded';
  const r = handleRequest(f.ctx, { method, path, rawQuery: q, rawBody: b, headers, ip: options.ip ?? '10.0.0.9' });
  return { ...r, json: JSON.parse(r.body) };
}
