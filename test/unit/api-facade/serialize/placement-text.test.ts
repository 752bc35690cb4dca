/**
 * placementText is JSON.stringify of a placement answer, byte for byte, and placementCopy its
 * JSON round trip: for the plain shape they work by it (any strings in the symbol, client order id
 * and commission asset, any integers, -0 included), and for every other answer (ACK, conditional
 * fields, allocations, a key out of place) the writer falls back and the copier declines.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placementCopy, placementText } from '../../../../src/api-facade/serialize/order-json.ts';
import { answerValueOf } from '../../../../src/api-facade/serialize/json-value.ts';
import { answerText, JsonAnswer } from '../../../../src/api-facade/serialize/json-text.ts';

const anyText = fc.oneof(fc.string(), fc.constantFrom('BTCUSDT', 'x-AbC_1-2', 'quote"d', 'back\\slash', 'nl\n', '\u0000', '\ud800', '😀', '\u2028'));
const integer = fc.oneof(fc.integer(), fc.constantFrom(-1, 0, -0, Number.MAX_SAFE_INTEGER, 1_767_225_600_123_456));
const decimal = fc.constantFrom('0.00000000', '50000.00000000', '0.00100000', '-1.50000000');
const status = fc.constantFrom('NEW', 'PARTIALLY_FILLED', 'FILLED', 'EXPIRED', 'EXPIRED_IN_MATCH');

const fill = fc.record({ price: decimal, qty: decimal, commission: decimal, commissionAsset: anyText, tradeId: integer });
const plain = fc.record({
  symbol: anyText,
  orderId: integer,
  orderListId: integer,
  clientOrderId: anyText,
  transactTime: integer,
  price: decimal,
  origQty: decimal,
  executedQty: decimal,
  origQuoteOrderQty: decimal,
  cummulativeQuoteQty: decimal,
  status,
  timeInForce: fc.constantFrom('GTC', 'IOC', 'FOK'),
  type: fc.constantFrom('LIMIT', 'MARKET', 'LIMIT_MAKER'),
  side: fc.constantFrom('BUY', 'SELL'),
  workingTime: integer,
  selfTradePreventionMode: fc.constantFrom('NONE', 'EXPIRE_MAKER', 'EXPIRE_TAKER', 'EXPIRE_BOTH', 'DECREMENT', 'TRANSFER'),
});

describe('placementText', () => {
  it('is JSON.stringify of a RESULT or FULL answer of the plain shape', () => {
    fc.assert(
      fc.property(plain, fc.option(fc.array(fill, { maxLength: 3 })), (answer, fills) => {
        const value: Record<string, unknown> = fills === null ? { ...answer } : { ...answer, fills };
        expect(placementText(value)).toBe(JSON.stringify(value));
        const copy = placementCopy(value);
        expect(copy).toEqual(JSON.parse(JSON.stringify(value)));
        expect(Object.is(copy?.['orderId'], JSON.parse(JSON.stringify(value))['orderId'])).toBe(true);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
        if (fills !== null && fills.length > 0) expect((copy?.['fills'] as unknown[])[0]).not.toBe(fills[0]);
      }),
      { numRuns: 2000 },
    );
  });

  it('falls back to JSON.stringify for any other answer', () => {
    const base = fc.sample(plain, { numRuns: 1, seed: 7 })[0]!;
    const others: Record<string, unknown>[] = [
      { symbol: 'BTCUSDT', orderId: 1, orderListId: -1, clientOrderId: 'a', transactTime: 5 },
      { ...base, stopPrice: '1.00000000', fills: [] },
      { ...base, fills: [], preventedMatches: [{ preventedMatchId: 1 }] },
      { ...base, fills: [{ matchType: 'ONE_PARTY_TRADE_REPORT', price: '1', qty: '1', commission: '0', commissionAsset: 'BTC', tradeId: -1, allocId: 3 }] },
      { ...base, orderId: 1.5 },
      { ...base, orderId: Number.NaN, fills: [] },
      { ...base, price: 5 },
      { ...base, fills: 'none' },
      Object.fromEntries(Object.entries(base).reverse()),
    ];
    for (const value of others) {
      expect(placementText(value)).toBe(JSON.stringify(value));
      expect(placementCopy(value)).toBeUndefined();
    }
  });

  it('in a JsonAnswer: the transport gets the text, the in-process client a copy of the value (by shape or generic)', () => {
    const value = { ...fc.sample(plain, { numRuns: 1, seed: 3 })[0]!, fills: [] };
    for (const answer of [new JsonAnswer(value, placementText), new JsonAnswer(value, placementText, placementCopy), new JsonAnswer({ ...value, stopPrice: '1.0' }, placementText, placementCopy)]) {
      expect(answerText(answer)).toBe(JSON.stringify(answer.value));
      const copy = answerValueOf(answer);
      expect(copy).toEqual(JSON.parse(JSON.stringify(answer.value)));
      expect(copy).not.toBe(answer.value);
    }
  });
});
