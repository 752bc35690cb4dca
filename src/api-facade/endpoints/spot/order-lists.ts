/**
 * Order lists (binance-facts §5.12): placement of OCO (new and legacy), OTO, OTOCO, OPO and
 * OPOCO, DELETE orderList, and the queries orderList, allOrderList, openOrderList.
 *
 * Rules:
 * - Each leg's parameters carry a prefix (`above`, `below`, `working`, `pending`, `pendingAbove`,
 *   `pendingBelow`) and follow the one-order rules of order-request.ts under that prefix (e.g. a
 *   STOP_LOSS_LIMIT `belowType` without `belowTimeInForce` is -1102 for belowTimeInForce).
 * - Quantities: an OCO's `quantity` is both legs'; OTO and OTOCO take `workingQuantity` and
 *   `pendingQuantity` (the OTOCO pending pair shares it); OPO and OPOCO pending legs sell what the
 *   working order bought, so `pendingQuantity` there is -1225 "Pending orders should not include
 *   the 'pendingQuantity' tag." (declared so that the specific code answers, not -1104).
 * - Legacy OCO (POST /api/v3/order/oco): a LIMIT_MAKER leg at `price` and a STOP_LOSS leg at
 *   `stopPrice`, STOP_LOSS_LIMIT when `stopLimitPrice` is sent, which then needs
 *   `stopLimitTimeInForce` (-1128 with the 2019 changelog text). SELL: limit above, stop below;
 *   BUY the other way round. Its orderReports list the stop leg first.
 * - Everything else (leg types per list kind, sides, price relations, OPO sides -1222/-1223,
 *   filters, funds, MAX_NUM_ORDER_LISTS) is the engine's, as one refusal for the whole list.
 * - Unfilled order count: 2 for OCO, OTO, OPO; 3 for OTOCO, OPOCO.
 * - Answer: the list object with `orderReports` in the order response shape of newOrderRespType.
 *   Lists default to RESULT (the docs' list examples show RESULT-shaped reports without fills;
 *   the default is not stated for lists); FULL adds each report's fills.
 * - allOrderList: fromId excludes startTime/endTime (-1128); startTime..endTime at most 24 h
 *   (-1127); fromId or startTime give the oldest first, otherwise the newest `limit`; times are
 *   the lists' transactionTime.
 * - Not found: DELETE -2011 "Order list does not exist."; GET orderList -2013 with the same text.
 */
import type { OrderRequest, PlaceOrderList, EngineEvent, OrderAccepted, OrderCanceled, SymbolSpec, OrderListKind, SelfTradePreventionMode, Side, OrderListView } from '../../../engine/index.ts';
import { type ApiError, apiError } from '../../core/index.ts';
import { EMPTY_ERRORS, type ParamRule, eitherRequired, invalidWhen, notAllowedWhen, defineSchema, withSigned, type DecimalParam, type ParamSpec, type ParsedSoFar } from '../../params/index.ts';
import { cancelJson, placementJson, type NewOrderRespType, orderListJson } from '../../serialize/index.ts';
import { accountOf, spotLimit, SYMBOL, symbolSpec, timeWindow, wireContext } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';
import { badStrategyType, CLIENT_ID_PARAM, legValues, orderRequestOf, orderRules, PEG_OFFSET_TYPE_PARAM, PEG_PRICE_TYPE_PARAM, prefixedNames, RESP_TYPE, SIDE_PARAM, STP_PARAM, TIF_PARAM, TYPE_PARAM } from './order-request.ts';

const LIST_DEFAULT_RESP_TYPE: NewOrderRespType = 'RESULT';

const orderListNotFound = (): ApiError => apiError('NO_SUCH_ORDER_LIST');
const pendingParamNotRequired = (name: string): ApiError => apiError('PENDING_PARAMETER_NOT_REQUIRED', name);

