/**
 * The backtest digest, a run's default record (summary.json `journal`): no file, a streaming SHA-256 over a compact binary encoding of
 * every engine command and its events, plus what a run needs to be reproduced (the tape's
 * fingerprint and the strategy's own commands). The full JSON-lines journal (`JournalFile`) is
 * written only on request (`--journal`): stringifying a million entries was a third of a
 * backtest's CPU.
 *
 * The encoding, written into a Float64Array that is hashed whenever it fills:
 * - numbers as they are (the engine's amounts, ids and times are integers);
 * - a string as one slot marking its length, its text appended to a text stream (interning
 *   values cost more than it saved: most strings are fresh client order ids);
 * - booleans, null and structure as non-integer marker values, which no engine number takes, and
 *   every object key interned (one slot; its text once, at first sight), so two different entries
 *   never encode alike;
 * - the replay's per-print entry (RecordMarketTrade answered by MarketTradeRecorded) as one fixed
 *   8-slot row, and its per-depth-message entry (ApplyDepth answered by nothing) as a row of its
 *   time, symbol, clear flag, the two sides' lengths and their numbers.
 * Strings' text is a second stream: whenever either fills, the pending slots are hashed, then the
 * pending text, so the digest is a pure function of the entries (hashing per string would cost
 * more than the rest of the encoding). It is not the SHA-256 of the JSON
 * lines (`JournalFile.hash()`); it is what `summary.json` reports as the run's journal hash.
 */
import type { EngineCommand, EngineEvent } from '../engine/index.ts';
import { printEntry, type JournalSink, type MarketDecision } from '../sim/index.ts';
import { ThreadedSha256 } from './hash-thread.ts';

const SLOTS = 32_768; // 256 KiB per hash update
const TEXT_CHUNK = 65_536;

// Markers: never an integer, never a key id (-(id + 0.5)), never a string's length mark (TEXT - length).
const TRUE = -0.25;
const FALSE = -0.75;
const NULL = -0.125;
const OBJECT = -0.375;
const END = -0.625;
const ARRAY = -0.875;
const TEXT = -0.0625; // a string of length n: TEXT - n
const ENTRY = -0.3125;
const PRINT = -0.4375;
const DECISION = -0.5625;
const DEPTH = -0.6875;

/** A streaming hash of numbers and strings in the encoding described above. */
class CompactHash {
  // Hashed on a thread of its own once large (hash-thread.ts): ~110 bytes a print, seconds of SHA-256 a month.
  readonly #hash = new ThreadedSha256();
  #slots = new Float64Array(SLOTS);
  #n = 0;
  #text = '';
  readonly #keys = new Map<string, number>();
  #lastKey: string | null = null;
  #lastKeySlot = 0;

