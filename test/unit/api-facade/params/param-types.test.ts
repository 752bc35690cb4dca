import { describe, expect, it } from 'vitest';
import { ENUM_ERRORS } from '../../../../src/api-facade/params/param-errors.ts';
import type { DecimalParam, ParamSpec, TimestampParam } from '../../../../src/api-facade/params/param-types.ts';
import { decimalParam, parseValue, SYMBOL_PATTERN } from '../../../../src/api-facade/params/param-types.ts';
import { bad, wireError } from './wire-error.ts';

const parse = (spec: ParamSpec, text: string, values: Record<string, unknown> = {}) => parseValue(spec, text, values);
const fails = (spec: ParamSpec, text: string, values: Record<string, unknown> = {}) => wireError(() => parseValue(spec, text, values));

const DECIMAL_MSG = (name: string) => `Illegal characters found in parameter '${name}'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.`;
const INTEGER_MSG = (name: string) => `Illegal characters found in parameter '${name}'; legal range is '^[0-9]{1,20}$'.`;
const SYMBOLS_MSG = `Illegal characters found in parameter 'symbols'; legal range is '^\\[("[A-Z0-9-_.]{1,20}"(,"[A-Z0-9-_.]{1,20}"){0,}){0,1}\\]$'.`;

describe('STRING parameters', () => {
  it('take any text unless the row names a pattern', () => {
    expect(parse({ name: 'newClientOrderId', kind: 'STRING' }, 'my id/1')).toBe('my id/1');
  });

  it('refuse text outside the symbol pattern with -1100 and the wire legal range', () => {
    const spec: ParamSpec = { name: 'symbol', kind: 'STRING', pattern: SYMBOL_PATTERN };
    expect(parse(spec, 'BTCUSDT')).toBe('BTCUSDT');
    expect(fails(spec, 'btcusdt')).toEqual(bad(-1100, "Illegal characters found in parameter 'symbol'; legal range is '^[A-Z0-9-_.]{1,20}$'."));
    expect(fails(spec, 'BNBBTC?symbol=BNBBTC').code).toBe(-1100);
    expect(fails(spec, 'A'.repeat(21)).code).toBe(-1100);
  });

  it('admit non-ASCII symbol names (spec item 9)', () => {
    expect(parse({ name: 'symbol', kind: 'STRING', pattern: SYMBOL_PATTERN }, '１２３４５６')).toBe('１２３４５６');
  });
});

describe('LONG and INT parameters', () => {
  const long: ParamSpec = { name: 'orderId', kind: 'LONG' };
  const int: ParamSpec = { name: 'limit', kind: 'INT' };

  it('parse unsigned decimal digits, leading zeros included', () => {
    expect(parse(long, '12345')).toBe(12345);
    expect(parse(int, '0500')).toBe(500);
    expect(parse(long, '0')).toBe(0);
  });

  it('refuse signs, decimals, letters and 21 digits with -1100 ^[0-9]{1,20}$', () => {
    for (const text of ['-1', '+1', '1.0', 'abc', '1e3', ' 1', '1'.repeat(21)]) {
      expect(fails(long, text)).toEqual(bad(-1100, INTEGER_MSG('orderId')));
    }
    expect(fails(int, '-1')).toEqual(bad(-1100, INTEGER_MSG('limit')));
  });

  it('answer -1108 for a well-formed value beyond the type range', () => {
    expect(parse(long, '9223372036854775807')).toBe(9223372036854775807);
    expect(fails(long, '9223372036854775808')).toEqual(bad(-1108, "Parameter 'orderId' overflowed."));
    expect(parse(int, '2147483647')).toBe(2147483647);
    expect(fails(int, '2147483648')).toEqual(bad(-1108, "Parameter 'limit' overflowed."));
  });
});

