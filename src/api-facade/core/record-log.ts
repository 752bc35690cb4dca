/**
 * An append-only list of records that a served exchange journals: every record (`all`, for a full
 * facade line or a snapshot), the ones appended since the last `takeNew` (a request's change line),
 * and `restore` to put journaled ones back. One mechanism for the fiat deposits, the pay ledger
 * and the API keys registered while serving (facade-state.ts).
 */
export class RecordLog<T> {
  readonly #items: T[] = [];
  #taken = 0;

  /** The records in the order they were appended (read-only view: append with `push`). */
  get items(): readonly T[] {
    return this.#items;
  }

  get length(): number {
    return this.#items.length;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** A copy of every record, in order. */
  all(): T[] {
    return [...this.#items];
  }

  /** The records appended since the last call. */
  takeNew(): T[] {
    const taken = this.#items.slice(this.#taken);
    this.#taken = this.#items.length;
    return taken;
  }

  /** Replaces the records with journaled ones (a restore); none of them counts as new. */
  restore(items: readonly T[]): void {
    this.#items.length = 0;
    this.#items.push(...items);
    this.#taken = this.#items.length;
  }

  /** Marks every record as taken (what a restore added on top is not new). */
  markTaken(): void {
    this.#taken = this.#items.length;
  }
}
