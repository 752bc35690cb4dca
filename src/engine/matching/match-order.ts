/**
 * Matching: a taker order walks the opposite side best price first, FIFO within a price, and
 * trades at the maker's price until it is filled, its limit stops it, the book runs out, or
 * self-trade prevention ends it. Each fill is settled at once (settle.ts), so balances and the
 * book are consistent after every step.
 */
import { releaseAll, relock, settleFill } from '../accounts/settle.ts';
import type { EngineState, PreventedMatchRecord, SymbolState } from '../engine-state.ts';
import type { Order } from '../order.ts';
import type { ExpiryReason, OrderStatus, SelfTradePreventionMode } from '../types.ts';
import { preventionMode } from './self-trade-prevention.ts';

/** Takes an order off the book and its account's open set, releasing its funds. */
export function closeOrder(
  symbol: SymbolState,
  order: Order,
  status: OrderStatus,
  expiryReason: ExpiryReason,
  time: number,
): void {
  if (order.level) symbol.book.side(order.isBuy).remove(order, order.remainingSteps);
  order.account.removeOpen(symbol.spec.index, order);
  order.status = status;
  order.expiryReason = expiryReason;
  order.updateTime = time;
  releaseAll(symbol, order);
  if (order.locked !== 0) throw new Error(`order ${order.orderId} closed while reserving ${order.locked}`);
  // From here on queries read the archive; the object itself can be collected young.
  symbol.archive.store(order, order.clientIdChosen);
  symbol.live[order.orderId - 1] = undefined;
}

/** Runs `taker` against the book. Returns nothing; the taker's fields tell what happened. */
export function matchTaker(state: EngineState, symbol: SymbolState, taker: Order, time: number): void {
  const opposite = symbol.book.opposite(taker.isBuy);
  const limit = taker.priceTicks;
  const stepUnits = symbol.spec.stepUnits;
  const tickUnits = symbol.spec.tickUnits;
  while (taker.remainingSteps > 0) {
    const level = opposite.best();
    if (level === undefined) return;
    const ticks = level.ticks;
    if (limit > 0 && (taker.isBuy ? ticks > limit : ticks < limit)) return;
    const maker = level.head as Order;

    const mode = preventionMode(taker, maker);
    if (mode !== null) {
      preventMatch(state, symbol, taker, maker, mode, time);
      if (taker.status === 'EXPIRED_IN_MATCH') return;
      continue;
    }

    const steps = Math.min(taker.remainingSteps, maker.remainingSteps);
    const base = steps * stepUnits;
    const quote = symbol.notional(ticks, steps);
    taker.executedSteps += steps;
    maker.executedSteps += steps;
    level.totalSteps -= steps;
    taker.cumQuote += quote;
    maker.cumQuote += quote;
    const buyer = taker.isBuy ? taker : maker;
    const seller = taker.isBuy ? maker : taker;
    const settlement = settleFill(state, symbol, buyer, seller, !taker.isBuy, base, quote, time, true);

    taker.status = taker.remainingSteps === 0 ? 'FILLED' : 'PARTIALLY_FILLED';
    taker.updateTime = time;
    if (maker.remainingSteps === 0) closeOrder(symbol, maker, 'FILLED', 'NONE', time);
    else {
      maker.status = 'PARTIALLY_FILLED';
      maker.updateTime = time;
    }

    const tradeId = symbol.nextTradeId++;
    const price = ticks * tickUnits;
    symbol.recordTrade({ tradeId, priceTicks: ticks, steps, quote, time, isBuyerMaker: !taker.isBuy });
    symbol.window.record(time, price, quote, base);
    const buyerCommission = settlement.buyerCommission;
    const sellerCommission = settlement.sellerCommission;
    buyer.account.tradesOn(symbol.spec.index).push({
      symbolIndex: symbol.spec.index,
      tradeId,
      orderId: buyer.orderId,
      priceTicks: ticks,
      steps,
      quote,
      commission: buyerCommission.amount,
      commissionAsset: buyerCommission.asset,
      time,
      isBuyer: true,
      isMaker: buyer === maker,
    });
    seller.account.tradesOn(symbol.spec.index).push({
      symbolIndex: symbol.spec.index,
      tradeId,
      orderId: seller.orderId,
      priceTicks: ticks,
      steps,
      quote,
      commission: sellerCommission.amount,
      commissionAsset: sellerCommission.asset,
      time,
      isBuyer: false,
      isMaker: seller === maker,
    });
    const takerCommission = taker.isBuy ? buyerCommission : sellerCommission;
    const makerCommission = taker.isBuy ? sellerCommission : buyerCommission;
    state.emit({
      type: 'TradeExecuted',
      time,
      symbol: symbol.spec.symbol,
      tradeId,
      price,
      quantity: base,
      quoteQuantity: quote,
      isBuyerMaker: !taker.isBuy,
      takerOrderId: taker.orderId,
      makerOrderId: maker.orderId,
      takerAccountId: taker.account.accountId,
      makerAccountId: maker.account.accountId,
      takerCommission: takerCommission.amount,
      takerCommissionAsset: state.assetNames[takerCommission.asset] as string,
      makerCommission: makerCommission.amount,
      makerCommissionAsset: state.assetNames[makerCommission.asset] as string,
      takerStatus: taker.status,
      makerStatus: maker.status,
    });
  }
}

