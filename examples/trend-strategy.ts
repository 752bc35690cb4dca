/**
 * Example 2: a trend follower. Once a minute it reads 1m klines and compares a fast and a slow
 * moving average of the closes; when the fast crosses above the slow and it is flat, it buys
 * `size` at market and protects the position with an OCO: a take-profit LIMIT_MAKER
 * `takeProfit` above and a STOP_LOSS `stopLoss` below the entry price (fractions). It leaves on
 * whichever leg fills first (the exchange expires the other), or when the fast average crosses
 * back below the slow one (it cancels the OCO and sells at market).
 *
 *   exsim backtest trend --param fast=5,slow=20,stopLoss=0.004,takeProfit=0.008
 *   exsim backtest trend --param exits=client    # the same exits watched by the bot instead
 *
 * Exits go through `ExitOrders`: `OcoExits` places POST /api/v3/orderList/oco and watches the
 * list (GET /api/v3/orderList once a simulated second); `ClientSideExits` watches the trade
 * stream and sends a MARKET sell itself, as a bot-side stop would, one print plus the call's
 * latency late.
 *
 * It uses the research helpers: `ctx.bars` for the closed 1m bars, `sma` for the averages,
 * `ctx.symbol` to put prices and quantities on the symbol's grids, `ctx.orders` for typed market
 * orders, and `ctx.tag` so trades.csv says why each round trip opened and closed ('cross-up',
 * 'cross-down', 'stop-loss', 'take-profit').
 */
import { IndicatorDecimal, sma, type StrategyContext, type SymbolRules } from 'exsim';

export const description = 'moving-average crossover on 1m klines with stop-loss and take-profit exits (an OCO, or client-side with exits=client)';

export const params = {
  fast: '5',
  slow: '20',
  size: '0.05',
  stopLoss: '0.004',
  takeProfit: '0.008',
  exits: 'oco',
};

/** How a position's protective exits are placed and removed. */
export interface ExitOrders {
  /** Protects a long of `quantity` bought at `entry`; calls `onExit(reason)` once it is closed. */
  arm(entry: number, quantity: string, onExit: (reason: 'stop-loss' | 'take-profit') => void): void;
  /**
   * Removes the exits (the position is to be closed another way). Resolves once what they held
   * is free, with the quantity still held ('0' when an exit sold it all meanwhile).
   */
  disarm(): Promise<string>;
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
        await ctx.orders.market(this.symbol, 'SELL', armed.quantity, reason);
        ctx.log(`${reason} at ${trade.price}`);
        armed.onExit(reason);
      });
    });
  }

  arm(entry: number, quantity: string, onExit: (reason: 'stop-loss' | 'take-profit') => void): void {
    this.#armed = { stop: entry * (1 - this.stopLoss), target: entry * (1 + this.takeProfit), quantity, onExit };
  }

  disarm(): Promise<string> {
    const held = this.#armed?.quantity ?? '0'; // no longer armed: an exit is selling it already
    this.#armed = null;
    return Promise.resolve(held);
  }
}

interface OrderListReply {
  orderListId: number;
  listOrderStatus: string;
  orders: { orderId: number }[];
}

/**
 * The exchange holds the exits: one OCO (take-profit LIMIT_MAKER above, STOP_LOSS below). The
 * list is looked at once a simulated second; when it is ALL_DONE, the leg that FILLED says why.
 */
export class OcoExits implements ExitOrders {
  #list: number | null = null;
  #quantity = '0';
  #stopWatching: (() => void) | null = null;

  constructor(
    private readonly ctx: StrategyContext,
    private readonly symbol: string,
    private readonly stopLoss: number,
    private readonly takeProfit: number,
    private readonly rules: SymbolRules,
  ) {}

