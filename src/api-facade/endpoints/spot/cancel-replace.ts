/**
 * POST /api/v3/order/cancelReplace (security TRADE): cancel one order and place a new one on the
 * same symbol, in one engine command (spec, Trading; binance-facts §5.11).
 *
 * Parameters: every POST order parameter (the new order; newClientOrderId names it) plus
 * cancelReplaceMode (required), cancelNewClientOrderId, cancelOrigClientOrderId / cancelOrderId
 * (one required; both must agree, -2039 in cancelResponse), cancelRestrictions (-1145),
 * orderRateLimitExceededMode (DO_NOTHING default, CANCEL_ONLY).
 *
 * Unfilled order count (charged here, not by the request stage, because the answer over the
 * limit depends on orderRateLimitExceededMode): every request adds 1, NOT_ATTEMPTED new orders
 * included. Over the limit:
 * - DO_NOTHING: the plain -1015 (429); nothing is canceled.
 * - CANCEL_ONLY: the engine runs only the cancel (`cancelOnly`); the new order's part is the
 *   -1015 error (FAILURE), or NOT_ATTEMPTED when STOP_ON_FAILURE and the cancel failed.
 *
 * Outcome → answer (the spec's matrix):
 *   SUCCESS / SUCCESS                       200 {cancelResult, newOrderResult, cancelResponse, newOrderResponse}
 *   FAILURE / NOT_ATTEMPTED, FAILURE/FAILURE 400 -2022 "Order cancel-replace failed."
 *   SUCCESS / FAILURE, FAILURE / SUCCESS    409 -2021 "Order cancel-replace partially failed."
 *   STOP_ON_FAILURE + CANCEL_ONLY over the limit: 429 (-2022 or -2021 as above)
 *   ALLOW_FAILURE + CANCEL_ONLY over the limit: 400 / 409 as within limits (the matrix says so)
 * Error bodies carry `data` with the same four keys: a failed part is its {code, msg}, a part not
 * attempted is null. The new order's response has the shape of newOrderRespType (FULL for MARKET
 * and LIMIT by default, ACK otherwise); the cancel's is the DELETE order response.
 *
 * A new order the exchange refuses before the matching engine (filters, malformed amounts,
 * unsupported combinations, STP mode) refuses the whole request before the cancel (facts §1.4:
 * "filters and order count are checked before the cancel happens"). The answer is then -2022
 * (400) with cancelResult NOT_ATTEMPTED and newOrderResponse the refusal: the matrix has no
 * such row and the docs show no body for it; this keeps the `data` shape and says what ran.
 */
import type { CancelReplaceCompleted, EngineEvent, OrderAccepted, OrderCanceled, SymbolSpec, CancelReplaceMode, CancelReplaceResult, OrderType, RejectReason } from '../../../engine/index.ts';
import { type ApiError, apiError, withDetails, rejectToApiError } from '../../core/index.ts';
import { EMPTY_ERRORS, ENUM_ERRORS, eitherRequired, defineSchema, withSigned } from '../../params/index.ts';
import { cancelJson, placementJson, type NewOrderRespType } from '../../serialize/index.ts';
import { accountOf, symbolSpec, wireContext } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';
import { CLIENT_ID_PARAM, defaultRespType, NEW_ORDER_PARAMS, NEW_ORDER_RULES, orderRequestOf, plainOrderValues } from './order-request.ts';

/** Engine reasons that mean the new order was refused before the matching engine. */
const BEFORE_ENGINE = new Set(['INVALID_AMOUNT', 'UNSUPPORTED_ORDER_COMBINATION', 'STP_MODE_NOT_ALLOWED']);


interface Outcome {
  cancelResult: CancelReplaceResult;
  newOrderResult: CancelReplaceResult;
  cancelResponse: unknown;
  newOrderResponse: unknown;
}

/** The HTTP status of an outcome that is not SUCCESS / SUCCESS (see header). */
function failureStatus(o: Outcome, mode: CancelReplaceMode, overLimit: boolean): number {
  if (overLimit && mode === 'STOP_ON_FAILURE') return 429;
  return o.cancelResult === 'SUCCESS' || o.newOrderResult === 'SUCCESS' ? 409 : 400;
}

/** The -2021 / -2022 error of an outcome that is not SUCCESS / SUCCESS, its parts as `data`. */
function failure(o: Outcome, mode: CancelReplaceMode, overLimit: boolean): ApiError {
  const partly = o.cancelResult === 'SUCCESS' || o.newOrderResult === 'SUCCESS';
  return withDetails(apiError(partly ? 'CANCEL_REPLACE_PARTIALLY_FAILED' : 'CANCEL_REPLACE_FAILED'), { status: failureStatus(o, mode, overLimit), data: o });
}

function answer(o: Outcome, mode: CancelReplaceMode, overLimit: boolean): Outcome {
  if (o.cancelResult === 'SUCCESS' && o.newOrderResult === 'SUCCESS') return o;
  throw failure(o, mode, overLimit);
}

/**
 * A refused CancelReplaceOrder: a new order refused before the matching engine is -2022 with the
 * cancel NOT_ATTEMPTED (see header); anything else refused the cancel's side of the command.
 */
function refusal(reason: RejectReason, mode: CancelReplaceMode, type: OrderType): ApiError {
  if (!reason.startsWith('FILTER_') && !BEFORE_ENGINE.has(reason)) return rejectToApiError(reason, 'cancel', type);
  const newOrderResponse = rejectToApiError(reason, 'place', type).toBody();
  return failure({ cancelResult: 'NOT_ATTEMPTED', newOrderResult: 'FAILURE', cancelResponse: null, newOrderResponse }, mode, false);
}

