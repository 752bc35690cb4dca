/**
 * Example 1: a grid market maker. Every `interval` seconds it cancels its quotes and places
 * `levels` bids and asks around the mid of the book, `spread` (a fraction) apart, `size` each.
 * Inventory control: past `maxInventory` base units long (short of the start), it stops adding
 * bids (asks), so the book's one-sided flow cannot run the position away.
 *
 *   exsim backtest grid --param spread=0.0005,size=0.01
 *   exsim backtest grid --sweep 'spread=0.0005,0.001;size=0.01,0.02'
 *
 * It uses only the REST surface, as a bot against the real exchange would: exchangeInfo for
 * the grid, bookTicker for the mid, account for the inventory, openOrders to cancel.
 */
import type { StrategyContext } from 'exsim';

export const description = 'grid market maker: levels of bids and asks around the mid, requoted on a timer, inventory-capped';

export const params = {
  spread: '0.001',
  size: '0.01',
  levels: '2',
  interval: '10',
  maxInventory: '0.2',
};

interface SymbolInfo {
  symbol: string;
  baseAsset: string;
  filters: { filterType: string; tickSize?: string; stepSize?: string }[];
}

const decimalsOf = (step: string): number => (step.replace(/0+$/, '').split('.')[1] ?? '').length;

export default async function grid(ctx: StrategyContext): Promise<void> {
  const { client, clock } = ctx;
  const symbol = ctx.symbols[0]!;
  const spread = Number(ctx.params.spread);
  const size = ctx.params.size!;
  const levels = Number(ctx.params.levels);
  const maxInventory = Number(ctx.params.maxInventory);
  const info = await client.get<{ symbols: SymbolInfo[] }>('/api/v3/exchangeInfo', { symbol });
  const spec = info.symbols[0]!;
  const tick = Number(spec.filters.find((f) => f.filterType === 'PRICE_FILTER')!.tickSize);
  const priceDecimals = decimalsOf(spec.filters.find((f) => f.filterType === 'PRICE_FILTER')!.tickSize!);
  const onTick = (price: number) => (Math.round(price / tick) * tick).toFixed(priceDecimals);
  const baseOf = async () => {
    const account = await client.get<{ balances: { asset: string; free: string; locked: string }[] }>('/api/v3/account', { omitZeroBalances: true });
    const b = account.balances.find((x) => x.asset === spec.baseAsset);
    return b === undefined ? 0 : Number(b.free) + Number(b.locked);
  };
  const startBase = await baseOf();
  ctx.log(`grid on ${symbol}: spread ${spread}, size ${size}, ${levels} levels, every ${ctx.params.interval}s`);

  for (;;) {
    const open = await client.get<unknown[]>('/api/v3/openOrders', { symbol });
    if (open.length > 0) await client.delete('/api/v3/openOrders', { symbol });
    const top = await client.request('GET', '/api/v3/ticker/bookTicker', { symbol });
    const book = top.json as { bidPrice?: string; askPrice?: string };
    const bid = Number(book.bidPrice ?? 0);
    const ask = Number(book.askPrice ?? 0);
    if (top.status === 200 && bid > 0 && ask > 0) {
      const mid = (bid + ask) / 2;
      const inventory = (await baseOf()) - startBase;
      for (let level = 1; level <= levels; level++) {
        const offset = spread * level;
        // Post-only quotes: a quote that would cross is refused (-2010) rather than taking.
        if (inventory < maxInventory) await client.request('POST', '/api/v3/order', { symbol, side: 'BUY', type: 'LIMIT_MAKER', quantity: size, price: onTick(mid * (1 - offset)) });
        if (inventory > -maxInventory) await client.request('POST', '/api/v3/order', { symbol, side: 'SELL', type: 'LIMIT_MAKER', quantity: size, price: onTick(mid * (1 + offset)) });
      }
    }
    await clock.sleep(Number(ctx.params.interval) * 1000);
  }
}
