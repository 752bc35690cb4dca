/**
 * What answers look like on the wire: times in ms or µs (`api-time.ts`), orders, order lists,
 * exchangeInfo, accounts and commissions as Binance's JSON (decimal strings at asset precision),
 * `JsonText` for answers written as text, `JsonAnswer` for values with a writer of their own text, and `answerValueOf` for the in-process client (the value
 * JSON.parse of the text would give, without the text).
 *
 * Rules: imports no other room. Pure.
 */
export { apiTime, parseTimeUnit, type TimeUnit } from './api-time.ts';
export { cancelJson, orderQueryJson, placementCopy, placementJson, placementText, type NewOrderRespType, type WireContext } from './order-json.ts';
export { amendListStatusJson, orderListJson } from './order-list-json.ts';
export { accountJson, symbolInfoJson } from './exchange-info-json.ts';
export { discountJson, makerTakerJson, ratesJson } from './commission-json.ts';
export { JsonAnswer, JsonText, answerText, decimalPairsJson, jsonString } from './json-text.ts';
export { answerValueOf } from './json-value.ts';
export { gridDecimals, gridPrice, gridQty, onGrid } from './contract-grid.ts';
