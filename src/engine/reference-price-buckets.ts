/**
 * The matching engine's own reference price (calculationType ARITHMETIC_MEAN, Binance's
 * price_range_execution_rules FAQ): a simple moving average of trade prices over a window of
 * `bucketCount` buckets of `bucketWidthMs` each.
 *
 * - A trade adds its price to the bucket of its time (open times aligned to the bucket width).
 *   A bucket keeps a trade count with four decimals and a price sum with four decimals more than
 *   the price (both scaled integers, as the engine does).
 * - A bucket whose close time is at or before the window's cutoff (now - width * count) is gone;
 *   the oldest bucket may straddle the cutoff: its count and sum are prorated by the fraction of
 *   it still inside the window (truncating), as if its open time were the cutoff.
 * - The reference price is Σ sum / Σ count, truncating integer division, in price units; none
 *   while no bucket holds a trade.
 *
 * The proration is computed when the price is read, never stored, so reading changes nothing
 * (two engines that applied the same commands are in the same state however often they were
 * queried). Buckets that fell out of every future window are dropped when the next trade comes.
 */

/** Fixed-point scale of counts and of the extra digits of sums: four decimals. */
const SCALE = 10_000n;

export class BucketedMean {
  readonly #widthUs: number;
  readonly #windowUs: number;
  /** Buckets oldest first: open time (µs), count (1e-4 units), sum (price units × 1e-4). */
  #open: number[] = [];
  #count: bigint[] = [];
  #sum: bigint[] = [];

  constructor(readonly bucketCount: number, readonly bucketWidthMs: number) {
    this.#widthUs = bucketWidthMs * 1000;
    this.#windowUs = this.#widthUs * bucketCount;
  }

  /** Snapshot support (snapshot/engine-snapshot.ts): every field, the private ones included. */
  exportFields(): [bucketCount: number, bucketWidthMs: number, open: number[], count: bigint[], sum: bigint[]] {
    return [this.bucketCount, this.bucketWidthMs, this.#open, this.#count, this.#sum];
  }

  static importFields(fields: [bucketCount: number, bucketWidthMs: number, open: number[], count: bigint[], sum: bigint[]]): BucketedMean {
    const mean = new BucketedMean(fields[0], fields[1]);
    [, , mean.#open, mean.#count, mean.#sum] = fields;
    return mean;
  }

  record(time: number, price: number): void {
    const open = time - (time % this.#widthUs);
    const last = this.#open.length - 1;
    if (last >= 0 && this.#open[last] === open) {
      this.#count[last]! += SCALE;
      this.#sum[last]! += BigInt(price) * SCALE;
    } else {
      this.#open.push(open);
      this.#count.push(SCALE);
      this.#sum.push(BigInt(price) * SCALE);
    }
    // Drop what no later read can see (reads are never earlier than the last trade).
    const cutoff = time - this.#windowUs;
    let drop = 0;
    while (drop < this.#open.length && (this.#open[drop] as number) + this.#widthUs <= cutoff) drop++;
    if (drop > 0) {
      this.#open.splice(0, drop);
      this.#count.splice(0, drop);
      this.#sum.splice(0, drop);
    }
  }

  /** The reference price at `now` (price units), or null when the window holds no trade. */
  average(now: number): number | null {
    const cutoff = now - this.#windowUs;
    let count = 0n;
    let sum = 0n;
    for (let i = 0; i < this.#open.length; i++) {
      const open = this.#open[i] as number;
      if (open + this.#widthUs <= cutoff || open > now) continue;
      let c = this.#count[i] as bigint;
      let s = this.#sum[i] as bigint;
      if (open < cutoff) {
        const expired = BigInt(cutoff - open);
        const width = BigInt(this.#widthUs);
        c -= (c * expired) / width;
        s -= (s * expired) / width;
      }
      count += c;
      sum += s;
    }
    if (count === 0n) return null;
    return Number(sum / count);
  }

  /** Canonical text for the state hash. */
  describe(): string {
    return this.#open.map((open, i) => `${open}:${this.#count[i]}:${this.#sum[i]}`).join(',');
  }
}
