/**
 * exsim's backtests: one run from a request (`runBacktestRequest`), sweeps over a parameter grid
 * (local or on a Redis queue), strategies, reports. What other layers (the CLI, scenarios) use;
 * modules outside src/backtest import from here.
 */
export { headline, parseBacktestRequest, runBacktestRequest, type BacktestRequest, type BacktestRequestOptions } from './backtest-request.ts';
export { FILL_MODELS, makeFillModel, type FillModelName } from './run-backtest.ts';
export { InputError } from './input-error.ts';
export { JournalFile } from './journal-file.ts';
export { MARKET_CONFIG_FILE, openMarketData, tradeFiles, windowedTape, type DataGap } from './market-data.ts';
export { loadStrategy } from './load-strategy.ts';
export { parseTime } from './parse-time.ts';
export { bookProfileFor, bookText, DEFAULT_BOOK, parseBook, type BookSetting } from './parse-book.ts';
export {
  checkSweepParams,
  isSweepFailure,
  MAX_QUEUED_SWEEP_RUNS,
  MAX_SWEEP_RUNS,
  parseSweep,
  runSweep,
  sweepFailureMessage,
  sweepJson,
  runFolder,
  sweepRuns,
  sweepTable,
} from './sweep.ts';
export { renderSweepHtml, rankRows } from './sweep-html.ts';
export { parseSelectMetric, parseWalkForward, runWalkForward, walkForwardTable, SELECT_METRICS, type WalkForwardResult, type WindowCurves } from './walk-forward.ts';
export { renderWalkForwardHtml } from './walk-forward-html.ts';
export { compareTable, readReportFolder, renderCompareHtml, type ComparedRun } from './compare-reports.ts';
export { paramsText } from './queue/sweep-job.ts';
export { parseQueueUrl } from './queue/queue-connection.ts';
export { fingerprintData } from '../data/index.ts';
export { runQueuedSweep, type QueuedSweepResult } from './queue/queued-sweep.ts';
export { startQueueWorker } from './queue/queue-worker.ts';
export { FuturesTracker, futuresEntryTexts, futuresFundingText, parseFuturesIntervals, parseFuturesSymbols, perpetualFunding, perpetualMarks, perpetualTape, withFutures, type PerpetualFunding, type PerpetualTape, type FuturesSummary, type FuturesSymbolSummary } from './futures-setup.ts';
