/**
 * Synthetic trade ids of a kline tape carry the path assumption that produced the print, so a
 * fill in the replay's journal explains itself with no side table (memory stays flat however
 * long the tape) and without the replay knowing about klines. The fill models write the tape
 * id into every fill reason as `tapeTrade=<id>`; `klineOriginOfReason(reason)` reads it back.
 *
 * Layout, in decimal so it reads by eye: `<openSecond><mode><order><leg><print:3>`
 *   openSecond: the walked kline's openTime in whole seconds since the epoch
 *   mode:  0 fixed path on the bar itself, 1 adaptive on the bar itself,
 *          2 fixed path on a finer kline inside the bar, 3 adaptive on a finer kline
 *   order: 0 OHLC (high first), 1 OLHC (low first)
 *   leg:   0 the opening print, 1..3 the legs vertex to vertex (see kline-path.ts)
 *   print: index of the print on the walked kline's path, 000..999
 * e.g. 1700000040 1 1 2 004 = 1700000040112004: the bar opening at 1700000040 s, adaptive chose
 * low first, fifth point of the path, on the low-to-high leg.
 * Ids increase along the tape: by open second across klines, by leg and print within one.
 * They stay below 2^53 for open times before the year 2255.
 */
import { legNames, type BarPath, type LegIndex, type VertexOrder } from './kline-path.ts';

const SECOND_US = 1_000_000;
const PER_SECOND = 1_000_000;
export const MAX_PRINTS_PER_KLINE = 1000;

/** What a kline-tape trade id says about the print. */
export interface KlinePrintOrigin {
  readonly tradeId: number;
  /** openTime (µs) of the kline whose path made the print: the finer kline when `finer`. */
  readonly klineOpenTime: number;
  /** True when the print came from a finer kline inside a coarser bar. */
  readonly finer: boolean;
  /** The rule that chose the order: a fixed order, or `adaptive`. */
  readonly policy: BarPath;
  /** The vertex order walked. */
  readonly path: VertexOrder;
  readonly leg: LegIndex;
  /** "open", "O-H", "H-L", "L-C" (OHLC) or "open", "O-L", "L-H", "H-C" (OLHC). */
  readonly legName: string;
  /** Index of the point on the walked kline's path. */
  readonly print: number;
  /** Short label for logs: "OHLC", "adaptive:OLHC", "finer:OHLC", "finer:adaptive:OHLC". */
  readonly tag: string;
}

export function encodeKlineTradeId(openTime: number, finer: boolean, policy: BarPath, order: VertexOrder, leg: LegIndex, print: number): number {
  if (!(Number.isSafeInteger(openTime) && openTime >= 0 && openTime % SECOND_US === 0)) {
    throw new RangeError(`kline at ${openTime} µs: a kline tape needs klines opening on whole seconds`);
  }
  if (!(print >= 0 && print < MAX_PRINTS_PER_KLINE)) throw new RangeError(`kline at ${openTime} µs: print index ${print} out of 0..${MAX_PRINTS_PER_KLINE - 1}`);
  const mode = (finer ? 2 : 0) + (policy === 'adaptive' ? 1 : 0);
  const id = (openTime / SECOND_US) * PER_SECOND + mode * 100_000 + (order === 'OHLC' ? 0 : 10_000) + leg * 1_000 + print;
  if (!Number.isSafeInteger(id)) throw new RangeError(`kline at ${openTime} µs: too late for a kline trade id`);
  return id;
}

/** The origin a kline-tape trade id encodes; null when `id` cannot be one. */
export function decodeKlineTradeId(id: number): KlinePrintOrigin | null {
  if (!(Number.isSafeInteger(id) && id >= 0)) return null;
  const low = id % PER_SECOND;
  const mode = Math.floor(low / 100_000);
  const orderDigit = Math.floor(low / 10_000) % 10;
  const leg = Math.floor(low / 1_000) % 10;
  const print = low % 1_000;
  if (mode > 3 || orderDigit > 1 || leg > 3) return null;
  const finer = mode >= 2;
  const path: VertexOrder = orderDigit === 0 ? 'OHLC' : 'OLHC';
  const policy: BarPath = mode % 2 === 1 ? 'adaptive' : path;
  const legIndex = leg as LegIndex;
  return {
    tradeId: id,
    klineOpenTime: ((id - low) / PER_SECOND) * SECOND_US,
    finer,
    policy,
    path,
    leg: legIndex,
    legName: legNames(path)[legIndex],
    print,
    tag: `${finer ? 'finer:' : ''}${policy === 'adaptive' ? 'adaptive:' : ''}${path}`,
  };
}

/** The tape trade id in a fill reason (`... tapeTrade=<id> ...`), or null. */
export function tapeTradeOfReason(reason: string): number | null {
  const match = /\btapeTrade=(\d+)\b/.exec(reason);
  return match === null ? null : Number(match[1]);
}

/** The path origin of the print behind an engine fill, from the fill's `reason`. */
export function klineOriginOfReason(reason: string): KlinePrintOrigin | null {
  const id = tapeTradeOfReason(reason);
  return id === null ? null : decodeKlineTradeId(id);
}
