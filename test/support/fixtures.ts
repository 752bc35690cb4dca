/**
 * Reusable test fixtures: Binance-shaped symbol configs, account builders and decimal-to-units
 * helpers. Every builder returns fresh objects so a test may mutate what it gets.
 *
 * The two symbols are chosen for their arithmetic, not their market:
 * - BTCUSDT-like: tick 0.01 and step 0.00001 at 8 decimals give tick*step = 1e-7 USDT, a whole
 *   number of quote units, so every notional is exact;
 * - ETHBTC-like (from the live capture in binance-facts §8.1): tick 0.00001 and step 0.0001 give
 *   tick*step = 1e-9 BTC, finer than BTC's 8 decimals, so notionals floor.
 */
import type { CommissionRates, CreateAccount } from '../../src/engine/commands.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { AssetConfig, EngineConfig, SymbolConfig, SymbolFilter } from '../../src/engine/symbol-config.ts';
import type { SelfTradePreventionMode } from '../../src/engine/types.ts';
import { parseUnits } from '../../src/engine/units.ts';

/** Precision of every asset the fixtures use (Binance spot shows 8 for all of them). */
export const DEFAULT_PRECISION = 8;

/** Decimal string to integer units; throws on a value that does not fit `precision` (a test bug). */
export function units(decimal: string, precision: number = DEFAULT_PRECISION): number {
  const n = parseUnits(decimal, precision);
  if (n === null) throw new Error(`fixture: "${decimal}" is not a decimal with at most ${precision} places`);
  return n;
}

/** A commission or multiplier rate ("0.001") in the engine's 1e-8 units (100000). */
export function rate(decimal: string): number {
  return units(decimal, 8);
}

/** Commission rates from decimal strings, all four components defaulting to zero. */
export function commissionRates(rates: Partial<Record<keyof CommissionRates, string>> = {}): CommissionRates {
  return {
    maker: rate(rates.maker ?? '0'),
    taker: rate(rates.taker ?? '0'),
    buyer: rate(rates.buyer ?? '0'),
    seller: rate(rates.seller ?? '0'),
  };
}

export const ALL_STP_MODES: readonly SelfTradePreventionMode[] = [
  'NONE',
  'EXPIRE_TAKER',
  'EXPIRE_MAKER',
  'EXPIRE_BOTH',
  'DECREMENT',
  'TRANSFER',
];

/** Replaces filters of the same type and appends new ones, keeping the served order. */
export function withFilters(base: readonly SymbolFilter[], overrides: readonly SymbolFilter[]): SymbolFilter[] {
  const byType = new Map(overrides.map((f) => [f.filterType, f] as const));
  const merged = base.map((f) => byType.get(f.filterType) ?? f);
  for (const f of overrides) if (!base.some((b) => b.filterType === f.filterType)) merged.push(f);
  return merged;
}

export interface SymbolFixtureOptions {
  symbol?: string;
  /** Filters replacing the fixture's filters of the same type (others are kept). */
  filters?: readonly SymbolFilter[];
  /** Drop these filter types from the fixture. */
  withoutFilters?: readonly SymbolFilter['filterType'][];
  config?: Partial<Omit<SymbolConfig, 'filters'>>;
}

function buildSymbol(base: SymbolConfig, options: SymbolFixtureOptions): SymbolConfig {
  const drop = new Set(options.withoutFilters ?? []);
  const filters = withFilters(base.filters ?? [], options.filters ?? []).filter((f) => !drop.has(f.filterType));
  return { ...base, ...options.config, symbol: options.symbol ?? base.symbol, filters };
}

/**
 * BTCUSDT-like symbol. Values follow the usual live entry (tick 0.01, step 0.00001, min notional
 * 5 USDT); BTCUSDT itself was not captured in the reference facts, so these are plausible, not
 * authoritative. All six STP modes are allowed so tests can reach TRANSFER.
 */
