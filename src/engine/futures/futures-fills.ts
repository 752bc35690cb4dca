/**
 * Settlement of a fill on a margin symbol: what `settleFill` / `settleMarketFill` do for spot,
 * chosen by the symbol's kind in settle.ts. Per side of the fill:
 *   1. the order's margin reservation shrinks to ceil(initialLock × remaining / orig) (the
 *      release returns to the cross wallet; on an isolated position the fill's initial margin
 *      moves from there into the position's isolated wallet);
 *   2. the position moves: steps added at the fill's notional (weighted entry), or removed with
 *      realized PnL (a flip closes then opens the rest at the same price);
 *   3. realized PnL and the commission (maker/taker rate of the contract × notional, rounded up)
 *      are booked in the margin asset, with income rows; PnL's counterparty is the market
 *      (an external flow, as funding), so every asset stays conserved;
 *   4. reduce-only orders the new position no longer covers are knocked out (`er` 4).
 *
 * Rounding (chosen, always toward the account's loss): the entry cost removed when reducing a
 * long is rounded up and a short's down; when a fill both closes and opens, the closing part of
 * a SELL's proceeds is rounded down and of a BUY's cost up. Realized PnL is then exact integer
 * arithmetic on those amounts, and a fully closed position leaves no entry cost behind.
 */
import type { Account } from '../accounts/account.ts';
import type { Commission } from '../accounts/fees.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import { mulDivCeil, mulDivFloor } from '../exact-math.ts';
import type { Order } from '../order.ts';
import { expire } from '../order-lifecycle.ts';
import { RATE_SCALE } from '../symbol-spec.ts';
import { addIncome, bookExternal, debitWallet, emitPosition, emitWallet, futuresAccountOf, settingsOf } from './futures-account.ts';
import type { FuturesAccount, FuturesOrderInfo, FuturesPosition } from './futures-state.ts';
import { initialMargin } from './margin-math.ts';

/** What an open margin order keeps reserved: its reservation in proportion to what remains. */
export function marginRequiredLock(symbol: SymbolState, order: Order): number {
  const info = symbol.margin!.orders.get(order.orderId);
  if (info === undefined || info.lockSteps === 0) return 0;
  return mulDivCeil(info.lockBase, order.remainingSteps, info.lockSteps);
}

export function settleMarginFill(state: EngineState, symbol: SymbolState, buyer: Order, seller: Order, buyerIsMaker: boolean, base: number, quote: number, time: number, chargeCommission: boolean): { buyerCommission: Commission; sellerCommission: Commission } {
  const steps = base / symbol.spec.stepUnits;
  const buyerCommission = settleSide(state, symbol, buyer, steps, quote, buyerIsMaker, time, chargeCommission, seller);
  const sellerCommission = settleSide(state, symbol, seller, steps, quote, !buyerIsMaker, time, chargeCommission, buyer);
  return { buyerCommission, sellerCommission };
}

export function settleMarginMarketFill(state: EngineState, symbol: SymbolState, order: Order, base: number, quote: number, time: number, isMaker: boolean): Commission {
  return settleSide(state, symbol, order, base / symbol.spec.stepUnits, quote, isMaker, time, true, null);
}

