/**
 * Handlers that serialize their own answer (JsonText) must send exactly the bytes JSON.stringify
 * would: the depth answer is compared with JSON.stringify of the value it denotes, built the
 * plain way from the engine's depth view.
 */
import { describe, expect, it } from 'vitest';
import { handleRequest } from '../../../../src/api-facade/rest/handle-request.ts';
import { decimalPairsJson } from '../../../../src/api-facade/serialize/json-text.ts';
import { formatUnits } from '../../../../src/engine/units.ts';
import { makeFixture, seedBook } from '../../../api/fixture.ts';

describe('JsonText answers are JSON.stringify byte for byte', () => {
  it('decimal [price, qty] pairs, empty or not, negative or not', () => {
    const levels: [number, number][] = [
      [5_000_000_000_000, 10_000_000],
      [1, 0],
      [-250, 123_456_789],
    ];
    for (const n of [0, 1, 3]) {
      const some = levels.slice(0, n);
      expect(decimalPairsJson(some, 8, 6)).toBe(JSON.stringify(some.map(([p, q]) => [formatUnits(p, 8), formatUnits(q, 6)])));
    }
  });

  it('GET depth: the body is the stringified {lastUpdateId, bids, asks} of the engine view', () => {
    const f = makeFixture();
    seedBook(f);
    for (const limit of [1, 5, 100]) {
      const r = handleRequest(f.ctx, { method: 'GET', path: '/api/v3/depth', rawQuery: `symbol=BTCUSDT&limit=${limit}`, rawBody: '', headers: {} });
      expect(r.status).toBe(200);
      const engine = f.backend.engine;
      const spec = engine.symbolSpec('BTCUSDT')!;
      const view = engine.depth('BTCUSDT', limit);
      const pairs = (side: readonly (readonly [number, number])[]) => side.map(([p, q]) => [formatUnits(p, spec.quotePrecision), formatUnits(q, spec.basePrecision)]);
      expect(r.body).toBe(JSON.stringify({ lastUpdateId: engine.sequence, bids: pairs(view.bids), asks: pairs(view.asks) }));
    }
  });
});
