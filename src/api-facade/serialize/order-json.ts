/**
 * Orders as the REST API shows them (rest-api.md; binance-facts §5.14): decimal strings with the
 * asset's precision ("0.10000000"), times in ms or µs, fields in the documented order, and the
 * conditional fields only when they apply. Shapes: the query record (GET order, openOrders,
 * allOrders), the placement response (ACK, RESULT, FULL) and the cancel response.
 */
import { type EngineEvent, type OrderAccepted, type TradeExecuted, type SymbolSpec, formatUnits, type OrderView } from '../../engine/index.ts';
import { CONDITIONAL_TYPES } from '../../engine/types.ts';
import { apiTime, type TimeUnit } from './api-time.ts';
import { jsonString } from './json-text.ts';

export type NewOrderRespType = 'ACK' | 'RESULT' | 'FULL';

/** Decimal places of an asset by name (commissions may be paid in a third asset, e.g. BNB). */
export type AssetPrecision = (asset: string) => number;

export interface WireContext {
  spec: SymbolSpec;
  unit: TimeUnit;
  assetPrecision: AssetPrecision;
}

const price = (units: number, ctx: WireContext) => formatUnits(units, ctx.spec.quotePrecision);
const qty = (units: number, ctx: WireContext) => formatUnits(units, ctx.spec.basePrecision);

/**
 * The conditional fields of binance-facts §5.14, each present exactly when it applies, in the
 * documented order. `stopPrice` and `icebergQty` are core fields of the query record (always
 * shown there, "0.00000000" when unused), so `withStopAndIceberg` is false for that shape.
 */
function conditionalFields(o: OrderView, out: Record<string, unknown>, ctx: WireContext, withStopAndIceberg = true): void {
  if (withStopAndIceberg && CONDITIONAL_TYPES.has(o.type) && o.stopPrice > 0) out['stopPrice'] = price(o.stopPrice, ctx);
  if (withStopAndIceberg && o.icebergQty > 0) out['icebergQty'] = qty(o.icebergQty, ctx);
  if (o.preventedMatchId !== -1) out['preventedMatchId'] = o.preventedMatchId;
  if (o.preventedQuantity > 0) out['preventedQuantity'] = qty(o.preventedQuantity, ctx);
  if (o.strategyId !== null) out['strategyId'] = o.strategyId;
  if (o.strategyType !== null) out['strategyType'] = o.strategyType;
  if (o.trailingDelta > 0) {
    out['trailingDelta'] = o.trailingDelta;
    out['trailingTime'] = apiTime(o.trailingTime, ctx.unit);
  }
  if (o.usedSor) {
    // Single-venue simulation: every fill of an SOR order comes from the symbol's own book.
    out['usedSor'] = true;
    out['workingFloor'] = 'SOR';
  }
  if (o.pegPriceType !== null) {
    out['pegPriceType'] = o.pegPriceType;
    if (o.pegOffsetValue !== null) {
      out['pegOffsetType'] = 'PRICE_LEVEL';
      out['pegOffsetValue'] = o.pegOffsetValue;
    }
    if (o.peggedPrice > 0) out['peggedPrice'] = price(o.peggedPrice, ctx);
  }
  if (o.status === 'EXPIRED' || o.status === 'EXPIRED_IN_MATCH') out['expiryReason'] = o.expiryReason;
}

/** GET /api/v3/order, openOrders and allOrders. */
export function orderQueryJson(o: OrderView, ctx: WireContext): Record<string, unknown> {
  const out: Record<string, unknown> = {
    symbol: o.symbol,
    orderId: o.orderId,
    orderListId: o.orderListId,
    clientOrderId: o.clientOrderId,
    price: price(o.price, ctx),
    origQty: qty(o.origQty, ctx),
    executedQty: qty(o.executedQty, ctx),
    cummulativeQuoteQty: price(o.cummulativeQuoteQty, ctx),
    status: o.status,
    timeInForce: o.timeInForce,
    type: o.type,
    side: o.side,
    stopPrice: price(o.stopPrice, ctx),
    icebergQty: qty(o.icebergQty, ctx),
    time: apiTime(o.time, ctx.unit),
    updateTime: apiTime(o.updateTime, ctx.unit),
    isWorking: o.isWorking,
    workingTime: apiTime(o.workingTime, ctx.unit),
    origQuoteOrderQty: price(o.origQuoteOrderQty, ctx),
    selfTradePreventionMode: o.selfTradePreventionMode,
  };
  conditionalFields(o, out, ctx, false);
  return out;
}

