/**
 * Default rules of USDⓈ-M perpetuals traded in the engine (docs/usdm-futures.md): the margin
 * symbol's SymbolConfig with its `contract` block — futures filters (binance-futures-facts §5),
 * leverage brackets, commission (VIP0 maker 0.0200% / taker 0.0500%, §9) and liquidation fee.
 *
 * Brackets: ETHUSDT's bracket 1 is the docs' example (75x, cap 10 000, mmr 0.0065, cum 0; §5);
 * its later brackets and BTCUSDT's ladder are Binance's published ladders as remembered, not
 * re-verified against a live /fapi/v1/leverageBracket (unverified). Every other symbol gets
 * DEFAULT_LADDER (chosen: 20x up to 5 000 notional, halving leverage as notional grows). Each
 * bracket's `cum` is computed from the ladder with the §6 rule
 * cum_n = cum_{n−1} + floor_n × (mmr_n − mmr_{n−1}), so it cannot disagree with the ratios.
 */
import { Decimal } from 'decimal.js';
import { futuresEngineSymbol, futuresWalletAsset, type ContractConfig, type FuturesFilter, type LeverageBracketConfig, type SymbolConfig } from '../../engine/index.ts';

/** [initialLeverage, notionalFloor, notionalCap, maintMarginRatio] per bracket, bracket 1 first. */
export type Ladder = readonly (readonly [number, string, string, string])[];

export const BTCUSDT_LADDER: Ladder = [
  [125, '0', '50000', '0.004'],
  [100, '50000', '600000', '0.005'],
  [75, '600000', '3000000', '0.0065'],
  [50, '3000000', '12000000', '0.01'],
  [25, '12000000', '70000000', '0.02'],
  [20, '70000000', '100000000', '0.025'],
  [10, '100000000', '230000000', '0.05'],
  [5, '230000000', '480000000', '0.1'],
  [4, '480000000', '600000000', '0.125'],
  [3, '600000000', '800000000', '0.15'],
  [2, '800000000', '1200000000', '0.25'],
  [1, '1200000000', '1800000000', '0.5'],
];

export const ETHUSDT_LADDER: Ladder = [
  [75, '0', '10000', '0.0065'],
  [50, '10000', '100000', '0.01'],
  [25, '100000', '500000', '0.02'],
  [10, '500000', '1000000', '0.05'],
  [5, '1000000', '2000000', '0.1'],
  [4, '2000000', '5000000', '0.125'],
  [3, '5000000', '10000000', '0.15'],
  [2, '10000000', '20000000', '0.25'],
  [1, '20000000', '50000000', '0.5'],
];

/** Chosen ladder for symbols without a known one. */
export const DEFAULT_LADDER: Ladder = [
  [20, '0', '5000', '0.025'],
  [10, '5000', '25000', '0.05'],
  [5, '25000', '100000', '0.1'],
  [2, '100000', '250000', '0.25'],
  [1, '250000', '1000000', '0.5'],
];

/**
 * The ladder's brackets whose notional cap the engine can hold: it keeps money as integers of
 * 1e-8 (the margin asset's precision) below 2^53, so caps above 90 000 000 do not fit (BTCUSDT's
 * brackets from 100 000 000 up). They are left out: a position that would need one is refused
 * as over the maximum notional at its leverage (-2027), which only a nine-figure position meets.
 */
export function withinEngineRange(ladder: Ladder): Ladder {
  const kept = ladder.filter(([, , cap]) => Number(cap) * 1e8 <= Number.MAX_SAFE_INTEGER);
  return kept.length === 0 ? ladder.slice(0, 1) : kept;
}

/** Brackets with `cum` computed by the §6 rule. */
export function bracketsOf(ladder: Ladder): LeverageBracketConfig[] {
  let cum = new Decimal(0);
  let prevMmr = new Decimal(0);
  return ladder.map(([initialLeverage, floor, cap, mmr], i) => {
    cum = cum.plus(new Decimal(floor).mul(new Decimal(mmr).minus(prevMmr)));
    prevMmr = new Decimal(mmr);
    return { bracket: i + 1, initialLeverage, notionalFloor: floor, notionalCap: cap, maintMarginRatio: mmr, cum: cum.toFixed() };
  });
}

export const DEFAULT_MAKER_RATE = '0.0002';
export const DEFAULT_TAKER_RATE = '0.0005';

