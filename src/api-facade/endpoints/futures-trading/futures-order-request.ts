/**
 * One USDⓈ-M futures order's parameters (POST /fapi/v1/order and each item of batchOrders) and
 * the checks Binance makes before the order reaches the engine (futures facts §3.1, §8).
 *
 * Order of the checks (the parameter stage's order, param-schema.ts, then the rules below):
 * - `type` outside the futures enum: -1116 "Invalid orderType.". A conditional type (STOP,
 *   STOP_MARKET, TAKE_PROFIT, TAKE_PROFIT_MARKET, TRAILING_STOP_MARKET) is a valid enum value that
 *   this endpoint refuses since 2025-12-09 with -4120 ("... use the Algo Order API endpoints
 *   instead."), before anything else about the order is looked at.
 * - `quantity` for LIMIT and MARKET, `timeInForce` for LIMIT, `price` for LIMIT without
 *   `priceMatch`, `goodTillDate` with GTD: -1102 "Mandatory parameter '...' was not sent ...".
 * - The parameters the 2025-12-16 migration took off this endpoint (stopPrice, closePosition,
 *   activationPrice, callbackRate) are still read, so an old client learns what is wrong rather
 *   than "not all sent parameters were read": -1106 "sent when not required", as are `price` on
 *   MARKET or with priceMatch, `timeInForce` on MARKET and `goodTillDate` without GTD (**chosen**:
 *   spot's answer for a parameter the type does not take; Binance documents none).
 * - `quantity` of zero: -4003 "Quantity less than zero." (the futures text for a non-positive
 *   quantity; a minus sign is not a DECIMAL and is -1100 before it). `price` of zero: -4001 "Price
 *   less than 0." (**chosen** by the same reading of the twin code; it used to fall through to the
 *   engine and answer the quantity's -4003).
 * - `goodTillDate` outside (now + 600 s, 253402300799000): -5040 — needs simulated now, so the
 *   handler checks it (`checkGoodTillDate`) before anything is sent.
 * Everything about the symbol's filters, the position side against the account's mode, reduce
 * only and margin is the engine's (its refusals map to the -40xx/-20xx rows of the error table).
 */
import { type ApiError, apiError, templateOf } from '../../core/index.ts';
import { ENUM_ERRORS, EMPTY_ERRORS, type ParamRule, type ParamSchema, type ParamSpec, defineSchema, paramErrors, requiredWhen, type ParsedSoFar, type DecimalParam } from '../../params/index.ts';
import { SYMBOL, spanTooLong, timeUs } from '../common.ts';

/** Every type the futures enum knows; only LIMIT and MARKET are served by /fapi/v1/order. */
export const FUTURES_ORDER_TYPES = ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'] as const;
export const CONDITIONAL_TYPES: readonly string[] = ['STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'];
export const FUTURES_TIME_IN_FORCE = ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'] as const;
export const POSITION_SIDES = ['BOTH', 'LONG', 'SHORT'] as const;
export const PRICE_MATCHES = ['NONE', 'OPPONENT', 'OPPONENT_5', 'OPPONENT_10', 'OPPONENT_20', 'QUEUE', 'QUEUE_5', 'QUEUE_10', 'QUEUE_20'] as const;
export const FUTURES_STP_MODES = ['NONE', 'EXPIRE_TAKER', 'EXPIRE_MAKER', 'EXPIRE_BOTH'] as const;
export const WORKING_TYPES = ['MARK_PRICE', 'CONTRACT_PRICE'] as const;

/** §3.1: `^[\.A-Z\:/a-z0-9_-]{1,36}$` (wider than spot's: dots, colons and slashes too). */
export const FUTURES_CLIENT_ID_PATTERN = { regex: /^[.A-Z:/a-z0-9_-]{1,36}$/, text: '^[\\.A-Z\\:/a-z0-9_-]{1,36}$' };