  num(value: number): void {
    this.#slots[this.#n++] = value;
    if (this.#n === SLOTS) this.#flush();
  }

  /** Five numbers at once, as five `num`s (a print's row: one bounds check instead of five calls). */
  five(a: number, b: number, c: number, d: number, e: number): void {
    let n = this.#n;
    if (n + 5 > SLOTS) {
      this.num(a);
      this.num(b);
      this.num(c);
      this.num(d);
      this.num(e);
      return;
    }
    const slots = this.#slots;
    slots[n++] = a;
    slots[n++] = b;
    slots[n++] = c;
    slots[n++] = d;
    slots[n++] = e;
    this.#n = n;
    if (n === SLOTS) this.#flush();
  }

  /** A string value: its length in the slots, its text in the text stream. */
  str(value: string): void {
    this.num(TEXT - value.length);
    // Hashed after the slots written before it, a chunk at a time.
    this.#text += value;
    if (this.#text.length >= TEXT_CHUNK) this.#flush();
  }

  /** An object key or a symbol (from a small fixed set): one slot, its text once. */
  key(name: string): void {
    // A print's symbol comes twice a print: the last key's slot is kept (a name's id never changes).
    if (name === this.#lastKey) return this.num(this.#lastKeySlot);
    const id = this.#keys.get(name);
    if (id !== undefined) {
      this.#lastKey = name;
      this.#lastKeySlot = -(id + 0.5);
      return this.num(this.#lastKeySlot);
    }
    const next = this.#keys.size;
    this.#keys.set(name, next);
    this.num(-(next + 0.5));
    this.#text += name; // after the slot: a flush the slot sets off must not take the text with it
  }

  value(value: unknown): void {
    switch (typeof value) {
      case 'number':
        return this.num(value);
      case 'string':
        return this.str(value);
      case 'boolean':
        return this.num(value ? TRUE : FALSE);
      case 'object':
        if (value === null) return this.num(NULL);
        if (Array.isArray(value)) {
          this.num(ARRAY);
          this.num(value.length);
          for (const item of value) this.value(item);
          return;
        }
        this.num(OBJECT);
        for (const key in value) {
          const field = (value as Record<string, unknown>)[key];
          if (field === undefined) continue;
          this.key(key);
          this.value(field);
        }
        return this.num(END);
      default:
        return; // undefined (an absent optional field) and functions are not data
    }
  }

  digest(): string {
    this.#flush();
    return this.#hash.digest();
  }

  #flush(): void {
    const n = this.#n;
    const text = this.#text;
    if (n === 0 && text.length === 0) return;
    // The slots' buffer goes to the hash (it may move to the hashing thread): a fresh one takes its place.
    let bytes: ArrayBuffer | null = null;
    if (n === SLOTS) {
      bytes = this.#slots.buffer as ArrayBuffer;
      this.#slots = new Float64Array(SLOTS);
    } else if (n > 0) {
      bytes = this.#slots.buffer.slice(0, n * 8) as ArrayBuffer;
    }
    this.#n = 0;
    this.#text = '';
    this.#hash.update(bytes, text.length > 0 ? text : null);
  }
}

export interface BacktestDigestOptions {
  /** The strategy's account: its commands are kept (the run's inputs besides the tape and the seed). */
  readonly strategyAccountId: number;
  /** Also write every entry here (the full journal file, `--journal`). */
  readonly tee?: JournalSink | null;
}

export class BacktestDigest implements JournalSink {
  readonly #entries = new CompactHash();
  readonly #decisions = new CompactHash();
  readonly #tape = new CompactHash();
  readonly #strategy = new CompactHash();
  readonly #strategyAccountId: number;
  readonly #tee: JournalSink | null;
  /** The strategy's commands in the order applied (with their simulated time). */
  readonly strategyCommands: EngineCommand[] = [];
  #count = 0;
  #decisionCount = 0;
  #prints = 0;

  constructor(options: BacktestDigestOptions) {
    this.#strategyAccountId = options.strategyAccountId;
    this.#tee = options.tee ?? null;
  }

  /** Entries (commands) recorded. */
  get entries(): number {
    return this.#count;
  }

  get prints(): number {
    return this.#prints;
  }

  record(command: EngineCommand, events: readonly EngineEvent[]): void {
    this.#tee?.record(command, events);
    this.#count++;
    const h = this.#entries;
    if (command.type === 'RecordMarketTrade' && events.length === 1) {
      const e = events[0]!;
      if (e.type === 'MarketTradeRecorded' && e.time === command.time && e.price === command.price && e.quantity === command.quantity && e.isBuyerMaker === command.isBuyerMaker && e.symbol === command.symbol) {
        h.num(PRINT);
        h.num(command.time);
        h.key(command.symbol); // a symbol: one of a few names
        h.five(command.price, command.quantity, command.isBuyerMaker ? TRUE : FALSE, e.tradeId, e.quoteQuantity);
        return;
      }
    }
    if (command.type === 'ApplyDepth' && events.length === 0) {
      // Millions of these on a recorded day: numbers straight into the slots, no keys or markers per field.
      h.num(DEPTH);
      h.num(command.time);
      h.key(command.symbol);
      h.num(command.clear ? TRUE : FALSE);
      const { bids, asks } = command;
      h.num(bids.length);
      for (let i = 0; i < bids.length; i++) h.num(bids[i]!);
      h.num(asks.length);
      for (let i = 0; i < asks.length; i++) h.num(asks[i]!);
      return;
    }
    h.num(ENTRY);
    h.value(command);
    h.value(events);
    if ('accountId' in command && command.accountId === this.#strategyAccountId) {
      this.strategyCommands.push(command);
      this.#strategy.value(command);
    }
  }

  /** The replay's fast path: the same encoding `record` gives a RecordMarketTrade answered by its MarketTradeRecorded alone. */
  recordPrint(time: number, symbol: string, price: number, quantity: number, isBuyerMaker: boolean, venueId: number | undefined, tradeId: number, quoteQuantity: number): void {
    const tee = this.#tee;
    if (tee !== null) {
      if (tee.recordPrint !== undefined) tee.recordPrint(time, symbol, price, quantity, isBuyerMaker, venueId, tradeId, quoteQuantity);
      else {
        const entry = printEntry(time, symbol, price, quantity, isBuyerMaker, venueId, tradeId, quoteQuantity);
        tee.record(entry.command, entry.events);
      }
    }
    this.#count++;
    const h = this.#entries;
    h.num(PRINT);
    h.num(time);
    h.key(symbol);
    h.five(price, quantity, isBuyerMaker ? TRUE : FALSE, tradeId, quoteQuantity);
  }

  decision(decision: MarketDecision): void {
    this.#tee?.decision?.(decision);
    this.#decisionCount++;
    const h = this.#decisions;
    h.num(DECISION);
    h.num(this.#count);
    h.num(decision.time);
    h.str(decision.symbol);
    h.num(decision.orderId);
    h.str(decision.reason);
  }

  /** One print of the tape as the data gave it (the data's fingerprint, whatever the strategy did). */
  print(symbol: string, tapeId: number, time: number, price: number, qty: number, isBuyerMaker: boolean): void {
    this.#prints++;
    const h = this.#tape;
    h.key(symbol);
    h.five(tapeId, time, price, qty, isBuyerMaker ? TRUE : FALSE);
  }

  /** SHA-256 hex of the compact encoding of every entry so far. */
  hash(): string {
    return this.#entries.digest();
  }

  decisionsHash(): string {
    return this.#decisions.digest();
  }

  /** SHA-256 hex of the replayed prints (symbol, tape id, time, price, quantity, side). */
  tapeHash(): string {
    return this.#tape.digest();
  }

  /** SHA-256 hex of the strategy's commands. */
  strategyHash(): string {
    return this.#strategy.digest();
  }
}
