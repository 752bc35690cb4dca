/**
 * An account's futures side: its FuturesAccount (created on first use, in command order), its
 * settings per margin symbol, the wallet of each margin asset, and the bookings every futures
 * money movement goes through (income rows, external flows, the insurance fund's cover).
 *
 * The futures wallet of margin asset A is the account's engine balance of A: `free` (cross wallet
 * not reserved) + `locked` (margin open orders reserve) = the cross wallet; isolated wallets sit
 * on their positions. A futures balance never goes negative: a loss the wallet cannot pay is
 * covered by the insurance fund (INSURANCE_CLEAR), as the exchange does when it liquidates late.
 */
import type { Account } from '../accounts/account.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import type { FuturesUpdateReason } from '../events.ts';
import type { IncomeType } from './futures-views.ts';
import { FuturesAccount, FuturesState, FuturesSymbolSettings, POSITION_SIDES, type FuturesPosition } from './futures-state.ts';
import { entryPriceOf, initialMargin, maintenanceMargin, positionNotional, unrealizedPnl } from './margin-math.ts';

export function futuresOf(state: EngineState): FuturesState {
  return state.futures as FuturesState;
}

/** The account's futures record, created on first use (creation order = command order). */
export function futuresAccountOf(state: EngineState, accountId: number): FuturesAccount {
  const futures = futuresOf(state);
  let fa = futures.accounts.get(accountId);
  if (fa === undefined) {
    fa = new FuturesAccount(accountId);
    futures.accounts.set(accountId, fa);
    futures.accountList.push(fa);
  }
  return fa;
}

export function settingsOf(fa: FuturesAccount, symbol: SymbolState): FuturesSymbolSettings {
  const index = symbol.spec.index;
  let settings = fa.settings[index];
  if (settings === undefined) {
    settings = new FuturesSymbolSettings(symbol.margin!.defaultLeverage);
    while (fa.settings.length < index) fa.settings.push(undefined);
    fa.settings[index] = settings;
  }
  return settings;
}

/** The account's settings on `symbol` for reading: the stored ones, or the defaults (not stored: a refused command changes nothing). */
export function peekSettings(state: EngineState, accountId: number, symbol: SymbolState): FuturesSymbolSettings {
  return state.futures?.accounts.get(accountId)?.settings[symbol.spec.index] ?? new FuturesSymbolSettings(symbol.margin!.defaultLeverage);
}

/** The mark margin maths use: the last SetMarkPrice, else the last trade, else 0 (none yet). */
export function markOf(symbol: SymbolState): number {
  const margin = symbol.margin!;
  if (margin.markPrice > 0) return margin.markPrice;
  return symbol.lastTrade?.price ?? 0;
}

export function addIncome(state: EngineState, fa: FuturesAccount, symbol: SymbolState | null, incomeType: IncomeType, income: number, asset: number, info: string, time: number, tradeId: number): void {
  if (income === 0) return;
  const futures = futuresOf(state);
  fa.income.push({ symbolIndex: symbol === null ? -1 : symbol.spec.index, incomeType, income, asset, info, time, tranId: futures.nextTranId++, tradeId });
}

function grow(list: number[], index: number): void {
  while (list.length <= index) list.push(0);
}

/** Money whose counterparty is outside the engine (realized PnL, funding), booked as a net deposit. */
export function bookExternal(state: EngineState, asset: number, amount: number, kind: 'PNL' | 'FUNDING'): void {
  const futures = futuresOf(state);
  const flows = kind === 'PNL' ? futures.realizedFlow : futures.fundingFlow;
  grow(flows, asset);
  flows[asset] = (flows[asset] as number) + amount;
  state.deposited[asset] = (state.deposited[asset] as number) + amount;
}

export function fundOf(state: EngineState, asset: number): number {
  return futuresOf(state).insuranceFund[asset] ?? 0;
}

export function moveFund(state: EngineState, asset: number, delta: number): void {
  const fund = futuresOf(state).insuranceFund;
  grow(fund, asset);
  fund[asset] = (fund[asset] as number) + delta;
}

/**
 * Takes `amount` (≥ 0) from the account's free balance of `asset`; what free cannot pay the
 * insurance fund pays (INSURANCE_CLEAR income). Returns what the account itself paid.
 */
export function debitWallet(state: EngineState, account: Account, fa: FuturesAccount, symbol: SymbolState | null, asset: number, amount: number, time: number): number {
  const free = account.freeOf(asset);
  if (free >= amount) {
    account.debitFree(asset, amount);
    return amount;
  }
  account.debitFree(asset, free);
  const shortfall = amount - free;
  moveFund(state, asset, -shortfall);
  addIncome(state, fa, symbol, 'INSURANCE_CLEAR', shortfall, asset, 'INSURANCE_CLEAR', time, -1);
  return free;
}

