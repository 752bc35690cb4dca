/**
 * Acceptance of the equity disclaimer per account (POST /sapi/v1/equity/account/disclaimer): the
 * simulated time of the first acceptance; accepting again keeps it and still succeeds. State a
 * served exchange's journal keeps (facade-state.ts).
 */
export class EquityDisclaimers {
  readonly #acceptedAt = new Map<number, number>();
  #changed: [number, number][] = [];

  accept(accountId: number, time: number): void {
    if (this.#acceptedAt.has(accountId)) return;
    this.#acceptedAt.set(accountId, time);
    this.#changed.push([accountId, time]);
  }

  /** µs of the first acceptance, or undefined. */
  acceptedAt(accountId: number): number | undefined {
    return this.#acceptedAt.get(accountId);
  }

  /** Every acceptance as [accountId, µs], in the order they happened. */
  entries(): [number, number][] {
    return [...this.#acceptedAt];
  }

  /** The acceptances since the last call. */
  takeChanged(): [number, number][] {
    const taken = this.#changed;
    this.#changed = [];
    return taken;
  }

  /** Puts journaled acceptances back (a restore). */
  restore(entries: readonly (readonly [number, number])[]): void {
    for (const [accountId, time] of entries) if (!this.#acceptedAt.has(accountId)) this.#acceptedAt.set(accountId, time);
    this.#changed = [];
  }
}
