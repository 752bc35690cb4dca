/**
 * Market streams and user data inside a backtest (issue 14 point 3): the Binance stream names and
 * payloads, delivered on the simulated clock at exact times; a local book kept from the diff
 * stream with the documented recipe equals REST depth; the strategy's fills arrive as
 * executionReports without polling.
 */
import { expect, test } from 'vitest';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { StrategyRuntime } from '../../src/backtest/strategy-runtime.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';
import { Replay, SyntheticBook, tradeThrough } from '../../src/sim/index.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';
import { T0, tape } from '../unit/sim/helpers.ts';

const S = 1_000_000;
const MS = (us: number) => Math.floor(us / 1000);

async function setup(prints: Parameters<typeof tape>[0], seconds = 10) {
  const replay = new Replay({ engine: SAMPLE_CONFIG, tapes: [{ symbol: 'BTCUSDT', trades: tape(prints) }], fillModel: tradeThrough(), seed: 1, startTime: T0, journal: null });
  for (const { time: _t, ...account } of sampleAccounts(T0)) replay.apply(account);
  await SyntheticBook.attach(replay, { symbols: { BTCUSDT: { levels: 5, spreadTicks: [1, 3], baseQty: 100_000, jitter: 0.3 } } });
  const exchange = new ExchangeContext({ backend: replay, apiKeys: [{ apiKey: 'k', keyType: 'HMAC', secretKey: 's', accountId: 1 }] });
  const runtime = new StrategyRuntime({ replay, exchange, apiKey: 'k', symbols: ['BTCUSDT'], params: {}, from: T0, to: T0 + seconds * S, seed: '1', withLatency: false });
  return { replay, runtime };
}

const PRINTS = [
  { taker: 'BUY' as const, price: '42000', qty: '0.5', at: 1_500 },
  { taker: 'SELL' as const, price: '41990', qty: '0.2', at: 1_500 },
  { taker: 'SELL' as const, price: '41980', qty: '1', at: 3_250 },
  { taker: 'BUY' as const, price: '42010', qty: '0.3', at: 61_000 },
];

test('trade and kline messages arrive at their simulated times with Binance payloads', async () => {
  const { runtime } = await setup(PRINTS, 64);
  const seen: string[] = [];
  await runtime.drive(async (ctx: StrategyContext) => {
    ctx.stream('btcusdt@trade', (m) => {
      const t = m as Record<string, unknown>;
      seen.push(`trade ${t['t']} ${t['p']} ${t['q']} m=${t['m']} E=${Number(t['E']) - MS(T0)} at ${ctx.clock.now() - MS(T0)}`);
    });
    ctx.stream('btcusdt@kline_1m', (m) => {
      const k = (m as { E: number; k: Record<string, unknown> }).k;
      if (k['x'] === true || (m as { E: number }).E - MS(T0) === 2000) seen.push(`kline ${k['i']} o=${k['o']} c=${k['c']} v=${k['v']} n=${k['n']} x=${k['x']} at ${ctx.clock.now() - MS(T0)}`);
    });
    expect(() => ctx.stream('btcusdt@nonsense', () => {})).toThrow('not a market stream');
  });
  const trades = seen.filter((l) => l.startsWith('trade'));
  expect(trades).toEqual([
    'trade 1 42000.00000000 0.50000000 m=false E=1500 at 1500',
    'trade 2 41990.00000000 0.20000000 m=true E=1500 at 1500',
    'trade 3 41980.00000000 1.00000000 m=true E=3250 at 3250',
    'trade 4 42010.00000000 0.30000000 m=false E=61000 at 61000',
  ]);
  const klines = seen.filter((l) => l.startsWith('kline'));
  expect(klines).toEqual([
    'kline 1m o=42000.00000000 c=41990.00000000 v=0.70000000 n=2 x=false at 2000',
    // T0 is 20 s into a minute: the bar closes 40 s in, and its last push says so.
    'kline 1m o=42000.00000000 c=41980.00000000 v=1.70000000 n=3 x=true at 40000',
  ]);
});

