import { describe, expect, it } from 'vitest';
import { SYNTHETIC_MAKER, type EngineEvent, type TradeExecuted } from '../../../src/engine/index.ts';
import { SyntheticBook, touch, type SyntheticBookOptions } from '../../../src/sim/index.ts';
import { harness, T0, u, type Print } from './helpers.ts';

/** Hand-checkable: no jitter, 1-tick spread, levels 0.10 apart, sizes 0.1, 0.2, 0.4, 0.8, 1.6. */
const PLAIN: SyntheticBookOptions = {
  symbols: { BTCUSDT: { levels: 5, spreadTicks: [1, 1], gapTicks: 10, baseQty: u('0.1'), growth: 2, jitter: 0 } },
};

const trades = (events: readonly EngineEvent[]) => events.filter((e): e is TradeExecuted => e.type === 'TradeExecuted');
const marketBuy = (qty: string) => ({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: u(qty) }) as const;
const marketSell = (qty: string) => ({ ...marketBuy(qty), side: 'SELL' }) as const;

describe('SyntheticBook', () => {
  it('a large MARKET BUY walks several levels: worse than the first level, average price as computed by hand; taken liquidity stays taken until the next print', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '0.01', at: 0 },
      { taker: 'SELL', price: '101', qty: '0.01', at: 5 },
    ]);
    await SyntheticBook.attach(h.replay, PLAIN);
    await h.replay.runUntil(T0 + 1000);
    // A BUY taker printed 100.00: the ask was there. Best ask 100.00, best bid one tick below.
    expect(h.replay.engine.bookTicker('BTCUSDT')).toEqual({ bidPrice: u('99.99'), bidQty: u('0.1'), askPrice: u('100'), askQty: u('0.1') });
    expect(h.replay.engine.depth('BTCUSDT', 10).asks).toEqual([
      [u('100'), u('0.1')],
      [u('100.1'), u('0.2')],
      [u('100.2'), u('0.4')],
      [u('100.3'), u('0.8')],
      [u('100.4'), u('1.6')],
    ]);

    const fills = trades(h.replay.apply(marketBuy('1')));
    expect(fills.map((t) => [t.price, t.quantity, t.makerAccountId, t.makerOrderId, t.time])).toEqual([
      [u('100'), u('0.1'), SYNTHETIC_MAKER, SYNTHETIC_MAKER, T0 + 1000],
      [u('100.1'), u('0.2'), SYNTHETIC_MAKER, SYNTHETIC_MAKER, T0 + 1000],
      [u('100.2'), u('0.4'), SYNTHETIC_MAKER, SYNTHETIC_MAKER, T0 + 1000],
      [u('100.3'), u('0.3'), SYNTHETIC_MAKER, SYNTHETIC_MAKER, T0 + 1000],
    ]);
    // 0.1×100.00 + 0.2×100.10 + 0.4×100.20 + 0.3×100.30 = 10 + 20.02 + 40.08 + 30.09 = 100.19 for 1 BTC.
    expect(fills.reduce((a, t) => a + t.quoteQuantity, 0)).toBe(u('100.19'));
    expect(fills.map((t) => t.makerStatus)).toEqual(['FILLED', 'FILLED', 'FILLED', 'PARTIALLY_FILLED']);
    // Taken stays taken: the next buy starts at 100.30 with what is left there.
    expect(h.replay.engine.bookTicker('BTCUSDT')).toMatchObject({ askPrice: u('100.3'), askQty: u('0.5') });
    expect(trades(h.replay.apply(marketBuy('0.6'))).map((t) => [t.price, t.quantity])).toEqual([
      [u('100.3'), u('0.5')],
      [u('100.4'), u('0.1')],
    ]);
    // The user's trades are on the tape, after the replayed print.
    expect(h.replay.history('BTCUSDT').recentTrades(h.replay.now).map((t) => t.price)).toEqual([u('100'), u('100'), u('100.1'), u('100.2'), u('100.3'), u('100.3'), u('100.4')]);

    await h.replay.runToEnd();
    // A SELL taker printed 101.00: the bid was there; the book is drawn anew around it, in full again.
    expect(h.replay.engine.bookTicker('BTCUSDT')).toEqual({ bidPrice: u('101'), bidQty: u('0.1'), askPrice: u('101.01'), askQty: u('0.1') });
    expect(h.replay.engine.depth('BTCUSDT', 10).bids.map(([p]) => p)).toEqual([u('101'), u('100.9'), u('100.8'), u('100.7'), u('100.6')]);
    h.replay.engine.checkInvariants();
  });

  it('settles with the market as an external flow: the taker pays its fee, every asset stays conserved', async () => {
    const h = harness(touch(), [{ taker: 'BUY', price: '100', qty: '0.01', at: 0 }]);
    await SyntheticBook.attach(h.replay, PLAIN);
    await h.replay.runUntil(T0);
    const before = h.replay.engine.account(1)!.balances;
    const depositedBefore = h.replay.engine.totalDeposited();
    h.replay.apply(marketBuy('0.3')); // 0.1@100.00 + 0.2@100.10 = 30.02 USDT; the test accounts pay no fee
    const after = h.replay.engine.account(1)!.balances;
    const free = (balances: typeof before, asset: string) => balances.find((b) => b.asset === asset)!.free;
    expect(free(after, 'BTC') - free(before, 'BTC')).toBe(u('0.3'));
    expect(free(before, 'USDT') - free(after, 'USDT')).toBe(u('30.02'));
    // The market sold 0.3 BTC into the exchange and took 30.02 USDT out of it.
    const deposited = h.replay.engine.totalDeposited();
    expect(deposited['BTC']! - depositedBefore['BTC']!).toBe(u('0.3'));
    expect(depositedBefore['USDT']! - deposited['USDT']!).toBe(u('30.02'));
    h.replay.engine.checkInvariants();
  });

  it('is two-sided from the first instant: anchored at the tape’s first print before it is replayed', async () => {
    // The first print is 4 s into the window; the replay starts 1 s before T0.
    const h = harness(touch(), [{ taker: 'SELL', price: '100', qty: '0.01', at: 4000 }]);
    await SyntheticBook.attach(h.replay, PLAIN);
    expect(h.replay.now).toBe(T0 - 1_000_000);
    // A mid at 100.00 with a 1-tick spread: best bid 100.00 (mid − ⌊1/2⌋ ticks), best ask 100.01.
    expect(h.replay.engine.bookTicker('BTCUSDT')).toEqual({ bidPrice: u('100'), bidQty: u('0.1'), askPrice: u('100.01'), askQty: u('0.1') });
    const fills = trades(h.replay.apply(marketSell('0.15')));
    expect(fills.map((t) => [t.price, t.quantity, t.time])).toEqual([
      [u('100'), u('0.1'), T0 - 1_000_000],
      [u('99.9'), u('0.05'), T0 - 1_000_000],
    ]);
  });

  it('historical prints never trade with it; users’ resting orders still fill by the fill model', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '0.01', at: 0 },
      { taker: 'SELL', price: '99.5', qty: '3', at: 1 },
    ]);
    await SyntheticBook.attach(h.replay, PLAIN);
    await h.replay.runUntil(T0);
    const orderId = h.limit('BUY', '99.6', '0.2');
    expect(h.replay.restingOrders('BTCUSDT').bids.map((o) => o.orderId)).toEqual([orderId]);
    const depositedBefore = h.replay.engine.totalDeposited()['BTC'];
    await h.replay.runToEnd();
    // The 3 BTC print went through the synthetic bids and took none of them; the user's 0.2 filled.
    expect(h.fills()).toEqual([expect.objectContaining({ orderId, quantity: u('0.2') })]);
    expect(h.journal.entries.flatMap((e) => e.events).filter((e) => e.type === 'TradeExecuted')).toEqual([]);
    // Only the user's fill moved money in or out of the exchange: the market sold it 0.2 BTC.
    expect(h.replay.engine.totalDeposited()['BTC']! - depositedBefore!).toBe(u('0.2'));
  });

  it('does not show levels that would cross users’ resting orders; users’ orders come first at one price', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '0.01', at: 0 },
      { taker: 'SELL', price: '100.3', qty: '0.01', at: 1 },
    ]);
    await SyntheticBook.attach(h.replay, PLAIN);
    await h.replay.runUntil(T0);
    const ask = h.limit('SELL', '100.15', '0.5');
    await h.replay.runToEnd();
    // The SELL print at 100.30 anchors the best bid there: 100.30 and 100.20 would cross the user's
    // ask at 100.15 and are not shown.
    const depth = h.replay.engine.depth('BTCUSDT', 10);
    expect(depth.bids.map(([p]) => p)).toEqual([u('100.1'), u('100'), u('99.9')]);
    expect(depth.asks[0]).toEqual([u('100.15'), u('0.5')]);
    expect(depth.asks[1]).toEqual([u('100.31'), u('0.1')]);
    expect(h.replay.engine.accountTrades(1, 'BTCUSDT')).toEqual([]);
    h.replay.engine.checkInvariants();
    h.replay.apply({ type: 'CancelOrder', accountId: 1, symbol: 'BTCUSDT', orderId: ask });
    // Account 2 rests 0.05 at the synthetic best ask: a buyer meets it first, then the book's 0.1.
    const second = h.limit('SELL', '100.31', '0.05', 2);
    expect(h.replay.engine.depth('BTCUSDT', 1).asks).toEqual([[u('100.31'), u('0.15')]]);
    const fills = trades(h.replay.apply(marketBuy('0.12')));
    expect(fills.map((t) => [t.price, t.quantity, t.makerOrderId])).toEqual([
      [u('100.31'), u('0.05'), second],
      [u('100.31'), u('0.07'), SYNTHETIC_MAKER],
    ]);
    h.replay.engine.checkInvariants();
  });

  it('draws a new book only when the anchor moves or after a take; prints add no commands to the journal', async () => {
    const prints: Print[] = [0, 1, 2, 3, 4, 5].map((at) => ({ taker: 'BUY', price: at < 3 ? '100' : '100.5', qty: '0.01', at }));
    const h = harness(touch(), prints);
    await SyntheticBook.attach(h.replay, { symbols: { BTCUSDT: { levels: 3, spreadTicks: [1, 1], baseQty: u('0.1'), growth: 1, jitter: 0.5 } } });
    await h.replay.runUntil(T0 + 1000);
    const first = h.replay.engine.depth('BTCUSDT', 3);
    await h.replay.runUntil(T0 + 2000);
    expect(h.replay.engine.depth('BTCUSDT', 3)).toEqual(first); // same anchor, nothing taken: same draw
    h.replay.apply(marketBuy('0.01'));
    const taken = h.replay.engine.depth('BTCUSDT', 3);
    expect(taken.asks[0]![1]).toBe(first.asks[0]![1] - u('0.01'));
    await h.replay.runUntil(T0 + 3000);
    // The take makes the next print draw anew though it printed the same price.
    expect(h.replay.engine.depth('BTCUSDT', 3)).not.toEqual(taken);
    await h.replay.runToEnd();
    const kinds = h.journal.entries.map((e) => e.command.type);
    expect(kinds.filter((k) => k === 'RecordMarketTrade')).toHaveLength(6);
    expect(kinds.filter((k) => k !== 'RecordMarketTrade')).toEqual(['CreateAccount', 'CreateAccount', 'SetSyntheticBook', 'SetSyntheticAnchor', 'PlaceOrder']);
  });

  it('what it shows does not depend on who looked at it, or when', async () => {
    const run = async (peek: boolean) => {
      const prints: Print[] = Array.from({ length: 200 }, (_, i) => ({ taker: i % 3 === 1 ? 'SELL' : 'BUY', price: (100 + Math.round(Math.sin(i / 7) * 50) / 100).toFixed(2), qty: '0.02', at: i }));
      const h = harness(touch(), prints);
      await SyntheticBook.attach(h.replay, { symbols: { BTCUSDT: { levels: 6, spreadTicks: [1, 4], baseQty: u('0.05'), jitter: 0.4 } } });
      h.replay.onTrade((trade, replay) => {
        if (peek) replay.engine.depth('BTCUSDT', 20);
        if (trade.tapeId % 40 === 0) replay.apply(marketBuy('0.2'));
      });
      await h.replay.runToEnd();
      return { state: h.replay.engine.stateHash(), trades: h.replay.engine.accountTrades(1, 'BTCUSDT') };
    };
    const quiet = await run(false);
    const peeked = await run(true);
    expect(peeked.trades).toEqual(quiet.trades);
    expect(peeked.state).toBe(quiet.state);
    expect(quiet.trades.length).toBeGreaterThan(0);
  });

  it('is deterministic under the seed (jittered sizes, random spread), and invariants hold', async () => {
    const run = async (seed: string) => {
      const prints: Print[] = Array.from({ length: 300 }, (_, i) => ({ taker: i % 4 === 1 ? 'SELL' : 'BUY', price: (100 + Math.round(Math.sin(i / 9) * 100) / 100).toFixed(2), qty: '0.02', at: i }));
      const h = harness(touch(), prints, { seed });
      await SyntheticBook.attach(h.replay, { symbols: { BTCUSDT: { levels: 8, spreadTicks: [1, 4], baseQty: u('0.05'), jitter: 0.4 } } });
      h.replay.onTrade((trade, replay) => {
        if (trade.tapeId % 25 === 0) replay.apply({ ...marketBuy('0.3'), side: trade.tapeId % 50 === 0 ? 'SELL' : 'BUY' });
      });
      await h.replay.runToEnd();
      h.replay.engine.checkInvariants();
      return { hash: h.journal.hash(), depth: h.replay.engine.depth('BTCUSDT', 20) };
    };
    const a = await run('s1');
    expect((await run('s1')).hash).toBe(a.hash);
    expect((await run('s2')).hash).not.toBe(a.hash);
    expect(a.depth.asks.length).toBe(8);
  });

  it('a stop set off by a print walks the book drawn for that print', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '0.01', at: 0 },
      { taker: 'SELL', price: '99', qty: '0.01', at: 1 },
    ]);
    await SyntheticBook.attach(h.replay, PLAIN);
    await h.replay.runUntil(T0);
    h.replay.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'SELL', orderType: 'STOP_LOSS', quantity: u('0.2'), stopPrice: u('99.5') });
    await h.replay.runToEnd();
    const fills = h.journal.entries.flatMap((e) => e.events).filter((e): e is TradeExecuted => e.type === 'TradeExecuted');
    // The SELL print at 99.00 put the best bid at 99.00 (0.1), then 98.90 (0.2).
    expect(fills.map((t) => [t.price, t.quantity, t.time])).toEqual([
      [u('99'), u('0.1'), T0 + 1000],
      [u('98.9'), u('0.1'), T0 + 1000],
    ]);
  });

  it('LIMIT_MAKER that would take it is refused; FOK and quote-amount orders plan against it', async () => {
    const h = harness(touch(), [{ taker: 'BUY', price: '100', qty: '0.01', at: 0 }]);
    await SyntheticBook.attach(h.replay, PLAIN);
    await h.replay.runToEnd();
    const maker = h.replay.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT_MAKER', price: u('100'), quantity: u('0.1') });
    expect(maker[0]).toMatchObject({ type: 'OrderRejected', reason: 'WOULD_MATCH_AND_TAKE' });
    // FOK for 0.8 up to 100.20: the book holds 0.1 + 0.2 + 0.4 = 0.7 there, so it expires untouched.
    const fok = h.replay.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'LIMIT', timeInForce: 'FOK', price: u('100.2'), quantity: u('0.8') });
    expect(trades(fok)).toEqual([]);
    expect(fok.map((e) => e.type)).toContain('OrderExpired');
    // 50 USDT by quoteOrderQty: 0.1 at 100.00 (10), 0.2 at 100.10 (20.02), then of 19.98 left 0.199 at
    // 100.20 (19.9398); the 0.0402 left cannot buy a step of 0.001.
    const byQuote = trades(h.replay.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quoteOrderQty: u('50') }));
    expect(byQuote.map((t) => [t.price, t.quantity])).toEqual([
      [u('100'), u('0.1')],
      [u('100.1'), u('0.2')],
      [u('100.2'), u('0.199')],
    ]);
    h.replay.engine.checkInvariants();
  });

  it('refuses a bad profile with a clear error', async () => {
    const h = harness(touch(), []);
    await expect(SyntheticBook.attach(h.replay, { symbols: { BTCUSDT: { baseQty: 0 } } })).rejects.toThrow('synthetic book of BTCUSDT');
    await expect(SyntheticBook.attach(h.replay, { symbols: { NOPE: { baseQty: 1 } } })).rejects.toThrow('unknown symbol NOPE');
  });
});