describe('DECIMAL parameters', () => {
  const quantity: ParamSpec = { name: 'quantity', kind: 'DECIMAL' };

  it('refuse anything outside ^([0-9]{1,20})(\\.[0-9]{1,20})?$ with -1100 and that exact range', () => {
    for (const text of ['-1', '1e-5', '.5', '5.', '1,5', '0x10', '1.2.3', '1'.repeat(21), `1.${'0'.repeat(21)}`, 'NaN']) {
      expect(fails(quantity, text)).toEqual(bad(-1100, DECIMAL_MSG('quantity')));
    }
  });

  it('give integer units at a precision, exactly', () => {
    const q = parse(quantity, '0.00100000') as DecimalParam;
    expect(q.text).toBe('0.00100000');
    expect(q.units(8)).toBe(100_000);
    expect(decimalParam('price', '26304.8').units(2)).toBe(2_630_480);
    expect(decimalParam('price', '7').units(0)).toBe(7);
  });

  it('refuse more significant decimals than the precision with -1111; trailing zeros are not significant', () => {
    const q = decimalParam('quantity', '0.123456789');
    expect(wireError(() => q.units(8))).toEqual(bad(-1111, "Parameter 'quantity' has too much precision."));
    expect(decimalParam('quantity', '0.10000000000').units(8)).toBe(10_000_000);
  });

  it('answer -1108 when the units do not fit a safe integer', () => {
    expect(wireError(() => decimalParam('quantity', '99999999999999999999').units(8))).toEqual(bad(-1108, "Parameter 'quantity' overflowed."));
  });

  it('check a precision named by the row while parsing, from the values read before', () => {
    const spec: ParamSpec = { name: 'quantity', kind: 'DECIMAL', precision: (p) => (p['symbol'] === 'BTCUSDT' ? 5 : undefined) };
    expect(fails(spec, '0.000001', { symbol: 'BTCUSDT' })).toEqual(bad(-1111, "Parameter 'quantity' has too much precision."));
    // Unknown precision (e.g. an unknown symbol): deferred to the handler, which answers -1121 first.
    expect((parse(spec, '0.000001', { symbol: 'NOPE' }) as DecimalParam).text).toBe('0.000001');
    expect(fails({ name: 'price', kind: 'DECIMAL', precision: 2 }, '1.001').code).toBe(-1111);
  });
});

describe('ENUM parameters', () => {
  const cases: [string, string, { code: number; msg: string }][] = [
    ['timeInForce', 'GTD', ENUM_ERRORS.timeInForce],
    ['type', 'LIMITED', ENUM_ERRORS.orderType],
    ['side', 'buy', ENUM_ERRORS.side],
    ['cancelRestrictions', 'ONLY_OLD', ENUM_ERRORS.cancelRestrictions],
    ['type', 'HUGE', ENUM_ERRORS.tickerType],
    ['interval', '1H', ENUM_ERRORS.interval],
    ['symbolStatus', 'OPEN', ENUM_ERRORS.symbolStatus],
    ['pegPriceType', 'X', ENUM_ERRORS.pegPriceType],
    ['pegOffsetType', 'X', ENUM_ERRORS.pegOffsetType],
  ];

  it('accept exactly the declared values, case-sensitively', () => {
    const spec: ParamSpec = { name: 'side', kind: 'ENUM', values: ['BUY', 'SELL'], invalid: ENUM_ERRORS.side };
    expect(parse(spec, 'SELL')).toBe('SELL');
    expect(fails(spec, 'Sell')).toEqual(bad(-1117, 'Invalid side.'));
  });

  it('refuse other values with the parameter-specific code the row names', () => {
    for (const [name, text, error] of cases) {
      expect(fails({ name, kind: 'ENUM', values: ['A'], invalid: error }, text)).toEqual(bad(error.code, error.msg));
    }
    expect(ENUM_ERRORS.timeInForce).toEqual({ code: -1115, msg: 'Invalid timeInForce.' });
    expect(ENUM_ERRORS.orderType).toEqual({ code: -1116, msg: 'Invalid orderType.' });
    expect(ENUM_ERRORS.side).toEqual({ code: -1117, msg: 'Invalid side.' });
    expect(ENUM_ERRORS.interval).toEqual({ code: -1120, msg: 'Invalid interval.' });
    expect(ENUM_ERRORS.symbolStatus).toEqual({ code: -1122, msg: 'Invalid symbolStatus.' });
    expect(ENUM_ERRORS.tickerType).toEqual({ code: -1139, msg: 'Invalid ticker type.' });
    expect(ENUM_ERRORS.cancelRestrictions).toEqual({ code: -1145, msg: 'Invalid cancelRestrictions' });
  });

  it('refuse other values with -1130 when the parameter has no code of its own', () => {
    expect(fails({ name: 'newOrderRespType', kind: 'ENUM', values: ['ACK', 'RESULT', 'FULL'] }, 'FAST')).toEqual(
      bad(-1130, "Data sent for parameter 'newOrderRespType' is not valid."),
    );
  });
});

describe('BOOLEAN parameters', () => {
  const spec: ParamSpec = { name: 'omitZeroBalances', kind: 'BOOLEAN' };

  it('read true and false, in any letter case', () => {
    expect(parse(spec, 'true')).toBe(true);
    expect(parse(spec, 'false')).toBe(false);
    expect(parse(spec, 'True')).toBe(true);
    expect(parse(spec, 'FALSE')).toBe(false);
  });

  it('refuse anything else with -1130', () => {
    for (const text of ['1', '0', 'yes', 'truee', ' true']) {
      expect(fails(spec, text)).toEqual(bad(-1130, "Data sent for parameter 'omitZeroBalances' is not valid."));
    }
  });
});

