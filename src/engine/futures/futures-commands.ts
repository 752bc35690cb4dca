/**
 * The futures account commands: TransferFuturesWallet, SetLeverage, SetMarginType,
 * SetPositionMode and AdjustPositionMargin, each refused (one OrderRejected, nothing changed)
 * with the §8 reasons. Mark price, funding and liquidation live in futures-mark.ts.
 */
import type { Account } from '../accounts/account.ts';
import type { AdjustPositionMargin, SetFuturesCommissionRates, SetLeverage, SetMarginType, SetPositionMode, TransferFuturesWallet } from '../commands.ts';
import type { EngineState, SymbolState } from '../engine-state.ts';
import { pow10 } from '../units.ts';
import { addIncome, availableOf, emitPosition, emitWallet, futuresAccountOf, markOf, maxWithdrawOf, peekSettings, settingsOf, summarize } from './futures-account.ts';
import { FUTURES_MARGIN_ASSETS, futuresWalletAsset } from './futures-names.ts';
import { SIDE_BOTH, SIDE_LONG, SIDE_SHORT } from './futures-state.ts';
import { initialMargin, maxLeverage, maxNotionalAt, positionNotional, unrealizedPnl } from './margin-math.ts';

/** The margin symbol and account a per-symbol futures command names, or the reason there is none. */
function marginTarget(state: EngineState, command: { accountId: number; symbol: string }): { symbol: SymbolState; account: Account } | 'UNKNOWN_ACCOUNT' | 'FUTURES_NOT_A_MARGIN_SYMBOL' {
  const symbol = state.symbol(command.symbol);
  if (symbol === undefined || symbol.margin === null) return 'FUTURES_NOT_A_MARGIN_SYMBOL';
  const account = state.account(command.accountId);
  if (account === undefined) return 'UNKNOWN_ACCOUNT';
  return { symbol, account };
}

/**
 * Spot asset ↔ futures wallet inside one account. Both legs are booked as net deposits of their
 * asset (out of one, into the other), so each asset stays conserved on its own.
 */
export function transferFuturesWallet(state: EngineState, command: TransferFuturesWallet): void {
  const account = state.account(command.accountId);
  if (account === undefined) return state.reject(command, 'UNKNOWN_ACCOUNT');
  if (state.futures === null || !FUTURES_MARGIN_ASSETS.includes(command.asset)) return state.reject(command, 'FUTURES_ASSET_NOT_SUPPORTED');
  const amount = command.amount;
  if (!(Number.isSafeInteger(amount) && amount > 0)) return state.reject(command, 'INVALID_AMOUNT');
  const spot = state.findAsset(command.asset);
  if (spot === undefined) return state.reject(command, 'FUTURES_BALANCE_INSUFFICIENT');
  const toFutures = command.direction === 'TO_FUTURES';
  const walletName = futuresWalletAsset(command.asset);
  const known = state.findAsset(walletName);
  // Amounts come in the spot asset's units; the wallet asset may be configured with another precision.
  const sp = state.assetPrecision[spot] as number;
  const wp = known === undefined ? state.precisionOf(walletName) : (state.assetPrecision[known] as number);
  let walletAmount = amount;
  if (wp > sp) walletAmount = amount * pow10(wp - sp);
  else if (sp > wp) {
    const unit = pow10(sp - wp);
    if (amount % unit !== 0) return state.reject(command, 'INVALID_AMOUNT');
    walletAmount = amount / unit;
  }
  if (!Number.isSafeInteger(walletAmount)) return state.reject(command, 'INVALID_AMOUNT');
  if (toFutures ? account.freeOf(spot) < amount : known === undefined || Math.min(maxWithdrawOf(summarize(state, account, known)), account.freeOf(known)) < walletAmount) {
    return state.reject(command, 'FUTURES_BALANCE_INSUFFICIENT');
  }
  // A margin asset no symbol names yet (um:BNB) is registered by its first deposit.
  const wallet = known ?? state.assetIndex(walletName);
  const fa = futuresAccountOf(state, account.accountId);
  if (toFutures) {
    account.debitFree(spot, amount);
    account.credit(wallet, walletAmount);
  } else {
    account.debitFree(wallet, walletAmount);
    account.credit(spot, amount);
  }
  const sign = toFutures ? 1 : -1;
  state.deposited[spot] = (state.deposited[spot] as number) - sign * amount;
  state.deposited[wallet] = (state.deposited[wallet] as number) + sign * walletAmount;
  account.updateTime = command.time;
  addIncome(state, fa, null, 'TRANSFER', sign * walletAmount, wallet, toFutures ? 'MAIN_UMFUTURE' : 'UMFUTURE_MAIN', command.time, -1);
  state.emit({ type: 'BalanceAdjusted', time: command.time, accountId: account.accountId, asset: command.asset, delta: -sign * amount });
  emitWallet(state, account, wallet, sign * walletAmount, toFutures ? 'DEPOSIT' : 'WITHDRAW', command.time);
}

