/**
 * exsim's simulation layer: the replay that ties the virtual clock, the historical tape, the
 * market model (fill models) and the engine together, plus its journal sinks.
 *
 * Rules: no wall clock, no unseeded randomness, no host timers (randomness only from seedrandom
 * streams derived from the replay's seed); no HTTP; the engine is used only through its public
 * API (`apply` and queries).
 */
export { Replay, type ReplayState, type ReplayConfig, type ReplayStats, type TapeInput, type StrategyCommand, type MarketDecision, type ReplayedTrade, type TradeListener } from './replay.ts';
export { JournalHasher, printEntry, ReplayJournal, type JournalSink } from './journal-sink.ts';
export type { TapeSource } from './tape-cursor.ts';
export type { RestingOrder } from './book-mirror.ts';
export { SymbolMarket } from './symbol-market.ts';
export type { FillModel, FillModelContext, FillPlan, SymbolFillModel, TradePrint } from './fill-models/fill-model.ts';
export { tradeThrough, TRADE_THROUGH } from './fill-models/trade-through.ts';
export { touch, TOUCH } from './fill-models/touch.ts';
export { queuePosition, QueueSymbolModel, QUEUE_POSITION, QUEUE_PROBABILISTIC, QUEUE_ESTIMATE, DEFAULT_QUEUE_SHAPE, type QueuePositionOptions } from './fill-models/queue-position.ts';
export { L2QueueSymbolModel, probabilityBehind, shapeText, QUEUE_PROBABILITY_FAMILIES, type QueueProbabilityFamily, type QueueProbabilityShape } from './fill-models/l2-queue.ts';
export type { DepthMessage } from './depth-cursor.ts';
export type { LatencyRecord, SubmitTicket, Ack, AckListener } from './replay.ts';
export { LatencyModel, type LatencyConfig, type LatencyLeg } from './latency/latency-model.ts';
export { LatencySampler, standardNormal, type LatencyDistribution, type LatencySample } from './latency/latency-distribution.ts';
export { BurstRegime } from './latency/burst-regime.ts';
export { randomStream, type RandomSource } from './latency/random-source.ts';
export { SyntheticBook, type SyntheticBookOptions, type SyntheticBookProfile } from './synthetic-book.ts';
export { KlineTape, collectKlineTape, type KlineTapeOptions, type KlineTapeStats, type KlineTapePath, type KlineSource } from './kline-tape.ts';
export { chooseVertexOrder, pathPoints, DEFAULT_LEG_STEPS, type BarPath, type VertexOrder, type LegSteps, type LegIndex, type PathPoint } from './kline-path.ts';
export { encodeKlineTradeId, decodeKlineTradeId, klineOriginOfReason, tapeTradeOfReason, type KlinePrintOrigin } from './kline-path-id.ts';
export { walkKline, mulDivFloor, type KlineGrid, type KlinePrint } from './kline-path-prints.ts';
export { tapesWithEnd, TAPE_END_MODES, type TapeEndMode, type TapeEndState, type EndingTape, type TapeEndOptions } from './tape-end.ts';
