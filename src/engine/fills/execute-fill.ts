/**
 * The one fill path. Every trade the engine records goes through `executeFill`, whoever the two
 * sides are:
 *
 * | taker          | maker                   | comes from                                   | event              |
 * |----------------|-------------------------|----------------------------------------------|--------------------|
 * | a user's order | a user's resting order  | matching (match-order.ts)                    | TradeExecuted      |
 * | a user's order | the book's liquidity    | a taker walking the synthetic or recorded    | TradeExecuted      |
 * |                |   (`maker` null)        |   book (liquidity/)                          |   (maker 0)        |
 * | the market     | a user's resting order  | a replayed print the fill model let reach it | OrderFilledByMarket|
 * |   (`taker` null)|                        |   (FillFromMarket)                           |                    |
 *
 * In that order it: takes the liquidity a taker used (what users take stays taken), counts the
 * quantity on both orders, settles funds and commissions (between two accounts, or one account
 * against the market as an external flow so every asset stays conserved), moves statuses through
 * the lifecycle, lets the book's liquidity follow a market print, records the trade on the
 * symbol's tape (trade id, last price, average-price window) and on the accounts (or as a SOR
 * allocation), and emits the event. Callers decide only who meets whom and for how much.
 */
import type { AccountTradeRecord } from '../accounts/account.ts';
import type { Commission } from '../accounts/fees.ts';
import { settleFill, settleMarketFill } from '../accounts/settle.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import type { Order } from '../order.ts';
import { makerFilled, reduceShown, takerFilled } from '../order-lifecycle.ts';

/** The maker account and order id a fill against the book's liquidity reports (never an account or order id). */
export const SYNTHETIC_MAKER = 0;

/**
 * One fill of `steps` at `ticks`. `taker` null: a market print filled the resting `maker`
 * (`reason` says which rule and print). `maker` null: `taker` took `steps` from level
 * `liquidityIndex` of the symbol's liquidity on the side opposite the taker. `takerDone`: the
 * taker ends FILLED with this fill.
 */
export function executeFill(
  state: EngineState,
  symbol: SymbolState,
  taker: Order | null,
  maker: Order | null,
  ticks: number,
  steps: number,
  takerDone: boolean,
  time: number,
  reason: string,
  liquidityIndex: number,
): void {
  const spec = symbol.spec;
  const takerIsBuy = taker !== null ? taker.isBuy : !maker!.isBuy;
  if (maker === null) symbol.liquidity!.take(!takerIsBuy, liquidityIndex, steps);
  const base = steps * spec.stepUnits;
  const quote = symbol.notional(ticks, steps);
  if (taker !== null) {
    taker.executedSteps += steps;
    taker.cumQuote += quote;
  }
  if (maker !== null) {
    maker.executedSteps += steps;
    reduceShown(maker, steps);
    maker.cumQuote += quote;
  }

  let takerCommission: Commission | null = null;
  let makerCommission: Commission | null = null;
  if (taker !== null && maker !== null) {
    const buyer = takerIsBuy ? taker : maker;
    const seller = takerIsBuy ? maker : taker;
    const settlement = settleFill(state, symbol, buyer, seller, !takerIsBuy, base, quote, time, true);
    takerCommission = takerIsBuy ? settlement.buyerCommission : settlement.sellerCommission;
    makerCommission = takerIsBuy ? settlement.sellerCommission : settlement.buyerCommission;
  } else if (taker !== null) takerCommission = settleMarketFill(state, symbol, taker, base, quote, time, false);
  else makerCommission = settleMarketFill(state, symbol, maker!, base, quote, time, true);

  if (taker !== null) takerFilled(symbol, taker, takerDone, time);
  if (maker !== null) makerFilled(symbol, maker, time);
  // A print reached a resting order: the book's liquidity follows the market's taker.
  if (taker === null && symbol.liquidity !== null) symbol.liquidity.notePrint(ticks, 0, takerIsBuy);

  const tradeId = symbol.nextTradeId++;
  const price = ticks * spec.tickUnits;
  symbol.recordTrade({ tradeId, price, qty: base, quote, time, isBuyerMaker: !takerIsBuy });
  symbol.window.record(time, price, quote, base);

  // The buyer's record first: when one account is on both sides, its list keeps that order.
  const allocated = taker !== null && taker.ext !== null && taker.ext.usedSor;
  const allocationId = allocated ? symbol.nextAllocationId++ : -1;
  const buyer = takerIsBuy ? taker : maker;
  const seller = takerIsBuy ? maker : taker;
  if (buyer !== null) recordOnAccount(symbol, buyer, buyer === maker, (buyer === taker ? takerCommission : makerCommission)!, tradeId, ticks, steps, quote, time, buyer === taker ? allocationId : -1);
  if (seller !== null) recordOnAccount(symbol, seller, seller === maker, (seller === taker ? takerCommission : makerCommission)!, tradeId, ticks, steps, quote, time, seller === taker ? allocationId : -1);

  if (taker === null) {
    const order = maker!;
    state.emit({
      type: 'OrderFilledByMarket',
      time,
      symbol: spec.symbol,
      tradeId,
      orderId: order.orderId,
      accountId: order.account.accountId,
      price,
      quantity: base,
      quoteQuantity: quote,
      commission: makerCommission!.amount,
      commissionAsset: state.assetNames[makerCommission!.asset] as string,
      status: order.status,
      reason,
    });
    return;
  }
  const takerPaid = takerCommission!;
  state.emit({
    type: 'TradeExecuted',
    time,
    symbol: spec.symbol,
    tradeId,
    price,
    quantity: base,
    quoteQuantity: quote,
    isBuyerMaker: !takerIsBuy,
    takerOrderId: taker.orderId,
    makerOrderId: maker === null ? SYNTHETIC_MAKER : maker.orderId,
    takerAccountId: taker.account.accountId,
    makerAccountId: maker === null ? SYNTHETIC_MAKER : maker.account.accountId,
    takerCommission: takerPaid.amount,
    takerCommissionAsset: state.assetNames[takerPaid.asset] as string,
    makerCommission: maker === null ? 0 : makerCommission!.amount,
    // The book's liquidity pays nothing; its asset is the one a maker would have received.
    makerCommissionAsset: state.assetNames[maker === null ? (takerIsBuy ? symbol.quoteAsset : symbol.baseAsset) : makerCommission!.asset] as string,
    takerStatus: taker.status,
    makerStatus: maker === null ? (symbol.liquidity!.stepsAt(!takerIsBuy, liquidityIndex) === 0 ? 'FILLED' : 'PARTIALLY_FILLED') : maker.status,
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
      commission: takerPaid.amount,
      commissionAsset: state.assetNames[takerPaid.asset] as string,
      isBuyer: taker.isBuy,
    });
  }
}

/** The fill on one order's account: a trade record, or an allocation for a SOR taker (binance sor_faq). */
function recordOnAccount(
  symbol: SymbolState,
  order: Order,
  isMaker: boolean,
  commission: Commission,
  tradeId: number,
  ticks: number,
  steps: number,
  quote: number,
  time: number,
  allocationId: number,
): void {
  const index = symbol.spec.index;
  const record: AccountTradeRecord = {
    symbolIndex: index,
    tradeId,
    orderId: order.orderId,
    priceTicks: ticks,
    steps,
    quote,
    commission: commission.amount,
    commissionAsset: commission.asset,
    time,
    isBuyer: order.isBuy,
    isMaker,
  };
  if (allocationId >= 0) order.account.allocationsOn(index).push({ ...record, allocationId });
  else order.account.tradesOn(index).push(record);
}
