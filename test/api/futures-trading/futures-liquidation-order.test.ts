/**
 * A liquidation is a real order of the account (facts §4 "System orders"): the system close
 * `autoclose-<ms>` takes the symbol's next order id and trade id, shows in allOrders, GET order
 * (by orderId and by origClientOrderId), userTrades (its realized PnL, no commission: the fee is
 * the fund's share inside the loss, chosen) and GET /fapi/v1/forceOrders — a LIMIT IOC at the
 * bankruptcy price on the tick grid, filled at the bankruptcy price (avgPrice), as Binance's
 * forceOrders example shows its rows. It stays off the public trade tape.
 * The demo sells 0.1 BTCUSDT at 49 990 (MARKET, order 5, trade 1) with 1000 USDT at leverage 100:
 * commission 0.1 × 49 990 × 0.0005 = 2.4995, wallet 997.5005. At mark 60 000 it is liquidated 5 s
 * later at the bankruptcy price 49 990 + 997.5005 / 0.1 = 59 965.005 (a BUY: limit 59 965.1 on the
 * 0.1 grid), notional 5 996.5005, realized −997.5005.
 */
import { describe, expect, test } from 'vitest';
import { futuresTradingFixture, fund, mark, quote, T0_MS, type FuturesTradingFixture } from './futures-fixture.ts';

const AT = T0_MS + 5000;