function settleSide(state: EngineState, symbol: SymbolState, order: Order, steps: number, quote: number, isMaker: boolean, time: number, chargeCommission: boolean, other: Order | null): Commission {
  const margin = symbol.margin!;
  const asset = symbol.quoteAsset;
  const account = order.account;
  const info = margin.orders.get(order.orderId) as FuturesOrderInfo;
  const fa = futuresAccountOf(state, account.accountId);
  const settings = settingsOf(fa, symbol);
  const position = settings.positions[info.side] as FuturesPosition;
  // The trade id executeFill gives this fill right after settlement.
  const tradeId = symbol.nextTradeId;

  // 1. The reservation follows what remains of the order.
  const needed = order.isOpen ? marginRequiredLock(symbol, order) : 0;
  if (order.locked > needed) {
    account.release(asset, order.locked - needed);
    order.locked = needed;
  }

  // 2. The position.
  const delta = order.isBuy ? steps : -steps;
  const old = position.amount;
  let realized = 0;
  let openedSteps = 0;
  let openedQuote = 0;
  if (old === 0 || (old > 0) === (delta > 0)) {
    openedSteps = steps;
    openedQuote = quote;
  } else {
    const closeSteps = Math.min(steps, Math.abs(old));
    const isLong = old > 0;
    // Entry cost of the closed steps, rounded toward the account's loss.
    const removed = closeSteps === Math.abs(old)
      ? position.entryCost
      : isLong
        ? mulDivCeil(position.entryCost, closeSteps, Math.abs(old))
        : mulDivFloor(position.entryCost, closeSteps, Math.abs(old));
    const closeQuote = closeSteps === steps ? quote : isLong ? mulDivFloor(quote, closeSteps, steps) : mulDivCeil(quote, closeSteps, steps);
    realized = isLong ? closeQuote - removed : removed - closeQuote;
    if (settings.isolated && position.isolatedWallet > 0) {
      // The closed share of the isolated margin returns to the cross wallet.
      const back = closeSteps === Math.abs(old) ? position.isolatedWallet : mulDivFloor(position.isolatedWallet, closeSteps, Math.abs(old));
      position.isolatedWallet -= back;
      account.credit(asset, back);
    }
    position.entryCost -= removed;
    position.amount += isLong ? -closeSteps : closeSteps;
    openedSteps = steps - closeSteps;
    openedQuote = quote - closeQuote;
  }
  if (openedSteps > 0) {
    position.amount += order.isBuy ? openedSteps : -openedSteps;
    position.entryCost += openedQuote;
    if (settings.isolated) {
      // Isolated: the opened part's initial margin leaves the cross wallet for the position.
      const im = Math.min(account.freeOf(asset), initialMargin(openedQuote, settings.leverage));
      account.debitFree(asset, im);
      position.isolatedWallet += im;
    }
  }
  if (position.amount === 0) {
    position.feesPaid = 0;
    if (position.isolatedWallet !== 0) {
      account.credit(asset, position.isolatedWallet);
      position.isolatedWallet = 0;
    }
  }

  // 3. Realized PnL (the market is the counterparty) and the commission.
  if (realized !== 0) {
    position.realized += realized;
    bookExternal(state, asset, realized, 'PNL');
    if (realized > 0) account.credit(asset, realized);
    else debitWallet(state, account, fa, symbol, asset, -realized, time);
    addIncome(state, fa, symbol, 'REALIZED_PNL', realized, asset, '', time, tradeId);
  }
  // The account's own rates when set (SetFuturesCommissionRates), else the contract's.
  const own = isMaker ? fa.makerRate : fa.takerRate;
  const rate = own >= 0 ? own : isMaker ? margin.makerRate : margin.takerRate;
  const fee = chargeCommission && rate > 0 ? mulDivCeil(quote, rate, RATE_SCALE) : 0;
  if (fee > 0) {
    debitWallet(state, account, fa, symbol, asset, fee, time);
    state.fees[asset] = (state.fees[asset] as number) + fee;
    if (position.amount !== 0) position.feesPaid += fee;
    addIncome(state, fa, symbol, 'COMMISSION', -fee, asset, '', time, tradeId);
  }
  position.updateTime = time;
  account.updateTime = time;
  emitWallet(state, account, asset, 0, 'ORDER', time);
  emitPosition(state, fa, symbol, info.side, position, settings.isolated, realized, 'ORDER', time, tradeId, order.orderId);

  // 4. Reduce-only orders never outgrow the position they reduce.
  if (!info.reducing) trimReducing(state, symbol, account, fa, info.side, time, order, other);
  return { amount: fee, asset };
}

/**
 * Knocks out the account's open reducing orders on this position that it no longer covers: on
 * the wrong side of it, or beyond its size counted in acceptance order. Keeps the invariant that
 * open reducing orders on a position add up to at most its size (on the side that reduces it), so
 * a reducing fill can never increase or flip a position. The orders being filled are skipped
 * (they are never reducing ones when this runs: a reducing fill only shrinks what others need).
 */
export function trimReducing(state: EngineState, symbol: SymbolState, account: Account, fa: FuturesAccount, side: number, time: number, skipA: Order | null, skipB: Order | null): void {
  const margin = symbol.margin!;
  if (margin.reducing.length === 0) return;
  const position = settingsOf(fa, symbol).positions[side] as FuturesPosition;
  let capacity = Math.abs(position.amount);
  const reducesWithBuy = position.amount < 0;
  const keep: number[] = [];
  // A copy: expiring an order also takes it out of `margin.reducing` (forgetMarginOrder).
  for (const orderId of margin.reducing.slice()) {
    const order = symbol.live.get(orderId);
    if (order === undefined) continue;
    const info = margin.orders.get(orderId)!;
    if (order.account !== account || info.side !== side || order === skipA || order === skipB) {
      keep.push(orderId);
      continue;
    }
    const remaining = order.remainingSteps;
    if (position.amount !== 0 && order.isBuy === reducesWithBuy && remaining <= capacity) {
      capacity -= remaining;
      keep.push(orderId);
    } else {
      expire(state, symbol, order, 'EXPIRED', 'REDUCE_ONLY_KNOCKED_OUT', time);
    }
  }
  margin.reducing = keep;
}
