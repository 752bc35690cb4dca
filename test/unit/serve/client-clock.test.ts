/**
 * The live server's client clock rule (src/serve/client-clock.ts) on a fake wall clock: wall-clock
 * stamps are judged in wall time at any speed, stamps made with an offset learnt from GET
 * /api/v3/time stay fresh however far simulated time has run ahead, server-time stamps still
 * work, and stale, replayed or future stamps are refused under every reading.
 */
import { describe, expect, test } from 'vitest';
import { checkTimestamp, DEFAULT_RECV_WINDOW_US } from '../../../src/api-facade/index.ts';
import { ClientClock } from '../../../src/serve/client-clock.ts';
import { Pacing } from '../../../src/clock/index.ts';

const WALL0 = Date.UTC(2026, 10, 25, 12); // the host's clock at the server's start, ms
const SIM0 = Date.UTC(2024, 0, 1, 4) * 1000; // the replay's start, µs

function setup(mode: string) {
  let wall = WALL0;
  const pacing = new Pacing(mode, { simulatedStart: SIM0, wallClock: () => wall, realStart: WALL0 });
  const clock = new ClientClock(pacing);
  const stamp = (ms: number) => ({ ms: Math.floor(ms), us: Math.round(ms * 1000), unit: 'ms' as const });
  /** True when a request stamped `ms` at `ip` passes the recvWindow (5 s) and ahead (1 s) rules now. */
  const accepted = (ms: number, ip = '10.0.0.1'): boolean => {
    const now = pacing.simulatedNow(wall);
    try {
      checkTimestamp(clock.rule(stamp(ms), now, ip), DEFAULT_RECV_WINDOW_US, now);
      return true;
    } catch {
      return false;
    }
  };
  return {
    pacing,
    clock,
    accepted,
    /** Moves the host's wall clock on. */
    wait: (ms: number) => void (wall += ms),
    wallNow: () => wall,
    simNowMs: () => pacing.simulatedNow(wall) / 1000,
  };
}

describe.each(['speed:10', 'speed:100'])('at %s', (mode) => {
  test('a wall-clock stamp is judged in wall time: 600 ms old passes, 6 s old and 2 s ahead fail', () => {
    const s = setup(mode);
    s.wait(120_000);
    expect(s.accepted(s.wallNow())).toBe(true);
    expect(s.accepted(s.wallNow() - 600)).toBe(true);
    expect(s.accepted(s.wallNow() - 6_000)).toBe(false);
    expect(s.accepted(s.wallNow() + 2_000)).toBe(false);
  });

  test('a client that learnt its offset once (ccxt adjustForTimeDifference) stays fresh for minutes; a replay of its request does not', () => {
    const s = setup(mode);
    s.wait(1_000);
    // The client's host clock is 3.2 s behind the server's host; it syncs: offset = serverTime - its clock.
    const skew = -3_200;
    const serverTime = s.simNowMs();
    s.clock.noteServerTime(serverTime * 1000, '10.0.0.1');
    const offset = serverTime - (s.wallNow() + skew);
    const signedNow = () => s.wallNow() + skew + offset;
    for (let minute = 1; minute <= 5; minute++) {
      s.wait(60_000);
      expect(s.accepted(signedNow())).toBe(true);
      // Simulated time has run far ahead of the stamp: read as server time it would be minutes old.
      expect(s.simNowMs() - signedNow()).toBeGreaterThan(60_000);
    }
    const replayed = signedNow();
    s.wait(10_000);
    expect(s.accepted(replayed)).toBe(false);
    // Another IP was never told that offset.
    expect(s.accepted(signedNow(), '10.0.0.2')).toBe(false);
  });

  test('a client that keeps polling the time after its sync still signs with its first offset', () => {
    const s = setup(mode);
    s.clock.noteServerTime(s.simNowMs() * 1000, '10.0.0.1');
    const offset = s.simNowMs() - s.wallNow();
    for (let poll = 0; poll < 100; poll++) {
      s.wait(300);
      // Each poll hands out a new offset (simulated time runs faster than the wall clock) ...
      s.clock.noteServerTime(s.simNowMs() * 1000, '10.0.0.1');
      // ... while the client goes on signing with the one it learnt first.
      expect(s.accepted(s.wallNow() + offset)).toBe(true);
    }
  });

  test('a stamp copied from serverTime is judged in simulated time', () => {
    const s = setup(mode);
    s.wait(30_000);
    expect(s.accepted(s.simNowMs())).toBe(true);
    expect(s.accepted(s.simNowMs() - 4_000)).toBe(true);
    expect(s.accepted(s.simNowMs() - 6_000)).toBe(false);
  });
});

test('manual clock: simulated time stands still, wall-clock and synced stamps still pass, stale ones fail', () => {
  const s = setup('manual');
  s.clock.noteServerTime(SIM0, '10.0.0.1');
  const offset = SIM0 / 1000 - s.wallNow();
  s.wait(45_000);
  expect(s.simNowMs()).toBe(SIM0 / 1000);
  expect(s.accepted(s.wallNow())).toBe(true);
  expect(s.accepted(s.wallNow() + offset)).toBe(true);
  expect(s.accepted(s.simNowMs())).toBe(true);
  expect(s.accepted(s.wallNow() - 10_000)).toBe(false);
});
