/**
 * One memory budget for everything the server has queued for WebSocket readers that do not keep
 * up, across every connection of both endpoints (market and user data streams, the WebSocket API).
 * Binance disconnects a slow consumer; so does this server, in two ways:
 * - a connection whose own queue passes `perConnectionBytes` (default 16 MiB) is dropped;
 * - when the queues together pass `totalBytes` (default 256 MiB), the slowest connections are
 *   dropped, one at a time, until they fit again. Without it, readers spread over many addresses
 *   could hold 2,000 x 16 MiB, and twenty of them dropped at once stalled REST for seconds.
 *
 * "Queued" is a socket's writableLength: the bytes written to it and not yet taken by the kernel.
 * Frames are Buffers built once (text-frame.ts), so a message shared by many connections is one
 * Buffer they all point to, and what a queued frame costs on its own (the stream's entry, ~50
 * bytes) is small beside it: the count overstates the memory more often than it understates it.
 *
 * Writes are corked for the rest of the tick (uncorked together on process.nextTick): a
 * connection gets one write per tick however many messages the tick sent it, not a system call
 * each.
 *
 * "Slowest" without scanning: each connection's queue is counted when something is sent to it and
 * when its socket drains, and a connection that lags (64 KiB or more queued) sits in the bucket of
 * its queue's power of two. The budget drops from the highest bucket, and within it the connection
 * that entered it first: the one furthest behind, to within a factor of two, for the longest. A
 * send costs O(1); a drop O(1) plus the lagging connections it finds had drained meanwhile (each
 * re-counted once).
 *
 * A drop is cheap too. Once a socket holds 64 KiB, further frames wait here, in an array of
 * references to the shared frames, and go out corked as one write when it drains; so node's own
 * queue stays a few hundred entries and dropping a connection discards the array whole. The
 * socket is destroyed with an error, which node hands to each write still queued (destroyed
 * without one it builds an ERR_STREAM_DESTROYED, stack trace and all, for every queued write:
 * seconds for the hundreds of thousands a 16 MiB queue of small frames holds, the stall the issue
 * saw). Dropping early keeps every queue a share of the budget, not 16 MiB.
 *
 * Host state only (bytes on sockets); nothing here reads a clock.
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';

export interface SendBudgetLimits {
  /** Bytes queued for all connections together before the slowest are dropped. */
  readonly totalBytes: number;
  /** Bytes queued for one connection before it is dropped. */
  readonly perConnectionBytes: number;
}

export const DEFAULT_SEND_BUDGET: SendBudgetLimits = {
  totalBytes: 256 << 20,
  perConnectionBytes: 16 << 20,
};

/** A connection lags from this many queued bytes on (a healthy reader's queue stays below). */
const LAG_FLOOR_BITS = 16;
const LAG_BYTES = 1 << LAG_FLOOR_BITS;
/** Buckets of lagging queues by power of two: 64 KiB, 128 KiB, ... the last one open-ended. */
const BUCKETS = 16;

/** One connection under the budget. */
export interface SendSlot {
  /** The connection (its state: frames go only to an open one). */
  readonly ws: WebSocket;
  /** Its socket, as the upgrade handed it over: frames are written here. */
  readonly socket: Duplex;
  /** Its queued bytes when last counted: the socket's and its own pending frames'. */
  counted: number;
  /** Its bucket (-1: not lagging). */
  bucket: number;
  open: boolean;
  /** Frames held while the socket drains (null: none held), and their bytes. */
  pending: Buffer[] | null;
  pendingBytes: number;
  /** Corked by the budget until the current tick ends. */
  corked: boolean;
  /** The owner's cleanup once the budget dropped the connection (its socket is already destroyed). */
  readonly drop: () => void;
  /** The socket drained: the held frames go out as one write. */
  readonly onDrain: () => void;
}

