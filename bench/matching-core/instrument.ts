/**
 * The one instrument the matching-core bench trades, and how the op stream's ticks and lots map
 * to integer asset units. Both engines get the same integers (the peer takes JS numbers; these
 * are exact in doubles), so their books can be compared value for value.
 */
import type { AssetConfig, SymbolConfig } from '../../src/engine/symbol-config.ts';

export const SYMBOL = 'BTCUSDT';

/** Both assets at Binance's usual 8 decimals: 1 USDT = 1e8 units, 1 BTC = 1e8 units. */
export const ASSETS: readonly AssetConfig[] = [
  { asset: 'BTC', precision: 8 },
  { asset: 'USDT', precision: 8 },
];

/** One tick = 0.01 USDT of price = 1e6 quote units; tick 10,000 is 100.00 USDT. */
export const TICK_UNITS = 1_000_000;
/** One lot = 0.001 BTC = 1e5 base units (a multiple of the LOT_SIZE step). */
export const LOT_UNITS = 100_000;

export const SYMBOL_CONFIG: SymbolConfig = {
  symbol: SYMBOL,
  baseAsset: 'BTC',
  quoteAsset: 'USDT',
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: '0.00001', maxQty: '9000', stepSize: '0.00001' },
  ],
  // No self-trade prevention: the peer has none by default either, and with 1,000 accounts
  // trading one book, self-crosses happen and must trade in both engines alike.
  defaultSelfTradePreventionMode: 'NONE',
};

/**
 * Initial balances per account, in units. An account does ~1/1000 of the flow (a few hundred
 * orders of at most 0.126 BTC, ~13 USDT), so these never run out; they are kept small enough
 * that the exchange-wide sums of 1,000 accounts stay exact integers (< 2^53).
 */
export const BTC_PER_ACCOUNT = 500 * 1e8;
export const USDT_PER_ACCOUNT = 50_000 * 1e8;

export function priceUnits(tick: number): number {
  return tick * TICK_UNITS;
}

export function quantityUnits(lots: number): number {
  return lots * LOT_UNITS;
}
