import { describe, expect, it } from 'vitest';
import type { EngineEvent, TradeExecuted } from '../../../src/engine/index.ts';
import { Replay, SyntheticBook, touch } from '../../../src/sim/index.ts';
import { CONFIG, T0, u } from './helpers.ts';

const trades = (events: readonly EngineEvent[]) => events.filter((e): e is TradeExecuted => e.type === 'TradeExecuted');

function exchange(seed: string | number = 'pure') {
  const replay = new Replay({ engine: CONFIG, fillModel: touch(), seed, startTime: T0 });
  for (const accountId of [1, 2]) replay.apply({ type: 'CreateAccount', accountId, balances: { USDT: u('1000000'), BTC: u('1000') } });
  return replay;
}

describe('pure exchange mode (no tapes)', () => {
  it('accounts trade only with each other; time moves by runUntil and latency timers land on it', async () => {
    const replay = exchange();
    replay.apply({ type: 'PlaceOrder', accountId: 2, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: u('100'), quantity: u('1') });
    let acked: readonly EngineEvent[] = [];
    // Zero latency by default: the order lands at the next advance of the clock.
    replay.submit({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: u('0.4') }, (events) => (acked = events));
    expect(acked).toEqual([]);
    await replay.runUntil(T0 + 5_000_000);
    expect(replay.now).toBe(T0 + 5_000_000);
    expect(trades(acked)).toEqual([expect.objectContaining({ price: u('100'), quantity: u('0.4'), makerAccountId: 2, takerAccountId: 1, time: T0 })]);
    expect(replay.history('BTCUSDT').recentTrades(replay.now).map((t) => [t.price, t.qty])).toEqual([[u('100'), u('0.4')]]);
    expect(replay.stats.tapeTrades).toBe(0);
    // The resting order is another account's: the (unused) fill model still tracks it.
    expect(replay.restingOrders('BTCUSDT').asks.map((o) => o.remaining)).toEqual([u('0.6')]);
    replay.engine.checkInvariants();
  });

  it('a synthetic book quotes around a seeded random walk that moves on a timer; users trade against it', async () => {
    const replay = exchange();
    const book = await SyntheticBook.attach(replay, {
      symbols: { BTCUSDT: { levels: 5, spreadTicks: [2, 2], baseQty: u('0.5'), jitter: 0, growth: 1, walk: { startPrice: u('100'), intervalMicros: 1_000_000, sigmaTicks: 20 } } },
    });
    // Quoted at once around the start price: mid 100.00, spread 2 ticks.
    expect(replay.engine.bookTicker('BTCUSDT')).toEqual({ bidPrice: u('99.99'), bidQty: u('0.5'), askPrice: u('100.01'), askQty: u('0.5') });
    const mids: number[] = [];
    for (let s = 1; s <= 10; s++) {
      await replay.runUntil(T0 + s * 1_000_000);
      const mid = book.walkMid('BTCUSDT')!;
      mids.push(mid);
      const ticker = replay.engine.bookTicker('BTCUSDT')!;
      expect(ticker.bidPrice).toBe(mid - u('0.01'));
      expect(ticker.askPrice).toBe(mid + u('0.01'));
    }
    expect(new Set(mids).size).toBeGreaterThan(3); // it moved
    const fills = trades(replay.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: u('1.2') }));
    const ask = mids[9]! + u('0.01');
    expect(fills.map((t) => [t.price, t.quantity])).toEqual([
      [ask, u('0.5')],
      [ask + u('0.01'), u('0.5')],
      [ask + u('0.02'), u('0.2')],
    ]);
    // The start anchor and one per step, each on the journal.
    expect(replay.journal !== null && 'entries' in replay.journal ? (replay.journal as { entries: { command: { type: string } }[] }).entries.filter((e) => e.command.type === 'SetSyntheticAnchor').length : -1).toBe(11);
    replay.engine.checkInvariants();
  });

  it('is deterministic under the seed', async () => {
    const run = async (seed: string) => {
      const replay = exchange(seed);
      await SyntheticBook.attach(replay, {
        symbols: { BTCUSDT: { spreadTicks: [1, 5], baseQty: u('0.2'), walk: { startPrice: u('100'), intervalMicros: 250_000, sigmaTicks: 8 } } },
      });
      replay.scheduler.scheduleEvery(T0 + 100_000, 700_000, () => {
        replay.submit({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: u('0.5') });
      });
      await replay.runUntil(T0 + 20_000_000);
      replay.engine.checkInvariants();
      return replay.journal !== null && 'hash' in replay.journal ? (replay.journal as { hash(): string }).hash() : '';
    };
    const a = await run('x');
    expect(a).not.toBe('');
    expect(await run('x')).toBe(a);
    expect(await run('y')).not.toBe(a);
  });
});
