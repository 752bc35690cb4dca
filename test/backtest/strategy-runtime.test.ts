/**
 * The strategy runtime's timing contract on a small tape: sleeps wake at their exact simulated
 * time, before the prints stamped at that µs; a call with latency is signed when sent, handled
 * when it arrives (after the prints before then) and answered one ack latency later; onTrade
 * sees every print; the backtest stops at `to` whatever the strategy waits for.
 */
import { describe, expect, test } from 'vitest';
import { ExchangeContext } from '../../src/api-facade/context/exchange-context.ts';
import { StrategyRuntime } from '../../src/backtest/strategy-runtime.ts';
import type { StrategyContext } from '../../src/backtest/strategy.ts';
import { Replay, tradeThrough, type LatencyConfig } from '../../src/sim/index.ts';
import { SAMPLE_CONFIG, sampleAccounts } from '../../src/sample/sample-market.ts';
import { T0, tape } from '../unit/sim/helpers.ts';

const S = 1_000_000;

function setup(latency?: LatencyConfig) {
  // Prints at 1.5 s (42000) and 3 s (41000: trades through a bid at 41500).
  const prints = tape([
    { taker: 'BUY', price: '42000', qty: '0.5', at: 1_500 },
    { taker: 'SELL', price: '41000', qty: '1', at: 3_000 },
  ]);
  const replay = new Replay({ engine: SAMPLE_CONFIG, tapes: [{ symbol: 'BTCUSDT', trades: prints }], fillModel: tradeThrough(), seed: 1, startTime: T0, journal: null, ...(latency === undefined ? {} : { latency }) });
  for (const { time: _t, ...account } of sampleAccounts(T0)) replay.apply(account);
  const exchange = new ExchangeContext({ backend: replay, apiKeys: [{ apiKey: 'k', keyType: 'HMAC', secretKey: 's', accountId: 1 }] });
  const runtime = new StrategyRuntime({ replay, exchange, apiKey: 'k', symbols: ['BTCUSDT'], params: {}, from: T0, to: T0 + 10 * S, seed: '1', withLatency: latency !== undefined });
  return { replay, runtime };
}

test('sleeps wake at their simulated time, before the prints of that µs; onTrade sees each print; the run ends at `to`', async () => {
  const { runtime } = setup();
  const seen: string[] = [];
  let stopped = false;
  await runtime.drive(async (ctx: StrategyContext) => {
    ctx.onTrade((t) => seen.push(`trade ${t.price} at ${t.time - ctx.from}`));
    ctx.onStop(() => (stopped = true));
    for (;;) {
      await ctx.clock.sleep(1_000);
      const last = await ctx.client.get<{ price: string }[]>('/api/v3/trades', { symbol: 'BTCUSDT', limit: 1 });
      seen.push(`wake at ${ctx.clock.now() - ctx.from}, last ${last[0]?.price ?? 'none'}`);
    }
  });
  expect(seen.slice(0, 6)).toEqual([
    'wake at 1000, last none',
    'trade 42000.00000000 at 1500',
    'wake at 2000, last 42000.00000000',
    'wake at 3000, last 42000.00000000', // the print stamped 3000 comes after the wake-up at 3000
    'trade 41000.00000000 at 3000',
    'wake at 4000, last 41000.00000000',
  ]);
  expect(seen.filter((l) => l.startsWith('wake'))).toHaveLength(9); // 1 s .. 9 s: the one due at 10 s is past the end
  expect(stopped).toBe(true);
});

