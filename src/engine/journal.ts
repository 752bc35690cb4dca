/**
 * The event journal: every applied command with the events it produced, in order. The engine is
 * event-sourced on its inputs (as LMAX journals input commands): the state is rebuilt exactly by
 * re-applying the journaled commands to a fresh engine with the same config, and the rebuild is
 * verified by comparing the events it produces with the journaled ones and the state hashes.
 */
import { createHash } from 'node:crypto';
import type { EngineCommand } from './commands.ts';
import { Engine } from './engine.ts';
import type { EngineEvent } from './events.ts';
import { journalLine, type JournalEntry } from './journal-line.ts';
import type { EngineConfig } from './symbol-config.ts';

export class Journal {
  readonly entries: JournalEntry[] = [];

  record(command: EngineCommand, events: readonly EngineEvent[]): void {
    this.entries.push({ seq: this.entries.length + 1, command, events });
  }

  /** One journal line per entry (journal-line.ts): the journal's on-disk form. */
  toJsonLines(): string {
    return this.entries.map((e) => journalLine(e.seq, e.command, e.events)).join('');
  }

  /** SHA-256 of the JSON-lines form. */
  hash(): string {
    return createHash('sha256').update(this.toJsonLines()).digest('hex');
  }

  static fromJsonLines(text: string): Journal {
    const journal = new Journal();
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const entry = JSON.parse(line) as JournalEntry;
      journal.record(entry.command, entry.events);
    }
    return journal;
  }
}

/** An engine that journals every command it applies. */
export class JournaledEngine {
  readonly engine: Engine;
  readonly journal: Journal;

  constructor(config: EngineConfig, journal = new Journal()) {
    this.engine = new Engine(config);
    this.journal = journal;
  }

  apply(command: EngineCommand): readonly EngineEvent[] {
    const events = this.engine.apply(command);
    this.journal.record(command, events);
    return events;
  }
}

/**
 * Rebuilds an engine from a journal. Throws if re-applying a command does not reproduce the
 * journaled events (the journal was edited, or determinism is broken).
 */
export function rebuildFromJournal(config: EngineConfig, journal: Journal): Engine {
  const engine = new Engine(config);
  for (const entry of journal.entries) {
    const events = engine.apply(entry.command);
    const expected = JSON.stringify(entry.events);
    const actual = JSON.stringify(events);
    if (expected !== actual) {
      throw new Error(`journal entry ${entry.seq} does not replay: expected ${expected}, got ${actual}`);
    }
  }
  return engine;
}
