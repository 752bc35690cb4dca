/**
 * The futures state inside the engine state: per margin symbol its compiled contract and mark
 * (`MarginSymbol`, on `SymbolState.margin`), per account its mode, settings and positions
 * (`FuturesAccount`), and per margin asset the insurance fund (`FuturesState`). Every container
 * is an array by dense index (symbol index, asset index, creation order) or a Map read only by
 * key, so nothing depends on hash order; every amount is an integer.
 */
import type { ContractConfig } from '../symbol-config.ts';
import { parseUnitsOrThrow } from '../units.ts';
import type { IncomeType } from './futures-views.ts';

export const RATE_DECIMALS = 8;

/** Positions of one account on one symbol, by side index: 0 BOTH (one-way), 1 LONG, 2 SHORT (hedge). */
export const SIDE_BOTH = 0;
export const SIDE_LONG = 1;
export const SIDE_SHORT = 2;
export const POSITION_SIDES = ['BOTH', 'LONG', 'SHORT'] as const;

export class FuturesPosition {
  /** Signed steps (short < 0; LONG ≥ 0 and SHORT ≤ 0 in hedge mode). */
  amount = 0;
  /**
   * Cost of the open steps at their entry prices, margin units, ≥ 0. Entry price = entryCost /
   * |amount| exactly; adding steps adds their fill notional, reducing removes a proportional
   * share rounded toward the account's loss (futures-fills.ts).
   */
  entryCost = 0;
  /** Isolated margin held for the position (isolated mode), margin units. */
  isolatedWallet = 0;
  /** Accumulated realized PnL before fees (ACCOUNT_UPDATE `cr`). */
  realized = 0;
  /** Commissions paid while the position was open (for the break-even price). */
  feesPaid = 0;
  updateTime = 0;
}

export class FuturesSymbolSettings {
  isolated = false;
  readonly positions: FuturesPosition[] = [new FuturesPosition(), new FuturesPosition(), new FuturesPosition()];
  constructor(public leverage: number) {}
}

export interface IncomeRecord {
  symbolIndex: number;
  incomeType: IncomeType;
  income: number;
  asset: number;
  info: string;
  time: number;
  tranId: number;
  tradeId: number;
}

export class FuturesAccount {
  hedge = false;
  /** The account's commission rates on every margin symbol (1e-8), -1: the contract's (GET /fapi/v1/commissionRate). */
  makerRate = -1;
  takerRate = -1;
  /** By symbol index; undefined until the account touches the symbol (defaults apply). */
  readonly settings: (FuturesSymbolSettings | undefined)[] = [];
  readonly income: IncomeRecord[] = [];
  constructor(readonly accountId: number) {}
}

/** What a margin order needs besides the spot order record (kept after it closes, for queries). */
export class FuturesOrderInfo {
  constructor(
    /** SIDE_BOTH / SIDE_LONG / SIDE_SHORT. */
    readonly side: number,
    readonly reduceOnly: boolean,
    /** Reduce-only, or a hedge-mode closing order (SELL LONG, BUY SHORT): may only reduce. */
    readonly reducing: boolean,
    readonly postOnly: boolean,
    /**
     * The margin reserved for `lockSteps` remaining steps (at acceptance, or at the last modify):
     * the order keeps ceil(lockBase × remaining / lockSteps).
     */
    public lockBase: number,
    public lockSteps: number,
  ) {}
  /** Re-queued by a modify: it arrived at its level later than its order id says (FIFO check). */
  requeued = false;
}

/** closedFlags bit of a liquidation's system order (`autoclose-…`, futures-mark.ts). */
export const LIQUIDATION_FLAG = 16;

/** An order's futures fields as one small integer (MarginSymbol.closedFlags). */
export function packFlags(info: FuturesOrderInfo): number {
  return info.side | (info.reduceOnly ? 4 : 0) | (info.postOnly ? 8 : 0);
}

/** What a margin order leaves behind when it closes (called from order-lifecycle.ts closeOrder). */
export function forgetMarginOrder(margin: MarginSymbol, orderId: number): void {
  const info = margin.orders.get(orderId);
  if (info === undefined) return;
  margin.orders.delete(orderId);
  const flags = margin.closedFlags;
  while (flags.length < orderId) flags.push(-1);
  flags[orderId] = packFlags(info);
  if (info.reducing) {
    const at = margin.reducing.indexOf(orderId);
    if (at >= 0) margin.reducing.splice(at, 1);
  }
}

export interface CompiledBracket {
  bracket: number;
  initialLeverage: number;
  floor: number;
  cap: number;
  /** 1e-8 units. */
  mmr: number;
  cum: number;
}

/** A margin symbol's contract, compiled to integers, and its market state (mark, funding). */
export class MarginSymbol {
  readonly brackets: CompiledBracket[];
  /** 1e-8 units. */
  readonly liquidationFeeRate: number;
  readonly makerRate: number;
  readonly takerRate: number;
  /** PRICE_FILTER (price units; 0 = rule off). */
  readonly minPrice: number;
  readonly maxPrice: number;
  readonly tickSize: number;
  readonly minQty: number;
  readonly maxQty: number;
  readonly stepSize: number;
  readonly marketMinQty: number;
  readonly marketMaxQty: number;
  readonly marketStepSize: number;
  readonly maxNumOrders: number;
  /** MIN_NOTIONAL, margin units (0: none). */
  readonly minNotional: number;
  /** PERCENT_PRICE multipliers in 1e-8 units (0: none). */
  readonly percentUp: number;
  readonly percentDown: number;
  /** Mark and index price, price units; 0 until the first SetMarkPrice. */
  markPrice = 0;
  indexPrice = 0;
  markTime = 0;
  lastFundingRate = 0;
  /** Per open margin order id: its futures fields (dropped when it closes; `closedFlags` keeps what queries need). */
  readonly orders = new Map<number, FuturesOrderInfo>();
  /**
   * Per order id, for orders that closed: side | reduceOnly << 2 | postOnly << 3 (`packFlags`).
   * A small integer per order instead of an object keeps a long backtest's memory flat.
   */
  readonly closedFlags: number[] = [];
  /** Open reducing orders (reduce-only / hedge closing), in acceptance order: trimmed after fills. */
  reducing: number[] = [];
  /**
   * GTD orders (open or closed; read by key only): order id → the time it expires (µs). Only
   * GTD orders have an entry, so a symbol without them keeps an empty map.
   */
  readonly goodTill = new Map<number, number>();

