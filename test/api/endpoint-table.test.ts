import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { describeEndpoints, ENDPOINTS } from '../../src/api-facade/endpoints/endpoint-table.ts';

/** The (method, path) pairs of the spec's spot endpoint tables (General .. User data stream). */
function specEndpoints(): string[] {
  const text = readFileSync(new URL('../../docs/spec/rest-api-spec.txt', import.meta.url), 'utf8');
  const start = text.indexOf('## Endpoints');
  const end = text.indexOf('### Supplementary endpoints');
  const section = text.slice(start, end);
  const pairs = new Set<string>();
  for (const m of section.matchAll(/^\| (GET|POST|PUT|DELETE) (\/api\/v3\/[A-Za-z0-9/]+) \|/gm)) pairs.add(`${m[1]} ${m[2]}`);
  for (const m of section.matchAll(/\*\*(GET|POST|PUT|DELETE) (\/api\/v3\/[A-Za-z0-9/]+)\*\*/g)) pairs.add(`${m[1]} ${m[2]}`);
  return [...pairs].sort();
}

/** Spec endpoints the table does not serve yet (kept in step with endpoint-table.ts's header). */
const NOT_YET: string[] = [];

/**
 * Served beyond the spec's endpoint tables, which say "Further trading endpoints (order lists,
 * SOR orders, order amendment): not shown": as binance-facts §5.10-5.13 document them.
 */
const BEYOND_SPEC = [
  'POST /api/v3/order/oco',
  'POST /api/v3/orderList/oco',
  'POST /api/v3/orderList/oto',
  'POST /api/v3/orderList/otoco',
  'POST /api/v3/orderList/opo',
  'POST /api/v3/orderList/opoco',
  'DELETE /api/v3/orderList',
  'PUT /api/v3/order/amend/keepPriority',
  'POST /api/v3/sor/order',
  'POST /api/v3/sor/order/test',
].sort();

/** Served beyond the spec's spot sections: what third-party libraries call while loading markets. */
const MARKET_LOADERS = [
  'GET /sapi/v1/capital/config/getall',
  'GET /sapi/v1/margin/allPairs',
  'GET /sapi/v1/margin/isolated/allPairs',
  'GET /sapi/v1/system/status',
  'GET /sapi/v1/asset/tradeFee',
];

/** The spec's supplementary endpoints (issue 7), at the real exchange's paths. */
const FUTURES_BOTH = [
  'ping', 'time', 'exchangeInfo', 'depth', 'trades', 'historicalTrades', 'aggTrades', 'klines', 'continuousKlines', 'indexPriceKlines',
  'markPriceKlines', 'premiumIndexKlines', 'premiumIndex', 'fundingRate', 'fundingInfo', 'ticker/24hr', 'ticker/price', 'ticker/bookTicker',
  'openInterest', 'constituents',
];
const SUPPLEMENTARY = [
  ...['fapi', 'dapi'].flatMap((api) => FUTURES_BOTH.map((name) => `GET /${api}/v1/${name}`)),
  ...['rpiDepth', 'indexInfo', 'assetIndex', 'symbolAdlRisk', 'tradingSchedule', 'insuranceBalance', 'pmAccountInfo'].map((name) => `GET /fapi/v1/${name}`),
  'GET /fapi/v2/ticker/price',
  ...['openInterestHist', 'globalLongShortAccountRatio', 'topLongShortAccountRatio', 'topLongShortPositionRatio', 'takerlongshortRatio', 'takerBuySellVol', 'basis', 'delivery-price'].map(
    (name) => `GET /futures/data/${name}`,
  ),
  'POST /sapi/v1/fiat/deposit',
  'GET /sapi/v1/pay/transactions',
  'POST /sapi/v1/equity/account/disclaimer',
];

