/**
 * The exchange-core-style op stream: a pure function of (seed, sizes), generated up-front into
 * typed arrays so that generation costs nothing inside the timed loops and both engines replay
 * exactly the same ops.
 *
 * Phases, in stream order:
 *   prefill  GTC places only, alternating sides, until the book holds `targetOrders` resting
 *            orders (replayed untimed);
 *   warm-up  the measured mix, replayed untimed so the JIT has seen every path;
 *   measured the mix below, timed.
 *
 * Mix (per op of the warm-up and measured phases, fixed probabilities, like exchange-core's
 * 9/3/6/82 benchmark): 9% GTC limit place, 3% IOC limit taker, 6% cancel, 82% move.
 *   - GTC place: a random account (of `accounts`) on the side with fewer orders (60/40), price
 *     passive near the touch (opposite best -1 tick, minus an offset of u^2 * 1,200 ticks: 10%
 *     within 12 ticks, median 300, so ~1,000 orders spread over ~750 levels), or, while the book
 *     is at its target size, with probability 1% marketable up to 2 ticks through the opposite
 *     best (the trades of GTC places and moves; with the IOCs this gives ~0.05 maker fills per
 *     op, exchange-core's stream trades on ~6% of its messages).
 *   - IOC: takes from the side with more orders, sized from the real depth to consume whole
 *     orders plus part of the next one; how many whole orders is steered by how far the book is
 *     from `targetOrders`, which is what keeps the book from draining or growing.
 *   - cancel: a uniformly chosen resting order, by its owner.
 *   - move: a uniformly chosen resting order re-priced near the touch (same price rule as a GTC
 *     place, never its current price), keeping its remaining quantity.
 * Sizes are 1 + a*b*c lots with a, b, c uniform in 0..5 (mean ~16.6 lots, max 126), the shape
 * exchange-core's generator uses. A lot is 0.001 BTC; a tick 0.01 USDT around 100 USDT.
 */
import seedrandom from 'seedrandom';
import { BUY, ReferenceBook, SELL } from './reference-book.ts';
import type { SideCode } from './reference-book.ts';

export const OP_PLACE_GTC = 0;
export const OP_PLACE_IOC = 1;
export const OP_CANCEL = 2;
export const OP_MOVE = 3;

export interface OpStreamOptions {
  seed: number;
  measuredOps: number;
  warmupOps: number;
  targetOrders: number;
  accounts: number;
}

/** Op i is described by the i-th entry of each array. */
export interface OpStream {
  readonly options: OpStreamOptions;
  /** OP_* code. */
  readonly kind: Uint8Array;
  /** BUY or SELL (for cancels and moves: the side of the targeted order). */
  readonly side: Uint8Array;
  /**
   * The order the op is about. Places create a new handle; cancels and moves name an existing
   * one (a moved order keeps its handle: the peer modifies it in place, exsim re-places it).
   */
  readonly handle: Int32Array;
  /** Account (1-based) owning the order. */
  readonly account: Int32Array;
  /** Limit price in ticks (places, moves). */
  readonly tick: Int32Array;
  /** Quantity in lots (places: ordered; moves: remaining at the time of the move). */
  readonly lots: Float64Array;
  readonly prefillOps: number;
  readonly warmupOps: number;
  readonly measuredOps: number;
  readonly totalOps: number;
  readonly handleCount: number;
  /** What the reference model saw during the measured phase. */
  readonly stats: OpStreamStats;
  /** The reference model after the last op, for the sanity check. */
  readonly finalBook: ReferenceBook;
}

export interface OpStreamStats {
  gtcPlaces: number;
  iocPlaces: number;
  cancels: number;
  moves: number;
  /** Maker fills per measured op. */
  tradesPerOp: number;
  avgRestingOrders: number;
  avgPriceLevels: number;
  minRestingOrders: number;
  maxRestingOrders: number;
}

/** Ticks the model covers; prices stay well inside it (see MIN_TICK / MAX_TICK). */
const TICK_COUNT = 20_000;
/** 100.00 USDT at a 0.01 tick. */
export const CENTER_TICK = 10_000;
const MIN_TICK = 1_000;
const MAX_TICK = TICK_COUNT - 1_000;
const CROSS_PROBABILITY = 0.01;
/** Largest passive offset from the touch, in ticks; offsets are skewed towards 0 (see passiveTick). */
const MAX_OFFSET = 1_200;

