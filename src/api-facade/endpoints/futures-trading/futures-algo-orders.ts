/**
 * USDⓈ-M conditional orders (futures facts §3.2): POST / GET / DELETE /fapi/v1/algoOrder,
 * DELETE /fapi/v1/algoOpenOrders, GET /fapi/v1/openAlgoOrders, GET /fapi/v1/allAlgoOrders. The
 * book is src/futures/trading/algo-orders.ts; the context's FuturesAlgoDriver places the engine
 * order at the trigger and pushes ALGO_UPDATE.
 *
 * Rules:
 * - algoType CONDITIONAL only; type STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET,
 *   TRAILING_STOP_MARKET (-1116 for anything else: LIMIT and MARKET are /fapi/v1/order's).
 * - Required: triggerPrice except for trailing orders; price and quantity for STOP/TAKE_PROFIT;
 *   quantity for the market types unless closePosition; callbackRate (0.1 .. 10) for trailing
 *   (-1102 when missing, -1130 out of range). closePosition only on STOP_MARKET/TAKE_PROFIT_MARKET
 *   and never with quantity or reduceOnly (-1106, **chosen**: the docs' -4137/-4138 texts are not
 *   known); reduceOnly not in hedge mode (-1106 as the engine answers it on /order).
 * - Prices on the tick (-4014) and quantities on the step (-4023) of the symbol at placement; the
 *   rest of the filters, margin and position rules are checked when it fires (a refusal then is
 *   ALGO_UPDATE REJECTED with `rm`, as Binance does since 2025-12-15).
 * - -2021 "Order would immediately trigger." against the price the order watches (mark for
 *   MARK_PRICE, the last trade of the contract otherwise), when one is known; 200 open
 *   conditional orders per account across symbols (-4045 "Reach max stop order limit.").
 * - Weights: POST 0 IP weight and 1 order count; GET/DELETE algoOrder and algoOpenOrders 1,
 *   openAlgoOrders 1 with a symbol / 40 without, allAlgoOrders 5.
 * - Answers: the request's fields (type as `orderType`) with algoId, algoStatus, icebergQuantity
 *   (null), createTime, updateTime, triggerTime; queries add actualOrderId, actualPrice,
 *   actualType, actualQty, tpOrderType; cancel {algoId, clientAlgoId, code "200", msg "success"}.
 * - GTD with goodTillDate (-1102 without it, -1106 for goodTillDate without GTD, -5040 out of
 *   bounds, as on /order): the order still waiting at its goodTillDate (to the second) expires
 *   (algoStatus EXPIRED, **chosen**: the docs list GTD for algo orders without saying more); a
 *   STOP / TAKE_PROFIT fired before rests in the engine as a GTD LIMIT. priceMatch ≠ NONE is not
 *   supported (-1130); priceProtect keeps the order from firing while the mark and the last price
 *   stand further apart than the symbol's triggerProtect (algo-orders.ts).
 */
import type { SymbolSpec } from '../../../engine/index.ts';
import { apiError, matchingEngineError } from '../../core/index.ts';
import { ENUM_ERRORS, eitherRequired, paramErrors, withSigned, type DecimalParam, type ParsedParams } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import type { AlgoOrder, AlgoOrderType } from '../../../futures/index.ts';
import { OPTIONAL_SYMBOL, SYMBOL, timeUs } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';
import { accountOf, fapiName, marginSpec } from './futures-engine.ts';
import { FUTURES_CLIENT_ID_PATTERN, FUTURES_STP_MODES, POSITION_SIDES, PRICE_MATCHES, WORKING_TYPES, checkGoodTillDate, futuresNotRequired, futuresUnits, weekWindow, fapiSchema, futuresMandatory } from './futures-order-request.ts';
import { fprice, fqty } from './futures-wire.ts';

const ALGO_TYPES = ['STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'] as const;
const CANCEL_ALL_DONE = { code: 200, msg: 'The operation of cancel all open order is done.' } as const;

