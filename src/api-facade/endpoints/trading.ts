/**
 * Trading endpoints (security TRADE, signed): POST order, POST order/test, DELETE order,
 * DELETE openOrders.
 *
 * Rules:
 * - POST order takes LIMIT, LIMIT_MAKER and MARKET (quantity or quoteOrderQty). Per-type
 *   requirements (spec, Trading): LIMIT needs timeInForce, quantity, price; LIMIT_MAKER quantity
 *   and price; MARKET exactly one of quantity / quoteOrderQty. Missing → -1102; a parameter the
 *   type does not take (timeInForce on MARKET, quoteOrderQty on LIMIT, both amounts on MARKET)
 *   → -1106 "Parameter '%s' sent when not required.".
 * - Not supported by the engine yet (issue 3): stop and take-profit types, stopPrice,
 *   trailingDelta, icebergQty and pegged orders. They are refused before the engine with -1014
 *   "Unsupported order combination." (Binance's text for a combination it does not take), so a
 *   bot learns at once that the simulator cannot run them rather than seeing them rest.
 * - newOrderRespType defaults to FULL for MARKET and LIMIT, ACK otherwise.
 * - Decimal amounts are converted at the symbol's precisions (-1111 when finer); grid and filter
 *   checks are the engine's (-1013 via rejectToApiError), as are funds and the rest (-2010).
 * - DELETE order resolves orderId / origClientOrderId as GET order does, but an unknown order is
 *   -2011 "Unknown order sent."; a failed cancelRestrictions is -2011 too, an invalid value -1145.
 * - DELETE openOrders with nothing open is -2011 "Unknown order sent." (as Binance answers).
 * - Unfilled order count: an order's first fill lowers the account's counts (order-count-limiter);
 *   fills of this request's taker and of makers whose first fill it was are reported here.
 *   Fills the replay's market model makes between requests are not reported yet.
 */
import type { EngineEvent, OrderAccepted, OrderCanceled, OrderRejected } from '../../engine/events.ts';
import type { SymbolSpec } from '../../engine/symbol-spec.ts';
import type { OrderType } from '../../engine/types.ts';
import { STP_MODES } from '../../engine/types.ts';
import { ApiError } from '../api-error.ts';
import type { ExchangeContext } from '../exchange-context.ts';
import { EMPTY_ERRORS, ENUM_ERRORS, paramErrors } from '../params/param-errors.ts';
import { bothOrNeither, eitherRequired, notAllowedWhen, requiredWhen } from '../params/param-rules.ts';
import type { ParsedParams } from '../params/param-schema.ts';
import { defineSchema, withSigned } from '../params/param-schema.ts';
import type { ParsedSoFar } from '../params/param-types.ts';
import { rejectToApiError } from '../reject-errors.ts';
import { discountJson, makerTakerJson } from '../serialize/commission-json.ts';
import { cancelJson, placementJson, type NewOrderRespType } from '../serialize/order-json.ts';
import { accountOf, accountViewOf, SYMBOL, symbolSpec, wireContext } from './common.ts';
import { defineEndpoint } from './endpoint-row.ts';
import { findOrder } from './account.ts';

