/**
 * A symbol's best bid and ask from its recording files (`<symbol>@bookTicker` lines) as an L1
 * book in depth messages (depth-tape.ts): each quote one CLEAR message of a bid row and an ask
 * row (a side with quantity 0 is a removal: no level on that side). Spot bookTicker messages
 * carry no time, so a quote's time is its receive time on the exchange's clock
 * (venue-clock.ts). A quote whose update id `u` is below the last one's is stale and dropped.
 * After a break (lost connection, stop, torn file) the book is emptied until the next quote,
 * and the stretch is reported as a gap.
 *
 *   for await (const batch of readRecordingBookTicker(files, { scale })) { ... }
 */
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START, type DepthBatch } from '../depth-tape.ts';
import { decimalField, wholeField } from './message-fields.ts';
import { DepthBatchBuilder } from '../depth-batch-builder.ts';
import { breakOf } from './recording-breaks.ts';
import { messageData, readRecordingLines } from './recording-lines.ts';
import { resolveRecordingOptions, type ReadRecordingOptions } from './recording-options.ts';
import { onVenueClock } from './venue-clock.ts';

export async function* readRecordingBookTicker(files: readonly string[], options: ReadRecordingOptions): AsyncGenerator<DepthBatch> {
  const { scale, symbol, batchSize, onGap, onWarning } = resolveRecordingOptions(files, options);
  const out = new DepthBatchBuilder(batchSize);
  let lastU = -1;
  let lastTime = -Infinity;
  let lastLineTime = 0;
  let quoted = false;
  let loss: { readonly from: number; readonly why: string; readonly at: string; mayEnd: boolean } | null = null;
  for await (const { line, time: lineTime } of onVenueClock(readRecordingLines(files, { symbol, onWarning }))) {
    const time = Math.max(lastTime, lineTime);
    const gapBreak = breakOf(line);
    if (loss !== null) loss.mayEnd = false; // something followed the break: the recording went on
    if (gapBreak !== null) {
      if (quoted) {
        out.pushEmptyBook(time);
        out.endMessage();
        lastTime = time;
        quoted = false;
        loss = { from: lastLineTime, why: gapBreak.why, at: `${line.file}:${line.line}`, mayEnd: gapBreak.mayEnd };
      }
    } else if (line.kind === 'bookTicker') {
      const data = messageData(line);
      const u = wholeField(data, 'u', line, 'bookTicker');
      if (u >= lastU) {
        lastU = u;
        out.push(time, decimalField(data, 'b', scale.quotePrecision, line, 'bookTicker'), decimalField(data, 'B', scale.basePrecision, line, 'bookTicker'), DEPTH_CLEAR | DEPTH_MESSAGE_START);
        out.push(time, decimalField(data, 'a', scale.quotePrecision, line, 'bookTicker'), decimalField(data, 'A', scale.basePrecision, line, 'bookTicker'), DEPTH_ASK);
        out.endMessage();
        lastTime = time;
        quoted = true;
        if (loss !== null) {
          onGap({ symbol, stream: 'bookTicker', from: loss.from, to: time, why: loss.why, at: loss.at });
          loss = null;
        }
      }
    }
    lastLineTime = lineTime;
    yield* out.takeReady();
  }
  if (loss !== null && !loss.mayEnd) {
    onGap({ symbol, stream: 'bookTicker', from: loss.from, to: Math.max(loss.from, lastLineTime), why: `${loss.why}; no quote followed before the recording ends`, at: loss.at });
  }
  const last = out.flush();
  if (last !== undefined) yield last;
}
