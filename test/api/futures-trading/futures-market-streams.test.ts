/**
 * The USDⓈ-M market streams of the feed (venue 'futures', served under /fstream): mark price
 * updates at their boundaries with the engine's mark, liquidations as forceOrder, and the traded
 * perpetual's own aggTrade / bookTicker / depth / kline payloads on the contract grid. The test
 * backend has no scheduler: the feed is advanced by hand after each step, as a host would at the
 * boundary. The market maker rests 1 BTC at 49 980 / 49 990 | 50 010 / 50 020 (T0 = 2026-01-01).
 */
import { describe, expect, test } from 'vitest';
import { futuresTradingFixture, fund, mark, quote, T0_MS } from './futures-fixture.ts';

function subscribed(names: readonly string[]) {
  const f = futuresTradingFixture();
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  const got: Record<string, unknown[]> = {};
  for (const name of names) {
    got[name] = [];
    const unsubscribe = f.ctx.marketFeed.subscribe(name, (m) => got[name]!.push(m), 'MILLISECOND', 'futures');
    if (unsubscribe === null) throw new Error(`not a futures stream: ${name}`);
  }
  const step = (us: number) => {
    f.backend.advanceTo(f.backend.now + us);
    f.ctx.marketFeed.advanceTo(f.backend.now);
  };
  return { f, got, step };
}