const ORDER_TYPES = ['LIMIT', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT', 'LIMIT_MAKER'] as const;
const SUPPORTED_TYPES: ReadonlySet<string> = new Set(['LIMIT', 'LIMIT_MAKER', 'MARKET']);
const CLIENT_ID_PATTERN = { regex: /^[a-zA-Z0-9\-_]{1,36}$/, text: '^[a-zA-Z0-9-_]{1,36}$' };
const MIN_STRATEGY_TYPE = 1_000_000;

const unsupportedCombination = (): ApiError => new ApiError(400, -1014, 'Unsupported order combination.');
const unknownOrderSent = (): ApiError => new ApiError(400, -2011, 'Unknown order sent.');

const isType = (...types: string[]) => (v: ParsedSoFar) => types.includes(v['type'] as string);

const NEW_ORDER_PARAMS = [
  SYMBOL,
  { name: 'side', kind: 'ENUM', required: true, values: ['BUY', 'SELL'], invalid: ENUM_ERRORS.side },
  { name: 'type', kind: 'ENUM', required: true, values: ORDER_TYPES, invalid: ENUM_ERRORS.orderType },
  { name: 'timeInForce', kind: 'ENUM', values: ['GTC', 'IOC', 'FOK'], invalid: ENUM_ERRORS.timeInForce },
  { name: 'quantity', kind: 'DECIMAL' },
  { name: 'quoteOrderQty', kind: 'DECIMAL' },
  { name: 'price', kind: 'DECIMAL' },
  { name: 'newClientOrderId', kind: 'STRING', pattern: CLIENT_ID_PATTERN, empty: EMPTY_ERRORS.newClientOrderId },
  { name: 'strategyId', kind: 'LONG' },
  { name: 'strategyType', kind: 'INT' },
  { name: 'stopPrice', kind: 'DECIMAL' },
  { name: 'trailingDelta', kind: 'LONG' },
  { name: 'icebergQty', kind: 'DECIMAL' },
  { name: 'newOrderRespType', kind: 'ENUM', values: ['ACK', 'RESULT', 'FULL'] },
  { name: 'selfTradePreventionMode', kind: 'ENUM', values: STP_MODES },
  { name: 'pegPriceType', kind: 'ENUM', values: ['PRIMARY_PEG', 'MARKET_PEG'], invalid: ENUM_ERRORS.pegPriceType },
  { name: 'pegOffsetValue', kind: 'INT' },
  { name: 'pegOffsetType', kind: 'ENUM', values: ['PRICE_LEVEL'], invalid: ENUM_ERRORS.pegOffsetType },
] as const;

const NEW_ORDER_RULES = [
  requiredWhen('timeInForce', isType('LIMIT')),
  requiredWhen('quantity', isType('LIMIT', 'LIMIT_MAKER')),
  requiredWhen('price', isType('LIMIT', 'LIMIT_MAKER')),
  (v: ParsedSoFar) => {
    if (v['type'] === 'MARKET' && v['quantity'] === undefined && v['quoteOrderQty'] === undefined) throw paramErrors.eitherRequired('quantity', 'quoteOrderQty');
  },
  notAllowedWhen('timeInForce', isType('MARKET', 'LIMIT_MAKER')),
  notAllowedWhen('quoteOrderQty', (v) => v['type'] !== 'MARKET' || v['quantity'] !== undefined),
  notAllowedWhen('price', isType('MARKET')),
  bothOrNeither('pegOffsetType', 'pegOffsetValue'),
];

const NEW_ORDER_SCHEMA = defineSchema(withSigned(NEW_ORDER_PARAMS), NEW_ORDER_RULES);
const TEST_ORDER_SCHEMA = defineSchema(withSigned([...NEW_ORDER_PARAMS, { name: 'computeCommissionRates', kind: 'BOOLEAN' }] as const), NEW_ORDER_RULES);

type NewOrderParams = ParsedParams<typeof NEW_ORDER_SCHEMA.params>;

/** The engine command for a new order, or the parameter error; nothing is sent. */
function newOrderCommand(p: NewOrderParams, spec: SymbolSpec, accountId: number) {
  if (!SUPPORTED_TYPES.has(p.type)) throw unsupportedCombination();
  if (p.stopPrice !== undefined || p.trailingDelta !== undefined || p.icebergQty !== undefined || p.pegPriceType !== undefined || p.pegOffsetType !== undefined) {
    throw unsupportedCombination();
  }
  if (p.strategyType !== undefined && p.strategyType < MIN_STRATEGY_TYPE) throw paramErrors.invalidData('strategyType');
  return {
    type: 'PlaceOrder' as const,
    accountId,
    symbol: spec.symbol,
    side: p.side,
    orderType: p.type as OrderType,
    ...(p.timeInForce === undefined ? {} : { timeInForce: p.timeInForce }),
    ...(p.price === undefined ? {} : { price: p.price.units(spec.quotePrecision) }),
    ...(p.quantity === undefined ? {} : { quantity: p.quantity.units(spec.basePrecision) }),
    ...(p.quoteOrderQty === undefined ? {} : { quoteOrderQty: p.quoteOrderQty.units(spec.quotePrecision) }),
    ...(p.newClientOrderId === undefined ? {} : { clientOrderId: p.newClientOrderId }),
    ...(p.selfTradePreventionMode === undefined ? {} : { selfTradePreventionMode: p.selfTradePreventionMode }),
    ...(p.strategyId === undefined ? {} : { strategyId: p.strategyId }),
    ...(p.strategyType === undefined ? {} : { strategyType: p.strategyType }),
  };
}

/** Lowers unfilled-order counts for every order whose first fill is among `events`. */
export function noteFirstFills(ctx: ExchangeContext, events: readonly EngineEvent[]): void {
  const engine = ctx.backend.engine;
  const filledHere = new Map<string, { account: number; symbol: string; orderId: number; qty: number; time: number }>();
  const add = (account: number, symbol: string, orderId: number, qty: number, time: number) => {
    const key = `${symbol}:${orderId}`;
    const row = filledHere.get(key);
    if (row === undefined) filledHere.set(key, { account, symbol, orderId, qty, time });
    else row.qty += qty;
  };
  for (const e of events) {
    if (e.type !== 'TradeExecuted') continue;
    add(e.takerAccountId, e.symbol, e.takerOrderId, e.quantity, e.time);
    add(e.makerAccountId, e.symbol, e.makerOrderId, e.quantity, e.time);
  }
  for (const f of filledHere.values()) {
    const order = engine.getOrder(f.account, f.symbol, { orderId: f.orderId });
    // First fill: everything it has executed was executed by this command.
    if (order !== undefined && order.executedQty === f.qty) ctx.orderLimiter.onFirstFill(String(f.account), f.time);
  }
}

function rejection(events: readonly EngineEvent[]): OrderRejected | undefined {
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
    const events = call.ctx.apply(command);
    const rejected = rejection(events);
    if (rejected !== undefined) throw rejectToApiError(rejected.reason, 'place', command.orderType);
    const accepted = events.find((e): e is OrderAccepted => e.type === 'OrderAccepted');
    if (accepted === undefined) throw new Error('PlaceOrder neither accepted nor rejected'); // engine contract
    noteFirstFills(call.ctx, events);
    const order = call.ctx.backend.engine.getOrder(accountId, spec.symbol, { orderId: accepted.orderId });
    if (order === undefined) throw new Error('accepted order not found'); // engine contract
    const respType: NewOrderRespType = p.newOrderRespType ?? (p.type === 'MARKET' || p.type === 'LIMIT' ? 'FULL' : 'ACK');
    return placementJson(respType, accepted, order, events, wireContext(call, spec));
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
    const command = newOrderCommand(p, spec, accountId);
    // Everything placement would check except funds, at simulated now; nothing is recorded.
    const refusal = call.ctx.backend.engine.placementRefusal({ ...command, time: call.nowUs });
    if (refusal !== null) throw rejectToApiError(refusal, 'place', command.orderType);
    if (p.computeCommissionRates !== true) return {};
    const acct = accountViewOf(call);
    return {
      standardCommissionForOrder: makerTakerJson(acct.standardCommission),
      specialCommissionForOrder: makerTakerJson(acct.specialCommission),
      taxCommissionForOrder: makerTakerJson(acct.taxCommission),
      discount: discountJson(acct, spec),
    };
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
      { name: 'newClientOrderId', kind: 'STRING', pattern: CLIENT_ID_PATTERN, empty: EMPTY_ERRORS.newClientOrderId },
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
    const engine = call.ctx.backend.engine;
    return canceled.map((c) => {
      const order = engine.getOrder(accountId, spec.symbol, { orderId: c.orderId });
      if (order === undefined) throw new Error('canceled order not found'); // engine contract
      return cancelJson(order, c.cancelClientOrderId, c.time, wireContext(call, spec));
    });
  },
});
