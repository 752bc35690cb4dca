/**
 * The fill-model contract: given one replayed tape trade and the user orders resting on the side
 * it could reach, decide which of them it filled and for how much.
 *
 * Who calls what (the Replay, see ../replay.ts):
 * - `orderResting` once per order, when the replay first sees it resting (right after the
 *   strategy command that placed it), in orderId order;
 * - `orderGone` once per order that left the book other than by this model's own fill
 *   decisions being applied (canceled, expired, filled by another account's taker) and also
 *   after a model fill closed it;
 * - `onTrade` for a tape trade only when it reaches at least the best opposite order by touch
 *   (a SELL taker at p and a best bid >= p, a BUY taker at p and a best ask <= p): a trade that
 *   reaches nothing cannot fill or move any queue, so the common case costs the replay one
 *   comparison and no call.
 *
 * What a model must guarantee (the Replay checks the first two and throws if broken):
 * - the quantities it plans for one trade sum to at most the trade's size (liquidity used once
 *   is not used twice within the trade), each a positive multiple of the symbol's LOT_SIZE step
 *   and at most the order's remaining quantity;
 * - fills come in the order they happen on the book (best price first, FIFO within a price);
 * - every plan carries a `reason`: the rule and the numbers that decided it, so the journal
 *   explains every fill; a plan with quantity 0 is a non-fill decision (journaled as a
 *   MarketDecision, not applied).
 * - determinism: its output is a function of its inputs and the seed it was built with.
 */
import type { SymbolMarket } from '../symbol-market.ts';
import type { RestingOrder } from '../book-mirror.ts';

/** One replayed trade, as the fill model sees it (a reused object: copy what you keep). */
export interface TradePrint {
  /** The exchange's id in the source tape (the dump's trade id), for the reason strings. */
  readonly tapeId: number;
  readonly time: number;
  /** Price units. */
  readonly price: number;
  /** Base units. */
  readonly qty: number;
  /** True when the taker sold: the trade can reach resting BUY orders. */
  readonly isBuyerMaker: boolean;
}

/** A fill (quantity > 0) or a non-fill decision (quantity 0) for one resting order. */
export interface FillPlan {
  orderId: number;
  /** Base units; 0 for a decision that filled nothing. */
  quantity: number;
  /** Rule and numbers, e.g. "QUEUE_POSITION tapeTrade=7 price=100.00 queueAhead=1.5->0 ...". */
  reason: string;
}

/** The per-symbol state of a model (queue positions, random stream). */
export interface SymbolFillModel {
  /** Non-fill decisions (e.g. the queue estimate) go to `out` with quantity 0. */
  orderResting?(order: RestingOrder, market: SymbolMarket, out: FillPlan[]): void;
  orderGone?(order: RestingOrder): void;
  /**
   * `resting`: the opposite side's orders, best price first, FIFO (orderId order) within a
   * price. Push plans to `out` in the order they happen.
   */
  onTrade(trade: TradePrint, resting: readonly RestingOrder[], market: SymbolMarket, out: FillPlan[]): void;
  /**
   * Recorded books only (the replay calls these when the symbol's depth is recorded): whether own
   * orders rest at a level the model follows, and that level's new recorded size after a depth
   * message set it (base units; 0: the level is gone).
   */
  watches?(isBid: boolean, price: number): boolean;
  onDepth?(isBid: boolean, price: number, newSize: number): void;
  /**
   * A model that keeps state between prints exports it as plain data (it may hold the book
   * mirror's RestingOrders: they are saved together) and reads it back; a model without them
   * keeps none (Replay.exportState).
   */
  exportState?(): unknown;
  importState?(state: unknown): void;
}

export interface FillModelContext {
  readonly symbol: string;
  /** LOT_SIZE step in base units: every fill is a multiple of it. */
  readonly stepUnits: number;
  /** The replay's seed; a model that draws random numbers derives its stream from seed + symbol. */
  readonly seed: string;
  /** True when the symbol's book is recorded depth: queue models read the queue from it (l2-queue.ts). */
  readonly recordedDepth?: boolean;
  /** 10^basePrecision: base units per whole base asset. */
  readonly baseUnit?: number;
}

export interface FillModel {
  /** Short name, used in reasons and bench output ("touch", "queue-risk-averse", ...). */
  readonly name: string;
  forSymbol(context: FillModelContext): SymbolFillModel;
}

/** True when a resting order at `orderPrice` is strictly better than the print for its taker (the trade went through it). */
export function isThrough(trade: TradePrint, orderPrice: number): boolean {
  return trade.isBuyerMaker ? orderPrice > trade.price : orderPrice < trade.price;
}

/** The largest multiple of `step` that is at most both `available` and `remaining`. */
export function stepFloorMin(available: number, remaining: number, step: number): number {
  const cap = available < remaining ? available : remaining;
  return cap <= 0 ? 0 : cap - (cap % step);
}
