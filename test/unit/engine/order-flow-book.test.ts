/**
 * The order-flow book: a synthetic book that lives between prints. Drawn around its anchor,
 * stepped every 100 ms of simulated time by a seeded process, consumed by prints; the same seed
 * and commands give the same book whenever (or whether) anyone looked; a snapshot carries it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from '../../../src/engine/engine.ts';
import type { EngineConfig } from '../../../src/engine/index.ts';
import { propertyParameters } from '../../property/property-parameters.ts';

const T0 = 1_700_000_000_000_000;
const CONFIG: EngineConfig = {
  symbols: [
    {
      symbol: 'BTCUSDT',
      baseAsset: 'BTC',
      quoteAsset: 'USDT',
      filters: [
        { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000', tickSize: '0.01' },
        { filterType: 'LOT_SIZE', minQty: '0.00001', maxQty: '9000', stepSize: '0.00001' },
      ],
    },
  ],
};
const PROFILE = { levels: 10, spreadTicks: [1, 3] as [number, number], gapTicks: 1, baseQty: 1_000_000, growth: 1.5, jitter: 0.25, rate: 40 };

function flowEngine(seed = 's'): Engine {
  const engine = new Engine(CONFIG);
  engine.apply({ type: 'SetOrderFlowBook', time: T0, symbol: 'BTCUSDT', profile: PROFILE, seed });
  engine.apply({ type: 'SetSyntheticAnchor', time: T0, symbol: 'BTCUSDT', price: 4_200_000_000_000 });
  return engine;
}

const top = (e: Engine) => {
  const b = e.bookTicker('BTCUSDT')!;
  return `${b.bidPrice / 1e8}x${b.bidQty / 1e8}/${b.askPrice / 1e8}x${b.askQty / 1e8}`;
};

describe('order-flow book', () => {
  it('is drawn around its anchor from the profile, and moves between prints, every 100 ms step most of the time', () => {
    const engine = flowEngine();
    const depth = engine.depth('BTCUSDT', 100);
    expect(depth.bids).toHaveLength(10);
    expect(depth.asks).toHaveLength(10);
    expect(depth.asks[0]![0] - depth.bids[0]![0]).toBeGreaterThanOrEqual(1_000_000);
    expect(depth.asks[0]![0] - depth.bids[0]![0]).toBeLessThanOrEqual(3_000_000);
    let changedWindows = 0;
    let changedTops = 0;
    let previous = JSON.stringify(engine.depth('BTCUSDT', 100));
    let previousTop = top(engine);
    for (let i = 1; i <= 600; i++) {
      engine.advanceTo(T0 + i * 100_000);
      const now = JSON.stringify(engine.depth('BTCUSDT', 100));
      if (now !== previous) changedWindows++;
      if (top(engine) !== previousTop) changedTops++;
      previous = now;
      previousTop = top(engine);
    }
    expect(changedWindows).toBeGreaterThan(540); // > 90% of the 100 ms windows
    expect(changedTops).toBeGreaterThan(300); // > 5 best-level changes a second
    // Still a book like the profile's after a minute: a spread of a few ticks, about 10 to 20 levels a side.
    const after = engine.depth('BTCUSDT', 100);
    expect(after.bids.length).toBeGreaterThanOrEqual(8);
    expect(after.bids.length).toBeLessThanOrEqual(20);
    expect(after.asks[0]![0] - after.bids[0]![0]).toBeLessThanOrEqual(5_000_000);
  });

  it('is consumed by a print: the levels better than it go, its level loses the print; a print that empties a side or jumps is drawn around', () => {
    const engine = flowEngine();
    const { asks, bids } = engine.depth('BTCUSDT', 100);
    const third = asks[2]![0];
    const before = engine.sequence;
    engine.apply({ type: 'RecordMarketTrade', time: T0, symbol: 'BTCUSDT', price: third, quantity: 100_000, isBuyerMaker: false });
    const after = engine.depth('BTCUSDT', 100);
    expect(after.asks[0]).toEqual([third, asks[2]![1] - 100_000]);
    expect(after.bids[0]![0]).toBe(bids[0]![0]);
    expect(engine.sequence).toBe(before + 1);
    // A print that empties a side (here the 10th ask, bought whole) starts a new draw around it.
    const last = engine.depth('BTCUSDT', 100).asks.at(-1)!;
    engine.apply({ type: 'RecordMarketTrade', time: T0 + 1, symbol: 'BTCUSDT', price: last[0], quantity: last[1], isBuyerMaker: false });
    const redrawn = engine.depth('BTCUSDT', 100);
    expect(redrawn.bids).toHaveLength(10);
    expect(redrawn.asks).toHaveLength(10);
    expect(redrawn.bids[0]![0]).toBeLessThanOrEqual(last[0]);
    expect(redrawn.asks[0]![0]).toBeGreaterThanOrEqual(last[0]);
    // So does a print far from the last one (the market jumped): no consuming of a stale book.
    const low = bids[9]![0] - 100_000_000;
    engine.apply({ type: 'RecordMarketTrade', time: T0 + 2, symbol: 'BTCUSDT', price: low, quantity: 100_000, isBuyerMaker: true });
    const jumped = engine.depth('BTCUSDT', 100);
    expect(jumped.bids[0]![0]).toBeLessThanOrEqual(low);
    expect(jumped.asks[0]![0]).toBeGreaterThanOrEqual(low);
    expect(jumped.asks[0]![0] - jumped.bids[0]![0]).toBeLessThanOrEqual(3_000_000);
    engine.checkInvariants();
  });

  it('lets takers walk it and prints consume it; the same seed and commands give the same book whoever looked in between', () => {
    const step = fc.tuple(fc.integer({ min: 0, max: 3_000_000 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 400_000 }), fc.integer({ min: -30, max: 30 }));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), fc.array(fc.integer({ min: 0, max: 60_000_000 }), { maxLength: 30 }), (steps, looks) => {
        const run = (peek: boolean) => {
          const engine = flowEngine('p');
          engine.apply({ type: 'CreateAccount', time: T0, accountId: 1, balances: { USDT: 100_000_000_000_000, BTC: 100_000_000_000 } });
          const sorted = [...steps].sort((a, b) => a[0] - b[0]);
          const peeks = [...looks].map((t) => T0 + t).sort((a, b) => a - b);
          let p = 0;
          for (const [at, kind, qty, offset] of sorted) {
            const time = T0 + at * 20;
            while (peek && p < peeks.length && peeks[p]! <= time) {
              engine.advanceTo(peeks[p]!);
              engine.depth('BTCUSDT', 50);
              p++;
            }
            if (kind < 2) engine.apply({ type: 'PlaceOrder', time, accountId: 1, symbol: 'BTCUSDT', side: kind === 0 ? 'BUY' : 'SELL', orderType: 'MARKET', quantity: qty * 10 });
            // Prints within a few ticks (consumed) and beyond the book's depth (a jump).
            else engine.apply({ type: 'RecordMarketTrade', time, symbol: 'BTCUSDT', price: 4_200_000_000_000 + offset * 1_000_000, quantity: qty * 10, isBuyerMaker: kind === 3 });
            if (peek) engine.checkInvariants();
          }
          engine.advanceTo(T0 + 61_000_000);
          return [engine.stateHash(), engine.sequence, JSON.stringify(engine.depth('BTCUSDT', 50))];
        };
        expect(run(true)).toEqual(run(false));
      }),
      propertyParameters({ numRuns: 60 }),
    );
  });

  it('comes back from a snapshot the same, and steps on the same', () => {
    const engine = flowEngine();
    engine.advanceTo(T0 + 5_000_000);
    const copy = new Engine(CONFIG);
    copy.importSnapshot(engine.exportSnapshot());
    expect(copy.stateHash()).toBe(engine.stateHash());
    engine.advanceTo(T0 + 9_000_000);
    copy.advanceTo(T0 + 9_000_000);
    expect(copy.stateHash()).toBe(engine.stateHash());
    expect(copy.depth('BTCUSDT', 20)).toEqual(engine.depth('BTCUSDT', 20));
  });

  it('refuses a bad profile and changes nothing', () => {
    const engine = new Engine(CONFIG);
    const before = engine.stateHash();
    const events = engine.apply({ type: 'SetOrderFlowBook', time: T0, symbol: 'BTCUSDT', profile: { ...PROFILE, rate: -1 }, seed: 's' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'OrderRejected', time: T0, reason: 'INVALID_AMOUNT' });
    expect(engine.stateHash()).toBe(before);
  });
});
