/**
 * A symbol's trades from its recording files (`<symbol>@trade` lines) as TradeBatch columns in
 * engine units: the venue's trade id `t` kept, time = trade time `T` (µs), isBuyerMaker = `m`,
 * isBestMatch = `M`, quoteQty = floor(price × qty) in quote units (the stream has no quote
 * quantity). Binance numbers a symbol's trades consecutively, so a jump in ids is a gap (reported
 * through `onGap`, with the lost connection that explains it when there was one); an id at or
 * below the last one is a duplicate and dropped.
 *
 *   for await (const batch of readRecordingTrades(files, { scale })) { ... }
 */
import { DataFormatError } from '../data-format-error.ts';
import { TradeBatchBuilder } from '../read-trades.ts';
import type { TradeBatch } from '../tape.ts';
import { decimalField, wholeField } from './message-fields.ts';
import { breakOf } from './recording-breaks.ts';
import { messageData, readRecordingLines } from './recording-lines.ts';
import { resolveRecordingOptions, type ReadRecordingOptions } from './recording-options.ts';
import { venueMicros } from './venue-clock.ts';

export async function* readRecordingTrades(files: readonly string[], options: ReadRecordingOptions): AsyncGenerator<TradeBatch> {
  const { scale, symbol, batchSize, onGap, onWarning } = resolveRecordingOptions(files, options);
  const out = new TradeBatchBuilder(batchSize);
  const unit = 10 ** scale.basePrecision;
  // id, price, qty, quoteQty, time, isBuyerMaker, isBestMatch: TradeBatchBuilder's row.
  const row = new Float64Array(7);
  let lastId = -1;
  let lastTime = 0;
  /** Why ids may have been missed since the last trade (a lost connection, a torn file). */
  let breakWhy: string | null = null;
  for await (const line of readRecordingLines(files, { symbol, onWarning })) {
    if (line.kind !== 'trade') {
      const gapBreak = breakOf(line);
      if (gapBreak !== null) breakWhy ??= gapBreak.why;
      continue;
    }
    const data = messageData(line);
    const id = wholeField(data, 't', line, 'trade');
    if (id <= lastId) continue;
    const time = venueMicros(wholeField(data, 'T', line, 'trade'));
    if (time < lastTime) throw new DataFormatError(line.file, line.line, undefined, `trade ${id}'s time ${time} µs is before the previous trade's (${lastTime} µs)`);
    if (lastId >= 0 && id > lastId + 1) {
      const missed = id - 1 === lastId + 1 ? `trade id ${lastId + 1}` : `trade ids ${lastId + 1}..${id - 1}`;
      onGap({ symbol, stream: 'trades', from: lastTime, to: time, why: `${missed} missed${breakWhy === null ? '' : ` (${breakWhy})`}`, at: `${line.file}:${line.line}` });
    }
    breakWhy = null;
    const price = decimalField(data, 'p', scale.quotePrecision, line, 'trade');
    const qty = decimalField(data, 'q', scale.basePrecision, line, 'trade');
    row[0] = id;
    row[1] = price;
    row[2] = qty;
    row[3] = quoteUnits(price, qty, unit);
    row[4] = time;
    row[5] = data.m === true ? 1 : 0;
    row[6] = data.M === true ? 1 : 0;
    out.row(row);
    lastId = id;
    lastTime = time;
    yield* out.takeReady();
  }
  const last = out.flush();
  if (last !== undefined) yield last;
}

/** floor(price × qty / unit), exact (BigInt when the product passes 2^53). */
function quoteUnits(price: number, qty: number, unit: number): number {
  const product = price * qty;
  if (product <= Number.MAX_SAFE_INTEGER) {
    // The division is rounded; one step either way puts the floor right.
    let q = Math.floor(product / unit);
    if (q * unit > product) q--;
    else if ((q + 1) * unit <= product) q++;
    return q;
  }
  return Number((BigInt(price) * BigInt(qty)) / BigInt(unit));
}
