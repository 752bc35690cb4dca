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
import { openSync } from 'node:fs';
import { journalLine, type EngineCommand, type EngineEvent } from '../engine/index.ts';
import { JournalHasher, type JournalSink, type MarketDecision } from '../sim/index.ts';
import { hashThread, ThreadedSha256 } from './hash-thread.ts';

const MEMBER_CHARS = 1024 * 1024;

export class JournalFile implements JournalSink {
  readonly #decisions = new JournalHasher();
  #entries = 0;
  /** With a file: the thread's stream that hashes, gzips and writes each member. Hash only: a stream that moves there once large. */
  readonly #file: number | null;
  readonly #hash: ThreadedSha256 | null;
  #closed = false;
  #pending: string[] = [];
  #pendingChars = 0;

  /** `path` null: hash only (sweeps, scenarios). */
  constructor(path: string | null) {
    this.#file = path === null ? null : hashThread().open(openSync(path, 'w'), 6);
    this.#hash = path === null ? new ThreadedSha256() : null;
  }

  get entries(): number {
    return this.#entries;
  }

  record(command: EngineCommand, events: readonly EngineEvent[]): void {
    const line = journalLine(++this.#entries, command, events);
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

  /** Writes what is pending and closes the file. */
  close(): void {
    this.#flush();
    if (this.#file !== null && !this.#closed) hashThread().ask('close', this.#file);
    this.#closed = true;
  }

  #flush(): void {
    if (this.#pending.length === 0) return;
    const chunk = this.#pending.join('');
    if (this.#file === null) this.#hash!.update(null, chunk);
    else hashThread().post({ op: 'update', id: this.#file, text: chunk });
    this.#pending = [];
    this.#pendingChars = 0;
  }
}
