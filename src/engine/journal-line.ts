/**
 * The journal line: one applied command with the events it produced, `{seq, command, events}` as
 * JSON, newline-terminated. The one writer of it: the engine's in-memory Journal, the replay's
 * hashing sink and the backtest's journal file all call `journalLine`, so their bytes (and the
 * SHA-256 the determinism tests compare) are the same by construction.
 *
 * (Not to be confused with the served exchange's write-ahead log, src/serve/durability, whose lines
 * are its inputs, nor with the backtest digest, src/backtest/backtest-digest.ts, a compact hash.)
 */
import type { EngineCommand, RecordMarketTrade } from './commands.ts';
import type { EngineEvent, MarketTradeRecorded } from './events.ts';

export interface JournalEntry {
  seq: number;
  command: EngineCommand;
  events: readonly EngineEvent[];
}

/** The line of entry `seq` (1-based), newline included. */
export function journalLine(seq: number, command: EngineCommand, events: readonly EngineEvent[]): string {
  if (command.type === 'RecordMarketTrade' && events.length === 1 && isPlainPrint(command, events[0]!)) return printLine(seq, command, events[0] as MarketTradeRecorded);
  // A replacer takes JSON.stringify off its fast path (~7x slower a line): only a depth message can hold a typed array.
  return command.type === 'ApplyDepth' ? `${JSON.stringify({ seq, command, events }, typedArraysAsLists)}\n` : `${JSON.stringify({ seq, command, events })}\n`;
}

// A replayed print (RecordMarketTrade answered by MarketTradeRecorded) is nearly every line of a
// backtest's journal: written out here, ~3x faster than JSON.stringify, with the same bytes. It is
// taken only for objects whose keys are exactly these, in this order, with values of these types
// (finite numbers, booleans, a symbol as JSON writes it), which is checked per line; anything else
// goes through JSON.stringify.
const PRINT_COMMAND_KEYS = ['type', 'time', 'symbol', 'price', 'quantity', 'isBuyerMaker', 'tradeId'];
const PRINT_EVENT_KEYS = ['type', 'time', 'symbol', 'tradeId', 'price', 'quantity', 'quoteQuantity', 'isBuyerMaker'];
const SYMBOL_TEXT = /^[A-Za-z0-9_.-]*$/;

function keysAre(o: object, keys: readonly string[], optionalLast: boolean): boolean {
  let i = 0;
  for (const key in o) if (key !== keys[i++]) return false;
  return i === keys.length || (optionalLast && i === keys.length - 1);
}

const finite = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x);

function isPlainPrint(c: RecordMarketTrade, e: EngineEvent): boolean {
  if (e.type !== 'MarketTradeRecorded' || !keysAre(c, PRINT_COMMAND_KEYS, true) || !keysAre(e, PRINT_EVENT_KEYS, false)) return false;
  if (!(finite(c.time) && finite(c.price) && finite(c.quantity) && typeof c.isBuyerMaker === 'boolean' && (c.tradeId === undefined || finite(c.tradeId)))) return false;
  if (!(finite(e.time) && finite(e.tradeId) && finite(e.price) && finite(e.quantity) && finite(e.quoteQuantity) && typeof e.isBuyerMaker === 'boolean')) return false;
  // (An explicit `tradeId: undefined` is left out, as JSON leaves it out.)
  return typeof c.symbol === 'string' && SYMBOL_TEXT.test(c.symbol) && typeof e.symbol === 'string' && SYMBOL_TEXT.test(e.symbol);
}

function printLine(seq: number, c: RecordMarketTrade, e: MarketTradeRecorded): string {
  const tradeId = c.tradeId === undefined ? '' : `,"tradeId":${c.tradeId}`;
  return (
    `{"seq":${seq},"command":{"type":"RecordMarketTrade","time":${c.time},"symbol":"${c.symbol}","price":${c.price},"quantity":${c.quantity},"isBuyerMaker":${c.isBuyerMaker}${tradeId}},` +
    `"events":[{"type":"MarketTradeRecorded","time":${e.time},"symbol":"${e.symbol}","tradeId":${e.tradeId},"price":${e.price},"quantity":${e.quantity},"quoteQuantity":${e.quoteQuantity},"isBuyerMaker":${e.isBuyerMaker}}]}\n`
  );
}

/**
 * The line of a print recorded through the replay's fast path (the RecordMarketTrade and its
 * MarketTradeRecorded that sim's `printEntry` would build, same time, symbol, price, quantity and
 * side in both), without the objects: `journalLine`'s bytes for them. Null when the line is not
 * of that plain form (a symbol JSON would escape, a number that is not finite): build the objects.
 */
export function printJournalLine(seq: number, time: number, symbol: string, price: number, quantity: number, isBuyerMaker: boolean, venueId: number | undefined, tradeId: number, quoteQuantity: number): string | null {
  if (!(SYMBOL_TEXT.test(symbol) && Number.isFinite(time) && Number.isFinite(price) && Number.isFinite(quantity) && Number.isFinite(tradeId) && Number.isFinite(quoteQuantity))) return null;
  if (venueId !== undefined && !Number.isFinite(venueId)) return null;
  const venue = venueId === undefined ? '' : `,"tradeId":${venueId}`;
  return (
    `{"seq":${seq},"command":{"type":"RecordMarketTrade","time":${time},"symbol":"${symbol}","price":${price},"quantity":${quantity},"isBuyerMaker":${isBuyerMaker}${venue}},` +
    `"events":[{"type":"MarketTradeRecorded","time":${time},"symbol":"${symbol}","tradeId":${tradeId},"price":${price},"quantity":${quantity},"quoteQuantity":${quoteQuantity},"isBuyerMaker":${isBuyerMaker}}]}\n`
  );
}

/** A depth message's levels may come as a Float64Array: written as the JSON list a plain array would be. */
function typedArraysAsLists(_key: string, value: unknown): unknown {
  return value instanceof Float64Array ? Array.from(value) : value;
}
