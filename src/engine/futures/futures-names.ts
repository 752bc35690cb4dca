/**
 * Names of the USDⓈ-M futures world inside the one engine (docs/usdm-futures.md). A perpetual
 * lives beside the spot symbols under a namespaced engine symbol (`um:BTCUSDT`), and an
 * account's futures wallet is namespaced engine assets (`um:USDT`). The prefix contains a colon,
 * which no Binance symbol or asset has, so a futures name can never collide with a spot one and
 * spot answers can drop every `um:` asset with one prefix test.
 */

/** The namespace of USDⓈ-M engine symbols and futures wallet assets. */
export const FUTURES_PREFIX = 'um:';

/** Margin assets a futures wallet can hold (single-asset mode uses the symbol's margin asset). */
export const FUTURES_MARGIN_ASSETS: readonly string[] = ['USDT', 'USDC', 'BNB'];

/** Engine symbol of the USDⓈ-M contract `fapiSymbol`: `futuresEngineSymbol('BTCUSDT') === 'um:BTCUSDT'`. */
export function futuresEngineSymbol(fapiSymbol: string): string {
  return FUTURES_PREFIX + fapiSymbol;
}

/** The `/fapi` name of an engine symbol: `fapiSymbolOf('um:BTCUSDT') === 'BTCUSDT'`; undefined for a spot symbol. */
export function fapiSymbolOf(engineSymbol: string): string | undefined {
  return engineSymbol.startsWith(FUTURES_PREFIX) ? engineSymbol.slice(FUTURES_PREFIX.length) : undefined;
}

/** Whether an engine symbol (or asset) name is in the futures namespace. */
export function isFuturesSymbol(name: string): boolean {
  return name.startsWith(FUTURES_PREFIX);
}

/** The futures wallet asset of a spot asset: `futuresWalletAsset('USDT') === 'um:USDT'`. */
export function futuresWalletAsset(spotAsset: string): string {
  return FUTURES_PREFIX + spotAsset;
}

/** The spot asset behind a futures wallet asset (`um:USDT` → `USDT`); undefined for a spot asset. */
export function spotAssetOf(walletAsset: string): string | undefined {
  return walletAsset.startsWith(FUTURES_PREFIX) ? walletAsset.slice(FUTURES_PREFIX.length) : undefined;
}

/** Whether an engine asset is a futures wallet asset (spot answers never show these). */
export function isFuturesAsset(asset: string): boolean {
  return asset.startsWith(FUTURES_PREFIX);
}
