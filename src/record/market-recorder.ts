/**
 * `exsim record`: records a Binance-compatible venue's `<symbol>@trade`, `<symbol>@depth@100ms`
 * and `<symbol>@bookTicker` streams over one combined-stream connection, with REST depth
 * snapshots, into daily gzip files per symbol (recording-writer.ts; line format in
 * src/data/recording/recording-format.ts). A live network tool, outside the deterministic path:
 * it reads the wall clock and runs host timers (each marked).
 *
 * What it takes care of, so that the readers can rebuild the book by Binance's recipe:
 * - snapshots (limit 5000) at the start, after every (re)connection, every `snapshotEveryMs`,
 *   when a symbol's file rolls over to a new day, and whenever the recipe would need one: the
 *   diff ids jumped (written as an `exsim@gap` note), or a snapshot is older than the first
 *   event it must be continued by (it is taken again, as the recipe says). One request at a
 *   time (250 weight each on Binance); failures are noted and retried with backoff, honouring
 *   Retry-After.
 * - reconnects with exponential backoff and jitter; every lost connection and failed attempt is
 *   a note in every file, the reconnect followed by fresh snapshots.
 * - the venue's 24 h connection limit: after `handoverAfterMs` a second connection is opened and
 *   both are read (trades and quotes from both, the readers drop the duplicates); each symbol's
 *   diffs move to the new one at its first diff event that continues what the old one
 *   delivered; then the old one is closed, noted as a planned disconnect: nothing is lost.
 * - a clean stop: a `exsim@stopped` note, then every gzip member ended.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { noteMessage, RECORDER_NOTES, snapshotMessage } from '../data/index.ts';
import { Backoff, type BackoffOptions } from './backoff.ts';
import { fetchDepthSnapshot, SnapshotRequestError } from './fetch-depth-snapshot.ts';
import { ReceiveClock } from './receive-clock.ts';
import { RecordingWriter } from './recording-writer.ts';
import { StreamConnection } from './stream-connection.ts';

/** Binance's public market streams and REST API (binance-facts.md §6.4, §7). */
export const BINANCE_STREAM_URL = 'wss://stream.binance.com:9443';
export const BINANCE_REST_URL = 'https://api.binance.com';

/** The streams recorded per symbol. */
export const RECORDED_STREAMS = ['trade', 'depth@100ms', 'bookTicker'] as const;
/** Binance serves at most 1024 streams on one connection. */
const MAX_STREAMS = 1024;
/** A handover completes at the latest this long after the new connection opened (a symbol whose book did not move has no diff to switch on), ms. */
const HANDOVER_GRACE_MS = 10_000;

export interface MarketRecorderOptions {
  /** Symbols, upper case (BTCUSDT). */
  readonly symbols: readonly string[];
  /** The recording folder: one sub-folder per symbol. */
  readonly out: string;
  /** The venue's stream base (ws[s]://host[:port]); `/stream?streams=...` is appended. Default Binance's. */
  readonly streamUrl?: string;
  /** The venue's REST base (http[s]://host[:port]). Default Binance's. */
  readonly restUrl?: string;
  /** Snapshot period, ms (default 1 h). */
  readonly snapshotEveryMs?: number;
  /** A connection is replaced after this long, ms (default 23 h: Binance closes it at 24 h). */
  readonly handoverAfterMs?: number;
  /** Reconnect delays (default 1 s doubling to 60 s, jittered). */
  readonly reconnect?: BackoffOptions;
  /** Our ping period and the silence after which a connection counts as dead, ms (default 20 s, 60 s). */
  readonly pingEveryMs?: number;
  readonly idleTimeoutMs?: number;
  /** How often new lines are flushed to disk, ms (default 1 s). */
  readonly flushEveryMs?: number;
  /** What happens, for the command's output (and tests). */
  readonly onEvent?: (event: RecorderEvent) => void;
}

export type RecorderEvent =
  | { readonly type: 'file'; readonly symbol: string; readonly path: string }
  | { readonly type: 'connected'; readonly url: string; readonly attempt: number; readonly handover: boolean }
  | { readonly type: 'disconnected'; readonly reason: string; readonly retryInMs: number }
  | { readonly type: 'connect-failed'; readonly reason: string; readonly attempt: number; readonly retryInMs: number }
  | { readonly type: 'snapshot'; readonly symbol: string; readonly lastUpdateId: number }
  | { readonly type: 'gap'; readonly symbol: string; readonly reason: string }
  | { readonly type: 'error'; readonly what: string; readonly reason: string }
  | { readonly type: 'stopped'; readonly reason: string };

