import { describe, expect, it } from 'vitest';
import { touch, tradeThrough } from '../../../src/sim/index.ts';
import { harness, u } from './helpers.ts';

describe('trade-through fill model', () => {
  it('fills a BUY only from prints strictly below its price, at its own price, capped by each print', async () => {
    const h = harness(tradeThrough(), [
      { taker: 'SELL', price: '100.01', qty: '0.5' }, // above the bid: not reached
      { taker: 'SELL', price: '100.00', qty: '2' }, // at the bid: not through, no fill
      { taker: 'SELL', price: '99.99', qty: '0.4' }, // through: fills 0.4 (the whole print)
      { taker: 'SELL', price: '99.98', qty: '5' }, // through: fills the 0.6 left, 4.4 stays a market print
    ]);
    const a = h.limit('BUY', '100.00', '1');
    await h.replay.runToEnd();
    expect(h.fills()).toEqual([
      expect.objectContaining({ orderId: a, quantity: u('0.4'), price: u('100'), status: 'PARTIALLY_FILLED', tradeId: 3 }),
      expect.objectContaining({ orderId: a, quantity: u('0.6'), price: u('100'), status: 'FILLED', tradeId: 4 }),
    ]);
    expect(h.fills()[0]!.reason).toBe(
      'TRADE_THROUGH tapeTrade=1003 tradePrice=99.99000000 tradeQty=0.40000000 taker=SELL order=1 orderPrice=100.00000000 available=0.40000000 filled=0.40000000',
    );
    // The at-price print is a logged non-fill.
    expect(h.decisions).toEqual([expect.objectContaining({ orderId: a, reason: expect.stringMatching(/^TRADE_THROUGH NO_FILL why=at-print-price-needs-through tapeTrade=1002 /) })]);
    // One tape with the engine's ids: market prints, the fills at the order's price, the remainder.
    const tape = h.replay.history('BTCUSDT').recentTrades(h.replay.now).map((t) => [t.id, t.price, t.qty, t.isBuyerMaker]);
    expect(tape).toEqual([
      [1, u('100.01'), u('0.5'), true],
      [2, u('100'), u('2'), true],
      [3, u('100'), u('0.4'), true],
      [4, u('100'), u('0.6'), true],
      [5, u('99.98'), u('4.4'), true],
    ]);
    expect(h.replay.engine.account(1)!.balances.find((b) => b.asset === 'BTC')!.free).toBe(u('1001'));
  });

  it('does not use one print twice: best price first, the next order gets only what is left', async () => {
    const h = harness(tradeThrough(), [{ taker: 'SELL', price: '99.99', qty: '1.5' }]);
    const low = h.limit('BUY', '100.00', '1');
    const high = h.limit('BUY', '100.01', '1', 2);
    await h.replay.runToEnd();
    expect(h.fills().map((f) => [f.orderId, f.quantity])).toEqual([
      [high, u('1')],
      [low, u('0.5')],
    ]);
    // The print was used up by the fills: no market remainder joins the tape.
    expect(h.journal.entries.some((e) => e.command.type === 'RecordMarketTrade')).toBe(false);
    expect(h.replay.history('BTCUSDT').recentTrades(h.replay.now).map((t) => t.qty)).toEqual([u('1'), u('0.5')]);
  });

  it('fills asks from BUY-taker prints above them, never from prints on the wrong side', async () => {
    const h = harness(tradeThrough(), [
      { taker: 'BUY', price: '99.00', qty: '1' }, // a buyer took at 99: reaches asks <= 99 only; the BUY order at 100 is not reachable by a BUY taker
      { taker: 'SELL', price: '101.50', qty: '1' }, // a seller hit 101.50: reaches bids, not our ask at 101
      { taker: 'BUY', price: '101.01', qty: '0.2' }, // through our ask at 101
    ]);
    h.limit('BUY', '100.00', '1');
    const ask = h.limit('SELL', '101.00', '1');
    await h.replay.runToEnd();
    expect(h.fills().map((f) => [f.orderId, f.quantity, f.price])).toEqual([[ask, u('0.2'), u('101')]]);
  });

  it('fills only whole LOT_SIZE steps of a print; the fraction stays a market print', async () => {
    const h = harness(tradeThrough(), [
      { taker: 'SELL', price: '99', qty: '0.0005' },
      { taker: 'SELL', price: '99', qty: '0.0015' },
    ]);
    const a = h.limit('BUY', '100', '1');
    await h.replay.runToEnd();
    expect(h.fills().map((f) => f.quantity)).toEqual([u('0.001')]);
    expect(h.decisions.map((d) => d.reason)).toEqual([expect.stringMatching(/^TRADE_THROUGH NO_FILL why=print-used-up tapeTrade=1001 .* available=0.00050000$/)]);
    const records = h.journal.entries.filter((e) => e.command.type === 'RecordMarketTrade').map((e) => (e.command as { quantity: number }).quantity);
    expect(records).toEqual([u('0.0005'), u('0.0005')]);
    expect(h.replay.engine.getOrder(1, 'BTCUSDT', { orderId: a })!.executedQty).toBe(u('0.001'));
  });
});

describe('touch fill model', () => {
  it('fills from a print at the order price, where trade-through does not', async () => {
    const prints = [
      { taker: 'SELL', price: '100.01', qty: '1' },
      { taker: 'SELL', price: '100.00', qty: '0.3' },
      { taker: 'SELL', price: '99.99', qty: '2' },
    ] as const;
    const t = harness(touch(), [...prints]);
    const s = harness(tradeThrough(), [...prints]);
    const a = t.limit('BUY', '100', '1');
    s.limit('BUY', '100', '1');
    await t.replay.runToEnd();
    await s.replay.runToEnd();
    expect(t.fills().map((f) => [f.orderId, f.quantity, f.status])).toEqual([
      [a, u('0.3'), 'PARTIALLY_FILLED'],
      [a, u('0.7'), 'FILLED'],
    ]);
    expect(t.fills()[0]!.reason).toMatch(/^TOUCH tapeTrade=1002 tradePrice=100.00000000 /);
    expect(s.fills().map((f) => f.quantity)).toEqual([u('1')]);
  });

  it('shares one print between two orders at the same price in FIFO order', async () => {
    const h = harness(touch(), [{ taker: 'SELL', price: '100', qty: '1.2' }]);
    const first = h.limit('BUY', '100', '1', 2);
    const second = h.limit('BUY', '100', '1');
    await h.replay.runToEnd();
    expect(h.fills().map((f) => [f.orderId, f.quantity])).toEqual([
      [first, u('1')],
      [second, u('0.2')],
    ]);
  });
});
