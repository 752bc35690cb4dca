/**
 * One kline's path turned into synthetic prints: price, time, quantity, taker side and id.
 *
 * - Time: the price moves along the path at constant speed. A point `travel` units along a path
 *   of `total` units prints at openTime + floor(travel * (closeTime - openTime) / total), so the
 *   open prints at openTime and the close at closeTime, and a level reached late in a long leg
 *   prints later than one reached on a short leg (OHLC and OLHC then fill the same order at
 *   different times). Points that would share a µs are pushed 1 µs apart (times strictly
 *   increase within the kline; the bar needs at least one µs per point). A flat bar (one point)
 *   prints at openTime.
 * - Quantity: the kline's volume in whole LOT_SIZE steps spread evenly over the points (the
 *   remainder one step each, spread along the path). With fewer steps than points, the extremes
 *   get a step first, then the close, the open, the intermediate points in path order; points
 *   left with nothing print nothing (a bar with no volume prints nothing at all: it had no
 *   trades). Volume off the step grid (dust below one step) goes to the last print, so the
 *   prints always add up to the kline's volume exactly.
 * - quoteQty = floor(price * qty / 10^basePrecision), exact (BigInt past 2^53).
 * - Taker side: from the leg's direction (a print above the point before it is a taker BUY,
 *   isBuyerMaker false; below: a taker SELL). The opening print takes the direction of the first
 *   move out of it; a flat bar's takes the side with the larger share of takerBuyBaseVolume.
 */
import type { Kline } from '../data/tape.ts';
import { encodeKlineTradeId, MAX_PRINTS_PER_KLINE } from './kline-path-id.ts';
import { pathPoints, type BarPath, type LegSteps, type PathPoint, type VertexOrder } from './kline-path.ts';

/** The symbol's grid, in engine units (`Engine.symbolSpec(symbol)` has these fields). */
export interface KlineGrid {
  readonly tickUnits: number;
  readonly stepUnits: number;
  readonly basePrecision: number;
}

export interface KlinePrint {
  readonly id: number;
  readonly time: number;
  readonly price: number;
  readonly qty: number;
  readonly quoteQty: number;
  readonly isBuyerMaker: boolean;
}

export interface WalkOptions {
  readonly order: VertexOrder;
  /** The rule that chose `order` (goes into the ids). */
  readonly policy: BarPath;
  /** The kline is a finer kline inside a coarser bar (goes into the ids). */
  readonly finer: boolean;
  readonly steps: LegSteps;
  readonly grid: KlineGrid;
}

export function walkKline(bar: Kline, options: WalkOptions): KlinePrint[] {
  const { grid } = options;
  const points = pathPoints(bar, options.order, options.steps, grid.tickUnits);
  const n = points.length;
  if (n > MAX_PRINTS_PER_KLINE) {
    throw new RangeError(`kline at ${bar.openTime} µs: its path has ${n} points, more than ${MAX_PRINTS_PER_KLINE}; use coarser leg steps`);
  }
  const times = pointTimes(bar, points);
  const qtys = pointQuantities(bar.volume, grid.stepUnits, points);
  const flatSideSells = bar.takerBuyBaseVolume * 2 < bar.volume;
  const prints: KlinePrint[] = [];
  for (let i = 0; i < n; i++) {
    const qty = qtys[i]!;
    if (qty === 0) continue;
    const point = points[i]!;
    const neighbour = i > 0 ? points[i - 1]!.price : n > 1 ? points[1]!.price : point.price;
    // Point 0 compares with the point after it (the first move), the others with the one before.
    const sells = i > 0 ? point.price < neighbour : n > 1 ? neighbour < point.price : flatSideSells;
    prints.push({
      id: encodeKlineTradeId(bar.openTime, options.finer, options.policy, options.order, point.leg, i),
      time: times[i]!,
      price: point.price,
      qty,
      quoteQty: mulDivFloor(point.price, qty, 10 ** grid.basePrecision),
      isBuyerMaker: sells,
    });
  }
  return prints;
}

function pointTimes(bar: Kline, points: readonly PathPoint[]): number[] {
  const n = points.length;
  if (n === 1) return [bar.openTime];
  const span = bar.closeTime - bar.openTime;
  if (span < n - 1) throw new RangeError(`kline at ${bar.openTime} µs: ${n} points do not fit in ${span + 1} µs`);
  const total = points[n - 1]!.travel;
  const times: number[] = [];
  let previous = -Infinity;
  for (let i = 0; i < n; i++) {
    let t = bar.openTime + mulDivFloor(points[i]!.travel, span, total);
    // Strictly increasing, and room left for the points after this one.
    t = Math.min(Math.max(t, previous + 1), bar.closeTime - (n - 1 - i));
    times.push(t);
    previous = t;
  }
  return times;
}

function pointQuantities(volume: number, step: number, points: readonly PathPoint[]): number[] {
  const n = points.length;
  const steps = Math.floor(volume / step);
  const dust = volume - steps * step;
  const qtys = new Array<number>(n).fill(0);
  if (steps >= n) {
    const each = Math.floor(steps / n);
    const extra = steps - each * n;
    for (let i = 0; i < n; i++) {
      // Bresenham: the `extra` steps land evenly along the path.
      const bonus = Math.floor((extra * (i + 1)) / n) - Math.floor((extra * i) / n);
      qtys[i] = (each + bonus) * step;
    }
  } else {
    const order = priority(points);
    for (let k = 0; k < steps; k++) qtys[order[k]!] = step;
  }
  if (dust > 0) {
    let last = -1;
    for (let i = n - 1; i >= 0; i--) {
      if (qtys[i]! > 0) {
        last = i;
        break;
      }
    }
    const at = last >= 0 ? last : priority(points)[0]!;
    qtys[at] = qtys[at]! + dust;
  }
  return qtys;
}

/** Which points get a step first when there are fewer steps than points: extremes, close, open, then the rest. */
function priority(points: readonly PathPoint[]): number[] {
  const n = points.length;
  const rank = (i: number): number => {
    const p = points[i]!;
    if (!p.vertex) return 3;
    if (i === 0) return 2;
    if (i === n - 1) return 1;
    return 0;
  };
  return [...points.keys()].sort((a, b) => rank(a) - rank(b) || a - b);
}

/** floor(a * b / c) for non-negative integers, exact past 2^53. */
export function mulDivFloor(a: number, b: number, c: number): number {
  const product = a * b;
  if (!Number.isSafeInteger(product)) return Number((BigInt(a) * BigInt(b)) / BigInt(c));
  // The float quotient is rounded to nearest: it may land on the integer just above the true one.
  let q = Math.floor(product / c);
  if (q * c > product) q--;
  return q;
}
