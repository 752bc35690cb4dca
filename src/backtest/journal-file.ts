/**
 * The backtest's journal on disk (`backtest --journal`; scenarios hash it without a file): every
 * engine command with its events, one journal line each (engine/journal-line.ts, so
 * `rebuildFromJournal` can read it back), gzip-compressed
 * because a day with a synthetic book is about a million lines.
 *
 * Written synchronously in 4 MiB members (a gzip file may hold several; gunzip and zcat read
 * them as one stream), so memory stays flat and the bytes depend only on the lines: the same
 * run writes the same file. The SHA-256 is of the uncompressed lines, the `JournalHasher` hash,
 * which is what the determinism tests compare.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { journalLine, type EngineCommand, type EngineEvent } from '../engine/index.ts';
import { JournalHasher, type JournalSink, type MarketDecision } from '../sim/index.ts';

const MEMBER_CHARS = 1024 * 1024;

export class JournalFile implements JournalSink {
  readonly #hash = createHash('sha256');
  readonly #decisions = new JournalHasher();
  #entries = 0;
  readonly #fd: number | null;
  #pending: string[] = [];
  #pendingChars = 0;

  /** `path` null: hash only (sweeps). */
  constructor(path: string | null) {
    this.#fd = path === null ? null : openSync(path, 'w');
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
    return this.#hash.copy().digest('hex');
  }

  /** SHA-256 hex of the market model's non-fill decisions (JournalHasher.decisionsHash). */
  decisionsHash(): string {
    return this.#decisions.decisionsHash();
  }

  /** Writes what is pending and closes the file. */
  close(): void {
    this.#flush();
    if (this.#fd !== null) closeSync(this.#fd);
  }

  #flush(): void {
    if (this.#pending.length === 0) return;
    const chunk = this.#pending.join('');
    this.#hash.update(chunk);
    if (this.#fd !== null) writeSync(this.#fd, gzipSync(chunk, { level: 6 }));
    this.#pending = [];
    this.#pendingChars = 0;
  }
}
