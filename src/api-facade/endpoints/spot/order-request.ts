/**
 * One order's parameters, wherever they come from: POST order, order/test, cancelReplace, SOR,
 * and each leg of an order list (whose parameters carry a prefix: `aboveType`, `workingPrice`,
 * `pendingBelowStopPrice`, ...). The per-type requirements and the pairing rules are declared
 * once here over a name map, and the engine's OrderRequest is built once here.
 *
 * Per type: the engine's ORDER_TYPE_FIELDS table (src/engine/order-type-fields.ts), read here as
 * parameter rules: every missing required field first (-1102; stopPrice or trailingDelta,
 * quantity or quoteOrderQty as "either ... must be sent"), then every field sent where the type
 * forbids it (-1106 "sent when not required"), in a fixed order, as Binance answers. An iceberg's
 * combination (not GTC, on MARKET or a stop) is the engine's refusal, not a parameter error.
 * - pegOffsetType and pegOffsetValue together (-1128); pegOffsetValue at most 100 (-1102, the
 *   "Cannot be greater than" text of §2.2); strategyType at least 1000000 (-1134).
 * Missing mandatory values are -1102. Everything about prices, grids, funds and the book is the
 * engine's (placementRefusal / OrderRejected).
 */
import { type OrderRequest, type SymbolSpec, type OrderType, type PegPriceType, type SelfTradePreventionMode, type Side, type TimeInForce, ORDER_TYPES, orderTypesWhere, STP_MODES } from '../../../engine/index.ts';
import { type ApiError, apiError } from '../../core/index.ts';
import { EMPTY_ERRORS, ENUM_ERRORS, paramErrors, type ParamRule, bothOrNeither, notAllowedWhen, requiredWhen, type DecimalParam, type ParsedSoFar, type ParsedParams } from '../../params/index.ts';
import { SYMBOL } from '../common.ts';

export const CLIENT_ID_PATTERN = { regex: /^[a-zA-Z0-9\-_]{1,36}$/, text: '^[a-zA-Z0-9-_]{1,36}$' };
export const MIN_STRATEGY_TYPE = 1_000_000;
export const MAX_PEG_OFFSET_VALUE = 100;

export const SIDE_PARAM = { kind: 'ENUM', values: ['BUY', 'SELL'], invalid: ENUM_ERRORS.side } as const;
export const TYPE_PARAM = { kind: 'ENUM', values: ORDER_TYPES, invalid: ENUM_ERRORS.orderType } as const;
export const TIF_PARAM = { kind: 'ENUM', values: ['GTC', 'IOC', 'FOK'], invalid: ENUM_ERRORS.timeInForce } as const;
export const CLIENT_ID_PARAM = { kind: 'STRING', pattern: CLIENT_ID_PATTERN, empty: EMPTY_ERRORS.newClientOrderId } as const;
export const RESP_TYPE = { name: 'newOrderRespType', kind: 'ENUM', values: ['ACK', 'RESULT', 'FULL'] } as const;
export const STP_PARAM = { name: 'selfTradePreventionMode', kind: 'ENUM', values: STP_MODES } as const;
export const PEG_PRICE_TYPE_PARAM = { kind: 'ENUM', values: ['PRIMARY_PEG', 'MARKET_PEG'], invalid: ENUM_ERRORS.pegPriceType } as const;
export const PEG_OFFSET_TYPE_PARAM = { kind: 'ENUM', values: ['PRICE_LEVEL'], invalid: ENUM_ERRORS.pegOffsetType } as const;

/** The table's columns as the types where each field is required, forbidden, or one of a pair (MARKET's quantity). */
const NEEDS_TIME_IN_FORCE = orderTypesWhere('timeInForce', 'required');
const NEEDS_QUANTITY = orderTypesWhere('quantity', 'required');
const NEEDS_PRICE = orderTypesWhere('price', 'required');
const NEEDS_TRIGGER = orderTypesWhere('trigger', 'required');
const QUANTITY_OR_QUOTE = orderTypesWhere('quantity', 'either');
const NO_TIME_IN_FORCE = orderTypesWhere('timeInForce', 'forbidden');
const NO_PRICE = orderTypesWhere('price', 'forbidden');
const NO_TRIGGER = orderTypesWhere('trigger', 'forbidden');

export const badStrategyType = (): ApiError => apiError('BAD_STRATEGY_TYPE');
export const pegOffsetTooLarge = (name: string): ApiError => apiError('PEG_OFFSET_TOO_LARGE', name, MAX_PEG_OFFSET_VALUE);

/** Where one order's values live among a request's parameters. */
export interface LegNames {
  readonly type: string;
  readonly timeInForce: string;
  readonly price: string;
  /** null: the list's quantity is checked by the list (shared, or none for OPO pending legs). */
  readonly quantity: string | null;
  readonly quoteOrderQty?: string;
  readonly stopPrice: string;
  readonly trailingDelta: string;
  readonly icebergQty: string;
  readonly strategyType: string;
  readonly pegPriceType: string;
  readonly pegOffsetType: string;
  readonly pegOffsetValue: string;
}

