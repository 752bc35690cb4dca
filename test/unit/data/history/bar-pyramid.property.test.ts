/**
 * The bar pyramid's range fold against the obvious one: for random tapes whose gaps cross every
 * level's boundaries, aggregate(from, to) equals folding the trades in [from, to) one by one,
 * and lastBefore(to) is the last trade before `to`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BarPyramid } from '../../../../src/data/history/bar-pyramid.ts';
import {
  addTrade,
  CLOSE,
  COUNT,
  FIRST_ID,
  HIGH,
  LAST_ID,
  LAST_QTY,
  LAST_TIME,
  LOW,
  newBar,
  OPEN,
  QUOTE_VOLUME,
  TAKER_BUY_QUOTE_VOLUME,
  TAKER_BUY_VOLUME,
  VOLUME,
  wideValue,
} from '../../../../src/data/history/bar-row.ts';
import { TradeStore } from '../../../../src/data/history/trade-store.ts';
import { propertyParameters } from '../../../property/property-parameters.ts';
import { D, H, M, S, utc } from './helpers.ts';

const gap = fc.constantFrom(0, 1, 17, S - 1, S, 59 * S, M - 1, M, 14 * M, 15 * M, H - 1, H, 5 * H, D - 1, D);
const tapeArb = fc.array(
  fc.record({ gap, price: fc.integer({ min: 1, max: 1e6 }), qty: fc.integer({ min: 0, max: 2 ** 40 }), taker: fc.boolean() }),
  { maxLength: 80 },
);

function summary(bar: Float64Array) {
  if (bar[COUNT] === 0) return null;
  return {
    fields: [OPEN, HIGH, LOW, CLOSE, COUNT, FIRST_ID, LAST_ID, LAST_QTY, LAST_TIME].map((f) => bar[f]),
    sums: [VOLUME, QUOTE_VOLUME, TAKER_BUY_VOLUME, TAKER_BUY_QUOTE_VOLUME].map((f) => wideValue(bar, f)),
  };
}

describe('BarPyramid', () => {
  it('aggregate and lastBefore agree with a trade-by-trade fold', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: utc(2024, 1, 1), max: utc(2024, 1, 3) }),
        tapeArb,
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 8 }),
        (start, specs, ranges) => {
          const store = new TradeStore(Infinity);
          const pyramid = new BarPyramid(store, { seconds: Infinity, minutes: Infinity });
          const trades: { time: number; price: number; qty: number; quote: number; id: number; taker: boolean }[] = [];
          let time = start;
          specs.forEach((s, i) => {
            time += s.gap;
            const t = { time, price: s.price, qty: s.qty, quote: s.qty * 3, id: i + 1, taker: s.taker };
            trades.push(t);
            store.append(t.id, t.price, t.qty, t.quote, t.time, t.taker ? 0 : 1);
            pyramid.record(t.price, t.qty, t.quote, t.time, t.id, t.taker);
          });
          const span = time - start + 2 * D;
          for (const [a, b] of ranges) {
            const from = start - D + Math.floor(Math.min(a, b) * span);
            const to = start - D + Math.floor(Math.max(a, b) * span) + 1;
            const naive = newBar();
            for (const t of trades) if (t.time >= from && t.time < to) addTrade(naive, 0, t.price, t.qty, t.quote, t.time, t.id, t.taker);
            expect(summary(pyramid.aggregate(from, to))).toEqual(summary(naive));

            const before = trades.filter((t) => t.time < to).at(-1);
            const last = pyramid.lastBefore(to);
            expect(last === null ? null : [last[CLOSE], last[LAST_QTY], last[LAST_TIME], last[LAST_ID]]).toEqual(
              before === undefined ? null : [before.price, before.qty, before.time, before.id],
            );
          }
        },
      ),
      propertyParameters({ numRuns: 300 }),
    );
  });
});
