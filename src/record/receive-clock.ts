/**
 * The recorder's local receive time, µs since the epoch: the wall clock with µs resolution that
 * never goes back. Date.now() has ms resolution and steps when the host's clock is set;
 * performance.now() has µs resolution and never steps but drifts from UTC over days. So the time
 * runs on performance.now() from an anchor on Date.now(), re-anchored when the two part by more
 * than a second (a clock step), and held at the last reading rather than going back.
 */
const REANCHOR_US = 1_000_000;

export class ReceiveClock {
  #wallAnchor = 0;
  #perfAnchor = 0;
  #last = 0;

  constructor() {
    this.#anchor();
  }

  nowMicros(): number {
    const perf = performance.now(); // determinism-ok: the recorder stamps live messages with the wall clock
    let t = this.#wallAnchor + Math.floor((perf - this.#perfAnchor) * 1000);
    const wall = Date.now() * 1000; // determinism-ok: the recorder stamps live messages with the wall clock
    if (Math.abs(wall - t) > REANCHOR_US) t = this.#anchor();
    if (t < this.#last) t = this.#last;
    this.#last = t;
    return t;
  }

  #anchor(): number {
    this.#perfAnchor = performance.now(); // determinism-ok: the recorder stamps live messages with the wall clock
    this.#wallAnchor = Date.now() * 1000; // determinism-ok: the recorder stamps live messages with the wall clock
    return this.#wallAnchor;
  }
}