export function btcusdtConfig(options: SymbolFixtureOptions = {}): SymbolConfig {
  return buildSymbol(
    {
      symbol: 'BTCUSDT',
      status: 'TRADING',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
      orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'],
      icebergAllowed: true,
      ocoAllowed: true,
      otoAllowed: true,
      quoteOrderQtyMarketAllowed: true,
      allowTrailingStop: true,
      cancelReplaceAllowed: true,
      amendAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: false,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.01000000', maxPrice: '1000000.00000000', tickSize: '0.01000000' },
        { filterType: 'LOT_SIZE', minQty: '0.00001000', maxQty: '9000.00000000', stepSize: '0.00001000' },
        { filterType: 'ICEBERG_PARTS', limit: 10 },
        { filterType: 'MARKET_LOT_SIZE', minQty: '0.00000000', maxQty: '100.00000000', stepSize: '0.00000000' },
        {
          filterType: 'NOTIONAL',
          minNotional: '5.00000000',
          applyMinToMarket: true,
          maxNotional: '9000000.00000000',
          applyMaxToMarket: false,
          avgPriceMins: 5,
        },
        { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
        { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
      ],
      permissionSets: [['SPOT']],
      defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
      allowedSelfTradePreventionModes: [...ALL_STP_MODES],
    },
    options,
  );
}

/**
 * ETHBTC-like symbol, filters as in the live capture quoted in binance-facts §8.1 (including the
 * disabled MARKET_LOT_SIZE step and the STP modes without NONE).
 */
export function ethbtcConfig(options: SymbolFixtureOptions = {}): SymbolConfig {
  return buildSymbol(
    {
      symbol: 'ETHBTC',
      status: 'TRADING',
      baseAsset: 'ETH',
      quoteAsset: 'BTC',
      orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT'],
      icebergAllowed: true,
      ocoAllowed: true,
      otoAllowed: true,
      opoAllowed: true,
      quoteOrderQtyMarketAllowed: true,
      allowTrailingStop: true,
      cancelReplaceAllowed: true,
      amendAllowed: true,
      pegInstructionsAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: true,
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.00001000', maxPrice: '922327.00000000', tickSize: '0.00001000' },
        { filterType: 'LOT_SIZE', minQty: '0.00010000', maxQty: '100000.00000000', stepSize: '0.00010000' },
        { filterType: 'ICEBERG_PARTS', limit: 10 },
        { filterType: 'MARKET_LOT_SIZE', minQty: '0.00000000', maxQty: '985.33449583', stepSize: '0.00000000' },
        {
          filterType: 'TRAILING_DELTA',
          minTrailingAboveDelta: 10,
          maxTrailingAboveDelta: 2000,
          minTrailingBelowDelta: 10,
          maxTrailingBelowDelta: 2000,
        },
        {
          filterType: 'PERCENT_PRICE_BY_SIDE',
          bidMultiplierUp: '5',
          bidMultiplierDown: '0.2',
          askMultiplierUp: '5',
          askMultiplierDown: '0.2',
          avgPriceMins: 5,
        },
        {
          filterType: 'NOTIONAL',
          minNotional: '0.00010000',
          applyMinToMarket: true,
          maxNotional: '9000000.00000000',
          applyMaxToMarket: false,
          avgPriceMins: 5,
        },
        { filterType: 'MAX_NUM_ORDERS', maxNumOrders: 200 },
        { filterType: 'MAX_NUM_ALGO_ORDERS', maxNumAlgoOrders: 5 },
      ],
      permissionSets: [['SPOT', 'MARGIN']],
      defaultSelfTradePreventionMode: 'EXPIRE_MAKER',
      allowedSelfTradePreventionModes: ['EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH', 'DECREMENT'],
    },
    options,
  );
}

/** Asset precisions for the fixture symbols (all 8, stated explicitly so a reader need not know the default). */
export function fixtureAssets(): AssetConfig[] {
  return ['BTC', 'USDT', 'ETH', 'BNB'].map((asset) => ({ asset, precision: DEFAULT_PRECISION }));
}

export function engineConfig(symbols: readonly SymbolConfig[] = [btcusdtConfig(), ethbtcConfig()]): EngineConfig {
  return { symbols, assets: fixtureAssets() };
}

export function newEngine(symbols?: readonly SymbolConfig[]): Engine {
  return new Engine(engineConfig(symbols));
}

export interface AccountFixtureOptions {
  time?: number;
  /** Initial balances as decimal strings, e.g. { USDT: '1000' }. */
  balances?: Readonly<Record<string, string>>;
  standardCommission?: Partial<Record<keyof CommissionRates, string>>;
  taxCommission?: Partial<Record<keyof CommissionRates, string>>;
  specialCommission?: Partial<Record<keyof CommissionRates, string>>;
  tradeGroupId?: number;
  canTrade?: boolean;
  permissions?: readonly string[];
}

/** A CreateAccount command from decimal strings (assets at the fixture precision). */
export function createAccount(accountId: number, options: AccountFixtureOptions = {}): CreateAccount {
  const balances: Record<string, number> = {};
  for (const [asset, amount] of Object.entries(options.balances ?? {})) balances[asset] = units(amount);
  const command: CreateAccount = {
    type: 'CreateAccount',
    time: options.time ?? 0,
    accountId,
    balances,
    standardCommission: commissionRates(options.standardCommission),
    taxCommission: commissionRates(options.taxCommission),
    specialCommission: commissionRates(options.specialCommission),
    permissions: options.permissions ?? ['SPOT'],
    canTrade: options.canTrade ?? true,
  };
  if (options.tradeGroupId !== undefined) command.tradeGroupId = options.tradeGroupId;
  return command;
}
