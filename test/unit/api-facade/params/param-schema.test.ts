import { describe, expect, it } from 'vitest';
import { EMPTY_ERRORS, ENUM_ERRORS } from '../../../../src/api-facade/params/param-errors.ts';
import { bothOrNeither, eitherRequired, exclusive, notAllowedWhen } from '../../../../src/api-facade/params/param-rules.ts';
import { defineSchema, parseParams, SIGNED_PARAMS, withSigned } from '../../../../src/api-facade/params/param-schema.ts';
import { SYMBOL_PATTERN } from '../../../../src/api-facade/params/param-types.ts';
import { collectRawParams } from '../../../../src/api-facade/params/raw-params.ts';
import { bad, wireError } from './wire-error.ts';

const DEPTH = defineSchema([
  { name: 'symbol', kind: 'STRING', required: true, pattern: SYMBOL_PATTERN },
  { name: 'limit', kind: 'INT' },
  { name: 'symbolStatus', kind: 'ENUM', values: ['TRADING', 'HALT', 'BREAK'], invalid: ENUM_ERRORS.symbolStatus },
]);

const EXCHANGE_INFO = defineSchema(
  [
    { name: 'symbol', kind: 'STRING', pattern: SYMBOL_PATTERN },
    { name: 'symbols', kind: 'JSON_ARRAY' },
    { name: 'showPermissionSets', kind: 'BOOLEAN' },
  ],
  [exclusive('symbol', 'symbols')],
);

const ORDER_TYPES = ['LIMIT', 'MARKET', 'LIMIT_MAKER'] as const;
const ORDER = defineSchema(
  withSigned([
    { name: 'symbol', kind: 'STRING', required: true, pattern: SYMBOL_PATTERN },
    { name: 'side', kind: 'ENUM', required: true, values: ['BUY', 'SELL'], invalid: ENUM_ERRORS.side },
    { name: 'type', kind: 'ENUM', required: true, values: ORDER_TYPES, invalid: ENUM_ERRORS.orderType },
    { name: 'timeInForce', kind: 'ENUM', values: ['GTC', 'IOC', 'FOK'], invalid: ENUM_ERRORS.timeInForce, required: (p) => p['type'] === 'LIMIT' },
    { name: 'quantity', kind: 'DECIMAL', precision: 8 },
    { name: 'price', kind: 'DECIMAL', required: (p) => p['type'] !== 'MARKET' },
    { name: 'newClientOrderId', kind: 'STRING', empty: EMPTY_ERRORS.newClientOrderId },
    { name: 'pegOffsetValue', kind: 'INT' },
    { name: 'pegOffsetType', kind: 'ENUM', values: ['PRICE_LEVEL'], invalid: ENUM_ERRORS.pegOffsetType },
  ]),
  [notAllowedWhen('timeInForce', (p) => p['type'] === 'MARKET'), bothOrNeither('pegOffsetType', 'pegOffsetValue')],
);

const SIGNED = 'timestamp=1499827319559&signature=ab';
const read = <S extends Parameters<typeof parseParams>[0]>(schema: S, query: string, body?: string) => parseParams(schema, collectRawParams(query, body));
const fails = (schema: Parameters<typeof parseParams>[0], query: string, body?: string) => wireError(() => read(schema, query, body));

