/**
 * /fapi market data of the perpetual the engine trades (`um:BTCUSDT`): depth, book ticker, trades,
 * aggregate trades, tickers and klines come from the margin symbol's own book and prints, on the
 * contract's grid (tick 0.10, step 0.001), and premiumIndex shows the mark the engine holds. The
 * market maker rests 1 BTC at 49 980 / 49 990 | 50 010 / 50 020; the demo buys 0.012 at market
 * (one print at 50 010, 600.12 USDT). Contracts the engine does not trade stay derived.
 */
import { describe, expect, test } from 'vitest';
import { futuresTradingFixture, fund, mark, quote, T0_MS } from './futures-fixture.ts';

function traded() {
  const f = futuresTradingFixture();
  mark(f, '50000.12345678');
  quote(f);
  fund(f.demo, '1000');
  const r = f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.012' });
  if (r.status !== 200) throw new Error(r.body);
  return f;
}

describe('a traded perpetual answers from the engine', () => {
  test('depth and bookTicker: the engine book on the 0.10 / 0.001 grid, lastUpdateId the engine sequence', () => {
    const f = traded();
    const depth = f.demo.get('/fapi/v1/depth', { symbol: 'BTCUSDT', limit: 5 }).json as Record<string, unknown>;
    expect(depth).toEqual({
      lastUpdateId: f.backend.engine.sequence,
      E: T0_MS,
      T: T0_MS,
      bids: [['49990.0', '1.000'], ['49980.0', '1.000']],
      asks: [['50010.0', '0.988'], ['50020.0', '1.000']],
    });
    expect(f.demo.get('/fapi/v1/ticker/bookTicker', { symbol: 'BTCUSDT' }).json).toEqual({
      lastUpdateId: f.backend.engine.sequence,
      symbol: 'BTCUSDT',
      bidPrice: '49990.0',
      bidQty: '1.000',
      askPrice: '50010.0',
      askQty: '0.988',
      time: T0_MS,
    });
  });

  test('trades, historicalTrades, aggTrades, ticker/price, ticker/24hr and klines: the perpetual prints', () => {
    const f = traded();
    const [trade] = f.demo.get('/fapi/v1/trades', { symbol: 'BTCUSDT' }).json as Record<string, unknown>[];
    expect(trade).toEqual({ id: trade!['id'], price: '50010.0', qty: '0.012', quoteQty: '600.12000000', time: T0_MS, isBuyerMaker: false, isRPITrade: false });
    expect(f.demo.get('/fapi/v1/historicalTrades', { symbol: 'BTCUSDT' }).json).toEqual([trade]);
    const aggs = f.demo.get('/fapi/v1/aggTrades', { symbol: 'BTCUSDT' }).json as Record<string, unknown>[];
    expect(aggs).toEqual([{ a: aggs[0]!['a'], p: '50010.0', q: '0.012', nq: '0.012', f: trade!['id'], l: trade!['id'], T: T0_MS, m: false }]);
    expect(f.demo.get('/fapi/v1/ticker/price', { symbol: 'BTCUSDT' }).json).toEqual({ symbol: 'BTCUSDT', price: '50010.0', time: T0_MS });
    expect(f.demo.get('/fapi/v1/ticker/24hr', { symbol: 'BTCUSDT' }).json).toMatchObject({
      symbol: 'BTCUSDT',
      priceChange: '0.0',
      priceChangePercent: '0.000',
      weightedAvgPrice: '50010.0',
      lastPrice: '50010.0',
      lastQty: '0.012',
      openPrice: '50010.0',
      highPrice: '50010.0',
      lowPrice: '50010.0',
      volume: '0.012',
      quoteVolume: '600.12000000',
      count: 1,
    });
    const [bar] = f.demo.get('/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '1m' }).json as unknown[][];
    expect(bar).toEqual([T0_MS, '50010.0', '50010.0', '50010.0', '50010.0', '0.012', T0_MS + 59_999, '600.12000000', 1, '0.012', '600.12000000', '0']);
  });

  test('premiumIndex: the mark and index the engine holds', () => {
    const f = traded();
    expect(f.demo.get('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' }).json).toMatchObject({ symbol: 'BTCUSDT', markPrice: '50000.12345678', indexPrice: '50000.12345678' });
    mark(f, '51000');
    expect(f.demo.get('/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' }).json).toMatchObject({ markPrice: '51000.00000000', indexPrice: '51000.00000000' });
  });

  test('contracts the engine does not trade keep the derived answers', () => {
    const f = traded();
    const rows = f.demo.get('/fapi/v1/ticker/bookTicker').json as Record<string, unknown>[];
    expect(rows.map((r) => r['symbol'])).toEqual(['BTCUSDT', 'BTCUSDT_260327', 'BTCUSDT_260626']);
    // The quarterlies' book is the spot book through the premium (empty here), on the spot's 0.01 tick.
    expect(rows[1]!['bidPrice']).toBe('0.00');
    expect(rows[0]!['bidPrice']).toBe('49990.0');
  });
});
