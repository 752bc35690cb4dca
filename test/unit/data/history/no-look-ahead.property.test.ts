/**
 * No look-ahead: for random tapes and a random asOf, every query on the full history
 * (1) returns nothing stamped after asOf, and (2) equals the same query on a history that was
 * only ever given the trades stamped at or before asOf. Tapes mix same-µs trades with gaps that
 * cross second, minute, hour, day, week and month boundaries (they start near a month end).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarketHistory } from '../../../../src/data/history/index.ts';
import type { AggTradesQuery, HistoricalTradesQuery, KlineQuery } from '../../../../src/data/history/index.ts';
import type { TapeTrade } from '../../../../src/data/tape.ts';
import { KLINE_INTERVALS } from '../../../../src/data/tape.ts';
import { propertyParameters } from '../../../property/property-parameters.ts';
import { D, H, M, S, utc } from './helpers.ts';

const ZONES = ['0', '+08:00', '-1:00', '05:45', '+14:00', '-12:00', '+05:07'];
const WINDOWS = ['1m', '7m', '59m', '1h', '5h', '23h', '1d', '3d', '7d'];

const gap = fc.constantFrom(0, 0, 1, 7, S - 1, S, 59 * S, M - 1, M, 15 * M + 3, H, 7 * H, D - 1, D, 3 * D + 5);
const tapeArb = fc
  .tuple(
    fc.integer({ min: utc(2024, 1, 29), max: utc(2024, 2, 2) }),
    fc.array(
      fc.record({ gap, price: fc.integer({ min: 1, max: 5 }), qty: fc.integer({ min: 1, max: 1000 }), buyerMaker: fc.boolean(), bestMatch: fc.boolean() }),
      { maxLength: 50 },
    ),
  )
  .map(([start, specs]) => {
    let time = start;
    return specs.map((s, i): TapeTrade => {
      time += s.gap;
      const price = s.price * 100_000_000;
      return { id: 1000 + i, price, qty: s.qty, quoteQty: s.price * s.qty, time, isBuyerMaker: s.buyerMaker, isBestMatch: s.bestMatch };
    });
  });

/** asOf near the interesting places: at, just before and just after a trade, or anywhere. */
const asOfArb = (tape: readonly TapeTrade[]) => {
  const first = tape[0]?.time ?? utc(2024, 2, 1);
  const last = tape.at(-1)?.time ?? first;
  const atTrade = tape.length === 0 ? fc.constant(first) : fc.constantFrom(...tape.map((t) => t.time));
  return fc.oneof(
    atTrade,
    atTrade.map((t) => t - 1),
    atTrade.map((t) => t + 1),
    fc.integer({ min: first - D, max: last + 2 * D }),
  );
};

const limit = fc.constantFrom(1, 3, 1000);
const optionalTime = (tape: readonly TapeTrade[]) => fc.option(asOfArb(tape), { nil: undefined });

/** A query with every optional parameter present, possibly undefined (dropped before use). */
type Loose<T> = { [K in keyof T]-?: T[K] | undefined };

interface Queries {
  recentLimit: number;
  historical: Loose<HistoricalTradesQuery>;
  agg: Loose<AggTradesQuery>;
  klines: Loose<KlineQuery>[];
  mins: number;
  zone: string;
  window: string;
  buckets: [number, number];
}

const queriesArb = (tape: readonly TapeTrade[]): fc.Arbitrary<Queries> =>
  fc.record({
    recentLimit: limit,
    historical: fc.record({ fromId: fc.option(fc.integer({ min: 990, max: 1060 }), { nil: undefined }), limit }),
    agg: fc.record({
      fromId: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
      startTime: optionalTime(tape),
      endTime: optionalTime(tape),
      limit,
    }),
    klines: fc.array(
      fc.record({
        interval: fc.constantFrom(...KLINE_INTERVALS),
        timeZone: fc.constantFrom(...ZONES),
        startTime: optionalTime(tape),
        endTime: optionalTime(tape),
        limit: fc.constantFrom(1, 7, 1000),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    mins: fc.constantFrom(0, 1, 5, 60),
    zone: fc.constantFrom(...ZONES),
    window: fc.constantFrom(...WINDOWS),
    buckets: fc.tuple(fc.integer({ min: 1, max: 6 }), fc.constantFrom(S, M, 15 * M, H)),
  });

/** Drops keys whose value is undefined (exactOptionalPropertyTypes: absent, not undefined). */
function defined<T extends object>(o: Loose<T>): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function keepAll(): MarketHistory {
  return new MarketHistory({ basePrecision: 8, tradeRetention: Infinity, secondBarRetention: Infinity, minuteBarRetention: Infinity });
}

/** Every answer the history gives at asOf, for one set of query parameters. */
function answers(h: MarketHistory, asOf: number, q: Queries) {
  return {
    recent: h.recentTrades(asOf, q.recentLimit),
    historical: h.historicalTrades(asOf, defined<HistoricalTradesQuery>(q.historical)),
    agg: h.aggTrades(asOf, defined<AggTradesQuery>(q.agg)),
    klines: q.klines.map((k) => h.klines(asOf, defined<KlineQuery>(k))),
    uiKlines: h.uiKlines(asOf, defined<KlineQuery>(q.klines[0]!)),
    avgPrice: h.avgPrice(asOf, q.mins),
    day: h.ticker24hr(asOf),
    dayMini: h.ticker24hr(asOf, { type: 'MINI' }),
    tradingDay: h.tradingDayTicker(asOf, { timeZone: q.zone }),
    rolling: h.rollingTicker(asOf, { windowSize: q.window }),
    rollingMini: h.rollingTicker(asOf, { windowSize: q.window, type: 'MINI' }),
    price: h.priceTicker(asOf),
    last: h.lastTrade(asOf),
    reference: h.arithmeticMeanPrice(asOf, q.buckets[0], q.buckets[1]),
  };
}

describe('no look-ahead', () => {
  it('no query at asOf sees a trade after asOf, and every query equals it on the tape cut at asOf', () => {
    fc.assert(
      fc.property(
        tapeArb.chain((tape) => fc.tuple(fc.constant(tape), asOfArb(tape), queriesArb(tape))),
        ([tape, asOf, q]) => {
          const full = keepAll();
          const cut = keepAll();
          for (const t of tape) {
            full.record(t);
            if (t.time <= asOf) cut.record(t);
          }
          const seen = answers(full, asOf, q);
          const lastVisibleId = tape.filter((t) => t.time <= asOf).at(-1)?.id ?? -1;

          // (1) nothing stamped after asOf
          for (const t of [...seen.recent, ...seen.historical]) expect(t.time).toBeLessThanOrEqual(asOf);
          for (const a of seen.agg) {
            expect(a.T).toBeLessThanOrEqual(asOf);
            expect(a.l).toBeLessThanOrEqual(lastVisibleId);
          }
          for (const k of [...seen.klines.flat(), ...seen.uiKlines]) {
            expect(k.openTime).toBeLessThanOrEqual(asOf);
            expect(k.lastTradeId).toBeLessThanOrEqual(lastVisibleId);
          }
          if (seen.avgPrice !== null) expect(seen.avgPrice.closeTime).toBeLessThanOrEqual(asOf);
          if (seen.last !== null) expect(seen.last.time).toBeLessThanOrEqual(asOf);
          for (const t of [seen.day, seen.tradingDay, seen.rolling]) expect(t.lastId).toBeLessThanOrEqual(lastVisibleId);

          // (2) the same as on the tape cut at asOf
          expect(seen).toEqual(answers(cut, asOf, q));
        },
      ),
      propertyParameters({ numRuns: 400 }),
    );
  });
});
