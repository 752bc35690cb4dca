/**
 * Market-data history: what GET /api/v3/{trades, historicalTrades, aggTrades, klines, uiKlines,
 * avgPrice, ticker/24hr, ticker/tradingDay, ticker, ticker/price, ticker/bookTicker} answer,
 * per symbol, as of a simulated time, with no look-ahead.
 *
 * Rules of this module: no clock, no randomness, no timers (time arrives as `asOf`); no I/O;
 * imports only the shared tape types and the engine's unit formatting; values leave in integer
 * units and µs, the API facade formats them.
 */
export { MarketHistory } from './market-history.ts';
export type { AggTradesQuery, AvgPrice, HistoricalTradesQuery, ReferencePriceSample } from './market-history.ts';
export type { MarketHistoryOptions, ResolvedHistoryOptions } from './history-options.ts';
export { MIN_MINUTE_BAR_RETENTION, MIN_SECOND_BAR_RETENTION, MIN_TRADE_RETENTION } from './history-options.ts';
export { apiTime, formatKline } from './klines.ts';
export type { HistoryKline, KlineApiRow, KlineQuery, KlineVolumes, TimeUnit } from './klines.ts';
export { bookTicker, parseWindowSize } from './tickers.ts';
export type { BookLevel, BookTicker, DayTicker, MiniTicker, TickerType, WindowTicker } from './tickers.ts';
export { DAY, HOUR, isKlineInterval, KlineGrid, MINUTE, parseTimeZone, SECOND, WEEK } from './kline-calendar.ts';
export { formatAmount } from './exact-amount.ts';
export { DEFAULT_LIMIT, MAX_LIMIT } from './query-limits.ts';
export type { LastTrade } from './bar-row.ts';
