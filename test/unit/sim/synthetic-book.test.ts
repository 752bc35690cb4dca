import { describe, expect, it } from 'vitest';
import type { EngineEvent, TradeExecuted } from '../../../src/engine/index.ts';
import { SyntheticBook, touch, type SyntheticBookOptions } from '../../../src/sim/index.ts';
import { harness, T0, u, type Print } from './helpers.ts';

const AGENT = 99;
/** 1,000 BTC and 20M USDT: with the test accounts, every asset's exchange-wide total stays far below 2^53 units. */
const FUNDS = { BTC: u('1000'), USDT: u('20000000') };

/** Hand-checkable: no jitter, 1-tick spread, levels 0.10 apart, sizes 0.1, 0.2, 0.4, 0.8, 1.6. */
const PLAIN: SyntheticBookOptions = {
  accountId: AGENT,
  balances: FUNDS,
  symbols: { BTCUSDT: { levels: 5, spreadTicks: [1, 1], gapTicks: 10, baseQty: u('0.1'), growth: 2, jitter: 0 } },
};

const trades = (events: readonly EngineEvent[]) => events.filter((e): e is TradeExecuted => e.type === 'TradeExecuted');
const marketBuy = (qty: string) => ({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: u(qty) }) as const;

describe('SyntheticBook', () => {
  it('a large MARKET BUY walks several levels: worse than the first level, average price as computed by hand; taken liquidity stays taken until the next print', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '0.01', at: 0 },
      { taker: 'SELL', price: '101', qty: '0.01', at: 5 },
    ]);
    const book = SyntheticBook.attach(h.replay, PLAIN);
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
    expect(fills.map((t) => [t.price, t.quantity, t.makerAccountId])).toEqual([
      [u('100'), u('0.1'), AGENT],
      [u('100.1'), u('0.2'), AGENT],
      [u('100.2'), u('0.4'), AGENT],
      [u('100.3'), u('0.3'), AGENT],
    ]);
    // 0.1×100.00 + 0.2×100.10 + 0.4×100.20 + 0.3×100.30 = 10 + 20.02 + 40.08 + 30.09 = 100.19 for 1 BTC.
    expect(fills.reduce((a, t) => a + t.quoteQuantity, 0)).toBe(u('100.19'));
    // Taken stays taken: the next buy starts at 100.30 with what is left there.
    expect(h.replay.engine.bookTicker('BTCUSDT')).toMatchObject({ askPrice: u('100.3'), askQty: u('0.5') });
    expect(trades(h.replay.apply(marketBuy('0.6'))).map((t) => [t.price, t.quantity])).toEqual([
      [u('100.3'), u('0.5')],
      [u('100.4'), u('0.1')],
    ]);
    // The user's trades are on the tape, after the replayed print.
    expect(h.replay.history('BTCUSDT').recentTrades(h.replay.now).map((t) => t.price)).toEqual([u('100'), u('100'), u('100.1'), u('100.2'), u('100.3'), u('100.3'), u('100.4')]);

    await h.replay.runToEnd();
    // A SELL taker printed 101.00: the bid was there; the book re-quoted around it, in full again.
    expect(h.replay.engine.bookTicker('BTCUSDT')).toEqual({ bidPrice: u('101'), bidQty: u('0.1'), askPrice: u('101.01'), askQty: u('0.1') });
    expect(h.replay.engine.depth('BTCUSDT', 10).bids.map(([p]) => p)).toEqual([u('101'), u('100.9'), u('100.8'), u('100.7'), u('100.6')]);
    expect(book.stats).toMatchObject({ requotes: 2, rebalances: 0 });
  });

  it('historical prints never fill the agent quotes; users’ resting orders still fill by the fill model', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '0.01', at: 0 },
      { taker: 'SELL', price: '99.5', qty: '3', at: 1 },
    ]);
    SyntheticBook.attach(h.replay, PLAIN);
    await h.replay.runUntil(T0);
    const orderId = h.limit('BUY', '99.6', '0.2');
    // The mirror the fill model reads holds only the user's order.
    expect(h.replay.restingOrders('BTCUSDT').bids.map((o) => o.orderId)).toEqual([orderId]);
    await h.replay.runToEnd();
    // The 3 BTC print went through the agent bids (99.99 ... 99.59) and filled none of them; the user's 0.2 filled.
    expect(h.fills()).toEqual([expect.objectContaining({ orderId, quantity: u('0.2') })]);
    const agentTrades = h.replay.engine.accountTrades(AGENT, 'BTCUSDT');
    expect(agentTrades).toEqual([]);
  });

  it('does not quote through users’ resting orders (levels that would cross are left out)', async () => {
    const h = harness(touch(), [{ taker: 'BUY', price: '100', qty: '0.01', at: 0 }]);
    SyntheticBook.attach(h.replay, PLAIN);
    h.limit('BUY', '100.15', '0.5');
    await h.replay.runToEnd();
    const depth = h.replay.engine.depth('BTCUSDT', 10);
    expect(depth.asks.map(([p]) => p)).toEqual([u('100.2'), u('100.3'), u('100.4')]);
    expect(depth.bids[0]).toEqual([u('100.15'), u('0.5')]);
    expect(h.replay.engine.accountTrades(1, 'BTCUSDT')).toEqual([]);
  });

  it('re-centres its inventory with AdjustBalance after users trade with it (band 0: exactly)', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '0.01', at: 0 },
      { taker: 'BUY', price: '100', qty: '0.01', at: 1 },
    ]);
    const book = SyntheticBook.attach(h.replay, { ...PLAIN, rebalanceBand: 0 });
    await h.replay.runUntil(T0);
    h.replay.apply(marketBuy('0.3')); // 0.1@100.00 + 0.2@100.10 = 30.02 USDT
    await h.replay.runToEnd();
    const adjustments = h.journal.entries.filter((e) => e.command.type === 'AdjustBalance').map((e) => e.command);
    expect(adjustments).toEqual([
      expect.objectContaining({ accountId: AGENT, asset: 'BTC', delta: u('0.3') }),
      expect.objectContaining({ accountId: AGENT, asset: 'USDT', delta: -u('30.02') }),
    ]);
    const balances = h.replay.engine.account(AGENT)!.balances;
    const total = (asset: string) => balances.filter((b) => b.asset === asset).reduce((a, b) => a + b.free + b.locked, 0);
    expect(total('BTC')).toBe(FUNDS.BTC);
    expect(total('USDT')).toBe(FUNDS.USDT);
    expect(book.stats.rebalances).toBe(2);
  });

  it('skips a re-quote when the anchor did not move and nothing was taken; re-quotes every n prints or on a timer when asked', async () => {
    const prints: Print[] = [0, 1, 2, 3, 4, 5].map((at) => ({ taker: 'BUY', price: at < 3 ? '100' : '100.5', qty: '0.01', at }));
    const h = harness(touch(), prints);
    const book = SyntheticBook.attach(h.replay, PLAIN);
    await h.replay.runToEnd();
    expect(book.stats).toMatchObject({ requotes: 2, skipped: 4 });

    const h2 = harness(touch(), prints);
    const every3 = SyntheticBook.attach(h2.replay, { ...PLAIN, everyPrints: 3 });
    await h2.replay.runUntil(T0 + 2000);
    expect(every3.stats.requotes).toBe(1); // after the third print
    expect(h2.replay.engine.bookTicker('BTCUSDT')).toMatchObject({ askPrice: u('100') });
  });

  it('is deterministic under the seed (jittered sizes, random spread), and invariants hold', async () => {
    const run = async (seed: string) => {
      const prints: Print[] = Array.from({ length: 300 }, (_, i) => ({ taker: i % 4 === 1 ? 'SELL' : 'BUY', price: (100 + Math.round(Math.sin(i / 9) * 100) / 100).toFixed(2), qty: '0.02', at: i }));
      const h = harness(touch(), prints, { seed });
      SyntheticBook.attach(h.replay, { accountId: AGENT, balances: FUNDS, symbols: { BTCUSDT: { levels: 8, spreadTicks: [1, 4], baseQty: u('0.05'), jitter: 0.4 } } });
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

  it('refuses funding that would take an asset past 2^53 units exchange-wide', () => {
    const h = harness(touch(), []);
    expect(() => SyntheticBook.attach(h.replay, { ...PLAIN, balances: { BTC: u('1000'), USDT: u('90000000') } })).toThrow('2^53');
  });
});

describe('SyntheticBook bookkeeping', () => {
  it('counts its open orders: the cancel before a re-quote is sent only when some are left, and never refused', async () => {
    const h = harness(touch(), [
      { taker: 'BUY', price: '100', qty: '0.01', at: 0 },
      { taker: 'BUY', price: '100', qty: '0.01', at: 1 },
    ]);
    SyntheticBook.attach(h.replay, { ...PLAIN, symbols: { BTCUSDT: { ...PLAIN.symbols.BTCUSDT!, levels: 2 } } });
    await h.replay.runUntil(T0);
    h.replay.apply(marketBuy('0.3'));
    await h.replay.runToEnd();
    const lines = h.journal.entries.slice(3).map((e) => `${e.command.type}:${e.events.map((ev) => ev.type).join(',')}`);
    expect(lines.filter((l) => l.includes('OrderRejected'))).toEqual([]);
    // The asks were taken out; only the two bids were left to cancel.
    expect(lines.filter((l) => l.startsWith('CancelAllOrders'))).toEqual(['CancelAllOrders:OrderCanceled,OrderCanceled']);
    expect(h.replay.engine.bookTicker('BTCUSDT')).toMatchObject({ askPrice: u('100'), askQty: u('0.1') });
  });
});
