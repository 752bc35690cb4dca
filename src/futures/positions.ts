/**
 * The seeded positions model behind open interest, the long/short ratios and the ADL rating.
 * Each value at t uses the spot tape up to t and seeded slow noise (hourly knots), nothing else:
 *
 * - open interest (base units) of a USDⓈ-M perpetual = V24(t) × 0.8 × (1 ± 0.25 noise), V24 the
 *   spot base volume of the 24 h up to t; quarterlies 6 % (current) / 3 % (next) of it; a COIN-M
 *   contract 30 % of its USDⓈ-M twin, counted in contracts (notional / contract size);
 * - accounts long (1e-4 units) = 0.5 ± 0.15 noise + sensitivity × (4 h index return in bp),
 *   clamped to [0.2, 0.8]: global accounts lean against the move, top traders with it;
 * - ADL rating from the absolute 24 h index change: high above 5 %, medium above 2 %, else low;
 * - insurance fund per margin asset: a seeded base moving ±2 % with slow noise.
 */
import type { ContractType, FuturesContract, FuturesPair } from './contracts.ts';
import type { FuturesMarket } from './futures-market.ts';
import {
  ADL_HIGH_BP,
  ADL_MEDIUM_BP,
  COIN_MARGINED_SHARE_PPM,
  CURRENT_QUARTER_SHARE_PPM,
  GLOBAL_RETURN_SENSITIVITY,
  NEXT_QUARTER_SHARE_PPM,
  OPEN_INTEREST_DAYS_PPM,
  OPEN_INTEREST_NOISE_PPM,
  RATIO_MAX,
  RATIO_MIN,
  RATIO_NOISE,
  RATIO_RETURN_WINDOW_US,
  RATIO_SCALE,
  SLOW_KNOT_US,
  TOP_ACCOUNT_RETURN_SENSITIVITY,
  TOP_POSITION_RETURN_SENSITIVITY,
} from './model-parameters.ts';
import { mulDiv, rateBetween } from './price-math.ts';
import { NOISE_SCALE, SeededNoise } from './seeded-noise.ts';
import { MICROS_PER_DAY } from '../clock/index.ts';

const PPM = 1_000_000n;

export type RatioKind = 'global' | 'topAccount' | 'topPosition';
const SENSITIVITY: Record<RatioKind, number> = {
  global: GLOBAL_RETURN_SENSITIVITY,
  topAccount: TOP_ACCOUNT_RETURN_SENSITIVITY,
  topPosition: TOP_POSITION_RETURN_SENSITIVITY,
};

export type AdlRisk = 'high' | 'medium' | 'low';

export class PositionsModel {
  readonly #market: FuturesMarket;
  readonly #noise = new Map<string, SeededNoise>();

  constructor(market: FuturesMarket) {
    this.#market = market;
  }

  #stream(name: string): SeededNoise {
    let noise = this.#noise.get(name);
    if (noise === undefined) {
      noise = new SeededNoise(this.#market.seed, name, SLOW_KNOT_US);
      this.#noise.set(name, noise);
    }
    return noise;
  }