describe('JSON array parameters', () => {
  const symbols: ParamSpec = { name: 'symbols', kind: 'JSON_ARRAY' };

  it('read the decoded array, whichever encoding the client used', () => {
    expect(parse(symbols, '["BTCUSDT","ETHBTC"]')).toEqual(['BTCUSDT', 'ETHBTC']);
    expect(parse(symbols, decodeURIComponent('%5B%22BTCUSDT%22%5D'))).toEqual(['BTCUSDT']);
  });

  it('refuse malformed lists, spaces and the empty list with -1100 and the wire regex', () => {
    for (const text of ['BTCUSDT', '["BTCUSDT", "ETHBTC"]', "['BTCUSDT']", '["btcusdt"]', '["BTCUSDT",]', '[]', '[BTCUSDT]', '"BTCUSDT"']) {
      expect(fails(symbols, text)).toEqual(bad(-1100, SYMBOLS_MSG));
    }
  });

  it('refuse a repeated symbol with -1151', () => {
    expect(fails(symbols, '["BTCUSDT","ETHBTC","BTCUSDT"]')).toEqual(bad(-1151, 'Symbol is present multiple times in the list.'));
  });

  it('take a single bare item when the row allows it (permissions)', () => {
    const permissions: ParamSpec = { name: 'permissions', kind: 'JSON_ARRAY', acceptBare: true, item: { source: '[A-Z_]{1,20}', text: '[A-Z_]{1,20}' } };
    expect(parse(permissions, 'SPOT')).toEqual(['SPOT']);
    expect(parse(permissions, '["MARGIN","LEVERAGED"]')).toEqual(['MARGIN', 'LEVERAGED']);
    expect(fails(permissions, 'spot')).toEqual(
      bad(-1100, `Illegal characters found in parameter 'permissions'; legal range is '^\\[("[A-Z_]{1,20}"(,"[A-Z_]{1,20}"){0,}){0,1}\\]$'.`),
    );
  });

  it('answer -1135 when a custom item pattern lets invalid JSON through', () => {
    const loose: ParamSpec = { name: 'list', kind: 'JSON_ARRAY', item: { source: '[^"]*', text: '.*' } };
    expect(fails(loose, '["a\\"]')).toEqual(bad(-1135, "JSON sent for parameter 'list' is not valid"));
  });
});

describe('recvWindow', () => {
  const spec: ParamSpec = { name: 'recvWindow', kind: 'RECV_WINDOW' };

  it('is read in microseconds, up to three decimals', () => {
    expect(parse(spec, '5000')).toBe(5_000_000);
    expect(parse(spec, '5000.5')).toBe(5_000_500);
    expect(parse(spec, '0.001')).toBe(1);
    expect(parse(spec, '60000')).toBe(60_000_000);
    expect(parse(spec, '60000.000')).toBe(60_000_000);
  });

  it('refuses a fourth decimal with -1111 and bad text with -1100', () => {
    expect(fails(spec, '5000.0001')).toEqual(bad(-1111, "Parameter 'recvWindow' has too much precision."));
    expect(fails(spec, '-5000')).toEqual(bad(-1100, DECIMAL_MSG('recvWindow')));
  });

  it('refuses more than 60000 with -1131', () => {
    expect(fails(spec, '60000.001')).toEqual(bad(-1131, "'recvWindow' must be less than 60000."));
    expect(fails(spec, '6000000')).toEqual(bad(-1131, "'recvWindow' must be less than 60000."));
    expect(fails(spec, '99999999999999999999')).toEqual(bad(-1131, "'recvWindow' must be less than 60000."));
    expect(parse(spec, '0060000')).toBe(60_000_000);
  });
});

describe('timestamps', () => {
  const spec: ParamSpec = { name: 'timestamp', kind: 'TIMESTAMP' };
  const ts = (text: string) => parse(spec, text) as TimestampParam;

  it('read 13 digits as milliseconds and 16 as microseconds', () => {
    expect(ts('1499827319559')).toEqual({ ms: 1_499_827_319_559, us: 1_499_827_319_559_000, unit: 'ms' });
    expect(ts('1499827319559123')).toEqual({ ms: 1_499_827_319_559, us: 1_499_827_319_559_123, unit: 'us' });
  });

  it('split the units at 10^15', () => {
    expect(ts('999999999999999').unit).toBe('ms');
    expect(ts('1000000000000000').unit).toBe('us');
  });

  it('refuse non-integers with -1100 and values past a LONG with -1108', () => {
    expect(fails(spec, '1499827319559.5')).toEqual(bad(-1100, INTEGER_MSG('timestamp')));
    expect(fails(spec, '99999999999999999999')).toEqual(bad(-1108, "Parameter 'timestamp' overflowed."));
  });
});
