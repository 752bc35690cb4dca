/**
 * The worker's tape cache: a window is read once and lent to every job over it; the least
 * recently used windows go when the rows held pass the bound; a window too big to share is
 * remembered as such (null: each job streams its own).
 */
import { expect, test } from 'vitest';
import { SharedTapeCache } from '../../../../src/backtest/queue/queue-worker.ts';

const H = 3_600_000_000;
const DAY = Date.UTC(2024, 0, 1) * 1000;

test('the same window is one load; other windows are their own', async () => {
  const cache = new SharedTapeCache();
  const a = await cache.get('fp', 'sample', ['BTCUSDT'], DAY, DAY + H);
  const again = await cache.get('fp', 'sample', ['BTCUSDT'], DAY, DAY + H);
  expect(again).toBe(a);
  expect(a![0]!.batch.length).toBeGreaterThan(0);
  const other = await cache.get('fp', 'sample', ['BTCUSDT'], DAY + H, DAY + 2 * H);
  expect(other).not.toBe(a);
  // Another fingerprint of the same folder (the files changed) is not the cached window.
  expect(await cache.get('fp2', 'sample', ['BTCUSDT'], DAY, DAY + H)).not.toBe(a);
  expect(cache.size).toBe(3);
});

test('least recently used windows go past the row bound; a window over it is null', async () => {
  const probe = await new SharedTapeCache().get('fp', 'sample', ['BTCUSDT'], DAY, DAY + H);
  const rows = probe![0]!.batch.length;
  const cache = new SharedTapeCache(Math.floor(rows * 2.5));
  const first = await cache.get('fp', 'sample', ['BTCUSDT'], DAY, DAY + H);
  await cache.get('fp', 'sample', ['BTCUSDT'], DAY + H, DAY + 2 * H);
  await cache.get('fp', 'sample', ['BTCUSDT'], DAY, DAY + H); // first is used again: the second is now the oldest
  await cache.get('fp', 'sample', ['BTCUSDT'], DAY + 2 * H, DAY + 3 * H);
  await new Promise((r) => setImmediate(r));
  expect(cache.size).toBe(2);
  expect(await cache.get('fp', 'sample', ['BTCUSDT'], DAY, DAY + H)).toBe(first);
  expect(await new SharedTapeCache(10).get('fp', 'sample', ['BTCUSDT'], DAY, DAY + 24 * H)).toBeNull();
});