export class SendBudget {
  readonly #limits: SendBudgetLimits;
  readonly #buckets: Set<SendSlot>[] = Array.from({ length: BUCKETS }, () => new Set());
  #total = 0;
  #dropped = 0;
  /** Sockets written to in this tick, corked until it ends. */
  #corked: SendSlot[] = [];
  #uncorkDue = false;
  readonly #uncorkAll = (): void => {
    this.#uncorkDue = false;
    const corked = this.#corked;
    this.#corked = [];
    for (const slot of corked) {
      slot.corked = false;
      slot.socket.uncork();
      // What the kernel took now no longer counts.
      if (slot.open) this.#count(slot);
    }
  };

  constructor(limits: Partial<SendBudgetLimits> = {}) {
    this.#limits = { ...DEFAULT_SEND_BUDGET, ...limits };
  }

  /** Bytes queued for all open connections, as last counted. */
  get queuedBytes(): number {
    return this.#total;
  }

  /** Connections dropped for being over their own cap or the slowest over the total. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Puts a connection (`ws` over `socket`) under the budget; `drop` cleans up after the budget ended it. */
  open(ws: WebSocket, socket: Duplex, drop: () => void): SendSlot {
    const slot: SendSlot = {
      ws,
      socket,
      counted: 0,
      bucket: -1,
      open: true,
      pending: null,
      pendingBytes: 0,
      corked: false,
      drop,
      onDrain: () => {
        if (!slot.open) return;
        this.flush(slot);
        this.#count(slot);
      },
    };
    return slot;
  }

  /**
   * Sends a frame (text-frame.ts) on `slot` and counts its queue; then drops it if it is over
   * its own cap, and the slowest connections while all are over the total. A lagging socket's
   * frames are held here, in order, and written together when it drains. False when `slot` was
   * dropped (or is not open).
   */
  send(slot: SendSlot, frame: Buffer): boolean {
    const ws = slot.ws;
    if (!slot.open || ws.readyState !== ws.OPEN) return false;
    if (slot.pending !== null) {
      slot.pending.push(frame);
      slot.pendingBytes += frame.length;
    } else if (slot.socket.writableLength >= LAG_BYTES) {
      // Past node's high-water mark, so a 'drain' is due when the socket empties.
      slot.pending = [frame];
      slot.pendingBytes = frame.length;
      slot.socket.once('drain', slot.onDrain);
    } else {
      this.#cork(slot);
      slot.socket.write(frame);
    }
    this.#count(slot);
    if (slot.counted > this.#limits.perConnectionBytes) this.#drop(slot);
    else while (this.#total > this.#limits.totalBytes && this.#dropSlowest());
    return slot.open;
  }

  /** Writes the frames held for `slot` now (before a close frame, which must come after them). */
  flush(slot: SendSlot): void {
    const held = slot.pending;
    if (held === null) return;
    slot.pending = null;
    slot.pendingBytes = 0;
    slot.socket.removeListener('drain', slot.onDrain);
    const ws = slot.ws;
    if (!slot.open || ws.readyState !== ws.OPEN) return;
    // Corked: one write of them all, which node keeps as a single pending write.
    slot.socket.cork();
    for (const frame of held) slot.socket.write(frame);
    slot.socket.uncork();
  }

  /**
   * Holds a socket's writes until the current tick ends: the frames a tick sends a connection
   * (a replay's catch-up may deliver hundreds of prints to it) leave as one write.
   */
  #cork(slot: SendSlot): void {
    if (slot.corked) return;
    slot.corked = true;
    slot.socket.cork();
    this.#corked.push(slot);
    if (this.#uncorkDue) return;
    this.#uncorkDue = true;
    process.nextTick(this.#uncorkAll);
  }

  /** The connection ended (or its owner ended it): its queue no longer counts. */
  close(slot: SendSlot): void {
    if (!slot.open) return;
    slot.open = false;
    this.#forget(slot);
  }

  #count(slot: SendSlot): void {
    const now = slot.socket.writableLength + slot.pendingBytes;
    this.#total += now - slot.counted;
    slot.counted = now;
    const bucket = bucketOf(now);
    if (bucket === slot.bucket) return;
    if (slot.bucket >= 0) this.#buckets[slot.bucket]!.delete(slot);
    if (bucket >= 0) this.#buckets[bucket]!.add(slot);
    slot.bucket = bucket;
  }

  /** Drops the slowest lagging connection; false when none lags (or a re-count brought all within the budget). */
  #dropSlowest(): boolean {
    for (let b = BUCKETS - 1; b >= 0; b--) {
      for (const slot of this.#buckets[b]!) {
        // Counted at its last send: it may have drained since.
        this.#count(slot);
        if (slot.bucket === b) {
          this.#drop(slot);
          return true;
        }
        if (this.#total <= this.#limits.totalBytes) return false;
      }
    }
    return false;
  }

  #drop(slot: SendSlot): void {
    slot.open = false;
    this.#forget(slot);
    this.#dropped++;
    // The held frames go with the slot; node's own queue is at most LAG_BYTES of frames and one
    // pending write. Destroyed with an error, node passes it to each queued write instead of
    // building one per write.
    slot.socket.removeListener('drain', slot.onDrain);
    slot.socket.destroy(new Error('dropped: a reader that does not keep up'));
    slot.drop();
  }

  #forget(slot: SendSlot): void {
    if (slot.bucket >= 0) this.#buckets[slot.bucket]!.delete(slot);
    slot.bucket = -1;
    this.#total -= slot.counted;
    slot.counted = 0;
    slot.pending = null;
    slot.pendingBytes = 0;
  }
}

/** The bucket of a queue of `bytes` (-1 below the lag floor). */
function bucketOf(bytes: number): number {
  if (bytes < 1 << LAG_FLOOR_BITS) return -1;
  if (bytes >= 2 ** 31) return BUCKETS - 1;
  return Math.min(BUCKETS - 1, 31 - Math.clz32(bytes) - LAG_FLOOR_BITS);
}
