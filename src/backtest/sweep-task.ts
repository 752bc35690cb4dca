/**
 * One backtest of a sweep, inside a worker thread: the journal only hashed, the row the sweep
 * table shows, and with `reportDir` (--sweep-reports) the run's report folder.
 */
import { runBacktestRequest, type BacktestRequest } from './backtest-request.ts';
import type { SweepRow } from './sweep.ts';

export async function sweepTask(request: BacktestRequest): Promise<SweepRow> {
  const { summary, result } = await runBacktestRequest(request, request.reportDir ?? null);
  const m = summary.metrics;
  return {
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
}