/** The names of a prefixed leg (`above`, `working`, `pendingBelow`...): prefix + capitalised name. */
export function prefixedNames(prefix: string, quantity: string | null): LegNames {
  return {
    type: `${prefix}Type`,
    timeInForce: `${prefix}TimeInForce`,
    price: `${prefix}Price`,
    quantity,
    stopPrice: `${prefix}StopPrice`,
    trailingDelta: `${prefix}TrailingDelta`,
    icebergQty: `${prefix}IcebergQty`,
    strategyType: `${prefix}StrategyType`,
    pegPriceType: `${prefix}PegPriceType`,
    pegOffsetType: `${prefix}PegOffsetType`,
    pegOffsetValue: `${prefix}PegOffsetValue`,
  };
}

/** POST order's own names. */
export const PLAIN_NAMES: LegNames = {
  type: 'type',
  timeInForce: 'timeInForce',
  price: 'price',
  quantity: 'quantity',
  quoteOrderQty: 'quoteOrderQty',
  stopPrice: 'stopPrice',
  trailingDelta: 'trailingDelta',
  icebergQty: 'icebergQty',
  strategyType: 'strategyType',
  pegPriceType: 'pegPriceType',
  pegOffsetType: 'pegOffsetType',
  pegOffsetValue: 'pegOffsetValue',
};

/** The per-type requirements and pairing rules of one order (see header), in a stable order. */
export function orderRules(n: LegNames): ParamRule[] {
  const typeIs =
    (types: readonly string[]) =>
    (v: ParsedSoFar) =>
      types.includes(v[n.type] as string);
  const unpegged = (v: ParsedSoFar) => v[n.pegPriceType] === undefined;
  // Missing fields first (-1102), then fields the type forbids (-1106).
  const rules: ParamRule[] = [requiredWhen(n.timeInForce, typeIs(NEEDS_TIME_IN_FORCE))];
  if (n.quantity !== null) rules.push(requiredWhen(n.quantity, typeIs(NEEDS_QUANTITY)));
  rules.push(
    requiredWhen(n.price, (v) => typeIs(NEEDS_PRICE)(v) && unpegged(v)),
    (v) => {
      if (typeIs(NEEDS_TRIGGER)(v) && v[n.stopPrice] === undefined && v[n.trailingDelta] === undefined) {
        throw paramErrors.eitherRequired(n.stopPrice, n.trailingDelta);
      }
    },
  );
  const quoteName = n.quoteOrderQty;
  if (quoteName !== undefined && n.quantity !== null) {
    const quantityName = n.quantity;
    rules.push(
      (v) => {
        if (typeIs(QUANTITY_OR_QUOTE)(v) && v[quantityName] === undefined && v[quoteName] === undefined) throw paramErrors.eitherRequired(quantityName, quoteName);
      },
      notAllowedWhen(quoteName, (v) => !typeIs(QUANTITY_OR_QUOTE)(v) || v[quantityName] !== undefined),
    );
  }
  rules.push(
    notAllowedWhen(n.timeInForce, typeIs(NO_TIME_IN_FORCE)),
    notAllowedWhen(n.price, typeIs(NO_PRICE)),
    notAllowedWhen(n.stopPrice, typeIs(NO_TRIGGER)),
    notAllowedWhen(n.trailingDelta, typeIs(NO_TRIGGER)),
    bothOrNeither(n.pegOffsetType, n.pegOffsetValue),
    (v) => {
      const offset = v[n.pegOffsetValue];
      if (typeof offset === 'number' && offset > MAX_PEG_OFFSET_VALUE) throw pegOffsetTooLarge(n.pegOffsetValue);
      const strategyType = v[n.strategyType];
      if (typeof strategyType === 'number' && strategyType < MIN_STRATEGY_TYPE) throw badStrategyType();
    },
  );
  return rules;
}

/** One order's parsed values, whatever their parameter names were. */
export interface OrderValues {
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce?: TimeInForce | undefined;
  readonly price?: DecimalParam | undefined;
  readonly quantity?: DecimalParam | undefined;
  readonly quoteOrderQty?: DecimalParam | undefined;
  readonly clientOrderId?: string | undefined;
  readonly strategyId?: number | undefined;
  readonly strategyType?: number | undefined;
  readonly stopPrice?: DecimalParam | undefined;
  readonly trailingDelta?: number | undefined;
  readonly icebergQty?: DecimalParam | undefined;
  readonly pegPriceType?: PegPriceType | undefined;
  readonly pegOffsetValue?: number | undefined;
  readonly selfTradePreventionMode?: SelfTradePreventionMode | undefined;
}