/** What has been recorded of a symbol so far. */
export interface SymbolRecordingStats {
  /** Stream messages written (snapshots and notes aside). */
  messages: number;
  /** Snapshots written. */
  snapshots: number;
  /** The last diff event's `u` on the current connection, or null before the first. */
  lastDepthUpdateId: number | null;
}

/** The recipe's bookkeeping of one symbol on the current connection. */
interface DepthTrack {
  /** The first update id a book must be continued from: the connection's first event's, or the one after a jump; null once a snapshot covers it. */
  syncFrom: number | null;
  /** Whether the connection has carried a diff event yet. */
  seenEvent: boolean;
  /** The latest snapshot's lastUpdateId on this connection. */
  snapshotId: number | null;
}

export class MarketRecorder {
  readonly #symbols: readonly string[];
  readonly #streamUrl: string;
  readonly #restUrl: string;
  readonly #snapshotEveryMs: number;
  readonly #handoverAfterMs: number;
  readonly #connection: { readonly pingEveryMs: number; readonly idleTimeoutMs: number };
  readonly #onEvent: (event: RecorderEvent) => void;
  readonly #writer: RecordingWriter;
  readonly #clock = new ReceiveClock();
  readonly #backoff: Backoff;
  readonly #snapshotBackoff = new Backoff({ initialMs: 1000, maxMs: 60_000 });
  readonly #stats = new Map<string, SymbolRecordingStats>();
  readonly #depth = new Map<string, DepthTrack>();
  readonly #snapshotTimers = new Map<string, NodeJS.Timeout>();
  readonly #pending = new Set<string>();
  readonly #abort = new AbortController();
  #current: StreamConnection | null = null;
  /** During a handover: the fresh connection, and the symbols still taken from the old one. */
  #next: StreamConnection | null = null;
  #switching: Set<string> | null = null;
  #graceTimer: NodeJS.Timeout | null = null;
  #failures = 0;
  #heard = false;
  #reconnectTimer: NodeJS.Timeout | null = null;
  #handoverTimer: NodeJS.Timeout | null = null;
  #snapshotsRunning = false;
  #stopping: Promise<void> | null = null;
  #resolveFinished!: () => void;
  /** Resolves once the recorder has stopped (by `stop`, or because its files could not be written). */
  readonly finished = new Promise<void>((resolve) => (this.#resolveFinished = resolve));

  constructor(options: MarketRecorderOptions) {
    const symbols = [...new Set(options.symbols.map((s) => s.trim().toUpperCase()))];
    if (symbols.length === 0) throw new Error('no symbols to record');
    const bad = symbols.find((s) => !/^[A-Z0-9]+$/.test(s));
    if (bad !== undefined) throw new Error(`"${bad}" is not a symbol (letters and digits, e.g. BTCUSDT)`);
    if (symbols.length * RECORDED_STREAMS.length > MAX_STREAMS) throw new Error(`at most ${Math.floor(MAX_STREAMS / RECORDED_STREAMS.length)} symbols fit on one connection (${MAX_STREAMS} streams)`);
    this.#symbols = symbols;
    this.#streamUrl = options.streamUrl ?? BINANCE_STREAM_URL;
    this.#restUrl = options.restUrl ?? BINANCE_REST_URL;
    this.#snapshotEveryMs = options.snapshotEveryMs ?? 3_600_000;
    this.#handoverAfterMs = options.handoverAfterMs ?? 23 * 3_600_000;
    this.#connection = { pingEveryMs: options.pingEveryMs ?? 20_000, idleTimeoutMs: options.idleTimeoutMs ?? 60_000 };
    this.#backoff = new Backoff(options.reconnect ?? { initialMs: 1000, maxMs: 60_000 });
    this.#onEvent = options.onEvent ?? (() => undefined);
    for (const symbol of symbols) {
      this.#stats.set(symbol, { messages: 0, snapshots: 0, lastDepthUpdateId: null });
      this.#depth.set(symbol, { syncFrom: null, seenEvent: false, snapshotId: null });
    }
    this.#writer = new RecordingWriter({
      out: options.out,
      symbols,
      flushEveryMs: options.flushEveryMs ?? 1000,
      onFile: (symbol, path) => this.#onEvent({ type: 'file', symbol, path }),
      onRotate: (symbol) => this.#requestSnapshot(symbol),
      onError: (error) => {
        this.#onEvent({ type: 'error', what: 'write', reason: error.message });
        void this.stop(`cannot write the recording: ${error.message}`);
      },
    });
  }

