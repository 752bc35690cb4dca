/**
 * USDⓈ-M order rows (futures facts §2, §3.1): POST / DELETE / GET /fapi/v1/order, GET openOrder,
 * openOrders, allOrders, DELETE allOpenOrders, POST / DELETE batchOrders, GET userTrades, POST
 * countdownCancelAll (context/futures-countdowns.ts), PUT /fapi/v1/order and PUT batchOrders
 * (modify a LIMIT order: -5025 otherwise, -5027 when nothing changes; the engine's
 * ModifyMarginOrder).
 *
 * Rules:
 * - Orders are LIMIT (GTC, IOC, FOK, GTX, GTD) or MARKET on the engine's margin symbol `um:<symbol>`;
 *   the parameter stage (futures-order-request.ts) refuses the conditional types (-4120) and
 *   missing fields; filters, position side, reduce only and margin are the engine's refusals,
 *   each answered with its futures code (futures-refusals.ts), and a refused order changes nothing.
 * - GTX is sent as GTC + postOnly (-5022 if it would take). GTD passes its bounds check (-5040)
 *   and is sent as GTC + goodTillTime (goodTillDate truncated to the second, in engine µs): the
 *   engine expires it on the first command at or after that time (engine/futures/good-till-date.ts);
 *   answers show timeInForce GTD and the goodTillDate (ms, to the second) — 0 for other orders.
 * - priceMatch (LIMIT only; not with price): the facade takes the price from the book at placement
 *   or modify (OPPONENT_n: the n-th best level of the other side, QUEUE_n: of the own side; the
 *   deepest there is when shallower; -1130 when that side is empty, **chosen**) and the order
 *   rests as a plain LIMIT at it; answers and the stream show the mode (ctx.futuresPriceMatch).
 * - newOrderRespType ACK (default) answers the order as accepted (NEW, nothing executed); RESULT
 *   the order after the command (a MARKET order FILLED, an IOC/FOK final).
 * - Weights: POST order 0 IP weight and 1 order count (10 s and 1 min), batchOrders 5 IP weight
 *   and 5 order counts whatever the number of items (**chosen**: the docs' "oc 5+1" per request;
 *   one limiter counts both windows alike). DELETE order / GET order /
 *   openOrder / allOpenOrders / DELETE batchOrders 1, openOrders 1 with symbol and 40 without,
 *   allOrders and userTrades 5.
 * - Unknown orders: GET order and openOrder -2013 "Order does not exist." (an order not open for
 *   openOrder too), DELETE -2011 "Unknown order sent.".
 * - DELETE allOpenOrders answers {"code":200,"msg":"The operation of cancel all open order is done."}
 *   (HTTP 200) whether or not anything was open.
 */
import { type EngineEvent, type EngineQueries, type OrderAccepted, type PlaceOrder, type SymbolSpec, type TimeInForce, spotAssetOf } from '../../../engine/index.ts';
import { priceOfMatch } from '../../context/index.ts';
import { type ApiError, apiError, matchingEngineError } from '../../core/index.ts';
import { ENUM_ERRORS, EMPTY_ERRORS, eitherRequired, invalidWhen, paramErrors, parseParams, withSigned, type ParsedParams, type RawParams } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { OPTIONAL_SYMBOL, SYMBOL, timeUs } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';
import { accountOf, contractOf, extrasOf, fapiName, marginSpec, marginSpecs, wireOf } from './futures-engine.ts';
import { futuresOrderJson, futuresOrderQueryJson } from './futures-order-json.ts';
import { checkGoodTillDate, FUTURES_ORDER_PARAMS, FUTURES_ORDER_RULES, futuresNotRequired, futuresUnits, positivePrice, PRICE_MATCHES, weekWindow, fapiSchema, futuresMandatory } from './futures-order-request.ts';
import { futuresError, futuresRefusal } from './futures-refusals.ts';
import { fmoney, fprice, fqty } from './futures-wire.ts';

