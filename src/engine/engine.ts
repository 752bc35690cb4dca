/**
 * The exchange state machine: `apply(command) -> events`. This file is the dispatch; the
 * commands live in their own modules (place-order.ts, cancel-order.ts, account-commands.ts, ...),
 * every order status change in order-lifecycle.ts, the queries in engine-queries.ts (which
 * `Engine` extends) and the invariants in check-invariants.ts.
 *
 * Contract
 * - Pure in its inputs: the events and state after a command are a function of the config and
 *   the commands applied so far. No clock (time comes on the command), no I/O, no randomness.
 * - A refused command emits one OrderRejected and changes nothing. (Before any command, GTD
 *   orders due by its time expire — futures/good-till-date.ts — and their OrderExpired events
 *   come first, whether the command is then refused or not: they belong to the time.)
 * - Time never runs backwards: a command older than the previous one is a caller bug (throws).
 * - Invariants (checked by `checkInvariants`, asserted by the property tests after every step):
 *   books never crossed (nor with the synthetic book's levels merged in); level totals and FIFO links consistent; each open order reserves exactly
 *   what it needs and an account's locked balance is the sum over its open orders; every asset
 *   is conserved: sum of balances + collected fees = net deposits.
 */
import { adjustBalance, createAccount } from './account-commands.ts';
import { amendOrder } from './amend-order.ts';
import { cancelAllOrders, cancelOrder, cancelOrderList } from './cancel-order.ts';
import { cancelReplaceOrder } from './cancel-replace.ts';
import type { EngineCommand } from './commands.ts';
import { runContingencies } from './conditional/contingency.ts';
import { EngineQueries } from './engine-queries.ts';
import { EngineState } from './engine-state.ts';
import { engineStateCodec } from './snapshot/engine-snapshot.ts';
import type { EngineEvent } from './events.ts';
import { fillFromMarket } from './fills/fill-from-market.ts';
import { adjustPositionMargin, setFuturesCommissionRates, setLeverage, setMarginType, setPositionMode, transferFuturesWallet } from './futures/futures-commands.ts';
import { setMarkPrice, settleFunding } from './futures/futures-mark.ts';
import { expireDueOrders, goodTillDue } from './futures/good-till-date.ts';
import { modifyMarginOrder } from './futures/modify-margin-order.ts';
import { setSyntheticAnchor, setSyntheticBook } from './liquidity/synthetic-book-commands.ts';
import { advanceFlows, applyDepth, setDepthBook, setOrderFlowBook } from './liquidity/depth-book-commands.ts';
import { placeOrderList } from './order-lists/place-order-list.ts';
import { placeOrder } from './place-order.ts';
import { recycleClosedOrders } from './order-lifecycle.ts';
import { notePrint, quietPrint, recordMarketTrade } from './record-market-trade.ts';
import { mulDivFloor } from './exact-math.ts';
import { pow10 } from './units.ts';
import type { EngineConfig } from './symbol-config.ts';
import { assertNever } from './types.ts';

const NO_EVENTS: readonly EngineEvent[] = [];

export class Engine extends EngineQueries {
  constructor(config: EngineConfig) {
    super(new EngineState(config));
  }

  /**
   * The whole state between two commands, as bytes (snapshot/engine-snapshot.ts): read back by
   * `importSnapshot` on an engine of the same config, it gives the same state hash and events.
   */
  exportSnapshot(): Buffer {
    return engineStateCodec().encode(this.state);
  }

  /** Replaces this engine's state with a snapshot's (see exportSnapshot). */
  importSnapshot(bytes: Uint8Array): void {
    const state = engineStateCodec().decode(bytes);
    if (!(state instanceof EngineState)) throw new Error('not an engine snapshot');
    this.state = state;
  }

  /**
   * Lets simulated time reach `time` (µs) without a command: order-flow books step up to it (a
   * reader about to look at the book at `time` calls this first). Later commands must not be
   * earlier (as with commands, time never runs backwards: throws).
   */
  advanceTo(time: number): void {
    const state = this.state;
    if (!(time >= state.lastTime)) throw new Error(`time ran backwards: advance to ${time} after ${state.lastTime}`);
    state.lastTime = time;
    advanceFlows(state, time);
  }

  /** The quote quantity of the last print `recordPrint` recorded. */
  printQuote = 0;

