/**
 * RecordMarketTrade: a trade from outside the book joins the symbol's tape (next trade id, last
 * price, recent trades, the average-price window), exactly as one of the engine's own trades
 * would, so stops, filters and market data see one consistent tape.
 */
import type { RecordMarketTrade } from './commands.ts';
import type { EngineState, SymbolState } from './engine-state.ts';
import { triggerHolds } from './conditional/stop-rules.ts';
import { mulDivFloor } from './exact-math.ts';
import { pow10 } from './units.ts';

export function recordMarketTrade(state: EngineState, command: RecordMarketTrade): void {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return state.reject(command, 'UNKNOWN_SYMBOL');
  const { price, quantity } = command;
  if (!(Number.isSafeInteger(price) && price > 0 && Number.isSafeInteger(quantity) && quantity > 0)) {
    return state.reject(command, 'INVALID_AMOUNT');
  }
  const quote = mulDivFloor(price, quantity, pow10(symbol.spec.basePrecision));
  const tradeId = notePrint(symbol, command.time, price, quantity, command.isBuyerMaker, command.tradeId, quote, true);
  state.emit({
    type: 'MarketTradeRecorded',
    time: command.time,
    symbol: command.symbol,
    tradeId,
    price,
    quantity,
    quoteQuantity: quote,
    isBuyerMaker: command.isBuyerMaker,
  });
}

/**
 * Whether a print at `price` is quiet: a valid amount that reaches no waiting stop and moves no
 * trailing one, so `recordMarketTrade` would emit its MarketTradeRecorded and nothing else (the
 * contingency pass would find nothing to do). Reads only.
 */
export function quietPrint(symbol: SymbolState, price: number, quantity: number): boolean {
  if (!(Number.isSafeInteger(price) && price > 0 && Number.isSafeInteger(quantity) && quantity > 0)) return false;
  if (symbol.listActivity.length !== 0 || symbol.isDirty) return false;
  const stops = symbol.stops;
  for (let i = 0; i < stops.length; i++) {
    const order = stops[i]!;
    const ext = order.ext!;
    // A trailing stop's state moves with the prices: the full path.
    if (ext.trailingDelta !== 0 || triggerHolds(order.type, order.isBuy, ext.stopPrice, price)) return false;
  }
  return true;
}

/**
 * What a recorded print changes, as `recordMarketTrade` and the replay's fast path (Engine.recordPrint) both do it:
 * the liquidity's anchor, the trade id, the tape, the average-price window. Returns the trade id.
 */
export function notePrint(symbol: SymbolState, time: number, price: number, quantity: number, isBuyerMaker: boolean, venueId: number | undefined, quote: number, checkStops: boolean): number {
  // The book's liquidity follows the tape (O(1) for the ladder, drawn only when something reads it).
  if (symbol.liquidity !== null) symbol.liquidity.notePrint(Math.floor(price / symbol.spec.tickUnits), Math.floor(quantity / symbol.spec.stepUnits), !isBuyerMaker);
  if (venueId !== undefined && Number.isSafeInteger(venueId) && venueId >= symbol.nextTradeId) symbol.nextTradeId = venueId;
  const tradeId = symbol.nextTradeId++;
  symbol.recordPrintTrade(tradeId, price, quantity, quote, time, isBuyerMaker, checkStops);
  symbol.window.record(time, price, quote, quantity);
  return tradeId;
}
