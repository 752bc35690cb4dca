/**
 * The futures queries behind EngineQueries.futures*: account per margin asset, positions,
 * brackets, settings, income rows, insurance fund, mark and the futures fields of an order. They
 * read state only, in fixed orders (margin symbols in config order, sides BOTH, LONG, SHORT).
 */
import type { EngineState, SymbolState } from '../engine-state.ts';
import { availableOf, markOf, maxWithdrawOf, summarize } from './futures-account.ts';
import { LIQUIDATION_FLAG, POSITION_SIDES, type FuturesPosition, type FuturesSymbolSettings } from './futures-state.ts';
import type {
  FuturesAccountView,
  FuturesBracketView,
  FuturesIncomeView,
  FuturesOrderInfoView,
  FuturesPositionView,
  FuturesSymbolSettingsView,
  IncomeType,
  MarkPriceView,
} from './futures-views.ts';
import { entryPriceOf, initialMargin, maintenanceMargin, maxNotionalAt, positionNotional, priceForNotional, unrealizedPnl } from './margin-math.ts';
import { RATE_SCALE } from '../symbol-spec.ts';
import { mulDivCeil, mulDivFloor } from '../exact-math.ts';

function marginSymbol(state: EngineState, name: string): SymbolState | undefined {
  const symbol = state.symbols.get(name);
  return symbol !== undefined && symbol.margin !== null ? symbol : undefined;
}

/** The futures wallet assets of the configured margin symbols, in config order. */
export function marginAssetsOf(state: EngineState): number[] {
  const out: number[] = [];
  for (const index of state.futures?.marginSymbols ?? []) {
    const asset = state.symbolList[index]!.quoteAsset;
    if (!out.includes(asset)) out.push(asset);
  }
  return out;
}

export function futuresAccountView(state: EngineState, accountId: number, assetName: string): FuturesAccountView | undefined {
  const account = state.account(accountId);
  const asset = state.findAsset(assetName);
  if (account === undefined || asset === undefined || state.futures === null) return undefined;
  const s = summarize(state, account, asset);
  const walletBalance = s.crossWallet + s.isolatedWallets;
  const unrealizedProfit = s.crossUnPnl + s.isolatedUnPnl;
  const positionInitialMargin = s.crossPositionIM + s.isolatedPositionIM;
  return {
    asset: assetName,
    walletBalance,
    crossWalletBalance: s.crossWallet,
    unrealizedProfit,
    crossUnPnl: s.crossUnPnl,
    marginBalance: walletBalance + unrealizedProfit,
    initialMargin: positionInitialMargin + s.openOrderIM,
    positionInitialMargin,
    openOrderInitialMargin: s.openOrderIM,
    maintMargin: s.crossMM + s.isolatedMM,
    availableBalance: availableOf(s),
    maxWithdrawAmount: maxWithdrawOf(s),
  };
}

function positionView(state: EngineState, symbol: SymbolState, settings: FuturesSymbolSettings | undefined, side: number, accountId: number): FuturesPositionView {
  const margin = symbol.margin!;
  const position: FuturesPosition | undefined = settings?.positions[side];
  const amount = position?.amount ?? 0;
  const mark = markOf(symbol);
  const leverage = settings?.leverage ?? margin.defaultLeverage;
  const isolated = settings?.isolated ?? false;
  const notional = amount === 0 ? 0 : positionNotional(symbol, mark, amount);
  const upnl = position === undefined ? 0 : unrealizedPnl(symbol, position, mark);
  const isolatedWallet = isolated ? (position?.isolatedWallet ?? 0) : 0;
  const account = state.account(accountId);
  let openOrderIM = 0;
  if (account !== undefined) for (const order of symbol.openOrdersOf(account)) openOrderIM += order.locked;
  return {
    symbol: symbol.spec.symbol,
    positionSide: POSITION_SIDES[side]!,
    positionAmt: amount * symbol.spec.stepUnits,
    entryPrice: position === undefined ? 0 : entryPriceOf(symbol, position),
    breakEvenPrice: position === undefined || amount === 0 ? 0 : breakEven(symbol, position),
    markPrice: mark,
    unrealizedProfit: upnl,
    liquidationPrice: position === undefined || amount === 0 ? 0 : liquidationPrice(state, symbol, settings!, side, accountId),
    notional: amount >= 0 ? notional : -notional,
    initialMargin: initialMargin(notional, leverage),
    maintMargin: maintenanceMargin(margin, notional),
    isolatedMargin: isolated ? isolatedWallet + upnl : 0,
    isolatedWallet,
    openOrderInitialMargin: openOrderIM,
    leverage,
    marginType: isolated ? 'ISOLATED' : 'CROSSED',
    maxNotionalValue: maxNotionalAt(margin, leverage),
    marginAsset: symbol.spec.quoteAsset,
    updateTime: position?.updateTime ?? 0,
  };
}

