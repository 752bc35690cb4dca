/** What every generated market is given: its symbol and grid, where its price starts, how busy and how volatile it is. */
import type { UnitScale } from '../tape.ts';

export interface SyntheticMarketSpec {
  readonly symbol: string;
  /** Same seed (and symbol) => same market. */
  readonly seed: string | number;
  readonly scale: UnitScale;
  /** PRICE_FILTER tickSize in quote units. */
  readonly tickSize: number;
  /** LOT_SIZE stepSize in base units. */
  readonly stepSize: number;
  /** Mid (fair) price at startTime, in quote units. */
  readonly startPrice: number;
  /** µs, inclusive. */
  readonly startTime: number;
  /** Expected number of trades per day (the realised count varies with the seed). */
  readonly tradesPerDay: number;
  /** Standard deviation of the daily log return, e.g. 0.02. */
  readonly dailyVolatility: number;
  /** Median taker order size in base units. */
  readonly medianQty: number;
  readonly firstTradeId: number;
}
