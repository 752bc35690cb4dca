/**
 * What book a recording can give: 'L2' when it holds diff-depth events or depth snapshots, 'L1'
 * when it holds only bookTicker quotes, null when it holds neither (a recording of trades alone).
 * A recording is ranked by this rather than by its file name, which says only that exsim wrote
 * it: a trades-only recording must not hide a coarser depth source beside it behind an empty L2
 * book, and a bookTicker recording must be read as the L1 book it is.
 *
 * Reading stops at the first depth line (within the first second of an L2 recording); a file
 * without one is read to its end.
 */
import { readRecordingLines } from './recording-lines.ts';

export type RecordingBookKind = 'L2' | 'L1' | null;

export async function recordingBookKind(files: readonly string[]): Promise<RecordingBookKind> {
  let quotes = false;
  // Warnings (a torn file) are the readers' to report when the book is read.
  const lines = readRecordingLines(files, { onWarning: () => undefined });
  try {
    for await (const line of lines) {
      if (line.kind === 'depth' || line.kind === 'snapshot') return 'L2';
      if (line.kind === 'bookTicker') quotes = true;
    }
  } finally {
    await lines.return(undefined);
  }
  return quotes ? 'L1' : null;
}