export function setFuturesCommissionRates(state: EngineState, command: SetFuturesCommissionRates): void {
  const account = state.account(command.accountId);
  if (account === undefined) return state.reject(command, 'UNKNOWN_ACCOUNT');
  if (state.futures === null) return state.reject(command, 'FUTURES_NOT_A_MARGIN_SYMBOL');
  const valid = (r: number) => Number.isSafeInteger(r) && r >= -1 && r < 100_000_000;
  if (!valid(command.makerRate) || !valid(command.takerRate)) return state.reject(command, 'INVALID_AMOUNT');
  const fa = futuresAccountOf(state, account.accountId);
  fa.makerRate = command.makerRate;
  fa.takerRate = command.takerRate;
}

export function setLeverage(state: EngineState, command: SetLeverage): void {
  const target = marginTarget(state, command);
  if (typeof target === 'string') return state.reject(command, target);
  const { symbol, account } = target;
  const margin = symbol.margin!;
  const leverage = command.leverage;
  if (!(Number.isSafeInteger(leverage) && leverage >= 1 && leverage <= maxLeverage(margin))) return state.reject(command, 'FUTURES_INVALID_LEVERAGE');
  const settings = peekSettings(state, account.accountId, symbol);
  const mark = markOf(symbol);
  let extraIM = 0;
  for (const position of settings.positions) {
    if (position.amount === 0) continue;
    if (settings.isolated && leverage < settings.leverage) return state.reject(command, 'FUTURES_LEVERAGE_REDUCTION_ISOLATED');
    const notional = positionNotional(symbol, mark, position.amount);
    if (notional > maxNotionalAt(margin, leverage)) return state.reject(command, 'FUTURES_MAX_POSITION_AT_LEVERAGE');
    extraIM += initialMargin(notional, leverage) - initialMargin(notional, settings.leverage);
  }
  // Cross: the margin the new leverage asks for must be available.
  if (!settings.isolated && extraIM > 0 && extraIM > availableOf(summarize(state, account, symbol.quoteAsset))) return state.reject(command, 'FUTURES_LEVERAGE_TOO_SMALL');
  settingsOf(futuresAccountOf(state, account.accountId), symbol).leverage = leverage;
  state.emit({ type: 'FuturesConfigChanged', time: command.time, accountId: account.accountId, symbol: symbol.spec.symbol, leverage });
}

export function setMarginType(state: EngineState, command: SetMarginType): void {
  const target = marginTarget(state, command);
  if (typeof target === 'string') return state.reject(command, target);
  const { symbol, account } = target;
  const settings = peekSettings(state, account.accountId, symbol);
  const isolated = command.marginType === 'ISOLATED';
  if (settings.isolated === isolated) return state.reject(command, 'FUTURES_NO_NEED_TO_CHANGE_MARGIN_TYPE');
  if (symbol.openCountOf(account) > 0) return state.reject(command, 'FUTURES_MARGIN_TYPE_OPEN_ORDERS');
  if (settings.positions.some((p) => p.amount !== 0)) return state.reject(command, 'FUTURES_MARGIN_TYPE_POSITION');
  settingsOf(futuresAccountOf(state, account.accountId), symbol).isolated = isolated;
  state.emit({ type: 'FuturesConfigChanged', time: command.time, accountId: account.accountId, symbol: symbol.spec.symbol, marginType: command.marginType });
}