export function generateOpStream(options: OpStreamOptions): OpStream {
  const rng = seedrandom(`exsim-matching-core-${options.seed}`);
  const { targetOrders, accounts } = options;
  // Upper bound of ops: prefill needs at most targetOrders places (passive places always rest).
  const capacity = targetOrders + options.warmupOps + options.measuredOps;
  const kind = new Uint8Array(capacity);
  const side = new Uint8Array(capacity);
  const handle = new Int32Array(capacity);
  const account = new Int32Array(capacity);
  const tick = new Int32Array(capacity);
  const lots = new Float64Array(capacity);
  // Each op creates at most one handle.
  const book = new ReferenceBook(TICK_COUNT, capacity);
  let nextHandle = 0;
  let n = 0;

  const randomLots = (): number =>
    1 + Math.floor(rng() * 6) * Math.floor(rng() * 6) * Math.floor(rng() * 6);

  const randomAccount = (): number => 1 + Math.floor(rng() * accounts);

  const clampTick = (t: number): number => (t < MIN_TICK ? MIN_TICK : t > MAX_TICK ? MAX_TICK : t);

  /** A resting price near the touch: just inside the spread, minus an offset skewed to 0. */
  const passiveTick = (s: SideCode): number => {
    // u^2 piles orders up near the touch (10% within 12 ticks) with a long thin tail to
    // MAX_OFFSET (median 300 ticks): that is what spreads ~1,000 orders over ~750 levels.
    const u = rng();
    const offset = Math.floor(u * u * MAX_OFFSET);
    if (s === BUY) {
      const ref = book.bestAsk >= 0 ? book.bestAsk : (book.bestBid >= 0 ? book.bestBid + 2 : CENTER_TICK + 1);
      return clampTick(ref - 1 - offset);
    }
    const ref = book.bestBid >= 0 ? book.bestBid : (book.bestAsk >= 0 ? book.bestAsk - 2 : CENTER_TICK - 1);
    return clampTick(ref + 1 + offset);
  };

  /** A marketable price: 0..2 ticks through the opposite best (passive if that side is empty). */
  const crossingTick = (s: SideCode): number => {
    const opposite = book.oppositeBest(s);
    if (opposite < 0) return passiveTick(s);
    const through = Math.floor(rng() * 3);
    return clampTick(s === BUY ? opposite + through : opposite - through);
  };

  // Crossing removes resting orders, so it is only allowed while the book is at or above its
  // target size (otherwise it would out-drain the 9% of places and starve the book).
  const limitTick = (s: SideCode): number =>
    book.liveCount >= targetOrders && rng() < CROSS_PROBABILITY ? crossingTick(s) : passiveTick(s);

  const emitPlace = (ioc: boolean, s: SideCode, t: number, q: number, acct: number): void => {
    const h = nextHandle++;
    kind[n] = ioc ? OP_PLACE_IOC : OP_PLACE_GTC;
    side[n] = s;
    handle[n] = h;
    account[n] = acct;
    tick[n] = t;
    lots[n] = q;
    n++;
    book.submit(h, s, t, q, acct, ioc);
  };

  // --- prefill: passive GTC orders on alternating sides until the target is reached.
  let prefillSide: SideCode = BUY;
  while (book.liveCount < targetOrders) {
    emitPlace(false, prefillSide, passiveTick(prefillSide), randomLots(), randomAccount());
    prefillSide = prefillSide === BUY ? SELL : BUY;
  }
  const prefillOps = n;

  // --- warm-up and measured phases share the generator; stats cover only the measured part.
  const stats: OpStreamStats = {
    gtcPlaces: 0,
    iocPlaces: 0,
    cancels: 0,
    moves: 0,
    tradesPerOp: 0,
    avgRestingOrders: 0,
    avgPriceLevels: 0,
    minRestingOrders: Number.POSITIVE_INFINITY,
    maxRestingOrders: 0,
  };
  const mixedOps = options.warmupOps + options.measuredOps;
  const measuredStart = prefillOps + options.warmupOps;
  let tradesAtMeasuredStart = 0;
  let samples = 0;
  let orderSum = 0;
  let levelSum = 0;

  for (let i = 0; i < mixedOps; i++) {
    const measured = n >= measuredStart;
    if (n === measuredStart) tradesAtMeasuredStart = book.trades;
    if (measured && (n - measuredStart) % 256 === 0) {
      samples++;
      orderSum += book.liveCount;
      levelSum += book.levels[BUY]! + book.levels[SELL]!;
      stats.minRestingOrders = Math.min(stats.minRestingOrders, book.liveCount);
      stats.maxRestingOrders = Math.max(stats.maxRestingOrders, book.liveCount);
    }
    const bids = book.orders[BUY]!;
    const asks = book.orders[SELL]!;
    const r = rng();
    if (r < 0.09 || book.liveCount === 0) {
      // GTC place, favouring the thinner side.
      const pBuy = bids < asks ? 0.6 : bids > asks ? 0.4 : 0.5;
      const s: SideCode = rng() < pBuy ? BUY : SELL;
      emitPlace(false, s, limitTick(s), randomLots(), randomAccount());
      if (measured) stats.gtcPlaces++;
    } else if (r < 0.12) {
      // IOC taker against the thicker side.
      const pBuy = asks > bids ? 0.6 : asks < bids ? 0.4 : 0.5;
      const s: SideCode = rng() < pBuy ? BUY : SELL;
      const taker = iocTaker(book, s, rng, targetOrders);
      emitPlace(true, s, taker.tick, taker.lots, randomAccount());
      if (measured) stats.iocPlaces++;
    } else if (r < 0.18) {
      const h = book.pickResting(rng());
      kind[n] = OP_CANCEL;
      side[n] = book.side[h]!;
      handle[n] = h;
      account[n] = book.account[h]!;
      tick[n] = book.tick[h]!;
      lots[n] = book.lots[h]!;
      n++;
      book.cancel(h);
      if (measured) stats.cancels++;
    } else {
      const h = book.pickResting(rng());
      const s = book.side[h]! as SideCode;
      const old = book.tick[h]!;
      let t = limitTick(s);
      // A move always changes the price; step one tick away from the touch if it would not.
      if (t === old) t = clampTick(s === BUY ? t - 1 : t + 1);
      const remaining = book.lots[h]!;
      const acct = book.account[h]!;
      kind[n] = OP_MOVE;
      side[n] = s;
      handle[n] = h;
      account[n] = acct;
      tick[n] = t;
      lots[n] = remaining;
      n++;
      book.cancel(h);
      book.submit(h, s, t, remaining, acct, false);
      if (measured) stats.moves++;
    }
  }

  const measuredOps = options.measuredOps;
  stats.tradesPerOp = measuredOps > 0 ? (book.trades - tradesAtMeasuredStart) / measuredOps : 0;
  stats.avgRestingOrders = samples > 0 ? orderSum / samples : 0;
  stats.avgPriceLevels = samples > 0 ? levelSum / samples : 0;
  if (samples === 0) stats.minRestingOrders = 0;

  return {
    options,
    kind,
    side,
    handle,
    account,
    tick,
    lots,
    prefillOps,
    warmupOps: options.warmupOps,
    measuredOps,
    totalOps: n,
    handleCount: nextHandle,
    stats,
    finalBook: book,
  };
}

