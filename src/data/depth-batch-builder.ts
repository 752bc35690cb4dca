/**
 * Builds DepthBatch columns row by row for the depth readers. A batch always holds whole
 * messages: it is cut only where a message starts, once it has `size` rows, and grows past
 * `size` for a message that does not fit (a snapshot of many levels), so a consumer can apply
 * each batch message by message without carrying a half message over to the next one.
 */
import type { BatchBuilder } from './read-dump.ts';
import { DEPTH_CLEAR, DEPTH_MESSAGE_START, type DepthBatch } from './depth-tape.ts';

export class DepthBatchBuilder {
  private ready: DepthBatch[] = [];
  private time!: Float64Array;
  private price!: Float64Array;
  private qty!: Float64Array;
  private flags!: Uint8Array;
  private n = 0;

  constructor(private readonly size: number) {
    this.allocate(capacityFor(size));
  }

  /** Rows in the batch being built. */
  get pending(): number {
    return this.n;
  }

  /** Appends one row; `flags` carries DEPTH_MESSAGE_START on a message's first row. */
  push(time: number, price: number, qty: number, flags: number): void {
    let i = this.n;
    if (i >= this.size && (flags & DEPTH_MESSAGE_START) !== 0) {
      this.ready.push(this.batch(i));
      this.allocate(capacityFor(this.size));
      i = 0;
    } else if (i === this.time.length) {
      this.grow();
    }
    this.time[i] = time;
    this.price[i] = price;
    this.qty[i] = qty;
    this.flags[i] = flags;
    this.n = i + 1;
  }

  /**
   * Marks the end of a message whose end is known when it is written (a recording's message is
   * one line): a full batch is cut now rather than when the next message starts, so a reader
   * hands over every message as soon as it is read (a window's end is then found without reading
   * a message past it).
   */
  endMessage(): void {
    if (this.n >= this.size) {
      this.ready.push(this.batch(this.n));
      this.allocate(capacityFor(this.size));
    }
  }

  /**
   * A message that empties the book: a CLEAR row that removes a level no book has (price 0).
   * A snapshot or quote with no level at all says exactly that.
   */
  pushEmptyBook(time: number): void {
    this.push(time, 0, 0, DEPTH_MESSAGE_START | DEPTH_CLEAR);
  }

  takeReady(): DepthBatch[] {
    const out = this.ready;
    if (out.length > 0) this.ready = [];
    return out;
  }

  flush(): DepthBatch | undefined {
    if (this.n === 0) return undefined;
    const batch = this.batch(this.n);
    this.allocate(capacityFor(this.size));
    return batch;
  }

  private batch(length: number): DepthBatch {
    return { length, time: this.time.subarray(0, length), price: this.price.subarray(0, length), qty: this.qty.subarray(0, length), flags: this.flags.subarray(0, length) };
  }

  private allocate(capacity: number): void {
    this.time = new Float64Array(capacity);
    this.price = new Float64Array(capacity);
    this.qty = new Float64Array(capacity);
    this.flags = new Uint8Array(capacity);
    this.n = 0;
  }

  private grow(): void {
    const { time, price, qty, flags, n } = this;
    this.allocate(2 * time.length);
    this.time.set(time);
    this.price.set(price);
    this.qty.set(qty);
    this.flags.set(flags);
    this.n = n;
  }
}

/** Room past `size` for the message under way when the batch fills (most are far smaller), so growing is rare. */
function capacityFor(size: number): number {
  return size + Math.max(64, size >> 3);
}

/** A row sink of one depth file format: turns each parsed row into depth rows. */
export abstract class DepthRowSink implements BatchBuilder<DepthBatch> {
  protected readonly out: DepthBatchBuilder;

  constructor(size: number) {
    this.out = new DepthBatchBuilder(size);
  }

  abstract row(values: Float64Array): void;

  /** A new file starts; most formats carry nothing from one file to the next. */
  beginFile(_name: string): void {}

  /** Rows the format says to skip (updates before a file's first snapshot); 0 for formats that skip none. */
  get skippedRows(): number {
    return 0;
  }

  takeReady(): DepthBatch[] {
    return this.out.takeReady();
  }

  flush(): DepthBatch | undefined {
    return this.out.flush();
  }
}
