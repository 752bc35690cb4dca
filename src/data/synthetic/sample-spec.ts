/**
 * What the bundled sample (data/sample/) contains: one synthetic day, 2024-01-01, of the two
 * sample-market symbols (src/sample/sample-market.ts), with their real grids. Dumps of that date
 * use ms timestamps, so the sample does too. Changing anything here changes the sample: rerun
 * `npx tsx src/data/synthetic/write-sample.ts` and commit the files it writes.
 */
import type { KlineInterval, UnitScale } from '../tape.ts';
import type { SyntheticTradesSpec } from './synthetic-trades.ts';

export const SAMPLE_DATE = '2024-01-01';
const START_US = Date.UTC(2024, 0, 1) * 1000;
const END_US = START_US + 86_400_000_000;
/** Every sample asset (USDT, BTC, ETH) has 8 decimals, as in the sample market's config. */
export const SAMPLE_SCALE: UnitScale = { quotePrecision: 8, basePrecision: 8 };
/** The sample lives in git: compress hard. */
export const SAMPLE_ZIP_LEVEL = 9;
export const SAMPLE_KLINE_INTERVALS: readonly KlineInterval[] = ['1m'];

const units = (decimal: number): number => Math.round(decimal * 1e8);

export const SAMPLE_SPECS: readonly SyntheticTradesSpec[] = [
  {
    symbol: 'BTCUSDT',
    seed: `exsim-sample-${SAMPLE_DATE}`,
    scale: SAMPLE_SCALE,
    tickSize: units(0.01),
    stepSize: units(0.00001),
    startPrice: units(42_000),
    startTime: START_US,
    endTime: END_US,
    tradesPerDay: 60_000,
    dailyVolatility: 0.025,
    medianQty: units(0.0008),
    firstTradeId: 3_340_000_000,
    timeUnit: 'ms',
  },
  {
    symbol: 'ETHBTC',
    seed: `exsim-sample-${SAMPLE_DATE}`,
    scale: SAMPLE_SCALE,
    tickSize: units(0.00001),
    stepSize: units(0.0001),
    startPrice: units(0.055),
    startTime: START_US,
    endTime: END_US,
    tradesPerDay: 40_000,
    dailyVolatility: 0.015,
    medianQty: units(0.05),
    firstTradeId: 440_000_000,
    timeUnit: 'ms',
  },
];

/** aggTrade ids of each symbol's sample start here. */
export const SAMPLE_FIRST_AGG_TRADE_ID: Readonly<Record<string, number>> = { BTCUSDT: 2_950_000_000, ETHBTC: 330_000_000 };