const ALGO_PARAMS = [
  { name: 'algoType', kind: 'ENUM', required: true, values: ['CONDITIONAL'] },
  SYMBOL,
  { name: 'side', kind: 'ENUM', required: true, values: ['BUY', 'SELL'], invalid: ENUM_ERRORS.side },
  { name: 'positionSide', kind: 'ENUM', values: POSITION_SIDES },
  { name: 'type', kind: 'ENUM', required: true, values: ALGO_TYPES, invalid: ENUM_ERRORS.orderType },
  { name: 'timeInForce', kind: 'ENUM', values: ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'], invalid: ENUM_ERRORS.timeInForce },
  { name: 'quantity', kind: 'DECIMAL' },
  { name: 'price', kind: 'DECIMAL' },
  { name: 'triggerPrice', kind: 'DECIMAL' },
  { name: 'workingType', kind: 'ENUM', values: WORKING_TYPES },
  { name: 'priceMatch', kind: 'ENUM', values: PRICE_MATCHES },
  { name: 'closePosition', kind: 'BOOLEAN' },
  { name: 'priceProtect', kind: 'BOOLEAN' },
  { name: 'reduceOnly', kind: 'BOOLEAN' },
  { name: 'activatePrice', kind: 'DECIMAL' },
  { name: 'callbackRate', kind: 'DECIMAL' },
  { name: 'clientAlgoId', kind: 'STRING', pattern: FUTURES_CLIENT_ID_PATTERN },
  { name: 'selfTradePreventionMode', kind: 'ENUM', values: FUTURES_STP_MODES },
  { name: 'goodTillDate', kind: 'LONG' },
  { name: 'newOrderRespType', kind: 'ENUM', values: ['ACK', 'RESULT'] },
] as const;

type AlgoParams = ParsedParams<typeof ALGO_PARAMS>;

const isType = (v: Record<string, unknown>, ...types: string[]) => types.includes(v['type'] as string);

function checkRequest(p: AlgoParams): void {
  const trailing = p.type === 'TRAILING_STOP_MARKET';
  const limit = p.type === 'STOP' || p.type === 'TAKE_PROFIT';
  if (!trailing && p.triggerPrice === undefined) throw futuresMandatory('triggerPrice');
  if (limit && p.price === undefined) throw futuresMandatory('price');
  if (p.quantity === undefined && !(p.closePosition === true && isType(p, 'STOP_MARKET', 'TAKE_PROFIT_MARKET'))) throw futuresMandatory('quantity');
  if (trailing && p.callbackRate === undefined) throw futuresMandatory('callbackRate');
  if (p.closePosition === true) {
    if (!isType(p, 'STOP_MARKET', 'TAKE_PROFIT_MARKET')) throw futuresNotRequired('closePosition');
    if (p.quantity !== undefined) throw futuresNotRequired('quantity');
    if (p.reduceOnly !== undefined) throw futuresNotRequired('reduceOnly');
  }
  if (!limit && p.price !== undefined) throw futuresNotRequired('price');
  if (trailing && p.triggerPrice !== undefined) throw futuresNotRequired('triggerPrice');
  if (!trailing && (p.activatePrice !== undefined || p.callbackRate !== undefined)) throw futuresNotRequired(p.activatePrice !== undefined ? 'activatePrice' : 'callbackRate');
  if (p.callbackRate !== undefined) {
    const rate = Number(p.callbackRate.text);
    if (!(rate >= 0.1 && rate <= 10)) throw paramErrors.invalidData('callbackRate');
  }
  // GTD as on /fapi/v1/order: goodTillDate required with it (-1102), not sent without it (-1106).
  if (p.timeInForce === 'GTD' && p.goodTillDate === undefined) throw futuresMandatory('goodTillDate');
  if (p.timeInForce !== 'GTD' && p.goodTillDate !== undefined) throw futuresNotRequired('goodTillDate');
  if (p.priceMatch !== undefined && p.priceMatch !== 'NONE') throw paramErrors.invalidData('priceMatch');
}

/** A price on the symbol's tick (-4014), in price units; 0 when absent. */
function priceUnits(spec: SymbolSpec, value: DecimalParam | undefined): number {
  if (value === undefined) return 0;
  const units = futuresUnits(value, spec.quotePrecision);
  if (units <= 0 || units % spec.tickUnits !== 0) throw apiError('FUTURES_PRICE_NOT_TICK');
  return units;
}

function quantityUnits(spec: SymbolSpec, value: DecimalParam | undefined): number {
  if (value === undefined) return 0;
  const units = futuresUnits(value, spec.basePrecision);
  if (units <= 0) throw apiError('FUTURES_QUANTITY_LESS_THAN_ZERO');
  if (units % spec.stepUnits !== 0) throw apiError('FUTURES_QUANTITY_NOT_STEP');
  return units;
}

/** What the order watches now: the mark, or the contract's last trade; undefined when unknown. */
function watchedPrice(call: HandlerCall, spec: SymbolSpec, workingType: 'MARK_PRICE' | 'CONTRACT_PRICE'): number | undefined {
  const engine = call.ctx.backend.engine;
  if (workingType === 'MARK_PRICE') {
    const mark = engine.futuresMarkPrice(spec.symbol)?.markPrice;
    return mark === undefined || mark === 0 ? undefined : mark;
  }
  return engine.lastTrade(spec.symbol)?.price;
}

function algoJson(o: AlgoOrder, call: HandlerCall): Record<string, unknown> {
  const spec = call.ctx.backend.engine.symbolSpec(o.symbol);
  if (spec === undefined) throw new Error(`algo order on unknown symbol ${o.symbol}`); // the book only holds margin symbols
  const price = (u: number) => (u === 0 ? '0' : fprice(spec, u));
  return {
    algoId: o.algoId,
    clientAlgoId: o.clientAlgoId,
    algoType: 'CONDITIONAL',
    orderType: o.type,
    symbol: fapiName(spec),
    side: o.side,
    positionSide: o.positionSide,
    timeInForce: o.timeInForce,
    quantity: fqty(spec, o.quantity),
    algoStatus: o.status,
    triggerPrice: price(o.triggerPrice),
    price: price(o.price),
    icebergQuantity: null,
    selfTradePreventionMode: o.selfTradePreventionMode,
    workingType: o.workingType,
    priceMatch: 'NONE',
    closePosition: o.closePosition,
    priceProtect: o.priceProtect,
    reduceOnly: o.reduceOnly,
    activatePrice: o.activatePrice === 0 ? '' : price(o.activatePrice),
    callbackRate: o.callbackRate,
    createTime: apiTime(o.createTime, call.unit),
    updateTime: apiTime(o.updateTime, call.unit),
    triggerTime: o.triggerTime === 0 ? 0 : apiTime(o.triggerTime, call.unit),
    goodTillDate: Math.floor((o.goodTillTime ?? 0) / 1000),
  };
}

function algoQueryJson(o: AlgoOrder, call: HandlerCall): Record<string, unknown> {
  const engine = call.ctx.backend.engine;
  const spec = engine.symbolSpec(o.symbol);
  const actual = o.actualOrderId < 0 ? undefined : engine.getOrder(o.accountId, o.symbol, { orderId: o.actualOrderId });
  const avg = actual === undefined || actual.executedQty === 0 || spec === undefined ? 0 : Number((BigInt(actual.cummulativeQuoteQty) * 10n ** BigInt(spec.basePrecision)) / BigInt(actual.executedQty));
  return {
    ...algoJson(o, call),
    actualOrderId: actual === undefined ? '' : String(actual.orderId),
    actualPrice: spec === undefined || avg === 0 ? '0' : fprice(spec, avg),
    actualType: actual?.type ?? '',
    actualQty: spec === undefined ? '0' : fqty(spec, actual?.executedQty ?? 0),
    tpOrderType: '',
  };
}

export const newAlgoOrder = defineEndpoint({
  method: 'POST',
  path: '/fapi/v1/algoOrder',
  security: 'TRADE',
  weight: 0,
  orderCount: 1,
  schema: fapiSchema(withSigned(ALGO_PARAMS)),
  summary: 'USDⓈ-M futures: new conditional order (STOP, STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET, TRAILING_STOP_MARKET), placed at its trigger',
  handler: (p, call) => {
    checkRequest(p);
    checkGoodTillDate(p.goodTillDate, call.nowUs);
    const spec = marginSpec(call, p.symbol);
    const accountId = accountOf(call);
    const workingType = p.workingType ?? 'CONTRACT_PRICE';
    if (p.reduceOnly !== undefined && call.ctx.backend.engine.futuresPositionMode(accountId) === 'HEDGE') throw apiError('FUTURES_REDUCE_ONLY_IN_HEDGE_MODE');
    const request = {
      accountId,
      symbol: spec.symbol,
      side: p.side,
      positionSide: p.positionSide ?? 'BOTH',
      type: p.type as AlgoOrderType,
      timeInForce: (p.timeInForce ?? 'GTC') as 'GTC' | 'IOC' | 'FOK' | 'GTX' | 'GTD',
      // GTD: to the second, in engine µs (the milliseconds are dropped, §3.1).
      ...(p.timeInForce === 'GTD' ? { goodTillTime: timeUs(p.goodTillDate! - (p.goodTillDate! % 1000)) } : {}),
      quantity: quantityUnits(spec, p.quantity),
      price: priceUnits(spec, p.price),
      triggerPrice: priceUnits(spec, p.triggerPrice),
      workingType,
      priceProtect: p.priceProtect ?? false,
      reduceOnly: p.reduceOnly ?? false,
      closePosition: p.closePosition ?? false,
      activatePrice: priceUnits(spec, p.activatePrice),
      callbackRate: p.callbackRate?.text ?? '',
      selfTradePreventionMode: p.selfTradePreventionMode ?? 'NONE',
      ...(p.clientAlgoId === undefined ? {} : { clientAlgoId: p.clientAlgoId }),
    } as const;
    const placed = call.ctx.futuresAlgo.book.place(request, call.nowUs, watchedPrice(call, spec, workingType));
    if (placed === 'WOULD_IMMEDIATELY_TRIGGER') throw apiError('FUTURES_WOULD_IMMEDIATELY_TRIGGER');
    if (placed === 'TOO_MANY_ALGO_ORDERS') throw apiError('FUTURES_MAX_ALGO_ORDERS');
    if (placed === 'DUPLICATE_CLIENT_ALGO_ID') throw apiError('FUTURES_CLIENT_ORDER_ID_INVALID');
    call.ctx.futuresAlgo.announce(placed, call.nowUs);
    return algoJson(placed, call);
  },
});

const ALGO_REF = [{ name: 'algoId', kind: 'LONG' }, { name: 'clientAlgoId', kind: 'STRING' }] as const;

export const getAlgoOrder = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/algoOrder',
  security: 'USER_DATA',
  weight: 1,
  schema: fapiSchema(withSigned(ALGO_REF), [eitherRequired('clientAlgoId', 'algoId')]),
  summary: 'USDⓈ-M futures: query a conditional order (with the engine order it placed)',
  handler: (p, call) => {
    const o = call.ctx.futuresAlgo.book.find(accountOf(call), p);
    if (o === undefined) throw apiError('NO_SUCH_ORDER');
    return algoQueryJson(o, call);
  },
});