const ORDER_SCHEMA = fapiSchema(withSigned(FUTURES_ORDER_PARAMS), FUTURES_ORDER_RULES);
/** One item of batchOrders: the order's own parameters, no signature (the batch is signed). */
const ITEM_SCHEMA = fapiSchema(FUTURES_ORDER_PARAMS, FUTURES_ORDER_RULES);
type OrderParams = ParsedParams<typeof FUTURES_ORDER_PARAMS>;

const MAX_BATCH = 5;
const MAX_CANCEL_BATCH = 10;
const CANCEL_ALL_DONE = { code: 200, msg: 'The operation of cancel all open order is done.' } as const;

const unknownOrderSent = (): ApiError => matchingEngineError('UNKNOWN_ORDER', 'cancel');
const orderDoesNotExist = (): ApiError => apiError('NO_SUCH_ORDER');

/** The MIN_NOTIONAL of a contract, as -4164 names it. */
function minNotionalText(call: HandlerCall, spec: SymbolSpec): string {
  const f = contractOf(call, spec).filters.find((x) => x.filterType === 'MIN_NOTIONAL');
  return f !== undefined && f.filterType === 'MIN_NOTIONAL' ? f.notional : '0';
}

/** The engine command of one order; parameter errors that need the symbol or now are thrown here. */
/** A priceMatch other than NONE, or undefined. */
function matchedMode(mode: string | undefined): string | undefined {
  return mode === undefined || mode === 'NONE' ? undefined : mode;
}

/** The price a priceMatch mode takes from the book now; -1130 when that side of the book is empty (chosen). */
function matchedPrice(engine: EngineQueries, spec: SymbolSpec, side: 'BUY' | 'SELL', mode: string): number {
  const price = priceOfMatch(engine.depth(spec.symbol, 20), side, mode);
  if (price === undefined) throw paramErrors.invalidData('priceMatch');
  return price;
}

function placeCommand(p: OrderParams, spec: SymbolSpec, accountId: number, nowUs: number, engineOf: (spec: SymbolSpec) => EngineQueries): Omit<PlaceOrder, 'time'> {
  checkGoodTillDate(p.goodTillDate, nowUs);
  const quantity = p.quantity === undefined ? undefined : futuresUnits(p.quantity, spec.basePrecision);
  const price = matchedMode(p.priceMatch) === undefined ? (p.price === undefined ? undefined : futuresUnits(p.price, spec.quotePrecision)) : matchedPrice(engineOf(spec), spec, p.side, p.priceMatch!);
  const postOnly = p.timeInForce === 'GTX';
  // GTD rests as GTC until its goodTillDate, to the second (the milliseconds are ignored, §3.1).
  const gtd = p.timeInForce === 'GTD' && p.goodTillDate !== undefined;
  const tif: TimeInForce | undefined = p.timeInForce === undefined ? undefined : postOnly || gtd ? 'GTC' : (p.timeInForce as TimeInForce);
  return {
    type: 'PlaceOrder',
    accountId,
    symbol: spec.symbol,
    side: p.side,
    orderType: p.type as 'LIMIT' | 'MARKET',
    ...(tif === undefined ? {} : { timeInForce: tif }),
    ...(price === undefined ? {} : { price }),
    ...(quantity === undefined ? {} : { quantity }),
    ...(p.newClientOrderId === undefined ? {} : { clientOrderId: p.newClientOrderId }),
    ...(p.selfTradePreventionMode === undefined ? {} : { selfTradePreventionMode: p.selfTradePreventionMode }),
    positionSide: p.positionSide ?? 'BOTH',
    ...(p.reduceOnly === undefined ? {} : { reduceOnly: p.reduceOnly }),
    ...(postOnly ? { postOnly: true } : {}),
    ...(gtd ? { goodTillTime: timeUs(p.goodTillDate! - (p.goodTillDate! % 1000)) } : {}),
  };
}

