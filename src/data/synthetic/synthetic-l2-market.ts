/**
 * A seeded order-book market: the level-by-level book of one symbol and the trades taken from it,
 * as a recorded L2 feed shows them (Binance's 100 ms diff-depth messages and its trades).
 *
 * The process, in ticks around a latent fair price:
 * - the fair price is a random walk (σ from the daily volatility, per 100 ms window) whose
 *   volatility itself wanders (log-AR(1), half-life ~10 min), so busy and quiet stretches follow
 *   each other;
 * - liquidity providers quote around it: bids strictly below the fair price, asks strictly above,
 *   as far as `reach` ticks out (wider than Binance's 1000-level snapshot of BTCUSDT). Limit
 *   orders arrive at a distance drawn from a near/middle/far mixture and sizes from a log-normal;
 *   cancellations hit existing levels at the same distances, whole or in part, at a rate that
 *   grows with the side's level count (queue-reactive: the book holds ~`levelsPerSide` levels);
 *   when the fair price moves, quotes left on its wrong side and quotes beyond the reach are
 *   cancelled;
 * - market orders (sides that run in streaks, log-normal sizes) walk the book from the touch,
 *   level by level, each level taken as one to a few trades (one per maker order), so every trade
 *   is at the best price of the book just before it and the book after it shows the liquidity
 *   taken.
 * Publication: the changes of each 100 ms window go out as one message stamped at the window's
 * end (each changed level with its new total; 0 removes). A market order first publishes the
 * changes not yet published, 1 µs before it, so the book a trade is checked against is the one it
 * traded on, and its own changes follow in a later message (stamped at or after the trade: at one
 * µs, trades come before depth). Event times are whole µs, never on a window boundary.
 * Rates are steered minute by minute so a day holds about `depthRowsPerDay` update rows and
 * `tradesPerDay` trades. Same spec, same seed: the same market, bit for bit.
 */
import { RandomStream } from './random-stream.ts';
import type { SyntheticMarketSpec } from './market-spec.ts';

export interface SyntheticL2Spec extends SyntheticMarketSpec {
  /** Expected depth update rows per day (snapshots not counted). */
  readonly depthRowsPerDay: number;
  /** Levels each side holds about (default 1000). */
  readonly levelsPerSide?: number;
}

/** Where the market's output goes. Rows are handed over in scratch arrays, valid during the call. */
export interface L2Sink {
  /** One depth message: `count` rows (side 0 bid / 1 ask, price and size in units; size 0 removes the level). */
  depth(time: number, local: number, snapshot: boolean, sides: Uint8Array, prices: Float64Array, qtys: Float64Array, count: number): void;
  /** One trade; `sell`: the taker sold. */
  trade(time: number, local: number, id: number, sell: boolean, price: number, qty: number): void;
}

export const WINDOW_US = 100_000;
const SECOND_US = 1_000_000;
const DAY_SECONDS = 86_400;
const WINDOWS_PER_DAY = (DAY_SECONDS * SECOND_US) / WINDOW_US;
/** Ticks of book held in memory around the fair price; the window moves when the price nears an edge. */
const SPAN = 1 << 18;
/** The book is simulated this long before the first snapshot, unrecorded, so it starts in its stationary shape. */
const WARM_UP_US = 120 * SECOND_US;
/** Rates are steered once a minute (in windows). */
const STEER_WINDOWS = 600;

// Shape of the market; tuned by eye against Binance BTCUSDT's book and tape, not fitted.
/**
 * Distance mixture: quotes at the touch (within a few ticks of the fair price: the makers who
 * keep BTCUSDT's spread at a tick or two), near it, in the middle; the rest uniform out to the reach.
 */
