/**
 * FuturesMarket: the futures venues derived from the spot market, answering as of a simulated
 * time. Every answer is a pure function of (the spot tapes up to asOf, the seed): the index is the
 * spot symbol's last price at or before t (MarketHistory, no look-ahead), the premium comes from
 * the seeded basis model, and nothing reads a clock or unseeded randomness.
 *
 *   index(t)  = last spot price at or before t                    (price units of the spot symbol)
 *   mark(t)   = index(t) × (1 + premium(t))                         (8 decimals, as the exchange)
 *   print(t)  = a spot print's price × (1 + premium(print time)), rounded to the tick
 */
import type { SymbolSpec } from '../engine/index.ts';
import type { MarketHistory } from '../data/index.ts';
import { contractAt, CONTRACT_TYPES, derivePairs, quarterly, type ContractType, type FuturesContract, type FuturesPair, type Venue } from './contracts.ts';
import { DEFAULT_FUTURES_SEED, SETTLEMENT_WINDOW_US } from './model-parameters.ts';
import { PremiumModel } from './premium.ts';
import { FundingSchedule, type FundingSetup } from './funding-schedule.ts';
import { applyRate, meanOf } from './price-math.ts';
import { MICROS_PER_MINUTE } from '../clock/index.ts';

export interface FuturesMarketOptions {
  /** The spot symbols, in config order. */
  readonly specs: readonly SymbolSpec[];
  /** The spot symbol's market-data history. */
  readonly history: (symbol: string) => MarketHistory;
  /** Seed of every futures stream; DEFAULT_FUTURES_SEED when absent. */
  readonly seed?: string;
  /**
   * Funding of USDⓈ-M perpetuals by symbol: interval (1, 4 or 8 h) and recorded fundings
   * (funding-schedule.ts). A perpetual not named funds every 8 h on the model's rates.
   */
  readonly funding?: Readonly<Record<string, FundingSetup>>;
  /**
   * Recorded marks of USDⓈ-M perpetuals by symbol: the mark at t in the spot symbol's price units,
   * or null where the record has none (then the model's). Built outside the model (backtest
   * futures-setup.ts `perpetualMarks`, from the folder's markPriceKlines dumps).
   */
  readonly marks?: Readonly<Record<string, (t: number) => number | null>>;
}

export class FuturesMarket {
  readonly seed: string;
  readonly pairs: readonly FuturesPair[];
  readonly #history: (symbol: string) => MarketHistory;
  readonly #premiums = new Map<string, PremiumModel>();
  readonly #schedules = new Map<string, FundingSchedule>();
  readonly #funding: Readonly<Record<string, FundingSetup>>;
  readonly #marks: Readonly<Record<string, (t: number) => number | null>>;

  constructor(options: FuturesMarketOptions) {
    this.seed = options.seed ?? DEFAULT_FUTURES_SEED;
    this.pairs = derivePairs(options.specs);
    this.#history = options.history;
    this.#funding = options.funding ?? {};
    this.#marks = options.marks ?? {};
  }

  /** A perpetual's funding times and rates (every 8 h on the model's rates unless set up otherwise). */
  fundingSchedule(contract: FuturesContract): FundingSchedule {
    return this.#scheduleOf(contract.pair.venue, contract.symbol);
  }

  /** The funding schedule of the USDⓈ-M perpetual `symbol`. */
  perpetualFunding(symbol: string): FundingSchedule {
    return this.#scheduleOf('USD_M', symbol);
  }