/** USDⓈ-M futures trading (issue 28, endpoints/futures-trading/ and the /sapi transfers): route → security. */
const FUTURES_TRADING: Record<string, string> = {
  'POST /fapi/v1/order': 'TRADE',
  'DELETE /fapi/v1/order': 'TRADE',
  'PUT /fapi/v1/order': 'TRADE',
  'PUT /fapi/v1/batchOrders': 'TRADE',
  'GET /fapi/v1/order': 'USER_DATA',
  'GET /fapi/v1/openOrder': 'USER_DATA',
  'GET /fapi/v1/openOrders': 'USER_DATA',
  'GET /fapi/v1/allOrders': 'USER_DATA',
  'DELETE /fapi/v1/allOpenOrders': 'TRADE',
  'POST /fapi/v1/batchOrders': 'TRADE',
  'DELETE /fapi/v1/batchOrders': 'TRADE',
  'GET /fapi/v1/userTrades': 'USER_DATA',
  'GET /fapi/v1/forceOrders': 'USER_DATA',
  'POST /fapi/v1/countdownCancelAll': 'TRADE',
  'GET /fapi/v2/account': 'USER_DATA',
  'GET /fapi/v3/account': 'USER_DATA',
  'GET /fapi/v2/balance': 'USER_DATA',
  'GET /fapi/v3/balance': 'USER_DATA',
  'GET /fapi/v2/positionRisk': 'USER_DATA',
  'GET /fapi/v3/positionRisk': 'USER_DATA',
  'GET /fapi/v1/income': 'USER_DATA',
  'POST /fapi/v1/leverage': 'TRADE',
  'POST /fapi/v1/marginType': 'TRADE',
  'GET /fapi/v1/positionSide/dual': 'USER_DATA',
  'POST /fapi/v1/positionSide/dual': 'TRADE',
  'GET /fapi/v1/multiAssetsMargin': 'USER_DATA',
  'POST /fapi/v1/multiAssetsMargin': 'TRADE',
  'POST /fapi/v1/positionMargin': 'TRADE',
  'GET /fapi/v1/symbolConfig': 'USER_DATA',
  'GET /fapi/v1/leverageBracket': 'USER_DATA',
  'GET /fapi/v1/commissionRate': 'USER_DATA',
  'POST /fapi/v1/algoOrder': 'TRADE',
  'GET /fapi/v1/algoOrder': 'USER_DATA',
  'DELETE /fapi/v1/algoOrder': 'TRADE',
  'DELETE /fapi/v1/algoOpenOrders': 'TRADE',
  'GET /fapi/v1/openAlgoOrders': 'USER_DATA',
  'GET /fapi/v1/allAlgoOrders': 'USER_DATA',
  'POST /sapi/v1/asset/transfer': 'TRADE',
  'GET /sapi/v1/asset/transfer': 'USER_DATA',
  'POST /sapi/v1/futures/transfer': 'TRADE',
  'GET /sapi/v1/futures/transfer': 'USER_DATA',
  'POST /fapi/v1/listenKey': 'USER_STREAM',
  'PUT /fapi/v1/listenKey': 'USER_STREAM',
  'DELETE /fapi/v1/listenKey': 'USER_STREAM',
};

/** Security of the supplementary rows: the spec marks old trades and top trader ratios MARKET_DATA. */
function supplementarySecurity(path: string): string {
  if (path.endsWith('/historicalTrades') || path.startsWith('/futures/data/topLongShort')) return 'MARKET_DATA';
  if (path === '/fapi/v1/pmAccountInfo' || path === '/sapi/v1/pay/transactions') return 'USER_DATA';
  if (path === '/sapi/v1/fiat/deposit' || path === '/sapi/v1/equity/account/disclaimer') return 'TRADE';
  return 'NONE';
}

