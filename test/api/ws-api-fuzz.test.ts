/**
 * fast-check fuzzing of the WebSocket API connection (driven directly, no socket): random frames
 * (not JSON, JSON of any shape, JSON nested thousands of levels deep, real method names with real
 * and junk parameters of every JSON type, signed or not). Whatever arrives, each frame gets exactly one answer first, with the
 * request's id when readable, an allowed status, `result` or `error: {code, msg}`; nothing throws,
 * and a refused request changes no account.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { WsApiConnection } from '../../src/api-facade/ws-api/ws-api-connection.ts';
import { wsApiMethodNames } from '../../src/api-facade/ws-api/ws-api-methods.ts';
import { DEMO_KEY, DEMO_SECRET, makeFixture, seedBook, T0_MS } from './fixture.ts';
import { signParams } from './ws-api-client.ts';

const ALLOWED_STATUSES = new Set([200, 400, 401, 403, 404, 409, 418, 429]);
const NAMES = ['symbol', 'symbols', 'side', 'type', 'timeInForce', 'quantity', 'price', 'orderId', 'limit', 'interval', 'timestamp', 'recvWindow', 'apiKey', 'signature', 'returnRateLimits', 'subscriptionId', 'x', ''];
const scalar = fc.oneof(
  fc.constantFrom('BTCUSDT', 'ETHBTC', 'BUY', 'SELL', 'LIMIT', 'MARKET', 'GTC', '0.01', '40000', '1m', String(T0_MS), DEMO_KEY, '', 'é', '\u0000'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 8 }),
);
const value = fc.oneof({ weight: 5, arbitrary: scalar }, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 2 }));
const params = fc.dictionary(fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 5 })), value, { maxKeys: 8 });
const id = fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constant(null), fc.double(), fc.constant(undefined), fc.array(fc.integer(), { maxLength: 1 }));
const frame = fc.oneof(
  { weight: 6, arbitrary: fc.record({ id, method: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...wsApiMethodNames()) }, fc.string({ maxLength: 8 }), fc.integer()), params: fc.option(params), signed: fc.boolean() }) },
  fc.string({ maxLength: 30 }),
  fc.json(),
  // Nested past the recursion limit (issue 25): -1135 with the id, never a 500.
  fc.tuple(fc.integer({ min: 100, max: 6000 }), fc.constantFrom('ping', 'order.place')).map(([depth, method]) => `{"id":"deep","method":"${method}","params":{"x":${'['.repeat(depth)}${']'.repeat(depth)}}}`),
);

describe('the WebSocket API under random frames', () => {
  test('one well-formed answer per frame, first; refusals change no balance', () => {
    fc.assert(
      fc.property(fc.array(frame, { minLength: 1, maxLength: 6 }), (frames) => {
        const f = makeFixture();
        seedBook(f);
        const sent: string[] = [];
        const connection = new WsApiConnection(f.ctx, { ip: '10.0.0.7', unit: 'MILLISECOND', returnRateLimits: true, send: (t) => void sent.push(t), close: () => undefined });
        for (const fr of frames) {
          const before = JSON.stringify(f.demo.get('/api/v3/account').json);
          let text: string;
          if (typeof fr === 'string') text = fr;
          else {
            const p = fr.params === null ? undefined : fr.signed ? signParams({ ...fr.params, timestamp: T0_MS }, { apiKey: DEMO_KEY, hmacSecret: DEMO_SECRET }) : fr.params;
            text = JSON.stringify({ id: fr.id, method: fr.method, ...(p === undefined ? {} : { params: p }) });
          }
          sent.length = 0;
          expect(() => connection.handle(text)).not.toThrow();
          expect(sent.length).toBeGreaterThanOrEqual(1);
          const answer = JSON.parse(sent[0]!);
          expect(ALLOWED_STATUSES.has(answer.status)).toBe(true);
          expect('id' in answer).toBe(true);
          if (answer.status === 200) expect('result' in answer).toBe(true);
          else {
            expect(Object.keys(answer.error).slice(0, 2)).toEqual(['code', 'msg']);
            expect(JSON.stringify(f.demo.get('/api/v3/account').json)).toBe(before);
          }
        }
        connection.close();
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });
});