  #scheduleOf(venue: Venue, symbol: string): FundingSchedule {
    const key = `${venue}/${symbol}`;
    let schedule = this.#schedules.get(key);
    if (schedule === undefined) {
      schedule = new FundingSchedule(venue === 'USD_M' && Object.hasOwn(this.#funding, symbol) ? this.#funding[symbol] : undefined);
      this.#schedules.set(key, schedule);
    }
    return schedule;
  }

  /** The rate a perpetual settles at its funding time T. */
  fundingRate(contract: FuturesContract, fundingTime: number): number {
    return this.fundingSchedule(contract).rateAt(this.premium(contract), fundingTime);
  }

  /** The funding rate shown at `now` between fundings (premiumIndex lastFundingRate, markPrice r). */
  fundingEstimate(contract: FuturesContract, now: number): number {
    return this.fundingSchedule(contract).estimateAt(this.premium(contract), now);
  }

  /** A perpetual's first funding time strictly after t. */
  nextFundingTime(contract: FuturesContract, t: number): number {
    return this.fundingSchedule(contract).next(t);
  }

  pairsOf(venue: Venue): FuturesPair[] {
    return this.pairs.filter((p) => p.venue === venue);
  }

  findPair(venue: Venue, name: string): FuturesPair | undefined {
    return this.pairs.find((p) => p.venue === venue && p.pair === name);
  }

  history(pair: FuturesPair): MarketHistory {
    return this.#history(pair.spot.symbol);
  }

  /** A perpetual is listed from its underlying's first print (or from asOf before any print). */
  perpetualOnboard(pair: FuturesPair, asOf: number): number {
    const first = this.history(pair).firstTradeTime;
    return first !== null && first <= asOf ? first : asOf;
  }

  contract(pair: FuturesPair, contractType: ContractType, t: number): FuturesContract {
    return contractAt(pair, contractType, t, this.perpetualOnboard(pair, t));
  }

  /** Every listed contract of a venue at asOf: per pair PERPETUAL, CURRENT_QUARTER, NEXT_QUARTER. */
  contracts(venue: Venue, asOf: number): FuturesContract[] {
    return this.pairsOf(venue).flatMap((pair) => CONTRACT_TYPES.map((type) => this.contract(pair, type, asOf)));
  }

  /** A contract listed at asOf by its symbol, or undefined. */
  findContract(venue: Venue, symbol: string, asOf: number): FuturesContract | undefined {
    return this.contracts(venue, asOf).find((c) => c.symbol === symbol);
  }

  /** The quarterly of a pair delivering at `delivery` (also after it delivered). */
  quarterlyAt(pair: FuturesPair, delivery: number): FuturesContract {
    return quarterly(pair, 'CURRENT_QUARTER', delivery);
  }

  premium(contract: FuturesContract): PremiumModel {
    let model = this.#premiums.get(contract.streamKey);
    if (model === undefined) {
      model = new PremiumModel(this.seed, contract);
      this.#premiums.set(contract.streamKey, model);
    }
    return model;
  }

  /** Last spot price at or before t (spot price units), null before the first print. */
  indexPrice(pair: FuturesPair, t: number): number | null {
    return this.history(pair).priceTicker(t)?.price ?? null;
  }

  /** The mark at t: a perpetual's recorded mark where it has one, else index × (1 + premium); null before the index has a price. */
  markPrice(contract: FuturesContract, t: number): number | null {
    const index = this.indexPrice(contract.pair, t);
    if (index === null) return null;
    const recorded = contract.deliveryTime === null && contract.pair.venue === 'USD_M' && Object.hasOwn(this.#marks, contract.symbol) ? this.#marks[contract.symbol]!(t) : null;
    return recorded ?? applyRate(index, this.premium(contract).at(t));
  }

  /**
   * The recorded mark's open, high, low and close over [from, last] (a mark klines row), or null
   * when the perpetual has no recorded mark for every minute of it. The recorded mark is linear
   * between knots at most 20 s apart within a minute (backtest `markAlongBars`), so its extremes
   * are among the values at each second that is a multiple of 20, the minute's last second and the ends.
   */
  recordedMarkBar(contract: FuturesContract, from: number, last: number): { open: number; high: number; low: number; close: number } | null {
    const marks = contract.deliveryTime === null && contract.pair.venue === 'USD_M' && Object.hasOwn(this.#marks, contract.symbol) ? this.#marks[contract.symbol]! : null;
    if (marks === null || last < from) return null;
    const open = marks(from);
    const close = marks(last);
    if (open === null || close === null) return null;
    let high = Math.max(open, close);
    let low = Math.min(open, close);
    for (let minute = Math.floor(from / MICROS_PER_MINUTE) * MICROS_PER_MINUTE; minute <= last; minute += MICROS_PER_MINUTE) {
      for (const second of [0, 20, 40, 59]) {
        const t = minute + second * 1_000_000;
        if (t < from || t > last) continue;
        const m = marks(t);
        if (m === null) return null;
        if (m > high) high = m;
        if (m < low) low = m;
      }
    }
    return { open, high, low, close };
  }

  /**
   * Mean index over the SETTLEMENT_WINDOW_US (30 min) ending at t, sampled each minute, using the
   * samples that have a price: the delivery price at a delivery, the estimated settle price before.
   */
  settlementPrice(pair: FuturesPair, t: number): number | null {
    const samples: number[] = [];
    for (let s = t - SETTLEMENT_WINDOW_US + MICROS_PER_MINUTE; s <= t; s += MICROS_PER_MINUTE) {
      const p = this.indexPrice(pair, s);
      if (p !== null) samples.push(p);
    }
    return samples.length === 0 ? null : meanOf(samples);
  }

  /** USD value of one unit of `asset` at t in USD price units (8 decimals), null if no route. */
  usdPrice(asset: string, t: number, usdQuotes: readonly string[]): { price: number; precision: number } | null {
    if (usdQuotes.includes(asset)) return { price: 100_000_000, precision: 8 };
    const pair = this.pairs.find((p) => p.venue === 'USD_M' && p.baseAsset === asset);
    if (pair === undefined) return null;
    const price = this.indexPrice(pair, t);
    return price === null ? null : { price, precision: pair.spot.quotePrecision };
  }
}
