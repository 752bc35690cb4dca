/**
 * Bad input on the /fapi account, settings and query rows and on the spot ↔ futures transfers:
 * each answers Binance's HTTP status, code and text (futures facts §8; spot's parameter codes
 * where the futures rows share them: -1102 mandatory, -1100 malformed, -1130 invalid data, -1121
 * symbol) and changes nothing the account's own answers show (futures-bad-input-state.ts).
 * Orders, batches and algo orders: futures-bad-input-orders.test.ts; keys, signatures and time:
 * futures-bad-input-auth.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { badInputFixture, expectRefused, illegalDecimal, illegalInteger, invalid, mandatory, type BadInput } from './futures-bad-input-state.ts';

const INVALID_SYMBOL = 'Invalid symbol.';

const TRANSFERS: readonly BadInput[] = [
  ['POST', '/sapi/v1/asset/transfer', { asset: 'USDT', amount: '1' }, 400, -1102, mandatory('type')],
  ['POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', amount: '1' }, 400, -1102, mandatory('asset')],
  ['POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT' }, 400, -1102, mandatory('amount')],
  // Only the two USDⓈ-M types have a wallet here.
  ['POST', '/sapi/v1/asset/transfer', { type: 'MAIN_CMFUTURE', asset: 'USDT', amount: '1' }, 400, -1130, invalid('type')],
  ['POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '0' }, 400, -1130, invalid('amount')],
  // A minus sign is not a DECIMAL.
  ['POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '-1' }, 400, -1100, illegalDecimal('amount')],
  ['POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '1e3' }, 400, -1100, illegalDecimal('amount')],
  ['POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'ETH', amount: '1' }, 400, -1130, invalid('asset')],
  // More than the spot wallet holds (100 000 less the 10 000 funded), and more than the futures wallet can give.
  ['POST', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', asset: 'USDT', amount: '90000.00000001' }, 400, -5013, 'Asset transfer failed: insufficient balance'],
  ['POST', '/sapi/v1/asset/transfer', { type: 'UMFUTURE_MAIN', asset: 'USDT', amount: '10000' }, 400, -5013, 'Asset transfer failed: insufficient balance'],
  ['POST', '/sapi/v1/futures/transfer', { asset: 'USDT', amount: '1' }, 400, -1102, mandatory('type')],
  ['POST', '/sapi/v1/futures/transfer', { asset: 'USDT', amount: '1', type: 3 }, 400, -1130, invalid('type')],
  ['POST', '/sapi/v1/futures/transfer', { asset: 'USDT', amount: '0', type: 1 }, 400, -1130, invalid('amount')],
  ['POST', '/sapi/v1/futures/transfer', { asset: 'USDT', amount: '-5', type: 1 }, 400, -1100, illegalDecimal('amount')],
  ['POST', '/sapi/v1/futures/transfer', { asset: 'USDT', amount: '20000', type: 2 }, 400, -5013, 'Asset transfer failed: insufficient balance'],
  ['GET', '/sapi/v1/futures/transfer', {}, 400, -1102, mandatory('asset')],
  ['GET', '/sapi/v1/futures/transfer', { asset: 'USDT' }, 400, -1102, mandatory('startTime')],
  ['GET', '/sapi/v1/futures/transfer', { asset: 'USDT', startTime: 0, size: 101 }, 400, -1130, invalid('size')],
  ['GET', '/sapi/v1/asset/transfer', {}, 400, -1102, mandatory('type')],
  ['GET', '/sapi/v1/asset/transfer', { type: 'UMFUTURE_MARGIN' }, 400, -1130, invalid('type')],
  ['GET', '/sapi/v1/asset/transfer', { type: 'MAIN_UMFUTURE', size: 101 }, 400, -1130, invalid('size')],
];

const SETTINGS: readonly BadInput[] = [
  ['POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT' }, 400, -1102, mandatory('margintype')],
  ['POST', '/fapi/v1/marginType', { marginType: 'ISOLATED' }, 400, -1102, mandatory('symbol')],
  ['POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'isolated' }, 400, -1130, invalid('marginType')],
  ['POST', '/fapi/v1/marginType', { symbol: 'ETHUSDT', marginType: 'ISOLATED' }, 400, -1121, INVALID_SYMBOL],
  ['POST', '/fapi/v1/marginType', { symbol: 'btcusdt', marginType: 'ISOLATED' }, 400, -1100, "Illegal characters found in parameter 'symbol'; legal range is '^[A-Z0-9-_.]{1,20}$'."],
  // Crossed already; and a position and an open order stand in the way of ISOLATED.
  ['POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'CROSSED' }, 400, -4046, 'No need to change margin type.'],
  ['POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' }, 400, -4047, 'Margin type cannot be changed if there exists open orders.'],
  ['POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT' }, 400, -1102, mandatory('leverage')],
  ['POST', '/fapi/v1/leverage', { leverage: 5 }, 400, -1102, mandatory('symbol')],
  ['POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 0 }, 400, -4028, 'Leverage 0 is not valid'],
  // Above bracket 1's initial leverage (125 for BTCUSDT; the fixed cap went on 2026-10-09).
  ['POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: 126 }, 400, -4028, 'Leverage 126 is not valid'],
  ['POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '2.5' }, 400, -1100, illegalInteger('leverage')],
  ['POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: -3 }, 400, -1100, illegalInteger('leverage')],
  ['POST', '/fapi/v1/leverage', { symbol: 'XYZUSDT', leverage: 5 }, 400, -1121, INVALID_SYMBOL],
  ['POST', '/fapi/v1/positionSide/dual', {}, 400, -1102, mandatory('dualsideposition')],
  ['POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'yes' }, 400, -1130, invalid('dualSidePosition')],
  ['POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'false' }, 400, -4059, 'No need to change position side.'],
  ['POST', '/fapi/v1/positionSide/dual', { dualSidePosition: 'true' }, 400, -4067, 'Position side cannot be changed if there exists open orders.'],
  ['POST', '/fapi/v1/multiAssetsMargin', {}, 400, -1102, mandatory('multiassetsmargin')],
  ['POST', '/fapi/v1/multiAssetsMargin', { multiAssetsMargin: 'on' }, 400, -1130, invalid('multiAssetsMargin')],
  ['POST', '/fapi/v1/positionMargin', { symbol: 'BTCUSDT', amount: '1' }, 400, -1102, mandatory('type')],
  ['POST', '/fapi/v1/positionMargin', { symbol: 'BTCUSDT', amount: '1', type: 3 }, 400, -1130, invalid('type')],
  ['POST', '/fapi/v1/positionMargin', { symbol: 'BTCUSDT', amount: '-1', type: 1 }, 400, -1100, illegalDecimal('amount')],
  ['POST', '/fapi/v1/positionMargin', { symbol: 'BTCUSDT', amount: '1', type: 1 }, 400, -4049, 'Add margin only support for isolated position.'],
  ['POST', '/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT' }, 400, -1102, mandatory('countdowntime')],
  ['POST', '/fapi/v1/countdownCancelAll', { countdownTime: 1000 }, 400, -1102, mandatory('symbol')],
  ['POST', '/fapi/v1/countdownCancelAll', { symbol: 'BTCUSDT', countdownTime: -5 }, 400, -1100, illegalInteger('countdownTime')],
  ['POST', '/fapi/v1/countdownCancelAll', { symbol: 'XYZUSDT', countdownTime: 1000 }, 400, -1121, INVALID_SYMBOL],
];

const QUERIES: readonly BadInput[] = [
  ['GET', '/fapi/v2/balance', { recvWindow: 60001 }, 400, -1131, "'recvWindow' must be less than 60000."],
  ['GET', '/fapi/v3/balance', { recvWindow: 'abc' }, 400, -1100, illegalDecimal('recvWindow')],
  ['GET', '/fapi/v2/account', { extra: 1 }, 400, -1104, "Not all sent parameters were read; read '2' parameter(s) but was sent '3'."],
  ['GET', '/fapi/v1/leverageBracket', { symbol: 'XYZUSDT' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v2/positionRisk', { symbol: 'XYZUSDT' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v3/positionRisk', { symbol: 'XYZUSDT' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/income', { incomeType: 'FEE' }, 400, -1130, invalid('incomeType')],
  ['GET', '/fapi/v1/income', { symbol: 'XYZUSDT' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/income', { limit: 1001 }, 400, -1130, invalid('limit')],
  ['GET', '/fapi/v1/income', { limit: 0 }, 400, -1130, invalid('limit')],
  ['GET', '/fapi/v1/income', { limit: 'ten' }, 400, -1100, illegalInteger('limit')],
  // page went on 2026-10-16 (use startTime and endTime): no longer read.
  ['GET', '/fapi/v1/income', { page: 2 }, 400, -1104, "Not all sent parameters were read; read '2' parameter(s) but was sent '3'."],
  ['GET', '/fapi/v1/openOrder', { symbol: 'BTCUSDT' }, 400, -1102, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!"],
  ['GET', '/fapi/v1/openOrder', { symbol: 'BTCUSDT', orderId: 999 }, 400, -2013, 'Order does not exist.'],
  ['GET', '/fapi/v1/openOrders', { symbol: 'XYZUSDT' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/order', { symbol: 'BTCUSDT' }, 400, -1102, "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!"],
  ['GET', '/fapi/v1/order', { orderId: 1 }, 400, -1102, mandatory('symbol')],
  ['GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 999 }, 400, -2013, 'Order does not exist.'],
  ['GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: 'one' }, 400, -1100, illegalInteger('orderId')],
  // symbol is optional on allOrders since 2026-08-25, but an orderId counts within one symbol.
  ['GET', '/fapi/v1/allOrders', { orderId: 1 }, 400, -1102, mandatory('symbol')],
  ['GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT', limit: 1001 }, 400, -1130, invalid('limit')],
  ['GET', '/fapi/v1/allOrders', { symbol: 'XYZUSDT' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/userTrades', {}, 400, -1102, mandatory('symbol')],
  ['GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT', limit: 1001 }, 400, -1130, invalid('limit')],
  // At most 7 days between startTime and endTime (-1127 with the shared text's hours), on both histories.
  ['GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT', startTime: 1_766_620_800_000, endTime: 1_767_225_600_001 }, 400, -1127, 'More than 168 hours between startTime and endTime.'],
  ['GET', '/fapi/v1/allOrders', { symbol: 'BTCUSDT', startTime: 1_766_620_800_000, endTime: 1_767_225_600_001 }, 400, -1127, 'More than 168 hours between startTime and endTime.'],
  // "The parameter fromId cannot be sent with startTime or endTime."
  ['GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT', fromId: 1, startTime: 1_767_225_600_000 }, 400, -1128, 'Combination of optional parameters invalid.'],
  ['GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT', fromId: 1, endTime: 1_767_225_600_000 }, 400, -1128, 'Combination of optional parameters invalid.'],
  ['GET', '/fapi/v1/commissionRate', {}, 400, -1102, mandatory('symbol')],
  ['GET', '/fapi/v1/commissionRate', { symbol: 'XYZUSDT' }, 400, -1121, INVALID_SYMBOL],
  ['GET', '/fapi/v1/forceOrders', { autoCloseType: 'MARGIN_CALL' }, 400, -1130, invalid('autoCloseType')],
  ['GET', '/fapi/v1/forceOrders', { limit: 101 }, 400, -1130, invalid('limit')],
  ['PUT', '/fapi/v1/listenKey', {}, 400, -1125, 'This listenKey does not exist. Please use `POST /fapi/v1/listenKey` to recreate `listenKey`'],
  ['DELETE', '/fapi/v1/listenKey', {}, 400, -1125, 'This listenKey does not exist. Please use `POST /fapi/v1/listenKey` to recreate `listenKey`'],
];

describe('the 7-day histories', () => {
  test('exactly 7 days apart is allowed; without times allOrders and userTrades show the last 7 days only', () => {
    const f = badInputFixture();
    const week = { symbol: 'BTCUSDT', startTime: 1_766_620_800_000, endTime: 1_767_225_600_000 };
    expect((f.demo.get('/fapi/v1/userTrades', week).json as unknown[]).length).toBe(1);
    expect((f.demo.get('/fapi/v1/allOrders', week).json as unknown[]).length).toBe(2);
    // Eight days on, the fill and both orders are older than the default window, but an id still reaches them.
    f.backend.advanceTo(f.backend.now + 8 * 24 * 60 * 60 * 1_000_000);
    expect(f.demo.get('/fapi/v1/userTrades', { symbol: 'BTCUSDT' }).json).toEqual([]);
    expect(f.demo.get('/fapi/v1/allOrders', { symbol: 'BTCUSDT' }).json).toEqual([]);
    expect((f.demo.get('/fapi/v1/userTrades', { symbol: 'BTCUSDT', fromId: 1 }).json as unknown[]).length).toBe(1);
    expect((f.demo.get('/fapi/v1/allOrders', { symbol: 'BTCUSDT', orderId: 1 }).json as unknown[]).length).toBe(2);
  });
});

describe.each([
  ['transfers', TRANSFERS],
  ['settings', SETTINGS],
  ['queries', QUERIES],
])('futures bad input: %s', (_group, cases) => {
  test.each(cases.map((c) => [`${c[0]} ${c[1]} ${JSON.stringify(c[2])} → ${c[4]}`, c] as const))('%s', (_name, input) => {
    expectRefused(badInputFixture(), input);
  });
});
