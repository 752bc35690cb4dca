/**
 * RecordMarketTrade: a trade from outside the book joins the symbol's tape (next trade id, last
 * price, recent trades, the average-price window), exactly as one of the engine's own trades
 * would, so stops, filters and market data see one consistent tape.
 */
import type { RecordMarketTrade } from './commands.ts';
import type { EngineState } from './engine-state.ts';
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
  // The book's liquidity follows the tape (O(1) for the ladder, drawn only when something reads it).
  if (symbol.liquidity !== null) symbol.liquidity.notePrint(Math.floor(price / symbol.spec.tickUnits), Math.floor(quantity / symbol.spec.stepUnits), !command.isBuyerMaker);
  const venueId = command.tradeId;
  if (venueId !== undefined && Number.isSafeInteger(venueId) && venueId >= symbol.nextTradeId) symbol.nextTradeId = venueId;
  const tradeId = symbol.nextTradeId++;
  symbol.recordTrade({ tradeId, price, qty: quantity, quote, time: command.time, isBuyerMaker: command.isBuyerMaker });
  symbol.window.record(command.time, price, quote, quantity);
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
