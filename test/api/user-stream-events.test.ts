import { describe, expect, test } from 'vitest';
import type { UserStreamEvent } from '../../src/api-facade/streams/user-stream-events.ts';
import { makeFixture, seedBook, T0_MS } from './fixture.ts';

function listen(f: ReturnType<typeof makeFixture>, accountId: number): UserStreamEvent[] {
  const seen: UserStreamEvent[] = [];
  f.ctx.userStream.subscribe(accountId, (e) => seen.push(e));
  return seen;
}

describe('user data stream events', () => {
  test('a resting LIMIT order: executionReport NEW, then outboundAccountPosition with the locked quote', () => {
    const f = makeFixture();
    const seen = listen(f, 1);
    const placed = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000', newClientOrderId: 'mine' }).json as any;
    expect(seen.map((e) => e['e'])).toEqual(['executionReport', 'outboundAccountPosition']);
    expect(seen[0]).toEqual({
      e: 'executionReport', E: T0_MS, s: 'BTCUSDT', c: 'mine', S: 'BUY', o: 'LIMIT', f: 'GTC', q: '0.10000000', p: '49000.00000000', P: '0.00000000', F: '0.00000000',
      g: -1, C: '', x: 'NEW', X: 'NEW', r: 'NONE', i: placed.orderId, l: '0.00000000', z: '0.00000000', L: '0.00000000', n: '0', N: null, T: T0_MS, t: -1, I: 1,
      w: true, m: false, M: false, O: T0_MS, Z: '0.00000000', Y: '0.00000000', Q: '0.00000000', W: T0_MS, V: 'EXPIRE_MAKER',
    });
    expect(seen[1]).toEqual({ e: 'outboundAccountPosition', E: T0_MS, u: T0_MS, B: [{ a: 'BTC', f: '1.00000000', l: '0.00000000' }, { a: 'USDT', f: '95100.00000000', l: '4900.00000000' }] });
    // The other account hears nothing of it.
    const other = listen(f, 2);
    f.demo.delete('/api/v3/order', { symbol: 'BTCUSDT', orderId: placed.orderId, newClientOrderId: 'cancel-1' });
    expect(other).toEqual([]);
    expect(seen[2]).toMatchObject({ e: 'executionReport', x: 'CANCELED', X: 'CANCELED', c: 'cancel-1', C: 'mine', w: false, I: 2 });
    expect(seen[3]).toMatchObject({ e: 'outboundAccountPosition', B: [{ a: 'BTC' }, { a: 'USDT', f: '100000.00000000', l: '0.00000000' }] });
  });

  test('a taker walking two makers: NEW, one TRADE per fill with running totals, makers told too', () => {
    const f = makeFixture();
    seedBook(f);
    const taker = listen(f, 1);
    const maker = listen(f, 2);
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.7', price: '50020' });
    const reports = taker.filter((e) => e['e'] === 'executionReport');
    expect(reports.map((e) => [e['x'], e['X'], e['l'], e['z'], e['L'], e['Z'], e['m'], e['t']])).toEqual([
      ['NEW', 'NEW', '0.00000000', '0.00000000', '0.00000000', '0.00000000', false, -1],
      ['TRADE', 'PARTIALLY_FILLED', '0.50000000', '0.50000000', '50010.00000000', '25005.00000000', false, 1],
      ['TRADE', 'FILLED', '0.20000000', '0.70000000', '50020.00000000', '35009.00000000', false, 2],
    ]);
    expect(reports[1]).toMatchObject({ n: '0.00050000', N: 'BTC', Y: '25005.00000000', M: true });
    expect(taker.at(-1)).toMatchObject({ e: 'outboundAccountPosition' });
    const makerReports = maker.filter((e) => e['e'] === 'executionReport');
    expect(makerReports.map((e) => [e['x'], e['X'], e['m'], e['w'], e['z']])).toEqual([
      ['TRADE', 'FILLED', true, false, '0.50000000'],
      ['TRADE', 'PARTIALLY_FILLED', true, true, '0.20000000'],
    ]);
    // Execution ids rise per symbol across both accounts' reports.
    expect([...reports, ...makerReports].map((e) => e['I']).sort((a: any, b: any) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  test('an IOC remainder expires with its reason; a self-trade prevention is reported', () => {
    const f = makeFixture();
    seedBook(f);
    const seen = listen(f, 1);
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'IOC', quantity: '0.6', price: '50010' });
    expect(seen.filter((e) => e['e'] === 'executionReport').map((e) => [e['x'], e['X']])).toEqual([['NEW', 'NEW'], ['TRADE', 'PARTIALLY_FILLED'], ['EXPIRED', 'EXPIRED']]);
    expect(seen.find((e) => e['x'] === 'EXPIRED')).toMatchObject({ eR: 'UNFILLED_IOC_QUANTITY_EXPIRED', z: '0.50000000' });
    seen.length = 0;
    const resting = f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '50005' }).json as any;
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '50005' });
    const prevented = seen.find((e) => e['x'] === 'TRADE_PREVENTION');
    expect(prevented).toMatchObject({ i: resting.orderId, X: 'EXPIRED_IN_MATCH', v: 0, A: '0.10000000', B: '0.10000000', Cs: 'BTCUSDT' });
  });

  test('nothing is pushed for a refused order, and nothing is computed without subscribers', () => {
    const f = makeFixture();
    const seen = listen(f, 1);
    f.demo.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '49000.001' });
    expect(seen).toEqual([]);
  });
});
