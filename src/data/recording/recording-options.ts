/**
 * What every recording reader takes, and its defaults: the symbol (from the option, else the
 * first file's name), where gaps and warnings go, the batch size.
 */
import { basename } from 'node:path';
import { DataFormatError } from '../data-format-error.ts';
import { checkBatchSize, DEFAULT_BATCH_ROWS } from '../read-dump.ts';
import type { UnitScale } from '../tape.ts';
import { parseRecordingFileName } from './recording-file-name.ts';
import { formatRecordingGap, type RecordingGap } from './recording-gap.ts';

export interface ReadRecordingOptions {
  /** Precisions of the symbol's quote and base assets (engine units). */
  readonly scale: UnitScale;
  /** The files' symbol; default: the first file's name (exsim_recording_<date>_<SYMBOL>.gz). */
  readonly symbol?: string | undefined;
  /** Rows per batch (a batch is cut between messages only, so a depth batch can be longer). */
  readonly batchSize?: number | undefined;
  /** Each gap as it is found; default: a warning line (formatRecordingGap) to `onWarning`. */
  readonly onGap?: ((gap: RecordingGap) => void) | undefined;
  /** Problems read past (a torn file); default: process.emitWarning. */
  readonly onWarning?: ((message: string) => void) | undefined;
}

export interface ResolvedRecordingOptions {
  readonly scale: UnitScale;
  readonly symbol: string;
  readonly batchSize: number;
  readonly onGap: (gap: RecordingGap) => void;
  readonly onWarning: (message: string) => void;
}

export function resolveRecordingOptions(files: readonly string[], options: ReadRecordingOptions): ResolvedRecordingOptions {
  const first = files[0];
  if (first === undefined) throw new Error('no recording files given');
  const symbol = options.symbol?.toUpperCase() ?? parseRecordingFileName(basename(first))?.symbol;
  if (symbol === undefined) throw new DataFormatError(first, 0, undefined, 'not named as a recording (exsim_recording_<YYYY-MM-DD>_<SYMBOL>.gz): name the symbol');
  const onWarning = options.onWarning ?? ((message: string) => process.emitWarning(message, 'RecordingWarning'));
  const onGap = options.onGap ?? ((gap: RecordingGap) => onWarning(formatRecordingGap(gap)));
  return { scale: options.scale, symbol, batchSize: checkBatchSize(options.batchSize ?? DEFAULT_BATCH_ROWS), onGap, onWarning };
}