const TOUCH_SHARE = 0.15;
const TOUCH_MEAN = 1.5;
/** Chance each side is requoted at the touch right after a move of the fair price. */
const REQUOTE_CHANCE = 0.9;
const NEAR_SHARE = 0.45;
const MIDDLE_SHARE = 0.25;
/** Level size: median in median market orders, log-space spread. */
const LEVEL_IN_ORDERS = 50;
const LEVEL_SIGMA = 1.5;
const ORDER_SIGMA = 1.4;
/** Probability a market order has the previous one's side. */
const SAME_SIDE = 0.6;
/** Levels a market order walks at most. */
const MAX_WALK = 20;
/** Trades one level's take makes: 1 + a geometric count of further maker orders. */
const MORE_MAKERS = 0.45;
/** Volatility's log-AR(1): per-window persistence and stationary spread. */
const VOL_PERSISTENCE = Math.exp(-1 / 6000);
const VOL_SPREAD = 0.5;
/** Local receive latency: 0.5 ms + an exponential with this mean (µs). */
const LATENCY_MEAN_US = 1500;

export class SyntheticL2Market {
  private readonly random: RandomStream;
  private readonly spec: SyntheticL2Spec;
  private readonly levelsPerSide: number;
  /** How far out quotes go, in ticks. */
  private readonly reach: number;
  private readonly nearMean: number;
  private readonly middleMean: number;
  private readonly levelMedian: number;
  private readonly orderMedian: number;
  /** Windows between moves of the fair price: 1, except for a sparse market (a small test day), whose rows the moves alone would exceed. */
  private readonly moveEvery: number;
  /** Fair price σ per move at volatility 1, as a fraction of the price. */
  private readonly moveSigma: number;

  /** Size in steps by tick index: > 0 an ask level, < 0 a bid level. */
  private readonly book = new Float64Array(SPAN);
  /** Absolute tick of index 0. */
  private base: number;
  /** Fair price as a (fractional) index. */
  private fair: number;
  private logVol = 0;
  private bestBid = -1;
  private lowBid = -1;
  private bidCount = 0;
  private bestAsk = -1;
  private highAsk = -1;
  private askCount = 0;

  /** Changes not yet published: the indexes touched per side, each once (marked with the message's epoch). */
  private readonly markBid = new Int32Array(SPAN);
  private readonly markAsk = new Int32Array(SPAN);
  private epoch = 1;
  private pendBid: Int32Array = new Int32Array(1024);
  private pendAsk: Int32Array = new Int32Array(1024);
  private pendBidCount = 0;
  private pendAskCount = 0;

  /** Scratch rows handed to the sink. */
  private sides: Uint8Array = new Uint8Array(4096);
  private prices: Float64Array = new Float64Array(4096);
  private qtys: Float64Array = new Float64Array(4096);

  /** µs: the start of the next window to simulate. */
  private now: number;
  private lastEventTime: number;
  private lastDepthLocal = 0;
  private lastTradeLocal = 0;
  private nextTradeId: number;
  private lastSellSide = false;
  /** Only what happens after warm-up reaches the sink. */
  private recording = false;

  /**
   * Rate steering: events per second, the rows a book event makes and the trades a market order
   * makes (measured, smoothed), and the counts since recording started and at the last steer.
   */
  private bookRate: number;
  private orderRate: number;
  private rowsPerEvent = 1;
  private tradesPerOrder = 2;
  private windowsRun = 0;
  private rowsMade = 0;
  private tradesMade = 0;
  private bookEvents = 0;
  private marketOrders = 0;
  private readonly atLastSteer = { rows: 0, trades: 0, bookEvents: 0, marketOrders: 0 };