/** Places one order and answers it (ACK: as accepted; RESULT: as it stands after the command). */
function placeAndAnswer(call: HandlerCall, p: OrderParams): Record<string, unknown> {
  const spec = marginSpec(call, p.symbol);
  const accountId = accountOf(call);
  const engine = call.ctx.backend.engine;
  // reduceOnly "cannot be sent in Hedge Mode": "false" too is -1106 (as Binance answers it; the
  // engine refuses only a true one), before anything about the order is looked at, as on algoOrder.
  if (p.reduceOnly !== undefined && engine.futuresPositionMode(accountId) === 'HEDGE') throw apiError('FUTURES_REDUCE_ONLY_IN_HEDGE_MODE');
  const command = placeCommand(p, spec, accountId, call.nowUs, () => engine);
  const mode = matchedMode(p.priceMatch);
  if (mode !== undefined) call.ctx.futuresPriceMatch.expect(accountId, spec.symbol, mode);
  let events: readonly EngineEvent[];
  try {
    events = call.send(command, futuresRefusal({ notional: minNotionalText(call, spec) }));
  } finally {
    call.ctx.futuresPriceMatch.clear();
  }
  const accepted = events.find((e): e is OrderAccepted => e.type === 'OrderAccepted');
  if (accepted === undefined) throw new Error('PlaceOrder neither accepted nor rejected'); // engine contract
  const order = call.ctx.backend.engine.getOrder(accountId, spec.symbol, { orderId: accepted.orderId });
  if (order === undefined) throw new Error('accepted order not found'); // engine contract
  return futuresOrderJson(order, extrasOf(call, order), wireOf(call, spec), (p.newOrderRespType ?? 'ACK') === 'ACK');
}

export const newFuturesOrder = defineEndpoint({
  method: 'POST',
  path: '/fapi/v1/order',
  security: 'TRADE',
  weight: 0,
  orderCount: 1,
  schema: ORDER_SCHEMA,
  summary: 'USDⓈ-M futures: new LIMIT (GTC/IOC/FOK/GTX/GTD) or MARKET order; conditional types -4120 (use algoOrder)',
  handler: (p, call) => placeAndAnswer(call, p),
});

const ORDER_REF = [{ name: 'orderId', kind: 'LONG' }, { name: 'origClientOrderId', kind: 'STRING', empty: EMPTY_ERRORS.origClientOrderId }] as const;

/** The account's order on a margin symbol by id or client id, or `notFound`. */
function findFuturesOrder(call: HandlerCall, spec: SymbolSpec, ref: { readonly orderId?: number; readonly origClientOrderId?: string }, notFound: () => ApiError) {
  const engine = call.ctx.backend.engine;
  const accountId = accountOf(call);
  const order = ref.orderId !== undefined ? engine.getOrder(accountId, spec.symbol, { orderId: ref.orderId }) : engine.getOrder(accountId, spec.symbol, { clientOrderId: ref.origClientOrderId ?? '' });
  if (order === undefined) throw notFound();
  if (ref.orderId !== undefined && ref.origClientOrderId !== undefined && order.clientOrderId !== ref.origClientOrderId) throw notFound();
  return order;
}

/** Cancels one order and answers it as it stands canceled. */
function cancelAndAnswer(call: HandlerCall, spec: SymbolSpec, ref: { readonly orderId?: number; readonly origClientOrderId?: string }): Record<string, unknown> {
  const order = findFuturesOrder(call, spec, ref, unknownOrderSent);
  // An order no longer open is "Unknown order sent." on a cancel, as on spot.
  const events = call.send({ type: 'CancelOrder', accountId: order.accountId, symbol: spec.symbol, orderId: order.orderId }, (reason) =>
    reason === 'UNKNOWN_ORDER' ? unknownOrderSent() : futuresError(reason),
  );
  if (!events.some((e) => e.type === 'OrderCanceled')) throw unknownOrderSent();
  const after = call.ctx.backend.engine.getOrder(order.accountId, spec.symbol, { orderId: order.orderId }) ?? order;
  return futuresOrderJson(after, extrasOf(call, after), wireOf(call, spec));
}

const MODIFY_PARAMS = [
  SYMBOL,
  ...ORDER_REF,
  { name: 'side', kind: 'ENUM', required: true, values: ['BUY', 'SELL'], invalid: ENUM_ERRORS.side },
  { name: 'quantity', kind: 'DECIMAL', required: true },
  { name: 'price', kind: 'DECIMAL' },
  { name: 'priceMatch', kind: 'ENUM', values: PRICE_MATCHES },
  // Since 2026-09-15: "true" skips the MIN_NOTIONAL check only for an order placed reduce-only.
  { name: 'reduceOnly', kind: 'BOOLEAN' },
  // Since 2026-07-30: the client's number for this modify, passed through unchecked.
  { name: 'modifyId', kind: 'LONG' },
] as const;
const MODIFY_RULES = [eitherRequired('origClientOrderId', 'orderId'), positivePrice];
type ModifyParams = ParsedParams<typeof MODIFY_PARAMS>;

