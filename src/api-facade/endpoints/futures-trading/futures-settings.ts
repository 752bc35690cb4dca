/**
 * USDⓈ-M account settings and contract terms (futures facts §2, §5, §8): POST /fapi/v1/leverage,
 * POST /fapi/v1/marginType, GET/POST /fapi/v1/positionSide/dual, GET/POST
 * /fapi/v1/multiAssetsMargin, POST /fapi/v1/positionMargin, GET /fapi/v1/symbolConfig,
 * GET /fapi/v1/leverageBracket, GET /fapi/v1/commissionRate.
 *
 * Rules:
 * - Changes are engine commands (SetLeverage, SetMarginType, SetPositionMode,
 *   AdjustPositionMargin) with the engine's refusals as their §8 codes (-4028, -4046, -4047,
 *   -4048, -4049, -4051, -4059, -4067, -4068, -4161, -2027, -2028), nothing changed on refusal.
 * - Multi-assets mode is not supported here: GET answers false, POST "false" succeeds (it is
 *   already off) and POST "true" is -1130 "Data sent for parameter 'multiAssetsMargin' is not valid.".
 * - leverageBracket answers an array of every margin symbol, or the one symbol's object when
 *   `symbol` is sent (the docs' "OR (if symbol sent)"); bracket numbers are JSON numbers as the
 *   docs show them. commissionRate answers the account's maker/taker rates (the contract's unless
 *   overridden), written as the docs do ("0.0002"); rpiCommissionRate
 *   is the maker rate (**chosen**: RPI orders only ever make; RPI is not modelled otherwise).
 */
import type { SymbolSpec } from '../../../engine/index.ts';
import { formatUnits } from '../../../engine/index.ts';
import { paramErrors, withSigned } from '../../params/index.ts';
import { OPTIONAL_SYMBOL, SYMBOL } from '../common.ts';
import { defineEndpoint, type HandlerCall } from '../endpoint-row.ts';
import { accountOf, contractOf, fapiName, marginSpec, marginSpecs } from './futures-engine.ts';
import { POSITION_SIDES, futuresUnits, fapiSchema } from './futures-order-request.ts';
import { frate } from './futures-wire.ts';
import { futuresRefusal } from './futures-refusals.ts';

const SUCCESS = { code: 200, msg: 'success' } as const;

function money(call: HandlerCall, spec: SymbolSpec, units: number): string {
  return formatUnits(units, call.ctx.assetPrecision(spec.quoteAsset));
}

function settingsOf(call: HandlerCall, spec: SymbolSpec, accountId = accountOf(call)) {
  const s = call.ctx.backend.engine.futuresSymbolSettings(accountId, spec.symbol);
  if (s === undefined) throw new Error(`no settings for margin symbol ${spec.symbol}`); // engine contract: every margin symbol has them
  return s;
}

export const futuresLeverage = defineEndpoint({
  method: 'POST',
  path: '/fapi/v1/leverage',
  security: 'TRADE',
  weight: 1,
  schema: fapiSchema(withSigned([SYMBOL, { name: 'leverage', kind: 'INT', required: true }])),
  summary: "USDⓈ-M futures: set a symbol's leverage (1 .. bracket 1's initialLeverage)",
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    const accountId = accountOf(call);
    call.send({ type: 'SetLeverage', accountId, symbol: spec.symbol, leverage: p.leverage }, futuresRefusal({ leverage: p.leverage }));
    const settings = settingsOf(call, spec);
    return { leverage: settings.leverage, maxNotionalValue: money(call, spec, settings.maxNotionalValue), symbol: fapiName(spec) };
  },
});

export const futuresMarginType = defineEndpoint({
  method: 'POST',
  path: '/fapi/v1/marginType',
  security: 'TRADE',
  weight: 1,
  schema: fapiSchema(withSigned([SYMBOL, { name: 'marginType', kind: 'ENUM', required: true, values: ['ISOLATED', 'CROSSED'] }])),
  summary: "USDⓈ-M futures: set a symbol's margin type (ISOLATED / CROSSED)",
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    call.send({ type: 'SetMarginType', accountId: accountOf(call), symbol: spec.symbol, marginType: p.marginType }, futuresRefusal());
    return { ...SUCCESS };
  },
});

export const getPositionSideDual = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/positionSide/dual',
  security: 'USER_DATA',
  weight: 30,
  schema: fapiSchema(withSigned([])),
  summary: 'USDⓈ-M futures: position mode (true: hedge mode)',
  handler: (_p, call) => ({ dualSidePosition: call.ctx.backend.engine.futuresPositionMode(accountOf(call)) === 'HEDGE' }),
});

export const setPositionSideDual = defineEndpoint({
  method: 'POST',
  path: '/fapi/v1/positionSide/dual',
  security: 'TRADE',
  weight: 1,
  schema: fapiSchema(withSigned([{ name: 'dualSidePosition', kind: 'BOOLEAN', required: true }])),
  summary: 'USDⓈ-M futures: set the position mode of every symbol ("true": hedge mode)',
  handler: (p, call) => {
    call.send({ type: 'SetPositionMode', accountId: accountOf(call), mode: p.dualSidePosition ? 'HEDGE' : 'ONE_WAY' }, futuresRefusal());
    return { ...SUCCESS };
  },
});