describe('the endpoint table', () => {
  const table = ENDPOINTS.map((r) => `${r.method} ${r.path}`).filter((e) => !MARKET_LOADERS.includes(e) && !SUPPLEMENTARY.includes(e) && !(e in FUTURES_TRADING)).sort();

  test('serves the market-loading endpoints of third-party libraries and the supplementary endpoints', () => {
    const all = ENDPOINTS.map((r) => `${r.method} ${r.path}`);
    expect(all.filter((e) => !e.includes('/api/v3/')).sort()).toEqual([...MARKET_LOADERS, ...SUPPLEMENTARY, ...Object.keys(FUTURES_TRADING)].sort());
  });
  const spec = specEndpoints();

  test('every row is a spec endpoint or a documented one beyond it', () => {
    expect(spec.length).toBeGreaterThan(30);
    expect(table.filter((e) => !spec.includes(e)).sort()).toEqual(BEYOND_SPEC);
  });

  test('the spec endpoints not in the table are exactly the documented not-yet list', () => {
    expect(spec.filter((e) => !table.includes(e)).sort()).toEqual(NOT_YET);
  });

  test('lists the implemented endpoints', () => {
    expect(table).toEqual(
      [
        'GET /api/v3/ping', 'GET /api/v3/time', 'GET /api/v3/exchangeInfo', 'GET /api/v3/executionRules',
        'GET /api/v3/depth', 'GET /api/v3/trades', 'GET /api/v3/historicalTrades', 'GET /api/v3/aggTrades', 'GET /api/v3/klines',
        'GET /api/v3/uiKlines', 'GET /api/v3/avgPrice', 'GET /api/v3/ticker/24hr', 'GET /api/v3/ticker/tradingDay', 'GET /api/v3/ticker', 'GET /api/v3/ticker/price', 'GET /api/v3/ticker/bookTicker', 'GET /api/v3/referencePrice', 'GET /api/v3/referencePrice/calculation',
        'GET /api/v3/account', 'GET /api/v3/order', 'GET /api/v3/openOrders', 'GET /api/v3/allOrders', 'GET /api/v3/myTrades', 'GET /api/v3/rateLimit/order',
        'GET /api/v3/myPreventedMatches', 'GET /api/v3/account/commission', 'GET /api/v3/myFilters',
        'GET /api/v3/orderList', 'GET /api/v3/allOrderList', 'GET /api/v3/openOrderList', 'GET /api/v3/myAllocations', 'GET /api/v3/order/amendments',
        'POST /api/v3/order', 'POST /api/v3/order/test', 'DELETE /api/v3/order', 'DELETE /api/v3/openOrders', 'POST /api/v3/order/cancelReplace',
        ...BEYOND_SPEC,
        'POST /api/v3/userDataStream', 'PUT /api/v3/userDataStream', 'DELETE /api/v3/userDataStream',
      ].sort(),
    );
  });

  test('security types follow the spec sections', () => {
    for (const row of ENDPOINTS) {
      const supplementary = SUPPLEMENTARY.includes(`${row.method} ${row.path}`);
      const futures = FUTURES_TRADING[`${row.method} ${row.path}`];
      const expected = futures !== undefined ? futures
        : supplementary ? supplementarySecurity(row.path)
        : row.path === '/sapi/v1/margin/allPairs' ? 'MARKET_DATA'
        : ['/sapi/v1/capital/config/getall', '/sapi/v1/margin/isolated/allPairs', '/sapi/v1/asset/tradeFee'].includes(row.path) ? 'USER_DATA'
        : row.path === '/api/v3/userDataStream' ? 'USER_STREAM'
        : ['/api/v3/order', '/api/v3/order/test', '/api/v3/order/cancelReplace', '/api/v3/order/amend/keepPriority', '/api/v3/order/oco', '/api/v3/orderList', '/api/v3/sor/order', '/api/v3/sor/order/test'].includes(row.path) && row.method !== 'GET' ? 'TRADE'
        : row.path.startsWith('/api/v3/orderList/') ? 'TRADE'
        : row.path === '/api/v3/openOrders' && row.method === 'DELETE' ? 'TRADE'
        : ['/api/v3/account', '/api/v3/order', '/api/v3/openOrders', '/api/v3/allOrders', '/api/v3/myTrades', '/api/v3/rateLimit/order', '/api/v3/myPreventedMatches', '/api/v3/account/commission', '/api/v3/myFilters',
          '/api/v3/orderList', '/api/v3/allOrderList', '/api/v3/openOrderList', '/api/v3/myAllocations', '/api/v3/order/amendments'].includes(row.path) ? 'USER_DATA'
        : 'NONE';
      expect(`${row.method} ${row.path} ${row.security}`).toBe(`${row.method} ${row.path} ${expected}`);
    }
  });

  test('the docs listing has one line per row', () => {
    expect(describeEndpoints().split('\n')).toHaveLength(ENDPOINTS.length);
  });
});