/** goodTillDate bounds (§3.1, -5040): later than now + 600 s, earlier than 9999-12-31 23:59:59 UTC. */
export const GTD_MIN_AHEAD_MS = 600_000;
export const GTD_MAX_MS = 253_402_300_799_000;

const POSITION_SIDE_INVALID = templateOf('FUTURES_INVALID_POSITION_SIDE');

/** One order's own parameters, in the docs' order (§3.1), without the signed ones. */
export const FUTURES_ORDER_PARAMS = [
  SYMBOL,
  { name: 'side', kind: 'ENUM', required: true, values: ['BUY', 'SELL'], invalid: ENUM_ERRORS.side },
  { name: 'positionSide', kind: 'ENUM', values: POSITION_SIDES, invalid: POSITION_SIDE_INVALID },
  { name: 'type', kind: 'ENUM', required: true, values: FUTURES_ORDER_TYPES, invalid: ENUM_ERRORS.orderType },
  { name: 'timeInForce', kind: 'ENUM', values: FUTURES_TIME_IN_FORCE, invalid: ENUM_ERRORS.timeInForce },
  { name: 'quantity', kind: 'DECIMAL' },
  { name: 'reduceOnly', kind: 'BOOLEAN' },
  { name: 'price', kind: 'DECIMAL' },
  { name: 'newClientOrderId', kind: 'STRING', pattern: FUTURES_CLIENT_ID_PATTERN, empty: EMPTY_ERRORS.newClientOrderId },
  // Taken off /order by the 2025-12-16 migration; read so that they answer -1106 (see header).
  { name: 'stopPrice', kind: 'DECIMAL' },
  { name: 'closePosition', kind: 'BOOLEAN' },
  { name: 'activationPrice', kind: 'DECIMAL' },
  { name: 'callbackRate', kind: 'DECIMAL' },
  // Meaningless without a trigger; accepted as clients still send them.
  { name: 'workingType', kind: 'ENUM', values: WORKING_TYPES },
  { name: 'priceProtect', kind: 'BOOLEAN' },
  { name: 'newOrderRespType', kind: 'ENUM', values: ['ACK', 'RESULT'] },
  { name: 'priceMatch', kind: 'ENUM', values: PRICE_MATCHES },
  { name: 'selfTradePreventionMode', kind: 'ENUM', values: FUTURES_STP_MODES },
  { name: 'goodTillDate', kind: 'LONG' },
] as const;

/** A /fapi row's schema: -1102 / -1106 name the parameter in lower case (ParamSchema.lowerCaseNames). */
export function fapiSchema<const S extends readonly ParamSpec[]>(params: S, rules: readonly ParamRule[] = []): ParamSchema<S> {
  return defineSchema(params, rules, { lowerCaseNames: true });
}

/**
 * -1106 as the futures rows word it: the parameter's name in lower case ("Parameter 'reduceonly'
 * sent when not required.", "Parameter 'timeinforce' ..." as Binance's futures answers show them;
 * spot keeps the name as sent).
 */
export function futuresNotRequired(name: string): ApiError {
  return paramErrors.notRequired(name.toLowerCase());
}

/** -1102 as the futures rows word it: the parameter's name in lower case ("Mandatory parameter 'timeinforce' ..."). */
export function futuresMandatory(name: string): ApiError {
  return paramErrors.mandatory(name.toLowerCase());
}

/** `name` refused (futures -1106) when `when` holds. */
function notAllowedWhen(name: string, when: (v: ParsedSoFar) => boolean): ParamRule {
  return (v) => {
    if (v[name] !== undefined && when(v)) throw futuresNotRequired(name);
  };
}

const typeIs =
  (...types: readonly string[]) =>
  (v: ParsedSoFar): boolean =>
    types.includes(v['type'] as string);
const matched = (v: ParsedSoFar): boolean => v['priceMatch'] !== undefined && v['priceMatch'] !== 'NONE';

/** -4120 for the conditional types (before any other rule: the type itself is what is refused). */
const notConditional: ParamRule = (v) => {
  if (CONDITIONAL_TYPES.includes(v['type'] as string)) throw apiError('FUTURES_USE_ALGO_ORDER_API');
};

