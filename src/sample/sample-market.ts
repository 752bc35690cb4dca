/**
 * The bundled sample market: two symbols with the rules of their real counterparts (BTCUSDT-like
 * grid and filters, ETHBTC from the live capture in binance-facts §8.1) and the demo accounts.
 * Used by `npm start`, the demo, and tests that want a realistic configuration.
 */
import type { CreateAccount, EngineConfig } from '../engine/index.ts';

export const SAMPLE_CONFIG: EngineConfig = {
  assets: [
    { asset: 'BTC', precision: 8 },
    { asset: 'ETH', precision: 8 },
    { asset: 'USDT', precision: 8 },
    { asset: 'BNB', precision: 8 },
  ],
  symbols: [
    {
      symbol: 'BTCUSDT',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
      defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
      allowedSelfTradePreventionModes: ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT'],
      discountEnabled: true,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.01000000', maxPrice: '1000000.00000000', tickSize: '0.01000000' },
        { filterType: 'LOT_SIZE', minQty: '0.00001000', maxQty: '9000.00000000', stepSize: '0.00001000' },
        { filterType: 'ICEBERG_PARTS', limit: 10 },
        { filterType: 'MARKET_LOT_SIZE', minQty: '0.00000000', maxQty: '120.00000000', stepSize: '0.00000000' },
        { filterType: 'TRAILING_DELTA', minTrailingAboveDelta: 10, maxTrailingAboveDelta: 2000, minTrailingBelowDelta: 10, maxTrailingBelowDelta: 2000 },
        { filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: '5', bidMultiplierDown: '0.2', askMultiplierUp: '5', askMultiplierDown: '0.2', avgPriceMins: 5 },
        { filterType: 'NOTIONAL', minNotional: '5.00000000', applyMinToMarket: true, maxNotional: '9000000.00000000', applyMaxToMarket: false, avgPriceMins: 5 },
        { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
        { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
      ],
    },
    {
      symbol: 'ETHBTC',
      baseAsset: 'ETH',
      quoteAsset: 'BTC',
      defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
      allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT'],
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.00001000', maxPrice: '922327.00000000', tickSize: '0.00001000' },
        { filterType: 'LOT_SIZE', minQty: '0.00010000', maxQty: '100000.00000000', stepSize: '0.00010000' },
        { filterType: 'ICEBERG_PARTS', limit: 10 },
        { filterType: 'MARKET_LOT_SIZE', minQty: '0.00000000', maxQty: '985.33449583', stepSize: '0.00000000' },
        { filterType: 'TRAILING_DELTA', minTrailingAboveDelta: 10, maxTrailingAboveDelta: 2000, minTrailingBelowDelta: 10, maxTrailingBelowDelta: 2000 },
        { filterType: 'PERCENT_PRICE_BY_SIDE', bidMultiplierUp: '5', bidMultiplierDown: '0.2', askMultiplierUp: '5', askMultiplierDown: '0.2', avgPriceMins: 5 },
        { filterType: 'NOTIONAL', minNotional: '0.00010000', applyMinToMarket: true, maxNotional: '9000000.00000000', applyMaxToMarket: false, avgPriceMins: 5 },
        { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
        { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
      ],
    },
  ],
  exchangeFilters: [{ filterType: 'EXCHANGE_MAX_NUM_ORDERS', maxNumOrders: 1000 }],
};

/** 0.1% maker and taker, as the real default account (makerCommission 10 bps). */
const DEFAULT_RATES = { maker: 100_000, taker: 100_000, buyer: 0, seller: 0 };

export const DEMO_ACCOUNT_ID = 1;
export const MARKET_MAKER_ACCOUNT_ID = 2;

/** The demo account's HMAC credentials (`exsim serve` prints them; strategies use the same). */
export const DEMO_CREDENTIALS = { apiKey: 'exsim-demo-key', keyType: 'HMAC', secretKey: 'exsim-demo-secret', accountId: DEMO_ACCOUNT_ID } as const;

/** The demo account (API key exsim-demo-key) and a market maker that provides liquidity. */
export function sampleAccounts(time: number): CreateAccount[] {
  const units = (n: number) => Math.round(n * 1e8);
  return [
    {
      type: 'CreateAccount',
      time,
      accountId: DEMO_ACCOUNT_ID,
      balances: { BTC: units(1), ETH: units(10), USDT: units(100_000), BNB: units(10) },
      standardCommission: DEFAULT_RATES,
    },
    {
      type: 'CreateAccount',
      time,
      accountId: MARKET_MAKER_ACCOUNT_ID,
      balances: { BTC: units(100), ETH: units(1_000), USDT: units(10_000_000) },
      standardCommission: { maker: 0, taker: 100_000, buyer: 0, seller: 0 },
    },
  ];
}
