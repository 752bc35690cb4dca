import { describe, expect, it } from 'vitest';
import { Pacing, formatPacingMode, pacingSpeed, parsePacingMode, type WallClock } from '../../../src/clock/pacing.ts';

/** Simulated start: 2023-11-14T22:13:20Z in µs. */
const SIM0 = 1_700_000_000_000_000;
/** Real start: some later real instant in ms. */
const REAL0 = 1_800_000_000_000;

/** A wall clock the test moves by hand. */
function fakeWallClock(start = REAL0): { clock: WallClock; set: (ms: number) => void; reads: () => number } {
  let now = start;
  let reads = 0;
  return {
    clock: () => {
      reads++;
      return now;
    },
    set: (ms) => {
      now = ms;
    },
    reads: () => reads,
  };
}

describe('parsePacingMode', () => {
  it('parses the modes the CLI passes', () => {
    expect(parsePacingMode('manual')).toEqual({ kind: 'manual' });
    expect(parsePacingMode('realtime')).toEqual({ kind: 'realtime' });
    expect(parsePacingMode('speed:10')).toEqual({ kind: 'speed', speed: 10 });
    expect(parsePacingMode('speed:0.5')).toEqual({ kind: 'speed', speed: 0.5 });
    expect(parsePacingMode('speed:.25')).toEqual({ kind: 'speed', speed: 0.25 });
    expect(parsePacingMode('speed:1')).toEqual({ kind: 'speed', speed: 1 });
  });

  it.each(['', 'Manual', 'REALTIME', 'fast', 'speed', 'speed:', 'speed:0', 'speed:0.0', 'speed:-1', 'speed:abc', 'speed:1e3', 'speed:Infinity', 'speed: 10', ' manual', 'speed:10x', 'speed:1.'])(
    'rejects %j with an error naming the input and the accepted forms',
    (text) => {
      expect(() => parsePacingMode(text)).toThrow(new RegExp(`invalid clock mode ${JSON.stringify(text).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*manual, realtime or speed:N`));
    },
  );

  it('formats a mode back to the string it was parsed from', () => {
    for (const text of ['manual', 'realtime', 'speed:10', 'speed:0.5']) expect(formatPacingMode(parsePacingMode(text))).toBe(text);
  });

  it('gives the speed of each mode', () => {
    expect(pacingSpeed({ kind: 'manual' })).toBe(0);
    expect(pacingSpeed({ kind: 'realtime' })).toBe(1);
    expect(pacingSpeed({ kind: 'speed', speed: 60 })).toBe(60);
  });
});

