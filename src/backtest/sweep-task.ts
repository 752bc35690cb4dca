/**
 * One backtest of a sweep, inside a worker thread: no files, the journal only hashed, and the
 * row the sweep table shows.
 */
import { runBacktestRequest, type BacktestRequest } from './backtest-request.ts';
import type { SweepRow } from './sweep.ts';

export async function sweepTask(request: BacktestRequest): Promise<SweepRow> {
  const { summary, result } = await runBacktestRequest(request, null);
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
