/**
 * Trading endpoints (security TRADE, signed): POST order, POST order/test, DELETE order,
 * DELETE openOrders.
 *
 * Rules:
 * - POST order takes every order type with its conditional parameters (stopPrice, trailingDelta,
 *   icebergQty, pegs, strategy labels); the per-type requirements and pairing rules are
 *   order-request.ts's. newOrderRespType defaults to FULL for MARKET and LIMIT, ACK otherwise.
 * - Decimal amounts are converted at the symbol's precisions (-1111 when finer); grid and filter
 *   checks are the engine's (-1013 via rejectToApiError), as are funds and the rest (-2010).
 * - DELETE order resolves orderId / origClientOrderId as GET order does, but an unknown order is
 *   -2011 "Unknown order sent."; a failed cancelRestrictions is -2011 too, an invalid value -1145.
 *   Canceling one leg of a list cancels the list (the engine's rule); the answer is the one order.
 * - DELETE openOrders with nothing open is -2011 "Unknown order sent." (as Binance answers). Its
 *   answer mixes cancel responses for plain orders and list objects with orderReports, each at
 *   the place of its first canceled order.
 * - Unfilled order count: an order's first fill lowers the account's counts (order-count-limiter);
 *   fills of this request's taker and of makers whose first fill it was are reported here.
 */
import type { PlaceOrder } from '../../engine/commands.ts';
import type { EngineEvent, OrderAccepted, OrderCanceled, OrderRejected } from '../../engine/events.ts';
import type { SymbolSpec } from '../../engine/symbol-spec.ts';
import type { ApiError } from '../api-error.ts';
import type { ExchangeContext } from '../exchange-context.ts';
import { ENUM_ERRORS, EMPTY_ERRORS } from '../params/param-errors.ts';
import { eitherRequired } from '../params/param-rules.ts';
import type { ParsedParams } from '../params/param-schema.ts';
import { defineSchema, withSigned } from '../params/param-schema.ts';
import { matchingEngineError, rejectToApiError } from '../reject-errors.ts';
import { discountJson, makerTakerJson } from '../serialize/commission-json.ts';
import { cancelJson, placementJson, type NewOrderRespType } from '../serialize/order-json.ts';
import { orderListJson } from '../serialize/order-list-json.ts';
import { accountOf, accountViewOf, SYMBOL, symbolSpec, wireContext } from './common.ts';
import { defineEndpoint, type HandlerCall } from './endpoint-row.ts';
import { findOrder } from './account.ts';
import {
  CLIENT_ID_PARAM,
  defaultRespType,
  orderRequestOf,
  orderRules,
  PEG_OFFSET_TYPE_PARAM,
  PEG_PRICE_TYPE_PARAM,
  PLAIN_NAMES,
  RESP_TYPE,
  SIDE_PARAM,
  STP_PARAM,
  TIF_PARAM,
  TYPE_PARAM,
  type OrderValues,
} from './order-request.ts';

const unknownOrderSent = (): ApiError => matchingEngineError('UNKNOWN_ORDER', 'cancel');

export const NEW_ORDER_PARAMS = [
  SYMBOL,
  { name: 'side', required: true, ...SIDE_PARAM },
  { name: 'type', required: true, ...TYPE_PARAM },
  { name: 'timeInForce', ...TIF_PARAM },
  { name: 'quantity', kind: 'DECIMAL' },
  { name: 'quoteOrderQty', kind: 'DECIMAL' },
  { name: 'price', kind: 'DECIMAL' },
  { name: 'newClientOrderId', ...CLIENT_ID_PARAM },
  { name: 'strategyId', kind: 'LONG' },
  { name: 'strategyType', kind: 'INT' },
  { name: 'stopPrice', kind: 'DECIMAL' },
  { name: 'trailingDelta', kind: 'LONG' },
  { name: 'icebergQty', kind: 'DECIMAL' },
  RESP_TYPE,
  STP_PARAM,
  { name: 'pegPriceType', ...PEG_PRICE_TYPE_PARAM },
  { name: 'pegOffsetValue', kind: 'INT' },
  { name: 'pegOffsetType', ...PEG_OFFSET_TYPE_PARAM },
] as const;

export const NEW_ORDER_RULES = orderRules(PLAIN_NAMES);

const NEW_ORDER_SCHEMA = defineSchema(withSigned(NEW_ORDER_PARAMS), NEW_ORDER_RULES);
const TEST_ORDER_SCHEMA = defineSchema(withSigned([...NEW_ORDER_PARAMS, { name: 'computeCommissionRates', kind: 'BOOLEAN' }] as const), NEW_ORDER_RULES);