  /** The combined-stream URL recorded. */
  get url(): string {
    const streams = this.#symbols.flatMap((s) => RECORDED_STREAMS.map((name) => `${s.toLowerCase()}@${name}`));
    return `${this.#streamUrl.replace(/\/+$/, '')}/stream?streams=${streams.join('/')}`;
  }

  stats(symbol: string): Readonly<SymbolRecordingStats> | undefined {
    return this.#stats.get(symbol.toUpperCase());
  }

  /** Starts recording (connects; retries on its own until stopped). */
  start(): void {
    this.#note(RECORDER_NOTES.started, { symbols: this.#symbols, streamUrl: this.#streamUrl, restUrl: this.#restUrl });
    this.#connect();
  }

  /** Stops cleanly: a stop note, the connection closed, every file ended. Resolves when they are on disk. */
  stop(reason = 'stopped'): Promise<void> {
    this.#stopping ??= (async () => {
      for (const timer of [this.#reconnectTimer, this.#handoverTimer, this.#graceTimer, ...this.#snapshotTimers.values()]) if (timer !== null) clearTimeout(timer);
      this.#abort.abort();
      this.#note(RECORDER_NOTES.stopped, { reason });
      this.#current?.close();
      this.#next?.close();
      this.#current = null;
      this.#next = null;
      await this.#writer.close();
      this.#onEvent({ type: 'stopped', reason });
      this.#resolveFinished();
    })();
    return this.#stopping;
  }

