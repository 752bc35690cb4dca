import { describe, expect, it } from 'vitest';
import { bookTicker, parseWindowSize } from '../../../../src/data/history/index.ts';
import { D, H, historyOf, M, S, T0, u } from './helpers.ts';

const big = (decimal: string) => BigInt(u(decimal));

const tape = historyOf([
  { t: T0, p: '50', q: '1' }, // 1
  { t: T0 + H - 1, p: '60', q: '1' }, // 2: the last trade before the 24 h window at T0 + 25h
  { t: T0 + H, p: '100', q: '1' }, // 3: first in the window (its start is inclusive)
  { t: T0 + 10 * H, p: '120', q: '2', buyerMaker: true }, // 4
  { t: T0 + 20 * H, p: '90', q: '1' }, // 5
  { t: T0 + 25 * H, p: '105', q: '2' }, // 6: at asOf
]);
const asOf = T0 + 25 * H;
const book = { bidPrice: u('104'), bidQty: u('3'), askPrice: u('106'), askQty: u('4') };

describe('ticker24hr', () => {
  it('FULL: the trades of [asOf - 24h, asOf] with every relation, fields in API order', () => {
    const ticker = tape.ticker24hr(asOf, { book });
    expect(ticker).toEqual({
      priceChange: u('5'),
      priceChangePercent: 5_000, // 5.000 %
      weightedAvgPrice: u('106.66666667'), // 640 / 6, rounded
      prevClosePrice: u('60'),
      lastPrice: u('105'),
      lastQty: u('2'),
      ...book,
      openPrice: u('100'),
      highPrice: u('120'),
      lowPrice: u('90'),
      volume: big('6'),
      quoteVolume: big('640'), // 100 + 240 + 90 + 210
      openTime: T0 + H,
      closeTime: asOf,
      firstId: 3,
      lastId: 6,
      count: 4,
    });
    expect(Object.keys(ticker)).toEqual([
      'priceChange', 'priceChangePercent', 'weightedAvgPrice', 'prevClosePrice', 'lastPrice', 'lastQty',
      'bidPrice', 'bidQty', 'askPrice', 'askQty', 'openPrice', 'highPrice', 'lowPrice', 'volume',
      'quoteVolume', 'openTime', 'closeTime', 'firstId', 'lastId', 'count',
    ]);
    expect(ticker.count).toBe(ticker.lastId - ticker.firstId + 1);
  });

  it('MINI: only the MINI fields, in API order', () => {
    const ticker = tape.ticker24hr(asOf, { type: 'MINI' });
    expect(Object.keys(ticker)).toEqual([
      'openPrice', 'highPrice', 'lowPrice', 'lastPrice', 'volume', 'quoteVolume', 'openTime', 'closeTime', 'firstId', 'lastId', 'count',
    ]);
    expect(ticker).toMatchObject({ openPrice: u('100'), lastPrice: u('105'), count: 4 });
  });

  it('moves with asOf: one µs earlier the window takes in trade 2 and loses trade 6', () => {
    const ticker = tape.ticker24hr(asOf - 1);
    expect(ticker).toMatchObject({
      openTime: T0 + H - 1,
      prevClosePrice: u('50'),
      openPrice: u('60'),
      lastPrice: u('90'),
      priceChange: u('30'),
      priceChangePercent: 50_000,
      firstId: 2,
      lastId: 5,
      count: 4,
      bidPrice: 0,
      askQty: 0,
    });
  });

  it('a window without trades: prices at the last trade, zero volumes, ids -1', () => {
    expect(tape.ticker24hr(T0 + 50 * H)).toEqual({
      priceChange: 0,
      priceChangePercent: 0,
      weightedAvgPrice: 0,
      prevClosePrice: u('105'),
      lastPrice: u('105'),
      lastQty: u('2'),
      bidPrice: 0,
      bidQty: 0,
      askPrice: 0,
      askQty: 0,
      openPrice: u('105'),
      highPrice: u('105'),
      lowPrice: u('105'),
      volume: 0n,
      quoteVolume: 0n,
      openTime: T0 + 26 * H,
      closeTime: T0 + 50 * H,
      firstId: -1,
      lastId: -1,
      count: 0,
    });
  });

  it('a symbol that never traded: all zero, ids -1', () => {
    expect(historyOf([]).ticker24hr(T0, { type: 'MINI' })).toEqual({
      openPrice: 0, highPrice: 0, lowPrice: 0, lastPrice: 0, volume: 0n, quoteVolume: 0n,
      openTime: T0 - D, closeTime: T0, firstId: -1, lastId: -1, count: 0,
    });
  });

  it('rounds priceChangePercent to nearest: Binance QKCBTC 0.00000861 -> 0.00000821 is -4.646 %', () => {
    const h = historyOf([
      { t: T0, p: '0.00000861', q: '1' },
      { t: T0 + S, p: '0.00000821', q: '1' },
    ]);
    expect(h.ticker24hr(T0 + S)).toMatchObject({ priceChange: -40, priceChangePercent: -4_646 });
  });
});

