/**
 * exchangeInfo symbol entries and the account object as the REST API shows them (binance-facts
 * §8): fields in the documented order, filters in the order configured with their amounts
 * re-written at the asset's precision ("0.01" -> "0.01000000", as the live API serves them),
 * multipliers and integer limits as configured.
 */
import { type SymbolFilter, type SymbolSpec, type SymbolStatus, formatUnits, parseUnits, type AccountView, isFuturesAsset } from '../../engine/index.ts';
import { apiTime, type TimeUnit } from './api-time.ts';

const ORDER_TYPE_ORDER = ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'] as const;

/** Re-writes a decimal string at `precision` places (the config may say "0.01"). */
function at(text: string, precision: number): string {
  const units = parseUnits(text, precision);
  return units === null ? text : formatUnits(units, precision);
}

function filterJson(filter: SymbolFilter, spec: SymbolSpec): Record<string, unknown> {
  const p = spec.quotePrecision;
  const b = spec.basePrecision;
  switch (filter.filterType) {
    case 'PRICE_FILTER':
      return { filterType: filter.filterType, minPrice: at(filter.minPrice, p), maxPrice: at(filter.maxPrice, p), tickSize: at(filter.tickSize, p) };
    case 'LOT_SIZE':
    case 'MARKET_LOT_SIZE':
      return { filterType: filter.filterType, minQty: at(filter.minQty, b), maxQty: at(filter.maxQty, b), stepSize: at(filter.stepSize, b) };
    case 'MIN_NOTIONAL':
      return { filterType: filter.filterType, minNotional: at(filter.minNotional, p), applyToMarket: filter.applyToMarket, avgPriceMins: filter.avgPriceMins };
    case 'NOTIONAL':
      return {
        filterType: filter.filterType,
        minNotional: at(filter.minNotional, p),
        applyMinToMarket: filter.applyMinToMarket,
        maxNotional: at(filter.maxNotional, p),
        applyMaxToMarket: filter.applyMaxToMarket,
        avgPriceMins: filter.avgPriceMins,
      };
    case 'MAX_POSITION':
      return { filterType: filter.filterType, maxPosition: at(filter.maxPosition, b) };
    default:
      return { ...filter };
  }
}

/** One element of exchangeInfo's `symbols`. */
export function symbolInfoJson(spec: SymbolSpec, status: SymbolStatus, showPermissionSets = true): Record<string, unknown> {
  return {
    symbol: spec.symbol,
    status,
    baseAsset: spec.baseAsset,
    baseAssetPrecision: spec.basePrecision,
    quoteAsset: spec.quoteAsset,
    quotePrecision: spec.quotePrecision,
    quoteAssetPrecision: spec.quotePrecision,
    baseCommissionPrecision: spec.basePrecision,
    quoteCommissionPrecision: spec.quotePrecision,
    orderTypes: ORDER_TYPE_ORDER.filter((t) => spec.orderTypes.has(t)),
    icebergAllowed: spec.icebergAllowed,
    ocoAllowed: spec.ocoAllowed,
    otoAllowed: spec.otoAllowed,
    opoAllowed: spec.opoAllowed,
    quoteOrderQtyMarketAllowed: spec.quoteOrderQtyMarketAllowed,
    allowTrailingStop: spec.allowTrailingStop,
    cancelReplaceAllowed: spec.cancelReplaceAllowed,
    amendAllowed: spec.amendAllowed,
    pegInstructionsAllowed: spec.pegInstructionsAllowed,
    isSpotTradingAllowed: spec.isSpotTradingAllowed,
    isMarginTradingAllowed: spec.isMarginTradingAllowed,
    filters: spec.filters.map((f) => filterJson(f, spec)),
    permissions: [],
    permissionSets: showPermissionSets ? spec.permissionSets.map((set) => [...set]) : [],
    defaultSelfTradePreventionMode: spec.defaultStpMode,
    allowedSelfTradePreventionModes: [...spec.allowedStpModes],
  };
}

const RATE = 8; // commission rates are 1e-8 units

/** GET /api/v3/account. `uid` and the flags the engine does not model are parameters. */
export function accountJson(
  account: AccountView,
  options: { unit: TimeUnit; omitZeroBalances: boolean; assetPrecision: (asset: string) => number; uid: number },
): Record<string, unknown> {
  const s = account.standardCommission;
  const bps = (rate: number) => Math.round(rate / 10_000); // 1e-8 units -> basis points (0.0015 -> 15)
  // The futures wallet (`um:` assets) is not part of the spot account.
  const balances = account.balances
    .filter((b) => !isFuturesAsset(b.asset))
    .filter((b) => !options.omitZeroBalances || b.free !== 0 || b.locked !== 0)
    .map((b) => ({ asset: b.asset, free: formatUnits(b.free, options.assetPrecision(b.asset)), locked: formatUnits(b.locked, options.assetPrecision(b.asset)) }));
  return {
    makerCommission: bps(s.maker),
    takerCommission: bps(s.taker),
    buyerCommission: bps(s.buyer),
    sellerCommission: bps(s.seller),
    commissionRates: { maker: formatUnits(s.maker, RATE), taker: formatUnits(s.taker, RATE), buyer: formatUnits(s.buyer, RATE), seller: formatUnits(s.seller, RATE) },
    canTrade: account.canTrade,
    canWithdraw: true,
    canDeposit: true,
    brokered: false,
    requireSelfTradePrevention: false,
    preventSor: false,
    updateTime: apiTime(account.updateTime, options.unit),
    accountType: 'SPOT',
    balances,
    permissions: [...account.permissions],
    uid: options.uid,
  };
}
