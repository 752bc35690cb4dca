/**
 * One backtest of a sweep, inside a worker thread: the journal only hashed, the row the sweep
 * table shows, and with `reportDir` (--sweep-reports) the run's report folder. With `curve`
 * (walk-forward) the row also carries the run's equity curve and holding return, so the main
 * thread never replays a window itself (its memory stays the pool's).
 */
import { runBacktestRequest, type BacktestRequest } from './backtest-request.ts';
import { equityCurveOf } from './equity-curve.ts';
import type { SweepRow, SweepRowWithCurve } from './sweep.ts';

export async function sweepTask(request: BacktestRequest & { readonly curve?: boolean }): Promise<SweepRow | SweepRowWithCurve> {
  const { summary, result } = await runBacktestRequest(request, request.reportDir ?? null);
  const m = summary.metrics;
  const row: SweepRow = {
    params: request.params,
    pnl: m.pnl,
    return: m.return,
    maxDrawdown: m.maxDrawdown.amount,
    vsHold: m.pnlVsHold,
    excessReturn: m.excessReturn.vsHold,
    sharpe: m.ratios.sharpeAnnualised,
    fills: result.fills.length,
    fees: m.fees.valued,
    orders: result.orders.length,
    journalSha256: summary.journal.sha256,
  };
  if (request.curve !== true) return row;
  return { ...row, holdReturn: m.benchmarks.hold.return, curve: equityCurveOf(result) };
}