export const cancelAlgoOrder = defineEndpoint({
  method: 'DELETE',
  path: '/fapi/v1/algoOrder',
  security: 'TRADE',
  weight: 1,
  schema: fapiSchema(withSigned(ALGO_REF), [eitherRequired('clientAlgoId', 'algoId')]),
  summary: 'USDⓈ-M futures: cancel an open conditional order',
  handler: (p, call) => {
    const accountId = accountOf(call);
    const book = call.ctx.futuresAlgo.book;
    const found = book.find(accountId, p);
    const o = found === undefined ? undefined : book.cancel(accountId, found.algoId, call.nowUs);
    if (o === undefined) throw matchingEngineError('UNKNOWN_ORDER', 'cancel');
    call.ctx.futuresAlgo.announce(o, call.nowUs);
    return { algoId: o.algoId, clientAlgoId: o.clientAlgoId, code: '200', msg: 'success' };
  },
});

export const cancelAllAlgoOrders = defineEndpoint({
  method: 'DELETE',
  path: '/fapi/v1/algoOpenOrders',
  security: 'TRADE',
  weight: 1,
  schema: fapiSchema(withSigned([SYMBOL])),
  summary: 'USDⓈ-M futures: cancel every open conditional order of a symbol',
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    const accountId = accountOf(call);
    const book = call.ctx.futuresAlgo.book;
    for (const o of book.ordersOf(accountId, spec.symbol)) {
      const canceled = book.cancel(accountId, o.algoId, call.nowUs);
      if (canceled !== undefined) call.ctx.futuresAlgo.announce(canceled, call.nowUs);
    }
    return { ...CANCEL_ALL_DONE };
  },
});

