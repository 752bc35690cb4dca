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
 *   `call.send` counts the first fills of this request's taker and of the makers it filled.
 */
import type { PlaceOrder, OrderCanceled, SymbolSpec } from '../../../engine/index.ts';
import { type ApiError, matchingEngineError } from '../../core/index.ts';
import { ENUM_ERRORS, EMPTY_ERRORS, eitherRequired, type ParsedParams, defineSchema, withSigned } from '../../params/index.ts';
import { cancelJson, orderListJson } from '../../serialize/index.ts';
import { accountOf, SYMBOL, symbolSpec, wireContext } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';
import { findOrder, placeAndReport, testOrderAnswer } from './order-answers.ts';
import { CLIENT_ID_PARAM, defaultRespType, NEW_ORDER_PARAMS, NEW_ORDER_RULES, orderRequestOf, plainOrderValues } from './order-request.ts';

const unknownOrderSent = (): ApiError => matchingEngineError('UNKNOWN_ORDER', 'cancel');


const NEW_ORDER_SCHEMA = defineSchema(withSigned(NEW_ORDER_PARAMS), NEW_ORDER_RULES);
const TEST_ORDER_SCHEMA = defineSchema(withSigned([...NEW_ORDER_PARAMS, { name: 'computeCommissionRates', kind: 'BOOLEAN' }] as const), NEW_ORDER_RULES);

type NewOrderParams = ParsedParams<typeof NEW_ORDER_SCHEMA.params>;

/** The engine command for a new order, or the parameter error; nothing is sent. */
function newOrderCommand(p: NewOrderParams, spec: SymbolSpec, accountId: number): Omit<PlaceOrder, 'time'> {
  const command = { type: 'PlaceOrder', accountId, symbol: spec.symbol };
  return orderRequestOf(plainOrderValues(p), spec, command) as Omit<PlaceOrder, 'time'>;
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
    const events = call.send(
      {
        type: 'CancelOrder',
      accountId,
      symbol: spec.symbol,
      orderId: order.orderId,
      ...(p.newClientOrderId === undefined ? {} : { newClientOrderId: p.newClientOrderId }),
      ...(p.cancelRestrictions === undefined ? {} : { cancelRestrictions: p.cancelRestrictions }),
      },
      'cancel',
    );
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
    const events = call.send({ type: 'CancelAllOrders', accountId, symbol: spec.symbol }, 'cancel');
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
