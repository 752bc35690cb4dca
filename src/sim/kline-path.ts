/**
 * The intra-bar path of one kline: which way the price went between open and close, as the
 * vertices it visited (open, the two extremes, close) and optional intermediate points along
 * each leg. A kline only says the price touched its high and its low, not in which order; a
 * kline-only backtest must assume one, and its fills depend on that assumption (peers.md §4.1:
 * Freqtrade fixes low-before-high for stops, Jesse uses the candle colour, NautilusTrader has an
 * adaptive order). exsim makes the assumption explicit and names it on every synthetic print.
 *
 * Pure functions of the kline and the options; prices in the engine's units.
 */
import type { Kline } from '../data/tape.ts';

/** The order in which the two extremes are visited. */
export type VertexOrder = 'OHLC' | 'OLHC';

/**
 * How a bar's vertex order is chosen: always high first (`OHLC`), always low first (`OLHC`), or
 * `adaptive`: from the open, the nearer extreme first (see `chooseVertexOrder` for ties).
 */
export type BarPath = VertexOrder | 'adaptive';

/**
 * Intermediate points on each leg between two vertices (on the tick grid, never repeating a
 * vertex): `perLeg: k` puts up to k points evenly along every leg (at 1/(k+1), 2/(k+1), ... of
 * its length, rounded to whole ticks), `everyTicks: n` one every n ticks. `{ perLeg: 0 }` gives
 * vertices only.
 */
export type LegSteps = { readonly perLeg: number } | { readonly everyTicks: number };

export const DEFAULT_LEG_STEPS: LegSteps = { perLeg: 2 };

/** Leg 0 is the opening print alone; legs 1..3 run vertex to vertex and include their end vertex. */
export type LegIndex = 0 | 1 | 2 | 3;

/** One point of the path. */
export interface PathPoint {
  /** Price units. */
  readonly price: number;
  readonly leg: LegIndex;
  /** Price distance travelled from the open to here (price units): the path's clock, see kline-path-prints.ts. */
  readonly travel: number;
  /** True at the open, an extreme or the close (false for intermediate points). */
  readonly vertex: boolean;
}

type Ohlc = Pick<Kline, 'open' | 'high' | 'low' | 'close'>;

/**
 * `adaptive`: the extreme nearer the open is visited first (a small move to one side before the
 * big move to the other is the likelier story than the reverse). Ties (high - open equal to
 * open - low, e.g. a flat bar):
 * 1. the order that travels less: high first when the close is nearer the low (the walk ends
 *    with the short low-to-close leg), low first when the close is nearer the high;
 * 2. still tied (close at the midpoint): low first, the pessimistic reading for a long position
 *    (its stop is reached before its target), as Freqtrade assumes.
 */
export function chooseVertexOrder(bar: Ohlc, path: BarPath): VertexOrder {
  if (path !== 'adaptive') return path;
  const up = bar.high - bar.open;
  const down = bar.open - bar.low;
  if (up !== down) return up < down ? 'OHLC' : 'OLHC';
  const closeToLow = bar.close - bar.low;
  const closeToHigh = bar.high - bar.close;
  if (closeToLow !== closeToHigh) return closeToLow < closeToHigh ? 'OHLC' : 'OLHC';
  return 'OLHC';
}

/** Names of legs 0..3 for a vertex order ("open", then vertex-to-vertex). */
export function legNames(order: VertexOrder): readonly [string, string, string, string] {
  return order === 'OHLC' ? ['open', 'O-H', 'H-L', 'L-C'] : ['open', 'O-L', 'L-H', 'H-C'];
}

/** Throws unless the bar is a consistent kline: low <= open, close <= high, all integers. */
export function checkBar(bar: Kline): void {
  const { open, high, low, close, volume } = bar;
  for (const v of [open, high, low, close, volume, bar.openTime, bar.closeTime]) {
    if (!Number.isSafeInteger(v)) throw new RangeError(`kline at ${bar.openTime} µs: fields must be safe integers in engine units`);
  }
  if (!(low <= open && low <= close && high >= open && high >= close)) {
    throw new RangeError(`kline at ${bar.openTime} µs: open ${open} / close ${close} outside low ${low} .. high ${high}`);
  }
  if (volume < 0) throw new RangeError(`kline at ${bar.openTime} µs: negative volume ${volume}`);
  if (bar.closeTime < bar.openTime) throw new RangeError(`kline at ${bar.openTime} µs: closeTime ${bar.closeTime} before openTime`);
}

/**
 * The path of `bar` in `order`: open, the extremes, close, with intermediate points per `steps`.
 * A vertex at the price of the point before it is not repeated (a bar opening at its high walks
 * O=H -> L -> C): a second print at the same price would only give a touch model a second helping
 * of liquidity that the bar never showed. A flat bar is one point.
 */
export function pathPoints(bar: Ohlc, order: VertexOrder, steps: LegSteps, tickUnits: number): PathPoint[] {
  const [first, second] = order === 'OHLC' ? [bar.high, bar.low] : [bar.low, bar.high];
  const vertices: readonly [number, LegIndex][] = [
    [first, 1],
    [second, 2],
    [bar.close, 3],
  ];
  const points: PathPoint[] = [{ price: bar.open, leg: 0, travel: 0, vertex: true }];
  let from = bar.open;
  let travel = 0;
  for (const [to, leg] of vertices) {
    if (to === from) continue;
    const distance = Math.abs(to - from);
    const sign = to > from ? 1 : -1;
    for (const ticks of legTicks(distance, steps, tickUnits)) {
      points.push({ price: from + sign * ticks * tickUnits, leg, travel: travel + ticks * tickUnits, vertex: false });
    }
    travel += distance;
    points.push({ price: to, leg, travel, vertex: true });
    from = to;
  }
  return points;
}

/** Tick offsets of the intermediate points of a leg `distance` long: increasing, strictly inside the leg. */
function legTicks(distance: number, steps: LegSteps, tickUnits: number): number[] {
  const ticks = Math.floor(distance / tickUnits);
  const out: number[] = [];
  const inside = (n: number) => n > 0 && n * tickUnits < distance && (out.length === 0 || n > out[out.length - 1]!);
  if ('perLeg' in steps) {
    const k = steps.perLeg;
    for (let i = 1; i <= k; i++) {
      const n = Math.round((i * ticks) / (k + 1));
      if (inside(n)) out.push(n);
    }
  } else {
    for (let n = steps.everyTicks; n * tickUnits < distance; n += steps.everyTicks) out.push(n);
  }
  return out;
}

export function checkLegSteps(steps: LegSteps): void {
  const n = 'perLeg' in steps ? steps.perLeg : steps.everyTicks;
  const min = 'perLeg' in steps ? 0 : 1;
  if (!(Number.isSafeInteger(n) && n >= min)) throw new RangeError(`leg steps: ${JSON.stringify(steps)} must be an integer >= ${min}`);
}
