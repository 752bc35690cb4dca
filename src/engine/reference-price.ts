/**
 * The reference price behind PERCENT_PRICE(_BY_SIDE), MIN_NOTIONAL and NOTIONAL:
 *   1. the symbol's explicit reference price, when one is set;
 *   2. else the volume-weighted average price of the trades in the last `avgPriceMins` minutes;
 *   3. else (no trade in the window) the last trade price; `avgPriceMins` 0 means the last price.
 * A symbol that never traded and has no reference price has none (null).
 *
 * The average is kept as an exact ratio of sums (quote units / base units): sums over minutes of
 * trading exceed 2^53 quote units easily, and filter boundaries must be exact, so the sums are
 * ExactSums (doubles with a BigInt carry) and the ratio is read in BigInt.
 */
import { ExactSum } from './exact-math.ts';

/** A price as an exact ratio, in price units (quote units per whole base unit): num / den. */
export interface PriceRatio {
  num: bigint;
  den: bigint;
}

interface Window {
  readonly micros: number;
  start: number;
  readonly sumQuote: ExactSum;
  readonly sumBase: ExactSum;
}

const MICROS_PER_MINUTE = 60_000_000;

export class TradeWindow {
  #times: number[] = [];
  #quotes: number[] = [];
  #bases: number[] = [];
  #offset = 0; // index of #times[0] in the logical log
  #windows = new Map<number, Window>();
  /** The windows' values as an array (walked on every trade without a Map iterator). */
  #windowList: Window[] = [];
  #lastPrice: number | null = null;
  #scale: bigint;
  // All-time totals: with the trade times they determine every window, whenever it is read.
  #tradeCount = 0;
  #allQuote = new ExactSum();
  #allBase = new ExactSum();

  constructor(basePrecision: number, minsNeeded: readonly number[]) {
    this.#scale = 10n ** BigInt(basePrecision);
    for (const mins of minsNeeded) {
      if (mins > 0 && !this.#windows.has(mins)) {
        this.#windows.set(mins, { micros: mins * MICROS_PER_MINUTE, start: 0, sumQuote: new ExactSum(), sumBase: new ExactSum() });
        this.#windowList = [...this.#windows.values()];
      }
    }
  }

  /** Snapshot support (snapshot/engine-snapshot.ts): every field, the private ones included. */
  exportFields(): unknown[] {
    return [this.#times, this.#quotes, this.#bases, this.#offset, this.#windows, this.#lastPrice, this.#scale, this.#tradeCount, this.#allQuote, this.#allBase, this.#lastTime];
  }

  static importFields(fields: unknown[]): TradeWindow {
    const window = new TradeWindow(0, []);
    const f = fields as [number[], number[], number[], number, Map<number, Window>, number | null, bigint, number, ExactSum, ExactSum, number];
    [window.#times, window.#quotes, window.#bases, window.#offset, window.#windows, window.#lastPrice, window.#scale, window.#tradeCount, window.#allQuote, window.#allBase, window.#lastTime] = f;
    window.#windowList = [...window.#windows.values()];
    return window;
  }

  get lastPrice(): number | null {
    return this.#lastPrice;
  }

  /**
   * The price of the market before any trade of this engine: what the average-price rules fall
   * back to while no trade is in their window, as Binance's use the last trade before it. Only
   * while nothing was recorded (a trade always wins).
   */
  seedLastPrice(price: number): void {
    if (this.#tradeCount === 0) this.#lastPrice = price;
  }

  record(time: number, price: number, quote: number, base: number): void {
    this.#lastPrice = price;
    this.#tradeCount += 1;
    this.#allQuote.add(quote);
    this.#allBase.add(base);
    this.#lastTime = time;
    const windows = this.#windowList;
    if (windows.length === 0) return;
    this.#times.push(time);
    this.#quotes.push(quote);
    this.#bases.push(base);
    for (let i = 0; i < windows.length; i++) {
      const w = windows[i]!;
      w.sumQuote.add(quote);
      w.sumBase.add(base);
    }
    // Windows otherwise slide only when read (an order's filter check); a tape with no orders
    // would keep every trade. Sliding them every 1024 trades keeps the log bounded by the
    // longest window plus 1024 entries, whatever the tape's length.
    if ((this.#tradeCount & 1023) === 0) {
      for (let i = 0; i < windows.length; i++) this.#advance(windows[i]!, time);
    }
  }

  /** Trades still held in the log (bounded by the longest window plus a compaction slack). */
  get retained(): number {
    return this.#times.length;
  }

  /** Changes whenever a trade is recorded (with `validUntil`, the key of cached results). */
  get version(): number {
    return this.#tradeCount;
  }

  /**
   * The first time after `now` at which the `mins`-minute average can change without a new
   * trade: when its oldest trade leaves the window (Infinity if none will).
   */
  validUntil(mins: number, now: number): number {
    const w = this.#windows.get(mins);
    if (!w || mins <= 0) return mins <= 0 ? Infinity : now + 1;
    this.#advance(w, now);
    const oldest = this.#times[w.start - this.#offset];
    return oldest === undefined ? Infinity : oldest + w.micros;
  }

  /** Average price over the last `mins` minutes at time `now`, per the rules above. */
  average(mins: number, now: number): PriceRatio | null {
    if (mins <= 0) return this.#last();
    let w = this.#windows.get(mins);
    if (!w) {
      // A window nobody configured (e.g. an ad-hoc query): compute by scanning.
      return this.#scan(mins * MICROS_PER_MINUTE, now);
    }
    this.#advance(w, now);
    if (w.sumBase.isZero) return this.#last();
    return { num: w.sumQuote.value * this.#scale, den: w.sumBase.value };
  }

  #last(): PriceRatio | null {
    return this.#lastPrice === null ? null : { num: BigInt(this.#lastPrice), den: 1n };
  }

  #advance(w: Window, now: number): void {
    const cutoff = now - w.micros;
    const end = this.#offset + this.#times.length;
    while (w.start < end && (this.#times[w.start - this.#offset] as number) <= cutoff) {
      const i = w.start - this.#offset;
      w.sumQuote.add(-(this.#quotes[i] as number));
      w.sumBase.add(-(this.#bases[i] as number));
      w.start += 1;
    }
    this.#compact();
  }

  #scan(micros: number, now: number): PriceRatio | null {
    const cutoff = now - micros;
    let q = 0n;
    let b = 0n;
    for (let i = this.#times.length - 1; i >= 0 && (this.#times[i] as number) > cutoff; i--) {
      q += BigInt(this.#quotes[i] as number);
      b += BigInt(this.#bases[i] as number);
    }
    if (b === 0n) return this.#last();
    return { num: q * this.#scale, den: b };
  }

  /** Drops log entries every window has passed, in chunks so the shift cost is amortised. */
  #compact(): void {
    let minStart = Infinity;
    for (const w of this.#windows.values()) minStart = Math.min(minStart, w.start);
    const drop = minStart - this.#offset;
    if (drop > 1024 && drop * 2 > this.#times.length) {
      this.#times.splice(0, drop);
      this.#quotes.splice(0, drop);
      this.#bases.splice(0, drop);
      this.#offset += drop;
    }
  }

  #lastTime = 0;

  /**
   * Canonical text for the state hash: independent of when windows were last read (reading
   * slides a window, which is not a change of state).
   */
  describe(): string {
    return `${this.#lastPrice}|${this.#tradeCount}|${this.#allQuote.value}|${this.#allBase.value}|${this.#lastTime}`;
  }
}
