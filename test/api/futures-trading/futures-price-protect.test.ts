/**
 * priceProtect on /fapi/v1/algoOrder (futures facts §3.2: "at trigger, mark-vs-last deviation must be
 * ≤ symbol triggerProtect"): BTCUSDT's triggerProtect is 0.15 here (exchangeInfo). The demo is short
 * 0.01 from 49 990, the contract's last trade; a BUY stop at 55 000 watches the mark.
 */
import { expect, test } from 'vitest';
import { futuresTradingFixture, fund, mark, quote, type FuturesTradingFixture } from './futures-fixture.ts';

function shortWithStop(priceProtect: 'true' | 'false'): { f: FuturesTradingFixture; statuses: () => string[] } {
  const f = futuresTradingFixture();
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  expect(f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01' }).status).toBe(200);
  const stream: Record<string, any>[] = [];
  f.ctx.futuresUserStream.subscribe(1, (e) => stream.push(e));
  const r = f.demo.post('/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', triggerPrice: '55000', workingType: 'MARK_PRICE', closePosition: 'true', priceProtect });
  expect(r.status).toBe(200);
  expect((r.json as Record<string, unknown>)['priceProtect']).toBe(priceProtect === 'true');
  return { f, statuses: () => stream.filter((e) => e['e'] === 'ALGO_UPDATE').map((e) => `${e['o'].X} pP=${e['o'].pP}`) };
}

const position = (f: FuturesTradingFixture) => (f.demo.get('/fapi/v3/positionRisk', { symbol: 'BTCUSDT' }).json as { positionAmt: string }[]).map((p) => p.positionAmt);

test('a protected stop does not fire while the mark is more than 15% from the last price (60 000 vs 49 990: 16.7%), then fires at 58 000 (13.8%)', () => {
  const { f, statuses } = shortWithStop('true');
  mark(f, '60000');
  expect(statuses()).toEqual(['NEW pP=true']);
  expect(position(f)).toEqual(['-0.010']);
  mark(f, '58000');
  expect(statuses()).toEqual(['NEW pP=true', 'TRIGGERING pP=true', 'TRIGGERED pP=true', 'FINISHED pP=true']);
  expect(position(f)).toEqual([]);
});

test('without priceProtect the same stop fires at the mark of 60 000', () => {
  const { f, statuses } = shortWithStop('false');
  mark(f, '60000');
  expect(statuses()).toEqual(['NEW pP=false', 'TRIGGERING pP=false', 'TRIGGERED pP=false', 'FINISHED pP=false']);
  expect(position(f)).toEqual([]);
});
