/**
 * Account endpoints (security USER_DATA, signed): account, order, openOrders, allOrders,
 * myTrades, rateLimit/order. Every one acts for the account of the authenticated API key.
 *
 * Rules (spec, Account):
 * - order: orderId or origClientOrderId (-1102 when neither). With both, the order found by
 *   orderId must carry that client id: otherwise -2039 "Client order ID is not correct for this
 *   order ID." (since 2025-04-08). Not found: -2013 "Order does not exist.".
 * - allOrders / myTrades: startTime..endTime at most 24 h, else -1127 "More than 24 hours
 *   between startTime and endTime.". allOrders with orderId: orders from that id on, oldest
 *   first; otherwise the newest `limit`.
 * - myTrades, myPreventedMatches: only the spec's supported combinations of their optional
 *   parameters (`supportedCombinations`); any other is -1128.
 * - Lists are oldest first (ascending orderId / trade id), as Binance returns them.
 */
import { EMPTY_ERRORS, eitherRequired, defineSchema, supportedCombinations, withSigned } from '../../params/index.ts';
import { accountJson, apiTime, discountJson, ratesJson, orderQueryJson } from '../../serialize/index.ts';
import { formatUnits } from '../../../engine/index.ts';
import { accountOf, accountViewOf, OPTIONAL_SYMBOL, spotLimit, SYMBOL, symbolSpec, timeWindow, wireContext } from '../common.ts';
import { defineEndpoint } from '../endpoint-row.ts';
import { findOrder } from './order-answers.ts';


const ORDER_ID = { name: 'orderId', kind: 'LONG' } as const;
const ORIG_CLIENT_ORDER_ID = { name: 'origClientOrderId', kind: 'STRING', empty: EMPTY_ERRORS.origClientOrderId } as const;
const START_TIME = { name: 'startTime', kind: 'LONG' } as const;
const END_TIME = { name: 'endTime', kind: 'LONG' } as const;
const LIMIT = { name: 'limit', kind: 'INT' } as const;

export const account = defineEndpoint({
  method: 'GET',
  path: '/api/v3/account',
  security: 'USER_DATA',
  weight: 20,
  schema: defineSchema(withSigned([{ name: 'omitZeroBalances', kind: 'BOOLEAN' }])),
  summary: 'Balances, commissions and permissions',
  handler: (p, call) => {
    const accountId = accountOf(call);
    const view = accountViewOf(call);
    return accountJson(view, { unit: call.unit, omitZeroBalances: p.omitZeroBalances ?? false, assetPrecision: call.ctx.assetPrecision, uid: call.ctx.uidOf(accountId) });
  },
});

export const getOrder = defineEndpoint({
  method: 'GET',
  path: '/api/v3/order',
  security: 'USER_DATA',
  weight: 4,
  schema: defineSchema(withSigned([SYMBOL, ORDER_ID, ORIG_CLIENT_ORDER_ID]), [eitherRequired('origClientOrderId', 'orderId')]),
  summary: 'One order by orderId or origClientOrderId',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    return orderQueryJson(findOrder(call, spec.symbol, p), wireContext(call, spec));
  },
});

export const openOrders = defineEndpoint({
  method: 'GET',
  path: '/api/v3/openOrders',
  security: 'USER_DATA',
  weight: (p) => (p.symbol === undefined ? 80 : 6),
  schema: defineSchema(withSigned([OPTIONAL_SYMBOL])),
  summary: 'Open orders of one symbol or all',
  handler: (p, call) => {
    const engine = call.ctx.backend.engine;
    if (p.symbol !== undefined) symbolSpec(call, p.symbol);
    return engine.openOrders(accountOf(call), p.symbol).map((o) => orderQueryJson(o, wireContext(call, symbolSpec(call, o.symbol))));
  },
});

export const allOrders = defineEndpoint({
  method: 'GET',
  path: '/api/v3/allOrders',
  security: 'USER_DATA',
  weight: 20,
  schema: defineSchema(withSigned([SYMBOL, ORDER_ID, START_TIME, END_TIME, LIMIT])),
  summary: 'All orders of a symbol (24 h span rule)',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const { from, to } = timeWindow(p);
    const rows = call.ctx.backend.engine
      .allOrders(accountOf(call), spec.symbol)
      .filter((o) => (p.orderId === undefined || o.orderId >= p.orderId) && o.time >= from && o.time <= to);
    const limit = spotLimit(p.limit);
    const fromLower = p.orderId !== undefined || p.startTime !== undefined;
    const picked = fromLower ? rows.slice(0, limit) : rows.slice(Math.max(0, rows.length - limit));
    return picked.map((o) => orderQueryJson(o, wireContext(call, spec)));
  },
});

