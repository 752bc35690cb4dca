/**
 * A seeded synthetic trade tape with the features that matter to a backtest:
 * - volatility clustering: the mid price is a random walk whose variance follows GARCH(1,1) on
 *   each taker order's innovation, with rare jumps that also raise the variance;
 * - bursty time: taker orders arrive as a self-exciting (Hawkes) process whose base rate
 *   follows the time of day and rises with volatility;
 * - order flow: each taker order has a side (buys follow buys: sides are autocorrelated), a
 *   log-normal size (a quarter of them round numbers), and walks a random depth profile from the
 *   touch, so one order gives several trades at the same time and side, at one or more prices;
 * - exact units: prices on the tick grid, sizes on the step grid, quoteQty = price × qty
 *   truncated to the quote precision (as the dumps print it), ids consecutive.
 * Same spec (seed included) => the same trades, bit for bit.
 */
import { mulDivFloor } from '../../engine/exact-math.ts';
import { pow10 } from '../../engine/units.ts';
import { BEST_MATCH, BUYER_MAKER, type TradeBatch } from '../tape.ts';
import type { TimeUnit } from '../dump-parser.ts';
import { RandomStream } from './random-stream.ts';
import type { SyntheticMarketSpec } from './market-spec.ts';

export interface SyntheticTradesSpec extends SyntheticMarketSpec {
  /** µs, exclusive. */
  readonly endTime: number;
  /** 'ms' stamps every trade on a whole millisecond, as dumps before 2025 are. */
  readonly timeUnit: TimeUnit;
}

// Shape of the market; tuned by eye against a day of real BTCUSDT, not fitted.
/** GARCH(1,1) on the standardised innovation of each order: persistence a + b = 0.995. */
const GARCH_A = 0.04;
const GARCH_B = 0.955;
/** Hawkes excitation: branching ratio and decay (per second). */
const BRANCHING = 0.7;
const DECAY_PER_SECOND = 0.5;
/** Probability that a taker order has the same side as the previous one. */
const SAME_SIDE = 0.62;
/** Log-space spread of order sizes and of the depth at each level. */
const SIZE_SIGMA = 1.6;
const DEPTH_SIGMA = 1.5;
/** Median depth per price level, in median order sizes. */
const DEPTH_IN_ORDERS = 8;
/** Trades a taker order makes on average with the shape above (measured), to turn trades/day into orders/day. */
const TRADES_PER_ORDER = 1.56;
/** Rare jumps: probability per order, size as a fraction of the price. */
const JUMP_CHANCE = 5e-5;
const JUMP_SIZE = 0.003;
const MAX_LEVELS = 50;
/** Fraction of the levels an order swept that stays in the mid price (permanent impact). */
const PERMANENT_IMPACT = 0.2;
const SECONDS_PER_DAY = 86_400;

/** Generates the trades of a spec in order, one taker order at a time. */
export class SyntheticTrades {
  private readonly random: RandomStream;
  private readonly spec: SyntheticTradesSpec;
  private readonly baseScale: number;
  private readonly varianceTarget: number;
  private readonly baseRate: number;
  private readonly alpha: number;

  /** Mid price in ticks (continuous). */
  private mid: number;
  /** Variance of the log price per second. */
  private variance: number;
  /** Hawkes excitation (orders per second) at `clock`. */
  private excitation = 0;
  /** µs, continuous. */
  private clock: number;
  private buyerTaker = true;
  private nextId: number;

  // The fills of the current taker order, handed out one by one.
  private readonly fillPrice: number[] = [];
  private readonly fillQty: number[] = [];
  private fillTime = 0;
  private fillBuyerMaker = false;
  private fillIndex = 0;
  private done = false;