test('with latency: a bid sent at 2.999 s arrives after the print at 3 s, so it is not filled by it', async () => {
  const { runtime, replay } = setup({ entry: { kind: 'constant', micros: 2_000 }, cancel: { kind: 'constant', micros: 2_000 }, ack: { kind: 'constant', micros: 3_000 } });
  const log: string[] = [];
  await runtime.drive(async (ctx) => {
    await ctx.clock.sleepUntil(ctx.from + 2_999);
    const order = await ctx.client.post<{ transactTime: number; status: string }>('/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '41500' });
    log.push(`placed at ${order.transactTime - ctx.from} (${order.status}), answer at ${ctx.clock.now() - ctx.from}`);
  });
  expect(log).toEqual(['placed at 3001 (NEW), answer at 3004']);
  expect(replay.engine.openOrders(1, 'BTCUSDT')).toHaveLength(1); // the 3 s print came before it landed
});

describe('work started in onTrade runs at the print, not at the main task\'s next wake-up', () => {
  const LATENCY: LatencyConfig = { entry: { kind: 'constant', micros: 2_000 }, cancel: { kind: 'constant', micros: 2_000 }, ack: { kind: 'constant', micros: 3_000 } };
  type Placed = { transactTime: number; status: string; orderId: number };
  const bid = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.1', price: '41500' } as const;

  /** Runs `react` on the first print (42000 at 1.5 s); returns what the strategy saw and the bid's fill time (ms after T0). */
  async function reactToFirstPrint(how: 'call' | 'spawn' | 'after-return', latency?: LatencyConfig) {
    const { runtime, replay } = setup(latency);
    const seen: string[] = [];
    await runtime.drive(async (ctx) => {
      let reacted = false;
      const place = async () => {
        const order = await ctx.client.post<Placed>('/api/v3/order', bid);
        seen.push(`placed at ${order.transactTime - ctx.from} (${order.status}), answer at ${ctx.clock.now() - ctx.from}`);
      };
      ctx.onTrade(() => {
        if (reacted) return;
        reacted = true;
        if (how === 'spawn') ctx.spawn(place);
        else void place();
      });
      if (how !== 'after-return') await ctx.clock.sleep(60_000); // asleep past the end: only the print can wake the work
    });
    const fills = replay.engine.accountTrades(1, 'BTCUSDT');
    return { seen, fills: fills.map((f) => `${f.qty / 1e8} at ${f.price / 1e8}, ${(f.time - T0) / 1000} ms`) };
  }

  test.each(['call', 'spawn', 'after-return'] as const)('%s, no latency: placed and answered at the print (1500 ms), filled by the print at 3000 ms', async (how) => {
    const { seen, fills } = await reactToFirstPrint(how);
    expect(seen).toEqual(['placed at 1500 (NEW), answer at 1500']);
    expect(fills).toEqual(['0.1 at 41500, 3000 ms']);
  });

  test.each(['call', 'spawn', 'after-return'] as const)('%s, entry 2 ms and ack 3 ms: handled at 1502, answered at 1505', async (how) => {
    const { seen, fills } = await reactToFirstPrint(how, LATENCY);
    expect(seen).toEqual(['placed at 1502 (NEW), answer at 1505']);
    expect(fills).toEqual(['0.1 at 41500, 3000 ms']);
  });

  test('a task spawned from onTrade places its order at the print and its sleeps wake on time, though the main task has returned', async () => {
    const { runtime, replay } = setup();
    const seen: string[] = [];
    await runtime.drive(async (ctx) => {
      ctx.onTrade((t) => {
        if (t.time - ctx.from !== 3_000) return;
        ctx.spawn(async () => {
          const order = await ctx.client.post<Placed>('/api/v3/order', { ...bid, price: '40000' });
          seen.push(`bid 40000 at ${order.transactTime - ctx.from}`);
          await ctx.clock.sleep(500);
          seen.push(`woke at ${ctx.clock.now() - ctx.from}`);
        });
      });
    });
    expect(seen).toEqual(['bid 40000 at 3000', 'woke at 3500']);
    expect(replay.engine.openOrders(1, 'BTCUSDT').map((o) => o.price / 1e8)).toEqual([40000]); // no print reached 40000
  });

  test('a settle costs nothing on prints that gave the strategy no work', async () => {
    const { runtime } = setup();
    let prints = 0;
    await runtime.drive(async (ctx) => {
      ctx.onTrade(() => void prints++);
    });
    expect(prints).toBe(2);
    expect(runtime.settles).toBe(2); // the main task's start and the end (onStop), none per print
  });
});
