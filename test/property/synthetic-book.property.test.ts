/**
 * The synthetic book under random command streams: the default scenario's full mix (every order
 * type, lists, cancels, amends, STP, market prints that anchor the book and set off stops) with a
 * synthetic book on both symbols, anchored at each centre price. After every command:
 * - `checkInvariants()` holds: books (with the synthetic levels merged in) never crossed, FIFO,
 *   locks = what open orders need, every asset conserved (the book's fills are external flows);
 * - each taker's fills keep price priority across the two sources (a BUY never pays less after
 *   paying more, a SELL never receives more after receiving less), users' orders before the
 *   synthetic book at one price, and the synthetic book's fills name no maker account or order;
 * - a refused command leaves the state hash unchanged;
 * - the engine's own plan-vs-walk check (a quote-amount walk that takes other than its plan
 *   throws) never fires.
 * And two engines fed the same stream end with the same state hash, whoever looked at the book.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineCommand } from '../../src/engine/commands.ts';
import { Engine } from '../../src/engine/engine.ts';
import type { EngineEvent, TradeExecuted } from '../../src/engine/events.ts';
import { SYNTHETIC_MAKER } from '../../src/engine/index.ts';
import { fixtureAssets } from '../support/fixtures.ts';
import { commandStreamArb, defaultScenario, START_TIME, type Scenario } from './command-arbitraries.ts';
import { propertyParameters } from './property-parameters.ts';

function syntheticSetup(scenario: Scenario): EngineCommand[] {
  const out: EngineCommand[] = [];
  for (const g of scenario.gens) {
    out.push({ type: 'SetSyntheticBook', time: START_TIME, symbol: g.symbol, seed: 'prop', profile: { levels: 4, spreadTicks: [1, 3], gapTicks: 1, baseQty: g.step * g.lotSteps, growth: 1.5, jitter: 0.5 } });
    out.push({ type: 'SetSyntheticAnchor', time: START_TIME, symbol: g.symbol, price: g.centerPrice });
  }
  return out;
}

/** Fills against the synthetic book seen by the checks (the property must exercise it). */
let syntheticFills = 0;

/** Fills of one command's takers, grouped by taker order, in event order. */
function checkPricePriority(events: readonly EngineEvent[]): void {
  const byTaker = new Map<number, TradeExecuted[]>();
  for (const e of events) {
    if (e.type !== 'TradeExecuted') continue;
    if ((e.makerAccountId === SYNTHETIC_MAKER) !== (e.makerOrderId === SYNTHETIC_MAKER)) throw new Error(`half-synthetic maker: ${JSON.stringify(e)}`);
    if (e.makerAccountId === SYNTHETIC_MAKER) syntheticFills++;
    if (e.makerAccountId === SYNTHETIC_MAKER && e.makerCommission !== 0) throw new Error('the synthetic book paid a fee');
    const key = e.takerOrderId * 2 + (e.symbol === 'BTCUSDT' ? 0 : 1);
    const list = byTaker.get(key) ?? [];
    list.push(e);
    byTaker.set(key, list);
  }
  for (const fills of byTaker.values()) {
    for (let i = 1; i < fills.length; i++) {
      const a = fills[i - 1]!;
      const b = fills[i]!;
      const takerBuys = !a.isBuyerMaker;
      if (takerBuys ? b.price < a.price : b.price > a.price) throw new Error(`price priority broken: ${a.price} then ${b.price}`);
      if (a.price === b.price && a.makerAccountId === SYNTHETIC_MAKER && b.makerAccountId !== SYNTHETIC_MAKER) {
        throw new Error(`a user's order at ${a.price} came after the synthetic book`);
      }
    }
  }
}

/** 'checked': every check after every command; 'quiet': nothing reads the engine until the end; 'peek': depth read after every command. */
function run(scenario: Scenario, commands: readonly EngineCommand[], mode: 'checked' | 'quiet' | 'peek'): string {
  const engine = new Engine({ symbols: scenario.symbols, assets: fixtureAssets() });
  for (const command of [...scenario.setup, ...syntheticSetup(scenario)]) engine.apply(command);
  for (const command of commands) {
    const before = mode === 'checked' ? engine.stateHash() : '';
    const events = engine.apply(command);
    if (mode === 'checked') {
      if (events[0]?.type === 'OrderRejected' && events.length === 1) expect(engine.stateHash()).toBe(before);
      checkPricePriority(events);
      engine.checkInvariants();
    }
    if (mode === 'peek') for (const g of scenario.gens) engine.depth(g.symbol, 20);
  }
  return engine.stateHash();
}

describe('synthetic book under random command streams', () => {
  it('keeps every invariant, price priority across both sources, and refusals change nothing', () => {
    const scenario = defaultScenario();
    fc.assert(
      fc.property(commandStreamArb(scenario, { maxLength: 60 }), (commands) => {
        run(scenario, commands, 'checked');
      }),
      propertyParameters({ numRuns: 120 }),
    );
    expect(syntheticFills).toBeGreaterThan(50);
  });

  it('ends in the same state whether or not anyone read the book along the way', () => {
    const scenario = defaultScenario();
    fc.assert(
      fc.property(commandStreamArb(scenario, { maxLength: 40 }), (commands) => {
        expect(run(scenario, commands, 'peek')).toBe(run(scenario, commands, 'quiet'));
      }),
      propertyParameters({ numRuns: 60 }),
    );
  });
});
