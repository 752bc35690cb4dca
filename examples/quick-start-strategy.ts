/**
 * The README's quick start: a moving-average crossover in a dozen lines with the research helpers
 * (closed bars, exact indicators, the symbol's grid, typed orders with a reason for trades.csv).
 *
 *   exsim backtest ./examples/quick-start-strategy.ts --out out/quick
 */
import { sma, type StrategyContext } from 'exsim';

export default async function crossover(ctx: StrategyContext): Promise<void> {
  const symbol = ctx.symbols[0]!;
  let held = '0';
  ctx.clock.every(60_000, async () => {
    const closes = ctx.bars(symbol, '1m', 30).map((bar) => bar.close); // closed 1m bars, oldest first
    const fast = sma(closes, 10);
    const slow = sma(closes, 30); // exact decimals; null until there are 30 bars
    if (fast === null || slow === null) return;
    if (fast.gt(slow) && held === '0') {
      const buy = await ctx.orders.market(symbol, 'BUY', '0.01', 'cross-up');
      held = ctx.symbol(symbol).roundQty(Number(buy.executedQty) * 0.999); // less the 0.1% commission, on the step grid
    } else if (fast.lt(slow) && held !== '0') {
      await ctx.orders.market(symbol, 'SELL', held, 'cross-down');
      held = '0';
    }
  });
}
