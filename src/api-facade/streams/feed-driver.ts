/**
 * Keeps a MarketFeed in step with simulated time: `pump()` delivers every message due by now
 * and, when the backend has a scheduler, keeps one timer at the feed's next periodic push, so a
 * `@depth@100ms` update or a kline push is computed at its own boundary with the book and bars of
 * that moment. Owners call `pump()` whenever time may have moved or the market changed (after a
 * replayed print, after a request); without a scheduler (a backend whose state only changes on
 * requests) calling it before and after each request is just as exact.
 */
import type { MarketFeed } from './market-feed.ts';

export interface FeedClock {
  /** Simulated now, µs. */
  readonly now: number;
}

export type ScheduleAt = (time: number, action: () => void) => void;

export class FeedDriver {
  readonly #feed: MarketFeed;
  readonly #clock: FeedClock;
  readonly #schedule: ScheduleAt | undefined;
  /** Time of the earliest timer this driver has pending (Infinity: none). */
  #timerAt = Infinity;

  constructor(feed: MarketFeed, clock: FeedClock, schedule?: ScheduleAt) {
    this.#feed = feed;
    this.#clock = clock;
    this.#schedule = schedule;
  }

  pump(): void {
    if (!this.#feed.active) return;
    this.#feed.advanceTo(this.#clock.now);
    if (this.#schedule === undefined) return;
    const next = this.#feed.nextDue();
    if (next === null || next >= this.#timerAt) return;
    this.#timerAt = next;
    // Re-queued once at its own instant, the push runs after every action already due then (the
    // scheduler fires same-time timers in insertion order): a @markPrice push at a whole second
    // shows the mark the futures clock sets at that second, whichever was scheduled first.
    this.#schedule(next, () =>
      this.#schedule!(next, () => {
        if (this.#timerAt === next) this.#timerAt = Infinity;
        this.pump();
      }),
    );
  }
}
