import { describe, expect, it } from 'vitest';
import { EMPTY_ERRORS, paramErrors } from '../../../../src/api-facade/params/param-errors.ts';
import { bad, wireError } from './wire-error.ts';

const wire = (e: Error) => wireError(() => { throw e; });

describe('parameter errors on the wire', () => {
  it('carry HTTP 400 and the exact Binance code and text', () => {
    const table: [Error, number, string][] = [
      [paramErrors.illegalChars('limit', '^[0-9]{1,20}$'), -1100, "Illegal characters found in parameter 'limit'; legal range is '^[0-9]{1,20}$'."],
      [paramErrors.duplicate('limit'), -1101, "Duplicate values for parameter 'limit'."],
      [paramErrors.tooMany(1, 2), -1101, "Too many parameters; expected '1' and received '2'."],
      [paramErrors.mandatory('symbol'), -1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."],
      [paramErrors.eitherRequired('orderId', 'origClientOrderId'), -1102, "Param 'orderId' or 'origClientOrderId' must be sent, but both were empty/null!"],
      [paramErrors.unread(7, 8), -1104, "Not all sent parameters were read; read '7' parameter(s) but was sent '8'."],
      [paramErrors.empty('symbol'), -1105, "Parameter 'symbol' was empty."],
      [paramErrors.notRequired('timeInForce'), -1106, "Parameter 'timeInForce' sent when not required."],
      [paramErrors.overflow('orderId'), -1108, "Parameter 'orderId' overflowed."],
      [paramErrors.tooMuchPrecision('quantity'), -1111, "Parameter 'quantity' has too much precision."],
      [paramErrors.badCombination(), -1128, 'Combination of optional parameters invalid.'],
      [paramErrors.mustBothBeSent('a', 'b'), -1128, "Combination of optional fields invalid. Recommendation: 'a' and 'b' must both be sent."],
      [paramErrors.sendTogether(['a', 'b']), -1128, 'Fields [a, b] must be sent together or omitted entirely.'],
      [paramErrors.invalidData('x'), -1130, "Data sent for parameter 'x' is not valid."],
      [paramErrors.badRecvWindow(), -1131, "'recvWindow' must be less than 60000."],
      [paramErrors.invalidJson('symbols'), -1135, "JSON sent for parameter 'symbols' is not valid"],
      [paramErrors.duplicateSymbols(), -1151, 'Symbol is present multiple times in the list.'],
      [paramErrors.fromTemplate(EMPTY_ERRORS.newClientOrderId), -1118, 'New client order ID was empty.'],
      [paramErrors.fromTemplate(EMPTY_ERRORS.origClientOrderId), -1119, 'Original client order ID was empty.'],
    ];
    for (const [error, code, msg] of table) expect(wire(error)).toEqual(bad(code, msg));
  });
});
