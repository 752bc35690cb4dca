/**
 * What a backtest records while it runs, cheaply, from the replay's trade listener:
 * - each symbol's last price per second (the close of every second that had a print), which
 *   the markouts and the price chart read afterwards;
 * - the strategy account's equity at every sample boundary (default each simulated minute),
 *   valued at the last prices, as exact decimals.
 * Nothing here reads the wall clock; sample times are simulated boundaries, so two runs record
 * the same rows.
 */
import { Decimal } from 'decimal.js';
import type { BalanceView, Engine } from '../engine/index.ts';
import type { ReplayedTrade } from '../sim/index.ts';
import { Valuation } from './valuation.ts';

/** Closes per second of one symbol: parallel arrays, time in µs of the second's start. */
export interface PriceSeries {
  readonly seconds: number[];
  /** Price units (the symbol's quote precision). */
  readonly closes: number[];
}

export interface EquitySample {
  /** µs. */
  readonly time: number;
  readonly equity: Decimal;
  /** The benchmark: the opening balances, untouched, at the same prices (null before `holdBalances` is set). */
  readonly hold: Decimal | null;
}

export class BacktestRecorder {
  readonly prices = new Map<string, PriceSeries>();
  readonly equity: EquitySample[] = [];
  readonly valuation: Valuation;
  readonly #engine: Engine;
  readonly #accountId: number;
  readonly #interval: number;
  #nextSample: number;
  #holdBalances: readonly BalanceView[] | null = null;

  /**
   * `symbols` value the account; `priceSymbols` (default `symbols`) are the ones whose per-second
   * closes are kept for the markouts: the traded perpetuals (um:…) too, whose fills are marked
   * out against their own prints.
   */
  constructor(engine: Engine, accountId: number, symbols: readonly string[], from: number, sampleMicros: number, priceSymbols: readonly string[] = symbols) {
    this.#engine = engine;
    this.#accountId = accountId;
    this.#interval = sampleMicros;
    this.#nextSample = from;
    this.valuation = new Valuation(engine, symbols);
    for (const symbol of engine.symbolNames()) if (priceSymbols.includes(symbol)) this.prices.set(symbol, { seconds: [], closes: [] });
  }

  /** The opening balances the benchmark holds (set once the account exists). */
  holdBalances(balances: readonly BalanceView[]): void {
    this.#holdBalances = balances;
  }

  /** After each print: the second's close, then any equity samples whose boundary has passed. */
  onTrade(trade: ReplayedTrade): void {
    this.valuation.observe(trade.symbol, trade.price);
    const series = this.prices.get(trade.symbol);
    if (series !== undefined) {
      const second = trade.time - (trade.time % 1_000_000);
      const n = series.seconds.length;
      if (n > 0 && series.seconds[n - 1] === second) series.closes[n - 1] = trade.price;
      else {
        series.seconds.push(second);
        series.closes.push(trade.price);
      }
    }
    // A boundary is sampled with the prices known before the first print at or after it.
    while (trade.time > this.#nextSample) this.#sample(this.#nextSample);
  }

  /** Samples the remaining boundaries up to `end` and `end` itself. */
  finish(end: number): void {
    while (end > this.#nextSample) this.#sample(this.#nextSample);
    const last = this.equity[this.equity.length - 1];
    if (last === undefined || last.time !== end) this.#record(end);
  }

  #sample(time: number): void {
    this.#record(time);
    this.#nextSample += this.#interval;
  }

  #record(time: number): void {
    // Before the first price the equity cannot be valued: those boundaries are skipped.
    const equity = this.valuation.accountEquity(this.#engine, this.#accountId);
    if (equity !== null) this.equity.push({ time, equity, hold: this.#holdBalances === null ? null : this.valuation.equity(this.#holdBalances) });
  }
}