/**
 * Modifies a LIMIT order (PUT /fapi/v1/order and each PUT batchOrders item): the engine's
 * ModifyMarginOrder keeps the order id, sends it to the back of its new level, and cancels it
 * when the new quantity is not above what executed or a post-only order would take (§2).
 */
function modifyAndAnswer(call: HandlerCall, p: ModifyParams): Record<string, unknown> {
  const mode = matchedMode(p.priceMatch);
  if (mode === undefined && p.price === undefined) throw futuresMandatory('price');
  if (mode !== undefined && p.price !== undefined) throw futuresNotRequired('price');
  const spec = marginSpec(call, p.symbol);
  const order = findFuturesOrder(call, spec, p, orderDoesNotExist);
  // The side names the order; another side is not this order (**chosen**: -1130, undocumented).
  if (order.side !== p.side) throw paramErrors.invalidData('side');
  // reduceOnly=true is for an order placed reduce-only (which MIN_NOTIONAL exempts already); on
  // any other order it is -5047, and the order's own flag never changes (spec change log 2026-09-15).
  if (p.reduceOnly === true && !extrasOf(call, order).reduceOnly) throw apiError('FUTURES_MODIFY_NOT_REDUCE_ONLY');
  const quantity = futuresUnits(p.quantity, spec.basePrecision);
  if (quantity <= 0) throw apiError('FUTURES_QUANTITY_LESS_THAN_ZERO');
  const price = mode === undefined ? futuresUnits(p.price!, spec.quotePrecision) : matchedPrice(call.ctx.backend.engine, spec, order.side, mode);
  // The order is priced by this request from now: its mode, or the client's price (NONE); set
  // before the send so the AMENDMENT event shows it, put back if the modify is refused.
  const matches = call.ctx.futuresPriceMatch;
  const before = matches.modeOf(spec.symbol, order.orderId);
  const now = mode ?? 'NONE';
  if (now !== before) matches.set(spec.symbol, order.orderId, now);
  try {
    call.send(
      { type: 'ModifyMarginOrder', accountId: order.accountId, symbol: spec.symbol, orderId: order.orderId, price, quantity },
      (reason) => (reason === 'UNKNOWN_ORDER' ? orderDoesNotExist() : futuresError(reason, { notional: minNotionalText(call, spec) })),
    );
  } catch (e) {
    if (now !== before) matches.set(spec.symbol, order.orderId, before);
    throw e;
  }
  const after = call.ctx.backend.engine.getOrder(order.accountId, spec.symbol, { orderId: order.orderId }) ?? order;
  const answer = futuresOrderJson(after, extrasOf(call, after), wireOf(call, spec));
  // modifyId comes back as sent (**chosen**: last, and only when sent; the change log says only
  // that responses return it). The ORDER_TRADE_UPDATE `M` field is not built.
  return p.modifyId === undefined ? answer : { ...answer, modifyId: p.modifyId };
}

export const modifyFuturesOrder = defineEndpoint({
  method: 'PUT',
  path: '/fapi/v1/order',
  security: 'TRADE',
  weight: 0,
  orderCount: 1,
  schema: fapiSchema(withSigned(MODIFY_PARAMS), MODIFY_RULES),
  summary: 'USDⓈ-M futures: modify a LIMIT order (price, quantity; same order id, back of the level)',
  handler: (p, call) => modifyAndAnswer(call, p),
});

export const cancelFuturesOrder = defineEndpoint({
  method: 'DELETE',
  path: '/fapi/v1/order',
  security: 'TRADE',
  weight: 1,
  schema: fapiSchema(withSigned([SYMBOL, ...ORDER_REF]), [eitherRequired('origClientOrderId', 'orderId')]),
  summary: 'USDⓈ-M futures: cancel one order (-2011 when unknown)',
  handler: (p, call) => cancelAndAnswer(call, marginSpec(call, p.symbol), p),
});

