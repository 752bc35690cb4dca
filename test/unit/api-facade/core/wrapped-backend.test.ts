/**
 * WrappedBackend forwards exactly the hooks its inner backend has: all of a replay's, none of a
 * bare engine's (readers look at which exist), each calling through to the inner one.
 */
import { expect, test } from 'vitest';
import { EngineBackend, WrappedBackend, type MarketBackend, type MarketHooks } from '../../../../src/api-facade/index.ts';
import { SAMPLE_CONFIG } from '../../../../src/sample/index.ts';

const HOOKS: (keyof MarketHooks)[] = ['onMarketFill', 'onMarketEvents', 'onTrade', 'schedule'];
const T0 = Date.UTC(2024, 0, 1) * 1000;

test('a wrapper of a bare engine has no hooks; a wrapper of a backend with every hook forwards each', () => {
  const bare = new WrappedBackend(new EngineBackend(SAMPLE_CONFIG, T0));
  for (const name of HOOKS) expect(bare[name], name).toBeUndefined();

  const engine = new EngineBackend(SAMPLE_CONFIG, T0);
  const calls: string[] = [];
  const hooked: MarketBackend = {
    engine: engine.engine,
    now: T0,
    apply: (command) => engine.apply(command),
    history: (symbol) => engine.history(symbol),
    onMarketFill: () => void calls.push('onMarketFill'),
    onMarketEvents: () => void calls.push('onMarketEvents'),
    onTrade: () => void calls.push('onTrade'),
    schedule: (time) => void calls.push(`schedule ${time - T0}`),
  };
  const wrapped = new WrappedBackend(hooked);
  wrapped.onMarketFill!(() => {});
  wrapped.onMarketEvents!(() => {});
  wrapped.onTrade!(() => {});
  wrapped.schedule!(T0 + 5, () => {});
  expect(calls).toEqual(['onMarketFill', 'onMarketEvents', 'onTrade', 'schedule 5']);
  expect(wrapped.now).toBe(T0);
  expect(wrapped.engine).toBe(engine.engine);
});
