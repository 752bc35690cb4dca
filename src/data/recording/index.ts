/**
 * exsim's own recordings (`exsim record`): the file names, the line format the recorder writes,
 * and the deterministic readers that turn a symbol's files into trades (TradeBatch), its L2 book
 * (DepthBatch, rebuilt by Binance's local-book recipe) or its L1 book (bookTicker), with the gaps
 * they found. No clock is read here: every time comes from the files.
 */
export { parseRecordingFileName, formatRecordingFileName, compareRecordingFileNames, type RecordingFileName } from './recording-file-name.ts';
export { formatRecordingLine, noteMessage, snapshotMessage, RECORDER_NOTES, SNAPSHOT_STREAM_SUFFIX, type RecorderNote } from './recording-format.ts';
export { formatRecordingGap, type RecordingGap, type RecordingStreamName } from './recording-gap.ts';
export type { ReadRecordingOptions } from './recording-options.ts';
export { readRecordingDepth, type ReadRecordingDepthOptions } from './read-recording-depth.ts';
export { readRecordingTrades } from './read-recording-trades.ts';
export { readRecordingBookTicker } from './read-recording-book-ticker.ts';
export type { LocalBookCounts } from './local-book-sync.ts';
export { scanRecording, type RecordingScan, type RecordingFileScan, type RecordingMessageKind, type ScanRecordingOptions } from './scan-recording.ts';
