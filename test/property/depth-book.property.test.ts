/**
 * The depth book (recorded L2) under random streams of depth messages and users' takers:
 * - rebuilt from any generated update stream, the book equals a naive reference (a Map of
 *   price -> size per side, the same message rules written the obvious way) at every step, also
 *   while users take liquidity from it (what they take stays taken until the level is set anew);
 * - mixed into the full command mix (every order type, lists, cancels, STP, market prints),
 *   every engine invariant holds after every command (books never crossed, with the depth merged
 *   in; assets conserved, the book's fills being external flows) and a refused command changes
 *   nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ApplyDepth, EngineCommand } from '../../src/engine/commands.ts';
import { Engine } from '../../src/engine/engine.ts';
import { fixtureAssets } from '../support/fixtures.ts';
import { commandStreamArb, defaultScenario, START_TIME } from './command-arbitraries.ts';
import { propertyParameters } from './property-parameters.ts';

const scenario = defaultScenario();
const gen = scenario.gens[0]!; // BTCUSDT
const SYMBOL = gen.symbol;

/** A level row: ticks from the centre (bids below, asks above, a few crossing), size in lots (0 removes). */
const rowArb = fc.record({ ticks: fc.integer({ min: -8, max: 8 }), lots: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5 })) });
const messageArb = fc.record({
  clear: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  bids: fc.array(rowArb, { maxLength: 6 }),
  asks: fc.array(rowArb, { maxLength: 6 }),
});
/** A user's MARKET order taking from the book: side and lots. */
const takeArb = fc.record({ buy: fc.boolean(), lots: fc.integer({ min: 1, max: 6 }) });
const stepArb = fc.oneof({ weight: 4, arbitrary: messageArb.map((m) => ({ kind: 'message' as const, m })) }, { weight: 1, arbitrary: takeArb.map((t) => ({ kind: 'take' as const, t })) });

type Message = { clear: boolean; bids: { ticks: number; lots: number }[]; asks: { ticks: number; lots: number }[] };

function depthCommand(m: Message, time: number): ApplyDepth {
  // Bids sit at or below the centre + 2 ticks, asks at or above the centre − 2: some messages cross.
  const lot = gen.step * gen.lotSteps;
  const flat = (rows: { ticks: number; lots: number }[], shift: number) => rows.flatMap((r) => [gen.centerPrice + (r.ticks + shift) * gen.tick, r.lots * lot]);
  return { type: 'ApplyDepth', time, symbol: SYMBOL, clear: m.clear, bids: flat(m.bids, -6), asks: flat(m.asks, 6) };
}

/** The reference: sizes by price per side, the message rules in the plainest form. */
class NaiveDepth {
  bids = new Map<number, number>();
  asks = new Map<number, number>();

  apply(c: ApplyDepth): void {
    if (c.clear) {
      this.bids.clear();
      this.asks.clear();
    }
    let bidSet = 0;
    let askSet = Infinity;
    for (let i = 0; i < c.bids.length; i += 2) {
      const [p, q] = [c.bids[i]!, c.bids[i + 1]!];
      if (q === 0) this.bids.delete(p);
      else this.bids.set(p, q);
      if (q > 0) bidSet = Math.max(bidSet, p);
    }
    for (let i = 0; i < c.asks.length; i += 2) {
      const [p, q] = [c.asks[i]!, c.asks[i + 1]!];
      if (q === 0) this.asks.delete(p);
      else this.asks.set(p, q);
      if (q > 0) askSet = Math.min(askSet, p);
    }
    const bid = this.best(true);
    const ask = this.best(false);
    if (bid === undefined || ask === undefined || bid < ask) return;
    // The side the message set at its best wins; the other side's crossing levels were stale.
    if (bid === bidSet || ask !== askSet) for (const p of [...this.asks.keys()]) if (p <= bid) this.asks.delete(p);
    if (!(bid === bidSet || ask !== askSet)) for (const p of [...this.bids.keys()]) if (p >= ask) this.bids.delete(p);
  }

