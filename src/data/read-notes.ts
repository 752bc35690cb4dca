/**
 * What reading a symbol's tape (prints or depth) noticed besides its rows, filled in as the read
 * goes, for the caller to warn about and put in summary.json: src/data prints nothing. Plain data,
 * so a tape loaded for a sweep carries its notes to the workers.
 */
import type { RecordingGap } from './recording/recording-gap.ts';

export interface ReadNotes {
  /**
   * exsim recordings: stretches whose data is missing or could not be trusted (the book emptied
   * until a snapshot resynchronised it, trade ids skipped), in the order found. A windowed read
   * keeps those that overlap its window.
   */
  readonly gaps: RecordingGap[];
  /** Problems read past, one line each (a recording file that ends torn: its complete lines were read). */
  readonly warnings: string[];
  /**
   * Tardis files: rows stamped up to 1 s before the row before them and moved to its time. Tardis
   * orders a file by its receive time (`local_timestamp`), so the exchange's `timestamp` can step
   * back a little; simulated time cannot.
   */
  restampedRows: number;
}

export function emptyReadNotes(): ReadNotes {
  return { gaps: [], warnings: [], restampedRows: 0 };
}

/** Empties `notes` for a new read of the same files (each iteration of a stream reads them again). */
export function clearReadNotes(notes: ReadNotes): void {
  notes.gaps.length = 0;
  notes.warnings.length = 0;
  notes.restampedRows = 0;
}

/**
 * A gap sink that keeps, in `notes`, the gaps touching [from, to) µs: one that ended before the
 * window opened was mended before anything in it, one that starts at or after its end is not seen
 * by the replay.
 */
export function gapsInWindow(notes: ReadNotes, from: number, to: number): (gap: RecordingGap) => void {
  return (gap) => {
    if (gap.to >= from && gap.from < to) notes.gaps.push(gap);
  };
}