export function setPositionMode(state: EngineState, command: SetPositionMode): void {
  const account = state.account(command.accountId);
  if (account === undefined) return state.reject(command, 'UNKNOWN_ACCOUNT');
  const futures = state.futures;
  if (futures === null) return state.reject(command, 'FUTURES_NOT_A_MARGIN_SYMBOL');
  const hedge = command.mode === 'HEDGE';
  const current = futures.accounts.get(account.accountId);
  if ((current?.hedge ?? false) === hedge) return state.reject(command, 'FUTURES_NO_NEED_TO_CHANGE_POSITION_SIDE');
  for (const index of futures.marginSymbols) {
    if (state.symbolList[index]!.openCountOf(account) > 0) return state.reject(command, 'FUTURES_POSITION_SIDE_OPEN_ORDERS');
  }
  for (const settings of current?.settings ?? []) {
    if (settings !== undefined && settings.positions.some((p) => p.amount !== 0)) return state.reject(command, 'FUTURES_POSITION_SIDE_POSITION');
  }
  futuresAccountOf(state, account.accountId).hedge = hedge;
  state.emit({ type: 'FuturesConfigChanged', time: command.time, accountId: account.accountId, symbol: null, positionMode: command.mode });
}

export function adjustPositionMargin(state: EngineState, command: AdjustPositionMargin): void {
  const target = marginTarget(state, command);
  if (typeof target === 'string') return state.reject(command, target);
  const { symbol, account } = target;
  const settings = peekSettings(state, account.accountId, symbol);
  const hedge = state.futures!.accounts.get(account.accountId)?.hedge ?? false;
  const amount = command.amount;
  if (!(Number.isSafeInteger(amount) && amount > 0)) return state.reject(command, 'INVALID_AMOUNT');
  const side = command.positionSide === 'LONG' ? SIDE_LONG : command.positionSide === 'SHORT' ? SIDE_SHORT : SIDE_BOTH;
  if (hedge ? side === SIDE_BOTH : side !== SIDE_BOTH) return state.reject(command, 'FUTURES_INVALID_POSITION_SIDE');
  if (!settings.isolated) return state.reject(command, 'FUTURES_ADD_MARGIN_ONLY_ISOLATED');
  const position = settings.positions[side]!;
  if (position.amount === 0) return state.reject(command, 'FUTURES_NO_POSITION');
  // A position exists, so its settings are stored ones.
  const fa = futuresAccountOf(state, account.accountId);
  const asset = symbol.quoteAsset;
  if (command.direction === 'ADD') {
    if (Math.min(account.freeOf(asset), availableOf(summarize(state, account, asset))) < amount) return state.reject(command, 'FUTURES_MARGIN_INSUFFICIENT');
    account.debitFree(asset, amount);
    position.isolatedWallet += amount;
  } else {
    // What may leave: the isolated margin beyond the position's initial margin at mark (losses count).
    const mark = markOf(symbol);
    const im = initialMargin(positionNotional(symbol, mark, position.amount), settings.leverage);
    const removable = Math.min(position.isolatedWallet, position.isolatedWallet + Math.min(0, unrealizedPnl(symbol, position, mark)) - im);
    if (removable < amount) return state.reject(command, 'FUTURES_ISOLATED_BALANCE_INSUFFICIENT');
    position.isolatedWallet -= amount;
    account.credit(asset, amount);
  }
  position.updateTime = command.time;
  account.updateTime = command.time;
  emitWallet(state, account, asset, 0, 'MARGIN_TRANSFER', command.time);
  emitPosition(state, fa, symbol, side, position, true, 0, 'MARGIN_TRANSFER', command.time, -1, -1);
}
