/**
 * The line format of an exsim recording (`exsim record`), shared by the recorder that writes it
 * and the readers that turn it into tapes. One line per message received, in receive order:
 *
 *   <local receive time, µs since the epoch> <message>\n
 *
 * (the shape of hftbacktest's collector). `<message>` is a combined-stream envelope
 * `{"stream":"<name>","data":<payload>}`:
 * - the venue's own messages exactly as received (`btcusdt@trade`, `btcusdt@depth@100ms`,
 *   `btcusdt@bookTicker`), only line breaks (JSON whitespace) replaced by spaces;
 * - a REST depth snapshot as `{"stream":"btcusdt@depthSnapshot","data":<GET /api/v3/depth body>}`;
 * - the recorder's own notes under the `exsim@` prefix (RecorderNote): a run's start and clean
 *   stop, each connection made and lost, a gap the recorder saw live, a failed request.
 */

/** Suffix of the stream name under which a REST depth snapshot is written. */
export const SNAPSHOT_STREAM_SUFFIX = '@depthSnapshot';

/** The recorder's notes, written to every symbol's file unless they name one symbol. */
export const RECORDER_NOTES = {
  /** A recorder run began: `{symbols, streamUrl, restUrl}`. */
  started: 'exsim@started',
  /** A connection opened: `{url, attempt}` (attempt 1 is the run's first, or the first after a loss). */
  connected: 'exsim@connected',
  /**
   * A connection ended: `{reason, planned}`. `planned` is a handover the recorder made itself
   * (a fresh connection opened first, before the venue's 24 h limit): nothing was missed.
   */
  disconnected: 'exsim@disconnected',
  /** The recorder saw depth update ids jump on one symbol: `{symbol, reason}`; a snapshot follows. */
  gap: 'exsim@gap',
  /** A request failed (a snapshot, say): `{symbol?, what, reason}`. Nothing is missing from the streams. */
  error: 'exsim@error',
  /** The recorder stopped cleanly (SIGINT / SIGTERM): `{reason}`. */
  stopped: 'exsim@stopped',
} as const;

export type RecorderNote = (typeof RECORDER_NOTES)[keyof typeof RECORDER_NOTES];

/**
 * One recording line. Line breaks inside the message are JSON whitespace (a raw line break
 * cannot occur inside a JSON string), so replacing them keeps the message's meaning on one line.
 */
export function formatRecordingLine(receivedUs: number, message: string): string {
  const oneLine = message.includes('\n') || message.includes('\r') ? message.replace(/[\r\n]+/g, ' ') : message;
  return `${receivedUs} ${oneLine}\n`;
}

/** The envelope of a REST depth snapshot of `symbol`, its body kept as received. */
export function snapshotMessage(symbol: string, body: string): string {
  return `{"stream":"${symbol.toLowerCase()}${SNAPSHOT_STREAM_SUFFIX}","data":${body.trim()}}`;
}

/** The envelope of one of the recorder's notes. */
export function noteMessage(note: RecorderNote, data: Record<string, unknown>): string {
  return JSON.stringify({ stream: note, data });
}
