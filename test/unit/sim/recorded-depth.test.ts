/**
 * A replay over recorded depth (L2): the recorded book is the book (plus users' orders), takers
 * walk its levels and what they take stays taken until the level's next update, trades come
 * before depth at one µs, queue position is read from the book (risk-averse and probabilistic,
 * with exact fills), and own orders the recorded book crosses fill from the crossing liquidity.
 */
import { describe, expect, it } from 'vitest';
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START, type DepthBatch } from '../../../src/data/index.ts';
import { queuePosition, type TapeInput } from '../../../src/sim/index.ts';
import { probabilityBehind } from '../../../src/sim/fill-models/l2-queue.ts';
import { harness, T0, tape, u, type Print } from './helpers.ts';

/** One depth message: ms after T0, bid and ask rows as [price, qty] decimals. */
interface Msg {
  at: number;
  clear?: boolean;
  bids?: [string, string][];
  asks?: [string, string][];
}

/** Messages as DepthBatches of `perBatch` whole messages each (a batch never splits a message). */
function depth(messages: readonly Msg[], perBatch = 1000): DepthBatch[] {
  const batches: DepthBatch[] = [];
  for (let start = 0; start < messages.length; start += perBatch) {
    const part: { time: number; price: number; qty: number; flags: number }[] = [];
    for (const m of messages.slice(start, start + perBatch)) {
      const levels = [...(m.bids ?? []).map((l) => [l, 0] as const), ...(m.asks ?? []).map((l) => [l, DEPTH_ASK] as const)];
      levels.forEach(([[price, qty], side], i) => {
        part.push({ time: T0 + m.at * 1000, price: u(price), qty: u(qty), flags: side | (i === 0 ? DEPTH_MESSAGE_START | (m.clear ? DEPTH_CLEAR : 0) : 0) });
      });
    }
    batches.push({
      length: part.length,
      time: Float64Array.from(part.map((r) => r.time)),
      price: Float64Array.from(part.map((r) => r.price)),
      qty: Float64Array.from(part.map((r) => r.qty)),
      flags: Uint8Array.from(part.map((r) => r.flags)),
    });
  }
  return batches;
}

const SNAPSHOT: Msg = {
  at: 0,
  clear: true,
  bids: [['99.99', '2'], ['99.98', '3'], ['99.97', '5']],
  asks: [['100.01', '1'], ['100.02', '2'], ['100.03', '4']],
};

function replayOf(model: ReturnType<typeof queuePosition>, trades: readonly Print[], messages: readonly Msg[], batchSize?: number) {
  const tapes: TapeInput[] = [{ symbol: 'BTCUSDT', trades: tape(trades), depth: depth(messages, batchSize) }];
  return harness(model, tapes);
}

const book = (h: ReturnType<typeof harness>) => {
  const view = h.replay.engine.depth('BTCUSDT', 10);
  return { bids: view.bids.map(([p, q]) => `${p / 1e8}x${q / 1e8}`), asks: view.asks.map(([p, q]) => `${p / 1e8}x${q / 1e8}`) };
};