/** The fields placement and cancel responses share, in their documented order. */
function executionFields(order: OrderView, ctx: WireContext): Record<string, unknown> {
  return {
    price: price(order.price, ctx),
    origQty: qty(order.origQty, ctx),
    executedQty: qty(order.executedQty, ctx),
    origQuoteOrderQty: price(order.origQuoteOrderQty, ctx),
    cummulativeQuoteQty: price(order.cummulativeQuoteQty, ctx),
    status: order.status,
    timeInForce: order.timeInForce,
    type: order.type,
    side: order.side,
  };
}

/**
 * The fills of `orderId` as taker among a command's events, in the FULL response's shape. An SOR
 * order's fills are allocations (binance-facts §5.13): matchType ONE_PARTY_TRADE_REPORT, tradeId
 * -1 and the allocId, with the allocation's own commission.
 */
export function fillsOf(orderId: number, events: readonly EngineEvent[], ctx: WireContext): Record<string, unknown>[] {
  const fills: Record<string, unknown>[] = [];
  const allocations = events.filter((e) => e.type === 'AllocationRecorded' && e.orderId === orderId);
  if (allocations.length > 0) {
    for (const a of allocations) {
      if (a.type !== 'AllocationRecorded') continue;
      fills.push({
        matchType: 'ONE_PARTY_TRADE_REPORT',
        price: price(a.price, ctx),
        qty: qty(a.quantity, ctx),
        commission: formatUnits(a.commission, ctx.assetPrecision(a.commissionAsset)),
        commissionAsset: a.commissionAsset,
        tradeId: -1,
        allocId: a.allocationId,
      });
    }
    return fills;
  }
  for (const e of events) {
    if (e.type !== 'TradeExecuted' || e.takerOrderId !== orderId) continue;
    const t = e as TradeExecuted;
    fills.push({
      price: price(t.price, ctx),
      qty: qty(t.quantity, ctx),
      commission: formatUnits(t.takerCommission, ctx.assetPrecision(t.takerCommissionAsset)),
      commissionAsset: t.takerCommissionAsset,
      tradeId: t.tradeId,
    });
  }
  return fills;
}

/**
 * The FULL response's `preventedMatches`: one row per match the taker's STP mode prevented, each
 * quantity present only for the side that lost it (EXPIRE_MAKER: maker, EXPIRE_TAKER: taker).
 */
export function preventedMatchesOf(orderId: number, events: readonly EngineEvent[], ctx: WireContext): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const e of events) {
    if (e.type !== 'MatchPrevented' || e.takerOrderId !== orderId) continue;
    const row: Record<string, unknown> = { preventedMatchId: e.preventedMatchId, makerSymbol: e.symbol, makerOrderId: e.makerOrderId, price: price(e.price, ctx) };
    if (e.takerPreventedQuantity > 0) row['takerPreventedQuantity'] = qty(e.takerPreventedQuantity, ctx);
    if (e.makerPreventedQuantity > 0) row['makerPreventedQuantity'] = qty(e.makerPreventedQuantity, ctx);
    rows.push(row);
  }
  return rows;
}

/**
 * POST /api/v3/order: ACK, RESULT or FULL. `order` is the order after the command (its final
 * status), `accepted` its OrderAccepted event, `events` all events of the command.
 */
