/** Builds batches of one object per row, for the loaders whose rows are few enough for objects. */
import type { BatchBuilder } from './read-dump.ts';

/** Collects one object per row into arrays of `size`. */
export class ArrayBatchBuilder<T> implements BatchBuilder<T[]> {
  private ready: T[][] = [];
  private current: T[] = [];

  constructor(
    private readonly size: number,
    private readonly make: (values: Float64Array) => T,
  ) {}

  row(values: Float64Array): void {
    this.current.push(this.make(values));
    if (this.current.length === this.size) {
      this.ready.push(this.current);
      this.current = [];
    }
  }

  takeReady(): T[][] {
    const out = this.ready;
    if (out.length > 0) this.ready = [];
    return out;
  }

  flush(): T[] | undefined {
    if (this.current.length === 0) return undefined;
    const out = this.current;
    this.current = [];
    return out;
  }
}
