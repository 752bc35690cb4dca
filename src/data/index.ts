/**
 * Public surface of the data layer's loaders, data folders, generator and sample (the market-data
 * history has its own entry under ./history/).
 */
export { readTrades, TradeBatchBuilder, type ReadTradesOptions } from './read-trades.ts';
export { readDepth, type ReadDepthOptions } from './read-depth.ts';
export type { DepthStream, DepthReadOptions, DepthReader } from './depth-stream.ts';
export { emptyReadNotes, type ReadNotes } from './read-notes.ts';
export { DEPTH_KINDS, depthKindInfo, type DepthKind, type DepthKindInfo, type CsvDepthFormat } from './depth-kinds.ts';
export { depthInWindow } from './depth-window.ts';
export { DepthBatchBuilder } from './depth-batch-builder.ts';
export { InputError } from './input-error.ts';
export { MARKET_CONFIG_FILE, openMarketData, chooseSymbols, knownSymbolRules, symbolFiles, symbolSpecOf, symbolScale, coverageGaps, type MarketData, type DataFile, type DataGap } from './market-folder.ts';
export { findSourceFiles, sourceFiles, tradeFiles, windowedTape, windowGaps, resolveWindow, cutToWindow, type MarketSource, type SourceFiles, type SymbolTape, type TradeSource, type KlinePrints } from './tape-sources.ts';
export { loadSharedTapes, tapeFromShared, SHARED_TAPE_MAX_ROWS, type SharedTape } from './shared-tapes.ts';
export { depthFiles, windowedDepth, type DepthFiles, type WindowedDepth } from './depth-sources.ts';
export { fingerprintData, dataDifference, type DataFingerprint } from './data-fingerprint.ts';
export { parseDataFileName, parseDataFilePath, marketOfPath, COIN_M_NOT_READ, type DataMarket, type MarketFileName, dropUnpackedTwins, isTardisFileName, comparePeriods, RECORDING_KIND, type DataFileName, type DataKind, type RecordingDataFileName } from './data-file-name.ts';
export { parseTardisFileName, formatTardisFileName, type TardisFileName, type TardisKind } from './tardis-file-name.ts';
export { TARDIS_MAX_STEP_BACK_US, type TardisDataType } from './tardis-schema.ts';
export { readAggTrades, loadAggTrades, type ReadAggTradesOptions } from './read-agg-trades.ts';
export { readKlines, loadKlines, type ReadKlinesOptions } from './read-klines.ts';
export { resolveDumpFiles, listDataFiles, type DumpSource, type DumpFilter, type DumpFileRef } from './dump-sources.ts';
export { parseDumpFileName, formatDumpFileName, type DumpFileName } from './dump-file-name.ts';
export { DataFormatError } from './data-format-error.ts';
export type { DumpKind } from './dump-schema.ts';
export type { TimeUnit } from './dump-parser.ts';
export { inspectDataFolder, type DataFolderReport, type SeriesReport, type FileReport, type Gap, type DayRange, type InspectOptions } from './inspect-data-folder.ts';
export { loadSample, SAMPLE_DIR, SAMPLE_SYMBOLS, type SampleFiles } from './sample.ts';
export { exsimCacheDir, servedSampleDir, SERVED_SAMPLE_SPECS } from './served-sample.ts';
export { tapeCache, setTapeCache, TapeCache, type TapeCacheOptions } from './tape-cache.ts';
export { buildTapeCache, cacheWindow } from './build-tape-cache.ts';
export { generateTradeBatches, SyntheticTrades, type SyntheticTradesSpec } from './synthetic/synthetic-trades.ts';
export { klinesFromTrades, type KlineRange } from './synthetic/klines-from-trades.ts';
export { aggTradesFromTrades } from './synthetic/agg-trades-from-trades.ts';
export { formatTradesCsv, formatAggTradesCsv, formatKlinesCsv } from './synthetic/dump-csv.ts';
export { writeSyntheticDays, type SyntheticDaysOptions } from './synthetic/write-synthetic-days.ts';
export { writeSyntheticL2Days, type SyntheticL2DaysSpec, type SyntheticL2DaysOptions } from './synthetic/write-l2-days.ts';
export { SyntheticL2Market, WINDOW_US, type SyntheticL2Spec, type L2Sink } from './synthetic/synthetic-l2-market.ts';
export { writeDumpFile } from './synthetic/write-dump-file.ts';
export { zipSingleFile } from './synthetic/zip-writer.ts';
export { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START, type DepthBatch, type DepthGranularity, type DepthSource, type DepthSourceInfo } from './depth-tape.ts';
export { BEST_MATCH, BUYER_MAKER, KLINE_INTERVALS, type AggTrade, type Kline, type KlineInterval, type TapeTrade, type TradeBatch } from './tape.ts';
export { formatUtcMicros, MS_PER_DAY, parseUtcPeriod } from './utc-date.ts';
export { readSpotRules, SPOT_RULES_FILE, spotSymbolRules, trimExchangeInfo, writeSpotRules, type SpotRulesSnapshot } from './spot-symbol-rules.ts';
export { MarketHistory, formatAmount, formatKline, parseWindowSize } from './history/index.ts';
export type { DayTicker, HistoryKline, MarketHistoryOptions, MiniTicker, WindowTicker } from './history/index.ts';
export { changePercentMilli, divRound } from './history/exact-amount.ts';
export { timeZoneMinutes } from './history/klines.ts';
export {
  compareRecordingFileNames,
  formatRecordingFileName,
  formatRecordingGap,
  formatRecordingLine,
  noteMessage,
  parseRecordingFileName,
  readRecordingBookTicker,
  readRecordingDepth,
  readRecordingTrades,
  RECORDER_NOTES,
  scanRecording,
  snapshotMessage,
  SNAPSHOT_STREAM_SUFFIX,
} from './recording/index.ts';
export type { LocalBookCounts, ReadRecordingDepthOptions, ReadRecordingOptions, RecorderNote, RecordingFileName, RecordingFileScan, RecordingGap, RecordingMessageKind, RecordingScan, RecordingStreamName, ScanRecordingOptions } from './recording/index.ts';
export { fundingRateFiles, parseFundingRateFileName, readFundingRates, type FundingRateFileName, type FundingRateRow, type FundingRates } from './read-funding-rates.ts';
export { markKlineFiles, readMarkKlines, type MarkBar, type MarkKlines } from './read-mark-klines.ts';
export { priceKlinesFolder, PRICE_KLINE_FOLDERS } from './data-file-name.ts';