  constructor(spec: SyntheticL2Spec) {
    if (spec.startTime % WINDOW_US !== 0) throw new RangeError('the market starts on a 100 ms boundary');
    this.spec = spec;
    this.random = new RandomStream(`${spec.seed}:${spec.symbol}:l2`);
    this.levelsPerSide = spec.levelsPerSide ?? 1000;
    const startTicks = spec.startPrice / spec.tickSize;
    if (!(startTicks >= 4)) throw new RangeError('the start price must be at least 4 ticks');
    // ±0.25% of the price (±$105 for BTCUSDT at 42000), never down to a price of 0.
    this.reach = Math.min(Math.floor(startTicks / 2), Math.max(50, Math.min(10_000, Math.round(startTicks * 0.0025))));
    this.nearMean = Math.max(2, this.reach / 250);
    this.middleMean = this.reach / 12;
    this.orderMedian = Math.max(1, spec.medianQty / spec.stepSize);
    this.levelMedian = this.orderMedian * LEVEL_IN_ORDERS;
    // A move costs a few rows (quotes withdrawn, the touch requoted): keep them to about a third of the day's rows.
    this.moveEvery = Math.max(1, Math.round((WINDOWS_PER_DAY * 10) / spec.depthRowsPerDay));
    this.moveSigma = spec.dailyVolatility * Math.sqrt(this.moveEvery / WINDOWS_PER_DAY);
    this.base = Math.round(startTicks) - SPAN / 2;
    this.fair = startTicks - this.base;
    this.orderRate = spec.tradesPerDay / DAY_SECONDS / this.tradesPerOrder;
    this.bookRate = spec.depthRowsPerDay / DAY_SECONDS / this.rowsPerEvent;
    this.nextTradeId = spec.firstTradeId;
    this.now = spec.startTime - WARM_UP_US;
    this.lastEventTime = this.now;
    this.seedBook();
    this.run(spec.startTime, null, false);
    this.recording = true;
    this.nextTradeId = spec.firstTradeId;
    this.windowsRun = 0;
    this.rowsMade = this.tradesMade = this.bookEvents = this.marketOrders = 0;
    Object.assign(this.atLastSteer, { rows: 0, trades: 0, bookEvents: 0, marketOrders: 0 });
  }

  /** µs: where the simulation stands (the start of the next window). */
  get time(): number {
    return this.now;
  }

  /** Trades made so far; the next trade's id is firstTradeId + this. */
  get trades(): number {
    return this.nextTradeId - this.spec.firstTradeId;
  }

  /** The whole book as one snapshot message at the current time; changes not yet published are in it and dropped. */
  snapshot(sink: L2Sink): void {
    this.clearPending();
    let n = 0;
    for (let i = this.bestBid; this.bidCount > 0 && i >= this.lowBid; i--) {
      if (this.book[i]! < 0) n = this.addRow(n, 0, i, -this.book[i]!);
    }
    for (let i = this.bestAsk; this.askCount > 0 && i <= this.highAsk; i++) {
      if (this.book[i]! > 0) n = this.addRow(n, 1, i, this.book[i]!);
    }
    sink.depth(this.now, this.depthLocal(this.now), true, this.sides, this.prices, this.qtys, n);
  }

  /**
   * Simulates the windows up to `until` (a 100 ms boundary), publishing each window's changes at
   * its end; the changes of the window ending at `until` are published too when `publishAtUntil`,
   * else they wait (a day's end: the next day's snapshot holds them).
   */
  run(until: number, sink: L2Sink | null, publishAtUntil = true): void {
    if (until % WINDOW_US !== 0 || until < this.now) throw new RangeError(`run until a later 100 ms boundary, not ${until}`);
    while (this.now < until) {
      const end = this.now + WINDOW_US;
      if (this.windowsRun % this.moveEvery === 0) this.moveFair();
      this.simulateWindow(end, sink);
      this.now = end;
      if (end < until || publishAtUntil) this.publish(end, sink);
      if (++this.windowsRun % STEER_WINDOWS === 0) this.steer();
      this.recentre();
    }
  }

  /** The first book: each side's levels drawn from the arrival distribution. */
  private seedBook(): void {
    for (let k = 0; k < this.levelsPerSide; k++) {
      this.arrive(false);
      this.arrive(true);
    }
    this.clearPending();
  }

  private moveFair(): void {
    const r = this.random;
    const persistence = VOL_PERSISTENCE ** this.moveEvery;
    this.logVol = persistence * this.logVol + Math.sqrt(1 - persistence * persistence) * VOL_SPREAD * r.normal();
    const vol = Math.exp(this.logVol - VOL_SPREAD * VOL_SPREAD);
    const price = this.fair + this.base;
    this.fair += price * this.moveSigma * vol * r.normal();
    // Quotes on the wrong side of the fair price, or beyond the reach, are withdrawn.
    const lastBid = Math.ceil(this.fair) - 1;
    const firstAsk = Math.floor(this.fair) + 1;
    while (this.bidCount > 0 && this.bestBid > lastBid) this.setLevel(this.bestBid, 0);
    while (this.askCount > 0 && this.bestAsk < firstAsk) this.setLevel(this.bestAsk, 0);
    while (this.bidCount > 0 && this.lowBid < lastBid + 1 - this.reach) this.setLevel(this.lowBid, 0);
    while (this.askCount > 0 && this.highAsk > firstAsk - 1 + this.reach) this.setLevel(this.highAsk, 0);
    // Makers requote the touch right after the move, which keeps the spread at a tick or a few.
    if (r.uniform() < REQUOTE_CHANCE) this.arrive(false, true);
    if (r.uniform() < REQUOTE_CHANCE) this.arrive(true, true);
  }

