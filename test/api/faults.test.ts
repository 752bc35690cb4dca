import { describe, expect, test } from 'vitest';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import type { FaultOptions } from '../../src/api-facade/context/faults.ts';
import { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { EngineBackend } from '../../src/api-facade/core/market-backend.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';
import { DEMO_KEY, DEMO_SECRET, T0 } from './fixture.ts';

function exchange(faults: FaultOptions) {
  const backend = new EngineBackend(SAMPLE_CONFIG, T0, sampleAccounts(T0));
  const ctx = new ExchangeContext({ backend, faults, apiKeys: [{ apiKey: DEMO_KEY, keyType: 'HMAC', secretKey: DEMO_SECRET, accountId: 1 }] });
  return { backend, client: new InProcessClient(ctx, { apiKey: DEMO_KEY, ip: '10.0.0.1' }) };
}

const ORDER = { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '60000' } as const;
const TIMEOUT = { code: -1007, msg: 'Timeout waiting for response from backend server. Send status unknown; execution status unknown.' };

describe('injected faults', () => {
  test('off by default: an SQL-looking value is just a bad parameter', () => {
    const { client } = exchange({});
    expect(client.get('/api/v3/depth', { symbol: "BTCUSDT' OR 1=1 --" }).json).toMatchObject({ code: -1100 });
  });

  test('the firewall refuses SQL statements with 403 and changes nothing; ordinary words pass', () => {
    const { backend, client } = exchange({ firewall: true });
    const before = backend.engine.stateHash();
    const blocked = client.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: '5 UNION SELECT password FROM users' });
    expect([blocked.status, blocked.json]).toEqual([403, { code: -1000, msg: 'Request blocked by the web application firewall.' }]);
    expect(client.post('/api/v3/order', { ...ORDER, newClientOrderId: 'x;DROP TABLE orders' }).status).toBe(403);
    expect(backend.engine.stateHash()).toBe(before);
    // SELL, ORDER, UPDATE as plain words are not statements.
    expect(client.post('/api/v3/order', { ...ORDER, newClientOrderId: 'SELL-ORDER-UPDATE' }).status).toBe(200);
  });

  test('an engine timeout answers 503 -1007 although the command ran; queries are never affected', () => {
    const { client } = exchange({ engineTimeoutProbability: 1 });
    const placed = client.post('/api/v3/order', { ...ORDER, newClientOrderId: 'lost-answer' });
    expect([placed.status, placed.json]).toEqual([503, TIMEOUT]);
    const found = client.get('/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'lost-answer' });
    expect([found.status, (found.json as any).status]).toEqual([200, 'NEW']);
    const canceled = client.delete('/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'lost-answer' });
    expect(canceled.status).toBe(503);
    expect((client.get('/api/v3/order', { symbol: 'BTCUSDT', origClientOrderId: 'lost-answer' }).json as any).status).toBe('CANCELED');
    // A refused order also loses its answer (the engine saw it), and still changed nothing.
    expect(client.post('/api/v3/order', { ...ORDER, price: '60000.001' }).status).toBe(503);
    // A request refused before the engine keeps its own error.
    expect(client.post('/api/v3/order', { ...ORDER, timeInForce: 'NOPE' }).json).toMatchObject({ code: -1115 });
  });

  test('timeouts are drawn from a seeded stream: the same run meets the same faults', () => {
    const statuses = (seed: number) => {
      const { client } = exchange({ engineTimeoutProbability: 0.5, seed });
      return Array.from({ length: 24 }, (_, i) => client.post('/api/v3/order', { ...ORDER, quantity: '0.01', price: String(60000 + i) }).status);
    };
    const a = statuses(7);
    expect(statuses(7)).toEqual(a);
    expect(new Set(a)).toEqual(new Set([200, 503]));
    expect(statuses(8)).not.toEqual(a);
  });
});
