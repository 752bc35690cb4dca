/**
 * GTD conditional orders (timeInForce GTD with goodTillDate on /fapi/v1/algoOrder, chosen: the
 * docs list them for algo orders without saying more): still waiting at the goodTillDate (to the
 * second) the algo order expires (algoStatus EXPIRED, ALGO_UPDATE stamped with the due time); a
 * STOP / TAKE_PROFIT that fired before rests in the engine as a GTD LIMIT, which then expires.
 * Book: asks 50 010 / 50 020, bids 49 990 / 49 980; mark 50 000; the demo is short 0.01 from 49 990.
 */
import { describe, expect, test } from 'vitest';
import { futuresTradingFixture, fund, mark, quote, T0_MS, type FuturesTradingFixture } from './futures-fixture.ts';

const GTD = T0_MS + 700_000;
const GTD_TEXT = 'The goodTillDate timestamp must be greater than the current time plus 600 seconds and smaller than 253402300799000 (UTC 9999-12-31 23:59:59)';

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

// A BUY stop-limit closing the short: fires when the mark reaches 50 100, then rests at 49 000 (below the asks).
const STOP = { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'BUY', type: 'STOP', triggerPrice: '50100', price: '49000', quantity: '0.01', workingType: 'MARK_PRICE', timeInForce: 'GTD', goodTillDate: String(GTD + 456) };

const algoUpdates = (stream: Record<string, any>[]) => stream.filter((e) => e['e'] === 'ALGO_UPDATE').map((e) => e['o']);

describe('GTD algo orders', () => {
  test('answer GTD and the goodTillDate to the second; the bounds and pairing as on /order', () => {
    const { f } = shortMarket();
    expect(f.demo.post('/fapi/v1/algoOrder', STOP).json).toMatchObject({ algoId: 1, algoStatus: 'NEW', timeInForce: 'GTD', goodTillDate: GTD });
    const post = (p: Record<string, string>) => f.demo.post('/fapi/v1/algoOrder', { ...STOP, ...p }).json;
    expect(post({ goodTillDate: String(T0_MS + 600_000) })).toEqual({ code: -5040, msg: GTD_TEXT });
    expect(post({ timeInForce: 'GTC' })).toEqual({ code: -1106, msg: "Parameter 'goodtilldate' sent when not required." });
    const { goodTillDate: _, ...noDate } = STOP;
    expect(f.demo.post('/fapi/v1/algoOrder', noDate).json).toEqual({ code: -1102, msg: "Mandatory parameter 'goodtilldate' was not sent, was empty/null, or malformed." });
    expect((f.demo.get('/fapi/v1/openAlgoOrders').json as unknown[]).length).toBe(1);
  });

  test('still waiting at the goodTillDate: EXPIRED at the due second', () => {
    const { f, stream } = shortMarket();
    f.demo.post('/fapi/v1/algoOrder', STOP);
    f.backend.advanceTo((GTD - 1) * 1000);
    mark(f, '50000');
    expect(f.demo.get('/fapi/v1/algoOrder', { algoId: 1 }).json).toMatchObject({ algoStatus: 'NEW' });
    f.backend.advanceTo(GTD * 1000);
    mark(f, '50000');
    expect(f.demo.get('/fapi/v1/algoOrder', { algoId: 1 }).json).toMatchObject({ algoStatus: 'EXPIRED', updateTime: GTD, goodTillDate: GTD, actualOrderId: '' });
    const last = stream.filter((e) => e['e'] === 'ALGO_UPDATE').at(-1)!;
    expect(last).toMatchObject({ T: GTD, E: GTD, o: { aid: 1, X: 'EXPIRED', f: 'GTD', gtd: GTD } });
    expect(f.demo.get('/fapi/v1/openAlgoOrders').json).toEqual([]);
  });

  test('fired before: the LIMIT it places is GTD in the engine and expires there; the algo order FINISHED', () => {
    const { f, stream } = shortMarket();
    f.demo.post('/fapi/v1/algoOrder', STOP);
    mark(f, '50100');
    expect(algoUpdates(stream).map((o) => o.X)).toEqual(['NEW', 'TRIGGERING', 'TRIGGERED']);
    const orderId = Number(algoUpdates(stream).at(-1)!.ai);
    expect(f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId }).json).toMatchObject({ status: 'NEW', type: 'LIMIT', price: '49000.0', timeInForce: 'GTD', goodTillDate: GTD });
    f.backend.advanceTo(GTD * 1000);
    mark(f, '50100');
    expect(f.demo.get('/fapi/v1/order', { symbol: 'BTCUSDT', orderId }).json).toMatchObject({ status: 'EXPIRED', updateTime: GTD });
    expect(f.demo.get('/fapi/v1/algoOrder', { algoId: 1 }).json).toMatchObject({ algoStatus: 'FINISHED', actualOrderId: String(orderId) });
  });
});