  arm(entry: number, quantity: string, onExit: (reason: 'stop-loss' | 'take-profit') => void): void {
    const { ctx, symbol } = this;
    ctx.spawn(async () => {
      let list: OrderListReply;
      try {
        list = await ctx.client.post<OrderListReply>('/api/v3/orderList/oco', {
          symbol,
          side: 'SELL',
          quantity,
          aboveType: 'LIMIT_MAKER',
          // On the tick grid, up for the target and down for the stop: both stay outside the entry.
          abovePrice: this.rules.roundPrice(entry * (1 + this.takeProfit), 'up'),
          belowType: 'STOP_LOSS',
          belowStopPrice: this.rules.roundPrice(entry * (1 - this.stopLoss), 'down'),
        });
      } catch (error) {
        // The market already moved past a level (the exchange refuses such an OCO): leave now.
        ctx.log(`OCO refused (${error instanceof Error ? error.message : String(error)}): selling at market`);
        await ctx.orders.market(symbol, 'SELL', quantity, 'stop-loss');
        onExit('stop-loss');
        return;
      }
      this.#list = list.orderListId;
      this.#quantity = quantity;
      const [above, below] = list.orders.map((o) => o.orderId);
      ctx.tag(above!, 'take-profit', symbol);
      ctx.tag(below!, 'stop-loss', symbol);
      this.#stopWatching = ctx.clock.every(1000, async () => {
        if (this.#list !== list.orderListId) return;
        const now = await ctx.client.get<OrderListReply>('/api/v3/orderList', { orderListId: list.orderListId });
        if (now.listOrderStatus !== 'ALL_DONE') return;
        this.#stop();
        const takeProfit = await ctx.client.get<{ status: string; price: string }>('/api/v3/order', { symbol, orderId: above! });
        const reason = takeProfit.status === 'FILLED' ? 'take-profit' : 'stop-loss';
        const leg = reason === 'take-profit' ? takeProfit : await ctx.client.get<{ price: string; cummulativeQuoteQty: string; executedQty: string }>('/api/v3/order', { symbol, orderId: below! });
        ctx.log(`${reason} at ${reason === 'take-profit' ? leg.price : this.rules.roundPrice(new IndicatorDecimal((leg as { cummulativeQuoteQty: string }).cummulativeQuoteQty).div((leg as { executedQty: string }).executedQty))}`);
        onExit(reason);
      });
    });
  }

  async disarm(): Promise<string> {
    const id = this.#list;
    const quantity = this.#quantity;
    this.#stop();
    if (id === null) return quantity;
    // Canceled before the position is sold: the list's legs lock it until then. What a leg sold
    // meanwhile (the take-profit may have filled in part) is no longer held; a list that finished
    // since the last look is refused (-2011): its exit sold everything.
    try {
      const canceled = await this.ctx.client.delete<{ orderReports: { executedQty: string }[] }>('/api/v3/orderList', { symbol: this.symbol, orderListId: id });
      const places = (quantity.split('.')[1] ?? '').length;
      const scale = 10 ** places;
      const sold = canceled.orderReports.reduce((sum, o) => sum + Math.round(Number(o.executedQty) * scale), 0);
      return ((Math.round(Number(quantity) * scale) - sold) / scale).toFixed(places);
    } catch {
      return '0';
    }
  }

  #stop(): void {
    this.#list = null;
    this.#stopWatching?.();
    this.#stopWatching = null;
  }
}

export default async function trend(ctx: StrategyContext): Promise<void> {
  const symbol = ctx.symbols[0]!;
  const fast = Number(ctx.params.fast);
  const slow = Number(ctx.params.slow);
  const size = ctx.params.size!;
  if (!(fast >= 1 && slow > fast)) throw new Error(`need 1 <= fast < slow, got fast=${fast} slow=${slow}`);
  const rules = ctx.symbol(symbol);
  const stopLoss = Number(ctx.params.stopLoss);
  const takeProfit = Number(ctx.params.takeProfit);
  const exits: ExitOrders = ctx.params.exits === 'client' ? new ClientSideExits(ctx, symbol, stopLoss, takeProfit) : new OcoExits(ctx, symbol, stopLoss, takeProfit, rules);
  let long = false;
  let wasAbove: boolean | null = null;

  for (;;) {
    // At a minute boundary plus 1s: the bar that just closed is among the closed bars.
    await ctx.clock.sleepUntil((Math.floor(ctx.clock.now() / 60_000) + 1) * 60_000 + 1_000);
    const closes = ctx.bars(symbol, '1m', slow).map((bar) => bar.close);
    const fastAverage = sma(closes, fast);
    const slowAverage = sma(closes, slow);
    if (fastAverage === null || slowAverage === null) continue;
    const above = fastAverage.gt(slowAverage);
    if (wasAbove !== null && above !== wasAbove) {
      if (above && !long) {
        const order = await ctx.orders.market(symbol, 'BUY', size, 'cross-up');
        if (order.avgPrice !== null) {
          long = true;
          // What was bought, less the commission taken in the base asset, on the lot grid.
          const held = rules.roundQty(new IndicatorDecimal(order.executedQty).mul('0.999'));
          ctx.log(`long ${held} at ${order.avgPrice}`);
          exits.arm(Number(order.avgPrice), held, () => {
            long = false;
          });
        }
      } else if (!above && long) {
        const remaining = await exits.disarm();
        long = false;
        if (Number(remaining) > 0) {
          const sold = await ctx.orders.market(symbol, 'SELL', remaining, 'cross-down');
          ctx.log(`crossed down: sold ${sold.executedQty} of ${remaining}`);
        } else ctx.log('crossed down: already closed by its exit order');
      }
    }
    wasAbove = above;
  }
}
