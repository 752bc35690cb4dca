/** What the measurement loops drive: one engine replaying one op stream. */
export interface BenchTarget {
  /** Display name, e.g. "exsim" or "nodejs-order-book 10.1.1". */
  readonly name: string;
  /** Applies op `i` of the stream (a move counts as one op whatever it costs the engine). */
  step(i: number): void;
  /** Ops the engine refused so far (rejections or errors; should stay 0). */
  readonly rejected: number;
}