export const getFuturesOrder = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/order',
  security: 'USER_DATA',
  weight: 1,
  schema: fapiSchema(withSigned([SYMBOL, ...ORDER_REF]), [eitherRequired('origClientOrderId', 'orderId')]),
  summary: 'USDⓈ-M futures: query one order',
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    const order = findFuturesOrder(call, spec, p, orderDoesNotExist);
    return futuresOrderQueryJson(order, extrasOf(call, order), wireOf(call, spec));
  },
});

export const getFuturesOpenOrder = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/openOrder',
  security: 'USER_DATA',
  weight: 1,
  schema: fapiSchema(withSigned([SYMBOL, ...ORDER_REF]), [eitherRequired('origClientOrderId', 'orderId')]),
  summary: 'USDⓈ-M futures: query one open order (-2013 once filled or canceled)',
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    const order = findFuturesOrder(call, spec, p, orderDoesNotExist);
    if (order.status !== 'NEW' && order.status !== 'PARTIALLY_FILLED') throw orderDoesNotExist();
    return futuresOrderQueryJson(order, extrasOf(call, order), wireOf(call, spec));
  },
});

export const futuresOpenOrders = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/openOrders',
  security: 'USER_DATA',
  weight: (p) => (p.symbol === undefined ? 40 : 1),
  schema: fapiSchema(withSigned([OPTIONAL_SYMBOL])),
  summary: 'USDⓈ-M futures: open orders of a symbol, or of every symbol',
  handler: (p, call) => {
    const specs = p.symbol === undefined ? marginSpecs(call) : [marginSpec(call, p.symbol)];
    const accountId = accountOf(call);
    return specs.flatMap((spec) => call.ctx.backend.engine.openOrders(accountId, spec.symbol).map((o) => futuresOrderQueryJson(o, extrasOf(call, o), wireOf(call, spec))));
  },
});

/** limit: 500 by default, 1..1000 (-1130 outside, as the futures rows answer). */
function futuresHistoryLimit(limit: number | undefined): number {
  if (limit === undefined) return 500;
  if (limit < 1 || limit > 1000) throw paramErrors.invalidData('limit');
  return limit;
}

const HISTORY = [
  { name: 'startTime', kind: 'LONG' },
  { name: 'endTime', kind: 'LONG' },
  { name: 'limit', kind: 'INT' },
] as const;

/**
 * GET /fapi/v1/allOrders. `symbol` is optional since 2026-08-25 (futures facts §2, spec change log):
 * without it the rows of every margin symbol, merged by time (then symbol, then order id), the
 * same window and limit. `orderId` counts within one symbol, so with it `symbol` stays mandatory
 * (**chosen**: -1102 'symbol', Binance does not say).
 */
export const futuresAllOrders = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/allOrders',
  security: 'USER_DATA',
  weight: 5,
  schema: fapiSchema(withSigned([OPTIONAL_SYMBOL, { name: 'orderId', kind: 'LONG' }, ...HISTORY])),
  summary: 'USDⓈ-M futures: orders of a symbol (or of every symbol) from orderId or in a time window',
  handler: (p, call) => {
    if (p.symbol === undefined && p.orderId !== undefined) throw futuresMandatory('symbol');
    const specs = p.symbol === undefined ? marginSpecs(call) : [marginSpec(call, p.symbol)];
    const { from, to } = weekWindow(call, p, p.orderId !== undefined);
    const limit = futuresHistoryLimit(p.limit);
    const accountId = accountOf(call);
    const rows = specs
      .flatMap((spec, rank) =>
        call.ctx.backend.engine
          .allOrders(accountId, spec.symbol)
          .filter((o) => (p.orderId === undefined || o.orderId >= p.orderId) && o.time >= from && o.time <= to)
          .map((o) => ({ o, spec, rank })),
      )
      .sort((a, b) => a.o.time - b.o.time || a.rank - b.rank || a.o.orderId - b.o.orderId);
    const picked = p.orderId !== undefined || p.startTime !== undefined ? rows.slice(0, limit) : rows.slice(Math.max(0, rows.length - limit));
    return picked.map(({ o, spec }) => futuresOrderQueryJson(o, extrasOf(call, o), wireOf(call, spec)));
  },
});

