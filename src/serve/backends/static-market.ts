/**
 * The static sample market (`exsim serve` without `--data`): the served accounts, and a market
 * maker quoting a small ladder on each symbol after one print each, so MARKET orders have an
 * average price to be checked against.
 */
import type { EngineCommand } from '../../engine/index.ts';
import { MARKET_MAKER_ACCOUNT_ID, sampleAccounts } from '../../sample/index.ts';
import type { ServedAccounts } from '../accounts-file.ts';

/**
 * The static market's setup commands. With an accounts file the maker is added as the sample's
 * market maker (funded likewise) under the sample's id, or the first id above the file's when
 * the file uses that one.
 */
export function staticMarket(served: ServedAccounts, fromFile: boolean, time: number): EngineCommand[] {
  if (!fromFile) return [...served.commands, ...openingBook(time, MARKET_MAKER_ACCOUNT_ID)];
  const ids = served.commands.map((c) => c.accountId);
  const makerId = ids.includes(MARKET_MAKER_ACCOUNT_ID) ? Math.max(...ids) + 1 : MARKET_MAKER_ACCOUNT_ID;
  const maker = sampleAccounts(time).find((a) => a.accountId === MARKET_MAKER_ACCOUNT_ID)!;
  return [...served.commands, { ...maker, accountId: makerId }, ...openingBook(time, makerId)];
}

/** The market maker's opening ladder: one print and 5 levels a side per symbol. */
function openingBook(time: number, makerId: number): EngineCommand[] {
  const commands: EngineCommand[] = [];
  const ladders = [
    { symbol: 'BTCUSDT', mid: 4_200_000_000_000, tick: 1_000_000, qty: 10_000_000 }, // 42,000.00, 0.1 BTC
    { symbol: 'ETHBTC', mid: 5_500_000, tick: 1_000, qty: 100_000_000 }, // 0.05500, 1 ETH
  ];
  for (const { symbol, mid, tick, qty } of ladders) {
    commands.push({ type: 'RecordMarketTrade', time, symbol, price: mid, quantity: qty, isBuyerMaker: false });
    for (let level = 1; level <= 5; level++) {
      for (const side of ['BUY', 'SELL'] as const) {
        const price = side === 'BUY' ? mid - level * 5 * tick : mid + level * 5 * tick;
        commands.push({ type: 'PlaceOrder', time, accountId: makerId, symbol, side, orderType: 'LIMIT', timeInForce: 'GTC', price, quantity: qty });
      }
    }
  }
  return commands;
}
