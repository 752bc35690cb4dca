/**
 * A run's equity curve in plain numbers (seconds since the epoch, equity in the valuation asset
 * and the holding benchmark's), small enough to cross from a worker thread: what the
 * walk-forward page plots for each window's chosen run.
 */
import type { BacktestResult } from './run-backtest.ts';

export interface EquityCurve {
  readonly times: readonly number[];
  readonly equity: readonly number[];
  readonly hold: readonly (number | null)[];
}

export function equityCurveOf(result: BacktestResult): EquityCurve {
  const samples = result.recorder.equity;
  return { times: samples.map((s) => s.time / 1_000_000), equity: samples.map((s) => s.equity.toNumber()), hold: samples.map((s) => (s.hold === null ? null : s.hold.toNumber())) };
}