  get #stopped(): boolean {
    return this.#stopping !== null;
  }

  #connect(): void {
    this.#reconnectTimer = null;
    const attempt = ++this.#failures;
    const connection: StreamConnection = new StreamConnection(
      this.url,
      {
        onOpen: () => this.#opened(connection, attempt),
        onMessage: (text) => this.#message(connection, text),
        onClose: (reason) => this.#closed(connection, reason),
      },
      this.#connection,
    );
    this.#current = connection;
  }

  #opened(connection: StreamConnection, attempt: number): void {
    if (this.#stopped) return;
    if (connection === this.#next) {
      // Make before break: both connections stay open until each symbol's diffs on the new one
      // continue what the old one delivered (or the grace period ends).
      this.#switching = new Set(this.#symbols);
      this.#note(RECORDER_NOTES.connected, { url: this.url, attempt, handover: true });
      this.#onEvent({ type: 'connected', url: this.url, attempt, handover: true });
      this.#graceTimer = setTimeout(() => this.#completeHandover(), HANDOVER_GRACE_MS); // determinism-ok: live handover deadline
      this.#graceTimer.unref();
      return;
    }
    // A new connection after a loss: each symbol's diff ids start afresh.
    for (const track of this.#depth.values()) {
      track.seenEvent = false;
      track.snapshotId = null;
    }
    for (const stats of this.#stats.values()) stats.lastDepthUpdateId = null;
    this.#failures = 0;
    this.#heard = false;
    this.#note(RECORDER_NOTES.connected, { url: this.url, attempt, handover: false });
    this.#onEvent({ type: 'connected', url: this.url, attempt, handover: false });
    this.#connectionReady();
  }

  /** A connection is the current one: its own handover is due in `handoverAfterMs`, and every symbol needs a snapshot. */
  #connectionReady(): void {
    this.#handoverTimer = setTimeout(() => this.#handover(), this.#handoverAfterMs); // determinism-ok: the live connection's age
    this.#handoverTimer.unref();
    for (const symbol of this.#symbols) this.#requestSnapshot(symbol);
  }

  #message(connection: StreamConnection, text: string): void {
    if (this.#stopped) return;
    const fromNext = connection === this.#next;
    if (!fromNext && connection !== this.#current) return;
    const received = this.#clock.nowMicros();
    const stream = streamName(text);
    const symbol = stream?.slice(0, stream.indexOf('@')).toUpperCase();
    const stats = symbol === undefined ? undefined : this.#stats.get(symbol);
    if (stream === null || symbol === undefined || stats === undefined) {
      this.#note(RECORDER_NOTES.error, { what: 'unexpected message', reason: text.slice(0, 200) }, received);
      return;
    }
    const isDepth = stream.endsWith('@depth@100ms');
    // During a handover trades and quotes are written from both connections (the readers drop
    // the duplicates by trade id and update id); a symbol's diffs come from the old connection
    // until the first diff of the new one that continues (or overlaps) what was written, then
    // from the new one: diffs out of order would look like a gap.
    if (this.#switching !== null && isDepth) {
      const waiting = this.#switching.has(symbol);
      if (fromNext && waiting) {
        const ids = depthIds(text);
        const last = stats.lastDepthUpdateId;
        if (ids === null || (last !== null && ids.U > last + 1)) return;
        this.#switching.delete(symbol);
      } else if (!fromNext && !waiting) {
        return;
      }
    } else if (this.#switching === null && !this.#heard) {
      this.#heard = true;
      this.#backoff.reset();
    }
    this.#writer.write(symbol, received, text);
    stats.messages++;
    if (isDepth) this.#checkDepth(symbol, text, received);
    if (this.#switching?.size === 0) this.#completeHandover();
  }

  /** The live half of the recipe: a jump in diff ids, or a snapshot older than the events it must continue, calls for a snapshot. */
  #checkDepth(symbol: string, text: string, received: number): void {
    const ids = depthIds(text);
    if (ids === null) return; // written as received; the reader names the line
    const { U, u } = ids;
    const track = this.#depth.get(symbol)!;
    const stats = this.#stats.get(symbol)!;
    const last = stats.lastDepthUpdateId;
    if (last !== null && U > last + 1) {
      const reason = `depth update ids ${last + 1}..${U - 1} missed`;
      this.#note(RECORDER_NOTES.gap, { symbol, reason }, received);
      this.#onEvent({ type: 'gap', symbol, reason });
      track.syncFrom = U;
      this.#requestSnapshot(symbol);
    } else if (!track.seenEvent) {
      track.syncFrom = U;
      if (track.snapshotId !== null && U > track.snapshotId + 1) this.#requestSnapshot(symbol);
    }
    track.seenEvent = true;
    stats.lastDepthUpdateId = last === null ? u : Math.max(last, u);
  }

  #closed(connection: StreamConnection, reason: string): void {
    if (this.#stopped) return;
    if (connection === this.#next) {
      // The handover's fresh connection failed; the old one goes on. Try again later.
      this.#abandonHandover();
      this.#onEvent({ type: 'error', what: 'handover', reason });
      this.#handoverTimer = setTimeout(() => this.#handover(), this.#backoff.next()); // determinism-ok: live reconnect delay
      this.#handoverTimer.unref();
      return;
    }
    if (connection !== this.#current) return;
    if (this.#next?.opened === true) {
      // The old connection ended during a handover (the venue's limit came first): the new one carries on at once.
      this.#completeHandover();
      return;
    }
    this.#next?.close();
    this.#abandonHandover();
    this.#current = null;
    if (this.#handoverTimer !== null) clearTimeout(this.#handoverTimer);
    const retryInMs = this.#backoff.next();
    if (connection.opened) {
      this.#note(RECORDER_NOTES.disconnected, { reason, planned: false });
      this.#onEvent({ type: 'disconnected', reason, retryInMs });
    } else {
      this.#note(RECORDER_NOTES.error, { what: 'connect', reason, attempt: this.#failures });
      this.#onEvent({ type: 'connect-failed', reason, attempt: this.#failures, retryInMs });
    }
    this.#reconnectTimer = setTimeout(() => this.#connect(), retryInMs); // determinism-ok: live reconnect delay
  }

  /** Opens the next connection, before the venue's 24 h limit closes this one. */
  #handover(): void {
    if (this.#stopped || this.#next !== null || this.#current === null) return;
    const next: StreamConnection = new StreamConnection(
      this.url,
      {
        onOpen: () => this.#opened(next, 1),
        onMessage: (text) => this.#message(next, text),
        onClose: (reason) => this.#closed(next, reason),
      },
      this.#connection,
    );
    this.#next = next;
  }

  /** The new connection takes over: the old one is closed, noted as a planned disconnect. */
  #completeHandover(): void {
    const next = this.#next;
    if (next === null || this.#stopped) return;
    const old = this.#current;
    this.#abandonHandover();
    this.#current = next;
    this.#note(RECORDER_NOTES.disconnected, { reason: "handover to a fresh connection before the venue's 24 h limit", planned: true });
    old?.close();
    this.#connectionReady();
  }

  #abandonHandover(): void {
    this.#next = null;
    this.#switching = null;
    if (this.#graceTimer !== null) clearTimeout(this.#graceTimer);
    this.#graceTimer = null;
  }

  #requestSnapshot(symbol: string): void {
    if (this.#stopped) return;
    this.#pending.add(symbol);
    void this.#takeSnapshots();
  }

  /** Takes the pending snapshots one at a time while a connection is open. */
  async #takeSnapshots(): Promise<void> {
    if (this.#snapshotsRunning) return;
    this.#snapshotsRunning = true;
    try {
      for (;;) {
        const symbol = this.#pending.values().next().value;
        if (symbol === undefined || this.#stopped || this.#current?.opened !== true) return;
        this.#pending.delete(symbol);
        try {
          const answer = await fetchDepthSnapshot(this.#restUrl, symbol, AbortSignal.any([this.#abort.signal, AbortSignal.timeout(30_000)]));
          if (this.#stopped) return;
          if (this.#snapshotTaken(symbol, answer.body, answer.lastUpdateId)) continue;
          // Older than the events it must continue: taken again, after a pause (the venue's REST lags its streams).
          this.#pending.add(symbol);
          await sleep(this.#snapshotBackoff.next(), undefined, { signal: this.#abort.signal }).catch(() => undefined); // determinism-ok: live retry delay
        } catch (error) {
          if (this.#stopped) return;
          const reason = error instanceof Error ? error.message : String(error);
          this.#note(RECORDER_NOTES.error, { symbol, what: 'depth snapshot', reason });
          this.#onEvent({ type: 'error', what: `${symbol} depth snapshot`, reason });
          this.#pending.add(symbol);
          const wait = Math.max(this.#snapshotBackoff.next(), error instanceof SnapshotRequestError ? (error.retryAfterMs ?? 0) : 0);
          await sleep(wait, undefined, { signal: this.#abort.signal }).catch(() => undefined); // determinism-ok: live retry delay
        }
      }
    } finally {
      this.#snapshotsRunning = false;
    }
  }

  /** Writes a snapshot down; false when it is older than the events it must continue (the recipe takes another). */
  #snapshotTaken(symbol: string, body: string, lastUpdateId: number): boolean {
    this.#writer.write(symbol, this.#clock.nowMicros(), snapshotMessage(symbol, body));
    this.#stats.get(symbol)!.snapshots++;
    this.#onEvent({ type: 'snapshot', symbol, lastUpdateId });
    const track = this.#depth.get(symbol)!;
    track.snapshotId = lastUpdateId;
    if (track.syncFrom !== null && track.syncFrom > lastUpdateId + 1) return false;
    track.syncFrom = null;
    this.#snapshotBackoff.reset();
    const old = this.#snapshotTimers.get(symbol);
    if (old !== undefined) clearTimeout(old);
    const timer = setTimeout(() => this.#requestSnapshot(symbol), this.#snapshotEveryMs); // determinism-ok: the live recorder's snapshot period
    timer.unref();
    this.#snapshotTimers.set(symbol, timer);
    return true;
  }

  #note(note: (typeof RECORDER_NOTES)[keyof typeof RECORDER_NOTES], data: Record<string, unknown>, received = this.#clock.nowMicros()): void {
    const message = noteMessage(note, data);
    const symbol = typeof data.symbol === 'string' ? data.symbol : null;
    if (symbol !== null && this.#stats.has(symbol)) this.#writer.write(symbol, received, message);
    else this.#writer.writeAll(received, message);
  }
}

/** A diff event's first and last update id, or null when the message does not hold them. */
function depthIds(text: string): { U: number; u: number } | null {
  try {
    const { U, u } = (JSON.parse(text) as { data: { U?: unknown; u?: unknown } }).data;
    return typeof U === 'number' && typeof u === 'number' ? { U, u } : null;
  } catch {
    return null;
  }
}

/** The stream name at the front of a combined-stream message (`{"stream":"btcusdt@trade",...`), or null. */
function streamName(text: string): string | null {
  const start = '{"stream":"';
  if (!text.startsWith(start)) return null;
  const end = text.indexOf('"', start.length);
  const name = end < 0 ? '' : text.slice(start.length, end);
  return name.includes('@') ? name : null;
}
