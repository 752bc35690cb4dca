/**
 * Mark price, funding and liquidation (binance-futures-facts §6).
 *
 * SetMarkPrice sets the mark every margin computation reads, then runs the maintenance check of
 * the margin asset: each account (in creation order) whose cross margin balance (cross wallet +
 * cross uPnL) is at or below its cross maintenance margin is liquidated as a whole; each isolated
 * position whose isolated wallet + uPnL is at or below its maintenance margin is liquidated alone.
 * An account above maintenance whose margin ratio (MM / margin balance) reaches 80% (chosen) gets
 * a MarginCalled first. So no position is left below maintenance when the command returns.
 *
 * A liquidation cancels the open orders concerned (`er` 5), closes each position by a system order
 * (`autoclose-<time>`) at its bankruptcy price against the insurance fund of the margin asset, and
 * leaves the account's margin for those positions at exactly 0: the fund receives what was left
 * at the mark (the liquidation fee, rate × notional at mark, is part of it) or pays the deficit.
 * In cash: the market pays the uPnL at mark (external, like every realized PnL), the account keeps
 * nothing, the fund takes the rest. Several cross positions: the first takes the whole clearance
 * in its bankruptcy price, the others close at the mark (equal totals). No ADL: the fund may go
 * negative (the exchange absorbs it).
 *
 * SettleFunding: each open position pays or receives notional at mark × rate (rate > 0: longs
 * pay shorts), the payer's amount rounded up and the receiver's down; the counterparty is outside
 * the engine (external flow). Cross positions pay from the cross wallet, isolated ones from their
 * isolated wallet (a shortfall is the insurance fund's). Then the maintenance check runs as after
 * a mark update.
 */
import type { Account } from '../accounts/account.ts';
import type { SetMarkPrice, SettleFunding } from '../commands.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import type { MarginCallPosition } from '../events.ts';
import { mulDivCeil, mulDivFloor } from '../exact-math.ts';
import { expire } from '../order-lifecycle.ts';
import { Order } from '../order.ts';
import { RATE_SCALE } from '../symbol-spec.ts';
import { addIncome, bookExternal, debitWallet, emitPosition, emitWallet, markOf, moveFund, summarize } from './futures-account.ts';
import { LIQUIDATION_FLAG, POSITION_SIDES, type FuturesAccount, type FuturesPosition, type FuturesSymbolSettings } from './futures-state.ts';
import { maintenanceMargin, notionalFloor, positionNotional, priceForNotional, unrealizedPnl } from './margin-math.ts';

/** Margin ratio (MM / margin balance) at which MarginCalled is sent, as a fraction num/den (80%). */
const MARGIN_CALL_NUM = 8;
const MARGIN_CALL_DEN = 10;

export function setMarkPrice(state: EngineState, command: SetMarkPrice): void {
  const symbol = state.symbol(command.symbol);
  if (symbol === undefined || symbol.margin === null) return state.reject(command, 'FUTURES_NOT_A_MARGIN_SYMBOL');
  const index = command.indexPrice ?? command.markPrice;
  if (!(Number.isSafeInteger(command.markPrice) && command.markPrice > 0 && Number.isSafeInteger(index) && index > 0)) return state.reject(command, 'INVALID_AMOUNT');
  const margin = symbol.margin;
  margin.markPrice = command.markPrice;
  margin.indexPrice = index;
  margin.markTime = command.time;
  state.emit({ type: 'MarkPriceChanged', time: command.time, symbol: symbol.spec.symbol, markPrice: command.markPrice, indexPrice: index });
  liquidateBelowMaintenance(state, symbol.quoteAsset, command.time);
}