type LegField =
  | 'Type'
  | 'Side'
  | 'ClientOrderId'
  | 'Price'
  | 'StopPrice'
  | 'TrailingDelta'
  | 'Quantity'
  | 'IcebergQty'
  | 'TimeInForce'
  | 'StrategyId'
  | 'StrategyType'
  | 'PegPriceType'
  | 'PegOffsetType'
  | 'PegOffsetValue';

const FIELD_SPECS: Record<LegField, Omit<ParamSpec, 'name'>> = {
  Type: TYPE_PARAM,
  Side: SIDE_PARAM,
  ClientOrderId: CLIENT_ID_PARAM,
  Price: { kind: 'DECIMAL' },
  StopPrice: { kind: 'DECIMAL' },
  TrailingDelta: { kind: 'LONG' },
  Quantity: { kind: 'DECIMAL' },
  IcebergQty: { kind: 'DECIMAL' },
  TimeInForce: TIF_PARAM,
  StrategyId: { kind: 'LONG' },
  StrategyType: { kind: 'INT' },
  PegPriceType: PEG_PRICE_TYPE_PARAM,
  PegOffsetType: PEG_OFFSET_TYPE_PARAM,
  PegOffsetValue: { kind: 'INT' },
};
const REQUIRED_FIELDS: ReadonlySet<LegField> = new Set(['Type', 'Side']);

function legSpecs(prefix: string, fields: readonly LegField[], required: readonly LegField[] = []): ParamSpec[] {
  return fields.map((f) => {
    const spec = { name: `${prefix}${f}`, ...FIELD_SPECS[f] } as ParamSpec;
    return REQUIRED_FIELDS.has(f) || required.includes(f) ? ({ ...spec, required: true } as ParamSpec) : spec;
  });
}

const PEG_FIELDS: readonly LegField[] = ['PegPriceType', 'PegOffsetType', 'PegOffsetValue'];
const OCO_LEG: readonly LegField[] = ['Type', 'ClientOrderId', 'IcebergQty', 'Price', 'StopPrice', 'TrailingDelta', 'TimeInForce', 'StrategyId', 'StrategyType', ...PEG_FIELDS];
const WORKING_LEG: readonly LegField[] = ['Type', 'Side', 'ClientOrderId', 'Price', 'Quantity', 'IcebergQty', 'TimeInForce', 'StrategyId', 'StrategyType', ...PEG_FIELDS];
const PENDING_LEG: readonly LegField[] = ['Type', 'Side', 'ClientOrderId', 'Price', 'StopPrice', 'TrailingDelta', 'Quantity', 'IcebergQty', 'TimeInForce', 'StrategyId', 'StrategyType', ...PEG_FIELDS];
const PENDING_PAIR_LEG: readonly LegField[] = ['Type', 'ClientOrderId', 'Price', 'StopPrice', 'TrailingDelta', 'IcebergQty', 'TimeInForce', 'StrategyId', 'StrategyType', ...PEG_FIELDS];

const LIST_CLIENT_ORDER_ID = { name: 'listClientOrderId', ...CLIENT_ID_PARAM } as const;

/** What a list kind's request looks like: its legs (by prefix) and where quantities come from. */
interface ListShape {
  readonly kind: OrderListKind;
  readonly path: string;
  readonly orderCount: number;
  readonly summary: string;
  readonly params: readonly ParamSpec[];
  readonly rules: readonly ParamRule[];
  /** The engine's legs in its order, from the parsed values. */
  readonly legs: (v: ParsedSoFar, spec: SymbolSpec) => OrderRequest[];
}

const stp = (v: ParsedSoFar) => v['selfTradePreventionMode'] as SelfTradePreventionMode | undefined;

