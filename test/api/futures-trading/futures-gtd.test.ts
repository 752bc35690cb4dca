/**
 * GTD orders through /fapi (futures facts §3.1, §7): a LIMIT GTD rests like GTC, answers show
 * timeInForce GTD and goodTillDate (to the second: the milliseconds are dropped), and it expires
 * on the first engine command at or after that time — here the futures model's SetMarkPrice,
 * which the replay and `exsim serve` issue every simulated second. Bounds: -5040.
 * Book: asks 50 010 / 50 020, bids 49 990 / 49 980, mark 50 000, demo wallet 1000 USDT.
 */
import { describe, expect, test } from 'vitest';
import { futuresTradingFixture, fund, mark, quote, T0, T0_MS, type FuturesTradingFixture } from './futures-fixture.ts';

// 700 s after T0, plus 123 ms that Binance ignores.
const GTD_SENT = T0_MS + 700_123;
const GTD = T0_MS + 700_000;
const GTD_TEXT = 'The goodTillDate timestamp must be greater than the current time plus 600 seconds and smaller than 253402300799000 (UTC 9999-12-31 23:59:59)';

function market(): FuturesTradingFixture {
  const f = futuresTradingFixture();
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  return f;
}

const ORDER = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTD', quantity: '0.01', price: '49000', goodTillDate: String(GTD_SENT) } as const;

describe('GTD orders through /fapi', () => {
  test('POST answers GTD with the goodTillDate to the second; other orders show 0', () => {
    const f = market();
    const r = f.demo.post('/fapi/v1/order', ORDER);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'NEW', timeInForce: 'GTD', type: 'LIMIT', price: '49000.0', origQty: '0.010', goodTillDate: GTD });
    const { goodTillDate: _, ...plain } = ORDER;
    const gtc = f.demo.post('/fapi/v1/order', { ...plain, timeInForce: 'GTC' });
    expect(gtc.json).toMatchObject({ timeInForce: 'GTC', goodTillDate: 0 });
    expect((f.demo.get('/fapi/v1/openOrders').json as Record<string, unknown>[]).map((o) => [o['timeInForce'], o['goodTillDate']])).toEqual([['GTD', GTD], ['GTC', 0]]);
  });

  test('takes an STP mode (GTD is one of the three TIFs STP applies to, §3.1)', () => {
    const f = market();
    const r = f.demo.post('/fapi/v1/order', { ...ORDER, selfTradePreventionMode: 'EXPIRE_MAKER' });
    expect(r.json).toMatchObject({ status: 'NEW', timeInForce: 'GTD', goodTillDate: GTD, selfTradePreventionMode: 'EXPIRE_MAKER' });
  });

  test('just above now + 600 s is accepted; the bounds are -5040 and change nothing', () => {
    const f = market();
    expect(f.demo.post('/fapi/v1/order', { ...ORDER, goodTillDate: String(T0_MS + 600_000) }).json).toEqual({ code: -5040, msg: GTD_TEXT });
    expect(f.demo.post('/fapi/v1/order', { ...ORDER, goodTillDate: '253402300799000' }).json).toEqual({ code: -5040, msg: GTD_TEXT });
    expect(f.demo.get('/fapi/v1/openOrders').json).toEqual([]);
    const r = f.demo.post('/fapi/v1/order', { ...ORDER, goodTillDate: String(T0_MS + 601_000) });
    expect(r.json).toMatchObject({ status: 'NEW', timeInForce: 'GTD', goodTillDate: T0_MS + 601_000 });
    // The last second Binance accepts (9999-12-31 23:59:58) is kept exactly.
    expect(f.demo.post('/fapi/v1/order', { ...ORDER, goodTillDate: '253402300798999' }).json).toMatchObject({ goodTillDate: 253402300798000 });
  });

  test('still NEW a millisecond before; EXPIRED on the first command at the due time, with the stream event', () => {
    const f = market();
    const orderId = (f.demo.post('/fapi/v1/order', ORDER).json as { orderId: number }).orderId;
    const stream: Record<string, any>[] = [];
    f.ctx.futuresUserStream.subscribe(1, (e) => stream.push(e));

    f.backend.advanceTo((GTD - 1) * 1000);
    mark(f, '50000');
    expect(f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId }).json).toMatchObject({ status: 'NEW' });
    expect(stream).toEqual([]);

    f.backend.advanceTo(GTD * 1000);
    mark(f, '50000');
    expect(f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId }).json).toMatchObject({
      orderId,
      status: 'EXPIRED',
      timeInForce: 'GTD',
      goodTillDate: GTD,
      executedQty: '0.000',
      time: T0_MS,
      updateTime: GTD,
    });
    expect(f.demo.get('/fapi/v1/openOrders').json).toEqual([]);
    // Expired, not filled: no ACCOUNT_UPDATE; the margin it held is free again.
    expect(stream).toHaveLength(1);
    expect(stream[0]).toMatchObject({ e: 'ORDER_TRADE_UPDATE', E: GTD, T: GTD });
    expect(stream[0]!['o']).toMatchObject({ i: orderId, o: 'LIMIT', f: 'GTD', x: 'EXPIRED', X: 'EXPIRED', z: '0.000', gtd: GTD, er: 0 });
    expect((f.demo.get('/fapi/v2/balance').json as { availableBalance: string }[])[0]!.availableBalance).toBe('1000.00000000');
  });

  test('a batchOrders item may be GTD; its bounds are the item error', () => {
    const f = market();
    const items = [ORDER, { ...ORDER, goodTillDate: String(T0_MS + 1000) }];
    const r = f.demo.post('/fapi/v1/batchOrders', { batchOrders: JSON.stringify(items) });
    expect(r.status).toBe(200);
    const [ok, refused] = r.json as Record<string, unknown>[];
    expect(ok).toMatchObject({ status: 'NEW', timeInForce: 'GTD', goodTillDate: GTD });
    expect(refused).toEqual({ code: -5040, msg: GTD_TEXT });
    expect(T0).toBe(T0_MS * 1000);
  });
});
