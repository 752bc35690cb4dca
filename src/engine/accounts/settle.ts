/**
 * Money movements of the order life cycle (exchange-core's R1/R2 split): reserve on acceptance
 * (place-order.ts), settle each fill, release on cancel, expiry or self-trade prevention. The
 * invariant kept here: an open order's `locked` equals `requiredLock(order)`, and an account's
 * locked balance of an asset is the sum of `locked` over its open orders.
 *
 * A margin (futures) symbol settles positions instead of assets: each entry point below checks
 * the symbol's kind once (`symbol.margin`) and hands a margin symbol to futures/futures-fills.ts,
 * so spot pays one null test and every caller (matching, cancels, expiry, STP) stays kind-blind.
 */
import type { EngineState, SymbolState } from '../engine-state.ts';
import type { Order } from '../order.ts';
import { commissionFor, type Commission } from './fees.ts';
import { marginRequiredLock, settleMarginFill, settleMarginMarketFill } from '../futures/futures-fills.ts';

/** What an open order must keep reserved: remaining base for SELL, limit notional for BUY. */
export function requiredLock(symbol: SymbolState, order: Order): number {
  if (symbol.margin !== null) return marginRequiredLock(symbol, order);
  // Pending list legs reserve when placed; an OCO leg whose partner holds the funds holds none.
  if (order.ext !== null && (order.status === 'PENDING_NEW' || order.ext.sharesLock)) return 0;
  if (!order.isBuy) return order.remainingSteps * symbol.spec.stepUnits;
  if (order.priceTicks > 0) return symbol.notional(order.priceTicks, order.remainingSteps);
  // MARKET BUY: reserved the planned cost up front, drawn down fill by fill.
  return order.locked;
}

export function lockedAsset(symbol: SymbolState, order: Order): number {
  // A margin order reserves margin, in the margin asset (the symbol's quote asset), either side.
  return order.isBuy || symbol.margin !== null ? symbol.quoteAsset : symbol.baseAsset;
}

/** Releases whatever the order holds beyond what it still needs (after fills or prevention). */
export function relock(symbol: SymbolState, order: Order): void {
  const needed = order.isOpen ? requiredLock(symbol, order) : 0;
  const excess = order.locked - needed;
  if (excess < 0) throw new Error(`order ${order.orderId} holds less than it needs`);
  if (excess > 0) {
    order.account.release(lockedAsset(symbol, order), excess);
    order.locked = needed;
  }
}

/** Releases everything the order holds (it is leaving the book). */
export function releaseAll(symbol: SymbolState, order: Order): void {
  if (order.locked > 0) {
    order.account.release(lockedAsset(symbol, order), order.locked);
    order.locked = 0;
  }
}

export interface FillSettlement {
  buyerCommission: Commission;
  sellerCommission: Commission;
}

/**
 * Moves `quote` from the buyer's reservation to the seller and `base` from the seller's
 * reservation to the buyer, less commission on what each receives. The orders' executed
 * quantities must already include the fill (so the buyer's remaining lock is known).
 */
export function settleFill(
  state: EngineState,
  symbol: SymbolState,
  buyer: Order,
  seller: Order,
  buyerIsMaker: boolean,
  base: number,
  quote: number,
  time: number,
  chargeCommission: boolean,
): FillSettlement {
  if (symbol.margin !== null) return settleMarginFill(state, symbol, buyer, seller, buyerIsMaker, base, quote, time, chargeCommission);
  const quoteAsset = symbol.quoteAsset;
  const baseAsset = symbol.baseAsset;
  const buyerAccount = buyer.account;
  const sellerAccount = seller.account;

  // Buyer pays from its reservation; a limit BUY filled below its limit frees the difference.
  buyerAccount.debitLocked(quoteAsset, quote);
  buyer.locked -= quote;
  if (buyer.priceTicks > 0) relock(symbol, buyer);
  else if (buyer.locked < 0) throw new Error(`market order ${buyer.orderId} paid more than it reserved`);

  sellerAccount.debitLocked(baseAsset, base);
  seller.locked -= base;
  if (seller.locked < 0) throw new Error(`order ${seller.orderId} delivered more than it reserved`);

  const noCommission = { amount: 0, asset: baseAsset };
  const buyerCommission = chargeCommission
    ? commissionFor(state, symbol, buyerAccount, buyerIsMaker, true, baseAsset, base)
    : noCommission;
  receive(state, buyerAccount, baseAsset, base, buyerCommission);
  const sellerCommission = chargeCommission
    ? commissionFor(state, symbol, sellerAccount, !buyerIsMaker, false, quoteAsset, quote)
    : { amount: 0, asset: quoteAsset };
  receive(state, sellerAccount, quoteAsset, quote, sellerCommission);

  buyerAccount.updateTime = time;
  sellerAccount.updateTime = time;
  return { buyerCommission, sellerCommission };
}

/**
 * An order filled by the market outside the book: a resting order reached by a replayed print
 * (`isMaker`), or a taker walking the synthetic book. The order's account pays from its
 * reservation and receives the other asset less its commission; the market's side enters and
 * leaves the engine as an external flow (net deposits), so every asset stays conserved.
 */
export function settleMarketFill(state: EngineState, symbol: SymbolState, order: Order, base: number, quote: number, time: number, isMaker: boolean): Commission {
  if (symbol.margin !== null) return settleMarginMarketFill(state, symbol, order, base, quote, time, isMaker);
  const account = order.account;
  const paidAsset = order.isBuy ? symbol.quoteAsset : symbol.baseAsset;
  const receivedAsset = order.isBuy ? symbol.baseAsset : symbol.quoteAsset;
  const paid = order.isBuy ? quote : base;
  const received = order.isBuy ? base : quote;
  account.debitLocked(paidAsset, paid);
  order.locked -= paid;
  if (order.locked < 0) throw new Error(`order ${order.orderId} paid more than it reserved`);
  // A limit BUY filled below its limit frees the difference (a MARKET BUY draws its reservation down).
  if (order.isBuy && order.priceTicks > 0) relock(symbol, order);
  const commission = commissionFor(state, symbol, account, isMaker, order.isBuy, receivedAsset, received);
  receive(state, account, receivedAsset, received, commission);
  state.deposited[paidAsset] = (state.deposited[paidAsset] as number) - paid;
  state.deposited[receivedAsset] = (state.deposited[receivedAsset] as number) + received;
  account.updateTime = time;
  return commission;
}

function receive(
  state: EngineState,
  account: Order['account'],
  asset: number,
  amount: number,
  commission: Commission,
): void {
  if (commission.asset === asset) {
    account.credit(asset, amount - commission.amount);
  } else {
    account.credit(asset, amount);
    account.debitFree(commission.asset, commission.amount);
  }
  state.fees[commission.asset] = (state.fees[commission.asset] as number) + commission.amount;
}
