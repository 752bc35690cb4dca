/**
 * The market the regression tests of this folder start from: account 9 makes the market, 1 and 2
 * trade, and one trade has set the last price to 100 (BTCUSDT of the unit-test helpers).
 */
import { Sim } from '../helpers.ts';

export function marketAt100(): Sim {
  const sim = new Sim();
  sim.createAccount(9, { USDT: '1000000', BTC: '1000' });
  sim.createAccount(1, { USDT: '100000', BTC: '100' });
  sim.createAccount(2, { USDT: '100000', BTC: '100' });
  sim.sell(9, '1', '100');
  sim.marketBuy(2, '1'); // last price 100
  return sim;
}