/**
 * Break-even price: the price at which closing realizes the commissions paid so far plus the
 * taker commission of the close (chosen; Binance does not publish its formula).
 */
function breakEven(symbol: SymbolState, position: FuturesPosition): number {
  const rate = symbol.margin!.takerRate;
  // long: notional × (1 − rate) = entryCost + fees; short: notional × (1 + rate) = entryCost − fees.
  const target = position.amount > 0 ? position.entryCost + position.feesPaid : Math.max(0, position.entryCost - position.feesPaid);
  const notional = position.amount > 0 ? mulDivCeil(target, RATE_SCALE, RATE_SCALE - rate) : mulDivFloor(target, RATE_SCALE, RATE_SCALE + rate);
  return priceForNotional(symbol, notional, position.amount);
}

/**
 * Liquidation price (§6): the mark at which the position's margin balance meets its maintenance
 * margin, other positions held at their marks. One-way long: LP = (Q×EP − WB − cum) / (Q×(1 −
 * MMR)); short: (Q×EP + WB + cum) / (Q×(1 + MMR)) with WB the margin left for it (cross: cross
 * wallet + other positions' uPnL − their MM; isolated: the isolated wallet) and the bracket
 * redone when the price lands in another one. 0 when no positive price liquidates it.
 */
export function liquidationPrice(state: EngineState, symbol: SymbolState, settings: FuturesSymbolSettings, side: number, accountId: number): number {
  const position = settings.positions[side]!;
  const margin = symbol.margin!;
  let wb: number;
  if (settings.isolated) wb = position.isolatedWallet;
  else {
    const account = state.account(accountId)!;
    const s = summarize(state, account, symbol.quoteAsset);
    const mark = markOf(symbol);
    const own = unrealizedPnl(symbol, position, mark);
    const ownMM = maintenanceMargin(margin, positionNotional(symbol, mark, position.amount));
    wb = s.crossWallet + (s.crossUnPnl - own) - (s.crossMM - ownMM);
  }
  const long = position.amount > 0;
  // Price units per base unit: notional n at price p is p × qtyBase / 10^bp; solve in notional terms.
  // long: n − EC + WB = n × mmr − cum  →  n = (EC − WB − cum) / (1 − mmr)
  // short: EC − n + WB = n × mmr − cum →  n = (EC + WB + cum) / (1 + mmr)
  let bracket = margin.brackets[0]!;
  let notional = 0;
  for (let round = 0; round < margin.brackets.length + 1; round++) {
    const num = long ? position.entryCost - wb - bracket.cum : position.entryCost + wb + bracket.cum;
    if (num <= 0) return 0;
    const den = long ? RATE_SCALE - bracket.mmr : RATE_SCALE + bracket.mmr;
    notional = Number((BigInt(num) * BigInt(RATE_SCALE)) / BigInt(den));
    const next = margin.brackets.find((b) => notional < b.cap) ?? margin.brackets[margin.brackets.length - 1]!;
    if (next === bracket) break;
    bracket = next;
  }
  return priceForNotional(symbol, notional, position.amount);
}

export function futuresPositionViews(state: EngineState, accountId: number, symbolName?: string): FuturesPositionView[] {
  const futures = state.futures;
  if (futures === null || state.account(accountId) === undefined) return [];
  const fa = futures.accounts.get(accountId);
  const hedge = fa?.hedge ?? false;
  const out: FuturesPositionView[] = [];
  for (const index of futures.marginSymbols) {
    const symbol = state.symbolList[index]!;
    if (symbolName !== undefined && symbol.spec.symbol !== symbolName) continue;
    const settings = fa?.settings[index];
    for (const side of hedge ? [1, 2] : [0]) out.push(positionView(state, symbol, settings, side, accountId));
  }
  return out;
}

export function futuresBracketViews(state: EngineState, symbolName: string): FuturesBracketView[] | undefined {
  const symbol = marginSymbol(state, symbolName);
  if (symbol === undefined) return undefined;
  return symbol.margin!.brackets.map((b) => ({ bracket: b.bracket, initialLeverage: b.initialLeverage, notionalCap: b.cap, notionalFloor: b.floor, maintMarginRatio: b.mmr, cum: b.cum }));
}

