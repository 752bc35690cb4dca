/**
 * Depth cut to a window [from, to), the way a replay starting at `from` needs it:
 * - messages stamped before `from` build the book the window opens on: they are folded into one
 *   CLEAR message holding that book (bids best first, then asks best first), stamped with the
 *   time of the last message folded in (so it is before `from`: the consumer applies it when the
 *   window opens). The reader starts at the first file overlapping the window, and every file
 *   starts with a whole book (a Tardis L2 file with its snapshot; a snapshot or quote file's
 *   every message is CLEAR; a recording's book is empty until its first snapshot, which the
 *   recorder takes at each day's file), so nothing before that file is needed;
 * - then every message stamped in [from, to), as recorded;
 * - a message stamped at or after `to` is dropped whole (its rows share one time, so a message is
 *   never split), and so is everything after it.
 * Batches must hold whole messages (the readers' batches do).
 */
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START, type DepthBatch, type DepthSource } from './depth-tape.ts';
import { DepthBatchBuilder } from './depth-batch-builder.ts';

export async function* depthInWindow(source: DepthSource, from: number, to: number): AsyncGenerator<DepthBatch> {
  const fold = new BookFold();
  for await (const batch of source) {
    const n = batch.length;
    if (n === 0) continue;
    const time = batch.time;
    // Times never go back, so the rows before `from` are a prefix, and they end where a message starts.
    let lo = 0;
    if (time[0]! < from) {
      lo = firstAtOrAfter(time, 0, n, from);
      fold.apply(batch, 0, lo);
      if (lo === n) continue;
    }
    if (fold.folded) yield fold.take();
    const hi = time[n - 1]! < to ? n : firstAtOrAfter(time, lo, n, to);
    if (hi > lo) yield lo === 0 && hi === n ? batch : slice(batch, lo, hi);
    if (hi < n) return;
  }
  // A window after the data's last message opens on the book that message left.
  if (fold.folded) yield fold.take();
}

/** The first index in [lo, hi) whose time is >= t (times are sorted), or hi. */
function firstAtOrAfter(time: Float64Array, lo: number, hi: number, t: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (time[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function slice(b: DepthBatch, lo: number, hi: number): DepthBatch {
  return { length: hi - lo, time: b.time.subarray(lo, hi), price: b.price.subarray(lo, hi), qty: b.qty.subarray(lo, hi), flags: b.flags.subarray(lo, hi) };
}

/** A book built from depth rows (price -> size per side), to hand on as one CLEAR message. */
class BookFold {
  private readonly bids = new Map<number, number>();
  private readonly asks = new Map<number, number>();
  private time = Number.NaN;
  folded = false;

  apply(batch: DepthBatch, lo: number, hi: number): void {
    for (let i = lo; i < hi; i++) {
      const flags = batch.flags[i]!;
      if ((flags & DEPTH_CLEAR) !== 0) {
        this.bids.clear();
        this.asks.clear();
      }
      const side = (flags & DEPTH_ASK) !== 0 ? this.asks : this.bids;
      const price = batch.price[i]!;
      const qty = batch.qty[i]!;
      if (qty === 0) side.delete(price);
      else side.set(price, qty);
    }
    if (hi > lo) {
      this.time = batch.time[hi - 1]!;
      this.folded = true;
    }
  }

  /** The book as one CLEAR message; the fold is done. */
  take(): DepthBatch {
    const bids = [...this.bids.keys()].sort((a, b) => b - a);
    const asks = [...this.asks.keys()].sort((a, b) => a - b);
    const out = new DepthBatchBuilder(bids.length + asks.length + 1);
    let flags = DEPTH_MESSAGE_START | DEPTH_CLEAR;
    for (const price of bids) {
      out.push(this.time, price, this.bids.get(price)!, flags);
      flags = 0;
    }
    for (const price of asks) {
      out.push(this.time, price, this.asks.get(price)!, flags | DEPTH_ASK);
      flags = 0;
    }
    if (flags !== 0) out.pushEmptyBook(this.time);
    this.bids.clear();
    this.asks.clear();
    this.folded = false;
    return out.flush()!;
  }
}