export const openAlgoOrders = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/openAlgoOrders',
  security: 'USER_DATA',
  weight: (p) => (p.symbol === undefined ? 40 : 1),
  schema: fapiSchema(withSigned([{ name: 'algoType', kind: 'ENUM', values: ['CONDITIONAL'] }, OPTIONAL_SYMBOL, { name: 'algoId', kind: 'LONG' }])),
  summary: 'USDⓈ-M futures: open conditional orders',
  handler: (p, call) => {
    const symbol = p.symbol === undefined ? undefined : marginSpec(call, p.symbol).symbol;
    return call.ctx.futuresAlgo.book
      .ordersOf(accountOf(call), symbol)
      .filter((o) => o.status === 'NEW' && (p.algoId === undefined || o.algoId === p.algoId))
      .map((o) => algoQueryJson(o, call));
  },
});

export const allAlgoOrders = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/allAlgoOrders',
  security: 'USER_DATA',
  weight: 5,
  schema: fapiSchema(
    withSigned([SYMBOL, { name: 'algoId', kind: 'LONG' }, { name: 'startTime', kind: 'LONG' }, { name: 'endTime', kind: 'LONG' }, { name: 'page', kind: 'INT' }, { name: 'limit', kind: 'INT' }]),
  ),
  summary: 'USDⓈ-M futures: conditional orders of a symbol from algoId or in a time window',
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    const limit = p.limit ?? 500;
    if (limit < 1 || limit > 1000) throw paramErrors.invalidData('limit');
    const { from, to } = weekWindow(call, p, p.algoId !== undefined);
    const rows = call.ctx.futuresAlgo.book
      .ordersOf(accountOf(call), spec.symbol)
      .filter((o) => (p.algoId === undefined || o.algoId >= p.algoId) && o.createTime >= from && o.createTime <= to);
    return rows.slice(0, limit).map((o) => algoQueryJson(o, call));
  },
});