export function settleFunding(state: EngineState, command: SettleFunding): void {
  const symbol = state.symbol(command.symbol);
  if (symbol === undefined || symbol.margin === null) return state.reject(command, 'FUTURES_NOT_A_MARGIN_SYMBOL');
  const mark = command.markPrice ?? markOf(symbol);
  if (!(Number.isSafeInteger(mark) && mark > 0) || !Number.isSafeInteger(command.rate)) return state.reject(command, 'INVALID_AMOUNT');
  const futures = state.futures!;
  const asset = symbol.quoteAsset;
  const rate = command.rate;
  const index = symbol.spec.index;
  let count = 0;
  for (const fa of futures.accountList) {
    const settings = fa.settings[index];
    if (settings === undefined) continue;
    const account = state.account(fa.accountId)!;
    for (let side = 0; side < settings.positions.length; side++) {
      const position = settings.positions[side]!;
      if (position.amount === 0 || rate === 0) continue;
      count += 1;
      const notional = notionalFloor(symbol, mark, position.amount);
      const pays = position.amount > 0 === rate > 0;
      const absRate = Math.abs(rate);
      const amount = pays ? mulDivCeil(notional, absRate, RATE_SCALE) : mulDivFloor(notional, absRate, RATE_SCALE);
      if (amount === 0) continue;
      const signed = pays ? -amount : amount;
      bookExternal(state, asset, signed, 'FUNDING');
      if (settings.isolated) {
        if (pays) {
          const fromWallet = Math.min(position.isolatedWallet, amount);
          position.isolatedWallet -= fromWallet;
          if (amount > fromWallet) {
            moveFund(state, asset, -(amount - fromWallet));
            addIncome(state, fa, symbol, 'INSURANCE_CLEAR', amount - fromWallet, asset, 'INSURANCE_CLEAR', command.time, -1);
          }
        } else position.isolatedWallet += amount;
        emitPosition(state, fa, symbol, side, position, true, 0, 'FUNDING_FEE', command.time, -1, -1);
      } else {
        if (pays) debitWallet(state, account, fa, symbol, asset, amount, command.time);
        else account.credit(asset, amount);
      }
      position.updateTime = command.time;
      addIncome(state, fa, symbol, 'FUNDING_FEE', signed, asset, 'FUNDING_FEE', command.time, -1);
      emitWallet(state, account, asset, 0, 'FUNDING_FEE', command.time);
    }
  }
  symbol.margin.lastFundingRate = rate;
  state.emit({ type: 'FundingSettled', time: command.time, symbol: symbol.spec.symbol, rate, markPrice: mark, positions: count });
  liquidateBelowMaintenance(state, asset, command.time);
}

/** Every account and isolated position of margin asset `asset` below maintenance is liquidated. */
export function liquidateBelowMaintenance(state: EngineState, asset: number, time: number): void {
  const futures = state.futures!;
  for (const fa of futures.accountList) {
    const account = state.account(fa.accountId)!;
    // Isolated positions first, each on its own.
    for (const index of futures.marginSymbols) {
      const symbol = state.symbolList[index]!;
      const settings = fa.settings[index];
      if (symbol.quoteAsset !== asset || settings === undefined || !settings.isolated) continue;
      for (let side = 0; side < settings.positions.length; side++) {
        const position = settings.positions[side]!;
        if (position.amount === 0) continue;
        const mark = markOf(symbol);
        const mm = maintenanceMargin(symbol.margin!, positionNotional(symbol, mark, position.amount));
        if (position.isolatedWallet + unrealizedPnl(symbol, position, mark) <= mm) liquidateIsolated(state, account, fa, symbol, settings, side, time);
      }
    }
    const s = summarize(state, account, asset);
    if (s.crossMM === 0 && !hasCrossPosition(state, fa, asset)) continue;
    const marginBalance = s.crossWallet + s.crossUnPnl;
    if (marginBalance <= s.crossMM) liquidateCross(state, account, fa, asset, time);
    else if (s.crossMM * MARGIN_CALL_DEN >= marginBalance * MARGIN_CALL_NUM) marginCall(state, account, fa, asset, s.crossWallet, time);
  }
}

function hasCrossPosition(state: EngineState, fa: FuturesAccount, asset: number): boolean {
  for (const index of state.futures!.marginSymbols) {
    const settings = fa.settings[index];
    if (settings === undefined || settings.isolated || state.symbolList[index]!.quoteAsset !== asset) continue;
    if (settings.positions.some((p) => p.amount !== 0)) return true;
  }
  return false;
}

