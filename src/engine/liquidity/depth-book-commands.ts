/**
 * The depth book's two commands: give a symbol a depth book, and apply one depth message to it.
 * A message is checked whole before anything changes (a refused message changes nothing).
 */
import type { ApplyDepth, SetDepthBook, SetOrderFlowBook } from '../commands.ts';
import type { EngineState } from '../engine-state.ts';
import { DepthBook } from './depth-book.ts';
import { flowProfileProblem, OrderFlowProcess } from './order-flow.ts';

export function setDepthBook(state: EngineState, command: SetDepthBook): void {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return state.reject(command, 'UNKNOWN_SYMBOL');
  if (command.mode !== null && command.mode !== 'recorded' && command.mode !== 'flow') return state.reject(command, 'INVALID_AMOUNT');
  symbol.liquidity = command.mode === null ? null : new DepthBook(command.mode);
  state.emit({ type: 'DepthBookSet', time: command.time, symbol: command.symbol, mode: command.mode });
}

export function setOrderFlowBook(state: EngineState, command: SetOrderFlowBook): void {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return state.reject(command, 'UNKNOWN_SYMBOL');
  const profile = command.profile;
  if (profile !== null && (typeof command.seed !== 'string' || flowProfileProblem(profile) !== null)) return state.reject(command, 'INVALID_AMOUNT');
  if (profile === null) symbol.liquidity = null;
  else {
    const book = new DepthBook('flow');
    book.flow = new OrderFlowProcess(profile, command.seed, command.symbol, symbol.spec.stepUnits);
    book.flow.passTime(command.time);
    symbol.liquidity = book;
  }
  state.emit({ type: 'DepthBookSet', time: command.time, symbol: command.symbol, mode: profile === null ? null : 'flow' });
}

/**
 * Lets every order-flow book's time reach `time` (µs): each step boundary passed counts as one
 * update of the engine's sequence; the book itself catches up when read (order-flow.ts). Time
 * passing, not a command: it runs before each command at the command's time, and when a reader
 * is about to look at the book at a time (Engine.advanceTo).
 */
export function advanceFlows(state: EngineState, time: number): void {
  const symbols = state.symbolList;
  for (let i = 0; i < symbols.length; i++) {
    const book = symbols[i]!.liquidity;
    if (book === null || book.kind !== 'depth') continue;
    const flow = (book as DepthBook).flow;
    if (flow !== null) state.sequence += flow.passTime(time);
  }
}

export function applyDepth(state: EngineState, command: ApplyDepth): void {
  const symbol = state.symbols.get(command.symbol);
  if (!symbol) return state.reject(command, 'UNKNOWN_SYMBOL');
  const book = symbol.liquidity;
  if (!(book instanceof DepthBook)) return state.reject(command, 'INVALID_AMOUNT');
  const { bids, asks } = command;
  const { tickUnits, stepUnits } = symbol.spec;
  // Every row turned into ticks and steps (and checked) before anything changes.
  const bidRows = toGrid(bids, tickUnits, stepUnits, 0);
  const askRows = bidRows < 0 ? -1 : toGrid(asks, tickUnits, stepUnits, bids.length);
  if (askRows < 0) return state.reject(command, 'INVALID_AMOUNT');
  if (command.clear) book.clear();
  const grid = scratch;
  let bidSet = 0;
  for (let i = 0; i < bids.length; i += 2) {
    const ticks = grid[i]!;
    const steps = grid[i + 1]!;
    book.setLevel(true, ticks, steps);
    if (steps > 0 && ticks > bidSet) bidSet = ticks;
  }
  let askSet = Infinity;
  for (let i = bids.length; i < bids.length + asks.length; i += 2) {
    const ticks = grid[i]!;
    const steps = grid[i + 1]!;
    book.setLevel(false, ticks, steps);
    if (steps > 0 && ticks < askSet) askSet = ticks;
  }
  book.repairCrossing(bidSet, askSet);
  book.messages++;
  // Before the symbol's first trade, the book's mid is the price the average-price rules fall
  // back to (as the synthetic ladder's anchor is), so a MARKET order at the first µs is judged.
  if (symbol.window.lastPrice === null) {
    const bid = book.bestBidTicks();
    const ask = book.bestAskTicks();
    if (bid > 0 && ask > 0) symbol.window.seedLastPrice(Math.floor((bid + ask) / 2) * tickUnits);
  }
}

/** Rows of the message being applied, as [ticks, steps, ...] (grown as needed, reused: one message at a time). */
let scratch = new Float64Array(256);

/**
 * Writes `levels` ([price, qty, ...] in units) into `scratch` from `at` as ticks and steps;
 * returns the rows written, or -1 when a row is unusable: a price off the tick grid or not
 * positive, a quantity not a non-negative integer (sizes are floored to the step grid). A
 * removal may name any price >= 0: removing a level that is not there changes nothing, which is
 * how a reader writes an empty book (a CLEAR message of one removal).
 */
function toGrid(levels: ArrayLike<number>, tickUnits: number, stepUnits: number, at: number): number {
  if (!(Array.isArray(levels) || levels instanceof Float64Array) || levels.length % 2 !== 0) return -1;
  if (scratch.length < at + levels.length) {
    const grown = new Float64Array(Math.max(scratch.length * 2, at + levels.length));
    grown.set(scratch);
    scratch = grown;
  }
  for (let i = 0; i < levels.length; i += 2) {
    const price = levels[i]!;
    const qty = levels[i + 1]!;
    const ticks = price / tickUnits;
    if (!(Number.isSafeInteger(price) && Number.isInteger(ticks) && ticks >= 0 && Number.isSafeInteger(qty) && qty >= 0 && (ticks > 0 || qty === 0))) return -1;
    scratch[at + i] = ticks;
    scratch[at + i + 1] = Math.floor(qty / stepUnits);
  }
  return levels.length / 2;
}
