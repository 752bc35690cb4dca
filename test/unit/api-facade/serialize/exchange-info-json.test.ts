import { describe, expect, it } from 'vitest';
import { accountJson, symbolInfoJson } from '../../../../src/api-facade/serialize/exchange-info-json.ts';
import { Engine } from '../../../../src/engine/engine.ts';
import { SAMPLE_CONFIG } from '../../../../src/sample/sample-market.ts';

describe('exchangeInfo symbol entry', () => {
  it('follows the documented field order and writes filter amounts at the asset precision', () => {
    const engine = new Engine(SAMPLE_CONFIG);
    const json = symbolInfoJson(engine.symbolSpec('ETHBTC')!, 'TRADING');
    expect(Object.keys(json)).toEqual([
      'symbol', 'status', 'baseAsset', 'baseAssetPrecision', 'quoteAsset', 'quotePrecision', 'quoteAssetPrecision', 'baseCommissionPrecision',
      'quoteCommissionPrecision', 'orderTypes', 'icebergAllowed', 'ocoAllowed', 'otoAllowed', 'opoAllowed', 'quoteOrderQtyMarketAllowed',
      'allowTrailingStop', 'cancelReplaceAllowed', 'amendAllowed', 'pegInstructionsAllowed', 'isSpotTradingAllowed', 'isMarginTradingAllowed',
      'filters', 'permissions', 'permissionSets', 'defaultSelfTradePreventionMode', 'allowedSelfTradePreventionModes',
    ]);
    expect(json['filters']).toContainEqual({ filterType: 'PRICE_FILTER', minPrice: '0.00001000', maxPrice: '922327.00000000', tickSize: '0.00001000' });
    expect(json['filters']).toContainEqual({ filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: '5', bidMultiplierDown: '0.2', askMultiplierUp: '5', askMultiplierDown: '0.2', avgPriceMins: 5 });
    expect(json).toMatchObject({ orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'], permissions: [], permissionSets: [['SPOT']], defaultSelfTradePreventionMode: 'EXPIRE_MAKER' });
    expect(symbolInfoJson(engine.symbolSpec('ETHBTC')!, 'TRADING', false)['permissionSets']).toEqual([]);
  });
});

describe('account object', () => {
  it('shows commissions in basis points and as rates, balances as strings, optionally without zeros', () => {
    const engine = new Engine(SAMPLE_CONFIG);
    engine.apply({ type: 'CreateAccount', time: 1_704_067_200_123_456, accountId: 7, balances: { BTC: 150_000_000, USDT: 0 }, standardCommission: { maker: 150_000, taker: 150_000, buyer: 0, seller: 0 } });
    const options = { unit: 'MILLISECOND' as const, omitZeroBalances: true, assetPrecision: () => 8, uid: 354937868 };
    const json = accountJson(engine.account(7)!, options);
    expect(json).toMatchObject({
      makerCommission: 15,
      takerCommission: 15,
      commissionRates: { maker: '0.00150000', taker: '0.00150000', buyer: '0.00000000', seller: '0.00000000' },
      canTrade: true,
      accountType: 'SPOT',
      updateTime: 1_704_067_200_123,
      balances: [{ asset: 'BTC', free: '1.50000000', locked: '0.00000000' }],
      permissions: ['SPOT'],
      uid: 354937868,
    });
    expect((accountJson(engine.account(7)!, { ...options, omitZeroBalances: false })['balances'] as unknown[]).length).toBe(4);
  });
});