export const myTrades = defineEndpoint({
  method: 'GET',
  path: '/api/v3/myTrades',
  security: 'USER_DATA',
  weight: (p) => (p.orderId === undefined ? 20 : 5),
  schema: defineSchema(withSigned([SYMBOL, ORDER_ID, START_TIME, END_TIME, { name: 'fromId', kind: 'LONG' }, LIMIT]), [
    // The spec's supported combinations (symbol always; limit with any of them).
    supportedCombinations(['orderId', 'startTime', 'endTime', 'fromId'], ['', 'orderId', 'startTime', 'endTime', 'fromId', 'startTime+endTime', 'orderId+fromId']),
  ]),
  summary: 'Account trades of a symbol (24 h span rule)',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const { from, to } = timeWindow(p);
    const rows = call.ctx.backend.engine
      .accountTrades(accountOf(call), spec.symbol)
      .filter((t) => (p.orderId === undefined || t.orderId === p.orderId) && (p.fromId === undefined || t.id >= p.fromId) && t.time >= from && t.time <= to);
    const limit = spotLimit(p.limit);
    const fromLower = p.fromId !== undefined || p.startTime !== undefined;
    const picked = fromLower ? rows.slice(0, limit) : rows.slice(Math.max(0, rows.length - limit));
    return picked.map((t) => ({
      symbol: t.symbol,
      id: t.id,
      orderId: t.orderId,
      orderListId: t.orderListId,
      price: formatUnits(t.price, spec.quotePrecision),
      qty: formatUnits(t.qty, spec.basePrecision),
      quoteQty: formatUnits(t.quoteQty, spec.quotePrecision),
      commission: formatUnits(t.commission, call.ctx.assetPrecision(t.commissionAsset)),
      commissionAsset: t.commissionAsset,
      time: apiTime(t.time, call.unit),
      isBuyer: t.isBuyer,
      isMaker: t.isMaker,
      isBestMatch: t.isBestMatch,
    }));
  },
});

export const rateLimitOrder = defineEndpoint({
  method: 'GET',
  path: '/api/v3/rateLimit/order',
  security: 'USER_DATA',
  weight: 40,
  schema: defineSchema(withSigned([])),
  summary: 'Unfilled order counts of the account',
  handler: (_p, call) => call.ctx.orderLimiter.rateLimitOrder(String(accountOf(call)), call.nowUs),
});

export const accountCommission = defineEndpoint({
  method: 'GET',
  path: '/api/v3/account/commission',
  security: 'USER_DATA',
  weight: 20,
  schema: defineSchema(withSigned([SYMBOL])),
  summary: 'Commission rates of the account on a symbol',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const acct = accountViewOf(call);
    return {
      symbol: spec.symbol,
      standardCommission: ratesJson(acct.standardCommission),
      specialCommission: ratesJson(acct.specialCommission),
      taxCommission: ratesJson(acct.taxCommission),
      discount: discountJson(acct, spec),
    };
  },
});

export const myFilters = defineEndpoint({
  method: 'GET',
  path: '/api/v3/myFilters',
  security: 'USER_DATA',
  weight: 40,
  schema: defineSchema(withSigned([SYMBOL])),
  summary: 'The exchange, symbol and asset filters that bind the account on a symbol',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const config = call.ctx.backend.engine.config;
    const exchangeFilters = (config.exchangeFilters ?? []).filter((f) => f.filterType === 'EXCHANGE_MAX_NUM_ORDERS').map((f) => ({ ...f }));
    const symbolFilters = spec.maxNumOrderLists === null ? [] : [{ filterType: 'MAX_NUM_ORDER_LISTS', maxNumOrderLists: spec.maxNumOrderLists }];
    // MAX_ASSET binds every symbol holding the asset, so only this symbol's two assets matter.
    const assetFilters = (config.assetFilters ?? [])
      .filter((f) => f.asset === spec.baseAsset || f.asset === spec.quoteAsset)
      .map((f) => ({ filterType: f.filterType, asset: f.asset, limit: f.limit }));
    return { exchangeFilters, symbolFilters, assetFilters };
  },
});

export const myPreventedMatches = defineEndpoint({
  method: 'GET',
  path: '/api/v3/myPreventedMatches',
  security: 'USER_DATA',
  // The seed: "symbol invalid 2; by preventedMatchId 2; by orderId 20".
  weight: (p, ctx) => (p.orderId === undefined || ctx.backend.engine.symbolSpec(p.symbol) === undefined ? 2 : 20),
  schema: defineSchema(
    withSigned([SYMBOL, { name: 'preventedMatchId', kind: 'LONG' }, ORDER_ID, { name: 'fromPreventedMatchId', kind: 'LONG' }, LIMIT]),
    [
      eitherRequired('preventedMatchId', 'orderId'),
      // The spec's combinations: preventedMatchId alone, or orderId (+ fromPreventedMatchId); limit with any.
      supportedCombinations(['preventedMatchId', 'orderId', 'fromPreventedMatchId'], ['preventedMatchId', 'orderId', 'orderId+fromPreventedMatchId']),
    ],
  ),
  summary: 'Prevented self-trades of the account on a symbol',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const rows = call.ctx.backend.engine
      .preventedMatches(accountOf(call), spec.symbol)
      .filter((m) =>
        p.preventedMatchId !== undefined
          ? m.preventedMatchId === p.preventedMatchId
          : (m.takerOrderId === p.orderId || m.makerOrderId === p.orderId) && (p.fromPreventedMatchId === undefined || m.preventedMatchId >= p.fromPreventedMatchId),
      );
    return rows.slice(0, spotLimit(p.limit)).map((m) => {
      const out: Record<string, unknown> = {
        symbol: m.symbol,
        preventedMatchId: m.preventedMatchId,
        takerOrderId: m.takerOrderId,
        makerSymbol: m.makerSymbol,
        makerOrderId: m.makerOrderId,
        tradeGroupId: m.tradeGroupId,
        selfTradePreventionMode: m.selfTradePreventionMode,
        price: formatUnits(m.price, spec.quotePrecision),
      };
      // Which side lost quantity depends on the mode (EXPIRE_MAKER: maker only, EXPIRE_TAKER: taker only).
      if (m.takerPreventedQuantity > 0) out['takerPreventedQuantity'] = formatUnits(m.takerPreventedQuantity, spec.basePrecision);
      if (m.makerPreventedQuantity > 0) out['makerPreventedQuantity'] = formatUnits(m.makerPreventedQuantity, spec.basePrecision);
      out['transactTime'] = apiTime(m.transactTime, call.unit);
      return out;
    });
  },
});
