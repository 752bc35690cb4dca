/**
 * The official clients' market streams, unchanged, against the server (issue 14 point 4):
 * @binance/connector's WebsocketStream (raw /ws, later streams by SUBSCRIBE on the same
 * connection) and @binance/spot's WebSocket streams (combined /stream, SUBSCRIBE with hex ids).
 * Each checks content: the trades equal REST's, the book kept from the diff stream by Binance's
 * recipe equals REST depth, klines carry the replayed bars, an order placed shows up on the user
 * data stream. The server runs over a replay whose clock the test moves.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { WebsocketStream } from '@binance/connector';
import { Spot } from '@binance/spot';
import type { InProcessClient } from '../../src/api-facade/rest/in-process-client.ts';
import { startReplayServer } from '../support/replay-server.ts';
import { T0 } from '../unit/sim/helpers.ts';

const S = 1_000_000;
const PRINTS = [
  { taker: 'BUY' as const, price: '42000', qty: '0.5', at: 1_500 },
  { taker: 'SELL' as const, price: '41990', qty: '0.2', at: 1_500 },
  { taker: 'SELL' as const, price: '41980', qty: '1', at: 3_250 },
  { taker: 'BUY' as const, price: '42010', qty: '0.3', at: 5_000 },
];
const silent = { debug() {}, info() {}, warn() {}, error() {}, log() {} };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start() {
  const { replay, server, rest, wsBase, ctx } = await startReplayServer(PRINTS);
  cleanups.push(() => server.close());
  return { replay, rest, wsURL: wsBase, ctx };
}

const settle = (ms = 40) => new Promise((r) => setTimeout(r, ms));
const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !check(); i++) await settle(4);
  expect(check()).toBe(true);
};

/** Binance's local-book recipe: buffer, snapshot, drop u <= lastUpdateId, apply in order. */
class LocalBook {
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();
  readonly buffered: { U: number; u: number; b: string[][]; a: string[][] }[] = [];
  last = -1;

  snapshot(depth: { lastUpdateId: number; bids: string[][]; asks: string[][] }): void {
    for (const [p, q] of depth.bids) this.bids.set(p!, q!);
    for (const [p, q] of depth.asks) this.asks.set(p!, q!);
    this.last = depth.lastUpdateId;
    this.drain();
  }

  onEvent(event: { U: number; u: number; b: string[][]; a: string[][] }): void {
    this.buffered.push(event);
    if (this.last >= 0) this.drain();
  }

  drain(): void {
    for (const e of this.buffered.splice(0)) {
      if (e.u <= this.last) continue;
      expect(e.U).toBeLessThanOrEqual(this.last + 1);
      for (const [side, levels] of [[this.bids, e.b], [this.asks, e.a]] as const) for (const [p, q] of levels) (Number(q) === 0 ? side.delete(p!) : side.set(p!, q!));
      this.last = e.u;
    }
  }

  /** Waits (wall time, bounded) for the stream's messages in flight, then compares with REST depth. */
  async expectEquals(rest: InProcessClient): Promise<void> {
    const depth = rest.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5000 }).json as { bids: string[][]; asks: string[][] };
    const sorted = (side: Map<string, string>, desc: boolean) => [...side].sort((a, b) => (desc ? Number(b[0]) - Number(a[0]) : Number(a[0]) - Number(b[0])));
    const same = () => JSON.stringify([sorted(this.bids, true), sorted(this.asks, false)]) === JSON.stringify([depth.bids, depth.asks]);
    for (let i = 0; i < 500 && !same(); i++) await settle(4);
    expect(sorted(this.bids, true)).toEqual(depth.bids);
    expect(sorted(this.asks, false)).toEqual(depth.asks);
  }
}

describe('@binance/connector WebsocketStream against the server', () => {
  test('trades, a kline and the diff-depth book over one raw connection (the second stream by SUBSCRIBE)', async () => {
    const { replay, rest, wsURL, ctx } = await start();
    const trades: any[] = [];
    const klines: any[] = [];
    const book = new LocalBook();
    let opened!: () => void;
    const open = new Promise<void>((r) => (opened = r));
    const client = new WebsocketStream({
      wsURL,
      logger: silent,
      callbacks: {
        open: () => opened(),
        message: (text) => {
          const m = JSON.parse(text);
          if (m.e === 'trade') trades.push(m);
          else if (m.e === 'kline') klines.push(m);
          else if (m.e === 'depthUpdate') book.onEvent(m);
        },
      },
    });
    cleanups.push(() => client.disconnect());
    client.subscribe('btcusdt@trade');
    await open;
    client.subscribe(['btcusdt@depth@100ms', 'btcusdt@kline_1s']);
    await until(() => ctx.marketFeed.streams.length === 3);
    book.snapshot(rest.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5000 }).json as any);
    rest.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.3', price: '41500' });
    await replay.runUntil(T0 + 6 * S);
    await until(() => trades.length === 4);
    const restTrades = rest.get('/api/v3/trades', { symbol: 'BTCUSDT' }).json as { id: number; price: string; qty: string }[];
    expect(trades.map((t) => [t.t, t.p, t.q])).toEqual(restTrades.map((t) => [t.id, t.price, t.qty]));
    await book.expectEquals(rest);
    // 1s klines push every second; the bar of the 1.5 s prints closes at 2 s with both of them.
    const closed = klines.filter((k) => k.k.x === true && k.k.n > 0);
    expect(closed[0].k).toMatchObject({ i: '1s', o: '42000.00000000', c: '41990.00000000', n: 2, v: '0.70000000' });
  });
});

describe('@binance/spot WebSocket streams against the server', () => {
  test('trade, diffBookDepth and userData on one combined connection', async () => {
    const { replay, rest, wsURL, ctx } = await start();
    const client = new Spot({ configurationWebsocketStreams: { wsURL } });
    const connection = await client.websocketStreams.connect();
    cleanups.push(() => connection.disconnect());
    const trades: any[] = [];
    const book = new LocalBook();
    const userEvents: any[] = [];
    connection.trade({ symbol: 'btcusdt' }).on('message', (m) => void trades.push(m));
    connection.diffBookDepth({ symbol: 'btcusdt', updateSpeed: '100ms' as never }).on('message', (m) => book.onEvent(m as any));
    const listenKey = (rest.post('/api/v3/userDataStream').json as { listenKey: string }).listenKey;
    connection.userData(listenKey).on('message', (m) => void userEvents.push(m));
    await until(() => ctx.marketFeed.streams.length === 2 && ctx.userStream.subscribers === 1);
    book.snapshot(rest.get('/api/v3/depth', { symbol: 'BTCUSDT', limit: 5000 }).json as any);
    const placed = rest.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.2', price: '42600' }).json as { orderId: number };
    await replay.runUntil(T0 + 6 * S);
    await until(() => trades.length === 4 && userEvents.length >= 2);
    expect(trades.map((t) => [t.e, t.p, t.q])).toEqual([
      ['trade', '42000.00000000', '0.50000000'],
      ['trade', '41990.00000000', '0.20000000'],
      ['trade', '41980.00000000', '1.00000000'],
      ['trade', '42010.00000000', '0.30000000'],
    ]);
    await book.expectEquals(rest);
    expect(userEvents[0]).toMatchObject({ e: 'executionReport', s: 'BTCUSDT', i: placed.orderId, X: 'NEW', p: '42600.00000000' });
  });
});
