/**
 * Reconnect delays: exponential from `initialMs` to `maxMs`, each drawn in [d/2, d] ("equal
 * jitter"), so many recorders cut off at once by the venue do not come back in step, while
 * each still waits at least half the nominal delay.
 */
export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
}

export class Backoff {
  #attempt = 0;

  constructor(
    private readonly options: BackoffOptions,
    private readonly random: () => number = Math.random, // determinism-ok: jitter of a live network client
  ) {}

  /** The delay before the next attempt, ms; each call doubles the nominal delay up to maxMs. */
  next(): number {
    const nominal = Math.min(this.options.maxMs, this.options.initialMs * 2 ** this.#attempt);
    this.#attempt++;
    return Math.round(nominal / 2 + (nominal / 2) * this.random());
  }

  /** A connection worked: the next failure starts from initialMs again. */
  reset(): void {
    this.#attempt = 0;
  }
}
