/**
 * One refused request per endpoint, with its exact status, code and message, through the
 * in-process client (so through handleRequest), and a check that the table has a case for
 * every row.
 */
import { describe, expect, test } from 'vitest';
import { ENDPOINTS } from '../../src/api-facade/endpoints/endpoint-table.ts';
import type { ParamValue } from '../../src/api-facade/rest/in-process-client.ts';
import { makeFixture } from './fixture.ts';

type Case = [method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params: Record<string, ParamValue>, status: number, code: number, msg: string];

const INVALID_SYMBOL = 'Invalid symbol.';
const unread = (read: number, sent: number) => `Not all sent parameters were read; read '${read}' parameter(s) but was sent '${sent}'.`;

const CASES: Case[] = [
  ['GET', '/api/v3/ping', { x: 1 }, 400, -1101, "Too many parameters; expected '0' and received '1'."],
  ['GET', '/api/v3/time', { x: 1 }, 400, -1101, "Too many parameters; expected '0' and received '1'."],
  ['GET', '/api/v3/exchangeInfo', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/api/v3/depth', { symbol: '' }, 400, -1105, "Parameter 'symbol' was empty."],
  ['GET', '/api/v3/trades', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/api/v3/historicalTrades', { symbol: 'BTCUSDT', fromId: '-1' }, 400, -1100, "Illegal characters found in parameter 'fromId'; legal range is '^[0-9]{1,20}$'."],
  ['GET', '/api/v3/aggTrades', { symbol: 'btcusdt' }, 400, -1100, "Illegal characters found in parameter 'symbol'; legal range is '^[A-Z0-9-_.]{1,20}$'."],
  ['GET', '/api/v3/klines', { symbol: 'BTCUSDT' }, 400, -1102, "Mandatory parameter 'interval' was not sent, was empty/null, or malformed."],
  ['GET', '/api/v3/uiKlines', { symbol: 'BTCUSDT', interval: '2m' }, 400, -1120, 'Invalid interval.'],
  ['GET', '/api/v3/avgPrice', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/api/v3/ticker/24hr', { symbols: '["BTCUSDT","BTCUSDT"]' }, 400, -1151, 'Symbol is present multiple times in the list.'],
  ['GET', '/api/v3/ticker/tradingDay', {}, 400, -1102, "Param 'symbol' or 'symbols' must be sent, but both were empty/null!"],
  ['GET', '/api/v3/ticker', { symbol: 'BTCUSDT', windowSize: '1d2h' }, 400, -1130, "Data sent for parameter 'windowSize' is not valid."],
  ['GET', '/api/v3/ticker/price', { symbols: '["BTCUSDT","NOPE"]' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/api/v3/ticker/bookTicker', { symbol: 'ETHBTC', symbolStatus: 'CLOSED' }, 400, -1122, 'Invalid symbolStatus.'],
  ['GET', '/api/v3/executionRules', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/api/v3/referencePrice/calculation', {}, 400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
  ['GET', '/api/v3/referencePrice', {}, 400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
  ['GET', '/api/v3/account', { extra: 1 }, 400, -1104, unread(2, 3)],
  ['GET', '/api/v3/order', { symbol: 'BTCUSDT', orderId: 5 }, 400, -2013, 'Order does not exist.'],
  ['GET', '/api/v3/openOrders', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/api/v3/allOrders', { symbol: 'BTCUSDT', limit: 'ten' }, 400, -1100, "Illegal characters found in parameter 'limit'; legal range is '^[0-9]{1,20}$'."],
  ['GET', '/api/v3/myTrades', { symbol: 'BTCUSDT', startTime: 0, endTime: 86_400_001 }, 400, -1127, 'More than 24 hours between startTime and endTime.'],
  ['GET', '/api/v3/rateLimit/order', { symbol: 'BTCUSDT' }, 400, -1104, unread(2, 3)],
  ['GET', '/api/v3/myPreventedMatches', { symbol: 'BTCUSDT', orderId: 1, limit: 'x' }, 400, -1100, "Illegal characters found in parameter 'limit'; legal range is '^[0-9]{1,20}$'."],
  ['GET', '/api/v3/account/commission', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/api/v3/myFilters', { symbol: 'BTCUSDT', orderId: 1 }, 400, -1104, unread(3, 4)],
  ['POST', '/api/v3/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTD', quantity: 1, price: 1 }, 400, -1115, 'Invalid timeInForce.'],
  ['POST', '/api/v3/order/test', { symbol: 'BTCUSDT', side: 'BUY', type: 'OCO', quantity: 1 }, 400, -1116, 'Invalid orderType.'],
  ['DELETE', '/api/v3/order', { symbol: 'BTCUSDT', orderId: 5 }, 400, -2011, 'Unknown order sent.'],
  ['DELETE', '/api/v3/openOrders', {}, 400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
  ['POST', '/api/v3/order/cancelReplace', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: 1, price: 1, cancelOrderId: 1 }, 400, -1102, "Mandatory parameter 'cancelReplaceMode' was not sent, was empty/null, or malformed."],
  ['PUT', '/api/v3/order/amend/keepPriority', { symbol: 'BTCUSDT', orderId: 5, newQty: '0.5' }, 400, -2038, 'Unknown order sent.'],
  ['GET', '/api/v3/order/amendments', { symbol: 'BTCUSDT', orderId: 5 }, 400, -2013, 'Order does not exist.'],
  ['POST', '/api/v3/order/oco', { symbol: 'BTCUSDT', side: 'SELL', quantity: 1, price: 2, stopPrice: 1, stopLimitPrice: 1 }, 400, -1128, "Combination of optional parameters invalid. Recommendation: 'stopLimitTimeInForce' should also be sent."],
  ['POST', '/api/v3/orderList/oco', { symbol: 'BTCUSDT', side: 'SELL', quantity: 1, aboveType: 'LIMIT_MAKER', belowType: 'STOP_LOSS' }, 400, -1102, "Mandatory parameter 'abovePrice' was not sent, was empty/null, or malformed."],
  ['POST', '/api/v3/orderList/oto', { symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: 1, workingQuantity: 1, pendingType: 'MARKET', pendingSide: 'SELL', pendingQuantity: 1 }, 400, -1102, "Mandatory parameter 'workingTimeInForce' was not sent, was empty/null, or malformed."],
  ['POST', '/api/v3/orderList/otoco', { symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: 1, workingQuantity: 1, workingTimeInForce: 'GTC', pendingSide: 'SELL', pendingQuantity: 1, pendingAboveType: 'LIMIT_MAKER', pendingAbovePrice: 2, pendingBelowType: 'STOP_LOSS' }, 400, -1102, "Param 'pendingBelowStopPrice' or 'pendingBelowTrailingDelta' must be sent, but both were empty/null!"],
  ['POST', '/api/v3/orderList/opo', { symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: 1, workingQuantity: 1, workingTimeInForce: 'GTC', pendingType: 'MARKET', pendingSide: 'SELL', pendingQuantity: 1 }, 400, -1225, "Pending orders should not include the 'pendingQuantity' tag."],
  ['POST', '/api/v3/orderList/opoco', { symbol: 'BTCUSDT', workingType: 'LIMIT', workingSide: 'BUY', workingPrice: 1, workingQuantity: 1, workingTimeInForce: 'GTC', pendingSide: 'SELL', pendingAboveType: 'LIMIT_MAKER', pendingAbovePrice: 2, pendingAbovePegOffsetValue: 3, pendingBelowType: 'STOP_LOSS', pendingBelowStopPrice: 1 }, 400, -1128, "Combination of optional fields invalid. Recommendation: 'pendingAbovePegOffsetType' and 'pendingAbovePegOffsetValue' must both be sent."],
  ['DELETE', '/api/v3/orderList', { symbol: 'BTCUSDT', orderListId: 7 }, 400, -2011, 'Order list does not exist.'],
  ['GET', '/api/v3/orderList', {}, 400, -1102, "Param 'orderListId' or 'origClientOrderId' must be sent, but both were empty/null!"],
  ['GET', '/api/v3/allOrderList', { fromId: 1, startTime: 1 }, 400, -1128, 'Combination of optional parameters invalid.'],
  ['GET', '/api/v3/openOrderList', { symbol: 'BTCUSDT' }, 400, -1104, unread(2, 3)],
  ['POST', '/api/v3/sor/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_LOSS', quantity: 1 }, 400, -1116, 'Invalid orderType.'],
  ['POST', '/api/v3/sor/order/test', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: 1 }, 400, -1014, 'Unsupported order combination.'],
  ['GET', '/api/v3/myAllocations', { symbol: 'BTCUSDT', orderId: 1, startTime: 1 }, 400, -1128, 'Combination of optional parameters invalid.'],
  ['POST', '/api/v3/userDataStream', { listenKey: 'x' }, 400, -1101, "Too many parameters; expected '0' and received '1'."],
  ['PUT', '/api/v3/userDataStream', { listenKey: 'nope' }, 400, -1125, 'This listenKey does not exist.'],
  ['DELETE', '/api/v3/userDataStream', {}, 400, -1102, "Mandatory parameter 'listenKey' was not sent, was empty/null, or malformed."],
  ['GET', '/sapi/v1/capital/config/getall', { coin: 'BTC' }, 400, -1104, unread(2, 3)],
  ['GET', '/sapi/v1/margin/allPairs', { symbol: 'btc' }, 400, -1100, "Illegal characters found in parameter 'symbol'; legal range is '^[A-Z0-9-_.]{1,20}$'."],
  ['GET', '/sapi/v1/margin/isolated/allPairs', { symbol: 'btc' }, 400, -1100, "Illegal characters found in parameter 'symbol'; legal range is '^[A-Z0-9-_.]{1,20}$'."],
  ['GET', '/sapi/v1/system/status', { x: 1 }, 400, -1104, unread(0, 1)],
  ['GET', '/sapi/v1/asset/tradeFee', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ...(['fapi', 'dapi'] as const).flatMap((api): Case[] => {
    const symbol = api === 'fapi' ? 'BTCUSDT' : 'BTCUSD_PERP';
    const pair = api === 'fapi' ? 'BTCUSDT' : 'BTCUSD';
    const none = "Too many parameters; expected '0' and received '1'.";
    const v1 = `/${api}/v1`;
    return [
      ['GET', `${v1}/ping`, { x: 1 }, 400, -1101, none],
      ['GET', `${v1}/time`, { x: 1 }, 400, -1101, none],
      ['GET', `${v1}/exchangeInfo`, { symbol }, 400, -1101, none],
      ['GET', `${v1}/depth`, { symbol, limit: 7 }, 400, -1130, "Data sent for parameter 'limit' is not valid."],
      ['GET', `${v1}/trades`, { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
      ['GET', `${v1}/historicalTrades`, { symbol: 'BTCUSDT_PERP' }, 400, -1121, INVALID_SYMBOL],
      ['GET', `${v1}/aggTrades`, { symbol, startTime: 0, endTime: 3_600_001 }, 400, -1127, 'More than 1 hours between startTime and endTime.'],
      ['GET', `${v1}/klines`, { symbol, interval: '1s' }, 400, -1120, 'Invalid interval.'],
      ['GET', `${v1}/continuousKlines`, { pair, contractType: 'WEEKLY', interval: '1h' }, 400, -1130, "Data sent for parameter 'contractType' is not valid."],
      ['GET', `${v1}/indexPriceKlines`, { pair: 'NOPE', interval: '1h' }, 400, -1121, INVALID_SYMBOL],
      ['GET', `${v1}/markPriceKlines`, { symbol, interval: '1h', limit: 1501 }, 400, -1130, "Data sent for parameter 'limit' is not valid."],
      ['GET', `${v1}/premiumIndexKlines`, { symbol }, 400, -1102, "Mandatory parameter 'interval' was not sent, was empty/null, or malformed."],
      ['GET', `${v1}/premiumIndex`, { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
      api === 'fapi'
        ? ['GET', `${v1}/fundingRate`, { limit: 1001 }, 400, -1130, "Data sent for parameter 'limit' is not valid."]
        : ['GET', `${v1}/fundingRate`, {}, 400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
      ['GET', `${v1}/fundingInfo`, { x: 1 }, 400, -1101, none],
      ['GET', `${v1}/ticker/24hr`, { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
      ['GET', `${v1}/ticker/price`, { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
      api === 'fapi'
        ? ['GET', `${v1}/ticker/bookTicker`, { pair }, 400, -1104, unread(0, 1)]
        : ['GET', `${v1}/ticker/bookTicker`, { pair: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
      ['GET', `${v1}/openInterest`, {}, 400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
      ['GET', `${v1}/constituents`, { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
    ];
  }),
  ['GET', '/fapi/v1/rpiDepth', { symbol: 'BTCUSDT', limit: 500 }, 400, -1130, "Data sent for parameter 'limit' is not valid."],
  ['GET', '/fapi/v2/ticker/price', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/indexInfo', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/assetIndex', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/symbolAdlRisk', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/tradingSchedule', { x: 1 }, 400, -1101, "Too many parameters; expected '0' and received '1'."],
  ['GET', '/fapi/v1/insuranceBalance', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/futures/data/openInterestHist', { symbol: 'BTCUSDT', pair: 'BTCUSD', period: '1h' }, 400, -1128, 'Combination of optional parameters invalid.'],
  ['GET', '/futures/data/globalLongShortAccountRatio', { period: '1h' }, 400, -1102, "Param 'symbol' or 'pair' must be sent, but both were empty/null!"],
  ['GET', '/futures/data/topLongShortAccountRatio', { symbol: 'BTCUSDT', period: '2m' }, 400, -1130, "Data sent for parameter 'period' is not valid."],
  ['GET', '/futures/data/topLongShortPositionRatio', { pair: 'NOPE', period: '1h' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/futures/data/takerlongshortRatio', { symbol: 'BTCUSDT', period: '1h', limit: 501 }, 400, -1130, "Data sent for parameter 'limit' is not valid."],
  ['GET', '/futures/data/takerBuySellVol', { pair: 'BTCUSD', period: '1h' }, 400, -1102, "Mandatory parameter 'contractType' was not sent, was empty/null, or malformed."],
  ['GET', '/futures/data/basis', { pair: 'BTCUSDT', contractType: 'ALL', period: '1h' }, 400, -1130, "Data sent for parameter 'contractType' is not valid."],
  ['GET', '/futures/data/delivery-price', {}, 400, -1102, "Mandatory parameter 'pair' was not sent, was empty/null, or malformed."],
  ['GET', '/fapi/v1/pmAccountInfo', { asset: 'XYZ' }, 400, -1130, "Data sent for parameter 'asset' is not valid."],
  // USDⓈ-M futures trading (this fixture has no margin symbol: BTCUSDT is -1121 on the trading rows)
  ['POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.01' }, 400, -4120, 'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.'],
  ['PUT', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', quantity: '1' }, 400, -1102, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!"],
  ['PUT', '/fapi/v1/batchOrders', { batchOrders: 'x' }, 400, -1130, "Data sent for parameter 'batchOrders' is not valid."],
  ['DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT' }, 400, -1102, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!"],
  ['GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 1 }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/openOrder', { symbol: 'BTCUSDT', orderId: 1 }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/openOrders', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  // symbol is optional since 2026-08-25, but an orderId counts within one symbol.
  ['GET', '/fapi/v1/allOrders', { orderId: 1 }, 400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
  ['DELETE', '/fapi/v1/allOpenOrders', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['POST', '/fapi/v1/batchOrders', { batchOrders: '[]' }, 400, -1130, "Data sent for parameter 'batchOrders' is not valid."],
  ['DELETE', '/fapi/v1/batchOrders', { symbol: 'BTCUSDT' }, 400, -1102, "Param 'orderIdList' or 'origClientOrderIdList' must be sent, but both were empty/null!"],
  ['GET', '/fapi/v1/userTrades', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/forceOrders', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['POST', '/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT' }, 400, -1102, "Mandatory parameter 'countdowntime' was not sent, was empty/null, or malformed."],
  ['GET', '/fapi/v2/account', { extra: 1 }, 400, -1104, unread(2, 3)],
  ['GET', '/fapi/v3/account', { extra: 1 }, 400, -1104, unread(2, 3)],
  ['GET', '/fapi/v2/balance', { extra: 1 }, 400, -1104, unread(2, 3)],
  ['GET', '/fapi/v3/balance', { extra: 1 }, 400, -1104, unread(2, 3)],
  ['GET', '/fapi/v2/positionRisk', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v3/positionRisk', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/income', { limit: 1001 }, 400, -1130, "Data sent for parameter 'limit' is not valid."],
  ['POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT' }, 400, -1102, "Mandatory parameter 'leverage' was not sent, was empty/null, or malformed."],
  ['POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'BOTH' }, 400, -1130, "Data sent for parameter 'marginType' is not valid."],
  ['GET', '/fapi/v1/positionSide/dual', { extra: 1 }, 400, -1104, unread(2, 3)],
  ['POST', '/fapi/v1/positionSide/dual', {}, 400, -1102, "Mandatory parameter 'dualsideposition' was not sent, was empty/null, or malformed."],
  ['GET', '/fapi/v1/multiAssetsMargin', { extra: 1 }, 400, -1104, unread(2, 3)],
  ['POST', '/fapi/v1/multiAssetsMargin', { multiAssetsMargin: 'true' }, 400, -1130, "Data sent for parameter 'multiAssetsMargin' is not valid."],
  ['POST', '/fapi/v1/positionMargin', { symbol: 'BTCUSDT', amount: '1', type: '3' }, 400, -1130, "Data sent for parameter 'type' is not valid."],
  ['GET', '/fapi/v1/symbolConfig', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/leverageBracket', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/commissionRate', {}, 400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
  ['POST', '/fapi/v1/listenKey', { x: 1 }, 400, -1101, "Too many parameters; expected '0' and received '1'."],
  ['PUT', '/fapi/v1/listenKey', {}, 400, -1125, 'This listenKey does not exist. Please use `POST /fapi/v1/listenKey` to recreate `listenKey`'],
  ['DELETE', '/fapi/v1/listenKey', {}, 400, -1125, 'This listenKey does not exist. Please use `POST /fapi/v1/listenKey` to recreate `listenKey`'],
  ['POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', quantity: '0.01' }, 400, -1116, 'Invalid orderType.'],
  ['GET', '/fapi/v1/algoOrder', { algoId: 1 }, 400, -2013, 'Order does not exist.'],
  ['DELETE', '/fapi/v1/algoOrder', { algoId: 1 }, 400, -2011, 'Unknown order sent.'],
  ['DELETE', '/fapi/v1/algoOpenOrders', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/openAlgoOrders', { symbol: 'NOPE' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/allAlgoOrders', {}, 400, -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
  ['POST', '/sapi/v1/asset/transfer', { type: 'MAIN_MARGIN', asset: 'USDT', amount: '1' }, 400, -1130, "Data sent for parameter 'type' is not valid."],
  ['GET', '/sapi/v1/asset/transfer', {}, 400, -1102, "Mandatory parameter 'type' was not sent, was empty/null, or malformed."],
  ['POST', '/sapi/v1/futures/transfer', { asset: 'USDT', amount: '1', type: 4 }, 400, -1130, "Data sent for parameter 'type' is not valid."],
  ['GET', '/sapi/v1/futures/transfer', { asset: 'USDT' }, 400, -1102, "Mandatory parameter 'startTime' was not sent, was empty/null, or malformed."],
  ['POST', '/sapi/v1/fiat/deposit', { currency: 'USD', apiPaymentMethod: 'pix', amount: '10' }, 400, -16010, 'Currency or payment method not supported.'],
  ['GET', '/sapi/v1/pay/transactions', { startTime: 1_759_449_599_999, endTime: 1_767_225_600_000 }, 400, -1127, 'More than 2160 hours between startTime and endTime.'],
  ['POST', '/sapi/v1/equity/account/disclaimer', { x: 1 }, 400, -1104, unread(2, 3)],
];

describe('each endpoint refuses a bad request exactly', () => {
  test('every table row has a case', () => {
    const covered = new Set(CASES.map(([m, p]) => `${m} ${p}`));
    expect(ENDPOINTS.map((r) => `${r.method} ${r.path}`).filter((e) => !covered.has(e))).toEqual([]);
  });

  test.each(CASES)('%s %s %j → %i %i', (method, path, params, status, code, msg) => {
    const f = makeFixture();
    const r = f.demo.request(method, path, params);
    // Fiat deposit and payment history answer in their envelope (the seed spec, Errors 2).
    const envelope = path === '/sapi/v1/fiat/deposit' || path === '/sapi/v1/pay/transactions';
    expect([r.status, r.json]).toEqual([status, envelope ? { code: String(code), message: msg, data: null, success: false } : { code, msg }]);
    // POST /fapi/v1/order and algoOrder weigh 0 on the IP (futures facts §2: it counts as an order only).
    expect(r.headers['X-MBX-USED-WEIGHT-1M']).toMatch((method === 'POST' || method === 'PUT') && (path === '/fapi/v1/order' || path === '/fapi/v1/algoOrder') ? /^0$/ : /^[1-9][0-9]*$/);
  });
});
