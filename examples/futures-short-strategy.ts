/**
 * Example 4: a mean-reversion short on the USDⓈ-M perpetual. Once a minute it reads the closed 1m
 * bars of spot BTCUSDT (the index the perpetual's mark follows) and their Bollinger bands; when a
 * close stretches above the upper band and it holds nothing, it SELLs `size` of the perpetual at
 * market (opening a short); it BUYs the short back (`reduceOnly`) when a close comes back to the
 * middle band, or when the mark rises `stopLoss` above its entry. Everything goes through the REST
 * surface a bot uses against Binance: the opening transfer of USDT into the futures wallet
 * (POST /sapi/v1/asset/transfer MAIN_UMFUTURE), the leverage (POST /fapi/v1/leverage), orders
 * (POST /fapi/v1/order) and the position (GET /fapi/v3/positionRisk). The backtest feeds the mark
 * each second and funding every 8 hours; summary.json's `futures` section shows the positions,
 * the funding paid and received, liquidations and the margin used.
 *
 *   exsim backtest short --param size=0.05,leverage=5
 */
import { bollinger, type StrategyContext } from 'exsim';

export const description = 'mean-reversion short on the BTCUSDT perpetual: sell stretches above the upper Bollinger band, cover at the middle band or a stop';

export const futures = ['BTCUSDT'];

/** Cash only, so PnL is what the futures trading made (and holding is flat). */
export const balances = { USDT: '10000' };

export const params = {
  size: '0.05',
  leverage: '5',
  /** Moved from spot to the futures wallet at the start (USDT). */
  margin: '5000',
  period: '20',
  width: '2',
  stopLoss: '0.004',
};

interface PositionRow {
  readonly positionAmt: string;
  readonly entryPrice: string;
  readonly markPrice: string;
}

interface OrderAnswer {
  readonly orderId: number;
  readonly status: string;
  readonly executedQty: string;
}

export default async function short(ctx: StrategyContext): Promise<void> {
  const symbol = 'BTCUSDT';
  const p = ctx.params;
  await ctx.client.post('/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: p.margin! });
  await ctx.client.post('/fapi/v1/leverage', { symbol, leverage: Number(p.leverage) });
  const stop = Number(p.stopLoss);
  const sell = (quantity: string) => ctx.client.post<OrderAnswer>('/fapi/v1/order', { symbol, side: 'SELL', type: 'MARKET', quantity, newOrderRespType: 'RESULT' });
  const cover = (quantity: string) => ctx.client.post<OrderAnswer>('/fapi/v1/order', { symbol, side: 'BUY', type: 'MARKET', quantity, reduceOnly: 'true', newOrderRespType: 'RESULT' });
  const position = async (): Promise<PositionRow | null> => {
    const rows = await ctx.client.get<PositionRow[]>('/fapi/v3/positionRisk', { symbol });
    const row = rows.find((r) => Number(r.positionAmt) !== 0);
    return row ?? null;
  };

  ctx.clock.every(60_000, async () => {
    const closes = ctx.bars(symbol, '1m', Number(p.period)).map((bar) => bar.close);
    const bands = bollinger(closes, Number(p.period), p.width!);
    if (bands === null) return;
    const close = closes.at(-1)!;
    const held = await position();
    if (held === null) {
      if (bands.upper.lt(close)) {
        const order = await sell(p.size!);
        ctx.tag(order.orderId, 'stretch-above-band', `um:${symbol}`);
      }
      return;
    }
    const shortQty = held.positionAmt.replace('-', '');
    const entry = Number(held.entryPrice);
    if (Number(held.markPrice) >= entry * (1 + stop)) {
      const order = await cover(shortQty);
      ctx.tag(order.orderId, 'stop-loss', `um:${symbol}`);
    } else if (bands.middle.gte(close)) {
      const order = await cover(shortQty);
      ctx.tag(order.orderId, 'back-to-middle', `um:${symbol}`);
    }
  });
}