  constructor(spec: SyntheticTradesSpec) {
    if (!(spec.endTime > spec.startTime)) throw new RangeError('endTime must be after startTime');
    if (!(spec.tickSize > 0 && spec.stepSize > 0 && spec.startPrice >= spec.tickSize)) throw new RangeError('tickSize, stepSize and startPrice must be positive');
    this.spec = spec;
    this.random = new RandomStream(`exsim-synthetic-trades/${spec.symbol}/${spec.seed}`);
    this.baseScale = pow10(spec.scale.basePrecision);
    this.varianceTarget = (spec.dailyVolatility * spec.dailyVolatility) / SECONDS_PER_DAY;
    this.variance = this.varianceTarget;
    this.baseRate = ((spec.tradesPerDay / TRADES_PER_ORDER) / SECONDS_PER_DAY) * (1 - BRANCHING);
    this.alpha = BRANCHING * DECAY_PER_SECOND;
    this.mid = spec.startPrice / spec.tickSize;
    this.clock = spec.startTime;
    this.nextId = spec.firstTradeId;
  }

  /** Writes the next trade into `out`; false when the time range is exhausted. */
  next(out: TradeRow): boolean {
    while (this.fillIndex >= this.fillPrice.length) {
      if (this.done || !this.nextOrder()) {
        this.done = true;
        return false;
      }
    }
    const i = this.fillIndex++;
    const price = this.fillPrice[i]!;
    const qty = this.fillQty[i]!;
    out.id = this.nextId++;
    out.price = price;
    out.qty = qty;
    out.quoteQty = mulDivFloor(price, qty, this.baseScale);
    out.time = this.fillTime;
    out.isBuyerMaker = this.fillBuyerMaker;
    return true;
  }

  /** Draws the next taker order and its fills; false once past endTime. */
  private nextOrder(): boolean {
    const r = this.random;
    const spec = this.spec;
    const previous = this.clock;
    if (!this.advanceClock()) return false;
    const dt = (this.clock - previous) / 1e6;

    // Price: diffusion with GARCH variance, rare jumps.
    const z = r.normal();
    let step = Math.sqrt(this.variance * dt) * z - 0.5 * this.variance * dt;
    this.variance = this.varianceTarget * (1 - GARCH_A - GARCH_B) + this.variance * (GARCH_A * z * z + GARCH_B);
    if (r.chance(JUMP_CHANCE)) {
      step += (r.chance(0.5) ? 1 : -1) * JUMP_SIZE * (0.5 + r.uniform());
      this.variance *= 4;
    }
    this.mid = Math.max(this.mid * Math.exp(step), 20);

    // The taker order.
    if (!r.chance(SAME_SIDE)) this.buyerTaker = !this.buyerTaker;
    const stepSize = spec.stepSize;
    let size = r.logNormal(spec.medianQty, SIZE_SIGMA);
    if (r.chance(0.25)) size = roundToOneDigit(size);
    let remaining = Math.max(1, Math.round(Math.min(size, spec.medianQty * 2000) / stepSize)) * stepSize;

    // Walk the book from the touch: a one-tick spread, wider when volatile.
    const spreadTicks = 1 + (this.variance > 4 * this.varianceTarget ? r.below(3) : 0);
    const bid = Math.floor(this.mid - (spreadTicks - 1) / 2);
    const direction = this.buyerTaker ? 1 : -1;
    let level = this.buyerTaker ? bid + spreadTicks : bid;
    this.fillPrice.length = 0;
    this.fillQty.length = 0;
    this.fillIndex = 0;
    let levels = 0;
    while (remaining > 0 && level >= 1 && levels < MAX_LEVELS) {
      let depth = Math.max(1, Math.round(r.logNormal(spec.medianQty * DEPTH_IN_ORDERS, DEPTH_SIGMA) / stepSize)) * stepSize;
      const makers = 1 + r.below(3);
      for (let m = 0; m < makers && remaining > 0 && depth > 0; m++) {
        const makerQty = m === makers - 1 ? depth : Math.max(stepSize, Math.round((depth * r.uniform()) / stepSize) * stepSize);
        const fill = Math.min(remaining, makerQty);
        this.fillPrice.push(level * spec.tickSize);
        this.fillQty.push(fill);
        remaining -= fill;
        depth -= fill;
      }
      if (remaining > 0) {
        level += direction;
        levels++;
      }
    }
    // Sweeping moves the market: part of the walk stays in the price.
    this.mid = Math.max(this.mid + direction * PERMANENT_IMPACT * levels, 20);
    this.fillTime = spec.timeUnit === 'ms' ? Math.floor(this.clock / 1000) * 1000 : Math.floor(this.clock);
    this.fillBuyerMaker = !this.buyerTaker;
    return true;
  }

