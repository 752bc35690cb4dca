/**
 * The account commands: CreateAccount (an account with its balances, commission rates,
 * permissions and trade group; ids from 1, as 0 names the synthetic book's side of a trade) and
 * AdjustBalance (a deposit or withdrawal). Both move net deposits, the baseline of conservation.
 */
import { Account, ZERO_RATES } from './accounts/account.ts';
import type { AdjustBalance, CreateAccount } from './commands.ts';
import type { EngineState } from './engine-state.ts';

/**
 * The safety proof for number arithmetic on balances: value is conserved, so no balance, lock or
 * fee total can exceed the asset's net deposits. Keeping those below 2^53 units keeps every
 * balance exact (at 8 decimals: about 90 million whole units of an asset in the whole engine).
 */
function withinSupplyBound(state: EngineState, asset: string, delta: number): boolean {
  const index = state.findAsset(asset);
  const current = index === undefined ? 0 : (state.deposited[index] as number);
  return Number.isSafeInteger(current + delta);
}

export function createAccount(state: EngineState, command: CreateAccount): void {
  const refuse = (reason: 'ACCOUNT_EXISTS' | 'INVALID_AMOUNT') => state.reject(command, reason);
  if (state.accounts.has(command.accountId)) return refuse('ACCOUNT_EXISTS');
  // 0 names the synthetic book as a maker (SYNTHETIC_MAKER): accounts are numbered from 1.
  if (!(Number.isSafeInteger(command.accountId) && command.accountId >= 1)) return refuse('INVALID_AMOUNT');
  const balances = Object.entries(command.balances ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [name, amount] of balances) {
    if (!Number.isSafeInteger(amount) || amount < 0) return refuse('INVALID_AMOUNT');
    if (!withinSupplyBound(state, name, amount)) return refuse('INVALID_AMOUNT');
  }
  for (const rates of [command.standardCommission, command.taxCommission, command.specialCommission]) {
    if (rates && Object.values(rates).some((r) => !Number.isSafeInteger(r) || r < 0)) return refuse('INVALID_AMOUNT');
  }
  const account = new Account(
    state.accounts.size,
    command.accountId,
    command.standardCommission ?? ZERO_RATES,
    command.taxCommission ?? ZERO_RATES,
    command.specialCommission ?? ZERO_RATES,
    command.discount ?? { enabled: false, asset: 'BNB', rate: 75_000_000 },
    command.permissions ?? ['SPOT'],
    command.canTrade ?? true,
    command.tradeGroupId ?? -1,
  );
  for (const [name, amount] of balances) {
    const asset = state.assetIndex(name);
    account.credit(asset, amount);
    state.deposited[asset] = (state.deposited[asset] as number) + amount;
  }
  account.updateTime = command.time;
  state.addAccount(account);
  state.emit({ type: 'AccountCreated', time: command.time, accountId: command.accountId });
}

export function adjustBalance(state: EngineState, command: AdjustBalance): void {
  const refuse = (reason: 'UNKNOWN_ACCOUNT' | 'INVALID_AMOUNT' | 'INSUFFICIENT_BALANCE') => state.reject(command, reason);
  const account = state.accounts.get(command.accountId);
  if (!account) return refuse('UNKNOWN_ACCOUNT');
  if (!Number.isSafeInteger(command.delta) || command.delta === 0) return refuse('INVALID_AMOUNT');
  if (!withinSupplyBound(state, command.asset, command.delta)) return refuse('INVALID_AMOUNT');
  const asset = state.assetIndex(command.asset);
  if (account.freeOf(asset) + command.delta < 0) return refuse('INSUFFICIENT_BALANCE');
  account.credit(asset, command.delta);
  state.deposited[asset] = (state.deposited[asset] as number) + command.delta;
  account.updateTime = command.time;
  state.emit({ type: 'BalanceAdjusted', time: command.time, accountId: command.accountId, asset: command.asset, delta: command.delta });
}