const OCO_SHAPE: ListShape = {
  kind: 'OCO',
  path: '/api/v3/orderList/oco',
  orderCount: 2,
  summary: 'New OCO list: above and below legs sharing one quantity',
  params: [
    SYMBOL,
    LIST_CLIENT_ORDER_ID,
    { name: 'side', required: true, ...SIDE_PARAM },
    { name: 'quantity', kind: 'DECIMAL', required: true },
    ...legSpecs('above', OCO_LEG),
    ...legSpecs('below', OCO_LEG),
    RESP_TYPE,
    STP_PARAM,
  ],
  rules: [...orderRules(prefixedNames('above', null)), ...orderRules(prefixedNames('below', null))],
  legs: (v, spec) => {
    const shared = { side: v['side'] as Side, quantity: v['quantity'] as DecimalParam, selfTradePreventionMode: stp(v) };
    return [orderRequestOf(legValues(v, 'above', shared), spec), orderRequestOf(legValues(v, 'below', shared), spec)];
  },
};

function otoShape(kind: 'OTO' | 'OPO'): ListShape {
  const opo = kind === 'OPO';
  return {
    kind,
    path: opo ? '/api/v3/orderList/opo' : '/api/v3/orderList/oto',
    orderCount: 2,
    summary: opo
      ? 'New OPO list: a working BUY, then a pending SELL of what it bought'
      : 'New OTO list: a working order, then a pending order once it fills',
    params: [SYMBOL, LIST_CLIENT_ORDER_ID, RESP_TYPE, STP_PARAM, ...legSpecs('working', WORKING_LEG, ['Price', 'Quantity']), ...legSpecs('pending', PENDING_LEG, opo ? [] : ['Quantity'])],
    rules: [
      ...(opo ? [pendingQuantityRefused] : []),
      ...orderRules(prefixedNames('working', 'workingQuantity')),
      ...orderRules(prefixedNames('pending', opo ? null : 'pendingQuantity')),
    ],
    legs: (v, spec) => {
      const shared = { side: 'BUY' as Side, selfTradePreventionMode: stp(v) };
      return [orderRequestOf(legValues(v, 'working', shared), spec), orderRequestOf(legValues(v, 'pending', shared), spec)];
    },
  };
}

function otocoShape(kind: 'OTOCO' | 'OPOCO'): ListShape {
  const opo = kind === 'OPOCO';
  return {
    kind,
    path: opo ? '/api/v3/orderList/opoco' : '/api/v3/orderList/otoco',
    orderCount: 3,
    summary: opo
      ? 'New OPOCO list: a working BUY, then a pending SELL OCO pair of what it bought'
      : 'New OTOCO list: a working order, then a pending OCO pair once it fills',
    params: [
      SYMBOL,
      LIST_CLIENT_ORDER_ID,
      RESP_TYPE,
      STP_PARAM,
      ...legSpecs('working', WORKING_LEG, ['Price', 'Quantity']),
      { name: 'pendingSide', required: true, ...SIDE_PARAM },
      { name: 'pendingQuantity', kind: 'DECIMAL', ...(opo ? {} : { required: true }) },
      ...legSpecs('pendingAbove', PENDING_PAIR_LEG),
      ...legSpecs('pendingBelow', PENDING_PAIR_LEG),
    ],
    rules: [
      ...(opo ? [pendingQuantityRefused] : []),
      ...orderRules(prefixedNames('working', 'workingQuantity')),
      ...orderRules(prefixedNames('pendingAbove', null)),
      ...orderRules(prefixedNames('pendingBelow', null)),
    ],
    legs: (v, spec) => {
      const working = legValues(v, 'working', { side: 'BUY', selfTradePreventionMode: stp(v) });
      const pending = { side: v['pendingSide'] as Side, quantity: v['pendingQuantity'] as DecimalParam | undefined, selfTradePreventionMode: stp(v) };
      return [orderRequestOf(working, spec), orderRequestOf(legValues(v, 'pendingAbove', pending), spec), orderRequestOf(legValues(v, 'pendingBelow', pending), spec)];
    },
  };
}

function pendingQuantityRefused(v: ParsedSoFar): void {
  if (v['pendingQuantity'] !== undefined) throw pendingParamNotRequired('pendingQuantity');
}

