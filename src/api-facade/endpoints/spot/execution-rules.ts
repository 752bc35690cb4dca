/**
 * GET /api/v3/executionRules (General, weight by parameters) and GET
 * /api/v3/referencePrice/calculation (Market data, weight 2): the PRICE_RANGE execution rule
 * the engine enforces on takers and how the symbol's reference price is calculated.
 *
 * - executionRules takes `symbol`, `symbols` or `symbolStatus`, at most one of them (-1128
 *   otherwise); weight 2 for a symbol, 2 per symbol capped at 40 for a list, 40 for a status or
 *   for everything. Every selected symbol appears, with an empty `rules` list when it has none.
 *   Multipliers are decimal strings with four places (as the FAQ's example shows), more when the
 *   configured value needs them.
 * - referencePrice/calculation answers ARITHMETIC_MEAN {bucketCount, bucketWidthMs} for the
 *   engine's own mean, EXTERNAL {externalCalculationId 0} while a reference price is set from
 *   outside (method 0: set by an operator), and -2043 when the symbol has neither.
 */
import { apiError } from '../../core/index.ts';
import { exclusive, defineSchema } from '../../params/index.ts';
import { OPTIONAL_SYMBOL, SYMBOL, SYMBOL_STATUS, SYMBOLS, selectSymbols, statusMismatch, statusOf, symbolSpec } from '../common.ts';
import { defineEndpoint } from '../endpoint-row.ts';

/** "1.1" -> "1.1000"; keeps more places when the value has them. */
function multiplier(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  const trimmed = fraction.replace(/0+$/, '');
  return `${whole}.${trimmed.padEnd(4, '0')}`;
}

export const executionRules = defineEndpoint({
  method: 'GET',
  path: '/api/v3/executionRules',
  security: 'NONE',
  weight: (p) => (p.symbol !== undefined ? 2 : p.symbols !== undefined ? Math.min(40, 2 * p.symbols.length) : 40),
  schema: defineSchema([OPTIONAL_SYMBOL, SYMBOLS, SYMBOL_STATUS], [exclusive('symbol', 'symbols', 'symbolStatus')]),
  summary: 'PRICE_RANGE execution rules per symbol (the band takers must trade within)',
  handler: (p, call) => {
    const { specs } = selectSymbols(call, p);
    const engine = call.ctx.backend.engine;
    return {
      symbolRules: specs.map((spec) => ({
        symbol: spec.symbol,
        rules: engine.executionRules(spec.symbol).map((rule) => ({
          ruleType: rule.ruleType,
          bidLimitMultUp: multiplier(rule.bidLimitMultUp),
          bidLimitMultDown: multiplier(rule.bidLimitMultDown),
          askLimitMultUp: multiplier(rule.askLimitMultUp),
          askLimitMultDown: multiplier(rule.askLimitMultDown),
        })),
      })),
    };
  },
});

export const referencePriceCalculation = defineEndpoint({
  method: 'GET',
  path: '/api/v3/referencePrice/calculation',
  security: 'NONE',
  weight: 2,
  schema: defineSchema([SYMBOL, SYMBOL_STATUS]),
  summary: "How the symbol's reference price is calculated (ARITHMETIC_MEAN or EXTERNAL)",
  handler: (p, call) => {
    const spec = symbolSpec(call, p.symbol);
    if (p.symbolStatus !== undefined && statusOf(call, spec.symbol) !== p.symbolStatus) throw statusMismatch();
    const calc = call.ctx.backend.engine.referencePriceCalculation(spec.symbol);
    if (calc === null) throw apiError('NO_REFERENCE_PRICE');
    if (calc.calculationType === 'ARITHMETIC_MEAN') {
      return { symbol: spec.symbol, calculationType: calc.calculationType, bucketCount: calc.bucketCount, bucketWidthMs: calc.bucketWidthMs };
    }
    return { symbol: spec.symbol, calculationType: calc.calculationType, externalCalculationId: calc.externalCalculationId };
  },
});