describe('USDⓈ-M market streams', () => {
  test('markPrice@1s and !markPrice@arr@1s each second, markPrice every 3 s: the engine mark', () => {
    const { f, got, step } = subscribed(['btcusdt@markPrice@1s', 'btcusdt@markPrice', '!markPrice@arr@1s']);
    step(1_000_000);
    mark(f, '50123.45');
    step(2_000_000);
    // Next funding 08:00 UTC; the funding estimate is the clamp's 0.01 % (no premium yet: no spot print).
    const update = (E: number, p: string) => ({ e: 'markPriceUpdate', E, s: 'BTCUSDT', p, i: p, P: '0.00000000', r: '0.00010000', T: T0_MS + 8 * 3_600_000, st: 1 });
    expect(got['btcusdt@markPrice@1s']).toEqual([update(T0_MS + 1000, '50000.00000000'), update(T0_MS + 2000, '50123.45000000'), update(T0_MS + 3000, '50123.45000000')]);
    expect(got['btcusdt@markPrice']).toEqual([update(T0_MS + 3000, '50123.45000000')]);
    expect(got['!markPrice@arr@1s']).toEqual([[update(T0_MS + 1000, '50000.00000000')], [update(T0_MS + 2000, '50123.45000000')], [update(T0_MS + 3000, '50123.45000000')]]);
  });

  test('forceOrder: a liquidation at its next 1 s boundary, once; !forceOrder@arr alike', () => {
    const { f, got, step } = subscribed(['btcusdt@forceOrder', '!forceOrder@arr']);
    f.demo.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 100 });
    f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
    step(500_000);
    mark(f, '60000'); // short 0.1 from 49 990 with 1000 USDT: liquidated at the bankruptcy price
    step(500_000);
    step(1_000_000);
    const liquidation = {
      e: 'forceOrder',
      E: T0_MS + 1000,
      o: { s: 'BTCUSDT', S: 'BUY', o: 'LIMIT', f: 'IOC', q: '0.100', p: '59965.1', ap: '59965.00500000', X: 'FILLED', l: '0.100', z: '0.100', T: T0_MS + 500 },
    };
    expect(got['btcusdt@forceOrder']).toEqual([liquidation]);
    expect(got['!forceOrder@arr']).toEqual([liquidation]);
  });

  test('aggTrade, trade, bookTicker, depth5 and @depth@100ms of um:BTCUSDT in the futures shapes', () => {
    const { f, got, step } = subscribed(['btcusdt@aggTrade', 'btcusdt@trade', 'btcusdt@bookTicker', 'btcusdt@depth5', 'btcusdt@depth@100ms']);
    const before = f.backend.engine.sequence;
    step(50_000);
    f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.012' });
    const after = f.backend.engine.sequence;
    step(1_000);
    step(199_000);
    expect(got['btcusdt@aggTrade']).toEqual([{ e: 'aggTrade', E: T0_MS + 50, s: 'BTCUSDT', a: 0, p: '50010.0', q: '0.012', f: 1, l: 1, T: T0_MS + 50, m: false }]);
    expect(got['btcusdt@trade']).toEqual([{ e: 'trade', E: T0_MS + 50, T: T0_MS + 50, s: 'BTCUSDT', t: 1, p: '50010.0', q: '0.012', X: 'MARKET', m: false }]);
    expect(got['btcusdt@bookTicker']).toEqual([
      { e: 'bookTicker', u: after, E: T0_MS + 51, T: T0_MS + 50, s: 'BTCUSDT', b: '49990.0', B: '1.000', a: '50010.0', A: '0.988' },
    ]);
    expect(got['btcusdt@depth@100ms']).toEqual([
      { e: 'depthUpdate', E: T0_MS + 100, T: T0_MS + 50, s: 'BTCUSDT', U: before + 1, u: after, pu: before, b: [], a: [['50010.0', '0.988']] },
    ]);
    expect(got['btcusdt@depth5']).toEqual([
      {
        e: 'depthUpdate',
        E: T0_MS + 250,
        T: T0_MS + 50,
        s: 'BTCUSDT',
        U: before + 1,
        u: after,
        pu: before,
        b: [['49990.0', '1.000'], ['49980.0', '1.000']],
        a: [['50010.0', '0.988'], ['50020.0', '1.000']],
      },
    ]);
    // The REST snapshot's lastUpdateId is the stream's u: the local-book recipe lines up.
    expect((f.demo.get('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 5 }).json as { lastUpdateId: number }).lastUpdateId).toBe(after);
  });

  test('kline_1m every 250 ms, ticker and miniTicker every 2 s; names the futures market lacks are refused', () => {
    const { f, got, step } = subscribed(['btcusdt@kline_1m', 'btcusdt@ticker', 'btcusdt@miniTicker']);
    f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
    step(250_000);
    expect(got['btcusdt@kline_1m']).toEqual([
      {
        e: 'kline',
        E: T0_MS + 250,
        s: 'BTCUSDT',
        k: { t: T0_MS, T: T0_MS + 59_999, s: 'BTCUSDT', i: '1m', f: 1, L: 1, o: '49990.0', c: '49990.0', h: '49990.0', l: '49990.0', v: '0.100', n: 1, x: false, q: '4999.00000000', V: '0.000', Q: '0.00000000', B: '0' },
      },
    ]);
    step(1_750_000);
    expect(got['btcusdt@ticker']).toEqual([
      {
        e: '24hrTicker',
        E: T0_MS + 2000,
        s: 'BTCUSDT',
        p: '0.0',
        P: '0.000',
        w: '49990.0',
        c: '49990.0',
        Q: '0.100',
        o: '49990.0',
        h: '49990.0',
        l: '49990.0',
        v: '0.100',
        q: '4999.00000000',
        O: T0_MS + 2000 - 86_400_000,
        C: T0_MS + 2000,
        F: 1,
        L: 1,
        n: 1,
      },
    ]);
    expect(got['btcusdt@miniTicker']).toEqual([{ e: '24hrMiniTicker', E: T0_MS + 2000, s: 'BTCUSDT', c: '49990.0', o: '49990.0', h: '49990.0', l: '49990.0', v: '0.100', q: '4999.00000000' }]);
    const feed = f.ctx.marketFeed;
    // No ETHUSDT perpetual in this market; no 1s klines and no 1000 ms depth on futures; spot-only kinds.
    for (const name of ['ethusdt@markPrice', 'btcusdt@kline_1s', 'btcusdt@depth@1000ms', 'btcusdt@avgPrice', 'btcusdt@ticker_1h', 'BTCUSDT@markPrice']) expect(feed.isStream(name, 'futures'), name).toBe(false);
    // Spot names stay spot's: markPrice is no spot stream.
    expect(feed.isStream('btcusdt@markPrice', 'spot')).toBe(false);
  });
});