/** Reads a prefixed leg's values from the parsed parameters (names as prefixedNames). */
export function legValues(v: ParsedSoFar, prefix: string, shared: { side: Side; quantity?: DecimalParam | undefined; selfTradePreventionMode?: SelfTradePreventionMode | undefined }): OrderValues {
  const get = <T>(name: string) => v[`${prefix}${name}`] as T | undefined;
  return {
    side: get<Side>('Side') ?? shared.side,
    type: get<OrderType>('Type') as OrderType,
    timeInForce: get<TimeInForce>('TimeInForce'),
    price: get<DecimalParam>('Price'),
    quantity: get<DecimalParam>('Quantity') ?? shared.quantity,
    clientOrderId: get<string>('ClientOrderId'),
    strategyId: get<number>('StrategyId'),
    strategyType: get<number>('StrategyType'),
    stopPrice: get<DecimalParam>('StopPrice'),
    trailingDelta: get<number>('TrailingDelta'),
    icebergQty: get<DecimalParam>('IcebergQty'),
    pegPriceType: get<PegPriceType>('PegPriceType'),
    pegOffsetValue: get<number>('PegOffsetValue'),
    selfTradePreventionMode: shared.selfTradePreventionMode,
  };
}

/**
 * The engine's OrderRequest at the symbol's precisions (-1111 on finer decimals). Built field by
 * field, absent values left absent (exactOptionalPropertyTypes), in a fixed key order; decimals are
 * converted in the order price, quantity, quoteOrderQty, stopPrice, icebergQty, so the first
 * -1111 named is always the same. Runs on every order: no closures, no Object.entries. `into`
 * (e.g. a command's head: type, accountId, symbol) receives the fields after its own.
 */
export function orderRequestOf(o: OrderValues, spec: SymbolSpec, into: Record<string, unknown> = {}): OrderRequest {
  const q = spec.quotePrecision;
  const b = spec.basePrecision;
  const request = into;
  request['side'] = o.side;
  request['orderType'] = o.type;
  if (o.timeInForce !== undefined) request['timeInForce'] = o.timeInForce;
  if (o.price !== undefined) request['price'] = o.price.units(q);
  if (o.quantity !== undefined) request['quantity'] = o.quantity.units(b);
  if (o.quoteOrderQty !== undefined) request['quoteOrderQty'] = o.quoteOrderQty.units(q);
  if (o.clientOrderId !== undefined) request['clientOrderId'] = o.clientOrderId;
  if (o.selfTradePreventionMode !== undefined) request['selfTradePreventionMode'] = o.selfTradePreventionMode;
  if (o.strategyId !== undefined) request['strategyId'] = o.strategyId;
  if (o.strategyType !== undefined) request['strategyType'] = o.strategyType;
  if (o.stopPrice !== undefined) request['stopPrice'] = o.stopPrice.units(q);
  if (o.trailingDelta !== undefined) request['trailingDelta'] = o.trailingDelta;
  if (o.icebergQty !== undefined) request['icebergQty'] = o.icebergQty.units(b);
  if (o.pegPriceType !== undefined) request['pegPriceType'] = o.pegPriceType;
  if (o.pegOffsetValue !== undefined) request['pegOffsetValue'] = o.pegOffsetValue;
  return request as unknown as OrderRequest;
}

/** newOrderRespType's default: FULL for MARKET and LIMIT, ACK for every other type (§5.1). */
export function defaultRespType(type: OrderType): 'ACK' | 'FULL' {
  return type === 'MARKET' || type === 'LIMIT' ? 'FULL' : 'ACK';
}

/** POST order's parameters (also cancelReplace's new order, order/test's with one more). */
export const NEW_ORDER_PARAMS = [
  SYMBOL,
  { name: 'side', required: true, ...SIDE_PARAM },
  { name: 'type', required: true, ...TYPE_PARAM },
  { name: 'timeInForce', ...TIF_PARAM },
  { name: 'quantity', kind: 'DECIMAL' },
  { name: 'quoteOrderQty', kind: 'DECIMAL' },
  { name: 'price', kind: 'DECIMAL' },
  { name: 'newClientOrderId', ...CLIENT_ID_PARAM },
  { name: 'strategyId', kind: 'LONG' },
  { name: 'strategyType', kind: 'INT' },
  { name: 'stopPrice', kind: 'DECIMAL' },
  { name: 'trailingDelta', kind: 'LONG' },
  { name: 'icebergQty', kind: 'DECIMAL' },
  RESP_TYPE,
  STP_PARAM,
  { name: 'pegPriceType', ...PEG_PRICE_TYPE_PARAM },
  { name: 'pegOffsetValue', kind: 'INT' },
  { name: 'pegOffsetType', ...PEG_OFFSET_TYPE_PARAM },
] as const;

export const NEW_ORDER_RULES = orderRules(PLAIN_NAMES);

/** The order a POST order (or cancelReplace, or SOR) request asks for. */
export function plainOrderValues(p: ParsedParams<typeof NEW_ORDER_PARAMS>): OrderValues {
  return {
    side: p.side,
    type: p.type,
    timeInForce: p.timeInForce,
    price: p.price,
    quantity: p.quantity,
    quoteOrderQty: p.quoteOrderQty,
    clientOrderId: p.newClientOrderId,
    strategyId: p.strategyId,
    strategyType: p.strategyType,
    stopPrice: p.stopPrice,
    trailingDelta: p.trailingDelta,
    icebergQty: p.icebergQty,
    pegPriceType: p.pegPriceType,
    pegOffsetValue: p.pegOffsetValue,
    selfTradePreventionMode: p.selfTradePreventionMode,
  };
}
