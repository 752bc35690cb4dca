/**
 * What the order rows share beyond common.ts: finding an order of the account (-2013 / -2039,
 * or the caller's own not-found error), placing an order and answering in the placement shape,
 * and the order/test answer. Rows import these from here, not from each other.
 */
import type { PlaceOrder, OrderAccepted, SymbolSpec, OrderView } from '../../../engine/index.ts';
import { type ApiError, apiError, rejectToApiError } from '../../core/index.ts';
import { discountJson, JsonAnswer, makerTakerJson, placementCopy, placementJson, placementText, type NewOrderRespType } from '../../serialize/index.ts';
import { accountOf, accountViewOf, wireContext } from '../common.ts';
import type { HandlerCall } from '../endpoint-row.ts';

const orderDoesNotExist = (): ApiError => apiError('NO_SUCH_ORDER');
const clientOrderIdMismatch = (): ApiError => apiError('CLIENT_ORDER_ID_MISMATCH');

/**
 * The order named by orderId and/or origClientOrderId, or the query errors above. Shared with
 * DELETE order, which answers -2011 instead of -2013 (`notFound`).
 */
export function findOrder(
  call: HandlerCall,
  symbol: string,
  ref: { readonly orderId?: number; readonly origClientOrderId?: string },
  notFound: () => ApiError = orderDoesNotExist,
): OrderView {
  const engine = call.ctx.backend.engine;
  const accountId = accountOf(call);
  if (ref.orderId !== undefined) {
    const order = engine.getOrder(accountId, symbol, { orderId: ref.orderId });
    if (order === undefined) throw notFound();
    if (ref.origClientOrderId !== undefined && order.clientOrderId !== ref.origClientOrderId) throw clientOrderIdMismatch();
    return order;
  }
  const order = ref.origClientOrderId === undefined ? undefined : engine.getOrder(accountId, symbol, { clientOrderId: ref.origClientOrderId });
  if (order === undefined) throw notFound();
  return order;
}

/**
 * Sends a PlaceOrder (POST order, SOR order) and answers as the exchange does: the placement
 * response, or the engine's refusal as its wire error. The answer is the response's value with
 * placementText as its writer and placementCopy as its copier (the hottest answer of all:
 * JSON.stringify was ~8% of a signed order, the generic copy ~3% of the in-process client's).
 */
export function placeAndReport(call: HandlerCall, spec: SymbolSpec, command: Omit<PlaceOrder, 'time'>, respType: NewOrderRespType): JsonAnswer<Record<string, unknown>> {
  const events = call.send(command, 'place');
  const accepted = events.find((e): e is OrderAccepted => e.type === 'OrderAccepted');
  if (accepted === undefined) throw new Error('PlaceOrder neither accepted nor rejected'); // engine contract
  const order = call.ctx.backend.engine.getOrder(command.accountId, spec.symbol, { orderId: accepted.orderId });
  if (order === undefined) throw new Error('accepted order not found'); // engine contract
  return new JsonAnswer(placementJson(respType, accepted, order, events, wireContext(call, spec)), placementText, placementCopy);
}

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