test('a local book kept from @depth@100ms with the documented recipe equals REST depth at every moment', async () => {
  const { runtime } = await setup(PRINTS, 8);
  const checks: string[] = [];
  await runtime.drive(async (ctx: StrategyContext) => {
    const buffered: { U: number; u: number; b: [string, string][]; a: [string, string][]; E: number }[] = [];
    const book = { bids: new Map<string, string>(), asks: new Map<string, string>() };
    let lastId = -1;
    let lastU = -1;
    const apply = (e: (typeof buffered)[number]) => {
      if (e.u <= lastId) return;
      if (lastU >= 0) expect(e.U).toBe(lastU + 1); // continuity
      else expect(e.U <= lastId + 1 && lastId + 1 <= e.u).toBe(true);
      for (const [p, q] of e.b) (Number(q) === 0 ? book.bids.delete(p) : book.bids.set(p, q));
      for (const [p, q] of e.a) (Number(q) === 0 ? book.asks.delete(p) : book.asks.set(p, q));
      lastU = e.u;
    };
    ctx.stream('btcusdt@depth@100ms', (m) => {
      const e = m as (typeof buffered)[number];
      if (lastId < 0) buffered.push(e);
      else apply(e);
    });
    const rest = async () => ctx.client.get<{ lastUpdateId: number; bids: [string, string][]; asks: [string, string][] }>('/api/v3/depth', { symbol: 'BTCUSDT', limit: 1000 });
    await ctx.clock.sleep(1_200); // some events buffered
    const snapshot = await rest();
    lastId = snapshot.lastUpdateId;
    for (const [p, q] of snapshot.bids) book.bids.set(p, q);
    for (const [p, q] of snapshot.asks) book.asks.set(p, q);
    for (const e of buffered.splice(0)) apply(e);
    // The strategy moves the book itself too, between pushes.
    await ctx.client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '41000', quantity: '0.01' });
    for (const at of [1_650, 3_000, 3_310, 3_400, 6_050]) {
      await ctx.clock.sleepUntil(ctx.from + at);
      // Just after a push: the local book is the book REST showed at that push... compare with now's REST.
      const now = await rest();
      const sorted = (m: Map<string, string>, desc: boolean) => [...m].sort((x, y) => (desc ? Number(y[0]) - Number(x[0]) : Number(x[0]) - Number(y[0])));
      if (at % 100 === 0) {
        expect(sorted(book.bids, true)).toEqual(now.bids);
        expect(sorted(book.asks, false)).toEqual(now.asks);
        checks.push(`${at} ok ${now.bids.length}/${now.asks.length}`);
      }
    }
  });
  expect(checks).toEqual(['3000 ok 6/5', '3400 ok 6/5']);
});

test('the strategy’s fills arrive as executionReports on onUserData, at the print that fills them', async () => {
  const { runtime } = await setup(PRINTS, 5);
  const reports: string[] = [];
  await runtime.drive(async (ctx: StrategyContext) => {
    ctx.onUserData((event) => {
      if (event['e'] === 'executionReport') reports.push(`${event['x']} ${event['X']} ${event['l']} at ${ctx.clock.now() - ctx.from}`);
    });
    await ctx.client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '41985', quantity: '0.1' });
  });
  // Placed at 0; the SELL print at 41980 (3.25 s) trades through the bid.
  expect(reports).toEqual(['NEW NEW 0.00000000 at 0', 'TRADE FILLED 0.10000000 at 3250']);
});

test('a listen key is a stream name: ctx.stream(listenKey) gets the same events as onUserData', async () => {
  const { runtime } = await setup(PRINTS, 5);
  const viaKey: string[] = [];
  await runtime.drive(async (ctx: StrategyContext) => {
    const { listenKey } = await ctx.client.post<{ listenKey: string }>('/api/v3/userDataStream');
    ctx.stream(listenKey, (message) => {
      const event = message as Record<string, unknown>;
      viaKey.push(`${event['e']} ${event['X'] ?? ''} at ${ctx.clock.now() - ctx.from}`);
    });
    await ctx.client.post('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price: '41985', quantity: '0.1' });
    expect(() => ctx.stream('0'.repeat(64), () => {})).toThrow('nor a live listen key');
  });
  expect(viaKey).toEqual(['executionReport NEW at 0', 'outboundAccountPosition  at 0', 'executionReport FILLED at 3250', 'outboundAccountPosition  at 3250']);
});

test('the book example keeps its book from the diff stream and trades on its executionReports alone', async () => {
  const { runBacktest } = await import('../../src/backtest/run-backtest.ts');
  const { loadStrategy } = await import('../../src/backtest/load-strategy.ts');
  const from = Date.UTC(2024, 0, 1) * 1000;
  const result = await runBacktest({ strategy: await loadStrategy('book'), data: 'sample', from, to: from + 3_600_000_000 });
  expect(result.requests.refused).toBe(0);
  expect(result.fills.length).toBeGreaterThan(0);
  // Every buy it made was answered by an offer: the log pairs them.
  expect(result.log.some((line) => line.includes('bought 0.01 at'))).toBe(true);
}, 60_000);
