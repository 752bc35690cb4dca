import { describe, expect, it } from 'vitest';
import { cancelJson, orderQueryJson, placementJson, type WireContext } from '../../../../src/api-facade/serialize/order-json.ts';
import { Engine } from '../../../../src/engine/engine.ts';
import type { OrderAccepted } from '../../../../src/engine/events.ts';
import { SAMPLE_CONFIG } from '../../../../src/sample/sample-market.ts';

const T0 = 1_704_067_200_000_000; // 2024-01-01T00:00:00Z in µs

function market() {
  const engine = new Engine(SAMPLE_CONFIG);
  engine.apply({ type: 'CreateAccount', time: T0, accountId: 1, balances: { BTC: 100_000_000, USDT: 10_000_000_000_000 }, standardCommission: { maker: 100_000, taker: 100_000, buyer: 0, seller: 0 } });
  engine.apply({ type: 'CreateAccount', time: T0, accountId: 2, balances: { BTC: 100_000_000, USDT: 10_000_000_000_000 } });
  const ctx: WireContext = { spec: engine.symbolSpec('BTCUSDT')!, unit: 'MILLISECOND', assetPrecision: () => 8 };
  return { engine, ctx };
}

describe('order JSON', () => {
  it('FULL placement response: doc field order, 8-decimal strings, fills with commission and trade id', () => {
    const { engine, ctx } = market();
    // A print first: MARKET orders are checked against the average price (NOTIONAL applyMinToMarket).
    engine.apply({ type: 'RecordMarketTrade', time: T0 + 500, symbol: 'BTCUSDT', price: 4_200_000_000_000, quantity: 1_000_000, isBuyerMaker: false });
    engine.apply({ type: 'PlaceOrder', time: T0 + 1_000, accountId: 2, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: 4_200_000_000_000, quantity: 1_000_000 });
    const events = engine.apply({ type: 'PlaceOrder', time: T0 + 2_500, accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: 500_000, clientOrderId: 'my-buy' });
    const accepted = events[0] as OrderAccepted;
    const view = engine.getOrder(1, 'BTCUSDT', { orderId: accepted.orderId })!;
    const json = placementJson('FULL', accepted, view, events, ctx);
    expect(Object.keys(json)).toEqual([
      'symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime', 'price', 'origQty', 'executedQty', 'origQuoteOrderQty',
      'cummulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'workingTime', 'selfTradePreventionMode', 'fills',
    ]);
    expect(json).toMatchObject({
      symbol: 'BTCUSDT',
      orderId: 2,
      orderListId: -1,
      clientOrderId: 'my-buy',
      transactTime: 1_704_067_200_002,
      price: '0.00000000',
      origQty: '0.00500000',
      executedQty: '0.00500000',
      origQuoteOrderQty: '0.00000000',
      cummulativeQuoteQty: '210.00000000',
      status: 'FILLED',
      timeInForce: 'GTC',
      type: 'MARKET',
      side: 'BUY',
      fills: [{ price: '42000.00000000', qty: '0.00500000', commission: '0.00000500', commissionAsset: 'BTC', tradeId: 2 }],
    });
    expect(placementJson('ACK', accepted, view, events, ctx)).toEqual({ symbol: 'BTCUSDT', orderId: 2, orderListId: -1, clientOrderId: 'my-buy', transactTime: 1_704_067_200_002 });
    expect(placementJson('RESULT', accepted, view, events, { ...ctx, unit: 'MICROSECOND' })).not.toHaveProperty('fills');
    expect(placementJson('RESULT', accepted, view, events, { ...ctx, unit: 'MICROSECOND' })['transactTime']).toBe(T0 + 2_500);
  });

  it('query record carries stopPrice, icebergQty, time, updateTime, isWorking; expired orders add expiryReason', () => {
    const { engine, ctx } = market();
    const events = engine.apply({ type: 'PlaceOrder', time: T0 + 5_000, accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'IOC', price: 4_100_000_000_000, quantity: 1_000_000 });
    const id = (events[0] as OrderAccepted).orderId;
    const json = orderQueryJson(engine.getOrder(1, 'BTCUSDT', { orderId: id })!, ctx);
    expect(json).toMatchObject({ stopPrice: '0.00000000', icebergQty: '0.00000000', time: 1_704_067_200_005, updateTime: 1_704_067_200_005, isWorking: true, status: 'EXPIRED', expiryReason: 'UNFILLED_IOC_QUANTITY_EXPIRED' });
  });

  it('cancel response names the original client id and the cancel id', () => {
    const { engine, ctx } = market();
    engine.apply({ type: 'PlaceOrder', time: T0 + 1, accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: 4_100_000_000_000, quantity: 1_000_000, clientOrderId: 'bid-1' });
    const canceled = engine.apply({ type: 'CancelOrder', time: T0 + 9_000, accountId: 1, symbol: 'BTCUSDT', orderId: 1, newClientOrderId: 'cancel-1' });
    expect(canceled[0]?.type).toBe('OrderCanceled');
    const json = cancelJson(engine.getOrder(1, 'BTCUSDT', { orderId: 1 })!, 'cancel-1', T0 + 9_000, ctx);
    expect(json).toMatchObject({ symbol: 'BTCUSDT', origClientOrderId: 'bid-1', orderId: 1, clientOrderId: 'cancel-1', transactTime: 1_704_067_200_009, price: '41000.00000000', status: 'CANCELED' });
  });
});