  private simulateWindow(end: number, sink: L2Sink | null): void {
    const r = this.random;
    const bookRate = this.bookRate;
    const orderRate = this.orderRate;
    const total = bookRate + orderRate;
    const meanGap = SECOND_US / total;
    const orderShare = orderRate / total;
    let t = this.now + r.exponential(meanGap);
    for (;;) {
      let time = Math.floor(t);
      if (time <= this.lastEventTime) time = this.lastEventTime + 1;
      if (time % WINDOW_US === 0) time++;
      if (time >= end) return;
      this.lastEventTime = time;
      if (r.uniform() < orderShare) {
        this.marketOrders++;
        this.marketOrder(time, sink);
      } else {
        this.bookEvents++;
        this.bookEvent();
      }
      t = Math.max(t, time) + r.exponential(meanGap);
    }
  }

  /** An arrival or a cancellation on a random side; the fuller the side, the likelier a cancellation. */
  private bookEvent(): void {
    const r = this.random;
    const ask = r.uniform() < 0.5;
    const fill = (ask ? this.askCount : this.bidCount) / this.levelsPerSide;
    const cancelChance = Math.min(0.85, Math.max(0.2, 0.5 * fill * fill));
    if (r.uniform() < cancelChance) this.cancel(ask);
    else this.arrive(ask);
  }

  /** Ticks from the fair price to a quote, 1..reach (at the touch: a few at most). */
  private distance(touch: boolean): number {
    const r = this.random;
    const u = touch ? 0 : r.uniform();
    let d: number;
    if (u < TOUCH_SHARE) d = 1 + Math.floor(r.exponential(TOUCH_MEAN));
    else if (u < TOUCH_SHARE + NEAR_SHARE) d = 1 + Math.floor(r.exponential(this.nearMean));
    else if (u < TOUCH_SHARE + NEAR_SHARE + MIDDLE_SHARE) d = 1 + Math.floor(r.exponential(this.middleMean));
    else d = 1 + r.below(this.reach);
    return Math.min(d, this.reach);
  }

  private arrive(ask: boolean, touch = false): void {
    const d = this.distance(touch);
    const size = Math.max(1, Math.round(this.random.logNormal(this.levelMedian, LEVEL_SIGMA)));
    if (ask) {
      const i = Math.floor(this.fair) + d;
      this.setLevel(i, this.book[i]! + size);
    } else {
      const i = Math.ceil(this.fair) - d;
      // A bid at a price of 0 or below is no bid (a cheap symbol's fair price near the reach).
      if (this.base + i > 0) this.setLevel(i, this.book[i]! - size);
    }
  }

  /** Cancels (in whole or in part) the first level of the side at or beyond a random distance, if one is near it. */
  private cancel(ask: boolean): void {
    const d = this.distance(false);
    const step = ask ? 1 : -1;
    let i = ask ? Math.floor(this.fair) + d : Math.ceil(this.fair) - d;
    const stop = ask ? this.highAsk : this.lowBid;
    if ((ask ? this.askCount : this.bidCount) === 0) return;
    for (let k = 0; k < 256; k++, i += step) {
      if (ask ? i > stop : i < stop) return;
      const size = Math.abs(this.book[i]!);
      if (size === 0) continue;
      const r = this.random;
      const left = r.uniform() < 0.5 ? 0 : Math.min(size - 1, Math.floor(size * (0.1 + 0.8 * r.uniform())));
      this.setLevel(i, ask ? left : -left);
      return;
    }
  }

