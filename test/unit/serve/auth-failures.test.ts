/**
 * Failed control-plane authentications per IP (src/serve/control/auth-failures.ts) on a fake wall
 * clock: `failures` tries a fixed window, then the IP is refused until the window ends (Retry-After
 * in whole seconds); other IPs are counted apart; a new window starts afresh.
 */
import { expect, test } from 'vitest';
import { AuthFailures } from '../../../src/serve/control/auth-failures.ts';

test('three failures a minute: the fourth try waits for the minute’s end; other IPs and the next minute are free', () => {
  let now = 1_800_000_010_000; // 10 s into a minute of wall time
  const failures = new AuthFailures(() => now, { failures: 3, windowMs: 60_000 });
  for (let i = 0; i < 3; i++) {
    expect(failures.refusedFor('10.0.0.1')).toBe(0);
    failures.failed('10.0.0.1');
  }
  expect(failures.refusedFor('10.0.0.1')).toBe(50);
  expect(failures.refusedFor('10.0.0.2')).toBe(0);
  now += 49_500;
  expect(failures.refusedFor('10.0.0.1')).toBe(1);
  now += 500; // the next minute
  expect(failures.refusedFor('10.0.0.1')).toBe(0);
  failures.failed('10.0.0.1');
  expect(failures.refusedFor('10.0.0.1')).toBe(0);
});
