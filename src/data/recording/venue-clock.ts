/**
 * Puts messages that carry no exchange time (REST snapshots, spot bookTicker, the recorder's
 * notes) on the exchange's clock. Simulated time is the exchange's timestamp; such a message has
 * only its local receive time, and the local clock is not the exchange's: a real venue's differs
 * by the network latency and the hosts' clock offset, a served exsim's (simulated time at
 * `speed:N`, or standing still at `manual`) by anything. So the receive time is moved by the
 * offset seen on the latest message that had both times (`receive - E` of a trade or a diff),
 * which is the latency-and-offset of that moment: for a real venue, within a few ms of when
 * the venue produced the message.
 */

/** Exchange times in recordings are ms (Binance's default) or µs (`timeUnit=MICROSECOND`): µs values are past 10^14. */
export function venueMicros(time: number): number {
  return time < 1e14 ? time * 1000 : time;
}

export class VenueClock {
  #offset = 0;
  #known = false;

  /** Whether a message with both times has been seen. */
  get known(): boolean {
    return this.#known;
  }

  /** A message received at `received` (µs) carried the exchange time `venue` (µs). */
  observe(received: number, venue: number): void {
    this.#offset = received - venue;
    this.#known = true;
  }

  /** The exchange time of a local receive time (the receive time itself until an offset is known). */
  toVenue(received: number): number {
    return received - this.#offset;
  }
}

/** The exchange time (µs) of a trade or diff-depth line, read off its text without parsing it; null if absent. */
export function eventTimeOf(text: string): number | null {
  const at = text.indexOf('"E":');
  if (at < 0) return null;
  let n = 0;
  let i = at + 4;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    n = n * 10 + c;
  }
  return i === at + 4 ? null : venueMicros(n);
}

/** A recording line and its time on the exchange's clock (µs). */
export interface TimedLine<L> {
  readonly line: L;
  readonly time: number;
}

/**
 * Most untimed lines held back at the start while no timed line has come yet (a recording of a
 * quiet market opens with its snapshots); past this they keep their receive times.
 */
const MAX_HELD = 100_000;

/**
 * Every line with its exchange time: a trade's or diff's own `E`, any other line's receive time
 * through the VenueClock. Untimed lines before the first timed one wait for it (so the first
 * snapshot gets the offset of the messages around it, not the local clock); they keep their
 * receive times only if no timed line follows at all.
 */
export async function* onVenueClock<L extends { readonly kind: string; readonly received: number; readonly text: string }>(lines: AsyncIterable<L>): AsyncGenerator<TimedLine<L>> {
  const clock = new VenueClock();
  let held: L[] = [];
  const release = function* (): Generator<TimedLine<L>> {
    for (const line of held) yield { line, time: clock.toVenue(line.received) };
    held = [];
  };
  for await (const line of lines) {
    const venue = line.kind === 'trade' || line.kind === 'depth' ? eventTimeOf(line.text) : null;
    if (venue !== null) {
      clock.observe(line.received, venue);
      yield* release();
      yield { line, time: venue };
    } else if (clock.known) {
      yield { line, time: clock.toVenue(line.received) };
    } else {
      held.push(line);
      if (held.length >= MAX_HELD) yield* release();
    }
  }
  yield* release();
}
