/**
 * Binance's documented local-book recipe, run over a recording instead of a live connection, its
 * book written out as depth messages (depth-tape.ts):
 *
 * - while there is no book (the start, or after a loss), diff events are buffered;
 * - a snapshot (lastUpdateId L) starts the book: buffered events with u <= L are dropped, the
 *   first one left must have U <= L + 1 (else the snapshot is older than what the buffer
 *   continues from, and the recipe takes another: the recorder did, so the next snapshot line
 *   is waited for); the snapshot is one CLEAR message, then the buffer is applied. A snapshot
 *   with nothing buffered after it is written at once and confirmed by the next event (a quiet
 *   market shows its book from the snapshot on); an event that does not continue it shows it
 *   was too old: the book is emptied again until the next snapshot (at the start of a
 *   recording that is not a gap: there was no book yet);
 * - from then on an event with u <= the book's id is stale (dropped), one with U <= id + 1 is
 *   applied (U = id + 1 is the usual case; U < id + 1 < u happens only across a connection
 *   handover and is exact all the same, since an event carries each touched level's final
 *   total), one with U > id + 1 means updates were missed: a gap.
 * - A gap, a lost connection, a clean stop or a torn file make the book invalid until the next
 *   snapshot: an empty book is written at once (no liquidity rather than stale liquidity) and
 *   the gap is reported, from the last good data to the resynchronising snapshot.
 * - A snapshot while the book is good replaces it (a CLEAR message) only when it is newer (L
 *   above the book's id); one at or behind the book adds nothing and is skipped.
 *
 * Times: diff events at their event time E; a snapshot at its line's time as the reader gives
 * it (the receive time on the exchange's clock, venue-clock.ts). Output times never go back:
 * an event time below the previous message's (buffered events applied after the snapshot that
 * arrived after them) is raised to it.
 */
import { DEPTH_ASK, DEPTH_CLEAR, DEPTH_MESSAGE_START } from '../depth-tape.ts';
import type { UnitScale } from '../tape.ts';
import type { DepthBatchBuilder } from '../depth-batch-builder.ts';
import { levelRows, type DepthSnapshot, type DiffEvent } from './depth-messages.ts';
import type { RecordingGap } from './recording-gap.ts';

/** Events held while there is no book; past twice this, the older half goes (a snapshot that needs them is too old anyway). */
const MAX_BUFFERED = 20_000;

interface Loss {
  readonly from: number;
  readonly why: string;
  readonly at: string;
}

/** What the recipe did, for reports and tests. */
export interface LocalBookCounts {
  /** Diff events applied. */
  applied: number;
  /** Diff events dropped as stale (u at or below the book's id). */
  stale: number;
  /** Snapshots that started or replaced the book. */
  snapshotsApplied: number;
  /** Snapshots at or behind a good book. */
  snapshotsSkipped: number;
  /** Snapshots older than the events that must continue them (one already written when that showed is counted here too). */
  snapshotsTooOld: number;
}

export class LocalBookSync {
  readonly counts: LocalBookCounts = { applied: 0, stale: 0, snapshotsApplied: 0, snapshotsSkipped: 0, snapshotsTooOld: 0 };
  #id = 0;
  #synced = false;
  #loss: Loss | null = null;
  #buffer: DiffEvent[] = [];
  /** Time of the last message written (output times never go back). */
  #lastTime = -Infinity;
  /** Time of the last good data (an applied event or snapshot). */
  #lastGood = 0;
  /** The time of the snapshot that started the book, until an event continues it (null: confirmed, or no book). */
  #tentative: number | null = null;
  #everConfirmed = false;

  constructor(
    private readonly symbol: string,
    private readonly scale: UnitScale,
    private readonly out: DepthBatchBuilder,
    private readonly onGap: (gap: RecordingGap) => void,
    /** After each message written: the update id the book is at (null: the empty book of a loss). */
    private readonly onMessage: (updateId: number | null) => void = () => undefined,
  ) {}

  /** The book's update id (the last applied event's u, or the snapshot's lastUpdateId). */
  get updateId(): number {
    return this.#id;
  }

  get synced(): boolean {
    return this.#synced;
  }

  /** Time of the last message written (-Infinity before the first): later messages are never stamped earlier. */
  get writtenUpTo(): number {
    return this.#lastTime;
  }

  /** The book was lost and the gap is not reported yet: it ends at the snapshot that resynchronises it. */
  get lossPending(): boolean {
    return this.#loss !== null;
  }