export function futuresSettingsView(state: EngineState, accountId: number, symbolName: string): FuturesSymbolSettingsView | undefined {
  const symbol = marginSymbol(state, symbolName);
  if (symbol === undefined || state.account(accountId) === undefined) return undefined;
  const settings = state.futures!.accounts.get(accountId)?.settings[symbol.spec.index];
  const leverage = settings?.leverage ?? symbol.margin!.defaultLeverage;
  return { symbol: symbolName, leverage, marginType: settings?.isolated ? 'ISOLATED' : 'CROSSED', maxNotionalValue: maxNotionalAt(symbol.margin!, leverage) };
}

export function futuresIncomeViews(state: EngineState, accountId: number, filter: { symbol?: string; incomeType?: IncomeType; startTime?: number; endTime?: number } = {}): FuturesIncomeView[] {
  const fa = state.futures?.accounts.get(accountId);
  if (fa === undefined) return [];
  const out: FuturesIncomeView[] = [];
  for (const row of fa.income) {
    const symbol = row.symbolIndex < 0 ? '' : state.symbolList[row.symbolIndex]!.spec.symbol;
    if (filter.symbol !== undefined && symbol !== filter.symbol) continue;
    if (filter.incomeType !== undefined && row.incomeType !== filter.incomeType) continue;
    if (filter.startTime !== undefined && row.time < filter.startTime) continue;
    if (filter.endTime !== undefined && row.time > filter.endTime) continue;
    out.push({ symbol, incomeType: row.incomeType, income: row.income, asset: state.assetNames[row.asset] as string, info: row.info, time: row.time, tranId: row.tranId, tradeId: row.tradeId });
  }
  return out;
}

export function insuranceFundViews(state: EngineState): { asset: string; balance: number }[] {
  const futures = state.futures;
  if (futures === null) return [];
  return marginAssetsOf(state).map((asset) => ({ asset: state.assetNames[asset] as string, balance: futures.insuranceFund[asset] ?? 0 }));
}

export function markPriceView(state: EngineState, symbolName: string): MarkPriceView | undefined {
  const symbol = marginSymbol(state, symbolName);
  if (symbol === undefined) return undefined;
  const margin = symbol.margin!;
  return { markPrice: markOf(symbol), indexPrice: margin.indexPrice || markOf(symbol), lastFundingRate: margin.lastFundingRate, time: margin.markTime };
}

export function futuresOrderInfoView(state: EngineState, symbolName: string, orderId: number): FuturesOrderInfoView | undefined {
  const symbol = marginSymbol(state, symbolName);
  if (symbol === undefined) return undefined;
  const margin = symbol.margin!;
  const info = margin.orders.get(orderId);
  const goodTillTime = margin.goodTill.size === 0 ? 0 : (margin.goodTill.get(orderId) ?? 0);
  if (info !== undefined) return { positionSide: POSITION_SIDES[info.side]!, reduceOnly: info.reduceOnly, postOnly: info.postOnly, goodTillTime, liquidation: false };
  const flags = margin.closedFlags[orderId] ?? -1;
  if (flags < 0) return undefined;
  return { positionSide: POSITION_SIDES[flags & 3]!, reduceOnly: (flags & 4) !== 0, postOnly: (flags & 8) !== 0, goodTillTime, liquidation: (flags & LIQUIDATION_FLAG) !== 0 };
}

/** Maker and taker rates (1e-8) an account pays on a margin symbol (GET /fapi/v1/commissionRate). */
export function commissionRatesOf(state: EngineState, accountId: number, symbolName: string): { maker: number; taker: number } | undefined {
  const symbol = marginSymbol(state, symbolName);
  if (symbol === undefined || state.account(accountId) === undefined) return undefined;
  const fa = state.futures!.accounts.get(accountId);
  const margin = symbol.margin!;
  return { maker: fa !== undefined && fa.makerRate >= 0 ? fa.makerRate : margin.makerRate, taker: fa !== undefined && fa.takerRate >= 0 ? fa.takerRate : margin.takerRate };
}

export function positionModeOf(state: EngineState, accountId: number): 'ONE_WAY' | 'HEDGE' {
  return state.futures?.accounts.get(accountId)?.hedge ? 'HEDGE' : 'ONE_WAY';
}