/** Legacy OCO: LIMIT_MAKER + STOP_LOSS(_LIMIT), the stop leg reported first. */
const LEGACY_OCO_SHAPE: ListShape = {
  kind: 'OCO',
  path: '/api/v3/order/oco',
  orderCount: 2,
  summary: 'New OCO (legacy): LIMIT_MAKER and STOP_LOSS or STOP_LOSS_LIMIT',
  params: [
    SYMBOL,
    LIST_CLIENT_ORDER_ID,
    { name: 'side', required: true, ...SIDE_PARAM },
    { name: 'quantity', kind: 'DECIMAL', required: true },
    { name: 'limitClientOrderId', ...CLIENT_ID_PARAM },
    { name: 'price', kind: 'DECIMAL', required: true },
    { name: 'limitStrategyId', kind: 'LONG' },
    { name: 'limitStrategyType', kind: 'INT' },
    { name: 'limitIcebergQty', kind: 'DECIMAL' },
    { name: 'trailingDelta', kind: 'LONG' },
    { name: 'stopClientOrderId', ...CLIENT_ID_PARAM },
    { name: 'stopPrice', kind: 'DECIMAL', required: true },
    { name: 'stopStrategyId', kind: 'LONG' },
    { name: 'stopStrategyType', kind: 'INT' },
    { name: 'stopLimitPrice', kind: 'DECIMAL' },
    { name: 'stopIcebergQty', kind: 'DECIMAL' },
    { name: 'stopLimitTimeInForce', ...TIF_PARAM },
    RESP_TYPE,
    STP_PARAM,
  ],
  rules: [
    (v) => {
      if (v['stopLimitPrice'] !== undefined && v['stopLimitTimeInForce'] === undefined) {
        throw apiError('STOP_LIMIT_TIME_IN_FORCE_MISSING');
      }
    },
    notAllowedWhen('stopLimitTimeInForce', (v) => v['stopLimitPrice'] === undefined),
    notAllowedWhen('stopIcebergQty', (v) => v['stopLimitPrice'] === undefined),
    (v) => {
      for (const name of ['limitStrategyType', 'stopStrategyType']) {
        const t = v[name];
        if (typeof t === 'number' && t < 1_000_000) throw badStrategyType();
      }
    },
  ],
  legs: (v, spec) => {
    const side = v['side'] as Side;
    const quantity = v['quantity'] as DecimalParam;
    const stopLimit = v['stopLimitPrice'] as DecimalParam | undefined;
    const limitLeg = orderRequestOf(
      {
        side,
        type: 'LIMIT_MAKER',
        price: v['price'] as DecimalParam,
        quantity,
        clientOrderId: v['limitClientOrderId'] as string | undefined,
        strategyId: v['limitStrategyId'] as number | undefined,
        strategyType: v['limitStrategyType'] as number | undefined,
        icebergQty: v['limitIcebergQty'] as DecimalParam | undefined,
        selfTradePreventionMode: stp(v),
      },
      spec,
    );
    const stopLeg = orderRequestOf(
      {
        side,
        type: stopLimit === undefined ? 'STOP_LOSS' : 'STOP_LOSS_LIMIT',
        price: stopLimit,
        timeInForce: v['stopLimitTimeInForce'] as OrderRequest['timeInForce'],
        quantity,
        stopPrice: v['stopPrice'] as DecimalParam,
        trailingDelta: v['trailingDelta'] as number | undefined,
        clientOrderId: v['stopClientOrderId'] as string | undefined,
        strategyId: v['stopStrategyId'] as number | undefined,
        strategyType: v['stopStrategyType'] as number | undefined,
        icebergQty: v['stopIcebergQty'] as DecimalParam | undefined,
        selfTradePreventionMode: stp(v),
      },
      spec,
    );
    // SELL: take profit above, stop below; BUY: stop above, limit below.
    return side === 'SELL' ? [limitLeg, stopLeg] : [stopLeg, limitLeg];
  },
};

