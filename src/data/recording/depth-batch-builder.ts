/**
 * Collects depth rows into DepthBatch columns. A batch is cut only between messages, so a
 * consumer never holds half a message (a 5000-level snapshot lands whole in one batch, which may
 * then run past `size` by that message).
 */
import { DEPTH_MESSAGE_START, type DepthBatch } from '../depth-tape.ts';

export class DepthBatchBuilder {
  readonly #size: number;
  #ready: DepthBatch[] = [];
  #time!: Float64Array;
  #price!: Float64Array;
  #qty!: Float64Array;
  #flags!: Uint8Array;
  #n = 0;

  constructor(size: number) {
    this.#size = size;
    this.#allocate(size);
  }

  /** Appends a row; `first` starts a message (DEPTH_MESSAGE_START is added), `flags` carries DEPTH_ASK / DEPTH_CLEAR. */
  row(time: number, price: number, qty: number, flags: number, first: boolean): void {
    if (this.#n === this.#time.length) this.#grow();
    const i = this.#n++;
    this.#time[i] = time;
    this.#price[i] = price;
    this.#qty[i] = qty;
    this.#flags[i] = first ? flags | DEPTH_MESSAGE_START : flags;
  }

  /** Call after a message's last row: the batch is cut here once it holds `size` rows. */
  endMessage(): void {
    if (this.#n >= this.#size) {
      this.#ready.push(this.#batch());
      this.#allocate(this.#size);
    }
  }

  takeReady(): DepthBatch[] {
    const out = this.#ready;
    if (out.length > 0) this.#ready = [];
    return out;
  }

  flush(): DepthBatch | undefined {
    if (this.#n === 0) return undefined;
    const batch = this.#batch();
    this.#allocate(this.#size);
    return batch;
  }

  #batch(): DepthBatch {
    const n = this.#n;
    const cut = <T extends Float64Array | Uint8Array>(a: T): T => (n === a.length ? a : (a.slice(0, n) as T));
    return { length: n, time: cut(this.#time), price: cut(this.#price), qty: cut(this.#qty), flags: cut(this.#flags) };
  }

  #allocate(capacity: number): void {
    this.#time = new Float64Array(capacity);
    this.#price = new Float64Array(capacity);
    this.#qty = new Float64Array(capacity);
    this.#flags = new Uint8Array(capacity);
    this.#n = 0;
  }

  #grow(): void {
    const grow = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(a.length * 2);
      b.set(a);
      return b;
    };
    this.#time = grow(this.#time, (n) => new Float64Array(n));
    this.#price = grow(this.#price, (n) => new Float64Array(n));
    this.#qty = grow(this.#qty, (n) => new Float64Array(n));
    this.#flags = grow(this.#flags, (n) => new Uint8Array(n));
  }
}
