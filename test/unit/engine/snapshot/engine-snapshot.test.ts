/**
 * Engine snapshots (src/engine/snapshot/): the state after a seeded random command stream (every
 * order type, lists, cancels, amends, STP, market prints; with and without a synthetic book),
 * exported, read back into a fresh engine of the same config, gives the same state hash and the
 * same events for every later command as the engine that was never snapshotted.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EngineCommand } from '../../../../src/engine/commands.ts';
import { Engine } from '../../../../src/engine/engine.ts';
import { GraphCodec } from '../../../../src/engine/snapshot/graph-codec.ts';
import { fixtureAssets } from '../../../support/fixtures.ts';
import { commandStreamArb, defaultScenario, stpHeavyScenario, START_TIME, type Scenario } from '../../../property/command-arbitraries.ts';

function syntheticSetup(scenario: Scenario): EngineCommand[] {
  return scenario.gens.flatMap((g): EngineCommand[] => [
    { type: 'SetSyntheticBook', time: START_TIME, symbol: g.symbol, seed: 'snap', profile: { levels: 4, spreadTicks: [1, 3], gapTicks: 1, baseQty: g.step * g.lotSteps, growth: 1.5, jitter: 0.5 } },
    { type: 'SetSyntheticAnchor', time: START_TIME, symbol: g.symbol, price: g.centerPrice },
  ]);
}

describe('engine snapshot round trip', () => {
  const cases: [string, Scenario, boolean][] = [
    ['mixed flow', defaultScenario(), false],
    ['STP-heavy flow', stpHeavyScenario(), false],
    ['mixed flow over a synthetic book', defaultScenario(), true],
  ];
  for (const [name, scenario, synthetic] of cases) {
    it(`gives the same state hash and the same later events (${name})`, () => {
      const streams = fc.sample(commandStreamArb(scenario, { minLength: 60, maxLength: 160 }), { numRuns: 12, seed: 1313 });
      let compared = 0;
      for (const [n, commands] of streams.entries()) {
        const config = { symbols: scenario.symbols, assets: fixtureAssets() };
        const all = [...scenario.setup, ...(synthetic ? syntheticSetup(scenario) : []), ...commands];
        const cut = scenario.setup.length + Math.floor(commands.length * ((n % 5) + 1) / 6);
        const original = new Engine(config);
        for (const command of all.slice(0, cut)) original.apply(command);
        const bytes = original.exportSnapshot();
        const restored = new Engine(config);
        restored.importSnapshot(bytes);
        expect(restored.stateHash()).toBe(original.stateHash());
        expect(restored.sequence).toBe(original.sequence);
        for (const command of all.slice(cut)) {
          expect(JSON.stringify(restored.apply(command))).toBe(JSON.stringify(original.apply(command)));
          compared++;
        }
        expect(restored.stateHash()).toBe(original.stateHash());
        restored.checkInvariants();
      }
      expect(compared).toBeGreaterThan(300);
    });
  }

  it('refuses to save an instance of a class nobody registered, and a function', () => {
    class Unknown {
      x = 1;
    }
    expect(() => new GraphCodec().encode({ a: [new Unknown()] })).toThrow(/Unknown are not registered/);
    expect(() => new GraphCodec().encode({ f: () => 1 })).toThrow(/function/);
  });

  it('keeps shared references and cycles', () => {
    class Node {
      next: Node | null = null;
      constructor(readonly id: number) {}
    }
    const codec = new GraphCodec().plain('Node', Node);
    const a = new Node(1);
    const b = new Node(2);
    a.next = b;
    b.next = a;
    const back = codec.decode(codec.encode({ list: [a, b], byId: new Map([[1, a]]) })) as { list: Node[]; byId: Map<number, Node> };
    expect(back.list[0]).toBeInstanceOf(Node);
    expect(back.list[0]!.next).toBe(back.list[1]);
    expect(back.list[1]!.next).toBe(back.list[0]);
    expect(back.byId.get(1)).toBe(back.list[0]);
  });

  it('keeps large Maps of primitives (written flat) and large Maps holding objects', () => {
    class Item {
      constructor(readonly n: number) {}
    }
    const codec = new GraphCodec().plain('Item', Item);
    const byName = new Map(Array.from({ length: 5000 }, (_, i) => [`client-${i}`, i] as const));
    const byId = new Map(Array.from({ length: 5000 }, (_, i) => [i, i % 7 === 0 ? null : `id-${i}`] as const));
    const items = new Map(Array.from({ length: 300 }, (_, i) => [i, new Item(i)] as const));
    const back = codec.decode(codec.encode({ byName, byId, items, again: byName })) as { byName: Map<string, number>; byId: Map<number, string | null>; items: Map<number, Item>; again: unknown };
    expect([...back.byName]).toEqual([...byName]);
    expect([...back.byId]).toEqual([...byId]);
    expect(back.again).toBe(back.byName);
    expect(back.items.get(299)).toBeInstanceOf(Item);
    expect(back.items.get(299)!.n).toBe(299);
  });
});
