import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/virtual-clock.ts';
import { microsToMillis, millisToMicros } from '../../../src/clock/time-units.ts';

const T0 = 1_700_000_000_000_000;

describe('VirtualClock', () => {
  it('starts at the given time and moves forward, including to the same time', () => {
    const clock = new VirtualClock(T0);
    expect(clock.now).toBe(T0);
    clock.advanceTo(T0);
    clock.advanceTo(T0 + 5);
    expect(clock.now).toBe(T0 + 5);
  });

  it('throws when asked to run backwards and keeps its time', () => {
    const clock = new VirtualClock(T0);
    expect(() => clock.advanceTo(T0 - 1)).toThrow(/time ran backwards/);
    expect(clock.now).toBe(T0);
  });

  it('rejects times that are not safe integer microseconds', () => {
    const clock = new VirtualClock(T0);
    for (const bad of [T0 + 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => clock.advanceTo(bad)).toThrow(RangeError);
    }
    expect(() => new VirtualClock(1.5)).toThrow(RangeError);
    expect(clock.now).toBe(T0);
  });

  it('converts between milliseconds and microseconds', () => {
    expect(millisToMicros(1_700_000_000_123)).toBe(1_700_000_000_123_000);
    expect(millisToMicros(0.0015)).toBe(1);
    expect(microsToMillis(1_700_000_000_123_999)).toBe(1_700_000_000_123);
  });
});