describe('replay over recorded depth', () => {
  it('shows the recorded book from the first µs, message by message, one message a batch included', async () => {
    const h = replayOf(queuePosition(), [], [SNAPSHOT, { at: 5, bids: [['99.99', '0'], ['99.96', '1']], asks: [['100.01', '1.5']] }], 1);
    await h.replay.runUntil(T0);
    expect(book(h)).toEqual({ bids: ['99.99x2', '99.98x3', '99.97x5'], asks: ['100.01x1', '100.02x2', '100.03x4'] });
    await h.replay.runUntil(T0 + 5000);
    expect(book(h)).toEqual({ bids: ['99.98x3', '99.97x5', '99.96x1'], asks: ['100.01x1.5', '100.02x2', '100.03x4'] });
    expect(h.replay.stats.depthMessages).toBe(2);
    expect(h.replay.engine.depthBookStats('BTCUSDT')).toEqual({ mode: 'recorded', messages: 2, repairs: 0, bidLevels: 3, askLevels: 3 });
  });

  it('lets a MARKET order walk the recorded levels; what it took stays taken until the level is set anew', async () => {
    const h = replayOf(queuePosition(), [], [SNAPSHOT, { at: 5, asks: [['100.03', '4.5']] }, { at: 9, asks: [['100.01', '0.25']] }]);
    await h.replay.runUntil(T0 + 1000);
    const events = h.replay.apply({ type: 'PlaceOrder', accountId: 1, symbol: 'BTCUSDT', side: 'BUY', orderType: 'MARKET', quantity: u('2.5') });
    const trades = events.filter((e) => e.type === 'TradeExecuted').map((e) => (e.type === 'TradeExecuted' ? `${e.quantity / 1e8}@${e.price / 1e8} maker ${e.makerAccountId}` : ''));
    expect(trades).toEqual(['1@100.01 maker 0', '1.5@100.02 maker 0']);
    expect(book(h).asks).toEqual(['100.02x0.5', '100.03x4']);
    await h.replay.runUntil(T0 + 5000);
    expect(book(h).asks).toEqual(['100.02x0.5', '100.03x4.5']); // 100.03 updated; 100.02 still shows what is left
    await h.replay.runUntil(T0 + 9000);
    expect(book(h).asks).toEqual(['100.01x0.25', '100.02x0.5', '100.03x4.5']);
  });

  it('risk-averse queue: ahead = the level when the order joins; trades at its price move it, a shrinking level caps it; fills capped by the volume traded there', async () => {
    const h = replayOf(
      queuePosition(),
      [
        { taker: 'SELL', price: '99.98', qty: '1', at: 3 }, // ahead 3 -> 2
        { taker: 'SELL', price: '99.98', qty: '1.5', at: 7 }, // ahead 1 -> 0, fills 0.5
      ],
      [SNAPSHOT, { at: 3, bids: [['99.98', '2']] }, { at: 5, bids: [['99.98', '1']] }],
    );
    await h.replay.runUntil(T0 + 1000);
    const id = h.limit('BUY', '99.98', '2');
    await h.replay.runUntil(T0 + 3000);
    const model = h.replay.fillModelOf('BTCUSDT') as unknown as { queueAhead(id: number): number };
    expect(model.queueAhead(id)).toBe(u('2')); // the trade took 1; the update at the same µs (2) does not take it again
    await h.replay.runUntil(T0 + 5000);
    expect(model.queueAhead(id)).toBe(u('1'));
    await h.replay.runToEnd();
    expect(h.fills().map((f) => [f.orderId, f.quantity, f.price])).toEqual([[id, u('0.5'), u('99.98')]]);
    expect(h.fills()[0]!.reason).toBe('QUEUE_POSITION tapeTrade=1002 tradePrice=99.98000000 tradeQty=1.50000000 taker=SELL order=1 orderPrice=99.98000000 available=0.50000000 filled=0.50000000 queueAhead=1.00000000->0.00000000 model=queue-risk-averse');
    expect(h.decisions[0]!.reason).toBe('QUEUE_ESTIMATE model=queue-risk-averse order=1 orderPrice=99.98000000 estimator=recordedLevel depth=3.00000000 queueAhead=3.00000000');
  });

  it('probabilistic queue: a decrease not explained by trades advances the order by its expected share', async () => {
    // ahead 3 of a level of 3 (back 0 at joining); the level grows to 5 (2 behind), then drops to 4 with no trade:
    // power3 n=3: p(behind) = 1 - (3/5)^3 = 0.784; front' = 3 - 0.216 * 1 = 2.784.
    const h = replayOf(queuePosition({ variant: 'probabilistic' }), [], [SNAPSHOT, { at: 3, bids: [['99.98', '5']] }, { at: 5, bids: [['99.98', '4']] }]);
    await h.replay.runUntil(T0 + 1000);
    const id = h.limit('BUY', '99.98', '1');
    await h.replay.runUntil(T0 + 5000);
    const model = h.replay.fillModelOf('BTCUSDT') as unknown as { queueAhead(id: number): number };
    expect(model.queueAhead(id)! / 1e8).toBeCloseTo(2.784, 9);
    expect(probabilityBehind({ family: 'power3', n: 3 }, 3, 2)).toBeCloseTo(0.784, 12);
    expect(probabilityBehind({ family: 'power', n: 2 }, 1, 3)).toBeCloseTo(0.9, 12);
    expect(probabilityBehind({ family: 'power2', n: 2 }, 1, 3)).toBeCloseTo(0.5625, 12);
    expect(probabilityBehind({ family: 'log', n: 1 }, 1, 3)).toBeCloseTo(Math.log(4) / (Math.log(4) + Math.log(2)), 12);
    expect(probabilityBehind({ family: 'log2', n: 1 }, 1, 3)).toBeCloseTo(Math.log(4) / Math.log(5), 12);
  });

  it('fills own orders the recorded book crosses, from the crossing liquidity, which they take', async () => {
    const h = replayOf(queuePosition(), [], [SNAPSHOT, { at: 5, asks: [['99.98', '0.7']] }, { at: 6, asks: [['99.99', '0.1']] }]);
    await h.replay.runUntil(T0 + 1000);
    const a = h.limit('BUY', '99.99', '0.5');
    const b = h.limit('BUY', '99.98', '1');
    await h.replay.runUntil(T0 + 5000);
    // The ask at 99.98 crosses both bids: the better one takes 0.5 of it, the other the 0.2 left.
    expect(h.fills().map((f) => [f.orderId, f.quantity / 1e8, f.price / 1e8, f.status])).toEqual([
      [a, 0.5, 99.99, 'FILLED'],
      [b, 0.2, 99.98, 'PARTIALLY_FILLED'],
    ]);
    expect(h.fills()[0]!.reason).toBe('DEPTH_CROSS order=1 orderPrice=99.99000000 bookBestAsk=99.98000000 crossing=0.70000000 filled=0.50000000');
    await h.replay.runUntil(T0 + 6000);
    // 99.99 is above the resting bid at 99.98: no cross, nothing more.
    expect(h.fills()).toHaveLength(2);
    expect(h.replay.stats.depthCrossFills).toBe(2);
  });

  it('keeps the venue ids of the prints when asked (until a user trade takes one)', async () => {
    const h = harness(queuePosition(), [{ symbol: 'BTCUSDT', trades: tape([{ taker: 'BUY', price: '100.01', qty: '0.1', at: 2 }, { taker: 'BUY', price: '100.01', qty: '0.1', at: 3 }], { firstId: 5000 }), depth: depth([SNAPSHOT]), keepTradeIds: true }]);
    await h.replay.runToEnd();
    expect(h.replay.history('BTCUSDT').recentTrades(h.replay.now).map((t) => t.id)).toEqual([5000, 5001]);
  });
});
