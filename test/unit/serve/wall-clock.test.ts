/** The served exchange's wall clock: epoch milliseconds (not process-relative), never going back. */
import { expect, it } from 'vitest';
import { Pacing } from '../../../src/clock/index.ts';
import { systemWallClock } from '../../../src/serve/index.ts';

it('reads epoch milliseconds that never go back, and paces a clock anchored at construction', () => {
  const first = systemWallClock();
  expect(first).toBeGreaterThan(1_600_000_000_000);
  expect(systemWallClock()).toBeGreaterThanOrEqual(first);
  const SIM0 = 1_700_000_000_000_000;
  const pacing = new Pacing('realtime', { simulatedStart: SIM0, wallClock: systemWallClock });
  const now = pacing.simulatedNow();
  expect(now).toBeGreaterThanOrEqual(SIM0);
  expect(now - SIM0).toBeLessThan(10_000_000);
  expect(pacing.anchor.real).toBeGreaterThan(1_600_000_000_000);
});