function marginCall(state: EngineState, account: Account, fa: FuturesAccount, asset: number, crossWallet: number, time: number): void {
  const positions: MarginCallPosition[] = [];
  for (const index of state.futures!.marginSymbols) {
    const symbol = state.symbolList[index]!;
    const settings = fa.settings[index];
    if (settings === undefined || settings.isolated || symbol.quoteAsset !== asset) continue;
    const mark = markOf(symbol);
    settings.positions.forEach((p, side) => {
      if (p.amount === 0) return;
      positions.push({
        symbol: symbol.spec.symbol,
        positionSide: POSITION_SIDES[side]!,
        positionAmt: p.amount * symbol.spec.stepUnits,
        marginType: 'CROSSED',
        isolatedWallet: 0,
        markPrice: mark,
        unrealizedPnl: unrealizedPnl(symbol, p, mark),
        maintMargin: maintenanceMargin(symbol.margin!, positionNotional(symbol, mark, p.amount)),
      });
    });
  }
  state.emit({ type: 'MarginCalled', time, accountId: account.accountId, asset: state.assetNames[asset] as string, crossWalletBalance: crossWallet, positions });
}

/** Cancels the account's open orders on `symbol` (`er` 5: account liquidation). */
function cancelOrdersOn(state: EngineState, symbol: SymbolState, account: Account, time: number): void {
  for (const order of symbol.openOrdersOf(account)) expire(state, symbol, order, 'EXPIRED', 'ACCOUNT_LIQUIDATION', time);
}

function liquidationFee(symbol: SymbolState, mark: number, position: FuturesPosition): number {
  return mulDivCeil(positionNotional(symbol, mark, position.amount), symbol.margin!.liquidationFeeRate, RATE_SCALE);
}

/** The price at which closing `position` realizes `realized` (its bankruptcy price when realized = −margin). */
function closePriceFor(symbol: SymbolState, position: FuturesPosition, realized: number): number {
  const notional = position.amount > 0 ? position.entryCost + realized : position.entryCost - realized;
  return priceForNotional(symbol, notional, position.amount);
}

/**
 * The system order of a liquidation (facts §4 "System orders"): a real order of the account with
 * the next order id and trade id of the symbol, closed at once — archived FILLED as a LIMIT IOC
 * (as /fapi/v1/forceOrders shows it) at the bankruptcy price on the tick grid (a SELL rounds down,
 * a BUY up: the limit a fill at the bankruptcy price satisfies), its quote the exact notional at
 * the bankruptcy price, and its trade in the account's trades with no commission (**chosen**: the
 * liquidation fee is the insurance fund's share of the cleared margin, inside the realized loss,
 * not a separate charge). Not on the symbol's trade tape: it closes against the fund.
 */
function archiveLiquidationOrder(symbol: SymbolState, account: Account, side: number, clientOrderId: string, isBuy: boolean, steps: number, quote: number, price: number, time: number): { orderId: number; tradeId: number; orderPrice: number } {
  const spec = symbol.spec;
  const orderId = symbol.nextOrderId++;
  const tradeId = symbol.nextTradeId++;
  const ticks = isBuy ? Math.ceil(price / spec.tickUnits) : Math.floor(price / spec.tickUnits);
  const order = new Order(spec.index, orderId, clientOrderId, account, isBuy, 'LIMIT', 'IOC', ticks, steps, 0, 'NONE', time, null, null);
  order.executedSteps = steps;
  order.cumQuote = quote;
  order.status = 'FILLED';
  symbol.archive.store(order, true);
  account.clientIdsOn(spec.index).set(clientOrderId, orderId);
  const flags = symbol.margin!.closedFlags;
  while (flags.length < orderId) flags.push(-1);
  flags[orderId] = side | LIQUIDATION_FLAG;
  account.tradesOn(spec.index).push({
    symbolIndex: spec.index,
    tradeId,
    orderId,
    priceTicks: ticks,
    steps,
    quote,
    commission: 0,
    commissionAsset: symbol.quoteAsset,
    time,
    isBuyer: isBuy,
    isMaker: false,
  });
  account.updateTime = time;
  return { orderId, tradeId, orderPrice: ticks * spec.tickUnits };
}

