import { describe, expect, it } from 'vitest';
import { rejectToApiError } from '../../../../src/api-facade/core/reject-errors.ts';
import type { RejectReason } from '../../../../src/engine/reject-reason.ts';

const wire = (reason: RejectReason, context: 'place' | 'cancel' | 'query' = 'place', type?: Parameters<typeof rejectToApiError>[2]) => {
  const e = rejectToApiError(reason, context, type);
  return { status: e.status, ...e.toBody() };
};

describe('engine refusals on the wire', () => {
  it('filter failures are -1013 "Filter failure: <NAME>" with HTTP 400', () => {
    expect(wire('FILTER_LOT_SIZE')).toEqual({ status: 400, code: -1013, msg: 'Filter failure: LOT_SIZE' });
    expect(wire('FILTER_PERCENT_PRICE_BY_SIDE')).toEqual({ status: 400, code: -1013, msg: 'Filter failure: PERCENT_PRICE_BY_SIDE' });
    expect(wire('FILTER_EXCHANGE_MAX_NUM_ORDERS')).toEqual({ status: 400, code: -1013, msg: 'Filter failure: EXCHANGE_MAX_NUM_ORDERS' });
    expect(wire('FILTER_MAX_ASSET', 'cancel')).toEqual({ status: 400, code: -1013, msg: 'Filter failure: MAX_ASSET' });
  });

  it('matching-engine refusals are -2010 when placing and -2011 when canceling, with the exact texts', () => {
    expect(wire('INSUFFICIENT_BALANCE')).toEqual({ status: 400, code: -2010, msg: 'Account has insufficient balance for requested action.' });
    expect(wire('DUPLICATE_ORDER')).toEqual({ status: 400, code: -2010, msg: 'Duplicate order sent.' });
    expect(wire('WOULD_MATCH_AND_TAKE')).toEqual({ status: 400, code: -2010, msg: 'Order would immediately match and take.' });
    expect(wire('MARKET_CLOSED', 'cancel')).toEqual({ status: 400, code: -2011, msg: 'Market is closed.' });
    expect(wire('UNKNOWN_ORDER', 'cancel')).toEqual({ status: 400, code: -2011, msg: 'Unknown order sent.' });
    expect(wire('CANCEL_RESTRICTIONS_NOT_MET', 'cancel')).toEqual({ status: 400, code: -2011, msg: 'Order was not canceled due to cancel restrictions.' });
    expect(wire('QUOTE_ORDER_QTY_MARKET_NOT_SUPPORTED')).toEqual({ status: 400, code: -2010, msg: 'Quote order qty market orders are not support for this symbol.' });
    expect(wire('LIQUIDITY_BELOW_SYMBOL_MIN_QTY')).toEqual({ status: 400, code: -2010, msg: 'Order book liquidity is less than symbol minimum quantity.' });
  });

  it('an unknown order in a query is -2013 "Order does not exist."', () => {
    expect(wire('UNKNOWN_ORDER', 'query')).toEqual({ status: 400, code: -2013, msg: 'Order does not exist.' });
  });

  it('an order type the symbol does not allow names the type, or is an unsupported combination', () => {
    expect(wire('ORDER_TYPE_NOT_SUPPORTED', 'place', 'MARKET')).toEqual({ status: 400, code: -2010, msg: 'Market orders are not supported for this symbol.' });
    expect(wire('ORDER_TYPE_NOT_SUPPORTED', 'place', 'TAKE_PROFIT_LIMIT')).toEqual({ status: 400, code: -2010, msg: 'Take profit limit orders are not supported for this symbol.' });
    expect(wire('ORDER_TYPE_NOT_SUPPORTED', 'place', 'LIMIT_MAKER')).toEqual({ status: 400, code: -1014, msg: 'Unsupported order combination.' });
  });

  it('refusals outside the matching engine keep their own codes and statuses', () => {
    expect(wire('UNKNOWN_SYMBOL')).toEqual({ status: 400, code: -1121, msg: 'Invalid symbol.' });
    expect(wire('STP_MODE_NOT_ALLOWED')).toEqual({ status: 400, code: -1013, msg: 'This symbol does not allow the specified self-trade prevention mode.' });
    expect(wire('CANCEL_ID_MISSING', 'cancel')).toEqual({ status: 400, code: -1102, msg: "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!" });
    expect(wire('UNKNOWN_ACCOUNT')).toEqual({ status: 401, code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
  });
});