type NewOrderParams = ParsedParams<typeof NEW_ORDER_SCHEMA.params>;

/** The order a POST order (or cancelReplace, or SOR) request asks for. */
export function plainOrderValues(p: Omit<NewOrderParams, 'timestamp' | 'signature'>): OrderValues {
  return {
    side: p.side,
    type: p.type,
    timeInForce: p.timeInForce,
    price: p.price,
    quantity: p.quantity,
    quoteOrderQty: p.quoteOrderQty,
    clientOrderId: p.newClientOrderId,
    strategyId: p.strategyId,
    strategyType: p.strategyType,
    stopPrice: p.stopPrice,
    trailingDelta: p.trailingDelta,
    icebergQty: p.icebergQty,
    pegPriceType: p.pegPriceType,
    pegOffsetValue: p.pegOffsetValue,
    selfTradePreventionMode: p.selfTradePreventionMode,
  };
}

/** The engine command for a new order, or the parameter error; nothing is sent. */
function newOrderCommand(p: NewOrderParams, spec: SymbolSpec, accountId: number): Omit<PlaceOrder, 'time'> {
  const command = { type: 'PlaceOrder', accountId, symbol: spec.symbol };
  return orderRequestOf(plainOrderValues(p), spec, command) as Omit<PlaceOrder, 'time'>;
}

/** An order filled by a command: its account, symbol, id, quantity filled and first fill time. */
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
export function noteFirstFills(ctx: ExchangeContext, events: readonly EngineEvent[]): void {
  let filledHere: FilledHere[] | undefined;
  for (const e of events) {
    if (e.type !== 'TradeExecuted') continue;
    filledHere ??= [];
    addFill(filledHere, e.takerAccountId, e.symbol, e.takerOrderId, e.quantity, e.time);
    addFill(filledHere, e.makerAccountId, e.symbol, e.makerOrderId, e.quantity, e.time);
  }
  if (filledHere === undefined) return;
  const engine = ctx.backend.engine;
  for (const f of filledHere) {
    const order = engine.getOrder(f.account, f.symbol, { orderId: f.orderId });
    // First fill: everything it has executed was executed by this command.
    if (order !== undefined && order.executedQty === f.qty) ctx.orderLimiter.onFirstFill(String(f.account), f.time);
  }
}

/**
 * Sends a PlaceOrder (POST order, SOR order) and answers as the exchange does: the placement
 * response, or the engine's refusal as its wire error.
 */
export function placeAndReport(call: HandlerCall, spec: SymbolSpec, command: Omit<PlaceOrder, 'time'>, respType: NewOrderRespType): Record<string, unknown> {
  const events = call.ctx.apply(command);
  const rejected = rejection(events);
  if (rejected !== undefined) throw rejectToApiError(rejected.reason, 'place', command.orderType);
  const accepted = events.find((e): e is OrderAccepted => e.type === 'OrderAccepted');
  if (accepted === undefined) throw new Error('PlaceOrder neither accepted nor rejected'); // engine contract
  noteFirstFills(call.ctx, events);
  const order = call.ctx.backend.engine.getOrder(command.accountId, spec.symbol, { orderId: accepted.orderId });
  if (order === undefined) throw new Error('accepted order not found'); // engine contract
  return placementJson(respType, accepted, order, events, wireContext(call, spec));
}

export function rejection(events: readonly EngineEvent[]): OrderRejected | undefined {
  return events.find((e): e is OrderRejected => e.type === 'OrderRejected');
}

export const newOrder = defineEndpoint({
  method: 'POST',
  path: '/api/v3/order',
  security: 'TRADE',
  weight: 1,
  weightOnFailureOnly: true,
  orderCount: 1,
  schema: NEW_ORDER_SCHEMA,
  summary: 'New LIMIT, LIMIT_MAKER or MARKET order',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const accountId = accountOf(call);
    const command = newOrderCommand(p, spec, accountId);
    call.beforeEngine();
    return placeAndReport(call, spec, command, p.newOrderRespType ?? defaultRespType(p.type));
  },
});

export const testOrder = defineEndpoint({
  method: 'POST',
  path: '/api/v3/order/test',
  security: 'TRADE',
  weight: (p) => (p.computeCommissionRates === true ? 20 : 1),
  schema: TEST_ORDER_SCHEMA,
  summary: 'Validate a new order without sending it; optional commission rates',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const accountId = accountOf(call);
    return testOrderAnswer(call, spec, newOrderCommand(p, spec, accountId), p.computeCommissionRates === true);
  },
});

/**
 * What order/test (and sor/order/test) answer: the refusal placement would give now (every
 * check but funds, at simulated now; nothing is recorded), else `{}` or the commission rates
 * that would apply to the order.
 */