export interface ContractRuleOptions {
  /** Base asset (quantity precision), default: the fapi symbol less its margin asset. */
  baseAsset?: string;
  /** Spot margin asset name: USDT (default) or USDC. */
  marginAsset?: string;
  tickSize?: string;
  stepSize?: string;
  minPrice?: string;
  maxPrice?: string;
  minQty?: string;
  maxQty?: string;
  marketMaxQty?: string;
  minNotional?: string;
  ladder?: Ladder;
  /** Funding interval, hours (1, 4 or 8; default 8). */
  fundingIntervalHours?: number;
}

/** Known symbols' grids and limits (binance fapi exchangeInfo as remembered; unverified). */
const KNOWN: Readonly<Record<string, ContractRuleOptions>> = {
  BTCUSDT: { tickSize: '0.10', minPrice: '556.80', maxPrice: '4529764', stepSize: '0.001', minQty: '0.001', maxQty: '1000', marketMaxQty: '120', minNotional: '100', ladder: BTCUSDT_LADDER },
  ETHUSDT: { tickSize: '0.01', minPrice: '39.86', maxPrice: '306177', stepSize: '0.001', minQty: '0.001', maxQty: '10000', marketMaxQty: '2000', minNotional: '20', ladder: ETHUSDT_LADDER },
};

/**
 * The engine SymbolConfig of the USDⓈ-M perpetual `fapiSymbol` (engine name `um:<fapiSymbol>`,
 * quote asset = margin asset `um:USDT`). Unknown symbols take the §5 example's shape (MIN_NOTIONAL
 * 5, PERCENT_PRICE 1.15 / 0.85, 200 open orders) on the grid given in `options` (default the
 * spot-like 0.01 tick, 0.001 step) and DEFAULT_LADDER.
 */
export function futuresSymbolConfig(fapiSymbol: string, options: ContractRuleOptions = {}): SymbolConfig {
  const known = KNOWN[fapiSymbol] ?? {};
  const o = { ...known, ...options };
  const margin = o.marginAsset ?? (fapiSymbol.endsWith('USDC') ? 'USDC' : 'USDT');
  const baseAsset = o.baseAsset ?? (fapiSymbol.endsWith(margin) ? fapiSymbol.slice(0, -margin.length) : fapiSymbol);
  const tick = o.tickSize ?? '0.01';
  const step = o.stepSize ?? '0.001';
  const minQty = o.minQty ?? step;
  const filters: FuturesFilter[] = [
    { filterType: 'PRICE_FILTER', minPrice: o.minPrice ?? tick, maxPrice: o.maxPrice ?? '1000000', tickSize: tick },
    { filterType: 'LOT_SIZE', minQty, maxQty: o.maxQty ?? '1000000', stepSize: step },
    { filterType: 'MARKET_LOT_SIZE', minQty, maxQty: o.marketMaxQty ?? o.maxQty ?? '1000000', stepSize: step },
    { filterType: 'MAX_NUM_ORDERS', limit: 200 },
    { filterType: 'MIN_NOTIONAL', notional: o.minNotional ?? '5' },
    { filterType: 'PERCENT_PRICE', multiplierUp: known.ladder === undefined ? '1.1500' : '1.0500', multiplierDown: known.ladder === undefined ? '0.8500' : '0.9500', multiplierDecimal: 4 },
  ];
  const contract: ContractConfig = {
    kind: 'PERPETUAL',
    marginAsset: futuresWalletAsset(margin),
    brackets: bracketsOf(withinEngineRange(o.ladder ?? DEFAULT_LADDER)),
    // §5 shows liquidationFee "0.010000" for the example symbol; used for all (unverified per symbol).
    liquidationFeeRate: '0.01',
    makerCommissionRate: DEFAULT_MAKER_RATE,
    takerCommissionRate: DEFAULT_TAKER_RATE,
    fundingIntervalHours: o.fundingIntervalHours ?? 8,
    triggerProtect: '0.15',
    marketTakeBound: '0.30',
    filters,
  };
  return {
    symbol: futuresEngineSymbol(fapiSymbol),
    baseAsset,
    quoteAsset: contract.marginAsset,
    orderTypes: ['LIMIT', 'MARKET'],
    isSpotTradingAllowed: false,
    permissionSets: [],
    allowedSelfTradePreventionModes: ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'],
    contract,
  };
}
