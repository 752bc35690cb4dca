/**
 * ccxt's pro Binance class, unchanged, on the market streams (issue 14 point 4), with its URLs
 * pointed at the server as users do for a testnet (REST bases, `urls.api.ws.spot` and
 * `urls.api.ws['ws-api'].spot`) and
 * `loadHttpProxyAgent()` for plain ws://. ccxt opens /ws/<connection number> and SUBSCRIBEs.
 * Content is checked against REST: trades, the order book it keeps (REST snapshot + diff stream),
 * candles and the ticker's last price; its private streams (watchOrders, watchBalance) come
 * through the WebSocket API's userDataStream.subscribe.signature. The server runs over a replay
 * whose clock the test moves.
 */
import { afterEach, expect, test } from 'vitest';
import ccxt from 'ccxt';
import { startReplayServer } from '../support/replay-server.ts';
import { T0 } from '../unit/sim/helpers.ts';

const S = 1_000_000;
const PRINTS = [
  { taker: 'BUY' as const, price: '42000', qty: '0.5', at: 1_500 },
  { taker: 'SELL' as const, price: '41990', qty: '0.2', at: 1_500 },
  { taker: 'SELL' as const, price: '41980', qty: '1', at: 3_250 },
  { taker: 'BUY' as const, price: '42010', qty: '0.3', at: 5_000 },
  { taker: 'BUY' as const, price: '42020', qty: '0.1', at: 7_000 },
];

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start() {
  const { replay, server, base, rest, ctx } = await startReplayServer(PRINTS);
  cleanups.push(() => server.close());
  const exchange = new ccxt.pro.binance({ options: { defaultType: 'spot', fetchMarkets: { types: ['spot'] }, fetchCurrencies: false } });
  const api = exchange.urls['api'] as Record<string, unknown>;
  for (const [key, value] of Object.entries(api)) if (typeof value === 'string') api[key] = value.replace('https://api.binance.com', base);
  const ws = api['ws'] as Record<string, unknown>;
  api['ws'] = { ...ws, spot: `${base.replace('http:', 'ws:')}/ws`, 'ws-api': { ...(ws['ws-api'] as object), spot: `${base.replace('http:', 'ws:')}/ws-api/v3` } };
  await exchange.loadHttpProxyAgent();
  cleanups.push(() => exchange.close());
  await exchange.loadMarkets();
  return { replay, rest, exchange, ctx };
}

const settle = () => new Promise((r) => setTimeout(r, 50));
/** Waits (wall time, bounded) for the server to see what ccxt subscribed: messages sent before that would be missed. */
const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
};

test('watchTrades, watchOrderBook, watchOHLCV and watchTicker agree with REST', async () => {
  const { replay, rest, exchange, ctx } = await start();
  const trades = exchange.watchTrades('BTC/USDT');
  const book = exchange.watchOrderBook('BTC/USDT');
  const candles = exchange.watchOHLCV('BTC/USDT', '1s');
  const ticker = exchange.watchTicker('BTC/USDT');
  await until(() => ctx.marketFeed.streams.length === 4);
  await settle();
  await replay.runUntil(T0 + 2 * S);
  expect((await trades).map((t) => [t.id, t.price, t.amount, t.side])).toEqual([
    ['1', 42000, 0.5, 'buy'],
    ['2', 41990, 0.2, 'sell'],
  ]);
  await book;
  const ohlcv = await candles;
  // The 1 s bar of the two prints, final once the 2 s boundary passed; the bar at 2 s is empty.
  const second = Math.floor(T0 / S) * 1000 + 1000;
  expect(ohlcv.find((c) => c[0] === second)!.slice(1)).toEqual([42000, 42000, 41990, 41990, 0.7]);
  expect(ohlcv.at(-1)).toEqual([second + 1000, 41990, 41990, 41990, 41990, 0]);
  // The first push (1 s) came before any print: a ticker of zeros.
  expect((await ticker).info).toMatchObject({ e: '24hrMiniTicker', c: '0.00000000' });
  const nextTicker = exchange.watchTicker('BTC/USDT');

  // Later prints and the account's own orders move the book; ccxt's copy follows it exactly.
  rest.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.3', price: '41500' });
  await replay.runUntil(T0 + 8 * S);
  await settle();
  // The next push after the call, at 3 s: the last price then (the 3.25 s print comes later).
  expect((await nextTicker).last).toBe(41990);
  const kept = exchange.orderbooks['BTC/USDT']!;
  const depth = rest.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5000 }).json as { lastUpdateId: number; bids: string[][]; asks: string[][] };
  expect(kept['nonce']).toBe(depth.lastUpdateId);
  expect(kept['bids'].map(([p, q]: number[]) => [p, q])).toEqual(depth.bids.map(([p, q]) => [Number(p), Number(q)]));
  expect(kept['asks'].map(([p, q]: number[]) => [p, q])).toEqual(depth.asks.map(([p, q]) => [Number(p), Number(q)]));
  const restTrades = rest.get('/api/v3/trades', { symbol: 'BTCUSDT' }).json as { id: number }[];
  expect((exchange.trades['BTC/USDT'] as unknown as { id: string }[]).map((t) => Number(t.id))).toEqual(restTrades.map((t) => t.id));
});

test('watchOrders and watchBalance over the WebSocket API (userDataStream.subscribe.signature) follow the account', async () => {
  const { replay, rest, exchange, ctx } = await start();
  exchange.apiKey = 'k';
  exchange.secret = 's';
  // Simulated time stands at the replay's clock: ccxt learns the offset as users do for a testnet.
  exchange.options['adjustForTimeDifference'] = true;
  await exchange.loadTimeDifference();
  const orders = exchange.watchOrders('BTC/USDT');
  const balance = exchange.watchBalance();
  await until(() => ctx.userStream.subscribers > 0);
  await settle();
  const placed = rest.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '41985' }).json as { orderId: number };
  const [order] = await orders;
  expect(order).toMatchObject({ id: String(placed.orderId), symbol: 'BTC/USDT', side: 'buy', price: 41985, amount: 0.1, status: 'open' });
  const account = rest.get('/api/v3/account').json as { balances: { asset: string; free: string; locked: string }[] };
  const usdt = account.balances.find((b) => b.asset === 'USDT')!;
  expect((await balance)['USDT']).toMatchObject({ free: Number(usdt.free), used: Number(usdt.locked) });
  // The SELL print at 41980 (3.25 s) trades through the bid: ccxt sees it filled.
  const filled = exchange.watchOrders('BTC/USDT');
  await replay.runUntil(T0 + 4 * S);
  expect((await filled).at(-1)).toMatchObject({ id: String(placed.orderId), status: 'closed', filled: 0.1 });
});