function liquidated(): { f: FuturesTradingFixture; stream: Record<string, any>[] } {
  const f = futuresTradingFixture();
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  f.demo.post('/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 100 });
  f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.1' });
  const stream: Record<string, any>[] = [];
  f.ctx.futuresUserStream.subscribe(1, (e) => stream.push(e));
  f.backend.advanceTo(AT * 1000);
  mark(f, '60000');
  return { f, stream };
}

const QUERY_ROW = {
  avgPrice: '59965.00500000',
  clientOrderId: `autoclose-${AT}`,
  cumQuote: '5996.50050000',
  executedQty: '0.100',
  orderId: 6,
  origQty: '0.100',
  origType: 'LIMIT',
  price: '59965.1',
  reduceOnly: false,
  side: 'BUY',
  positionSide: 'BOTH',
  status: 'FILLED',
  stopPrice: '0',
  closePosition: false,
  symbol: 'BTCUSDT',
  time: AT,
  timeInForce: 'IOC',
  type: 'LIMIT',
  updateTime: AT,
  workingType: 'CONTRACT_PRICE',
  priceProtect: false,
  priceMatch: 'NONE',
  selfTradePreventionMode: 'NONE',
  goodTillDate: 0,
};

describe('the liquidation order', () => {
  test('is in allOrders and found by orderId and by origClientOrderId', () => {
    const { f } = liquidated();
    const all = f.demo.get('/fapi/v1/allOrders', { symbol: 'BTCUSDT' }).json as Record<string, unknown>[];
    expect(all.map((o) => [o['orderId'], o['type'], o['status']])).toEqual([[5, 'MARKET', 'FILLED'], [6, 'LIMIT', 'FILLED']]);
    expect(all[1]).toEqual(QUERY_ROW);
    expect(f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 6 }).json).toEqual(QUERY_ROW);
    expect(f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', origClientOrderId: `autoclose-${AT}` }).json).toEqual(QUERY_ROW);
    // Closed at once: never open.
    expect(f.demo.get('/fapi/v1/openOrder', { symbol: 'BTCUSDT', orderId: 6 }).json).toEqual({ code: -2013, msg: 'Order does not exist.' });
  });

  test('has its trade in userTrades with the realized PnL and no commission; the REALIZED_PNL income names the trade', () => {
    const { f } = liquidated();
    const trades = f.demo.get('/fapi/v1/userTrades', { symbol: 'BTCUSDT' }).json as Record<string, unknown>[];
    expect(trades[1]).toEqual({
      buyer: true,
      commission: '0.00000000',
      commissionAsset: 'USDT',
      id: 2,
      maker: false,
      orderId: 6,
      price: '59965.1',
      qty: '0.100',
      quoteQty: '5996.50050000',
      realizedPnl: '-997.50050000',
      side: 'BUY',
      positionSide: 'BOTH',
      symbol: 'BTCUSDT',
      time: AT,
    });
    expect(f.demo.get('/fapi/v1/income', { incomeType: 'REALIZED_PNL' }).json).toEqual([
      { symbol: 'BTCUSDT', incomeType: 'REALIZED_PNL', income: '-997.50050000', asset: 'USDT', info: 'LIQUIDATION', time: AT, tranId: 5, tradeId: '2' },
    ]);
    // Against the insurance fund, not the book: the public tape has the demo's sale only.
    expect((f.demo.get('/fapi/v1/trades', { symbol: 'BTCUSDT' }).json as { id: number }[]).map((t) => t.id)).toEqual([1]);
  });

  test('is listed by GET /fapi/v1/forceOrders (weight 20 with symbol, 50 without); ADL lists nothing', () => {
    const { f } = liquidated();
    const row = {
      orderId: 6,
      symbol: 'BTCUSDT',
      status: 'FILLED',
      clientOrderId: `autoclose-${AT}`,
      price: '59965.1',
      avgPrice: '59965.00500000',
      origQty: '0.100',
      executedQty: '0.100',
      cumQuote: '5996.50050000',
      timeInForce: 'IOC',
      type: 'LIMIT',
      reduceOnly: false,
      closePosition: false,
      side: 'BUY',
      positionSide: 'BOTH',
      stopPrice: '0',
      workingType: 'CONTRACT_PRICE',
      origType: 'LIMIT',
      time: AT,
      updateTime: AT,
    };
    const before = Number(f.demo.get('/fapi/v1/time').headers['X-MBX-USED-WEIGHT-1M']);
    const all = f.demo.get('/fapi/v1/forceOrders');
    expect(all.json).toEqual([row]);
    expect(Number(all.headers['X-MBX-USED-WEIGHT-1M']) - before).toBe(50);
    const bySymbol = f.demo.get('/fapi/v1/forceOrders', { symbol: 'BTCUSDT', autoCloseType: 'LIQUIDATION' });
    expect(bySymbol.json).toEqual([row]);
    expect(Number(bySymbol.headers['X-MBX-USED-WEIGHT-1M']) - Number(all.headers['X-MBX-USED-WEIGHT-1M'])).toBe(20);
    expect(f.demo.get('/fapi/v1/forceOrders', { autoCloseType: 'ADL' }).json).toEqual([]);
    expect(f.demo.get('/fapi/v1/forceOrders', { endTime: String(AT - 1) }).json).toEqual([]);
    expect(f.demo.get('/fapi/v1/forceOrders', { autoCloseType: 'OTHER' }).json).toEqual({ code: -1130, msg: "Data sent for parameter 'autoCloseType' is not valid." });
    expect(f.demo.get('/fapi/v1/forceOrders', { limit: '101' }).json).toEqual({ code: -1130, msg: "Data sent for parameter 'limit' is not valid." });
  });

  test('ORDER_TRADE_UPDATE carries its order id, trade id, grid price and the bankruptcy price', () => {
    const { stream } = liquidated();
    expect(stream[0]).toMatchObject({ e: 'ORDER_TRADE_UPDATE', E: AT, T: AT });
    expect(stream[0]!['o']).toMatchObject({
      s: 'BTCUSDT',
      c: `autoclose-${AT}`,
      S: 'BUY',
      o: 'LIQUIDATION',
      f: 'IOC',
      q: '0.100',
      p: '59965.1',
      ap: '59965.00500000',
      x: 'CALCULATED',
      X: 'FILLED',
      i: 6,
      l: '0.100',
      z: '0.100',
      L: '59965.00500000',
      t: 2,
      rp: '-997.50050000',
      er: 5,
    });
  });
});
