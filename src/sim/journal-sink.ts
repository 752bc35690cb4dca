/**
 * Where the replay journals every command it applies, with the events it caused. The engine's
 * in-memory `Journal` is one (it keeps every entry: right for tests and short runs, and
 * `rebuildFromJournal` can replay it); `JournalHasher` is the one for long replays: it keeps
 * nothing but a running SHA-256 of the same JSON lines, so memory stays flat in the tape's
 * length and the hash equals `Journal.hash()` of the same entries.
 */
import { createHash } from 'node:crypto';
import type { EngineCommand, EngineEvent } from '../engine/index.ts';

export interface JournalSink {
  record(command: EngineCommand, events: readonly EngineEvent[]): void;
}

export class JournalHasher implements JournalSink {
  readonly #hash = createHash('sha256');
  #entries = 0;

  /** Entries recorded so far. */
  get entries(): number {
    return this.#entries;
  }

  record(command: EngineCommand, events: readonly EngineEvent[]): void {
    // Byte for byte the line Journal.toJsonLines writes for the same entry.
    this.#hash.update(`${JSON.stringify({ seq: ++this.#entries, command, events })}\n`);
  }

  /** SHA-256 hex of everything recorded so far (recording may continue afterwards). */
  hash(): string {
    return this.#hash.copy().digest('hex');
  }
}
