import { describe, expect, it } from 'vitest';
import { advanceToPacedTime, realDelayToNextTime } from '../../../src/clock/pace-driver.ts';
import { Pacing } from '../../../src/clock/pacing.ts';
import { Scheduler } from '../../../src/clock/scheduler.ts';
import { pacedScheduler as setup, REAL0, SIM0 } from '../../support/paced-scheduler.ts';

describe('advanceToPacedTime', () => {
  it('advances the scheduler to the simulated time of the given real instant, firing what is due', () => {
    const { s, pacing, fired } = setup('speed:10');
    expect(advanceToPacedTime(s, pacing, REAL0 + 200)).toBe(SIM0 + 2_000_000);
    expect(fired).toEqual([1_000_000, 2_000_000, 2_000_000]);
    expect(s.now).toBe(SIM0 + 2_000_000);
  });

  it('reads the pacing wall clock when no real time is given', () => {
    const { s, pacing, fired, setReal } = setup('realtime');
    setReal(REAL0 + 5_000);
    advanceToPacedTime(s, pacing);
    expect(fired).toHaveLength(4);
    expect(s.now).toBe(SIM0 + 5_000_000);
  });

  it('never moves time backwards when the pacing lags the scheduler', () => {
    const { s, pacing, fired } = setup('realtime');
    s.advanceTo(SIM0 + 3_000_000);
    s.schedule(s.now, (t) => fired.push(t - SIM0));
    expect(advanceToPacedTime(s, pacing, REAL0 + 1)).toBe(SIM0 + 3_000_000);
    // The timer due at the current time still fired.
    expect(fired).toEqual([1_000_000, 2_000_000, 2_000_000, 3_000_000]);
  });

  it('does nothing in manual mode', () => {
    const { s, pacing, fired } = setup('manual');
    expect(advanceToPacedTime(s, pacing, REAL0 + 1e9)).toBe(SIM0);
    expect(fired).toEqual([]);
  });

  it('gives the same firings however real time is sliced', () => {
    const coarse = setup('speed:3');
    const fine = setup('speed:3');
    advanceToPacedTime(coarse.s, coarse.pacing, REAL0 + 2_000);
    for (let ms = 0; ms <= 2_000; ms += 7) advanceToPacedTime(fine.s, fine.pacing, REAL0 + ms);
    advanceToPacedTime(fine.s, fine.pacing, REAL0 + 2_000);
    expect(fine.fired).toEqual(coarse.fired);
    expect(fine.s.now).toBe(coarse.s.now);
  });
});

describe('realDelayToNextTime', () => {
  it('gives the real ms until the next timer is due under the pacing', () => {
    const { s, pacing } = setup('speed:10');
    expect(realDelayToNextTime(s, pacing, REAL0)).toBe(100);
    expect(realDelayToNextTime(s, pacing, REAL0 + 150)).toBe(0);
  });

  it('is undefined with nothing queued or in manual mode', () => {
    expect(realDelayToNextTime(new Scheduler({ startTime: SIM0 }), new Pacing('realtime', { simulatedStart: SIM0, realStart: REAL0, wallClock: () => REAL0 }), REAL0)).toBeUndefined();
    const { s, pacing } = setup('manual');
    expect(realDelayToNextTime(s, pacing, REAL0)).toBeUndefined();
  });
});