/**
 * A would-be self-trade: expire the taker, the maker, both, or decrement both by the overlap
 * (TRANSFER also moves the overlap between the two accounts, at the maker's price, fee-free).
 */
function preventMatch(
  state: EngineState,
  symbol: SymbolState,
  taker: Order,
  maker: Order,
  mode: SelfTradePreventionMode,
  time: number,
): void {
  const level = maker.level!;
  let takerPrevented = 0;
  let makerPrevented = 0;
  let takerEnds = false;
  let makerEnds = false;
  switch (mode) {
    case 'EXPIRE_TAKER':
      takerPrevented = taker.remainingSteps;
      takerEnds = true;
      break;
    case 'EXPIRE_MAKER':
      makerPrevented = maker.remainingSteps;
      makerEnds = true;
      break;
    case 'EXPIRE_BOTH':
      takerPrevented = taker.remainingSteps;
      makerPrevented = maker.remainingSteps;
      takerEnds = true;
      makerEnds = true;
      break;
    case 'DECREMENT':
    case 'TRANSFER': {
      const overlap = Math.min(taker.remainingSteps, maker.remainingSteps);
      takerPrevented = overlap;
      makerPrevented = overlap;
      takerEnds = overlap === taker.remainingSteps;
      makerEnds = overlap === maker.remainingSteps;
      break;
    }
    case 'NONE':
      throw new Error('NONE never prevents a match');
  }

  const preventedMatchId = symbol.nextPreventedMatchId++;
  // Set before anything closes: a closed order is archived as it is at that moment.
  taker.preventedMatchId = preventedMatchId;
  maker.preventedMatchId = preventedMatchId;
  if (mode === 'TRANSFER') transferOverlap(state, symbol, taker, maker, takerPrevented, level.ticks, time);
  // A maker that stays keeps its place; only its remaining quantity shrinks.
  if (makerEnds) {
    maker.preventedSteps += makerPrevented;
    level.totalSteps -= makerPrevented;
    closeOrder(symbol, maker, 'EXPIRED_IN_MATCH', 'NONE', time);
  } else if (makerPrevented > 0) {
    maker.preventedSteps += makerPrevented;
    level.totalSteps -= makerPrevented;
    maker.updateTime = time;
    relock(symbol, maker);
  }
  taker.preventedSteps += takerPrevented;
  taker.updateTime = time;
  if (takerEnds) taker.status = 'EXPIRED_IN_MATCH';
  else if (takerPrevented > 0 && taker.priceTicks > 0) relock(symbol, taker);

  const record: PreventedMatchRecord = {
    preventedMatchId,
    takerOrderId: taker.orderId,
    makerOrderId: maker.orderId,
    takerAccountId: taker.account.accountId,
    makerAccountId: maker.account.accountId,
    tradeGroupId: taker.account.tradeGroupId,
    mode,
    priceTicks: level.ticks,
    takerPreventedSteps: takerPrevented,
    makerPreventedSteps: makerPrevented,
    time,
  };
  symbol.preventedMatches.push(record);
  const stepUnits = symbol.spec.stepUnits;
  state.emit({
    type: 'MatchPrevented',
    time,
    symbol: symbol.spec.symbol,
    preventedMatchId,
    takerOrderId: taker.orderId,
    makerOrderId: maker.orderId,
    takerAccountId: taker.account.accountId,
    makerAccountId: maker.account.accountId,
    price: level.ticks * symbol.spec.tickUnits,
    mode,
    takerPreventedQuantity: takerPrevented * stepUnits,
    makerPreventedQuantity: makerPrevented * stepUnits,
    takerStatus: taker.status,
    makerStatus: maker.status,
  });
}

/**
 * TRANSFER between two accounts of one trade group: the prevented overlap changes hands as if
 * traded at the maker's price, with no commission and no trade record.
 */
function transferOverlap(
  state: EngineState,
  symbol: SymbolState,
  taker: Order,
  maker: Order,
  steps: number,
  ticks: number,
  time: number,
): void {
  const buyer = taker.isBuy ? taker : maker;
  const seller = taker.isBuy ? maker : taker;
  const base = steps * symbol.spec.stepUnits;
  const quote = symbol.notional(ticks, steps);
  // The orders lose the quantity as prevented, not executed: account for it before settling so
  // the buyer's remaining reservation is computed on the reduced quantity.
  buyer.preventedSteps += steps;
  seller.preventedSteps += steps;
  settleFill(state, symbol, buyer, seller, buyer === maker, base, quote, time, false);
  buyer.preventedSteps -= steps;
  seller.preventedSteps -= steps;
}