export function placementJson(
  respType: NewOrderRespType,
  accepted: OrderAccepted,
  order: OrderView,
  events: readonly EngineEvent[],
  ctx: WireContext,
): Record<string, unknown> {
  const out: Record<string, unknown> = {
    symbol: order.symbol,
    orderId: order.orderId,
    orderListId: order.orderListId,
    clientOrderId: order.clientOrderId,
    transactTime: apiTime(accepted.time, ctx.unit),
  };
  if (respType === 'ACK') return out;
  Object.assign(out, executionFields(order, ctx), {
    workingTime: apiTime(order.workingTime, ctx.unit),
    selfTradePreventionMode: order.selfTradePreventionMode,
  });
  conditionalFields(order, out, ctx);
  if (respType === 'FULL') {
    out['fills'] = fillsOf(order.orderId, events, ctx);
    const prevented = preventedMatchesOf(order.orderId, events, ctx);
    if (prevented.length > 0) out['preventedMatches'] = prevented;
  }
  return out;
}

/** The keys of a RESULT or FULL placement without conditional fields, in placementJson's order; FULL adds `fills`. */
const PLAIN_PLACEMENT_KEYS = ['symbol', 'orderId', 'orderListId', 'clientOrderId', 'transactTime', 'price', 'origQty', 'executedQty', 'origQuoteOrderQty', 'cummulativeQuoteQty', 'status', 'timeInForce', 'type', 'side', 'workingTime', 'selfTradePreventionMode'] as const;
/** The keys of a fill that is a trade (not an SOR allocation), in fillsOf's order. */
const TRADE_FILL_KEYS = ['price', 'qty', 'commission', 'commissionAsset', 'tradeId'] as const;

/**
 * JSON.stringify(answer) for a placementJson answer, byte for byte: the usual answer (a RESULT or
 * FULL placement without conditional fields, its fills trades) written by its shape, anything
 * else by JSON.stringify. The shape is checked key by key first, so a field placementJson starts
 * to add one day falls back to JSON.stringify rather than being left out.
 */
export function placementText(answer: Record<string, unknown>): string {
  return plainPlacementText(answer) ?? JSON.stringify(answer);
}

/** A placement answer of the plain shape (see placementText), typed. */
type PlainPlacement = Record<(typeof PLAIN_PLACEMENT_KEYS)[number], string | number> & { fills?: Record<(typeof TRADE_FILL_KEYS)[number], string | number>[] };

/** `answer` is the plain shape, field types included (so the writer and the copier can trust them). */
function isPlainPlacement(answer: Record<string, unknown>): answer is PlainPlacement {
  if (!hasKeys(answer, PLAIN_PLACEMENT_KEYS, 'fills')) return false;
  const a = answer as Record<(typeof PLAIN_PLACEMENT_KEYS)[number] | 'fills', unknown>;
  if (!allStrings(a.symbol, a.clientOrderId, a.price, a.origQty, a.executedQty) || !allStrings(a.origQuoteOrderQty, a.cummulativeQuoteQty, a.status, a.timeInForce, a.type)) return false;
  if (!allStrings(a.side, a.selfTradePreventionMode, '', '', '') || !allIntegers(a.orderId, a.orderListId, a.transactTime, a.workingTime)) return false;
  const fills = a.fills;
  if (fills === undefined) return true;
  if (!Array.isArray(fills)) return false;
  for (const fill of fills as unknown[]) {
    if (typeof fill !== 'object' || fill === null || !hasKeys(fill, TRADE_FILL_KEYS, undefined)) return false;
    const f = fill as Record<(typeof TRADE_FILL_KEYS)[number], unknown>;
    if (!allStrings(f.price, f.qty, f.commission, f.commissionAsset, '') || !allIntegers(f.tradeId, 0, 0, 0)) return false;
  }
  return true;
}

