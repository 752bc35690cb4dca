/**
 * What moves a traded perpetual between its prints: the mark price each simulated second and the
 * funding at each funding time of its interval (1, 4 or 8 h, or the recorded funding times:
 * funding-schedule.ts), read from the futures model (src/futures: index = last spot price,
 * mark = index × (1 + seeded premium), the rate recorded or settled from the interval's premiums) and
 * fed to the engine as `SetMarkPrice` and `SettleFunding`. The engine does the rest: margin at the
 * mark, MarginCalled, liquidation against the insurance fund, funding as income.
 *
 * Why every second: Binance publishes the mark every second (`@markPrice@1s`) and liquidates on
 * it; a coarser mark would let positions live below maintenance between updates. Why through the
 * backend's scheduler: the marks land at their simulated time, before the prints stamped after
 * it, in backtests and on a served replay alike. A funding settles at the mark of its own
 * instant (computed for it, whichever of the two actions of that µs runs first).
 *
 * Units: the model's prices are in the spot symbol's price units; the engine's mark is in the
 * margin symbol's (margin-asset units per whole base): scaled by the precisions' difference.
 * Before the spot symbol's first print there is no index: no mark is sent.
 */
import type { EngineEvent, SetMarkPrice, SettleFunding, SymbolSpec } from '../../engine/index.ts';
import { futuresEngineSymbol, isFuturesSymbol } from '../../engine/index.ts';
import type { FuturesContract } from '../contracts.ts';
import type { FuturesMarket } from '../futures-market.ts';

export const MARK_PERIOD_US = 1_000_000;

export interface FuturesClockHost {
  readonly now: number;
  schedule(time: number, action: () => void): void;
  /** Applies a command of the market at `now` whose events reach the user data streams (Replay.applyMarket). */
  apply(command: Omit<SetMarkPrice, 'time'> | Omit<SettleFunding, 'time'>): readonly EngineEvent[];
  symbolSpec(symbol: string): SymbolSpec | undefined;
}

/** Counts of what the clock sent (summary.json's futures section reports them). */
export interface FuturesClockStats {
  marks: number;
  fundings: number;
}

/**
 * Starts the marks and fundings of `fapiSymbols` (USDⓈ-M perpetuals whose margin symbols
 * `um:<symbol>` the engine holds) from the host's now; runs until the host stops scheduling.
 * `market` is read at the first mark (the futures model is built on first use).
 */
export function startFuturesClock(host: FuturesClockHost, market: () => FuturesMarket, fapiSymbols: readonly string[]): FuturesClockStats {
  const stats: FuturesClockStats = { marks: 0, fundings: 0 };
  for (const fapiSymbol of fapiSymbols) {
    const engineSymbol = futuresEngineSymbol(fapiSymbol);
    const spec = host.symbolSpec(engineSymbol);
    if (spec === undefined || !isFuturesSymbol(engineSymbol)) throw new Error(`futures clock: ${engineSymbol} is not a margin symbol of the engine`);
    let contract: FuturesContract | undefined;
    let scale = 1;
    const contractAt = (t: number): FuturesContract => {
      if (contract === undefined) {
        const found = market().findContract('USD_M', fapiSymbol, t);
        if (found === undefined) throw new Error(`futures clock: the futures model has no USDⓈ-M perpetual ${fapiSymbol}`);
        contract = found;
        const digits = spec.quotePrecision - found.pair.spot.quotePrecision;
        if (digits < 0) throw new Error(`futures clock: ${engineSymbol} prices are coarser than ${fapiSymbol} spot's`);
        scale = 10 ** digits;
      }
      return contract;
    };
    const markAt = (t: number): number | null => {
      const c = contractAt(t);
      const mark = market().markPrice(c, t);
      return mark === null ? null : mark * scale;
    };
    const sendMark = (): void => {
      const t = host.now;
      const mark = markAt(t);
      if (mark !== null) {
        const index = market().indexPrice(contractAt(t).pair, t)! * scale;
        host.apply({ type: 'SetMarkPrice', symbol: engineSymbol, markPrice: mark, indexPrice: index });
        stats.marks += 1;
      }
      host.schedule(t + MARK_PERIOD_US, sendMark);
    };
    const settle = (): void => {
      const t = host.now;
      const mark = markAt(t);
      // No index yet (the spot symbol has not printed): nobody can hold a position to fund.
      if (mark !== null) {
        host.apply({ type: 'SettleFunding', symbol: engineSymbol, rate: market().fundingRate(contractAt(t), t), markPrice: mark });
        stats.fundings += 1;
      }
      host.schedule(market().perpetualFunding(fapiSymbol).next(t), settle);
    };
    const start = host.now;
    host.schedule(Math.ceil(start / MARK_PERIOD_US) * MARK_PERIOD_US, sendMark);
    host.schedule(market().perpetualFunding(fapiSymbol).next(start - 1), settle);
  }
  return stats;
}
