import { describe, expect, it } from 'vitest';
import { MarketHistory } from '../../../../src/data/history/index.ts';
import { D, H, M, S, T0, trade, u } from './helpers.ts';

// Twelve days of one trade every 30 s (34,560 trades; ids 1..34560), kept with the default
// retention: 25 h of trades (whole 16,384-trade chunks), 25 h of 1s bars, 8 days of 1m bars.
const STEP = 30 * S;
const N = 12 * 2880;
const price = (i: number) => String(100 + (i % 7));
const timeOf = (id: number) => T0 + (id - 1) * STEP;
const history = new MarketHistory({ basePrecision: 8 });
for (let i = 0; i < N; i++) history.record(trade({ t: T0 + i * STEP, p: price(i), q: '1' }, i + 1));
const asOf = timeOf(N);

describe('retention', () => {
  it('uses the documented defaults', () => {
    expect(history.options).toEqual({ basePrecision: 8, tradeRetention: D + H, secondBarRetention: D + H, minuteBarRetention: 8 * D });
  });

  it('drops whole chunks of trades: historicalTrades from id 1 starts at the oldest one kept', () => {
    // Chunk 0 (ids 1..16384) ended 5.7 days before chunk 2 began; chunk 1 is within 25 h of it.
    expect(history.historicalTrades(asOf, { fromId: 1, limit: 1 })[0]!.id).toBe(16_385);
    expect(history.recentTrades(asOf, 2).map((t) => t.id)).toEqual([N - 1, N]);
  });

  it('aggregate trades go with their trades', () => {
    expect(history.aggTrades(asOf, { fromId: 0, limit: 1 })[0]).toMatchObject({ a: 16_384, f: 16_385 });
    expect(history.aggTrades(asOf, { limit: 1 })[0]).toMatchObject({ a: N - 1, l: N });
  });

  it('1s klines start at the first whole minute after the dropped 1s bars', () => {
    // 1s bars go 4096 at a time; rows 0..28671 went (the newest at 860,130 s); the next whole
    // minute is 860,160 s, where trade 28673 lies. One second before it is a flat kline at
    // the exact previous close, found from the 1m bars.
    const [first, second] = history.klines(asOf, { interval: '1s', startTime: T0, limit: 2 });
    expect(first).toMatchObject({ openTime: T0 + 860_160 * S, trades: 1, firstTradeId: 28_673, open: u(price(28_672)) });
    expect(second).toMatchObject({ trades: 0, close: u(price(28_672)) });
    const [flat] = history.klines(asOf, { interval: '1s', startTime: T0 + 860_161 * S, limit: 1 });
    expect(flat).toMatchObject({ trades: 0, close: u(price(28_672)) });
  });

  it('1m klines start where the 1m bars do; 1h and 1d klines reach back to the first trade', () => {
    // 1m bars went 4096 at a time (the first chunk ends at minute 4096); klines start at the
    // next quarter-hour, minute 4110.
    expect(history.klines(asOf, { interval: '1m', startTime: T0, limit: 1 })[0]!.openTime).toBe(T0 + 4110 * M);
    const [hour] = history.klines(asOf, { interval: '1h', startTime: T0, limit: 1 });
    expect(hour).toMatchObject({ openTime: T0, open: u('100'), close: u(price(119)), trades: 120, firstTradeId: 1 });
    expect(history.klines(asOf, { interval: '1d', startTime: T0, limit: 1 })[0]).toMatchObject({ openTime: T0, trades: 2880 });
  });

  it('a zone that is not a whole quarter-hour tiles from 1m bars, so reaches back only as far', () => {
    // +05:07: hours open at :53 UTC; the first one after the 1m horizon (68h30m) is 68h53m.
    const [first] = history.klines(asOf, { interval: '1h', timeZone: '+05:07', startTime: T0, limit: 1 });
    expect(first!.openTime).toBe(T0 + 68 * H + 53 * M);
    expect(first!.trades).toBe(120);
  });

  it('tickers and avgPrice at the newest trade stay exact', () => {
    const ticker = history.ticker24hr(asOf);
    expect(ticker).toMatchObject({ openTime: asOf - D, count: 2881, firstId: N - 2880, lastId: N });
    // asOf - 7 d is 30 s into a minute: the window opens 30 s earlier and takes one more trade.
    expect(history.rollingTicker(asOf, { windowSize: '7d' })).toMatchObject({ count: 7 * 2880 + 2 });
    expect(history.avgPrice(asOf)!.closeTime).toBe(asOf);
  });

  it('refuses retentions too short for the 24 h and 7 d windows', () => {
    expect(() => new MarketHistory({ basePrecision: 8, tradeRetention: D })).toThrow(RangeError);
    expect(() => new MarketHistory({ basePrecision: 8, secondBarRetention: H })).toThrow(RangeError);
    expect(() => new MarketHistory({ basePrecision: 8, minuteBarRetention: 7 * D })).toThrow(RangeError);
    expect(() => new MarketHistory({ basePrecision: 19 })).toThrow(RangeError);
    expect(new MarketHistory({ basePrecision: 2, tradeRetention: Infinity }).options.tradeRetention).toBe(Infinity);
  });
});
