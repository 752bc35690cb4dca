/**
 * One fill of a taker against the synthetic book (liquidity/synthetic-ladder.ts): the level
 * loses the steps, the taker settles with the market as an external flow and pays its taker fee,
 * and the fill is a trade on the symbol's tape like any other. The TradeExecuted event names
 * no maker: `makerAccountId` and `makerOrderId` are SYNTHETIC_MAKER (0, never an account or
 * order id), with no maker commission.
 */
import type { AccountTradeRecord } from '../accounts/account.ts';
import { settleMarketFill } from '../accounts/settle.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import type { Order } from '../order.ts';
import { noteListActivity } from '../conditional/order-extras-book.ts';

/** The maker account and order id a fill against the synthetic book reports. */
export const SYNTHETIC_MAKER = 0;

export function executeSyntheticFill(
  state: EngineState,
  symbol: SymbolState,
  taker: Order,
  level: number,
  ticks: number,
  steps: number,
  takerDone: boolean,
  time: number,
): void {
  const ladder = symbol.ladder!;
  const makerIsBid = !taker.isBuy;
  ladder.take(makerIsBid, level, steps);
  const spec = symbol.spec;
  const base = steps * spec.stepUnits;
  const quote = symbol.notional(ticks, steps);
  taker.executedSteps += steps;
  taker.cumQuote += quote;
  const commission = settleMarketFill(state, symbol, taker, base, quote, time, false);
  taker.status = takerDone ? 'FILLED' : 'PARTIALLY_FILLED';
  taker.updateTime = time;
  if (taker.ext !== null && taker.ext.list !== null) noteListActivity(symbol, taker);

  const tradeId = symbol.nextTradeId++;
  const price = ticks * spec.tickUnits;
  symbol.recordTrade({ tradeId, price, qty: base, quote, time, isBuyerMaker: !taker.isBuy });
  symbol.window.record(time, price, quote, base);
  const record: AccountTradeRecord = {
    symbolIndex: spec.index,
    tradeId,
    orderId: taker.orderId,
    priceTicks: ticks,
    steps,
    quote,
    commission: commission.amount,
    commissionAsset: commission.asset,
    time,
    isBuyer: taker.isBuy,
    isMaker: false,
  };
  // A taker placed through SOR receives its fills as allocations (binance sor_faq), not trades.
  const allocated = taker.ext !== null && taker.ext.usedSor;
  const allocationId = allocated ? symbol.nextAllocationId++ : -1;
  if (allocated) taker.account.allocationsOn(spec.index).push({ ...record, allocationId });
  else taker.account.tradesOn(spec.index).push(record);
  const commissionAsset = state.assetNames[commission.asset] as string;
  state.emit({
    type: 'TradeExecuted',
    time,
    symbol: spec.symbol,
    tradeId,
    price,
    quantity: base,
    quoteQuantity: quote,
    isBuyerMaker: !taker.isBuy,
    takerOrderId: taker.orderId,
    makerOrderId: SYNTHETIC_MAKER,
    takerAccountId: taker.account.accountId,
    makerAccountId: SYNTHETIC_MAKER,
    takerCommission: commission.amount,
    takerCommissionAsset: commissionAsset,
    makerCommission: 0,
    makerCommissionAsset: state.assetNames[taker.isBuy ? symbol.quoteAsset : symbol.baseAsset] as string,
    takerStatus: taker.status,
    makerStatus: ladder.stepsAt(makerIsBid, level) === 0 ? 'FILLED' : 'PARTIALLY_FILLED',
  });
  if (allocated) {
    state.emit({
      type: 'AllocationRecorded',
      time,
      symbol: spec.symbol,
      allocationId,
      tradeId,
      orderId: taker.orderId,
      accountId: taker.account.accountId,
      price,
      quantity: base,
      quoteQuantity: quote,
      commission: commission.amount,
      commissionAsset,
      isBuyer: taker.isBuy,
    });
  }
}