export const getMultiAssetsMargin = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/multiAssetsMargin',
  security: 'USER_DATA',
  weight: 30,
  schema: fapiSchema(withSigned([])),
  summary: 'USDⓈ-M futures: multi-assets mode (always false: not supported here)',
  handler: () => ({ multiAssetsMargin: false }),
});

export const setMultiAssetsMargin = defineEndpoint({
  method: 'POST',
  path: '/fapi/v1/multiAssetsMargin',
  security: 'TRADE',
  weight: 1,
  schema: fapiSchema(withSigned([{ name: 'multiAssetsMargin', kind: 'BOOLEAN', required: true }])),
  summary: 'USDⓈ-M futures: multi-assets mode; "true" is refused (-1130): not supported here, single-asset mode only',
  handler: (p) => {
    if (p.multiAssetsMargin) throw paramErrors.invalidData('multiAssetsMargin');
    return { ...SUCCESS };
  },
});

export const futuresPositionMargin = defineEndpoint({
  method: 'POST',
  path: '/fapi/v1/positionMargin',
  security: 'TRADE',
  weight: 1,
  schema: fapiSchema(
    withSigned([
      SYMBOL,
      { name: 'positionSide', kind: 'ENUM', values: POSITION_SIDES },
      { name: 'amount', kind: 'DECIMAL', required: true },
      { name: 'type', kind: 'ENUM', required: true, values: ['1', '2'] },
    ]),
  ),
  summary: "USDⓈ-M futures: add (type 1) or reduce (type 2) an isolated position's margin",
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    const amount = futuresUnits(p.amount, call.ctx.assetPrecision(spec.quoteAsset));
    if (amount <= 0) throw paramErrors.invalidData('amount');
    call.send(
      { type: 'AdjustPositionMargin', accountId: accountOf(call), symbol: spec.symbol, positionSide: p.positionSide ?? 'BOTH', amount, direction: p.type === '1' ? 'ADD' : 'REDUCE' },
      futuresRefusal(),
    );
    return { amount: Number(p.amount.text), code: 200, msg: 'Successfully modify position margin.', type: Number(p.type) };
  },
});

export const futuresSymbolConfig = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/symbolConfig',
  security: 'USER_DATA',
  weight: 5,
  schema: fapiSchema(withSigned([OPTIONAL_SYMBOL])),
  summary: "USDⓈ-M futures: the account's leverage, margin type and max notional per symbol",
  handler: (p, call) => {
    const accountId = accountOf(call);
    const specs = p.symbol === undefined ? marginSpecs(call) : [marginSpec(call, p.symbol)];
    return specs.map((spec) => {
      const s = settingsOf(call, spec, accountId);
      return { symbol: fapiName(spec), marginType: s.marginType, isAutoAddMargin: 'false', leverage: s.leverage, maxNotionalValue: money(call, spec, s.maxNotionalValue) };
    });
  },
});

/** One symbol's brackets as the docs show them (numbers). */
function bracketsJson(call: HandlerCall, spec: SymbolSpec): Record<string, unknown> {
  const brackets = contractOf(call, spec).brackets;
  return {
    symbol: fapiName(spec),
    brackets: brackets.map((b) => ({
      bracket: b.bracket,
      initialLeverage: b.initialLeverage,
      notionalCap: Number(b.notionalCap),
      notionalFloor: Number(b.notionalFloor),
      maintMarginRatio: Number(b.maintMarginRatio),
      cum: Number(b.cum),
    })),
  };
}

export const leverageBracket = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/leverageBracket',
  security: 'USER_DATA',
  weight: 1,
  schema: fapiSchema(withSigned([OPTIONAL_SYMBOL])),
  summary: 'USDⓈ-M futures: notional brackets per symbol (bracket, initialLeverage, notionalCap, notionalFloor, maintMarginRatio, cum)',
  handler: (p, call) => (p.symbol === undefined ? marginSpecs(call).map((s) => bracketsJson(call, s)) : bracketsJson(call, marginSpec(call, p.symbol))),
});

export const futuresCommissionRate = defineEndpoint({
  method: 'GET',
  path: '/fapi/v1/commissionRate',
  security: 'USER_DATA',
  weight: 20,
  schema: fapiSchema(withSigned([SYMBOL])),
  summary: "USDⓈ-M futures: the account's maker/taker commission rates of a symbol",
  handler: (p, call) => {
    const spec = marginSpec(call, p.symbol);
    // The account's rates (the contract's unless an override was set: SetFuturesCommissionRates).
    const rates = call.ctx.backend.engine.futuresCommissionRates(accountOf(call), spec.symbol);
    if (rates === undefined) throw new Error(`no commission rates for ${spec.symbol}`); // engine contract: every margin symbol has them
    const maker = frate(rates.maker);
    return { symbol: fapiName(spec), makerCommissionRate: maker, takerCommissionRate: frate(rates.taker), rpiCommissionRate: maker };
  },
});
