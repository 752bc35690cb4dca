/**
 * One table of the fields each order type takes (src/engine/order-type-fields.ts), read by the
 * engine's combination check and by REST's parameter rules: for every order type and every set of
 * fields sent, the two agree on whether the shape is acceptable, and REST names a missing field
 * (-1102) before a forbidden one (-1106).
 */
import { describe, expect, test } from 'vitest';
import { combinationProblem } from '../../../src/engine/place-order.ts';
import { ORDER_TYPES, type OrderRequest } from '../../../src/engine/index.ts';
import { NEW_ORDER_RULES } from '../../../src/api-facade/endpoints/spot/order-request.ts';
import type { ApiError } from '../../../src/api-facade/core/index.ts';

const FIELDS = { timeInForce: 'GTC', price: 100, quantity: 1, quoteOrderQty: 100, stopPrice: 90, trailingDelta: 10, pegPriceType: 'PRIMARY_PEG' } as const;
type Field = keyof typeof FIELDS;
const NAMES = Object.keys(FIELDS) as Field[];

/** Every subset of the fields. */
function* subsets(): Generator<Field[]> {
  for (let mask = 0; mask < 1 << NAMES.length; mask++) yield NAMES.filter((_, i) => (mask & (1 << i)) !== 0);
}

/** REST's verdict: the first parameter error its rules raise, or null. */
function restError(type: string, fields: readonly Field[]): ApiError | null {
  const values: Record<string, unknown> = { type };
  for (const f of fields) values[f] = FIELDS[f];
  try {
    for (const rule of NEW_ORDER_RULES) rule(values);
    return null;
  } catch (error) {
    return error as ApiError;
  }
}

describe('the order-type table', () => {
  test('the engine and REST accept the same shapes of every order type', () => {
    const disagreements: string[] = [];
    for (const type of ORDER_TYPES) {
      for (const fields of subsets()) {
        const request = { side: 'BUY', orderType: type, ...Object.fromEntries(fields.map((f) => [f, FIELDS[f]])) } as OrderRequest;
        const engine = combinationProblem(request) === null;
        const rest = restError(type, fields) === null;
        if (engine !== rest) disagreements.push(`${type} with ${fields.join(', ') || 'nothing'}: engine ${engine ? 'accepts' : 'refuses'}, REST ${rest ? 'accepts' : 'refuses'}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  test('a missing field is named before a forbidden one (-1102 before -1106)', () => {
    // A STOP_LOSS with no trigger and a price: the trigger is named first.
    expect(restError('STOP_LOSS', ['quantity', 'price'])?.code).toBe(-1102);
    expect(restError('STOP_LOSS', ['quantity', 'price', 'stopPrice'])?.code).toBe(-1106);
    expect(restError('LIMIT', ['price', 'stopPrice'])?.toBody()).toEqual({ code: -1102, msg: "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed." });
  });
});