/** The writer by shape; undefined when `answer` is not the plain shape. */
function plainPlacementText(answer: Record<string, unknown>): string | undefined {
  if (!isPlainPlacement(answer)) return undefined;
  // Decimals (formatUnits) and enum values need no escaping (allStrings); the symbol, client order id and commission asset may.
  const a = answer;
  let text =
    `{"symbol":${jsonString(a.symbol as string)},"orderId":${a.orderId},"orderListId":${a.orderListId},"clientOrderId":${jsonString(a.clientOrderId as string)},"transactTime":${a.transactTime}` +
    `,"price":"${a.price}","origQty":"${a.origQty}","executedQty":"${a.executedQty}","origQuoteOrderQty":"${a.origQuoteOrderQty}","cummulativeQuoteQty":"${a.cummulativeQuoteQty}"` +
    `,"status":"${a.status}","timeInForce":"${a.timeInForce}","type":"${a.type}","side":"${a.side}","workingTime":${a.workingTime},"selfTradePreventionMode":"${a.selfTradePreventionMode}"`;
  const fills = a.fills;
  if (fills === undefined) return `${text}}`;
  text += ',"fills":[';
  for (let i = 0; i < fills.length; i++) {
    const fill = fills[i]!;
    text += `${i === 0 ? '' : ','}{"price":"${fill.price}","qty":"${fill.qty}","commission":"${fill.commission}","commissionAsset":${jsonString(fill.commissionAsset as string)},"tradeId":${fill.tradeId}}`;
  }
  return `${text}]}`;
}

/**
 * JSON.parse(JSON.stringify(answer)) for a placementJson answer of the plain shape, copied field
 * by field into literals of one shape (-0 written as 0, as the text would); undefined for any
 * other answer (answerValueOf then copies it generically).
 */
export function placementCopy(answer: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!isPlainPlacement(answer)) return undefined;
  const a = answer;
  const out: Record<string, unknown> = {
    symbol: a.symbol,
    orderId: zeroed(a.orderId),
    orderListId: zeroed(a.orderListId),
    clientOrderId: a.clientOrderId,
    transactTime: zeroed(a.transactTime),
    price: a.price,
    origQty: a.origQty,
    executedQty: a.executedQty,
    origQuoteOrderQty: a.origQuoteOrderQty,
    cummulativeQuoteQty: a.cummulativeQuoteQty,
    status: a.status,
    timeInForce: a.timeInForce,
    type: a.type,
    side: a.side,
    workingTime: zeroed(a.workingTime),
    selfTradePreventionMode: a.selfTradePreventionMode,
  };
  if (a.fills !== undefined) {
    out['fills'] = a.fills.map((f) => ({ price: f.price, qty: f.qty, commission: f.commission, commissionAsset: f.commissionAsset, tradeId: zeroed(f.tradeId) }));
  }
  return out;
}

/** -0 as 0 (JSON has no -0); an integer otherwise as it is. */
function zeroed(n: string | number): number {
  return (n as number) || 0;
}

/** `value`'s own keys are exactly `keys` in order, then `last` if given and present. */
function hasKeys(value: object, keys: readonly string[], last: string | undefined): boolean {
  let i = 0;
  for (const key in value) {
    if (i < keys.length ? key !== keys[i] : i > keys.length || key !== last) return false;
    i++;
  }
  return i >= keys.length;
}

/** Safe integers print the same in a template and in JSON.stringify (-0 as 0 in both). */
function allIntegers(a: unknown, b: unknown, c: unknown, d: unknown): boolean {
  return Number.isSafeInteger(a) && Number.isSafeInteger(b) && Number.isSafeInteger(c) && Number.isSafeInteger(d);
}

/**
 * Strings placementJson and fillsOf write with formatUnits or take from the engine's enums
 * (digits, '.', '-', capitals, '_'): none needs escaping, by construction; the type is checked,
 * and placement-text.test.ts compares the writer with JSON.stringify.
 */
function allStrings(a: unknown, b: unknown, c: unknown, d: unknown, e: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && typeof c === 'string' && typeof d === 'string' && typeof e === 'string';
}

/** DELETE /api/v3/order: the canceled order, with the cancel's own id as clientOrderId. */
export function cancelJson(order: OrderView, cancelClientOrderId: string, transactTime: number, ctx: WireContext): Record<string, unknown> {
  const out: Record<string, unknown> = {
    symbol: order.symbol,
    origClientOrderId: order.clientOrderId,
    orderId: order.orderId,
    orderListId: order.orderListId,
    clientOrderId: cancelClientOrderId,
    transactTime: apiTime(transactTime, ctx.unit),
    ...executionFields(order, ctx),
    selfTradePreventionMode: order.selfTradePreventionMode,
  };
  conditionalFields(order, out, ctx);
  return out;
}
