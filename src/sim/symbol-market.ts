/**
 * What the replay knows about one symbol's market as it goes: its grid, the last replayed
 * price and a running mean of replayed trade sizes (the queue estimator's yardstick). Mutated
 * by the replay on every tape trade, read by fill models; never by anyone else.
 */
import { formatUnits } from '../engine/index.ts';

export class SymbolMarket {
  /** Mean trade size (base units) as an exponential moving average over about `window` trades. */
  meanTradeQty = 0;
  /** Price of the last replayed tape trade (price units), 0 before the first. */
  lastPrice = 0;
  /** Tape trades replayed so far. */
  tradeCount = 0;
  readonly #alpha: number;
  /**
   * The recorded book's size at a price on a side (base units, users' orders not counted): set by
   * the replay when the symbol's depth is recorded; 0 everywhere otherwise.
   */
  levelSize: (isBid: boolean, price: number) => number = () => 0;

  constructor(
    readonly symbol: string,
    /** Position in the replay's tape list: breaks ties between symbols' trades at one µs. */
    readonly index: number,
    readonly tickUnits: number,
    readonly stepUnits: number,
    readonly quotePrecision: number,
    readonly basePrecision: number,
    meanWindow: number,
  ) {
    if (!(Number.isInteger(meanWindow) && meanWindow >= 1)) throw new RangeError(`meanTradeWindow must be an integer >= 1, got ${meanWindow}`);
    this.#alpha = 2 / (meanWindow + 1);
  }

  /** Called by the replay once per tape trade, before the fill model sees it. */
  observe(price: number, qty: number): void {
    // The first trade seeds the mean so a queue estimated right after it is not near zero.
    this.meanTradeQty = this.tradeCount === 0 ? qty : this.meanTradeQty + (qty - this.meanTradeQty) * this.#alpha;
    this.lastPrice = price;
    this.tradeCount++;
  }

  /** Decimal text of a price, for reasons. */
  price(units: number): string {
    return formatUnits(units, this.quotePrecision);
  }

  /** Decimal text of a base quantity (exact for integers, 8 significant decimals for estimates). */
  qty(units: number): string {
    if (Number.isInteger(units)) return formatUnits(units, this.basePrecision);
    return (units / 10 ** this.basePrecision).toFixed(this.basePrecision);
  }
}
