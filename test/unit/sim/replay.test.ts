import { describe, expect, it } from 'vitest';
import { rebuildFromJournal, type MarketTradeRecorded } from '../../../src/engine/index.ts';
import { JournalHasher, Replay, touch, tradeThrough } from '../../../src/sim/index.ts';
import { CONFIG, harness, T0, tape, u } from './helpers.ts';

const recorded = (h: ReturnType<typeof harness>) =>
  h.journal.entries.flatMap((e) => e.events).filter((e): e is MarketTradeRecorded => e.type === 'MarketTradeRecorded');

describe('Replay', () => {
  it('merges the tapes by time; at one µs the earlier tape first, then trade id order', async () => {
    const btc = tape([
      { taker: 'BUY', price: '100', qty: '1', at: 1 },
      { taker: 'BUY', price: '101', qty: '1', at: 3 },
      { taker: 'BUY', price: '102', qty: '1', at: 3 },
    ], { batchSize: 2 });
    const eth = tape([
      { taker: 'SELL', price: '10', qty: '1', at: 0 },
      { taker: 'SELL', price: '11', qty: '1', at: 3 },
      { taker: 'SELL', price: '12', qty: '1', at: 4 },
    ], { batchSize: 1 });
    const h = harness(touch(), [
      { symbol: 'ETHUSDT', trades: eth },
      { symbol: 'BTCUSDT', trades: btc },
    ]);
    await h.replay.runToEnd();
    expect(recorded(h).map((e) => `${e.symbol}:${e.price / 1e8}@${(e.time - T0) / 1000}`)).toEqual([
      'ETHUSDT:10@0',
      'BTCUSDT:100@1',
      'ETHUSDT:11@3', // ETHUSDT is the first tape: it wins the tie at 3 ms
      'BTCUSDT:101@3',
      'BTCUSDT:102@3',
      'ETHUSDT:12@4',
    ]);
    expect(h.replay.stats.tapeTrades).toBe(6);
    expect(h.replay.now).toBe(T0 + 4000);
  });

  it('streams async sources and stops runUntil at the limit (trades at the limit included), then moves the clock there', async () => {
    async function* source() {
      yield* tape([{ taker: 'BUY', price: '100', qty: '1', at: 0 }, { taker: 'BUY', price: '100', qty: '1', at: 5 }, { taker: 'BUY', price: '100', qty: '1', at: 9 }], { batchSize: 1 });
    }
    const h = harness(touch(), [{ symbol: 'BTCUSDT', trades: source() }]);
    await h.replay.runUntil(T0 + 5000);
    expect(recorded(h)).toHaveLength(2);
    await h.replay.runUntil(T0 + 7000);
    expect(h.replay.now).toBe(T0 + 7000);
    expect(recorded(h)).toHaveLength(2);
    await h.replay.runToEnd();
    expect(recorded(h)).toHaveLength(3);
    await expect(h.replay.runUntil(T0)).rejects.toThrow('must be an integer µs not before now');
  });

  it('fires timers due at a trade µs before the trade: an order placed by a timer at t is filled by a print at t, and saw only the tape before t', async () => {
    const h = harness(touch(), [
      { taker: 'SELL', price: '100', qty: '1', at: 0 },
      { taker: 'SELL', price: '99', qty: '0.4', at: 2 },
    ]);
    let seenBeforePlacing: number[] = [];
    h.replay.scheduler.schedule(T0 + 2000, () => {
      seenBeforePlacing = h.replay.history('BTCUSDT').recentTrades(h.replay.now).map((t) => t.price);
      h.limit('BUY', '99.5', '1');
    });
    await h.replay.runToEnd();
    expect(seenBeforePlacing).toEqual([u('100')]);
    expect(h.fills()).toHaveLength(1);
    expect(h.fills()[0]).toMatchObject({ quantity: u('0.4'), price: u('99.5') });
    expect(h.journal.entries.find((e) => e.command.type === 'PlaceOrder')!.command.time).toBe(T0 + 2000);
  });

  it('stamps strategy commands with now and puts trades between accounts on the same tape as the replayed ones', async () => {
    const h = harness(tradeThrough(), [{ taker: 'BUY', price: '100', qty: '1', at: 0 }]);
    await h.replay.runUntil(T0 + 10_000);
    h.limit('SELL', '101', '1', 2);
    const events = h.replay.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'IOC', price: u('101'), quantity: u('0.25') });
    expect(events.find((e) => e.type === 'TradeExecuted')).toMatchObject({ time: T0 + 10_000, tradeId: 2 });
    const tapeNow = h.replay.history('BTCUSDT').recentTrades(h.replay.now).map((t) => [t.id, t.price, t.qty]);
    expect(tapeNow).toEqual([
      [1, u('100'), u('1')],
      [2, u('101'), u('0.25')],
    ]);
    // The book mirror saw the partial fill by another account's taker.
    expect(h.replay.restingOrders('BTCUSDT').asks.map((o) => o.remaining)).toEqual([u('0.75')]);
  });

  it('journals every command with its events: rebuildFromJournal reproduces the state; JournalHasher gives the same hash', async () => {
    const prints = [
      { taker: 'SELL', price: '100', qty: '0.5' },
      { taker: 'SELL', price: '99.5', qty: '2' },
      { taker: 'BUY', price: '101', qty: '1' },
    ] as const;
    const h = harness(tradeThrough(), [...prints]);
    h.limit('BUY', '100', '1');
    h.limit('SELL', '100.5', '0.3');
    await h.replay.runToEnd();
    const rebuilt = rebuildFromJournal(CONFIG, h.journal);
    expect(rebuilt.stateHash()).toBe(h.replay.engine.stateHash());

    const hasher = new JournalHasher();
    const again = new Replay({ engine: CONFIG, tapes: [{ symbol: 'BTCUSDT', trades: tape([...prints]) }], fillModel: tradeThrough(), seed: 'test', startTime: T0 - 1_000_000, journal: hasher });
    for (const accountId of [1, 2]) again.apply({ type: 'CreateAccount', accountId, balances: { USDT: u('1000000'), BTC: u('1000'), ETH: u('1000') } });
    again.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'GTC', price: u('100'), quantity: u('1') });
    again.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: u('100.5'), quantity: u('0.3') });
    await again.runToEnd();
    expect(hasher.entries).toBe(h.journal.entries.length);
    expect(hasher.hash()).toBe(h.journal.hash());
  });

  it('refuses a tape that runs backwards, naming the symbol and trade', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '1', at: 5 },
      { taker: 'BUY', price: '100', qty: '1', at: 4 },
    ]);
    await expect(h.replay.runToEnd()).rejects.toThrow('tape of BTCUSDT: trade 1002 at');
  });

  it('rejects tapes for unknown or repeated symbols', () => {
    expect(() => new Replay({ engine: CONFIG, tapes: [{ symbol: 'XRPUSDT', trades: [] }], fillModel: touch(), seed: 1 })).toThrow('no such symbol');
    expect(() => new Replay({ engine: CONFIG, tapes: [{ symbol: 'BTCUSDT', trades: [] }, { symbol: 'BTCUSDT', trades: [] }], fillModel: touch(), seed: 1 })).toThrow('two tapes');
  });
});
