/** The live pacer (src/serve/live-pacer.ts) over a Scheduler, on a fake wall clock and fake host timers. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLivePacer } from '../../../src/serve/index.ts';
import { pacedScheduler as setup, REAL0, SIM0 } from '../../support/paced-scheduler.ts';

describe('startLivePacer (live adapter, fake host timers)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps the scheduler in step with the wall clock and stops on request', () => {
    vi.useFakeTimers();
    const { s, pacing, fired, setReal } = setup('speed:10');
    const pacer = startLivePacer(s, pacing, { maxSleepMs: 50 });
    for (let ms = 0; ms <= 300; ms += 10) {
      setReal(REAL0 + ms);
      vi.advanceTimersByTime(10);
    }
    expect(fired).toEqual([1_000_000, 2_000_000, 2_000_000]);
    pacer.stop();
    expect(pacer.running).toBe(false);
    setReal(REAL0 + 1_000);
    vi.advanceTimersByTime(1_000);
    expect(fired).toHaveLength(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('steps soon after wake, so newly scheduled work is not held back by a long sleep', () => {
    vi.useFakeTimers();
    const { s, pacing, fired, setReal } = setup('realtime');
    const pacer = startLivePacer(s, pacing, { maxSleepMs: 10_000 });
    setReal(REAL0 + 10);
    s.schedule(SIM0 + 5_000, (t) => fired.push(t - SIM0));
    pacer.wake();
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([5_000]);
    pacer.stop();
  });

  it('stops and reports when a step throws', () => {
    vi.useFakeTimers();
    const { s, pacing, setReal } = setup('realtime');
    s.schedule(SIM0 + 1_000, () => {
      throw new Error('boom');
    });
    const errors: unknown[] = [];
    const pacer = startLivePacer(s, pacing, { onError: (error) => errors.push(error) });
    setReal(REAL0 + 2_000);
    vi.advanceTimersByTime(100);
    expect(errors.map(String)).toEqual(['Error: boom']);
    expect(pacer.running).toBe(false);
  });

  it('refuses manual pacing', () => {
    const { s, pacing } = setup('manual');
    expect(() => startLivePacer(s, pacing)).toThrow(/manual/);
  });
});
