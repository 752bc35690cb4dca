/**
 * The journal line: one applied command with the events it produced, `{seq, command, events}` as
 * JSON, newline-terminated. The one writer of it: the engine's in-memory Journal, the replay's
 * hashing sink and the backtest's journal file all call `journalLine`, so their bytes (and the
 * SHA-256 the determinism tests compare) are the same by construction.
 *
 * (Not to be confused with the served exchange's write-ahead log, src/serve/durability, whose lines
 * are its inputs, nor with the backtest digest, src/backtest/backtest-digest.ts, a compact hash.)
 */
import type { EngineCommand } from './commands.ts';
import type { EngineEvent } from './events.ts';

export interface JournalEntry {
  seq: number;
  command: EngineCommand;
  events: readonly EngineEvent[];
}

/** The line of entry `seq` (1-based), newline included. */
export function journalLine(seq: number, command: EngineCommand, events: readonly EngineEvent[]): string {
  return `${JSON.stringify({ seq, command, events }, typedArraysAsLists)}\n`;
}

/** A depth message's levels may come as a Float64Array: written as the JSON list a plain array would be. */
function typedArraysAsLists(_key: string, value: unknown): unknown {
  return value instanceof Float64Array ? Array.from(value) : value;
}