/** Places a list and answers with the list object and its orderReports. */
function placeList(shape: ListShape, v: ParsedSoFar, call: HandlerCall): Record<string, unknown> {
  const spec = symbolSpec(call, v['symbol'] as string);
  const accountId = accountOf(call);
  const legs = shape.legs(v, spec);
  const listClientOrderId = v['listClientOrderId'] as string | undefined;
  const command: Omit<PlaceOrderList, 'time'> = {
    type: 'PlaceOrderList',
    accountId,
    symbol: spec.symbol,
    kind: shape.kind,
    legs,
    ...(listClientOrderId === undefined ? {} : { listClientOrderId }),
  };
  const events = call.send(command, 'place');
  const listEvent = events.find((e) => e.type === 'OrderListUpdated');
  if (listEvent === undefined) throw new Error('PlaceOrderList neither placed nor refused'); // engine contract
  const list = call.ctx.backend.engine.getOrderList(accountId, { orderListId: listEvent.orderListId });
  if (list === undefined) throw new Error('placed list not found'); // engine contract
  const respType = (v['newOrderRespType'] as NewOrderRespType | undefined) ?? LIST_DEFAULT_RESP_TYPE;
  let reports = listPlacementReports(call, spec, list, events, respType);
  if (shape.path === LEGACY_OCO_SHAPE.path) reports = [...reports].sort((a, b) => stopFirst(a) - stopFirst(b));
  if (shape.kind === 'OPO' || shape.kind === 'OPOCO') {
    // The pending legs sell what the working order buys: their quantity is not known yet, and
    // their reports have no origQty (faqs/opo.md). The engine holds a placeholder meanwhile.
    reports = reports.map((r) => {
      if (r['status'] !== 'PENDING_NEW') return r;
      const { origQty: _unknown, ...rest } = r;
      return rest;
    });
  }
  return orderListJson(list, call.unit, reports);
}

const stopFirst = (report: Record<string, unknown>): number => (report['type'] === 'LIMIT_MAKER' ? 1 : 0);

function listPlacementReports(call: HandlerCall, spec: SymbolSpec, list: OrderListView, events: readonly EngineEvent[], respType: NewOrderRespType): Record<string, unknown>[] {
  const engine = call.ctx.backend.engine;
  return list.orders.map(({ orderId }) => {
    const accepted = events.find((e): e is OrderAccepted => e.type === 'OrderAccepted' && e.orderId === orderId);
    const order = engine.getOrder(list.accountId, list.symbol, { orderId });
    if (accepted === undefined || order === undefined) throw new Error('list leg not reported'); // engine contract
    return placementJson(respType, accepted, order, events, wireContext(call, spec));
  });
}

function listEndpoint(shape: ListShape) {
  return defineEndpoint({
    method: 'POST',
    path: shape.path,
    security: 'TRADE',
    weight: 1,
    weightOnFailureOnly: true,
    orderCount: shape.orderCount,
    schema: defineSchema(withSigned(shape.params), shape.rules),
    summary: shape.summary,
    handler: (p, call) => placeList(shape, p as ParsedSoFar, call),
  });
}

export const newOcoList = listEndpoint(OCO_SHAPE);
export const newLegacyOco = listEndpoint(LEGACY_OCO_SHAPE);
export const newOtoList = listEndpoint(otoShape('OTO'));
export const newOtocoList = listEndpoint(otocoShape('OTOCO'));
export const newOpoList = listEndpoint(otoShape('OPO'));
export const newOpocoList = listEndpoint(otocoShape('OPOCO'));

