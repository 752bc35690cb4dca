/**
 * Which fields each order type takes, in one table: the engine's combination check
 * (place-order.ts `combinationProblem`, UNSUPPORTED_ORDER_COMBINATION) and the REST parameter
 * rules (api-facade endpoints/spot/order-request.ts: -1102 for a missing field, -1106 for one sent
 * when not required) are both built from it, so the two cannot disagree.
 *
 * - `required` / `forbidden` / `optional`: as the words say.
 * - price `required`: unless the order is pegged (pegPriceType: the book gives the price).
 * - quantity and quoteOrderQty `either`: exactly one of the two (MARKET).
 * - trigger: stopPrice or trailingDelta, either or both.
 * - Beside the table: an iceberg must be GTC (LIMIT_MAKER, which has no timeInForce, rests like GTC).
 * Rows in Binance's order of the `type` parameter (spec, Trading; binance-facts §5.1, §5.9).
 */
import type { OrderType } from './types.ts';

export type FieldUse = 'required' | 'forbidden' | 'optional';

export interface OrderTypeFields {
  readonly timeInForce: FieldUse;
  readonly price: FieldUse;
  readonly quantity: FieldUse | 'either';
  readonly quoteOrderQty: FieldUse | 'either';
  readonly trigger: FieldUse;
  readonly icebergQty: FieldUse;
}

const STOP: OrderTypeFields = { timeInForce: 'forbidden', price: 'forbidden', quantity: 'required', quoteOrderQty: 'forbidden', trigger: 'required', icebergQty: 'forbidden' };
const STOP_LIMIT: OrderTypeFields = { timeInForce: 'required', price: 'required', quantity: 'required', quoteOrderQty: 'forbidden', trigger: 'required', icebergQty: 'optional' };

export const ORDER_TYPE_FIELDS: { readonly [T in OrderType]: OrderTypeFields } = {
  LIMIT: { timeInForce: 'required', price: 'required', quantity: 'required', quoteOrderQty: 'forbidden', trigger: 'forbidden', icebergQty: 'optional' },
  MARKET: { timeInForce: 'forbidden', price: 'forbidden', quantity: 'either', quoteOrderQty: 'either', trigger: 'forbidden', icebergQty: 'forbidden' },
  STOP_LOSS: STOP,
  STOP_LOSS_LIMIT: STOP_LIMIT,
  TAKE_PROFIT: STOP,
  TAKE_PROFIT_LIMIT: STOP_LIMIT,
  LIMIT_MAKER: { timeInForce: 'forbidden', price: 'required', quantity: 'required', quoteOrderQty: 'forbidden', trigger: 'forbidden', icebergQty: 'optional' },
};

/** Every order type, in the table's (Binance's) order. */
export const ORDER_TYPES = ['LIMIT', 'MARKET', 'STOP_LOSS', 'STOP_LOSS_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_LIMIT', 'LIMIT_MAKER'] as const satisfies readonly OrderType[];

/** The order types whose `field` is `use`, in table order. */
export function orderTypesWhere(field: keyof OrderTypeFields, use: OrderTypeFields[keyof OrderTypeFields]): OrderType[] {
  return ORDER_TYPES.filter((type) => ORDER_TYPE_FIELDS[type][field] === use);
}