/** -4003 for a zero quantity. */
const positiveQuantity: ParamRule = (v) => {
  const q = v['quantity'] as DecimalParam | undefined;
  if (q !== undefined && /^0*(\.0*)?$/.test(q.text)) throw apiError('FUTURES_QUANTITY_LESS_THAN_ZERO');
};

/** -4001 for a zero price (the quantity's twin, -4003). */
export const positivePrice: ParamRule = (v) => {
  const price = v['price'] as DecimalParam | undefined;
  if (price !== undefined && /^0*(\.0*)?$/.test(price.text)) throw apiError('FUTURES_PRICE_LESS_THAN_ZERO');
};

/** The rules of one order, in the order they answer (see header). */
export const FUTURES_ORDER_RULES: readonly ParamRule[] = [
  notConditional,
  requiredWhen('quantity', typeIs('LIMIT', 'MARKET')),
  requiredWhen('timeInForce', typeIs('LIMIT')),
  requiredWhen('price', (v) => typeIs('LIMIT')(v) && !matched(v)),
  requiredWhen('goodTillDate', (v) => v['timeInForce'] === 'GTD'),
  notAllowedWhen('stopPrice', () => true),
  notAllowedWhen('closePosition', () => true),
  notAllowedWhen('activationPrice', () => true),
  notAllowedWhen('callbackRate', () => true),
  notAllowedWhen('price', (v) => typeIs('MARKET')(v) || matched(v)),
  notAllowedWhen('priceMatch', (v) => typeIs('MARKET')(v) && matched(v)),
  notAllowedWhen('timeInForce', typeIs('MARKET')),
  notAllowedWhen('goodTillDate', (v) => v['timeInForce'] !== 'GTD'),
  positiveQuantity,
  positivePrice,
];

/** -5040 unless now + 600 s < goodTillDate (ms) < 253402300799000. */
export function checkGoodTillDate(goodTillDateMs: number | undefined, nowUs: number): void {
  if (goodTillDateMs === undefined) return;
  const nowMs = Math.floor(nowUs / 1000);
  if (goodTillDateMs <= nowMs + GTD_MIN_AHEAD_MS || goodTillDateMs >= GTD_MAX_MS) throw apiError('FUTURES_GTD_OUT_OF_BOUNDS');
}

/** A decimal at `precision`, the futures -1111 text when finer ("Precision is over the maximum ..."). */
export function futuresUnits(value: DecimalParam, precision: number): number {
  try {
    return value.units(precision);
  } catch (e) {
    if (isPrecisionError(e)) throw apiError('FUTURES_PRECISION_OVER_MAX');
    throw e;
  }
}

function isPrecisionError(e: unknown): e is ApiError {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === -1111;
}

const WEEK_US = 7 * 24 * 60 * 60 * 1_000_000;

/**
 * The [from, to] window (µs) of allOrders / userTrades / allAlgoOrders: startTime and endTime at
 * most 7 days apart (Binance's docs for each; -1127 with the spot text's hours, 168, **chosen** as the futures
 * code table shares -1127 "More than %s hours between startTime and endTime."); neither sent and
 * no id to start from: the last 7 days (the docs' default); one sent: open on the other side.
 */
export function weekWindow(call: { readonly nowUs: number }, p: { readonly startTime?: number; readonly endTime?: number }, fromAnId: boolean): { from: number; to: number } {
  if (p.startTime !== undefined && p.endTime !== undefined && timeUs(p.endTime) - timeUs(p.startTime) > WEEK_US) throw spanTooLong(168);
  if (p.startTime === undefined && p.endTime === undefined && !fromAnId) return { from: call.nowUs - WEEK_US, to: Infinity };
  return { from: p.startTime === undefined ? -Infinity : timeUs(p.startTime), to: p.endTime === undefined ? Infinity : timeUs(p.endTime) };
}