  constructor(readonly contract: ContractConfig, readonly marginAsset: number, quotePrecision: number, basePrecision: number) {
    const money = (text: string, what: string) => parseUnitsOrThrow(text, quotePrecision, `contract ${what}`);
    const rate = (text: string, what: string) => parseUnitsOrThrow(text, RATE_DECIMALS, `contract ${what}`);
    const qty = (text: string, what: string) => parseUnitsOrThrow(text, basePrecision, `contract ${what}`);
    if (contract.brackets.length === 0) throw new Error('a contract needs at least one leverage bracket');
    this.brackets = contract.brackets.map((b) => ({
      bracket: b.bracket,
      initialLeverage: b.initialLeverage,
      floor: money(b.notionalFloor, 'notionalFloor'),
      cap: money(b.notionalCap, 'notionalCap'),
      mmr: rate(b.maintMarginRatio, 'maintMarginRatio'),
      cum: money(b.cum, 'cum'),
    }));
    this.liquidationFeeRate = rate(contract.liquidationFeeRate, 'liquidationFeeRate');
    this.makerRate = rate(contract.makerCommissionRate, 'makerCommissionRate');
    this.takerRate = rate(contract.takerCommissionRate, 'takerCommissionRate');
    let minPrice = 0, maxPrice = 0, tickSize = 0, minQty = 0, maxQty = 0, stepSize = 0;
    let marketMinQty = 0, marketMaxQty = 0, marketStepSize = 0, maxNumOrders = 0, minNotional = 0, percentUp = 0, percentDown = 0;
    for (const f of contract.filters) {
      switch (f.filterType) {
        case 'PRICE_FILTER':
          minPrice = money(f.minPrice, 'minPrice');
          maxPrice = money(f.maxPrice, 'maxPrice');
          tickSize = money(f.tickSize, 'tickSize');
          break;
        case 'LOT_SIZE':
          minQty = qty(f.minQty, 'minQty');
          maxQty = qty(f.maxQty, 'maxQty');
          stepSize = qty(f.stepSize, 'stepSize');
          break;
        case 'MARKET_LOT_SIZE':
          marketMinQty = qty(f.minQty, 'minQty');
          marketMaxQty = qty(f.maxQty, 'maxQty');
          marketStepSize = qty(f.stepSize, 'stepSize');
          break;
        case 'MAX_NUM_ORDERS':
          maxNumOrders = f.limit;
          break;
        case 'MIN_NOTIONAL':
          minNotional = money(f.notional, 'notional');
          break;
        case 'PERCENT_PRICE':
          percentUp = rate(f.multiplierUp, 'multiplierUp');
          percentDown = rate(f.multiplierDown, 'multiplierDown');
          break;
      }
    }
    this.minPrice = minPrice;
    this.maxPrice = maxPrice;
    this.tickSize = tickSize;
    this.minQty = minQty;
    this.maxQty = maxQty;
    this.stepSize = stepSize;
    this.marketMinQty = marketMinQty;
    this.marketMaxQty = marketMaxQty;
    this.marketStepSize = marketStepSize;
    this.maxNumOrders = maxNumOrders;
    this.minNotional = minNotional;
    this.percentUp = percentUp;
    this.percentDown = percentDown;
  }

  /** Leverage an account starts with (20, capped by bracket 1's initialLeverage; docs/usdm-futures.md). */
  get defaultLeverage(): number {
    return Math.min(20, this.brackets[0]!.initialLeverage);
  }
}

/** One open GTD order in FuturesState.gtdQueue. */
export interface GtdEntry {
  /** µs: the order expires on the first command at or after it. */
  due: number;
  symbolIndex: number;
  orderId: number;
}

export class FuturesState {
  /** By account id (read by key only); `accountList` is the same accounts in creation order. */
  readonly accounts = new Map<number, FuturesAccount>();
  readonly accountList: FuturesAccount[] = [];
  /** Insurance fund per asset index (margin assets only; may go negative: no ADL, the exchange absorbs). */
  readonly insuranceFund: number[] = [];
  /**
   * Per asset index: the futures flows whose counterparty is outside the engine, summed (realized
   * PnL, funding, insurance clearance). They are also booked in `EngineState.deposited`, so the
   * engine's conservation check holds: Σ wallets + locked + fees + fund = deposits + these.
   */
  readonly realizedFlow: number[] = [];
  readonly fundingFlow: number[] = [];
  nextTranId = 1;
  /**
   * Open GTD orders by due time, then symbol index, then order id (good-till-date.ts): the
   * engine expires the due ones before each command. Entries of orders that closed otherwise
   * stay until due and are skipped then. Empty without GTD orders: nothing to consult.
   */
  readonly gtdQueue: GtdEntry[] = [];
  /** Margin symbol indexes, in config order. */
  readonly marginSymbols: number[] = [];
}
