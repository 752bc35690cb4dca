/**
 * The facade answers an engine refusal from its own error table (futures-refusals.ts); the engine
 * keeps a table of the fapi codes it means (src/futures/trading/futures-reject-codes.ts). They must agree, code and
 * text, for every futures reason (the parametrised texts with their parameter filled in).
 */
import { describe, expect, test } from 'vitest';
import type { RejectReason } from '../../../src/engine/index.ts';
import { FUTURES_REJECT_CODES, FUTURES_CODE_OF_SHARED } from '../../../src/futures/index.ts';
import { futuresError } from '../../../src/api-facade/endpoints/futures-trading/futures-refusals.ts';

describe('futures refusals', () => {
  test.each(Object.entries(FUTURES_REJECT_CODES))('%s', (reason, expected) => {
    const e = futuresError(reason as RejectReason, { notional: '100', leverage: 200 });
    expect({ code: e.code, msg: e.msg, status: e.status }).toEqual({ code: expected.code, msg: expected.msg.replace('%s', reason === 'FUTURES_INVALID_LEVERAGE' ? '200' : '100'), status: 400 });
  });

  test.each(Object.entries(FUTURES_CODE_OF_SHARED).filter(([r]) => r !== 'UNKNOWN_ORDER'))('shared %s', (reason, expected) => {
    const e = futuresError(reason as RejectReason);
    expect({ code: e.code, msg: e.msg }).toEqual({ code: expected!.code, msg: expected!.msg });
  });

  test('an unknown order: -2013 on queries (the cancel rows answer -2011 themselves)', () => {
    expect(futuresError('UNKNOWN_ORDER').toBody()).toEqual({ code: -2013, msg: 'Order does not exist.' });
  });
});