export const futuresCancelAllOpenOrders = defineEndpoint({
  method: 'DELETE',
  path: '/fapi/v1/allOpenOrders',
  security: 'TRADE',
  weight: 1,
  schema: fapiSchema(withSigned([SYMBOL])),
  summary: 'USDⓈ-M futures: cancel every open order of a symbol ({code:200} even when none)',
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    const accountId = accountOf(call);
    if (call.ctx.backend.engine.openOrders(accountId, spec.symbol).length > 0) {
      call.send({ type: 'CancelAllOrders', accountId, symbol: spec.symbol }, futuresRefusal());
    }
    return { ...CANCEL_ALL_DONE };
  },
});

/** batchOrders' items: a JSON array of 1..5 objects (-1130 otherwise). */
function batchItems(text: string, max: number, name: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw paramErrors.invalidData(name);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > max) throw paramErrors.invalidData(name);
  for (const item of parsed) if (item === null || typeof item !== 'object' || Array.isArray(item)) throw paramErrors.invalidData(name);
  return parsed as Record<string, unknown>[];
}

function itemParams(item: Record<string, unknown>): RawParams {
  const values = new Map<string, string>();
  const sources = new Map<string, 'body'>();
  for (const [k, v] of Object.entries(item)) {
    values.set(k, v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));
    sources.set(k, 'body');
  }
  return { query: '', body: '', values, sources };
}

/** An item's error as Binance lists it in the batch answer. */
function itemError(e: unknown): { code: number; msg: string } {
  if (e instanceof Error && 'code' in e && 'msg' in e) return { code: (e as ApiError).code, msg: (e as ApiError).msg };
  throw e;
}

export const futuresBatchOrders = defineEndpoint({
  method: 'POST',
  path: '/fapi/v1/batchOrders',
  security: 'TRADE',
  weight: 5,
  orderCount: 5,
  schema: fapiSchema(withSigned([{ name: 'batchOrders', kind: 'STRING', required: true }])),
  summary: 'USDⓈ-M futures: up to 5 orders; per-item answers in request order (an order or {code,msg})',
  handler: (p, call) =>
    batchItems(p.batchOrders, MAX_BATCH, 'batchOrders').map((item) => {
      try {
        return placeAndAnswer(call, parseParams(ITEM_SCHEMA, itemParams(item)));
      } catch (e) {
        return itemError(e);
      }
    }),
});

const MODIFY_ITEM_SCHEMA = fapiSchema(MODIFY_PARAMS, MODIFY_RULES);

export const futuresModifyBatchOrders = defineEndpoint({
  method: 'PUT',
  path: '/fapi/v1/batchOrders',
  security: 'TRADE',
  weight: 5,
  orderCount: 5,
  schema: fapiSchema(withSigned([{ name: 'batchOrders', kind: 'STRING', required: true }])),
  summary: 'USDⓈ-M futures: modify up to 5 LIMIT orders; per-item answers in request order',
  handler: (p, call) =>
    batchItems(p.batchOrders, MAX_BATCH, 'batchOrders').map((item) => {
      try {
        return modifyAndAnswer(call, parseParams(MODIFY_ITEM_SCHEMA, itemParams(item)));
      } catch (e) {
        return itemError(e);
      }
    }),
});

export const futuresCancelBatchOrders = defineEndpoint({
  method: 'DELETE',
  path: '/fapi/v1/batchOrders',
  security: 'TRADE',
  weight: 1,
  schema: fapiSchema(withSigned([SYMBOL, { name: 'orderIdList', kind: 'STRING' }, { name: 'origClientOrderIdList', kind: 'STRING' }]), [eitherRequired('orderIdList', 'origClientOrderIdList')]),
  summary: 'USDⓈ-M futures: cancel up to 10 orders by id or client id; per-item answers',
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    const refs: { orderId?: number; origClientOrderId?: string }[] = [];
    if (p.orderIdList !== undefined) {
      for (const v of batchList(p.orderIdList, 'orderIdList')) {
        if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw paramErrors.invalidData('orderIdList');
        refs.push({ orderId: v });
      }
    } else if (p.origClientOrderIdList !== undefined) {
      for (const v of batchList(p.origClientOrderIdList, 'origClientOrderIdList')) {
        if (typeof v !== 'string') throw paramErrors.invalidData('origClientOrderIdList');
        refs.push({ origClientOrderId: v });
      }
    }
    return refs.map((ref) => {
      try {
        return cancelAndAnswer(call, spec, ref);
      } catch (e) {
        return itemError(e);
      }
    });
  },
});

