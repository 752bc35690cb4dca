/**
 * The price chart's fill markers: one per fill while they fit side by side, aggregated by bar at
 * the volume-weighted price past that (report-summary.ts fillMarkers).
 */
import { expect, test } from 'vitest';
import { fillMarkers } from '../../../src/backtest/report-summary.ts';
import { MAX_FILL_MARKERS } from '../../../src/backtest/report-html.ts';

const HOUR = 3_600_000_000;

test('a marker per fill while they fit', () => {
  const fills = [
    { time: 1_000_000, price: 10_000, qty: 1, isBuyer: true },
    { time: 2_000_000, price: 10_100, qty: 1, isBuyer: false },
  ];
  expect(fillMarkers(fills, 100, 1, 0, HOUR)).toEqual({ buys: [[1, 100, 1]], sells: [[2, 101, 1]], markerBucketSeconds: null });
});

test('past the cap, one marker per side and bar at the volume-weighted price', () => {
  // 201 buys 10 s apart in an hour: bars of max(1, ceil(60 min / 200)) = 1 minute.
  const fills = Array.from({ length: MAX_FILL_MARKERS + 1 }, (_, i) => ({ time: i * 10_000_000, price: 100, qty: 1, isBuyer: true }));
  // The first bar's first two fills: 1 at 100 and 2 at 103, then four more 1 at 100:
  // (100 + 206 + 400) / 7 = 100.857142857 (12 significant digits).
  fills[1] = { time: 10_000_000, price: 103, qty: 2, isBuyer: true };
  const { buys, sells, markerBucketSeconds } = fillMarkers(fills, 1, 1, 0, HOUR);
  expect(markerBucketSeconds).toBe(60);
  expect(sells).toEqual([]);
  expect(buys[0]).toEqual([0, 100.857142857, 6]);
  expect(buys[1]).toEqual([60, 100, 6]);
  expect(buys).toHaveLength(34); // fills at 0..2000 s: bars 0..1980 s
});