export const cancelReplace = defineEndpoint({
  method: 'POST',
  path: '/api/v3/order/cancelReplace',
  security: 'TRADE',
  weight: 1,
  weightOnFailureOnly: true,
  orderCount: 1,
  chargesOrderCount: true,
  schema: defineSchema(
    withSigned([
      ...NEW_ORDER_PARAMS,
      { name: 'cancelReplaceMode', kind: 'ENUM', required: true, values: ['STOP_ON_FAILURE', 'ALLOW_FAILURE'] },
      { name: 'cancelNewClientOrderId', ...CLIENT_ID_PARAM },
      { name: 'cancelOrigClientOrderId', kind: 'STRING', empty: EMPTY_ERRORS.origClientOrderId },
      { name: 'cancelOrderId', kind: 'LONG' },
      { name: 'cancelRestrictions', kind: 'ENUM', values: ['ONLY_NEW', 'ONLY_PARTIALLY_FILLED'], invalid: ENUM_ERRORS.cancelRestrictions },
      { name: 'orderRateLimitExceededMode', kind: 'ENUM', values: ['DO_NOTHING', 'CANCEL_ONLY'] },
    ] as const),
    [...NEW_ORDER_RULES, eitherRequired('cancelOrderId', 'cancelOrigClientOrderId')],
  ),
  summary: 'Cancel an order and place a new one (outcome matrix: 200, 400, 409, 429)',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const accountId = accountOf(call);
    const newOrder = orderRequestOf(plainOrderValues(p), spec);
    const counted = call.ctx.orderLimiter.charge(String(accountId), 1, call.nowUs);
    const overLimit = !counted.ok;
    if (!counted.ok && p.orderRateLimitExceededMode !== 'CANCEL_ONLY') throw counted.error;
    const events = call.send(
      {
        type: 'CancelReplaceOrder',
        accountId,
        symbol: spec.symbol,
        mode: p.cancelReplaceMode,
        newOrder,
        ...(p.cancelOrderId === undefined ? {} : { cancelOrderId: p.cancelOrderId }),
        ...(p.cancelOrigClientOrderId === undefined ? {} : { cancelOrigClientOrderId: p.cancelOrigClientOrderId }),
        ...(p.cancelNewClientOrderId === undefined ? {} : { cancelNewClientOrderId: p.cancelNewClientOrderId }),
        ...(p.cancelRestrictions === undefined ? {} : { cancelRestrictions: p.cancelRestrictions }),
        ...(overLimit ? { cancelOnly: true } : {}),
      },
      (reason) => refusal(reason, p.cancelReplaceMode, p.type),
    );
    const done = events.find((e): e is CancelReplaceCompleted => e.type === 'CancelReplaceCompleted');
    if (done === undefined) throw new Error('CancelReplaceOrder neither completed nor refused'); // engine contract
    const outcome = describeOutcome(call, spec, done, events, p.newOrderRespType ?? defaultRespType(p.type), p.type);
    if (overLimit && counted.ok === false && !(p.cancelReplaceMode === 'STOP_ON_FAILURE' && outcome.cancelResult === 'FAILURE')) {
      // The engine did not attempt the new order; the exchange reports it as failed with -1015.
      outcome.newOrderResult = 'FAILURE';
      outcome.newOrderResponse = counted.error.toBody();
    }
    return answer(outcome, p.cancelReplaceMode, overLimit);
  },
});

function describeOutcome(
  call: HandlerCall,
  spec: SymbolSpec,
  done: CancelReplaceCompleted,
  events: readonly EngineEvent[],
  respType: NewOrderRespType,
  type: OrderType,
): Outcome {
  const engine = call.ctx.backend.engine;
  const wire = wireContext(call, spec);
  let cancelResponse: unknown = null;
  if (done.cancelResult === 'SUCCESS') {
    const canceled = events.find((e): e is OrderCanceled => e.type === 'OrderCanceled' && e.orderId === done.canceledOrderId);
    const order = engine.getOrder(done.accountId, spec.symbol, { orderId: done.canceledOrderId });
    if (canceled === undefined || order === undefined) throw new Error('canceled order not reported'); // engine contract
    cancelResponse = cancelJson(order, canceled.cancelClientOrderId, canceled.time, wire);
  } else if (done.cancelResult === 'FAILURE' && done.cancelReason !== null) {
    cancelResponse = rejectToApiError(done.cancelReason, 'cancel').toBody();
  }
  let newOrderResponse: unknown = null;
  if (done.newOrderResult === 'SUCCESS') {
    const accepted = events.find((e): e is OrderAccepted => e.type === 'OrderAccepted' && e.orderId === done.newOrderId);
    const order = engine.getOrder(done.accountId, spec.symbol, { orderId: done.newOrderId });
    if (accepted === undefined || order === undefined) throw new Error('new order not reported'); // engine contract
    newOrderResponse = placementJson(respType, accepted, order, events, wire);
  } else if (done.newOrderResult === 'FAILURE' && done.newOrderReason !== null) {
    newOrderResponse = rejectToApiError(done.newOrderReason, 'place', type).toBody();
  }
  return { cancelResult: done.cancelResult, newOrderResult: done.newOrderResult, cancelResponse, newOrderResponse };
}