/** Per margin asset, what the account's positions and orders add up to at the current marks. */
export interface MarginSummary {
  crossWallet: number;
  isolatedWallets: number;
  crossUnPnl: number;
  isolatedUnPnl: number;
  crossPositionIM: number;
  isolatedPositionIM: number;
  openOrderIM: number;
  crossMM: number;
  isolatedMM: number;
}

export function summarize(state: EngineState, account: Account, asset: number): MarginSummary {
  const out: MarginSummary = {
    crossWallet: account.freeOf(asset) + account.lockedOf(asset),
    isolatedWallets: 0,
    crossUnPnl: 0,
    isolatedUnPnl: 0,
    crossPositionIM: 0,
    isolatedPositionIM: 0,
    openOrderIM: account.lockedOf(asset),
    crossMM: 0,
    isolatedMM: 0,
  };
  const futures = state.futures;
  if (futures === null) return out;
  const fa = futures.accounts.get(account.accountId);
  if (fa === undefined) return out;
  for (const index of futures.marginSymbols) {
    const symbol = state.symbolList[index]!;
    if (symbol.quoteAsset !== asset) continue;
    const settings = fa.settings[index];
    if (settings === undefined) continue;
    const mark = markOf(symbol);
    for (const position of settings.positions) {
      if (settings.isolated) out.isolatedWallets += position.isolatedWallet;
      if (position.amount === 0) continue;
      const notional = positionNotional(symbol, mark, position.amount);
      const upnl = unrealizedPnl(symbol, position, mark);
      const im = initialMargin(notional, settings.leverage);
      const mm = maintenanceMargin(symbol.margin!, notional);
      if (settings.isolated) {
        out.isolatedUnPnl += upnl;
        out.isolatedPositionIM += im;
        out.isolatedMM += mm;
      } else {
        out.crossUnPnl += upnl;
        out.crossPositionIM += im;
        out.crossMM += mm;
      }
    }
  }
  return out;
}

/** Available balance: cross wallet + cross uPnL − cross position IM − open order IM (≥ 0). */
export function availableOf(s: MarginSummary): number {
  return Math.max(0, s.crossWallet + s.crossUnPnl - s.crossPositionIM - s.openOrderIM);
}

/** Max withdraw: as available, but unrealized profit does not count (losses do). */
export function maxWithdrawOf(s: MarginSummary): number {
  return Math.max(0, Math.min(availableOf(s), s.crossWallet + Math.min(0, s.crossUnPnl) - s.crossPositionIM - s.openOrderIM));
}

/** ACCOUNT_UPDATE `P` for one position. */
export function emitPosition(
  state: EngineState,
  fa: FuturesAccount,
  symbol: SymbolState,
  sideIndex: number,
  position: FuturesPosition,
  isolated: boolean,
  realizedPnl: number,
  reason: FuturesUpdateReason,
  time: number,
  tradeId: number,
  orderId: number,
): void {
  state.emit({
    type: 'FuturesPositionChanged',
    time,
    accountId: fa.accountId,
    symbol: symbol.spec.symbol,
    positionSide: POSITION_SIDES[sideIndex]!,
    positionAmt: position.amount * symbol.spec.stepUnits,
    entryPrice: entryPriceOf(symbol, position),
    realizedPnl,
    accumulatedRealized: position.realized,
    marginType: isolated ? 'ISOLATED' : 'CROSSED',
    isolatedWallet: isolated ? position.isolatedWallet : 0,
    reason,
    tradeId,
    orderId,
  });
}

/** ACCOUNT_UPDATE `B` for one margin asset. */
export function emitWallet(state: EngineState, account: Account, asset: number, balanceChange: number, reason: FuturesUpdateReason, time: number): void {
  const crossWallet = account.freeOf(asset) + account.lockedOf(asset);
  let isolated = 0;
  const futures = state.futures;
  const fa = futures?.accounts.get(account.accountId);
  if (futures && fa) {
    for (const index of futures.marginSymbols) {
      const settings = fa.settings[index];
      if (settings === undefined || state.symbolList[index]!.quoteAsset !== asset) continue;
      for (const p of settings.positions) isolated += p.isolatedWallet;
    }
  }
  state.emit({
    type: 'FuturesWalletChanged',
    time,
    accountId: account.accountId,
    asset: state.assetNames[asset] as string,
    walletBalance: crossWallet + isolated,
    crossWalletBalance: crossWallet,
    balanceChange,
    reason,
  });
}
