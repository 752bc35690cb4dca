/**
 * exsim's public entry point (`import ... from 'exsim'`): the strategy interface, the backtest
 * API, the matching engine, the replay, the virtual clock and the market-data loaders. The
 * package ships it compiled (dist/index.js and its declarations, tsconfig.build.json): plain node
 * imports it; tsx is loaded only to load a TypeScript strategy (load-strategy.ts).
 */
export * from './backtest/strategy.ts';
export { loadStrategy, parseParams, EXAMPLE_STRATEGIES, type LoadedStrategy } from './backtest/load-strategy.ts';
export { runBacktest, makeFillModel, FILL_MODELS, DEFAULT_BALANCES, STRATEGY_ACCOUNT_ID, type BacktestOptions, type BacktestResult, type FillModelName } from './backtest/run-backtest.ts';
export { parseBacktestRequest, runBacktestRequest, headline, type BacktestRequest, type BacktestRequestOptions } from './backtest/backtest-request.ts';
export { buildSummary, type BacktestSummary } from './backtest/report-summary.ts';
export { computeMetrics, type TradingMetrics, type MetricsInput } from './backtest/metrics.ts';
export { writeReport } from './backtest/write-report.ts';
export { InputError } from './backtest/input-error.ts';
export * from './engine/index.ts';
export * from './sim/index.ts';
export * from './clock/index.ts';
export * from './data/index.ts';
// The served exchange's pacing adapters (src/serve), public as they were when they sat in src/clock.
export { startLivePacer, type LivePacer, type LivePacerOptions } from './serve/live-pacer.ts';
export { systemWallClock } from './serve/wall-clock.ts';
