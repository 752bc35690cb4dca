/**
 * The live recorder behind `exsim record` (market-recorder.ts). A network tool, not part of the
 * deterministic path: its wall-clock reads and host timers are each marked `determinism-ok`.
 * What it writes is read back by src/data/recording/.
 */
export { MarketRecorder, BINANCE_REST_URL, BINANCE_STREAM_URL, RECORDED_STREAMS, type MarketRecorderOptions, type RecorderEvent, type SymbolRecordingStats } from './market-recorder.ts';
export type { BackoffOptions } from './backoff.ts';
