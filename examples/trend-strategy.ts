/**
 * Example 2: a trend follower. Once a minute it reads 1m klines and compares a fast and a slow
 * moving average of the closes; when the fast crosses above the slow and it is flat, it buys
 * `size` at market and arms a stop-loss `stopLoss` below and a take-profit `takeProfit` above
 * the entry price (fractions). It leaves on whichever exit triggers first, or when the fast
 * average crosses back below the slow one.
 *
 *   exsim backtest trend --param fast=5,slow=20,stopLoss=0.004,takeProfit=0.008
 *
 * Exits: the engine does not have STOP_LOSS or OCO orders yet, so `ClientSideExits` watches the
 * trade stream (ctx.onTrade) and sends a MARKET sell when the price reaches either level: the
 * exit is as late as a print plus the call's latency, like a bot-side stop. Everything else talks
 * to the `ExitOrders` interface, so the real OCO is one class, once POST /api/v3/orderList/oco
 * exists:
 *   arm():    POST /api/v3/orderList/oco { symbol, side: 'SELL', quantity,
 *               aboveType: 'LIMIT_MAKER', abovePrice: takeProfit,
 *               belowType: 'STOP_LOSS', belowStopPrice: stopLoss }
 *   disarm(): DELETE /api/v3/orderList { symbol, orderListId }
 *   onExit:   the user data stream's listStatus (or polling GET /api/v3/orderList)
 */
import type { StrategyClient, StrategyContext } from '../src/backtest/strategy.ts';

export const description = 'moving-average crossover on 1m klines with stop-loss and take-profit exits (client-side until OCO lands)';

export const params = {
  fast: '5',
  slow: '20',
  size: '0.05',
  stopLoss: '0.004',
  takeProfit: '0.008',
};

/** How a position's protective exits are placed and removed. */
export interface ExitOrders {
  /** Protects a long of `quantity` bought at `entry`; calls `onExit(reason)` once it is closed. */
  arm(entry: number, quantity: string, onExit: (reason: 'stop-loss' | 'take-profit') => void): void;
  /** Removes the exits (the position is closed another way). */
  disarm(): void;
}

/** Stop-loss and take-profit watched on the trade stream, executed as MARKET sells. */
export class ClientSideExits implements ExitOrders {
  #armed: { stop: number; target: number; quantity: string; onExit: (reason: 'stop-loss' | 'take-profit') => void } | null = null;

  constructor(
    ctx: StrategyContext,
    private readonly symbol: string,
    private readonly stopLoss: number,
    private readonly takeProfit: number,
  ) {
    ctx.onTrade((trade) => {
      const armed = this.#armed;
      if (armed === null || trade.symbol !== this.symbol) return;
      const reason = trade.priceNumber <= armed.stop ? 'stop-loss' : trade.priceNumber >= armed.target ? 'take-profit' : null;
      if (reason === null) return;
      this.#armed = null;
      ctx.spawn(async () => {
        await sellAtMarket(ctx.client, this.symbol, armed.quantity);
        ctx.log(`${reason} at ${trade.price}`);
        armed.onExit(reason);
      });
    });
  }

  arm(entry: number, quantity: string, onExit: (reason: 'stop-loss' | 'take-profit') => void): void {
    this.#armed = { stop: entry * (1 - this.stopLoss), target: entry * (1 + this.takeProfit), quantity, onExit };
  }

  disarm(): void {
    this.#armed = null;
  }
}

async function sellAtMarket(client: StrategyClient, symbol: string, quantity: string): Promise<void> {
  await client.post('/api/v3/order', { symbol, side: 'SELL', type: 'MARKET', quantity });
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

export default async function trend(ctx: StrategyContext): Promise<void> {
  const { client, clock } = ctx;
  const symbol = ctx.symbols[0]!;
  const fast = Number(ctx.params.fast);
  const slow = Number(ctx.params.slow);
  const size = ctx.params.size!;
  if (!(fast >= 1 && slow > fast)) throw new Error(`need 1 <= fast < slow, got fast=${fast} slow=${slow}`);
  const exits: ExitOrders = new ClientSideExits(ctx, symbol, Number(ctx.params.stopLoss), Number(ctx.params.takeProfit));
  const info = await client.get<{ symbols: { filters: { filterType: string; stepSize?: string }[] }[] }>('/api/v3/exchangeInfo', { symbol });
  const step = info.symbols[0]!.filters.find((f) => f.filterType === 'LOT_SIZE')!.stepSize!;
  const stepDecimals = (step.replace(/0+$/, '').split('.')[1] ?? '').length;
  let long = false;
  let held = '0';
  let wasAbove: boolean | null = null;

  for (;;) {
    // At a minute boundary plus 1s: the bar that just closed is in the klines.
    await clock.sleepUntil((Math.floor(clock.now() / 60_000) + 1) * 60_000 + 1_000);
    const klines = await client.get<unknown[][]>('/api/v3/klines', { symbol, interval: '1m', limit: slow + 1 });
    // The last kline is the one still open: decide on closed bars only.
    const closes = klines.slice(0, -1).map((k) => Number(k[4]));
    if (closes.length < slow) continue;
    const above = mean(closes.slice(-fast)) > mean(closes.slice(-slow));
    if (wasAbove !== null && above !== wasAbove) {
      if (above && !long) {
        const order = await client.post<{ status: string; executedQty: string; cummulativeQuoteQty: string }>('/api/v3/order', { symbol, side: 'BUY', type: 'MARKET', quantity: size });
        if (Number(order.executedQty) > 0) {
          const entry = Number(order.cummulativeQuoteQty) / Number(order.executedQty);
          long = true;
          // What was bought, less the commission taken in the base asset, on the lot grid.
          held = (Math.floor(Number(order.executedQty) * 0.999 * 10 ** stepDecimals) / 10 ** stepDecimals).toFixed(stepDecimals);
          ctx.log(`long ${held} at ${entry.toFixed(2)}`);
          exits.arm(entry, held, () => {
            long = false;
          });
        }
      } else if (!above && long) {
        exits.disarm();
        long = false;
        await sellAtMarket(client, symbol, held);
        ctx.log('crossed down: closed');
      }
    }
    wasAbove = above;
  }
}