  /** Spot base volume of (t − 24 h, t] as base units. */
  #volume24h(pair: FuturesPair, t: number): bigint {
    const v = this.#market.history(pair).ticker24hr(t, { type: 'MINI' }).volume;
    return BigInt(v);
  }

  /** Open interest of the USDⓈ-M perpetual twin, base units. */
  #perpetualBase(pair: FuturesPair, t: number): bigint {
    const usdPair = this.#market.pairs.find((p) => p.venue === 'USD_M' && p.spot.symbol === pair.spot.symbol) ?? pair;
    const noise = this.#stream(`USD_M/${usdPair.pair}/open-interest`).at(t);
    const factor = BigInt(OPEN_INTEREST_DAYS_PPM) + (BigInt(noise) * BigInt(OPEN_INTEREST_NOISE_PPM)) / BigInt(NOISE_SCALE);
    return (this.#volume24h(pair, t) * factor) / PPM;
  }

  /**
   * Open interest of a contract at t: base units on USDⓈ-M, contracts on COIN-M (0 before the
   * first print).
   */
  openInterest(contract: FuturesContract, t: number): bigint {
    const pair = contract.pair;
    const share = shareOf(contract.contractType);
    const base = (this.#perpetualBase(pair, t) * share) / PPM;
    // Positions are whole lots: the USDⓈ-M open interest lies on the step grid.
    const step = BigInt(pair.spot.stepUnits);
    if (pair.venue === 'USD_M') return base - (base % step);
    const index = this.#market.indexPrice(pair, t);
    if (index === null) return 0n;
    // contracts = base × price / contractSize, with the price and base scales taken out.
    const coinBase = (base * BigInt(COIN_MARGINED_SHARE_PPM)) / PPM;
    const notional = coinBase * BigInt(index); // × 10^(bp + qp)
    const scale = 10n ** BigInt(pair.spot.basePrecision + pair.spot.quotePrecision);
    return notional / (BigInt(pair.contractSize) * scale);
  }

  /** Open interest of a whole COIN-M pair's contracts of one type ("ALL" sums them). */
  pairOpenInterest(pair: FuturesPair, contractType: ContractType | 'ALL', t: number): bigint {
    const types: readonly ContractType[] = contractType === 'ALL' ? ['PERPETUAL', 'CURRENT_QUARTER', 'NEXT_QUARTER'] : [contractType];
    return types.reduce((sum, type) => sum + this.openInterest(this.#market.contract(pair, type, t), t), 0n);
  }

  /** Share long (accounts or positions) at t, RATIO_SCALE units. */
  longShare(pair: FuturesPair, kind: RatioKind, t: number): number {
    const noise = this.#stream(`${pair.venue}/${pair.pair}/ratio/${kind}`).at(t);
    const now = this.#market.indexPrice(pair, t);
    const before = this.#market.indexPrice(pair, t - RATIO_RETURN_WINDOW_US) ?? now;
    const returnBp = now === null || before === null ? 0 : Math.trunc(rateBetween(now, before) / 10_000);
    const share = RATIO_SCALE / 2 + Math.floor((noise * RATIO_NOISE) / NOISE_SCALE) + SENSITIVITY[kind] * returnBp;
    return Math.min(RATIO_MAX, Math.max(RATIO_MIN, share));
  }

  /** The ADL rating of a contract at t. */
  adlRisk(pair: FuturesPair, t: number): AdlRisk {
    const now = this.#market.indexPrice(pair, t);
    const before = this.#market.indexPrice(pair, t - MICROS_PER_DAY);
    if (now === null || before === null) return 'low';
    const moveBp = Math.abs(Math.trunc(rateBetween(now, before) / 10_000));
    return moveBp > ADL_HIGH_BP ? 'high' : moveBp > ADL_MEDIUM_BP ? 'medium' : 'low';
  }

  /**
   * Insurance fund balance of a margin asset at t, 8-decimal units: a seeded base of 200M..800M
   * (whole units of the asset's USD value) moving ±2 % with slow noise.
   */
  insuranceFund(asset: string, t: number): bigint {
    const stream = this.#stream(`insurance/${asset}`);
    const base = 200_000_000n + mulDiv(stream.knot(0) + NOISE_SCALE, 600_000_000, 2 * NOISE_SCALE);
    const factor = PPM + (BigInt(stream.at(t)) * 20_000n) / BigInt(NOISE_SCALE);
    return (base * 100_000_000n * factor) / PPM;
  }

  /** Seeded scale of a base asset's circulating supply (whole coins), for CMCCirculatingSupply. */
  circulatingSupply(pair: FuturesPair): bigint {
    const knot = this.#stream(`supply/${pair.baseAsset}`).knot(0);
    return 10_000_000n + mulDiv(knot + NOISE_SCALE, 490_000_000, 2 * NOISE_SCALE);
  }
}

function shareOf(type: ContractType): bigint {
  if (type === 'CURRENT_QUARTER') return BigInt(CURRENT_QUARTER_SHARE_PPM);
  if (type === 'NEXT_QUARTER') return BigInt(NEXT_QUARTER_SHARE_PPM);
  return PPM;
}
