import { describe, expect, it } from 'vitest';
import type { PlaceOrder } from '../../../src/engine/commands.ts';
import type { SymbolConfig } from '../../../src/engine/symbol-config.ts';
import { Sim, expectRejectedWithoutChange, px, qty, symbolConfig, type TimelessCommand } from './helpers.ts';

function sim(overrides: Partial<SymbolConfig> = {}, account: Parameters<Sim['createAccount']>[2] = {}): Sim {
  const s = new Sim(symbolConfig(overrides));
  s.createAccount(1, { USDT: '10000', BTC: '10' }, account);
  return s;
}

const limitBuy = (extra: Partial<PlaceOrder> = {}): TimelessCommand => ({
  type: 'PlaceOrder',
  accountId: 1,
  symbol: 'BTCUSDT',
  side: 'BUY',
  orderType: 'LIMIT',
  timeInForce: 'GTC',
  price: px('100'),
  quantity: qty('1'),
  ...extra,
});

describe('symbol trading status', () => {
  for (const status of ['HALT', 'BREAK', 'END_OF_DAY', 'CANCEL_ONLY'] as const) {
    it(`${status}: new orders are MARKET_CLOSED`, () => {
      const s = sim();
      expect(s.apply({ type: 'SetSymbolStatus', symbol: 'BTCUSDT', status })).toEqual([{ type: 'SymbolStatusChanged', time: s.now, symbol: 'BTCUSDT', status }]);
      expect(s.engine.symbolStatus('BTCUSDT')).toBe(status);
      expectRejectedWithoutChange(s, limitBuy(), 'MARKET_CLOSED');
    });
  }

  it('a symbol configured as not TRADING refuses orders until set to TRADING', () => {
    const s = sim({ status: 'BREAK' });
    expectRejectedWithoutChange(s, limitBuy(), 'MARKET_CLOSED');
    s.apply({ type: 'SetSymbolStatus', symbol: 'BTCUSDT', status: 'TRADING' });
    expect(s.apply(limitBuy())[0]?.type).toBe('OrderAccepted');
  });

  it('SetSymbolStatus on an unknown symbol is UNKNOWN_SYMBOL', () => {
    const s = sim();
    expectRejectedWithoutChange(s, { type: 'SetSymbolStatus', symbol: 'XYZ', status: 'HALT' }, 'UNKNOWN_SYMBOL');
  });
});

describe('order types', () => {
  it('a type not in orderTypes is ORDER_TYPE_NOT_SUPPORTED', () => {
    const s = sim({ orderTypes: ['LIMIT', 'LIMIT_MAKER'] });
    const market: TimelessCommand = { type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: qty('1') };
    expectRejectedWithoutChange(s, market, 'ORDER_TYPE_NOT_SUPPORTED');
    expect(s.apply(limitBuy())[0]?.type).toBe('OrderAccepted');
  });

  it('LIMIT_MAKER can be switched off on its own', () => {
    const s = sim({ orderTypes: ['LIMIT', 'MARKET'] });
    const { timeInForce: _tif, ...maker } = limitBuy({ orderType: 'LIMIT_MAKER' }) as PlaceOrder;
    expectRejectedWithoutChange(s, maker, 'ORDER_TYPE_NOT_SUPPORTED');
  });
});

describe('field combinations: UNSUPPORTED_ORDER_COMBINATION', () => {
  const cases: [string, TimelessCommand][] = [];
  const base = limitBuy() as PlaceOrder;
  const { timeInForce: _t, ...noTif } = base;
  const { price: _p, ...noPrice } = base;
  const { quantity: _q, ...noQty } = base;
  cases.push(['LIMIT without timeInForce', noTif]);
  cases.push(['LIMIT without price', noPrice]);
  cases.push(['LIMIT without quantity', noQty]);
  cases.push(['LIMIT with quoteOrderQty', { ...base, quoteOrderQty: 100 }]);
  cases.push(['LIMIT_MAKER with timeInForce', { ...base, orderType: 'LIMIT_MAKER' }]);
  const { timeInForce: _t3, ...noPriceNoTif } = noPrice;
  cases.push(['LIMIT_MAKER without price', { ...noPriceNoTif, orderType: 'LIMIT_MAKER' }]);
  const { timeInForce: _t2, price: _p2, ...market } = base;
  cases.push(['MARKET with price', { ...market, orderType: 'MARKET', price: px('100') }]);
  cases.push(['MARKET with timeInForce', { ...market, orderType: 'MARKET', timeInForce: 'IOC' }]);
  cases.push(['MARKET with quantity and quoteOrderQty', { ...market, orderType: 'MARKET', quoteOrderQty: 100 }]);
  const { quantity: _q2, ...bare } = market;
  cases.push(['MARKET with neither quantity nor quoteOrderQty', { ...bare, orderType: 'MARKET' }]);
  cases.push(['STOP_LOSS (no conditional orders yet)', { ...market, orderType: 'STOP_LOSS' }]);

  for (const [name, command] of cases) {
    it(name, () => {
      expectRejectedWithoutChange(sim(), command, 'UNSUPPORTED_ORDER_COMBINATION');
    });
  }
});