describe('rollingTicker', () => {
  const at = asOf + 30 * S + 5;

  it('opens at the start of the minute holding asOf - windowSize and closes at asOf', () => {
    const ticker = tape.rollingTicker(at, { windowSize: '1h' });
    expect(ticker).toEqual({
      priceChange: 0,
      priceChangePercent: 0,
      weightedAvgPrice: u('105'),
      openPrice: u('105'),
      highPrice: u('105'),
      lowPrice: u('105'),
      lastPrice: u('105'),
      volume: big('2'),
      quoteVolume: big('210'),
      openTime: T0 + 24 * H,
      closeTime: at,
      firstId: 6,
      lastId: 6,
      count: 1,
    });
  });

  it('defaults to 1d, a window up to a minute wider than 24 h', () => {
    const ticker = tape.rollingTicker(at);
    expect(ticker).toMatchObject({ openTime: T0 + H, closeTime: at, openPrice: u('100'), count: 4 });
    expect(ticker.closeTime - ticker.openTime).toBe(D + 30 * S + 5);
  });

  it('windows of days reach further back', () => {
    expect(tape.rollingTicker(at, { windowSize: '2d' })).toMatchObject({ openTime: T0 - 23 * H, firstId: 1, count: 6 });
  });

  it('MINI has the MINI fields only', () => {
    expect(Object.keys(tape.rollingTicker(at, { type: 'MINI' }))).toHaveLength(11);
  });

  it('refuses a windowSize outside 1m-59m, 1h-23h, 1d-7d', () => {
    for (const bad of ['60m', '24h', '8d', '0m', '1d2h', '1w', '1M', 'm', '01m']) {
      expect(() => tape.rollingTicker(at, { windowSize: bad })).toThrow(RangeError);
    }
  });
});

describe('parseWindowSize', () => {
  it('reads minutes, hours and days into µs', () => {
    expect(parseWindowSize('1m')).toBe(M);
    expect(parseWindowSize('59m')).toBe(59 * M);
    expect(parseWindowSize('23h')).toBe(23 * H);
    expect(parseWindowSize('7d')).toBe(7 * D);
    expect(parseWindowSize('60m')).toBeNull();
  });
});

describe('tradingDayTicker', () => {
  it('covers the UTC day so far; closeTime is the end of the day', () => {
    expect(tape.tradingDayTicker(asOf)).toMatchObject({
      openTime: T0 + D,
      closeTime: T0 + 2 * D - 1,
      openPrice: u('105'),
      count: 1,
      firstId: 6,
    });
  });

  it('in -2:00 the day runs 02:00 to 02:00 UTC', () => {
    expect(tape.tradingDayTicker(asOf, { timeZone: '-2:00' })).toEqual({
      priceChange: u('-15'),
      priceChangePercent: -12_500,
      weightedAvgPrice: u('108'), // (240 + 90 + 210) / 5
      openPrice: u('120'),
      highPrice: u('120'),
      lowPrice: u('90'),
      lastPrice: u('105'),
      volume: big('5'),
      quoteVolume: big('540'),
      openTime: T0 + 2 * H,
      closeTime: T0 + 26 * H - 1,
      firstId: 4,
      lastId: 6,
      count: 3,
    });
  });

  it('MINI has the MINI fields only', () => {
    expect(Object.keys(tape.tradingDayTicker(asOf, { type: 'MINI', timeZone: '8' }))).toHaveLength(11);
  });
});

describe('priceTicker, lastTrade and bookTicker', () => {
  it('priceTicker is the last price at or before asOf', () => {
    expect(tape.priceTicker(T0 + 10 * H)).toEqual({ price: u('120') });
    expect(tape.priceTicker(T0 + 10 * H - 1)).toEqual({ price: u('100') });
    expect(tape.priceTicker(T0 - 1)).toBeNull();
  });

  it('lastTrade gives the last trade at or before asOf', () => {
    expect(tape.lastTrade(T0 + 11 * H)).toEqual({ price: u('120'), qty: u('2'), time: T0 + 10 * H, id: 4 });
  });

  it('bookTicker shows an empty side as zeros', () => {
    expect(bookTicker({ price: u('10'), qty: u('1') }, null)).toEqual({ bidPrice: u('10'), bidQty: u('1'), askPrice: 0, askQty: 0 });
  });
});

describe('arithmeticMeanPrice', () => {
  const h = historyOf([
    { t: T0, p: '10', q: '1' },
    { t: T0 + M, p: '20', q: '1' },
    { t: T0 + 2 * M + 30 * S, p: '40', q: '1' },
  ]);

  it('averages the price at the end of each of the newest whole buckets', () => {
    // Buckets ending at 3m, 2m, 1m: 40, 20, 10 -> 23.33333333
    expect(h.arithmeticMeanPrice(T0 + 3 * M + 10 * S, 3, M)).toEqual({ price: u('23.33333333'), time: T0 + 3 * M - 1 });
    // Only two buckets end after the first trade; older ones are left out.
    expect(h.arithmeticMeanPrice(T0 + 2 * M, 5, M)).toEqual({ price: u('15'), time: T0 + 2 * M - 1 });
    // At T0 + 1m - 1 µs the first bucket has just ended; one µs earlier no bucket has a price.
    expect(h.arithmeticMeanPrice(T0 + M - 1, 5, M)).toEqual({ price: u('10'), time: T0 + M - 1 });
    expect(h.arithmeticMeanPrice(T0 + M - 2, 5, M)).toBeNull();
  });
});
