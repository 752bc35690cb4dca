/**
 * The two commands of the synthetic book: set it up (or remove it), and anchor it on a mid.
 * Prints anchor it on their own (record-market-trade.ts, fill-from-market.ts).
 */
import type { SetSyntheticAnchor, SetSyntheticBook } from '../commands.ts';
import type { EngineState } from '../engine-state.ts';
import { profileProblem, SyntheticLadder } from './synthetic-ladder.ts';
import { DepthBook } from './depth-book.ts';

export function setSyntheticBook(state: EngineState, command: SetSyntheticBook): void {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return state.reject(command, 'UNKNOWN_SYMBOL');
  const profile = command.profile;
  if (profile !== null && (typeof command.seed !== 'string' || profileProblem(profile) !== null)) return state.reject(command, 'INVALID_AMOUNT');
  symbol.liquidity = profile === null ? null : new SyntheticLadder(profile, command.seed, command.symbol, symbol.spec.stepUnits);
  state.emit({ type: 'SyntheticBookChanged', time: command.time, symbol: command.symbol, active: profile !== null, anchorPrice: null });
}

export function setSyntheticAnchor(state: EngineState, command: SetSyntheticAnchor): void {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return state.reject(command, 'UNKNOWN_SYMBOL');
  const liquidity = symbol.liquidity;
  const flowBook = liquidity instanceof DepthBook && liquidity.flow !== null ? liquidity : null;
  if (!(liquidity instanceof SyntheticLadder) && flowBook === null) return state.reject(command, 'INVALID_AMOUNT');
  if (!(Number.isSafeInteger(command.price) && command.price > 0)) return state.reject(command, 'INVALID_AMOUNT');
  const mid = Math.max(1, Math.floor(command.price / symbol.spec.tickUnits));
  if (flowBook !== null) flowBook.flow!.startEpoch(mid);
  else (liquidity as SyntheticLadder).setMid(mid);
  // A replay that starts before its first print: the anchor is the market's price before the
  // window, which the average-price rules (MARKET notional, avgPrice) fall back to as Binance's
  // do on the trade before theirs, so a MARKET order at the first instant is judged too.
  symbol.window.seedLastPrice(command.price);
  state.emit({ type: 'SyntheticBookChanged', time: command.time, symbol: command.symbol, active: true, anchorPrice: command.price });
}
