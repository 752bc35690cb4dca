/**
 * GET /fapi/v1/forceOrders (USER_DATA; Binance's "User's Force Orders"): the account's system
 * orders — liquidations (`autoclose-…`) and ADL closes — newest last (**chosen**: the docs do not
 * say; allOrders' order). Weight 20 with `symbol`, 50 without.
 * - `autoCloseType` LIQUIDATION or ADL (both when absent); the engine has no ADL (the insurance
 *   fund may go negative instead), so ADL lists nothing. Another value: -1130 (**chosen**).
 * - Without startTime, the 7 days before endTime (endTime: now when absent).
 * - limit 50 by default, 1..100 (-1130 outside); the most recent `limit` rows of the window.
 * Rows as the docs' example: orderId, symbol, status, clientOrderId, price, avgPrice, origQty,
 * executedQty, cumQuote, timeInForce, type, reduceOnly, closePosition, side, positionSide,
 * stopPrice, workingType, origType, time, updateTime — a liquidation is a LIMIT IOC at the
 * bankruptcy price on the tick grid, filled at the bankruptcy price (avgPrice).
 */
import type { OrderView, SymbolSpec } from '../../../engine/index.ts';
import { paramErrors, withSigned } from '../../params/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { OPTIONAL_SYMBOL, timeUs } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';
import { accountOf, extrasOf, fapiName, marginSpec, marginSpecs } from './futures-engine.ts';
import { averagePrice } from './futures-order-json.ts';
import { fmoney, fprice, fqty } from './futures-wire.ts';
import { fapiSchema } from './futures-order-request.ts';

const SEVEN_DAYS_US = 7 * 24 * 3600 * 1_000_000;

function forceOrderJson(call: HandlerCall, spec: SymbolSpec, o: OrderView): Record<string, unknown> {
  const x = extrasOf(call, o);
  return {
    orderId: o.orderId,
    symbol: fapiName(spec),
    status: o.status,
    clientOrderId: o.clientOrderId,
    price: fprice(spec, o.price),
    avgPrice: fprice(spec, averagePrice(spec, o.cummulativeQuoteQty, o.executedQty)),
    origQty: fqty(spec, o.origQty),
    executedQty: fqty(spec, o.executedQty),
    cumQuote: fmoney(spec, o.cummulativeQuoteQty),
    timeInForce: o.timeInForce,
    type: o.type,
    reduceOnly: x.reduceOnly,
    closePosition: false,
    side: o.side,
    positionSide: x.positionSide,
    stopPrice: '0',
    workingType: 'CONTRACT_PRICE',
    origType: o.type,
    time: apiTime(o.time, call.unit),
    updateTime: apiTime(o.updateTime, call.unit),
  };
}

export const futuresForceOrders = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/forceOrders',
  security: 'USER_DATA',
  weight: (p) => (p.symbol === undefined ? 50 : 20),
  schema: fapiSchema(
    withSigned([
      OPTIONAL_SYMBOL,
      { name: 'autoCloseType', kind: 'STRING' },
      { name: 'startTime', kind: 'LONG' },
      { name: 'endTime', kind: 'LONG' },
      { name: 'limit', kind: 'INT' },
    ]),
  ),
  summary: "USDⓈ-M futures: the user's force orders (liquidations; no ADL here)",
  handler: (p, call) => {
    if (p.autoCloseType !== undefined && p.autoCloseType !== 'LIQUIDATION' && p.autoCloseType !== 'ADL') throw paramErrors.invalidData('autoCloseType');
    const limit = p.limit ?? 50;
    if (limit < 1 || limit > 100) throw paramErrors.invalidData('limit');
    const specs = p.symbol === undefined ? marginSpecs(call) : [marginSpec(call, p.symbol)];
    if (p.autoCloseType === 'ADL') return [];
    const to = p.endTime === undefined ? call.nowUs : timeUs(p.endTime);
    const from = p.startTime === undefined ? to - SEVEN_DAYS_US : timeUs(p.startTime);
    const engine = call.ctx.backend.engine;
    const accountId = accountOf(call);
    const rows: { spec: SymbolSpec; order: OrderView }[] = [];
    for (const spec of specs) {
      for (const order of engine.allOrders(accountId, spec.symbol)) {
        if (order.time < from || order.time > to) continue;
        if (engine.futuresOrderInfo(spec.symbol, order.orderId)?.liquidation === true) rows.push({ spec, order });
      }
    }
    // Across symbols by time (then symbol order, then order id: the loop's order, kept by a stable sort).
    rows.sort((a, b) => a.order.time - b.order.time);
    return rows.slice(Math.max(0, rows.length - limit)).map((r) => forceOrderJson(call, r.spec, r.order));
  },
});