describe('self-trade prevention mode', () => {
  it('a mode outside allowedSelfTradePreventionModes is STP_MODE_NOT_ALLOWED', () => {
    const s = sim({ allowedSelfTradePreventionModes: ['EXPIRE_MAKER', 'EXPIRE_TAKER'], defaultSelfTradePreventionMode: 'EXPIRE_MAKER' });
    expectRejectedWithoutChange(s, limitBuy({ selfTradePreventionMode: 'DECREMENT' }), 'STP_MODE_NOT_ALLOWED');
    expectRejectedWithoutChange(s, limitBuy({ selfTradePreventionMode: 'NONE' }), 'STP_MODE_NOT_ALLOWED');
    expect(s.apply(limitBuy({ selfTradePreventionMode: 'EXPIRE_TAKER' }))[0]).toMatchObject({ type: 'OrderAccepted', selfTradePreventionMode: 'EXPIRE_TAKER' });
  });

  it('TRANSFER must be allowed explicitly (it is not in the default set)', () => {
    const s = new Sim({ symbols: [{ symbol: 'BTCUSDT', baseAsset: 'BTC', quoteAsset: 'USDT' }] });
    s.createAccount(1, { USDT: '1000' });
    expectRejectedWithoutChange(s, limitBuy({ selfTradePreventionMode: 'TRANSFER' }), 'STP_MODE_NOT_ALLOWED');
  });

  it('without a mode the symbol default is applied and reported', () => {
    const s = sim({ allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_BOTH'], defaultSelfTradePreventionMode: 'EXPIRE_BOTH' });
    expect(s.apply(limitBuy())[0]).toMatchObject({ type: 'OrderAccepted', selfTradePreventionMode: 'EXPIRE_BOTH' });
    expect(s.order(1, 1).selfTradePreventionMode).toBe('EXPIRE_BOTH');
  });
});

describe('permissions', () => {
  it('an account without the permission the symbol needs is SYMBOL_NOT_PERMITTED', () => {
    const s = sim({ permissionSets: [['MARGIN']] }, { permissions: ['SPOT'] });
    expectRejectedWithoutChange(s, limitBuy(), 'SYMBOL_NOT_PERMITTED');
  });

  it('inner permission sets are OR', () => {
    const s = sim({ permissionSets: [['SPOT', 'MARGIN']] }, { permissions: ['MARGIN'] });
    expect(s.apply(limitBuy())[0]?.type).toBe('OrderAccepted');
  });

  it('outer permission sets are AND', () => {
    const both = sim({ permissionSets: [['SPOT'], ['TRD_GRP_002', 'TRD_GRP_003']] }, { permissions: ['SPOT', 'TRD_GRP_003'] });
    expect(both.apply(limitBuy())[0]?.type).toBe('OrderAccepted');
    const one = sim({ permissionSets: [['SPOT'], ['TRD_GRP_002', 'TRD_GRP_003']] }, { permissions: ['SPOT'] });
    expectRejectedWithoutChange(one, limitBuy(), 'SYMBOL_NOT_PERMITTED');
  });

  it('a symbol with isSpotTradingAllowed false is SYMBOL_NOT_PERMITTED', () => {
    const s = sim({ isSpotTradingAllowed: false });
    expectRejectedWithoutChange(s, limitBuy(), 'SYMBOL_NOT_PERMITTED');
  });

  it('an account with canTrade false is ACCOUNT_CANNOT_TRADE (placing and canceling)', () => {
    const s = sim({}, { canTrade: false });
    expectRejectedWithoutChange(s, limitBuy(), 'ACCOUNT_CANNOT_TRADE');
    expectRejectedWithoutChange(s, { type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId: 1 }, 'ACCOUNT_CANNOT_TRADE');
  });
});