describe('Pacing', () => {
  it('in manual mode maps every real instant to the anchor and has no inverse', () => {
    const wall = fakeWallClock();
    const pacing = new Pacing('manual', { simulatedStart: SIM0, wallClock: wall.clock });
    wall.set(REAL0 + 60_000);
    expect(pacing.simulatedNow()).toBe(SIM0);
    expect(pacing.realNowToSimulated(REAL0 - 5_000)).toBe(SIM0);
    expect(() => pacing.simulatedToReal(SIM0)).toThrow(/manual/);
    pacing.reanchor(SIM0 + 42);
    expect(pacing.simulatedNow()).toBe(SIM0 + 42);
  });

  it('in realtime mode moves one simulated µs per real µs from the anchor', () => {
    const wall = fakeWallClock();
    const pacing = new Pacing('realtime', { simulatedStart: SIM0, wallClock: wall.clock });
    expect(pacing.anchor).toEqual({ real: REAL0, simulated: SIM0 });
    expect(pacing.simulatedNow()).toBe(SIM0);
    wall.set(REAL0 + 1_500);
    expect(pacing.simulatedNow()).toBe(SIM0 + 1_500_000);
    expect(pacing.simulatedNow(REAL0 + 0.001)).toBe(SIM0 + 1);
    expect(pacing.simulatedToReal(SIM0 + 2_000_000)).toBe(REAL0 + 2_000);
  });

  it('in speed:N mode moves N simulated seconds per real second', () => {
    const wall = fakeWallClock();
    const fast = new Pacing('speed:10', { simulatedStart: SIM0, wallClock: wall.clock });
    const slow = new Pacing('speed:0.5', { simulatedStart: SIM0, wallClock: wall.clock });
    wall.set(REAL0 + 3_000);
    expect(fast.simulatedNow()).toBe(SIM0 + 30_000_000);
    expect(slow.simulatedNow()).toBe(SIM0 + 1_500_000);
    expect(fast.simulatedToReal(SIM0 + 30_000_000)).toBe(REAL0 + 3_000);
    expect(slow.simulatedToReal(SIM0 + 1_500_000)).toBe(REAL0 + 3_000);
  });

  it('maps client timestamps before the anchor to simulated times before the start', () => {
    const pacing = new Pacing('speed:2', { simulatedStart: SIM0, realStart: REAL0, wallClock: fakeWallClock().clock });
    expect(pacing.realNowToSimulated(REAL0 - 1_000)).toBe(SIM0 - 2_000_000);
  });

  it('round-trips simulated -> real -> simulated to the µs at speeds up to 1, and within the real clock resolution above', () => {
    // An epoch-ms double resolves about 0.24 µs of real time today, i.e. 0.24 × N µs of
    // simulated time at speed N.
    for (const [mode, tolerance] of [['speed:0.1', 0], ['speed:0.3', 0], ['realtime', 0], ['speed:7', 2], ['speed:1000', 250]] as const) {
      const pacing = new Pacing(mode, { simulatedStart: SIM0, realStart: REAL0 + 0.123, wallClock: () => 0 });
      for (const offset of [0, 1, 7, 999, 123_456_789, 86_400_000_000]) {
        const back = pacing.realNowToSimulated(pacing.simulatedToReal(SIM0 + offset));
        expect(Math.abs(back - (SIM0 + offset)), `${mode} +${offset}`).toBeLessThanOrEqual(tolerance);
      }
    }
  });

  it('reads the wall clock only when no real time is passed in', () => {
    const wall = fakeWallClock();
    const pacing = new Pacing('realtime', { simulatedStart: SIM0, wallClock: wall.clock });
    expect(wall.reads()).toBe(1); // the anchor
    pacing.simulatedNow(REAL0 + 5);
    pacing.realNowToSimulated(REAL0 + 5);
    pacing.simulatedToReal(SIM0);
    expect(wall.reads()).toBe(1);
    pacing.simulatedNow();
    expect(wall.reads()).toBe(2);
  });

  it('takes an explicit real start instead of reading the wall clock', () => {
    const wall = fakeWallClock();
    const pacing = new Pacing('realtime', { simulatedStart: SIM0, realStart: REAL0 - 10, wallClock: wall.clock });
    expect(wall.reads()).toBe(0);
    expect(pacing.simulatedNow()).toBe(SIM0 + 10_000);
  });

  it('continues from a new anchor after reanchor, at the same speed', () => {
    const wall = fakeWallClock();
    const pacing = new Pacing('speed:10', { simulatedStart: SIM0, wallClock: wall.clock });
    wall.set(REAL0 + 1_000);
    pacing.reanchor(SIM0 + 3_600_000_000);
    wall.set(REAL0 + 2_000);
    expect(pacing.simulatedNow()).toBe(SIM0 + 3_600_000_000 + 10_000_000);
  });

  it('rejects a bad mode, a non-positive speed object and a fractional start', () => {
    const wallClock = fakeWallClock().clock;
    expect(() => new Pacing('warp', { simulatedStart: SIM0, wallClock })).toThrow(/invalid clock mode "warp"/);
    expect(() => new Pacing({ kind: 'speed', speed: -2 }, { simulatedStart: SIM0, wallClock })).toThrow(RangeError);
    expect(() => new Pacing({ kind: 'speed', speed: Number.NaN }, { simulatedStart: SIM0, wallClock })).toThrow(RangeError);
    expect(() => new Pacing('realtime', { simulatedStart: SIM0 + 0.5, wallClock })).toThrow(RangeError);
  });
});
