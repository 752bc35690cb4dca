/**
 * fast-check fuzzing of a USDⓈ-M futures WebSocket API connection (venue FUTURES_WS_API, driven
 * directly, no socket): random frames with the ws-fapi method names and real and junk parameters
 * of every JSON type, signed or not. Each frame gets exactly one answer first, with an allowed
 * status and `result` or `error: {code, msg}`; nothing throws; a refused request changes neither
 * the futures account (GET /fapi/v3/account) nor the positions; and spot's weight budget is never
 * touched (every frame counts against the futures limiter).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { WsApiConnection } from '../../src/api-facade/ws-api/ws-api-connection.ts';
import { FUTURES_WS_API } from '../../src/api-facade/ws-api/ws-fapi-methods.ts';
import { DEMO_KEY, DEMO_SECRET } from './fixture.ts';
import { futuresTradingFixture, fund, mark, quote, T0_MS } from './futures-trading/futures-fixture.ts';
import { signParams } from './ws-api-client.ts';

const ALLOWED_STATUSES = new Set([200, 400, 401, 403, 404, 409, 418, 429]);
const NAMES = ['symbol', 'side', 'type', 'timeInForce', 'quantity', 'price', 'orderId', 'origClientOrderId', 'positionSide', 'reduceOnly', 'algoType', 'triggerPrice', 'algoId', 'limit', 'timestamp', 'recvWindow', 'apiKey', 'signature', 'returnRateLimits', 'x', ''];
const scalar = fc.oneof(
  fc.constantFrom('BTCUSDT', 'ETHUSDT', 'BUY', 'SELL', 'LIMIT', 'MARKET', 'STOP_MARKET', 'CONDITIONAL', 'GTC', 'GTX', 'LONG', 'BOTH', 'true', '0.01', '49000', '50010', String(T0_MS), DEMO_KEY, '', '\u0000'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 8 }),
);
const value = fc.oneof({ weight: 5, arbitrary: scalar }, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 3 }), scalar, { maxKeys: 2 }));
const params = fc.dictionary(fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 5 })), value, { maxKeys: 8 });
const id = fc.oneof(fc.integer(), fc.string({ maxLength: 6 }), fc.constant(null), fc.double(), fc.constant(undefined));
const frame = fc.oneof(
  { weight: 6, arbitrary: fc.record({ id, method: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...FUTURES_WS_API.names()) }, fc.string({ maxLength: 8 })), params: fc.option(params), signed: fc.boolean() }) },
  fc.string({ maxLength: 30 }),
  fc.json(),
);

test('ws-fapi under random frames: one well-formed answer per frame, first; refusals change no futures state; spot weight untouched', () => {
  fc.assert(
    fc.property(fc.array(frame, { minLength: 1, maxLength: 6 }), (frames) => {
      const f = futuresTradingFixture();
      mark(f, '50000');
      quote(f);
      fund(f.demo, '1000');
      const sent: string[] = [];
      const connection = new WsApiConnection(f.ctx, { venue: FUTURES_WS_API, ip: '10.0.0.7', unit: 'MILLISECOND', returnRateLimits: true, send: (t) => void sent.push(t), close: () => undefined });
      const state = (): string => JSON.stringify([f.demo.get('/fapi/v3/account').json, f.demo.get('/fapi/v1/openOrders').json]);
      for (const fr of frames) {
        const before = state();
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
          expect(state()).toBe(before);
        }
      }
      // The connection's frames went to the futures limiter only (the in-process REST calls above are /fapi and /sapi ones from other IPs).
      // One weighed request (orders weigh 0 on the IP) so the futures window surely moved.
      connection.handle('{"id":0,"method":"ticker.price","params":{"symbol":"BTCUSDT"}}');
      const used = (limiter: typeof f.ctx.weightLimiter): number => limiter.usage('10.0.0.7', f.ctx.now()).reduce((sum, u) => sum + u.used, 0);
      expect(used(f.ctx.weightLimiter)).toBe(0);
      expect(used(f.ctx.futuresWeightLimiter)).toBeGreaterThan(0);
      connection.close();
    }),
    { numRuns: 200, seed: 20261127 },
  );
});
