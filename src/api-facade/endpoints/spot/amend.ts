/**
 * Amend keepPriority (binance-facts §5.10): PUT /api/v3/order/amend/keepPriority reduces an open
 * order's quantity in place (same orderId, same queue position), and GET /api/v3/order/amendments
 * lists an order's amendments.
 *
 * Rules:
 * - PUT: weight 4, unfilled order count 0 (the row declares 0: never refused by ORDERS, and its
 *   answer carries the X-MBX-ORDER-COUNT headers). orderId or origClientOrderId (-1102), both must
 *   agree (-2039); newQty mandatory at the symbol's base precision (-1111).
 * - Engine refusals are -2038 ORDER_AMEND_REJECTED with the §2.3 texts ("Order amend (quantity
 *   increase) is not supported.", "The requested action would change no state; rejecting",
 *   "Unknown order sent.", ...) and -2038 "Filter failure: MAX_NUM_ORDER_AMENDS"; other filter
 *   failures (newQty off the LOT_SIZE grid) stay -1013. Nothing changes on a refusal.
 * - Answer: {transactTime, executionId, amendedOrder{...}} and, for a list member, listStatus.
 *   amendedOrder's keys are the docs' (qty, preventedQty, quoteOrderQty, and the spelling
 *   cumulativeQuoteQty, unlike the order records' cummulativeQuoteQty).
 * - An OCO's legs share one quantity: amending one amends both (the engine's rule); the answer
 *   shows the order the request named.
 * - GET amendments: symbol and orderId required; unknown order -2013; fromExecutionId keeps ids
 *   from it on; oldest first; limit default 500, max 1000.
 */
import { type OrderAmended, formatUnits } from '../../../engine/index.ts';
import { EMPTY_ERRORS, eitherRequired, defineSchema, withSigned } from '../../params/index.ts';
import { apiTime, amendListStatusJson } from '../../serialize/index.ts';
import { findOrder } from './order-answers.ts';
import { accountOf, spotLimit, SYMBOL, symbolSpec } from '../common.ts';
import { defineEndpoint } from '../endpoint-row.ts';
import { CLIENT_ID_PARAM } from './order-request.ts';

export const amendKeepPriority = defineEndpoint({
  method: 'PUT',
  path: '/api/v3/order/amend/keepPriority',
  security: 'TRADE',
  weight: 4,
  orderCount: 0,
  schema: defineSchema(
    withSigned([
      SYMBOL,
      { name: 'orderId', kind: 'LONG' },
      { name: 'origClientOrderId', kind: 'STRING', empty: EMPTY_ERRORS.origClientOrderId },
      { name: 'newClientOrderId', ...CLIENT_ID_PARAM },
      { name: 'newQty', kind: 'DECIMAL', required: true },
    ]),
    [eitherRequired('orderId', 'origClientOrderId')],
  ),
  summary: 'Reduce an open order quantity keeping its priority',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const accountId = accountOf(call);
    const newQuantity = p.newQty.units(spec.basePrecision);
    const events = call.send(
      {
        type: 'AmendOrder',
        accountId,
        symbol: spec.symbol,
        newQuantity,
        ...(p.orderId === undefined ? {} : { orderId: p.orderId }),
        ...(p.origClientOrderId === undefined ? {} : { origClientOrderId: p.origClientOrderId }),
        ...(p.newClientOrderId === undefined ? {} : { newClientOrderId: p.newClientOrderId }),
      },
      'amend',
    );
    const engine = call.ctx.backend.engine;
    // The named order's amendment comes first; an OCO partner's follows it.
    const amended = events.find((e): e is OrderAmended => e.type === 'OrderAmended');
    if (amended === undefined) throw new Error('AmendOrder neither amended nor refused'); // engine contract
    const o = engine.getOrder(accountId, spec.symbol, { orderId: amended.orderId });
    if (o === undefined) throw new Error('amended order not found'); // engine contract
    const price = (units: number) => formatUnits(units, spec.quotePrecision);
    const qty = (units: number) => formatUnits(units, spec.basePrecision);
    const out: Record<string, unknown> = {
      transactTime: apiTime(amended.time, call.unit),
      executionId: amended.executionId,
      amendedOrder: {
        symbol: o.symbol,
        orderId: o.orderId,
        orderListId: o.orderListId,
        origClientOrderId: amended.origClientOrderId,
        clientOrderId: o.clientOrderId,
        price: price(o.price),
        qty: qty(o.origQty),
        executedQty: qty(o.executedQty),
        preventedQty: qty(o.preventedQuantity),
        quoteOrderQty: price(o.origQuoteOrderQty),
        cumulativeQuoteQty: price(o.cummulativeQuoteQty),
        status: o.status,
        timeInForce: o.timeInForce,
        type: o.type,
        side: o.side,
        workingTime: apiTime(o.workingTime, call.unit),
        selfTradePreventionMode: o.selfTradePreventionMode,
      },
    };
    if (o.orderListId !== -1) {
      const list = engine.getOrderList(accountId, { orderListId: o.orderListId });
      if (list !== undefined) out['listStatus'] = amendListStatusJson(list);
    }
    return out;
  },
});

export const orderAmendments = defineEndpoint({
  method: 'GET',
  path: '/api/v3/order/amendments',
  security: 'USER_DATA',
  weight: 4,
  schema: defineSchema(
    withSigned([SYMBOL, { name: 'orderId', kind: 'LONG', required: true }, { name: 'fromExecutionId', kind: 'LONG' }, { name: 'limit', kind: 'LONG' }]),
  ),
  summary: 'Amendment history of one order',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const order = findOrder(call, spec.symbol, { orderId: p.orderId });
    return call.ctx.backend.engine
      .orderAmendments(accountOf(call), spec.symbol, order.orderId)
      .filter((a) => p.fromExecutionId === undefined || a.executionId >= p.fromExecutionId)
      .slice(0, spotLimit(p.limit))
      .map((a) => ({
        symbol: a.symbol,
        orderId: a.orderId,
        executionId: a.executionId,
        origClientOrderId: a.origClientOrderId,
        newClientOrderId: a.newClientOrderId,
        origQty: formatUnits(a.origQty, spec.basePrecision),
        newQty: formatUnits(a.newQty, spec.basePrecision),
        time: apiTime(a.time, call.unit),
      }));
  },
});