  /** A market order at `time`: publishes what is pending (1 µs before), then walks the book from the touch. */
  private marketOrder(time: number, sink: L2Sink | null): void {
    const r = this.random;
    const sell = r.uniform() < SAME_SIDE ? this.lastSellSide : !this.lastSellSide;
    this.lastSellSide = sell;
    if ((sell ? this.bidCount : this.askCount) === 0) return;
    if (this.pendBidCount + this.pendAskCount > 0) this.publish(time - 1, sink);
    let remaining = Math.max(1, Math.round(r.logNormal(this.orderMedian, ORDER_SIGMA)));
    for (let walked = 0; walked < MAX_WALK && remaining > 0 && (sell ? this.bidCount : this.askCount) > 0; walked++) {
      const i = sell ? this.bestBid : this.bestAsk;
      const size = Math.abs(this.book[i]!);
      const take = Math.min(size, remaining);
      remaining -= take;
      this.setLevel(i, sell ? -(size - take) : size - take);
      // One trade per maker order taken: a few for a level, the last with what is left.
      let left = take;
      while (left > 0) {
        const part = left > 1 && r.uniform() < MORE_MAKERS ? 1 + r.below(left - 1) : left;
        left -= part;
        this.tradesMade++;
        const id = this.nextTradeId++;
        if (this.recording && sink !== null) {
          sink.trade(time, this.tradeLocal(time), id, sell, (this.base + i) * this.spec.tickSize, part * this.spec.stepSize);
        }
      }
    }
  }

  /** Sets the size (in steps; > 0 ask, < 0 bid, 0 none) at index i, keeping the counts and ends of each side and noting the change. */
  private setLevel(i: number, value: number): void {
    const old = this.book[i]!;
    if (old === value) return;
    this.book[i] = value;
    if (old < 0 || value < 0) this.markChange(i, false);
    if (old > 0 || value > 0) this.markChange(i, true);
    if (old === 0 && value < 0) {
      if (this.bidCount++ === 0) this.bestBid = this.lowBid = i;
      else if (i > this.bestBid) this.bestBid = i;
      else if (i < this.lowBid) this.lowBid = i;
    } else if (old === 0 && value > 0) {
      if (this.askCount++ === 0) this.bestAsk = this.highAsk = i;
      else if (i < this.bestAsk) this.bestAsk = i;
      else if (i > this.highAsk) this.highAsk = i;
    } else if (old < 0 && value === 0) {
      if (--this.bidCount === 0) this.bestBid = this.lowBid = -1;
      else if (i === this.bestBid) this.bestBid = this.nextLevel(i - 1, -1, -1);
      else if (i === this.lowBid) this.lowBid = this.nextLevel(i + 1, 1, -1);
    } else if (old > 0 && value === 0) {
      if (--this.askCount === 0) this.bestAsk = this.highAsk = -1;
      else if (i === this.bestAsk) this.bestAsk = this.nextLevel(i + 1, 1, 1);
      else if (i === this.highAsk) this.highAsk = this.nextLevel(i - 1, -1, 1);
    }
  }

  /** The first index from `i` going `step` whose level is on `sign`'s side (the side has one). */
  private nextLevel(i: number, step: number, sign: number): number {
    while (this.book[i]! * sign <= 0) i += step;
    return i;
  }

  private markChange(i: number, ask: boolean): void {
    if (ask) {
      if (this.markAsk[i] === this.epoch) return;
      this.markAsk[i] = this.epoch;
      if (this.pendAskCount === this.pendAsk.length) this.pendAsk = grown(this.pendAsk);
      this.pendAsk[this.pendAskCount++] = i;
    } else {
      if (this.markBid[i] === this.epoch) return;
      this.markBid[i] = this.epoch;
      if (this.pendBidCount === this.pendBid.length) this.pendBid = grown(this.pendBid);
      this.pendBid[this.pendBidCount++] = i;
    }
  }