describe('reading an endpoint\'s parameters against its schema', () => {
  it('returns typed values, optional ones absent when not sent', () => {
    const p = parseParams(DEPTH, collectRawParams('symbol=BTCUSDT&limit=5'));
    const symbol: string = p.symbol;
    expect(symbol).toBe('BTCUSDT');
    expect(p.limit).toBe(5);
    expect('symbolStatus' in p).toBe(false);
    // @ts-expect-error limit is optional, so possibly undefined
    const limit: number = p.limit;
    expect(limit).toBe(5);
  });

  it('keeps enum values as their literal types and reads the signed parameters', () => {
    const p = parseParams(ORDER, collectRawParams(`${SIGNED}&recvWindow=5000.5`, 'symbol=BTCUSDT&side=SELL&type=MARKET&quantity=0.5'));
    const side: 'BUY' | 'SELL' = p.side;
    const type: (typeof ORDER_TYPES)[number] = p.type;
    expect([side, type]).toEqual(['SELL', 'MARKET']);
    expect(p.quantity?.units(8)).toBe(50_000_000);
    expect(p.timestamp).toEqual({ ms: 1499827319559, us: 1499827319559000, unit: 'ms' });
    expect(p.recvWindow).toBe(5_000_500);
    expect(p.signature).toBe('ab');
  });

  it('reads JSON arrays and booleans, and applies the schema\'s rules', () => {
    expect(read(EXCHANGE_INFO, 'symbols=%5B%22BTCUSDT%22,%22ETHBTC%22%5D&showPermissionSets=false')).toEqual({ symbols: ['BTCUSDT', 'ETHBTC'], showPermissionSets: false });
    expect(read(EXCHANGE_INFO, 'symbols=["BTCUSDT"]')).toEqual({ symbols: ['BTCUSDT'] });
    expect(fails(EXCHANGE_INFO, 'symbol=BTCUSDT&symbols=["ETHBTC"]')).toEqual(bad(-1128, 'Combination of optional parameters invalid.'));
    expect(fails(EXCHANGE_INFO, 'symbols=["ETHBTC","ETHBTC"]')).toEqual(bad(-1151, 'Symbol is present multiple times in the list.'));
    expect(fails(EXCHANGE_INFO, 'symbol=')).toEqual(bad(-1105, "Parameter 'symbol' was empty."));
  });

  it('takes the query string\'s value over the body\'s', () => {
    expect(read(DEPTH, 'symbol=BTCUSDT', 'symbol=ETHBTC&limit=7')).toEqual({ symbol: 'BTCUSDT', limit: 7 });
  });

  it('refuses a missing mandatory parameter with -1102', () => {
    expect(fails(DEPTH, '')).toEqual(bad(-1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."));
    expect(fails(DEPTH, 'limit=5')).toEqual(bad(-1102, "Mandatory parameter 'symbol' was not sent, was empty/null, or malformed."));
  });

  it('refuses an empty value with -1105, mandatory or not, or with the row\'s own code', () => {
    expect(fails(DEPTH, 'symbol=')).toEqual(bad(-1105, "Parameter 'symbol' was empty."));
    expect(fails(DEPTH, 'symbol=BTCUSDT&limit=')).toEqual(bad(-1105, "Parameter 'limit' was empty."));
    expect(fails(ORDER, `${SIGNED}&symbol=BTCUSDT&side=BUY&type=LIMIT&newClientOrderId=`)).toEqual(bad(-1118, 'New client order ID was empty.'));
  });

  it('refuses names the endpoint does not read with -1104, counting signature', () => {
    // sieblyio/binance#200: exchangeInfo?BTCUSDT.
    expect(fails(EXCHANGE_INFO, 'BTCUSDT')).toEqual(bad(-1104, "Not all sent parameters were read; read '0' parameter(s) but was sent '1'."));
    expect(fails(DEPTH, 'symbol=BTCUSDT&fromId=1')).toEqual(bad(-1104, "Not all sent parameters were read; read '1' parameter(s) but was sent '2'."));
    // connector-python#172: six order parameters, timeInForce misspelt, plus timestamp and signature.
    const body = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInforce=GTC&quantity=0.1&price=18000';
    expect(fails(ORDER, SIGNED, body)).toEqual(bad(-1104, "Not all sent parameters were read; read '7' parameter(s) but was sent '8'."));
  });

  it('refuses more names than the endpoint declares with -1101', () => {
    expect(fails(DEPTH, 'symbol=BTCUSDT&limit=5&symbolStatus=TRADING&x=1')).toEqual(bad(-1101, "Too many parameters; expected '3' and received '4'."));
  });

  it('refuses a repeated name with -1101 before anything else', () => {
    expect(fails(DEPTH, 'limit=1&limit=2')).toEqual(bad(-1101, "Duplicate values for parameter 'limit'."));
  });

  it('reports type errors in declaration order, whatever order they were sent in', () => {
    expect(fails(ORDER, `${SIGNED}&type=LIMITED&side=buy&symbol=BTCUSDT`)).toEqual(bad(-1117, 'Invalid side.'));
    expect(fails(ORDER, `${SIGNED}&type=LIMITED&side=BUY&symbol=BTCUSDT`)).toEqual(bad(-1116, 'Invalid orderType.'));
    expect(fails(ORDER, `${SIGNED}&symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTD`)).toEqual(bad(-1115, 'Invalid timeInForce.'));
    expect(fails(ORDER, `${SIGNED}&symbol=BTCUSDT&side=BUY&type=MARKET&quantity=0.000000001`)).toEqual(bad(-1111, "Parameter 'quantity' has too much precision."));
    expect(fails(DEPTH, 'symbol=BTCUSDT&symbolStatus=OPEN')).toEqual(bad(-1122, 'Invalid symbolStatus.'));
  });

  it('checks the signed parameters first', () => {
    expect(fails(ORDER, 'signature=ab')).toEqual(bad(-1102, "Mandatory parameter 'timestamp' was not sent, was empty/null, or malformed."));
    expect(fails(ORDER, 'timestamp=abc&signature=ab')).toEqual(bad(-1100, "Illegal characters found in parameter 'timestamp'; legal range is '^[0-9]{1,20}$'."));
    expect(fails(ORDER, `${SIGNED}&recvWindow=70000`)).toEqual(bad(-1131, "'recvWindow' must be less than 60000."));
    expect(SIGNED_PARAMS.map((p) => p.name)).toEqual(['timestamp', 'recvWindow', 'signature']);
  });

  it('checks conditional requirements after the read phase, then the rules in order', () => {
    expect(fails(ORDER, `${SIGNED}&symbol=BTCUSDT&side=BUY&type=LIMIT&price=1`)).toEqual(bad(-1102, "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed."));
    expect(fails(ORDER, `${SIGNED}&symbol=BTCUSDT&side=BUY&type=LIMIT_MAKER&quantity=1`)).toEqual(bad(-1102, "Mandatory parameter 'price' was not sent, was empty/null, or malformed."));
    expect(fails(ORDER, `${SIGNED}&symbol=BTCUSDT&side=BUY&type=MARKET&timeInForce=GTC`)).toEqual(bad(-1106, "Parameter 'timeInForce' sent when not required."));
    expect(fails(ORDER, `${SIGNED}&symbol=BTCUSDT&side=BUY&type=LIMIT_MAKER&price=1&pegOffsetValue=3`)).toEqual(
      bad(-1128, "Combination of optional fields invalid. Recommendation: 'pegOffsetType' and 'pegOffsetValue' must both be sent."),
    );
  });

  it('answers the same request the same way every time', () => {
    const query = `${SIGNED}&symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&price=1.5&quantity=2`;
    expect(JSON.stringify(read(ORDER, query))).toBe(JSON.stringify(read(ORDER, query)));
  });

  it('refuses a table that declares a name twice', () => {
    expect(() => defineSchema([{ name: 'a', kind: 'INT' }, { name: 'a', kind: 'LONG' }])).toThrow("parameter 'a' declared twice");
  });

  it('runs the rules of a schema without typed parameters too', () => {
    const schema = defineSchema([{ name: 'orderId', kind: 'LONG' }, { name: 'origClientOrderId', kind: 'STRING', empty: EMPTY_ERRORS.origClientOrderId }], [eitherRequired('orderId', 'origClientOrderId')]);
    expect(fails(schema, '')).toEqual(bad(-1102, "Param 'orderId' or 'origClientOrderId' must be sent, but both were empty/null!"));
    expect(fails(schema, 'origClientOrderId=')).toEqual(bad(-1119, 'Original client order ID was empty.'));
    expect(read(schema, 'orderId=5')).toEqual({ orderId: 5 });
  });
});
