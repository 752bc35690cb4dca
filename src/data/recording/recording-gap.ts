/**
 * A stretch of a recording whose data is missing or could not be trusted, as the readers report
 * it (warning lines, summary.json): depth between the loss of the local book and the snapshot
 * that resynchronised it, trades between the two sides of a jump in trade ids, the best bid and
 * ask while the recorder was disconnected.
 */
import { formatUtcMicros } from '../utc-date.ts';

export type RecordingStreamName = 'depth' | 'trades' | 'bookTicker';

export interface RecordingGap {
  readonly symbol: string;
  readonly stream: RecordingStreamName;
  /** µs (exchange clock): the last good data before the gap. */
  readonly from: number;
  /** µs (exchange clock): where good data starts again, or the recording's last time if it never does. */
  readonly to: number;
  /** What was missed and why, e.g. "depth update ids 1201..1209 missed (connection lost: close 1006)". */
  readonly why: string;
  /** Where the gap shows, as file:line. */
  readonly at: string;
}

/** One warning line: `BTCUSDT depth gap 2024-01-01T10:00:00.100000Z .. 2024-01-01T10:00:02.350000Z: <why> (file:line)`. */
export function formatRecordingGap(gap: RecordingGap): string {
  return `${gap.symbol} ${gap.stream} gap ${formatUtcMicros(gap.from)} .. ${formatUtcMicros(gap.to)}: ${gap.why} (${gap.at})`;
}
