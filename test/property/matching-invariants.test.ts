/**
 * Model-based property tests of the matching engine: random command streams (every order type
 * and time in force, quoteOrderQty markets, cancels by id and client id with restrictions,
 * cancel-all, all STP modes, balance adjustments and symbol status changes; and, in the `full`
 * mix, stops of all four types with stop prices and/or trailing deltas, icebergs, price pegs,
 * OCO / OTO / OTOCO / OPO / OPOCO lists, list cancels, cancel-replace in both modes and amends,
 * with market prints that trigger the stops) run through the real engine while
 * `EngineModelChecker` checks, after every single command, that
 * - no book is crossed and every price level is FIFO;
 * - each account's locked funds are exactly what its open orders still need;
 * - every asset is conserved to the last unit (accounts + fees == deposits), nothing negative;
 * - fills, statuses and views agree with the events, statuses only move along the legal graph;
 * - stops trigger once, at a trade price of the command that meets their condition; list status
 *   is ALL_DONE exactly when every leg ended; an OCO never trades both legs; expiry reasons
 *   OCO_TRIGGER / OTO_PHASE_ONE_EXPIRED / REJECTED only where they belong; amends only reduce;
 *   cancel-replace results match the events (a failed part changes nothing);
 * - `checkInvariants()` holds;
 * - a rejected command leaves the state hash unchanged (its own property, see below).
 *
 * Failures print fast-check's seed and the shrunk command list; replay one with
 * EXSIM_PROPERTY_SEED=<seed> (and EXSIM_PROPERTY_PATH=<path>) or raise EXSIM_PROPERTY_RUNS for a
 * long run (e.g. EXSIM_PROPERTY_RUNS=20000 npx vitest run test/property --testTimeout=0 -t "stops, trailing";
 * ~65 runs/s of the full mix on a 2-core box).
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { EngineCommand } from '../../src/engine/commands.ts';
import { Engine } from '../../src/engine/engine.ts';
import { fixtureAssets } from '../support/fixtures.ts';
import { commandStreamArb, defaultScenario, stpHeavyScenario, type Scenario } from './command-arbitraries.ts';
import { EngineModelChecker, type CheckerOptions } from './engine-model-checker.ts';
import { propertyParameters } from './property-parameters.ts';

function runAgainstModel(scenario: Scenario, commands: readonly EngineCommand[], options: CheckerOptions): void {
  const engine = new Engine({ symbols: scenario.symbols, assets: fixtureAssets() });
  const checker = new EngineModelChecker(engine, options);
  for (const command of scenario.setup) checker.apply(command);
  checker.beginStream();
  for (const command of commands) checker.apply(command);
}

// The stateHash rule has its own property so that, if it breaks, the others still report.
const WITHOUT_HASH: CheckerOptions = { checkRejectedHash: false };

describe('matching engine under random command streams', () => {
  it('keeps every book, balance and order invariant after every command (plain LIMIT / MARKET flow)', () => {
    const scenario = defaultScenario();
    fc.assert(
      fc.property(commandStreamArb(scenario, { mix: 'plain' }), (commands) => runAgainstModel(scenario, commands, WITHOUT_HASH)),
      propertyParameters({ numRuns: 100 }),
    );
  });

  it('keeps every invariant with stops, trailing stops, icebergs, pegs, order lists, cancel-replace and amends', () => {
    const scenario = defaultScenario();
    fc.assert(
      fc.property(commandStreamArb(scenario), (commands) => runAgainstModel(scenario, commands, WITHOUT_HASH)),
      propertyParameters({ numRuns: 200 }),
    );
  });

  it('keeps every invariant when most flow self-trades inside one trade group (STP everywhere)', () => {
    const scenario = stpHeavyScenario();
    fc.assert(
      fc.property(commandStreamArb(scenario), (commands) => runAgainstModel(scenario, commands, WITHOUT_HASH)),
      propertyParameters({ numRuns: 150 }),
    );
  });

  it('keeps every invariant over long streams where books grow deep', () => {
    const scenario = defaultScenario();
    fc.assert(
      fc.property(commandStreamArb(scenario, { minLength: 100, maxLength: 200 }), (commands) =>
        runAgainstModel(scenario, commands, WITHOUT_HASH),
      ),
      propertyParameters({ numRuns: 40 }),
    );
  });

  it('leaves the state hash unchanged by every command it rejects', () => {
    const scenario = defaultScenario();
    fc.assert(
      fc.property(commandStreamArb(scenario), (commands) => runAgainstModel(scenario, commands, { checkRejectedHash: true })),
      propertyParameters({ numRuns: 100 }),
    );
  });
});
