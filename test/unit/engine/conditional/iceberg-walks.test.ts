/**
 * Icebergs against takers whose cost must be known before they walk (MARKET by quantity and by
 * quoteOrderQty, FOK): the read-only plan lays out the iceberg rotation in advance, and the walk
 * asserts that it took exactly what the plan said (it throws otherwise). On the ETHBTC grid
 * notionals floor per fill, so a plan that met the makers in another order would cost a
 * different amount. Self-trade prevention modes that leave the taker going are mixed in.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineCommand, PlaceOrder } from '../../../../src/engine/commands.ts';
import { Engine } from '../../../../src/engine/engine.ts';
import { createAccount, engineConfig, ethbtcConfig, units } from '../../../support/fixtures.ts';

const T0 = 1_700_000_000_000_000;

describe('iceberg walks', () => {
  it('plans and walks agree for MARKET and FOK takers through levels of icebergs', () => {
    const maker = fc.record({
      account: fc.constantFrom(1, 2),
      priceTicks: fc.integer({ min: 5000, max: 5004 }),
      steps: fc.integer({ min: 2, max: 60 }),
      parts: fc.integer({ min: 0, max: 6 }),
    });
    const taker = fc.record({
      account: fc.constantFrom(1, 3),
      kind: fc.constantFrom('qty', 'quote', 'fok'),
      steps: fc.integer({ min: 1, max: 300 }),
      quote: fc.integer({ min: 1000, max: 2_000_000 }),
      stp: fc.constantFrom('EXPIRE_MAKER', 'DECREMENT', 'EXPIRE_TAKER'),
    });
    fc.assert(
      fc.property(fc.array(maker, { minLength: 1, maxLength: 12 }), fc.array(taker, { minLength: 1, maxLength: 4 }), (makers, takers) => {
        const engine = new Engine(engineConfig([ethbtcConfig()]));
        let time = T0;
        const apply = (command: EngineCommand) => engine.apply({ ...command, time: (time += 1) });
        for (const id of [1, 2, 3]) apply(createAccount(id, { balances: { ETH: '1000', BTC: '1000' } }));
        apply({ type: 'SetReferencePrice', time, symbol: 'ETHBTC', price: units('0.05') });
        const step = units('0.0001');
        const tick = units('0.00001');
        for (const m of makers) {
          const order: PlaceOrder = { type: 'PlaceOrder', time, accountId: m.account, symbol: 'ETHBTC', side: 'SELL', orderType: 'LIMIT', timeInForce: 'GTC', price: m.priceTicks * tick, quantity: m.steps * step };
          if (m.parts > 0) order.icebergQty = Math.max(1, Math.ceil(m.steps / Math.min(m.parts + 1, 10))) * step;
          if (order.icebergQty !== undefined && order.icebergQty >= order.quantity!) delete order.icebergQty;
          apply(order);
          engine.checkInvariants();
        }
        for (const t of takers) {
          const base = { type: 'PlaceOrder' as const, time, accountId: t.account, symbol: 'ETHBTC', side: 'BUY' as const, selfTradePreventionMode: t.stp };
          if (t.kind === 'qty') apply({ ...base, orderType: 'MARKET', quantity: t.steps * step });
          else if (t.kind === 'quote') apply({ ...base, orderType: 'MARKET', quoteOrderQty: t.quote });
          else apply({ ...base, orderType: 'LIMIT', timeInForce: 'FOK', price: 5004 * tick, quantity: t.steps * step });
          engine.checkInvariants();
        }
        // The visible book never shows more than the slices.
        for (const [, shown] of engine.depth('ETHBTC', 100).asks) expect(shown).toBeGreaterThan(0);
      }),
      { numRuns: 300, seed: 4242 },
    );
  });
});