export function testOrderAnswer(call: HandlerCall, spec: SymbolSpec, command: Omit<PlaceOrder, 'time'>, computeCommissionRates: boolean): unknown {
  const refusal = call.ctx.backend.engine.placementRefusal(Object.assign({}, command, { time: call.nowUs }));
  if (refusal !== null) throw rejectToApiError(refusal, 'place', command.orderType);
  if (!computeCommissionRates) return {};
  const acct = accountViewOf(call);
  return {
    standardCommissionForOrder: makerTakerJson(acct.standardCommission),
    specialCommissionForOrder: makerTakerJson(acct.specialCommission),
    taxCommissionForOrder: makerTakerJson(acct.taxCommission),
    discount: discountJson(acct, spec),
  };
}

export const cancelOrder = defineEndpoint({
  method: 'DELETE',
  path: '/api/v3/order',
  security: 'TRADE',
  weight: 1,
  weightOnFailureOnly: true,
  schema: defineSchema(
    withSigned([
      SYMBOL,
      { name: 'orderId', kind: 'LONG' },
      { name: 'origClientOrderId', kind: 'STRING', empty: EMPTY_ERRORS.origClientOrderId },
      { name: 'newClientOrderId', ...CLIENT_ID_PARAM },
      { name: 'cancelRestrictions', kind: 'ENUM', values: ['ONLY_NEW', 'ONLY_PARTIALLY_FILLED'], invalid: ENUM_ERRORS.cancelRestrictions },
    ]),
    [eitherRequired('origClientOrderId', 'orderId')],
  ),
  summary: 'Cancel one order',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const accountId = accountOf(call);
    const order = findOrder(call, spec.symbol, p, unknownOrderSent);
    call.beforeEngine();
    const events = call.ctx.apply({
      type: 'CancelOrder',
      accountId,
      symbol: spec.symbol,
      orderId: order.orderId,
      ...(p.newClientOrderId === undefined ? {} : { newClientOrderId: p.newClientOrderId }),
      ...(p.cancelRestrictions === undefined ? {} : { cancelRestrictions: p.cancelRestrictions }),
    });
    const rejected = rejection(events);
    if (rejected !== undefined) throw rejectToApiError(rejected.reason, 'cancel');
    const canceled = events.find((e): e is OrderCanceled => e.type === 'OrderCanceled');
    if (canceled === undefined) throw unknownOrderSent();
    const after = call.ctx.backend.engine.getOrder(accountId, spec.symbol, { orderId: order.orderId }) ?? order;
    return cancelJson(after, canceled.cancelClientOrderId, canceled.time, wireContext(call, spec));
  },
});

export const cancelOpenOrders = defineEndpoint({
  method: 'DELETE',
  path: '/api/v3/openOrders',
  security: 'TRADE',
  weight: 1,
  weightOnFailureOnly: true,
  schema: defineSchema(withSigned([SYMBOL])),
  summary: 'Cancel every open order of a symbol',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const accountId = accountOf(call);
    call.beforeEngine();
    const events = call.ctx.apply({ type: 'CancelAllOrders', accountId, symbol: spec.symbol });
    const rejected = rejection(events);
    if (rejected !== undefined) throw rejectToApiError(rejected.reason, 'cancel');
    const canceled = events.filter((e): e is OrderCanceled => e.type === 'OrderCanceled');
    if (canceled.length === 0) throw unknownOrderSent();
    return cancelAllAnswer(call, spec, accountId, canceled);
  },
});

/** DELETE openOrders' array: plain cancel responses and list objects in first-cancel order. */
function cancelAllAnswer(call: HandlerCall, spec: SymbolSpec, accountId: number, canceled: readonly OrderCanceled[]): unknown[] {
  const engine = call.ctx.backend.engine;
  const wire = wireContext(call, spec);
  const out: unknown[] = [];
  const listReports = new Map<number, unknown[]>();
  for (const c of canceled) {
    const order = engine.getOrder(accountId, spec.symbol, { orderId: c.orderId });
    if (order === undefined) throw new Error('canceled order not found'); // engine contract
    const report = cancelJson(order, c.cancelClientOrderId, c.time, wire);
    if (order.orderListId === -1) {
      out.push(report);
      continue;
    }
    const reports = listReports.get(order.orderListId);
    if (reports !== undefined) {
      reports.push(report);
      continue;
    }
    const list = engine.getOrderList(accountId, { orderListId: order.orderListId });
    if (list === undefined) throw new Error('list of a canceled order not found'); // engine contract
    const fresh = [report];
    listReports.set(order.orderListId, fresh);
    out.push(orderListJson(list, call.unit, fresh));
  }
  return out;
}
