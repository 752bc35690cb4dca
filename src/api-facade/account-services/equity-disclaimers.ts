/**
 * Acceptance of the equity disclaimer per account (POST /sapi/v1/equity/account/disclaimer): the
 * simulated time of the first acceptance; accepting again keeps it and still succeeds.
 */
export class EquityDisclaimers {
  readonly #acceptedAt = new Map<number, number>();

  accept(accountId: number, time: number): void {
    if (!this.#acceptedAt.has(accountId)) this.#acceptedAt.set(accountId, time);
  }

  /** µs of the first acceptance, or undefined. */
  acceptedAt(accountId: number): number | undefined {
    return this.#acceptedAt.get(accountId);
  }
}