function batchList(text: string, name: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw paramErrors.invalidData(name);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_CANCEL_BATCH) throw paramErrors.invalidData(name);
  return parsed;
}

export const futuresCountdownCancelAll = defineEndpoint({
  method: 'POST',
  path: '/fapi/v1/countdownCancelAll',
  security: 'TRADE',
  weight: 10,
  schema: fapiSchema(withSigned([SYMBOL, { name: 'countdownTime', kind: 'LONG', required: true }])),
  summary: 'USDⓈ-M futures: cancel every open order of a symbol when the countdown (ms) runs out; 0 stops it',
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    call.ctx.futuresCountdowns.set(accountOf(call), spec.symbol, p.countdownTime * 1000, call.nowUs);
    return { symbol: fapiName(spec), countdownTime: String(p.countdownTime) };
  },
});

export const futuresUserTrades = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/userTrades',
  security: 'USER_DATA',
  weight: 5,
  // "The parameter fromId cannot be sent with startTime or endTime" (Binance's docs): -1128 as spot's combinations.
  schema: fapiSchema(withSigned([SYMBOL, { name: 'orderId', kind: 'LONG' }, ...HISTORY, { name: 'fromId', kind: 'LONG' }]), [
    invalidWhen((v) => v['fromId'] !== undefined && (v['startTime'] !== undefined || v['endTime'] !== undefined)),
  ]),
  summary: 'USDⓈ-M futures: account trades with commission and realized PnL',
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    const accountId = accountOf(call);
    const { from, to } = weekWindow(call, p, p.fromId !== undefined || p.orderId !== undefined);
    const limit = futuresHistoryLimit(p.limit);
    const engine = call.ctx.backend.engine;
    const rows = engine
      .accountTrades(accountId, spec.symbol)
      .filter((t) => (p.orderId === undefined || t.orderId === p.orderId) && (p.fromId === undefined || t.id >= p.fromId) && t.time >= from && t.time <= to);
    const picked = p.fromId !== undefined || p.startTime !== undefined ? rows.slice(0, limit) : rows.slice(Math.max(0, rows.length - limit));
    const symbol = fapiName(spec);
    // A fill's realized PnL is the REALIZED_PNL income the engine booked with it (by trade id).
    const pnl = new Map<number, number>();
    for (const r of engine.futuresIncome(accountId, { symbol: spec.symbol, incomeType: 'REALIZED_PNL' })) pnl.set(r.tradeId, (pnl.get(r.tradeId) ?? 0) + r.income);
    return picked.map((t) => {
      const order = engine.getOrder(accountId, spec.symbol, { orderId: t.orderId });
      return {
        buyer: t.isBuyer,
        commission: fmoney(spec, t.commission),
        commissionAsset: stripPrefix(t.commissionAsset),
        id: t.id,
        maker: t.isMaker,
        orderId: t.orderId,
        price: fprice(spec, t.price),
        qty: fqty(spec, t.qty),
        quoteQty: fmoney(spec, t.quoteQty),
        realizedPnl: fmoney(spec, pnl.get(t.id) ?? 0),
        side: t.isBuyer ? 'BUY' : 'SELL',
        positionSide: order === undefined ? 'BOTH' : extrasOf(call, order).positionSide,
        symbol,
        time: apiTime(t.time, call.unit),
      };
    });
  },
});

/** `um:USDT` → `USDT`: the futures API names its assets as Binance does. */
function stripPrefix(asset: string): string {
  return spotAssetOf(asset) ?? asset;
}