function closePosition(state: EngineState, fa: FuturesAccount, symbol: SymbolState, settings: FuturesSymbolSettings, side: number, realized: number, price: number, mark: number, fee: number, fundChange: number, time: number): void {
  const position = settings.positions[side]!;
  const amount = position.amount;
  const asset = symbol.quoteAsset;
  // The close's notional at the bankruptcy price, exactly (what closePriceFor rounded to a price).
  const quote = amount > 0 ? position.entryCost + realized : position.entryCost - realized;
  // Binance stamps the liquidation's client id in ms (autoclose-1704096000000).
  const clientOrderId = `autoclose-${Math.floor(time / 1000)}`;
  const isBuy = amount < 0;
  const closed = archiveLiquidationOrder(symbol, state.account(fa.accountId)!, side, clientOrderId, isBuy, Math.abs(amount), Math.max(0, quote), price, time);
  position.realized += realized;
  addIncome(state, fa, symbol, 'REALIZED_PNL', realized, asset, 'LIQUIDATION', time, closed.tradeId);
  position.amount = 0;
  position.entryCost = 0;
  position.feesPaid = 0;
  position.isolatedWallet = 0;
  position.updateTime = time;
  state.emit({
    type: 'PositionLiquidated',
    time,
    accountId: fa.accountId,
    symbol: symbol.spec.symbol,
    positionSide: POSITION_SIDES[side]!,
    orderId: closed.orderId,
    tradeId: closed.tradeId,
    clientOrderId,
    orderPrice: closed.orderPrice,
    side: isBuy ? 'BUY' : 'SELL',
    quantity: Math.abs(amount) * symbol.spec.stepUnits,
    price,
    markPrice: mark,
    realizedPnl: realized,
    liquidationFee: fee,
    insuranceFundChange: fundChange,
  });
  emitPosition(state, fa, symbol, side, position, settings.isolated, realized, 'ORDER', time, -1, -1);
}

function liquidateIsolated(state: EngineState, account: Account, fa: FuturesAccount, symbol: SymbolState, settings: FuturesSymbolSettings, side: number, time: number): void {
  cancelOrdersOn(state, symbol, account, time);
  const position = settings.positions[side]!;
  const asset = symbol.quoteAsset;
  const mark = markOf(symbol);
  const upnl = unrealizedPnl(symbol, position, mark);
  // The market pays the uPnL at mark; the fund takes what is left of the isolated margin (or pays the deficit).
  bookExternal(state, asset, upnl, 'PNL');
  const remaining = position.isolatedWallet + upnl;
  moveFund(state, asset, remaining);
  const realized = -position.isolatedWallet;
  const fee = Math.max(0, Math.min(remaining, liquidationFee(symbol, mark, position)));
  closePosition(state, fa, symbol, settings, side, realized, closePriceFor(symbol, position, realized), mark, fee, remaining, time);
  emitWallet(state, account, asset, 0, 'ORDER', time);
}

function liquidateCross(state: EngineState, account: Account, fa: FuturesAccount, asset: number, time: number): void {
  const futures = state.futures!;
  for (const index of futures.marginSymbols) {
    const symbol = state.symbolList[index]!;
    if (symbol.quoteAsset === asset) cancelOrdersOn(state, symbol, account, time);
  }
  // Every cross position's uPnL at mark is paid by the market; then the fund clears the wallet.
  const closing: { symbol: SymbolState; settings: FuturesSymbolSettings; side: number; upnl: number; mark: number; fee: number }[] = [];
  let total = 0;
  let fees = 0;
  for (const index of futures.marginSymbols) {
    const symbol = state.symbolList[index]!;
    const settings = fa.settings[index];
    if (symbol.quoteAsset !== asset || settings === undefined || settings.isolated) continue;
    const mark = markOf(symbol);
    settings.positions.forEach((position, side) => {
      if (position.amount === 0) return;
      const upnl = unrealizedPnl(symbol, position, mark);
      const fee = liquidationFee(symbol, mark, position);
      closing.push({ symbol, settings, side, upnl, mark, fee });
      total += upnl;
      fees += fee;
    });
  }
  bookExternal(state, asset, total, 'PNL');
  const remaining = account.freeOf(asset) + total;
  // The wallet ends at 0: what remains goes to the fund (a deficit comes from it).
  account.credit(asset, -account.freeOf(asset));
  moveFund(state, asset, remaining);
  const fee = Math.max(0, Math.min(remaining, fees));
  closing.forEach((c, i) => {
    const position = c.settings.positions[c.side]!;
    const realized = i === 0 ? c.upnl - remaining : c.upnl;
    const price = closePriceFor(c.symbol, position, realized);
    closePosition(state, fa, c.symbol, c.settings, c.side, realized, price, c.mark, i === 0 ? fee : 0, i === 0 ? remaining : 0, time);
  });
  emitWallet(state, account, asset, 0, 'ORDER', time);
}