  /**
   * Moves the clock to the next taker order of the Hawkes process (Ogata thinning: propose with
   * the current intensity, which only decays until the next order, accept with the ratio).
   */
  private advanceClock(): boolean {
    const r = this.random;
    const activity = Math.min(3, Math.max(0.5, Math.sqrt(this.variance / this.varianceTarget)));
    for (;;) {
      const base = this.baseRate * activity * seasonality(this.clock);
      const bound = base + this.excitation;
      const wait = r.exponential(1 / bound);
      const decayed = this.excitation * Math.exp(-DECAY_PER_SECOND * wait);
      this.clock += wait * 1e6;
      if (this.clock >= this.spec.endTime) return false;
      this.excitation = decayed;
      const intensity = this.baseRate * activity * seasonality(this.clock) + decayed;
      if (r.uniform() * bound <= intensity) {
        this.excitation += this.alpha;
        return true;
      }
    }
  }
}

/** One trade; booleans as on the dumps. */
export interface TradeRow {
  id: number;
  price: number;
  qty: number;
  quoteQty: number;
  time: number;
  isBuyerMaker: boolean;
}

export function newTradeRow(): TradeRow {
  return { id: 0, price: 0, qty: 0, quoteQty: 0, time: 0, isBuyerMaker: false };
}

/** The spec's trades as columnar batches, like the loaders give. isBestMatch is always true (as on spot). */
export function* generateTradeBatches(spec: SyntheticTradesSpec, batchSize = 65_536): Generator<TradeBatch> {
  const source = new SyntheticTrades(spec);
  const row = newTradeRow();
  for (;;) {
    const id = new Float64Array(batchSize);
    const price = new Float64Array(batchSize);
    const qty = new Float64Array(batchSize);
    const quoteQty = new Float64Array(batchSize);
    const time = new Float64Array(batchSize);
    const flags = new Uint8Array(batchSize);
    let n = 0;
    while (n < batchSize && source.next(row)) {
      id[n] = row.id;
      price[n] = row.price;
      qty[n] = row.qty;
      quoteQty[n] = row.quoteQty;
      time[n] = row.time;
      flags[n] = (row.isBuyerMaker ? BUYER_MAKER : 0) | BEST_MATCH;
      n++;
    }
    if (n === 0) return;
    const cut = <T extends Float64Array | Uint8Array>(a: T): T => (n === batchSize ? a : (a.subarray(0, n) as T));
    yield { length: n, id: cut(id), price: cut(price), qty: cut(qty), quoteQty: cut(quoteQty), time: cut(time), flags: cut(flags) };
    if (n < batchSize) return;
  }
}

/** Trading is busiest around the US open (15:00 UTC) and quietest twelve hours later. */
function seasonality(timeUs: number): number {
  const hour = ((timeUs / 3.6e9) % 24 + 24) % 24;
  return 1 + 0.35 * Math.cos((2 * Math.PI * (hour - 15)) / 24);
}

/** People type round sizes: 0.0123 -> 0.01, 0.37 -> 0.4. */
function roundToOneDigit(x: number): number {
  if (!(x > 0)) return x;
  const magnitude = 10 ** Math.floor(Math.log10(x));
  return Math.round(x / magnitude) * magnitude;
}
