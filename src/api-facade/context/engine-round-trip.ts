/**
 * The one way a request reaches the engine (`HandlerCall.send`, implemented by handle-request's
 * Call on top of `sendToEngine`): the second recvWindow check and the mark that lets fault
 * injection answer 503 -1007 (Call), then apply at simulated now and publish the events to the
 * user data stream (ExchangeContext.apply), count the first fills, and throw a refusal as its
 * wire error. A handler that wrote these steps by hand could forget one; none does any more.
 *
 * First fills (order-count-limiter): an order stops counting as unfilled at its first fill. An
 * order's first fill is among a batch of events when everything it has executed was executed
 * in that batch. The same rule serves the replay's market fills between requests
 * (ExchangeContext, `onMarketFill`).
 */
import { type EngineEvent, type OrderRejected, type RejectReason, SYNTHETIC_MAKER, type EngineQueries } from '../../engine/index.ts';
import { type ApiError, type FacadeCommand, rejectToApiError, type RejectContext } from '../core/index.ts';
import type { ExchangeContext } from './exchange-context.ts';
import type { OrderCountLimiter } from '../limits/index.ts';

/**
 * How a refused command answers: the table's mapping in a context ('place' → -2010, 'cancel' →
 * -2011, 'amend' → -2038, the order type of a PlaceOrder refining the text), or the handler's
 * own mapping (a fiat deposit's -1130, cancel-replace's outcome matrix).
 */
export type Refusal = Exclude<RejectContext, 'query'> | ((reason: RejectReason) => ApiError);

/** The engine's prefix of USDⓈ-M margin symbols (docs/usdm-futures.md: `um:BTCUSDT`). */
const MARGIN_SYMBOL_PREFIX = 'um:';

/** Applies `command` at simulated now, publishes and counts first fills; throws a refusal. */
export function sendToEngine(ctx: ExchangeContext, command: FacadeCommand, refusal: Refusal): readonly EngineEvent[] {
  const events = ctx.apply(command);
  const rejected = rejectionOf(events);
  if (rejected !== undefined) {
    if (typeof refusal === 'function') throw refusal(rejected.reason);
    throw rejectToApiError(rejected.reason, refusal, command.type === 'PlaceOrder' ? command.orderType : undefined);
  }
  countFirstFills(ctx.backend.engine, ctx.orderLimiter, events);
  return events;
}

export function rejectionOf(events: readonly EngineEvent[]): OrderRejected | undefined {
  for (const e of events) if (e.type === 'OrderRejected') return e;
  return undefined;
}

/** The order's fill of `quantity` at `time`, made by one batch, was its first: it stops counting as unfilled. */
export function noteFill(engine: EngineQueries, limiter: OrderCountLimiter, account: number, symbol: string, orderId: number, quantity: number, time: number): void {
  // A futures order (margin symbol `um:…`) counts against the /fapi ORDERS limit, which counts
  // orders sent, not unfilled ones: its fills give spot's unfilled-order count nothing back.
  if (symbol.startsWith(MARGIN_SYMBOL_PREFIX)) return;
  if (engine.executedQty(account, symbol, orderId) === quantity) limiter.onFirstFill(String(account), time);
}

/** An order filled by one batch: its account, symbol, id, quantity filled and first fill time. */
interface FilledHere {
  readonly account: number;
  readonly symbol: string;
  readonly orderId: number;
  qty: number;
  readonly time: number;
}

/** Adds a fill to its order's row (orders in order of first fill; a command fills few orders). */
function addFill(rows: FilledHere[], account: number, symbol: string, orderId: number, qty: number, time: number): void {
  for (const row of rows) {
    if (row.orderId === orderId && row.symbol === symbol) {
      row.qty += qty;
      return;
    }
  }
  rows.push({ account, symbol, orderId, qty, time });
}

/** Lowers unfilled-order counts for every order whose first fill is among `events`. */
export function countFirstFills(engine: EngineQueries, limiter: OrderCountLimiter, events: readonly EngineEvent[]): void {
  let filledHere: FilledHere[] | undefined;
  for (const e of events) {
    if (e.type !== 'TradeExecuted') continue;
    filledHere ??= [];
    addFill(filledHere, e.takerAccountId, e.symbol, e.takerOrderId, e.quantity, e.time);
    // A fill against the synthetic book has no maker order (SYNTHETIC_MAKER).
    if (e.makerAccountId !== SYNTHETIC_MAKER) addFill(filledHere, e.makerAccountId, e.symbol, e.makerOrderId, e.quantity, e.time);
  }
  if (filledHere === undefined) return;
  for (const f of filledHere) {
    noteFill(engine, limiter, f.account, f.symbol, f.orderId, f.qty, f.time);
  }
}
