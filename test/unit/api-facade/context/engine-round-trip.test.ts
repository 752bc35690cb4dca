import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/api-facade/core/api-error.ts';
import { sendToEngine } from '../../../../src/api-facade/context/engine-round-trip.ts';
import { ExchangeContext } from '../../../../src/api-facade/context/exchange-context.ts';
import { EngineBackend } from '../../../../src/api-facade/core/market-backend.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../../../src/sample/sample-market.ts';

const T0 = 1_767_225_600_000_000;

function context(): { ctx: ExchangeContext; published: string[] } {
  const ctx = new ExchangeContext({ backend: new EngineBackend(SAMPLE_CONFIG, T0, sampleAccounts(T0)) });
  const published: string[] = [];
  ctx.userStream.subscribe(2, (event) => published.push(String((event as { e?: unknown }).e)));
  return { ctx, published };
}

const ask = { type: 'PlaceOrder', accountId: 2, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 5_001_000_000_000, quantity: 1_000_000 } as const;
const buy = { type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'IOC', price: 5_001_000_000_000, quantity: 400_000 } as const;

function orderCounts(ctx: ExchangeContext, account: number): number[] {
  return ctx.orderLimiter.counts(String(account), T0).map((u) => u.used);
}

describe('sendToEngine: the one engine round trip', () => {
  it('applies, publishes to the user data stream and returns the events', () => {
    const { ctx, published } = context();
    const events = sendToEngine(ctx, ask, 'place');
    expect(events.map((e) => e.type)).toEqual(['OrderAccepted']);
    expect(published).toContain('executionReport');
  });

  it('lowers the unfilled order count of the taker and of the maker at their first fill, once', () => {
    const { ctx } = context();
    ctx.orderLimiter.charge('1', 2, T0);
    ctx.orderLimiter.charge('2', 1, T0);
    sendToEngine(ctx, ask, 'place');
    sendToEngine(ctx, buy, 'place');
    expect(orderCounts(ctx, 1)).toEqual([1, 1]);
    expect(orderCounts(ctx, 2)).toEqual([0, 0]);
    // The maker's second fill is not a first fill: its count stays.
    ctx.orderLimiter.charge('2', 1, T0);
    sendToEngine(ctx, buy, 'place');
    expect(orderCounts(ctx, 2)).toEqual([1, 1]);
  });

  it('throws a refusal through the error table, the order type refining the text', () => {
    const { ctx } = context();
    const refused = (): unknown => sendToEngine(ctx, { ...ask, quantity: 15_000_000_000 }, 'place');
    expect(refused).toThrow(ApiError);
    try {
      refused();
    } catch (e) {
      expect((e as ApiError).toBody()).toEqual({ code: -2010, msg: 'Account has insufficient balance for requested action.' });
    }
    try {
      sendToEngine(ctx, { type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId: 99 }, 'cancel');
      expect.unreachable();
    } catch (e) {
      expect((e as ApiError).toBody()).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    }
  });

  it("uses a handler's own mapping when given one", () => {
    const { ctx } = context();
    const own = new ApiError(400, -1, 'own');
    expect(() => sendToEngine(ctx, { type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId: 99 }, () => own)).toThrow(own);
  });
});