  best(isBid: boolean): number | undefined {
    const live = [...(isBid ? this.bids : this.asks)].filter(([, q]) => q > 0).map(([p]) => p);
    if (live.length === 0) return undefined;
    return isBid ? Math.max(...live) : Math.min(...live);
  }

  /** A taker of `qty` base units walks the other side best first; returns [price, qty] fills. */
  take(buy: boolean, qty: number): [number, number][] {
    const side = buy ? this.asks : this.bids;
    const prices = [...side].filter(([, q]) => q > 0).map(([p]) => p).sort((a, b) => (buy ? a - b : b - a));
    const fills: [number, number][] = [];
    for (const p of prices) {
      if (qty === 0) break;
      const q = Math.min(qty, side.get(p)!);
      fills.push([p, q]);
      side.set(p, side.get(p)! - q);
      qty -= q;
    }
    return fills;
  }

  depth(isBid: boolean): [number, number][] {
    return [...(isBid ? this.bids : this.asks)].filter(([, q]) => q > 0).sort((a, b) => (isBid ? b[0] - a[0] : a[0] - b[0]));
  }
}

/** `usersOrders`: keep the scenario's resting orders (the reference test compares the depth book alone). */
function freshEngine(usersOrders: boolean): Engine {
  const engine = new Engine({ symbols: scenario.symbols, assets: fixtureAssets() });
  for (const command of scenario.setup) if (usersOrders || command.type !== 'PlaceOrder') engine.apply(command);
  engine.apply({ type: 'SetDepthBook', time: START_TIME, symbol: SYMBOL, mode: 'recorded' });
  return engine;
}

describe('recorded depth book', () => {
  it('equals a naive reference book at every step of any update stream, takers included', () => {
    let takes = 0;
    fc.assert(
      fc.property(fc.array(stepArb, { minLength: 1, maxLength: 40, size: 'max' }), (steps) => {
        const engine = freshEngine(false);
        const naive = new NaiveDepth();
        let time = START_TIME;
        for (const step of steps) {
          time += 1000;
          if (step.kind === 'message') {
            const command = depthCommand(step.m, time);
            expect(engine.apply(command)).toEqual([]);
            naive.apply(command);
          } else {
            const qty = step.t.lots * gen.step * gen.lotSteps;
            const events = engine.apply({ type: 'PlaceOrder', time, accountId: 1, symbol: SYMBOL, side: step.t.buy ? 'BUY' : 'SELL', orderType: 'MARKET', quantity: qty });
            if (events[0]?.type === 'OrderRejected') continue; // funds or filters: nothing taken
            const fills = events.flatMap((e) => (e.type === 'TradeExecuted' ? [[e.price, e.quantity] as [number, number]] : []));
            const expected = naive.take(step.t.buy, qty);
            expect(fills).toEqual(expected);
            if (fills.length > 0) takes++;
          }
          const view = engine.depth(SYMBOL, 5000);
          expect(view.bids).toEqual(naive.depth(true));
          expect(view.asks).toEqual(naive.depth(false));
          engine.checkInvariants();
        }
      }),
      propertyParameters({ numRuns: 300 }),
    );
    expect(takes).toBeGreaterThan(20);
  });

  it('keeps every invariant in the full command mix, and refusals change nothing', () => {
    const mixed = fc.tuple(commandStreamArb(scenario, { maxLength: 50 }), fc.array(fc.tuple(fc.nat(50), messageArb), { maxLength: 25 }));
    fc.assert(
      fc.property(mixed, ([commands, messages]) => {
        const engine = freshEngine(true);
        const stream: EngineCommand[] = [...commands];
        // Each message goes after the command at its index, at that command's time.
        for (const [at, m] of [...messages].sort((a, b) => b[0] - a[0])) {
          const index = Math.min(at, stream.length);
          const time = index === 0 ? START_TIME : stream[index - 1]!.time;
          stream.splice(index, 0, depthCommand(m, time));
        }
        for (const command of stream) {
          const before = engine.stateHash();
          const events = engine.apply(command);
          if (events[0]?.type === 'OrderRejected' && events.length === 1) expect(engine.stateHash()).toBe(before);
          engine.checkInvariants();
        }
      }),
      propertyParameters({ numRuns: 120 }),
    );
  });
});
