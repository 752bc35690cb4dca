/**
 * A futures order as the /fapi rows answer it (futures facts §3.1), field for field in the
 * documented order:
 * - placement and cancel (POST/DELETE order, batchOrders, allOpenOrders is `{code,msg}`):
 *   clientOrderId, cumQty, cumQuote, executedQty, orderId, avgPrice, origQty, price, reduceOnly,
 *   side, positionSide, status, stopPrice, closePosition, symbol, timeInForce, type, origType,
 *   updateTime, workingType, priceProtect, priceMatch, selfTradePreventionMode, goodTillDate;
 * - queries (GET order, openOrder, openOrders, allOrders): avgPrice, clientOrderId, cumQuote,
 *   executedQty, orderId, origQty, origType, price, reduceOnly, side, positionSide, status,
 *   stopPrice, closePosition, symbol, time, timeInForce, type, activatePrice, priceRate,
 *   updateTime, workingType, priceProtect, priceMatch, selfTradePreventionMode, goodTillDate
 *   (the docs' example order; `activatePrice`/`priceRate` only ever describe trailing orders,
 *   which live in the algo book, so they are absent here as Binance leaves them off LIMIT/MARKET).
 * Orders on /fapi/v1/order are LIMIT or MARKET, so stopPrice is "0", closePosition false,
 * workingType CONTRACT_PRICE, priceProtect false; priceMatch the mode that priced it (or NONE). A post-only order is shown as
 * timeInForce GTX (the engine keeps it GTC + postOnly). An ACK answer is the order as accepted:
 * status NEW and nothing executed, whatever happened after (Binance's ACK does not wait).
 */
import type { OrderView, SymbolSpec } from '../../../engine/index.ts';
import { apiTime, type TimeUnit } from '../../serialize/index.ts';
import { fmoney, fprice, fqty } from './futures-wire.ts';

/** What the engine keeps of a futures order beyond the spot order view. */
export interface FuturesOrderExtras {
  readonly positionSide: 'BOTH' | 'LONG' | 'SHORT';
  readonly reduceOnly: boolean;
  readonly postOnly: boolean;
  /** ms, 0 unless GTD. */
  readonly goodTillDate: number;
  /** The priceMatch mode that priced the order (NONE: the client's price). */
  readonly priceMatch: string;
}

export interface FuturesOrderWire {
  readonly spec: SymbolSpec;
  /** The /fapi name (BTCUSDT), not the engine's (um:BTCUSDT). */
  readonly symbol: string;
  readonly unit: TimeUnit;
}

/** Average fill price in price units (cumQuote × 10^basePrecision / executed), 0 before any fill. */
export function averagePrice(spec: SymbolSpec, cumQuote: number, executed: number): number {
  if (executed === 0) return 0;
  return Number((BigInt(cumQuote) * 10n ** BigInt(spec.basePrecision)) / BigInt(executed));
}

function timeInForceOf(o: OrderView, x: FuturesOrderExtras): string {
  if (x.postOnly) return 'GTX';
  if (x.goodTillDate !== 0) return 'GTD';
  return o.timeInForce;
}

function values(o: OrderView, x: FuturesOrderExtras, w: FuturesOrderWire, ack: boolean) {
  const executed = ack ? 0 : o.executedQty;
  const cumQuote = ack ? 0 : o.cummulativeQuoteQty;
  return {
    executed: fqty(w.spec, executed),
    cumQuote: fmoney(w.spec, cumQuote),
    avgPrice: fprice(w.spec, averagePrice(w.spec, cumQuote, executed)),
    status: ack ? 'NEW' : o.status,
    tif: timeInForceOf(o, x),
    updateTime: apiTime(ack ? o.time : o.updateTime, w.unit),
  };
}

/** An order's price: "0" for MARKET (no price), as the exchange shows it. */
function priceOf(o: OrderView, w: FuturesOrderWire): string {
  return o.price === 0 ? '0' : fprice(w.spec, o.price);
}

/** The placement / cancel answer. */
export function futuresOrderJson(o: OrderView, x: FuturesOrderExtras, w: FuturesOrderWire, ack = false): Record<string, unknown> {
  const v = values(o, x, w, ack);
  return {
    clientOrderId: o.clientOrderId,
    cumQty: v.executed,
    cumQuote: v.cumQuote,
    executedQty: v.executed,
    orderId: o.orderId,
    avgPrice: v.avgPrice,
    origQty: fqty(w.spec, o.origQty),
    price: priceOf(o, w),
    reduceOnly: x.reduceOnly,
    side: o.side,
    positionSide: x.positionSide,
    status: v.status,
    stopPrice: '0',
    closePosition: false,
    symbol: w.symbol,
    timeInForce: v.tif,
    type: o.type,
    origType: o.type,
    updateTime: v.updateTime,
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    priceMatch: x.priceMatch,
    selfTradePreventionMode: o.selfTradePreventionMode,
    goodTillDate: x.goodTillDate,
  };
}

/** The query answer. */
export function futuresOrderQueryJson(o: OrderView, x: FuturesOrderExtras, w: FuturesOrderWire): Record<string, unknown> {
  const v = values(o, x, w, false);
  return {
    avgPrice: v.avgPrice,
    clientOrderId: o.clientOrderId,
    cumQuote: v.cumQuote,
    executedQty: v.executed,
    orderId: o.orderId,
    origQty: fqty(w.spec, o.origQty),
    origType: o.type,
    price: priceOf(o, w),
    reduceOnly: x.reduceOnly,
    side: o.side,
    positionSide: x.positionSide,
    status: v.status,
    stopPrice: '0',
    closePosition: false,
    symbol: w.symbol,
    time: apiTime(o.time, w.unit),
    timeInForce: v.tif,
    type: o.type,
    updateTime: v.updateTime,
    workingType: 'CONTRACT_PRICE',
    priceProtect: false,
    priceMatch: x.priceMatch,
    selfTradePreventionMode: o.selfTradePreventionMode,
    goodTillDate: x.goodTillDate,
  };
}