  /** Publishes the pending changes as one message at `time` (nothing when there are none). */
  private publish(time: number, sink: L2Sink | null): void {
    let n = 0;
    for (let k = 0; k < this.pendBidCount; k++) {
      const i = this.pendBid[k]!;
      n = this.addRow(n, 0, i, this.book[i]! < 0 ? -this.book[i]! : 0);
    }
    for (let k = 0; k < this.pendAskCount; k++) {
      const i = this.pendAsk[k]!;
      n = this.addRow(n, 1, i, this.book[i]! > 0 ? this.book[i]! : 0);
    }
    this.clearPending();
    if (n === 0) return;
    this.rowsMade += n;
    if (this.recording && sink !== null) sink.depth(time, this.depthLocal(time), false, this.sides, this.prices, this.qtys, n);
  }

  private addRow(n: number, side: number, i: number, steps: number): number {
    if (n === this.sides.length) {
      this.sides = grown(this.sides);
      this.prices = grown(this.prices);
      this.qtys = grown(this.qtys);
    }
    this.sides[n] = side;
    this.prices[n] = (this.base + i) * this.spec.tickSize;
    this.qtys[n] = steps * this.spec.stepSize;
    return n + 1;
  }

  private clearPending(): void {
    this.pendBidCount = 0;
    this.pendAskCount = 0;
    this.epoch++;
  }

  /** Keeps the fair price away from the edges of the array (only between messages: nothing pending). */
  private recentre(): void {
    const margin = this.reach * 4;
    if (this.fair > margin && this.fair < SPAN - margin) return;
    if (this.pendBidCount + this.pendAskCount > 0) return;
    const shift = Math.round(this.fair) - SPAN / 2;
    const copy = this.book.slice();
    this.book.fill(0);
    for (let i = 0; i < SPAN; i++) {
      const j = i - shift;
      if (copy[i] !== 0 && j >= 0 && j < SPAN) this.book[j] = copy[i]!;
    }
    this.base += shift;
    this.fair -= shift;
    for (const key of ['bestBid', 'lowBid', 'bestAsk', 'highAsk'] as const) if (this[key] >= 0) this[key] -= shift;
    this.markBid.fill(0);
    this.markAsk.fill(0);
  }

  /**
   * Once a minute: the rates that make the day's targets, from what a book event and a market
   * order made lately (smoothed), nudged by how far the counts since the start are off the pace.
   */
  private steer(): void {
    const last = this.atLastSteer;
    const rows = this.rowsMade - last.rows;
    const trades = this.tradesMade - last.trades;
    const events = this.bookEvents - last.bookEvents;
    const orders = this.marketOrders - last.marketOrders;
    if (events > 0 && rows > 0) this.rowsPerEvent = 0.7 * this.rowsPerEvent + 0.3 * (rows / events);
    if (orders > 0 && trades > 0) this.tradesPerOrder = 0.7 * this.tradesPerOrder + 0.3 * (trades / orders);
    Object.assign(last, { rows: this.rowsMade, trades: this.tradesMade, bookEvents: this.bookEvents, marketOrders: this.marketOrders });
    const days = (this.windowsRun * WINDOW_US) / (DAY_SECONDS * SECOND_US);
    const pace = (target: number, made: number): number => Math.min(1.25, Math.max(0.8, (target * days + 1000) / (made + 1000)));
    this.bookRate = ((this.spec.depthRowsPerDay / DAY_SECONDS) * pace(this.spec.depthRowsPerDay, this.rowsMade)) / this.rowsPerEvent;
    this.orderRate = ((this.spec.tradesPerDay / DAY_SECONDS) * pace(this.spec.tradesPerDay, this.tradesMade)) / this.tradesPerOrder;
  }

  private depthLocal(time: number): number {
    this.lastDepthLocal = Math.max(this.lastDepthLocal + 1, time + 500 + Math.floor(this.random.exponential(LATENCY_MEAN_US)));
    return this.lastDepthLocal;
  }

  private tradeLocal(time: number): number {
    this.lastTradeLocal = Math.max(this.lastTradeLocal + 1, time + 500 + Math.floor(this.random.exponential(LATENCY_MEAN_US)));
    return this.lastTradeLocal;
  }
}

/** A typed array twice as long holding `a` at its start. */
function grown<T extends Int32Array | Uint8Array | Float64Array>(a: T): T {
  const b = new (a.constructor as new (length: number) => T)(a.length * 2);
  b.set(a);
  return b;
}
