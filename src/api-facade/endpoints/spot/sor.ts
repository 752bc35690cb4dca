/**
 * Smart order routing (binance-facts §5.13): POST /api/v3/sor/order, POST /api/v3/sor/order/test
 * and GET /api/v3/myAllocations.
 *
 * Rules:
 * - SOR is off unless the facade is configured with SOR groups (ExchangeContextOptions.sors);
 *   a symbol outside every group is refused with -1014 "Unsupported order combination." (the
 *   docs show no text for it; this is Binance's text for a request shape it does not take).
 * - type LIMIT or MARKET only (-1116 otherwise); quantity mandatory; quoteOrderQty and pegs are
 *   not parameters of these endpoints (sent: -1104). newOrderRespType defaults to FULL.
 * - The engine places an order marked `viaSor`: its responses carry usedSor true and
 *   workingFloor "SOR". This simulation has one venue per symbol, so every fill comes from the
 *   symbol's own book; the engine records the taker's fills as allocations (as Binance's SOR FAQ
 *   shows even for fills on the order's own book): the FULL response's fills have matchType
 *   ONE_PARTY_TRADE_REPORT, tradeId -1 and allocId, and they are in myAllocations, not myTrades.
 * - myAllocations: symbol required; the supported combinations are symbol alone or with
 *   startTime/endTime (24 h span, -1127), fromAllocationId, orderId, orderId+fromAllocationId;
 *   fromAllocationId or orderId with startTime/endTime is -1128. Oldest first; with endTime
 *   alone (and no lower bound) the newest `limit` up to it.
 */
import { type ApiError, apiError } from '../../core/index.ts';
import { ENUM_ERRORS, type ParsedParams, defineSchema, supportedCombinations, withSigned } from '../../params/index.ts';
import { formatUnits } from '../../../engine/index.ts';
import { apiTime } from '../../serialize/index.ts';
import { accountOf, spotLimit, SYMBOL, symbolSpec, timeWindow } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';
import { CLIENT_ID_PARAM, orderRequestOf, orderRules, PLAIN_NAMES, RESP_TYPE, SIDE_PARAM, STP_PARAM, TIF_PARAM } from './order-request.ts';
import { placeAndReport, testOrderAnswer } from './order-answers.ts';

const SOR_PARAMS = [
  SYMBOL,
  { name: 'side', required: true, ...SIDE_PARAM },
  { name: 'type', required: true, kind: 'ENUM', values: ['LIMIT', 'MARKET'], invalid: ENUM_ERRORS.orderType },
  { name: 'timeInForce', ...TIF_PARAM },
  { name: 'quantity', kind: 'DECIMAL', required: true },
  { name: 'price', kind: 'DECIMAL' },
  { name: 'newClientOrderId', ...CLIENT_ID_PARAM },
  { name: 'strategyId', kind: 'LONG' },
  { name: 'strategyType', kind: 'INT' },
  { name: 'icebergQty', kind: 'DECIMAL' },
  RESP_TYPE,
  STP_PARAM,
] as const;

const { quoteOrderQty: _noQuoteOrderQty, ...SOR_NAMES } = PLAIN_NAMES;
const SOR_RULES = orderRules(SOR_NAMES);
const SOR_SCHEMA = defineSchema(withSigned(SOR_PARAMS), SOR_RULES);
const SOR_TEST_SCHEMA = defineSchema(withSigned([...SOR_PARAMS, { name: 'computeCommissionRates', kind: 'BOOLEAN' }] as const), SOR_RULES);

const sorNotAvailable = (): ApiError => apiError('UNSUPPORTED_ORDER_COMBINATION');

function sorCommand(p: ParsedParams<typeof SOR_SCHEMA.params>, call: HandlerCall) {
  const spec = symbolSpec(call, p.symbol);
  if (!call.ctx.sors.some((g) => g.symbols.includes(spec.symbol))) throw sorNotAvailable();
  // Object.assign, not `{ ...p, clientOrderId }` (see ARCHITECTURE.md, "Object shapes").
  const request = orderRequestOf(Object.assign({}, p, { clientOrderId: p.newClientOrderId }), spec);
  return { spec, command: { type: 'PlaceOrder' as const, accountId: accountOf(call), symbol: spec.symbol, viaSor: true, ...request } };
}

export const sorOrder = defineEndpoint({
  method: 'POST',
  path: '/api/v3/sor/order',
  security: 'TRADE',
  weight: 1,
  weightOnFailureOnly: true,
  orderCount: 1,
  schema: SOR_SCHEMA,
  summary: 'New LIMIT or MARKET order through smart order routing (needs configured SOR groups)',
  handler: (p, call) => {
    const { spec, command } = sorCommand(p, call);
    return placeAndReport(call, spec, command, p.newOrderRespType ?? 'FULL');
  },
});

export const sorOrderTest = defineEndpoint({
  method: 'POST',
  path: '/api/v3/sor/order/test',
  security: 'TRADE',
  weight: (p) => (p.computeCommissionRates === true ? 20 : 1),
  schema: SOR_TEST_SCHEMA,
  summary: 'Validate an SOR order without sending it; optional commission rates',
  handler: (p, call) => {
    const { spec, command } = sorCommand(p, call);
    return testOrderAnswer(call, spec, command, p.computeCommissionRates === true);
  },
});

export const myAllocations = defineEndpoint({
  method: 'GET',
  path: '/api/v3/myAllocations',
  security: 'USER_DATA',
  weight: 20,
  schema: defineSchema(
    withSigned([
      SYMBOL,
      { name: 'startTime', kind: 'LONG' },
      { name: 'endTime', kind: 'LONG' },
      { name: 'fromAllocationId', kind: 'INT' },
      { name: 'limit', kind: 'INT' },
      { name: 'orderId', kind: 'LONG' },
    ]),
    // The spec's combinations and results (symbol always; limit with any of them).
    [supportedCombinations(['startTime', 'endTime', 'fromAllocationId', 'orderId'], ['', 'startTime', 'endTime', 'startTime+endTime', 'fromAllocationId', 'orderId', 'fromAllocationId+orderId'])],
  ),
  summary: 'SOR allocations of the account (the taker fills of SOR orders)',
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    const { from, to } = timeWindow(p);
    const rows = call.ctx.backend.engine
      .allocations(accountOf(call), spec.symbol)
      .filter(
        (a) =>
          (p.orderId === undefined || a.orderId === p.orderId) &&
          (p.fromAllocationId === undefined || a.allocationId >= p.fromAllocationId) &&
          a.time >= from &&
          a.time <= to,
      );
    const limit = spotLimit(p.limit);
    const newest = p.endTime !== undefined && p.startTime === undefined;
    const picked = newest ? rows.slice(Math.max(0, rows.length - limit)) : rows.slice(0, limit);
    const price = (units: number) => formatUnits(units, spec.quotePrecision);
    return picked.map((a) => ({
      symbol: a.symbol,
      allocationId: a.allocationId,
      allocationType: a.allocationType,
      orderId: a.orderId,
      orderListId: a.orderListId,
      price: price(a.price),
      qty: formatUnits(a.qty, spec.basePrecision),
      quoteQty: price(a.quoteQty),
      commission: formatUnits(a.commission, call.ctx.assetPrecision(a.commissionAsset)),
      commissionAsset: a.commissionAsset,
      time: apiTime(a.time, call.unit),
      isBuyer: a.isBuyer,
      isMaker: a.isMaker,
      isAllocator: a.isAllocator,
    }));
  },
});
