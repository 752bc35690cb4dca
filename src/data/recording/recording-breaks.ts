/**
 * Where a recording stops being continuous whatever the data says: the recorder lost its
 * connection, stopped, the file was torn, or the next file does not continue it (a day missing). After a break nothing proves the book is still the
 * venue's, so the book readers drop it until the next snapshot (depth) or quote (bookTicker).
 * A planned handover (the recorder opened a fresh connection first) is not a break.
 */
import { RECORDER_NOTES } from './recording-format.ts';
import { messageData, type RecordingLine } from './recording-lines.ts';

export interface RecordingBreak {
  /** What happened, for the gap's `why`. */
  readonly why: string;
  /** A stop or a torn file: if nothing follows, the recording simply ends there (no gap to report). */
  readonly mayEnd: boolean;
}

/** The break a line marks, or null. */
export function breakOf(line: RecordingLine): RecordingBreak | null {
  if (line.kind === 'torn') return { why: 'the file ends torn (a killed recorder, or a copy of a file being written)', mayEnd: true };
  if (line.kind === 'unrecorded') return { why: line.text, mayEnd: false };
  if (line.kind !== 'note') return null;
  if (line.stream === RECORDER_NOTES.stopped) return { why: 'the recorder stopped', mayEnd: true };
  if (line.stream !== RECORDER_NOTES.disconnected) return null;
  const data = messageData(line);
  if (data.planned === true) return null;
  return { why: `connection lost (${typeof data.reason === 'string' ? data.reason : 'no reason given'})`, mayEnd: false };
}