export const cancelOrderList = defineEndpoint({
  method: 'DELETE',
  path: '/api/v3/orderList',
  security: 'TRADE',
  weight: 1,
  weightOnFailureOnly: true,
  schema: defineSchema(
    withSigned([
      SYMBOL,
      { name: 'orderListId', kind: 'LONG' },
      { name: 'listClientOrderId', kind: 'STRING', empty: EMPTY_ERRORS.origClientOrderId },
      { name: 'newClientOrderId', ...CLIENT_ID_PARAM },
    ]),
    [eitherRequired('orderListId', 'listClientOrderId')],
  ),
  summary: 'Cancel an order list (all its open orders)',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const accountId = accountOf(call);
    const events = call.send(
      {
        type: 'CancelOrderList',
        accountId,
        symbol: spec.symbol,
        ...(p.orderListId === undefined ? {} : { orderListId: p.orderListId }),
        ...(p.listClientOrderId === undefined ? {} : { listClientOrderId: p.listClientOrderId }),
        ...(p.newClientOrderId === undefined ? {} : { newClientOrderId: p.newClientOrderId }),
      },
      'cancel',
    );
    const listEvent = events.find((e) => e.type === 'OrderListUpdated');
    if (listEvent === undefined) throw new Error('CancelOrderList neither done nor refused'); // engine contract
    const list = call.ctx.backend.engine.getOrderList(accountId, { orderListId: listEvent.orderListId });
    if (list === undefined) throw new Error('canceled list not found'); // engine contract
    return orderListJson(list, call.unit, cancelReports(call, spec, accountId, events));
  },
});

/** Cancel responses for every order a command canceled, in event order. */
export function cancelReports(call: HandlerCall, spec: SymbolSpec, accountId: number, events: readonly EngineEvent[]): Record<string, unknown>[] {
  const engine = call.ctx.backend.engine;
  return events
    .filter((e): e is OrderCanceled => e.type === 'OrderCanceled')
    .map((c) => {
      const order = engine.getOrder(accountId, spec.symbol, { orderId: c.orderId });
      if (order === undefined) throw new Error('canceled order not found'); // engine contract
      return cancelJson(order, c.cancelClientOrderId, c.time, wireContext(call, spec));
    });
}

export const getOrderList = defineEndpoint({
  method: 'GET',
  path: '/api/v3/orderList',
  security: 'USER_DATA',
  weight: 4,
  schema: defineSchema(
    withSigned([
      { name: 'orderListId', kind: 'LONG' },
      { name: 'origClientOrderId', kind: 'STRING', empty: EMPTY_ERRORS.origClientOrderId },
    ]),
    [eitherRequired('orderListId', 'origClientOrderId')],
  ),
  summary: 'One order list by orderListId or its listClientOrderId',
  handler: (p, call) => {
    const ref = p.orderListId !== undefined ? { orderListId: p.orderListId } : { listClientOrderId: p.origClientOrderId as string };
    const list = call.ctx.backend.engine.getOrderList(accountOf(call), ref);
    if (list === undefined) throw orderListNotFound();
    return orderListJson(list, call.unit);
  },
});

export const allOrderLists = defineEndpoint({
  method: 'GET',
  path: '/api/v3/allOrderList',
  security: 'USER_DATA',
  weight: 20,
  schema: defineSchema(
    withSigned([
      { name: 'fromId', kind: 'LONG' },
      { name: 'startTime', kind: 'LONG' },
      { name: 'endTime', kind: 'LONG' },
      { name: 'limit', kind: 'INT' },
    ]),
    [invalidWhen((v) => v['fromId'] !== undefined && (v['startTime'] !== undefined || v['endTime'] !== undefined))],
  ),
  summary: 'All order lists of the account (fromId or a 24 h span)',
  handler: (p, call) => {
    const { from, to } = timeWindow(p);
    const rows = call.ctx.backend.engine
      .allOrderLists(accountOf(call))
      .filter((l) => (p.fromId === undefined || l.orderListId >= p.fromId) && l.transactionTime >= from && l.transactionTime <= to);
    const limit = spotLimit(p.limit);
    const fromLower = p.fromId !== undefined || p.startTime !== undefined;
    const picked = fromLower ? rows.slice(0, limit) : rows.slice(Math.max(0, rows.length - limit));
    return picked.map((l) => orderListJson(l, call.unit));
  },
});

export const openOrderLists = defineEndpoint({
  method: 'GET',
  path: '/api/v3/openOrderList',
  security: 'USER_DATA',
  weight: 6,
  schema: defineSchema(withSigned([])),
  summary: 'Order lists of the account still executing',
  handler: (_p, call) => call.ctx.backend.engine.openOrderLists(accountOf(call)).map((l) => orderListJson(l, call.unit)),
});
