/**
 * The backtest's journal on disk (`backtest --journal`; scenarios hash it without a file): every
 * engine command with its events, one journal line each (engine/journal-line.ts, so
 * `rebuildFromJournal` can read it back), gzip-compressed
 * because a day with a synthetic book is about a million lines.
 *
 * Written in members of about 1M characters (a gzip file may hold several; gunzip and zcat read
 * them as one stream), so memory stays flat and the bytes depend only on the lines: the same
 * run writes the same file. The SHA-256 is of the uncompressed lines, the `JournalHasher` hash,
 * which is what the determinism tests compare. Hashing, compressing and writing happen on the
 * hashing thread (hash-thread.ts), in the order the members were made; the replay only writes
 * the lines. `close` waits until the file is complete.
 */
import { journalLine, printJournalLine, type EngineCommand, type EngineEvent } from '../engine/index.ts';
import { JournalHasher, printEntry, type JournalSink, type MarketDecision } from '../sim/index.ts';
import { hashThread, ThreadedSha256 } from './hash-thread.ts';

const MEMBER_CHARS = 1024 * 1024;

/** A member's bytes: about 1 MiB of lines (a line is never split), written straight into a buffer that then moves to the hashing thread. */
const MEMBER_BYTES = 1 << 20;

export class JournalFile implements JournalSink {
  readonly #decisions = new JournalHasher();
  #entries = 0;
  /** With a file: the thread's stream that hashes, gzips and writes each member. */
  readonly #file: number | null;
  /** Hash only: the lines' text, hashed in chunks (a stream that moves to the thread once large). */
  readonly #hash: ThreadedSha256 | null;
  #closed = false;
  #pending: string[] = [];
  #pendingChars = 0;
  #member: Buffer = Buffer.alloc(0);
  #used = 0;

  /** `path` null: hash only (sweeps, scenarios). */
  constructor(path: string | null) {
    // gzip level 1: ~4x level 6's speed for ~1.4x its size (a day is ~500 MB of lines); the hash is of the lines, whatever the level.
    this.#file = path === null ? null : hashThread().open(path, 1);
    this.#hash = path === null ? new ThreadedSha256() : null;
    if (path !== null) this.#member = Buffer.from(new ArrayBuffer(MEMBER_BYTES + MEMBER_BYTES / 2));
  }

  get entries(): number {
    return this.#entries;
  }

  record(command: EngineCommand, events: readonly EngineEvent[]): void {
    this.#write(journalLine(++this.#entries, command, events));
  }

  /** The replay's fast path: the line `record` writes for the print's RecordMarketTrade and MarketTradeRecorded, without the objects. */
  recordPrint(time: number, symbol: string, price: number, quantity: number, isBuyerMaker: boolean, venueId: number | undefined, tradeId: number, quoteQuantity: number): void {
    const line = printJournalLine(this.#entries + 1, time, symbol, price, quantity, isBuyerMaker, venueId, tradeId, quoteQuantity);
    if (line === null) {
      const entry = printEntry(time, symbol, price, quantity, isBuyerMaker, venueId, tradeId, quoteQuantity);
      return this.record(entry.command, entry.events);
    }
    this.#entries++;
    this.#write(line);
  }

  #write(line: string): void {
    if (this.#file !== null) {
      // UTF-8 takes at most 3 bytes per UTF-16 unit: room for that, else the member goes first.
      if (this.#used + line.length * 3 > this.#member.length) {
        this.#flush();
        if (line.length * 3 > this.#member.length) this.#member = Buffer.from(new ArrayBuffer(line.length * 3));
      }
      this.#used += this.#member.write(line, this.#used);
      if (this.#used >= MEMBER_BYTES) this.#flush();
      return;
    }
    // Hashed a chunk at a time (same bytes, same digest; a million small updates cost a second).
    this.#pending.push(line);
    this.#pendingChars += line.length;
    if (this.#pendingChars >= MEMBER_CHARS) this.#flush();
  }

  decision(decision: MarketDecision): void {
    this.#decisions.decision(decision);
  }

  /** SHA-256 hex of the journal lines. */
  hash(): string {
    this.#flush();
    return this.#file === null ? this.#hash!.digest() : hashThread().ask('digest', this.#file);
  }

  /** SHA-256 hex of the market model's non-fill decisions (JournalHasher.decisionsHash). */
  decisionsHash(): string {
    return this.#decisions.decisionsHash();
  }

  /** Writes what is pending and closes the file (waits until the thread has written it all). */
  close(): void {
    this.#flush();
    if (this.#file !== null && !this.#closed) hashThread().ask('close', this.#file);
    this.#closed = true;
  }

  #flush(): void {
    if (this.#file !== null) {
      if (this.#used === 0) return;
      // The member's buffer moves to the thread (no copy); a fresh one takes its place.
      const bytes = this.#member.buffer as ArrayBuffer;
      hashThread().post({ op: 'update', id: this.#file, bytes, length: this.#used }, [bytes]);
      this.#member = Buffer.from(new ArrayBuffer(Math.max(MEMBER_BYTES + MEMBER_BYTES / 2, this.#member.length)));
      this.#used = 0;
      return;
    }
    if (this.#pending.length === 0) return;
    this.#hash!.update(null, this.#pending.join(''));
    this.#pending = [];
    this.#pendingChars = 0;
  }
}
