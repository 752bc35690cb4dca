/**
 * Conditional orders through /fapi/v1/algoOrder (futures facts §3.2): held in the algo book,
 * placed in the engine when the watched price crosses the trigger, ALGO_UPDATE at each status.
 * Book: asks 50 010 / 50 020, bids 49 990 / 49 980; mark 50 000; the demo is short 0.01 from 49 990.
 */
import { describe, expect, test } from 'vitest';
import { futuresTradingFixture, fund, mark, quote, T0_MS, type FuturesTradingFixture } from './futures-fixture.ts';

function shortMarket(): { f: FuturesTradingFixture; stream: Record<string, any>[] } {
  const f = futuresTradingFixture();
  mark(f, '50000');
  quote(f);
  fund(f.demo, '1000');
  f.demo.post('/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.01' });
  const stream: Record<string, any>[] = [];
  f.ctx.futuresUserStream.subscribe(1, (e) => stream.push(e));
  return { f, stream };
}

const algoUpdates = (stream: Record<string, any>[]) => stream.filter((e) => e['e'] === 'ALGO_UPDATE').map((e) => e['o'].X);

describe('POST /fapi/v1/algoOrder', () => {
  test('a stop closing the short fires on the mark: TRIGGERING, TRIGGERED, FINISHED; the position is closed', () => {
    const { f, stream } = shortMarket();
    const r = f.demo.post('/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', triggerPrice: '50100', workingType: 'MARK_PRICE', closePosition: 'true', clientAlgoId: 'stop-1' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      algoId: 1,
      clientAlgoId: 'stop-1',
      algoType: 'CONDITIONAL',
      orderType: 'STOP_MARKET',
      symbol: 'BTCUSDT',
      side: 'BUY',
      positionSide: 'BOTH',
      timeInForce: 'GTC',
      quantity: '0.000',
      algoStatus: 'NEW',
      triggerPrice: '50100.0',
      price: '0',
      icebergQuantity: null,
      selfTradePreventionMode: 'NONE',
      workingType: 'MARK_PRICE',
      priceMatch: 'NONE',
      closePosition: true,
      priceProtect: false,
      reduceOnly: false,
      activatePrice: '',
      callbackRate: '',
      createTime: T0_MS,
      updateTime: T0_MS,
      triggerTime: 0,
      goodTillDate: 0,
    });
    expect(r.headers['X-MBX-ORDER-COUNT-1M']).toBe('2'); // the MARKET short, then this one
    expect(algoUpdates(stream)).toEqual(['NEW']);

    mark(f, '50050'); // not yet
    expect(algoUpdates(stream)).toEqual(['NEW']);
    mark(f, '50100'); // BUY stop: mark ≥ trigger
    expect(algoUpdates(stream)).toEqual(['NEW', 'TRIGGERING', 'TRIGGERED', 'FINISHED']);
    const finished = stream.filter((e) => e['e'] === 'ALGO_UPDATE').at(-1)!['o'];
    // Closed 0.01 at the best ask, 50 010, by a MARKET order.
    expect(finished).toMatchObject({ caid: 'stop-1', aid: 1, at: 'CONDITIONAL', o: 'STOP_MARKET', X: 'FINISHED', ai: '6', ap: '50010.0', aq: '0.010', act: 'MARKET', tp: '50100.0', cp: true, tt: T0_MS, rm: '' });
    expect(f.demo.get('/fapi/v3/positionRisk').json).toEqual([]);
    expect(f.demo.get('/fapi/v1/algoOrder', { algoId: 1 }).json).toMatchObject({ algoStatus: 'FINISHED', actualOrderId: '6', actualPrice: '50010.0', actualType: 'MARKET', actualQty: '0.010', triggerTime: T0_MS });
    expect(f.demo.get('/fapi/v1/openAlgoOrders').json).toEqual([]);
    expect((f.demo.get('/fapi/v1/allAlgoOrders', { symbol: 'BTCUSDT' }).json as unknown[]).length).toBe(1);
  });

  test('refusals: would trigger now, missing trigger, LIMIT type, closePosition with quantity, bad callback rate', () => {
    const { f } = shortMarket();
    const post = (p: Record<string, string>) => f.demo.post('/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', ...p }).json;
    expect(post({ side: 'BUY', type: 'STOP_MARKET', triggerPrice: '49900', workingType: 'MARK_PRICE', quantity: '0.01' })).toEqual({ code: -2021, msg: 'Order would immediately trigger.' });
    expect(post({ side: 'BUY', type: 'STOP_MARKET', quantity: '0.01' })).toEqual({ code: -1102, msg: "Mandatory parameter 'triggerprice' was not sent, was empty/null, or malformed." });
    expect(post({ side: 'BUY', type: 'LIMIT', quantity: '0.01' })).toEqual({ code: -1116, msg: 'Invalid orderType.' });
    expect(post({ side: 'BUY', type: 'STOP', triggerPrice: '50100', quantity: '0.01' })).toEqual({ code: -1102, msg: "Mandatory parameter 'price' was not sent, was empty/null, or malformed." });
    expect(post({ side: 'BUY', type: 'STOP_MARKET', triggerPrice: '50100', closePosition: 'true', quantity: '0.01' })).toEqual({ code: -1106, msg: "Parameter 'quantity' sent when not required." });
    expect(post({ side: 'SELL', type: 'TRAILING_STOP_MARKET', quantity: '0.01', callbackRate: '11' })).toEqual({ code: -1130, msg: "Data sent for parameter 'callbackRate' is not valid." });
    expect(post({ side: 'BUY', type: 'STOP_MARKET', triggerPrice: '50100.05', quantity: '0.01' })).toEqual({ code: -4014, msg: 'Price not increased by tick size.' });
    expect(f.demo.get('/fapi/v1/openAlgoOrders').json).toEqual([]);
  });

  test('an order the engine refuses at the trigger is REJECTED with the reason', () => {
    const { f, stream } = shortMarket();
    f.demo.post('/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', triggerPrice: '50100', workingType: 'MARK_PRICE', quantity: '5' });
    mark(f, '50200');
    expect(algoUpdates(stream)).toEqual(['NEW', 'TRIGGERING', 'REJECTED']);
    expect(stream.at(-1)!['o']).toMatchObject({ X: 'REJECTED', rm: 'Margin is insufficient.', ai: '' });
    expect(f.demo.get('/fapi/v1/algoOrder', { algoId: 1 }).json).toMatchObject({ algoStatus: 'REJECTED', actualOrderId: '' });
  });

  test('a trailing stop activates at its price and fires on the callback', () => {
    const { f, stream } = shortMarket();
    // Closing-side long protection is not needed: a SELL trailing on the mark, quantity 0.01.
    const r = f.demo.post('/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'SELL', type: 'TRAILING_STOP_MARKET', workingType: 'MARK_PRICE', quantity: '0.01', activatePrice: '50100', callbackRate: '1' });
    expect(r.json).toMatchObject({ algoStatus: 'NEW', activatePrice: '50100.0', callbackRate: '1', triggerPrice: '0' });
    mark(f, '50200'); // activated; high 50 200
    mark(f, '49800'); // 49 800 > 50 200 × 0.99 = 49 698: holds
    expect(algoUpdates(stream)).toEqual(['NEW']);
    mark(f, '49690'); // ≤ 49 698: fires, a MARKET SELL at the best bid
    expect(algoUpdates(stream)).toEqual(['NEW', 'TRIGGERING', 'TRIGGERED', 'FINISHED']);
    expect(stream.at(-1)!['o']).toMatchObject({ ap: '49990.0', aq: '0.010', act: 'MARKET' });
  });

  test('cancel one, cancel all', () => {
    const { f, stream } = shortMarket();
    const a = f.demo.post('/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'TAKE_PROFIT_MARKET', triggerPrice: '49000', quantity: '0.01' }).json as { algoId: number; clientAlgoId: string };
    expect(a.clientAlgoId).toBe('exsimalgo1');
    f.demo.post('/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'TAKE_PROFIT', triggerPrice: '49000', price: '49000', quantity: '0.01' });
    expect((f.demo.get('/fapi/v1/openAlgoOrders', { symbol: 'BTCUSDT' }).json as unknown[]).length).toBe(2);
    expect(f.demo.delete('/fapi/v1/algoOrder', { algoId: 1 }).json).toEqual({ algoId: 1, clientAlgoId: 'exsimalgo1', code: '200', msg: 'success' });
    expect(f.demo.delete('/fapi/v1/algoOrder', { algoId: 1 }).json).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    expect(f.demo.delete('/fapi/v1/algoOpenOrders', { symbol: 'BTCUSDT' }).json).toEqual({ code: 200, msg: 'The operation of cancel all open order is done.' });
    expect(f.demo.get('/fapi/v1/openAlgoOrders').json).toEqual([]);
    expect(algoUpdates(stream)).toEqual(['NEW', 'NEW', 'CANCELED', 'CANCELED']);
  });
});

describe('journaled state', () => {
  test('the algo book and countdowns ride in the facade state: changes, merge, restore', async () => {
    const { captureFacadeChanges, captureFacadeState, FacadeStateMerger, restoreFacadeState, isEmptyFacadeChange } = await import('../../../src/api-facade/index.ts');
    const { f } = shortMarket();
    const merger = new FacadeStateMerger();
    merger.merge(captureFacadeState(f.ctx));
    captureFacadeChanges(f.ctx);
    f.demo.post('/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', triggerPrice: '50100', workingType: 'MARK_PRICE', closePosition: 'true' });
    f.demo.post('/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT', countdownTime: 60_000 });
    const change = captureFacadeChanges(f.ctx);
    expect(change.futuresAlgo?.orders.map((o) => [o.algoId, o.status])).toEqual([[1, 'NEW']]);
    expect(change.futuresCountdowns).toEqual([[1, 'um:BTCUSDT', f.ctx.now() + 60_000_000]]);
    merger.merge(change);
    expect(isEmptyFacadeChange(captureFacadeChanges(f.ctx), f.ctx.faults.draws)).toBe(true);

    const fresh = futuresTradingFixture();
    restoreFacadeState(fresh.ctx, merger.result()!);
    expect(fresh.ctx.futuresAlgo.book.snapshot()).toEqual(f.ctx.futuresAlgo.book.snapshot());
    expect(fresh.ctx.futuresCountdowns.entries()).toEqual(f.ctx.futuresCountdowns.entries());
    expect(captureFacadeState(fresh.ctx).futuresAlgo).toEqual(captureFacadeState(f.ctx).futuresAlgo);
  });
});