  /**
   * The replay's fast path for a print: exactly `apply(RecordMarketTrade)` (same state after it,
   * `sequence` included) for a print that would emit its MarketTradeRecorded and nothing else (a
   * valid amount that reaches no waiting stop and moves no trailing one), without the command and
   * event objects. Returns the trade id (the event's; its quoteQuantity is then `printQuote`), or
   * -1 having changed nothing: the print must be applied as a RecordMarketTrade command.
   */
  recordPrint(symbolName: string, time: number, price: number, quantity: number, isBuyerMaker: boolean, venueId: number | undefined): number {
    const state = this.state;
    if (!(time >= state.lastTime)) return -1;
    const symbol = state.symbols.get(symbolName);
    if (symbol === undefined || state.dirty.length !== 0 || !quietPrint(symbol, price, quantity)) return -1;
    // A GTD order due by now must expire first: that takes the command path.
    if (state.futures !== null && goodTillDue(state, time)) return -1;
    state.lastTime = time;
    advanceFlows(state, time);
    state.sequence++;
    state.events = null;
    const quote = mulDivFloor(price, quantity, pow10(symbol.spec.basePrecision));
    this.printQuote = quote;
    return notePrint(symbol, time, price, quantity, isBuyerMaker, venueId, quote, false);
  }

  /** Applies one command; returns the events it caused (an OrderRejected on refusal). */
  apply(command: EngineCommand): readonly EngineEvent[] {
    const state = this.state;
    if (!(command.time >= state.lastTime)) {
      throw new Error(`time ran backwards: command at ${command.time} after ${state.lastTime}`);
    }
    state.lastTime = command.time;
    // Order-flow books first live up to the command's time (a step at t comes before a command at t).
    advanceFlows(state, command.time);
    state.sequence++;
    state.events = null;
    // GTD orders due by now expire before the command acts (futures only; one null check on spot).
    if (state.futures !== null && goodTillDue(state, command.time)) expireDueOrders(state, command.time);
    switch (command.type) {
      case 'PlaceOrder':
        placeOrder(state, command);
        break;
      case 'CancelOrder':
        cancelOrder(state, command);
        break;
      case 'CancelAllOrders':
        cancelAllOrders(state, command);
        break;
      case 'PlaceOrderList':
        placeOrderList(state, command);
        break;
      case 'CancelOrderList':
        cancelOrderList(state, command);
        break;
      case 'CancelReplaceOrder':
        cancelReplaceOrder(state, command);
        break;
      case 'AmendOrder':
        amendOrder(state, command);
        break;
      case 'CreateAccount':
        createAccount(state, command);
        break;
      case 'AdjustBalance':
        adjustBalance(state, command);
        break;
      case 'SetSymbolStatus': {
        const symbol = state.symbols.get(command.symbol);
        if (!symbol) {
          state.reject(command, 'UNKNOWN_SYMBOL');
          break;
        }
        symbol.status = command.status;
        state.emit({ type: 'SymbolStatusChanged', time: command.time, symbol: command.symbol, status: command.status });
        break;
      }
      case 'RecordMarketTrade':
        recordMarketTrade(state, command);
        break;
      case 'FillFromMarket':
        fillFromMarket(state, command);
        break;
      case 'SetSyntheticBook':
        setSyntheticBook(state, command);
        break;
      case 'SetSyntheticAnchor':
        setSyntheticAnchor(state, command);
        break;
      case 'SetDepthBook':
        setDepthBook(state, command);
        break;
      case 'SetOrderFlowBook':
        setOrderFlowBook(state, command);
        break;
      case 'ApplyDepth':
        applyDepth(state, command);
        break;
      case 'SetReferencePrice': {
        const symbol = state.symbols.get(command.symbol);
        if (!symbol) {
          state.reject(command, 'UNKNOWN_SYMBOL');
          break;
        }
        if (command.price !== null && !(Number.isSafeInteger(command.price) && command.price > 0)) {
          state.reject(command, 'INVALID_AMOUNT');
          break;
        }
        symbol.referencePrice = command.price;
        state.emit({ type: 'ReferencePriceChanged', time: command.time, symbol: command.symbol, price: command.price });
        break;
      }
      case 'TransferFuturesWallet':
        transferFuturesWallet(state, command);
        break;
      case 'SetLeverage':
        setLeverage(state, command);
        break;
      case 'SetMarginType':
        setMarginType(state, command);
        break;
      case 'SetPositionMode':
        setPositionMode(state, command);
        break;
      case 'AdjustPositionMargin':
        adjustPositionMargin(state, command);
        break;
      case 'SetMarkPrice':
        setMarkPrice(state, command);
        break;
      case 'SettleFunding':
        settleFunding(state, command);
        break;
      case 'SetFuturesCommissionRates':
        setFuturesCommissionRates(state, command);
        break;
      case 'ModifyMarginOrder':
        modifyMarginOrder(state, command);
        break;
      default:
        assertNever(command, 'command');
    }
    // Stops reached and list legs touched by this command react before it returns.
    if (state.dirty.length !== 0) runContingencies(state, command.time);
    recycleClosedOrders();
    const events = state.events as EngineEvent[] | null;
    state.events = null;
    return events ?? NO_EVENTS;
  }
}
