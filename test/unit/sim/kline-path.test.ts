import { describe, expect, it } from 'vitest';
import { chooseVertexOrder, pathPoints } from '../../../src/sim/kline-path.ts';
import { decodeKlineTradeId, encodeKlineTradeId, klineOriginOfReason } from '../../../src/sim/kline-path-id.ts';
import { u } from './helpers.ts';

const TICK = u('0.01');
const bar = (open: string, high: string, low: string, close: string) => ({ open: u(open), high: u(high), low: u(low), close: u(close) });
const prices = (points: readonly { price: number }[]) => points.map((p) => (p.price / 1e8).toFixed(2));

describe('chooseVertexOrder', () => {
  it('fixed paths ignore the bar', () => {
    expect(chooseVertexOrder(bar('100', '101', '90', '95'), 'OHLC')).toBe('OHLC');
    expect(chooseVertexOrder(bar('100', '110', '99', '105'), 'OLHC')).toBe('OLHC');
  });

  it('adaptive: the extreme nearer the open first', () => {
    expect(chooseVertexOrder(bar('100', '101', '97', '99'), 'adaptive')).toBe('OHLC'); // high 1 away, low 3
    expect(chooseVertexOrder(bar('100', '104', '99', '103'), 'adaptive')).toBe('OLHC'); // low 1 away, high 4
  });

  it('adaptive ties: the order that travels less (close nearer which extreme), then low first', () => {
    // high and low both 3 away; close 101 is nearer the high: O-L-H-C travels 3+6+2=11 < O-H-L-C 3+6+4=13.
    expect(chooseVertexOrder(bar('100', '103', '97', '101'), 'adaptive')).toBe('OLHC');
    expect(chooseVertexOrder(bar('100', '103', '97', '98'), 'adaptive')).toBe('OHLC');
    // close at the midpoint: low first (pessimistic for a long, as Freqtrade).
    expect(chooseVertexOrder(bar('100', '102', '98', '100'), 'adaptive')).toBe('OLHC');
    expect(chooseVertexOrder(bar('100', '100', '100', '100'), 'adaptive')).toBe('OLHC');
  });
});

describe('pathPoints', () => {
  const b = bar('100', '103', '97', '101');

  it('OHLC with two points per leg: 1/3 and 2/3 of each leg, rounded to whole ticks', () => {
    const points = pathPoints(b, 'OHLC', { perLeg: 2 }, TICK);
    // 100 -> 103 is 300 ticks (100, 200); 103 -> 97 is 600 (200, 400); 97 -> 101 is 400 (133, 267).
    expect(prices(points)).toEqual(['100.00', '101.00', '102.00', '103.00', '101.00', '99.00', '97.00', '98.33', '99.67', '101.00']);
    expect(points.map((p) => p.leg)).toEqual([0, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
    expect(points.map((p) => p.vertex)).toEqual([true, false, false, true, false, false, true, false, false, true]);
    expect(points.map((p) => p.travel / 1e8)).toEqual([0, 1, 2, 3, 5, 7, 9, 10.33, 11.67, 13]);
  });

  it('OLHC walks the low first', () => {
    const points = pathPoints(b, 'OLHC', { perLeg: 2 }, TICK);
    expect(prices(points)).toEqual(['100.00', '99.00', '98.00', '97.00', '99.00', '101.00', '103.00', '102.33', '101.67', '101.00']);
    expect(points.at(-1)!.travel).toBe(u('11'));
  });

  it('vertices only, and a vertex at the price before it is not repeated', () => {
    expect(prices(pathPoints(b, 'OHLC', { perLeg: 0 }, TICK))).toEqual(['100.00', '103.00', '97.00', '101.00']);
    // Opens at its high: O=H collapses, the path is O(=H) -> L -> C.
    const points = pathPoints(bar('100', '100', '98', '99'), 'OHLC', { perLeg: 0 }, TICK);
    expect(prices(points)).toEqual(['100.00', '98.00', '99.00']);
    expect(points.map((p) => p.leg)).toEqual([0, 2, 3]);
    expect(pathPoints(bar('5', '5', '5', '5'), 'OLHC', { perLeg: 3 }, TICK)).toHaveLength(1);
  });

  it('everyTicks: one point every n ticks, never on the vertex', () => {
    expect(prices(pathPoints(bar('100', '100.05', '100', '100.05'), 'OLHC', { everyTicks: 2 }, TICK))).toEqual(['100.00', '100.02', '100.04', '100.05']);
    // A leg shorter than the spacing has none; perLeg on a 1-tick leg has none either.
    expect(prices(pathPoints(bar('100', '100.01', '100', '100.01'), 'OLHC', { perLeg: 5 }, TICK))).toEqual(['100.00', '100.01']);
  });
});

describe('kline trade ids', () => {
  it('encode the walked kline, the rule, the order, the leg and the print, and increase along a path', () => {
    const t = 1_700_000_040_000_000;
    const id = encodeKlineTradeId(t, false, 'adaptive', 'OLHC', 2, 4);
    expect(id).toBe(1_700_000_040_112_004);
    expect(decodeKlineTradeId(id)).toEqual({
      tradeId: id,
      klineOpenTime: t,
      finer: false,
      policy: 'adaptive',
      path: 'OLHC',
      leg: 2,
      legName: 'L-H',
      print: 4,
      tag: 'adaptive:OLHC',
    });
    expect(decodeKlineTradeId(encodeKlineTradeId(t, true, 'OHLC', 'OHLC', 3, 9))).toMatchObject({ finer: true, policy: 'OHLC', legName: 'L-C', tag: 'finer:OHLC' });
    expect(encodeKlineTradeId(t, false, 'OHLC', 'OHLC', 1, 1)).toBeLessThan(encodeKlineTradeId(t, false, 'OHLC', 'OHLC', 2, 2));
    expect(encodeKlineTradeId(t, true, 'adaptive', 'OLHC', 3, 999)).toBeLessThan(encodeKlineTradeId(t + 1_000_000, false, 'OHLC', 'OHLC', 0, 0));
  });

  it('read back from a fill reason; ids a kline tape cannot make decode to null', () => {
    expect(klineOriginOfReason('TRADE_THROUGH tapeTrade=1700000040002006 tradePrice=97.00 tradeQty=0.09')).toMatchObject({ path: 'OHLC', leg: 2, legName: 'H-L', print: 6 });
    expect(klineOriginOfReason('TOUCH tradePrice=97.00')).toBeNull();
    expect(decodeKlineTradeId(1_700_000_040_520_000)).toBeNull(); // mode digit 5
    expect(decodeKlineTradeId(-1)).toBeNull();
  });

  it('refuses klines that do not open on a whole second', () => {
    expect(() => encodeKlineTradeId(1_700_000_040_000_500, false, 'OHLC', 'OHLC', 0, 0)).toThrow('whole seconds');
  });
});
