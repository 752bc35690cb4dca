/**
 * Where the replay journals every command it applies, with the events it caused. The engine's
 * in-memory `Journal` is one (it keeps every entry: right for tests and short runs, and
 * `rebuildFromJournal` can replay it); `JournalHasher` is the one for long replays: it keeps
 * nothing but a running SHA-256 of the same JSON lines, so memory stays flat in the tape's
 * length and the hash equals `Journal.hash()` of the same entries.
 */
import { createHash } from 'node:crypto';
import { Journal, journalLine, printJournalLine, type EngineCommand, type EngineEvent, type MarketTradeRecorded, type RecordMarketTrade } from '../engine/index.ts';
import type { MarketDecision } from './replay.ts';

export interface JournalSink {
  record(command: EngineCommand, events: readonly EngineEvent[]): void;
  /**
   * A market-model decision that changed nothing in the engine (a queue estimate, a print that
   * stopped at an order's price): journaled so every non-fill a user may question is explained.
   * Optional: the engine's `Journal` keeps commands only, since a rebuild replays commands.
   */
  decision?(decision: MarketDecision): void;
  /**
   * A print the replay recorded through the engine's fast path (`Engine.recordPrint`): the entry
   * `record` would get, a RecordMarketTrade answered by its MarketTradeRecorded alone (`printEntry`
   * builds those objects). Optional: the replay builds them and calls `record` when it is absent.
   */
  recordPrint?(time: number, symbol: string, price: number, quantity: number, isBuyerMaker: boolean, venueId: number | undefined, tradeId: number, quoteQuantity: number): void;
}

/** The RecordMarketTrade and MarketTradeRecorded of a print recorded through the fast path, as the full path has them (same keys, same order). */
export function printEntry(
  time: number,
  symbol: string,
  price: number,
  quantity: number,
  isBuyerMaker: boolean,
  venueId: number | undefined,
  tradeId: number,
  quoteQuantity: number,
): { command: RecordMarketTrade; events: [MarketTradeRecorded] } {
  const command: RecordMarketTrade =
    venueId === undefined
      ? { type: 'RecordMarketTrade', time, symbol, price, quantity, isBuyerMaker }
      : { type: 'RecordMarketTrade', time, symbol, price, quantity, isBuyerMaker, tradeId: venueId };
  return { command, events: [{ type: 'MarketTradeRecorded', time, symbol, tradeId, price, quantity, quoteQuantity, isBuyerMaker }] };
}

export class JournalHasher implements JournalSink {
  readonly #hash = createHash('sha256');
  #entries = 0;

  /** Entries recorded so far. */
  get entries(): number {
    return this.#entries;
  }

  record(command: EngineCommand, events: readonly EngineEvent[]): void {
    this.#hash.update(journalLine(++this.#entries, command, events));
  }

  recordPrint(time: number, symbol: string, price: number, quantity: number, isBuyerMaker: boolean, venueId: number | undefined, tradeId: number, quoteQuantity: number): void {
    const line = printJournalLine(this.#entries + 1, time, symbol, price, quantity, isBuyerMaker, venueId, tradeId, quoteQuantity);
    if (line === null) {
      const entry = printEntry(time, symbol, price, quantity, isBuyerMaker, venueId, tradeId, quoteQuantity);
      return this.record(entry.command, entry.events);
    }
    this.#entries++;
    this.#hash.update(line);
  }

  readonly #decisionHash = createHash('sha256');
  #decisions = 0;

  /** Decisions get their own running hash: `hash()` stays equal to `Journal.hash()`. */
  decision(decision: MarketDecision): void {
    this.#decisionHash.update(`${JSON.stringify({ seq: ++this.#decisions, afterCommand: this.#entries, decision })}\n`);
  }

  /** SHA-256 hex of the decisions recorded so far. */
  decisionsHash(): string {
    return this.#decisionHash.copy().digest('hex');
  }

  /** SHA-256 hex of everything recorded so far (recording may continue afterwards). */
  hash(): string {
    return this.#hash.copy().digest('hex');
  }
}

/**
 * The replay's default journal: the engine's `Journal` (commands with their events, which
 * `rebuildFromJournal` replays) plus the market model's non-fill decisions, each placed after
 * the command it followed, so a fill that did not happen is explained as well as one that did.
 */
export class ReplayJournal extends Journal implements JournalSink {
  readonly decisions: { afterCommand: number; decision: MarketDecision }[] = [];

  decision(decision: MarketDecision): void {
    this.decisions.push({ afterCommand: this.entries.length, decision });
  }

  /** Commands and decisions in the order they happened, one JSON object per line. */
  toExplainedJsonLines(): string {
    const lines: string[] = [];
    let next = 0;
    for (const entry of this.entries) {
      while (next < this.decisions.length && (this.decisions[next] as { afterCommand: number }).afterCommand < entry.seq) {
        lines.push(JSON.stringify({ decision: (this.decisions[next] as { decision: unknown }).decision }));
        next += 1;
      }
      lines.push(JSON.stringify(entry));
    }
    for (; next < this.decisions.length; next++) lines.push(JSON.stringify({ decision: (this.decisions[next] as { decision: unknown }).decision }));
    return lines.join('\n') + (lines.length > 0 ? '\n' : '');
  }
}