  diff(event: DiffEvent): void {
    if (!this.#synced) {
      this.#buffer.push(event);
      if (this.#buffer.length > 2 * MAX_BUFFERED) this.#buffer.splice(0, MAX_BUFFERED);
      return;
    }
    if (event.u <= this.#id) {
      this.counts.stale++;
      return;
    }
    if (event.U > this.#id + 1) {
      if (this.#tentative !== null) {
        // The snapshot is older than the stream that must continue it: the recipe takes another
        // (the recorder did). Not a gap of its own: the book was never good since the last one.
        this.counts.snapshotsTooOld++;
        this.#drop(event.time);
      } else {
        const missed = event.U - 1 === this.#id + 1 ? `update id ${event.U - 1}` : `update ids ${this.#id + 1}..${event.U - 1}`;
        this.lose(this.#lastGood, event.time, `depth ${missed} missed`, event);
      }
      this.#buffer.push(event);
      return;
    }
    this.#apply(event);
    if (this.#tentative !== null) this.#confirm();
  }

  snapshot(snapshot: DepthSnapshot, time: number): void {
    const L = snapshot.lastUpdateId;
    if (this.#synced) {
      if (L <= this.#id) {
        this.counts.snapshotsSkipped++;
        return;
      }
      this.#writeSnapshot(snapshot, time);
      if (this.#tentative !== null) this.#tentative = this.#lastTime;
      return;
    }
    const buffer = this.#buffer.filter((e) => e.u > L);
    this.counts.stale += this.#buffer.length - buffer.length;
    if (buffer.length > 0 && buffer[0]!.U > L + 1) {
      this.#buffer = buffer;
      this.counts.snapshotsTooOld++;
      return;
    }
    // The book starts here; the first event that continues it confirms it (the buffered one
    // at once, else the next to come).
    this.#buffer = [];
    this.#synced = true;
    this.#writeSnapshot(snapshot, time);
    this.#tentative = this.#lastTime;
    for (const event of buffer) this.diff(event);
  }

  /**
   * The book can no longer be trusted from `time` (a lost connection, a stop, a torn file, a gap):
   * an empty book is written then; the gap runs from `from` until the next snapshot.
   */
  lose(from: number, time: number, why: string, where: { readonly file: string; readonly line: number }): void {
    if (!this.#synced) return;
    // A snapshot nothing contradicted held until now.
    if (this.#tentative !== null) this.#confirm();
    this.#loss = { from, why, at: `${where.file}:${where.line}` };
    this.#drop(time);
  }

  /**
   * The recording ends at `time`: a loss not resynchronised is reported up to there, unless
   * `quietEnd` (the recording's last line was a stop or its file is torn: it simply ends there).
   */
  end(time: number, quietEnd: boolean): void {
    if (this.#tentative !== null) this.#confirm();
    if (this.#loss !== null && !quietEnd) {
      this.onGap({ symbol: this.symbol, stream: 'depth', from: this.#loss.from, to: Math.max(time, this.#loss.from), why: `${this.#loss.why}; not resynchronised before the recording ends`, at: this.#loss.at });
    }
    this.#loss = null;
  }

  /** Whether no snapshot ever started a book that held (a recording without snapshot lines, or with none usable). */
  get neverSynced(): boolean {
    return !this.#everConfirmed;
  }

  /** The book since the snapshot at `#tentative` holds: a loss before it ends there. */
  #confirm(): void {
    if (this.#loss !== null) {
      this.onGap({ symbol: this.symbol, stream: 'depth', from: this.#loss.from, to: this.#tentative!, why: this.#loss.why, at: this.#loss.at });
      this.#loss = null;
    }
    this.#tentative = null;
    this.#everConfirmed = true;
  }

  /** The book is invalid from `time`: an empty book (a CLEAR message of one removal; a message needs a row). */
  #drop(time: number): void {
    this.#synced = false;
    this.#tentative = null;
    this.#buffer = [];
    this.out.pushEmptyBook(this.#time(time));
    this.out.endMessage();
    this.onMessage(null);
  }

  #apply(event: DiffEvent): void {
    const time = this.#time(event.time);
    let first = true;
    const row = (flags: number) => (price: number, qty: number) => {
      this.out.push(time, price, qty, first ? flags | DEPTH_MESSAGE_START : flags);
      first = false;
    };
    levelRows(event.bids, 'b', this.scale, event, row(0));
    levelRows(event.asks, 'a', this.scale, event, row(DEPTH_ASK));
    this.#id = event.u;
    if (!first) {
      this.out.endMessage();
      this.onMessage(this.#id);
    }
    this.#lastGood = time;
    this.counts.applied++;
  }

  #writeSnapshot(snapshot: DepthSnapshot, at: number): void {
    const time = this.#time(at);
    let flags = DEPTH_CLEAR;
    let first = true;
    const row = (side: number) => (price: number, qty: number) => {
      // A snapshot lists the levels there are; a zero in it would be a venue's oddity, kept as "no level".
      this.out.push(time, price, qty, first ? flags | side | DEPTH_MESSAGE_START : flags | side);
      first = false;
      flags = 0;
    };
    levelRows(snapshot.bids, 'bids', this.scale, snapshot, row(0));
    levelRows(snapshot.asks, 'asks', this.scale, snapshot, row(DEPTH_ASK));
    if (first) this.out.pushEmptyBook(time);
    this.#id = snapshot.lastUpdateId;
    this.out.endMessage();
    this.onMessage(this.#id);
    this.#lastGood = time;
    this.counts.snapshotsApplied++;
  }

  #time(time: number): number {
    if (time > this.#lastTime) this.#lastTime = time;
    return this.#lastTime;
  }
}