/**
 * Sizes an IOC from the real depth: `whole` complete orders from the top of the opposite side
 * plus part of the next one. `whole` averages ~1 and grows or shrinks with the distance from the
 * target book size, so IOCs absorb whatever places and cancels add or remove on balance.
 */
function iocTaker(
  book: ReferenceBook,
  s: SideCode,
  rng: () => number,
  targetOrders: number,
): { tick: number; lots: number } {
  const bookSide: SideCode = s === BUY ? SELL : BUY;
  let level = book.oppositeBest(s);
  if (level < 0) {
    // Nothing to take: an IOC that expires unfilled at the touch of its own side.
    const own = s === BUY ? book.bestBid : book.bestAsk;
    return { tick: own >= 0 ? own : CENTER_TICK, lots: 1 + Math.floor(rng() * 10) };
  }
  const excess = book.liveCount - targetOrders;
  let whole = Math.floor(rng() * 3) + Math.round(excess / 25);
  if (whole < 0) whole = 0;
  if (whole > 20) whole = 20;
  let lots = 0;
  let lastTick = level;
  let h = book.levelHead(level);
  for (let taken = 0; taken < whole && level >= 0; taken++) {
    lots += book.lots[h]!;
    lastTick = level;
    h = book.nextInLevel(h);
    if (h < 0) {
      level = book.nextWorseLevel(bookSide, level);
      if (level >= 0) h = book.levelHead(level);
    }
  }
  if (level >= 0) {
    // Part of the next order (at least one lot, never all of it when it has more than one).
    const available = book.lots[h]!;
    lots += available > 1 ? 1 + Math.floor(rng() * (available - 1)) : 1;
    lastTick = level;
  }
  return { tick: lastTick, lots };
}
